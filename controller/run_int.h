/*
 * run_int.h: internal to run.c and run_adaptive.c: the open run and the
 * adaptive sampling loop.
 */
#ifndef LABRAT_RUN_INT_H
#define LABRAT_RUN_INT_H

#include "config.h"
#include "executor.h"
#include "store.h"

#define RUN_ADAPTIVE_ROUNDS	16	/* looks are at most log2(max/min) + 2 */

struct run {
	char			*db_path;	/* heap copy */
	struct store		*st;
	struct config_inventory	*inv;
	struct config_plan	*plan;
	int64_t			 id;
	char			 owner[128];
};

/*
 * One look: detect over the run's samples, and the jobs that bring every
 * still inconclusive comparison to its next look queued; *added gets how
 * many (0: everything is decided or at max_samples).
 */
int	run_adaptive_queue(struct store *, const struct config_plan *,
	    int64_t run_id, size_t *added, char *err, size_t errlen);

/*
 * The adaptive rounds after the planned repetitions: look, queue, drain
 * the new jobs on ex (the executor of the planned jobs, its host sessions
 * reused), until nothing is added, nothing could be measured, *stop, or
 * RUN_ADAPTIVE_ROUNDS.  Adds each round's counts to *sum.  0, or -1 with
 * err (what was run so far stays counted).
 */
int	run_adaptive(struct run *, struct executor *ex,
	    struct executor_summary *sum, char *err, size_t errlen);

#endif
