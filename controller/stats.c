/*
 * stats: summaries, Mann-Whitney U, ministat's Student's t, a bootstrap
 * interval for the ratio of medians and the verdicts built on them; see
 * stats.h.  Pure: no I/O, no global state.  The verdicts are in
 * stats_verdict.c, ministat's text output in stats_ministat.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

struct ranked {
	double	v;
	int	g;	/* 0: sample a, 1: sample b */
};

static int	 cmp_double(const void *, const void *);
static int	 cmp_ranked(const void *, const void *);
static double	*sorted_copy(const double *, size_t);

const double stats_ttest_levels[6] = { 80.0, 90.0, 95.0, 98.0, 99.0, 99.5 };

/* PRNG ------------------------------------------------------------------ */

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t	z;

	z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
	int	i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
stats_rng_next(struct stats_rng *r)
{
	uint64_t	*s = r->s, result, t;

	result = rotl(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double
stats_rng_uniform(struct stats_rng *r)
{
	return (double)(stats_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t
stats_rng_below(struct stats_rng *r, uint64_t n)
{
	uint64_t	x, limit;

	/* Reject the top partial copy of [0, n) to stay unbiased. */
	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = stats_rng_next(r);
	while (x >= limit);
	return x % n;
}

double
stats_rng_normal(struct stats_rng *r)
{
	double	u1, u2;

	do
		u1 = stats_rng_uniform(r);
	while (u1 <= 0.0);
	u2 = stats_rng_uniform(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* Summaries ------------------------------------------------------------- */

static int
cmp_double(const void *pa, const void *pb)
{
	double	a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static int
cmp_ranked(const void *pa, const void *pb)
{
	return cmp_double(&((const struct ranked *)pa)->v,
	    &((const struct ranked *)pb)->v);
}

/* Returns a sorted heap copy the caller frees. */
static double *
sorted_copy(const double *x, size_t n)
{
	double	*c;

	c = xreallocarray(NULL, n, sizeof *c);
	memcpy(c, x, n * sizeof *c);
	qsort(c, n, sizeof *c, cmp_double);
	return c;
}

/* Type 7 quantile of sorted s; infinities tolerated (bootstrap ratios). */
double
stats_i_sorted_quantile(const double *s, size_t n, double p)
{
	double	h, f;
	size_t	i;

	h = (double)(n - 1) * p;
	i = (size_t)floor(h);
	if (i >= n - 1)
		return s[n - 1];
	f = h - (double)i;
	if (f == 0.0 || s[i] == s[i + 1])
		return s[i];
	return s[i] + f * (s[i + 1] - s[i]);
}

int
stats_check(const double *x, size_t n, char *err, size_t errlen)
{
	size_t	i;

	if (x == NULL || n == 0) {
		util_seterr(err, errlen, "empty sample");
		return -1;
	}
	if (n > STATS_MAX_SAMPLES) {
		util_seterr(err, errlen, "sample of %zu values exceeds the "
		    "limit of %d", n, STATS_MAX_SAMPLES);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i])) {
			util_seterr(err, errlen, "sample value %zu is %s", i,
			    isnan(x[i]) ? "NaN" : "infinite");
			return -1;
		}
	}
	return 0;
}

double
stats_mean(const double *x, size_t n)
{
	double	sum = 0.0;
	size_t	i;

	if (stats_check(x, n, NULL, 0) == -1)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double
stats_stddev(const double *x, size_t n)
{
	double	m, d, ss = 0.0;
	size_t	i;

	if (n < 2 || stats_check(x, n, NULL, 0) == -1)
		return NAN;
	/* Two passes: no catastrophic cancellation with huge values. */
	m = stats_mean(x, n);
	for (i = 0; i < n; i++) {
		d = x[i] - m;
		ss += d * d;
	}
	return sqrt(ss / (double)(n - 1));
}

double
stats_quantile(const double *x, size_t n, double p)
{
	double	*s, q;

	if (!(p >= 0.0 && p <= 1.0) || stats_check(x, n, NULL, 0) == -1)
		return NAN;
	s = sorted_copy(x, n);
	q = stats_i_sorted_quantile(s, n, p);
	free(s);
	return q;
}

double
stats_median(const double *x, size_t n)
{
	return stats_quantile(x, n, 0.5);
}

double
stats_iqr(const double *x, size_t n)
{
	double	*s, iqr;

	if (stats_check(x, n, NULL, 0) == -1)
		return NAN;
	s = sorted_copy(x, n);
	iqr = stats_i_sorted_quantile(s, n, 0.75) -
	    stats_i_sorted_quantile(s, n, 0.25);
	free(s);
	return iqr;
}

double
stats_mad(const double *x, size_t n)
{
	double	*d, med, mad;
	size_t	i;

	if (stats_check(x, n, NULL, 0) == -1)
		return NAN;
	med = stats_median(x, n);
	d = xreallocarray(NULL, n, sizeof *d);
	for (i = 0; i < n; i++)
		d[i] = fabs(x[i] - med);
	qsort(d, n, sizeof *d, cmp_double);
	mad = stats_i_sorted_quantile(d, n, 0.5);
	free(d);
	return mad;
}

int
stats_summarize(const double *x, size_t n, struct stats_summary *sm,
    char *err, size_t errlen)
{
	double	*s;

	if (stats_check(x, n, err, errlen) == -1)
		return -1;
	s = sorted_copy(x, n);
	sm->n = n;
	sm->min = s[0];
	sm->max = s[n - 1];
	sm->median = stats_i_sorted_quantile(s, n, 0.5);
	sm->q1 = stats_i_sorted_quantile(s, n, 0.25);
	sm->q3 = stats_i_sorted_quantile(s, n, 0.75);
	sm->iqr = sm->q3 - sm->q1;
	sm->mean = stats_mean(x, n);
	sm->stddev = stats_stddev(x, n);
	sm->mad = stats_mad(x, n);
	free(s);
	return 0;
}

/* Mann-Whitney U --------------------------------------------------------- */

double
stats_mwu_exact_p(size_t na, size_t nb, double u)
{
	int64_t	*c;
	double	 total = 0.0, tail = 0.0, lo;
	size_t	 m, o, i, k, deg, top, size;

	if (na == 0 || nb == 0 || na + nb > STATS_MWU_EXACT_MAX ||
	    !(u >= 0.0 && u <= (double)(na * nb)))
		return NAN;
	m = na < nb ? na : nb;
	o = na < nb ? nb : na;
	/*
	 * The number of orderings with U = u is the coefficient of q^u in
	 * the Gaussian binomial [m + o choose m] = prod_{i=1..m}
	 * (1 - q^(o+i)) / (1 - q^i): multiply by the numerator factor, then
	 * divide exactly by the denominator one (c[k] += c[k - i]).  The
	 * counts are at most C(50, 25) ~ 1.3e14, exact in int64.
	 */
	size = m * o + m + 1;
	c = xcalloc(size, sizeof *c);
	c[0] = 1;
	deg = 0;
	for (i = 1; i <= m; i++) {
		top = deg + o + i;
		for (k = top; k >= o + i; k--)
			c[k] -= c[k - (o + i)];
		for (k = i; k <= top; k++)
			c[k] += c[k - i];
		deg = top - i;
	}
	/* Symmetric distribution: p = 2 P(U <= min(u, m o - u)). */
	lo = fmin(u, (double)(m * o) - u);
	for (k = 0; k <= m * o; k++) {
		total += (double)c[k];
		if ((double)k <= lo + 1e-9)
			tail += (double)c[k];
	}
	free(c);
	return fmin(1.0, 2.0 * tail / total);
}

int
stats_mwu(const double *a, size_t na, const double *b, size_t nb,
    struct stats_mwu *r, char *err, size_t errlen)
{
	struct ranked	*all;
	double		 ra = 0.0, ties = 0.0, t, rank, n, mu, var, d;
	size_t		 i, j, k, inA, nt = 0;

	if (stats_check(a, na, err, errlen) == -1 ||
	    stats_check(b, nb, err, errlen) == -1)
		return -1;
	n = (double)(na + nb);
	all = xreallocarray(NULL, na + nb, sizeof *all);
	for (i = 0; i < na; i++)
		all[i] = (struct ranked){ a[i], 0 };
	for (i = 0; i < nb; i++)
		all[na + i] = (struct ranked){ b[i], 1 };
	qsort(all, na + nb, sizeof *all, cmp_ranked);
	/* Mid-ranks for each run of equal values [i, j). */
	for (i = 0; i < na + nb; i = j) {
		inA = 0;
		for (j = i; j < na + nb && all[j].v == all[i].v; j++)
			inA += all[j].g == 0;
		k = j - i;
		rank = ((double)i + 1.0 + (double)j) / 2.0;
		ra += rank * (double)inA;
		if (k > 1) {
			t = (double)k;
			ties += t * t * t - t;
			nt++;
		}
	}
	free(all);
	memset(r, 0, sizeof *r);
	r->u = ra - (double)na * ((double)na + 1.0) / 2.0;
	if (nt == 0 && na + nb <= STATS_MWU_EXACT_MAX) {
		r->exact = 1;
		r->p = stats_mwu_exact_p(na, nb, r->u);
		return 0;
	}
	mu = (double)na * (double)nb / 2.0;
	var = (double)na * (double)nb / 12.0 *
	    ((n + 1.0) - ties / (n * (n - 1.0)));
	if (!(var > 0.0)) {
		r->p = 1.0;	/* every value equal */
		return 0;
	}
	d = r->u - mu;
	r->z = copysign(fmax(fabs(d) - 0.5, 0.0) / sqrt(var), d);
	r->p = fmin(1.0, erfc(fabs(r->z) / M_SQRT2));
	return 0;
}

/* Distributions ---------------------------------------------------------- */

double
stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/*
 * Continued fraction for I_x(a, b) (modified Lentz), valid and quickly
 * convergent for x < (a + 1) / (a + b + 2); the caller uses the symmetry
 * I_x(a, b) = 1 - I_(1-x)(b, a) otherwise.
 */
static double
betacf(double a, double b, double x)
{
	const double	tiny = 1e-300;
	double		f, c, d, num, delta;
	int		i, m;

	f = tiny;
	c = f;
	d = 0.0;
	for (i = 1; i < 10000; i++) {
		m = i / 2;
		if (i == 1)
			num = 1.0;
		else if (i % 2 == 0)	/* d_(2m-1) */
			num = -(a + m - 1) * (a + b + m - 1) * x /
			    ((a + 2 * m - 2) * (a + 2 * m - 1));
		else			/* d_(2m) */
			num = m * (b - m) * x /
			    ((a + 2 * m - 1) * (a + 2 * m));
		d = 1.0 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1.0) < 1e-15)
			break;
	}
	return f;
}

double
stats_betainc(double a, double b, double x)
{
	double	lfront;

	if (!(a > 0.0 && b > 0.0 && x >= 0.0 && x <= 1.0))
		return NAN;
	if (x == 0.0 || x == 1.0)
		return x;
	lfront = a * log(x) + b * log1p(-x) -
	    (lgamma(a) + lgamma(b) - lgamma(a + b));
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * betacf(a, b, x) / a;
	return 1.0 - exp(lfront) * betacf(b, a, 1.0 - x) / b;
}

double
stats_t_cdf(double t, double df)
{
	double	tail;

	if (isnan(t) || !(df > 0.0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* P(|T| > |t|) = I_(df / (df + t^2))(df / 2, 1 / 2). */
	tail = 0.5 * stats_betainc(df / 2.0, 0.5, df / (df + t * t));
	return t > 0 ? 1.0 - tail : tail;
}

double
stats_t_quantile(double p, double df)
{
	double	lo = 0.0, hi = 1.0, mid;
	int	i;

	if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
		return NAN;
	if (p < 0.5)
		return -stats_t_quantile(1.0 - p, df);
	if (p == 0.5)
		return 0.0;
	while (stats_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2.0;
	/* Bisection: the CDF is monotonic, 200 halvings reach 1 ulp. */
	for (i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
		mid = lo + (hi - lo) / 2.0;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2.0;
}

/* Student's t, ministat's way ------------------------------------------ */

int
stats_ttest(const double *a, size_t na, const double *b, size_t nb,
    double confidence, struct stats_ttest *r, char *err, size_t errlen)
{
	double	ma, mb, va, vb;

	if (stats_check(a, na, err, errlen) == -1 ||
	    stats_check(b, nb, err, errlen) == -1)
		return -1;
	if (na < 2 || nb < 2) {
		util_seterr(err, errlen, "Student's t needs at least 2 values "
		    "per sample (have %zu and %zu)", na, nb);
		return -1;
	}
	if (!(confidence > 0.0 && confidence < 100.0)) {
		util_seterr(err, errlen, "confidence %g%% not in (0, 100)",
		    confidence);
		return -1;
	}
	memset(r, 0, sizeof *r);
	ma = stats_mean(a, na);
	mb = stats_mean(b, nb);
	va = stats_stddev(a, na);
	vb = stats_stddev(b, nb);
	va *= va;
	vb *= vb;
	r->confidence = confidence;
	r->df = na + nb - 2;
	r->t = stats_t_quantile(1.0 - (1.0 - confidence / 100.0) / 2.0,
	    (double)r->df);
	r->pooled_s = sqrt(((double)(na - 1) * va + (double)(nb - 1) * vb) /
	    (double)r->df);
	r->diff = mb - ma;
	r->err = r->t * r->pooled_s * sqrt(1.0 / (double)na +
	    1.0 / (double)nb);
	r->rel_diff = ma != 0.0 ? r->diff * 100.0 / ma : NAN;
	r->rel_err = ma != 0.0 ? r->err * 100.0 / ma : NAN;
	r->significant = fabs(r->diff) > r->err;
	return 0;
}

/* Bootstrap ------------------------------------------------------------- */

int
stats_i_check_nonneg(const double *x, size_t n, const char *name, char *err,
    size_t errlen)
{
	size_t	i;

	if (stats_check(x, n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (x[i] < 0.0) {
			util_seterr(err, errlen, "sample %s value %zu is "
			    "negative (%g): a ratio of medians needs values "
			    ">= 0", name, i, x[i]);
			return -1;
		}
	}
	return 0;
}

/* num / den for medians >= 0: 0 / 0 is "no change", x / 0 unbounded. */
double
stats_i_ratio_of(double num, double den)
{
	if (den == 0.0)
		return num == 0.0 ? 1.0 : INFINITY;
	return num / den;
}

/*
 * Resampling draws 32-bit indices, two per PRNG output: the bootstrap's
 * cost is mostly its random numbers.  spare holds the unused half, with
 * bit 32 set while it is valid.
 */
static uint32_t
next32(struct stats_rng *r, uint64_t *spare)
{
	uint64_t	w;

	if (*spare >> 32) {
		w = *spare;
		*spare = 0;
		return (uint32_t)w;
	}
	w = stats_rng_next(r);
	*spare = (1ULL << 32) | (w >> 32);
	return (uint32_t)w;
}

/* Unbiased index in [0, n), n < 2^32 (Lemire's multiply-shift). */
static size_t
draw_index(struct stats_rng *r, uint64_t *spare, uint32_t n)
{
	uint64_t	m;
	uint32_t	threshold;

	m = (uint64_t)next32(r, spare) * n;
	if ((uint32_t)m < n) {
		threshold = -n % n;
		while ((uint32_t)m < threshold)
			m = (uint64_t)next32(r, spare) * n;
	}
	return (size_t)(m >> 32);
}

/*
 * Median of a resample (with replacement) of sorted s: draw n indices,
 * count them, and walk the counts to the middle order statistics, so a
 * resample costs O(n) and never sorts.  cnt is scratch of n entries.
 */
static double
boot_median(const double *s, size_t n, struct stats_rng *r,
    uint64_t *spare, size_t *cnt)
{
	size_t	i, cum = 0, lo = (n - 1) / 2, hi = n / 2;
	double	vlo = s[0];

	memset(cnt, 0, n * sizeof *cnt);
	for (i = 0; i < n; i++)
		cnt[draw_index(r, spare, (uint32_t)n)]++;
	for (i = 0; i < n; i++) {
		if (cnt[i] == 0)
			continue;
		if (cum <= lo && lo < cum + cnt[i])
			vlo = s[i];
		if (cum <= hi && hi < cum + cnt[i])
			return lo == hi ? vlo : vlo + (s[i] - vlo) / 2.0;
		cum += cnt[i];
	}
	return vlo;	/* not reached: the counts sum to n */
}

/* Returns resamples sorted bootstrap ratios; heap, the caller frees. */
double *
stats_i_boot_ratios(const double *a, size_t na, const double *b, size_t nb,
    unsigned resamples, uint64_t seed)
{
	struct stats_rng	 rng;
	double			*sa, *sb, *ratios, ma, mb;
	size_t			*cnt;
	uint64_t		 spare = 0;
	unsigned		 k;

	stats_rng_seed(&rng, seed);
	sa = sorted_copy(a, na);
	sb = sorted_copy(b, nb);
	cnt = xreallocarray(NULL, na > nb ? na : nb, sizeof *cnt);
	ratios = xreallocarray(NULL, resamples, sizeof *ratios);
	for (k = 0; k < resamples; k++) {
		ma = boot_median(sa, na, &rng, &spare, cnt);
		mb = boot_median(sb, nb, &rng, &spare, cnt);
		ratios[k] = stats_i_ratio_of(mb, ma);
	}
	free(sa);
	free(sb);
	free(cnt);
	qsort(ratios, resamples, sizeof *ratios, cmp_double);
	return ratios;
}

int
stats_bootstrap_ratio(const double *a, size_t na, const double *b,
    size_t nb, unsigned resamples, double alpha, uint64_t seed, double *lo,
    double *hi, char *err, size_t errlen)
{
	double	*r;

	if (stats_i_check_nonneg(a, na, "a", err, errlen) == -1 ||
	    stats_i_check_nonneg(b, nb, "b", err, errlen) == -1)
		return -1;
	if (resamples < 100 || resamples > 1000000) {
		util_seterr(err, errlen, "bootstrap resamples %u not in "
		    "[100, 1000000]", resamples);
		return -1;
	}
	if (!(alpha > 0.0 && alpha < 1.0)) {
		util_seterr(err, errlen, "alpha %g not in (0, 1)", alpha);
		return -1;
	}
	r = stats_i_boot_ratios(a, na, b, nb, resamples, seed);
	*lo = stats_i_sorted_quantile(r, resamples, alpha / 2.0);
	*hi = stats_i_sorted_quantile(r, resamples, 1.0 - alpha / 2.0);
	free(r);
	return 0;
}
