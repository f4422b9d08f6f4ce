/*
 * parse_iperf.c: what every iperf parser shares: the result's reset and
 * the completeness check the agent applies before a result may become a
 * sample (a cut-off run parses as a shorter one).
 */
#include <stddef.h>
#include <string.h>

#include "parse.h"
#include "parse_util.h"

/* Clears the scalars only: the arrays are large and filled up to their
 * counts (callers of parse_iperf* must not look past them). */
void
parse_iperf_init(struct parse_iperf *out, int tool)
{
	memset(out, 0, offsetof(struct parse_iperf, streams));
	out->tool = tool;
	out->bytes = out->seconds = out->bps = -1;
	out->sent_bytes = out->sent_bps = -1;
	out->retransmits = PARSE_UNKNOWN;
	out->window_requested = out->window_granted = PARSE_UNKNOWN;
	out->cpu_host = out->cpu_remote = -1;
	out->nintervals = 0;
	out->intervals_truncated = 0;
}

/* iperf ends a -t run on time give or take a little. */
static int
short_of(double got, double expect)
{
	return expect > 0 && got + 0.5 + expect * 0.05 < expect;
}

/* A flow may end early (the real 2.0.x -P 4 run in real-outputs/ has one
 * stop at 7.2 s of 10): the run's coverage is the total's, not each flow's. */
static int
check_streams(const struct parse_iperf *r, int nflows, char *err,
    size_t errlen)
{
	const struct parse_stream *s;
	int i;

	if (nflows <= 0)
		return 0;
	if (r->nstreams != nflows) {
		parse_seterr(err, errlen, "iperf: %d flow%s reported of the %d "
		    "asked for", r->nstreams, r->nstreams == 1 ? "" : "s",
		    nflows);
		return -1;
	}
	for (i = 0; i < r->nstreams; i++) {
		s = &r->streams[i];
		if (!s->has_final) {
			parse_seterr(err, errlen, "iperf: flow [%d] has no "
			    "final report (cut off?)", s->id);
			return -1;
		}
	}
	/* A tool that prints [SUM] rows ends with a final one. */
	if (nflows > 1 && r->sum_rows > 0 && r->sum_from_streams) {
		parse_seterr(err, errlen, "iperf: %d [SUM] rows but no final "
		    "[SUM] for the %d flows (cut off or a flow stalled)",
		    r->sum_rows, nflows);
		return -1;
	}
	return 0;
}

int
parse_iperf_check(const struct parse_iperf *r, double expect, int nflows,
    char *err, size_t errlen)
{
	if (r->seconds < 0 || r->bytes < 0 || r->bps < 0) {
		parse_seterr(err, errlen, "iperf: no result");
		return -1;
	}
	if (r->bytes == 0 || r->bps == 0 || r->seconds == 0) {
		parse_seterr(err, errlen, "iperf: the run moved no data (%.0f "
		    "bytes in %.2f s)", r->bytes, r->seconds);
		return -1;
	}
	if (short_of(r->seconds, expect)) {
		parse_seterr(err, errlen, "iperf: run covers %.2f s of the "
		    "%.2f s asked (cut short or truncated output)", r->seconds,
		    expect);
		return -1;
	}
	return check_streams(r, nflows, err, errlen);
}
