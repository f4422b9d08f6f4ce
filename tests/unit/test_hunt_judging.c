/*
 * test_hunt_judging: how a bisect test file judges once its metric's
 * direction is settled (hunt_test_judging()): a lower-is-better metric
 * (cpu_sender, retransmits) judges with "<=" and a default threshold of
 * 1.1, whatever the file leaves out; what it says wins; a metric labrat
 * does not know must say, or the test is refused naming the key.  The
 * same rule through `labrat config check` is in the last case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "hunt.h"

static struct config_bisect_test *
parse(const char *extra)
{
	struct config_bisect_test	*t;
	struct config_errors		 e;
	char				 text[1024];

	snprintf(text, sizeof text, "{ \"compare\": { \"type\": \"baseline\" "
	    "}, \"workload\": { \"tool\": \"iperf3\" }%s%s }",
	    extra[0] != '\0' ? ", " : "", extra);
	config_errors_init(&e);
	t = config_bisect_test_parse("t.json", text, strlen(text), &e);
	if (t == NULL)
		fail_msg("%s: %s", text, e.n > 0 ? e.msgs[0] : "?");
	config_errors_free(&e);
	return t;
}

static const struct {
	const char	*extra;
	int		 rc, lower;
	double		 threshold;
} cases[] = {
	{ "", 0, 0, 0.9 },
	{ "\"metric\": \"cpu_sender\"", 0, 1, 1.1 },
	{ "\"metric\": \"retransmits\", \"threshold\": 1.5", 0, 1, 1.5 },
	{ "\"metric\": \"cpu_sender\", \"lower_is_better\": false", 0, 0, 0.9 },
	{ "\"metric\": \"cpu_sender_idle\"", 0, 0, 0.9 },
	{ "\"lower_is_better\": true, \"threshold\": 0.8", 0, 1, 0.8 },
	{ "\"metric\": \"latency_us\", \"lower_is_better\": true", 0, 1, 1.1 },
	{ "\"metric\": \"latency_us\"", -1, -1, 0.9 },
};

static void
test_judging(void **state)
{
	struct config_bisect_test	*t;
	char				 err[512];
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t = parse(cases[i].extra);
		err[0] = '\0';
		if (hunt_test_judging(t, err, sizeof err) != cases[i].rc ||
		    t->lower_is_better != cases[i].lower ||
		    t->threshold != cases[i].threshold)
			fail_msg("%s: lower %d threshold %g (%s)",
			    cases[i].extra, t->lower_is_better, t->threshold,
			    err);
		if (cases[i].rc == -1) {
			assert_non_null(strstr(err, "metric: \"latency_us\" has "
			    "no known direction"));
			assert_non_null(strstr(err, "\"lower_is_better\""));
		}
		config_bisect_test_free(t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judging),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
