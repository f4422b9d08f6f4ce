/*
 * test_agent_parse_iperf3: iperf3 -J (3.1.3 .. 3.9, including the error,
 * interrupted-with-CRLF and empty runs) and plain text output against the
 * values in real-outputs/INDEX.md; synthetic JSON for the window and CPU
 * fields and for out-of-range numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "agent_parse_fx.h"
#include "parse.h"

static struct parse_iperf r;
static char err[256];

#define RO	"real-outputs/"

static int
run_file(const char *rel, int json)
{
	size_t len;
	char *t = fx_read(rel, &len);
	int rc;

	err[0] = '\0';
	rc = json ? parse_iperf3_json(t, len, &r, err, sizeof(err)) :
	    parse_iperf3_text(t, len, &r, err, sizeof(err));
	free(t);
	return rc;
}

static void
test_json_313_tcp(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO "iperf3_json_3.1.3_tcp_pscheduler.json",
	    1), 0);
	assert_int_equal(r.tool, PARSE_TOOL_IPERF3);
	assert_string_equal(r.version, "iperf 3.1.3");
	assert_int_equal(r.udp, 0);
	fx_eq(r.sent_bps, 389274697.967401, "sum_sent.bits_per_second");
	fx_eq(r.bps, 388736097.120548, "sum_received.bits_per_second");
	assert_int_equal(r.retransmits, 159);
	assert_int_equal(r.nintervals, 10);
	assert_int_equal(r.nstreams, 1);
	/* 3.1.3 has no sock_bufsize / sndbuf_actual. */
	assert_int_equal(r.window_requested, PARSE_UNKNOWN);
	assert_int_equal(r.window_granted, PARSE_UNKNOWN);
	assert_true(r.seconds > 9.9 && r.seconds < 10.1);
	assert_int_equal(r.exact, 1);
	assert_int_equal(parse_iperf_check(&r, 10, 1, err, sizeof(err)), 0);
}

static void
test_json_313_udp(void **state)
{
	(void)state;
	/* labrat measures TCP only: UDP is refused with the one message. */
	assert_int_equal(run_file(RO "iperf3_json_3.1.3_udp_pscheduler.json",
	    1), -1);
	assert_int_equal(r.udp, 1);
	fx_err_has(err, PARSE_ERR_UDP);
}

static void
test_json_316(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO "iperf3_json_3.1.6_tcp_a_pscheduler.json",
	    1), 0);
	assert_string_equal(r.version, "iperf 3.1.6");
	fx_eq(r.sent_bps, 94091317.866364, "a sent");
	fx_eq(r.bps, 88565098.888017, "a received");
	assert_int_equal(r.retransmits, 686);
	assert_string_equal(r.congestion, "htcp");
	assert_int_equal(r.nintervals, 20);

	assert_int_equal(run_file(RO "iperf3_json_3.1.6_tcp_b_pscheduler.json",
	    1), 0);
	fx_eq(r.sent_bps, 27192153.616692, "b sent");
	fx_eq(r.bps, 25489247.640428, "b received");
	assert_int_equal(r.retransmits, 281);
	assert_string_equal(r.congestion, "htcp");
	assert_int_equal(r.nintervals, 20);
}

static void
test_json_failures(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO
	    "iperf3_json_3.6_error_control_socket_cloudpilot.json", 1), -1);
	fx_err_has(err, "error - control socket has closed unexpectedly");
	assert_int_equal(r.tool_error, 1);

	/* "^C" prefix, CRLF, full data but "error": never 0 bit/s. */
	assert_int_equal(run_file(RO
	    "iperf3_json_3.6_interrupted_crlf_cloudpilot.json", 1), -1);
	fx_err_has(err, "interrupt - the client has terminated");

	/* Empty intervals/end and no "error" key at all. */
	assert_int_equal(run_file(RO
	    "iperf3_json_3.9_empty_no_error_key_cloudpilot.json", 1), -1);
	fx_err_has(err, "no end summary");
}

static void
test_json_39_omit(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(run_file(RO "iperf3_json_3.9_tcp_omit3_cloudpilot.json",
	    1), 0);
	assert_string_equal(r.version, "iperf 3.9");
	fx_eq(r.sent_bps, 377491172.6608439, "sent");
	fx_eq(r.bps, 376855836.01269084, "received");
	assert_int_equal(r.retransmits, 0);
	assert_string_equal(r.congestion, "cubic");
	assert_int_equal(r.window_granted, 16384);
	assert_int_equal(r.window_requested, PARSE_UNKNOWN); /* 0: no -w */
	assert_int_equal(r.nintervals, 13);
	for (i = 0; i < r.nintervals; i++)
		assert_int_equal(r.intervals[i].omitted, i < 3);
	assert_true(r.intervals[3].cwnd_bytes > 0);
	assert_true(r.cpu_host > 0 && r.cpu_remote > 0);
}

static const char synth[] =
    "{\"start\":{\"version\":\"iperf 3.12\",\"sock_bufsize\":1048576,"
    "\"sndbuf_actual\":32768,\"test_start\":{\"protocol\":\"TCP\"}},"
    "\"intervals\":[{\"streams\":[{\"snd_cwnd\":65160}],\"sum\":{"
    "\"start\":0,\"end\":1.0001,\"seconds\":1.0001,\"bytes\":117964800,"
    "\"bits_per_second\":943623637.6,\"retransmits\":3,\"omitted\":false}}],"
    "\"end\":{\"sum_sent\":{\"start\":0,\"end\":1.0001,\"bytes\":117964800,"
    "\"bits_per_second\":943623637.6,\"retransmits\":3},"
    "\"sum_received\":{\"start\":0,\"end\":1.0423,\"bytes\":117833728,"
    "\"bits_per_second\":904395552.1},\"cpu_utilization_percent\":{"
    "\"host_total\":12.5,\"remote_total\":3.25},"
    "\"sender_tcp_congestion\":\"newreno\"}}\r\n";

static void
test_json_synthetic(void **state)
{
	(void)state;
	assert_int_equal(parse_iperf3_json(synth, sizeof(synth) - 1, &r, err,
	    sizeof(err)), 0);
	assert_int_equal(r.window_requested, 1048576);
	assert_int_equal(r.window_granted, 32768);
	fx_eq(r.cpu_host, 12.5, "host cpu");
	fx_eq(r.cpu_remote, 3.25, "remote cpu");
	fx_eq(r.bytes, 117833728, "received bytes");
	fx_eq(r.sent_bytes, 117964800, "sent bytes");
	fx_eq(r.seconds, 1.0423, "seconds");
	assert_int_equal(r.retransmits, 3);
	assert_int_equal(r.intervals[0].retransmits, 3);
	assert_int_equal(r.intervals[0].cwnd_bytes, 65160);
	assert_string_equal(r.congestion, "newreno");
}

/* Replace the first occurrence of from in synth with to, parse. */
static int
synth_with(const char *from, const char *to)
{
	char buf[2048];
	const char *p = strstr(synth, from);
	size_t a;

	assert_non_null(p);
	a = (size_t)(p - synth);
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)a, synth, to,
	    p + strlen(from));
	err[0] = '\0';
	return parse_iperf3_json(buf, strlen(buf), &r, err, sizeof(err));
}

static void
test_json_bad_numbers(void **state)
{
	(void)state;
	assert_int_equal(synth_with("117833728", "1e300"), -1);
	fx_err_has(err, "out-of-range");
	assert_int_equal(synth_with("117833728", "-5"), -1);
	assert_int_equal(synth_with("117833728", "\"117833728\""), -1);
	assert_int_equal(synth_with("904395552.1", "1e999"), -1);
	fx_err_has(err, "not valid JSON");
	assert_int_equal(synth_with("\"retransmits\":3}", "\"retransmits\":3.5}"),
	    -1);
	assert_int_equal(synth_with("\"sndbuf_actual\":32768",
	    "\"sndbuf_actual\":1e20"), -1);
	assert_int_equal(synth_with("904395552.1", "0"), -1);
	fx_err_has(err, "no data");
	assert_int_equal(synth_with("{\"start\"", "[{\"start\""), -1);
	assert_int_equal(synth_with("\"end\":{\"sum_sent\"",
	    "\"error\":\"unable to connect\",\"end\":{\"sum_sent\""), -1);
	fx_err_has(err, "iperf3: unable to connect");
	/* Trailing junk after the object. */
	assert_int_equal(synth_with("}}\r\n", "}} trailing"), -1);
}

static void
test_text_retr_cwnd(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO "iperf3_text_tcp_client_retr_cwnd_moler.txt",
	    0), 0);
	fx_eq(r.sent_bytes, 29.1 * GiB, "sender bytes");
	fx_eq(r.sent_bps, 25.0e9, "sender bps");
	assert_int_equal(r.retransmits, 0);
	fx_eq(r.bytes, 29.1 * GiB, "receiver bytes");
	fx_eq(r.bps, 24.9e9, "receiver bps");
	fx_eq(r.seconds, 10.05, "receiver seconds");
	assert_int_equal(r.nintervals, 10);
	assert_int_equal(r.intervals[0].cwnd_bytes,
	    (int64_t)(1.25 * MiB + 0.5));
	assert_int_equal(r.intervals[9].cwnd_bytes,
	    (int64_t)(4.81 * MiB + 0.5));
}

static void
test_text_omit_crlf(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(run_file(RO "iperf3_text_tcp_omit3_crlf_cloudpilot.txt",
	    0), 0);
	fx_eq(r.sent_bytes, 232 * MiB, "sender bytes");
	fx_eq(r.sent_bps, 195e6, "sender bps");
	assert_int_equal(r.retransmits, 0);
	fx_eq(r.bytes, 235 * MiB, "receiver bytes");
	fx_eq(r.bps, 195e6, "receiver bps");
	fx_eq(r.seconds, 10.08, "seconds");
	assert_int_equal(r.nintervals, 13);
	for (i = 0; i < r.nintervals; i++)
		assert_int_equal(r.intervals[i].omitted, i < 3);
	fx_eq(r.intervals[3].start, 0, "timestamps restart after -O");
	assert_int_equal(r.intervals[5].cwnd_bytes,
	    (int64_t)(4.09 * MiB + 0.5));
}

static void
test_text_udp(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO "iperf3_text_udp_client_kbits_moler.txt",
	    0), -1);
	assert_int_equal(r.udp, 1);
	fx_err_has(err, PARSE_ERR_UDP);
}

static void
test_text_errors(void **state)
{
	static const char refused[] = "iperf3: error - unable to connect to "
	    "server: Connection refused\n";
	static const char two[] =
	    "[  5] local 198.18.0.1 port 1 connected to 198.18.0.2 port 5201\n"
	    "[  7] local 198.18.0.1 port 2 connected to 198.18.0.2 port 5201\n"
	    "[ ID] Interval           Transfer     Bitrate         Retr\n"
	    "[  5]   0.00-10.00  sec   232 MBytes   195 Mbits/sec    0"
	    "             sender\n"
	    "[  5]   0.00-10.08  sec   235 MBytes   195 Mbits/sec"
	    "                  receiver\n";

	static const char server[] =
	    "[ ID] Interval           Transfer     Bitrate         Retr\n"
	    "[  5]   0.00-10.00  sec   232 MBytes   195 Mbits/sec    0"
	    "             sender\n"
	    "[  5]   0.00-10.08  sec   235 MBytes   195 Mbits/sec"
	    "                  receiver\n"
	    "\n"
	    "Server output:\n"
	    "[  5]   0.00-10.08  sec   999 MBytes   195 Mbits/sec"
	    "                  receiver\n";

	(void)state;
	assert_int_equal(parse_iperf3_text(refused, sizeof(refused) - 1, &r,
	    err, sizeof(err)), -1);
	fx_err_has(err, "Connection refused");
	/* Two flows but no [SUM] summary: one flow's numbers are wrong. */
	assert_int_equal(parse_iperf3_text(two, sizeof(two) - 1, &r, err,
	    sizeof(err)), -1);
	fx_err_has(err, "[SUM]");
	assert_int_equal(parse_iperf3_text("", 0, &r, err, sizeof(err)), -1);
	assert_int_equal(parse_iperf3_text(server, sizeof(server) - 1, &r, err,
	    sizeof(err)), 0);
	fx_eq(r.bytes, 235 * MiB, "client's receiver line, not the server's");
	assert_int_equal(parse_iperf3_json("", 0, &r, err, sizeof(err)), -1);
	assert_int_equal(parse_iperf3_json("^C", 2, &r, err, sizeof(err)), -1);
}

static void
test_oversized(void **state)
{
	size_t n = PARSE_MAX_INPUT + 1;
	char *big = malloc(n);

	(void)state;
	assert_non_null(big);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	assert_int_equal(parse_iperf3_json(big, n, &r, err, sizeof(err)), -1);
	fx_err_has(err, "exceeds");
	assert_int_equal(parse_iperf3_text(big, n, &r, err, sizeof(err)), -1);
	fx_err_has(err, "exceeds");
	free(big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_313_tcp),
		cmocka_unit_test(test_json_313_udp),
		cmocka_unit_test(test_json_316),
		cmocka_unit_test(test_json_failures),
		cmocka_unit_test(test_json_39_omit),
		cmocka_unit_test(test_json_synthetic),
		cmocka_unit_test(test_json_bad_numbers),
		cmocka_unit_test(test_text_retr_cwnd),
		cmocka_unit_test(test_text_omit_crlf),
		cmocka_unit_test(test_text_udp),
		cmocka_unit_test(test_text_errors),
		cmocka_unit_test(test_oversized),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
