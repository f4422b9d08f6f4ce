/*
 * run_int.h: internal to run.c and run_adaptive.c: the open run, the
 * adaptive sampling loop and the run's one job counter.
 */
#ifndef LABRAT_RUN_INT_H
#define LABRAT_RUN_INT_H

#include "config.h"
#include "executor.h"
#include "run.h"
#include "store.h"

#define RUN_ADAPTIVE_ROUNDS	16	/* looks are at most log2(max/min) + 2 */
#define RUN_JOB_OVERHEAD_MS	1000	/* a job's guess beyond its workload */

struct run {
	char			*db_path;	/* heap copy */
	struct store		*st;
	struct config_inventory	*inv;
	struct config_plan	*plan;
	int64_t			 id;
	char			 owner[128];
	struct store_owner	 who;		/* this process */
};

/* Drains the run's queued jobs (executor_drain() on the run's executor,
 * or a test's stand-in); its summary counts the whole run. */
typedef int (*run_drain_fn)(void *arg, int64_t run_id,
	    struct executor_summary *, char *err, size_t errlen);

/*
 * The run's one job counter across rounds (run_adaptive.c).  The executor
 * counts per drain from 0; run_track_progress() (its progress callback,
 * arg: the track) adds the jobs ended before the drain.
 */
struct run_track {
	struct run		*run;		/* borrowed */
	const struct run_drive	*drive;		/* borrowed, may be NULL */
	int			 round;		/* 1: planned; 2..: adaptive */
	int64_t			 planned;	/* jobs when the run started */
	int64_t			 total;		/* jobs so far */
	int64_t			 worst;		/* every comparison at max */
	int64_t			 failed;
	int64_t			 base_done;	/* ended before this drain */
	int64_t			 base_retried;
	int64_t			 drain_done;	/* this drain, so far */
	int64_t			 drain_retried;
	int64_t			 measured_ms;	/* drains of this process */
	int64_t			 measured_jobs;
	int64_t			 est_job_ms;	/* the plan's guess, 0: none */
};

/* Counts the run's jobs and its worst case, then the RUN_EVENT_PLANNED
 * event.  drive may be NULL.  0, or -1 with err. */
int	run_track_init(struct run_track *, struct run *,
	    const struct run_drive *drive, char *err, size_t errlen);
/* The next round queued added jobs for inconclusive comparisons:
 * RUN_EVENT_ROUND. */
int	run_track_round(struct run_track *, int64_t added,
	    int64_t inconclusive, char *err, size_t errlen);
/* The rounds ended, inconclusive comparisons left at max_samples:
 * RUN_EVENT_SETTLED. */
void	run_track_settled(struct run_track *, int64_t inconclusive);
/* The executor's progress callback (arg: the track). */
void	run_track_progress(const struct executor_progress *, void *arg);
/*
 * One drain through drain(arg, ...), counted: *sum takes the drain's
 * whole-run job counts (not added to the earlier rounds'), stopped and
 * restore failures accumulate.  0, or -1 with err (the drain's).
 */
int	run_track_drain(struct run_track *, run_drain_fn drain, void *arg,
	    struct executor_summary *sum, char *err, size_t errlen);

/*
 * One look: detect over the run's samples, and the jobs that bring every
 * still inconclusive comparison to its next look queued; *added gets how
 * many (0: everything is decided or at max_samples), *more (may be NULL)
 * the comparisons they are for, *left (may be NULL) the comparisons
 * inconclusive at this look (those at max_samples among them get none).
 */
int	run_adaptive_queue(struct store *, const struct config_plan *,
	    int64_t run_id, size_t *added, size_t *more, size_t *left,
	    char *err, size_t errlen);

/*
 * The adaptive rounds after the planned repetitions: look, queue (each
 * round announced through t), drain the new jobs with drain (the executor
 * of the planned jobs, its host sessions reused), until nothing is added
 * (RUN_EVENT_SETTLED), nothing could be measured, *stop, or
 * RUN_ADAPTIVE_ROUNDS.  *sum as run_track_drain() leaves it.  0, or -1
 * with err (what was run so far stays counted).
 */
int	run_adaptive(struct run *, struct run_track *t, run_drain_fn drain,
	    void *arg, struct executor_summary *sum, char *err,
	    size_t errlen);

/* run.c: a new run's inventory (with its key files) and plan, loaded
 * and checked: 0, or -1 with errs (*inv, *plan: what loaded, to free). */
int	run_files_load(const char *ipath, const char *ppath,
	    struct config_inventory **inv, struct config_plan **plan,
	    struct config_errors *errs);

#endif
