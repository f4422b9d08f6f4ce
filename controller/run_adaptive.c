/*
 * run_adaptive: adaptive sampling, and the run's one job counter across
 * its rounds.  After the planned repetitions, detect looks at every
 * one-knob comparison; those still inconclusive get repetitions on both
 * sides, interleaved (A B A B), up to the plan's max_samples; the run's
 * executor runs them on the sessions it already holds; repeat.  The
 * executor counts per drain; the track (run_track_*) counts the run: its
 * worst case (every comparison taken to max_samples), its ETA, and the
 * events that say the plan up front and each round as it starts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "detect.h"
#include "executor.h"
#include "knobs.h"
#include "log.h"
#include "matrix.h"
#include "run.h"
#include "run_int.h"
#include "store.h"
#include "util.h"

/* The counter ------------------------------------------------------------ */

/* One series of the run's jobs: link, knobs, tool and params. */
struct track_series {
	const struct store_job	*job;		/* its first job */
	int64_t			 n;		/* its jobs */
};

static int
same_workload(const struct store_job *a, const struct store_job *b)
{
	return strcmp(a->link, b->link) == 0 && strcmp(a->tool, b->tool) ==
	    0 && strcmp(a->params, b->params) == 0;
}

/* The run's series, the jobs of each counted; heap, caller frees. */
static struct track_series *
track_series(const struct store_job *jobs, size_t nj, size_t *nser)
{
	struct track_series	*s;
	size_t			 i, k;

	s = xcalloc(nj > 0 ? nj : 1, sizeof *s);
	*nser = 0;
	for (i = 0; i < nj; i++) {
		for (k = 0; k < *nser; k++)
			if (same_workload(s[k].job, &jobs[i]) &&
			    strcmp(s[k].job->knobs_key, jobs[i].knobs_key) == 0)
				break;
		if (k == *nser)
			s[(*nser)++].job = &jobs[i];
		s[k].n++;
	}
	return s;
}

/* 1 when series i has a one-knob comparison (what adaptive extends). */
static int
track_compared(const struct track_series *s, size_t n, size_t i)
{
	size_t	j;

	for (j = 0; j < n; j++)
		if (j != i && same_workload(s[i].job, s[j].job) &&
		    knobs_ndiff(&s[i].job->knobs, &s[j].job->knobs) == 1)
			return 1;
	return 0;
}

/* What one job of series s takes, from its workload in the plan (ms). */
static int64_t
track_job_ms(const struct config_plan *plan, const struct store_job *job)
{
	char	key[STORE_PARAMS_MAX];
	size_t	i;

	for (i = 0; i < plan->nworkloads; i++) {
		const struct config_workload *wl = &plan->workloads[i];

		if (strcmp(config_tool_name(wl->tool), job->tool) != 0 ||
		    matrix_workload_key(wl, key, sizeof key) == -1 ||
		    strcmp(key, job->params) != 0)
			continue;
		/* scp has no duration of its own: call it the iperf default */
		return (wl->tool == CONFIG_TOOL_SCP ? 10000 : wl->time *
		    1000LL) + plan->settle_ms + RUN_JOB_OVERHEAD_MS;
	}
	return 10000 + plan->settle_ms + RUN_JOB_OVERHEAD_MS;
}

/*
 * The worst case (every series with a comparison at max_samples when the
 * plan is adaptive) and the plan's estimate of a job's wall time: the
 * links run side by side, so the longest link's jobs over all the jobs.
 */
static int
track_plan(struct run_track *t, char *err, size_t errlen)
{
	const struct config_plan *plan = t->run->plan;
	struct store_job	*jobs = NULL;
	struct track_series	*s;
	size_t			 nj = 0, ns, i, l;
	int64_t			 linkms, wall = 0, max = plan->stats.max_samples;

	if (store_job_list(t->run->st, t->run->id, -1, &jobs, &nj, err,
	    errlen) == -1)
		return -1;
	s = track_series(jobs, nj, &ns);
	t->worst = 0;
	for (i = 0; i < ns; i++)
		t->worst += plan->stats.adaptive && s[i].n < max &&
		    track_compared(s, ns, i) ? max : s[i].n;
	for (l = 0; l < plan->nlinks; l++) {
		linkms = 0;
		for (i = 0; i < nj; i++)
			if (strcmp(jobs[i].link, plan->links[l]) == 0)
				linkms += track_job_ms(plan, &jobs[i]);
		if (linkms > wall)
			wall = linkms;
	}
	t->est_job_ms = nj > 0 ? wall / (int64_t)nj : 0;
	free(s);
	free(jobs);
	return 0;
}

/* Reads the run's counts: total so far, ended (not queued or running). */
static int
track_refresh(struct run_track *t, char *err, size_t errlen)
{
	struct store_counts	cnt;

	if (store_job_counts(t->run->st, t->run->id, NULL, &cnt, err,
	    errlen) == -1)
		return -1;
	t->total = cnt.total;
	t->base_done = cnt.total - cnt.n[STORE_JOB_QUEUED] -
	    cnt.n[STORE_JOB_RUNNING];
	t->failed = cnt.n[STORE_JOB_FAILED];
	if (t->worst < t->total)
		t->worst = t->total;	/* failed jobs were measured again */
	return 0;
}

/* A job's wall time as measured so far, else the plan's guess; -1. */
static int64_t
track_per_job(const struct run_track *t, int64_t ms, int64_t jobs,
    int *estimated)
{
	*estimated = jobs == 0;
	if (jobs > 0)
		return ms / jobs;
	return t->est_job_ms > 0 ? t->est_job_ms : -1;
}

static void
track_eta(const struct run_track *t, int64_t per_job, int64_t done,
    int64_t *eta, int64_t *eta_worst)
{
	*eta = per_job < 0 ? -1 : per_job * (t->total - done);
	*eta_worst = per_job < 0 ? -1 : per_job * (t->worst - done);
}

static void
track_event(struct run_track *t, enum run_event_kind kind, int64_t added,
    int64_t inconclusive)
{
	struct run_event	ev;
	int64_t			per_job;

	if (t->drive == NULL || t->drive->event == NULL)
		return;
	memset(&ev, 0, sizeof ev);
	ev.kind = kind;
	ev.round = t->round;
	ev.added = added;
	ev.inconclusive = inconclusive;
	ev.adaptive = t->run->plan->stats.adaptive;
	ev.planned = t->planned;
	ev.total = t->total;
	ev.worst = t->worst;
	ev.done = t->base_done;
	per_job = track_per_job(t, t->measured_ms, t->measured_jobs,
	    &ev.eta_estimated);
	track_eta(t, per_job, ev.done, &ev.eta_ms, &ev.eta_worst_ms);
	t->drive->event(&ev, t->drive->event_arg);
}

int
run_track_init(struct run_track *t, struct run *r,
    const struct run_drive *drive, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->run = r;
	t->drive = drive;
	t->round = 1;
	if (track_plan(t, err, errlen) == -1 ||
	    track_refresh(t, err, errlen) == -1)
		return -1;
	t->planned = t->total;
	track_event(t, RUN_EVENT_PLANNED, 0, 0);
	return 0;
}

int
run_track_round(struct run_track *t, int64_t added, int64_t inconclusive,
    char *err, size_t errlen)
{
	t->round++;
	if (track_refresh(t, err, errlen) == -1)
		return -1;
	track_event(t, RUN_EVENT_ROUND, added, inconclusive);
	return 0;
}

void
run_track_settled(struct run_track *t, int64_t inconclusive)
{
	char	e[256];

	if (track_refresh(t, e, sizeof e) == -1)
		return;
	track_event(t, RUN_EVENT_SETTLED, 0, inconclusive);
}

void
run_track_progress(const struct executor_progress *p, void *arg)
{
	struct run_track	*t = arg;
	struct run_progress	 rp;
	int64_t			 per_job;
	int			 est;

	t->drain_done = p->done;
	t->drain_retried = p->retried;
	if (t->drive == NULL || t->drive->progress == NULL)
		return;
	memset(&rp, 0, sizeof rp);
	rp.job = *p;
	rp.job.done = t->base_done + p->done;
	rp.job.total = t->total;
	rp.job.retried = t->base_retried + p->retried;
	rp.job.elapsed_ms = t->measured_ms + p->elapsed_ms;
	per_job = track_per_job(t, rp.job.elapsed_ms, t->measured_jobs +
	    p->done, &est);
	track_eta(t, per_job, rp.job.done, &rp.job.eta_ms, &rp.eta_worst_ms);
	rp.worst = t->worst;
	rp.round = t->round;
	rp.adaptive = t->run->plan->stats.adaptive;
	t->drive->progress(&rp, t->drive->progress_arg);
}

int
run_track_drain(struct run_track *t, run_drain_fn drain, void *arg,
    struct executor_summary *sum, char *err, size_t errlen)
{
	struct executor_summary	s;
	int64_t			t0 = util_now_ms(), before;
	char			e[256];
	int			rc;

	if (track_refresh(t, err, errlen) == -1)
		return -1;
	before = t->base_done;
	t->drain_done = t->drain_retried = 0;
	memset(&s, 0, sizeof s);
	rc = drain(arg, t->run->id, &s, err, errlen);
	t->measured_ms += util_now_ms() - t0;
	/* The store says how many ended; the progress reports may not. */
	if (track_refresh(t, e, sizeof e) == -1)
		t->base_done += t->drain_done;
	t->measured_jobs += t->base_done - before;
	t->base_retried += t->drain_retried;
	if (rc == -1) {
		/* A store error halted it: the caller interrupts the run. */
		sum->store_fault = s.store_fault;
		snprintf(sum->store_err, sizeof sum->store_err, "%s",
		    s.store_err);
		sum->restore_failures += s.restore_failures;
		return -1;
	}
	/* The executor's counts are the whole run's: not added up. */
	sum->done = s.done;
	sum->failed = s.failed;
	sum->cancelled = s.cancelled;
	sum->stopped |= s.stopped;
	sum->restore_failures += s.restore_failures;
	return 0;
}

/* The rounds ------------------------------------------------------------- */

int
run_adaptive_queue(struct store *st, const struct config_plan *plan,
    int64_t run_id, size_t *added, size_t *more, size_t *left, char *err,
    size_t errlen)
{
	struct detect_params	 p;
	struct detect_result	 res;
	struct store_job_spec	*specs = NULL;
	size_t			 i, nmore = 0, nleft = 0;
	int			 rc = -1;

	*added = 0;
	memset(&res, 0, sizeof res);
	detect_params_default(&p);
	detect_params_set(&p, plan->stats.alpha, plan->stats.min_effect,
	    plan->stats.min_samples, plan->stats.max_samples,
	    plan->stats.collapse_factor, plan->stats.adaptive);
	if (detect_params_metric(&p, "throughput_bps",
	    config_plan_lower_is_better(plan, "throughput_bps"), err,
	    errlen) == -1 ||
	    detect_run(st, run_id, &p, &res, err, errlen) == -1 ||
	    detect_more_jobs(st, &res, &specs, added, err, errlen) == -1)
		goto fail;
	for (i = 0; i < res.ncmps; i++) {
		if (res.cmps[i].v.verdict == STATS_INCONCLUSIVE)
			nleft++;
		if (res.cmps[i].add_a > 0 || res.cmps[i].add_b > 0)
			nmore++;
	}
	if (*added > 0 && store_jobs_add(st, run_id, specs, *added, err,
	    errlen) == -1)
		goto fail;
	if (more != NULL)
		*more = nmore;
	if (left != NULL)
		*left = nleft;
	rc = 0;
fail:
	free(specs);
	detect_result_free(&res);
	return rc;
}

int
run_adaptive(struct run *r, struct run_track *t, run_drain_fn drain,
    void *arg, struct executor_summary *sum, char *err, size_t errlen)
{
	size_t	added, more, left;
	int64_t	ended, failed;
	int	round;

	for (round = 1; round <= RUN_ADAPTIVE_ROUNDS; round++) {
		if (run_adaptive_queue(r->st, r->plan, r->id, &added, &more,
		    &left, err, errlen) == -1)
			return -1;
		if (added == 0) {
			run_track_settled(t, (int64_t)left);
			break;
		}
		if (run_track_round(t, (int64_t)added, (int64_t)more, err,
		    errlen) == -1)
			return -1;
		log_info("run %lld: adaptive sampling, round %d: %zu more jobs "
		    "for %zu inconclusive comparison%s", (long long)r->id,
		    t->round, added, more, more == 1 ? "" : "s");
		ended = t->base_done;
		failed = sum->failed;
		if (run_track_drain(t, drain, arg, sum, err, errlen) == -1)
			return -1;
		/* Nothing measured (all failed) or stopped: no endless loop. */
		if (sum->stopped || t->base_done == ended ||
		    sum->failed - failed >= (int64_t)added)
			break;
	}
	return 0;
}
