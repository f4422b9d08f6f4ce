/*
 * notify.c: the subject line and the RFC 5322 message around the body
 * (notify_text.c).  Header values are built from fields anyone may have
 * written (a commit message, a host's driver name), so each passes
 * hdr_clean() -- no CR, LF or other control byte, ASCII only -- and long
 * ones are folded at spaces (RFC 5322 2.2.3).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "notify.h"
#include "notify_int.h"
#include "util.h"

#define HDR_FOLD	76	/* fold header lines before this column */

const char *
notify_str(const char *s)
{
	return s != NULL && *s != '\0' ? s : "-";
}

const char *
notify_kind_name(enum notify_kind k)
{
	switch (k) {
	case NOTIFY_REGRESSION:
		return "regression";
	case NOTIFY_FIXED:
		return "fixed";
	case NOTIFY_PAIR_BAD:
		return "pair-bad";
	}
	return "unknown";
}

/*
 * in -> out as one line of printable ASCII: each run of control bytes and
 * white space becomes one space, bytes >= 0x7f become '?', leading and
 * trailing spaces go.  out always NUL-terminated.
 */
static void
hdr_clean(char *out, size_t outlen, const char *in)
{
	size_t	o = 0;
	int	sp = 0;

	if (outlen == 0)
		return;
	for (; in != NULL && *in != '\0' && o + 1 < outlen; in++) {
		unsigned char c = (unsigned char)*in;

		if (c <= 0x20) {
			sp = o > 0;
			continue;
		}
		if (sp && o + 2 < outlen)
			out[o++] = ' ';
		sp = 0;
		out[o++] = c >= 0x7f ? '?' : (char)c;
	}
	out[o] = '\0';
}

static int
has(const char *s)
{
	return s != NULL && *s != '\0';
}

/* " -17.7%" from -0.177; "" when there is no figure. */
static void
pct(char *buf, size_t len, double change)
{
	if (isfinite(change))
		snprintf(buf, len, " %+.1f%%", change * 100.0);
	else
		buf[0] = '\0';
}

/* The subject before cleaning and cutting. */
static void
subject_raw(const struct notify_msg *m, char *s, size_t len)
{
	char	 what[256], ch[32], knobs[160];
	const char *drv = has(m->driver) ? m->driver : notify_str(m->link);

	knobs[0] = '\0';
	if (has(m->knobs))
		snprintf(knobs, sizeof knobs, " (%s)", m->knobs);
	pct(ch, sizeof ch, m->change);
	snprintf(what, sizeof what, "%s %s %s", drv, notify_str(m->workload),
	    notify_str(m->metric));
	if (m->kind == NOTIFY_PAIR_BAD) {
		snprintf(s, len, "[labrat] %s: health check failed, no jobs "
		    "until it passes", notify_str(m->link));
	} else if (m->kind == NOTIFY_FIXED) {
		snprintf(s, len, "[labrat] %s: %s regression fixed%s%s%s",
		    notify_str(m->culprit), what, ch[0] != '\0' ? ", now" : "",
		    ch, knobs);
	} else if (m->outcome != NULL && strcmp(m->outcome, "range") == 0) {
		snprintf(s, len, "[labrat] %s..%s: %s%s regression%s",
		    notify_str(m->range_first), notify_str(m->range_last),
		    what, ch, knobs);
	} else if (m->outcome != NULL && strcmp(m->outcome, "failed") == 0) {
		snprintf(s, len, "[labrat] %s: %s%s regression, bisect "
		    "failed%s", notify_str(m->link), what, ch, knobs);
	} else {
		snprintf(s, len, "[labrat] %s: %s%s regression%s",
		    notify_str(m->culprit), what, ch, knobs);
	}
}

int
notify_subject(const struct notify_msg *m, char *buf, size_t len)
{
	char	raw[1024], clean[NOTIFY_SUBJECT_MAX + 1];
	size_t	max = len - 1 < NOTIFY_SUBJECT_MAX ? len - 1 : NOTIFY_SUBJECT_MAX;

	if (len < 16)
		return -1;
	subject_raw(m, raw, sizeof raw);
	hdr_clean(clean, sizeof clean, raw);
	if (strlen(raw) > max || strlen(clean) > max) {
		hdr_clean(clean, max - 3 + 1, raw);
		snprintf(buf, len, "%s...", clean);
	} else
		snprintf(buf, len, "%s", clean);
	return 0;
}

/*
 * "Name: value" folded at spaces before HDR_FOLD columns (a word longer
 * than a line stays whole: the 998-octet limit is far), then CRLF.
 */
static int
hdr_put(struct buf *b, const char *name, const char *value)
{
	size_t	col, n;
	const char *p = value, *sp;

	buf_printf(b, "%s:", name);
	col = strlen(name) + 1;
	while (*p != '\0') {
		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		sp = strchr(p, ' ');
		n = sp != NULL ? (size_t)(sp - p) : strlen(p);
		if (col + 1 + n > HDR_FOLD && col > strlen(name) + 1) {
			buf_append(b, "\r\n", 2);
			col = 0;
		}
		buf_append(b, " ", 1);
		buf_append(b, p, n);
		col += 1 + n;
		p += n;
	}
	return buf_append(b, "\r\n", 2);
}

/* RFC 5322 3.3 date-time in UTC, locale-independent. */
static void
rfc5322_date(char *buf, size_t len, time_t when)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu",
	    "Fri", "Sat" };
	static const char *const mons[] = { "Jan", "Feb", "Mar", "Apr", "May",
	    "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm	tm;

	gmtime_r(&when, &tm);
	snprintf(buf, len, "%s, %02d %s %04d %02d:%02d:%02d +0000",
	    days[tm.tm_wday], tm.tm_mday, mons[tm.tm_mon], tm.tm_year + 1900,
	    tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* A dot-atom for the Message-ID's right side. */
static void
id_host(char *out, size_t len, const char *in)
{
	char	host[256];
	size_t	o = 0;

	if (in == NULL) {
		if (gethostname(host, sizeof host) == -1)
			host[0] = '\0';
		host[sizeof host - 1] = '\0';
		in = host;
	}
	for (; *in != '\0' && o + 1 < len; in++)
		if (isalnum((unsigned char)*in) || *in == '-' || *in == '.')
			out[o++] = *in;
	out[o] = '\0';
	if (o == 0 || out[0] == '.' || out[o - 1] == '.')
		snprintf(out, len, "localhost");
}

static void
mail_headers(struct buf *b, const struct notify_msg *m, const char *from,
    const char *const *to, time_t when, const char *idhost)
{
	static unsigned	 seq;
	char		 v[1024], subj[NOTIFY_SUBJECT_MAX + 1], host[128];
	struct buf	 tos;
	size_t		 i;

	rfc5322_date(v, sizeof v, when);
	hdr_put(b, "Date", v);
	hdr_clean(v, sizeof v, from != NULL ? from : "labrat");
	hdr_put(b, "From", v);
	buf_init(&tos, 16 * 1024);
	for (i = 0; to != NULL && to[i] != NULL; i++) {
		hdr_clean(v, sizeof v, to[i]);
		if (v[0] != '\0')
			buf_printf(&tos, "%s%s", tos.len > 0 ? ", " : "", v);
	}
	hdr_put(b, "To", tos.len > 0 ? tos.data : "undisclosed-recipients:;");
	buf_free(&tos);
	notify_subject(m, subj, sizeof subj);
	hdr_put(b, "Subject", subj);
	id_host(host, sizeof host, idhost);
	snprintf(v, sizeof v, "<labrat.%s.%lld.%lld.%lld.%ld.%u@%s>",
	    notify_kind_name(m->kind), (long long)m->regression_id,
	    (long long)m->bisect_id, (long long)when, (long)getpid(),
	    __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED), host);
	hdr_put(b, "Message-ID", v);
	hdr_put(b, "MIME-Version", "1.0");
	hdr_put(b, "Content-Type", "text/plain; charset=utf-8");
	hdr_put(b, "Content-Transfer-Encoding", "8bit");
	hdr_put(b, "X-Labrat-Kind", notify_kind_name(m->kind));
	if (m->regression_id > 0) {
		snprintf(v, sizeof v, "%lld", (long long)m->regression_id);
		hdr_put(b, "X-Labrat-Regression", v);
	}
	if (m->bisect_id > 0) {
		snprintf(v, sizeof v, "%lld", (long long)m->bisect_id);
		hdr_put(b, "X-Labrat-Bisect", v);
	}
	hdr_clean(v, sizeof v, m->link);
	if (v[0] != '\0')
		hdr_put(b, "X-Labrat-Link", v);
	buf_append(b, "\r\n", 2);
}

char *
notify_mail_text_at(const struct notify_msg *m, const char *from,
    const char *const *to, time_t when, const char *idhost)
{
	struct buf	b;

	buf_init(&b, NOTIFY_MAIL_MAX);
	mail_headers(&b, m, from, to, when, idhost);
	notify_body(&b, m);
	if (b.truncated) {
		/* Never cut mid-line: end on the last whole line. */
		char *nl = strrchr(b.data, '\n');

		if (nl != NULL) {
			b.len = (size_t)(nl - b.data) + 1;
			b.data[b.len] = '\0';
		}
	}
	return buf_release(&b);
}

char *
notify_mail_text(const struct notify_msg *m, const char *from,
    const char *const *to)
{
	return notify_mail_text_at(m, from, to, time(NULL), NULL);
}
