/*
 * test_agent_preflight: the preflight's speed and duplex check
 * (agent_preflight_speed_judge), a table of link states against the speed
 * the inventory declares.  The simulated lab cannot show these (its veths
 * report 10000 Mb/s full duplex), so this is where a slow link, a link with
 * no speed and a half-duplex one are refused, each with its reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agent.h"
#include "osdep.h"
#include "parse.h"

static const struct {
	int		 speed_mbps, duplex;	/* what the link reports */
	int		 speed;			/* declared; 0 none */
	int		 ok;
	const char	*detail;		/* exact */
} cases[] = {
	{ 1000, PARSE_DUPLEX_FULL, 1000, 1, "1000 Mb/s full-duplex" },
	{ 10000, PARSE_DUPLEX_FULL, 1000, 1, "10000 Mb/s full-duplex" },
	{ 1000, PARSE_DUPLEX_UNKNOWN, 1000, 1, "1000 Mb/s unknown-duplex" },
	{ -1, PARSE_DUPLEX_UNKNOWN, 0, 1,
	    "speed unknown, 0 Mb/s unknown-duplex" },
	{ 100, PARSE_DUPLEX_FULL, 0, 1, "100 Mb/s full-duplex" },
	/* A link that came up at 100 Mb/s where 1000 is declared. */
	{ 100, PARSE_DUPLEX_FULL, 1000, 0,
	    "em0 at 100 Mb/s, expected >= 1000 Mb/s" },
	{ 999, PARSE_DUPLEX_FULL, 1000, 0,
	    "em0 at 999 Mb/s, expected >= 1000 Mb/s" },
	{ -1, PARSE_DUPLEX_FULL, 1000, 0,
	    "em0 reports no speed (expected >= 1000 Mb/s)" },
	{ 1000, PARSE_DUPLEX_HALF, 1000, 0, "em0 is half-duplex" },
	{ 1000, PARSE_DUPLEX_HALF, 0, 0, "em0 is half-duplex" },
	/* Both wrong: both reasons. */
	{ 10, PARSE_DUPLEX_HALF, 1000, 0,
	    "em0 at 10 Mb/s, expected >= 1000 Mb/s; em0 is half-duplex" },
	{ -1, PARSE_DUPLEX_HALF, 100, 0, "em0 reports no speed (expected "
	    ">= 100 Mb/s); em0 is half-duplex" },
};

static void
test_speed_table(void **state)
{
	struct osdep_link lk;
	char	 detail[320];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&lk, 0, sizeof(lk));
		lk.admin_up = lk.carrier = 1;
		lk.speed_mbps = cases[i].speed_mbps;
		lk.duplex = cases[i].duplex;
		memset(detail, 'x', sizeof(detail));
		if (agent_preflight_speed_judge(&lk, "em0", cases[i].speed,
		    detail, sizeof(detail)) != cases[i].ok)
			fail_msg("case %zu: verdict %d wanted, detail \"%s\"",
			    i, cases[i].ok, detail);
		if (strcmp(detail, cases[i].detail) != 0)
			fail_msg("case %zu: \"%s\", wanted \"%s\"", i, detail,
			    cases[i].detail);
	}
}

/* A short buffer cuts the reasons but keeps them a terminated string. */
static void
test_speed_short_buffer(void **state)
{
	struct osdep_link lk;
	char	 detail[12];

	(void)state;
	memset(&lk, 0, sizeof(lk));
	lk.speed_mbps = 10;
	lk.duplex = PARSE_DUPLEX_HALF;
	assert_int_equal(agent_preflight_speed_judge(&lk, "em0", 1000,
	    detail, sizeof(detail)), 0);
	assert_string_equal(detail, "em0 at 10 M");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speed_table),
		cmocka_unit_test(test_speed_short_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
