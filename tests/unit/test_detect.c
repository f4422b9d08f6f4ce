/*
 * test_detect: within-run verdicts, knob isolation, run over run and the
 * adaptive job plan, on synthetic sample tables with known answers stored
 * in a real SQLite file through the store API.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "detect.h"
#include "store_fixture.h"
#include "util.h"

static char	dbpath[256];

static int
setup(void **state)
{
	(void)state;
	fx_db_path(dbpath, sizeof dbpath, "detect");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_db_remove(dbpath);
	return 0;
}

static struct store *
db_open(void)
{
	struct store	*st = NULL;
	char		 err[512];

	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		fail_msg("%s", err);
	return st;
}

static int64_t
run_new(struct store *st, const char *plan)
{
	struct store_run_spec	spec;
	int64_t			id;
	char			err[512];

	memset(&spec, 0, sizeof spec);
	spec.kind = "manual";
	spec.inventory_path = "inv.json";
	spec.plan_path = "plan.json";
	spec.plan_text = plan;
	assert_int_equal(store_run_create(st, &spec, &id, err, sizeof err), 0);
	return id;
}

/* Facts for revision rev; returns the facts id. */
static int64_t
facts(struct store *st, int64_t run, const char *host, const char *rev)
{
	struct store_host_facts	f;
	int64_t			id;
	char			err[512];

	memset(&f, 0, sizeof f);
	f.host = host;
	f.os = "linux";
	f.revision = rev;
	f.ifname = "em0";
	f.driver = "em";
	f.knobs = "";
	assert_int_equal(store_host_facts_add(st, run, &f, &id, err,
	    sizeof err), 0);
	return id;
}

/* One done job with sample v of metric (unit unit). */
static void
sample_of(struct store *st, int64_t run, const char *link, struct knobs k,
    const char *metric, const char *unit, double v, int rep, int64_t cf,
    int64_t sf)
{
	struct store_job_spec	spec;
	struct store_job	job;
	struct store_job_result	r;
	struct store_sample	s = { metric, 0, unit, 0 };
	char			err[512];

	memset(&spec, 0, sizeof spec);
	spec.link = link;
	spec.knobs = k;
	spec.tool = "iperf3";
	spec.params = "iperf3:len=128k,time=2";
	spec.repetition = rep;
	assert_int_equal(store_jobs_add(st, run, &spec, 1, err, sizeof err),
	    0);
	assert_int_equal(store_job_claim(st, run, link, "t", &job, err,
	    sizeof err), 1);
	memset(&r, 0, sizeof r);
	s.value = v;
	r.state = STORE_JOB_DONE;
	r.samples = &s;
	r.nsamples = 1;
	r.client_facts_id = cf;
	r.server_facts_id = sf;
	assert_int_equal(store_job_finish(st, job.id, &r, err, sizeof err), 0);
}

/* One done job with sample v of throughput_bps. */
static void
sample(struct store *st, int64_t run, const char *link,
    struct knobs k, double v, int rep, int64_t cf, int64_t sf)
{
	sample_of(st, run, link, k, "throughput_bps", "bit/s", v, rep, cf, sf);
}

/* n samples of base (1 + noise Z). */
static void
series(struct store *st, struct stats_rng *rng, int64_t run, const char *link,
    struct knobs k, double base, double noise, int n, int64_t cf,
    int64_t sf)
{
	int	i;

	for (i = 0; i < n; i++)
		sample(st, run, link, k, fmax(0, base * (1 + noise *
		    stats_rng_normal(rng))), i, cf, sf);
}

static void
params_fixed(struct detect_params *p, size_t n)
{
	detect_params_default(p);
	p->adaptive = 0;
	p->stats.min_samples = 5;
	p->stats.max_samples = n > 5 ? n : 5;
}

static size_t
flagged(const struct detect_cmp *c, size_t n)
{
	size_t	i, k = 0;

	for (i = 0; i < n; i++)
		k += detect_flagged(&c[i]);
	return k;
}

static const struct detect_cmp *
cmp_of(const struct detect_result *r, size_t i)
{
	assert_true(i != DETECT_NONE && i < r->ncmps);
	return &r->cmps[i];
}

/* 3 % noise, no effect, 60 links x 4 combinations x 10: false alarms. */
static void
test_false_alarms(void **state)
{
	struct store		*st = db_open();
	struct stats_rng	 rng;
	struct detect_params	 p;
	struct detect_result	 res;
	char			 err[512], link[16];
	int64_t			 run;
	size_t			 nf;
	int			 l, t, m;

	(void)state;
	stats_rng_seed(&rng, 42);
	run = run_new(st, NULL);
	for (l = 0; l < 60; l++) {
		snprintf(link, sizeof link, "l%d", l);
		for (t = 0; t <= 1; t++)
			for (m = 0; m <= 1; m++)
				series(st, &rng, run, link, kn(t, m ? 9000 :
				    1500, NULL), 1e9, 0.03, 10, 0, 0);
	}
	params_fixed(&p, 10);
	assert_int_equal(detect_run(st, run, &p, &res, err, sizeof err), 0);
	assert_int_equal(res.ncmps, 240);
	nf = flagged(res.cmps, res.ncmps);
	printf("false alarms at 3%% noise, n = 10/10: %zu of %zu "
	    "comparisons, %zu triggers\n", nf, res.ncmps, res.ntriggers);
	assert_true(nf <= 3);
	assert_true(res.ntriggers <= nf);
	assert_int_equal(res.cmps[0].family_size, 4);
	detect_result_free(&res);
	/* The same samples judged as the last adaptive look (alpha / 2). */
	p.adaptive = 1;
	assert_int_equal(detect_run(st, run, &p, &res, err, sizeof err), 0);
	nf = flagged(res.cmps, res.ncmps);
	printf("same, as the adaptive rule's last look: %zu of %zu\n", nf,
	    res.ncmps);
	assert_true(nf <= 2);
	detect_result_free(&res);
	store_close(st);
}

/* em: TSO on with MTU 9000 is 18 % slower; each alone is nothing. */
static void
test_em_interaction(void **state)
{
	struct store		*st = db_open();
	struct stats_rng	 rng;
	struct detect_params	 p;
	struct detect_result	 res;
	const struct detect_trigger *tr;
	char			 err[512];
	int64_t			 run;

	(void)state;
	stats_rng_seed(&rng, 7);
	run = run_new(st, NULL);
	series(st, &rng, run, "em", kn(0, 1500, NULL), 1e9, 0.01, 10, 0, 0);
	series(st, &rng, run, "em", kn(1, 1500, NULL), 1e9, 0.01, 10, 0, 0);
	series(st, &rng, run, "em", kn(0, 9000, NULL), 1e9, 0.01, 10, 0, 0);
	series(st, &rng, run, "em", kn(1, 9000, NULL), 0.82e9, 0.01, 10, 0,
	    0);
	params_fixed(&p, 10);
	assert_int_equal(detect_run(st, run, &p, &res, err, sizeof err), 0);
	assert_int_equal(res.ncmps, 4);
	assert_int_equal(flagged(res.cmps, res.ncmps), 2);
	assert_int_equal(res.ntriggers, 1);
	tr = &res.triggers[0];
	assert_string_equal(tr->key, "mtu=9000,tso=on");
	assert_false(tr->collapse);
	assert_int_equal(cmp_of(&res, tr->headline)->knob, KNOB_TSO);
	assert_int_equal(cmp_of(&res, tr->headline)->v.verdict,
	    STATS_REGRESSION);
	assert_true(fabs(cmp_of(&res, tr->headline)->v.effect + 0.18) < 0.03);
	assert_int_equal(cmp_of(&res, tr->alone[KNOB_TSO])->v.verdict,
	    STATS_NO_CHANGE);
	assert_int_equal(cmp_of(&res, tr->alone[KNOB_MTU])->v.verdict,
	    STATS_NO_CHANGE);
	assert_int_equal(knobs_get(&res.series[cmp_of(&res,
	    tr->alone[KNOB_TSO])->sa].knobs, KNOB_MTU), 1500);
	detect_result_free(&res);
	store_close(st);
}

/* TSO on is 18 % slower at every MTU: the trigger is TSO alone. */
static void
test_single_knob(void **state)
{
	struct store		*st = db_open();
	struct stats_rng	 rng;
	struct detect_params	 p;
	struct detect_result	 res;
	char			 err[512];
	int64_t			 run;

	(void)state;
	stats_rng_seed(&rng, 8);
	run = run_new(st, NULL);
	series(st, &rng, run, "em", kn(0, 1500, NULL), 1e9, 0.01, 10, 0, 0);
	series(st, &rng, run, "em", kn(1, 1500, NULL), 0.82e9, 0.01, 10, 0,
	    0);
	series(st, &rng, run, "em", kn(0, 9000, NULL), 1e9, 0.01, 10, 0, 0);
	series(st, &rng, run, "em", kn(1, 9000, NULL), 0.82e9, 0.01, 10, 0,
	    0);
	params_fixed(&p, 10);
	assert_int_equal(detect_run(st, run, &p, &res, err, sizeof err), 0);
	assert_int_equal(res.ntriggers, 1);
	assert_string_equal(res.triggers[0].key, "tso=on");
	assert_int_equal(res.triggers[0].contexts, 2);
	detect_result_free(&res);
	store_close(st);
}

/* The MTU comparison undecided (a small effect at 3 % noise): TSO's
 * regression at MTU 9000 and not at 1500 still names both knobs. */
static void
test_widen(void **state)
{
	struct store		*st = db_open();
	struct detect_params	 p;
	struct detect_result	 res;
	char			 err[512];
	int64_t			 run;
	double			 v[4][10];
	int			 c, i;

	(void)state;
	run = run_new(st, NULL);
	/* Hand-made: TSO on @ 9000 is 5 % below TSO off @ 9000 (which is
	 * 4 % above MTU 1500) but only 1.6 % below TSO on @ 1500; TSO @ 1500
	 * is flat.  So only TSO's comparison at MTU 9000 is a regression. */
	for (i = 0; i < 10; i++) {
		v[0][i] = 1000 + (i % 5) * 4;	/* off, 1500 */
		v[1][i] = 1001 + (i % 5) * 4;	/* on, 1500 */
		v[2][i] = 1040 + (i % 5) * 4;	/* off, 9000 */
		v[3][i] = 985 + (i % 5) * 4;	/* on, 9000 */
	}
	for (c = 0; c < 4; c++)
		for (i = 0; i < 10; i++)
			sample(st, run, "em", kn(c & 1, c & 2 ? 9000 : 1500,
			    NULL), v[c][i] * 1e6, i, 0, 0);
	params_fixed(&p, 10);
	assert_int_equal(detect_run(st, run, &p, &res, err, sizeof err), 0);
	for (i = 0; i < (int)res.ncmps; i++)
		if (res.cmps[i].v.verdict == STATS_REGRESSION)
			assert_int_equal(res.cmps[i].knob, KNOB_TSO);
	assert_int_equal(res.ntriggers, 1);
	assert_string_equal(res.triggers[0].key, "mtu=9000,tso=on");
	assert_int_equal(res.cmps[res.triggers[0].headline].knob,
	    KNOB_TSO);
	assert_int_equal(res.cmps[res.triggers[0].alone[KNOB_TSO]].v.
	    verdict, STATS_NO_CHANGE);
	assert_true(res.triggers[0].alone[KNOB_MTU] != DETECT_NONE);
	detect_result_free(&res);
	store_close(st);
}

/* bce: TSO on with NAT kernel collapses ~100x, called from 3 samples. */
static void
test_bce_collapse(void **state)
{
	struct store		*st = db_open();
	struct stats_rng	 rng;
	struct detect_params	 p;
	struct detect_result	 res;
	const struct detect_trigger *tr;
	char			 err[512];
	int64_t			 run;

	(void)state;
	stats_rng_seed(&rng, 9);
	run = run_new(st, NULL);
	series(st, &rng, run, "bce", kn(0, 0, "off"), 1e9, 0.03, 3, 0, 0);
	series(st, &rng, run, "bce", kn(1, 0, "off"), 1e9, 0.03, 3, 0, 0);
	series(st, &rng, run, "bce", kn(0, 0, "kernel"), 1e9, 0.03, 3, 0, 0);
	series(st, &rng, run, "bce", kn(1, 0, "kernel"), 1e7, 0.03, 3, 0, 0);
	params_fixed(&p, 10);
	assert_int_equal(detect_run(st, run, &p, &res, err, sizeof err), 0);
	assert_int_equal(res.ntriggers, 1);
	tr = &res.triggers[0];
	assert_string_equal(tr->key, "nat=kernel,tso=on");
	assert_true(tr->collapse);
	assert_int_equal(cmp_of(&res, tr->headline)->v.n_a, 3);
	assert_true(cmp_of(&res, tr->headline)->v.ratio < 0.02);
	/* Three samples decide nothing but a collapse. */
	assert_int_equal(cmp_of(&res, tr->alone[KNOB_TSO])->v.verdict,
	    STATS_INCONCLUSIVE);
	assert_int_equal(cmp_of(&res, tr->alone[KNOB_NAT])->v.verdict,
	    STATS_INCONCLUSIVE);
	assert_int_equal(flagged(res.cmps, res.ncmps), 2);
	detect_result_free(&res);
	store_close(st);
}

/* Run 2 (r2) against run 1 (r1): only the em jumbo+TSO series regressed. */
static void
test_run_over_run(void **state)
{
	struct store		*st = db_open();
	struct stats_rng	 rng;
	struct detect_params	 p;
	struct detect_result	 res;
	char			 err[512];
	int64_t			 run[3], cf, sf, base;
	size_t			 i, nreg = 0;
	int			 r, t, m;

	(void)state;
	stats_rng_seed(&rng, 11);
	for (r = 0; r < 3; r++) {
		run[r] = run_new(st, NULL);
		cf = facts(st, run[r], r == 1 ? "other-a" : "em-a",
		    r == 2 ? "r2" : "r1");
		sf = facts(st, run[r], "em-b", r == 2 ? "r2" : "r1");
		for (t = 0; t <= 1; t++)
			for (m = 0; m <= 1; m++)
				series(st, &rng, run[r], "em", kn(t, m ? 9000 :
				    1500, NULL), r == 2 && t && m ? 0.82e9 :
				    1e9, 0.01, 8, cf, sf);
		assert_int_equal(store_run_finish(st, run[r], STORE_RUN_DONE,
		    NULL, err, sizeof err), 0);
	}
	/* Run 2 joined other hosts on link em: run 1 is the baseline. */
	assert_int_equal(detect_find_baseline(st, run[2], NULL, &base, err,
	    sizeof err), 0);
	assert_int_equal(base, run[0]);
	params_fixed(&p, 8);
	assert_int_equal(detect_run(st, run[2], &p, &res, err, sizeof err), 0);
	assert_int_equal(detect_baseline(st, 0, &res, err, sizeof err), 0);
	assert_int_equal(res.baseline_run, run[0]);
	assert_int_equal(res.nrcmps, 4);
	for (i = 0; i < res.nrcmps; i++) {
		const struct detect_cmp *c = &res.rcmps[i];

		assert_string_equal(res.series[c->sa].revision, "r1");
		assert_string_equal(res.series[c->sb].revision, "r2");
		if (strcmp(res.series[c->sb].knobs_key, "mtu=9000,tso=on") ==
		    0) {
			assert_int_equal(c->v.verdict, STATS_REGRESSION);
			nreg++;
		} else
			assert_false(detect_flagged(c));
	}
	assert_int_equal(nreg, 1);
	detect_result_free(&res);
	/* The first run has no baseline. */
	assert_int_equal(detect_find_baseline(st, run[0], NULL, &base, err,
	    sizeof err), 0);
	assert_int_equal(base, 0);
	store_close(st);
}

/* detect_links_fn: every stored inventory joins em between a and b,
 * or x and y for an inventory path "other.json". */
static int
links_hook(const struct store_run *run, struct detect_link **links,
    size_t *n, char *err, size_t errlen)
{
	int	other = strcmp(run->inventory_path, "other.json") == 0;

	(void)err;
	(void)errlen;
	*links = xcalloc(1, sizeof **links);
	snprintf((*links)[0].link, sizeof (*links)[0].link, "em");
	snprintf((*links)[0].client, sizeof (*links)[0].client, "%s",
	    other ? "x" : "a");
	snprintf((*links)[0].server, sizeof (*links)[0].server, "%s",
	    other ? "y" : "b");
	*n = 1;
	return 0;
}

static int
links_fail(const struct store_run *run, struct detect_link **links,
    size_t *n, char *err, size_t errlen)
{
	(void)run;
	*links = NULL;
	*n = 0;
	util_seterr(err, errlen, "bad stored inventory");
	return -1;
}

/* Runs whose jobs recorded no facts: host pairs from the caller's typed
 * links of their stored inventories. */
static void
test_baseline_links(void **state)
{
	struct store		*st = db_open();
	struct store_run_spec	 spec;
	struct detect_params	 p;
	char			 err[512];
	int64_t			 a, b, c, base;

	(void)state;
	memset(&spec, 0, sizeof spec);
	spec.kind = "manual";
	spec.inventory_text = "{}";	/* detect never parses it */
	spec.inventory_path = "lab.json";
	assert_int_equal(store_run_create(st, &spec, &a, err, sizeof err), 0);
	spec.inventory_path = "other.json";
	assert_int_equal(store_run_create(st, &spec, &b, err, sizeof err), 0);
	spec.inventory_path = "lab.json";
	assert_int_equal(store_run_create(st, &spec, &c, err, sizeof err), 0);
	assert_int_equal(store_run_finish(st, a, STORE_RUN_DONE, NULL, err,
	    sizeof err), 0);
	assert_int_equal(store_run_finish(st, b, STORE_RUN_DONE, NULL, err,
	    sizeof err), 0);
	detect_params_default(&p);
	/* Without the hook both sides are unknown: the newest earlier run. */
	assert_int_equal(detect_find_baseline(st, c, &p, &base, err,
	    sizeof err), 0);
	assert_int_equal(base, b);
	/* With it, run b joined other hosts on em: run a is the baseline. */
	p.inventory_links = links_hook;
	assert_int_equal(detect_find_baseline(st, c, &p, &base, err,
	    sizeof err), 0);
	assert_int_equal(base, a);
	/* A caller that cannot read a stored inventory fails the search. */
	p.inventory_links = links_fail;
	assert_int_equal(detect_find_baseline(st, c, &p, &base, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "bad stored inventory"));
	store_close(st);
}

static const char plan_text[] =
    "{ \"links\": [\"em\"], \"knobs\": { \"tso\": [true, false] },"
    " \"workloads\": [ { \"tool\": \"iperf3\", \"time\": 2 } ],"
    " \"repetitions\": 4, \"stats\": { \"alpha\": 0.01, \"min_effect\":"
    " 0.05, \"min_samples\": 4, \"max_samples\": 8, \"collapse_factor\": 4,"
    " \"adaptive\": true } }";

/* Inconclusive comparisons get interleaved repetitions up to the cap. */
static void
test_more_jobs(void **state)
{
	struct store		*st = db_open();
	struct stats_rng	 rng;
	struct detect_params	 p;
	struct detect_result	 res;
	struct store_job_spec	*specs;
	char			 err[512];
	int64_t			 run;
	size_t			 n, i;

	(void)state;
	stats_rng_seed(&rng, 5);
	run = run_new(st, plan_text);
	/* The plan's stats section, typed by the caller (detect parses no
	 * plan: report_params_run() and run_adaptive read it). */
	detect_params_default(&p);
	detect_params_set(&p, 0.01, 0.05, 4, 8, 4, 1);
	assert_true(p.adaptive);
	assert_true(fabs(p.stats.alpha - 0.01) < 1e-12);
	assert_int_equal(p.stats.min_samples, 4);
	assert_int_equal(p.stats.max_samples, 8);
	assert_true(fabs(p.stats.collapse - 4) < 1e-12);
	/* No effect, 5 % noise: undecided at 4, so 4 more on each side. */
	series(st, &rng, run, "em", kn(0, 0, NULL), 1e9, 0.05, 4, 0, 0);
	series(st, &rng, run, "em", kn(1, 0, NULL), 1e9, 0.05, 4, 0, 0);
	/* A collapse is decided: no more samples for it. */
	series(st, &rng, run, "bce", kn(0, 0, NULL), 1e9, 0.03, 4, 0, 0);
	series(st, &rng, run, "bce", kn(1, 0, NULL), 1e7, 0.03, 4, 0, 0);
	assert_int_equal(detect_run(st, run, &p, &res, err, sizeof err), 0);
	assert_int_equal(res.ncmps, 2);
	assert_int_equal(detect_more_jobs(st, &res, &specs, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 8);
	for (i = 0; i < n; i++) {
		assert_string_equal(specs[i].link, "em");
		/* A B A B ... */
		assert_int_equal(knobs_get(&specs[i].knobs, KNOB_TSO),
		    i % 2 == 0 ? 0 : 1);
		assert_int_equal(specs[i].repetition, 4 + (int)(i / 2));
	}
	assert_int_equal(store_jobs_add(st, run, specs, n, err, sizeof err),
	    0);
	free(specs);
	detect_result_free(&res);
	store_close(st);
}

/*
 * CPU of the sender (lower is better): on em TSO on at MTU 9000 takes
 * 55 % less CPU, on bce TSO on with NAT costs 55 % more.  Judged as
 * cpu_sender, em's drop is an improvement and no finding, bce's rise the
 * regression and its trigger; read the wrong way round (as if higher were
 * better), the drop would be the finding.
 */
static void
test_lower_is_better(void **state)
{
	struct store		*st = db_open();
	struct stats_rng	 rng;
	struct detect_params	 p;
	struct detect_result	 res;
	const struct detect_cmp	*c;
	char			 err[512];
	int64_t			 run;
	size_t			 i, nimp = 0, nreg = 0;
	int			 t, x, j, wrong;

	(void)state;
	stats_rng_seed(&rng, 11);
	run = run_new(st, NULL);
	for (t = 0; t <= 1; t++)
		for (x = 0; x <= 1; x++)
			for (j = 0; j < 10; j++) {
				sample_of(st, run, "em", kn(t, x ? 9000 : 1500,
				    NULL), "cpu_sender", "%", (t && x ? 18 :
				    40) * (1 + 0.01 * stats_rng_normal(&rng)),
				    j, 0, 0);
				sample_of(st, run, "bce", kn(t, 0, x ?
				    "kernel" : "off"), "cpu_sender", "%",
				    (t && x ? 62 : 40) * (1 + 0.01 *
				    stats_rng_normal(&rng)), j, 0, 0);
			}
	for (wrong = 0; wrong <= 1; wrong++) {
		params_fixed(&p, 10);
		assert_int_equal(detect_params_metric(&p, "cpu_sender",
		    wrong ? 0 : -1, err, sizeof err), 0);
		assert_int_equal(p.stats.lower_is_better, !wrong);
		assert_int_equal(detect_run(st, run, &p, &res, err,
		    sizeof err), 0);
		assert_int_equal(res.ncmps, 8);
		nimp = nreg = 0;
		for (i = 0; i < res.ncmps; i++) {
			c = &res.cmps[i];
			nimp += c->v.verdict == STATS_IMPROVEMENT;
			nreg += c->v.verdict == STATS_REGRESSION;
			if (!detect_flagged(c))
				continue;
			/* em: the 55 % drop; bce: the 55 % rise. */
			if (strcmp(res.series[c->sb].link, "em") == 0)
				assert_true(fabs(c->v.effect + 0.55) < 0.02);
			else
				assert_true(fabs(c->v.effect - 0.55) < 0.02);
			assert_int_equal(c->v.verdict, (c->v.effect < 0) ==
			    !wrong ? STATS_IMPROVEMENT : STATS_REGRESSION);
		}
		assert_int_equal(nimp, 2);
		assert_int_equal(nreg, 2);
		assert_int_equal(res.ntriggers, 1);
		assert_string_equal(res.series[res.triggers[0].worse].link,
		    wrong ? "em" : "bce");
		assert_string_equal(res.triggers[0].key, wrong ?
		    "mtu=9000,tso=on" : "nat=kernel,tso=on");
		detect_result_free(&res);
	}
	/* A name nobody knows has no direction until one is declared. */
	params_fixed(&p, 10);
	assert_int_equal(detect_params_metric(&p, "latency_us", -1, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "latency_us"));
	assert_string_equal(p.metric, "throughput_bps");
	assert_int_equal(detect_params_metric(&p, "latency_us", 1, err,
	    sizeof err), 0);
	assert_int_equal(p.stats.lower_is_better, 1);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_false_alarms, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_em_interaction, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lower_is_better, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_single_knob, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_widen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bce_collapse, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_run_over_run, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_more_jobs, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_baseline_links, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
