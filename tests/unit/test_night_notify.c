/*
 * test_night_notify: the knob text of a regression's notification (its
 * subject's "(TSO on, MTU 9000)"): the trigger -- the knob its bisect
 * flips A/B -- first, then the others in key order; key order when there
 * is none; a key that does not parse is shown as it is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "knobs.h"
#include "night_int.h"

static void
test_knobs_text(void **state)
{
	static const struct {
		const char	*key;
		int		 first;
		const char	*want;
	} cases[] = {
		{ "mtu=9000,tso=on", KNOB_TSO, "TSO on, MTU 9000" },
		{ "mtu=9000,tso=on", KNOB_MTU, "MTU 9000, TSO on" },
		{ "mtu=9000,tso=on", -1, "MTU 9000, TSO on" },
		{ "mtu=9000,tso=off", KNOB_TSO, "TSO off, MTU 9000" },
		/* A trigger the key does not set: key order. */
		{ "mtu=9000,tso=on", KNOB_NAT, "MTU 9000, TSO on" },
		{ "mtu=1500,nat=kernel,tso=on", KNOB_TSO,
		    "TSO on, MTU 1500, NAT kernel" },
		{ "mtu=1500,nat=kernel,tso=on", KNOB_NAT,
		    "NAT kernel, MTU 1500, TSO on" },
		{ "tso=on", KNOB_TSO, "TSO on" },
		{ "", KNOB_TSO, "" },
		{ "not a key", KNOB_TSO, "not a key" },
	};
	char	buf[256];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		night_knobs_text(cases[i].key, cases[i].first, buf,
		    sizeof buf);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("case %zu: %s, first %d: \"%s\", want \"%s\"",
			    i, cases[i].key, cases[i].first, buf,
			    cases[i].want);
	}
	/* Cut at the buffer, never past it. */
	night_knobs_text("mtu=9000,tso=on", KNOB_TSO, buf, 8);
	assert_string_equal(buf, "TSO on,");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knobs_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
