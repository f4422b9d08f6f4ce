/*
 * store_int.h: internals shared by the store module's files (store.c:
 * opening, migrations, checks; store_sql.c: the SQL helpers below;
 * store_jobs.c: runs, jobs, samples, raw output; store_bisect.c: hosts and
 * their facts, bisects, schedules; store_runs.c: run notes, overviews,
 * owners and interruptions; store_owner.c: the owner liveness check;
 * store_sched.c: schedules; store_queue.c: the daemon's queue, heartbeat
 * and link leases).  Nothing outside the store module
 * includes it: callers see store.h only.
 */
#ifndef LABRAT_STORE_INT_H
#define LABRAT_STORE_INT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "store_daemon.h"

#define STORE_BUSY_MS	10000
#define STORE_NITEMS(a)	(sizeof (a) / sizeof (a)[0])

struct store {
	sqlite3	*db;
	char	*path;
	int	 readonly;
	int	 version;	/* schema version when opened/migrated */
	int	 migrating;	/* no "run labrat db migrate" hint now */
	int	 busy_ms;	/* the busy budget */
	int64_t	 busy_since;	/* util_now_ms() when this wait began */
	enum store_fault fault;	/* of the last store_err() */
	void	(*hook)(void *, const char *, size_t);
	void	*hook_arg;
};

extern const char *const store_job_states[STORE_JOB_NSTATES];

int64_t	store_now(void);
/* The busy handler: back-off until st->busy_ms have passed. */
int	store_busy_wait(void *st, int count);
/* Reads a row's owner from 4 columns from i on: host, pid, start, since. */
void	store_owner_cols(sqlite3_stmt *, int i, struct store_owner *);

/* Formats "PATH: OP: sqlite's message" (plus a migrate hint); returns -1. */
int	store_err(struct store *, const char *op, char *err, size_t errlen);
int	store_exec(struct store *, const char *sql, const char *op, char *err,
	    size_t errlen);
/* BEGIN IMMEDIATE / COMMIT (rolls back if it fails) / ROLLBACK if open. */
int	store_begin(struct store *, const char *op, char *err, size_t errlen);
int	store_commit(struct store *, const char *op, char *err, size_t errlen);
void	store_rollback(struct store *);

/*
 * Parameters are bound from a format, one letter per parameter in order:
 *   t  const char *	NULL binds NULL
 *   i  int
 *   I  int64_t
 *   n  int64_t		an id, 0 binds NULL
 *   b  int		a knob boolean, < 0 binds NULL
 *   d  double
 * The arguments must have exactly these types (they travel through ...).
 */
void	store_bind(sqlite3_stmt *, const char *fmt, ...);
/* Prepares sql and binds fmt's parameters; NULL with err set on failure. */
sqlite3_stmt *store_prep(struct store *, const char *op, char *err,
	    size_t errlen, const char *sql, const char *fmt, ...);
/* Steps a statement that returns no row and finalizes it. */
int	store_done(struct store *, sqlite3_stmt *, const char *op, char *err,
	    size_t errlen);
/*
 * Prepares, binds, steps and finalizes a statement returning no row.
 * *rowid (may be NULL) gets the rowid an INSERT made.
 */
int	store_do(struct store *, int64_t *rowid, const char *op, char *err,
	    size_t errlen, const char *sql, const char *fmt, ...);
/* After an UPDATE or DELETE: fails naming what (and id) if nothing changed. */
int	store_changed(struct store *, const char *op, const char *what,
	    int64_t id, char *err, size_t errlen);

/* How the rows of a query become elements of type T. */
struct store_rowtype {
	size_t	 size;				/* sizeof (T) */
	void	(*read)(sqlite3_stmt *, void *);	/* fills one T */
	void	(*free)(void *);	/* a T's heap fields; may be NULL */
};
/* An int64_t from column 0 (an id, a count). */
extern const struct store_rowtype store_id_row;

/* Reads the first row of a query into dst: 1, 0 if none, -1 on error. */
int	store_get(struct store *, const struct store_rowtype *, void *dst,
	    const char *op, char *err, size_t errlen, const char *sql,
	    const char *fmt, ...);
/*
 * Reads every row of a query.  vp is the address of the caller's T *: it
 * gets a heap array of *np elements (free with store_free_rows()), NULL
 * on error.
 */
int	store_list(struct store *, const struct store_rowtype *, void *vp,
	    size_t *np, const char *op, char *err, size_t errlen,
	    const char *sql, const char *fmt, ...);
void	store_free_rows(const struct store_rowtype *, void *v, size_t n);

/*
 * Reads the current row's columns from column i on, one letter a column:
 *   I  int64_t *		i  int *		d  double *
 *   s  char *, size_t	copied, cut to fit
 *   S  char **		a heap copy (the caller frees it), NULL for NULL
 *   k  struct knobs *	six columns: tso, lro, rxcsum, txcsum, mtu,
 *				nat (NULL, 0 or "" = not set)
 *   -  (nothing)		the column is skipped
 */
void	store_cols(sqlite3_stmt *, int i, const char *fmt, ...);
void	store_col_copy(sqlite3_stmt *, int i, char *dst, size_t len);
/* Heap copy of a column (caller frees), NULL for SQL NULL. */
char	*store_col_dup(sqlite3_stmt *, int i);

/* A string checked before it is written: present if required, fits max. */
struct store_len {
	const char	*what;
	const char	*s;
	size_t		 max;
	int		 required;
};

/* 1 when name is 1..max characters of A-Z a-z 0-9 . _ - (the names of
 * schedules and tokens). */
int	store_name_ok(const char *name, size_t max);

/* Checks them in order; the first failure is in err. */
int	store_lens_ok(const struct store_len *, size_t n, char *err,
	    size_t errlen);
int	store_len_ok(const char *what, const char *s, size_t max,
	    int required, char *err, size_t errlen);

/* Every statement store_api.c prepares, NULL-terminated: the unit test
 * runs EXPLAIN QUERY PLAN on each and refuses a full scan of samples or
 * jobs. */
extern const char *const store_api_sql[];
/* The same for store_series.c. */
extern const char *const store_series_sql[];

/* A run's overview (struct store_run_info, store_runs.c) of the runs
 * aliased r: the SELECT's columns, and the row type that reads them. */
#define STORE_RUN_INFO_COUNT(s) \
	"(SELECT count(*) FROM jobs j WHERE j.run_id = r.id AND j.state = '" \
	s "')"
#define STORE_RUN_INFO_COLS "SELECT r.id, " \
	"(SELECT group_concat(DISTINCT f.revision) FROM host_facts f " \
	"WHERE f.run_id = r.id AND f.revision <> ''), " \
	"(SELECT group_concat(DISTINCT j.link) FROM jobs j " \
	"WHERE j.run_id = r.id), " \
	STORE_RUN_INFO_COUNT("queued") ", " STORE_RUN_INFO_COUNT("running") \
	", " STORE_RUN_INFO_COUNT("done") ", " STORE_RUN_INFO_COUNT("failed") \
	", " STORE_RUN_INFO_COUNT("cancelled") ", " \
	"(SELECT count(*) FROM jobs j WHERE j.run_id = r.id AND " \
	"j.state = 'failed' AND j.failure_class = 'infra')"
extern const struct store_rowtype store_run_info_rows;

#endif
