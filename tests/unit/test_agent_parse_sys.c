/*
 * test_agent_parse_sys: interface counters (/proc/net/dev, netstat -I),
 * CPU (/proc/stat, /proc/PID/stat, ps -o time): hand-made fixtures and
 * this host's own /proc files.  (scp's progress meter is no longer read:
 * the scp workload's figures are the file's size and the clock.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "agent_parse_fx.h"
#include "parse.h"

static char err[256];

#define RO	"real-outputs/"
#define HM	"hand-made/"

static void
test_proc_net_dev(void **state)
{
	struct parse_ifstats s;
	size_t len;
	char *t = fx_read(HM "linux_proc_net_dev.txt", &len);

	(void)state;
	assert_int_equal(parse_proc_net_dev(t, len, "eth0", &s, err,
	    sizeof(err)), 0);
	assert_int_equal(s.rx_bytes, 987654321);
	assert_int_equal(s.rx_packets, 1234567);
	assert_int_equal(s.rx_errors, 3);
	assert_int_equal(s.rx_dropped, 42);
	assert_int_equal(s.tx_bytes, 123456789);
	assert_int_equal(s.tx_packets, 654321);
	assert_int_equal(s.tx_errors, 1);
	assert_int_equal(s.tx_dropped, 7);
	assert_int_equal(parse_proc_net_dev(t, len, "lo", &s, err,
	    sizeof(err)), 0);
	assert_int_equal(s.rx_bytes, 48213);
	/* A counter above 2^63-1 is refused, not wrapped. */
	assert_int_equal(parse_proc_net_dev(t, len, "veth-lr123a", &s, err,
	    sizeof(err)), -1);
	assert_int_equal(s.rx_bytes, -1);
	assert_int_equal(parse_proc_net_dev(t, len, "eth", &s, err,
	    sizeof(err)), -1);
	fx_err_has(err, "no row for eth");
	free(t);
}

static void
test_live_proc(void **state)
{
	char buf[65536];
	struct parse_ifstats s;
	struct parse_cpu c;
	struct parse_pidstat p;
	FILE *f;
	size_t n;

	(void)state;
	if ((f = fopen("/proc/net/dev", "r")) == NULL)
		skip();
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(parse_proc_net_dev(buf, n, "lo", &s, err,
	    sizeof(err)), 0);
	assert_true(s.rx_bytes >= 0 && s.tx_packets >= 0);
	f = fopen("/proc/stat", "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(parse_proc_stat(buf, n, &c, err, sizeof(err)), 0);
	assert_true(c.idle > 0);
	f = fopen("/proc/self/stat", "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(parse_proc_pid_stat(buf, n, &p, err, sizeof(err)),
	    0);
	assert_string_equal(p.comm, "test_agent_pars");	/* TASK_COMM_LEN */
}

static void
test_netstat(void **state)
{
	struct parse_ifstats s;
	size_t len;
	char *t = fx_read(HM "freebsd_netstat_I_em0_bdnW.txt", &len);

	(void)state;
	assert_int_equal(parse_netstat_if(t, len, "em0", &s, err, sizeof(err)),
	    0);
	assert_int_equal(s.rx_packets, 2280396);
	assert_int_equal(s.rx_errors, 0);
	assert_int_equal(s.rx_dropped, 17);
	assert_int_equal(s.rx_bytes, 3382640216);
	assert_int_equal(s.tx_packets, 949417);
	assert_int_equal(s.tx_errors, 2);
	assert_int_equal(s.tx_bytes, 62661174);
	assert_int_equal(s.tx_dropped, 5);
	assert_int_equal(parse_netstat_if(t, len, "em1", &s, err, sizeof(err)),
	    -1);
	assert_int_equal(parse_netstat_if(t, len, "em", &s, err, sizeof(err)),
	    -1);
	free(t);

	/* 7.x: no Idrop column; lo0 has an empty Address cell. */
	t = fx_read(HM "freebsd7_netstat_I_lo0_bnW_no_idrop.txt", &len);
	assert_int_equal(parse_netstat_if(t, len, "lo0", &s, err, sizeof(err)),
	    0);
	assert_int_equal(s.rx_packets, 34);
	assert_int_equal(s.rx_bytes, 2920);
	assert_int_equal(s.rx_dropped, -1);
	assert_int_equal(s.tx_bytes, 2920);
	assert_int_equal(s.tx_dropped, 0);
	free(t);

	assert_int_equal(parse_netstat_if("em0 1500 <Link#1> 0 0\n", 22, "em0",
	    &s, err, sizeof(err)), -1);
	fx_err_has(err, "no header");
}

static void
test_cpu(void **state)
{
	struct parse_cpu c;
	struct parse_pidstat p;
	double secs;
	size_t len;
	char *t;

	(void)state;
	t = fx_read(HM "linux_proc_stat.txt", &len);
	assert_int_equal(parse_proc_stat(t, len, &c, err, sizeof(err)), 0);
	assert_int_equal(c.user, 20020);
	assert_int_equal(c.nice, 227);
	assert_int_equal(c.sys, 5493);
	assert_int_equal(c.idle, 117379);
	assert_int_equal(c.iowait, 79);
	assert_int_equal(c.softirq, 321);
	free(t);
	t = fx_read(HM "linux_proc_pid_stat_natd.txt", &len);
	assert_int_equal(parse_proc_pid_stat(t, len, &p, err, sizeof(err)), 0);
	assert_string_equal(p.comm, "natd (x) y");
	assert_int_equal(p.utime, 2190);
	assert_int_equal(p.stime, 345);
	free(t);
	t = fx_read(HM "freebsd_ps_o_time_natd.txt", &len);
	assert_int_equal(parse_ps_time(t, len, &secs, err, sizeof(err)), 0);
	fx_eq(secs, 21.90, "natd cpu time");
	free(t);

	assert_int_equal(parse_ps_time("01:02:03\n", 9, &secs, err,
	    sizeof(err)), 0);
	fx_eq(secs, 3723, "hh:mm:ss");
	assert_int_equal(parse_ps_time("2-01:02:03\n", 11, &secs, err,
	    sizeof(err)), 0);
	fx_eq(secs, 2 * 86400 + 3723, "dd-hh:mm:ss");
	assert_int_equal(parse_ps_time("123:45.67\n", 10, &secs, err,
	    sizeof(err)), 0);
	fx_eq(secs, 123 * 60 + 45.67, "long M:SS.cc");
	assert_int_equal(parse_ps_time("1:75.00\n", 8, &secs, err,
	    sizeof(err)), -1);
	assert_int_equal(parse_ps_time("TIME\n", 5, &secs, err, sizeof(err)),
	    -1);
	fx_err_has(err, "process gone");
	assert_int_equal(parse_ps_time("0:21.90", 7, &secs, err, sizeof(err)),
	    -1);	/* unterminated: cut off */
	assert_int_equal(parse_proc_stat("cpu 1 2\n", 8, &c, err, sizeof(err)),
	    -1);
	assert_int_equal(parse_proc_stat("cpu 1 2 3 99999999999999999999\n", 31,
	    &c, err, sizeof(err)), -1);
	assert_int_equal(parse_proc_pid_stat("1 (x) S 2\n", 10, &p, err,
	    sizeof(err)), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_net_dev),
		cmocka_unit_test(test_live_proc),
		cmocka_unit_test(test_netstat),
		cmocka_unit_test(test_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
