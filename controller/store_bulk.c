/*
 * store_bulk: a whole run's job results in one transaction, for bulk
 * loading (bench/api_bench's year of generated runs; an import).  See
 * store.h ("bulk loading").
 */
#include <math.h>
#include <stdlib.h>

#include "store_int.h"
#include "util.h"

static int
bulk_valid(const struct store_job_result *r, size_t i, char *err,
    size_t errlen)
{
	size_t	k;

	if (r->state != STORE_JOB_DONE && r->state != STORE_JOB_FAILED) {
		util_seterr(err, errlen, "bulk finish: result %zu: state %s",
		    i, store_job_state_name(r->state));
		return -1;
	}
	if (r->nraws > 0) {
		util_seterr(err, errlen, "bulk finish: result %zu: raw output "
		    "is not bulk-loaded", i);
		return -1;
	}
	for (k = 0; k < r->nsamples; k++)
		if (r->samples[k].metric == NULL ||
		    !isfinite(r->samples[k].value) ||
		    r->samples[k].interval < 0) {
			util_seterr(err, errlen, "bulk finish: result %zu: "
			    "sample %zu is invalid", i, k);
			return -1;
		}
	return 0;
}

/* The rows of one result through the two prepared statements. */
static int
bulk_one(struct store *st, sqlite3_stmt *job, sqlite3_stmt *smp, int64_t id,
    const struct store_job_result *r, int64_t now, char *err, size_t errlen)
{
	const struct store_sample	*s;
	size_t				 k;

	sqlite3_reset(job);
	store_bind(job, "ttttnnII", store_job_state_name(r->state),
	    r->reason, store_fail_class_name(r->failure_class),
	    r->knobs_in_force, r->client_facts_id, r->server_facts_id, now,
	    id);
	if (sqlite3_step(job) != SQLITE_DONE)
		return store_err(st, "bulk finish", err, errlen);
	for (k = 0; k < r->nsamples; k++) {
		s = &r->samples[k];
		sqlite3_reset(smp);
		store_bind(smp, "Itdti", id, s->metric, s->value,
		    s->unit != NULL ? s->unit : "", s->interval);
		if (sqlite3_step(smp) != SQLITE_DONE)
			return store_err(st, "bulk finish: samples", err,
			    errlen);
	}
	return 0;
}

int
store_run_bulk_finish(struct store *st, int64_t run_id,
    const struct store_job_result *results, size_t n, char *err,
    size_t errlen)
{
	sqlite3_stmt	*job = NULL, *smp = NULL;
	int64_t		*ids = NULL, now = store_now();
	size_t		 nids = 0, i;

	for (i = 0; i < n; i++)
		if (bulk_valid(&results[i], i, err, errlen) == -1)
			return -1;
	if (store_begin(st, "bulk finish", err, errlen) == -1)
		return -1;
	if (store_list(st, &store_id_row, &ids, &nids, "bulk finish", err,
	    errlen, "SELECT id FROM jobs WHERE run_id = ? AND state = "
	    "'queued' ORDER BY seq", "I", run_id) == -1)
		goto fail;
	if (nids != n) {
		util_seterr(err, errlen, "bulk finish: run %lld has %zu queued "
		    "jobs, not %zu", (long long)run_id, nids, n);
		goto fail;
	}
	/* queued -> running -> done: the state machine's only way. */
	if (store_do(st, NULL, "bulk finish", err, errlen, "UPDATE jobs SET "
	    "state = 'running', attempt = attempt + 1, started_at = ? WHERE "
	    "run_id = ? AND state = 'queued'", "II", now, run_id) == -1)
		goto fail;
	if ((job = store_prep(st, "bulk finish", err, errlen, "UPDATE jobs "
	    "SET state = ?, reason = ?, failure_class = ?, knobs_in_force = "
	    "?, client_facts_id = ?, server_facts_id = ?, owner = NULL, "
	    "finished_at = ? WHERE id = ?", "")) == NULL ||
	    (smp = store_prep(st, "bulk finish", err, errlen, "INSERT INTO "
	    "samples (job_id, metric, value, unit, interval) VALUES (?, ?, ?, "
	    "?, ?)", "")) == NULL)
		goto fail;
	for (i = 0; i < n; i++)
		if (bulk_one(st, job, smp, ids[i], &results[i], now, err,
		    errlen) == -1)
			goto fail;
	sqlite3_finalize(job);
	sqlite3_finalize(smp);
	free(ids);
	return store_commit(st, "bulk finish", err, errlen);
fail:
	sqlite3_finalize(job);
	sqlite3_finalize(smp);
	free(ids);
	store_rollback(st);
	return -1;
}
