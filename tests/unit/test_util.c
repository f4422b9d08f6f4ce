/*
 * test_util: util_term_safe(), the one neutraliser of host-reported text
 * for terminals: a table of inputs (the hostile kernel revision,
 * C0/C1 controls, DEL, bad UTF-8, bidi overrides, good UTF-8) with the
 * exact output, cutting at a boundary, and idempotence.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"

static const struct {
	const char	*in;
	size_t		 len;	/* 0: strlen */
	const char	*want;
} cases[] = {
	{ "r200399", 0, "r200399" },
	{ "r200399\"\n\033[2J\033[31mEVIL\033]0;PWNED\a", 0,
	  "r200399\"\\x0a\\x1b[2J\\x1b[31mEVIL\\x1b]0;PWNED\\x07" },
	{ "tab\there\r", 0, "tab\\x09here\\x0d" },
	{ "del\x7f", 0, "del\\x7f" },
	{ "a\0b", 3, "a\\x00b" },
	{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x80", 0,
	  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\x80" },	/* é € 🐀 */
	{ "csi\xc2\x9b" "2J", 0, "csi\\u009b2J" },		/* C1 CSI */
	{ "\xe2\x80\xae" "evil", 0, "\\u202eevil" },		/* RLO */
	{ "\xc0\xaf", 0, "\\xc0\\xaf" },			/* overlong / */
	{ "\xed\xa0\x80", 0, "\\xed\\xa0\\x80" },		/* surrogate */
	{ "\xff\xfe", 0, "\\xff\\xfe" },
	{ "trunc\xe2\x82", 0, "trunc\\xe2\\x82" },
	{ "back\\slash", 0, "back\\slash" },
};

static void
test_term_safe_table(void **state)
{
	char	out[256], again[256];
	size_t	i, len;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		len = cases[i].len != 0 ? cases[i].len : strlen(cases[i].in);
		util_term_safe(out, sizeof out, cases[i].in, len);
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("case %zu: got \"%s\" want \"%s\"", i, out,
			    cases[i].want);
		/* Neutralised text is left alone by a second pass. */
		util_term_safe(again, sizeof again, out, (size_t)-1);
		assert_string_equal(again, out);
	}
}

static void
test_term_safe_cut(void **state)
{
	char	out[8];

	(void)state;
	/* Never half an escape: "ab\x1b" does not fit with the NUL. */
	util_term_safe(out, sizeof out, "abcd\033ef", (size_t)-1);
	assert_string_equal(out, "abcd");
	/* Never half a character. */
	util_term_safe(out, 7, "abcde\xc3\xa9", (size_t)-1);
	assert_string_equal(out, "abcde");
	util_term_safe(out, 1, "abc", (size_t)-1);
	assert_string_equal(out, "");
	/* len bounds the input (a stderr buffer is not NUL-cut). */
	util_term_safe(out, sizeof out, "abcdef", 2);
	assert_string_equal(out, "ab");
}

/* The declared-versus-reported rule of `labrat hosts` and the report. */
static void
test_declared_differs(void **state)
{
	(void)state;
	assert_int_equal(util_driver_differs(NULL, "veth"), 0);
	assert_int_equal(util_driver_differs("em", "em"), 0);
	assert_int_equal(util_driver_differs("em", "veth"), 1);
	assert_int_equal(util_driver_differs("em", NULL), 1);
	assert_int_equal(util_driver_differs("em", "EM"), 1);
	assert_int_equal(util_chip_differs(NULL, NULL), 0);
	assert_int_equal(util_chip_differs("0x10968086", "0X10968086"), 0);
	assert_int_equal(util_chip_differs("0x10968086", "0x10108086"), 1);
	assert_int_equal(util_chip_differs("0x10968086", NULL), 1);
	assert_int_equal(util_chip_differs("0x10968086", ""), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_term_safe_table),
		cmocka_unit_test(test_term_safe_cut),
		cmocka_unit_test(test_declared_differs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
