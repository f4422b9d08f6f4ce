/*
 * run_adaptive: adaptive sampling.  After the planned repetitions, detect
 * looks at every one-knob comparison; those still inconclusive get
 * repetitions on both sides, interleaved (A B A B), up to the plan's
 * max_samples; the run's executor runs them on the sessions it already
 * holds; repeat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "detect.h"
#include "executor.h"
#include "log.h"
#include "run.h"
#include "run_int.h"
#include "store.h"
#include "util.h"

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
	if (detect_run(st, run_id, &p, &res, err, errlen) == -1 ||
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
		    "for %zu inconclusive comparisons", (long long)r->id,
		    t->round, added, more);
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
