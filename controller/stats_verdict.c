/*
 * stats_verdict: the verdicts built on the tests of stats.c (no change,
 * regression, improvement, inconclusive), their parameters and the
 * adaptive decision rule; see stats.h.  Pure: no I/O, no global state.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "stats_int.h"
#include "util.h"

/* Metrics ---------------------------------------------------------------- */

/*
 * What the executor stores (executor_job.c) and what each means.  The
 * CPU figures come from the agent's iperf call, which runs the iperf
 * client: the sending host.
 */
static const struct stats_metric metrics[] = {
	{ "throughput_bps", 0, 0, NULL, "throughput of the transfer, bit/s" },
	{ "bytes", 0, 0, NULL, "bytes transferred" },
	{ "seconds", 0, 1, NULL, "duration of the transfer, s" },
	{ "retransmits", 0, 1, "sender", "TCP retransmits" },
	{ "tx_errors", 0, 1, "sender", "interface transmit errors" },
	{ "window_requested", 0, 0, "sender", "TCP window asked for, B" },
	{ "window_granted", 0, 0, "sender", "TCP window granted, B" },
	{ "cpu_sender", 0, 1, "sender", "busy CPU (user + system), %" },
	{ "cpu_sender_user", 0, 1, "sender", "CPU in user mode, %" },
	{ "cpu_sender_sys", 0, 1, "sender", "CPU in the kernel, %" },
	{ "cpu_sender_idle", 0, 0, "sender", "idle CPU, %" },
	{ "cpu_sender_", 1, 1, "sender", "CPU of a watched process (natd), "
	    "% of one CPU" },
	/* Stored before CPU metrics named their host: the sender's. */
	{ "cpu_user", 0, 1, "sender", "CPU in user mode, %" },
	{ "cpu_sys", 0, 1, "sender", "CPU in the kernel, %" },
	{ "cpu_idle", 0, 0, "sender", "idle CPU, %" },
	{ "cpu_", 1, 1, "sender", "CPU of a watched process (natd), "
	    "% of one CPU" },
};

const struct stats_metric *
stats_metric_find(const char *name)
{
	const struct stats_metric	*best = NULL;
	size_t				 i, len;

	for (i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
		len = strlen(metrics[i].name);
		if (!metrics[i].prefix && strcmp(name, metrics[i].name) == 0)
			return &metrics[i];
		/* The longest prefix that leaves a process name. */
		if (metrics[i].prefix && strncmp(name, metrics[i].name,
		    len) == 0 && name[len] != '\0' && (best == NULL ||
		    len > strlen(best->name)))
			best = &metrics[i];
	}
	return best;
}

const char *
stats_direction_name(int lower_is_better)
{
	return lower_is_better ? "lower is better" : "higher is better";
}

int
stats_metric_direction(const char *metric, int declared,
    int *lower_is_better, char *err, size_t errlen)
{
	const struct stats_metric	*m;

	if (declared >= 0) {
		*lower_is_better = declared != 0;
		return 0;
	}
	if ((m = stats_metric_find(metric)) == NULL) {
		util_seterr(err, errlen, "metric %s: direction unknown (not "
		    "a metric labrat stores): declare \"lower_is_better\"",
		    metric);
		return -1;
	}
	*lower_is_better = m->lower_is_better;
	return 0;
}

/* Verdicts -------------------------------------------------------------- */

const char *
stats_verdict_name(enum stats_verdict_kind k)
{
	switch (k) {
	case STATS_NO_CHANGE:
		return "no change";
	case STATS_REGRESSION:
		return "regression";
	case STATS_IMPROVEMENT:
		return "improvement";
	case STATS_INCONCLUSIVE:
	default:
		return "inconclusive";
	}
}

void
stats_params_default(struct stats_params *p)
{
	memset(p, 0, sizeof *p);
	p->alpha = 0.05;
	p->min_effect = 0.03;
	p->min_samples = 5;
	p->max_samples = 20;
	p->collapse = 5.0;
	p->collapse_min_samples = 3;
	p->lower_is_better = 0;
	p->resamples = 2000;
	p->seed = 0x6c6162726174ULL;	/* "labrat" */
}

int
stats_params_check(const struct stats_params *p, char *err, size_t errlen)
{
	const char	*bad = NULL;

	if (!(p->alpha > 0.0 && p->alpha < 0.5))
		bad = "alpha must be in (0, 0.5)";
	else if (!(p->min_effect >= 0.0 && p->min_effect < 1.0))
		bad = "min_effect must be in [0, 1)";
	else if (p->min_samples < 2 || p->min_samples > 100000)
		bad = "min_samples must be in [2, 100000]";
	else if (p->max_samples < p->min_samples || p->max_samples > 100000)
		bad = "max_samples must be in [min_samples, 100000]";
	else if (!(p->collapse > 1.0 && isfinite(p->collapse)))
		bad = "collapse must be a finite factor > 1";
	else if (p->collapse_min_samples < 2 ||
	    p->collapse_min_samples > p->max_samples)
		bad = "collapse_min_samples must be in [2, max_samples]";
	else if (p->resamples < 100 || p->resamples > 1000000)
		bad = "resamples must be in [100, 1000000]";
	if (bad != NULL) {
		util_seterr(err, errlen, "stats parameters: %s", bad);
		return -1;
	}
	return 0;
}

/* True when every value of one sample lies strictly below the other's. */
static int
disjoint(const double *a, size_t na, const double *b, size_t nb)
{
	double	mina = a[0], maxa = a[0], minb = b[0], maxb = b[0];
	size_t	i;

	for (i = 1; i < na; i++) {
		mina = fmin(mina, a[i]);
		maxa = fmax(maxa, a[i]);
	}
	for (i = 1; i < nb; i++) {
		minb = fmin(minb, b[i]);
		maxb = fmax(maxb, b[i]);
	}
	return maxa < minb || maxb < mina;
}

static enum stats_verdict_kind
direction(const struct stats_params *p, double effect)
{
	int	worse;

	worse = p->lower_is_better ? effect > 0.0 : effect < 0.0;
	return worse ? STATS_REGRESSION : STATS_IMPROVEMENT;
}

static void
decide(const double *a, size_t na, const double *b, size_t nb,
    const struct stats_params *p, struct stats_verdict *v)
{
	double	mu;
	int	agree;

	v->verdict = STATS_INCONCLUSIVE;
	if (na >= p->collapse_min_samples && nb >= p->collapse_min_samples &&
	    (v->ratio >= p->collapse || v->ratio <= 1.0 / p->collapse) &&
	    disjoint(a, na, b, nb)) {
		v->collapse = 1;
		v->verdict = direction(p, v->effect);
		return;
	}
	if (na < p->min_samples || nb < p->min_samples)
		return;
	/* U above its mean: a tends to be larger, so b's median should be
	 * lower; a p-value for the opposite direction is not evidence. */
	mu = (double)na * (double)nb / 2.0;
	agree = (v->effect < 0.0 && v->u > mu) ||
	    (v->effect > 0.0 && v->u < mu);
	if (v->p < v->alpha && fabs(v->effect) >= p->min_effect && agree)
		v->verdict = direction(p, v->effect);
	else if (v->eq_low >= 1.0 - p->min_effect &&
	    v->eq_high <= 1.0 + p->min_effect)
		v->verdict = STATS_NO_CHANGE;
}

int
stats_verdict(const double *a, size_t na, const double *b, size_t nb,
    const struct stats_params *p, struct stats_verdict *v, char *err,
    size_t errlen)
{
	struct stats_mwu	 mw;
	double			*r;

	if (stats_params_check(p, err, errlen) == -1 ||
	    stats_i_check_nonneg(a, na, "a", err, errlen) == -1 ||
	    stats_i_check_nonneg(b, nb, "b", err, errlen) == -1 ||
	    stats_mwu(a, na, b, nb, &mw, err, errlen) == -1)
		return -1;
	memset(v, 0, sizeof *v);
	v->n_a = na;
	v->n_b = nb;
	v->alpha = p->alpha;
	v->median_a = stats_median(a, na);
	v->median_b = stats_median(b, nb);
	v->ratio = stats_i_ratio_of(v->median_b, v->median_a);
	v->effect = v->ratio - 1.0;
	v->p = mw.p;
	v->u = mw.u;
	v->z = mw.z;
	r = stats_i_boot_ratios(a, na, b, nb, p->resamples, p->seed);
	v->ci_low = stats_i_sorted_quantile(r, p->resamples, p->alpha / 2.0);
	v->ci_high = stats_i_sorted_quantile(r, p->resamples, 1.0 - p->alpha / 2.0);
	v->eq_low = stats_i_sorted_quantile(r, p->resamples, p->alpha);
	v->eq_high = stats_i_sorted_quantile(r, p->resamples, 1.0 - p->alpha);
	free(r);
	decide(a, na, b, nb, p, v);
	return 0;
}

/* Adaptive sampling ------------------------------------------------------ */

/* The next look after n samples per side, or 0 past the cap. */
static size_t
next_look(const struct stats_params *p, size_t n)
{
	size_t	look;

	if (p->collapse_min_samples < p->min_samples &&
	    n < p->collapse_min_samples)
		return p->collapse_min_samples;
	for (look = p->min_samples; look < p->max_samples; look *= 2)
		if (look > n)
			return look;
	return n < p->max_samples ? p->max_samples : 0;
}

double
stats_adaptive_alpha(const struct stats_params *p)
{
	size_t	look, k = 1;	/* the cap itself */

	for (look = p->min_samples; look < p->max_samples; look *= 2)
		k++;
	return p->alpha / (double)k;
}

int
stats_adaptive(const double *a, size_t na, const double *b, size_t nb,
    const struct stats_params *p, struct stats_verdict *v, size_t *add_a,
    size_t *add_b, char *err, size_t errlen)
{
	struct stats_params	q;
	size_t			n, next;

	*add_a = *add_b = 0;
	if (stats_params_check(p, err, errlen) == -1)
		return -1;
	q = *p;
	q.alpha = stats_adaptive_alpha(p);
	if (na == 0 || nb == 0) {
		memset(v, 0, sizeof *v);
		v->verdict = STATS_INCONCLUSIVE;
		v->n_a = na;
		v->n_b = nb;
		v->alpha = q.alpha;
		v->median_a = v->median_b = v->ratio = v->effect = NAN;
		v->ci_low = v->ci_high = v->eq_low = v->eq_high = NAN;
		v->p = v->u = v->z = NAN;
	} else if (stats_verdict(a, na, b, nb, &q, v, err, errlen) == -1)
		return -1;
	if (v->verdict != STATS_INCONCLUSIVE)
		return 0;
	n = na < nb ? na : nb;
	if ((next = next_look(p, n)) == 0)
		return 0;
	*add_a = next > na ? next - na : 0;
	*add_b = next > nb ? next - nb : 0;
	return 0;
}
