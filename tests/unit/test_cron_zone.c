/*
 * test_cron_zone: the TZif reader and UTC <-> local conversion.  A
 * hand-built zone gives exact edges (type 0 before the first transition,
 * a 30-minute DST, the footer rule after the last transition, version 1
 * files); the system's zoneinfo files are checked against glibc's
 * localtime_r (the test, single-threaded, may set TZ; the module never
 * does) around every transition from 1900 to 2200 and on a grid;
 * malformed files and bad names are refused with their reason.
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

static void
test_edge_local(void **state)
{
	struct cron_zone *z = edge_zone(2);
	struct cron_tm	 tm;
	char		 buf[64];

	(void)state;
	/* Type 0 (LMT) before the first transition. */
	assert_string_equal(wall(z, EDGE_T1 - 1), "2020-01-01 00:34:07 +0034");
	cron_zone_local(z, EDGE_T1 - 1, &tm);
	assert_string_equal(tm.abbr, "LMT");
	assert_int_equal(tm.utoff, 2048);
	assert_string_equal(wall(z, EDGE_T1), "2020-01-01 01:00 +0100");
	/* 30-minute jump forward and back. */
	assert_string_equal(wall(z, EDGE_T2 - 1), "2020-04-05 01:59:59 +0100");
	assert_string_equal(wall(z, EDGE_T2), "2020-04-05 02:30 +0130");
	cron_zone_local(z, EDGE_T2, &tm);
	assert_int_equal(tm.isdst, 1);
	assert_string_equal(tm.abbr, "HLF");
	assert_string_equal(wall(z, EDGE_T3 - 1), "2020-10-04 01:59:59 +0130");
	assert_string_equal(wall(z, EDGE_T3), "2020-10-04 01:30 +0100");
	/* Past the last transition: the footer (first Sundays of Oct/Apr). */
	assert_string_equal(wall(z, at("2022-10-02 00:59:59 Z")),
	    "2022-10-02 01:59:59 +0100");
	assert_string_equal(wall(z, at("2022-10-02 01:00 Z")),
	    "2022-10-02 02:30 +0130");
	assert_string_equal(wall(z, at("2023-04-02 01:29:59 Z")),
	    "2023-04-02 02:59:59 +0130");
	assert_string_equal(wall(z, at("2023-04-02 01:30 Z")),
	    "2023-04-02 02:30 +0100");
	assert_string_equal(cron_format(z, EDGE_T2, buf, sizeof(buf)),
	    "2020-04-05 02:30:00 +0130 HLF");
	assert_string_equal(cron_zone_name(z), "Test/Edge");
	cron_zone_free(z);
}

static void
test_edge_utc_of(void **state)
{
	struct cron_zone *z = edge_zone(3);
	struct cron_tm	 tm = { 0 };
	time_t		 out[2];

	(void)state;
	tm.year = 2020; tm.mon = 4; tm.mday = 5; tm.hour = 2; tm.min = 15;
	assert_int_equal(cron_zone_utc_of(z, &tm, out), 0);	/* skipped */
	tm.min = 30;
	assert_int_equal(cron_zone_utc_of(z, &tm, out), 1);
	assert_true(out[0] == EDGE_T2);
	tm.mon = 10; tm.mday = 4; tm.hour = 1; tm.min = 45;
	assert_int_equal(cron_zone_utc_of(z, &tm, out), 2);	/* repeated */
	assert_true(out[0] == at("2020-10-04 00:15 Z"));
	assert_true(out[1] == at("2020-10-04 00:45 Z"));
	/* The 4-hour jump: 01:00-05:00 of 2021-01-01 never happens. */
	tm.year = 2021; tm.mon = 1; tm.mday = 1; tm.hour = 3; tm.min = 0;
	assert_int_equal(cron_zone_utc_of(z, &tm, out), 0);
	/* Footer rule, the repeated half hour of 2023-04-02. */
	tm.year = 2023; tm.mon = 4; tm.mday = 2; tm.hour = 2; tm.min = 40;
	assert_int_equal(cron_zone_utc_of(z, &tm, out), 2);
	assert_true(out[0] == at("2023-04-02 01:10 Z"));
	assert_true(out[1] == at("2023-04-02 01:40 Z"));
	cron_zone_free(z);
}

/* A version 1 file has no footer: the last type stays for ever. */
static void
test_version1(void **state)
{
	struct cron_zone *z = edge_zone(1);

	(void)state;
	assert_string_equal(wall(z, EDGE_T2), "2020-04-05 02:30 +0130");
	assert_string_equal(wall(z, at("2022-10-02 01:00 Z")),
	    "2022-10-02 02:00 +0100");
	cron_zone_free(z);
}

static void
expect_refused(const unsigned char *buf, size_t len, const char *msg)
{
	struct cron_zone *z = NULL;
	char		 err[256] = "";

	assert_int_equal(cron_zone_parse(buf, len, "Test/Bad", &z, err,
	    sizeof(err)), -1);
	assert_null(z);
	if (msg != NULL)
		assert_string_equal(err, msg);
}

static void
test_malformed(void **state)
{
	static const int64_t trans[] = { 100, 50 };
	static const unsigned char idx[] = { 0, 0 }, badidx[] = { 0, 7 };
	static const struct tz_type types[] = { { 3600, 0, 0 } };
	static const struct tz_type badoff[] = { { 30 * 3600, 0, 0 } };
	static const char chars[] = "ABC";
	struct tzb	*b = malloc(sizeof(*b));
	struct cron_zone *z;
	char		 err[256];
	size_t		 full, n;

	(void)state;
	expect_refused((const unsigned char *)"", 0,
	    "time zone \"Test/Bad\": not a TZif file");
	expect_refused((const unsigned char *)"TZif2xxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxx", 44, NULL);
	tzif_build(b, 2, trans, idx, 2, types, 1, chars, 4, 0, "ABC-1");
	expect_refused(b->buf, b->n, "time zone \"Test/Bad\": transition "
	    "times are not ascending");
	tzif_build(b, 2, (const int64_t[]){ 1, 2 }, badidx, 2, types, 1,
	    chars, 4, 0, "ABC-1");
	expect_refused(b->buf, b->n, "time zone \"Test/Bad\": transition "
	    "names a type that does not exist");
	tzif_build(b, 2, NULL, NULL, 0, badoff, 1, chars, 4, 0, "ABC-1");
	expect_refused(b->buf, b->n, "time zone \"Test/Bad\": UT offset "
	    "out of range");
	tzif_build(b, 2, NULL, NULL, 0, types, 1, chars, 4, 1, "ABC-1");
	expect_refused(b->buf, b->n, "time zone \"Test/Bad\": leap-second "
	    "zones (\"right/...\") are not supported");
	tzif_build(b, 2, NULL, NULL, 0, types, 1, chars, 3, 0, "ABC-1");
	expect_refused(b->buf, b->n, "time zone \"Test/Bad\": unterminated "
	    "abbreviation");
	tzif_build(b, 2, NULL, NULL, 0, types, 1, chars, 4, 0, "A-1");
	expect_refused(b->buf, b->n, "time zone \"Test/Bad\": TZ string "
	    "\"A-1\": zone name shorter than 3 characters at offset 1");
	tzif_build(b, 2, NULL, NULL, 0, types, 1, chars, 4, 0, "ABC-1DEF");
	expect_refused(b->buf, b->n, "time zone \"Test/Bad\": TZ string "
	    "\"ABC-1DEF\": DST without a rule at offset 8");
	tzif_build(b, 2, NULL, NULL, 0, types, 1, chars, 4, 0, NULL);
	expect_refused(b->buf, b->n, "time zone \"Test/Bad\": missing "
	    "footer");
	/* Every truncation of a good file is refused, none crashes. */
	full = tzif_build(b, 2, (const int64_t[]){ 1, 2 }, idx, 2, types, 1,
	    chars, 4, 0, "ABC-1");
	assert_int_equal(cron_zone_parse(b->buf, full, "ok", &z, err,
	    sizeof(err)), 0);
	cron_zone_free(z);
	for (n = 0; n < full; n++)
		expect_refused(b->buf, n, NULL);
	free(b);
}

struct posix_case {
	const char	*tz;
	const char	*err;	/* NULL: accepted */
};

static const struct posix_case posix_cases[] = {
	{ "UTC0", NULL },
	{ "<+0530>-5:30", NULL },
	{ "CET-1CEST,M3.5.0,M10.5.0/3", NULL },
	{ "EST5EDT,M3.2.0,M11.1.0", NULL },
	{ "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", NULL },
	{ "IST-1GMT0,M10.5.0,M3.5.0/1", NULL },
	{ "XXX3YYY,J60/2,300/25", NULL },
	{ "AAA-10BBB,M10.1.0,M4.1.0/167", NULL },
	{ "AAA-10BBB,M10.1.0,M4.1.0/168", "time out of range" },
	{ "AAA-25", "time out of range" },
	{ "AAA", "bad time" },
	{ "AAA-1BBB,M13.1.0,M4.1.0", "bad rule date" },
	{ "AAA-1BBB,M3.6.0,M4.1.0", "bad rule date" },
	{ "AAA-1BBB,M3.5.7,M4.1.0", "bad rule date" },
	{ "AAA-1BBB,M3.5", "bad Mm.w.d date" },
	{ "AAA-1BBB,J0,J5", "bad rule date" },
	{ "AAA-1BBB,J1", "expected \",end\"" },
	{ "AAA-1BBB,J1,J2x", "trailing characters" },
	{ "<AAA-1", "unterminated <name>" },
};

static void
test_posix_strings(void **state)
{
	static const struct tz_type types[] = { { 0, 0, 0 } };
	struct tzb	*b = malloc(sizeof(*b));
	struct cron_zone *z;
	char		 err[256];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(posix_cases) / sizeof(posix_cases[0]); i++) {
		const struct posix_case *c = &posix_cases[i];
		int	rc;

		tzif_build(b, 3, NULL, NULL, 0, types, 1, "UTC", 4, 0, c->tz);
		z = NULL;
		err[0] = '\0';
		rc = cron_zone_parse(b->buf, b->n, "T", &z, err, sizeof(err));
		if (c->err == NULL && rc != 0)
			fail_msg("%s: %s", c->tz, err);
		if (c->err != NULL && (rc == 0 || strstr(err, c->err) == NULL))
			fail_msg("%s: got \"%s\", want \"%s\"", c->tz,
			    rc == 0 ? "accepted" : err, c->err);
		cron_zone_free(z);
	}
	/* Jn never counts Feb 29; n does (zero-based). */
	tzif_build(b, 3, NULL, NULL, 0, types, 1, "UTC", 4, 0,
	    "AAA0BBB,J60/0,J300/0");
	assert_int_equal(cron_zone_parse(b->buf, b->n, "T", &z, err,
	    sizeof(err)), 0);
	assert_string_equal(wall(z, at("2024-03-01 00:00 Z")),
	    "2024-03-01 01:00 +0100");
	assert_string_equal(wall(z, at("2024-02-29 23:59 Z")),
	    "2024-02-29 23:59 +0000");
	cron_zone_free(z);
	tzif_build(b, 3, NULL, NULL, 0, types, 1, "UTC", 4, 0,
	    "AAA0BBB,59/0,300/0");
	assert_int_equal(cron_zone_parse(b->buf, b->n, "T", &z, err,
	    sizeof(err)), 0);
	assert_string_equal(wall(z, at("2024-02-29 00:00 Z")),
	    "2024-02-29 01:00 +0100");
	assert_string_equal(wall(z, at("2023-03-01 00:00 Z")),
	    "2023-03-01 01:00 +0100");
	cron_zone_free(z);
	free(b);
}

static void
test_names(void **state)
{
	static const char *const bad[] = {
		"../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd",
		"Europe//Berlin", ".hidden", "Europe/", "Europe/Berlin ",
		"Europe/Ber;lin", "a..b",
	};
	struct cron_zone *z;
	char		 err[256], want[300];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(cron_zone_load(NULL, bad[i], &z, err,
		    sizeof(err)), -1);
		snprintf(want, sizeof(want), "time zone \"%s\": not a zone "
		    "name (like Europe/Berlin)", bad[i]);
		assert_string_equal(err, want);
	}
	assert_int_equal(cron_zone_load(NULL, "Mars/Olympus_Mons", &z, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "time zone \"Mars/Olympus_Mons\": "
	    "/usr/share/zoneinfo/Mars/Olympus_Mons: No such file or "
	    "directory");
	assert_int_equal(cron_zone_load("/nonexistent", "Europe/Berlin", &z,
	    err, sizeof(err)), -1);
	assert_int_equal(cron_zone_load(NULL, "UTC", &z, err, sizeof(err)),
	    0);
	assert_ptr_equal(z, cron_zone_utc());
	cron_zone_free(z);		/* static: ignored */
	assert_string_equal(wall(z, at("2026-07-01 12:00 Z")),
	    "2026-07-01 12:00 +0000");
	assert_int_equal(cron_zone_load(NULL, NULL, &z, err, sizeof(err)), 0);
	assert_ptr_equal(z, cron_zone_utc());
}

/* Our conversion against glibc's for zone name at t. */
static void
compare_glibc(const struct cron_zone *z, const char *name, time_t t)
{
	struct cron_tm	a;
	struct tm	b;

	cron_zone_local(z, t, &a);
	if (localtime_r(&t, &b) == NULL)
		fail_msg("localtime_r failed");
	if (a.year != b.tm_year + 1900 || a.mon != b.tm_mon + 1 ||
	    a.mday != b.tm_mday || a.hour != b.tm_hour || a.min != b.tm_min ||
	    a.sec != b.tm_sec || a.wday != b.tm_wday ||
	    a.utoff != b.tm_gmtoff || a.isdst != (b.tm_isdst > 0) ||
	    strcmp(a.abbr, b.tm_zone) != 0)
		fail_msg("%s at %lld: ours %s %s isdst %d, glibc "
		    "%04d-%02d-%02d %02d:%02d:%02d %+ld %s isdst %d", name,
		    (long long)t, wall(z, t), a.abbr, a.isdst,
		    b.tm_year + 1900, b.tm_mon + 1, b.tm_mday, b.tm_hour,
		    b.tm_min, b.tm_sec, b.tm_gmtoff, b.tm_zone, b.tm_isdst);
}

/* utc_of(local(t)) holds t. */
static void
check_inverse(const struct cron_zone *z, const char *name, time_t t)
{
	struct cron_tm	tm;
	time_t		out[2];
	int		n, k, found = 0;

	cron_zone_local(z, t, &tm);
	n = cron_zone_utc_of(z, &tm, out);
	for (k = 0; k < n; k++)
		found |= out[k] == t;
	if (!found)
		fail_msg("%s: utc_of(local(%lld)) misses it", name,
		    (long long)t);
}

static void
test_system_zones_match_glibc(void **state)
{
	static const char *const names[] = {
		"Europe/Berlin", "America/New_York", "Australia/Sydney",
		"Australia/Lord_Howe", "Europe/Dublin", "Asia/Kolkata",
		"America/Sao_Paulo", "Pacific/Apia", "America/St_Johns",
		"Africa/Casablanca", "Asia/Tehran",
	};
	struct cron_zone *z;
	char		 err[256], tz[160];
	size_t		 i;
	time_t		 t, lo = at("1900-01-01 00:00 Z"),
			 hi = at("2200-01-01 00:00 Z");
	struct cron_tm	 tm;
	long		 checked = 0;

	(void)state;
	if (!have_zoneinfo())
		skip();
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (cron_zone_load(NULL, names[i], &z, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		snprintf(tz, sizeof(tz), ":%s", names[i]);
		setenv("TZ", tz, 1);
		tzset();
		for (t = lo; t < hi; t += 7 * 86400 + 3 * 3600 + 17) {
			compare_glibc(z, names[i], t);
			checked++;
		}
		/* Every offset change, found by bisection between grid
		 * points 6 hours apart, and the inverse at each point. */
		for (t = lo; t < hi; t += 6 * 3600) {
			struct cron_tm	b4;
			time_t		l, h;

			cron_zone_local(z, t, &tm);
			if ((t - lo) % (40 * 6 * 3600) == 0)
				check_inverse(z, names[i], t);
			cron_zone_local(z, t - 6 * 3600, &b4);
			if (b4.utoff == tm.utoff)
				continue;
			for (l = t - 6 * 3600, h = t; h - l > 1;) {
				time_t	m = l + (h - l) / 2;

				cron_zone_local(z, m, &b4);
				if (b4.utoff == tm.utoff)
					h = m;
				else
					l = m;
			}
			compare_glibc(z, names[i], h - 1);
			compare_glibc(z, names[i], h);
			check_inverse(z, names[i], h - 1800);
			check_inverse(z, names[i], h - 1);
			check_inverse(z, names[i], h);
			check_inverse(z, names[i], h + 1800);
			checked += 2;
		}
		cron_zone_free(z);
	}
	unsetenv("TZ");
	tzset();
	print_message("compared %ld instants with glibc\n", checked);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edge_local),
		cmocka_unit_test(test_edge_utc_of),
		cmocka_unit_test(test_version1),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_posix_strings),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_system_zones_match_glibc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
