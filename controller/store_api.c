/*
 * store_api: the reads the HTTP API needs that the rest of the store does
 * not offer: the run list paged by an id cursor (newest first) with
 * filters.  Bound parameters only; every statement this file prepares is
 * in store_api_sql[], so a unit test can EXPLAIN QUERY PLAN each one and
 * refuse a full scan of samples or jobs.
 */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "util.h"

#define API_RUN_COLS "id, state, kind, created_at, finished_at, " \
	"schedule_id, bisect_id, owner, reason, inventory_path, plan_path, " \
	"note, owner_host, owner_pid, owner_start, owner_since"

enum { API_SQL_RUNS = 0, API_SQL_INFOS };

const char *const store_api_sql[] = {
	/* ?1 after (INT64_MAX = from the newest), ?2 state, ?3 kind, ?4
	 * link (NULL = any), ?5 limit. */
	"SELECT " API_RUN_COLS " FROM runs WHERE id < ?1 "
	"AND (?2 IS NULL OR state = ?2) AND (?3 IS NULL OR kind = ?3) "
	"AND (?4 IS NULL OR EXISTS (SELECT 1 FROM jobs "
	"WHERE jobs.run_id = runs.id AND jobs.link = ?4)) "
	"ORDER BY id DESC LIMIT ?5",
	/* The overviews of the same page (the same parameters). */
	STORE_RUN_INFO_COLS " FROM runs r WHERE r.id < ?1 "
	"AND (?2 IS NULL OR r.state = ?2) AND (?3 IS NULL OR r.kind = ?3) "
	"AND (?4 IS NULL OR EXISTS (SELECT 1 FROM jobs "
	"WHERE jobs.run_id = r.id AND jobs.link = ?4)) "
	"ORDER BY r.id DESC LIMIT ?5",
	NULL
};

static void
api_run_read(sqlite3_stmt *stmt, void *p)
{
	struct store_run	*r = p;
	const char		*s;
	int			 i;

	memset(r, 0, sizeof *r);
	store_cols(stmt, 0, "I-sIIIISSSSS", &r->id, r->kind, sizeof r->kind,
	    &r->created_at, &r->finished_at, &r->schedule_id, &r->bisect_id,
	    &r->owner, &r->reason, &r->inventory_path, &r->plan_path,
	    &r->note);
	s = (const char *)sqlite3_column_text(stmt, 1);
	r->state = STORE_RUN_FAILED;	/* as store_jobs.c reads an unknown one */
	for (i = STORE_RUN_RUNNING; s != NULL && i <= STORE_RUN_INTERRUPTED;
	    i++)
		if (strcmp(s, store_run_state_name((enum store_run_state)i)) ==
		    0)
			r->state = (enum store_run_state)i;
	store_owner_cols(stmt, 12, &r->who);
	if (r->who.host[0] == '\0')
		store_owner_parse(r->owner, &r->who);
}

static void
api_run_free(void *p)
{
	store_run_free(p);
}

static const struct store_rowtype api_run_rows = {
	sizeof (struct store_run), api_run_read, api_run_free
};

int
store_api_runs(struct store *st, const struct store_api_runs_q *q,
    struct store_run **runs, size_t *n, char *err, size_t errlen)
{
	const char	*state = NULL;

	if (q->state >= 0)
		state = store_run_state_name((enum store_run_state)q->state);
	return store_list(st, &api_run_rows, runs, n, "list runs (API)", err,
	    errlen, store_api_sql[API_SQL_RUNS], "ItttI",
	    q->after > 0 ? q->after : INT64_MAX, state, q->kind, q->link,
	    (int64_t)(q->limit > 0 ? q->limit : 50));
}

int
store_api_run_infos(struct store *st, const struct store_api_runs_q *q,
    struct store_run_info **infos, size_t *n, char *err, size_t errlen)
{
	const char	*state = NULL;

	if (q->state >= 0)
		state = store_run_state_name((enum store_run_state)q->state);
	return store_list(st, &store_run_info_rows, infos, n,
	    "list run overviews (API)", err, errlen,
	    store_api_sql[API_SQL_INFOS], "ItttI",
	    q->after > 0 ? q->after : INT64_MAX, state, q->kind, q->link,
	    (int64_t)(q->limit > 0 ? q->limit : 50));
}
