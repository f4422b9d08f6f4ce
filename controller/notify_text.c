/*
 * notify_text.c: the plain-text body, as the 0-day robot writes it: what
 * regressed and by how much first, then the commit, the figures, whether
 * the culprit was verified, the hosts, the knobs, how to reproduce and
 * the bisect log.  Text from fields is indented and made safe line by
 * line (notify_block), so nothing a commit message holds can end the
 * message, start a header or drive a terminal.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify.h"
#include "notify_int.h"
#include "util.h"

#define CRLF	"\r\n"

/* One line of the body, CRLF appended. */
static int
line(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
line(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	/* Field values in a format pass through the block cleaner too. */
	r = notify_block(b, "", s, NOTIFY_LINE_MAX * 4);
	free(s);
	return r;
}

#define PARA_WIDTH	72

/* A paragraph, word-wrapped at PARA_WIDTH columns. */
static int
para(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
para(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;
	char	*s, *p, *brk;
	size_t	 col = 0;
	int	 r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	/* Replace the last space before each PARA_WIDTH column by LF. */
	brk = NULL;
	for (p = s; *p != '\0'; p++, col++) {
		if (*p == '\n') {
			col = 0;
			brk = NULL;
			continue;
		}
		if (*p == ' ')
			brk = p;
		if (col >= PARA_WIDTH && brk != NULL) {
			*brk = '\n';
			col = (size_t)(p - brk) - 1;
			brk = NULL;
		}
	}
	r = notify_block(b, "", s, NOTIFY_LINE_MAX * 8);
	free(s);
	return r;
}

/* Appends one piece of a cleaned line: at most NOTIFY_LINE_MAX bytes each. */
static void
put_cut(struct buf *b, const char *indent, const char *s)
{
	size_t	len = strlen(s), n;

	do {
		n = len;
		if (n > NOTIFY_LINE_MAX) {
			n = NOTIFY_LINE_MAX;
			/* not inside a UTF-8 sequence */
			while (n > 1 && ((unsigned char)s[n] & 0xc0) == 0x80)
				n--;
		}
		buf_append(b, indent, strlen(indent));
		buf_append(b, s, n);
		buf_append(b, CRLF, 2);
		s += n;
		len -= n;
	} while (len > 0);
}

/* One input line (no LF): trailing CR dropped, tabs expanded, escaped. */
static void
put_line(struct buf *b, const char *indent, const char *s, size_t n)
{
	char	*tab, *safe;
	size_t	 i, o = 0;

	if (n > 0 && s[n - 1] == '\r')
		n--;
	tab = xmalloc(n * 8 + 1);
	for (i = 0; i < n; i++) {
		if (s[i] == '\t') {
			do
				tab[o++] = ' ';
			while (o % 8 != 0);
		} else
			tab[o++] = s[i];
	}
	safe = xmalloc(o * 6 + 1);
	util_term_safe(safe, o * 6 + 1, tab, o);
	put_cut(b, indent, safe);
	free(safe);
	free(tab);
}

int
notify_block(struct buf *b, const char *indent, const char *text, size_t max)
{
	const char	*p, *nl, *end;
	size_t		 len;

	if (text == NULL)
		return b->truncated ? -1 : 0;
	len = strlen(text);
	end = text + (len > max ? max : len);
	if (len == 0)
		put_line(b, indent, text, 0);
	for (p = text; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		put_line(b, indent, p, (size_t)(nl - p));
		if (nl == end)
			break;
	}
	if (len > max)
		buf_printf(b, "%s[... %zu more bytes left out]" CRLF, indent,
		    len - max);
	return b->truncated ? -1 : 0;
}

static const char *
unit(const struct notify_msg *m)
{
	return m->unit != NULL && *m->unit != '\0' ? m->unit : "";
}

/* "933.1 Mbit/s" or "-" when not measured. */
static const char *
fig(char *buf, size_t len, const struct notify_msg *m, double v)
{
	if (!isfinite(v) || v == 0.0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f %s", v, unit(m));
	return buf;
}

static void
figures(struct buf *b, const struct notify_msg *m, const char *what)
{
	char	pm[64], cm[64];

	line(b, "%s %s%s%s%s", notify_str(m->workload), notify_str(m->metric),
	    *unit(m) != '\0' ? " (" : "", unit(m), *unit(m) != '\0' ? ")" : "");
	line(b, "  parent   %-14s median %-16s n=%d", notify_str(m->parent),
	    fig(pm, sizeof pm, m, m->parent_median), m->n_parent);
	line(b, "  %-8s %-14s median %-16s n=%d", what, notify_str(m->culprit),
	    fig(cm, sizeof cm, m, m->culprit_median), m->n_culprit);
	if (isfinite(m->p) && m->p >= 0.0)
		line(b, "  change   %+.1f%%  (p = %.3g)", m->change * 100.0, m->p);
	else
		line(b, "  change   %+.1f%%", m->change * 100.0);
	line(b, "%s", "");
}

static void
hosts(struct buf *b, const struct notify_msg *m)
{
	int	knobs = m->kind != NOTIFY_PAIR_BAD;

	line(b, "Hosts");
	line(b, "  link:    %s", notify_str(m->link));
	line(b, "  client:  %s", notify_str(m->client));
	line(b, "  server:  %s", notify_str(m->server));
	line(b, "  driver:  %s", notify_str(m->driver));
	line(b, "  chip:    %s", notify_str(m->chip));
	line(b, "%s", "");
	if (knobs) {
		line(b, "Knobs");
		line(b, "  %s", notify_str(m->knobs));
		line(b, "%s", "");
	}
}

static void
tail(struct buf *b, const struct notify_msg *m)
{
	if (m->reproduce != NULL && *m->reproduce != '\0') {
		line(b, "To reproduce");
		notify_block(b, "  ", m->reproduce, NOTIFY_LOG_MAX);
		line(b, "%s", "");
	}
	if (m->bisect_log != NULL && *m->bisect_log != '\0') {
		line(b, "Bisect log");
		notify_block(b, "  ", m->bisect_log, NOTIFY_LOG_MAX);
		line(b, "%s", "");
	}
	buf_append(b, "-- " CRLF, 5);
	if (m->regression_id > 0 && m->bisect_id > 0)
		line(b, "labrat regression robot: regression %lld, bisect %lld",
		    (long long)m->regression_id, (long long)m->bisect_id);
	else if (m->regression_id > 0)
		line(b, "labrat regression robot: regression %lld",
		    (long long)m->regression_id);
	else
		line(b, "labrat regression robot");
}

static void
regression(struct buf *b, const struct notify_msg *m)
{
	const char *out = m->outcome != NULL ? m->outcome : "culprit";

	line(b, "Greeting,");
	line(b, "%s", "");
	para(b, "labrat's nightly run found a %+.1f%% regression of %s %s on "
	    "link %s (%s -> %s, %s, chip %s) with %s.", m->change * 100.0,
	    notify_str(m->workload), notify_str(m->metric),
	    notify_str(m->link), notify_str(m->client), notify_str(m->server),
	    notify_str(m->driver), notify_str(m->chip), notify_str(m->knobs));
	line(b, "%s", "");
	if (strcmp(out, "range") == 0) {
		line(b, "The bisect narrowed it to a range, no single commit:");
		line(b, "  first:  %s", notify_str(m->range_first));
		line(b, "  last:   %s", notify_str(m->range_last));
	} else if (strcmp(out, "failed") == 0) {
		line(b, "The bisect failed before it found the commit; its log "
		    "says where it stopped.");
	} else {
		line(b, "commit: %s", notify_str(m->culprit));
		notify_block(b, "        ", notify_str(m->culprit_msg), 4096);
	}
	line(b, "parent: %s", notify_str(m->parent));
	line(b, "%s", "");
	figures(b, m, "culprit");
	if (strcmp(out, "culprit") == 0)
		line(b, "verified: %s", m->verified ? "yes (the culprit tested "
		    "bad, its parent good)" : "no (the endpoints were not both "
		    "re-measured)");
	else
		line(b, "verified: no (outcome %s)", out);
	line(b, "%s", "");
	hosts(b, m);
	tail(b, m);
}

static void
fixed(struct buf *b, const struct notify_msg *m)
{
	line(b, "Greeting,");
	line(b, "%s", "");
	para(b, "labrat's nightly run measured %s %s back within the "
	    "threshold at %s, on link %s (%s -> %s, %s, chip %s) with %s: "
	    "now %+.1f%% against the good baseline.", notify_str(m->workload),
	    notify_str(m->metric), notify_str(m->culprit), notify_str(m->link),
	    notify_str(m->client), notify_str(m->server), notify_str(m->driver),
	    notify_str(m->chip), notify_str(m->knobs), m->change * 100.0);
	line(b, "Regression %lld is closed as fixed.",
	    (long long)m->regression_id);
	line(b, "%s", "");
	figures(b, m, "tonight");
	hosts(b, m);
	tail(b, m);
}

static void
pair_bad(struct buf *b, const struct notify_msg *m)
{
	line(b, "Greeting,");
	line(b, "%s", "");
	para(b, "labrat's health check of link %s (%s -> %s, %s, chip %s) "
	    "failed:", notify_str(m->link), notify_str(m->client),
	    notify_str(m->server), notify_str(m->driver), notify_str(m->chip));
	line(b, "%s", "");
	notify_block(b, "  ", notify_str(m->health_why), 16 * 1024);
	line(b, "%s", "");
	para(b, "The link is now \"bad\": it gets no jobs and its runs are "
	    "left out of detection until a health check passes (the "
	    "daemon's next one, or `labrat hosts check` once it is "
	    "repaired).");
	line(b, "%s", "");
	hosts(b, m);
	tail(b, m);
}

int
notify_body(struct buf *b, const struct notify_msg *m)
{
	switch (m->kind) {
	case NOTIFY_REGRESSION:
		regression(b, m);
		break;
	case NOTIFY_FIXED:
		fixed(b, m);
		break;
	case NOTIFY_PAIR_BAD:
		pair_bad(b, m);
		break;
	}
	return b->truncated ? -1 : 0;
}
