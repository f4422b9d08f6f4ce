/*
 * test_store_sched: the daemon's schedules in the store (store_sched.c) on
 * a tmpfs database: add, get, list by name, rm; a duplicate name and a bad
 * name refused; last_fired moves only forward (store_sched_fired), so a
 * restarted daemon never records, and so never fires, a slot twice; the
 * stored plan text and optional fields read back as given.
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

#include "store_fixture.h"

static char	dbpath[256];
static char	err[512];

static int
setup(void **state)
{
	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return fx_store_open(state, dbpath, sizeof dbpath, "store-sched");
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}


static void
test_add_get_list_rm(void **state)
{
	struct store		*st = *state;
	struct store_sched	 s = fx_sched("nightly", "0 3 * * *"), got, *v;
	int64_t			 id1, id2;
	size_t			 n;

	s.tz = "Europe/Berlin";
	s.links = "em,bce";
	s.revisions = "git:/src/freebsd";
	assert_int_equal(store_sched_add(st, &s, &id1, NULL, err, sizeof err),
	    0);
	s = fx_sched("a-first", "@hourly");
	assert_int_equal(store_sched_add(st, &s, &id2, NULL, err, sizeof err),
	    0);
	assert_true(id1 > 0 && id2 > 0 && id1 != id2);

	assert_int_equal(store_sched_get(st, "nightly", &got, err, sizeof err),
	    1);
	assert_int_equal(got.id, id1);
	assert_string_equal(got.cron, "0 3 * * *");
	assert_string_equal(got.tz, "Europe/Berlin");
	assert_string_equal(got.links, "em,bce");
	assert_string_equal(got.revisions, "git:/src/freebsd");
	assert_string_equal(got.plan_text, "{\"links\": [\"em\"]}");
	assert_string_equal(got.inventory_path, "lab.json");
	assert_int_equal(got.enabled, 1);
	assert_int_equal(got.last_fired, 0);
	assert_true(got.created > 1600000000000LL);
	store_sched_free(&got);

	assert_int_equal(store_sched_get(st, "nope", &got, err, sizeof err),
	    0);

	assert_int_equal(store_sched_list(st, &v, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "a-first");	/* by name */
	assert_null(v[0].revisions);
	assert_string_equal(v[0].links, "");
	assert_string_equal(v[1].name, "nightly");
	store_scheds_free(v, n);

	assert_int_equal(store_sched_rm(st, "nightly", err, sizeof err), 1);
	assert_int_equal(store_sched_rm(st, "nightly", err, sizeof err), 0);
	assert_int_equal(store_sched_list(st, &v, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	store_scheds_free(v, n);
}

static void
test_unique_and_bad_names(void **state)
{
	struct store		*st = *state;
	struct store_sched	 s = fx_sched("n1", "0 3 * * *");
	int			 dup = -1;
	char			 longname[80];

	assert_int_equal(store_sched_add(st, &s, NULL, &dup, err, sizeof err),
	    0);
	assert_int_equal(dup, 0);
	s.cron = "0 4 * * *";
	assert_int_equal(store_sched_add(st, &s, NULL, &dup, err, sizeof err),
	    -1);
	assert_int_equal(dup, 1);
	assert_string_equal(err, "schedule \"n1\" exists");

	s.name = "has space";
	assert_int_equal(store_sched_add(st, &s, NULL, &dup, err, sizeof err),
	    -1);
	assert_int_equal(dup, 0);
	assert_non_null(strstr(err, "^[A-Za-z0-9._-]{1,64}$"));
	memset(longname, 'x', 65);
	longname[65] = '\0';
	assert_false(store_sched_name_ok(longname));
	longname[64] = '\0';
	assert_true(store_sched_name_ok(longname));
	assert_false(store_sched_name_ok(""));
	assert_false(store_sched_name_ok("a/b"));
	assert_true(store_sched_name_ok("em.nightly_2-x"));
}

static void
test_fired_only_forward(void **state)
{
	struct store		*st = *state;
	struct store_sched	 s = fx_sched("n", "0 3 * * *"), got;
	int64_t			 id;

	assert_int_equal(store_sched_add(st, &s, &id, NULL, err, sizeof err),
	    0);
	assert_int_equal(store_sched_fired(st, id, 2000, err, sizeof err), 1);
	/* The same slot again (a restart): not recorded again. */
	assert_int_equal(store_sched_fired(st, id, 2000, err, sizeof err), 0);
	assert_int_equal(store_sched_fired(st, id, 1000, err, sizeof err), 0);
	assert_int_equal(store_sched_get(st, "n", &got, err, sizeof err), 1);
	assert_int_equal(got.last_fired, 2000);
	store_sched_free(&got);
	assert_int_equal(store_sched_fired(st, id, 3000, err, sizeof err), 1);
	assert_int_equal(store_sched_get(st, "n", &got, err, sizeof err), 1);
	assert_int_equal(got.last_fired, 3000);
	store_sched_free(&got);
	/* An unknown id changes nothing. */
	assert_int_equal(store_sched_fired(st, id + 99, 9000, err, sizeof err),
	    0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_add_get_list_rm, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unique_and_bad_names,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_fired_only_forward, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
