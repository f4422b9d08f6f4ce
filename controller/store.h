/*
 * store: labrat's SQLite database, the only includer of sqlite3.h.
 *
 * It owns the schema (schemas/sql/NNNN_name.sql, embedded in the binary and
 * applied in order by PRAGMA user_version, each in its own transaction) and
 * every read and write of the data: runs, the jobs of a run and their state
 * machine, samples, raw tool output, hosts and the facts they ran under,
 * bisects, and the daemon's schedules, queue, heartbeat, link leases,
 * nights, regression records and link health (those declared in
 * store_daemon.h, its second public header).  Callers never see SQL.
 *
 * The database is opened in WAL mode with foreign keys on and a busy
 * timeout.  A struct store is one connection: use it from one thread at a
 * time (give every worker thread its own; WAL lets them run side by side and
 * the busy timeout serialises their writes).  Never carry one across fork().
 *
 * Every function returns 0 on success and -1 on failure with a message in
 * err (naming the database file, the operation and SQLite's reason), unless
 * its comment says otherwise.  The char arrays in the structs below are
 * sized by the *_MAX limits, which are enforced on insert (a longer value is
 * an error, never silently cut), so what is read back is whole.  Timestamps
 * are milliseconds since the epoch, 0 meaning never.
 *
 * Job state machine:  queued -> running -> done | failed | cancelled
 *                     running -> queued    (requeue, or reset on resume)
 *                     queued  -> cancelled
 */
#ifndef LABRAT_STORE_H
#define LABRAT_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "knobs.h"

#define STORE_NAME_MAX		64	/* host, link, metric, unit, revision */
#define STORE_KEY_MAX		KNOBS_KEY_MAX	/* a knobs key, with NUL */
#define STORE_TOOL_MAX		16
#define STORE_PARAMS_MAX	1024	/* workload params text, incl. NUL */
#define STORE_REASON_MAX	512	/* failure reasons, incl. NUL */
#define STORE_OWNER_MAX		128	/* lease owner, incl. NUL */
#define STORE_NOTE_MAX		1024	/* a run's note, incl. NUL */
#define STORE_RAW_MAX		(64 * 1024 * 1024)	/* one raw output */
#define STORE_FACTS_MAX		(1024 * 1024)	/* facts JSON of a host */

struct store;

/* ---- opening, schema ------------------------------------------------- */

#define STORE_OPEN_CREATE	0x1	/* create the file and its parent dirs */
#define STORE_OPEN_MIGRATE	0x2	/* bring the schema up to date */
#define STORE_OPEN_READONLY	0x4	/* no writes at all (check, report) */

/* The newest schema version this binary knows (the number of migrations). */
int	store_schema_latest(void);

/* Opens the database at path.  A database whose schema is newer than this
 * binary knows is refused and left untouched ("FILE: schema version 7 is
 * newer than this labrat (5); upgrade labrat").  Without STORE_OPEN_MIGRATE
 * an older schema is opened as is; functions then fail on missing tables,
 * so commands that write should pass STORE_OPEN_MIGRATE.
 * *stp is owned by the caller: store_close() it. */
int	store_open(const char *path, int flags, struct store **stp,
	    char *err, size_t errlen);
void	store_close(struct store *);
const char *store_path(const struct store *);

/* Applies pending migrations, each in its own transaction; safe when other
 * processes open the same new database at once.  *from / *to (may be NULL)
 * get the versions before and after. */
int	store_migrate(struct store *, int *from, int *to, char *err,
	    size_t errlen);
/* The schema version of the open database. */
int	store_schema_version(struct store *, int *version, char *err,
	    size_t errlen);

/* PRAGMA integrity_check and foreign_key_check.  Returns 0 when both are
 * clean, 1 when the database is damaged (the first problems are in err),
 * -1 when the check itself could not run. */
int	store_check(struct store *, char *err, size_t errlen);

/* What the last failure of this connection was, for the caller to say
 * what to do (free space, wait for the lock, check the disk).  STORE_FAULT_
 * NONE after a success or when the failure was not SQLite's (a value too
 * long, a run that does not exist). */
enum store_fault {
	STORE_FAULT_NONE = 0,
	STORE_FAULT_FULL,	/* SQLITE_FULL: the file system is full */
	STORE_FAULT_BUSY,	/* locked by another process past the budget */
	STORE_FAULT_IO,		/* SQLITE_IOERR, SQLITE_CANTOPEN, ... */
	STORE_FAULT_OTHER,	/* another SQLite error (constraint, ...) */
};
enum store_fault store_last_fault(const struct store *);
/* What to do about a fault, e.g. "free space on the database's file
 * system"; NULL for NONE and OTHER. */
const char *store_fault_advice(enum store_fault);

/* The busy budget: how long a statement waits, retrying with back-off
 * (1 ms doubling to 100 ms), while another connection holds the write
 * lock, before it fails with STORE_FAULT_BUSY.  The environment variable
 * LABRAT_DB_BUSY_TIMEOUT (seconds, 0 to 86400) sets it for every
 * connection store_open() opens; the default is 10 s.  In ms; -1 with err
 * when the variable is not a number of seconds. */
int	store_busy_budget_ms(char *err, size_t errlen);

/* ---- owners: who drives a run or a bisect ------------------------------ */

/* A process that owns a row (a run, a bisect): enough to tell from this
 * host whether it still lives.  start is the process's start time in
 * clock ticks since boot (Linux: field 22 of /proc/PID/stat), so that a pid
 * reused by another process is not taken for the owner; 0 = unknown (an
 * owner recorded before schema 7: the pid alone is checked). */
struct store_owner {
	char	host[STORE_NAME_MAX];	/* gethostname(), "" = unknown */
	int64_t	pid;			/* 0 = unknown */
	int64_t	start;			/* 0 = unknown */
	int64_t	since;			/* ms since the epoch it took over */
};

/* This process, since now. */
void	store_owner_self(struct store_owner *);
/* pid's start time (see above) into *start: 0, or -1 when there is no
 * such process (or it is a zombie: it has exited). */
int	store_owner_proc_start(int64_t pid, int64_t *start);

enum store_owner_state {
	STORE_OWNER_UNKNOWN = 0,	/* no owner recorded */
	STORE_OWNER_ALIVE,		/* on this host and still running */
	STORE_OWNER_GONE,		/* on this host, exited (or pid reused) */
	STORE_OWNER_ELSEWHERE,		/* on another host: not checkable here */
};
/* The one liveness check, for runs and bisects alike. */
enum store_owner_state store_owner_state(const struct store_owner *);
/* "pid 4711 on ctl1 since 06:41 UTC" into buf. */
void	store_owner_text(const struct store_owner *, char *buf, size_t len);
/* Fills o from an owner text "host:pid[:...]" of before schema 7 (start
 * unknown); 0, or -1 (o cleared) when it is not of that form. */
int	store_owner_parse(const char *text, struct store_owner *o);

/* ---- runs ------------------------------------------------------------- */

enum store_run_state {
	STORE_RUN_RUNNING = 0,
	STORE_RUN_DONE,
	STORE_RUN_FAILED,
	STORE_RUN_CANCELLED,
	STORE_RUN_INTERRUPTED,	/* a store error or a signal stopped it;
				 * resume it */
};
const char *store_run_state_name(enum store_run_state);

struct store_run_spec {
	const char	*kind;		/* "manual", "nightly", "bisect", "demo" */
	const char	*inventory_path;
	const char	*inventory_text;	/* a copy of the file, may be NULL */
	const char	*plan_path;
	const char	*plan_text;
	const char	*owner;		/* e.g. "host:pid", may be NULL */
	const struct store_owner *who;	/* the owner's parts, may be NULL */
	const char	*note;		/* the user's words, may be NULL */
	int64_t		 schedule_id;	/* 0 = none */
	int64_t		 bisect_id;	/* 0 = none */
};

/* A run as read back.  The char * fields are heap copies owned by the
 * struct (store_run_free()); the texts are NULL in store_run_list(). */
struct store_run {
	int64_t			 id;
	enum store_run_state	 state;
	char			 kind[16];
	int64_t			 created_at;
	int64_t			 finished_at;	/* 0 while running */
	int64_t			 schedule_id;
	int64_t			 bisect_id;
	char			*owner;
	struct store_owner	 who;		/* its parts (from owner when
						 * recorded before schema 7) */
	char			*reason;	/* why it failed / was cancelled */
	char			*note;		/* NULL = none */
	char			*inventory_path;
	char			*plan_path;
	char			*inventory_text;
	char			*plan_text;
};

int	store_run_create(struct store *, const struct store_run_spec *,
	    int64_t *run_id, char *err, size_t errlen);
/* Returns 1 and fills *run, 0 if there is no such run, -1 on error. */
int	store_run_get(struct store *, int64_t run_id, struct store_run *run,
	    char *err, size_t errlen);
/* Sets the final state (and reason, may be NULL) of a run. */
int	store_run_finish(struct store *, int64_t run_id,
	    enum store_run_state state, const char *reason, char *err,
	    size_t errlen);
/* Sets the owner (who may be NULL) and marks the run running again
 * (--resume). */
int	store_run_set_owner(struct store *, int64_t run_id, const char *owner,
	    const struct store_owner *who, char *err, size_t errlen);
/* A store error or a signal stopped the run's controller: in one
 * transaction its running jobs go back to queued (attempts kept, as a
 * resume would) and the run becomes interrupted with reason.  *n (may be
 * NULL) gets how many jobs were requeued. */
int	store_run_interrupt(struct store *, int64_t run_id, const char *reason,
	    int64_t *n, char *err, size_t errlen);
/* Newest first, at most limit (0 = all).  *runs: store_runs_free(). */
int	store_run_list(struct store *, size_t limit, struct store_run **runs,
	    size_t *nruns, char *err, size_t errlen);
void	store_run_free(struct store_run *);
void	store_runs_free(struct store_run *, size_t);
/* Sets (NULL: clears) the note of a run. */
int	store_run_set_note(struct store *, int64_t run_id, const char *note,
	    char *err, size_t errlen);


/* ---- hosts and host facts ---------------------------------------------- */

/* Creates or updates a host by name; *host_id (may be NULL) gets its id. */
int	store_host_upsert(struct store *, const char *name, const char *os,
	    const char *address, int64_t *host_id, char *err, size_t errlen);

/* What a host was running at a point of a run.  Recorded at the start of a
 * run and again whenever it changes (a bisect installs another revision).
 * driver and chip are what the host reported, never the inventory's;
 * declared_driver and declared_chip are what the inventory says of ifname,
 * kept beside them so that a mismatch can be shown. */
struct store_host_facts {
	const char	*host;		/* name; the host is upserted */
	const char	*os;
	const char	*address;	/* may be NULL */
	const char	*kernel_version;	/* e.g. "FreeBSD 8.1-PRERELEASE" */
	const char	*revision;	/* kernel revision id, e.g. "r209169" */
	const char	*ifname;	/* the test interface */
	const char	*driver;	/* as reported; "" = none reported */
	const char	*chip;		/* "0x164c14e4", may be NULL */
	const char	*declared_driver;	/* the inventory's, may be NULL */
	const char	*declared_chip;		/* the inventory's, may be NULL */
	const char	*knobs;		/* knobs in force, canonical key */
	const char	*facts_json;	/* the agent's raw facts, may be NULL */
};

int	store_host_facts_add(struct store *, int64_t run_id,
	    const struct store_host_facts *, int64_t *facts_id, char *err,
	    size_t errlen);

/* A facts row as read back; strings owned by the struct. */
struct store_host_facts_row {
	int64_t	 id;
	int64_t	 run_id;
	int64_t	 recorded_at;
	char	*host;
	char	*os;
	char	*kernel_version;
	char	*revision;
	char	*ifname;
	char	*driver;
	char	*chip;
	char	*declared_driver;	/* NULL: the inventory declared none */
	char	*declared_chip;
	char	*knobs;
	char	*facts_json;
};

/* 1 when the inventory declares a driver (or chip) for the row's interface
 * that differs from what the host reported (a chip compared ignoring case);
 * 0 when it declares none or the same. */
int	store_facts_driver_differs(const struct store_host_facts_row *);
int	store_facts_chip_differs(const struct store_host_facts_row *);

/* Every facts row of a run, oldest first.  Free with store_facts_free(). */
int	store_host_facts_list(struct store *, int64_t run_id,
	    struct store_host_facts_row **rows, size_t *nrows, char *err,
	    size_t errlen);
void	store_facts_free(struct store_host_facts_row *, size_t);

/* ---- jobs ------------------------------------------------------------- */

enum store_job_state {
	STORE_JOB_QUEUED = 0,
	STORE_JOB_RUNNING,
	STORE_JOB_DONE,
	STORE_JOB_FAILED,
	STORE_JOB_CANCELLED,
	STORE_JOB_NSTATES
};
const char *store_job_state_name(enum store_job_state);

/* Whose failure a failed job was (schema 7).  INFRA: the lab could not
 * measure (preflight, SSH or agent trouble through every retry): never
 * evidence about the system under test.  TEST: a real answer no retry
 * changes (a knob the driver refused, a job the agent refused as asked).
 * NONE: not failed, or recorded before schema 7. */
enum store_fail_class {
	STORE_FAIL_NONE = 0,
	STORE_FAIL_INFRA,
	STORE_FAIL_TEST,
};
/* "infra", "test", or NULL for NONE. */
const char *store_fail_class_name(enum store_fail_class);

/* One job to insert.  Its seq is its index in the batch (plus the run's
 * existing jobs): claim order follows it. */
struct store_job_spec {
	const char		*link;
	struct knobs		 knobs;
	const char		*tool;		/* "iperf2", "iperf3", "scp" */
	const char		*params;	/* canonical workload text */
	int			 repetition;	/* 0-based */
};

struct store_job {
	int64_t			 id;
	int64_t			 run_id;
	int64_t			 seq;
	enum store_job_state	 state;
	char			 link[STORE_NAME_MAX];
	struct knobs		 knobs;
	char			 knobs_key[STORE_KEY_MAX];
	char			 tool[STORE_TOOL_MAX];
	char			 params[STORE_PARAMS_MAX];
	int			 repetition;
	int			 attempt;	/* claims so far */
	char			 reason[STORE_REASON_MAX];	/* last failure */
	enum store_fail_class	 failure_class;	/* of a failed job */
	char			 owner[STORE_OWNER_MAX];	/* lease */
	char			 knobs_in_force[STORE_KEY_MAX]; /* verified */
	int64_t			 client_facts_id;	/* 0 = none */
	int64_t			 server_facts_id;
	int64_t			 queued_at;
	int64_t			 started_at;
	int64_t			 finished_at;
};

/* Inserts n jobs in one transaction (all or none). */
int	store_jobs_add(struct store *, int64_t run_id,
	    const struct store_job_spec *, size_t n, char *err, size_t errlen);

/* Claims the next queued job of a run for a link (NULL = any link), lowest
 * seq first: queued -> running, attempt + 1, lease owner set.  Returns 1
 * with *job filled, 0 when nothing is queued, -1 on error.  Two connections
 * can never claim the same job. */
int	store_job_claim(struct store *, int64_t run_id, const char *link,
	    const char *owner, struct store_job *job, char *err,
	    size_t errlen);

/* Returns 1 and fills *job, 0 if there is no such job, -1 on error. */
int	store_job_get(struct store *, int64_t job_id, struct store_job *job,
	    char *err, size_t errlen);

/* Puts a running job back in the queue after an infrastructure failure
 * (SSH drop, agent timeout, reboot), keeping reason as its last failure.
 * The caller bounds the retries with job->attempt.  Fails unless running. */
int	store_job_requeue(struct store *, int64_t job_id, const char *reason,
	    char *err, size_t errlen);

struct store_sample {
	const char	*metric;	/* "throughput_bps", "retransmits", ... */
	double		 value;
	const char	*unit;		/* "bit/s", "B", "s", "%", "" */
	int		 interval;	/* 0 = whole transfer, n = n-th second */
};

struct store_raw {
	const char	*name;		/* "client.stdout", "server.stderr" ... */
	const void	*data;
	size_t		 len;
	int		 truncated;	/* the capture hit its ceiling */
};

struct store_job_result {
	enum store_job_state	 state;		/* DONE or FAILED */
	const char		*reason;	/* why it failed, NULL if done */
	enum store_fail_class	 failure_class;	/* FAILED only; else NONE */
	const char		*knobs_in_force;	/* verified, may be NULL */
	int64_t			 client_facts_id;	/* 0 = not recorded */
	int64_t			 server_facts_id;
	const struct store_sample	*samples;
	size_t				 nsamples;
	const struct store_raw		*raws;
	size_t				 nraws;
};

/* Records the end of a running job: its state, reason, samples and raw
 * outputs in ONE transaction, so a crash leaves either all of it or the job
 * still running with nothing recorded.  Fails (changing nothing) unless the
 * job is running, or if the state is not DONE or FAILED. */
int	store_job_finish(struct store *, int64_t job_id,
	    const struct store_job_result *, char *err, size_t errlen);

/* Jobs of a run in one state (or all with state < 0), by seq.  *jobs is a
 * heap array the caller frees with free(). */
int	store_job_list(struct store *, int64_t run_id, int state,
	    struct store_job **jobs, size_t *njobs, char *err, size_t errlen);

/* Every queued or running job of a run -> cancelled; *n (may be NULL) gets
 * how many.  Cancellation wins: a worker finishing one of those jobs later
 * gets an error and records nothing. */
int	store_run_cancel_jobs(struct store *, int64_t run_id,
	    const char *reason, int64_t *n, char *err, size_t errlen);

/* For --resume: jobs left running by a controller that died go back to
 * queued, their lease cleared and attempt kept.  *n (may be NULL) gets how
 * many.  Only call it when no other controller works on the run. */
int	store_run_reset_running(struct store *, int64_t run_id, int64_t *n,
	    char *err, size_t errlen);

struct store_counts {
	int64_t	n[STORE_JOB_NSTATES];	/* indexed by enum store_job_state */
	int64_t	total;
	int64_t	failed_infra;	/* failed jobs of failure class infra */
};

/* Job counts of a run by state, for one link (NULL = all). */
int	store_job_counts(struct store *, int64_t run_id, const char *link,
	    struct store_counts *, char *err, size_t errlen);

/* What `labrat runs` shows of a run beyond its row: the kernel revisions
 * its hosts ran ("r200140,r200199": distinct, from the facts rows), the
 * links of its jobs ("bce,em") and its job counts.  The strings are heap
 * copies owned by the struct ("" when there are none). */
struct store_run_info {
	int64_t			 run_id;
	char			*revisions;
	char			*links;
	struct store_counts	 jobs;
};
/* Newest first, at most limit (0 = all), the same runs as store_run_list()
 * with that limit.  *infos: store_run_infos_free(). */
int	store_run_infos(struct store *, size_t limit,
	    struct store_run_info **infos, size_t *n, char *err,
	    size_t errlen);
void	store_run_infos_free(struct store_run_info *, size_t);

/* ---- samples, raw output ------------------------------------------------ */

/* The whole-transfer values (interval 0) of one metric of the done jobs of
 * a run, grouped by link + knobs + tool + params (+ the client's kernel
 * revision), values in job order.  The struct owns its arrays. */
struct store_series {
	char			 link[STORE_NAME_MAX];
	struct knobs		 knobs;
	char			 knobs_key[STORE_KEY_MAX];
	char			 tool[STORE_TOOL_MAX];
	char			 params[STORE_PARAMS_MAX];
	char			 revision[STORE_NAME_MAX];	/* "" = unknown */
	char			 metric[STORE_NAME_MAX];
	char			 unit[STORE_NAME_MAX];
	double			*values;
	int64_t			*job_ids;	/* the job of each value */
	size_t			 n;
};

/* Ordered by link, knobs key, tool, params, revision.  Free with
 * store_series_free(). */
int	store_samples_query(struct store *, int64_t run_id,
	    const char *metric, struct store_series **series, size_t *nseries,
	    char *err, size_t errlen);
void	store_series_free(struct store_series *, size_t);

/* One sample as read back. */
struct store_sample_row {
	char	metric[STORE_NAME_MAX];
	double	value;
	char	unit[STORE_NAME_MAX];
	int	interval;
};

/* Every sample of one job (per-second ones too), by metric, interval and
 * insertion order.  *rows is a heap array the caller frees with free(). */
int	store_job_samples(struct store *, int64_t job_id,
	    struct store_sample_row **rows, size_t *nrows, char *err,
	    size_t errlen);

/* The distinct metric names recorded in a run (heap array of heap strings,
 * free each and the array). */
int	store_run_metrics(struct store *, int64_t run_id, char ***metrics,
	    size_t *n, char *err, size_t errlen);

/* One raw output of a job.  Returns 1 with *data (heap, NUL-terminated,
 * caller frees) and *len, 0 if there is none by that name, -1 on error. */
int	store_raw_get(struct store *, int64_t job_id, const char *name,
	    char **data, size_t *len, char *err, size_t errlen);

/* ---- bisects ------------------------------------------------------------ */

struct store_bisect_spec {
	const char	*link;
	const char	*knobs;		/* knobs key of the regressed combination */
	const char	*tool;
	const char	*params;
	const char	*metric;
	const char	*good;		/* revision known good */
	const char	*bad;		/* revision known bad */
	const char	*revisions;	/* ordered candidate list, one per line */
	const char	*inventory_path;
	const char	*plan_path;
	/* The texts of both files as validated at the start (may be NULL):
	 * what a resume parses. */
	const char	*inventory_text;
	const char	*test_text;
	/* How its steps are judged, settled by the caller (judged 1): stored
	 * with the row, so that no list parses test_text again; judged 0
	 * leaves it to the first list (bisects_settle()). */
	int		 judged;
	double		 threshold;
	int		 lower_is_better;
};

struct store_bisect {
	int64_t	 id;
	char	 state[16];	/* "running", "done", "failed", "reset",
				 * "interrupted" */
	int64_t	 created_at;
	int64_t	 finished_at;
	char	 link[STORE_NAME_MAX];
	char	 knobs[STORE_KEY_MAX];
	char	 tool[STORE_TOOL_MAX];
	char	 metric[STORE_NAME_MAX];
	char	 good[STORE_NAME_MAX];
	char	 bad[STORE_NAME_MAX];
	char	 culprit[STORE_NAME_MAX];	/* "" until found */
	double	 confidence;
	char	*params;	/* heap, owned (store_bisect_free()) */
	char	*revisions;
	char	*inventory_path;
	char	*plan_path;
	char	*reason;
	char	*inventory_text;	/* NULL: started before schema 4 */
	char	*test_text;
	/* What the link's client and server ran before the bisect: NULL
	 * when the provider could not tell (or started before schema 6). */
	char	*client_before;
	char	*server_before;
	struct store_owner who;	/* who drives it; host "" = nobody yet */
	/* How it judges a step (schema 15, store_bisect_set_judging()):
	 * judged -1 not settled yet, 0 it cannot be told, 1 threshold and
	 * lower_is_better (0 or 1) hold. */
	int	 judged;
	double	 threshold;
	int	 lower_is_better;
};

int	store_bisect_create(struct store *, const struct store_bisect_spec *,
	    int64_t *bisect_id, char *err, size_t errlen);
/* 1 found, 0 none, -1 error.  bisect_id 0 = the newest bisect. */
int	store_bisect_get(struct store *, int64_t bisect_id,
	    struct store_bisect *, char *err, size_t errlen);
/* Sets state, culprit (may be NULL), confidence and reason (may be NULL). */
int	store_bisect_update(struct store *, int64_t bisect_id,
	    const char *state, const char *culprit, double confidence,
	    const char *reason, char *err, size_t errlen);
/* Records what the link's client and server ran before the bisect (either
 * may be NULL: the provider could not tell).  0 or -1 with err. */
int	store_bisect_set_before(struct store *, int64_t bisect_id,
	    const char *client, const char *server, char *err, size_t errlen);
/* Takes the bisect over (who), keeping its state. */
int	store_bisect_set_owner(struct store *, int64_t bisect_id,
	    const struct store_owner *who, char *err, size_t errlen);
/* Newest first; free with store_bisects_free(). */
int	store_bisect_list(struct store *, struct store_bisect **, size_t *,
	    char *err, size_t errlen);
/* A page of the list, newest first: the bisects older than after (0: from
 * the newest), at most limit (0: all) of them, without their texts (params,
 * revisions, inventory path and text, befores: NULL) and with test_text
 * only while judged is -1.  Free with store_bisects_free(). */
int	store_bisect_page(struct store *, int64_t after, size_t limit,
	    struct store_bisect **, size_t *, char *err, size_t errlen);
/* Stores how the bisects v[0..n) judge a step, in one transaction: each
 * with judged 0 (it cannot be told) or 1 (threshold, lower_is_better)
 * whose row is not settled yet (judged -1 and -1 rows are passed over). */
int	store_bisect_set_judging(struct store *, const struct store_bisect *v,
	    size_t n, char *err, size_t errlen);
void	store_bisect_free(struct store_bisect *);
void	store_bisects_free(struct store_bisect *, size_t);

/* One tested revision.  verdict "" while its run is in progress. */
struct store_bisect_step {
	int64_t	id;
	int64_t	bisect_id;
	int	seq;
	char	revision[STORE_NAME_MAX];
	int64_t	run_id;		/* the run measuring it, 0 = none yet */
	char	verdict[16];	/* "", "good", "bad", "skip", "inconclusive" */
	int	n;		/* samples per side */
	double	median;		/* of this revision */
	double	baseline_median;	/* of the good revision */
	double	ratio;
	double	p;
	int64_t	created_at;
	int64_t	updated_at;
};

/* Appends a step (id, bisect_id, seq, timestamps are filled in). */
int	store_bisect_step_add(struct store *, int64_t bisect_id,
	    const struct store_bisect_step *, int64_t *step_id, char *err,
	    size_t errlen);
/* Updates run_id, verdict, n, medians, ratio, p of a step. */
int	store_bisect_step_update(struct store *, const struct store_bisect_step *,
	    char *err, size_t errlen);
/* Steps in order; *steps is a heap array the caller frees with free(). */
int	store_bisect_steps(struct store *, int64_t bisect_id,
	    struct store_bisect_step **steps, size_t *nsteps, char *err,
	    size_t errlen);

/* ---- API reads (store_api.c): paged, bound parameters only ---------- */

/* The run list of GET /api/v1/runs: newest first (id DESC), ids below
 * after (0 = from the newest), at most limit (0 = 50); state -1 and kind,
 * link NULL = any (link: a run with a job on it). */
struct store_api_runs_q {
	size_t		 limit;
	int64_t		 after;
	int		 state;		/* enum store_run_state or -1 */
	const char	*kind;
	const char	*link;
};
/* *runs: store_runs_free(). */
int	store_api_runs(struct store *, const struct store_api_runs_q *,
	    struct store_run **runs, size_t *n, char *err, size_t errlen);
/* The overviews (store_run_infos()) of the same page, in the same
 * order.  *infos: store_run_infos_free(). */
int	store_api_run_infos(struct store *, const struct store_api_runs_q *,
	    struct store_run_info **infos, size_t *n, char *err,
	    size_t errlen);

/* ---- bulk loading (store_bulk.c) --------------------------------------- */

/*
 * Every queued job of run_id, in seq order, finished with results[i] in
 * ONE transaction (queued -> running -> DONE or FAILED, its samples; no
 * raw output): what a claim and store_job_finish() per job record, for
 * loading many runs fast (bench/api_bench, an import).  n must be the
 * number of queued jobs.  0, or -1 with err and nothing changed.
 */
int	store_run_bulk_finish(struct store *, int64_t run_id,
	    const struct store_job_result *results, size_t n, char *err,
	    size_t errlen);

/* ---- stored verdicts (store_verdict.c, schema 14: run_verdicts) ------ */

/*
 * A run's report JSON as the run module stored it when the run finished
 * (report_verdict_save()).  store_verdict_put: replaces run_id's row.
 * store_verdict_get: 1 with *json (heap, NUL-terminated, the caller frees
 * it), *len, *format, *baseline_run (0: none) and *regressions (how many
 * it found), 0 when none is stored,
 * -1 with err.  store_verdict_drop_from: deletes run_id's row and those
 * of the runs after it that have a job on one of run_id's links (their
 * default baseline may change when run_id is resumed or finishes); *n
 * (may be NULL): how many.  0 or -1 with err.
 */
int	store_verdict_put(struct store *, int64_t run_id, int format,
	    int64_t baseline_run, int regressions, const char *json,
	    size_t len, char *err, size_t errlen);
int	store_verdict_get(struct store *, int64_t run_id, char **json,
	    size_t *len, int *format, int64_t *baseline_run,
	    int *regressions, char *err, size_t errlen);
int	store_verdict_drop_from(struct store *, int64_t run_id, int64_t *n,
	    char *err, size_t errlen);

/*
 * The series of GET /api/v1/series (store_series.c): one link + knobs key
 * + workload + metric across runs.  A workload is named as regression
 * records name it: the job's params when they start with its tool
 * ("iperf3:len=128k,nodelay=on"), else "TOOL:PARAMS".  Only done jobs and
 * whole-transfer values (interval 0) count, as in a report.
 */
#define STORE_WORKLOAD_MAX	(STORE_PARAMS_MAX + STORE_TOOL_MAX)

/* The workload name of tool + params into buf (cut to len). */
void	store_workload_name(const char *tool, const char *params, char *buf,
	    size_t len);

/* A series that exists: runs = the runs with a done job of it, last_run
 * the newest of them. */
struct store_api_key {
	char	 link[STORE_NAME_MAX];
	char	 knobs[STORE_KEY_MAX];
	char	 tool[STORE_TOOL_MAX];
	char	 params[STORE_PARAMS_MAX];
	char	 workload[STORE_WORKLOAD_MAX];
	char	 metric[STORE_NAME_MAX];
	char	 unit[STORE_NAME_MAX];
	int64_t	 runs, last_run;
};
/* Every series of link (NULL: of every link), by link, knobs, workload,
 * metric.  *keys: heap array, free(). */
int	store_api_series_keys(struct store *, const char *link,
	    struct store_api_key **keys, size_t *n, char *err, size_t errlen);

struct store_api_series_q {
	const char	*link, *knobs, *workload, *metric;
	size_t		 limit;		/* runs per page; 0 = 50 */
	int64_t		 after;		/* runs with ids below; 0 = newest */
};
/* One run's values of the series (one point per run and client kernel
 * revision, as the report groups them), values in job order. */
struct store_api_point {
	int64_t	 run, night, bisect;	/* night, bisect: 0 = none */
	char	 kind[16];		/* the run's kind */
	char	 revision[STORE_NAME_MAX];	/* "" unknown */
	char	 unit[STORE_NAME_MAX];
	int64_t	 started;		/* the run's created_at */
	char	*message;		/* the revision's commit message, as
					   a bisect's revisions hold it (heap);
					   NULL unknown */
	double	*values;
	int64_t	*jobs;
	size_t	 n;
};
/* A night whose verdicts found a regression on the link (kind
 * "regression": run = the night's run, revision = the night's), or the
 * culprit of a bisect on the link ("culprit": run = its newest step run
 * that measured the culprit, night = the night that opened its record).
 * knobs, workload, metric: the regressed series; same: it is this one. */
struct store_api_mark {
	char	 kind[16];
	int64_t	 run, night, bisect, regression;	/* 0 = none */
	char	 revision[STORE_NAME_MAX];
	char	 knobs[STORE_KEY_MAX];
	char	 workload[STORE_WORKLOAD_MAX];
	char	 metric[STORE_NAME_MAX];
	double	 change;		/* regression: against its baseline */
	int	 same;
};
/* A page: points newest run first; marks whose run lies in the page's
 * run range (from its oldest run, or 0 on the last page, to after - 1;
 * marks without a run on the first page), newest first; next_after the
 * cursor of the next page or 0. */
struct store_api_series {
	struct store_api_point	*points;
	size_t			 npoints;
	struct store_api_mark	*marks;
	size_t			 nmarks;
	int64_t			 next_after;
};
int	store_api_series(struct store *, const struct store_api_series_q *,
	    struct store_api_series *out, char *err, size_t errlen);
void	store_api_series_free(struct store_api_series *);

/* GET /api/v1/hosts/{link}/health: whether the store knows link at all (a
 * health row, a transition or a job on it): 1, 0, -1. */
int	store_api_link_known(struct store *, const char *link, char *err,
	    size_t errlen);

/* ---- testing ------------------------------------------------------------ */

/* Called inside store_job_finish()'s transaction after each sample row
 * (where = "sample", i = its index) so a test can crash the process
 * mid-transaction.  NULL to remove.  Not for production use. */
void	store_set_test_hook(struct store *,
	    void (*)(void *arg, const char *where, size_t i), void *arg);

#endif
