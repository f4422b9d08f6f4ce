/*
 * run: create, resume, drive, cancel and finish a run (see run.h); the
 * adaptive rounds are in run_adaptive.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "executor.h"
#include "log.h"
#include "matrix.h"
#include "report.h"
#include "run.h"
#include "run_int.h"
#include "ssh.h"
#include "store.h"
#include "util.h"

void
run_owner_default(char *owner, size_t len)
{
	char	host[64];

	if (gethostname(host, sizeof host) == -1)
		snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	snprintf(owner, len, "%s:%ld", host, (long)getpid());
}

int
run_owner_elsewhere(const struct store_owner *who, const char *what,
    int force, char *err, size_t errlen)
{
	char	text[160];

	if (force) {
		store_owner_text(who, text, sizeof text);
		log_warnx("%s: taken over from %s (--force)", what, text);
		return 0;
	}
	store_owner_text(who, text, sizeof text);
	util_seterr(err, errlen, "%s belongs to %s, another host: this "
	    "controller cannot tell whether it still runs; if it is gone, "
	    "resume with --force", what, text);
	return -1;
}

int
run_owner_check(const struct store_owner *who, const char *what, int force,
    char *err, size_t errlen)
{
	char	text[160];

	switch (store_owner_state(who)) {
	case STORE_OWNER_UNKNOWN:
	case STORE_OWNER_GONE:
		return 0;
	case STORE_OWNER_ELSEWHERE:
		return run_owner_elsewhere(who, what, force, err, errlen);
	case STORE_OWNER_ALIVE:
		if (who->pid == (int64_t)getpid())
			return 0;	/* this process drives it again */
		break;
	}
	store_owner_text(who, text, sizeof text);
	/* Owned before schema 7: a live pid may be a reused one. */
	if (who->start == 0 && force) {
		log_warnx("%s: taken over from %s (--force)", what, text);
		return 0;
	}
	if (who->start == 0) {
		util_seterr(err, errlen, "%s may still be running: %s (its "
		    "start time is unknown, so a reused pid cannot be told "
		    "apart); if it is gone, resume with --force", what, text);
		return -1;
	}
	util_seterr(err, errlen, "%s is still running: %s; stop it first "
	    "(SIGINT or SIGTERM), then resume", what, text);
	return -1;
}

/* A run with its store open; NULL with err. */
static struct run *
run_alloc(const char *db_path, const char *owner, char *err, size_t errlen)
{
	struct run	*r;

	r = xcalloc(1, sizeof *r);
	r->db_path = xstrdup(db_path);
	store_owner_self(&r->who);
	if (owner != NULL)
		snprintf(r->owner, sizeof r->owner, "%s", owner);
	else
		run_owner_default(r->owner, sizeof r->owner);
	if (store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE,
	    &r->st, err, errlen) == -1) {
		run_free(r);
		return NULL;
	}
	return r;
}

/* Loads inventory and plan: each file read once (its text kept in
 * ->text, which run_store() stores), or the texts a run stored. */
static int
run_load(struct run *r, const char *ipath, const char *itext,
    const char *ppath, const char *ptext, struct config_errors *errs)
{
	if (itext == NULL && ptext == NULL)
		return run_files_load(ipath, ppath, &r->inv, &r->plan, errs);
	r->inv = itext != NULL ? config_inventory_parse(ipath, itext,
	    strlen(itext), errs) : config_inventory_load(ipath, errs);
	/* Every error at once: without an inventory, the plan alone. */
	r->plan = ptext != NULL ? config_plan_parse(ppath, ptext,
	    strlen(ptext), r->inv, errs) : config_plan_load(ppath, r->inv,
	    errs);
	return r->inv != NULL && r->plan != NULL ? 0 : -1;
}

int
run_files_load(const char *ipath, const char *ppath,
    struct config_inventory **inv, struct config_plan **plan,
    struct config_errors *errs)
{
	int	files;

	*inv = config_inventory_load(ipath, errs);
	/* A fresh start: its key files must be there. */
	files = *inv != NULL ? config_inventory_check_files(*inv, errs) : 0;
	/* Every error at once: without an inventory, the plan alone. */
	*plan = config_plan_load(ppath, *inv, errs);
	return *inv != NULL && *plan != NULL && files == 0 ? 0 : -1;
}

/* Stores the run and its jobs in one go. */
static int
run_store(struct run *r, const char *kind, char *err, size_t errlen)
{
	struct store_run_spec	 spec;
	struct store_job_spec	*specs = NULL;
	struct matrix_job	*jobs = NULL;
	char			(*params)[STORE_PARAMS_MAX] = NULL;
	char			*built = NULL;
	size_t			 njobs = 0, i;
	int			 rc = -1;

	if (matrix_expand(r->plan, r->inv, &jobs, &njobs, err, errlen) == -1)
		goto fail;
	/* The very texts that were parsed: a resume parses them again. */
	memset(&spec, 0, sizeof spec);
	spec.kind = kind;
	spec.inventory_path = r->inv->path;
	spec.inventory_text = r->inv->text;
	spec.plan_path = r->plan->path;
	/* A plan built as a struct has no text: its canonical JSON. */
	if (r->plan->text == NULL)
		built = config_plan_json(r->plan);
	spec.plan_text = r->plan->text != NULL ? r->plan->text : built;
	spec.owner = r->owner;
	spec.who = &r->who;
	if (store_run_create(r->st, &spec, &r->id, err, errlen) == -1)
		goto fail;
	specs = xcalloc(njobs, sizeof *specs);
	params = xcalloc(njobs, sizeof *params);
	for (i = 0; i < njobs; i++)
		executor_job_spec(&jobs[i], params[i], sizeof params[i],
		    &specs[i]);
	if (store_jobs_add(r->st, r->id, specs, njobs, err, errlen) == -1)
		goto fail;
	log_info("run %lld: %zu jobs", (long long)r->id, njobs);
	rc = 0;
fail:
	free(built);
	free(specs);
	free(params);
	free(jobs);
	return rc;
}

enum run_status
run_create(const char *db_path, const char *inventory, const char *plan,
    const char *kind, const char *owner, struct run **runp,
    struct config_errors *errs, char *err, size_t errlen)
{
	struct run	*r;

	*runp = NULL;
	util_seterr(err, errlen, "%s", "");
	if ((r = run_alloc(db_path, owner, err, errlen)) == NULL)
		return RUN_FAIL;
	if (run_load(r, inventory, NULL, plan, NULL, errs) == -1) {
		run_free(r);
		return RUN_CONFIG;
	}
	if (run_store(r, kind != NULL ? kind : "manual", err, errlen) == -1) {
		run_free(r);
		return RUN_FAIL;
	}
	*runp = r;
	return RUN_OK;
}

enum run_status
run_resume(const char *db_path, int64_t id, const char *owner, int force,
    struct run **runp, struct config_errors *errs, char *err, size_t errlen)
{
	char			 what[48];
	struct store_run	 row;
	struct run		*r;
	char			 e[1024];
	int64_t			 n;
	enum run_status		 rc = RUN_FAIL;

	*runp = NULL;
	util_seterr(err, errlen, "%s", "");
	memset(&row, 0, sizeof row);
	if ((r = run_alloc(db_path, owner, err, errlen)) == NULL)
		return RUN_FAIL;
	r->id = id;
	e[0] = '\0';
	if (store_run_get(r->st, id, &row, e, sizeof e) != 1) {
		util_seterr(err, errlen, "run %lld: %s", (long long)id,
		    e[0] != '\0' ? e : "no such run");
		goto out;
	}
	/* Before anything is touched: not a run another process drives. */
	snprintf(what, sizeof what, "run %lld", (long long)id);
	if (row.state == STORE_RUN_RUNNING && run_owner_check(&row.who, what,
	    force, err, errlen) == -1)
		goto out;
	if (run_load(r, row.inventory_path, row.inventory_text, row.plan_path,
	    row.plan_text, errs) == -1) {
		rc = RUN_CONFIG;
		goto out;
	}
	/* Hosts the dead controller left mid-job go back first. */
	n = executor_restore_all(r->inv, r->plan, r->plan->connect_timeout,
	    e, sizeof e);
	if (n > 0)
		log_warnx("run %lld: %lld hosts could not be restored",
		    (long long)id, (long long)n);
	if (store_run_reset_running(r->st, id, &n, err, errlen) == -1 ||
	    store_run_set_owner(r->st, id, r->owner, &r->who, err,
	    errlen) == -1)
		goto out;
	/* Its stored verdicts, and those later runs judged against it,
	 * no longer hold: the finish writes them again. */
	if (store_verdict_drop_from(r->st, id, NULL, e, sizeof e) == -1)
		log_warnx("run %lld: %s", (long long)id, e);
	log_info("run %lld: resuming, %lld interrupted jobs requeued",
	    (long long)id, (long long)n);
	rc = RUN_OK;
out:
	store_run_free(&row);
	if (rc == RUN_OK)
		*runp = r;
	else
		run_free(r);
	return rc;
}

int64_t
run_id(const struct run *r)
{
	return r->id;
}

const struct config_plan *
run_plan(const struct run *r)
{
	return r->plan;
}

/* Cancels the jobs with job_reason and the run with run_reason. */
static int
run_cancel_as(struct run *r, const char *job_reason, const char *run_reason,
    int64_t *n, char *err, size_t errlen)
{
	int64_t	dummy;

	if (store_run_cancel_jobs(r->st, r->id, job_reason, n != NULL ? n :
	    &dummy, err, errlen) == -1)
		return -1;
	return store_run_finish(r->st, r->id, STORE_RUN_CANCELLED, run_reason,
	    err, errlen);
}

int
run_cancel(struct run *r, const char *reason, int64_t *n, char *err,
    size_t errlen)
{
	return run_cancel_as(r, reason, reason, n, err, errlen);
}

int
run_finish(struct run *r, const struct executor_summary *sum, char *err,
    size_t errlen)
{
	char	e[1024];

	if (store_run_finish(r->st, r->id, sum->failed > 0 ?
	    STORE_RUN_FAILED : STORE_RUN_DONE, sum->failed > 0 ?
	    "some jobs failed" : NULL, err, errlen) == -1)
		return -1;
	/* The verdicts the API serves; without them it recomputes. */
	if (report_verdict_save(r->st, r->id, e, sizeof e) == -1)
		log_warnx("run %lld: verdicts not stored (the API will "
		    "compute them per request): %s", (long long)r->id, e);
	return 0;
}

/* The executor could not start: the run is failed, nothing was touched. */
static enum run_status
run_not_started(struct run *r, struct run_result *res, const char *why,
    char *err, size_t errlen)
{
	char	reason[1024], e[1024];

	/* Nothing was touched: the jobs stay queued for a resume. */
	res->outcome = RUN_OUTCOME_NOT_STARTED;
	util_seterr(err, errlen, "run %lld not started: %s", (long long)r->id,
	    why);
	snprintf(reason, sizeof reason, "not started: %.900s", why);
	if (store_run_finish(r->st, r->id, STORE_RUN_FAILED, reason, e,
	    sizeof e) == -1)
		log_warnx("run %lld: %s", (long long)r->id, e);
	return RUN_FAIL;
}

/* When r's store failed last (e, from r->st) and sum has no fault yet,
 * the fault is r->st's.  1 when sum has one now. */
static int
run_store_fault(struct run *r, struct executor_summary *sum, const char *e)
{
	enum store_fault	f = store_last_fault(r->st);

	if (sum->store_fault == STORE_FAULT_NONE && (f == STORE_FAULT_FULL ||
	    f == STORE_FAULT_BUSY || f == STORE_FAULT_IO)) {
		sum->store_fault = f;
		snprintf(sum->store_err, sizeof sum->store_err, "%.500s", e);
	}
	return sum->store_fault != STORE_FAULT_NONE;
}

/*
 * A store error stopped the run (the executor restored its hosts): the
 * jobs it cut short go back to the queue and the run is interrupted with
 * the reason, if the store still takes that write; if not, the run reads
 * as interrupted once this process is gone.  err says what to do.
 */
static enum run_status
run_interrupted(struct run *r, struct run_result *res, char *err,
    size_t errlen)
{
	const char	*advice = store_fault_advice(res->sum.store_fault);
	char		 reason[STORE_REASON_MAX], e[1024];
	int64_t		 n = 0;

	res->outcome = RUN_OUTCOME_STORE_FAULT;
	snprintf(reason, sizeof reason, "store error: %.480s",
	    res->sum.store_err);
	if (store_run_interrupt(r->st, r->id, reason, &n, e, sizeof e) == -1)
		log_warnx("run %lld: cannot mark it interrupted (it reads as "
		    "interrupted once this process is gone): %s",
		    (long long)r->id, e);
	else if (n > 0)
		log_info("run %lld: %lld jobs it cut short queued again",
		    (long long)r->id, (long long)n);
	util_seterr(err, errlen, "run %lld interrupted: %s; %s, then resume "
	    "with `labrat run --resume %lld`", (long long)r->id,
	    res->sum.store_err, advice != NULL ? advice : "fix the database",
	    (long long)r->id);
	return RUN_FAIL;
}

/* The run's executor as a run_drain_fn. */
static int
run_drain_ex(void *arg, int64_t id, struct executor_summary *sum, char *err,
    size_t errlen)
{
	return executor_drain(arg, id, sum, err, errlen);
}

/* The planned jobs, then the adaptive rounds; -1: not started (e). */
static int
run_drive_all(struct run *r, struct executor *ex, struct run_track *t,
    struct executor_summary *sum, char *e, size_t elen)
{
	if (run_track_drain(t, run_drain_ex, ex, sum, e, elen) == -1)
		return -1;
	if (r->plan->stats.adaptive && !sum->stopped &&
	    run_adaptive(r, t, run_drain_ex, ex, sum, e, elen) == -1 &&
	    !run_store_fault(r, sum, e))
		log_warnx("run %lld: adaptive sampling: %s", (long long)r->id,
		    e);
	return 0;
}

enum run_status
run_start(struct run *r, const struct run_drive *drive,
    struct run_result *res, char *err, size_t errlen)
{
	struct executor_opts	 opts;
	struct executor		*ex;
	struct ssh_stats	 s0, s1;
	struct run_track	 t;
	char			 e[1024], lrun[24];

	util_seterr(err, errlen, "%s", "");
	memset(&opts, 0, sizeof opts);
	opts.db_path = r->db_path;
	opts.owner = r->owner;
	snprintf(lrun, sizeof lrun, "%lld", (long long)r->id);
	opts.lease_run = lrun;
	if (drive != NULL) {
		opts.stop = drive->stop;
		/* The executor counts per drain; the track counts the run
		 * (without a callback the executor logs retries itself). */
		if (drive->progress != NULL) {
			opts.progress = run_track_progress;
			opts.progress_arg = &t;
		}
	}
	memset(&res->sum, 0, sizeof res->sum);
	res->run_id = r->id;
	res->ncancelled = 0;
	res->handshakes = 0;
	if (run_track_init(&t, r, drive, e, sizeof e) == -1)
		return run_store_fault(r, &res->sum, e) ? run_interrupted(r,
		    res, err, errlen) : run_not_started(r, res, e, err, errlen);
	/* One executor for the planned jobs and every adaptive round: each
	 * host is connected (and its agent checked) once. */
	ssh_stats_get(&s0);
	if ((ex = executor_new(r->inv, r->plan, &opts, e, sizeof e)) == NULL)
		return run_not_started(r, res, e, err, errlen);
	if (run_drive_all(r, ex, &t, &res->sum, e, sizeof e) == -1) {
		executor_free(ex);
		if (run_store_fault(r, &res->sum, e))
			return run_interrupted(r, res, err, errlen);
		return run_not_started(r, res, e, err, errlen);
	}
	executor_free(ex);
	ssh_stats_get(&s1);
	res->handshakes = s1.handshakes - s0.handshakes;
	log_info("run %lld: %lld SSH handshakes in all its rounds",
	    (long long)r->id, (long long)res->handshakes);
	if (res->sum.store_fault != STORE_FAULT_NONE)
		return run_interrupted(r, res, err, errlen);
	if (res->sum.stopped && drive != NULL && drive->pause_on_stop) {
		res->outcome = RUN_OUTCOME_INTERRUPTED;
		if (store_run_interrupt(r->st, r->id, "stopped: its jobs stay "
		    "queued for a resume", &res->ncancelled, e, sizeof e) == -1)
			log_warnx("run %lld: %s", (long long)r->id, e);
		res->ncancelled = 0;
		return RUN_OK;
	}
	if (res->sum.stopped) {
		res->outcome = RUN_OUTCOME_INTERRUPTED;
		if (run_cancel_as(r, "interrupted", "interrupted by a signal",
		    &res->ncancelled, e, sizeof e) == -1)
			log_warnx("run %lld: %s", (long long)r->id, e);
		return RUN_OK;
	}
	res->outcome = res->sum.failed > 0 ? RUN_OUTCOME_JOBS_FAILED :
	    RUN_OUTCOME_DONE;
	if (run_finish(r, &res->sum, e, sizeof e) == -1) {
		if (run_store_fault(r, &res->sum, e))
			return run_interrupted(r, res, err, errlen);
		log_warnx("run %lld: %s", (long long)r->id, e);
	}
	return RUN_OK;
}

void
run_free(struct run *r)
{
	if (r == NULL)
		return;
	config_plan_free(r->plan);
	config_inventory_free(r->inv);
	store_close(r->st);
	free(r->db_path);
	free(r);
}

enum run_status
run_execute(const struct run_request *rq, struct run_result *res,
    struct config_errors *errs, char *err, size_t errlen)
{
	struct run	*r = NULL;
	enum run_status	 rc;

	memset(res, 0, sizeof *res);
	if (rq->resume > 0)
		rc = run_resume(rq->db_path, rq->resume, rq->owner, rq->force,
		    &r, errs, err, errlen);
	else
		rc = run_create(rq->db_path, rq->inventory, rq->plan, rq->kind,
		    rq->owner, &r, errs, err, errlen);
	if (rc != RUN_OK)
		return rc;
	if (rq->note != NULL && store_run_set_note(r->st, r->id, rq->note,
	    err, errlen) == -1) {
		run_free(r);
		return RUN_FAIL;
	}
	res->run_id = r->id;
	res->resumed = rq->resume > 0;
	if (rq->started != NULL)
		rq->started(res, rq->started_arg);
	rc = run_start(r, &rq->drive, res, err, errlen);
	if (rc == RUN_OK && (res->outcome != RUN_OUTCOME_DONE ||
	    res->sum.restore_failures > 0))
		rc = RUN_FAIL;
	run_free(r);
	return rc;
}
