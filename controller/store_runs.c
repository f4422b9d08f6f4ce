/*
 * store_runs: a run's note, its owner and its interruption, and the
 * overview of runs `labrat runs` lists (revisions, links, job counts per
 * run, in one query).  See store.h.
 */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "util.h"

int
store_run_set_note(struct store *st, int64_t run_id, const char *note,
    char *err, size_t errlen)
{
	if (store_len_ok("run note", note, STORE_NOTE_MAX, 0, err,
	    errlen) == -1)
		return -1;
	if (store_do(st, NULL, "set run note", err, errlen, "UPDATE runs SET "
	    "note = ? WHERE id = ?", "tI", note, run_id) == -1)
		return -1;
	return store_changed(st, "set run note", "run", run_id, err, errlen);
}

int
store_run_set_owner(struct store *st, int64_t run_id, const char *owner,
    const struct store_owner *w, char *err, size_t errlen)
{
	if (store_len_ok("run owner", owner, STORE_OWNER_MAX, 0, err,
	    errlen) == -1)
		return -1;
	if (store_do(st, NULL, "set run owner", err, errlen, "UPDATE runs SET "
	    "owner = ?, state = 'running', finished_at = NULL, owner_host = ?, "
	    "owner_pid = ?, owner_start = ?, owner_since = ? WHERE id = ?",
	    "ttnnnI", owner, w != NULL ? w->host : NULL, w != NULL ? w->pid :
	    (int64_t)0, w != NULL ? w->start : (int64_t)0, w != NULL ?
	    w->since : (int64_t)0, run_id) == -1)
		return -1;
	return store_changed(st, "set run owner", "run", run_id, err,
	    errlen);
}

int
store_run_interrupt(struct store *st, int64_t run_id, const char *reason,
    int64_t *n, char *err, size_t errlen)
{
	int64_t	requeued = 0;

	if (store_len_ok("interrupt reason", reason, STORE_REASON_MAX, 0, err,
	    errlen) == -1 || store_begin(st, "interrupt run", err,
	    errlen) == -1)
		return -1;
	if (store_do(st, NULL, "interrupt run: requeue its jobs", err, errlen,
	    "UPDATE jobs SET state = 'queued', owner = NULL, reason = "
	    "'interrupted: the controller running it stopped' WHERE "
	    "run_id = ? AND state = 'running'", "I", run_id) == -1)
		goto fail;
	requeued = sqlite3_changes(st->db);
	if (store_do(st, NULL, "interrupt run", err, errlen, "UPDATE runs SET "
	    "state = 'interrupted', reason = ?, finished_at = ? WHERE id = ?",
	    "tII", reason, store_now(), run_id) == -1 ||
	    store_changed(st, "interrupt run", "run", run_id, err,
	    errlen) == -1 || store_commit(st, "interrupt run", err,
	    errlen) == -1)
		goto fail;
	if (n != NULL)
		*n = requeued;
	return 0;
fail:
	store_rollback(st);
	return -1;
}

static void
info_read(sqlite3_stmt *stmt, void *p)
{
	struct store_run_info	*r = p;
	int			 k;

	memset(r, 0, sizeof *r);
	store_cols(stmt, 0, "ISS", &r->run_id, &r->revisions, &r->links);
	if (r->revisions == NULL)
		r->revisions = xstrdup("");
	if (r->links == NULL)
		r->links = xstrdup("");
	for (k = 0; k < STORE_JOB_NSTATES; k++) {
		r->jobs.n[k] = sqlite3_column_int64(stmt, 3 + k);
		r->jobs.total += r->jobs.n[k];
	}
	r->jobs.failed_infra = sqlite3_column_int64(stmt,
	    3 + STORE_JOB_NSTATES);
}

static void
info_free(void *p)
{
	struct store_run_info	*r = p;

	free(r->revisions);
	free(r->links);
}

const struct store_rowtype store_run_info_rows = {
	sizeof (struct store_run_info), info_read, info_free
};

int
store_run_infos(struct store *st, size_t limit, struct store_run_info **infos,
    size_t *n, char *err, size_t errlen)
{
	return store_list(st, &store_run_info_rows, infos, n,
	    "list run overviews", err, errlen, STORE_RUN_INFO_COLS
	    " FROM runs r ORDER BY r.id DESC LIMIT ?", "I",
	    limit == 0 ? (int64_t)-1 : (int64_t)limit);
}

void
store_run_infos_free(struct store_run_info *v, size_t n)
{
	store_free_rows(&store_run_info_rows, v, n);
}
