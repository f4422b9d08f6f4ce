/*
 * store_bisect: hosts and the facts they ran under, bisects and their
 * steps, schedules (see store.h).  The SQL helpers are in store.c.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_int.h"
#include "util.h"

/* ---- hosts and facts --------------------------------------------------- */

int
store_host_upsert(struct store *st, const char *name, const char *os,
    const char *address, int64_t *host_id, char *err, size_t errlen)
{
	if (store_len_ok("host name", name, STORE_NAME_MAX, 1, err,
	    errlen) == -1)
		return -1;
	if (store_do(st, "upsert host", err, errlen, "INSERT INTO hosts "
	    "(name, os, address, first_seen, last_seen) VALUES (?1, ?2, ?3, "
	    "?4, ?4) ON CONFLICT (name) DO UPDATE SET os = COALESCE(?2, os), "
	    "address = COALESCE(?3, address), last_seen = ?4", "tttI", name,
	    os, address, store_now()) == -1)
		return -1;
	if (host_id == NULL)
		return 0;
	switch (store_get(st, store_read_id, host_id, "upsert host", err,
	    errlen, "SELECT id FROM hosts WHERE name = ?", "t", name)) {
	case 1:
		return 0;
	case 0:
		return store_err(st, "upsert host", err, errlen);
	default:
		return -1;
	}
}

int
store_host_facts_add(struct store *st, int64_t run_id,
    const struct store_host_facts *f, int64_t *facts_id, char *err,
    size_t errlen)
{
	const struct store_len	 lens[] = {
		{ "revision", f->revision, STORE_NAME_MAX, 0 },
		{ "driver", f->driver, STORE_NAME_MAX, 0 },
		{ "chip", f->chip, STORE_NAME_MAX, 0 },
		{ "interface", f->ifname, STORE_NAME_MAX, 0 },
		{ "os", f->os, STORE_NAME_MAX, 0 },
		{ "kernel version", f->kernel_version, STORE_REASON_MAX, 0 },
		{ "knobs", f->knobs, STORE_KEY_MAX, 0 },
		{ "facts", f->facts_json, STORE_FACTS_MAX, 0 },
	};
	int64_t			 host_id;

	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	if (store_begin(st, "record host facts", err, errlen) == -1)
		return -1;
	if (store_host_upsert(st, f->host, f->os, f->address, &host_id, err,
	    errlen) == -1 || store_insert(st, facts_id, "record host facts",
	    err, errlen, "INSERT INTO host_facts (run_id, host_id, "
	    "recorded_at, os, kernel_version, revision, ifname, driver, chip, "
	    "knobs, facts_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	    "IIIttttt" "ttt", run_id, host_id, store_now(), f->os,
	    f->kernel_version, f->revision, f->ifname, f->driver, f->chip,
	    f->knobs, f->facts_json) == -1) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, "record host facts", err, errlen);
}

static void
facts_read(sqlite3_stmt *stmt, void *p)
{
	struct store_host_facts_row	*r = p;

	r->id = sqlite3_column_int64(stmt, 0);
	r->run_id = sqlite3_column_int64(stmt, 1);
	r->recorded_at = sqlite3_column_int64(stmt, 2);
	r->host = store_col_dup(stmt, 3);
	r->os = store_col_dup(stmt, 4);
	r->kernel_version = store_col_dup(stmt, 5);
	r->revision = store_col_dup(stmt, 6);
	r->ifname = store_col_dup(stmt, 7);
	r->driver = store_col_dup(stmt, 8);
	r->chip = store_col_dup(stmt, 9);
	r->knobs = store_col_dup(stmt, 10);
	r->facts_json = store_col_dup(stmt, 11);
}

static void
facts_free(void *p)
{
	struct store_host_facts_row	*r = p;

	free(r->host);
	free(r->os);
	free(r->kernel_version);
	free(r->revision);
	free(r->ifname);
	free(r->driver);
	free(r->chip);
	free(r->knobs);
	free(r->facts_json);
}

int
store_host_facts_list(struct store *st, int64_t run_id,
    struct store_host_facts_row **rows, size_t *nrows, char *err,
    size_t errlen)
{
	static const struct store_rowtype t = { sizeof **rows, facts_read,
					    facts_free };
	void	*v;
	int	 rc;

	rc = store_list(st, &t, &v, nrows, "list host facts", err, errlen,
	    "SELECT f.id, f.run_id, f.recorded_at, h.name, f.os, "
	    "f.kernel_version, f.revision, f.ifname, f.driver, f.chip, "
	    "f.knobs, f.facts_json FROM host_facts f JOIN hosts h ON "
	    "h.id = f.host_id WHERE f.run_id = ? ORDER BY f.id", "I", run_id);
	*rows = v;
	return rc;
}

void
store_facts_free(struct store_host_facts_row *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		facts_free(&v[i]);
	free(v);
}

/* ---- bisects ------------------------------------------------------------- */

static const char *const bisect_states[] = {
	"running", "done", "failed", "reset"
};
static const char *const verdicts[] = {
	"", "good", "bad", "skip", "inconclusive"
};

static int
one_of(const char *s, const char *const *set, size_t n)
{
	size_t	i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcmp(s, set[i]) == 0)
			return 1;
	return 0;
}

/* "" for NULL: columns that are NOT NULL but optional in the spec. */
static const char *
or_empty(const char *s)
{
	return s != NULL ? s : "";
}

int
store_bisect_create(struct store *st, const struct store_bisect_spec *b,
    int64_t *bisect_id, char *err, size_t errlen)
{
	const struct store_len	 lens[] = {
		{ "bisect link", b->link, STORE_NAME_MAX, 1 },
		{ "bisect knobs", b->knobs, STORE_KEY_MAX, 0 },
		{ "bisect tool", b->tool, STORE_TOOL_MAX, 1 },
		{ "bisect params", b->params, STORE_PARAMS_MAX, 0 },
		{ "bisect metric", b->metric, STORE_NAME_MAX, 1 },
		{ "good revision", b->good, STORE_NAME_MAX, 1 },
		{ "bad revision", b->bad, STORE_NAME_MAX, 1 },
	};

	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	return store_insert(st, bisect_id, "create bisect", err, errlen,
	    "INSERT INTO bisects (state, created_at, link, knobs, tool, "
	    "params, metric, good, bad, revisions, inventory_path, plan_path) "
	    "VALUES ('running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	    "Ittttt" "ttttt", store_now(), b->link, or_empty(b->knobs),
	    b->tool, or_empty(b->params), b->metric, b->good, b->bad,
	    or_empty(b->revisions), b->inventory_path, b->plan_path);
}

#define BISECT_COLS "id, state, created_at, finished_at, link, knobs, tool, " \
	"metric, good, bad, culprit, confidence, params, revisions, " \
	"inventory_path, plan_path, reason"

static void
bisect_read(sqlite3_stmt *stmt, void *p)
{
	struct store_bisect	*b = p;

	memset(b, 0, sizeof *b);
	b->id = sqlite3_column_int64(stmt, 0);
	store_col_copy(stmt, 1, b->state, sizeof b->state);
	b->created_at = sqlite3_column_int64(stmt, 2);
	b->finished_at = sqlite3_column_int64(stmt, 3);
	store_col_copy(stmt, 4, b->link, sizeof b->link);
	store_col_copy(stmt, 5, b->knobs, sizeof b->knobs);
	store_col_copy(stmt, 6, b->tool, sizeof b->tool);
	store_col_copy(stmt, 7, b->metric, sizeof b->metric);
	store_col_copy(stmt, 8, b->good, sizeof b->good);
	store_col_copy(stmt, 9, b->bad, sizeof b->bad);
	store_col_copy(stmt, 10, b->culprit, sizeof b->culprit);
	b->confidence = sqlite3_column_double(stmt, 11);
	b->params = store_col_dup(stmt, 12);
	b->revisions = store_col_dup(stmt, 13);
	b->inventory_path = store_col_dup(stmt, 14);
	b->plan_path = store_col_dup(stmt, 15);
	b->reason = store_col_dup(stmt, 16);
}

static void
bisect_free(void *p)
{
	store_bisect_free(p);
}

int
store_bisect_get(struct store *st, int64_t bisect_id, struct store_bisect *b,
    char *err, size_t errlen)
{
	return store_get(st, bisect_read, b, "get bisect", err, errlen,
	    "SELECT " BISECT_COLS " FROM bisects WHERE id = ?1 OR (?1 = 0 AND "
	    "id = (SELECT MAX(id) FROM bisects))", "I", bisect_id);
}

int
store_bisect_update(struct store *st, int64_t bisect_id, const char *state,
    const char *culprit, double confidence, const char *reason, char *err,
    size_t errlen)
{
	if (!one_of(state, bisect_states, STORE_NITEMS(bisect_states))) {
		util_seterr(err, errlen, "update bisect %lld: bad state "
		    "\"%.16s\"", (long long)bisect_id, state ? state : "");
		return -1;
	}
	if (store_len_ok("culprit", culprit, STORE_NAME_MAX, 0, err,
	    errlen) == -1 || store_len_ok("reason", reason, STORE_REASON_MAX,
	    0, err, errlen) == -1)
		return -1;
	if (store_do(st, "update bisect", err, errlen, "UPDATE bisects SET "
	    "state = ?1, culprit = ?2, confidence = ?3, reason = ?4, "
	    "finished_at = CASE WHEN ?1 = 'running' THEN NULL ELSE ?5 END "
	    "WHERE id = ?6", "ttdtII", state, culprit, confidence, reason,
	    store_now(), bisect_id) == -1)
		return -1;
	return store_changed(st, "update bisect", "bisect", bisect_id, err,
	    errlen);
}

int
store_bisect_list(struct store *st, struct store_bisect **bs, size_t *nbs,
    char *err, size_t errlen)
{
	static const struct store_rowtype t = { sizeof **bs, bisect_read,
					    bisect_free };
	void	*v;
	int	 rc;

	rc = store_list(st, &t, &v, nbs, "list bisects", err, errlen,
	    "SELECT " BISECT_COLS " FROM bisects ORDER BY id DESC", "");
	*bs = v;
	return rc;
}

void
store_bisect_free(struct store_bisect *b)
{
	if (b == NULL)
		return;
	free(b->params);
	free(b->revisions);
	free(b->inventory_path);
	free(b->plan_path);
	free(b->reason);
	memset(b, 0, sizeof *b);
}

void
store_bisects_free(struct store_bisect *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_bisect_free(&v[i]);
	free(v);
}

static int
verdict_valid(const struct store_bisect_step *s, char *err, size_t errlen)
{
	if (!one_of(s->verdict, verdicts, STORE_NITEMS(verdicts))) {
		util_seterr(err, errlen, "bisect step: bad verdict \"%.16s\"",
		    s->verdict);
		return -1;
	}
	return 0;
}

int
store_bisect_step_add(struct store *st, int64_t bisect_id,
    const struct store_bisect_step *s, int64_t *step_id, char *err,
    size_t errlen)
{
	if (store_len_ok("revision", s->revision, STORE_NAME_MAX, 1, err,
	    errlen) == -1 || verdict_valid(s, err, errlen) == -1)
		return -1;
	return store_insert(st, step_id, "add bisect step", err, errlen,
	    "INSERT INTO bisect_steps (bisect_id, seq, revision, run_id, "
	    "verdict, n, median, baseline_median, ratio, p, created_at, "
	    "updated_at) VALUES (?1, (SELECT COALESCE(MAX(seq) + 1, 0) FROM "
	    "bisect_steps WHERE bisect_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
	    "?9, ?10, ?10)", "Itntidddd" "I", bisect_id, s->revision,
	    s->run_id, s->verdict, s->n, s->median, s->baseline_median,
	    s->ratio, s->p, store_now());
}

int
store_bisect_step_update(struct store *st, const struct store_bisect_step *s,
    char *err, size_t errlen)
{
	if (verdict_valid(s, err, errlen) == -1 ||
	    store_do(st, "update bisect step", err, errlen, "UPDATE "
	    "bisect_steps SET run_id = ?1, verdict = ?2, n = ?3, median = ?4, "
	    "baseline_median = ?5, ratio = ?6, p = ?7, updated_at = ?8 WHERE "
	    "id = ?9", "ntiddddII", s->run_id, s->verdict, s->n, s->median,
	    s->baseline_median, s->ratio, s->p, store_now(), s->id) == -1)
		return -1;
	return store_changed(st, "update bisect step", "bisect step", s->id,
	    err, errlen);
}

static void
step_read(sqlite3_stmt *stmt, void *p)
{
	struct store_bisect_step	*s = p;

	memset(s, 0, sizeof *s);
	s->id = sqlite3_column_int64(stmt, 0);
	s->bisect_id = sqlite3_column_int64(stmt, 1);
	s->seq = sqlite3_column_int(stmt, 2);
	store_col_copy(stmt, 3, s->revision, sizeof s->revision);
	s->run_id = sqlite3_column_int64(stmt, 4);
	store_col_copy(stmt, 5, s->verdict, sizeof s->verdict);
	s->n = sqlite3_column_int(stmt, 6);
	s->median = sqlite3_column_double(stmt, 7);
	s->baseline_median = sqlite3_column_double(stmt, 8);
	s->ratio = sqlite3_column_double(stmt, 9);
	s->p = sqlite3_column_double(stmt, 10);
	s->created_at = sqlite3_column_int64(stmt, 11);
	s->updated_at = sqlite3_column_int64(stmt, 12);
}

int
store_bisect_steps(struct store *st, int64_t bisect_id,
    struct store_bisect_step **steps, size_t *nsteps, char *err,
    size_t errlen)
{
	static const struct store_rowtype t = { sizeof **steps, step_read,
					    NULL };
	void	*v;
	int	 rc;

	rc = store_list(st, &t, &v, nsteps, "list bisect steps", err, errlen,
	    "SELECT id, bisect_id, seq, revision, run_id, verdict, n, median, "
	    "baseline_median, ratio, p, created_at, updated_at FROM "
	    "bisect_steps WHERE bisect_id = ? ORDER BY seq", "I", bisect_id);
	*steps = v;
	return rc;
}

/* ---- schedules --------------------------------------------------------- */

int
store_schedule_upsert(struct store *st, const struct store_schedule *s,
    int64_t *schedule_id, char *err, size_t errlen)
{
	const struct store_len	 lens[] = {
		{ "schedule name", s->name, STORE_NAME_MAX, 1 },
		{ "schedule cron", s->cron, STORE_NAME_MAX, 1 },
		{ "inventory", s->inventory_path, PATH_MAX, 1 },
		{ "plan", s->plan_path, PATH_MAX, 1 },
	};

	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	if (store_do(st, "save schedule", err, errlen, "INSERT INTO schedules "
	    "(name, cron, inventory_path, plan_path, enabled, created_at, "
	    "next_run_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT "
	    "(name) DO UPDATE SET cron = ?2, inventory_path = ?3, "
	    "plan_path = ?4, enabled = ?5, next_run_at = ?7", "ttttiIn",
	    s->name, s->cron, s->inventory_path, s->plan_path, s->enabled != 0,
	    store_now(), s->next_run_at) == -1)
		return -1;
	if (schedule_id == NULL)
		return 0;
	/* Not RETURNING: that needs SQLite 3.35. */
	switch (store_get(st, store_read_id, schedule_id, "save schedule", err,
	    errlen, "SELECT id FROM schedules WHERE name = ?", "t", s->name)) {
	case 1:
		return 0;
	case 0:
		return store_err(st, "save schedule", err, errlen);
	default:
		return -1;
	}
}

int
store_schedule_delete(struct store *st, const char *name, char *err,
    size_t errlen)
{
	if (store_do(st, "delete schedule", err, errlen, "DELETE FROM "
	    "schedules WHERE name = ?", "t", name) == -1)
		return -1;
	if (sqlite3_changes(st->db) == 0) {
		util_seterr(err, errlen, "%s: delete schedule: no schedule "
		    "\"%s\"", st->path, name);
		return -1;
	}
	return 0;
}

static void
schedule_read(sqlite3_stmt *stmt, void *p)
{
	struct store_schedule	*s = p;

	memset(s, 0, sizeof *s);
	s->id = sqlite3_column_int64(stmt, 0);
	store_col_copy(stmt, 1, s->name, sizeof s->name);
	store_col_copy(stmt, 2, s->cron, sizeof s->cron);
	s->inventory_path = store_col_dup(stmt, 3);
	s->plan_path = store_col_dup(stmt, 4);
	s->enabled = sqlite3_column_int(stmt, 5);
	s->last_run_at = sqlite3_column_int64(stmt, 6);
	s->last_run_id = sqlite3_column_int64(stmt, 7);
	s->next_run_at = sqlite3_column_int64(stmt, 8);
}

static void
schedule_free(void *p)
{
	struct store_schedule	*s = p;

	free(s->inventory_path);
	free(s->plan_path);
}

int
store_schedule_list(struct store *st, struct store_schedule **ss, size_t *nss,
    char *err, size_t errlen)
{
	static const struct store_rowtype t = { sizeof **ss, schedule_read,
					    schedule_free };
	void	*v;
	int	 rc;

	rc = store_list(st, &t, &v, nss, "list schedules", err, errlen,
	    "SELECT id, name, cron, inventory_path, plan_path, enabled, "
	    "last_run_at, last_run_id, next_run_at FROM schedules ORDER BY "
	    "name", "");
	*ss = v;
	return rc;
}

int
store_schedule_fired(struct store *st, int64_t schedule_id, int64_t run_id,
    int64_t next_run_at, char *err, size_t errlen)
{
	if (store_do(st, "record schedule run", err, errlen, "UPDATE schedules "
	    "SET last_run_at = ?, last_run_id = ?, next_run_at = ? WHERE "
	    "id = ?", "InnI", store_now(), run_id, next_run_at,
	    schedule_id) == -1)
		return -1;
	return store_changed(st, "record schedule run", "schedule",
	    schedule_id, err, errlen);
}

void
store_schedules_free(struct store_schedule *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		schedule_free(&v[i]);
	free(v);
}
