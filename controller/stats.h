/*
 * stats: pure statistics for turning repeated measurements into verdicts.
 * Summaries (median, mean, sample standard deviation, quartiles, MAD),
 * Mann-Whitney U, Student's t as FreeBSD's ministat(1) does it, a bootstrap
 * confidence interval for the ratio of medians, the four-way verdict
 * (regression / improvement / no change / inconclusive), the adaptive
 * sampling rule built on it, and the table of metrics with their
 * directions (which side of a change is the regression).
 *
 * No I/O, no global state: every function works on the caller's arrays,
 * which it never reorders (copies are sorted), and allocates only
 * temporaries it frees before returning.  Functions that can fail return 0
 * or -1 and explain in err (which may be NULL).  NaN, infinities and empty
 * samples are rejected.
 */
#ifndef LABRAT_STATS_H
#define LABRAT_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Seeded PRNG (xoshiro256**, seeded through splitmix64): reproducible. */
struct stats_rng {
	uint64_t	s[4];
};

void		stats_rng_seed(struct stats_rng *, uint64_t seed);
uint64_t	stats_rng_next(struct stats_rng *);
/* Uniform in [0, 1), 53 bits. */
double		stats_rng_uniform(struct stats_rng *);
/* Uniform integer in [0, n), unbiased; n > 0. */
uint64_t	stats_rng_below(struct stats_rng *, uint64_t n);
/* Standard normal deviate (Box-Muller). */
double		stats_rng_normal(struct stats_rng *);

/*
 * Checks that x[0..n) is non-empty, at most STATS_MAX_SAMPLES long and
 * finite.  0 or -1 with the reason ("empty sample", "sample value 3 is
 * NaN") in err.
 */
#define STATS_MAX_SAMPLES	10000000
int	stats_check(const double *x, size_t n, char *err, size_t errlen);

/*
 * Summaries.  Each returns NAN for an empty sample or one holding NaN or an
 * infinity; stats_stddev also for n < 2 (it is the sample standard
 * deviation, divisor n - 1).
 */
double	stats_mean(const double *x, size_t n);
double	stats_stddev(const double *x, size_t n);
double	stats_median(const double *x, size_t n);
/*
 * Quantile p in [0, 1], Hyndman-Fan type 7 (R's and NumPy's default):
 * linear interpolation between order statistics x(1) <= ... <= x(n) at
 * h = (n - 1) p, i.e. q = x(floor h + 1) + (h - floor h)(x(floor h + 2) -
 * x(floor h + 1)).  Quartiles are p = 0.25 and 0.75.
 */
double	stats_quantile(const double *x, size_t n, double p);
/* Q3 - Q1 with the quantiles above. */
double	stats_iqr(const double *x, size_t n);
/*
 * Median absolute deviation from the median, unscaled (multiply by 1.4826
 * for a consistent estimate of sigma under normality).
 */
double	stats_mad(const double *x, size_t n);

struct stats_summary {
	size_t	n;
	double	min, max;
	double	median, mean, stddev;	/* stddev NAN when n < 2 */
	double	q1, q3, iqr, mad;
};

int	stats_summarize(const double *x, size_t n, struct stats_summary *,
	    char *err, size_t errlen);

/*
 * Mann-Whitney U (Wilcoxon rank-sum), two-sided.  u is U for sample a: the
 * number of pairs (a_i, b_j) with a_i > b_j plus half the ties, so u near
 * na * nb means a tends to be larger; z is positive in that case.  Without
 * ties and with na + nb <= STATS_MWU_EXACT_MAX the p-value is exact (the
 * null distribution of U counted by dynamic programming); otherwise it is
 * the normal approximation with tie and continuity correction.  Identical
 * samples (zero variance) give z = 0, p = 1.
 */
#define STATS_MWU_EXACT_MAX	50

struct stats_mwu {
	double	u;
	double	z;	/* 0 when exact */
	double	p;
	int	exact;
};

int	stats_mwu(const double *a, size_t na, const double *b, size_t nb,
	    struct stats_mwu *, char *err, size_t errlen);
/*
 * Exact two-sided p-value of U = u for sample sizes na, nb without ties
 * (na + nb <= STATS_MWU_EXACT_MAX); NAN outside that range.
 */
double	stats_mwu_exact_p(size_t na, size_t nb, double u);

/* Distributions. */
double	stats_normal_cdf(double z);
/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double	stats_betainc(double a, double b, double x);
/* Student's t CDF and its inverse (p in (0, 1)) for df > 0. */
double	stats_t_cdf(double t, double df);
double	stats_t_quantile(double p, double df);

/*
 * Student's t test as ministat(1) does it: pooled variance, the difference
 * of means b - a with its confidence half-width, both also relative to the
 * mean of a (in percent).  Needs n >= 2 on each side.
 */
extern const double stats_ttest_levels[6];	/* 80 90 95 98 99 99.5 */

struct stats_ttest {
	double	confidence;	/* percent, e.g. 95.0 */
	size_t	df;		/* na + nb - 2 */
	double	t;		/* critical value t(1 - (1 - c) / 2, df) */
	double	pooled_s;
	double	diff;		/* mean(b) - mean(a) */
	double	err;		/* half-width of the interval */
	double	rel_diff;	/* percent of mean(a); NAN if mean(a) == 0 */
	double	rel_err;
	int	significant;	/* |diff| > err: "Difference at ..." */
};

int	stats_ttest(const double *a, size_t na, const double *b, size_t nb,
	    double confidence, struct stats_ttest *, char *err, size_t errlen);
/*
 * Writes ministat's summary into out (always NUL-terminated): the legend
 * ("x NAME", "+ NAME") when names are non-NULL, the N/Min/Max/Median/Avg/
 * Stddev table, then either "No difference proven at 95.0% confidence" or
 * "Difference at 95.0% confidence" with "d +/- e", "rel% +/- rel_e%" and
 * "(Student's t, pooled s = s)".  Returns the length it needed (like
 * snprintf; >= outlen means truncated) or -1 with err set.
 */
int	stats_ministat_format(const double *a, size_t na, const char *name_a,
	    const double *b, size_t nb, const char *name_b, double confidence,
	    char *out, size_t outlen, char *err, size_t errlen);
/*
 * ministat's ASCII distribution plot, width columns wide (>= 20): one row
 * per overlapping stack of points ("x", "+", "*" where both fall), then a
 * row per sample with its mean (A), median (M) and +/- one standard
 * deviation (|___|).  Same return convention as above.
 */
int	stats_ministat_plot(const double *a, size_t na, const double *b,
	    size_t nb, int width, char *out, size_t outlen, char *err,
	    size_t errlen);

/*
 * Percentile bootstrap confidence interval (level 1 - alpha) for
 * median(b) / median(a), from resamples draws of both samples with a PRNG
 * seeded with seed: the same inputs and seed give the same interval.  A
 * resample with median(a) == 0 yields +inf (or 1 when median(b) is 0 too).
 * Values must be >= 0.
 */
int	stats_bootstrap_ratio(const double *a, size_t na, const double *b,
	    size_t nb, unsigned resamples, double alpha, uint64_t seed,
	    double *lo, double *hi, char *err, size_t errlen);

/*
 * Metrics and their directions (stats_verdict.c): every metric labrat
 * stores, with whether a higher or a lower value is the better one (a
 * verdict's regression is a move to the worse side) and, for host-side
 * figures such as CPU, the host it was measured on.  The table holds
 * exact names and a few prefixes ("cpu_sender_" + a watched process);
 * an exact name wins.  Names from before CPU metrics named their host
 * (cpu_user, cpu_sys, cpu_idle, cpu_PROC: all measured on the sender)
 * are kept so that old runs still report.  Static data, never freed.
 */
struct stats_metric {
	const char	*name;		/* "cpu_sender", or a prefix */
	int		 prefix;	/* name is a prefix of the metric */
	int		 lower_is_better;
	const char	*host;		/* "sender", "receiver", NULL */
	const char	*what;		/* "busy CPU (user + system), %" */
};

/* The entry for name, or NULL when labrat does not know the metric. */
const struct stats_metric *stats_metric_find(const char *name);
/* "lower is better" or "higher is better". */
const char	*stats_direction_name(int lower_is_better);
/*
 * The direction of metric: declared (0 or 1, from a plan or a bisect
 * test) when it is >= 0, else the table's.  0 with *lower_is_better set,
 * or -1 with err when the metric is unknown and declares nothing.
 */
int		 stats_metric_direction(const char *metric, int declared,
		    int *lower_is_better, char *err, size_t errlen);

/* Verdicts. */
enum stats_verdict_kind {
	STATS_INCONCLUSIVE = 0,
	STATS_NO_CHANGE,
	STATS_REGRESSION,
	STATS_IMPROVEMENT,
};

/* "inconclusive", "no change", "regression", "improvement". */
const char	*stats_verdict_name(enum stats_verdict_kind);

struct stats_params {
	double		alpha;		/* significance level, 0.05 */
	double		min_effect;	/* relative, 0.03 = 3 % */
	size_t		min_samples;	/* per side for a p-value verdict, 5 */
	size_t		max_samples;	/* per side, adaptive cap, 20 */
	double		collapse;	/* ratio of medians, 5 */
	size_t		collapse_min_samples; /* per side, 3 */
	int		lower_is_better; /* 0: higher is better (throughput) */
	unsigned	resamples;	/* bootstrap, 2000 */
	uint64_t	seed;		/* bootstrap PRNG */
};

void	stats_params_default(struct stats_params *);
/* Checks ranges; 0 or -1 naming the bad field in err. */
int	stats_params_check(const struct stats_params *, char *err,
	    size_t errlen);

struct stats_verdict {
	enum stats_verdict_kind verdict;
	int	collapse;	/* decided by the collapse rule */
	size_t	n_a, n_b;
	double	median_a, median_b;
	double	ratio;		/* median(b) / median(a) */
	double	effect;		/* ratio - 1, signed: -0.18 = b is 18 % lower */
	double	ci_low, ci_high; /* 1 - alpha bootstrap interval of ratio */
	double	eq_low, eq_high; /* 1 - 2 alpha interval, for "no change" */
	double	p;		/* Mann-Whitney, two-sided */
	double	u, z;
	double	alpha;		/* the level actually applied */
};

/*
 * Baseline a, candidate b (values >= 0).  In order:
 *  - collapse: both sides have >= collapse_min_samples, the samples do not
 *    overlap and the ratio of medians is beyond collapse (or 1/collapse):
 *    regression or improvement without waiting for min_samples;
 *  - fewer than min_samples on a side: inconclusive;
 *  - Mann-Whitney p < alpha, |effect| >= min_effect and U agreeing with
 *    the medians' direction: regression or improvement;
 *  - the 1 - 2 alpha bootstrap interval of the ratio inside
 *    [1 - min_effect, 1 + min_effect] (two one-sided tests): no change;
 *  - otherwise inconclusive.
 */
int	stats_verdict(const double *a, size_t na, const double *b, size_t nb,
	    const struct stats_params *, struct stats_verdict *, char *err,
	    size_t errlen);

/*
 * Adaptive sampling.  Samples are looked at when both sides reach
 * collapse_min_samples (only a collapse can be decided there), then
 * min_samples, doubling up to max_samples (defaults 3, 5, 10, 20).  Each
 * look is a test, so each uses alpha / K (Bonferroni over the K looks from
 * min_samples on) to keep the overall false-alarm rate at alpha.
 * stats_adaptive fills v with the verdict at this look and *add_a, *add_b
 * with the repetitions to add per side to reach the next look: both 0 when
 * decided (anything but inconclusive) or at the cap.
 */
double	stats_adaptive_alpha(const struct stats_params *);
int	stats_adaptive(const double *a, size_t na, const double *b, size_t nb,
	    const struct stats_params *, struct stats_verdict *v,
	    size_t *add_a, size_t *add_b, char *err, size_t errlen);

#endif
