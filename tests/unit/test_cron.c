/*
 * test_cron: the expression parser against accept tables (every field's
 * values written out as ranges), reject tables with their exact
 * messages, the day-of-month/day-of-week rule, and H (stable per name,
 * spread across names, inside its range).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cron.h"

/* Bits lo..hi of mask as "1,3-5,9" (runs of 3+ as ranges). */
static void
render(uint64_t mask, int lo, int hi, char *buf, size_t len)
{
	int	v, end;
	size_t	n = 0;

	buf[0] = '\0';
	for (v = lo; v <= hi; v++) {
		if (!((mask >> v) & 1))
			continue;
		for (end = v; end + 1 <= hi && ((mask >> (end + 1)) & 1); end++)
			;
		if (end - v >= 2) {
			n += (size_t)snprintf(buf + n, len - n, "%s%d-%d",
			    n ? "," : "", v, end);
			v = end;
		} else {
			n += (size_t)snprintf(buf + n, len - n, "%s%d",
			    n ? "," : "", v);
		}
	}
}

static void
want(const char *expr, const char *what, const char *got, const char *exp)
{
	if (strcmp(got, exp) != 0)
		fail_msg("\"%s\": %s is \"%s\", want \"%s\"", expr, what,
		    got, exp);
}

struct accept {
	const char	*expr;
	const char	*min, *hour, *dom, *mon, *dow;
	const char	*stars;		/* "mhdw" of the fields starting with * */
};

static const struct accept accepts[] = {
	{ "* * * * *", "0-59", "0-23", "1-31", "1-12", "0-6", "mhdw" },
	{ "0 0 * * *", "0", "0", "1-31", "1-12", "0-6", "dw" },
	{ "*/15 * * * *", "0,15,30,45", "0-23", "1-31", "1-12", "0-6",
	    "mhdw" },
	{ "5-20/5 1-3 * * *", "5,10,15,20", "1-3", "1-31", "1-12", "0-6",
	    "dw" },
	{ "50/3 * * * *", "50,53,56,59", "0-23", "1-31", "1-12", "0-6",
	    "hdw" },
	{ "1,2,3,10-12 */6 1,15 * *", "1-3,10-12", "0,6,12,18", "1,15",
	    "1-12", "0-6", "hw" },
	{ "0 12 * JAN-MAR,dec *", "0", "12", "1-31", "1-3,12", "0-6", "dw" },
	{ "0 12 * jan,Jun mon-FRI", "0", "12", "1-31", "1,6", "1-5", "d" },
	{ "0 0 * * 7", "0", "0", "1-31", "1-12", "0", "d" },
	{ "0 0 * * 0,7", "0", "0", "1-31", "1-12", "0", "d" },
	{ "0 0 * * 5-7", "0", "0", "1-31", "1-12", "0,5,6", "d" },
	{ "0 0 * * SUN", "0", "0", "1-31", "1-12", "0", "d" },
	{ "0 0 * * */2", "0", "0", "1-31", "1-12", "0,2,4,6", "dw" },
	{ "0 0 1 */3 *", "0", "0", "1", "1,4,7,10", "0-6", "w" },
	{ "59 23 31 12 6", "59", "23", "31", "12", "6", "" },
	{ "\t 0  0\t* *  *  ", "0", "0", "1-31", "1-12", "0-6", "dw" },
	{ "*/60 * * * *", "0", "0-23", "1-31", "1-12", "0-6", "mhdw" },
	{ "@yearly", "0", "0", "1", "1", "0-6", "w" },
	{ "@annually", "0", "0", "1", "1", "0-6", "w" },
	{ "@monthly", "0", "0", "1", "1-12", "0-6", "w" },
	{ "@weekly", "0", "0", "1-31", "1-12", "0", "d" },
	{ "@daily", "0", "0", "1-31", "1-12", "0-6", "dw" },
	{ "@midnight", "0", "0", "1-31", "1-12", "0-6", "dw" },
	{ "@HOURLY", "0", "0-23", "1-31", "1-12", "0-6", "hdw" },
	{ "0 0 29 2 *", "0", "0", "29", "2", "0-6", "w" },
	{ "0 0 31 * *", "0", "0", "31", "1-12", "0-6", "w" },
	{ "0 0 30 2 1", "0", "0", "30", "2", "1", "" },
};

static void
test_accept(void **state)
{
	struct cron	c;
	char		err[256], buf[200];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(accepts) / sizeof(accepts[0]); i++) {
		const struct accept *a = &accepts[i];
		char	stars[8];
		size_t	n = 0;

		err[0] = '\0';
		if (cron_parse(&c, a->expr, "job", err, sizeof(err)) != 0)
			fail_msg("\"%s\": %s", a->expr, err);
		render(c.minute, 0, 59, buf, sizeof(buf));
		want(a->expr, "min", buf, a->min);
		render(c.hour, 0, 23, buf, sizeof(buf));
		want(a->expr, "hour", buf, a->hour);
		render(c.dom, 1, 31, buf, sizeof(buf));
		want(a->expr, "dom", buf, a->dom);
		render(c.month, 1, 12, buf, sizeof(buf));
		want(a->expr, "mon", buf, a->mon);
		render(c.dow, 0, 6, buf, sizeof(buf));
		want(a->expr, "dow", buf, a->dow);
		if (c.minute_star)
			stars[n++] = 'm';
		if (c.hour_star)
			stars[n++] = 'h';
		if (c.dom_star)
			stars[n++] = 'd';
		if (c.dow_star)
			stars[n++] = 'w';
		stars[n] = '\0';
		want(a->expr, "stars", stars, a->stars);
	}
}

struct reject {
	const char	*expr;
	const char	*msg;
};

static const struct reject rejects[] = {
	{ "", "empty cron expression" },
	{ "   ", "expected 5 fields (minute hour day-of-month month "
	    "day-of-week), got 0" },
	{ "* * * *", "expected 5 fields (minute hour day-of-month month "
	    "day-of-week), got 4" },
	{ "* * * * * /bin/true", "expected 5 fields (minute hour "
	    "day-of-month month day-of-week), got more than 5" },
	{ "60 * * * *", "field 1 (minute): 60 is out of range 0-59" },
	{ "0 24 * * *", "field 2 (hour): 24 is out of range 0-23" },
	{ "0 0 0 * *", "field 3 (day of month): 0 is out of range 1-31" },
	{ "0 0 32 * *", "field 3 (day of month): 32 is out of range 1-31" },
	{ "0 0 * 13 *", "field 4 (month): 13 is out of range 1-12" },
	{ "0 0 * 0 *", "field 4 (month): 0 is out of range 1-12" },
	{ "0 0 * * 8", "field 5 (day of week): 8 is out of range 0-7" },
	{ "0 0 * FOO *", "field 4 (month): \"FOO\" is not a month "
	    "(1-12 or JAN-DEC)" },
	{ "0 0 * * MONDAY", "field 5 (day of week): \"MONDAY\" is not a "
	    "day of week (0-7 or SUN-SAT)" },
	{ "0 JAN * * *", "field 2 (hour): \"JAN\" is not a number" },
	{ "5x * * * *", "field 1 (minute): \"5x\" is not a number" },
	{ "1,,2 * * * *", "field 1 (minute): an empty list item" },
	{ "1, * * * *", "field 1 (minute): an empty list item" },
	{ "*/0 * * * *", "field 1 (minute): step 0 is out of range 1-60" },
	{ "*/61 * * * *", "field 1 (minute): step 61 is out of range 1-60" },
	{ "0 */25 * * *", "field 2 (hour): step 25 is out of range 1-24" },
	{ "*/ * * * *", "field 1 (minute): \"*/\": the step is missing" },
	{ "*/x * * * *", "field 1 (minute): step \"x\" is not a number" },
	{ "20-10 * * * *", "field 1 (minute): range 20-10 runs backwards" },
	{ "0 0 * * SAT-SUN", "field 5 (day of week): range SAT-SUN runs "
	    "backwards" },
	{ "-5 * * * *", "field 1 (minute): a number is missing" },
	{ "5- * * * *", "field 1 (minute): a number is missing" },
	{ "0 0 30 2 *", "fields 3 and 4 (day of month, month): no listed "
	    "month has a listed day, so it never fires" },
	{ "0 0 31 4,6,9,11 *", "fields 3 and 4 (day of month, month): no "
	    "listed month has a listed day, so it never fires" },
	{ "@reboot", "\"@reboot\" is not one of @yearly, @annually, "
	    "@monthly, @weekly, @daily, @midnight, @hourly" },
	{ "@daily 5", "expected 5 fields (minute hour day-of-month month "
	    "day-of-week), got 2" },
	{ "H(0-29 * * * *", "field 1 (minute): \"H(0-29\": H takes a range "
	    "as H(A-B)" },
	{ "H(5) * * * *", "field 1 (minute): \"H(5)\": H takes a range as "
	    "H(A-B)" },
	{ "H(0-60) * * * *", "field 1 (minute): 60 is out of range 0-59" },
	{ "Hx * * * *", "field 1 (minute): \"Hx\": H takes a range as "
	    "H(A-B)" },
};

static void
test_reject(void **state)
{
	struct cron	c;
	char		err[256];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		err[0] = '\0';
		if (cron_parse(&c, rejects[i].expr, "job", err,
		    sizeof(err)) != -1)
			fail_msg("\"%s\" was accepted", rejects[i].expr);
		want(rejects[i].expr, "message", err, rejects[i].msg);
	}
}

static void
test_reject_long_and_h_without_name(void **state)
{
	struct cron	c;
	char		err[256], expr[CRON_EXPR_MAX + 20];

	(void)state;
	memset(expr, '1', sizeof(expr) - 1);
	expr[sizeof(expr) - 1] = '\0';
	assert_int_equal(cron_parse(&c, expr, "j", err, sizeof(err)), -1);
	assert_string_equal(err, "cron expression longer than 256 "
	    "characters");
	assert_int_equal(cron_parse(&c, "H * * * *", NULL, err,
	    sizeof(err)), -1);
	assert_string_equal(err, "field 1 (minute): H needs the schedule's "
	    "name to hash");
	assert_int_equal(cron_parse(&c, "H * * * *", "", err, sizeof(err)),
	    -1);
	/* A tiny error buffer truncates, never overflows. */
	assert_int_equal(cron_parse(&c, "0 24 * * *", "j", err, 8), -1);
	assert_string_equal(err, "field 2");
}

static int
popcount(uint64_t m)
{
	return __builtin_popcountll(m);
}

static void
test_h_stable_and_spread(void **state)
{
	struct cron	a, b;
	char		err[256], name[32];
	int		seen[60] = { 0 }, distinct = 0, i, v;

	(void)state;
	assert_int_equal(cron_parse(&a, "H 2 * * *", "nightly-em", err,
	    sizeof(err)), 0);
	assert_int_equal(cron_parse(&b, "H 2 * * *", "nightly-em", err,
	    sizeof(err)), 0);
	assert_true(a.minute == b.minute);
	assert_int_equal(popcount(a.minute), 1);
	assert_true(a.hour == (1u << 2));
	/* Documented hash: FNV-1a of the name, then the position byte. */
	{
		uint32_t	h = 2166136261u;
		const char	*p;

		for (p = "nightly-em"; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 16777619u;
		}
		h ^= 1;
		h *= 16777619u;
		assert_true(a.minute == (uint64_t)1 << (h % 60));
	}
	/* 100 names spread over the hour. */
	for (i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "schedule-%d", i);
		assert_int_equal(cron_parse(&a, "H 2 * * *", name, err,
		    sizeof(err)), 0);
		v = __builtin_ctzll(a.minute);
		if (seen[v]++ == 0)
			distinct++;
	}
	assert_true(distinct >= 40);
	/* H in two fields of one name varies independently: over 100
	 * names minute and hour are not the same function. */
	for (i = 0, v = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		assert_int_equal(cron_parse(&a, "H H * * *", name, err,
		    sizeof(err)), 0);
		if ((__builtin_ctzll(a.minute) % 24) ==
		    __builtin_ctz(a.hour))
			v++;
	}
	assert_true(v < 30);
}

static void
test_h_ranges_and_steps(void **state)
{
	struct cron	c;
	char		err[256], name[32];
	int		i, first;

	(void)state;
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		/* H(0-29)/10: three starts, 10 apart, offset < 10. */
		assert_int_equal(cron_parse(&c, "H(0-29)/10 * * * *", name,
		    err, sizeof(err)), 0);
		first = __builtin_ctzll(c.minute);
		assert_true(first < 10);
		assert_true(c.minute == ((uint64_t)1 << first |
		    (uint64_t)1 << (first + 10) | (uint64_t)1 << (first + 20)));
		assert_true(c.minute_star == 0);
		/* H/15 in minutes: 4 starts. */
		assert_int_equal(cron_parse(&c, "H/15 * * * *", name, err,
		    sizeof(err)), 0);
		assert_int_equal(popcount(c.minute), 4);
		/* H(10-20) in hours stays inside. */
		assert_int_equal(cron_parse(&c, "0 H(10-20) * * *", name, err,
		    sizeof(err)), 0);
		assert_int_equal(popcount(c.hour), 1);
		assert_true(__builtin_ctz(c.hour) >= 10 &&
		    __builtin_ctz(c.hour) <= 20);
		/* A bare H day of month exists in every month. */
		assert_int_equal(cron_parse(&c, "0 0 H * *", name, err,
		    sizeof(err)), 0);
		assert_true(__builtin_ctz(c.dom) >= 1 &&
		    __builtin_ctz(c.dom) <= 28);
		assert_int_equal(cron_parse(&c, "0 0 * * H", name, err,
		    sizeof(err)), 0);
		assert_true(c.dow != 0 && c.dow < (1u << 7));
		assert_false(c.dow_star);
	}
}

static void
test_day_rule(void **state)
{
	struct cron	c;
	struct cron_tm	tm;
	char		err[256];

	(void)state;
	memset(&tm, 0, sizeof(tm));
	tm.mon = 6;
	/* Both restricted: the 13th OR a Friday. */
	assert_int_equal(cron_parse(&c, "0 0 13 * FRI", "j", err,
	    sizeof(err)), 0);
	tm.mday = 13; tm.wday = 2;
	assert_true(cron_match(&c, &tm));
	tm.mday = 12; tm.wday = 5;
	assert_true(cron_match(&c, &tm));
	tm.mday = 12; tm.wday = 4;
	assert_false(cron_match(&c, &tm));
	/* Day of month "*": only Fridays. */
	assert_int_equal(cron_parse(&c, "0 0 * * FRI", "j", err,
	    sizeof(err)), 0);
	tm.mday = 13; tm.wday = 2;
	assert_false(cron_match(&c, &tm));
	/* "*" with a step still counts as "*" (Vixie): AND. */
	assert_int_equal(cron_parse(&c, "0 0 */2 * FRI", "j", err,
	    sizeof(err)), 0);
	tm.mday = 13; tm.wday = 5;
	assert_true(cron_match(&c, &tm));
	tm.mday = 12; tm.wday = 5;
	assert_false(cron_match(&c, &tm));
	/* A range over all days is restricted: OR. */
	assert_int_equal(cron_parse(&c, "0 0 1-31 * FRI", "j", err,
	    sizeof(err)), 0);
	tm.mday = 12; tm.wday = 4;
	assert_true(cron_match(&c, &tm));
	/* Fixed vs wildcard for DST. */
	assert_true(cron_is_fixed(&c));
	assert_int_equal(cron_parse(&c, "@hourly", "j", err, sizeof(err)), 0);
	assert_false(cron_is_fixed(&c));
	assert_int_equal(cron_parse(&c, "*/5 2 * * *", "j", err,
	    sizeof(err)), 0);
	assert_false(cron_is_fixed(&c));
	assert_int_equal(cron_parse(&c, "0,30 2 * * *", "j", err,
	    sizeof(err)), 0);
	assert_true(cron_is_fixed(&c));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_reject),
		cmocka_unit_test(test_reject_long_and_h_without_name),
		cmocka_unit_test(test_h_stable_and_spread),
		cmocka_unit_test(test_h_ranges_and_steps),
		cmocka_unit_test(test_day_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
