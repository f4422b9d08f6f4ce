/*
 * parse_iperf3.c: iperf3 client results, from -J JSON (preferred), from
 * 3.17's --json-stream (the same sections, one event a line) and from the
 * plain text output.  Goodput is the receiver's view (sum_received / the
 * "receiver" line); a run with an error, without end sums, or whose
 * receiver saw nothing is an error, never 0 bit/s.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "parse.h"
#include "parse_util.h"

#define I3_MAX_WINDOW	1099511627776.0	/* 1 TiB */

/*
 * Number at path below v within [0, max]: 1 found, 0 absent, -1 present
 * but not a number in range.
 */
static int
i3_num(const struct json_value *v, const char *path, double max, double *out)
{
	const struct json_value *n;
	double d;

	n = json_path(v, path);
	if (n == NULL || json_type(n) == JSON_NULL)
		return 0;
	if (json_number(n, &d) == -1 || d < 0 || d > max)
		return -1;
	*out = d;
	return 1;
}

static int
i3_int(const struct json_value *v, const char *path, double max,
    int64_t *out)
{
	double d;
	int rc;

	if ((rc = i3_num(v, path, max, &d)) != 1)
		return rc;
	if (d != (double)(int64_t)d)
		return -1;
	*out = (int64_t)d;
	return 1;
}

static void
i3_str(const struct json_value *v, const char *path, char *dst, size_t sz)
{
	const char *s = json_string(json_path(v, path));
	size_t n;

	if (s == NULL)
		return;
	n = strlen(s);
	if (n >= sz)
		n = sz - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* A sum object: bytes, seconds (end - start or "seconds"), bps. */
static int
i3_sum(const struct json_value *s, double *bytes, double *secs, double *bps)
{
	double st = 0, en = 0;

	if (s == NULL || json_type(s) != JSON_OBJECT)
		return 0;
	if (i3_num(s, "bytes", PARSE_MAX_BYTES, bytes) != 1 ||
	    i3_num(s, "bits_per_second", PARSE_MAX_BPS, bps) != 1)
		return -1;
	if (i3_num(s, "seconds", PARSE_MAX_SECONDS, secs) == 1)
		return 1;
	if (i3_num(s, "start", PARSE_MAX_SECONDS, &st) != 1 ||
	    i3_num(s, "end", PARSE_MAX_SECONDS, &en) != 1 || en < st)
		return -1;
	*secs = en - st;
	return 1;
}

/* One element of "intervals" (or the data of an interval event). */
static int
i3_interval(const struct json_value *iv, struct parse_iperf *out)
{
	const struct json_value *sum, *st;
	struct parse_interval *p;

	if ((sum = json_get(iv, "sum")) == NULL)
		return -1;
	if (out->nintervals == PARSE_MAX_INTERVALS) {
		out->intervals_truncated = 1;
		return 0;
	}
	p = &out->intervals[out->nintervals];
	p->retransmits = PARSE_UNKNOWN;
	if (i3_num(sum, "start", PARSE_MAX_SECONDS, &p->start) != 1 ||
	    i3_num(sum, "end", PARSE_MAX_SECONDS, &p->end) != 1 ||
	    p->end < p->start ||
	    i3_num(sum, "bytes", PARSE_MAX_BYTES, &p->bytes) != 1 ||
	    i3_num(sum, "bits_per_second", PARSE_MAX_BPS, &p->bps) != 1 ||
	    i3_int(sum, "retransmits", 9e15, &p->retransmits) == -1)
		return -1;
	p->omitted = json_bool(json_get(sum, "omitted")) == 1;
	p->cwnd_bytes = PARSE_UNKNOWN;
	st = json_get(iv, "streams");
	if (json_len(st) == 1 && i3_int(json_first(st), "snd_cwnd",
	    I3_MAX_WINDOW, &p->cwnd_bytes) == -1)
		return -1;
	out->nintervals++;
	return 0;
}

static int
i3_intervals(const struct json_value *root, struct parse_iperf *out)
{
	const struct json_value *iv;

	for (iv = json_first(json_get(root, "intervals")); iv != NULL;
	    iv = json_next(iv))
		if (i3_interval(iv, out) == -1)
			return -1;
	return 0;
}

/* The "start" section (or the data of a start event). */
static int
i3_start(const struct json_value *start, struct parse_iperf *out)
{
	const char *proto;
	int64_t v = 0;

	i3_str(start, "version", out->version, sizeof(out->version));
	proto = json_string(json_path(start, "test_start.protocol"));
	if (proto != NULL && strcmp(proto, "UDP") == 0)
		out->udp = 1;
	if (i3_int(start, "sock_bufsize", I3_MAX_WINDOW, &v) == -1)
		return -1;
	else if (v > 0)
		out->window_requested = v;	/* 0: no -w given */
	v = 0;
	if (i3_int(start, "sndbuf_actual", I3_MAX_WINDOW, &v) == -1)
		return -1;
	else if (v > 0)
		out->window_granted = v;
	return 0;
}

static void
i3_streams(const struct json_value *end, struct parse_iperf *out)
{
	const struct json_value *s, *snd, *rcv;
	struct parse_stream *ps;
	double d;

	for (s = json_first(json_get(end, "streams")); s != NULL &&
	    out->nstreams < PARSE_MAX_STREAMS; s = json_next(s)) {
		snd = json_get(s, "sender");
		rcv = json_get(s, "receiver");
		if (rcv == NULL)
			rcv = json_get(s, "udp");
		ps = &out->streams[out->nstreams++];
		memset(ps, 0, sizeof(*ps));
		ps->id = -1;
		ps->retransmits = ps->cwnd_bytes = PARSE_UNKNOWN;
		ps->rtt_us = -1;
		if (i3_num(snd != NULL ? snd : rcv, "socket", 1e6, &d) == 1)
			ps->id = (int)d;
		if (i3_sum(rcv, &ps->bytes, &d, &ps->bps) == 1) {
			ps->has_final = 1;
			ps->end = d;
		}
		(void)i3_int(snd, "retransmits", 9e15, &ps->retransmits);
		if (i3_num(snd, "mean_rtt", 1e9, &d) == 1)
			ps->rtt_us = d;
		(void)i3_int(snd, "max_snd_cwnd", I3_MAX_WINDOW,
		    &ps->cwnd_bytes);
	}
}

/* The "end" section (or the data of an end event). */
static int
i3_end(const struct json_value *end, struct parse_iperf *out, char *err,
    size_t errlen)
{
	int rs, rr;

	i3_str(end, "sender_tcp_congestion", out->congestion,
	    sizeof(out->congestion));
	if (i3_num(end, "cpu_utilization_percent.host_total", 1e4,
	    &out->cpu_host) == -1 || i3_num(end,
	    "cpu_utilization_percent.remote_total", 1e4, &out->cpu_remote) == -1)
		goto bad;
	i3_streams(end, out);
	if (out->udp) {
		parse_seterr(err, errlen, "iperf3: %s", PARSE_ERR_UDP);
		return -1;
	}
	rs = i3_sum(json_get(end, "sum_sent"), &out->sent_bytes,
	    &out->seconds, &out->sent_bps);
	rr = i3_sum(json_get(end, "sum_received"), &out->bytes,
	    &out->seconds, &out->bps);
	if (i3_int(end, "sum_sent.retransmits", 9e15, &out->retransmits) ==
	    -1)
		goto bad;
	if (rs == -1 || rr == -1)
		goto bad;
	if (rs == 0 || rr == 0) {
		parse_seterr(err, errlen, "iperf3: no end summary (the test "
		    "did not complete)");
		return -1;
	}
	if (out->bytes <= 0 || out->bps <= 0 || out->seconds <= 0) {
		parse_seterr(err, errlen, "iperf3: receiver reported no data");
		return -1;
	}
	return 0;
bad:
	parse_seterr(err, errlen, "iperf3: malformed or out-of-range end "
	    "summary");
	return -1;
}

int
parse_iperf3_json(const char *text, size_t len, struct parse_iperf *out,
    char *err, size_t errlen)
{
	struct json_doc *doc;
	const struct json_value *root;
	const char *e;
	char jerr[128];
	int rc = -1;

	parse_iperf_init(out, PARSE_TOOL_IPERF3);
	out->exact = 1;
	if (parse_check_input("iperf3", text, len, err, errlen) == -1)
		return -1;
	/* A tty echoes "^C" in front of an interrupted run's JSON. */
	for (;;) {
		if (len > 0 && (*text == ' ' || *text == '\t' ||
		    *text == '\r' || *text == '\n')) {
			text++;
			len--;
		} else if (len >= 2 && text[0] == '^' && text[1] == 'C') {
			text += 2;
			len -= 2;
		} else
			break;
	}
	if ((doc = json_doc_parse(text, len, jerr, sizeof(jerr))) == NULL) {
		parse_seterr(err, errlen, "iperf3: output is not valid JSON "
		    "(%s)", jerr);
		return -1;
	}
	root = json_doc_root(doc);
	if (json_type(root) != JSON_OBJECT) {
		parse_seterr(err, errlen, "iperf3: JSON output is not an "
		    "object");
		goto done;
	}
	if (i3_start(json_get(root, "start"), out) == -1) {
		parse_seterr(err, errlen, "iperf3: malformed or out-of-range "
		    "start section");
		goto done;
	}
	if ((e = json_string(json_get(root, "error"))) != NULL) {
		out->tool_error = 1;
		parse_seterr(err, errlen, "iperf3: %s", e);
		goto done;
	}
	if (i3_intervals(root, out) == -1) {
		parse_seterr(err, errlen, "iperf3: malformed or out-of-range "
		    "interval");
		goto done;
	}
	rc = i3_end(json_get(root, "end"), out, err, errlen);
done:
	json_doc_free(doc);
	return rc;
}

/* ---- --json-stream ------------------------------------------------------ */

struct i3_stream {
	int	have_end, end_rc;
	size_t	nintervals;		/* interval events seen */
	char	end_err[160];
	char	error[200];		/* first error event's text */
};

/* One event line: 0, or -1 with err for a line that is not an event. */
static int
i3_event(const struct json_value *root, struct i3_stream *st,
    struct parse_iperf *out, char *err, size_t errlen)
{
	const struct json_value *data = json_get(root, "data");
	const char *ev = json_string(json_get(root, "event")), *e;

	if (json_type(root) != JSON_OBJECT || ev == NULL) {
		parse_seterr(err, errlen, "iperf3 stream: a line without an "
		    "\"event\"");
		return -1;
	}
	if (strcmp(ev, "error") == 0) {
		if ((e = json_string(data)) == NULL)
			e = "(no text)";
		if (st->error[0] == '\0')
			snprintf(st->error, sizeof(st->error), "%s", e);
	} else if (strcmp(ev, "start") == 0) {
		if (i3_start(data, out) == -1) {
			parse_seterr(err, errlen, "iperf3 stream: malformed or "
			    "out-of-range start event");
			return -1;
		}
	} else if (strcmp(ev, "interval") == 0) {
		st->nintervals++;
		if (i3_interval(data, out) == -1) {
			parse_seterr(err, errlen, "iperf3 stream: malformed or "
			    "out-of-range interval event");
			return -1;
		}
	} else if (strcmp(ev, "end") == 0 && !st->have_end) {
		st->have_end = 1;
		st->end_rc = i3_end(data, out, st->end_err,
		    sizeof(st->end_err));
	}
	/* Other events (server output, later additions) carry no figure. */
	return 0;
}

int
parse_iperf3_stream(const char *text, size_t len, struct parse_iperf *out,
    char *err, size_t errlen)
{
	struct parse_lines l;
	struct i3_stream st;
	struct json_doc *doc;
	const char *line;
	char jerr[128];
	size_t n;
	int rc;

	parse_iperf_init(out, PARSE_TOOL_IPERF3);
	out->exact = 1;
	if (parse_check_input("iperf3 stream", text, len, err, errlen) == -1)
		return -1;
	memset(&st, 0, sizeof(st));
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		while (n > 0 && (line[0] == ' ' || line[0] == '\t')) {
			line++;
			n--;
		}
		if (n == 0)
			continue;
		if ((doc = json_doc_parse(line, n, jerr, sizeof(jerr))) ==
		    NULL) {
			parse_seterr(err, errlen, "iperf3 stream: line %zu is "
			    "not JSON (%s)", l.lineno, jerr);
			return -1;
		}
		rc = i3_event(json_doc_root(doc), &st, out, err, errlen);
		json_doc_free(doc);
		if (rc == -1)
			return -1;
	}
	/* "the server is busy" comes as an error, then an empty end. */
	if (st.error[0] != '\0') {
		out->tool_error = 1;
		parse_seterr(err, errlen, "iperf3: %s", st.error);
		return -1;
	}
	if (!st.have_end) {
		parse_seterr(err, errlen, "iperf3 stream: no end event after "
		    "%zu interval event%s (cut off?)", st.nintervals,
		    st.nintervals == 1 ? "" : "s");
		return -1;
	}
	if (st.end_rc == -1) {
		parse_seterr(err, errlen, "%s", st.end_err);
		return -1;
	}
	return 0;
}

/* ---- text output -------------------------------------------------------- */

#define I3_SUM	(-1)

struct i3_line {
	int	tag;		/* stream id or I3_SUM */
	int	role;		/* 0 interval, 1 sender, 2 receiver */
	struct parse_interval iv;
};

struct i3_text {
	int	have_retr;	/* header of the interval table has Retr */
	int	have_cwnd;	/* ... and Cwnd */
	int	saw_sum;
	int	have_snd, have_rcv;
	int	pass;
	int	nconn;		/* "[  5] local ... connected to" lines */
	struct i3_line snd, rcv;
	char	failure[96];
};

/* "[ ID] Interval Transfer Bitrate Retr Cwnd" (or Jitter ... for UDP). */
static void
i3_text_header(struct i3_text *t, const struct parse_tok *tk, size_t nt,
    struct parse_iperf *out)
{
	size_t i;

	t->have_retr = t->have_cwnd = 0;
	for (i = 0; i < nt; i++) {
		/* "Retransmits" in early 3.0 releases. */
		if (parse_tok_eq(&tk[i], "Retr") ||
		    parse_tok_eq(&tk[i], "Retransmits"))
			t->have_retr = 1;
		if (parse_tok_eq(&tk[i], "Cwnd"))
			t->have_cwnd = 1;
		if (parse_tok_eq(&tk[i], "Jitter") ||
		    parse_tok_eq(&tk[i], "Datagrams"))
			out->udp = 1;
	}
}

/* 1 report line, 0 other, -1 malformed report line. */
static int
i3_text_line(struct i3_text *t, const char *line, size_t len,
    struct i3_line *r, struct parse_iperf *out)
{
	struct parse_tok tk[PARSE_MAX_TOKS];
	const char *close, *dash;
	size_t nt, i, taglen, last;
	uint64_t id;
	double m, cw;

	if (len == 0 || line[0] != '[') {
		if (t->failure[0] == '\0' && (parse_prefix(line, len,
		    "iperf3: error", 0) != NULL || parse_prefix(line, len,
		    "iperf3: interrupt", 0) != NULL))
			(void)parse_copy(t->failure, sizeof(t->failure), line,
			    len < sizeof(t->failure) ? len :
			    sizeof(t->failure) - 1);
		return 0;
	}
	if ((close = memchr(line, ']', len)) == NULL)
		return 0;
	nt = parse_split(close + 1, (size_t)(line + len - close - 1), tk,
	    PARSE_MAX_TOKS);
	if (nt > PARSE_MAX_TOKS)
		return -1;
	for (i = 1; line + i < close && line[i] == ' '; i++)
		;
	taglen = (size_t)(close - line) - i;
	if (taglen == 2 && memcmp(line + i, "ID", 2) == 0) {
		i3_text_header(t, tk, nt, out);
		return 0;
	}
	if (taglen == 3 && memcmp(line + i, "SUM", 3) == 0)
		r->tag = I3_SUM;
	else if (parse_u64(line + i, taglen, &id) == 0 && id < 1000000)
		r->tag = (int)id;
	else
		return 0;
	if (nt >= 1 && parse_tok_eq(&tk[0], "local") && t->pass == 0)
		t->nconn++;
	if (nt < 6 || !parse_tok_eq(&tk[1], "sec"))
		return 0;
	dash = memchr(tk[0].p, '-', tk[0].n);
	r->iv.retransmits = PARSE_UNKNOWN;
	if (dash == NULL || parse_num(tk[0].p, (size_t)(dash - tk[0].p),
	    &r->iv.start) == -1 || parse_num(dash + 1,
	    (size_t)(tk[0].p + tk[0].n - dash - 1), &r->iv.end) == -1 ||
	    r->iv.start < 0 || r->iv.end < r->iv.start ||
	    r->iv.end > PARSE_MAX_SECONDS)
		return -1;
	if ((m = parse_byte_unit(tk[3].p, tk[3].n)) < 0 ||
	    parse_num(tk[2].p, tk[2].n, &r->iv.bytes) == -1 ||
	    r->iv.bytes < 0 || (r->iv.bytes *= m) > PARSE_MAX_BYTES)
		return -1;
	if ((m = parse_rate_unit(tk[5].p, tk[5].n)) < 0 ||
	    parse_num(tk[4].p, tk[4].n, &r->iv.bps) == -1 ||
	    r->iv.bps < 0 || (r->iv.bps *= m) > PARSE_MAX_BPS)
		return -1;
	last = nt - 1;
	r->role = parse_tok_eq(&tk[last], "sender") ? 1 :
	    parse_tok_eq(&tk[last], "receiver") ? 2 : 0;
	r->iv.omitted = parse_tok_eq(&tk[last], "(omitted)");
	if (t->have_retr && !out->udp && r->role != 2 && nt > 6 &&
	    (parse_i64(tk[6].p, tk[6].n, &r->iv.retransmits) == -1 ||
	    r->iv.retransmits < 0))
		return -1;
	r->iv.cwnd_bytes = PARSE_UNKNOWN;
	if (t->have_cwnd && r->role == 0 && nt > 8 &&
	    (m = parse_byte_unit(tk[8].p, tk[8].n)) > 0 &&
	    parse_num(tk[7].p, tk[7].n, &cw) == 0 && cw >= 0 &&
	    cw * m <= I3_MAX_WINDOW)
		r->iv.cwnd_bytes = (int64_t)(cw * m + 0.5);
	return 1;
}

static void
i3_text_take(struct i3_text *t, const struct i3_line *r,
    struct parse_iperf *out)
{
	struct parse_stream *s;
	int i;

	if (r->tag == I3_SUM)
		t->saw_sum = 1;
	else {
		for (i = 0; i < out->nstreams; i++)
			if (out->streams[i].id == r->tag)
				break;
		if (i == out->nstreams && i < PARSE_MAX_STREAMS) {
			s = &out->streams[out->nstreams++];
			s->id = r->tag;
			s->retransmits = s->cwnd_bytes = PARSE_UNKNOWN;
			s->rtt_us = -1;
		}
		if (i < out->nstreams && r->role == 2) {
			s = &out->streams[i];
			s->has_final = 1;
			s->start = r->iv.start;
			s->end = r->iv.end;
			s->bytes = r->iv.bytes;
			s->bps = r->iv.bps;
		}
	}
	/* [SUM] totals win over a flow's once any [SUM] is seen. */
	if (r->role == 1 && (r->tag == I3_SUM || !t->saw_sum)) {
		t->snd = *r;
		t->have_snd = 1;
	} else if (r->role == 2 && (r->tag == I3_SUM || !t->saw_sum)) {
		t->rcv = *r;
		t->have_rcv = 1;
	}
}

int
parse_iperf3_text(const char *text, size_t len, struct parse_iperf *out,
    char *err, size_t errlen)
{
	struct parse_lines l;
	struct i3_text t;
	struct i3_line r;
	const char *line;
	size_t n, pass;
	int rc;

	parse_iperf_init(out, PARSE_TOOL_IPERF3);
	if (parse_check_input("iperf3", text, len, err, errlen) == -1)
		return -1;
	memset(&t, 0, sizeof(t));
	/* Pass 0 finds whether [SUM] lines exist (then they are the series). */
	for (pass = 0; pass < 2; pass++) {
		parse_lines_init(&l, text, len);
		t.have_retr = 0;
		t.pass = (int)pass;
		while (parse_lines_next(&l, &line, &n)) {
			/* --get-server-output repeats the server's view. */
			if (parse_prefix(line, n, "Server output:", 0) != NULL)
				break;
			memset(&r, 0, sizeof(r));
			if ((rc = i3_text_line(&t, line, n, &r, out)) == 0)
				continue;
			if (rc == -1) {
				parse_seterr(err, errlen, "iperf3: line %zu: "
				    "malformed or out-of-range report",
				    l.lineno);
				return -1;
			}
			if (pass == 0) {
				i3_text_take(&t, &r, out);
				continue;
			}
			if (r.role != 0 || (t.saw_sum && r.tag != I3_SUM))
				continue;
			if (out->nintervals == PARSE_MAX_INTERVALS)
				out->intervals_truncated = 1;
			else
				out->intervals[out->nintervals++] = r.iv;
		}
	}
	if (out->udp) {
		parse_seterr(err, errlen, "iperf3: %s", PARSE_ERR_UDP);
		return -1;
	}
	if (!t.have_rcv || !t.have_snd) {
		out->tool_error = t.failure[0] != '\0';
		parse_seterr(err, errlen, "iperf3: no %s summary line%s%s",
		    t.have_snd ? "receiver" : "sender",
		    t.failure[0] != '\0' ? ": " : " (truncated output?)",
		    t.failure);
		return -1;
	}
	if (t.nconn > 1 && (t.snd.tag != I3_SUM || t.rcv.tag != I3_SUM)) {
		parse_seterr(err, errlen, "iperf3: no [SUM] summary for %d "
		    "flows (truncated output?)", t.nconn);
		return -1;
	}
	out->bytes = t.rcv.iv.bytes;
	out->bps = t.rcv.iv.bps;
	out->seconds = t.rcv.iv.end - t.rcv.iv.start;
	out->sent_bytes = t.snd.iv.bytes;
	out->sent_bps = t.snd.iv.bps;
	out->retransmits = t.snd.iv.retransmits;
	if (out->bytes <= 0 || out->bps <= 0 || out->seconds <= 0) {
		parse_seterr(err, errlen, "iperf3: receiver reported no data");
		return -1;
	}
	return 0;
}
