/*
 * executor: see executor.h.  This file: the executor object, a drain (every
 * host connected at once, one worker thread per link, preflight, claim,
 * retry, the final restore) and progress.  The host pool (sessions,
 * agents, leases, facts) shared by the workers is in executor_pool.c; what
 * a worker does with one job on its leased pair is in executor_job.c.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "agentctl.h"
#include "executor.h"
#include "executor_int.h"
#include "host.h"
#include "log.h"
#include "util.h"

static void	samples_free(struct exec_samples *);
static void	*worker_main(void *);

void
exec_sleep_ms(int ms)
{
	struct timespec	ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* The caller's stop flag alone (not a halt). */
static int
stop_requested(const struct executor *ex)
{
	return ex->opts->stop != NULL && *ex->opts->stop != 0;
}

int
exec_stopped(const struct executor *ex)
{
	return stop_requested(ex) || ex->halted;
}

int
exec_halt(struct executor *ex, struct store *st, const char *err)
{
	enum store_fault	f = store_last_fault(st);

	if (f != STORE_FAULT_FULL && f != STORE_FAULT_BUSY &&
	    f != STORE_FAULT_IO)
		return 0;
	pthread_mutex_lock(&ex->mtx);
	if (!ex->halted) {
		ex->fault = f;
		snprintf(ex->halt_err, sizeof ex->halt_err, "%s", err);
		ex->halted = 1;
		log_warnx("%s; stopping: no more jobs are claimed", err);
	}
	pthread_cond_broadcast(&ex->cond);
	pthread_mutex_unlock(&ex->mtx);
	return 1;
}

void
exec_samples_add(struct exec_samples *s, const char *metric, double value,
    const char *unit, int interval)
{
	if (!isfinite(value))
		return;
	if (s->n == s->cap) {
		s->cap = s->cap == 0 ? 32 : s->cap * 2;
		s->v = xreallocarray(s->v, s->cap, sizeof *s->v);
	}
	s->v[s->n].metric = metric;
	s->v[s->n].value = value;
	s->v[s->n].unit = unit;
	s->v[s->n].interval = interval;
	s->n++;
}

/* Returns a copy of name owned by s (for metric names built at run time). */
const char *
exec_samples_name(struct exec_samples *s, const char *name)
{
	s->names = xreallocarray(s->names, s->nnames + 1, sizeof *s->names);
	s->names[s->nnames] = xstrdup(name);
	return s->names[s->nnames++];
}

static void
samples_free(struct exec_samples *s)
{
	size_t	i;

	for (i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->v);
	memset(s, 0, sizeof *s);
}

void
executor_job_spec(const struct matrix_job *j, char *params, size_t paramslen,
    struct store_job_spec *out)
{
	memset(out, 0, sizeof *out);
	out->link = j->link_name;
	out->knobs = j->knobs;
	out->tool = config_tool_name(j->wl->tool);
	if (matrix_workload_key(j->wl, params, paramslen) == -1)
		params[0] = '\0';
	out->params = params;
	out->repetition = j->rep - 1;
}

static void
report_progress(struct executor *ex, const struct store_job *job,
    const char *state, const char *reason, double bps, int retried)
{
	struct executor_progress	p;
	int64_t				now = util_now_ms();

	pthread_mutex_lock(&ex->mtx);
	if (retried)
		ex->prog.retried++;
	else
		ex->prog.done++;
	if (strcmp(state, "failed") == 0)
		ex->prog.failed++;
	ex->prog.elapsed_ms = now - ex->started_ms;
	ex->prog.eta_ms = ex->prog.done > 0 ? ex->prog.elapsed_ms *
	    (ex->prog.total - ex->prog.done) / ex->prog.done : -1;
	p = ex->prog;
	p.link = job->link;
	p.knobs = job->knobs_key;
	p.tool = job->tool;
	p.state = state;
	p.reason = reason;
	p.throughput_bps = bps;
	p.attempt = job->attempt;
	if (ex->opts->progress != NULL)
		ex->opts->progress(&p, ex->opts->progress_arg);
	pthread_mutex_unlock(&ex->mtx);
}

/* Runs one claimed job to a recorded end.  -1 only on store trouble. */
static int
worker_job(struct exec_worker *w, struct store_job *job, struct exec_next *pre)
{
	struct executor		*ex = w->ex;
	const struct config_link *l = w->link;
	struct exec_samples	 smp;
	struct store_job_result	 res;
	char			 reason[STORE_REASON_MAX], err[1024];
	char			 inforce[STORE_KEY_MAX];
	double			 bps = NAN;
	size_t			 i;
	int			 rc;

	memset(&smp, 0, sizeof smp);
	memset(&res, 0, sizeof res);
	reason[0] = inforce[0] = '\0';
	if (!w->leased)
		exec_lease(ex, l->client.host_index, l->server.host_index);
	w->leased = 1;
	/* The host leases outlast the job, or another controller's (a
	 * begun apply renewed them before it began). */
	if ((pre == NULL || pre->ap == NULL) && exec_pool_keep(ex,
	    l->client.host_index, l->server.host_index, ex->plan->job_timeout,
	    reason, sizeof reason) == -1)
		rc = EXEC_INFRA;
	else
		rc = exec_job_execute(w, job, pre, &smp, &res, reason,
		    sizeof reason, inforce, sizeof inforce);
	/* The next job's apply runs on the hosts: they stay leased. */
	if (w->next.ap == NULL) {
		exec_unlease(ex, l->client.host_index, l->server.host_index);
		w->leased = 0;
	}
	/* A facts row the store refused mid-job: nothing more is recorded. */
	if (exec_halt(ex, w->st, reason))
		rc = EXEC_STOPPED;
	for (i = 0; i < smp.n; i++)
		if (smp.v[i].interval == 0 &&
		    strcmp(smp.v[i].metric, "throughput_bps") == 0)
			bps = smp.v[i].value;
	if (rc == EXEC_STOPPED) {
		/* Left running: the run's end marks it cancelled. */
		rc = 0;
		goto done;
	}
	if (rc == EXEC_INFRA && job->attempt <= ex->plan->retries &&
	    !exec_stopped(ex)) {
		if (ex->opts->progress == NULL)	/* else it reports it */
			log_warnx("job %lld (%s %s %s) attempt %d: %s; "
			    "retrying", (long long)job->id, job->link,
			    job->knobs_key, job->tool, job->attempt, reason);
		report_progress(ex, job, "retry", reason, NAN, 1);
		exec_link_wait(w);
		rc = store_job_requeue(w->st, job->id, reason, err,
		    sizeof err);
		if (rc == -1 && exec_halt(ex, w->st, err))
			rc = 0;
		goto done;
	}
	res.state = rc == EXEC_OK ? STORE_JOB_DONE : STORE_JOB_FAILED;
	res.reason = rc == EXEC_OK ? NULL : reason;
	/* Whose failure: the lab's (preflight, infrastructure retries
	 * spent) or a real answer (a refused knob). */
	res.failure_class = rc == EXEC_OK ? STORE_FAIL_NONE :
	    rc == EXEC_MEASURED ? STORE_FAIL_TEST : STORE_FAIL_INFRA;
	res.knobs_in_force = inforce[0] != '\0' ? inforce : NULL;
	res.samples = smp.v;
	res.nsamples = smp.n;
	/* Announced only once committed: a job the store refused is not
	 * done (it stays running until the run is interrupted, then it is
	 * queued again). */
	if ((rc = store_job_finish(w->st, job->id, &res, err,
	    sizeof err)) == 0)
		report_progress(ex, job, res.state == STORE_JOB_DONE ? "done" :
		    "failed", res.reason, bps, 0);
	else if (exec_halt(ex, w->st, err))
		rc = 0;
done:
	if (rc == -1)
		log_warnx("%s", err);
	for (i = 0; i < res.nraws; i++)
		free((void *)res.raws[i].data);
	free((void *)res.raws);
	samples_free(&smp);
	return rc;
}

/* Counts a link as ready (or failed) and wakes whoever waits for all. */
static void
preflight_done(struct executor *ex, int n, const char *err)
{
	pthread_mutex_lock(&ex->mtx);
	if (err != NULL && !ex->pre_failed) {
		ex->pre_failed = 1;
		snprintf(ex->pre_err, sizeof ex->pre_err, "%s", err);
	}
	ex->pre_left -= n;
	if (ex->pre_left == 0)	/* the ETA counts job time only */
		ex->started_ms = util_now_ms();
	pthread_cond_broadcast(&ex->cond);
	pthread_mutex_unlock(&ex->mtx);
}

/*
 * Before any job: makes sure of both hosts of the link (exec_pool_connect()
 * has normally connected them and deployed the agent already; a host that
 * failed there reports its error here) and records their facts, then waits
 * until every link has done so.  Any
 * failure (a wrong host key, a host that is down, an agent that does not
 * build) ends the run before a single knob is touched.  0 when all links
 * are ready.
 */
static int
worker_preflight(struct exec_worker *w)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	char				 err[1024];
	int64_t				 fid;
	int				 rc;

	exec_lease(ex, l->client.host_index, l->server.host_index);
	rc = exec_host_ensure(ex, &ex->hosts[l->client.host_index], w->st,
	    l->client.ifname, &fid, err, sizeof err) == -1 ||
	    exec_host_ensure(ex, &ex->hosts[l->server.host_index], w->st,
	    l->server.ifname, &fid, err, sizeof err) == -1 ? -1 : 0;
	exec_unlease(ex, l->client.host_index, l->server.host_index);
	if (rc == -1)
		exec_halt(ex, w->st, err);
	preflight_done(ex, 1, rc == -1 ? err : NULL);
	/* job_next()'s connection (executor_job.c), while the other
	 * links get ready. */
	if (rc == 0 && w->pipe && w->st2 == NULL && store_open(
	    ex->opts->db_path, 0, &w->st2, err, sizeof err) == -1) {
		log_debug("%s: no second store connection: %s", l->name, err);
		w->pipe = 0;
	}
	pthread_mutex_lock(&ex->mtx);
	while (ex->pre_left > 0)
		pthread_cond_wait(&ex->cond, &ex->mtx);
	rc = ex->pre_failed ? -1 : 0;
	pthread_mutex_unlock(&ex->mtx);
	return rc;
}

/* Whether a link left something on its hosts: knobs, a server. */
static int
link_live(const struct exec_linkstate *ls)
{
	return ls->applied[0] || ls->applied[1] || ls->serving;
}

static void *
worker_main(void *arg)
{
	struct exec_worker	*w = arg;
	struct executor		*ex = w->ex;
	struct store_job	 job;
	struct exec_next	 pre;
	char			 err[1024];
	int			 r;

	if (worker_preflight(w) == -1)
		goto end;
	while (!exec_stopped(ex)) {
		/* The last job may have claimed this one (job_next() in
		 * executor_job.c). */
		pre = w->next;
		memset(&w->next, 0, sizeof w->next);
		if (pre.claim_failed) {
			if (!exec_halt(ex, w->st2, pre.claim_err))
				log_warnx("%s", pre.claim_err);
			break;
		}
		if (pre.claimed) {
			job = pre.job;
			r = 1;
		} else
			r = store_job_claim(w->st, ex->run_id, w->link->name,
			    ex->opts->owner, &job, err, sizeof err);
		if (r == 0)
			break;
		if (r == -1 || worker_job(w, &job, pre.claimed ? &pre : NULL) ==
		    -1) {
			if (r == -1 && !exec_halt(ex, w->st, err))
				log_warnx("%s", err);
			break;
		}
	}
	/* A job claimed ahead and not run: left running (the run's end
	 * marks it cancelled, as a stopped job); its apply, if begun, is
	 * waited for (its knobs go at the link's end). */
	exec_job_next_drop(w, &w->next);
	memset(&w->next, 0, sizeof w->next);
	if (w->leased) {
		exec_unlease(ex, w->link->client.host_index,
		    w->link->server.host_index);
		w->leased = 0;
	}
	/* The link's work ended (done, stopped, a store fault): its server
	 * goes and both ends get their originals back, once -- unless the
	 * next drain goes on from here (executor_drain_keep()). */
	if (ex->keep && !exec_stopped(ex) && !ex->pre_failed)
		return NULL;
end:
	if (link_live(&w->ls)) {
		exec_lease(ex, w->link->client.host_index,
		    w->link->server.host_index);
		exec_link_end(w, !ex->keep);
		exec_unlease(ex, w->link->client.host_index,
		    w->link->server.host_index);
	}
	return NULL;
}

/* executor_new(); lenient: links not in the inventory are left out
 * instead of an error. */
static struct executor *
executor_make(const struct config_inventory *inv,
    const struct config_plan *plan, const struct executor_opts *opts,
    int lenient, char *err, size_t errlen)
{
	struct executor	*ex;
	size_t		 i;

	ex = xcalloc(1, sizeof *ex);
	ex->inv = inv;
	ex->plan = plan;
	ex->opts_copy = *opts;
	ex->opts = &ex->opts_copy;
	ex->connect_timeout_s = plan->connect_timeout;
	ex->links = xcalloc(plan->nlinks > 0 ? plan->nlinks : 1,
	    sizeof *ex->links);
	ex->kept = xcalloc(plan->nlinks > 0 ? plan->nlinks : 1,
	    sizeof *ex->kept);
	for (i = 0; i < plan->nlinks; i++) {
		ex->links[ex->nlinks] = config_inventory_link(inv,
		    plan->links[i]);
		if (ex->links[ex->nlinks] != NULL)
			ex->nlinks++;
		else if (!lenient) {
			util_seterr(err, errlen, "plan link %s is not in the "
			    "inventory", plan->links[i]);
			free(ex->kept);
			free(ex->links);
			free(ex);
			return NULL;
		}
	}
	if (host_lease_id_init(&ex->lease_id, opts->lease_run, 0, err,
	    errlen) == -1) {
		free(ex->kept);
		free(ex->links);
		free(ex);
		return NULL;
	}
	pthread_mutex_init(&ex->mtx, NULL);
	pthread_cond_init(&ex->cond, NULL);
	exec_pool_init(ex);
	return ex;
}

struct executor *
executor_new(const struct config_inventory *inv,
    const struct config_plan *plan, const struct executor_opts *opts,
    char *err, size_t errlen)
{
	return executor_make(inv, plan, opts, 0, err, errlen);
}

void
executor_free(struct executor *ex)
{
	if (ex == NULL)
		return;
	executor_end(ex);
	exec_pool_free(ex);
	pthread_cond_destroy(&ex->cond);
	pthread_mutex_destroy(&ex->mtx);
	free(ex->kept);
	free(ex->links);
	free(ex);
}

struct host *
executor_host(struct executor *ex, const struct config_host *cfg, char *err,
    size_t errlen)
{
	size_t	i;

	for (i = 0; i < ex->inv->nhosts; i++)
		if (ex->hosts[i].cfg == cfg)
			return exec_host_connect(ex, &ex->hosts[i], err,
			    errlen) == -1 ? NULL : ex->hosts[i].host;
	util_seterr(err, errlen, "%s: not a host of the inventory", cfg->name);
	return NULL;
}

void
executor_connect(struct executor *ex)
{
	exec_pool_connect(ex, 0);
}

/* Progress starts from the run's job counts: resumed work is not free. */
static int
drain_start(struct executor *ex, struct store *st, char *err, size_t errlen)
{
	struct store_counts	cnt;

	memset(&ex->prog, 0, sizeof ex->prog);
	memset(&ex->sum, 0, sizeof ex->sum);
	ex->halted = 0;
	ex->fault = STORE_FAULT_NONE;
	ex->halt_err[0] = '\0';
	ex->pre_failed = 0;
	ex->pre_err[0] = '\0';
	ex->started_ms = util_now_ms();
	if (store_job_counts(st, ex->run_id, NULL, &cnt, err, errlen) == -1)
		return -1;
	ex->prog.total = cnt.total;
	ex->prog.done = cnt.total - cnt.n[STORE_JOB_QUEUED] -
	    cnt.n[STORE_JOB_RUNNING];
	ex->prog.failed = cnt.n[STORE_JOB_FAILED];
	/* The ETA counts from here. */
	ex->prog.total -= ex->prog.done;
	ex->prog.done = 0;
	return 0;
}

/* One worker thread per link, until every link is done. */
static void
drain_workers(struct executor *ex, struct exec_worker *ws)
{
	size_t	i, nw;

	ex->pre_left = (int)ex->nlinks;
	for (nw = 0; nw < ex->nlinks; nw++) {
		if ((errno = pthread_create(&ws[nw].thread, NULL, worker_main,
		    &ws[nw])) != 0) {
			char e[128];

			snprintf(e, sizeof e, "pthread_create: %s",
			    strerror(errno));
			preflight_done(ex, (int)(ex->nlinks - nw), e);
			break;
		}
	}
	for (i = 0; i < nw; i++)
		pthread_join(ws[i].thread, NULL);
}

/* Whether h is an end of a link the drain leaves as it is. */
static int
host_kept(const struct executor *ex, const struct exec_worker *ws,
    const struct exec_host *h)
{
	size_t	i;

	for (i = 0; i < ex->nlinks; i++)
		if (link_live(&ws[i].ls) &&
		    (h == &ex->hosts[ws[i].link->client.host_index] ||
		    h == &ex->hosts[ws[i].link->server.host_index]))
			return 1;
	return 0;
}

/* Every host the drain touched goes back to what it was, whatever
 * happened, except the ends of a link it keeps (executor_drain_keep()).
 * Returns the number of hosts that could not be restored. */
static int
drain_restore(struct executor *ex, struct exec_worker *ws)
{
	size_t	i;
	int	k, failures = 0;

	for (i = 0; i < ex->nlinks; i++) {
		const struct config_link *l = ws[i].link;
		struct exec_host *h[2] = { &ex->hosts[l->client.host_index],
		    &ex->hosts[l->server.host_index] };
		const char *ifs[2] = { l->client.ifname, l->server.ifname };

		for (k = 0; k < 2; k++) {
			char e[512];
			int64_t fid;

			if (!h[k]->used || host_kept(ex, ws, h[k]))
				continue;
			if (h[k]->host == NULL && exec_host_ensure(ex, h[k],
			    ws[i].st, ifs[k], &fid, e, sizeof e) == -1) {
				log_warnx("%s: cannot restore %s: %s",
				    h[k]->cfg->name, ifs[k], e);
				failures++;
				continue;
			}
			if (exec_host_restore(h[k], ifs[k]) == -1)
				failures++;
		}
	}
	return failures;
}

/* Whether executor_drain_keep() left any link as it was. */
static int
kept_any(const struct executor *ex)
{
	size_t	i;

	for (i = 0; i < ex->nlinks; i++)
		if (link_live(&ex->kept[i]))
			return 1;
	return 0;
}

static int
drain_run(struct executor *ex, int64_t run_id, int keep,
    struct executor_summary *summary, char *err, size_t errlen)
{
	struct exec_worker	*ws;
	struct store_counts	 cnt;
	size_t			 i;
	int			 rc = -1, goon;

	memset(summary, 0, sizeof *summary);
	goon = keep && ex->keep && ex->kept_run == run_id;
	if (!goon)
		executor_end(ex);
	exec_pool_reset(ex, goon);
	ex->keep = keep;
	ex->run_id = run_id;
	ws = xcalloc(ex->nlinks > 0 ? ex->nlinks : 1, sizeof *ws);
	/* What the last drain of the run left on the links: the workers'
	 * now, the executor's again at the end, whatever happens. */
	for (i = 0; i < ex->nlinks && goon; i++)
		ws[i].ls = ex->kept[i];
	for (i = 0; i < ex->nlinks; i++) {
		ws[i].ex = ex;
		ws[i].link = ex->links[i];
		ws[i].pipe = exec_link_alone(ex, i);
		if (store_open(ex->opts->db_path, 0, &ws[i].st, err,
		    errlen) == -1)
			goto out;
	}
	if (ex->nlinks == 0) {
		util_seterr(err, errlen, "the plan has no links");
		goto out;
	}
	if (drain_start(ex, ws[0].st, err, errlen) == -1) {
		exec_halt(ex, ws[0].st, err);
		goto out;
	}
	/* Both ends of every link at once, so that no worker's first job
	 * waits for its two agents to be built one after the other. */
	exec_pool_connect(ex, 1);
	drain_workers(ex, ws);
	if (ex->pre_failed && !ex->halted) {
		/* Nothing was applied in this drain (what an earlier one
		 * left, the workers restored): nothing to restore. */
		util_seterr(err, errlen, "%s", ex->pre_err);
		goto out;
	}
	rc = 0;
	summary->restore_failures = drain_restore(ex, ws);
	if (store_job_counts(ws[0].st, run_id, NULL, &cnt, err, errlen) == 0) {
		summary->done = cnt.n[STORE_JOB_DONE];
		summary->failed = cnt.n[STORE_JOB_FAILED];
		summary->cancelled = cnt.n[STORE_JOB_CANCELLED];
	}
	summary->stopped = stop_requested(ex);
out:
	if (ex->halted) {
		summary->store_fault = ex->fault;
		snprintf(summary->store_err, sizeof summary->store_err, "%s",
		    ex->halt_err);
		util_seterr(err, errlen, "%s", ex->halt_err);
		rc = -1;
	}
	for (i = 0; i < ex->nlinks; i++) {
		ex->kept[i] = ws[i].ls;
		if (ws[i].st != NULL)
			store_close(ws[i].st);
		if (ws[i].st2 != NULL)
			store_close(ws[i].st2);
	}
	ex->kept_run = run_id;
	free(ws);
	return rc;
}

int
executor_drain(struct executor *ex, int64_t run_id,
    struct executor_summary *summary, char *err, size_t errlen)
{
	return drain_run(ex, run_id, 0, summary, err, errlen);
}

int
executor_drain_keep(struct executor *ex, int64_t run_id,
    struct executor_summary *summary, char *err, size_t errlen)
{
	return drain_run(ex, run_id, 1, summary, err, errlen);
}

int
executor_end(struct executor *ex)
{
	struct exec_worker	 w;
	size_t			 i;
	int			 k, failures = 0;

	if (ex->kept == NULL || !kept_any(ex))
		return 0;
	for (i = 0; i < ex->nlinks; i++) {
		const struct config_link *l = ex->links[i];
		struct exec_host *h[2] = { &ex->hosts[l->client.host_index],
		    &ex->hosts[l->server.host_index] };
		const char *ifs[2] = { l->client.ifname, l->server.ifname };

		if (!link_live(&ex->kept[i]))
			continue;
		memset(&w, 0, sizeof w);
		w.ex = ex;
		w.link = l;
		w.ls = ex->kept[i];
		memset(&ex->kept[i], 0, sizeof ex->kept[i]);
		exec_lease(ex, l->client.host_index, l->server.host_index);
		exec_link_end(&w, 0);
		/* A restore that failed: once more, on a new session if the
		 * old one is gone. */
		for (k = 0; k < 2; k++) {
			char e[1024];

			if (!h[k]->used)
				continue;
			if (exec_host_connect(ex, h[k], e, sizeof e) == -1) {
				log_warnx("%s: cannot restore %s: %s",
				    h[k]->cfg->name, ifs[k], e);
				failures++;
			} else if (exec_host_restore(h[k], ifs[k]) == -1)
				failures++;
			else
				h[k]->used = 0;
		}
		exec_unlease(ex, l->client.host_index, l->server.host_index);
	}
	ex->keep = 0;
	return failures;
}

int
executor_restore(struct executor *ex, char *err, size_t errlen)
{
	size_t	i, k;
	int	failures = 0;

	for (i = 0; i < ex->nlinks; i++) {
		const struct config_endpoint *eps[2] = { &ex->links[i]->client,
		    &ex->links[i]->server };

		for (k = 0; k < 2; k++) {
			struct exec_host *h = &ex->hosts[eps[k]->host_index];

			if (exec_host_connect(ex, h, err, errlen) == -1) {
				log_warnx("%s", err);
				failures++;
				continue;
			}
			exec_host_restore(h, eps[k]->ifname);
		}
	}
	return failures;
}

int
executor_run(const struct config_inventory *inv,
    const struct config_plan *plan, int64_t run_id,
    const struct executor_opts *opts, struct executor_summary *summary,
    char *err, size_t errlen)
{
	struct executor	*ex;
	int		 rc;

	memset(summary, 0, sizeof *summary);
	if ((ex = executor_new(inv, plan, opts, err, errlen)) == NULL)
		return -1;
	rc = executor_drain(ex, run_id, summary, err, errlen);
	executor_free(ex);
	return rc;
}

int
executor_restore_all(const struct config_inventory *inv,
    const struct config_plan *plan, int connect_timeout_s, char *err,
    size_t errlen)
{
	struct executor_opts	 opts;
	struct executor		*ex;
	int			 n;

	memset(&opts, 0, sizeof opts);
	opts.lease_run = "restore";
	/* Links the inventory does not know have no hosts to restore. */
	if ((ex = executor_make(inv, plan, &opts, 1, err, errlen)) == NULL)
		return (int)inv->nhosts;
	ex->connect_timeout_s = connect_timeout_s;
	n = executor_restore(ex, err, errlen);
	executor_free(ex);
	return n;
}
