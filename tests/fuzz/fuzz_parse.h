/*
 * fuzz_parse.h: the promises of agents/parse.h that the parser targets
 * check on every successful parse.
 */
#ifndef LABRAT_FUZZ_PARSE_H
#define LABRAT_FUZZ_PARSE_H

#include <math.h>

#include "fuzz.h"
#include "parse.h"

/* A double is a figure within [0, max] or "unknown" (negative), never NaN
 * or infinite. */
#define FUZZ_FIGURE(v, max) FUZZ_CHECK(isfinite(v) && (v) <= (max),	\
	    "%s = %g: past its sanity limit %g", #v, (double)(v), (double)(max))

static inline void
fuzz_iperf_ok(const struct parse_iperf *r)
{
	size_t	i;
	int	s;

	FUZZ_CHECK(r->udp == 0, "UDP output parsed");
	FUZZ_FIGURE(r->bytes, PARSE_MAX_BYTES);
	FUZZ_FIGURE(r->sent_bytes, PARSE_MAX_BYTES);
	FUZZ_FIGURE(r->bps, PARSE_MAX_BPS);
	FUZZ_FIGURE(r->sent_bps, PARSE_MAX_BPS);
	FUZZ_FIGURE(r->seconds, PARSE_MAX_SECONDS);
	FUZZ_CHECK(isfinite(r->cpu_host) && isfinite(r->cpu_remote),
	    "cpu not finite");
	FUZZ_CHECK(memchr(r->version, '\0', sizeof r->version) != NULL &&
	    memchr(r->congestion, '\0', sizeof r->congestion) != NULL,
	    "string not terminated");
	FUZZ_CHECK(r->nstreams >= 0 && r->nstreams <= PARSE_MAX_STREAMS,
	    "nstreams %d", r->nstreams);
	FUZZ_CHECK(r->nintervals <= PARSE_MAX_INTERVALS, "nintervals %zu",
	    r->nintervals);
	for (s = 0; s < r->nstreams; s++) {
		FUZZ_FIGURE(r->streams[s].bytes, PARSE_MAX_BYTES);
		FUZZ_FIGURE(r->streams[s].bps, PARSE_MAX_BPS);
		FUZZ_FIGURE(r->streams[s].end, PARSE_MAX_SECONDS);
	}
	for (i = 0; i < r->nintervals; i++) {
		FUZZ_FIGURE(r->intervals[i].bytes, PARSE_MAX_BYTES);
		FUZZ_FIGURE(r->intervals[i].bps, PARSE_MAX_BPS);
		FUZZ_FIGURE(r->intervals[i].end, PARSE_MAX_SECONDS);
	}
}

/* One iperf parser over the input, then parse_iperf_check() on success. */
static inline void
fuzz_iperf(int (*parse)(const char *, size_t, struct parse_iperf *, char *,
    size_t), const uint8_t *data, size_t size)
{
	static struct parse_iperf r;	/* ~210 KB */
	char	err[512];
	int	rc;

	err[0] = '\0';
	rc = parse((const char *)data, size, &r, err, sizeof err);
	FUZZ_ERR(rc, err);
	FUZZ_CHECK(rc == 0 || rc == -1, "rc %d", rc);
	if (rc != 0)
		return;
	fuzz_iperf_ok(&r);
	rc = parse_iperf_check(&r, 10, 1, err, sizeof err);
	FUZZ_ERR(rc, err);
	rc = parse_iperf_check(&r, 0, 0, err, sizeof err);
	FUZZ_ERR(rc, err);
}

#endif
