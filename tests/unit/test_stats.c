/*
 * test_stats: every stats function against values worked out
 * independently: textbook tables (t quantiles, Mann-Whitney critical
 * values), closed forms, ministat(1)'s manual page and hand calculations
 * written next to the cases; then synthetic comparisons with known truth.
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

static void
near(double got, double want, double eps, const char *what)
{
	if (isnan(want) && isnan(got))
		return;
	if (!(fabs(got - want) <= eps)) {
		print_error("%s: got %.12g, want %.12g (+/- %g)\n", what, got,
		    want, eps);
		fail();
	}
}

/* Summaries ---------------------------------------------------------- */

struct sum_case {
	const char	*name;
	double		 x[8];
	size_t		 n;
	double		 median, mean, sd, q1, q3, mad;
};

/*
 * Type 7 quartiles by hand: h = (n - 1) p.  {1,2,3,4}: Q1 at h = 0.75 ->
 * 1 + 0.75 = 1.75, Q3 at h = 2.25 -> 3.25.  {2,4,4,4,5,5,7,9}: mean 5,
 * squared deviations 9+1+1+1+0+0+4+16 = 32, s = sqrt(32/7).
 * {1,2,3,4,100}: median 3, |x - 3| = {2,1,0,1,97} -> MAD 1; mean 22,
 * squared deviations 441+400+361+324+6084 = 7610, s = sqrt(1902.5).
 */
static const struct sum_case sum_cases[] = {
	{ "one", { 42 }, 1, 42, 42, NAN, 42, 42, 0 },
	{ "two", { 3, 1 }, 2, 2, 2, M_SQRT2, 1.5, 2.5, 1 },
	{ "three", { 7, 1, 3 }, 3, 3, 11.0 / 3, 3.0550504633, 2, 5, 2 },
	{ "four", { 4, 1, 3, 2 }, 4, 2.5, 2.5, 1.2909944487, 1.75, 3.25, 1 },
	{ "textbook", { 2, 4, 4, 4, 5, 5, 7, 9 }, 8, 4.5, 5, 2.1380899353,
	    4, 5.5, 0.5 },
	{ "outlier", { 1, 2, 3, 4, 100 }, 5, 3, 22, 43.6176569751, 2, 4, 1 },
	{ "identical", { 5, 5, 5, 5 }, 4, 5, 5, 0, 5, 5, 0 },
	/* 1e15 + {0, 2, 4}: deviations -2, 0, 2 -> s = 2, exact. */
	{ "huge", { 1e15, 1e15 + 2, 1e15 + 4 }, 3, 1e15 + 2, 1e15 + 2, 2,
	    1e15 + 1, 1e15 + 3, 2 },
};

static void
test_summaries(void **state)
{
	const struct sum_case	*c;
	struct stats_summary	 sm;
	double			 copy[8];
	size_t			 i;

	(void)state;
	for (i = 0; i < N(sum_cases); i++) {
		c = &sum_cases[i];
		memcpy(copy, c->x, sizeof copy);
		near(stats_median(c->x, c->n), c->median, 1e-9, c->name);
		near(stats_mean(c->x, c->n), c->mean, 1e-9, c->name);
		near(stats_stddev(c->x, c->n), c->sd, 1e-9, c->name);
		near(stats_quantile(c->x, c->n, 0.25), c->q1, 1e-9, c->name);
		near(stats_quantile(c->x, c->n, 0.75), c->q3, 1e-9, c->name);
		near(stats_iqr(c->x, c->n), c->q3 - c->q1, 1e-9, c->name);
		near(stats_mad(c->x, c->n), c->mad, 1e-9, c->name);
		assert_int_equal(stats_summarize(c->x, c->n, &sm, NULL, 0), 0);
		near(sm.min, stats_quantile(c->x, c->n, 0), 0, c->name);
		near(sm.max, stats_quantile(c->x, c->n, 1), 0, c->name);
		near(sm.median, c->median, 1e-9, c->name);
		/* The caller's array is never reordered. */
		assert_memory_equal(copy, c->x, sizeof copy);
	}
}

static void
test_rejects(void **state)
{
	double			 bad[] = { 1, NAN, 3 }, inf[] = { 1, INFINITY };
	double			 ok[] = { 1, 2, 3 }, neg[] = { 1, -2, 3 };
	struct stats_params	 p;
	struct stats_verdict	 v;
	struct stats_mwu	 mw;
	struct stats_ttest	 t;
	char			 err[128];
	double			 lo, hi;

	(void)state;
	assert_true(isnan(stats_median(bad, 3)));
	assert_true(isnan(stats_mean(NULL, 0)));
	assert_true(isnan(stats_stddev(inf, 2)));
	assert_true(isnan(stats_quantile(ok, 3, 1.5)));
	assert_true(isnan(stats_iqr(ok, 0)));
	assert_int_equal(stats_check(bad, 3, err, sizeof err), -1);
	assert_string_equal(err, "sample value 1 is NaN");
	assert_int_equal(stats_check(ok, 0, err, sizeof err), -1);
	assert_string_equal(err, "empty sample");
	assert_int_equal(stats_mwu(ok, 3, bad, 3, &mw, NULL, 0), -1);
	assert_int_equal(stats_mwu(ok, 3, ok, 0, &mw, NULL, 0), -1);
	assert_int_equal(stats_ttest(ok, 1, ok, 3, 95, &t, err, sizeof err),
	    -1);
	assert_int_equal(stats_ttest(ok, 3, ok, 3, 100, &t, NULL, 0), -1);
	stats_params_default(&p);
	assert_int_equal(stats_verdict(ok, 3, inf, 2, &p, &v, NULL, 0), -1);
	assert_int_equal(stats_verdict(ok, 3, neg, 3, &p, &v, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "negative"));
	assert_int_equal(stats_bootstrap_ratio(ok, 3, ok, 0, 1000, 0.05, 1,
	    &lo, &hi, NULL, 0), -1);
	p.alpha = 0;
	assert_int_equal(stats_verdict(ok, 3, ok, 3, &p, &v, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "alpha"));
	stats_params_default(&p);
	p.max_samples = 2;
	assert_int_equal(stats_params_check(&p, NULL, 0), -1);
}

/* Distributions ------------------------------------------------------ */

static void
test_betainc(void **state)
{
	double	x;

	(void)state;
	/* Closed forms: I_x(1,1) = x, I_x(a,1) = x^a, I_x(1,b) = 1-(1-x)^b,
	 * I_.5(a,a) = 1/2 by symmetry. */
	for (x = 0.05; x < 1; x += 0.1) {
		near(stats_betainc(1, 1, x), x, 1e-12, "I(1,1)");
		near(stats_betainc(3, 1, x), x * x * x, 1e-12, "I(3,1)");
		near(stats_betainc(1, 4, x), 1 - pow(1 - x, 4), 1e-12,
		    "I(1,4)");
	}
	near(stats_betainc(7.5, 7.5, 0.5), 0.5, 1e-12, "I(a,a)");
	near(stats_betainc(250, 250, 0.5), 0.5, 1e-10, "I(250,250)");
	assert_true(isnan(stats_betainc(-1, 1, 0.5)));
}

static void
test_t_cdf(void **state)
{
	double	t;

	(void)state;
	/* df 1 is Cauchy: 1/2 + atan(t)/pi; df 2: 1/2 + t/(2 sqrt(2+t^2)). */
	for (t = -6; t <= 6; t += 0.75) {
		near(stats_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12, "t1");
		near(stats_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)),
		    1e-12, "t2");
	}
	near(stats_t_cdf(1.959963985, 1e7), 0.975, 1e-6, "t_inf");
	near(stats_normal_cdf(1.959963985), 0.975, 1e-9, "Phi");
}

/* t quantiles from a printed table (3 decimals). */
static const struct {
	double	p, df, t;
} t_table[] = {
	{ 0.975, 1, 12.706 }, { 0.975, 2, 4.303 }, { 0.975, 5, 2.571 },
	{ 0.975, 8, 2.306 }, { 0.975, 10, 2.228 }, { 0.975, 30, 2.042 },
	{ 0.975, 120, 1.980 }, { 0.90, 10, 1.372 }, { 0.95, 10, 1.812 },
	{ 0.99, 10, 2.764 }, { 0.995, 10, 3.169 }, { 0.9975, 10, 3.581 },
	{ 0.95, 5, 2.015 }, { 0.995, 20, 2.845 }, { 0.90, 1, 3.078 },
	{ 0.9975, 1, 127.321 }, { 0.99, 38, 2.429 }, { 0.95, 18, 1.734 },
	{ 0.025, 10, -2.228 },
};

static void
test_t_quantile(void **state)
{
	char	what[64];
	size_t	i;

	(void)state;
	for (i = 0; i < N(t_table); i++) {
		snprintf(what, sizeof what, "t(%g, %g)", t_table[i].p,
		    t_table[i].df);
		near(stats_t_quantile(t_table[i].p, t_table[i].df),
		    t_table[i].t, 0.0005, what);
	}
	/* More digits where they are known: t(.975, 8) = 2.3060041350. */
	near(stats_t_quantile(0.975, 8), 2.306004135, 1e-8, "t(.975,8)");
	near(stats_t_quantile(0.975, 1e8), 1.959963985, 1e-6, "z");
	near(stats_t_quantile(0.5, 3), 0, 0, "median");
	assert_true(isnan(stats_t_quantile(1, 3)));
}

/* Mann-Whitney ------------------------------------------------------- */

/*
 * Critical values of U, two-sided alpha = 0.05, from the printed table
 * (reject when U <= cv): the exact p of cv must be <= 0.05 and that of
 * cv + 1 above.  Exact p-values from a brute-force count of all C(m+n, m)
 * rank sets (3v3 separated: 2/20 = 0.1; 4v4: 2/70; 5v5: 2/252).
 */
static const struct {
	size_t	m, n;
	double	cv, p_cv, p_next;
} mwu_table[] = {
	{ 4, 4, 0, 0.0285714, 0.0571429 },
	{ 5, 5, 2, 0.031746, 0.0555556 },
	{ 6, 6, 5, 0.0411255, 0.0649351 },
	{ 7, 7, 8, 0.0378788, 0.0530303 },
	{ 8, 8, 13, 0.0498834, 0.0649573 },
	{ 9, 9, 17, 0.0399835, 0.0503085 },
	{ 10, 10, 23, 0.0432571, 0.0524259 },
	{ 15, 15, 64, 0.0453339, 0.0502224 },
	{ 20, 20, 127, 0.0490903, 0.0523995 },
	{ 25, 25, 211, 0.0494251, 0.0517771 },
	{ 5, 10, 8, 0.03996, 0.0552781 },
	{ 4, 8, 4, 0.0484848, 0.0727273 },
	{ 2, 10, 0, 0.030303, 0.0606061 },
	{ 3, 20, 8, 0.0463015, 0.0598532 },
};

static void
test_mwu_exact_table(void **state)
{
	char	what[64];
	size_t	i;
	double	p;

	(void)state;
	for (i = 0; i < N(mwu_table); i++) {
		snprintf(what, sizeof what, "U %zu v %zu", mwu_table[i].m,
		    mwu_table[i].n);
		p = stats_mwu_exact_p(mwu_table[i].m, mwu_table[i].n,
		    mwu_table[i].cv);
		near(p, mwu_table[i].p_cv, 1e-6, what);
		assert_true(p <= 0.05);
		p = stats_mwu_exact_p(mwu_table[i].m, mwu_table[i].n,
		    mwu_table[i].cv + 1);
		near(p, mwu_table[i].p_next, 1e-6, what);
		assert_true(p > 0.05);
		/* Symmetry in U and in the sample sizes. */
		near(stats_mwu_exact_p(mwu_table[i].n, mwu_table[i].m,
		    (double)(mwu_table[i].m * mwu_table[i].n) -
		    mwu_table[i].cv), stats_mwu_exact_p(mwu_table[i].m,
		    mwu_table[i].n, mwu_table[i].cv), 1e-15, what);
	}
	near(stats_mwu_exact_p(3, 3, 0), 0.1, 1e-12, "3v3");
	near(stats_mwu_exact_p(1, 1, 0), 1, 0, "1v1");
	near(stats_mwu_exact_p(5, 5, 12.5), 1, 0, "middle");
	assert_true(isnan(stats_mwu_exact_p(30, 30, 3)));
}

static void
test_mwu_samples(void **state)
{
	double			a3[] = { 1, 2, 3 }, b3[] = { 10, 20, 30 };
	double			ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 4, 5 };
	double			same[] = { 7, 7, 7, 7, 7 };
	double			one[] = { 5 }, big[60];
	struct stats_mwu	r;
	size_t			i;

	(void)state;
	/* Separated 3 v 3: U_a = 0, exact p = 0.1. */
	assert_int_equal(stats_mwu(a3, 3, b3, 3, &r, NULL, 0), 0);
	assert_true(r.exact);
	near(r.u, 0, 0, "u");
	near(r.p, 0.1, 1e-12, "p");
	assert_int_equal(stats_mwu(b3, 3, a3, 3, &r, NULL, 0), 0);
	near(r.u, 9, 0, "u swapped");
	/*
	 * Ties, by hand.  Sorted: 1a 2a 2a 2b 3a 3b 4b 5b; mid-ranks 1, 3,
	 * 3, 3, 5.5, 5.5, 7, 8; R_a = 1+3+3+5.5 = 12.5, U_a = 12.5 - 10 =
	 * 2.5.  mu = 8; ties: (27-3) + (8-2) = 30; var = 16/12 (9 - 30/56) =
	 * 11.2857142857; z = -(5.5 - 0.5)/sqrt(var) = -1.48835139;
	 * p = erfc(1.48835139/sqrt 2) = 0.136658248.
	 */
	assert_int_equal(stats_mwu(ta, 4, tb, 4, &r, NULL, 0), 0);
	assert_false(r.exact);
	near(r.u, 2.5, 0, "tie u");
	near(r.z, -1.4883513945, 1e-9, "tie z");
	near(r.p, 0.1366582477, 1e-9, "tie p");
	/* Identical samples: zero variance, no evidence at all. */
	assert_int_equal(stats_mwu(same, 5, same, 5, &r, NULL, 0), 0);
	near(r.p, 1, 0, "same");
	near(r.z, 0, 0, "same z");
	assert_int_equal(stats_mwu(one, 1, one, 1, &r, NULL, 0), 0);
	near(r.p, 1, 0, "1v1 tie");
	/*
	 * Beyond the exact range: 30 v 30 separated, no ties.  U = 0,
	 * mu = 450, var = 900 * 61 / 12 = 4575, z = -449.5/67.6387 =
	 * -6.64560; p = erfc(6.64560 / sqrt 2) = 3.0196e-11.
	 */
	for (i = 0; i < 60; i++)
		big[i] = 1e15 + (double)i;	/* huge values */
	assert_int_equal(stats_mwu(big, 30, big + 30, 30, &r, NULL, 0), 0);
	assert_false(r.exact);
	near(r.z, -449.5 / sqrt(4575), 1e-9, "big z");
	near(r.p, erfc(449.5 / sqrt(4575) / M_SQRT2), 1e-20, "big p");
	assert_true(r.p < 1e-10);
}

/* Student's t / ministat ------------------------------------------------ */

static void
test_ttest(void **state)
{
	double			a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	struct stats_ttest	t;
	size_t			i;

	(void)state;
	/*
	 * Means 3 and 8, variances 2.5 each: pooled s = sqrt(2.5) =
	 * 1.58113883; e = t(.975, 8) s sqrt(1/5 + 1/5) = 2.306004135 * 1;
	 * relative: 5/3 = 166.667 %, 2.306004135/3 = 76.8668 %.
	 */
	assert_int_equal(stats_ttest(a, 5, b, 5, 95, &t, NULL, 0), 0);
	assert_int_equal(t.df, 8);
	near(t.pooled_s, 1.5811388301, 1e-9, "s");
	near(t.diff, 5, 1e-12, "d");
	near(t.err, 2.306004135, 1e-8, "e");
	near(t.rel_diff, 500.0 / 3, 1e-9, "rel d");
	near(t.rel_err, 76.8668045, 1e-6, "rel e");
	assert_true(t.significant);
	/* The other levels scale e by their own t(., 8). */
	for (i = 0; i < 6; i++) {
		assert_int_equal(stats_ttest(a, 5, b, 5, stats_ttest_levels[i],
		    &t, NULL, 0), 0);
		near(t.err, t.t, 1e-9, "levels");
	}
	/* 99.5 %: t(.9975, 8) = 3.833 (table) < 5: still significant. */
	near(t.t, 3.833, 0.0005, "t(.9975,8)");
	assert_true(t.significant);
}

static void
test_ministat(void **state)
{
	/* ministat(1)'s manual page example. */
	double	iguana[] = { 50, 200, 150, 400, 750, 400, 150 };
	double	chameleon[] = { 150, 400, 720, 500, 930 };
	double	a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	char	out[1024], small[16];
	int	n;

	(void)state;
	n = stats_ministat_format(iguana, 7, "iguana", chameleon, 5,
	    "chameleon", 95, out, sizeof out, NULL, 0);
	assert_true(n > 0 && (size_t)n < sizeof out);
	assert_string_equal(out,
	    "x iguana\n"
	    "+ chameleon\n"
	    "    N           Min           Max        Median           Avg"
	    "        Stddev\n"
	    "x   7            50           750           200           300"
	    "     238.04761\n"
	    "+   5           150           930           500           540"
	    "     299.08193\n"
	    "No difference proven at 95.0% confidence\n");
	n = stats_ministat_format(a, 5, NULL, b, 5, NULL, 95, out,
	    sizeof out, NULL, 0);
	assert_non_null(strstr(out, "Difference at 95.0% confidence\n"
	    "\t5 +/- 2.306\n"
	    "\t166.667% +/- 76.8668%\n"
	    "\t(Student's t, pooled s = 1.58114)\n"));
	/* Truncation is reported like snprintf, never overflows. */
	assert_int_equal(stats_ministat_format(a, 5, NULL, b, 5, NULL, 95,
	    small, sizeof small, NULL, 0), n);
	assert_int_equal(strlen(small), sizeof small - 1);
	n = stats_ministat_plot(a, 5, b, 5, 24, out, sizeof out, NULL, 0);
	assert_true(n > 0);
	/*
	 * 22 columns over [1, 10]: v at round((v - 1) / 9 * 21), so 1..10
	 * land on 0 2 5 7 9 12 14 16 19 21.  a: mean 3 (col 5, over M),
	 * sd 1.5811: 1.419 -> col 1, 4.581 -> col 8; b: cols 13 and 20.
	 */
	assert_string_equal(out,
	    "+----------------------+\n"
	    "|x x  x x x  + + +  + +|\n"
	    "| |___A__|             |\n"
	    "|             |__A___| |\n"
	    "+----------------------+\n");
}

/* Bootstrap ----------------------------------------------------------- */

static void
test_bootstrap(void **state)
{
	double	a[] = { 100, 102, 98, 101, 99, 103, 97 };
	double	b[] = { 80, 82, 79, 81, 78, 83 };
	double	c10[] = { 10, 10, 10 }, c20[] = { 20, 20, 20, 20 };
	double	z[] = { 0, 0, 0 };
	double	lo, hi, lo2, hi2;

	(void)state;
	assert_int_equal(stats_bootstrap_ratio(a, 7, b, 6, 2000, 0.05, 42,
	    &lo, &hi, NULL, 0), 0);
	/* Ratio of medians 80.5/100; resampled medians stay within the
	 * samples' ranges: [78/103, 83/97]. */
	assert_true(lo <= 0.805 && 0.805 <= hi);
	assert_true(lo >= 78.0 / 103 && hi <= 83.0 / 97);
	assert_int_equal(stats_bootstrap_ratio(a, 7, b, 6, 2000, 0.05, 42,
	    &lo2, &hi2, NULL, 0), 0);
	near(lo2, lo, 0, "reproducible");
	near(hi2, hi, 0, "reproducible");
	/* Constant samples: every resample gives exactly 2. */
	assert_int_equal(stats_bootstrap_ratio(c10, 3, c20, 4, 500, 0.05, 1,
	    &lo, &hi, NULL, 0), 0);
	near(lo, 2, 0, "const lo");
	near(hi, 2, 0, "const hi");
	/* Zero medians: 0/0 is 1, x/0 unbounded. */
	assert_int_equal(stats_bootstrap_ratio(z, 3, z, 3, 500, 0.05, 1,
	    &lo, &hi, NULL, 0), 0);
	near(lo, 1, 0, "0/0");
	assert_int_equal(stats_bootstrap_ratio(z, 3, c10, 3, 500, 0.05, 1,
	    &lo, &hi, NULL, 0), 0);
	assert_true(isinf(lo) && isinf(hi));
}

static void
test_rng(void **state)
{
	struct stats_rng	r1, r2;
	double			sum = 0, sq = 0, x;
	int			i, hist[10] = { 0 };

	(void)state;
	stats_rng_seed(&r1, 7);
	stats_rng_seed(&r2, 7);
	for (i = 0; i < 100; i++)
		assert_true(stats_rng_next(&r1) == stats_rng_next(&r2));
	for (i = 0; i < 100000; i++) {
		hist[stats_rng_below(&r1, 10)]++;
		x = stats_rng_normal(&r1);
		sum += x;
		sq += x * x;
	}
	/* Binomial sd of a bucket: sqrt(1e5 * .1 * .9) = 95; allow 5 sd. */
	for (i = 0; i < 10; i++)
		assert_in_range(hist[i], 10000 - 475, 10000 + 475);
	near(sum / 100000, 0, 0.02, "normal mean");
	near(sq / 100000, 1, 0.03, "normal var");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summaries),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_betainc),
		cmocka_unit_test(test_t_cdf),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_mwu_exact_table),
		cmocka_unit_test(test_mwu_samples),
		cmocka_unit_test(test_ttest),
		cmocka_unit_test(test_ministat),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_rng),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
