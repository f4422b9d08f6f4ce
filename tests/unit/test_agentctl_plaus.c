/*
 * test_agentctl_plaus: the reply fields the plausibility check reads --
 * iperf's "exact" (true, false, absent), serve's and serve stop's
 * "ifstats" (counters, null counters, absent, mistyped) and scp's
 * "remote_bytes" (a count, null, absent) -- decoded, and fed from the real
 * agent binary (LABRAT_AGENT): `serve stop --if lo` reports lo's counters.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agentctl.h"

#define IPERF_HEAD "{\"proto\":1,\"event\":\"result\",\"cmd\":\"iperf\"," \
	"\"tool\":\"iperf3\","
#define IPERF_TAIL "\"bytes\":1175000000,\"seconds\":10.0,\"bps\":940000000," \
	"\"window_requested\":null,\"window_granted\":null,\"retransmits\":0," \
	"\"intervals\":[]}\n"
#define COUNTERS "{\"rx_bytes\":%s,\"rx_packets\":2,\"rx_errors\":0," \
	"\"rx_dropped\":null,\"tx_bytes\":3,\"tx_packets\":4,\"tx_errors\":0," \
	"\"tx_dropped\":0}"

static int
dec(enum agentctl_cmd cmd, const char *text, struct agentctl_reply *r,
    char *err, size_t errlen)
{
	return agentctl_decode("em-b", agentctl_cmd_name(cmd), cmd, text,
	    strlen(text), 0, 0, r, err, errlen);
}

static void
test_exact(void **state)
{
	static const struct {
		const char	*field;
		int		 want;
	} cases[] = {
		{ "\"exact\":true,", 1 },
		{ "\"exact\":false,", 0 },
		{ "\"exact\":null,", AGENTCTL_NONE },
		{ "", AGENTCTL_NONE },
	};
	struct agentctl_reply	r;
	char			text[1024], err[512];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "%s%s%s", IPERF_HEAD,
		    cases[i].field, IPERF_TAIL);
		if (dec(AGENTCTL_IPERF, text, &r, err, sizeof err) != 0)
			fail_msg("case %zu: %s", i, err);
		assert_int_equal(r.u.iperf.exact, cases[i].want);
		agentctl_reply_free(&r);
	}
	snprintf(text, sizeof text, "%s\"exact\":1,%s", IPERF_HEAD, IPERF_TAIL);
	assert_int_equal(dec(AGENTCTL_IPERF, text, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "result.exact: not a boolean"));
	agentctl_reply_free(&r);
}

static void
test_ifsnap(void **state)
{
	static const char	*states[] = { "stands", "moved", "unknown" };
	struct agentctl_reply	r;
	char			text[1024], c[512], err[512];
	int			i;

	(void)state;
	snprintf(c, sizeof c, COUNTERS, "123456789012");
	snprintf(text, sizeof text, "{\"proto\":1,\"event\":\"result\","
	    "\"cmd\":\"serve\",\"tool\":\"iperf3\",\"pid\":42,\"bind\":"
	    "\"198.18.1.2\",\"port\":5201,\"ifstats\":{\"if\":\"em0\","
	    "\"counters\":%s}}\n", c);
	assert_int_equal(dec(AGENTCTL_SERVE, text, &r, err, sizeof err), 0);
	assert_true(r.u.serve.ifstats.has);
	assert_true(r.u.serve.ifstats.has_counters);
	assert_string_equal(r.u.serve.ifstats.ifname, "em0");
	assert_true(r.u.serve.ifstats.c.rx_bytes == 123456789012LL);
	assert_int_equal(r.u.serve.ifstats.c.rx_dropped, AGENTCTL_NONE);
	agentctl_reply_free(&r);
	assert_false(r.u.serve.stands);	/* no "state": an older agent */

	/* The receiver's state check: only "stands" lets its apply skip. */
	for (i = 0; i < 3; i++) {
		snprintf(text, sizeof text, "{\"proto\":1,\"event\":\"result\","
		    "\"cmd\":\"serve\",\"tool\":\"iperf3\",\"pid\":42,"
		    "\"bind\":\"198.18.1.2\",\"port\":5201,\"kept\":true,"
		    "\"state\":\"%s\"}\n", states[i]);
		assert_int_equal(dec(AGENTCTL_SERVE, text, &r, err, sizeof err),
		    0);
		assert_int_equal(r.u.serve.stands, i == 0);
		agentctl_reply_free(&r);
	}

	/* Counters the host could not read; no ifstats at all. */
	assert_int_equal(dec(AGENTCTL_SERVE_STOP, "{\"proto\":1,\"event\":"
	    "\"result\",\"cmd\":\"serve-stop\",\"stopped\":[42],\"ifstats\":"
	    "{\"if\":\"em0\",\"counters\":null}}\n", &r, err, sizeof err), 0);
	assert_true(r.u.serve_stop.ifstats.has);
	assert_false(r.u.serve_stop.ifstats.has_counters);
	assert_int_equal(r.u.serve_stop.ifstats.c.rx_bytes, AGENTCTL_NONE);
	agentctl_reply_free(&r);
	assert_int_equal(dec(AGENTCTL_SERVE_STOP, "{\"proto\":1,\"event\":"
	    "\"result\",\"cmd\":\"serve-stop\",\"stopped\":[]}\n", &r, err,
	    sizeof err), 0);
	assert_false(r.u.serve_stop.ifstats.has);
	agentctl_reply_free(&r);

	/* A mistyped counter names its path. */
	snprintf(c, sizeof c, COUNTERS, "\"many\"");
	snprintf(text, sizeof text, "{\"proto\":1,\"event\":\"result\","
	    "\"cmd\":\"serve-stop\",\"stopped\":[],\"ifstats\":{\"if\":"
	    "\"em0\",\"counters\":%s}}\n", c);
	assert_int_equal(dec(AGENTCTL_SERVE_STOP, text, &r, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "em-b: labrat-agent serve-stop: "
	    "ifstats.counters.rx_bytes"));
	agentctl_reply_free(&r);
}

static void
test_scp_remote(void **state)
{
	static const struct {
		const char	*field;
		long long	 want;
	} cases[] = {
		{ ",\"remote_bytes\":1474560", 1474560 },
		{ ",\"remote_bytes\":null", AGENTCTL_NONE },
		{ "", AGENTCTL_NONE },
	};
	struct agentctl_reply	r;
	char			text[512], err[512];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "{\"proto\":1,\"event\":\"result\","
		    "\"cmd\":\"scp\",\"bytes\":1474560,\"seconds\":0.012345,"
		    "\"bps\":955559335.763%s}\n", cases[i].field);
		if (dec(AGENTCTL_SCP, text, &r, err, sizeof err) != 0)
			fail_msg("case %zu: %s", i, err);
		assert_true(r.u.scp.remote_bytes == cases[i].want);
		agentctl_reply_free(&r);
	}
}

/* The real agent: serve stop --if lo reports lo's counters, which the
 * decoder reads; an unknown interface gives null counters. */
static void
test_real_agent(void **state)
{
	const char		*agent = getenv("LABRAT_AGENT");
	struct agentctl_reply	r;
	char			cmd[1024], out[8192], err[512], dir[] =
	    "/tmp/labrat-plaus.XXXXXX";
	const char		*ifs[] = { "lo", "nosuch9" };
	FILE			*fp;
	size_t			n, i;

	(void)state;
	if (agent == NULL || mkdtemp(dir) == NULL)
		skip();
	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof cmd, "LABRAT_AGENT_STATE=%s %s serve stop "
		    "--if %s 2>/dev/null", dir, agent, ifs[i]);
		assert_non_null(fp = popen(cmd, "r"));
		n = fread(out, 1, sizeof out - 1, fp);
		out[n] = '\0';
		assert_int_equal(pclose(fp), 0);
		if (dec(AGENTCTL_SERVE_STOP, out, &r, err, sizeof err) != 0)
			fail_msg("%s: %s (%s)", ifs[i], err, out);
		assert_true(r.u.serve_stop.ifstats.has);
		assert_string_equal(r.u.serve_stop.ifstats.ifname, ifs[i]);
		if (i == 0) {
			assert_true(r.u.serve_stop.ifstats.has_counters);
			assert_true(r.u.serve_stop.ifstats.c.rx_bytes >= 0);
		} else
			assert_false(r.u.serve_stop.ifstats.has_counters);
		agentctl_reply_free(&r);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_ifsnap),
		cmocka_unit_test(test_scp_remote),
		cmocka_unit_test(test_real_agent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
