/*
 * test_stats_verdict: the four-way verdict and adaptive sampling, on fixed
 * tables worked out by hand and on seeded synthetic comparisons with known
 * truth (relative Gaussian noise around a true value).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stats.h"

#define N(x)	(sizeof(x) / sizeof((x)[0]))

/* x[i] = base (1 + noise Z), Z standard normal, clamped at 0. */
static void
gen(struct stats_rng *r, double *x, size_t n, double base, double noise)
{
	size_t	i;

	for (i = 0; i < n; i++)
		x[i] = fmax(0.0, base * (1.0 + noise * stats_rng_normal(r)));
}

struct vcase {
	const char		*name;
	double			 a[12], b[12];
	size_t			 na, nb;
	int			 lower_is_better;
	enum stats_verdict_kind	 want;
	int			 collapse;
};

/*
 * By hand: with n = 10 per side and no overlap, U is 0 or 100 and the exact
 * p is 2 / C(20, 10) = 1.08e-5; with 3 per side no p-value can go below
 * 2 / C(6, 3) = 0.1, so only the collapse rule decides there.
 */
static const struct vcase vcases[] = {
	{ "identical", { 7, 7, 7, 7, 7 }, { 7, 7, 7, 7, 7 }, 5, 5, 0,
	    STATS_NO_CHANGE, 0 },
	/* Medians 1000 and 10: ratio 0.01, disjoint, 3 per side. */
	{ "collapse 100x", { 1000, 1010, 990 }, { 10, 11, 9 }, 3, 3, 0,
	    STATS_REGRESSION, 1 },
	{ "collapse, lower is better", { 1000, 1010, 990 }, { 10, 11, 9 },
	    3, 3, 1, STATS_IMPROVEMENT, 1 },
	{ "collapse upward", { 10, 11, 9 }, { 1000, 1010, 990 }, 3, 3, 0,
	    STATS_IMPROVEMENT, 1 },
	/* Ratio 0.25 is not beyond 1/5, and 3 < min_samples. */
	{ "4x at n=3", { 40, 41, 39 }, { 10, 11, 9 }, 3, 3, 0,
	    STATS_INCONCLUSIVE, 0 },
	/* 100x apart in the medians, but a's 5 lies below b: overlap. */
	{ "overlap", { 1000, 5, 1010 }, { 10, 11, 9 }, 3, 3, 0,
	    STATS_INCONCLUSIVE, 0 },
	{ "collapse needs 3", { 1000, 1010 }, { 10, 11 }, 2, 2, 0,
	    STATS_INCONCLUSIVE, 0 },
	{ "one each", { 1000 }, { 900 }, 1, 1, 0, STATS_INCONCLUSIVE, 0 },
	/* 18 % lower, disjoint, n = 10 (ties within a side: normal
	 * approximation, p ~ 1.8e-4), effect -0.18. */
	{ "18% regression", { 1000, 1003, 997, 1005, 995, 1001, 999, 1002,
	    998, 1000 }, { 820, 823, 817, 825, 815, 821, 819, 822, 818,
	    820 }, 10, 10, 0, STATS_REGRESSION, 0 },
	{ "18% lower latency", { 1000, 1003, 997, 1005, 995, 1001, 999,
	    1002, 998, 1000 }, { 820, 823, 817, 825, 815, 821, 819, 822,
	    818, 820 }, 10, 10, 1, STATS_IMPROVEMENT, 0 },
	/* Significant (disjoint) but only +1 %: the ratio's interval lies
	 * in [1.004, 1.016] < 1.03, so "no change" is earned. */
	{ "significant but tiny", { 1000, 1001, 1002, 1003, 1004, 1005,
	    1006, 1007, 1008, 1009 }, { 1010, 1011, 1012, 1013, 1014, 1015,
	    1016, 1017, 1018, 1019 }, 10, 10, 0, STATS_NO_CHANGE, 0 },
	/* Medians 1000 vs 950 (-5 %) but b = a - 50 overlaps widely: U_a =
	 * 1+2+3+4+5 = 15, exact p = 2 P(U <= 10) = 0.690: neither a
	 * regression nor provably no change. */
	{ "noisy", { 900, 1100, 1000, 800, 1200 }, { 850, 1050, 950, 750,
	    1150 }, 5, 5, 0, STATS_INCONCLUSIVE, 0 },
	{ "huge values", { 1e15, 1.001e15, 0.999e15, 1.002e15, 0.998e15 },
	    { 0.8e15, 0.801e15, 0.799e15, 0.802e15, 0.798e15 }, 5, 5, 0,
	    STATS_REGRESSION, 0 },
	/* CPU of the sender, % busy: 40 -> 18 is a 55 % drop, an
	 * improvement when lower is better (a regression of throughput);
	 * 18 -> 40 is the rise, the regression. */
	{ "CPU 55% drop", { 40, 40.4, 39.6, 40.2, 39.8 }, { 18, 18.2, 17.8,
	    18.1, 17.9 }, 5, 5, 1, STATS_IMPROVEMENT, 0 },
	{ "CPU 55% drop, read as throughput", { 40, 40.4, 39.6, 40.2, 39.8 },
	    { 18, 18.2, 17.8, 18.1, 17.9 }, 5, 5, 0, STATS_REGRESSION, 0 },
	{ "CPU 55% rise", { 18, 18.2, 17.8, 18.1, 17.9 }, { 27.9, 28.2, 27.6,
	    28.1, 27.7 }, 5, 5, 1, STATS_REGRESSION, 0 },
	/* A zero baseline: ratio +inf, disjoint, a collapse upwards. */
	{ "from zero", { 0, 0, 0 }, { 5, 6, 5 }, 3, 3, 0, STATS_IMPROVEMENT,
	    1 },
};

static void
test_verdict_table(void **state)
{
	const struct vcase	*c;
	struct stats_params	 p;
	struct stats_verdict	 v;
	char			 err[128];
	size_t			 i;

	(void)state;
	for (i = 0; i < N(vcases); i++) {
		c = &vcases[i];
		stats_params_default(&p);
		p.lower_is_better = c->lower_is_better;
		assert_int_equal(stats_verdict(c->a, c->na, c->b, c->nb, &p,
		    &v, err, sizeof err), 0);
		if (v.verdict != c->want || v.collapse != c->collapse) {
			print_error("%s: got %s (collapse %d, ratio %g, p %g, "
			    "ci %g..%g, eq %g..%g)\n", c->name,
			    stats_verdict_name(v.verdict), v.collapse, v.ratio,
			    v.p, v.ci_low, v.ci_high, v.eq_low, v.eq_high);
			fail();
		}
		assert_int_equal(v.n_a, c->na);
		assert_int_equal(v.n_b, c->nb);
	}
	assert_string_equal(stats_verdict_name(STATS_NO_CHANGE), "no change");
	assert_string_equal(stats_verdict_name(STATS_INCONCLUSIVE),
	    "inconclusive");
}

static void
test_verdict_fields(void **state)
{
	/* Tie-free, so the exact p applies: 996..1005 and 816..825. */
	double			a[10], b[10];
	struct stats_params	p;
	struct stats_verdict	v, w;
	size_t			i;

	(void)state;
	for (i = 0; i < 10; i++) {
		a[i] = 1005.0 - (double)i;
		b[i] = 816.0 + (double)((i * 3) % 10);
	}
	stats_params_default(&p);
	assert_int_equal(stats_verdict(a, 10, b, 10, &p, &v, NULL, 0), 0);
	assert_int_equal(v.verdict, STATS_REGRESSION);
	assert_false(v.collapse);
	/* Medians 1000.5 and 820.5 by hand; disjoint: U = 100, p = 2 /
	 * C(20, 10) = 2 / 184756. */
	assert_true(fabs(v.median_a - 1000.5) < 1e-12);
	assert_true(fabs(v.median_b - 820.5) < 1e-12);
	assert_true(fabs(v.ratio - 820.5 / 1000.5) < 1e-12);
	assert_true(fabs(v.effect - (820.5 / 1000.5 - 1)) < 1e-12);
	assert_true(fabs(v.u - 100) < 1e-12);
	assert_true(fabs(v.p - 2.0 / 184756) < 1e-15);
	assert_true(v.ci_low <= v.ratio && v.ratio <= v.ci_high);
	assert_true(v.ci_low <= v.eq_low && v.eq_high <= v.ci_high);
	/* Resampled medians stay within each sample's range. */
	assert_true(v.ci_low >= 816.0 / 1005 && v.ci_high <= 825.0 / 996);
	/* Reproducible: same seed, same interval. */
	assert_int_equal(stats_verdict(a, 10, b, 10, &p, &w, NULL, 0), 0);
	assert_memory_equal(&v, &w, sizeof v);
}

/*
 * No difference, 3 % noise, n = 10 v 10, 1000 seeded comparisons.  A
 * false alarm needs Mann-Whitney p < 0.05, whose exact size at 10 v 10 is
 * P(p <= 0.05) = 0.0433 (critical U = 23); the count is then Binomial
 * (1000, <= 0.0433): mean <= 43.3, sd 6.4, so more than 43.3 + 4 sd = 69
 * would mean the test is broken.  The min_effect gate removes most of
 * these in practice.
 */
static void
test_false_alarms(void **state)
{
	struct stats_params	p;
	struct stats_verdict	v;
	struct stats_rng	r;
	double			a[10], b[10];
	int			i, alarms = 0, same = 0;

	(void)state;
	stats_params_default(&p);
	stats_rng_seed(&r, 2026);
	for (i = 0; i < 1000; i++) {
		gen(&r, a, 10, 1000, 0.03);
		gen(&r, b, 10, 1000, 0.03);
		assert_int_equal(stats_verdict(a, 10, b, 10, &p, &v, NULL, 0),
		    0);
		alarms += v.verdict == STATS_REGRESSION ||
		    v.verdict == STATS_IMPROVEMENT;
		same += v.verdict == STATS_NO_CHANGE;
	}
	print_message("3%% noise, no effect, n=10: %d/1000 false alarms, "
	    "%d no change\n", alarms, same);
	assert_true(alarms <= 69);
}

/* 18 % lower at 3 % noise, n = 10: ~6 sigma apart; >= 99 % of 500. */
static void
test_detect_18(void **state)
{
	struct stats_params	p;
	struct stats_verdict	v;
	struct stats_rng	r;
	double			a[10], b[10];
	int			i, hits = 0;

	(void)state;
	stats_params_default(&p);
	stats_rng_seed(&r, 18);
	for (i = 0; i < 500; i++) {
		gen(&r, a, 10, 1000, 0.03);
		gen(&r, b, 10, 820, 0.03);
		assert_int_equal(stats_verdict(a, 10, b, 10, &p, &v, NULL, 0),
		    0);
		hits += v.verdict == STATS_REGRESSION;
	}
	print_message("18%% effect, 3%% noise, n=10: %d/500 detected\n",
	    hits);
	assert_true(hits >= 495);
}

/* 100x slower at 3 % noise: decided by the collapse rule from 3 + 3. */
static void
test_collapse_3(void **state)
{
	struct stats_params	p;
	struct stats_verdict	v;
	struct stats_rng	r;
	double			a[3], b[3];
	size_t			add_a, add_b;
	int			i;

	(void)state;
	stats_params_default(&p);
	stats_rng_seed(&r, 100);
	for (i = 0; i < 200; i++) {
		gen(&r, a, 3, 940, 0.03);
		gen(&r, b, 3, 9.4, 0.03);
		assert_int_equal(stats_adaptive(a, 3, b, 3, &p, &v, &add_a,
		    &add_b, NULL, 0), 0);
		assert_int_equal(v.verdict, STATS_REGRESSION);
		assert_true(v.collapse);
		assert_int_equal(add_a + add_b, 0);
	}
}

static void
test_adaptive_schedule(void **state)
{
	static const struct {
		size_t	na, nb, add_a, add_b;
	} steps[] = {
		{ 0, 0, 3, 3 }, { 1, 2, 2, 1 }, { 3, 3, 2, 2 }, { 5, 5, 5, 5 },
		{ 7, 5, 3, 5 }, { 10, 10, 10, 10 }, { 19, 20, 1, 0 },
		{ 20, 20, 0, 0 }, { 25, 20, 0, 0 },
	};
	/* Overlapping noise, never decidable: 1, 2, 3 ... vs 1.5, 2.5 ... */
	double			a[25], b[25];
	struct stats_params	p;
	struct stats_verdict	v;
	size_t			i, add_a, add_b;

	(void)state;
	for (i = 0; i < 25; i++) {
		a[i] = 100.0 + (double)(i % 7) * 10.0;
		b[i] = 95.0 + (double)(i % 5) * 12.0;
	}
	stats_params_default(&p);
	/* Looks at 5, 10 and 20 test: Bonferroni 0.05 / 3. */
	assert_true(fabs(stats_adaptive_alpha(&p) - 0.05 / 3) < 1e-15);
	for (i = 0; i < N(steps); i++) {
		assert_int_equal(stats_adaptive(a, steps[i].na, b, steps[i].nb,
		    &p, &v, &add_a, &add_b, NULL, 0), 0);
		assert_int_equal(v.verdict, STATS_INCONCLUSIVE);
		if (add_a != steps[i].add_a || add_b != steps[i].add_b) {
			print_error("step %zu/%zu: add %zu/%zu, want %zu/%zu\n",
			    steps[i].na, steps[i].nb, add_a, add_b,
			    steps[i].add_a, steps[i].add_b);
			fail();
		}
	}
	p.min_samples = 4;
	p.max_samples = 40;	/* looks 4, 8, 16, 32, 40 */
	assert_true(fabs(stats_adaptive_alpha(&p) - 0.01) < 1e-15);
}

/* Runs the adaptive scheme to its end; returns the verdict. */
static enum stats_verdict_kind
adaptive_run(struct stats_rng *r, double base_b, double noise,
    const struct stats_params *p, size_t *used)
{
	double			a[20], b[20];
	struct stats_verdict	v;
	size_t			na = 0, nb = 0, add_a, add_b;

	for (;;) {
		assert_int_equal(stats_adaptive(a, na, b, nb, p, &v, &add_a,
		    &add_b, NULL, 0), 0);
		if (add_a + add_b == 0)
			break;
		assert_true(na + add_a <= 20 && nb + add_b <= 20);
		gen(r, a + na, add_a, 1000, noise);
		gen(r, b + nb, add_b, base_b, noise);
		na += add_a;
		nb += add_b;
	}
	*used = na + nb;
	return v.verdict;
}

/*
 * Adaptive, no effect, 5 % noise (the min_effect gate helps least there):
 * Bonferroni over the three testing looks bounds the false-alarm rate by
 * 0.05, so over 200 runs the count is <= Binomial(200, 0.05): mean 10,
 * sd 3.1; more than 10 + 4 sd = 22 means the scheme leaks.
 */
static void
test_adaptive_runs(void **state)
{
	struct stats_params	p;
	struct stats_rng	r;
	enum stats_verdict_kind	k;
	size_t			used;
	int			i, alarms = 0, hits = 0;

	(void)state;
	stats_params_default(&p);
	stats_rng_seed(&r, 5);
	for (i = 0; i < 200; i++) {
		k = adaptive_run(&r, 1000, 0.05, &p, &used);
		alarms += k == STATS_REGRESSION || k == STATS_IMPROVEMENT;
	}
	print_message("adaptive, 5%% noise, no effect: %d/200 false alarms\n",
	    alarms);
	assert_true(alarms <= 22);
	/* 18 % at 3 % noise: decided at the first look, 5 per side. */
	for (i = 0; i < 100; i++) {
		k = adaptive_run(&r, 820, 0.03, &p, &used);
		hits += k == STATS_REGRESSION && used == 10;
	}
	assert_true(hits >= 99);
}

/* The metric table: every name the executor stores has a direction. */
static void
test_metric_table(void **state)
{
	static const struct {
		const char	*name;
		int		 lower;
		const char	*host;
	} known[] = {
		{ "throughput_bps", 0, NULL }, { "bytes", 0, NULL },
		{ "seconds", 1, NULL }, { "retransmits", 1, "sender" },
		{ "tx_errors", 1, "sender" }, { "window_granted", 0, "sender" },
		{ "window_requested", 0, "sender" },
		{ "cpu_sender", 1, "sender" }, { "cpu_sender_user", 1, "sender" },
		{ "cpu_sender_sys", 1, "sender" },
		{ "cpu_sender_idle", 0, "sender" },
		{ "cpu_sender_natd", 1, "sender" },
		/* stored before the names said the host */
		{ "cpu_sys", 1, "sender" }, { "cpu_idle", 0, "sender" },
		{ "cpu_natd", 1, "sender" },
	};
	const struct stats_metric	*m;
	char				 err[256];
	size_t				 i;
	int				 lower;

	(void)state;
	for (i = 0; i < N(known); i++) {
		m = stats_metric_find(known[i].name);
		if (m == NULL)
			fail_msg("%s: not in the table", known[i].name);
		if (m->lower_is_better != known[i].lower)
			fail_msg("%s: %s", known[i].name,
			    stats_direction_name(m->lower_is_better));
		if (known[i].host == NULL)
			assert_null(m->host);
		else
			assert_string_equal(m->host, known[i].host);
		assert_non_null(m->what);
		assert_int_equal(stats_metric_direction(known[i].name, -1,
		    &lower, err, sizeof err), 0);
		assert_int_equal(lower, known[i].lower);
	}
	/* An exact name wins over a prefix, the longest prefix over a
	 * shorter one. */
	assert_string_equal(stats_metric_find("cpu_sender_idle")->name,
	    "cpu_sender_idle");
	assert_string_equal(stats_metric_find("cpu_sender_natd")->name,
	    "cpu_sender_");
	assert_string_equal(stats_metric_find("cpu_natd")->name, "cpu_");
	assert_null(stats_metric_find("cpu_"));
	assert_null(stats_metric_find("latency_us"));
	assert_null(stats_metric_find(""));
	assert_null(stats_metric_find("throughput_bps_x"));
	/* Declared directions win; an unknown one must be declared. */
	assert_int_equal(stats_metric_direction("latency_us", 1, &lower, err,
	    sizeof err), 0);
	assert_int_equal(lower, 1);
	assert_int_equal(stats_metric_direction("cpu_sender", 0, &lower, err,
	    sizeof err), 0);
	assert_int_equal(lower, 0);
	assert_int_equal(stats_metric_direction("latency_us", -1, &lower, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "metric latency_us: direction unknown"));
	assert_non_null(strstr(err, "lower_is_better"));
	assert_string_equal(stats_direction_name(1), "lower is better");
	assert_string_equal(stats_direction_name(0), "higher is better");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_table),
		cmocka_unit_test(test_metric_table),
		cmocka_unit_test(test_verdict_fields),
		cmocka_unit_test(test_false_alarms),
		cmocka_unit_test(test_detect_18),
		cmocka_unit_test(test_collapse_3),
		cmocka_unit_test(test_adaptive_schedule),
		cmocka_unit_test(test_adaptive_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
