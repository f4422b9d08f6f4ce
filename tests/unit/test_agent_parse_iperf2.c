/*
 * test_agent_parse_iperf2: iperf2 client output (2.0.x, 2.0.13 -e, 2.1.9
 * -e, -y C) against the values listed in real-outputs/INDEX.md and the em
 * seed report's four runs; UDP and broken outputs give errors.
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
run_file(const char *rel, int csv)
{
	size_t len;
	char *t = fx_read(rel, &len);
	int rc;

	err[0] = '\0';
	rc = csv ? parse_iperf2_csv(t, len, &r, err, sizeof(err)) :
	    parse_iperf2(t, len, &r, err, sizeof(err));
	free(t);
	return rc;
}

static const struct parse_stream *
stream(int id)
{
	int i;

	for (i = 0; i < r.nstreams; i++)
		if (r.streams[i].id == id)
			return &r.streams[i];
	print_error("no stream %d\n", id);
	fail();
	return NULL;
}

/* The em seed: four runs of `iperf -c ... -l 512k -w 1024k -N -t 30`. */
static void
seed_run(int nth, double gbytes, double mbits, double granted)
{
	size_t len, slen;
	char *seed = fx_read("em-tso-9k-mtu.txt", &len);
	char *s = fx_section(seed, "iperf -c", nth, "# ", &slen);

	assert_int_equal(parse_iperf2(s, slen, &r, err, sizeof(err)), 0);
	assert_int_equal(r.tool, PARSE_TOOL_IPERF2);
	fx_eq(r.bps, mbits * 1e6, "bps");
	fx_eq(r.bytes, gbytes * GiB, "bytes");
	fx_eq(r.seconds, 30.0, "seconds");
	assert_int_equal(r.window_granted, (int64_t)(granted + 0.5));
	assert_int_equal(r.window_requested, 1048576);
	assert_int_equal(r.window_default, 0);
	assert_int_equal(r.retransmits, PARSE_UNKNOWN);
	assert_int_equal(r.nstreams, 1);
	assert_int_equal(r.streams[0].id, 3);
	assert_int_equal(r.nintervals, 0);
	assert_int_equal(r.sum_from_streams, 0);
	assert_int_equal(r.exact, 0);
	assert_int_equal(parse_iperf_check(&r, 30, 1, err, sizeof(err)), 0);
	free(s);
	free(seed);
}

static void
test_seed_em(void **state)
{
	(void)state;
	/* 32.0 KByte granted of the 1.00 MByte asked: FreeBSD sendspace. */
	seed_run(0, 2.69, 769, 32.0 * KiB);
	seed_run(1, 3.26, 933, 32.0 * KiB);
	seed_run(2, 3.29, 942, 1.01 * MiB);
	seed_run(3, 3.27, 935, 1.01 * MiB);
}

static void
test_205_P20(void **state)
{
	int id;

	(void)state;
	assert_int_equal(run_file(RO "iperf205_tcp_client_P20_sum_moler.txt",
	    0), 0);
	fx_eq(r.bytes, 344 * MiB, "bytes");
	fx_eq(r.bps, 266e6, "bps");
	fx_eq(r.seconds, 10.8, "seconds");
	assert_int_equal(r.window_granted, 16384);
	assert_int_equal(r.window_default, 1);
	assert_int_equal(r.window_requested, PARSE_UNKNOWN);
	assert_int_equal(r.nstreams, 20);
	for (id = 3; id <= 22; id++)
		assert_int_equal(stream(id)->has_final, 1);
	fx_eq(stream(15)->end, 10.8, "[15] end");
	fx_eq(stream(8)->end, 10.6, "[8] end");
	assert_int_equal(r.nintervals, 0);
}

static void
test_205_interval(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(run_file(RO "iperf205_tcp_client_interval_moler.txt",
	    0), 0);
	assert_int_equal(r.window_granted, 16384);	/* "16384 Byte" */
	assert_int_equal(r.window_default, 1);
	fx_eq(r.bytes, 265 * MiB, "bytes");
	fx_eq(r.bps, 222e6, "bps");
	fx_eq(r.seconds, 10.0, "seconds");
	assert_int_equal(r.nintervals, 10);
	for (i = 0; i < 10; i++) {
		fx_eq(r.intervals[i].start, (double)i, "start");
		fx_eq(r.intervals[i].end, (double)i + 1, "end");
		assert_true(r.intervals[i].bps >= 216e6);
		assert_true(r.intervals[i].bps <= 240e6);
	}
	fx_eq(r.intervals[0].bps, 240e6, "first interval");
}

static void
test_20x_stalled_no_final_sum(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO
	    "iperf20x_tcp_P2_stalled_no_final_sum_oldape.txt", 0), 0);
	assert_int_equal(r.sum_from_streams, 1);
	fx_eq(r.bytes, 3.50 * MiB + 3.75 * MiB, "bytes (7.25 MBytes)");
	fx_eq(r.seconds, 19.3, "seconds");
	fx_eq(r.bps, r.bytes * 8 / 19.3, "bps");
	fx_eq(stream(3)->end, 10.7, "[3] end");
	fx_eq(stream(3)->bps, 2.73e6, "[3] bps");
	fx_eq(stream(4)->end, 19.3, "[4] end");
	fx_eq(stream(4)->bps, 1.63e6, "[4] bps");
	/* [SUM] interval lines stop after 9.0-10.0. */
	assert_int_equal(r.nintervals, 10);
	fx_eq(r.intervals[0].bps, 15.7e6, "first [SUM]");
	fx_eq(r.intervals[9].start, 9.0, "last [SUM] start");
	fx_eq(r.intervals[9].bytes, 0, "last [SUM] bytes");
	/* Readable, but not a sample: [SUM] rows without the final one (a
	 * flow stalled to 19.3 s of a 10 s run). */
	assert_int_equal(r.sum_rows, 10);
	assert_int_equal(parse_iperf_check(&r, 10, 2, err, sizeof(err)), -1);
	fx_err_has(err, "no final [SUM]");
}

static void
test_20x_P4_kbytes(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO "iperf20x_tcp_P4_kbytes_oldape.txt", 0),
	    0);
	fx_eq(r.bytes, 35.2 * MiB, "bytes");
	fx_eq(r.bps, 29.0e6, "bps");
	fx_eq(r.seconds, 10.2, "seconds");
	assert_int_equal(r.window_granted, 16384);
	assert_int_equal(r.nstreams, 4);
	assert_int_equal(r.nintervals, 10);
}

static void
test_20x_P8(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(run_file(RO "iperf20x_tcp_P8_interval_sum_oldape.txt",
	    0), 0);
	fx_eq(r.bytes, 1.10 * GiB, "bytes");
	fx_eq(r.bps, 944e6, "bps");
	fx_eq(r.seconds, 10.0, "seconds");
	assert_int_equal(r.window_granted, 16384);
	assert_int_equal(r.nstreams, 8);
	assert_int_equal(stream(10)->has_final, 1);
	assert_int_equal(r.nintervals, 10);
	for (i = 0; i < r.nintervals; i++) {
		assert_true(r.intervals[i].bps >= 938e6);
		assert_true(r.intervals[i].bps <= 957e6);
	}
}

static void
test_2013_P2(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO "iperf2013_e_tcp_P2_pkb.txt", 0), 0);
	fx_eq(r.bytes, 14095 * MiB, "bytes");
	fx_eq(r.bps, 1970e6, "bps");
	fx_eq(r.seconds, 60.01, "seconds");
	assert_int_equal(r.retransmits, 0);
	assert_int_equal(r.window_granted, (int64_t)(0.17 * MiB + 0.5));
	assert_int_equal(r.window_default, 1);
	fx_eq(stream(4)->bps, 985e6, "[4] bps");
	fx_eq(stream(4)->rtt_us, 238, "[4] rtt");
	fx_eq(stream(3)->bps, 985e6, "[3] bps");
	fx_eq(stream(3)->rtt_us, 129, "[3] rtt");
	/* "-1K": no cwnd. */
	assert_int_equal(stream(3)->cwnd_bytes, PARSE_UNKNOWN);
}

static void
test_2013_P3_interval(void **state)
{
	static const double sum[] = { 17.8e6, 244e6, 2316e6, 1806e6, 1816e6 };
	size_t i;

	(void)state;
	assert_int_equal(run_file(RO "iperf2013_e_tcp_P3_interval_pkb.txt", 0),
	    0);
	assert_int_equal(r.nintervals, N(sum));
	for (i = 0; i < N(sum); i++) {
		fx_eq(r.intervals[i].bps, sum[i], "[SUM] interval");
		assert_int_equal(r.intervals[i].retransmits, 0);
	}
	fx_eq(r.bytes, 739 * MiB, "bytes");
	fx_eq(r.bps, 1183e6, "bps");
	fx_eq(r.seconds, 5.24, "seconds");
	assert_int_equal(r.retransmits, 0);
	fx_eq(stream(5)->bps, 330e6, "[5]");
	fx_eq(stream(3)->bps, 410e6, "[3]");
	fx_eq(stream(4)->bps, 469e6, "[4]");
}

static void
test_2013_single_interval(void **state)
{
	static const double bps[] = { 5.24e6, 94.4e6, 811e6, 2109e6, 2026e6 };
	static const double cwnd[] = { 28, 226, 3620, 24374, 50818 };
	size_t i;

	(void)state;
	assert_int_equal(run_file(RO "iperf2013_e_tcp_single_interval_pkb.txt",
	    0), 0);
	assert_int_equal(r.nintervals, N(bps));
	for (i = 0; i < N(bps); i++) {
		fx_eq(r.intervals[i].bps, bps[i], "interval bps");
		assert_int_equal(r.intervals[i].cwnd_bytes,
		    (int64_t)cwnd[i] * 1024);
	}
	fx_eq(r.bytes, 601 * MiB, "bytes");
	fx_eq(r.bps, 939e6, "bps");
	fx_eq(r.seconds, 5.37, "seconds");
	assert_int_equal(r.retransmits, 0);
	fx_eq(r.streams[0].rtt_us, 269333, "rtt");
	assert_int_equal(r.window_granted, (int64_t)(0.08 * MiB + 0.5));
}

static void
test_2013_single(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO "iperf2013_e_tcp_single_pkb.txt", 0), 0);
	fx_eq(r.bytes, 14063 * MiB, "bytes");
	fx_eq(r.bps, 1966e6, "bps");
	fx_eq(r.seconds, 60.0, "seconds");
	assert_int_equal(r.retransmits, 0);
	fx_eq(r.streams[0].rtt_us, 1346, "rtt");
	assert_int_equal(r.window_granted, (int64_t)(1.67 * MiB + 0.5));
}

static void
test_21_P2(void **state)
{
	static const int64_t rtry[] = { 1, 0, 2 };
	size_t i;

	(void)state;
	assert_int_equal(run_file(RO "iperf21_e_tcp_P2_formatb_perfsonar.txt",
	    0), 0);
	fx_eq(r.bytes, 58089668728.0, "bytes");
	fx_eq(r.bps, 77452452740.0, "bps");
	fx_eq(r.seconds, 6.00, "seconds");
	assert_int_equal(r.retransmits, 4);
	assert_int_equal(r.window_granted, 2626560);
	assert_int_equal(r.window_default, 1);
	fx_eq(stream(1)->bps, 36857799987.0, "[1]");
	assert_int_equal(stream(1)->retransmits, 1);
	assert_int_equal(stream(1)->cwnd_bytes, 2877 * 1024);
	fx_eq(stream(1)->rtt_us, 408, "[1] rtt");
	fx_eq(stream(2)->bps, 40332659745.0, "[2]");
	assert_int_equal(stream(2)->retransmits, 3);
	assert_int_equal(stream(2)->cwnd_bytes, 4220 * 1024);
	fx_eq(stream(2)->rtt_us, 2574, "[2] rtt");
	fx_eq(stream(2)->end, 6.02, "[2] end");
	assert_int_equal(r.nintervals, N(rtry));
	for (i = 0; i < N(rtry); i++)
		assert_int_equal(r.intervals[i].retransmits, rtry[i]);
}

static void
test_21_P4_uneven(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO
	    "iperf21_e_tcp_P4_uneven_final_perfsonar.txt", 0), 0);
	fx_eq(r.bytes, 686162160.0, "bytes");
	fx_eq(r.bps, 548236045.0, "bps");
	fx_eq(r.seconds, 10.01, "seconds");
	assert_int_equal(r.retransmits, 5882);
	assert_int_equal(r.window_granted, 16384);
	assert_int_equal(r.nstreams, 4);
	fx_eq(stream(2)->end, 10.14, "[2] end");
	fx_eq(stream(1)->end, 10.21, "[1] end");
	assert_int_equal(r.sum_from_streams, 0);
}

static void
test_21_single(void **state)
{
	static const double bytes[] = { 10924589116.0, 11269832704.0,
	    11097866240.0 };
	size_t i;

	(void)state;
	assert_int_equal(run_file(RO
	    "iperf21_e_tcp_single_formatb_perfsonar.txt", 0), 0);
	fx_eq(r.bytes, 33292419132.0, "bytes");
	fx_eq(r.bps, 44297878100.0, "bps");
	fx_eq(r.seconds, 6.01, "seconds");
	assert_int_equal(r.retransmits, 17);
	assert_int_equal(r.streams[0].id, 1);
	assert_int_equal(r.streams[0].cwnd_bytes, 3645 * 1024);
	fx_eq(r.streams[0].rtt_us, 1575, "rtt");
	assert_int_equal(r.window_granted, 2626560);
	assert_int_equal(r.nintervals, N(bytes));
	for (i = 0; i < N(bytes); i++) {
		fx_eq(r.intervals[i].bytes, bytes[i], "interval bytes");
		fx_eq(r.intervals[i].start, 2.0 * (double)i, "interval start");
	}
	assert_int_equal(r.intervals[0].retransmits, 11);
}

static void
test_udp_rejected(void **state)
{
	static const char *files[] = {
		RO "iperf2013_e_udp_P2_pkb.txt",
		RO "iperf2013_e_udp_single_pkb.txt",
		RO "iperf205_udp_dualtest_kbits_moler.txt",
		RO "iperf20x_udp_P2_kbits_sum_moler.txt",
		RO "iperf21_e_udp_P2_formatb_perfsonar.txt",
		RO "iperf21_e_udp_single_formatb_perfsonar.txt",
	};
	size_t i;

	(void)state;
	for (i = 0; i < N(files); i++) {
		assert_int_equal(run_file(files[i], 0), -1);
		fx_err_has(err, PARSE_ERR_UDP);
		assert_int_equal(r.udp, 1);
	}
}

static void
test_csv(void **state)
{
	(void)state;
	assert_int_equal(run_file(RO "iperf20x_csv_P2_stalled_oldape.csv", 1),
	    0);
	assert_int_equal(r.exact, 1);
	fx_eq(r.bytes, 6684672, "bytes");
	/* seconds from iperf's exact bps (the row says 0.0-14.8). */
	fx_near(r.bps, 3602594, 1e-6, "bps");
	fx_near(r.seconds, 6684672 * 8.0 / 3602594, 1e-6, "seconds");
	fx_eq(r.bps, r.bytes * 8 / r.seconds, "bps = bytes * 8 / seconds");
	fx_eq(stream(4)->bytes, 2752512, "[4] bytes");
	fx_eq(stream(4)->bps, 1483421, "[4] bps");
	assert_int_equal(r.nintervals, 10);

	assert_int_equal(run_file(RO "iperf20x_csv_P4_interval_oldape.csv", 1),
	    0);
	fx_eq(r.bytes, 33554432, "bytes");
	fx_near(r.bps, 26379832, 1e-6, "bps");
	fx_near(r.seconds, 10.2, 0.01, "seconds");
	assert_int_equal(parse_iperf_check(&r, 10, 4, err, sizeof(err)), 0);
	fx_eq(stream(5)->bps, 7636461, "[5] bps");
	assert_int_equal(r.nstreams, 4);

	/* Text is not CSV, CSV is not text. */
	assert_int_equal(run_file(RO "iperf205_tcp_client_interval_moler.txt",
	    1), -1);
	assert_int_equal(run_file(RO "iperf20x_csv_P2_stalled_oldape.csv", 0),
	    -1);
}

static void
test_csv_22_header(void **state)
{
	static const char t[] =
	    "time,srcaddress,srcport,dstaddr,dstport,transferid,istart,iend,"
	    "bytes,speed,writecnt,writeerr,tcpretry,tcpcwnd,tcppcwnd,tcprtt,"
	    "tcprttvar\n"
	    "+0000:1700000000.1,198.18.0.1,5000,198.18.0.2,5001,1,0.0,1.0,"
	    "1000,8000,1,0,2,10,10,100,5\n"
	    "+0000:1700000001.1,198.18.0.1,5000,198.18.0.2,5001,1,0.0,10.0,"
	    "10000,8000,10,0,7,10,10,100,5\n";

	(void)state;
	assert_int_equal(parse_iperf2_csv(t, sizeof(t) - 1, &r, err,
	    sizeof(err)), 0);
	fx_eq(r.bytes, 10000, "bytes");
	fx_eq(r.seconds, 10.0, "seconds");
	assert_int_equal(r.retransmits, 7);
	assert_int_equal(r.nintervals, 1);
	assert_int_equal(r.intervals[0].retransmits, 2);
}

/* iperf 2.1.9+/2.2 header forms (from iperf2's Locale.c formats). */
static void
test_21_inflight_header(void **state)
{
	static const char t[] =
	    "[  1] local 198.18.0.1 port 5 connected with 198.18.0.2 port "
	    "5001\n"
	    "[ ID] Interval            Transfer    Bandwidth       Write/Err  "
	    "Rtry     InF(pkts)/Cwnd(pkts)/RTT(var)        NetPwr\n"
	    "[  1] 0.0000-10.0000 sec  2.38 MBytes  2.00 Mbits/sec  20/0"
	    "        73       22K(16)/24K(17)/56167(15843) us  4.448847\n"
	    "[  1] 10.0000-20.0000 sec  5.88 MBytes  4.93 Mbits/sec  47/0"
	    "        38      178K(126)/178K(126)/462265(40709) us  1.332652\n"
	    "[  1] 0.0000-20.0100 sec  8.26 MBytes  3.46 Mbits/sec  67/0"
	    "       111      178K(126)/180K(128)/400000(40709) us  1.1\n";

	(void)state;
	assert_int_equal(parse_iperf2(t, sizeof(t) - 1, &r, err, sizeof(err)),
	    0);
	assert_int_equal(r.nintervals, 2);
	assert_int_equal(r.intervals[0].retransmits, 73);
	assert_int_equal(r.intervals[0].cwnd_bytes, 24 * 1024);
	assert_int_equal(r.intervals[1].cwnd_bytes, 178 * 1024);
	fx_eq(r.seconds, 20.01, "seconds");
	assert_int_equal(r.retransmits, 111);
	assert_int_equal(r.streams[0].cwnd_bytes, 180 * 1024);
	fx_eq(r.streams[0].rtt_us, 400000, "rtt");
}

static void
test_errors(void **state)
{
	static const struct {
		const char	*text;
		const char	*needle;
	} cases[] = {
		{ "", "empty" },
		{ "connect failed: Connection refused\n", "Connection refused" },
		{ "random words\nand more\n", "no report" },
		{ "[  3]  0.0-30.0 sec  2.69 GBytes  9999999 Tbits/sec\n",
		    "out-of-range" },
		{ "[  3]  0.0-30.0 sec  2e9 GBytes  769 Mbits/sec\n",
		    "out-of-range" },
		{ "[  3]  0.0-30.0 sec  -2 GBytes  769 Mbits/sec\n",
		    "out-of-range" },
		{ "[  3]  0.0-30.0 sec  2.69 Gbytes  769 Mbits/sec\n",
		    "out-of-range" },
		{ "[  3]  30.0-0.0 sec  2.69 GBytes  769 Mbits/sec\n",
		    "out-of-range" },
		{ "TCP window size: 99999999 GByte (default)\n", "window" },
		/* Cut off mid-line: the partial line is ignored. */
		{ "[  3]  0.0-30.0 sec  2.69 GBytes    76", "no report" },
		{ "[  3]  0.0-30.0 sec  2.69 GBytes  769 Mbits/sec\n"
		  "[  4]  0.0- 1.0 sec  1.00 MBytes  8.39 Mbits/sec\n"
		  "[  4]  1.0- 2.0 sec  1.00 MBytes  8.39 Mbits/sec\n",
		    "no final report" },
		{ "Server listening on TCP port 5001\n"
		  "[  3]  0.0-30.0 sec  2.69 GBytes  769 Mbits/sec\n",
		    "bidirectional" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < N(cases); i++) {
		err[0] = '\0';
		if (parse_iperf2(cases[i].text, strlen(cases[i].text), &r, err,
		    sizeof(err)) != -1) {
			print_error("case %zu parsed\n", i);
			fail();
		}
		fx_err_has(err, cases[i].needle);
	}
	assert_int_equal(parse_iperf2(NULL, 0, &r, err, sizeof(err)), -1);
}

static void
test_oversized(void **state)
{
	size_t n = PARSE_MAX_INPUT + 1, i;
	char *big = malloc(n);

	(void)state;
	assert_non_null(big);
	for (i = 0; i < n; i++)
		big[i] = (i % 64 == 63) ? '\n' : 'x';
	assert_int_equal(parse_iperf2(big, n, &r, err, sizeof(err)), -1);
	fx_err_has(err, "exceeds");
	assert_int_equal(parse_iperf2_csv(big, n, &r, err, sizeof(err)), -1);
	fx_err_has(err, "exceeds");
	free(big);
}

static void
test_check(void **state)
{
	static const char t[] =
	    "[  3]  0.0- 1.0 sec  1.00 MBytes  8.39 Mbits/sec\n";

	(void)state;
	/* The first interval of a cut-off -i run looks like a 1 s run. */
	assert_int_equal(parse_iperf2(t, sizeof(t) - 1, &r, err, sizeof(err)),
	    0);
	assert_int_equal(parse_iperf_check(&r, 10, 1, err, sizeof(err)), -1);
	fx_err_has(err, "1.00 s of the 10.00 s");
	assert_int_equal(parse_iperf_check(&r, 1, 1, err, sizeof(err)), 0);
	assert_int_equal(parse_iperf_check(&r, 0, 0, err, sizeof(err)), 0);
	/* One flow of the two asked for. */
	assert_int_equal(parse_iperf_check(&r, 1, 2, err, sizeof(err)), -1);
	fx_err_has(err, "1 flow reported of the 2");
}

static void
test_many_intervals(void **state)
{
	size_t cap = (PARSE_MAX_INTERVALS + 10) * 60 + 200, n = 0, i;
	char *t = malloc(cap);

	(void)state;
	assert_non_null(t);
	for (i = 0; i < PARSE_MAX_INTERVALS + 10; i++)
		n += (size_t)snprintf(t + n, cap - n, "[  3] %zu.0-%zu.0 sec  "
		    "1.00 MBytes  8.39 Mbits/sec\n", i, i + 1);
	n += (size_t)snprintf(t + n, cap - n, "[  3]  0.0-%zu.0 sec  "
	    "3.62 GBytes  8.39 Mbits/sec\n", i);
	assert_int_equal(parse_iperf2(t, n, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nintervals, PARSE_MAX_INTERVALS);
	assert_int_equal(r.intervals_truncated, 1);
	fx_eq(r.seconds, (double)i, "seconds");
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_em),
		cmocka_unit_test(test_205_P20),
		cmocka_unit_test(test_205_interval),
		cmocka_unit_test(test_20x_stalled_no_final_sum),
		cmocka_unit_test(test_20x_P4_kbytes),
		cmocka_unit_test(test_20x_P8),
		cmocka_unit_test(test_2013_P2),
		cmocka_unit_test(test_2013_P3_interval),
		cmocka_unit_test(test_2013_single_interval),
		cmocka_unit_test(test_2013_single),
		cmocka_unit_test(test_21_P2),
		cmocka_unit_test(test_21_P4_uneven),
		cmocka_unit_test(test_21_single),
		cmocka_unit_test(test_21_inflight_header),
		cmocka_unit_test(test_udp_rejected),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_csv_22_header),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_oversized),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_many_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
