/*
 * stats_bench: how often the verdicts are right, over many simulated
 * comparisons with known truth (baseline 1000, candidate 1000 (1 - effect),
 * both with Gaussian relative noise), for a fixed 10-per-side design and
 * the adaptive scheme (looks at 3, 5, 10, 20 per side).  Pure, no lab.
 *
 * usage: bench_stats_bench [trials per scenario (default 1000)] [seed]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

struct scenario {
	const char	*name;
	double		 effect;	/* relative drop of the candidate */
	double		 noise;		/* relative sd */
};

static const struct scenario scenarios[] = {
	{ "no effect, 0% noise", 0, 0.00 },
	{ "no effect, 1% noise", 0, 0.01 },
	{ "no effect, 2% noise", 0, 0.02 },
	{ "no effect, 3% noise", 0, 0.03 },
	{ "no effect, 4% noise", 0, 0.04 },
	{ "no effect, 5% noise", 0, 0.05 },
	{ "3% drop, 3% noise", 0.03, 0.03 },
	{ "5% drop, 3% noise", 0.05, 0.03 },
	{ "18% drop, 3% noise", 0.18, 0.03 },
	{ "18% drop, 5% noise", 0.18, 0.05 },
	{ "100x collapse, 3% noise", 0.99, 0.03 },
};

struct tally {
	long	k[4];		/* by enum stats_verdict_kind */
	long	samples;	/* per side, summed */
};

static void
gen(struct stats_rng *r, double *x, size_t n, double base, double noise)
{
	size_t	i;

	for (i = 0; i < n; i++)
		x[i] = fmax(0.0, base * (1.0 + noise * stats_rng_normal(r)));
}

static void
fixed10(struct stats_rng *r, const struct scenario *s,
    const struct stats_params *p, struct tally *t)
{
	double			a[10], b[10];
	struct stats_verdict	v;
	char			err[128];

	gen(r, a, 10, 1000, s->noise);
	gen(r, b, 10, 1000 * (1 - s->effect), s->noise);
	if (stats_verdict(a, 10, b, 10, p, &v, err, sizeof err) == -1) {
		fprintf(stderr, "stats_verdict: %s\n", err);
		exit(1);
	}
	t->k[v.verdict]++;
	t->samples += 10;
}

static void
adaptive(struct stats_rng *r, const struct scenario *s,
    const struct stats_params *p, struct tally *t)
{
	double			a[64], b[64];
	struct stats_verdict	v;
	size_t			na = 0, nb = 0, add_a, add_b;
	char			err[128];

	for (;;) {
		if (stats_adaptive(a, na, b, nb, p, &v, &add_a, &add_b, err,
		    sizeof err) == -1) {
			fprintf(stderr, "stats_adaptive: %s\n", err);
			exit(1);
		}
		if (add_a + add_b == 0 || na + add_a > 64 || nb + add_b > 64)
			break;
		gen(r, a + na, add_a, 1000, s->noise);
		gen(r, b + nb, add_b, 1000 * (1 - s->effect), s->noise);
		na += add_a;
		nb += add_b;
	}
	t->k[v.verdict]++;
	t->samples += (long)(na > nb ? na : nb);
}

static void
row(const char *scheme, const struct tally *t, long trials)
{
	printf("  %-9s regr %5.1f%%  impr %5.1f%%  no change %5.1f%%  "
	    "inconcl %5.1f%%  samples/side %5.2f\n", scheme,
	    100.0 * (double)t->k[STATS_REGRESSION] / (double)trials,
	    100.0 * (double)t->k[STATS_IMPROVEMENT] / (double)trials,
	    100.0 * (double)t->k[STATS_NO_CHANGE] / (double)trials,
	    100.0 * (double)t->k[STATS_INCONCLUSIVE] / (double)trials,
	    (double)t->samples / (double)trials);
}

int
main(int argc, char **argv)
{
	struct stats_params	p;
	struct stats_rng	r;
	struct tally		tf, ta;
	long			trials = 1000, i;
	unsigned long long	seed = 1;
	size_t			s;

	if (argc > 1 && (trials = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: %s [trials] [seed]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 10);
	stats_params_default(&p);
	printf("stats_bench: %ld trials per scenario, seed %llu; alpha %g, "
	    "min_effect %g, min/max samples %zu/%zu, collapse %gx\n"
	    "fixed: 10 per side at alpha %g; adaptive: looks at 3, 5, 10, 20 "
	    "per side at alpha %g each\n\n", trials, seed, p.alpha,
	    p.min_effect, p.min_samples, p.max_samples, p.collapse, p.alpha,
	    stats_adaptive_alpha(&p));
	for (s = 0; s < sizeof scenarios / sizeof scenarios[0]; s++) {
		tf = (struct tally){ { 0 }, 0 };
		ta = tf;
		stats_rng_seed(&r, seed * 1000 + s);
		for (i = 0; i < trials; i++) {
			fixed10(&r, &scenarios[s], &p, &tf);
			adaptive(&r, &scenarios[s], &p, &ta);
		}
		printf("%s\n", scenarios[s].name);
		row("fixed-10", &tf, trials);
		row("adaptive", &ta, trials);
	}
	return 0;
}
