/*
 * store_verdict: a run's stored report JSON (schema 14, table
 * run_verdicts), written when the run finishes and served by GET
 * /api/v1/runs/{id}/report.  See store.h ("stored verdicts").
 */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "util.h"

int
store_verdict_put(struct store *st, int64_t run_id, int format,
    int64_t baseline_run, int regressions, const char *json, size_t len,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	stmt = store_prep(st, "store run verdicts", err, errlen,
	    "INSERT OR REPLACE INTO run_verdicts (run_id, format, "
	    "baseline_run, regressions, stored_ms, report) VALUES (?, ?, ?, "
	    "?, ?, ?)", "IiniI", run_id, format, baseline_run, regressions,
	    store_now());
	if (stmt == NULL)
		return -1;
	if (sqlite3_bind_text(stmt, 6, json, (int)len,
	    SQLITE_TRANSIENT) != SQLITE_OK) {
		store_err(st, "store run verdicts", err, errlen);
		sqlite3_finalize(stmt);
		return -1;
	}
	return store_done(st, stmt, "store run verdicts", err, errlen);
}

int
store_verdict_get(struct store *st, int64_t run_id, char **json,
    size_t *len, int *format, int64_t *baseline_run, int *regressions,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	const void	*p;
	int		 rc;

	*json = NULL;
	*len = 0;
	stmt = store_prep(st, "read run verdicts", err, errlen,
	    "SELECT format, coalesce(baseline_run, 0), regressions, report FROM "
	    "run_verdicts WHERE run_id = ?", "I", run_id);
	if (stmt == NULL)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(stmt);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		store_err(st, "read run verdicts", err, errlen);
		sqlite3_finalize(stmt);
		return -1;
	}
	*format = sqlite3_column_int(stmt, 0);
	*baseline_run = sqlite3_column_int64(stmt, 1);
	*regressions = sqlite3_column_int(stmt, 2);
	p = sqlite3_column_text(stmt, 3);
	*len = (size_t)sqlite3_column_bytes(stmt, 3);
	*json = xmalloc(*len + 1);
	if (*len > 0)
		memcpy(*json, p, *len);
	(*json)[*len] = '\0';
	sqlite3_finalize(stmt);
	return 1;
}

int
store_verdict_drop_from(struct store *st, int64_t run_id, int64_t *n,
    char *err, size_t errlen)
{
	/* run_verdicts' rowid is run_id: the range is read by key, and each
	 * later run's links through jobs_claim (run_id first). */
	if (store_do(st, NULL, "drop run verdicts", err, errlen,
	    "DELETE FROM run_verdicts WHERE run_id = ?1 OR (run_id > ?1 AND "
	    "EXISTS (SELECT 1 FROM jobs j WHERE j.run_id = "
	    "run_verdicts.run_id AND j.link IN (SELECT link FROM jobs WHERE "
	    "run_id = ?1)))", "I", run_id) == -1)
		return -1;
	if (n != NULL)
		*n = sqlite3_changes(st->db);
	return 0;
}
