/*
 * store_bisect: hosts and the facts they ran under, bisects and their
 * steps (see store.h; schedules are in store_sched.c).  The SQL helpers are in store_sql.c.
 */
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
	if (store_do(st, NULL, "upsert host", err, errlen, "INSERT INTO hosts "
	    "(name, os, address, first_seen, last_seen) VALUES (?1, ?2, ?3, "
	    "?4, ?4) ON CONFLICT (name) DO UPDATE SET os = COALESCE(?2, os), "
	    "address = COALESCE(?3, address), last_seen = ?4", "tttI", name,
	    os, address, store_now()) == -1)
		return -1;
	if (host_id == NULL)
		return 0;
	switch (store_get(st, &store_id_row, host_id, "upsert host", err,
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
		{ "declared driver", f->declared_driver, STORE_NAME_MAX, 0 },
		{ "declared chip", f->declared_chip, STORE_NAME_MAX, 0 },
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
	    errlen) == -1 || store_do(st, facts_id, "record host facts",
	    err, errlen, "INSERT INTO host_facts (run_id, host_id, "
	    "recorded_at, os, kernel_version, revision, ifname, driver, chip, "
	    "declared_driver, declared_chip, knobs, facts_json) VALUES (?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "IIIttttt" "ttttt", run_id,
	    host_id, store_now(), f->os, f->kernel_version, f->revision,
	    f->ifname, f->driver, f->chip, f->declared_driver,
	    f->declared_chip, f->knobs, f->facts_json) == -1) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, "record host facts", err, errlen);
}

static void
facts_read(sqlite3_stmt *stmt, void *p)
{
	struct store_host_facts_row	*r = p;

	store_cols(stmt, 0, "IIISSSSSSSSSSS", &r->id, &r->run_id,
	    &r->recorded_at, &r->host, &r->os, &r->kernel_version,
	    &r->revision, &r->ifname, &r->driver, &r->chip,
	    &r->declared_driver, &r->declared_chip, &r->knobs,
	    &r->facts_json);
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
	free(r->declared_driver);
	free(r->declared_chip);
	free(r->knobs);
	free(r->facts_json);
}

static const struct store_rowtype facts_rows = {
	sizeof (struct store_host_facts_row), facts_read, facts_free
};

int
store_host_facts_list(struct store *st, int64_t run_id,
    struct store_host_facts_row **rows, size_t *nrows, char *err,
    size_t errlen)
{
	return store_list(st, &facts_rows, rows, nrows, "list host facts",
	    err, errlen, "SELECT f.id, f.run_id, f.recorded_at, h.name, f.os, "
	    "f.kernel_version, f.revision, f.ifname, f.driver, f.chip, "
	    "f.declared_driver, f.declared_chip, f.knobs, f.facts_json "
	    "FROM host_facts f JOIN hosts h ON h.id = f.host_id WHERE "
	    "f.run_id = ? ORDER BY f.id", "I", run_id);
}

void
store_facts_free(struct store_host_facts_row *v, size_t n)
{
	store_free_rows(&facts_rows, v, n);
}

int
store_facts_driver_differs(const struct store_host_facts_row *r)
{
	return util_driver_differs(r->declared_driver, r->driver);
}

int
store_facts_chip_differs(const struct store_host_facts_row *r)
{
	return util_chip_differs(r->declared_chip, r->chip);
}

/* ---- bisects ------------------------------------------------------------- */

static const char *const bisect_states[] = {
	"running", "done", "failed", "reset", "interrupted"
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
	return store_do(st, bisect_id, "create bisect", err, errlen,
	    "INSERT INTO bisects (state, created_at, link, knobs, tool, "
	    "params, metric, good, bad, revisions, inventory_path, plan_path, "
	    "inventory_text, test_text, judged, threshold, lower_is_better) "
	    "VALUES ('running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?14, "
	    "CASE WHEN ?14 THEN ?15 END, CASE WHEN ?14 THEN ?16 END)",
	    "Ittttt" "ttttttt" "idi", store_now(), b->link, or_empty(b->knobs),
	    b->tool, or_empty(b->params), b->metric, b->good, b->bad,
	    or_empty(b->revisions), b->inventory_path, b->plan_path,
	    b->inventory_text, b->test_text, b->judged != 0, b->threshold,
	    b->lower_is_better != 0);
}

#define BISECT_COLS "id, state, created_at, finished_at, link, knobs, tool, " \
	"metric, good, bad, culprit, confidence, params, revisions, " \
	"inventory_path, plan_path, reason, inventory_text, test_text, " \
	"client_before, server_before, owner_host, owner_pid, owner_start, " \
	"owner_since, " BISECT_JUDGING
/* judged -1 (not settled), 0 (cannot be told) or 1, and the two values. */
#define BISECT_JUDGING "CASE WHEN judged = 0 THEN -1 WHEN threshold IS " \
	"NULL THEN 0 ELSE 1 END, threshold, lower_is_better"
/* BISECT_COLS as a page of the list reads them: no long texts, the test's
 * only while it is not settled. */
#define BISECT_PAGE_COLS "id, state, created_at, finished_at, link, knobs, " \
	"tool, metric, good, bad, culprit, confidence, NULL, NULL, NULL, " \
	"plan_path, reason, NULL, CASE WHEN judged = 0 THEN test_text END, " \
	"NULL, NULL, owner_host, owner_pid, owner_start, owner_since, " \
	BISECT_JUDGING

static void
bisect_read(sqlite3_stmt *stmt, void *p)
{
	struct store_bisect	*b = p;

	memset(b, 0, sizeof *b);
	store_cols(stmt, 0, "IsIIsssssssdSSSSSSSSS", &b->id, b->state,
	    sizeof b->state, &b->created_at, &b->finished_at, b->link,
	    sizeof b->link, b->knobs, sizeof b->knobs, b->tool, sizeof b->tool,
	    b->metric, sizeof b->metric, b->good, sizeof b->good, b->bad,
	    sizeof b->bad, b->culprit, sizeof b->culprit, &b->confidence,
	    &b->params, &b->revisions, &b->inventory_path, &b->plan_path,
	    &b->reason, &b->inventory_text, &b->test_text, &b->client_before,
	    &b->server_before);
	store_owner_cols(stmt, 21, &b->who);
	store_cols(stmt, 25, "idi", &b->judged, &b->threshold,
	    &b->lower_is_better);
}

static void
bisect_free(void *p)
{
	store_bisect_free(p);
}

static const struct store_rowtype bisect_rows = {
	sizeof (struct store_bisect), bisect_read, bisect_free
};

int
store_bisect_get(struct store *st, int64_t bisect_id, struct store_bisect *b,
    char *err, size_t errlen)
{
	return store_get(st, &bisect_rows, b, "get bisect", err, errlen,
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
	if (store_do(st, NULL, "update bisect", err, errlen,
	    "UPDATE bisects SET state = ?1, culprit = ?2, confidence = ?3, "
	    "reason = ?4, finished_at = CASE WHEN ?1 = 'running' THEN NULL "
	    "ELSE ?5 END WHERE id = ?6", "ttdtII", state, culprit, confidence,
	    reason, store_now(), bisect_id) == -1)
		return -1;
	return store_changed(st, "update bisect", "bisect", bisect_id, err,
	    errlen);
}

int
store_bisect_set_before(struct store *st, int64_t bisect_id,
    const char *client, const char *server, char *err, size_t errlen)
{
	if (store_len_ok("client revision", client, STORE_NAME_MAX, 0, err,
	    errlen) == -1 || store_len_ok("server revision", server,
	    STORE_NAME_MAX, 0, err, errlen) == -1)
		return -1;
	if (store_do(st, NULL, "record revisions before bisect", err, errlen,
	    "UPDATE bisects SET client_before = ?1, server_before = ?2 "
	    "WHERE id = ?3", "ttI", client, server, bisect_id) == -1)
		return -1;
	return store_changed(st, "record revisions before bisect", "bisect",
	    bisect_id, err, errlen);
}

int
store_bisect_set_owner(struct store *st, int64_t bisect_id,
    const struct store_owner *w, char *err, size_t errlen)
{
	if (store_do(st, NULL, "set bisect owner", err, errlen,
	    "UPDATE bisects SET owner_host = ?1, owner_pid = ?2, "
	    "owner_start = ?3, owner_since = ?4 WHERE id = ?5", "tnnnI",
	    w->host, w->pid, w->start, w->since, bisect_id) == -1)
		return -1;
	return store_changed(st, "set bisect owner", "bisect", bisect_id, err,
	    errlen);
}

int
store_bisect_list(struct store *st, struct store_bisect **bs, size_t *nbs,
    char *err, size_t errlen)
{
	return store_list(st, &bisect_rows, bs, nbs, "list bisects", err,
	    errlen,
	    "SELECT " BISECT_COLS " FROM bisects ORDER BY id DESC", "");
}

int
store_bisect_page(struct store *st, int64_t after, size_t limit,
    struct store_bisect **bs, size_t *nbs, char *err, size_t errlen)
{
	return store_list(st, &bisect_rows, bs, nbs, "list bisects", err,
	    errlen, "SELECT " BISECT_PAGE_COLS " FROM bisects WHERE id < ? "
	    "ORDER BY id DESC LIMIT ?", "II", after > 0 ? after : INT64_MAX,
	    limit == 0 || limit > INT64_MAX ? (int64_t)-1 : (int64_t)limit);
}

int
store_bisect_set_judging(struct store *st, const struct store_bisect *v,
    size_t n, char *err, size_t errlen)
{
	const char	*op = "store how bisects judge";
	size_t		 i;

	if (store_begin(st, op, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i].judged == -1)
			continue;
		if (store_do(st, NULL, op, err, errlen, "UPDATE bisects SET "
		    "judged = 1, threshold = CASE WHEN ?1 THEN ?2 END, "
		    "lower_is_better = CASE WHEN ?1 THEN ?3 END WHERE id = ?4 "
		    "AND judged = 0", "idiI", v[i].judged == 1, v[i].threshold,
		    v[i].lower_is_better != 0, v[i].id) == -1) {
			store_rollback(st);
			return -1;
		}
	}
	return store_commit(st, op, err, errlen);
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
	free(b->inventory_text);
	free(b->test_text);
	free(b->client_before);
	free(b->server_before);
	memset(b, 0, sizeof *b);
}

void
store_bisects_free(struct store_bisect *v, size_t n)
{
	store_free_rows(&bisect_rows, v, n);
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
	return store_do(st, step_id, "add bisect step", err, errlen,
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
	    store_do(st, NULL, "update bisect step", err, errlen, "UPDATE "
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
	store_cols(stmt, 0, "IIisIsiddddII", &s->id, &s->bisect_id, &s->seq,
	    s->revision, sizeof s->revision, &s->run_id, s->verdict,
	    sizeof s->verdict, &s->n, &s->median, &s->baseline_median,
	    &s->ratio, &s->p, &s->created_at, &s->updated_at);
}

int
store_bisect_steps(struct store *st, int64_t bisect_id,
    struct store_bisect_step **steps, size_t *nsteps, char *err,
    size_t errlen)
{
	static const struct store_rowtype t = {
		sizeof (struct store_bisect_step), step_read, NULL
	};

	return store_list(st, &t, steps, nsteps, "list bisect steps", err,
	    errlen,
	    "SELECT id, bisect_id, seq, revision, run_id, verdict, n, median, "
	    "baseline_median, ratio, p, created_at, updated_at FROM "
	    "bisect_steps WHERE bisect_id = ? ORDER BY seq", "I", bisect_id);
}
