/*
 * hunt_step: one step of a bisect.  A run of kind "bisect" is created, the
 * revision goes on both hosts of the link (ops->install), then jobs are
 * queued in the batches the adaptive sampling (bisect_sample_next()) asks
 * for, reference and candidate interleaved, and measured (ops->measure);
 * the samples are read back from the store.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "config.h"
#include "hunt_int.h"
#include "kernel.h"
#include "stats.h"
#include "store.h"
#include "util.h"

/* ---- putting a revision on the link's hosts --------------------------- */

int
hunt_install(struct hunt_sess *s, const char *rev, char *reason, size_t rlen,
    char *err, size_t errlen)
{
	struct hunt_install	in[2];
	int			i, rc = 0;

	memset(in, 0, sizeof in);
	in[0].host = &s->inv->hosts[s->link->client.host_index];
	in[1].host = &s->inv->hosts[s->link->server.host_index];
	s->ops->install(s->lab_arg, &s->lab, rev, in);
	reason[0] = '\0';
	for (i = 0; i < 2; i++) {
		if (in[i].rc == -1) {
			util_seterr(err, errlen, "%s", in[i].err);
			rc = -1;
		} else if (rc == 0 && in[i].out.result != KERNEL_OK) {
			snprintf(reason, rlen, "%s: %s: %s", in[i].host->name,
			    kernel_result_name(in[i].out.result),
			    in[i].out.detail);
			rc = 1;
		}
		if (in[i].rc == 0)
			hunt_emit(s->opts, s->v.row.id, HUNT_EV_INSTALLED, rev,
			    "bisect: %s: %s %s (install %.1f s, boot %.1f s%s)",
			    in[i].host->name, rev,
			    kernel_result_name(in[i].out.result),
			    in[i].out.install_ms / 1e3,
			    in[i].out.boot_ms / 1e3,
			    in[i].out.power_cycled ? ", power-cycled" : "");
	}
	snprintf(s->installed, sizeof s->installed, "%s", rc == 0 ? rev : "");
	return rc;
}

/* ---- measuring ------------------------------------------------------- */

/* The metric's values of a side in run_id, in job order (heap). */
static int
step_values(struct hunt_sess *s, int64_t run_id, int side, double **v,
    size_t *n, char *err, size_t errlen)
{
	struct store_series	*ser = NULL;
	size_t			 nser = 0, i;

	*v = NULL;
	*n = 0;
	if (store_samples_query(s->v.st, run_id, s->v.test->metric, &ser,
	    &nser, err, errlen) == -1)
		return -1;
	for (i = 0; i < nser; i++) {
		if (strcmp(ser[i].knobs_key, s->key[side]) != 0 ||
		    strcmp(ser[i].link, s->v.row.link) != 0)
			continue;
		*v = xreallocarray(*v, *n + ser[i].n + 1, sizeof **v);
		memcpy(*v + *n, ser[i].values, ser[i].n * sizeof **v);
		*n += ser[i].n;
	}
	store_series_free(ser, nser);
	return 0;
}

/* Queues nref + ncand jobs (interleaved) and has the lab run them. */
static int
step_batch(struct hunt_sess *s, int64_t run_id, size_t nref, size_t ncand,
    char *err, size_t errlen)
{
	struct store_job_spec	*specs;
	size_t			 i, k = 0;
	int			 stopped = 0;

	specs = xcalloc(nref + ncand + 1, sizeof *specs);
	for (i = 0; i < nref || i < ncand; i++) {
		if (i < ncand) {
			specs[k] = s->spec[HUNT_SIDE_CAND];
			specs[k++].repetition = s->reps;
		}
		if (i < nref) {
			specs[k] = s->spec[HUNT_SIDE_REF];
			specs[k++].repetition = s->reps;
		}
		s->reps++;
	}
	if (store_jobs_add(s->v.st, run_id, specs, k, err, errlen) == -1) {
		free(specs);
		return -1;
	}
	free(specs);
	if (s->ops->measure(s->lab_arg, &s->lab, run_id, &stopped, err,
	    errlen) == -1)
		return -1;
	if (stopped || *s->stop) {
		util_seterr(err, errlen, "interrupted");
		return -1;
	}
	return 0;
}

/*
 * Test hook (tests/integration/bisect_sim.sh): with
 * LABRAT_TEST_STOP_BETWEEN_BATCHES=N the process stops itself (SIGSTOP),
 * once, between two batches of a step, the first from the Nth step it
 * measures on that needs more than one, so that a test can SIGKILL it just
 * there: the link held as the step's last batch left it, no job running.
 * Called before every batch; between: not the step's first.
 */
static void
step_test_stop(int between)
{
	static int	 steps, done;
	const char	*v;

	if (!between) {
		steps++;
		return;
	}
	if (done || (v = getenv("LABRAT_TEST_STOP_BETWEEN_BATCHES")) == NULL ||
	    atoi(v) < 1 || steps < atoi(v))
		return;
	done = 1;
	raise(SIGSTOP);
}

struct step_measure {
	double			*ref, *cand;
	size_t			 nref, ncand;
	struct bisect_decision	 d;
	size_t			 jobs;
};

/* The GOOD check of a baseline bisect: its own samples become the fixed
 * reference once there are max_samples of them. */
static int
step_baseline_ref(struct hunt_sess *s, struct step_measure *ms)
{
	memset(&ms->d, 0, sizeof ms->d);
	if (ms->ncand < s->bt.stats.max_samples) {
		ms->d.add_cand = s->bt.stats.max_samples - ms->ncand;
		return 0;
	}
	ms->d.action = BISECT_DECIDED;
	ms->d.outcome = BISECT_GOOD;
	ms->d.strength = 1.0;
	ms->d.ratio = 1.0;
	ms->d.v.p = 0.0;
	ms->d.v.median_b = stats_median(ms->cand, ms->ncand);
	s->base = xcalloc(ms->ncand, sizeof *s->base);
	memcpy(s->base, ms->cand, ms->ncand * sizeof *s->base);
	s->nbase = ms->ncand;
	return 1;
}

static double *
dup_values(const double *v, size_t n)
{
	return n > 0 ? memcpy(xcalloc(n, sizeof *v), v, n * sizeof *v) : NULL;
}

/*
 * An endpoint inconclusive at max_samples: go on with the same samples up
 * to HUNT_ENDPOINT_FACTOR times the cap (no further re-measuring; the
 * looks' Bonferroni share shrinks with their number).  1 when extended.
 */
static int
step_extend(struct hunt_sess *s, const struct bisect_request *req,
    const struct step_measure *ms, struct bisect_test *ext)
{
	if (ms->d.outcome != BISECT_SKIP || (req->why != BISECT_CHECK_GOOD &&
	    req->why != BISECT_CHECK_BAD))
		return 0;
	*ext = s->bt;
	ext->stats.max_samples *= HUNT_ENDPOINT_FACTOR;
	hunt_emit(s->opts, s->v.row.id, HUNT_EV_TESTING, req->id,
	    "bisect: %s (%s): inconclusive at n=%zu, ratio %.3f: up to %zu "
	    "samples per side", req->id, bisect_why_name(req->why),
	    ms->ncand, ms->d.ratio, ext->stats.max_samples);
	return 1;
}

/* Adaptive sampling of one step in run_id. */
static int
step_measure(struct hunt_sess *s, const struct bisect_request *req,
    int64_t run_id, struct step_measure *ms, char *err, size_t errlen)
{
	struct bisect_test	 ext;
	const struct bisect_test *bt = &s->bt;
	double			*rv = NULL, *cv = NULL;
	size_t			 nr = 0, nc = 0, roff = 0, coff = 0, before;
	int			 attempt = 0, baseline_ref, ab;

	ab = s->v.test->compare == CONFIG_BISECT_AB;
	baseline_ref = !ab && s->nbase == 0 && req->why == BISECT_CHECK_GOOD;
	for (;;) {
		ms->ref = ab ? rv + roff : s->base;
		ms->nref = ab ? nr - roff : s->nbase;
		ms->cand = cv + coff;
		ms->ncand = nc - coff;
		if (baseline_ref) {
			if (step_baseline_ref(s, ms))
				break;
		} else if (bisect_sample_next(bt, ms->ref, ms->nref,
		    ms->cand, ms->ncand, bt == &ext ? bt->remeasures : attempt,
		    &ms->d, err, errlen) == -1)
			goto fail;
		if (ms->d.action == BISECT_DECIDED && bt == &s->bt &&
		    step_extend(s, req, ms, &ext)) {
			bt = &ext;
			continue;
		}
		if (ms->d.action == BISECT_DECIDED)
			break;
		if (ms->d.action == BISECT_REMEASURE) {
			attempt++;
			roff = nr;
			coff = nc;
			continue;
		}
		before = nr + nc;
		step_test_stop(ms->jobs > 0);
		if (step_batch(s, run_id, ab ? ms->d.add_ref : 0,
		    ms->d.add_cand, err, errlen) == -1)
			goto fail;
		ms->jobs += ms->d.add_ref + ms->d.add_cand;
		free(rv);
		free(cv);
		rv = cv = NULL;
		if ((ab && step_values(s, run_id, HUNT_SIDE_REF, &rv, &nr, err,
		    errlen) == -1) || step_values(s, run_id, HUNT_SIDE_CAND,
		    &cv, &nc, err, errlen) == -1)
			goto fail;
		if (nr + nc == before) {
			util_seterr(err, errlen, "no sample from %zu jobs "
			    "(see `labrat report` of run %lld)",
			    ms->d.add_ref + ms->d.add_cand, (long long)run_id);
			goto fail;
		}
	}
	/* Keep copies: the arrays above are freed. */
	ms->ref = dup_values(ms->ref, ms->nref);
	ms->cand = dup_values(ms->cand, ms->ncand);
	free(rv);
	free(cv);
	return 0;
fail:
	free(rv);
	free(cv);
	ms->ref = ms->cand = NULL;
	return -1;
}

/* "good endpoint " / "bad endpoint ", or NULL for another step. */
static const char *
step_endpoint(const struct bisect_request *req)
{
	return req->why == BISECT_CHECK_GOOD ? "good endpoint " :
	    req->why == BISECT_CHECK_BAD ? "bad endpoint " : NULL;
}

/* A revision that could not be put on the hosts: a skip. */
static void
step_skip(struct hunt_sess *s, const struct bisect_request *req,
    int64_t run_id, const char *reason, struct store_bisect_step *row,
    enum bisect_outcome *out, double *strength)
{
	char	e[1024];

	if (step_endpoint(req) != NULL)
		snprintf(s->endpoint_why, sizeof s->endpoint_why, "%s%s could "
		    "not be put on the hosts: %.400s", step_endpoint(req),
		    req->id, reason);

	store_run_finish(s->v.st, run_id, STORE_RUN_FAILED, reason, e,
	    sizeof e);
	hunt_emit(s->opts, s->v.row.id, HUNT_EV_SKIPPED, req->id,
	    "bisect: %s skipped: %.200s%s", req->id, reason,
	    strlen(reason) > 200 ? "..." : "");
	*out = BISECT_SKIP;
	*strength = -1;
	snprintf(row->verdict, sizeof row->verdict, "skip");
}

/* What an endpoint still inconclusive at the cap means, and what to do. */
static void
step_endpoint_why(struct hunt_sess *s, const struct bisect_request *req,
    const struct step_measure *ms)
{
	char	n[64];

	if (ms->nref == ms->ncand)
		snprintf(n, sizeof n, "n=%zu per side", ms->ncand);
	else
		snprintf(n, sizeof n, "n=%zu (reference %zu)", ms->ncand,
		    ms->nref);
	snprintf(s->endpoint_why, sizeof s->endpoint_why, "%s%s "
	    "inconclusive: ratio %.3f vs threshold %.3g at %s; raise "
	    "sampling.max_samples or move the threshold", step_endpoint(req),
	    req->id, ms->d.ratio, s->v.test->threshold, n);
}

/*
 * Which test decided a verdict, with its p: Mann-Whitney U (two-sided,
 * candidate against the reference scaled by the threshold) at the level
 * of that look, or the collapse rule, or none for the GOOD samples that
 * become a baseline bisect's reference.
 */
static void
step_test_text(const struct hunt_sess *s, const struct bisect_request *req,
    const struct step_measure *ms, const struct store_bisect_step *row,
    char *buf, size_t len)
{
	if (s->v.test->compare != CONFIG_BISECT_AB &&
	    req->why == BISECT_CHECK_GOOD && ms->nref == 0)
		snprintf(buf, len, "the reference (no test)");
	else if (ms->d.v.collapse)
		snprintf(buf, len, "collapse (disjoint samples beyond %gx; "
		    "Mann-Whitney p=%.4g)", s->bt.stats.collapse, row->p);
	else
		snprintf(buf, len, "p=%.4g (Mann-Whitney U, alpha %.3g)",
		    row->p, ms->d.v.alpha);
}

/* The verdict of a measured step into row. */
static void
step_verdict(struct hunt_sess *s, const struct bisect_request *req,
    int64_t run_id, const struct step_measure *ms,
    struct store_bisect_step *row, enum bisect_outcome *out,
    double *strength)
{
	char	e[1024];

	*out = ms->d.outcome;
	*strength = ms->d.outcome == BISECT_SKIP ? -1 : ms->d.strength;
	snprintf(row->verdict, sizeof row->verdict, "%s",
	    bisect_outcome_name(ms->d.outcome));
	row->n = (int)ms->ncand;
	row->median = ms->ncand > 0 ? stats_median(ms->cand, ms->ncand) : NAN;
	row->baseline_median = ms->nref > 0 ? stats_median(ms->ref,
	    ms->nref) : NAN;
	row->ratio = ms->d.ratio;
	/* The p of the test that decided, a skip's too: Mann-Whitney's at
	 * the last look (it missed alpha); replay ignores a skip's p. */
	row->p = isfinite(ms->d.v.p) ? ms->d.v.p : 1.0;
	if (ms->d.outcome == BISECT_SKIP && step_endpoint(req) != NULL)
		step_endpoint_why(s, req, ms);
	store_run_finish(s->v.st, run_id, STORE_RUN_DONE, ms->d.outcome ==
	    BISECT_SKIP ? "inconclusive after re-measuring" : NULL, e,
	    sizeof e);
	step_test_text(s, req, ms, row, e, sizeof e);
	hunt_emit(s->opts, s->v.row.id, HUNT_EV_VERDICT, req->id,
	    "bisect: %s (%s): %s, n=%d, ratio %.3f, %s", req->id,
	    bisect_why_name(req->why), row->verdict, row->n, row->ratio, e);
}

int
hunt_step(struct hunt_sess *s, const struct bisect_request *req,
    struct store_bisect_step *row, enum bisect_outcome *out,
    double *strength, char *err, size_t errlen)
{
	struct store_run_spec	 rs;
	struct step_measure	 ms;
	char			 reason[2048], e[1024];
	int64_t			 run_id;
	int			 r;

	s->endpoint_why[0] = '\0';
	memset(&rs, 0, sizeof rs);
	rs.kind = "bisect";
	rs.inventory_path = s->v.row.inventory_path;
	rs.plan_path = s->v.row.plan_path;
	rs.plan_text = s->plan_text;
	rs.owner = s->owner;
	rs.bisect_id = s->v.row.id;
	if (store_run_create(s->v.st, &rs, &run_id, err, errlen) == -1)
		return -1;
	row->run_id = run_id;
	if (store_bisect_step_update(s->v.st, row, err, errlen) == -1)
		return -1;
	if ((r = hunt_install(s, req->id, reason, sizeof reason, err,
	    errlen)) == -1) {
		store_run_finish(s->v.st, run_id, STORE_RUN_FAILED, err, e,
		    sizeof e);
		return -1;
	}
	if (r == 1) {
		step_skip(s, req, run_id, reason, row, out, strength);
		return 0;
	}
	memset(&ms, 0, sizeof ms);
	r = step_measure(s, req, run_id, &ms, err, errlen);
	/* The link back at its originals once the step's work ends. */
	if (s->ops->end != NULL)
		s->ops->end(s->lab_arg, &s->lab);
	if (r == -1) {
		store_run_finish(s->v.st, run_id, *s->stop ?
		    STORE_RUN_CANCELLED : STORE_RUN_FAILED, err, e, sizeof e);
		return -1;
	}
	step_verdict(s, req, run_id, &ms, row, out, strength);
	free(ms.ref);
	free(ms.cand);
	return 0;
}

int
hunt_load_base(struct hunt_sess *s, char *err, size_t errlen)
{
	size_t	i;

	if (s->v.test->compare != CONFIG_BISECT_BASELINE)
		return 0;
	for (i = 0; i < s->v.nsteps; i++)
		if (strcmp(s->v.steps[i].revision, s->v.row.good) == 0 &&
		    strcmp(s->v.steps[i].verdict, "good") == 0)
			return step_values(s, s->v.steps[i].run_id,
			    HUNT_SIDE_CAND, &s->base, &s->nbase, err, errlen);
	return 0;
}
