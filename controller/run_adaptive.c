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
    int64_t run_id, size_t *added, char *err, size_t errlen)
{
	struct detect_params	 p;
	struct detect_result	 res;
	struct store_job_spec	*specs = NULL;
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
	if (*added > 0 && store_jobs_add(st, run_id, specs, *added, err,
	    errlen) == -1)
		goto fail;
	rc = 0;
fail:
	free(specs);
	detect_result_free(&res);
	return rc;
}

int
run_adaptive(struct run *r, struct executor *ex,
    struct executor_summary *sum, char *err, size_t errlen)
{
	struct executor_summary	s;
	size_t			added;
	int			round;

	for (round = 1; round <= RUN_ADAPTIVE_ROUNDS; round++) {
		if (run_adaptive_queue(r->st, r->plan, r->id, &added, err,
		    errlen) == -1)
			return -1;
		if (added == 0)
			break;
		log_info("run %lld: adaptive sampling, look %d: %zu more jobs "
		    "for inconclusive comparisons", (long long)r->id, round,
		    added);
		memset(&s, 0, sizeof s);
		if (executor_drain(ex, r->id, &s, err, errlen) == -1)
			return -1;
		sum->done += s.done;
		sum->failed += s.failed;
		sum->cancelled += s.cancelled;
		sum->stopped |= s.stopped;
		sum->restore_failures += s.restore_failures;
		/* Nothing measured (all failed) or stopped: no endless loop. */
		if (s.stopped || s.done == 0)
			break;
	}
	return 0;
}
