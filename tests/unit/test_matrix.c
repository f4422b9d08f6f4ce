/*
 * test_matrix: job counts, the interleaved order (every combination of a
 * link once per repetition, never all repetitions of one first), per-link
 * overrides, workload restrictions, the knob combinations of a knob set
 * and workload keys (knob keys themselves: test_knobs).
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
#include "matrix.h"
#include "util.h"

static struct config_plan *
plan_from(const char *json)
{
	struct config_errors	 e;
	struct config_plan	*plan;

	config_errors_init(&e);
	plan = config_plan_parse("t.json", json, strlen(json), NULL, &e);
	if (plan == NULL)
		print_error("%s\n", e.n > 0 ? e.msgs[0] : "?");
	assert_non_null(plan);
	config_errors_free(&e);
	return plan;
}

static struct config_plan *
plan_file(const char *name, struct config_inventory **invp)
{
	struct config_errors	 e;
	struct config_plan	*plan;
	const char		*src = getenv("LABRAT_SOURCE_DIR");
	char			*p;

	assert_non_null(src);
	config_errors_init(&e);
	p = xasprintf("%s/configs/lab-freebsd.json", src);
	*invp = config_inventory_load(p, &e);
	free(p);
	assert_non_null(*invp);
	p = xasprintf("%s/configs/%s", src, name);
	plan = config_plan_load(p, *invp, &e);
	free(p);
	assert_non_null(plan);
	config_errors_free(&e);
	return plan;
}

static const char *
key_of(const struct matrix_job *j, char *buf)
{
	assert_int_equal(knobs_key(&j->knobs, buf, KNOBS_KEY_MAX), 0);
	return buf;
}

/*
 * The order property: within each (link, workload), the combination
 * indices run 0..nc-1 in every repetition, and repetitions never go back.
 */
static void
check_interleaved(const struct config_plan *plan, const struct matrix_job *jobs,
    size_t njobs)
{
	size_t	l, w, i, nc, pos, seen;

	for (i = 0; i < njobs; i++) {
		assert_int_equal(jobs[i].seq, i);
		if (i > 0)
			assert_true(jobs[i].rep >= jobs[i - 1].rep);
		assert_ptr_equal(jobs[i].wl,
		    &plan->workloads[jobs[i].workload]);
	}
	for (l = 0; l < plan->nlinks; l++) {
		nc = matrix_ncombos(config_plan_knobs(plan, plan->links[l]));
		for (w = 0; w < plan->nworkloads; w++) {
			pos = seen = 0;
			for (i = 0; i < njobs; i++) {
				if (jobs[i].link != l || jobs[i].workload != w)
					continue;
				assert_int_equal(jobs[i].combo, pos % nc);
				assert_int_equal(jobs[i].rep,
				    (int)(pos / nc) + 1);
				pos++;
				seen++;
			}
			if (config_workload_on_link(&plan->workloads[w],
			    plan->links[l]))
				assert_int_equal(seen,
				    nc * (size_t)plan->repetitions);
			else
				assert_int_equal(seen, 0);
		}
	}
}

static void
test_reports_plan(void **state)
{
	struct config_inventory	*inv;
	struct config_plan	*plan;
	struct matrix_job	*jobs;
	size_t			 n, i, bce = 0;
	char			 err[256], key[KNOBS_KEY_MAX];

	(void)state;
	plan = plan_file("plan-reports.json", &inv);
	assert_int_equal(matrix_expand(plan, inv, &jobs, &n, err, sizeof err),
	    0);
	/* em, em-82546: 4 combos x iperf2 x 5; bce: 4 combos x scp x 5. */
	assert_int_equal(n, 60);
	check_interleaved(plan, jobs, n);
	/* Repetition 1 starts with em's four combinations, in key order. */
	assert_string_equal(jobs[0].link_name, "em");
	assert_string_equal(key_of(&jobs[0], key), "mtu=1500,tso=on");
	assert_string_equal(key_of(&jobs[1], key), "mtu=1500,tso=off");
	assert_string_equal(key_of(&jobs[2], key), "mtu=9000,tso=on");
	assert_string_equal(key_of(&jobs[3], key), "mtu=9000,tso=off");
	assert_string_equal(jobs[4].link_name, "em-82546");
	assert_string_equal(jobs[8].link_name, "bce");
	assert_string_equal(key_of(&jobs[8], key), "nat=off,tso=on");
	assert_string_equal(key_of(&jobs[11], key), "nat=divert,tso=off");
	assert_int_equal(jobs[11].rep, 1);
	assert_string_equal(jobs[12].link_name, "em");
	assert_int_equal(jobs[12].rep, 2);
	for (i = 0; i < n; i++) {
		assert_non_null(jobs[i].ilink);
		assert_string_equal(jobs[i].ilink->name, jobs[i].link_name);
		if (strcmp(jobs[i].link_name, "bce") != 0) {
			assert_int_equal(jobs[i].wl->tool, CONFIG_TOOL_IPERF2);
			continue;
		}
		bce++;
		/* The override replaces the knob set: no mtu on bce. */
		assert_int_equal(jobs[i].wl->tool, CONFIG_TOOL_SCP);
		assert_false(jobs[i].knobs.set & (1u << KNOB_MTU));
		assert_true(jobs[i].knobs.set & (1u << KNOB_NAT));
	}
	assert_int_equal(bce, 20);
	free(jobs);
	config_plan_free(plan);
	config_inventory_free(inv);
}

static void
test_demo_plan(void **state)
{
	struct config_inventory	*inv;
	struct config_plan	*plan;
	struct matrix_job	*jobs;
	size_t			 n;
	char			 err[256], key[KNOBS_KEY_MAX];

	(void)state;
	plan = plan_file("plan-demo.json", &inv);
	assert_int_equal(matrix_expand(plan, NULL, &jobs, &n, err, sizeof err),
	    0);
	/* em: 4 combos x iperf3; bce: 4 combos x (iperf3 + scp); 4 reps. */
	assert_int_equal(n, 48);
	check_interleaved(plan, jobs, n);
	assert_null(jobs[0].ilink);
	/* rep 1: em iperf3 A B C D, bce iperf3 A B C D, bce scp A B C D. */
	assert_int_equal(jobs[0].wl->tool, CONFIG_TOOL_IPERF3);
	assert_string_equal(jobs[3].link_name, "em");
	assert_string_equal(jobs[4].link_name, "bce");
	assert_int_equal(jobs[4].wl->tool, CONFIG_TOOL_IPERF3);
	assert_string_equal(key_of(&jobs[4], key), "nat=off,tso=on");
	assert_int_equal(jobs[8].wl->tool, CONFIG_TOOL_SCP);
	assert_string_equal(key_of(&jobs[11], key), "nat=kernel,tso=off");
	assert_int_equal(jobs[12].rep, 2);
	free(jobs);
	config_plan_free(plan);
	config_inventory_free(inv);
}

static void
test_counts(void **state)
{
	static const struct {
		const char	*json;
		size_t		 njobs;
	} cases[] = {
		/* No knobs: one combination, the host's own settings. */
		{ "{\"links\":[\"a\"],\"workloads\":[{\"tool\":\"iperf3\"}]}",
		  1 },
		{ "{\"links\":[\"a\",\"b\"],\"repetitions\":7,\"workloads\":"
		  "[{\"tool\":\"iperf3\"},{\"tool\":\"scp\",\"size\":\"1k\"}]}",
		  28 },
		{ "{\"links\":[\"a\"],\"knobs\":{\"tso\":[true,false],\"lro\":"
		  "[true,false],\"rxcsum\":[true],\"txcsum\":[false,true],"
		  "\"mtu\":[1500,4000,9000],\"nat\":[\"off\",\"kernel\"]},"
		  "\"repetitions\":2,\"workloads\":[{\"tool\":\"iperf2\"}]}",
		  2 * 2 * 1 * 2 * 3 * 2 * 2 },
		{ "{\"links\":[\"a\",\"b\"],\"knobs\":{\"tso\":[true,false]},"
		  "\"per_link\":{\"b\":{\"knobs\":{\"mtu\":[1500,9000],"
		  "\"tso\":[true,false],\"nat\":[\"off\",\"divert\"]}}},"
		  "\"repetitions\":3,\"workloads\":[{\"tool\":\"iperf2\"},"
		  "{\"tool\":\"scp\",\"size\":\"1k\",\"links\":[\"b\"]}]}",
		  3 * (2 * 1 + 8 * 2) },
	};
	struct config_plan	*plan;
	struct matrix_job	*jobs;
	size_t			 i, n;
	char			 err[256];

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		plan = plan_from(cases[i].json);
		assert_int_equal(matrix_expand(plan, NULL, &jobs, &n, err,
		    sizeof err), 0);
		assert_int_equal(n, cases[i].njobs);
		check_interleaved(plan, jobs, n);
		free(jobs);
		config_plan_free(plan);
	}
}

static void
test_limits(void **state)
{
	struct config_plan	*plan;
	struct config_inventory	*inv;
	struct config_errors	 e;
	struct matrix_job	*jobs;
	size_t			 n;
	char			 err[256], *p;

	(void)state;
	/* 16 x 2 x 2 x 2 x 2 = 256 combos x 8 workloads x 1000 reps. */
	plan = plan_from("{\"links\":[\"a\"],\"knobs\":{\"mtu\":[1000,1001,"
	    "1002,1003,1004,1005,1006,1007,1008,1009,1010,1011,1012,1013,"
	    "1014,1015],\"tso\":[true,false],\"lro\":[true,false],\"rxcsum\":"
	    "[true,false],\"txcsum\":[true,false]},\"repetitions\":1000,"
	    "\"workloads\":[{\"tool\":\"iperf2\"},{\"tool\":\"iperf2\"},"
	    "{\"tool\":\"iperf2\"},{\"tool\":\"iperf2\"},{\"tool\":\"iperf2\"},"
	    "{\"tool\":\"iperf2\"},{\"tool\":\"iperf2\"},{\"tool\":\"iperf2\"}"
	    "]}");
	assert_int_equal(matrix_expand(plan, NULL, &jobs, &n, err, sizeof err),
	    -1);
	assert_string_equal(err, "2048000 jobs, more than 1000000");
	assert_null(jobs);
	assert_int_equal(n, 0);
	config_plan_free(plan);

	/* A plan link the inventory lacks. */
	config_errors_init(&e);
	p = xasprintf("%s/configs/lab-freebsd.json",
	    getenv("LABRAT_SOURCE_DIR"));
	inv = config_inventory_load(p, &e);
	free(p);
	assert_non_null(inv);
	plan = plan_from("{\"links\":[\"em\",\"ix\"],\"workloads\":"
	    "[{\"tool\":\"iperf2\"}]}");
	assert_int_equal(matrix_expand(plan, inv, &jobs, &n, err, sizeof err),
	    -1);
	assert_string_equal(err, "link ix is not in the inventory");
	config_plan_free(plan);
	config_inventory_free(inv);
	config_errors_free(&e);
}

static void
test_workload_keys(void **state)
{
	struct config_plan	*plan;
	char			 key[128];

	(void)state;
	plan = plan_from("{\"links\":[\"a\"],\"workloads\":[{\"tool\":"
	    "\"iperf2\",\"len\":\"512k\",\"window\":\"1024k\",\"nodelay\":"
	    "true,\"time\":30},{\"tool\":\"iperf3\"},{\"tool\":\"scp\","
	    "\"size\":\"1440k\"},{\"tool\":\"iperf3\",\"port\":15201}]}");
	assert_int_equal(matrix_workload_key(&plan->workloads[0], key,
	    sizeof key), 0);
	assert_string_equal(key, "iperf2:len=512k,nodelay=on,parallel=1,"
	    "time=30,window=1024k");
	assert_int_equal(matrix_workload_key(&plan->workloads[1], key,
	    sizeof key), 0);
	assert_string_equal(key, "iperf3:nodelay=off,parallel=1,time=10");
	assert_int_equal(matrix_workload_key(&plan->workloads[2], key,
	    sizeof key), 0);
	assert_string_equal(key, "scp:size=1440k");
	assert_int_equal(matrix_workload_key(&plan->workloads[0], key, 10),
	    -1);
	/* A port does not change what is measured: same key, same series. */
	assert_int_equal(plan->workloads[3].port, 15201);
	assert_int_equal(matrix_workload_key(&plan->workloads[3], key,
	    sizeof key), 0);
	assert_string_equal(key, "iperf3:nodelay=off,parallel=1,time=10");
	config_plan_free(plan);
}

static void
test_combo_at(void **state)
{
	struct config_knobset	ks;
	struct knobs		c;
	char			key[KNOBS_KEY_MAX];

	(void)state;
	memset(&ks, 0, sizeof ks);
	assert_int_equal(matrix_ncombos(&ks), 1);
	matrix_knobs_at(&ks, 0, &c);
	assert_int_equal(c.set, 0);
	ks.knob[KNOB_NAT] = (struct config_knoblist){ 1, 3,
	    { KNOB_NAT_OFF, KNOB_NAT_DIVERT, KNOB_NAT_KERNEL } };
	ks.knob[KNOB_LRO] = (struct config_knoblist){ 1, 2, { 1, 0 } };
	assert_int_equal(matrix_ncombos(&ks), 6);
	/* The last knob (in key order) varies fastest. */
	matrix_knobs_at(&ks, 1, &c);
	assert_int_equal(knobs_key(&c, key, sizeof key), 0);
	assert_string_equal(key, "lro=on,nat=divert");
	matrix_knobs_at(&ks, 3, &c);
	assert_int_equal(knobs_key(&c, key, sizeof key), 0);
	assert_string_equal(key, "lro=off,nat=off");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_combo_at),
		cmocka_unit_test(test_workload_keys),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_reports_plan),
		cmocka_unit_test(test_demo_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
