/*
 * bisect_bench: the pure bisect machine plus the statistics (bisect_sample_
 * next() over stats_adaptive()) against simulated measurements with a known
 * culprit.  No lab, no I/O besides the table it prints.
 *
 * Model.  Revisions 0..N-1, GOOD = 0, BAD = N-1, the culprit uniform in
 * 1..N-1.  Every install ("boot") draws a drift factor 1 + drift * Z that
 * multiplies every sample of that boot; every sample is
 * 1000 * boot * level * (1 + noise * Z), Z standard normal (seeded PRNG), and
 * level = 1 - effect for the affected metric from the culprit on (effect
 * 0.99 = the 100x collapse).
 *  - A/B (the default): control (TSO off, never affected) and variant (TSO
 *    on) measured in the same boot; good while variant / control stays
 *    above threshold = 1 - effect / 2.  Both sides count as samples.
 *  - vs GOOD: the GOOD revision's samples (20, measured at the GOOD check)
 *    are the fixed reference; each later step measures the candidate only.
 * An inconclusive step is re-measured once in the same boot, then skipped.
 * Steps counted: installs for the two endpoint checks, the search, and the
 * verification (+ tie-breaks).  Accuracy: the exact culprit was named.
 * Fixed scheme for comparison: 10 samples per side at every step.
 *
 * usage: bench_bisect_bench [trials [seed [key]]]
 * key: only the rows the targets name (18 % at 3 % noise, collapses).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bisect.h"

#define MAXS	160
#define MAXN	10000

struct setting {
	size_t	 n;
	double	 effect;
	double	 noise;
	double	 drift;
	int	 ab;
	size_t	 max_samples;	/* 0: stats' default cap */
};

struct sim {
	struct stats_rng	 rng;
	struct bisect_test	 test;
	const struct setting	*set;
	size_t			 culprit;
	double			 good_ref[MAXS];	/* vs GOOD */
	size_t			 ngood_ref;
	size_t			 samples;
};

struct tally {
	size_t	 trials, exact, range, failed, wrong;
	size_t	 search, search_max, endpoint, verify;
	size_t	 samples, steps, skips;
	double	 conf_right, conf_wrong;
	size_t	 high_conf_wrong;
};

static const char *ids[MAXN];

static double
sample(struct sim *s, size_t rev, int affected, double boot)
{
	double	level = 1.0;

	if (affected && rev >= s->culprit)
		level = 1.0 - s->set->effect;
	return (1000.0 * boot * level *
	    (1.0 + s->set->noise * stats_rng_normal(&s->rng)));
}

/* One install + adaptive measurement; returns the outcome. */
static enum bisect_outcome
measure(struct sim *s, size_t rev, enum bisect_why why, double *strength)
{
	struct bisect_decision	 d;
	double			 ref[MAXS], cand[MAXS], boot;
	size_t			 nr = 0, nc = 0, i;
	int			 attempt = 0;
	char			 err[256];

	boot = 1.0 + s->set->drift * stats_rng_normal(&s->rng);
	if (!s->set->ab && why == BISECT_CHECK_GOOD && s->ngood_ref == 0) {
		/* the reference itself: good by construction */
		for (i = 0; i < s->test.stats.max_samples; i++)
			s->good_ref[i] = sample(s, rev, 1, boot);
		s->ngood_ref = s->test.stats.max_samples;
		s->samples += s->ngood_ref;
		*strength = 1.0;
		return (BISECT_GOOD);
	}
	for (;;) {
		if (bisect_sample_next(&s->test, s->set->ab ? ref : s->good_ref,
		    s->set->ab ? nr : s->ngood_ref, cand, nc, attempt, &d, err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "bisect_bench: %s\n", err);
			exit(1);
		}
		if (d.action == BISECT_DECIDED)
			break;
		if (d.action == BISECT_REMEASURE) {
			attempt++;
			nr = nc = 0;
			continue;
		}
		for (i = 0; i < d.add_ref && nr < MAXS; i++)
			ref[nr++] = sample(s, rev, 0, boot);
		for (i = 0; i < d.add_cand && nc < MAXS; i++)
			cand[nc++] = sample(s, rev, 1, boot);
		s->samples += d.add_ref + d.add_cand;
	}
	*strength = d.strength;
	return (d.outcome);
}

static void
trial(const struct setting *set, uint64_t seed, struct tally *t)
{
	struct sim		 s;
	struct bisect		*b;
	struct bisect_request	 req;
	struct bisect_result	 res;
	enum bisect_outcome	 o;
	double			 strength;
	size_t			 n = set->n, search, ns, i;
	const struct bisect_step *st;
	char			 err[256];

	memset(&s, 0, sizeof(s));
	s.set = set;
	stats_rng_seed(&s.rng, seed);
	s.culprit = 1 + (size_t)stats_rng_below(&s.rng, n - 1);
	bisect_test_default(&s.test, 1.0 - set->effect / 2.0);
	s.test.fixed_reference = !set->ab;
	if (set->max_samples > 0)
		s.test.stats.max_samples = set->max_samples;
	b = bisect_new(ids, n, 0, n - 1, err, sizeof(err));
	if (b == NULL) {
		fprintf(stderr, "bisect_bench: %s\n", err);
		exit(1);
	}
	while (bisect_next(b, &req)) {
		o = measure(&s, req.rev, req.why, &strength);
		if (bisect_record(b, req.rev, o, strength, err,
		    sizeof(err)) == -1) {
			fprintf(stderr, "bisect_bench: %s\n", err);
			exit(1);
		}
	}
	bisect_result(b, &res);
	t->trials++;
	search = bisect_nsteps_why(b, BISECT_SEARCH);
	t->search += search;
	if (search > t->search_max)
		t->search_max = search;
	t->endpoint += bisect_nsteps_why(b, BISECT_CHECK_GOOD) +
	    bisect_nsteps_why(b, BISECT_CHECK_BAD);
	t->verify += bisect_nsteps_why(b, BISECT_VERIFY) +
	    bisect_nsteps_why(b, BISECT_TIEBREAK);
	st = bisect_steps(b, &ns);
	t->steps += ns;
	for (i = 0; i < ns; i++)
		t->skips += st[i].outcome == BISECT_SKIP;
	t->samples += s.samples;
	if (res.status == BISECT_FOUND && res.culprit == s.culprit) {
		t->exact++;
		t->conf_right += res.confidence;
	} else if (res.status == BISECT_RANGE && res.last_good < s.culprit &&
	    res.first_bad >= s.culprit) {
		t->range++;
	} else if (res.status == BISECT_FAILED) {
		t->failed++;
	} else {
		t->wrong++;
		t->conf_wrong += res.confidence;
		if (res.confidence >= 0.99)
			t->high_conf_wrong++;
	}
	bisect_free(b);
}

static unsigned
ceil_log2(size_t k)
{
	unsigned	l = 0;

	while (((size_t)1 << l) < k)
		l++;
	return (l);
}

static void
row(const struct setting *set, int trials, uint64_t seed)
{
	struct tally	 t;
	double		 fixed, steps;
	int		 i;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < trials; i++)
		trial(set, seed + (uint64_t)i * 7919, &t);
	steps = (double)t.steps / t.trials;
	/* the same steps at 10 per side (vs GOOD: 10 per step + 10 ref) */
	fixed = set->ab ? 20.0 * steps : 10.0 * steps;
	printf("%6zu %6.0f%% %5.0f%% %6.1f%% %5zu %4zu %4zu %6.2f %3zu %3u "
	    "%5.2f %5.2f %5.2f %7.1f %6.1f %5.2f %6.4f %6.4f %3zu\n",
	    set->n, set->effect * 100, set->noise * 100,
	    100.0 * t.exact / t.trials, t.range, t.failed, t.wrong,
	    (double)t.search / t.trials, t.search_max,
	    ceil_log2(set->n) + 2, (double)t.endpoint / t.trials,
	    (double)t.verify / t.trials, (double)t.skips / t.trials,
	    (double)t.samples / t.trials,
	    (double)t.samples / t.trials / steps,
	    (double)t.samples / t.trials / fixed,
	    t.exact ? t.conf_right / t.exact : 0.0,
	    t.wrong ? t.conf_wrong / t.wrong : 0.0, t.high_conf_wrong);
	fflush(stdout);
}

static void
header(const char *title)
{
	printf("\n%s\n", title);
	printf("%6s %7s %6s %7s %5s %4s %4s %6s %3s %3s %5s %5s %5s %7s %6s "
	    "%5s %6s %6s %3s\n", "N", "effect", "noise", "exact", "range",
	    "fail", "wrng", "search", "max", "bnd", "endp", "verif", "skips",
	    "samples", "/step", "/fix", "conf+", "confw", "hiw");
}

int
main(int argc, char **argv)
{
	static const size_t	 ns[] = { 64, 256, 1000, 10000 };
	static const double	 effects[] = { 0.05, 0.18, 0.99 };
	static char		 names[MAXN][16];
	struct setting		 set;
	int			 trials = 200, ni, ei, noise;
	uint64_t		 seed = 1;
	struct timespec		 t0, t1;
	size_t			 i;

	if (argc > 1)
		trials = atoi(argv[1]);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 0);
	if (trials < 1)
		trials = 1;
	for (i = 0; i < MAXN; i++) {
		snprintf(names[i], sizeof(names[i]), "r%zu", i);
		ids[i] = names[i];
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	printf("bisect benchmark: %d trials per row, seed %llu; threshold = "
	    "1 - effect/2; stats defaults (alpha 0.05, looks 3/5/10/20, "
	    "Bonferroni); effect 99%% = 100x collapse\n", trials,
	    (unsigned long long)seed);
	printf("exact = right culprit named; range = a range holding it; "
	    "search/max = search installs (bnd = ceil(log2 N) + 2);\n"
	    "endp/verif = endpoint and verification installs; samples = "
	    "per bisect (both sides); /fix = vs 10 per side, same steps;\n"
	    "conf+/confw = mean confidence of exact / wrong results (wrong: "
	    "a culprit or range without the real one);\nhiw = wrong results "
	    "with confidence >= 0.99; fail = stopped (endpoint untestable)\n");

	memset(&set, 0, sizeof(set));
	if (argc > 3 && strcmp(argv[3], "key") == 0) {
		header("key rows: A/B in one boot, drift = noise");
		for (ni = 0; ni < 4; ni++) {
			set.n = ns[ni];
			set.noise = set.drift = 0.03;
			set.ab = 1;
			set.effect = 0.18;
			row(&set, trials, seed);
			set.effect = 0.99;
			row(&set, trials, seed);
		}
		return (0);
	}
	header("A/B in one boot, boot-to-boot drift = noise");
	for (ni = 0; ni < 4; ni++) {
		for (ei = 0; ei < 3; ei++) {
			for (noise = 0; noise <= 5; noise++) {
				set.n = ns[ni];
				set.effect = effects[ei];
				set.noise = noise / 100.0;
				set.drift = noise / 100.0;
				set.ab = 1;
				row(&set, trials, seed);
			}
		}
	}
	header("against GOOD's samples (20, fixed), no drift");
	for (ei = 0; ei < 3; ei++) {
		for (noise = 0; noise <= 5; noise++) {
			set.n = 1000;
			set.effect = effects[ei];
			set.noise = noise / 100.0;
			set.drift = 0;
			set.ab = 0;
			row(&set, trials, seed);
		}
	}
	header("against GOOD's samples, boot-to-boot drift = noise");
	for (noise = 1; noise <= 5; noise += 2) {
		set.n = 1000;
		set.effect = 0.18;
		set.noise = noise / 100.0;
		set.drift = noise / 100.0;
		set.ab = 0;
		row(&set, trials, seed);
	}
	header("A/B, 5 % effect with a cap of 80 samples per side");
	for (noise = 2; noise <= 5; noise++) {
		set.n = 1000;
		set.effect = 0.05;
		set.noise = set.drift = noise / 100.0;
		set.ab = 1;
		set.max_samples = 80;
		row(&set, trials, seed);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("\n%.1f s\n", (double)(t1.tv_sec - t0.tv_sec) +
	    (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return (0);
}
