/*
 * test_cron_next: next firings from tables (UTC, Europe/Berlin,
 * America/New_York across both 2026 DST changes, the hand-built
 * Test/Edge zone for 30-minute and 4-hour jumps), the same against an
 * oracle that simulates Debian cron minute by minute, and cron_due's
 * catch-up (missed nights collapse into one firing, a restart never fires
 * twice).  Prints a speed figure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cron.h"
#include "cron_fixture.h"

#define NFIRE	6

struct next_case {
	const char	*expr;
	const char	*zone;		/* "Test/Edge" = the hand-built one */
	const char	*after;
	const char	*fires[NFIRE];	/* the next firings, in the zone */
};

static const struct next_case cases[] = {
	/* UTC */
	{ "0 0 29 2 *", "UTC", "2026-01-01 00:00 Z",
	    { "2028-02-29 00:00 +0000", "2032-02-29 00:00 +0000" } },
	{ "0 0 29 2 *", "UTC", "2096-03-01 00:00 Z",	/* 2100: no leap */
	    { "2104-02-29 00:00 +0000" } },
	{ "@yearly", "UTC", "2026-06-15 12:00 Z",
	    { "2027-01-01 00:00 +0000", "2028-01-01 00:00 +0000" } },
	{ "@annually", "UTC", "2027-01-01 00:00 Z",	/* strictly after */
	    { "2028-01-01 00:00 +0000" } },
	{ "@monthly", "UTC", "2026-01-31 00:00 Z",
	    { "2026-02-01 00:00 +0000", "2026-03-01 00:00 +0000" } },
	{ "@weekly", "UTC", "2026-12-01 08:00 Z",	/* a Tuesday */
	    { "2026-12-06 00:00 +0000", "2026-12-13 00:00 +0000" } },
	{ "@daily", "UTC", "2026-12-31 23:59:59 Z",
	    { "2027-01-01 00:00 +0000", "2027-01-02 00:00 +0000" } },
	{ "@hourly", "UTC", "2026-05-05 05:00:01 Z",
	    { "2026-05-05 06:00 +0000", "2026-05-05 07:00 +0000" } },
	{ "*/15 * * * *", "UTC", "2026-01-01 00:07 Z",
	    { "2026-01-01 00:15 +0000", "2026-01-01 00:30 +0000",
	      "2026-01-01 00:45 +0000", "2026-01-01 01:00 +0000" } },
	{ "5-20/5 1 * * *", "UTC", "2026-01-01 00:00 Z",
	    { "2026-01-01 01:05 +0000", "2026-01-01 01:10 +0000",
	      "2026-01-01 01:15 +0000", "2026-01-01 01:20 +0000",
	      "2026-01-02 01:05 +0000" } },
	{ "50/5 23 31 12 *", "UTC", "2026-06-01 00:00 Z",
	    { "2026-12-31 23:50 +0000", "2026-12-31 23:55 +0000",
	      "2027-12-31 23:50 +0000" } },
	/* Vixie: the 13th OR a Wednesday; then each alone. */
	{ "0 0 13 * WED", "UTC", "2026-04-01 12:00 Z",
	    { "2026-04-08 00:00 +0000", "2026-04-13 00:00 +0000",
	      "2026-04-15 00:00 +0000", "2026-04-22 00:00 +0000",
	      "2026-04-29 00:00 +0000", "2026-05-06 00:00 +0000" } },
	{ "0 0 13 * *", "UTC", "2026-04-01 12:00 Z",
	    { "2026-04-13 00:00 +0000", "2026-05-13 00:00 +0000" } },
	{ "0 0 * * 3", "UTC", "2026-04-01 12:00 Z",
	    { "2026-04-08 00:00 +0000", "2026-04-15 00:00 +0000" } },
	{ "0 0 */10 * WED", "UTC", "2026-04-01 12:00 Z",	/* "*": AND */
	    { "2026-07-01 00:00 +0000" } },
	{ "0 0 * * 7", "UTC", "2026-04-01 12:00 Z",
	    { "2026-04-05 00:00 +0000", "2026-04-12 00:00 +0000" } },
	{ "0 0 31 * *", "UTC", "2026-04-01 00:00 Z",
	    { "2026-05-31 00:00 +0000", "2026-07-31 00:00 +0000",
	      "2026-08-31 00:00 +0000" } },
	/* Berlin, spring 2026-03-29: 02:00 CET -> 03:00 CEST. */
	{ "30 2 * * *", "Europe/Berlin", "2026-03-28 12:00 +0100",
	    { "2026-03-29 03:00 +0200", "2026-03-30 02:30 +0200" } },
	{ "0,30 2 * * *", "Europe/Berlin", "2026-03-28 12:00 +0100",
	    { "2026-03-29 03:00 +0200", "2026-03-30 02:00 +0200",
	      "2026-03-30 02:30 +0200" } },
	{ "0 3 * * *", "Europe/Berlin", "2026-03-28 12:00 +0100",
	    { "2026-03-29 03:00 +0200", "2026-03-30 03:00 +0200" } },
	{ "59 1 * * *", "Europe/Berlin", "2026-03-28 12:00 +0100",
	    { "2026-03-29 01:59 +0100", "2026-03-30 01:59 +0200" } },
	{ "30 * * * *", "Europe/Berlin", "2026-03-29 00:00 +0100",
	    { "2026-03-29 00:30 +0100", "2026-03-29 01:30 +0100",
	      "2026-03-29 03:30 +0200", "2026-03-29 04:30 +0200" } },
	{ "*/20 2 * * *", "Europe/Berlin", "2026-03-29 00:00 +0100",
	    { "2026-03-30 02:00 +0200", "2026-03-30 02:20 +0200" } },
	/* Berlin, autumn 2026-10-25: 03:00 CEST -> 02:00 CET. */
	{ "30 2 * * *", "Europe/Berlin", "2026-10-24 12:00 +0200",
	    { "2026-10-25 02:30 +0200", "2026-10-26 02:30 +0100" } },
	{ "30 * * * *", "Europe/Berlin", "2026-10-25 01:00 +0200",
	    { "2026-10-25 01:30 +0200", "2026-10-25 02:30 +0200",
	      "2026-10-25 02:30 +0100", "2026-10-25 03:30 +0100" } },
	{ "@hourly", "Europe/Berlin", "2026-10-25 01:30 +0200",
	    { "2026-10-25 02:00 +0200", "2026-10-25 02:00 +0100",
	      "2026-10-25 03:00 +0100" } },
	{ "*/20 2 * * *", "Europe/Berlin", "2026-10-25 00:00 +0200",
	    { "2026-10-25 02:00 +0200", "2026-10-25 02:20 +0200",
	      "2026-10-25 02:40 +0200", "2026-10-25 02:00 +0100",
	      "2026-10-25 02:20 +0100", "2026-10-25 02:40 +0100" } },
	{ "@monthly", "Europe/Berlin", "2026-03-15 00:00 +0100",
	    { "2026-04-01 00:00 +0200", "2026-05-01 00:00 +0200" } },
	/* A fixed time after the first pass (restart in the repeat). */
	{ "30 2 * * *", "Europe/Berlin", "2026-10-25 02:10 +0100",
	    { "2026-10-26 02:30 +0100" } },
	/* New York, spring 2026-03-08 02:00 EST -> 03:00 EDT. */
	{ "30 2 * * *", "America/New_York", "2026-03-07 12:00 -0500",
	    { "2026-03-08 03:00 -0400", "2026-03-09 02:30 -0400" } },
	/* New York, autumn 2026-11-01 02:00 EDT -> 01:00 EST. */
	{ "30 1 * * *", "America/New_York", "2026-10-31 12:00 -0400",
	    { "2026-11-01 01:30 -0400", "2026-11-02 01:30 -0500" } },
	{ "*/30 1 * * *", "America/New_York", "2026-11-01 00:00 -0400",
	    { "2026-11-01 01:00 -0400", "2026-11-01 01:30 -0400",
	      "2026-11-01 01:00 -0500", "2026-11-01 01:30 -0500",
	      "2026-11-02 01:00 -0500" } },
	/* Test/Edge: a 30-minute jump forward (02:00 -> 02:30) and back. */
	{ "15 2 * * *", "Test/Edge", "2020-04-04 12:00 +0100",
	    { "2020-04-05 02:30 +0130", "2020-04-06 02:15 +0130" } },
	{ "*/10 * * * *", "Test/Edge", "2020-04-05 01:45 +0100",
	    { "2020-04-05 01:50 +0100", "2020-04-05 02:30 +0130",
	      "2020-04-05 02:40 +0130" } },
	{ "45 1 * * *", "Test/Edge", "2020-10-03 12:00 +0130",
	    { "2020-10-04 01:45 +0130", "2020-10-05 01:45 +0100" } },
	{ "45 * * * *", "Test/Edge", "2020-10-04 01:00 +0130",
	    { "2020-10-04 01:45 +0130", "2020-10-04 01:45 +0100",
	      "2020-10-04 02:45 +0100" } },
	/* 4-hour jumps are a change of zone: wall time only. */
	{ "30 2 * * *", "Test/Edge", "2020-12-31 12:00 +0100",
	    { "2021-01-02 02:30 +0500" } },
	{ "30 2 * * *", "Test/Edge", "2021-06-01 02:30 +0500",
	    { "2021-06-01 02:30 +0100", "2021-06-02 02:30 +0100" } },
};

static struct cron_zone *
zone(const char *name)
{
	struct cron_zone *z;
	char		 err[256];

	if (strcmp(name, "Test/Edge") == 0)
		return edge_zone(2);
	if (cron_zone_load(NULL, name, &z, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	return z;
}

static void
test_table(void **state)
{
	struct cron	 c;
	struct cron_zone *z;
	char		 err[256];
	time_t		 t;
	size_t		 i, k;

	(void)state;
	if (!have_zoneinfo())
		skip();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct next_case *nc = &cases[i];

		if (cron_parse(&c, nc->expr, "job", err, sizeof(err)) != 0)
			fail_msg("%s: %s", nc->expr, err);
		z = zone(nc->zone);
		t = at(nc->after);
		for (k = 0; k < NFIRE && nc->fires[k] != NULL; k++) {
			t = cron_next(&c, z, t);
			if (strcmp(wall(z, t), nc->fires[k]) != 0)
				fail_msg("\"%s\" in %s after %s: firing %zu is "
				    "%s, want %s", nc->expr, nc->zone,
				    nc->after, k + 1, wall(z, t),
				    nc->fires[k]);
		}
		cron_zone_free(z);
	}
}

/*
 * Debian cron simulated: wake at every real minute, look at the wall
 * clock, and when it moved by other than one minute apply cron(8)'s
 * rules.  hw is the latest wall minute already seen, so a fixed job
 * does not run again while the clock repeats.
 */
static time_t
oracle_next(const struct cron *c, const struct cron_zone *z, time_t after)
{
	struct cron_tm	tm;
	time_t		t, wp, w, s, hw, delta, limit = after + 400 * 86400;
	int		fixed = cron_is_fixed(c), small;

#define WALL(x) (cron_zone_local(z, (x), &tm), (x) + tm.utoff)
#define MATCH(wl) (cron_zone_local(cron_zone_utc(), (wl), &tm), \
	cron_match(c, &tm))
	/* Start 4 hours early so the clock's recent past is known; only
	 * firings after `after` count. */
	t = after - 4 * 3600;
	t -= ((t % 60) + 60) % 60;
	wp = WALL(t - 60);
	hw = wp;
	for (; t < limit; t += 60) {
		w = WALL(t);
		delta = w - (wp + 60);
		small = delta != 0 && delta > -3 * 3600 && delta < 3 * 3600;
		if (delta < 0 && !small)
			hw = w - 60;		/* a new clock */
		if (delta > 0 && small && fixed && t > after)
			for (s = wp + 60; s < w; s += 60)
				if (MATCH(s))
					return t;
		if (t > after && MATCH(w) && (!fixed || w > hw))
			return t;
		if (w > hw)
			hw = w;
		wp = w;
	}
	return (time_t)-1;
#undef WALL
#undef MATCH
}

static void
test_against_oracle(void **state)
{
	static const char *const exprs[] = {
		"30 2 * * *", "0 2 * * *", "0 3 * * *", "59 1 * * *",
		"0,30 2 * * *", "15 1,2,3 * * *", "30 * * * *", "@hourly",
		"*/20 2 * * *", "*/7 * * * *", "0 0 * * *", "45 1 * * *",
		"0 2 * * SUN", "30 2 25-31 * *", "H 2 * * *", "H(0-29)/10 2 * * *",
	};
	/* Each zone with the days around its changes. */
	static const struct {
		const char	*zone;
		const char	*around[5];
	} zones[] = {
		{ "Europe/Berlin", { "2026-03-28 20:00 Z", "2026-10-24 20:00 Z" } },
		{ "America/New_York", { "2026-03-07 20:00 Z",
		    "2026-10-31 20:00 Z" } },
		{ "Australia/Lord_Howe", { "2026-04-04 00:00 Z",
		    "2026-10-03 00:00 Z" } },
		{ "Australia/Sydney", { "2026-04-04 00:00 Z",
		    "2026-10-03 00:00 Z" } },
		{ "Test/Edge", { "2020-04-04 20:00 Z", "2020-10-03 20:00 Z",
		    "2020-12-31 12:00 Z", "2021-05-31 12:00 Z",
		    "2023-04-01 12:00 Z" } },
		{ "UTC", { "2026-02-28 00:00 Z" } },
	};
	struct cron	 c;
	struct cron_zone *z;
	char		 err[256];
	size_t		 e, zi, a;
	time_t		 t, got, want;
	long		 checked = 0;

	(void)state;
	if (!have_zoneinfo())
		skip();
	for (zi = 0; zi < sizeof(zones) / sizeof(zones[0]); zi++) {
		z = zone(zones[zi].zone);
		for (e = 0; e < sizeof(exprs) / sizeof(exprs[0]); e++) {
			if (cron_parse(&c, exprs[e], "oracle", err,
			    sizeof(err)) != 0)
				fail_msg("%s: %s", exprs[e], err);
			for (a = 0; a < 5 && zones[zi].around[a] != NULL;
			    a++) {
				time_t	start = at(zones[zi].around[a]);

				for (t = start; t < start + 36 * 3600;
				    t += 127 * 60) {
					got = cron_next(&c, z, t);
					want = oracle_next(&c, z, t);
					if (got != want)
						fail_msg("\"%s\" in %s after "
						    "%s: %s, oracle %s",
						    exprs[e], zones[zi].zone,
						    wall(z, t), wall(z, got),
						    wall(z, want));
					checked++;
				}
			}
		}
		cron_zone_free(z);
	}
	print_message("%ld firings agree with the simulated cron\n",
	    checked);
}

static void
test_due_catch_up(void **state)
{
	const struct cron_zone *utc = cron_zone_utc();
	struct cron	 c;
	struct cron_due	 d;
	char		 err[256];
	time_t		 last;

	(void)state;
	assert_int_equal(cron_parse(&c, "0 2 * * *", "nightly", err,
	    sizeof(err)), 0);
	/* Down for 3 nights: one firing, standing for the latest. */
	last = at("2026-03-01 02:00 Z");
	cron_due(&c, utc, last, at("2026-03-04 09:00 Z"), &d);
	assert_int_equal(d.due, 1);
	assert_string_equal(wall(utc, d.first), "2026-03-02 02:00 +0000");
	assert_string_equal(wall(utc, d.slot), "2026-03-04 02:00 +0000");
	assert_int_equal(d.missed, 2);
	assert_string_equal(wall(utc, d.next), "2026-03-05 02:00 +0000");
	/* Stored; the same (or a later) check that night finds nothing. */
	last = d.slot;
	cron_due(&c, utc, last, at("2026-03-04 09:00 Z"), &d);
	assert_int_equal(d.due, 0);
	assert_true(d.slot == (time_t)-1);
	assert_string_equal(wall(utc, d.next), "2026-03-05 02:00 +0000");
	cron_due(&c, utc, last, at("2026-03-05 01:59:59 Z"), &d);
	assert_int_equal(d.due, 0);
	/* On time: due at its minute, nothing missed. */
	cron_due(&c, utc, last, at("2026-03-05 02:00 Z"), &d);
	assert_int_equal(d.due, 1);
	assert_string_equal(wall(utc, d.slot), "2026-03-05 02:00 +0000");
	assert_int_equal(d.missed, 0);
	/* Never fired: last_fired is the creation time. */
	cron_due(&c, utc, at("2026-03-05 03:00 Z"), at("2026-03-05 04:00 Z"),
	    &d);
	assert_int_equal(d.due, 0);
}

static void
test_due_dense_and_dst(void **state)
{
	struct cron	 c;
	struct cron_due	 d;
	struct cron_zone *z;
	char		 err[256];

	(void)state;
	/* A year without the daemon, every minute: one firing, now. */
	assert_int_equal(cron_parse(&c, "* * * * *", "m", err, sizeof(err)),
	    0);
	cron_due(&c, cron_zone_utc(), at("2025-03-01 00:00 Z"),
	    at("2026-03-01 12:34:56 Z"), &d);
	assert_int_equal(d.due, 1);
	assert_string_equal(wall(cron_zone_utc(), d.slot),
	    "2026-03-01 12:34 +0000");
	assert_int_equal(d.missed, CRON_MISSED_CAP);
	if (!have_zoneinfo())
		skip();
	/* Berlin: the night of the spring jump is due at the jump. */
	z = zone("Europe/Berlin");
	assert_int_equal(cron_parse(&c, "30 2 * * *", "n", err, sizeof(err)),
	    0);
	cron_due(&c, z, at("2026-03-28 02:30 +0100"),
	    at("2026-03-29 03:00:30 +0200"), &d);
	assert_int_equal(d.due, 1);
	assert_string_equal(wall(z, d.slot), "2026-03-29 03:00 +0200");
	/* Autumn: fired in the first pass, a restart in the second pass
	 * fires nothing. */
	cron_due(&c, z, at("2026-10-25 02:30 +0200"),
	    at("2026-10-25 02:45 +0100"), &d);
	assert_int_equal(d.due, 0);
	assert_string_equal(wall(z, d.next), "2026-10-26 02:30 +0100");
	cron_zone_free(z);
}

static void
test_speed(void **state)
{
	struct cron	 c;
	struct cron_zone *z;
	struct timespec	 a, b;
	char		 err[256];
	time_t		 t;
	int		 i, n = 20000;
	double		 ns;

	(void)state;
	if (!have_zoneinfo())
		skip();
	z = zone("Europe/Berlin");
	assert_int_equal(cron_parse(&c, "30 2 * * *", "n", err, sizeof(err)),
	    0);
	t = at("2026-01-01 00:00 Z");
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		t = cron_next(&c, z, t);
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_true(t != (time_t)-1);
	ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 +
	    (double)(b.tv_nsec - a.tv_nsec)) / n;
	print_message("cron_next(\"30 2 * * *\", Europe/Berlin): %.0f ns per "
	    "firing over %d nights (to %s)\n", ns, n, wall(z, t));
	cron_zone_free(z);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_against_oracle),
		cmocka_unit_test(test_due_catch_up),
		cmocka_unit_test(test_due_dense_and_dst),
		cmocka_unit_test(test_speed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
