/*
 * fuzz_parse_sys: the counter and CPU parsers of agents/parse.h on any
 * bytes: parse_proc_net_dev() and parse_netstat_if() (for the interface
 * names of the fixtures), parse_proc_stat(), parse_proc_pid_stat() and
 * parse_ps_time().
 */
#include "fuzz_parse.h"

static const char *const ifnames[] = { "eth0", "em0", "lo0", "veth-lr123a" };

static void
check_ifstats(const struct parse_ifstats *s)
{
	const int64_t	v[] = { s->rx_bytes, s->rx_packets, s->rx_errors,
	    s->rx_dropped, s->tx_bytes, s->tx_packets, s->tx_errors,
	    s->tx_dropped };
	size_t		i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		FUZZ_CHECK(v[i] >= PARSE_UNKNOWN, "counter %zu = %lld", i,
		    (long long)v[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char		*text = (const char *)data;
	struct parse_ifstats	 st;
	struct parse_cpu	 cpu;
	struct parse_pidstat	 ps;
	double			 secs;
	char			 err[512];
	size_t			 i;
	int			 rc;

	for (i = 0; i < sizeof ifnames / sizeof ifnames[0]; i++) {
		err[0] = '\0';
		rc = parse_proc_net_dev(text, size, ifnames[i], &st, err,
		    sizeof err);
		FUZZ_ERR(rc, err);
		if (rc == 0)
			check_ifstats(&st);
		err[0] = '\0';
		rc = parse_netstat_if(text, size, ifnames[i], &st, err,
		    sizeof err);
		FUZZ_ERR(rc, err);
		if (rc == 0)
			check_ifstats(&st);
	}
	err[0] = '\0';
	rc = parse_proc_stat(text, size, &cpu, err, sizeof err);
	FUZZ_ERR(rc, err);
	err[0] = '\0';
	rc = parse_proc_pid_stat(text, size, &ps, err, sizeof err);
	FUZZ_ERR(rc, err);
	if (rc == 0)
		FUZZ_CHECK(memchr(ps.comm, '\0', sizeof ps.comm) != NULL,
		    "comm not terminated");
	err[0] = '\0';
	rc = parse_ps_time(text, size, &secs, err, sizeof err);
	FUZZ_ERR(rc, err);
	if (rc == 0)
		FUZZ_CHECK(isfinite(secs) && secs >= 0, "ps time %g", secs);
	return 0;
}
