/*
 * test_config_bisect: the bisect test files (configs/bisect/em.json and
 * bce.json) load;
 * a broken file gets every error with its JSON path (workload errors from
 * the plan loader renamed to "workload..."); the generated one-workload
 * plan; simulated-lab history revisions.
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
#include "util.h"

static char *
src_path(const char *rel)
{
	const char	*d = getenv("LABRAT_SOURCE_DIR");

	return xasprintf("%s/%s", d != NULL ? d : ".", rel);
}

static void
test_examples(void **state)
{
	struct config_errors		 e;
	struct config_bisect_test	*t;
	char				*p, *plan;

	(void)state;
	config_errors_init(&e);
	p = src_path("configs/bisect/em.json");
	t = config_bisect_test_load(p, &e);
	if (t == NULL)
		print_error("%s\n", e.msgs[0]);
	assert_non_null(t);
	assert_int_equal(t->compare, CONFIG_BISECT_AB);
	assert_int_equal(t->ab_knob, KNOB_TSO);
	assert_int_equal(t->ab_reference, 0);
	assert_int_equal(t->ab_candidate, 1);
	assert_true(knobs_isset(&t->knobs, KNOB_MTU));
	assert_int_equal(knobs_get(&t->knobs, KNOB_MTU), 9000);
	assert_true(t->threshold > 0.9 && t->threshold < 0.92);
	plan = config_bisect_plan_text(t, "em");
	assert_string_equal(plan, "{\"links\":[\"em\"],\"knobs\":{\"mtu\":"
	    "[9000],\"tso\":[false,true]},\"workloads\":[{\"tool\":"
	    "\"iperf3\",\"len\":\"128k\",\"window\":\"1024k\","
	    "\"nodelay\":true,\"time\":2}],\"repetitions\":1,"
	    "\"timeouts\":{\"connect\":10,\"job\":60},\"retries\":2}");
	free(plan);
	config_bisect_test_free(t);
	free(p);
	p = src_path("configs/bisect/bce.json");
	t = config_bisect_test_load(p, &e);
	assert_non_null(t);
	assert_int_equal(t->compare, CONFIG_BISECT_BASELINE);
	assert_int_equal(knobs_get(&t->knobs, KNOB_NAT), KNOB_NAT_KERNEL);
	assert_int_equal(t->min_samples, 4);
	config_bisect_test_free(t);
	free(p);
	/* The demo's quicker variants (labrat demo loads them). */
	p = src_path("configs/bisect/em-demo.json");
	t = config_bisect_test_load(p, &e);
	assert_non_null(t);
	assert_int_equal(t->compare, CONFIG_BISECT_AB);
	assert_int_equal(t->min_samples, 4);
	config_bisect_test_free(t);
	free(p);
	p = src_path("configs/bisect/bce-demo.json");
	t = config_bisect_test_load(p, &e);
	assert_non_null(t);
	assert_int_equal(t->compare, CONFIG_BISECT_BASELINE);
	assert_int_equal(t->min_samples, 3);
	config_bisect_test_free(t);
	free(p);
	assert_int_equal(e.n, 0);
	config_errors_free(&e);
}

static int
has(const struct config_errors *e, const char *s)
{
	size_t	i;

	for (i = 0; i < e->n; i++)
		if (strstr(e->msgs[i], s) != NULL)
			return 1;
	return 0;
}

static void
test_errors(void **state)
{
	const char *bad =
	    "{\"knobs\":{\"tso\":true,\"mtu\":100,\"speed\":1},"
	    "\"compare\":{\"type\":\"ab\",\"knob\":\"tso\",\"reference\":true,"
	    "\"candidate\":true},"
	    "\"workload\":{\"tool\":\"iperf3\",\"time\":0,\"size\":\"1M\"},"
	    "\"metric\":\"Mbit/s\",\"threshold\":0,"
	    "\"sampling\":{\"min_samples\":8,\"max_samples\":4},"
	    "\"timeouts\":{\"boot\":0},\"extra\":1}";
	struct config_errors		 e;
	size_t				 i;

	(void)state;
	config_errors_init(&e);
	assert_null(config_bisect_test_parse("t.json", bad, strlen(bad), &e));
	for (i = 0; i < e.n; i++)
		print_message("%s\n", e.msgs[i]);
	assert_true(has(&e, "t.json: knobs.mtu:"));
	assert_true(has(&e, "t.json: knobs.speed"));
	assert_true(has(&e, "t.json: knobs.tso: is compared A/B"));
	assert_true(has(&e, "t.json: compare: reference and candidate"));
	assert_true(has(&e, "t.json: workload.time:"));
	assert_true(has(&e, "t.json: workload.size"));
	assert_true(has(&e, "t.json: metric:"));
	assert_true(has(&e, "t.json: threshold:"));
	assert_true(has(&e, "t.json: sampling.max_samples:"));
	assert_true(has(&e, "t.json: timeouts.boot:"));
	assert_true(has(&e, "t.json: extra"));
	config_errors_free(&e);
	config_errors_init(&e);
	bad = "{\"workload\":{\"tool\":\"scp\",\"size\":\"1M\",\"links\":"
	    "[\"em\"]}}";
	assert_null(config_bisect_test_parse("t.json", bad, strlen(bad), &e));
	assert_true(has(&e, "t.json: compare"));
	assert_true(has(&e, "t.json: workload.links"));
	config_errors_free(&e);
}

static void
test_history(void **state)
{
	struct config_errors	 e;
	char			**ids, **msgs, *p;
	size_t			 n;

	(void)state;
	config_errors_init(&e);
	p = src_path("configs/simlab/history.json");
	assert_int_equal(config_history_revisions(p, &ids, &msgs, &n, &e), 0);
	assert_int_equal(n, 400);
	assert_string_equal(ids[140], "r200140");
	assert_non_null(strstr(msgs[140], "TSO"));
	assert_null(ids[n]);
	config_argv_free(ids);
	config_argv_free(msgs);
	free(p);
	config_errors_free(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
