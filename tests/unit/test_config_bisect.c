/*
 * test_config_bisect: the bisect test files (configs/bisect/em.json and
 * bce.json) load;
 * a broken file gets every error with its JSON path (workload errors from
 * the workload's own parser: "workload..."); the one-workload plan built
 * as a struct and its canonical JSON; simulated-lab history revisions.
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
	struct config_plan		*built;
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
	/* The plan is built as a struct; what a step stores is its
	 * canonical JSON (every key, defaults written out). */
	built = config_bisect_plan(t, "em", NULL, &e);
	assert_non_null(built);
	assert_null(built->text);
	plan = config_plan_json(built);
	assert_string_equal(plan, "{\"links\":[\"em\"],\"knobs\":{\"mtu\":"
	    "[9000],\"tso\":[false,true]},\"tso_on\":\"sender\","
	    "\"workloads\":[{\"tool\":\"iperf3\",\"len\":\"128k\","
	    "\"window\":\"1024k\",\"nodelay\":true,\"time\":2,"
	    "\"parallel\":1}],\"repetitions\":1,\"timeouts\":{\"connect\":"
	    "10,\"job\":60,\"settle_ms\":200},\"retries\":2,\"stats\":"
	    "{\"alpha\":0.05,\"min_effect\":0.03,\"min_samples\":5,"
	    "\"max_samples\":20,\"collapse_factor\":5,\"adaptive\":true}}");
	free(plan);
	config_plan_free(built);
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

/* Message of the workload's own errors: each with its path in the test
 * file, exactly as written there (no plan path such as workloads[0]). */
static void
expect_one(const char *text, const char *want)
{
	struct config_errors	e;

	config_errors_init(&e);
	assert_null(config_bisect_test_parse("t.json", text, strlen(text),
	    &e));
	if (e.n != 1 || strcmp(e.msgs[0], want) != 0)
		print_error("got %zu: %s\nwant: %s\n", e.n, e.n > 0 ?
		    e.msgs[0] : "", want);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msgs[0], want);
	config_errors_free(&e);
}

static void
test_workload_paths(void **state)
{
	(void)state;
#define CMP "{\"compare\":{\"type\":\"baseline\"},"
	expect_one(CMP "\"workload\":1}",
	    "t.json: workload: 1 is not an object");
	expect_one(CMP "\"workload\":{}}",
	    "t.json: workload.tool: required key is missing");
	expect_one(CMP "\"workload\":{\"tool\":\"iperf4\"}}",
	    "t.json: workload.tool: \"iperf4\" is not one of iperf2, iperf3, "
	    "scp");
	expect_one(CMP "\"workload\":{\"tool\":\"iperf2\",\"len\":\"5x\"}}",
	    "t.json: workload.len: \"5x\" is not a size like 512k, 1M or "
	    "1048576");
	expect_one(CMP "\"workload\":{\"tool\":\"scp\"}}",
	    "t.json: workload.size: required key is missing");
	expect_one(CMP "\"workload\":{\"tool\":\"scp\",\"size\":\"1M\","
	    "\"time\":3}}", "t.json: workload.time: unknown key for tool scp");
	expect_one(CMP "\"workload\":{\"tool\":\"iperf3\",\"parallel\":0}}",
	    "t.json: workload.parallel: 0 is out of range 1-128");
#undef CMP
}

/* A built plan for a bad link name says so instead of printing it into
 * JSON text; the stand-in of a missing test file is typed. */
static void
test_built(void **state)
{
	struct config_errors		 e;
	struct config_bisect_test	*t;
	char				*p;

	(void)state;
	config_errors_init(&e);
	p = src_path("configs/bisect/bce.json");
	t = config_bisect_test_load(p, &e);
	assert_non_null(t);
	assert_null(config_bisect_plan(t, "a\"b", NULL, &e));
	assert_int_equal(e.n, 1);
	assert_non_null(strstr(e.msgs[0], "links[0]: \"a\"b\" is not a link "
	    "name"));
	config_bisect_test_free(t);
	free(p);
	config_errors_free(&e);
	config_errors_init(&e);
	t = config_bisect_test_stand_in("/gone.json", "rtt_us", &e);
	assert_non_null(t);
	assert_int_equal(t->compare, CONFIG_BISECT_BASELINE);
	assert_int_equal(t->workload.tool, CONFIG_TOOL_IPERF3);
	assert_string_equal(t->metric, "rtt_us");
	config_bisect_test_free(t);
	assert_null(config_bisect_test_stand_in("/gone.json", "Mbit/s", &e));
	assert_int_equal(e.n, 1);
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
		cmocka_unit_test(test_workload_paths),
		cmocka_unit_test(test_built),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
