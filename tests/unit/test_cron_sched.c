/*
 * test_cron_sched: a schedule's expression and zone compiled together
 * (the one validation `schedule add` and the daemon share) and the zone
 * cache: a zone is read once and handed out again; a failed load is not
 * cached; errors name the part that is wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cron.h"

static void
test_compile(void **state)
{
	struct cron_cache	*c = cron_cache_new(NULL);
	struct cron_sched	 s, t;
	char			 err[256];

	(void)state;
	if (access("/usr/share/zoneinfo/Europe/Berlin", R_OK) != 0)
		skip();
	assert_int_equal(cron_sched_compile(c, "0 3 * * *", "UTC", "n", &s,
	    err, sizeof err), 0);
	assert_ptr_equal(s.zone, cron_zone_utc());
	/* 2026-12-01 14:00 UTC -> 2026-12-02 03:00 UTC. */
	assert_int_equal(cron_sched_next(&s, 1796133600), 1796180400);
	assert_int_equal(cron_sched_compile(c, "0 3 * * *", "Europe/Berlin",
	    "n", &s, err, sizeof err), 0);
	assert_int_equal(cron_sched_compile(c, "@daily", "Europe/Berlin",
	    "m", &t, err, sizeof err), 0);
	assert_ptr_equal(s.zone, t.zone);	/* cached */
	assert_string_equal(cron_zone_name(s.zone), "Europe/Berlin");
	/* 03:00 CET = 02:00 UTC. */
	assert_int_equal(cron_sched_next(&s, 1796133600), 1796176800);
	assert_int_equal(cron_sched_compile(c, "0 24 * * *", "UTC", "n", &s,
	    err, sizeof err), -1);
	assert_string_equal(err, "cron 0 24 * * *: field 2 (hour): 24 is out "
	    "of range 0-23");
	assert_int_equal(cron_sched_compile(c, "0 3 * * *", "Mars/Base", "n",
	    &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "tz Mars/Base: "));
	assert_int_equal(cron_sched_compile(c, "0 3 * * *", "../etc", "n",
	    &s, err, sizeof err), -1);
	cron_cache_free(c);
	cron_cache_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
