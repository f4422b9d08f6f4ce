/*
 * executor: runs the jobs of a run on the lab.  One worker thread per link
 * claims that link's queued jobs from the store in order; hosts are leased,
 * so a host that belongs to two links is never used by two jobs at once.
 *
 * A job, on both hosts of its link: apply the knobs (MTU on both ends, TSO
 * on the sender or on both, NAT on the host the inventory names) with a
 * rollback timer on the host; verify what is in force; start the server
 * side; run the workload; collect; restore.  Infrastructure failures (SSH
 * drop, agent timeout, a host that reboots) are retried up to the plan's
 * retries and then recorded as failed with the reason; a measured result,
 * or a knob the driver refuses, is never retried away.
 */
#ifndef LABRAT_EXECUTOR_H
#define LABRAT_EXECUTOR_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "matrix.h"
#include "store.h"

/* Progress as the workers report it (after every job). */
struct executor_progress {
	int64_t	total;
	int64_t	done;		/* done + failed + cancelled so far */
	int64_t	failed;
	int64_t	retried;
	int64_t	elapsed_ms;
	int64_t	eta_ms;		/* -1 until a job has finished */
	/* The job that just ended, for log lines. */
	const char	*link;
	const char	*knobs;
	const char	*tool;
	const char	*state;
	const char	*reason;	/* NULL when it succeeded */
	double		 throughput_bps;	/* NAN when none */
	int		 attempt;
};

struct executor_opts {
	const char	*db_path;	/* every worker opens its own connection */
	const char	*owner;		/* lease owner, e.g. "hostname:pid" */
	/* Set (e.g. by a SIGINT handler) to stop: workers finish the step
	 * they are in, restore their hosts and leave. */
	volatile sig_atomic_t	*stop;
	void		(*progress)(const struct executor_progress *, void *);
	void		*progress_arg;
};

struct executor_summary {
	int64_t	done;
	int64_t	failed;
	int64_t	cancelled;
	int	stopped;	/* *stop was set */
	int	restore_failures;	/* hosts that could not be restored */
};

/*
 * Converts a matrix job to the store's job spec.  The strings point into
 * job and into the caller's buffers params (STORE_PARAMS_MAX).
 */
void	executor_job_spec(const struct matrix_job *, char *params,
	    size_t paramslen, struct store_job_spec *out);

/*
 * Runs every queued job of run_id until none is left (or *stop).  inv and
 * plan must be the ones the run was created from.  Returns 0 when the run
 * could be driven to its end (jobs may still have failed: see summary), -1
 * with err when it could not start at all.
 */
int	executor_run(const struct config_inventory *inv,
	    const struct config_plan *plan, int64_t run_id,
	    const struct executor_opts *opts, struct executor_summary *summary,
	    char *err, size_t errlen);

/*
 * Restores the test interfaces of every host of the plan's links (agent
 * `restore`, idempotent), e.g. before resuming a run whose controller died
 * mid-job.  Returns the number of hosts that could not be restored.
 */
int	executor_restore_all(const struct config_inventory *inv,
	    const struct config_plan *plan, int connect_timeout_s, char *err,
	    size_t errlen);

#endif
