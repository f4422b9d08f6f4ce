/*
 * parse_iperf2.c: iperf 2.0.x / 2.1.x TCP client text output (plain and
 * -e enhanced); the exact -y C form is parse_iperf2_csv.c.
 *
 * Lines are reduced to report records (tag, interval, bytes, rate,
 * retransmits) and aggregated in two passes over the lines:
 * pass 1 finds each flow's and [SUM]'s last record (its final report when
 * the interval starts at 0), pass 2 collects the per-interval series.  The
 * final report wins over everything; without a final [SUM] (a stalled
 * flow) the totals are summed from the per-flow finals, and every flow
 * that connected must have one.  UDP and bidirectional runs are rejected:
 * their lines mix sender and receiver views and would give wrong TCP
 * numbers.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "parse_util.h"

#define I2_TAG_SUM	(-1)
#define I2_MAXCOLS	12
#define I2_MAX_WINDOW	1099511627776.0	/* 1 TiB */

enum i2_col {
	I2_COL_OTHER,
	I2_COL_RTRY,
	I2_COL_CWNDRTT
};

struct i2_rec {
	int	tag;		/* stream id, I2_TAG_SUM */
	double	start, end, bytes, bps;
	int64_t	rtry;
	int64_t	cwnd;
	double	rtt;
};

struct i2_ctx {
	int	ncols;			/* -e columns after the rate */
	enum i2_col cols[I2_MAXCOLS];
	int	cwnd_part, rtt_part;	/* in the Cwnd/RTT column */
	int	udp, bidir;
	int	interval_mode;		/* some report starts after 0 (-i) */
	int	pass2;
	char	failure[96];		/* first line that looks like an error */
};

static int	i2_part(const char *, size_t, int, const char **, size_t *);

struct i2_tagstat {
	size_t	count;
	size_t	last_lineno;
	struct i2_rec last;
};

static void
i2_note_failure(struct i2_ctx *c, const char *line, size_t len)
{
	static const char *words[] = { "failed", "refused", "error",
	    "unreachable", "timed out", "No route" };
	size_t i, j, n;

	/* Error messages are short; do not scan long junk lines. */
	if (c->failure[0] != '\0' || c->pass2 || len > 240)
		return;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i]);
		for (j = 0; j + n <= len; j++) {
			if (line[j] != words[i][0] ||
			    memcmp(line + j, words[i], n) != 0)
				continue;
			n = len < sizeof(c->failure) - 1 ? len :
			    sizeof(c->failure) - 1;
			for (j = 0; j < n; j++)
				c->failure[j] = (line[j] >= 0x20 &&
				    line[j] < 0x7f) ? line[j] : '?';
			c->failure[n] = '\0';
			return;
		}
	}
}

/* "32.0 KByte" -> bytes.  -1 on error. */
static int
i2_size(const struct parse_tok *num, const struct parse_tok *unit,
    int64_t *out)
{
	double v, m;

	if (parse_num(num->p, num->n, &v) == -1 || v < 0)
		return -1;
	m = parse_byte_unit(unit->p, unit->n);
	if (m < 0 || v * m > I2_MAX_WINDOW)
		return -1;
	*out = (int64_t)(v * m + 0.5);
	return 0;
}

/*
 * "TCP window size: 32.0 KByte (WARNING: requested 1.00 MByte)" or
 * "... 16384 Byte (default)".  Only the first one counts (the client's).
 */
static int
i2_window(const char *rest, size_t n, struct parse_iperf *out, char *err,
    size_t errlen)
{
	struct parse_tok t[PARSE_MAX_TOKS];
	size_t nt;

	nt = parse_split(rest, n, t, PARSE_MAX_TOKS);
	if (nt < 2 || nt > PARSE_MAX_TOKS || i2_size(&t[0], &t[1],
	    &out->window_granted) == -1) {
		parse_seterr(err, errlen, "iperf2: bad TCP window size line");
		return -1;
	}
	if (nt == 3 && parse_tok_eq(&t[2], "(default)"))
		out->window_default = 1;
	else if (nt == 6 && parse_tok_eq(&t[2], "(WARNING:") &&
	    parse_tok_eq(&t[3], "requested") && t[5].n > 1 &&
	    t[5].p[t[5].n - 1] == ')') {
		struct parse_tok u = t[5];

		u.n--;
		if (i2_size(&t[4], &u, &out->window_requested) == -1) {
			parse_seterr(err, errlen,
			    "iperf2: bad requested window size");
			return -1;
		}
	}
	return 0;
}

/* "Cwnd/RTT", "Cwnd/RTT(var)", "InF(pkts)/Cwnd(pkts)/RTT(var)": 1 and
 * the '/' parts holding cwnd and RTT. */
static int
i2_header_cwnd(struct i2_ctx *c, const struct parse_tok *t)
{
	const char *p;
	size_t n;
	int i, cw = -1, rtt = -1;

	for (i = 0; i < 4 && i2_part(t->p, t->n, i, &p, &n) == 0; i++) {
		if (n >= 4 && memcmp(p, "Cwnd", 4) == 0)
			cw = i;
		else if (n >= 3 && memcmp(p, "RTT", 3) == 0)
			rtt = i;
	}
	if (cw < 0 || rtt < 0)
		return 0;
	c->cwnd_part = cw;
	c->rtt_part = rtt;
	return 1;
}

/* Header "[ ID] Interval Transfer Bandwidth Write/Err Rtry Cwnd/RTT ...". */
static void
i2_header(struct i2_ctx *c, const struct parse_tok *t, size_t nt)
{
	size_t i, k;

	c->ncols = 0;
	for (i = 0; i < nt; i++)
		if (parse_tok_eq(&t[i], "Bandwidth") ||
		    parse_tok_eq(&t[i], "Bitrate"))
			break;
	for (k = i + 1; k < nt && c->ncols < I2_MAXCOLS; k++) {
		if (parse_tok_eq(&t[k], "Rtry") || parse_tok_eq(&t[k], "Retr"))
			c->cols[c->ncols++] = I2_COL_RTRY;
		else if (i2_header_cwnd(c, &t[k]))
			c->cols[c->ncols++] = I2_COL_CWNDRTT;
		else {
			if (parse_tok_eq(&t[k], "Jitter") ||
			    parse_tok_eq(&t[k], "PPS"))
				c->udp = 1;
			c->cols[c->ncols++] = I2_COL_OTHER;
		}
	}
}

/* Part i of a '/'-separated token, or -1 if it has fewer parts. */
static int
i2_part(const char *s, size_t n, int i, const char **p, size_t *pn)
{
	const char *end = s + n, *sl;

	for (; i > 0; i--) {
		if ((sl = memchr(s, '/', (size_t)(end - s))) == NULL)
			return -1;
		s = sl + 1;
	}
	sl = memchr(s, '/', (size_t)(end - s));
	*p = s;
	*pn = (size_t)((sl != NULL ? sl : end) - s);
	return 0;
}

/*
 * The Cwnd/RTT column: "2877K/408(745)", "-1K/238" or, with a header
 * "InF(pkts)/Cwnd(pkts)/RTT(var)", "22K(16)/24K(17)/56167(15843)".  The
 * header says which '/' part is which; "-1K" means no cwnd.
 */
static void
i2_cwndrtt(const struct i2_ctx *c, const struct parse_tok *t,
    struct i2_rec *r)
{
	const char *p, *k, *par;
	size_t n;
	double v;
	uint64_t u;

	if (i2_part(t->p, t->n, c->cwnd_part, &p, &n) == 0 &&
	    (k = memchr(p, 'K', n)) != NULL && k > p &&
	    parse_u64(p, (size_t)(k - p), &u) == 0 && u < (1u << 30))
		r->cwnd = (int64_t)u * 1024;
	if (i2_part(t->p, t->n, c->rtt_part, &p, &n) == 0) {
		par = memchr(p, '(', n);
		if (par != NULL)
			n = (size_t)(par - p);
		if (parse_num(p, n, &v) == 0 && v >= 0 && v < 1e9)
			r->rtt = v;
	}
}

static int
i2_extras(const struct i2_ctx *c, const struct parse_tok *t, size_t nt,
    struct i2_rec *r)
{
	size_t i;
	int col = 0;

	for (i = 0; i < nt && col < c->ncols; i++) {
		if (parse_tok_eq(&t[i], "us") || parse_tok_eq(&t[i], "pps") ||
		    parse_tok_eq(&t[i], "ms"))
			continue;
		if (c->cols[col] == I2_COL_RTRY) {
			if (parse_i64(t[i].p, t[i].n, &r->rtry) == -1 ||
			    r->rtry < 0)
				return -1;
		} else if (c->cols[col] == I2_COL_CWNDRTT)
			i2_cwndrtt(c, &t[i], r);
		col++;
	}
	return 0;
}

/* "0.0-30.0" (possibly split as "0.0-" "30.0") -> start, end. */
static int
i2_interval(const char *s, size_t n, double *start, double *end)
{
	const char *dash;

	dash = memchr(s, '-', n);
	if (dash == NULL || dash == s)
		return -1;
	if (parse_num(s, (size_t)(dash - s), start) == -1 ||
	    parse_num(dash + 1, (size_t)(s + n - dash - 1), end) == -1)
		return -1;
	if (*start < 0 || *end < *start || *end > PARSE_MAX_SECONDS)
		return -1;
	return 0;
}

static int
i2_values(struct i2_rec *r, const struct parse_tok *bn,
    const struct parse_tok *bu, const struct parse_tok *rn,
    const struct parse_tok *ru)
{
	double m;

	m = parse_byte_unit(bu->p, bu->n);
	if (m < 0 || parse_num(bn->p, bn->n, &r->bytes) == -1 ||
	    r->bytes < 0)
		return -1;
	r->bytes *= m;
	m = parse_rate_unit(ru->p, ru->n);
	if (m < 0 || parse_num(rn->p, rn->n, &r->bps) == -1 || r->bps < 0)
		return -1;
	r->bps *= m;
	if (r->bytes > PARSE_MAX_BYTES || r->bps > PARSE_MAX_BPS)
		return -1;
	return 0;
}

/*
 * A text line: 1 and *r for a report line, 0 for anything else, -1 for a
 * report line with bad numbers.
 */
static int
i2_text_line(struct i2_ctx *c, const char *line, size_t len,
    struct i2_rec *r)
{
	struct parse_tok t[PARSE_MAX_TOKS], iv;
	const char *close;
	char ivbuf[48];
	size_t nt, i = 0, taglen;
	uint64_t id;

	if (len == 0 || line[0] != '[') {
		if (parse_prefix(line, len, "Server listening", 0) != NULL)
			c->bidir = 1;
		if (parse_prefix(line, len, "UDP buffer size", 0) != NULL ||
		    parse_prefix(line, len, "Sending ", 0) != NULL)
			c->udp = 1;
		i2_note_failure(c, line, len);
		return 0;
	}
	close = memchr(line, ']', len);
	if (close == NULL)
		return 0;
	nt = parse_split(close + 1, (size_t)(line + len - close - 1), t,
	    PARSE_MAX_TOKS);
	if (nt > PARSE_MAX_TOKS)
		return -1;
	taglen = (size_t)(close - line - 1);
	while (taglen > 0 && line[1 + i] == ' ') {
		i++;
		taglen--;
	}
	if (taglen == 2 && memcmp(line + 1 + i, "ID", 2) == 0) {
		i2_header(c, t, nt);
		return 0;
	}
	if (taglen >= 3 && memcmp(line + 1 + i, "SUM", 3) == 0)
		r->tag = I2_TAG_SUM;
	else if (parse_u64(line + 1 + i, taglen, &id) == 0 && id < 1000000)
		r->tag = (int)id;
	else
		return 0;
	if (nt >= 2 && (parse_tok_eq(&t[1], "datagrams") ||
	    parse_tok_eq(&t[0], "Server")))
		c->udp = 1;
	/* Join "0.0-" "1.0" into one interval token. */
	i = 0;
	if (nt >= 2 && t[0].n > 0 && t[0].p[t[0].n - 1] == '-') {
		if (t[0].n + t[1].n >= sizeof(ivbuf))
			return -1;
		memcpy(ivbuf, t[0].p, t[0].n);
		memcpy(ivbuf + t[0].n, t[1].p, t[1].n);
		iv.p = ivbuf;
		iv.n = t[0].n + t[1].n;
		i = 2;
	} else if (nt >= 1) {
		iv = t[0];
		i = 1;
	}
	if (nt < i + 5 || !parse_tok_eq(&t[i], "sec"))
		return 0;
	if (i2_interval(iv.p, iv.n, &r->start, &r->end) == -1 ||
	    i2_values(r, &t[i + 1], &t[i + 2], &t[i + 3], &t[i + 4]) == -1 ||
	    i2_extras(c, t + i + 5, nt - i - 5, r) == -1)
		return -1;
	return 1;
}

static struct parse_stream *
i2_stream(struct parse_iperf *out, struct i2_tagstat *st, int id,
    struct i2_tagstat **stp)
{
	int i;

	for (i = 0; i < out->nstreams; i++)
		if (out->streams[i].id == id) {
			*stp = &st[i];
			return &out->streams[i];
		}
	if (out->nstreams == PARSE_MAX_STREAMS)
		return NULL;
	i = out->nstreams++;
	memset(&out->streams[i], 0, sizeof(out->streams[i]));
	out->streams[i].id = id;
	out->streams[i].retransmits = PARSE_UNKNOWN;
	out->streams[i].cwnd_bytes = PARSE_UNKNOWN;
	out->streams[i].rtt_us = -1;
	memset(&st[i], 0, sizeof(st[i]));
	*stp = &st[i];
	return &out->streams[i];
}

/* "[  3] local 10.0.0.1 port 5 connected with ..." registers a flow. */
static int
i2_connect_line(const char *line, size_t len, int *id)
{
	const char *close;
	size_t i = 1;
	uint64_t u;

	if (len < 4 || line[0] != '[' || (close = memchr(line, ']', len)) ==
	    NULL || parse_prefix(close + 1, (size_t)(line + len - close - 1),
	    "local ", 1) == NULL)
		return 0;
	while (line + i < close && line[i] == ' ')
		i++;
	if (parse_u64(line + i, (size_t)(close - line - (long)i), &u) == -1 ||
	    u >= 1000000)
		return 0;
	*id = (int)u;
	return 1;
}

typedef int (*i2_linefn)(struct i2_ctx *, const char *, size_t,
    struct i2_rec *);

/* Pass 1: headers, flows, each tag's last record. */
static int
i2_pass1(const char *text, size_t len, i2_linefn fn, struct i2_ctx *c,
    struct parse_iperf *out, struct i2_tagstat *st, struct i2_tagstat *sum,
    char *err, size_t errlen)
{
	struct parse_lines l;
	struct parse_stream *s;
	struct i2_tagstat *ts;
	struct i2_rec r;
	const char *line, *rest;
	size_t n;
	int rc, id, seen_window = 0;

	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		if (!seen_window && (rest = parse_prefix(line, n,
		    "TCP window size:", 0)) != NULL) {
			seen_window = 1;
			if (i2_window(rest, (size_t)(line + n - rest), out, err,
			    errlen) == -1)
				return -1;
			continue;
		}
		if (i2_connect_line(line, n, &id)) {
			if (i2_stream(out, st, id, &ts) == NULL)
				goto toomany;
			continue;
		}
		memset(&r, 0, sizeof(r));
		r.rtry = r.cwnd = PARSE_UNKNOWN;
		r.rtt = -1;
		if ((rc = fn(c, line, n, &r)) == 0)
			continue;
		if (rc == -1 && c->udp) {
			out->udp = 1;
			parse_seterr(err, errlen, "iperf2: %s", PARSE_ERR_UDP);
			return -1;
		}
		if (rc == -1) {
			parse_seterr(err, errlen, "iperf2: line %zu: malformed "
			    "or out-of-range report", l.lineno);
			return -1;
		}
		if (r.tag == I2_TAG_SUM) {
			ts = sum;
			out->sum_rows++;
		}
		else if ((s = i2_stream(out, st, r.tag, &ts)) == NULL)
			goto toomany;
		if (r.start > 0)
			c->interval_mode = 1;
		ts->count++;
		ts->last = r;
		ts->last_lineno = l.lineno;
	}
	return 0;
toomany:
	parse_seterr(err, errlen, "iperf2: more than %d flows",
	    PARSE_MAX_STREAMS);
	return -1;
}

/* Pass 2: the series (the [SUM] lines with several flows, else the flow's
 * lines), without the final report. */
static void
i2_pass2(const char *text, size_t len, i2_linefn fn, struct i2_ctx *c,
    struct parse_iperf *out, int tag, size_t final_lineno)
{
	struct parse_lines l;
	struct parse_interval *iv;
	struct i2_rec r;
	const char *line;
	size_t n;

	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		memset(&r, 0, sizeof(r));
		r.rtry = r.cwnd = PARSE_UNKNOWN;
		r.rtt = -1;
		if (fn(c, line, n, &r) != 1 || r.tag != tag ||
		    l.lineno == final_lineno)
			continue;
		if (out->nintervals == PARSE_MAX_INTERVALS) {
			out->intervals_truncated = 1;
			continue;
		}
		iv = &out->intervals[out->nintervals++];
		iv->start = r.start;
		iv->end = r.end;
		iv->bytes = r.bytes;
		iv->bps = r.bps;
		iv->retransmits = r.rtry;
		iv->cwnd_bytes = r.cwnd;
		iv->omitted = 0;
	}
}

static void
i2_set_final(struct parse_stream *s, const struct i2_rec *r)
{
	s->has_final = 1;
	s->start = r->start;
	s->end = r->end;
	s->bytes = r->bytes;
	s->bps = r->bps;
	s->retransmits = r->rtry;
	s->cwnd_bytes = r->cwnd;
	s->rtt_us = r->rtt;
}

/*
 * A tag's last record is its final report if it starts at 0 -- unless the
 * run has interval reports and it is also the tag's first record (then it
 * is the first interval of a cut-off output).
 */
static int
i2_is_final(const struct i2_ctx *c, const struct i2_tagstat *ts)
{
	return ts->count > 0 && ts->last.start == 0 &&
	    !(c->interval_mode && ts->count == 1);
}

/* Totals from the final [SUM], a single flow's final, or the flows' sum. */
static int
i2_totals(const struct i2_ctx *c, struct parse_iperf *out,
    struct i2_tagstat *st, struct i2_tagstat *sum, char *err, size_t errlen)
{
	int i, all_rtry = 1, sumfinal = i2_is_final(c, sum);
	double bytes = 0;
	int64_t rtry = 0;

	for (i = 0; i < out->nstreams; i++) {
		if (i2_is_final(c, &st[i]))
			i2_set_final(&out->streams[i], &st[i].last);
		else if (!sumfinal) {
			parse_seterr(err, errlen, "iperf2: flow [%d] has no "
			    "final report (truncated output?)",
			    out->streams[i].id);
			return -1;
		}
	}
	if (sumfinal) {
		out->bytes = sum->last.bytes;
		out->seconds = sum->last.end;
		out->bps = sum->last.bps;
		out->retransmits = sum->last.rtry;
	} else {
		for (i = 0; i < out->nstreams; i++) {
			bytes += out->streams[i].bytes;
			if (out->streams[i].end > out->seconds)
				out->seconds = out->streams[i].end;
			if (out->streams[i].retransmits < 0)
				all_rtry = 0;
			else
				rtry += out->streams[i].retransmits;
		}
		out->bytes = bytes;
		if (out->nstreams == 1) {
			out->bps = out->streams[0].bps;
		} else {
			/* iperf's own [SUM]: all bytes over the longest flow. */
			out->sum_from_streams = 1;
			out->bps = out->seconds > 0 ?
			    bytes * 8 / out->seconds : 0;
		}
		out->retransmits = all_rtry ? rtry : PARSE_UNKNOWN;
	}
	if (out->seconds <= 0) {
		parse_seterr(err, errlen, "iperf2: final report covers no time");
		return -1;
	}
	/* Each flow's figures passed the ceilings; their sum need not. */
	if (out->bytes > PARSE_MAX_BYTES || out->bps > PARSE_MAX_BPS) {
		parse_seterr(err, errlen, "iperf2: the flows' sum is past the "
		    "sanity ceiling (%.3g bytes, %.3g bit/s)", out->bytes,
		    out->bps);
		return -1;
	}
	out->sent_bytes = out->bytes;
	out->sent_bps = out->bps;
	return 0;
}

static int
i2_parse(const char *what, const char *text, size_t len, struct i2_ctx *c,
    i2_linefn fn, struct parse_iperf *out, char *err, size_t errlen)
{
	struct i2_tagstat st[PARSE_MAX_STREAMS];
	struct i2_tagstat sum;
	int tag;
	size_t final;

	parse_iperf_init(out, PARSE_TOOL_IPERF2);
	if (parse_check_input(what, text, len, err, errlen) == -1)
		return -1;
	memset(&sum, 0, sizeof(sum));
	if (i2_pass1(text, len, fn, c, out, st, &sum, err, errlen) == -1)
		return -1;
	if (c->udp) {
		out->udp = 1;
		parse_seterr(err, errlen, "%s: %s", what, PARSE_ERR_UDP);
		return -1;
	}
	if (c->bidir) {
		parse_seterr(err, errlen, "%s: bidirectional (-d/-r) output is "
		    "not supported", what);
		return -1;
	}
	if (out->nstreams == 0) {
		if (c->failure[0] != '\0') {
			out->tool_error = 1;
			parse_seterr(err, errlen, "%s: no report: %s", what,
			    c->failure);
		}
		else
			parse_seterr(err, errlen, "%s: no report lines", what);
		return -1;
	}
	if (i2_totals(c, out, st, &sum, err, errlen) == -1)
		return -1;
	if (out->nstreams > 1) {
		tag = I2_TAG_SUM;
		final = i2_is_final(c, &sum) ? sum.last_lineno : 0;
	} else {
		tag = out->streams[0].id;
		final = st[0].last_lineno;
	}
	/* Pass 2 re-reads headers from scratch. */
	c->ncols = 0;
	c->pass2 = 1;
	i2_pass2(text, len, fn, c, out, tag, final);
	return 0;
}

int
parse_iperf2(const char *text, size_t len, struct parse_iperf *out,
    char *err, size_t errlen)
{
	struct i2_ctx c;

	memset(&c, 0, sizeof(c));
	return i2_parse("iperf2", text, len, &c, i2_text_line, out, err,
	    errlen);
}
