/*
 * test_health: the health module without a lab.
 * - states: names round-trip, usable() only for good and unknown;
 * - judging (health_judge.c): facts lines, facts compared with the last
 *   pass (driver, chip, os; chips ignoring case; ends the last pass did
 *   not see are not compared), figures within the tolerance;
 * - the state machine on a tmpfs store: a check of a pair whose hosts
 *   refuse SSH (a closed port on 127.0.0.1) goes unknown -> bad with a
 *   why naming the host, stored with who; maintenance on -> the check
 *   leaves the link alone and creates no run; off -> unknown (never
 *   straight back to good); off on a link not in maintenance and on for
 *   a retired link are refused; every transition is logged with who and
 *   why; `hosts health` JSON carries the fields.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "health_int.h"
#include "sshd_fixture.h"
#include "ssh.h"
#include "store_fixture.h"

static char	dbpath[256];
static char	err[1024];

static int
setup(void **state)
{
	(void)state;
	(void)kn;
	fx_db_path(dbpath, sizeof dbpath, "health");
	return 0;
}

static int
teardown(void **state)
{
	char	p[64];

	(void)state;
	fx_db_remove(dbpath);
	snprintf(p, sizeof p, "/tmp/lr-health-%ld.key", (long)getpid());
	unlink(p);
	snprintf(p, sizeof p, "/tmp/lr-health-%ld.kh", (long)getpid());
	unlink(p);
	return 0;
}

static void
test_states(void **state)
{
	enum health_state	s;
	int			i;

	(void)state;
	for (i = HEALTH_UNKNOWN; i <= HEALTH_RETIRED; i++) {
		assert_int_equal(health_state_parse(health_state_name(i), &s),
		    0);
		assert_int_equal(s, i);
	}
	assert_int_equal(health_state_parse("sick", &s), -1);
	assert_int_equal(health_state_parse(NULL, &s), -1);
	assert_int_equal(health_usable(HEALTH_UNKNOWN), 1);
	assert_int_equal(health_usable(HEALTH_GOOD), 1);
	assert_int_equal(health_usable(HEALTH_BAD), 0);
	assert_int_equal(health_usable(HEALTH_MAINTENANCE), 0);
	assert_int_equal(health_usable(HEALTH_RETIRED), 0);
}

static void
test_facts(void **state)
{
	char	a[512] = "", b[512] = "", why[512];

	(void)state;
	health_facts_line(a, sizeof a, "em-a", "em0", "freebsd", "em",
	    "0x10968086");
	health_facts_line(a, sizeof a, "em-b", "em0", "freebsd", "", NULL);
	assert_string_equal(a, "em-a em0 os=freebsd driver=em chip=0x10968086\n"
	    "em-b em0 os=freebsd driver=- chip=-\n");
	/* the same, chip case aside */
	health_facts_line(b, sizeof b, "em-a", "em0", "freebsd", "em",
	    "0X10968086");
	health_facts_line(b, sizeof b, "em-b", "em0", "freebsd", "", "");
	assert_int_equal(health_facts_same(a, b, why, sizeof why), 1);
	assert_string_equal(why, "");
	/* nothing to compare with */
	assert_int_equal(health_facts_same(NULL, b, why, sizeof why), 1);
	assert_int_equal(health_facts_same("", b, why, sizeof why), 1);
	/* another NIC in em-b: driver and chip changed */
	b[0] = '\0';
	health_facts_line(b, sizeof b, "em-a", "em0", "freebsd", "em",
	    "0x10968086");
	health_facts_line(b, sizeof b, "em-b", "em0", "freebsd", "igb",
	    "0x10c98086");
	assert_int_equal(health_facts_same(a, b, why, sizeof why), 0);
	assert_string_equal(why, "em-b em0: driver - at the last passing check, "
	    "now igb; em-b em0: chip - at the last passing check, now "
	    "0x10c98086");
	/* an end the last pass did not see (the inventory changed) */
	b[0] = '\0';
	health_facts_line(b, sizeof b, "em-c", "em0", "linux", "e1000e", NULL);
	assert_int_equal(health_facts_same(a, b, why, sizeof why), 1);
	/* values with blanks stay one word */
	b[0] = '\0';
	health_facts_line(b, sizeof b, "h", "if0", "linux", "a b=c", NULL);
	assert_string_equal(b, "h if0 os=linux driver=a_b_c chip=-\n");
}

static void
test_figure(void **state)
{
	char	why[512];

	(void)state;
	assert_int_equal(health_figure_ok(100e6, 0, 0.2, why, sizeof why), 1);
	assert_int_equal(health_figure_ok(941e6, 941e6, 0.2, why, sizeof why),
	    1);
	assert_int_equal(health_figure_ok(800e6, 1000e6, 0.2, why, sizeof why),
	    1);
	assert_int_equal(health_figure_ok(1200e6, 1000e6, 0.2, why,
	    sizeof why), 1);
	assert_int_equal(health_figure_ok(799e6, 1000e6, 0.2, why, sizeof why),
	    0);
	assert_string_equal(why, "iperf3 at the default knobs gave 799 Mbit/s, "
	    "20 % below the pair's last good figure 1000 Mbit/s (tolerance "
	    "20 %)");
	assert_int_equal(health_figure_ok(940e6, 1000e6, 0.05, why,
	    sizeof why), 0);
	assert_non_null(strstr(why, "6 % below"));
}

/* An inventory of two hosts on 127.0.0.1:port (nothing listens), link l;
 * key and known_hosts exist (empty): the failure is the connect.  With
 * files 0 they do not exist. */
static struct config_inventory *
inventory_files(int port, int files)
{
	struct config_inventory	*inv;
	struct config_errors	 errs;
	char			 text[2048], key[64], kh[64];
	FILE			*fp;

	snprintf(key, sizeof key, "/tmp/lr-health-%ld.key", (long)getpid());
	snprintf(kh, sizeof kh, "/tmp/lr-health-%ld.kh", (long)getpid());
	if (files) {
		if ((fp = fopen(key, "w")) != NULL)
			fclose(fp);
		if ((fp = fopen(kh, "w")) != NULL)
			fclose(fp);
	} else {
		unlink(key);
		unlink(kh);
	}
	snprintf(text, sizeof text, "{\"hosts\": ["
	    "{\"name\": \"fx-a\", \"os\": \"linux\", \"address\": \"127.0.0.1\","
	    " \"ssh\": {\"port\": %d, \"key\": \"%s\","
	    " \"known_hosts\": \"%s\"}, \"nics\": [{\"name\":"
	    " \"lo\", \"driver\": \"lo\", \"role\": \"test\"}]},"
	    "{\"name\": \"fx-b\", \"os\": \"linux\", \"address\": \"127.0.0.1\","
	    " \"ssh\": {\"port\": %d, \"key\": \"%s\","
	    " \"known_hosts\": \"%s\"}, \"nics\": [{\"name\":"
	    " \"lo\", \"driver\": \"lo\", \"role\": \"test\"}]}],"
	    "\"links\": [{\"name\": \"l\", \"client\": {\"host\": \"fx-a\","
	    " \"if\": \"lo\", \"address\": \"127.0.0.1\"}, \"server\":"
	    " {\"host\": \"fx-b\", \"if\": \"lo\", \"address\": \"127.0.0.1\"}}]}",
	    port, key, kh, port, key, kh);
	config_errors_init(&errs);
	inv = config_inventory_parse("/tmp/inv.json", text, strlen(text),
	    &errs);
	if (inv == NULL)
		fail_msg("inventory: %s", errs.n > 0 ? errs.msgs[0] : "?");
	config_errors_free(&errs);
	return inv;
}

static struct config_inventory *
inventory(int port)
{
	return inventory_files(port, 1);
}

static int64_t
count_runs(void)
{
	struct store		*st;
	struct store_run	*runs;
	size_t			 n;

	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1 ||
	    store_run_list(st, 0, &runs, &n, err, sizeof err) == -1)
		fail_msg("runs: %s", err);
	store_runs_free(runs, n);
	store_close(st);
	return (int64_t)n;
}

static void
test_check_states(void **state)
{
	struct config_inventory	*inv;
	struct health_opts	 o;
	struct health_result	 r;
	enum health_state	 s;
	int			 port = fx_free_port();

	(void)state;
	assert_true(port > 0);
	inv = inventory(port);
	memset(&o, 0, sizeof o);
	o.db_path = dbpath;
	o.owner = "test-daemon pid 7";

	assert_int_equal(health_get(dbpath, "l", &s, err, sizeof err), 0);
	assert_int_equal(s, HEALTH_UNKNOWN);
	/* unreachable pair: unknown -> bad, naming a host */
	assert_int_equal(health_check(inv, "l", &o, &r, err, sizeof err), 0);
	assert_int_equal(r.before, HEALTH_UNKNOWN);
	assert_int_equal(r.after, HEALTH_BAD);
	assert_int_equal(r.checked, 1);
	assert_true(r.run_id > 0);
	assert_true(strstr(r.why, "fx-a") != NULL ||
	    strstr(r.why, "fx-b") != NULL);
	assert_non_null(strstr(r.why, "127.0.0.1"));
	assert_int_equal(health_get(dbpath, "l", &s, err, sizeof err), 0);
	assert_int_equal(s, HEALTH_BAD);
	assert_int_equal(health_usable(s), 0);
	assert_int_equal(count_runs(), 1);

	/* a check that fails before any host is named: the pair is named */
	config_inventory_free(inv);
	inv = inventory_files(port, 0);
	assert_int_equal(health_check(inv, "l", &o, &r, err, sizeof err), 0);
	assert_int_equal(r.after, HEALTH_BAD);
	assert_non_null(strstr(r.why, "fx-a -> fx-b: "));
	assert_int_equal(count_runs(), 2);
	config_inventory_free(inv);
	inv = inventory(port);

	/* no such link: could not check */
	assert_int_equal(health_check(inv, "nope", &o, &r, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "no link nope"));

	/* maintenance: untouched, no run, no connect */
	assert_int_equal(health_maintenance(dbpath, "l", 1, "new cable",
	    "op pid 9", &r, err, sizeof err), 0);
	assert_int_equal(r.before, HEALTH_BAD);
	assert_int_equal(r.after, HEALTH_MAINTENANCE);
	assert_int_equal(health_check(inv, "l", &o, &r, err, sizeof err), 0);
	assert_int_equal(r.checked, 0);
	assert_int_equal(r.before, HEALTH_MAINTENANCE);
	assert_int_equal(r.after, HEALTH_MAINTENANCE);
	assert_non_null(strstr(r.why, "new cable"));
	assert_int_equal(count_runs(), 2);
	assert_int_equal(health_get(dbpath, "l", &s, err, sizeof err), 0);
	assert_int_equal(s, HEALTH_MAINTENANCE);
	assert_int_equal(health_usable(s), 0);

	/* off -> unknown, never straight to good */
	assert_int_equal(health_maintenance(dbpath, "l", 0, "", "op pid 9",
	    &r, err, sizeof err), -1);
	assert_int_equal(health_maintenance(dbpath, "l", 0, "cable in",
	    "op pid 9", &r, err, sizeof err), 0);
	assert_int_equal(r.after, HEALTH_UNKNOWN);
	assert_int_equal(health_maintenance(dbpath, "l", 0, "again",
	    "op pid 9", &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "not in maintenance"));
	config_inventory_free(inv);
}

static void
test_retired_and_log(void **state)
{
	struct store_health_rec	 rec;
	struct health_result	 r;
	struct config_inventory	*inv;
	struct health_opts	 o;
	struct store		*st;
	char			*buf = NULL, from[64];
	size_t			 len = 0;
	FILE			*fp;

	(void)state;
	assert_int_equal(health_maintenance(dbpath, "l", 1, "rack move",
	    "op pid 9", &r, err, sizeof err), 0);
	assert_int_equal(health_maintenance(dbpath, "l", 0, "rack moved",
	    "op pid 9", &r, err, sizeof err), 0);
	/* retired (no command sets it yet: the store's record) */
	assert_int_equal(store_open(dbpath, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	memset(&rec, 0, sizeof rec);
	rec.link = "l";
	rec.state = "retired";
	rec.why = "sold";
	rec.who = "op pid 9";
	assert_int_equal(store_health_record(st, &rec, from, sizeof from, err,
	    sizeof err), 1);
	store_close(st);
	assert_int_equal(health_maintenance(dbpath, "l", 1, "why not",
	    "op pid 9", &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "retired"));
	inv = inventory(fx_free_port());
	memset(&o, 0, sizeof o);
	o.db_path = dbpath;
	assert_int_equal(health_check(inv, "l", &o, &r, err, sizeof err), 0);
	assert_int_equal(r.checked, 0);
	assert_int_equal(r.after, HEALTH_RETIRED);
	assert_int_equal(count_runs(), 0);
	config_inventory_free(inv);

	fp = open_memstream(&buf, &len);
	assert_int_equal(health_show(dbpath, 0, 1, fp, err, sizeof err), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "\"link\":\"l\""));
	assert_non_null(strstr(buf, "\"state\":\"retired\""));
	assert_non_null(strstr(buf, "\"usable\":false"));
	assert_non_null(strstr(buf, "\"last_good_bps\":null"));
	assert_non_null(strstr(buf, "\"from\":\"maintenance\""));
	assert_non_null(strstr(buf, "\"to\":\"unknown\""));
	assert_non_null(strstr(buf, "\"who\":\"op pid 9\""));
	assert_non_null(strstr(buf, "\"why\":\"rack moved\""));
	free(buf);
	buf = NULL;
	fp = open_memstream(&buf, &len);
	assert_int_equal(health_show(dbpath, 1, 0, fp, err, sizeof err), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "unknown -> retired  by op pid 9: sold"));
	assert_null(strstr(buf, "rack moved"));	/* one transition only */
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_figure),
		cmocka_unit_test_setup_teardown(test_check_states, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_retired_and_log, setup,
		    teardown),
	};

	if (ssh_global_init() == -1)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
