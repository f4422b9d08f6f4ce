/*
 * store_jobs: runs, the jobs of a run and their state machine, samples and
 * raw tool output (see store.h).  The SQL helpers are in store_sql.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_int.h"
#include "util.h"

const char *const store_job_states[STORE_JOB_NSTATES] = {
	"queued", "running", "done", "failed", "cancelled"
};
static const char *const run_states[] = {
	"running", "done", "failed", "cancelled", "interrupted"
};

/* The index of s in states, dflt if it is none of them. */
static int
state_parse(const char *s, const char *const *states, size_t n, int dflt)
{
	size_t	i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcmp(s, states[i]) == 0)
			return (int)i;
	return dflt;
}

static enum store_job_state
job_state_parse(const char *s)
{
	return state_parse(s, store_job_states, STORE_JOB_NSTATES,
	    STORE_JOB_FAILED);
}

/* ---- runs ---------------------------------------------------------------- */

const char *
store_run_state_name(enum store_run_state s)
{
	if ((unsigned)s >= STORE_NITEMS(run_states))
		return "?";
	return run_states[s];
}

int
store_run_create(struct store *st, const struct store_run_spec *spec,
    int64_t *run_id, char *err, size_t errlen)
{
	const char		*kind = spec->kind != NULL ? spec->kind :
				    "manual";
	const struct store_len	 lens[] = {
		{ "run kind", kind, 16, 1 },
		{ "run owner", spec->owner, STORE_OWNER_MAX, 0 },
		{ "run note", spec->note, STORE_NOTE_MAX, 0 },
	};

	const struct store_owner *w = spec->who;

	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	return store_do(st, run_id, "create run", err, errlen,
	    "INSERT INTO runs (kind, state, created_at, owner, note, "
	    "inventory_path, inventory_text, plan_path, plan_text, schedule_id, "
	    "bisect_id, owner_host, owner_pid, owner_start, owner_since) "
	    "VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	    "tItttttt" "nn" "tnnn", kind, store_now(), spec->owner, spec->note,
	    spec->inventory_path, spec->inventory_text, spec->plan_path,
	    spec->plan_text, spec->schedule_id, spec->bisect_id,
	    w != NULL ? w->host : NULL, w != NULL ? w->pid : (int64_t)0,
	    w != NULL ? w->start : (int64_t)0, w != NULL ? w->since :
	    (int64_t)0);
}

#define RUN_COLS "id, state, kind, created_at, finished_at, schedule_id, " \
	"bisect_id, owner, reason, inventory_path, plan_path, note, " \
	"owner_host, owner_pid, owner_start, owner_since"

static void
run_read(sqlite3_stmt *stmt, void *p)
{
	struct store_run	*r = p;

	memset(r, 0, sizeof *r);
	store_cols(stmt, 0, "I-sIIIISSSSS", &r->id, r->kind, sizeof r->kind,
	    &r->created_at, &r->finished_at, &r->schedule_id, &r->bisect_id,
	    &r->owner, &r->reason, &r->inventory_path, &r->plan_path,
	    &r->note);
	r->state = state_parse((const char *)sqlite3_column_text(stmt, 1),
	    run_states, STORE_NITEMS(run_states), STORE_RUN_FAILED);
	store_owner_cols(stmt, 12, &r->who);
	/* Owned before schema 7: the text is all there is. */
	if (r->who.host[0] == '\0')
		store_owner_parse(r->owner, &r->who);
}

/* A run with its inventory and plan texts. */
static void
run_read_texts(sqlite3_stmt *stmt, void *p)
{
	struct store_run	*r = p;

	run_read(stmt, r);
	store_cols(stmt, 16, "SS", &r->inventory_text, &r->plan_text);
}

static void
run_free(void *p)
{
	store_run_free(p);
}

static const struct store_rowtype run_rows = {
	sizeof (struct store_run), run_read, run_free
};
static const struct store_rowtype run_text_rows = {
	sizeof (struct store_run), run_read_texts, run_free
};

int
store_run_get(struct store *st, int64_t run_id, struct store_run *run,
    char *err, size_t errlen)
{
	return store_get(st, &run_text_rows, run, "get run", err, errlen,
	    "SELECT " RUN_COLS ", inventory_text, plan_text FROM runs WHERE "
	    "id = ?", "I", run_id);
}

int
store_run_finish(struct store *st, int64_t run_id, enum store_run_state state,
    const char *reason, char *err, size_t errlen)
{
	if (state == STORE_RUN_RUNNING ||
	    (unsigned)state >= STORE_NITEMS(run_states)) {
		util_seterr(err, errlen, "finish run %lld: bad state %d",
		    (long long)run_id, (int)state);
		return -1;
	}
	if (store_do(st, NULL, "finish run", err, errlen, "UPDATE runs SET "
	    "state = ?, reason = ?, finished_at = ? WHERE id = ?", "ttII",
	    run_states[state], reason, store_now(), run_id) == -1)
		return -1;
	return store_changed(st, "finish run", "run", run_id, err, errlen);
}

int
store_run_list(struct store *st, size_t limit, struct store_run **runs,
    size_t *nruns, char *err, size_t errlen)
{
	return store_list(st, &run_rows, runs, nruns, "list runs", err, errlen,
	    "SELECT " RUN_COLS " FROM runs ORDER BY id DESC LIMIT ?", "I",
	    limit == 0 ? (int64_t)-1 : (int64_t)limit);
}

void
store_run_free(struct store_run *r)
{
	if (r == NULL)
		return;
	free(r->owner);
	free(r->reason);
	free(r->note);
	free(r->inventory_path);
	free(r->plan_path);
	free(r->inventory_text);
	free(r->plan_text);
	memset(r, 0, sizeof *r);
}

void
store_runs_free(struct store_run *v, size_t n)
{
	store_free_rows(&run_rows, v, n);
}

/* ---- jobs ---------------------------------------------------------------- */

const char *
store_job_state_name(enum store_job_state s)
{
	if ((unsigned)s >= STORE_JOB_NSTATES)
		return "?";
	return store_job_states[s];
}

static const char *const fail_classes[] = { NULL, "infra", "test" };

const char *
store_fail_class_name(enum store_fail_class c)
{
	if ((unsigned)c >= STORE_NITEMS(fail_classes))
		return NULL;
	return fail_classes[c];
}

static enum store_fail_class
fail_class_parse(const char *s)
{
	size_t	i;

	for (i = 1; s != NULL && i < STORE_NITEMS(fail_classes); i++)
		if (strcmp(s, fail_classes[i]) == 0)
			return (enum store_fail_class)i;
	return STORE_FAIL_NONE;
}

#define JOB_COLS "id, run_id, seq, state, link, tso, lro, rxcsum, txcsum, " \
	"mtu, nat, knobs, tool, params, repetition, attempt, reason, owner, " \
	"queued_at, started_at, finished_at, knobs_in_force, " \
	"client_facts_id, server_facts_id, failure_class"

static void
job_read(sqlite3_stmt *stmt, void *p)
{
	struct store_job	*j = p;

	memset(j, 0, sizeof *j);
	store_cols(stmt, 0, "III-sksssiissIIIsII", &j->id, &j->run_id, &j->seq,
	    j->link, sizeof j->link, &j->knobs, j->knobs_key,
	    sizeof j->knobs_key, j->tool, sizeof j->tool, j->params,
	    sizeof j->params, &j->repetition, &j->attempt, j->reason,
	    sizeof j->reason, j->owner, sizeof j->owner, &j->queued_at,
	    &j->started_at, &j->finished_at, j->knobs_in_force,
	    sizeof j->knobs_in_force, &j->client_facts_id,
	    &j->server_facts_id);
	j->state = job_state_parse((const char *)sqlite3_column_text(stmt,
	    3));
	j->failure_class = fail_class_parse((const char *)
	    sqlite3_column_text(stmt, 24));
}

static const struct store_rowtype job_rows = {
	sizeof (struct store_job), job_read, NULL
};

static int
job_spec_valid(const struct store_job_spec *s, size_t i, char *err,
    size_t errlen)
{
	const struct store_len	 lens[] = {
		{ "link", s->link, STORE_NAME_MAX, 1 },
		{ "tool", s->tool, STORE_TOOL_MAX, 1 },
		{ "params", s->params, STORE_PARAMS_MAX, 0 },
	};
	char			 e[256];

	if (store_lens_ok(lens, STORE_NITEMS(lens), e, sizeof e) == -1 ||
	    knobs_valid(&s->knobs, e, sizeof e) == -1)
		goto fail;
	if (s->repetition < 0) {
		snprintf(e, sizeof e, "repetition %d < 0", s->repetition);
		goto fail;
	}
	return 0;
fail:
	util_seterr(err, errlen, "add jobs: job %zu: %s", i, e);
	return -1;
}

static int
job_insert(struct store *st, sqlite3_stmt *stmt, int64_t run_id, int64_t seq,
    const struct store_job_spec *s, int64_t now, char *err, size_t errlen)
{
	const struct knobs	*k = &s->knobs;
	char			 key[STORE_KEY_MAX];

	if (knobs_key(k, key, sizeof key) == -1) {
		util_seterr(err, errlen, "add jobs: knobs key too long");
		return -1;
	}
	sqlite3_reset(stmt);
	store_bind(stmt, "IItbbbbnttttiI", run_id, seq, s->link,
	    knobs_get(k, KNOB_TSO), knobs_get(k, KNOB_LRO),
	    knobs_get(k, KNOB_RXCSUM), knobs_get(k, KNOB_TXCSUM),
	    (int64_t)(knobs_isset(k, KNOB_MTU) ? k->value[KNOB_MTU] : 0),
	    knobs_isset(k, KNOB_NAT) ? knobs_nat_name(k->value[KNOB_NAT]) :
	    NULL, key, s->tool, s->params != NULL ? s->params : "",
	    s->repetition, now);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		return store_err(st, "add jobs", err, errlen);
	return 0;
}

int
store_jobs_add(struct store *st, int64_t run_id,
    const struct store_job_spec *specs, size_t n, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt = NULL;
	int64_t		 base = 0, now = store_now();
	size_t		 i;

	for (i = 0; i < n; i++)
		if (job_spec_valid(&specs[i], i, err, errlen) == -1)
			return -1;
	if (store_begin(st, "add jobs", err, errlen) == -1)
		return -1;
	if (store_get(st, &store_id_row, &base, "add jobs", err, errlen,
	    "SELECT COALESCE(MAX(seq) + 1, 0) FROM jobs WHERE run_id = ?",
	    "I", run_id) != 1)
		goto fail;
	if ((stmt = store_prep(st, "add jobs", err, errlen, "INSERT INTO "
	    "jobs (run_id, seq, link, tso, lro, rxcsum, txcsum, mtu, nat, "
	    "knobs, tool, params, repetition, state, queued_at) VALUES (?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)", "")) == NULL)
		goto fail;
	for (i = 0; i < n; i++)
		if (job_insert(st, stmt, run_id, base + (int64_t)i, &specs[i],
		    now, err, errlen) == -1)
			goto fail;
	sqlite3_finalize(stmt);
	return store_commit(st, "add jobs", err, errlen);
fail:
	sqlite3_finalize(stmt);
	store_rollback(st);
	return -1;
}

/* Reads job_id into *job (inside or outside a transaction): 1/0/-1. */
static int
job_get(struct store *st, int64_t job_id, struct store_job *job,
    const char *op, char *err, size_t errlen)
{
	return store_get(st, &job_rows, job, op, err, errlen, "SELECT "
	    JOB_COLS " FROM jobs WHERE id = ?", "I", job_id);
}

int
store_job_get(struct store *st, int64_t job_id, struct store_job *job,
    char *err, size_t errlen)
{
	return job_get(st, job_id, job, "get job", err, errlen);
}

/* The next queued job of the run (of link, if not NULL): 1, 0, -1.  Two
 * statements, each with its index (jobs_queue, jobs_claim). */
static int
claim_next(struct store *st, int64_t run_id, const char *link, int64_t *id,
    char *err, size_t errlen)
{
	return store_get(st, &store_id_row, id, "claim job", err, errlen,
	    link == NULL ? "SELECT id FROM jobs WHERE run_id = ?1 AND state = "
	    "'queued' ORDER BY seq LIMIT 1" : "SELECT id FROM jobs WHERE "
	    "run_id = ?1 AND state = 'queued' AND link = ?2 ORDER BY seq "
	    "LIMIT 1", link == NULL ? "I" : "It", run_id, link);
}

int
store_job_claim(struct store *st, int64_t run_id, const char *link,
    const char *owner, struct store_job *job, char *err, size_t errlen)
{
	int64_t	id = 0;
	int	rc;

	if (store_len_ok("lease owner", owner, STORE_OWNER_MAX, 1, err,
	    errlen) == -1)
		return -1;
	/* Nothing queued (a link's last asks, all links' at once at a run's
	 * end): a read tells, without taking the write lock. */
	if ((rc = claim_next(st, run_id, link, &id, err, errlen)) != 1)
		return rc;
	if (store_begin(st, "claim job", err, errlen) == -1)
		return -1;
	/* Another connection may have claimed it since. */
	if ((rc = claim_next(st, run_id, link, &id, err, errlen)) != 1 ||
	    store_do(st, NULL, "claim job", err, errlen, "UPDATE jobs SET "
	    "state = 'running', attempt = attempt + 1, owner = ?, started_at "
	    "= ?, finished_at = NULL WHERE id = ?", "tII", owner, store_now(),
	    id) == -1 || job_get(st, id, job, "claim job", err, errlen) != 1) {
		store_rollback(st);
		return rc == 0 ? 0 : -1;
	}
	return store_commit(st, "claim job", err, errlen) == -1 ? -1 : 1;
}

/*
 * Inside a transaction: fails unless job_id exists and is in state want,
 * with a message that says what it is instead.
 */
static int
job_expect(struct store *st, int64_t job_id, enum store_job_state want,
    const char *op, char *err, size_t errlen)
{
	struct store_job	j;
	int			rc;

	rc = job_get(st, job_id, &j, op, err, errlen);
	if (rc == -1)
		return -1;
	if (rc == 0) {
		util_seterr(err, errlen, "%s: %s: no job %lld", st->path, op,
		    (long long)job_id);
		return -1;
	}
	if (j.state != want) {
		util_seterr(err, errlen, "%s: %s: job %lld is %s, not %s",
		    st->path, op, (long long)job_id,
		    store_job_state_name(j.state), store_job_state_name(want));
		return -1;
	}
	return 0;
}

int
store_job_requeue(struct store *st, int64_t job_id, const char *reason,
    char *err, size_t errlen)
{
	if (store_len_ok("reason", reason, STORE_REASON_MAX, 0, err,
	    errlen) == -1)
		return -1;
	if (store_begin(st, "requeue job", err, errlen) == -1)
		return -1;
	if (job_expect(st, job_id, STORE_JOB_RUNNING, "requeue job", err,
	    errlen) == -1 || store_do(st, NULL, "requeue job", err, errlen,
	    "UPDATE jobs SET state = 'queued', reason = ?, owner = NULL WHERE "
	    "id = ?", "tI", reason, job_id) == -1) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, "requeue job", err, errlen);
}

static int
result_valid(const struct store_job_result *r, char *err, size_t errlen)
{
	const struct store_len	 lens[] = {
		{ "reason", r->reason, STORE_REASON_MAX, 0 },
		{ "knobs in force", r->knobs_in_force, STORE_KEY_MAX, 0 },
	};
	char			 e[256];
	size_t			 i;

	if (r->state != STORE_JOB_DONE && r->state != STORE_JOB_FAILED) {
		snprintf(e, sizeof e, "state %s is not done or failed",
		    store_job_state_name(r->state));
		goto fail;
	}
	if (store_lens_ok(lens, STORE_NITEMS(lens), e, sizeof e) == -1)
		goto fail;
	if ((unsigned)r->failure_class >= STORE_NITEMS(fail_classes) ||
	    (r->failure_class != STORE_FAIL_NONE &&
	    r->state != STORE_JOB_FAILED)) {
		snprintf(e, sizeof e, "failure class %d for a %s job",
		    (int)r->failure_class, store_job_state_name(r->state));
		goto fail;
	}
	for (i = 0; i < r->nsamples; i++) {
		const struct store_sample *s = &r->samples[i];

		if (store_len_ok("metric", s->metric, STORE_NAME_MAX, 1, e,
		    sizeof e) == -1 || store_len_ok("unit", s->unit,
		    STORE_NAME_MAX, 0, e, sizeof e) == -1)
			goto fail;
		if (!isfinite(s->value) || s->interval < 0) {
			snprintf(e, sizeof e, "sample %s: value %g interval %d",
			    s->metric, s->value, s->interval);
			goto fail;
		}
	}
	for (i = 0; i < r->nraws; i++)
		if (store_len_ok("raw output name", r->raws[i].name,
		    STORE_NAME_MAX, 1, e, sizeof e) == -1 ||
		    r->raws[i].len > STORE_RAW_MAX ||
		    (r->raws[i].data == NULL && r->raws[i].len > 0)) {
			snprintf(e, sizeof e, "raw output %zu is invalid or "
			    "larger than %d bytes", i, STORE_RAW_MAX);
			goto fail;
		}
	return 0;
fail:
	util_seterr(err, errlen, "finish job: %s", e);
	return -1;
}

/* Inserts the samples (which = 0) or raw outputs (1) of a result. */
static int
finish_rows(struct store *st, int64_t job_id,
    const struct store_job_result *r, int which, char *err, size_t errlen)
{
	const char	*op = which ? "record raw output" : "record samples";
	sqlite3_stmt	*stmt;
	size_t		 i, n = which ? r->nraws : r->nsamples;

	if ((stmt = store_prep(st, op, err, errlen, which ? "INSERT INTO "
	    "raw_outputs (job_id, name, data, truncated) VALUES (?, ?, ?, ?)" :
	    "INSERT INTO samples (job_id, metric, value, unit, interval) "
	    "VALUES (?, ?, ?, ?, ?)", "")) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		sqlite3_reset(stmt);
		if (which) {
			store_bind(stmt, "It", job_id, r->raws[i].name);
			sqlite3_bind_blob(stmt, 3, r->raws[i].len ?
			    r->raws[i].data : "", (int)r->raws[i].len,
			    SQLITE_STATIC);
			sqlite3_bind_int(stmt, 4, r->raws[i].truncated != 0);
		} else
			store_bind(stmt, "Itdti", job_id, r->samples[i].metric,
			    r->samples[i].value, r->samples[i].unit != NULL ?
			    r->samples[i].unit : "", r->samples[i].interval);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			store_err(st, op, err, errlen);
			sqlite3_finalize(stmt);
			return -1;
		}
		if (!which && st->hook != NULL)
			st->hook(st->hook_arg, "sample", i);
	}
	sqlite3_finalize(stmt);
	return 0;
}

int
store_job_finish(struct store *st, int64_t job_id,
    const struct store_job_result *r, char *err, size_t errlen)
{
	if (result_valid(r, err, errlen) == -1)
		return -1;
	if (store_begin(st, "finish job", err, errlen) == -1)
		return -1;
	if (job_expect(st, job_id, STORE_JOB_RUNNING, "finish job", err,
	    errlen) == -1 || store_do(st, NULL, "finish job", err, errlen,
	    "UPDATE jobs SET state = ?, reason = ?, failure_class = ?, "
	    "knobs_in_force = ?, client_facts_id = ?, server_facts_id = ?, "
	    "owner = NULL, finished_at = ? WHERE id = ?", "ttttnnII",
	    store_job_states[r->state], r->reason,
	    store_fail_class_name(r->failure_class), r->knobs_in_force,
	    r->client_facts_id, r->server_facts_id, store_now(),
	    job_id) == -1 ||
	    finish_rows(st, job_id, r, 0, err, errlen) == -1 ||
	    finish_rows(st, job_id, r, 1, err, errlen) == -1) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, "finish job", err, errlen);
}

int
store_job_list(struct store *st, int64_t run_id, int state,
    struct store_job **jobs, size_t *njobs, char *err, size_t errlen)
{
	return store_list(st, &job_rows, jobs, njobs, "list jobs", err, errlen,
	    "SELECT " JOB_COLS " FROM jobs WHERE run_id = ?1 AND (?2 IS NULL "
	    "OR state = ?2) ORDER BY seq", "It", run_id,
	    state >= 0 && state < STORE_JOB_NSTATES ? store_job_states[state] :
	    NULL);
}

/* One UPDATE over a run's jobs; *n gets the number of rows changed. */
static int
run_jobs_update(struct store *st, const char *sql, int64_t run_id,
    const char *text, int64_t *n, const char *op, char *err, size_t errlen)
{
	if (store_do(st, NULL, op, err, errlen, sql, "ItI", run_id, text,
	    store_now()) == -1)
		return -1;
	if (n != NULL)
		*n = sqlite3_changes(st->db);
	return 0;
}

int
store_run_cancel_jobs(struct store *st, int64_t run_id, const char *reason,
    int64_t *n, char *err, size_t errlen)
{
	if (store_len_ok("reason", reason, STORE_REASON_MAX, 0, err,
	    errlen) == -1)
		return -1;
	return run_jobs_update(st, "UPDATE jobs SET state = 'cancelled', "
	    "reason = COALESCE(?2, reason), owner = NULL, finished_at = ?3 "
	    "WHERE run_id = ?1 AND state IN ('queued', 'running')", run_id,
	    reason, n, "cancel jobs", err, errlen);
}

int
store_run_reset_running(struct store *st, int64_t run_id, int64_t *n,
    char *err, size_t errlen)
{
	return run_jobs_update(st, "UPDATE jobs SET state = 'queued', "
	    "owner = NULL, reason = COALESCE(?2, reason) WHERE run_id = ?1 "
	    "AND state = 'running'", run_id,
	    "interrupted: the controller running it stopped", n,
	    "reset running jobs", err, errlen);
}

int
store_job_counts(struct store *st, int64_t run_id, const char *link,
    struct store_counts *c, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	memset(c, 0, sizeof *c);
	if ((stmt = store_prep(st, "count jobs", err, errlen, "SELECT state, "
	    "COUNT(*), SUM(state = 'failed' AND failure_class = 'infra') "
	    "FROM jobs WHERE run_id = ?1 AND (?2 IS NULL OR link = ?2) "
	    "GROUP BY state", "It", run_id, link)) == NULL)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		enum store_job_state s = job_state_parse(
		    (const char *)sqlite3_column_text(stmt, 0));

		c->n[s] += sqlite3_column_int64(stmt, 1);
		c->total += sqlite3_column_int64(stmt, 1);
		c->failed_infra += sqlite3_column_int64(stmt, 2);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return store_err(st, "count jobs", err, errlen);
	return 0;
}

/* ---- samples, raw output ------------------------------------------------ */

#define SERIES_KEYS 7	/* link, knobs, tool, params, revision, metric, unit */

static int
series_same(sqlite3_stmt *stmt, const struct store_series *s)
{
	const char	*cur[SERIES_KEYS] = { s->link, s->knobs_key, s->tool,
			    s->params, s->revision, s->metric, s->unit };
	const char	*v;
	int		 i;

	for (i = 0; i < SERIES_KEYS; i++) {
		v = (const char *)sqlite3_column_text(stmt, i);
		if (strcmp(v != NULL ? v : "", cur[i]) != 0)
			return 0;
	}
	return 1;
}

static void
series_start(sqlite3_stmt *stmt, struct store_series *s)
{
	memset(s, 0, sizeof *s);
	store_cols(stmt, 0, "sssssss--k", s->link, sizeof s->link,
	    s->knobs_key, sizeof s->knobs_key, s->tool, sizeof s->tool,
	    s->params, sizeof s->params, s->revision, sizeof s->revision,
	    s->metric, sizeof s->metric, s->unit, sizeof s->unit, &s->knobs);
}

/* Appends the value and job of the current row to s. */
static void
series_add(sqlite3_stmt *stmt, struct store_series *s, size_t *vcap)
{
	if (s->n == *vcap) {
		*vcap = *vcap ? *vcap * 2 : 8;
		s->values = xreallocarray(s->values, *vcap, sizeof *s->values);
		s->job_ids = xreallocarray(s->job_ids, *vcap,
		    sizeof *s->job_ids);
	}
	s->values[s->n] = sqlite3_column_double(stmt, 7);
	s->job_ids[s->n++] = sqlite3_column_int64(stmt, 8);
}

int
store_samples_query(struct store *st, int64_t run_id, const char *metric,
    struct store_series **series, size_t *nseries, char *err, size_t errlen)
{
	sqlite3_stmt		*stmt;
	struct store_series	*v = NULL, *s = NULL;
	size_t			 n = 0, cap = 0, vcap = 0;
	int			 rc;

	*series = NULL;
	*nseries = 0;
	if ((stmt = store_prep(st, "query samples", err, errlen, "SELECT "
	    "j.link, j.knobs, j.tool, j.params, COALESCE(f.revision, ''), "
	    "s.metric, s.unit, s.value, j.id, j.tso, j.lro, j.rxcsum, "
	    "j.txcsum, j.mtu, j.nat FROM jobs j JOIN samples s ON "
	    "s.job_id = j.id LEFT JOIN host_facts f ON "
	    "f.id = j.client_facts_id WHERE j.run_id = ?1 AND "
	    "j.state = 'done' AND s.interval = 0 AND (?2 IS NULL OR "
	    "s.metric = ?2) ORDER BY 1, 2, 3, 4, 5, 6, 7, j.seq, s.id", "It",
	    run_id, metric)) == NULL)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (s == NULL || !series_same(stmt, s)) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				v = xreallocarray(v, cap, sizeof *v);
			}
			s = &v[n++];
			series_start(stmt, s);
			vcap = 0;
		}
		series_add(stmt, s, &vcap);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_series_free(v, n);
		return store_err(st, "query samples", err, errlen);
	}
	*series = v;
	*nseries = n;
	return 0;
}

void
store_series_free(struct store_series *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].values);
		free(v[i].job_ids);
	}
	free(v);
}

static void
sample_read(sqlite3_stmt *stmt, void *p)
{
	struct store_sample_row	*r = p;

	store_cols(stmt, 0, "sdsi", r->metric, sizeof r->metric, &r->value,
	    r->unit, sizeof r->unit, &r->interval);
}

int
store_job_samples(struct store *st, int64_t job_id,
    struct store_sample_row **rows, size_t *nrows, char *err, size_t errlen)
{
	static const struct store_rowtype t = {
		sizeof (struct store_sample_row), sample_read, NULL
	};

	return store_list(st, &t, rows, nrows, "list job samples", err, errlen,
	    "SELECT metric, value, unit, interval FROM samples WHERE "
	    "job_id = ? ORDER BY metric, interval, id", "I", job_id);
}

static void
string_read(sqlite3_stmt *stmt, void *p)
{
	*(char **)p = store_col_dup(stmt, 0);
}

static void
string_free(void *p)
{
	free(*(char **)p);
}

int
store_run_metrics(struct store *st, int64_t run_id, char ***metrics,
    size_t *nmetrics, char *err, size_t errlen)
{
	static const struct store_rowtype t = {
		sizeof (char *), string_read, string_free
	};

	return store_list(st, &t, metrics, nmetrics, "list metrics", err,
	    errlen,
	    "SELECT DISTINCT s.metric FROM samples s JOIN jobs j ON "
	    "j.id = s.job_id WHERE j.run_id = ? ORDER BY 1", "I", run_id);
}

struct raw_out {
	char	*data;
	size_t	 len;
};

static void
raw_read(sqlite3_stmt *stmt, void *p)
{
	struct raw_out	*o = p;
	const void	*data = sqlite3_column_blob(stmt, 0);
	int		 n = sqlite3_column_bytes(stmt, 0);

	o->data = xmalloc((size_t)n + 1);
	if (n > 0)
		memcpy(o->data, data, (size_t)n);
	o->data[n] = '\0';
	o->len = (size_t)n;
}

int
store_raw_get(struct store *st, int64_t job_id, const char *name,
    char **data, size_t *len, char *err, size_t errlen)
{
	static const struct store_rowtype t = {
		sizeof (struct raw_out), raw_read, NULL
	};
	struct raw_out	o = { NULL, 0 };
	int		rc;

	rc = store_get(st, &t, &o, "get raw output", err, errlen,
	    "SELECT data FROM raw_outputs WHERE job_id = ? AND name = ?", "It",
	    job_id, name);
	*data = o.data;
	*len = o.len;
	return rc;
}
