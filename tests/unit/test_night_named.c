/*
 * test_night_named: night_schedule_add(), the one check-and-store of
 * `labrat schedule add` and POST /api/v1/schedules, on a tmpfs store with
 * the repository's inventory and plan: what it stores, the next firing it
 * reports, and for each refusal the input it names (out->field), the
 * duplicate flag, and that nothing was stored.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "config.h"
#include "night.h"
#include "store.h"
#include "store_daemon.h"
#include "store_fixture.h"
#include "util.h"

static char	 dbpath[256];
static char	*inv, *plan;

static int
setup(void **state)
{
	const char	*src = getenv("LABRAT_SOURCE_DIR");

	if (src == NULL)
		return -1;
	inv = xasprintf("%s/configs/lab-freebsd.json", src);
	plan = xasprintf("%s/configs/plan-reports.json", src);
	return fx_store_open(state, dbpath, sizeof dbpath, "night_named");
}

static int
teardown(void **state)
{
	free(inv);
	free(plan);
	return fx_store_close(state, dbpath);
}

static struct store_sched
sched(const char *name, const char *cron, const char *tz)
{
	struct store_sched	s;

	memset(&s, 0, sizeof s);
	s.name = (char *)name;
	s.cron = (char *)cron;
	s.tz = (char *)tz;
	s.inventory_path = inv;
	s.plan_path = plan;
	s.enabled = 1;
	return s;
}

/* rc and field of one add; the count of stored schedules after it. */
static enum night_named_rc
add(struct store_sched *s, struct night_sched_added *a, size_t *n)
{
	struct config_errors	 errs;
	struct store_sched	*list = NULL;
	struct store		*st = NULL;
	enum night_named_rc	 rc;
	char			 err[1024];

	config_errors_init(&errs);
	rc = night_schedule_add(dbpath, s, a, &errs, err, sizeof err);
	config_errors_free(&errs);
	assert_int_equal(store_open(dbpath, STORE_OPEN_READONLY, &st, err,
	    sizeof err), 0);
	assert_int_equal(store_sched_list(st, &list, n, err, sizeof err), 0);
	store_scheds_free(list, *n);
	store_close(st);
	return rc;
}

static void
test_added(void **state)
{
	struct night_sched_added a;
	struct store_sched	 s = sched("leap", "0 3 29 2 *", "Europe/Berlin"),
				 got;
	struct tm		 tm;
	char			 err[256];
	size_t			 n;

	assert_int_equal(add(&s, &a, &n), NIGHT_NAMED_OK);
	assert_int_equal(n, 1);
	assert_true(a.id > 0);
	assert_null(a.field);
	/* Feb 29, 03:00 CET = 02:00 UTC, within the next 4 years. */
	assert_true(a.next > time(NULL));
	assert_true(a.next - time(NULL) < 4 * 366 * 86400);
	gmtime_r(&a.next, &tm);
	assert_int_equal(tm.tm_mon, 1);
	assert_int_equal(tm.tm_mday, 29);
	assert_int_equal(tm.tm_hour, 2);
	assert_int_equal(tm.tm_min, 0);
	/* tz and links left NULL: UTC, all links; the caller's s untouched. */
	s = sched("plain", "@daily", NULL);
	assert_int_equal(add(&s, &a, &n), NIGHT_NAMED_OK);
	assert_int_equal(n, 2);
	assert_null(s.tz);
	assert_null(s.links);
	assert_int_equal(store_sched_get(*state, "plain", &got, err,
	    sizeof err), 1);
	assert_string_equal(got.tz, "UTC");
	assert_string_equal(got.links, "");
	store_sched_free(&got);
	/* The same name again: FAIL with dup, nothing more stored. */
	assert_int_equal(add(&s, &a, &n), NIGHT_NAMED_FAIL);
	assert_int_equal(a.dup, 1);
	assert_int_equal(n, 2);
}

static void
test_refused(void **state)
{
	static const struct {
		const char	*name, *cron, *tz, *links;
		int		 inv, plan;	/* 0 missing, 1 good, 2 no file */
		const char	*field;
	} c[] = {
		{ "a b", "@daily", NULL, NULL, 1, 1, "name" },
		{ NULL, "@daily", NULL, NULL, 1, 1, "name" },
		{ "x", NULL, NULL, NULL, 1, 1, "cron" },
		{ "x", "@daily", NULL, NULL, 0, 1, "inventory" },
		{ "x", "@daily", NULL, NULL, 1, 0, "plan" },
		{ "x", "61 * * * *", NULL, NULL, 1, 1, "cron" },
		{ "x", "@daily", "Mars/Olympus", NULL, 1, 1, "tz" },
		{ "x", "@daily", NULL, "nosuch", 1, 1, "links" },
		{ "x", "@daily", NULL, NULL, 2, 1, "inventory" },
		{ "x", "@daily", NULL, NULL, 1, 2, "plan" },
	};
	struct night_sched_added a;
	struct store_sched	 s;
	size_t			 i, n, before;

	(void)state;
	(void)kn;	/* store_fixture.h's, unused here */
	(void)fx_sched;
	s = sched("before", "@daily", NULL);
	assert_int_equal(add(&s, &a, &before), NIGHT_NAMED_OK);
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		s = sched(c[i].name, c[i].cron, c[i].tz);
		s.links = (char *)c[i].links;
		s.inventory_path = c[i].inv == 0 ? NULL : c[i].inv == 1 ? inv :
		    "/nonexistent/inv.json";
		s.plan_path = c[i].plan == 0 ? NULL : c[i].plan == 1 ? plan :
		    "/nonexistent/plan.json";
		assert_int_equal(add(&s, &a, &n), NIGHT_NAMED_BAD);
		if (a.field == NULL || strcmp(a.field, c[i].field) != 0) {
			print_error("case %zu: field %s, want %s\n", i,
			    a.field != NULL ? a.field : "NULL", c[i].field);
			fail();
		}
		assert_int_equal(n, before);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_added),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
