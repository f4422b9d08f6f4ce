/*
 * parse_iperf2_csv.c: iperf2's -y C report, the form labrat runs iperf2
 * with because its byte and bit-per-second figures are exact integers (the
 * text output rounds both to 3 significant digits).
 *
 * Layouts (keyed on a header row, else on the field count):
 *   9 fields   2.0.x-2.1.8, also with -e (Debian's 2.1.8):
 *              time,src,sport,dst,dport,id,start-end,bytes,bps
 *   15 fields  2.1.9+ with -e: the 9, then writecnt,writeerr,tcpretry,
 *              tcpcwnd,tcprtt,tcprttvar; time may carry "+0000:"
 *   header     2.2.x with -e: "time,srcaddress,...,istart,iend,bytes,
 *              speed,...,tcpretry,..." (17 columns), rows as wide
 *   14 fields  legacy UDP (jitter, loss): refused like every UDP report
 * The timestamp is never read (2.1.8 may print a dummy one).  One row per
 * interval and flow, then the flow's total row (start 0); id -1 is [SUM].
 * Debian's 2.1.8 prints no [SUM] rows with -P: the totals are then summed
 * from the flows' total rows.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "parse.h"
#include "parse_util.h"

#define CSV_MAXF	32
#define CSV_U32_NA	4294967295LL	/* "not available" of a u32 counter */
#define CSV_SUM		(-1)

struct csv_cols {
	int	n;		/* fields a row has; 0 before the first row */
	int	header;		/* 1: from a header row */
	int	id, iv, start, end, bytes, bps, rtry;	/* -1 absent */
};

struct csv_row {
	int	id;
	double	start, end;
	uint64_t bytes, bps;
	int64_t	rtry;		/* PARSE_UNKNOWN */
};

struct csv_tag {
	int	id;
	size_t	count;
	size_t	last_lineno;
	struct csv_row last;
};

struct csv_ctx {
	struct csv_cols cols;
	int	udp;
	int	interval_mode;	/* some row starts after 0 (-i) */
	int	ntags;
	struct csv_tag tags[PARSE_MAX_STREAMS + 1];	/* flows and [SUM] */
	char	text[96];	/* first line that is not CSV */
};

static int
csv_nfields(const char *s, size_t n)
{
	int k = 1;

	while (n-- > 0)
		if (*s++ == ',')
			k++;
	return k;
}

static int
csv_field_eq(const struct parse_tok *f, const char *s)
{
	return parse_tok_eq(f, s);
}

static void
csv_header(struct csv_ctx *c, const struct parse_tok *f, size_t nf)
{
	struct csv_cols *k = &c->cols;
	size_t i;

	memset(k, 0, sizeof(*k));
	k->id = k->iv = k->start = k->end = k->bytes = k->bps = k->rtry = -1;
	k->header = 1;
	k->n = (int)nf;
	for (i = 0; i < nf; i++) {
		if (csv_field_eq(&f[i], "transferid"))
			k->id = (int)i;
		else if (csv_field_eq(&f[i], "istart"))
			k->start = (int)i;
		else if (csv_field_eq(&f[i], "iend"))
			k->end = (int)i;
		else if (csv_field_eq(&f[i], "interval"))
			k->iv = (int)i;
		else if (csv_field_eq(&f[i], "bytes"))
			k->bytes = (int)i;
		else if (csv_field_eq(&f[i], "speed") ||
		    csv_field_eq(&f[i], "bits_per_second"))
			k->bps = (int)i;
		else if (csv_field_eq(&f[i], "tcpretry"))
			k->rtry = (int)i;
		else if (csv_field_eq(&f[i], "jitter") ||
		    csv_field_eq(&f[i], "lost"))
			c->udp = 1;
	}
}

/* Layout of a headerless row of nf fields; -1 unknown. */
static int
csv_layout(struct csv_ctx *c, size_t nf)
{
	struct csv_cols *k = &c->cols;

	if (k->header)
		return (int)nf == k->n ? 0 : -1;
	if (nf == 14) {
		c->udp = 1;
		return -1;
	}
	if (nf != 9 && nf != 15)
		return -1;
	k->n = (int)nf;
	k->id = 5;
	k->iv = 6;
	k->start = k->end = -1;
	k->bytes = 7;
	k->bps = 8;
	k->rtry = nf == 15 ? 11 : -1;
	return 0;
}

/* "0.0-30.0" -> start, end. */
static int
csv_interval(const struct parse_tok *f, double *start, double *end)
{
	const char *dash = f->n > 1 ? memchr(f->p + 1, '-', f->n - 1) : NULL;

	if (dash == NULL || parse_num(f->p, (size_t)(dash - f->p), start) ||
	    parse_num(dash + 1, (size_t)(f->p + f->n - dash - 1), end))
		return -1;
	return 0;
}

static int
csv_row(const struct csv_cols *k, const struct parse_tok *f,
    struct csv_row *r)
{
	int64_t id;

	if (k->id < 0 || k->bytes < 0 || k->bps < 0)
		return -1;
	if (k->iv >= 0) {
		if (csv_interval(&f[k->iv], &r->start, &r->end) == -1)
			return -1;
	} else if (k->start < 0 || k->end < 0 ||
	    parse_num(f[k->start].p, f[k->start].n, &r->start) ||
	    parse_num(f[k->end].p, f[k->end].n, &r->end))
		return -1;
	if (r->start < 0 || r->end < r->start || r->end > PARSE_MAX_SECONDS)
		return -1;
	if (parse_i64(f[k->id].p, f[k->id].n, &id) == -1 || id < -1 ||
	    id > 999999)
		return -1;
	r->id = (int)id;
	if (parse_u64(f[k->bytes].p, f[k->bytes].n, &r->bytes) == -1 ||
	    (double)r->bytes > PARSE_MAX_BYTES ||
	    parse_u64(f[k->bps].p, f[k->bps].n, &r->bps) == -1 ||
	    (double)r->bps > PARSE_MAX_BPS)
		return -1;
	r->rtry = PARSE_UNKNOWN;
	if (k->rtry >= 0) {
		if (parse_i64(f[k->rtry].p, f[k->rtry].n, &r->rtry) == -1 ||
		    r->rtry < -1 || r->rtry > CSV_U32_NA)
			return -1;
		if (r->rtry == CSV_U32_NA || r->rtry == -1)
			r->rtry = PARSE_UNKNOWN;
	}
	return 0;
}

/*
 * One line: 1 and *r for a data row, 0 for a header, blank or non-CSV
 * line, -1 for a bad row.
 */
static int
csv_line(struct csv_ctx *c, const char *line, size_t len, struct csv_row *r)
{
	struct parse_tok f[CSV_MAXF];
	size_t nf = 0, i, start = 0, n;

	if (len == 0)
		return 0;
	if (memchr(line, ',', len) == NULL) {
		if (c->text[0] == '\0') {
			n = len < sizeof(c->text) - 1 ? len :
			    sizeof(c->text) - 1;
			for (i = 0; i < n; i++)
				c->text[i] = (line[i] >= 0x20 &&
				    line[i] < 0x7f) ? line[i] : '?';
			c->text[n] = '\0';
		}
		return 0;
	}
	for (i = 0; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		if (nf == CSV_MAXF)
			return -1;
		f[nf].p = line + start;
		f[nf++].n = i - start;
		start = i + 1;
	}
	if (csv_field_eq(&f[0], "time")) {
		csv_header(c, f, nf);
		return 0;
	}
	if (csv_layout(c, nf) == -1 || csv_row(&c->cols, f, r) == -1)
		return -1;
	return 1;
}

static struct csv_tag *
csv_tag(struct csv_ctx *c, int id)
{
	int i;

	for (i = 0; i < c->ntags; i++)
		if (c->tags[i].id == id)
			return &c->tags[i];
	if (c->ntags == PARSE_MAX_STREAMS + 1)
		return NULL;
	memset(&c->tags[c->ntags], 0, sizeof(c->tags[0]));
	c->tags[c->ntags].id = id;
	return &c->tags[c->ntags++];
}

/* The tag's last row is its total row (see parse_iperf2.c: a first row
 * starting at 0 of an -i run is an interval). */
static int
csv_has_total(const struct csv_ctx *c, const struct csv_tag *t)
{
	return t != NULL && t->count > 0 && t->last.start == 0 &&
	    !(c->interval_mode && t->count == 1);
}

static int
csv_pass1(const char *text, size_t len, struct csv_ctx *c,
    struct parse_iperf *out, char *err, size_t errlen)
{
	struct parse_lines l;
	struct csv_tag *t;
	struct csv_row r;
	const char *line;
	size_t n;
	int rc;

	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		memset(&r, 0, sizeof(r));
		if ((rc = csv_line(c, line, n, &r)) == 0)
			continue;
		if (rc == -1 && c->udp)
			break;
		if (rc == -1) {
			parse_seterr(err, errlen, "iperf2 CSV: line %zu: "
			    "malformed or out-of-range row (%d fields; 9, 15 "
			    "or a header row's count expected)", l.lineno,
			    csv_nfields(line, n));
			return -1;
		}
		if ((t = csv_tag(c, r.id)) == NULL) {
			parse_seterr(err, errlen, "iperf2 CSV: more than %d "
			    "flows", PARSE_MAX_STREAMS);
			return -1;
		}
		if (r.id == CSV_SUM)
			out->sum_rows++;
		if (r.start > 0)
			c->interval_mode = 1;
		t->count++;
		t->last = r;
		t->last_lineno = l.lineno;
	}
	if (c->udp) {
		out->udp = 1;
		parse_seterr(err, errlen, "iperf2 CSV: %s", PARSE_ERR_UDP);
		return -1;
	}
	return 0;
}

/*
 * Every flow that printed rows must have its total row.  [SUM] rows
 * without their total (a stalled flow) leave the totals to the flows;
 * parse_iperf_check refuses such a run as a sample.
 */
static int
csv_require_totals(const struct csv_ctx *c, char *err, size_t errlen)
{
	const struct csv_tag *t;
	int i;

	for (i = 0; i < c->ntags; i++) {
		t = &c->tags[i];
		if (csv_has_total(c, t) || t->id == CSV_SUM)
			continue;
		parse_seterr(err, errlen, "iperf2 CSV: flow %d: %zu interval "
		    "row%s up to %.1f s but no total row (cut off?)", t->id,
		    t->count, t->count == 1 ? "" : "s", t->last.end);
		return -1;
	}
	return 0;
}

/*
 * The duration behind a total row: iperf's own bps is bytes * 8 over its
 * measured time (the printed interval is rounded to 0.1 s).  Kept to the
 * microsecond iperf2 measures in, so that the reported bps, bytes * 8 /
 * seconds, holds for the printed figures too.
 */
static double
csv_seconds(const struct csv_row *r)
{
	double s;

	if (r->bps == 0)
		return 0;
	s = (double)r->bytes * 8.0 / (double)r->bps;
	/* Past any plausible run the figure is refused by the callers
	 * (PARSE_MAX_SECONDS): do not round what a long long cannot hold. */
	if (!(s <= PARSE_MAX_SECONDS))
		return s;
	return (double)(long long)(s * 1e6 + 0.5) / 1e6;
}

/* A total row's bytes and bps must fit its printed interval (rounded to
 * 0.1 s by 2.0.x-2.1.8): else the row is damaged. */
static int
csv_consistent(const struct csv_row *r, char *err, size_t errlen)
{
	double s = csv_seconds(r), want = r->end - r->start, d;

	d = s > want ? s - want : want - s;
	if (s > 0 && s <= PARSE_MAX_SECONDS && (d <= 0.15 || d <= want * 0.05))
		return 0;
	parse_seterr(err, errlen, "iperf2 CSV: total row %.1f-%.1f s of flow "
	    "%d: its bytes and bit/s give %.3f s", r->start, r->end, r->id, s);
	return -1;
}

static int
csv_totals(struct csv_ctx *c, struct parse_iperf *out, char *err,
    size_t errlen)
{
	const struct csv_tag *t, *sum = NULL;
	struct parse_stream *s;
	double bytes = 0, secs = 0;
	int64_t rtry = 0;
	int i, all_rtry = 1;

	for (i = 0; i < c->ntags; i++) {
		t = &c->tags[i];
		if ((t->id != CSV_SUM || csv_has_total(c, t)) &&
		    t->last.bps > 0 && csv_consistent(&t->last, err,
		    errlen) == -1)
			return -1;
		if (t->id == CSV_SUM) {
			if (csv_has_total(c, t))
				sum = t;
			continue;
		}
		s = &out->streams[out->nstreams++];
		memset(s, 0, sizeof(*s));
		s->id = t->id;
		s->has_final = 1;
		s->start = t->last.start;
		s->end = t->last.end;
		s->bytes = (double)t->last.bytes;
		s->bps = (double)t->last.bps;
		s->retransmits = t->last.rtry;
		s->cwnd_bytes = PARSE_UNKNOWN;
		s->rtt_us = -1;
		bytes += s->bytes;
		if (csv_seconds(&t->last) > secs)
			secs = csv_seconds(&t->last);
		if (s->retransmits < 0)
			all_rtry = 0;
		else
			rtry += s->retransmits;
	}
	if (sum != NULL) {
		out->bytes = (double)sum->last.bytes;
		out->seconds = csv_seconds(&sum->last);
		out->retransmits = sum->last.rtry;
	} else if (out->nstreams == 1) {
		out->bytes = out->streams[0].bytes;
		out->seconds = secs;
		out->retransmits = out->streams[0].retransmits;
	} else {
		/* All flows' bytes over the longest flow, as iperf's [SUM]. */
		out->sum_from_streams = 1;
		out->bytes = bytes;
		out->seconds = secs;
		out->retransmits = all_rtry ? rtry : PARSE_UNKNOWN;
	}
	out->bps = out->seconds > 0 ? out->bytes * 8.0 / out->seconds : 0;
	out->sent_bytes = out->bytes;
	out->sent_bps = out->bps;
	return 0;
}

/* Adds r to the series: its own entry, or summed into the entry of the
 * same interval (2.1.8's -P output has no [SUM] rows). */
static void
csv_series_add(struct parse_iperf *out, const struct csv_row *r, int merge)
{
	struct parse_interval *iv;
	size_t i, lo;

	lo = out->nintervals > PARSE_MAX_STREAMS ?
	    out->nintervals - PARSE_MAX_STREAMS : 0;
	for (i = out->nintervals; merge && i > lo; i--) {
		iv = &out->intervals[i - 1];
		if (iv->start != r->start || iv->end != r->end)
			continue;
		iv->bytes += (double)r->bytes;
		iv->bps += (double)r->bps;
		if (iv->retransmits < 0 || r->rtry < 0)
			iv->retransmits = PARSE_UNKNOWN;
		else
			iv->retransmits += r->rtry;
		return;
	}
	if (out->nintervals == PARSE_MAX_INTERVALS) {
		out->intervals_truncated = 1;
		return;
	}
	iv = &out->intervals[out->nintervals++];
	memset(iv, 0, sizeof(*iv));
	iv->start = r->start;
	iv->end = r->end;
	iv->bytes = (double)r->bytes;
	iv->bps = (double)r->bps;
	iv->retransmits = r->rtry;
	iv->cwnd_bytes = PARSE_UNKNOWN;
}

/* The series: [SUM] rows, a single flow's rows, or the flows' rows summed
 * per interval; total rows left out. */
static void
csv_pass2(const char *text, size_t len, struct csv_ctx *c,
    struct parse_iperf *out)
{
	struct parse_lines l;
	const struct csv_tag *t;
	struct csv_row r;
	const char *line;
	size_t n;
	int want, merge, i;

	want = out->sum_rows > 0 ? CSV_SUM : out->nstreams == 1 ?
	    out->streams[0].id : 0;
	merge = out->sum_rows == 0 && out->nstreams > 1;
	memset(&c->cols, 0, sizeof(c->cols));
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		memset(&r, 0, sizeof(r));
		if (csv_line(c, line, n, &r) != 1 ||
		    (!merge && r.id != want) || (merge && r.id == CSV_SUM))
			continue;
		for (i = 0, t = NULL; i < c->ntags; i++)
			if (c->tags[i].id == r.id)
				t = &c->tags[i];
		if (t != NULL && t->last_lineno == l.lineno &&
		    csv_has_total(c, t))
			continue;
		csv_series_add(out, &r, merge);
	}
}

int
parse_iperf2_csv(const char *text, size_t len, struct parse_iperf *out,
    char *err, size_t errlen)
{
	struct csv_ctx c;

	parse_iperf_init(out, PARSE_TOOL_IPERF2);
	out->exact = 1;
	if (parse_check_input("iperf2 CSV", text, len, err, errlen) == -1)
		return -1;
	memset(&c, 0, sizeof(c));
	if (csv_pass1(text, len, &c, out, err, errlen) == -1)
		return -1;
	if (c.ntags == 0) {
		if (c.text[0] != '\0')
			parse_seterr(err, errlen, "iperf2 CSV: no report rows; "
			    "the output says: %s", c.text);
		else
			parse_seterr(err, errlen, "iperf2 CSV: no report rows");
		return -1;
	}
	if (csv_require_totals(&c, err, errlen) == -1)
		return -1;
	if (csv_totals(&c, out, err, errlen) == -1)
		return -1;
	if (out->bytes == 0 || out->bps == 0 || out->seconds <= 0) {
		parse_seterr(err, errlen, "iperf2 CSV: the total row reports "
		    "no data (%.0f bytes, %.0f bit/s)", out->bytes, out->bps);
		return -1;
	}
	/* Each row is within the limits, but the flows' bytes over the
	 * longest flow's time need not be (a flow reporting 0 bit/s has
	 * no time of its own): more than any link carries is damage. */
	if (out->bps > PARSE_MAX_BPS || out->bytes > PARSE_MAX_BYTES) {
		parse_seterr(err, errlen, "iperf2 CSV: the flows' totals give "
		    "%.3g bytes and %.3g bit/s, past any link", out->bytes,
		    out->bps);
		return -1;
	}
	csv_pass2(text, len, &c, out);
	return 0;
}
