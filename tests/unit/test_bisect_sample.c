/*
 * test_bisect_sample: the bisect step's verdict (candidate against the
 * reference scaled by the threshold) and the adaptive sampling decisions.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bisect.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static const double ref5[] = { 100, 101, 99, 100.5, 99.5 };

struct judge_case {
	const char	*what;
	double		 threshold;
	int		 lower_is_better;
	double		 scale;		/* candidate = ref * scale */
	size_t		 n;
	enum bisect_outcome want;
	int		 collapse;
};

static const struct judge_case judge_cases[] = {
	{ "unchanged vs 0.91", 0.91, 0, 1.0, 5, BISECT_GOOD, 0 },
	{ "18 % slower vs 0.91", 0.91, 0, 0.82, 5, BISECT_BAD, 0 },
	{ "exactly on the threshold", 0.91, 0, 0.91, 5, BISECT_UNTESTED, 0 },
	{ "5 % faster vs 0.91", 0.91, 0, 1.05, 5, BISECT_GOOD, 0 },
	{ "100x collapse, 3 samples", 0.5, 0, 0.01, 3, BISECT_BAD, 1 },
	{ "unchanged, 3 samples: too few", 0.5, 0, 1.0, 3, BISECT_UNTESTED, 0 },
	{ "latency 50 % up vs 1.1", 1.1, 1, 1.5, 5, BISECT_BAD, 0 },
	{ "latency unchanged vs 1.1", 1.1, 1, 1.0, 5, BISECT_GOOD, 0 },
	/* CPU (lower is better): a 55 % drop is good, a 55 % rise bad; the
	 * same drop of a higher-is-better metric is bad. */
	{ "CPU 55 % down vs 1.1", 1.1, 1, 0.45, 5, BISECT_GOOD, 0 },
	{ "CPU 55 % up vs 1.1", 1.1, 1, 1.55, 5, BISECT_BAD, 0 },
	{ "throughput 55 % down vs 0.9", 0.9, 0, 0.45, 5, BISECT_BAD, 0 },
	{ "CPU 10x up, 3 samples", 1.1, 1, 10.0, 3, BISECT_BAD, 1 },
	{ "CPU 10x down, 3 samples", 1.1, 1, 0.1, 3, BISECT_GOOD, 1 },
};

static void
test_judge_table(void **state)
{
	struct bisect_test	 t;
	struct bisect_decision	 d;
	double			 cand[5];
	size_t			 i, j;
	char			 err[256];

	(void)state;
	for (i = 0; i < NELEM(judge_cases); i++) {
		const struct judge_case *c = &judge_cases[i];

		bisect_test_default(&t, c->threshold);
		t.stats.lower_is_better = c->lower_is_better;
		for (j = 0; j < c->n; j++)
			cand[j] = ref5[j] * c->scale;
		assert_int_equal(bisect_judge(&t, ref5, c->n, cand, c->n, &d,
		    err, sizeof(err)), 0);
		if (d.outcome != c->want)
			fail_msg("%s: got %s", c->what,
			    bisect_outcome_name(d.outcome));
		assert_int_equal(d.action, BISECT_DECIDED);
		assert_int_equal(d.v.collapse, c->collapse);
		assert_true(fabs(d.ratio - c->scale) < 1e-9);
		if (c->want == BISECT_UNTESTED)
			assert_true(d.strength == 0.0);
		else if (!c->collapse)	/* exact p of 5 vs 5 disjoint */
			assert_true(fabs(d.strength - (1 - 1.0 / 252)) < 1e-9);
		else			/* 3 vs 3 disjoint */
			assert_true(fabs(d.strength - (1 - 1.0 / 20)) < 1e-9);
	}
}

static void
test_judge_errors(void **state)
{
	struct bisect_test	 t;
	struct bisect_decision	 d;
	double			 bad[2] = { 1, NAN };
	char			 err[256];

	(void)state;
	bisect_test_default(&t, 0.91);
	assert_int_equal(bisect_judge(&t, ref5, 5, ref5, 0, &d, err,
	    sizeof(err)), -1);
	assert_int_equal(bisect_judge(&t, ref5, 2, bad, 2, &d, err,
	    sizeof(err)), -1);
	bisect_test_default(&t, 0);
	assert_int_equal(bisect_judge(&t, ref5, 5, ref5, 5, &d, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "threshold"));
	bisect_test_default(&t, 0.9);
	t.stats.alpha = 0.7;
	assert_int_equal(bisect_judge(&t, ref5, 5, ref5, 5, &d, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "alpha"));
	bisect_test_default(&t, 0.9);
	t.fixed_reference = 1;
	assert_int_equal(bisect_sample_next(&t, ref5, 0, ref5, 0, 0, &d, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "reference"));
}

/* Samples that stay on the threshold walk every look, re-measure, skip. */
static void
test_sample_inconclusive_path(void **state)
{
	struct bisect_test	 t;
	struct bisect_decision	 d;
	double			 ref[40], cand[40];
	size_t			 nr = 0, nc = 0, i, looks[8], nlooks = 0;
	int			 attempt = 0, guard = 0;
	char			 err[256];

	(void)state;
	bisect_test_default(&t, 0.9);
	for (;;) {
		assert_true(++guard < 20);
		assert_int_equal(bisect_sample_next(&t, ref, nr, cand, nc,
		    attempt, &d, err, sizeof(err)), 0);
		if (d.action == BISECT_DECIDED)
			break;
		if (d.action == BISECT_REMEASURE) {
			assert_int_equal(attempt, 0);
			assert_int_equal(nr, 20);
			attempt++;
			nr = nc = 0;
			continue;
		}
		assert_int_equal(d.action, BISECT_MEASURE);
		assert_int_equal(d.add_ref, d.add_cand);
		for (i = 0; i < d.add_ref; i++) {
			ref[nr] = 100 + (double)(nr % 7);
			cand[nc] = ref[nr] * 0.9;
			nr++;
			nc++;
		}
		if (attempt == 0)
			looks[nlooks++] = nr;
	}
	assert_int_equal(d.outcome, BISECT_SKIP);
	assert_int_equal(attempt, 1);
	/* the looks of stats_adaptive with the defaults: 3, 5, 10, 20 */
	assert_int_equal(nlooks, 4);
	assert_int_equal(looks[0], 3);
	assert_int_equal(looks[1], 5);
	assert_int_equal(looks[2], 10);
	assert_int_equal(looks[3], 20);

	/* no re-measure allowed: skip at the cap straight away */
	t.remeasures = 0;
	assert_int_equal(bisect_sample_next(&t, ref, 20, cand, 20, 0, &d,
	    err, sizeof(err)), 0);
	assert_int_equal(d.action, BISECT_DECIDED);
	assert_int_equal(d.outcome, BISECT_SKIP);
}

/* Decisions from simulated noisy measurements: how many samples. */
static size_t
sample_loop(struct stats_rng *rng, double effect, double noise,
    double threshold, enum bisect_outcome *out)
{
	struct bisect_test	 t;
	struct bisect_decision	 d;
	double			 ref[40], cand[40];
	size_t			 nr = 0, nc = 0, total = 0, i;
	int			 attempt = 0;
	char			 err[256];

	bisect_test_default(&t, threshold);
	for (;;) {
		assert_int_equal(bisect_sample_next(&t, ref, nr, cand, nc,
		    attempt, &d, err, sizeof(err)), 0);
		if (d.action == BISECT_DECIDED)
			break;
		if (d.action == BISECT_REMEASURE) {
			attempt++;
			nr = nc = 0;
			continue;
		}
		for (i = 0; i < d.add_ref; i++)
			ref[nr++] = 1000 * (1 + noise * stats_rng_normal(rng));
		for (i = 0; i < d.add_cand; i++)
			cand[nc++] = 1000 * (1 - effect) *
			    (1 + noise * stats_rng_normal(rng));
		total += d.add_ref + d.add_cand;
	}
	*out = d.outcome;
	return (total);
}

static void
test_sample_simulated(void **state)
{
	struct stats_rng	 rng;
	enum bisect_outcome	 o;
	size_t			 i, n, wrong = 0, sum = 0;

	(void)state;
	stats_rng_seed(&rng, 7);
	/* collapse: decided bad from 3 samples per side */
	for (i = 0; i < 50; i++) {
		n = sample_loop(&rng, 0.99, 0.03, 0.5, &o);
		assert_int_equal(o, BISECT_BAD);
		assert_int_equal(n, 6);
	}
	/* 18 % at 3 % noise, threshold halfway: right, and cheap */
	for (i = 0; i < 100; i++) {
		sum += sample_loop(&rng, 0.18, 0.03, 0.91, &o);
		wrong += o != BISECT_BAD;
		sum += sample_loop(&rng, 0.0, 0.03, 0.91, &o);
		wrong += o != BISECT_GOOD;
	}
	assert_int_equal(wrong, 0);
	assert_true(sum / 200 <= 20);	/* <= the 10-per-side scheme */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_table),
		cmocka_unit_test(test_judge_errors),
		cmocka_unit_test(test_sample_inconclusive_path),
		cmocka_unit_test(test_sample_simulated),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
