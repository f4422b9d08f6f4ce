/*
 * run: a run's lifecycle.  A run is a row in the store with its jobs (the
 * plan expanded over the inventory) and a copy of the inventory and plan
 * texts it was created from.  This module creates one, resumes one whose
 * controller died or that could not start, drives its queued jobs through
 * the executor (then, when the plan asks for it, the adaptive sampling
 * rounds), and finishes it: done, failed (some jobs failed, or not started:
 * no host was changed and the jobs stay queued for a resume) or cancelled
 * (the caller's stop flag was set; the jobs left are cancelled, not
 * resumed).
 *
 * Nothing here prints to stdout or exits: progress (one job counter over
 * the whole run, its rounds included) and events (the plan with its worst
 * case and ETA up front, each adaptive round as it starts) go to
 * callbacks, diagnostics to log_*, errors to the caller's buffer, so the
 * CLI and a daemon drive runs the same way.  Store states: a created run is
 * "running" at once, owned by this process (host, pid, start time); a
 * store error (full, busy past its budget, I/O) stops it "interrupted"
 * (hosts restored, the job it cut short queued again) when the store
 * still takes that write; a run whose controller died stays "running"
 * and reads as interrupted (its owner is gone) until resumed.  A resume
 * refuses a run whose owner still lives.
 */
#ifndef LABRAT_RUN_H
#define LABRAT_RUN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "executor.h"
#include "store_daemon.h"

/* What the run functions return: the values are the CLI's exit statuses. */
enum run_status {
	RUN_OK = 0,
	RUN_FAIL = 1,		/* store, host or run failure: see err */
	RUN_CONFIG = 2,		/* bad inventory or plan: see errs */
};

/* How a run that was driven ended. */
enum run_outcome {
	RUN_OUTCOME_NONE = 0,	/* not driven: no run, or it failed before */
	RUN_OUTCOME_DONE,	/* every job done (restores: see sum) */
	RUN_OUTCOME_JOBS_FAILED,	/* driven to its end, some jobs failed */
	RUN_OUTCOME_NOT_STARTED,	/* no host changed; jobs stay queued */
	RUN_OUTCOME_INTERRUPTED,	/* *stop: the jobs left are cancelled */
	RUN_OUTCOME_STORE_FAULT,	/* a store error stopped it: "interrupted",
					 * resume it (err says how) */
};

struct run_result {
	int64_t			run_id;		/* 0 until created/resumed */
	int			resumed;
	enum run_outcome	outcome;
	struct executor_summary	sum;		/* the run's jobs, every
						 * round's once; restore
						 * failures of every round */
	int64_t			ncancelled;	/* RUN_OUTCOME_INTERRUPTED */
	int64_t			handshakes;	/* SSH handshakes the run's
						 * executor made, all rounds */
};

/*
 * Progress after every job, counted over the whole run (one counter across
 * the planned jobs and every adaptive round, resumed work included).
 */
struct run_progress {
	/* The job that just ended; done, total (the jobs queued so far),
	 * failed and retried count the whole run; elapsed_ms is this
	 * process's driving time; eta_ms is to the end of the jobs queued so
	 * far (-1 until known). */
	struct executor_progress job;
	int64_t	worst;		/* jobs if every comparison goes to max_samples
				 * (== job.total when not adaptive) */
	int64_t	eta_worst_ms;	/* to the end of the worst case; -1 */
	int	round;		/* 1: the planned jobs; 2..: adaptive rounds */
	int	adaptive;	/* the plan's stats.adaptive */
};

enum run_event_kind {
	RUN_EVENT_PLANNED,	/* before the first job is driven */
	RUN_EVENT_ROUND,	/* an adaptive round queued its jobs */
	RUN_EVENT_SETTLED,	/* the adaptive rounds ended: nothing to add */
};

/*
 * What a run says once (PLANNED) and round by round.  The ETAs are a job's
 * wall time so far times the jobs left; before any job has ended they are
 * the plan's guess (each job its workload's time, settle and a second, the
 * links side by side) and eta_estimated is 1; -1 when there is none.
 */
struct run_event {
	enum run_event_kind	kind;
	int			round;	/* ROUND: 2, 3, ...; SETTLED: last */
	int64_t			added;	/* ROUND: jobs it queued */
	/* ROUND: the inconclusive comparisons its jobs are for; SETTLED: those
	 * left inconclusive at max_samples (0: every one decided). */
	int64_t			inconclusive;
	int			adaptive;	/* the plan's stats.adaptive */
	int64_t			planned;	/* jobs when driving started */
	int64_t			total;		/* jobs so far */
	int64_t			worst;		/* as in run_progress */
	int64_t			done;		/* ended so far (whole run) */
	int64_t			eta_ms;		/* to total; -1 */
	int64_t			eta_worst_ms;	/* to worst; -1 */
	int			eta_estimated;
};

/* How to drive a run: all optional (NULL).  The callbacks are called from
 * the executor's worker threads (progress) or the driving thread (event),
 * one at a time. */
struct run_drive {
	/* Set (e.g. by a signal handler) to stop: the executor's workers
	 * finish their step, restore their hosts and leave. */
	volatile sig_atomic_t	*stop;
	/* A stop leaves the run "interrupted" with its jobs queued (the job
	 * cut short queued again) for run_resume(), instead of cancelling
	 * them: a daemon stopping, whose restart resumes the run. */
	int	 pause_on_stop;
	void	(*progress)(const struct run_progress *, void *);
	void	*progress_arg;
	void	(*event)(const struct run_event *, void *);
	void	*event_arg;
};

/* A run open for driving: its store handle, inventory, plan and owner. */
struct run;

/* "hostname:pid", the default owner of a run and of its host leases. */
void	run_owner_default(char *owner, size_t len);

/*
 * May this process take over a row (what: "run 3", "bisect 2") owned by
 * who?  0 when nobody owns it, its owner is gone (same host: the pid is
 * gone or now another process, by start time) or is this process; -1
 * with err naming the owner when it still runs ("run 3 is still running:
 * pid 4711 on ctl1 since 06:41 UTC"), or when force is 0 and it cannot
 * be told: on another host (run_owner_elsewhere()), or a live pid of an
 * owner recorded without its start time (before schema 7: maybe reused).
 */
int	run_owner_check(const struct store_owner *who, const char *what,
	    int force, char *err, size_t errlen);
/*
 * The owner is on another host, whose processes this one cannot see:
 * refused unless force.  The host-side lease check (the owner's lease on
 * the lab hosts has expired) joins here later, so that a resume on
 * another controller needs no --force once it can be proven dead.
 */
int	run_owner_elsewhere(const struct store_owner *who, const char *what,
	    int force, char *err, size_t errlen);

/*
 * Loads the inventory and plan files, expands the plan into jobs and
 * stores the run (kind: "manual", "demo", ...; owner NULL: the default) with
 * its jobs, queued.  On RUN_OK *runp is the open run (run_free()).
 * RUN_CONFIG: the config errors were appended to errs (the caller's, which
 * it initialises and frees); RUN_FAIL: err.
 */
enum run_status run_create(const char *db_path, const char *inventory,
	    const char *plan, const char *kind, const char *owner,
	    struct run **runp, struct config_errors *errs, char *err,
	    size_t errlen);

/*
 * Opens run_id again from the inventory and plan texts it stored, puts
 * back the hosts a dead controller left mid-job (a host that cannot be
 * restored is only logged: its rollback timer does it), requeues the jobs
 * left running (attempts kept), takes the run over as owner (NULL: the
 * default) and marks it running.  Any earlier state is resumed: a finished
 * run has nothing queued and is finished again.  A running run whose
 * owner still lives is refused (run_owner_check(); force: even when the
 * owner is on another host) before anything is touched.  *runp, errs,
 * err: as for run_create().
 */
enum run_status run_resume(const char *db_path, int64_t run_id,
	    const char *owner, int force, struct run **runp,
	    struct config_errors *errs, char *err, size_t errlen);

int64_t	run_id(const struct run *);
const struct config_plan *run_plan(const struct run *);

/*
 * Drives every queued job of the run through one executor and, if the
 * plan's stats.adaptive is set and nothing stopped it, the adaptive rounds
 * on the same executor (more repetitions for inconclusive comparisons, up
 * to max_samples; the host sessions are reused); then
 * finishes it (run_finish()) or, when *stop was set, cancels what is left
 * ("interrupted by a signal").  Says what is planned, and each round, to
 * drive->event.  res->outcome says which; res->sum counts the run's jobs
 * (every round's, each once).  Returns RUN_OK when the run was driven to its
 * end whatever its jobs did, RUN_FAIL when it could not start (the run is
 * marked failed "not started: ...", err says why, nothing on a host was
 * changed) or a store error stopped it (RUN_OUTCOME_STORE_FAULT: marked
 * interrupted if the store took it; err says what failed and what to do:
 * "run 3 interrupted: ...: database or disk is full; free space on the
 * database's file system, then resume with `labrat run --resume 3`").
 */
enum run_status run_start(struct run *, const struct run_drive *,
	    struct run_result *res, char *err, size_t errlen);

/* Cancels the queued and running jobs (*n: how many, may be NULL) and
 * marks the run cancelled, both with reason. */
int	run_cancel(struct run *, const char *reason, int64_t *n, char *err,
	    size_t errlen);

/* Marks the run done, or failed ("some jobs failed") if sum says so. */
int	run_finish(struct run *, const struct executor_summary *sum,
	    char *err, size_t errlen);

/* Closes the run's store and frees it (NULL is fine). */
void	run_free(struct run *);

/*
 * `labrat run --enqueue`: checks inventory (with its key files) and plan
 * as run_create() does, then queues {"inventory", "plan", "note"} (paths
 * absolute) for the daemon serving db_path (STORE_PRIO_INTERACTIVE),
 * refused when none lives (store_q_submit()).  *item: the queue item.
 * RUN_OK, RUN_CONFIG (errs), RUN_FAIL (err).
 */
enum run_status run_enqueue(const char *db_path, const char *inventory,
	    const char *plan, const char *note, int64_t *item,
	    struct config_errors *errs, char *err, size_t errlen);

/*
 * The daemon's queue payloads (run_queue.c), written and read in one
 * place.  run_queue_submit() is every `--enqueue`'s way in: write puts
 * the payload object's members (between its braces) for arg, and the item
 * is queued as kind at STORE_PRIO_INTERACTIVE for the daemon serving
 * db_path, refused when none lives (store_q_submit()).  0 with *item, or
 * -1 with err.
 */
struct json_writer;
/* The payload object whose members write puts for arg, as one line of
 * text (heap, the caller frees it), or NULL with err. */
char	*run_queue_payload(void (*write)(struct json_writer *, const void *arg),
	    const void *arg, char *err, size_t errlen);
int	run_queue_submit(const char *db_path, enum store_q_kind kind,
	    void (*write)(struct json_writer *, const void *arg),
	    const void *arg, int64_t *item, char *err, size_t errlen);

/* A run item's payload as run_enqueue() writes it; strings heap (NULL
 * when absent), freed by run_payload_free(). */
struct run_payload {
	char	*inventory, *plan, *note;
};
/* 0, or -1 with err (not a JSON object). */
int	run_payload_decode(const char *text, struct run_payload *, char *err,
	    size_t errlen);
void	run_payload_free(struct run_payload *);

/* A whole run in one call, as `labrat run` and `labrat demo` do it. */
struct run_request {
	const char	*db_path;
	const char	*inventory;	/* a new run: the files */
	const char	*plan;
	const char	*kind;		/* "manual" when NULL */
	int64_t		 resume;	/* run id to resume, 0 = a new run */
	int		 force;		/* resume: even if its owner is on
					 * another host */
	const char	*owner;		/* NULL = run_owner_default() */
	const char	*note;		/* the run's note (a resume replaces
					 * it), NULL = keep / none */
	struct run_drive drive;
	/* Called once the run exists (created or resumed), before its jobs
	 * are driven; may be NULL. */
	void		(*started)(const struct run_result *, void *);
	void		*started_arg;
};

/*
 * run_create() or run_resume(), then run_start().  *res is filled as far
 * as it got (res->run_id is 0 if no run was created or resumed).  RUN_OK
 * only when every job is done and every host restored; RUN_CONFIG with
 * errs; RUN_FAIL with err (a run that did not start: err says why and
 * res->outcome is RUN_OUTCOME_NOT_STARTED), or a run that was interrupted
 * or had failed jobs or restores (res says which, err is empty).
 */
enum run_status run_execute(const struct run_request *,
	    struct run_result *res, struct config_errors *errs, char *err,
	    size_t errlen);

#endif
