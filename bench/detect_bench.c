/*
 * detect_bench: the whole detect pipeline (store -> one-knob verdicts with
 * family alpha -> knob isolation -> adaptive job plan) over many simulated
 * 2 x 2 matrices (TSO x MTU on one link) with known truth: how often a
 * wrong trigger is named (false alarm), how often the true one is found,
 * and samples per combination, for a fixed 10-per-combination design and
 * the adaptive one (5 planned, looks at 5, 10, 20).  The samples go
 * through a real SQLite file (on /dev/shm when there is one).  No lab.
 *
 * usage: bench_detect_bench [matrices per scenario (default 100)] [seed]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect.h"

struct truth {
	const char	*name;
	double		 factor;	/* of tso=on,mtu=9000; 1 = no fault */
};

static const struct truth truths[] = {
	{ "no fault", 1.0 },
	{ "TSO+MTU9000 -5%", 0.95 },
	{ "TSO+MTU9000 -18%", 0.82 },
	{ "TSO+MTU9000 100x", 0.01 },
};
static const double noises[] = { 0.0, 0.01, 0.02, 0.03, 0.05 };

static struct knobs
combo(int i)
{
	struct knobs	k;

	knobs_clear(&k);
	knobs_set(&k, KNOB_TSO, i & 1);
	knobs_set(&k, KNOB_MTU, i & 2 ? 9000 : 1500);
	return k;
}

static void
add(struct store *st, int64_t run, struct knobs k, double factor,
    double noise, struct stats_rng *rng, int rep)
{
	struct store_job_spec	spec;
	struct store_job	job;
	struct store_job_result	r;
	struct store_sample	s = { "throughput_bps", 0, "bit/s", 0 };
	char			err[512];
	double			base = 1e9;

	if (knobs_get(&k, KNOB_TSO) == 1 && knobs_get(&k, KNOB_MTU) == 9000)
		base *= factor;
	memset(&spec, 0, sizeof spec);
	spec.link = "em";
	spec.knobs = k;
	spec.tool = "iperf3";
	spec.params = "iperf3:time=2";
	spec.repetition = rep;
	memset(&r, 0, sizeof r);
	s.value = fmax(0, base * (1 + noise * stats_rng_normal(rng)));
	r.state = STORE_JOB_DONE;
	r.samples = &s;
	r.nsamples = 1;
	if (store_jobs_add(st, run, &spec, 1, err, sizeof err) == -1 ||
	    store_job_claim(st, run, "em", "b", &job, err, sizeof err) != 1 ||
	    store_job_finish(st, job.id, &r, err, sizeof err) == -1) {
		fprintf(stderr, "store: %s\n", err);
		exit(1);
	}
}

struct tally {
	long	matrices, wrong, found, samples;
};

/* One matrix; adaptive loops detect -> more jobs -> samples. */
static void
one(struct store *st, const struct truth *t, double noise, int adaptive,
    struct stats_rng *rng, struct tally *ta)
{
	struct store_run_spec	 rs;
	struct detect_params	 p;
	struct detect_result	 res;
	struct store_job_spec	*specs;
	char			 err[512];
	int64_t			 run;
	size_t			 n, i;
	int			 c, r, reps = adaptive ? 5 : 10, hit = 0, bad = 0;

	memset(&rs, 0, sizeof rs);
	rs.kind = "bench";
	if (store_run_create(st, &rs, &run, err, sizeof err) == -1) {
		fprintf(stderr, "store: %s\n", err);
		exit(1);
	}
	for (r = 0; r < reps; r++)
		for (c = 0; c < 4; c++)
			add(st, run, combo(c), t->factor, noise, rng, r);
	detect_params_default(&p);
	p.adaptive = adaptive;
	p.stats.max_samples = adaptive ? 20 : 10;
	for (;;) {
		if (detect_run(st, run, &p, &res, err, sizeof err) == -1 ||
		    detect_more_jobs(st, &res, &specs, &n, err,
		    sizeof err) == -1) {
			fprintf(stderr, "detect: %s\n", err);
			exit(1);
		}
		if (n == 0 || !adaptive)
			break;
		for (i = 0; i < n; i++)
			add(st, run, specs[i].knobs, t->factor, noise, rng,
			    specs[i].repetition);
		free(specs);
		detect_result_free(&res);
	}
	free(specs);
	for (i = 0; i < res.ntriggers; i++) {
		if (t->factor < 1 && strcmp(res.triggers[i].key,
		    "mtu=9000,tso=on") == 0)
			hit = 1;
		else
			bad = 1;
	}
	for (i = 0; i < res.nrun_series; i++)
		ta->samples += (long)res.series[i].n;
	ta->matrices++;
	ta->found += hit;
	ta->wrong += bad;
	detect_result_free(&res);
}

int
main(int argc, char **argv)
{
	struct store		*st = NULL;
	struct stats_rng	 rng;
	struct tally		 ta;
	char			 path[256], err[512];
	long			 trials = argc > 1 ? atol(argv[1]) : 100, k;
	size_t			 ti, ni;
	int			 ad;

	stats_rng_seed(&rng, argc > 2 ? strtoull(argv[2], NULL, 0) : 1);
	snprintf(path, sizeof path, "%s/lr-detect-bench-%ld.db",
	    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
	    (long)getpid());
	if (trials < 1 || store_open(path, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err) == -1) {
		fprintf(stderr, "usage: bench_detect_bench [trials] [seed] "
		    "(%s)\n", trials < 1 ? "trials >= 1" : err);
		return 1;
	}
	printf("%-18s %5s  %-9s %8s %8s %10s\n", "truth", "noise", "design",
	    "wrong", "found", "samples/c");
	for (ti = 0; ti < sizeof truths / sizeof truths[0]; ti++)
		for (ni = 0; ni < sizeof noises / sizeof noises[0]; ni++)
			for (ad = 0; ad <= 1; ad++) {
				memset(&ta, 0, sizeof ta);
				for (k = 0; k < trials; k++)
					one(st, &truths[ti], noises[ni], ad,
					    &rng, &ta);
				printf("%-18s %4.0f%%  %-9s %7.1f%% %7.1f%% "
				    "%10.1f\n", truths[ti].name,
				    noises[ni] * 100, ad ? "adaptive" :
				    "fixed-10", 100.0 * ta.wrong / ta.matrices,
				    100.0 * ta.found / ta.matrices,
				    (double)ta.samples / ta.matrices / 4);
				fflush(stdout);
			}
	store_close(st);
	unlink(path);
	snprintf(err, sizeof err, "%s-wal", path);
	unlink(err);
	snprintf(err, sizeof err, "%s-shm", path);
	unlink(err);
	return 0;
}
