/*
 * test_util_clock: the one clock (util_wall_ms()) and its test-only
 * setting LABRAT_TEST_CLOCK: a stopped clock ("@MS") reads the same ms
 * across a sleep, a shifted one ("+MS", "-MS") runs that far from the
 * real clock, a skipping one ("skip") moves on by util_clock_skip()'s ms
 * and no other does; bad values are refused naming the variable and the
 * value, the clock left as it was; util_clock_init() reads the
 * environment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "util.h"

/* The real clock, to the second (the tolerance below is 2 s). */
static int64_t
real_ms(void)
{
	return (int64_t)time(NULL) * 1000;
}

static void
set_ok(const char *v)
{
	char	err[256] = "";

	assert_int_equal(util_clock_set(v, err, sizeof err), 0);
	assert_string_equal(err, "");
}

static void
test_clock_stopped(void **state)
{
	(void)state;
	set_ok("@1796194860123");
	assert_int_equal(util_wall_ms(), 1796194860123LL);
	usleep(30 * 1000);
	assert_int_equal(util_wall_ms(), 1796194860123LL);
	assert_int_equal(util_time(), 1796194860);
	assert_int_equal(util_clock_skips(), 0);
	assert_int_equal(util_clock_skip(60000), 0);
	assert_int_equal(util_wall_ms(), 1796194860123LL);
	set_ok("@0");
	assert_int_equal(util_wall_ms(), 0);
	set_ok(NULL);
}

static void
test_clock_shifted(void **state)
{
	int64_t	a, b;

	(void)state;
	set_ok("+3600000");
	a = util_wall_ms() - real_ms();
	assert_true(a >= 3600000 - 2000 && a <= 3600000 + 2000);
	b = util_wall_ms();
	usleep(30 * 1000);
	assert_true(util_wall_ms() - b >= 25);	/* it runs */
	assert_int_equal(util_clock_skip(60000), 0);
	a = util_wall_ms() - real_ms();
	assert_true(a >= 3600000 - 2000 && a <= 3600000 + 2000);
	set_ok("-86400000");
	a = real_ms() - util_wall_ms();
	assert_true(a >= 86400000 - 2000 && a <= 86400000 + 2000);
	set_ok(NULL);
}

static void
test_clock_skip(void **state)
{
	int64_t	a;

	(void)state;
	set_ok("skip");
	assert_int_equal(util_clock_skips(), 1);
	a = util_wall_ms() - real_ms();
	assert_true(a >= -2000 && a <= 2000);
	assert_int_equal(util_clock_skip(0), 0);
	assert_int_equal(util_clock_skip(-1000), 0);
	assert_int_equal(util_clock_skip(52300), 1);
	assert_int_equal(util_clock_skip(7700), 1);
	a = util_wall_ms() - real_ms();
	assert_true(a >= 60000 - 2000 && a <= 60000 + 2000);
	/* Setting it again starts from the real clock. */
	set_ok("skip");
	a = util_wall_ms() - real_ms();
	assert_true(a >= -2000 && a <= 2000);
	set_ok("");
	assert_int_equal(util_clock_skips(), 0);
	a = util_wall_ms() - real_ms();
	assert_true(a >= -2000 && a <= 2000);
}

static void
test_clock_refused(void **state)
{
	static const char *const bad[] = { "x", "1000", "@", "+", "-", "@-5",
	    "+-5", "- 5", "+ 5", "@1e3", "@12abc", "@0x10", "skip2", "SKIP",
	    "@10000000000000000", " @5", NULL };
	char	err[256], want[64];
	size_t	i;

	(void)state;
	set_ok("@5000");
	for (i = 0; bad[i] != NULL; i++) {
		err[0] = '\0';
		assert_int_equal(util_clock_set(bad[i], err, sizeof err), -1);
		snprintf(want, sizeof want, "LABRAT_TEST_CLOCK=\"%s\":",
		    bad[i]);
		if (strstr(err, want) == NULL || strstr(err, "@MS") == NULL)
			fail_msg("\"%s\": %s", bad[i], err);
		assert_int_equal(util_wall_ms(), 5000);	/* left as it was */
	}
	set_ok(NULL);
}

static void
test_clock_init_env(void **state)
{
	char	err[256] = "";

	(void)state;
	assert_int_equal(setenv("LABRAT_TEST_CLOCK", "@42000", 1), 0);
	assert_int_equal(util_clock_init(err, sizeof err), 0);
	assert_int_equal(util_wall_ms(), 42000);
	assert_int_equal(util_time(), 42);
	assert_int_equal(setenv("LABRAT_TEST_CLOCK", "tomorrow", 1), 0);
	assert_int_equal(util_clock_init(err, sizeof err), -1);
	assert_non_null(strstr(err, "LABRAT_TEST_CLOCK=\"tomorrow\""));
	assert_int_equal(unsetenv("LABRAT_TEST_CLOCK"), 0);
	assert_int_equal(util_clock_init(err, sizeof err), 0);
	assert_true(util_wall_ms() - real_ms() <= 2000 &&
	    real_ms() - util_wall_ms() <= 2000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clock_stopped),
		cmocka_unit_test(test_clock_shifted),
		cmocka_unit_test(test_clock_skip),
		cmocka_unit_test(test_clock_refused),
		cmocka_unit_test(test_clock_init_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
