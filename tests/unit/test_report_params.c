/*
 * test_report_params: the detect parameters of a stored run come from the
 * texts it stored at its start, parsed by config and handed to detect
 * typed: the plan's stats section, the links (host pairs) of its
 * inventory; a run without a plan text, or with one that no longer
 * parses, gets the defaults.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report.h"
#include "store_fixture.h"
#include "util.h"

static const char plan_text[] =
    "{ \"links\": [\"em\"], \"knobs\": { \"tso\": [true, false] },"
    " \"workloads\": [ { \"tool\": \"iperf3\", \"time\": 2 } ],"
    " \"repetitions\": 4, \"stats\": { \"alpha\": 0.01, \"min_effect\":"
    " 0.05, \"min_samples\": 4, \"max_samples\": 8, \"collapse_factor\": 4,"
    " \"adaptive\": true } }";

static const char inv_text[] =
    "{ \"hosts\": ["
    " { \"name\": \"em-a\", \"os\": \"freebsd\", \"address\": \"192.0.2.11\","
    "   \"ssh\": { \"key\": \"k\", \"known_hosts\": \"kh\" },"
    "   \"nics\": [ { \"name\": \"em0\", \"driver\": \"em\", \"role\":"
    "   \"test\" } ] },"
    " { \"name\": \"em-b\", \"os\": \"freebsd\", \"address\": \"192.0.2.12\","
    "   \"ssh\": { \"key\": \"k\", \"known_hosts\": \"kh\" },"
    "   \"nics\": [ { \"name\": \"em0\", \"driver\": \"em\", \"role\":"
    "   \"test\" } ] } ],"
    " \"links\": [ { \"name\": \"em\", \"client\": { \"host\": \"em-a\","
    "   \"if\": \"em0\", \"address\": \"198.18.1.1\" }, \"server\": {"
    "   \"host\": \"em-b\", \"if\": \"em0\", \"address\": \"198.18.1.2\" },"
    "   \"nat\": null } ] }";

static int64_t
run_new(struct store *st, const char *inv, const char *plan)
{
	struct store_run_spec	spec;
	int64_t			id;
	char			err[512];

	memset(&spec, 0, sizeof spec);
	spec.kind = "manual";
	spec.inventory_path = "/lab/inv.json";
	spec.inventory_text = inv;
	spec.plan_path = "/lab/plan.json";
	spec.plan_text = plan;
	assert_int_equal(store_run_create(st, &spec, &id, err, sizeof err), 0);
	return id;
}

static void
test_stored(void **state)
{
	struct store		*st = NULL;
	struct store_run	 row;
	struct detect_params	 p, def;
	struct detect_link	*links;
	char			 path[256], err[512];
	int64_t			 run, bare, broken;
	size_t			 n;

	(void)state;
	(void)kn;	/* store_fixture.h's, unused here */
	fx_db_path(path, sizeof path, "report_params");
	assert_int_equal(store_open(path, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	run = run_new(st, inv_text, plan_text);
	bare = run_new(st, NULL, NULL);
	broken = run_new(st, "{", "{\"links\": 1}");

	assert_int_equal(report_params_run(st, run, NULL, &p, err,
	    sizeof err), 0);
	assert_true(p.adaptive);
	assert_true(fabs(p.stats.alpha - 0.01) < 1e-12);
	assert_true(fabs(p.stats.min_effect - 0.05) < 1e-12);
	assert_int_equal(p.stats.min_samples, 4);
	assert_int_equal(p.stats.max_samples, 8);
	assert_true(fabs(p.stats.collapse - 4) < 1e-12);
	assert_non_null(p.inventory_links);
	assert_int_equal(store_run_get(st, run, &row, err, sizeof err), 1);
	assert_int_equal(p.inventory_links(&row, &links, &n, err, sizeof err),
	    0);
	assert_int_equal(n, 1);
	assert_string_equal(links[0].link, "em");
	assert_string_equal(links[0].client, "em-a");
	assert_string_equal(links[0].server, "em-b");
	free(links);
	store_run_free(&row);

	detect_params_default(&def);
	assert_int_equal(report_params_run(st, bare, NULL, &p, err,
	    sizeof err), 0);
	assert_true(p.stats.alpha == def.stats.alpha);
	assert_int_equal(p.stats.max_samples, def.stats.max_samples);
	/* A stored text that no longer parses: the defaults, no links. */
	assert_int_equal(report_params_run(st, broken, NULL, &p, err,
	    sizeof err), 0);
	assert_true(p.stats.alpha == def.stats.alpha);
	assert_int_equal(store_run_get(st, broken, &row, err, sizeof err), 1);
	assert_int_equal(p.inventory_links(&row, &links, &n, err, sizeof err),
	    0);
	assert_int_equal(n, 0);
	store_run_free(&row);

	assert_int_equal(report_params_run(st, 999, NULL, &p, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "no run 999"));
	store_close(st);
	fx_db_remove(path);
}

/* A plan that declares directions under "metrics". */
static const char plan_metrics[] =
    "{ \"links\": [\"em\"], \"workloads\": [ { \"tool\": \"iperf3\" } ],"
    " \"metrics\": { \"latency_us\": { \"lower_is_better\": true },"
    " \"cpu_sender\": { \"lower_is_better\": false } } }";

/*
 * The metric judged and its direction: built in (throughput higher,
 * cpu_sender lower is better), or as the run's plan declares it; one
 * nobody knows is an error naming the run and the key to set.
 */
static void
test_direction(void **state)
{
	struct store		*st = NULL;
	struct detect_params	 p;
	char			 path[256], err[512];
	int64_t			 bare, decl;

	(void)state;
	fx_db_path(path, sizeof path, "report_params_dir");
	assert_int_equal(store_open(path, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	bare = run_new(st, NULL, NULL);
	decl = run_new(st, NULL, plan_metrics);

	assert_int_equal(report_params_run(st, bare, NULL, &p, err,
	    sizeof err), 0);
	assert_string_equal(p.metric, "throughput_bps");
	assert_int_equal(p.stats.lower_is_better, 0);
	assert_int_equal(report_params_run(st, bare, "cpu_sender", &p, err,
	    sizeof err), 0);
	assert_string_equal(p.metric, "cpu_sender");
	assert_int_equal(p.stats.lower_is_better, 1);
	assert_int_equal(p.metric_declared, 0);
	assert_int_equal(report_params_run(st, bare, "retransmits", &p, err,
	    sizeof err), 0);
	assert_int_equal(p.stats.lower_is_better, 1);
	assert_int_equal(report_params_run(st, bare, "latency_us", &p, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "run 1: metric latency_us: direction "
	    "unknown"));

	assert_int_equal(report_params_run(st, decl, "latency_us", &p, err,
	    sizeof err), 0);
	assert_int_equal(p.stats.lower_is_better, 1);
	assert_int_equal(p.metric_declared, 1);
	/* The plan's word over the table's. */
	assert_int_equal(report_params_run(st, decl, "cpu_sender", &p, err,
	    sizeof err), 0);
	assert_int_equal(p.stats.lower_is_better, 0);
	assert_int_equal(report_params_run(st, decl, "throughput_bps", &p,
	    err, sizeof err), 0);
	assert_int_equal(p.stats.lower_is_better, 0);
	assert_int_equal(p.metric_declared, 0);
	assert_int_equal(report_params_run(st, decl, "Bad-Name", &p, err,
	    sizeof err), -1);
	store_close(st);
	fx_db_remove(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stored),
		cmocka_unit_test(test_direction),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
