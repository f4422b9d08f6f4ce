/*
 * test_config_write: a plan struct -> canonical JSON -> parse -> the same
 * struct, for the example plans in configs/, the cross-check fixture
 * plans, a hand-written plan using every key, and the plans built for the
 * bisect tests in configs/bisect/; the canonical text is a fixed
 * point and does not depend on how the file spelled or ordered things.
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
env_path(const char *var, const char *rel)
{
	const char	*v = getenv(var);

	return xasprintf("%s/%s", v != NULL ? v : ".", rel);
}

static void
str_eq(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		assert_true(a == NULL && b == NULL);
	else
		assert_string_equal(a, b);
}

static void
knobset_eq(const struct config_knobset *a, const struct config_knobset *b)
{
	size_t	i;
	int	k;

	for (k = 0; k < KNOB_COUNT; k++) {
		assert_int_equal(a->knob[k].present, b->knob[k].present);
		assert_int_equal(a->knob[k].n, b->knob[k].n);
		for (i = 0; i < a->knob[k].n; i++)
			assert_int_equal(a->knob[k].values[i],
			    b->knob[k].values[i]);
	}
}

static void
workload_eq(const struct config_workload *a, const struct config_workload *b)
{
	size_t	i;

	assert_int_equal(a->tool, b->tool);
	str_eq(a->len, b->len);
	assert_int_equal(a->len_bytes, b->len_bytes);
	str_eq(a->window, b->window);
	assert_int_equal(a->window_bytes, b->window_bytes);
	assert_int_equal(a->nodelay, b->nodelay);
	assert_int_equal(a->time, b->time);
	assert_int_equal(a->parallel, b->parallel);
	assert_int_equal(a->port, b->port);
	str_eq(a->size, b->size);
	assert_int_equal(a->size_bytes, b->size_bytes);
	assert_int_equal(a->links == NULL, b->links == NULL);
	assert_int_equal(a->nlinks, b->nlinks);
	for (i = 0; i < a->nlinks; i++)
		assert_string_equal(a->links[i], b->links[i]);
}

/* Every field but path and text. */
static void
plan_eq(const struct config_plan *a, const struct config_plan *b)
{
	size_t	i;

	assert_int_equal(a->nlinks, b->nlinks);
	for (i = 0; i < a->nlinks; i++)
		assert_string_equal(a->links[i], b->links[i]);
	knobset_eq(&a->knobs, &b->knobs);
	assert_int_equal(a->nper_link, b->nper_link);
	for (i = 0; i < a->nper_link; i++) {
		assert_string_equal(a->per_link[i].link, b->per_link[i].link);
		knobset_eq(&a->per_link[i].knobs, &b->per_link[i].knobs);
	}
	assert_int_equal(a->tso_on, b->tso_on);
	assert_int_equal(a->nworkloads, b->nworkloads);
	for (i = 0; i < a->nworkloads; i++)
		workload_eq(&a->workloads[i], &b->workloads[i]);
	assert_int_equal(a->repetitions, b->repetitions);
	assert_int_equal(a->connect_timeout, b->connect_timeout);
	assert_int_equal(a->job_timeout, b->job_timeout);
	assert_int_equal(a->settle_ms, b->settle_ms);
	assert_int_equal(a->retries, b->retries);
	assert_true(a->stats.alpha == b->stats.alpha);
	assert_true(a->stats.min_effect == b->stats.min_effect);
	assert_int_equal(a->stats.min_samples, b->stats.min_samples);
	assert_int_equal(a->stats.max_samples, b->stats.max_samples);
	assert_true(a->stats.collapse_factor == b->stats.collapse_factor);
	assert_int_equal(a->stats.adaptive, b->stats.adaptive);
	assert_int_equal(a->nmetrics, b->nmetrics);
	for (i = 0; i < a->nmetrics; i++) {
		assert_string_equal(a->metrics[i].name, b->metrics[i].name);
		assert_int_equal(a->metrics[i].lower_is_better,
		    b->metrics[i].lower_is_better);
	}
}

/* plan -> JSON -> plan: equal structs, and the text is a fixed point. */
static void
round_trip(const struct config_plan *plan)
{
	struct config_errors	 e;
	struct config_plan	*back;
	char			*text, *again;

	text = config_plan_json(plan);
	config_errors_init(&e);
	back = config_plan_parse("rt.json", text, strlen(text), NULL, &e);
	if (back == NULL)
		print_error("%s: %s\n%s\n", plan->path, e.n > 0 ? e.msgs[0] :
		    "", text);
	assert_non_null(back);
	assert_int_equal(e.n, 0);
	plan_eq(plan, back);
	assert_string_equal(back->text, text);
	again = config_plan_json(back);
	assert_string_equal(again, text);
	free(again);
	free(text);
	config_plan_free(back);
	config_errors_free(&e);
}

static void
test_files(void **state)
{
	static const char *const files[] = {
		"configs/plan-demo.json", "configs/plan-reports.json",
		"tests/fixtures/config/cross/plan-nat.json",
		"tests/fixtures/config/cross/plan-unknown-link.json",
	};
	struct config_errors	 e;
	struct config_plan	*plan;
	char			*p;
	size_t			 i, n = 0;

	(void)state;
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		p = env_path("LABRAT_SOURCE_DIR", files[i]);
		config_errors_init(&e);
		plan = config_plan_load(p, NULL, &e);
		free(p);
		config_errors_free(&e);
		assert_non_null(plan);
		assert_non_null(plan->text);
		round_trip(plan);
		config_plan_free(plan);
		n++;
	}
	assert_int_equal(n, sizeof files / sizeof files[0]);
}

/* Every key, non-default values, keys out of the canonical order. */
static const char every_key[] =
    "{ \"stats\": { \"adaptive\": false, \"alpha\": 0.01,"
    "   \"min_effect\": 0.1, \"min_samples\": 3, \"max_samples\": 7,"
    "   \"collapse_factor\": 2.5 },"
    "  \"metrics\": { \"latency_us\": { \"lower_is_better\": true },"
    "    \"cpu_sender\": { \"lower_is_better\": false } },"
    "  \"retries\": 0, \"repetitions\": 3,"
    "  \"timeouts\": { \"settle_ms\": 0, \"job\": 30, \"connect\": 5 },"
    "  \"workloads\": ["
    "    { \"parallel\": 4, \"tool\": \"iperf3\", \"time\": 5,"
    "      \"window\": \"1M\", \"nodelay\": false, \"len\": \"65536\","
    "      \"port\": 15201 },"
    "    { \"tool\": \"scp\", \"size\": \"2G\", \"links\": [\"b-2\"] },"
    "    { \"tool\": \"iperf2\" } ],"
    "  \"tso_on\": \"both\","
    "  \"per_link\": { \"b-2\": { \"knobs\": { \"nat\": [\"kernel\","
    "    \"off\", \"divert\"], \"lro\": [false] } } },"
    "  \"knobs\": { \"txcsum\": [false, true], \"mtu\": [9000, 576, 65535],"
    "    \"rxcsum\": [true], \"tso\": [true, false] },"
    "  \"links\": [\"a1\", \"b-2\"] }";

static void
test_every_key(void **state)
{
	struct config_errors	 e;
	struct config_plan	*plan;
	char			*text;

	(void)state;
	config_errors_init(&e);
	plan = config_plan_parse("every.json", every_key, strlen(every_key),
	    NULL, &e);
	if (plan == NULL)
		print_error("%s\n", e.msgs[0]);
	assert_non_null(plan);
	round_trip(plan);
	text = config_plan_json(plan);
	/* Schema order, values in the plan's order, knobs by enum knob. */
	assert_string_equal(text, "{\"links\":[\"a1\",\"b-2\"],\"knobs\":{"
	    "\"mtu\":[9000,576,65535],\"rxcsum\":[true],\"tso\":[true,false],"
	    "\"txcsum\":[false,true]},\"per_link\":{\"b-2\":{\"knobs\":{"
	    "\"lro\":[false],\"nat\":[\"kernel\",\"off\",\"divert\"]}}},"
	    "\"tso_on\":\"both\",\"workloads\":[{\"tool\":\"iperf3\","
	    "\"len\":\"65536\",\"window\":\"1M\",\"nodelay\":false,\"time\":5,"
	    "\"parallel\":4,\"port\":15201},{\"tool\":\"scp\",\"size\":"
	    "\"2G\",\"links\":[\"b-2\"]},{\"tool\":\"iperf2\","
	    "\"nodelay\":false,\"time\":10,\"parallel\":1}],\"repetitions\":3,\"timeouts\":{\"connect\":5,"
	    "\"job\":30,\"settle_ms\":0},\"retries\":0,\"stats\":{\"alpha\":"
	    "0.01,\"min_effect\":0.1,\"min_samples\":3,\"max_samples\":7,"
	    "\"collapse_factor\":2.5,\"adaptive\":false},\"metrics\":{"
	    "\"latency_us\":{\"lower_is_better\":true},\"cpu_sender\":{"
	    "\"lower_is_better\":false}}}");
	assert_int_equal(config_plan_lower_is_better(plan, "latency_us"), 1);
	assert_int_equal(config_plan_lower_is_better(plan, "cpu_sender"), 0);
	assert_int_equal(config_plan_lower_is_better(plan, "seconds"), -1);
	assert_int_equal(config_plan_lower_is_better(NULL, "seconds"), -1);
	free(text);
	text = config_workload_json(&plan->workloads[1]);
	assert_string_equal(text, "{\"tool\":\"scp\",\"size\":\"2G\","
	    "\"links\":[\"b-2\"]}");
	free(text);
	config_plan_free(plan);
	config_errors_free(&e);
}

/* The plans built for the bisect tests survive the trip too. */
static void
test_bisect_plans(void **state)
{
	static const char *const files[] = {
		"configs/bisect/em.json", "configs/bisect/bce.json",
		"configs/bisect/em-demo.json", "configs/bisect/bce-demo.json",
	};
	struct config_errors		 e;
	struct config_bisect_test	*t;
	struct config_plan		*plan;
	char				*p, *wl;
	size_t				 i;

	(void)state;
	config_errors_init(&e);
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		p = env_path("LABRAT_SOURCE_DIR", files[i]);
		t = config_bisect_test_load(p, &e);
		free(p);
		assert_non_null(t);
		plan = config_bisect_plan(t, "em", NULL, &e);
		assert_non_null(plan);
		assert_null(plan->text);
		assert_int_equal(plan->repetitions, 1);
		assert_int_equal(plan->job_timeout, t->job_timeout);
		workload_eq(&plan->workloads[0], &t->workload);
		round_trip(plan);
		wl = config_workload_json(&t->workload);
		assert_non_null(strstr(wl, config_tool_name(
		    t->workload.tool)));
		free(wl);
		config_plan_free(plan);
		config_bisect_test_free(t);
	}
	assert_int_equal(e.n, 0);
	config_errors_free(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_every_key),
		cmocka_unit_test(test_bisect_plans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
