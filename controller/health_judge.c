/*
 * health_judge: the pure part of the health check.  A check's facts are
 * kept as text lines "HOST IF os=OS driver=D chip=C", one per end (the
 * store keeps the last passing check's; no JSON parser is needed to read
 * them back), and compared field by field; a figure is held against the
 * pair's last good one with the tolerance.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "health_int.h"

#define JUDGE_FIELDS	3	/* os, driver, chip */

static const char *const judge_keys[JUDGE_FIELDS] = { "os", "driver", "chip" };

void
health_text_add(char *buf, size_t len, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 off = strlen(buf);

	if (off > 0 && off + 2 < len) {
		memcpy(buf + off, "; ", 3);
		off += 2;
	}
	if (off + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
}

void
health_time(int64_t ms, int iso, char *buf, size_t len)
{
	struct tm	tm;
	time_t		t = (time_t)(ms / 1000);

	if (ms <= 0 || gmtime_r(&t, &tm) == NULL)
		snprintf(buf, len, "-");
	else
		strftime(buf, len, iso ? "%Y-%m-%dT%H:%M:%SZ" :
		    "%Y-%m-%d %H:%M:%S", &tm);
}

/* s made one word: "-" when empty, blanks as '_', cut at 63 bytes. */
static void
judge_word(char *dst, size_t len, const char *s)
{
	size_t	i;

	if (s == NULL || *s == '\0')
		s = "-";
	snprintf(dst, len, "%s", s);
	for (i = 0; dst[i] != '\0'; i++)
		if (dst[i] == ' ' || dst[i] == '\t' || dst[i] == '\n' ||
		    dst[i] == '=')
			dst[i] = '_';
}

void
health_facts_line(char *buf, size_t len, const char *host, const char *ifname,
    const char *os, const char *driver, const char *chip)
{
	char	w[5][64];
	size_t	off = strlen(buf);

	judge_word(w[0], sizeof w[0], host);
	judge_word(w[1], sizeof w[1], ifname);
	judge_word(w[2], sizeof w[2], os);
	judge_word(w[3], sizeof w[3], driver);
	judge_word(w[4], sizeof w[4], chip);
	if (off < len)
		snprintf(buf + off, len - off, "%s %s os=%s driver=%s chip=%s\n",
		    w[0], w[1], w[2], w[3], w[4]);
}

/* One parsed line: host, ifname and the fields' values. */
struct judge_line {
	char	host[64], ifname[64];
	char	val[JUDGE_FIELDS][64];
};

/* The next line of *s into l; 0 when there is none left. */
static int
judge_next(const char **s, struct judge_line *l)
{
	char		 line[512], *tok, *save = NULL, *eq;
	const char	*nl;
	size_t		 n, k;
	int		 i;

	while (**s == '\n')
		(*s)++;
	if (**s == '\0')
		return 0;
	nl = strchr(*s, '\n');
	n = nl != NULL ? (size_t)(nl - *s) : strlen(*s);
	snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n :
	    sizeof line - 1), *s);
	*s += n;
	memset(l, 0, sizeof *l);
	for (i = 0, tok = strtok_r(line, " ", &save); tok != NULL;
	    i++, tok = strtok_r(NULL, " ", &save)) {
		if (i == 0)
			snprintf(l->host, sizeof l->host, "%s", tok);
		else if (i == 1)
			snprintf(l->ifname, sizeof l->ifname, "%s", tok);
		else if ((eq = strchr(tok, '=')) != NULL)
			for (k = 0; k < JUDGE_FIELDS; k++)
				if ((size_t)(eq - tok) == strlen(judge_keys[k]) &&
				    strncmp(tok, judge_keys[k], (size_t)(eq -
				    tok)) == 0)
					snprintf(l->val[k], sizeof l->val[k],
					    "%s", eq + 1);
	}
	return 1;
}

int
health_facts_same(const char *before, const char *now, char *why, size_t len)
{
	struct judge_line	 a, b;
	const char		*p, *q;
	size_t			 k;
	int			 same = 1;

	if (why != NULL && len > 0)
		why[0] = '\0';
	if (before == NULL || now == NULL)
		return 1;
	for (q = now; judge_next(&q, &b);)
		for (p = before; judge_next(&p, &a);) {
			if (strcmp(a.host, b.host) != 0 ||
			    strcmp(a.ifname, b.ifname) != 0)
				continue;
			for (k = 0; k < JUDGE_FIELDS; k++) {
				if (strcasecmp(a.val[k], b.val[k]) == 0)
					continue;
				same = 0;
				if (why != NULL)
					health_text_add(why, len, "%s %s: %s "
					    "%s at the last passing check, "
					    "now %s", b.host, b.ifname,
					    judge_keys[k], a.val[k], b.val[k]);
			}
		}
	return same;
}

int
health_figure_ok(double figure, double last_good, double tolerance,
    char *why, size_t len)
{
	if (why != NULL && len > 0)
		why[0] = '\0';
	if (last_good <= 0 || figure >= (1.0 - tolerance) * last_good)
		return 1;
	if (why != NULL)
		snprintf(why, len, "iperf3 at the default knobs gave %.0f "
		    "Mbit/s, %.0f %% below the pair's last good figure %.0f "
		    "Mbit/s (tolerance %.0f %%)", figure / 1e6,
		    (1.0 - figure / last_good) * 100.0, last_good / 1e6,
		    tolerance * 100.0);
	return 0;
}
