/*
 * executor: runs the jobs of a run on the lab.  A long-lived object: its
 * pool holds one session per host (connected, verified, agent deployed
 * through host.h) for the executor's whole life, so adaptive rounds and
 * bisect batches that drain one executor again and again connect to each
 * host once; a session that died meanwhile (a reboot, a dropped SSH
 * connection) is re-established, and the agent deployed again, at its
 * next use.  In a drain, one worker thread per link claims that link's
 * queued jobs from the store in order; hosts are leased, so a host that
 * belongs to two links is never used by two jobs at once.
 *
 * A job, on both hosts of its link at once: go from the link's last job's
 * knobs to this one's (MTU on both ends, TSO on the sender or on both, NAT
 * on the host the inventory names; only what differs changes) with the
 * rollback timer on each host re-armed; verify what is in force; run the
 * preflight and the workload (through the link's server, kept for its
 * batch); collect.  Both ends are restored once, when the link's work ends
 * (or stops), and after a job that failed.  Infrastructure failures (SSH
 * drop, agent timeout, a host that reboots) are retried up to the plan's
 * retries and then recorded as failed with the reason; a measured result,
 * or a knob the driver refuses, is never retried away.  A store error
 * stops the drain as *stop does (summary.store_fault): a job is counted
 * and announced done only once its record is committed.
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
	/* The run as the host lease names it ("12", "bisect-3"; NULL:
	 * "0"): every host is leased (host.h) from its first connection
	 * until executor_free(), and fails to connect while another
	 * controller holds it. */
	const char	*lease_run;
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
	/* A store error (full, busy past its budget, I/O) stopped the drain:
	 * no job was claimed after it, the job it cut short is left
	 * running (the caller requeues it), the hosts were restored.
	 * STORE_FAULT_NONE when none; store_err says what failed. */
	enum store_fault	store_fault;
	char			store_err[512];
};

/*
 * Converts a matrix job to the store's job spec.  The strings point into
 * job and into the caller's buffers params (STORE_PARAMS_MAX).
 */
void	executor_job_spec(const struct matrix_job *, char *params,
	    size_t paramslen, struct store_job_spec *out);

struct executor;

/*
 * An executor for the plan's links on inv's hosts; nothing is connected
 * yet.  inv and plan are borrowed and must outlive it; opts is copied (its
 * pointers are borrowed likewise).  Returns an executor the caller frees
 * with executor_free(), or NULL with err (a plan link the inventory does
 * not have).
 */
struct executor *executor_new(const struct config_inventory *inv,
	    const struct config_plan *plan, const struct executor_opts *opts,
	    char *err, size_t errlen);

/*
 * Runs every queued job of run_id until none is left (or *stop): connects
 * the hosts not connected yet, records every host's facts for this run,
 * runs the jobs, restores every host it touched.  Sessions stay open for
 * the next drain.  The run must have been created from the executor's inv
 * and plan.  Returns 0 when the run could be driven to its end (jobs may
 * still have failed: see summary), -1 with err when it could not start at
 * all (a host unreachable, an agent that does not build).
 */
int	executor_drain(struct executor *, int64_t run_id,
	    struct executor_summary *summary, char *err, size_t errlen);

/*
 * As executor_drain(), but a link whose work went through is left as its
 * last job left it -- knobs in force, the rollback timers armed, its
 * workload server running -- so that the next drain of the same run goes
 * on from there (a transition, the same server, the facts already
 * recorded) instead of restoring and starting afresh.  A link that was
 * stopped, failed, or halted by the store is restored as executor_drain()
 * does.  executor_end() must follow once the run's work on the hosts
 * ends, and before anything else is done to them (an install, a reboot):
 * a drain of another run or executor_drain(), and executor_free(), call
 * it first themselves.
 */
int	executor_drain_keep(struct executor *, int64_t run_id,
	    struct executor_summary *summary, char *err, size_t errlen);

/*
 * Connects every host of the plan's links at once (one thread each) and
 * deploys their agents, ahead of their first use; a host that fails
 * reports why at that use (executor_host(), a drain).
 */
void	executor_connect(struct executor *);

/*
 * Ends what executor_drain_keep() left: stops the links' servers and
 * restores both ends of each, once.  Returns the number of hosts that
 * could not be restored (their rollback timers are then the last resort);
 * 0 when nothing was kept.
 */
int	executor_end(struct executor *);

/*
 * Restores the test interfaces of every host of the plan's links (agent
 * `restore`, idempotent).  Returns the number of hosts that could not be
 * reached (err holds the last reason).
 */
int	executor_restore(struct executor *, char *err, size_t errlen);

/* Gives back every host lease, closes every host session and frees; NULL
 * is fine. */
void	executor_free(struct executor *);

struct host;
/*
 * The executor's session to cfg (a host of its inventory), connected and
 * the agent deployed if it was not, so that another module (the kernel
 * provider) works on it instead of opening its own.  Borrowed: valid until
 * executor_free(); use it only while no drain runs, one thread per host;
 * a session it re-established is noticed at the next drain.  NULL with
 * err when the host cannot be reached or is not in the inventory.
 */
struct host *executor_host(struct executor *,
	    const struct config_host *cfg, char *err, size_t errlen);

/*
 * executor_new() + executor_drain() + executor_free(): one run, its hosts
 * connected for it alone.  Same returns as executor_drain().
 */
int	executor_run(const struct config_inventory *inv,
	    const struct config_plan *plan, int64_t run_id,
	    const struct executor_opts *opts, struct executor_summary *summary,
	    char *err, size_t errlen);

/*
 * executor_restore() on an executor of its own, whose connect timeout is
 * connect_timeout_s, e.g. before resuming a run whose controller died
 * mid-job; plan links the inventory does not have are skipped.  Returns
 * the number of hosts that could not be restored.
 */
int	executor_restore_all(const struct config_inventory *inv,
	    const struct config_plan *plan, int connect_timeout_s, char *err,
	    size_t errlen);

#endif
