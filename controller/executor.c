/*
 * executor: see executor.h.  The host table (connections, agents, leases)
 * is shared by the workers under one mutex; everything a worker does on a
 * host it does while holding that host's lease, so connections are never
 * used by two threads at once (libssh2 sessions are not thread-safe).
 * What a worker does with one job on its leased pair is in executor_job.c.
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
#include "log.h"
#include "util.h"

static void	samples_free(struct exec_samples *);
static void	lease(struct executor *, size_t, size_t);
static void	unlease(struct executor *, size_t, size_t);
static void	*worker_main(void *);

static void
exec_sleep_ms(int ms)
{
	struct timespec	ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

int
exec_stopped(const struct executor *ex)
{
	return ex->opts->stop != NULL && *ex->opts->stop != 0;
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

/*
 * Waits until hosts a and b are both free and takes them.  Taking both at
 * once under one mutex means two links sharing a host can never deadlock.
 */
static void
lease(struct executor *ex, size_t a, size_t b)
{
	pthread_mutex_lock(&ex->mtx);
	while (ex->hosts[a].busy || ex->hosts[b].busy)
		pthread_cond_wait(&ex->cond, &ex->mtx);
	ex->hosts[a].busy = ex->hosts[b].busy = 1;
	pthread_mutex_unlock(&ex->mtx);
}

static void
unlease(struct executor *ex, size_t a, size_t b)
{
	pthread_mutex_lock(&ex->mtx);
	ex->hosts[a].busy = ex->hosts[b].busy = 0;
	pthread_cond_broadcast(&ex->cond);
	pthread_mutex_unlock(&ex->mtx);
}

static struct ssh_conn *
host_connect(const struct config_host *h, int timeout_s, char *err,
    size_t errlen)
{
	struct ssh_target	t;

	memset(&t, 0, sizeof t);
	t.name = h->name;
	t.address = h->address;
	t.port = h->ssh.port;
	t.user = h->ssh.user;
	t.key = h->ssh.key;
	t.known_hosts = h->ssh.known_hosts;
	t.connect_timeout_ms = timeout_s * 1000;
	return ssh_open(&t, err, errlen);
}

/*
 * Connects and deploys the agent if needed, and records the host's facts
 * for ifname in this run (again after a reconnect: the host may have
 * rebooted into another kernel).  *facts_id gets the facts row.
 */
int
exec_host_ensure(struct executor *ex, struct exec_host *h, struct store *st,
    const char *ifname, int64_t *facts_id, char *err, size_t errlen)
{
	struct agentctl_deploy_info	 di;
	struct agentctl_reply		 r;
	struct store_host_facts		 f;
	const struct agentctl_nic	*nic = NULL;
	size_t				 i;
	int				 rc = -1;

	if (h->conn == NULL) {
		h->conn = host_connect(h->cfg, ex->plan->connect_timeout, err,
		    errlen);
		if (h->conn == NULL)
			return -1;
		h->agent = agentctl_new(h->conn);
		if (agentctl_deploy(h->agent, NULL, 300000, &di, err,
		    errlen) == -1)
			goto drop;
		if (di.built)
			log_info("%s: agent built in %lld ms", h->cfg->name,
			    (long long)di.ms);
		h->nfacts = 0;
	}
	if (ssh_reconnects(h->conn) != h->reconnects) {
		/* A new session: maybe a reboot; the agent may be gone. */
		h->reconnects = ssh_reconnects(h->conn);
		h->nfacts = 0;
		if (agentctl_deploy(h->agent, NULL, 300000, &di, err,
		    errlen) == -1)
			goto drop;
	}
	h->used = 1;
	for (i = 0; i < h->nfacts; i++) {
		if (strcmp(h->facts_if[i], ifname) == 0) {
			*facts_id = h->facts_id[i];
			return 0;
		}
	}
	if (agentctl_facts(h->agent, ifname, EXEC_CALL_MS, &r, err,
	    errlen) == -1) {
		agentctl_reply_free(&r);
		goto drop;
	}
	for (i = 0; i < r.u.facts.nnics; i++)
		if (strcmp(r.u.facts.nics[i].name, ifname) == 0)
			nic = &r.u.facts.nics[i];
	memset(&f, 0, sizeof f);
	f.host = h->cfg->name;
	f.os = r.u.facts.os;
	f.address = h->cfg->address;
	f.kernel_version = r.u.facts.kernel_version;
	f.revision = r.u.facts.kernel_revision;
	f.ifname = ifname;
	f.driver = nic != NULL ? nic->driver : "";
	f.chip = nic != NULL && nic->chip[0] != '\0' ? nic->chip : NULL;
	if (config_host_nic(h->cfg, ifname) != NULL) {
		/* The inventory knows the hardware better than a veth. */
		const struct config_nic *cn = config_host_nic(h->cfg, ifname);
		if (f.chip == NULL && cn->chip != NULL)
			f.chip = cn->chip;
		if (cn->driver != NULL && (nic == NULL ||
		    strcmp(nic->driver, "veth") == 0))
			f.driver = cn->driver;
	}
	f.facts_json = r.raw;
	rc = store_host_facts_add(st, ex->run_id, &f, facts_id, err, errlen);
	agentctl_reply_free(&r);
	if (rc == 0 && h->nfacts < EXEC_FACTS_IFS) {
		snprintf(h->facts_if[h->nfacts], sizeof h->facts_if[0], "%s",
		    ifname);
		h->facts_id[h->nfacts++] = *facts_id;
	}
	return rc;
drop:
	agentctl_free(h->agent);
	ssh_close(h->conn);
	h->agent = NULL;
	h->conn = NULL;
	return -1;
}

/*
 * One agent call, classified: EXEC_OK, EXEC_MEASURED when the agent gave a
 * real answer that retrying cannot change (a knob the driver refuses, an
 * invalid argument), EXEC_INFRA otherwise.  r must be freed by the caller.
 */
int
exec_host_call(struct exec_host *h, const char *const *args, int timeout_ms,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	if (h->agent == NULL) {
		memset(r, 0, sizeof *r);
		util_seterr(err, errlen, "%s: not connected", h->cfg->name);
		return EXEC_INFRA;
	}
	if (agentctl_call(h->agent, args, timeout_ms, r, err, errlen) == 0)
		return EXEC_OK;
	if (strcmp(r->error_class, "mismatch") == 0 ||
	    strcmp(r->error_class, "usage") == 0 ||
	    (r->cmd == AGENTCTL_APPLY && r->has_result &&
	    r->u.apply.nmismatch > 0))
		return EXEC_MEASURED;
	return EXEC_INFRA;
}

/* Puts a host's interface back; failures are logged.  0 or -1. */
int
exec_host_restore(struct exec_host *h, const char *ifname)
{
	struct agentctl_reply	 r;
	const char		*args[] = { "restore", "--if", ifname, NULL };
	char			 err[1024];
	int			 rc = 0;

	if (exec_host_call(h, args, EXEC_CALL_MS, &r, err, sizeof err) !=
	    EXEC_OK) {
		log_warnx("%s", err);
		rc = -1;
	}
	agentctl_reply_free(&r);
	return rc;
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

/*
 * After an infrastructure failure, before the retry: waits until both hosts
 * of the link answer over SSH again (a host that reboots or whose sshd is
 * restarted is gone for a while), for at most the plan's job timeout, so
 * the retries are not spent in a few milliseconds against a host that is
 * still down.  A host that stayed down through a whole wait is only tried
 * once from then on (until it answers again), so the rest of the run fails
 * fast instead of waiting once more for every attempt of every job.  The
 * retry itself reports what is still wrong.
 */
static void
link_wait(struct exec_worker *w)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	struct exec_host		*h[2];
	const char			*ifs[2] = { l->client.ifname,
					    l->server.ifname };
	char				 err[1024];
	int64_t				 deadline, fid;
	int				 k, ok;

	h[0] = &ex->hosts[l->client.host_index];
	h[1] = &ex->hosts[l->server.host_index];
	deadline = util_now_ms() + (int64_t)ex->plan->job_timeout * 1000;
	lease(ex, l->client.host_index, l->server.host_index);
	for (k = 0; k < 2; k++) {
		for (;;) {
			ok = h[k]->conn == NULL || ssh_check(h[k]->conn,
			    ex->plan->connect_timeout * 1000, err,
			    sizeof err) == SSH_OK;
			if (ok && exec_host_ensure(ex, h[k], w->st, ifs[k], &fid,
			    err, sizeof err) == 0) {
				h[k]->down = 0;
				break;
			}
			if (h[k]->down || exec_stopped(ex) ||
			    util_now_ms() >= deadline) {
				if (!exec_stopped(ex) && !h[k]->down)
					log_warnx("%s: still not answering "
					    "after %d s: %s", h[k]->cfg->name,
					    ex->plan->job_timeout, err);
				h[k]->down = !exec_stopped(ex);
				goto out;
			}
			exec_sleep_ms(EXEC_WAIT_STEP_MS);
		}
	}
out:
	unlease(ex, l->client.host_index, l->server.host_index);
}

/* Runs one claimed job to a recorded end.  -1 only on store trouble. */
static int
worker_job(struct exec_worker *w, struct store_job *job)
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
	lease(ex, l->client.host_index, l->server.host_index);
	rc = exec_job_execute(w, job, &smp, &res, reason, sizeof reason, inforce,
	    sizeof inforce);
	unlease(ex, l->client.host_index, l->server.host_index);
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
		link_wait(w);
		rc = store_job_requeue(w->st, job->id, reason, err,
		    sizeof err);
		goto done;
	}
	res.state = rc == EXEC_OK ? STORE_JOB_DONE : STORE_JOB_FAILED;
	res.reason = rc == EXEC_OK ? NULL : reason;
	res.knobs_in_force = inforce[0] != '\0' ? inforce : NULL;
	res.samples = smp.v;
	res.nsamples = smp.n;
	rc = store_job_finish(w->st, job->id, &res, err, sizeof err);
	report_progress(ex, job, res.state == STORE_JOB_DONE ? "done" :
	    "failed", res.reason, bps, 0);
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
 * Before any job: connects to both hosts of the link, deploys the agent and
 * records their facts, then waits until every link has done so.  Any
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

	lease(ex, l->client.host_index, l->server.host_index);
	rc = exec_host_ensure(ex, &ex->hosts[l->client.host_index], w->st,
	    l->client.ifname, &fid, err, sizeof err) == -1 ||
	    exec_host_ensure(ex, &ex->hosts[l->server.host_index], w->st,
	    l->server.ifname, &fid, err, sizeof err) == -1 ? -1 : 0;
	unlease(ex, l->client.host_index, l->server.host_index);
	preflight_done(ex, 1, rc == -1 ? err : NULL);
	pthread_mutex_lock(&ex->mtx);
	while (ex->pre_left > 0)
		pthread_cond_wait(&ex->cond, &ex->mtx);
	rc = ex->pre_failed ? -1 : 0;
	pthread_mutex_unlock(&ex->mtx);
	return rc;
}

static void *
worker_main(void *arg)
{
	struct exec_worker	*w = arg;
	struct executor		*ex = w->ex;
	struct store_job	 job;
	char			 err[1024];
	int			 r;

	if (worker_preflight(w) == -1)
		return NULL;
	while (!exec_stopped(ex)) {
		r = store_job_claim(w->st, ex->run_id, w->link->name,
		    ex->opts->owner, &job, err, sizeof err);
		if (r == 0)
			break;
		if (r == -1 || worker_job(w, &job) == -1) {
			if (r == -1)
				log_warnx("%s", err);
			break;
		}
	}
	return NULL;
}

int
executor_run(const struct config_inventory *inv,
    const struct config_plan *plan, int64_t run_id,
    const struct executor_opts *opts, struct executor_summary *summary,
    char *err, size_t errlen)
{
	struct executor		 ex;
	struct exec_worker	*ws;
	struct store_counts	 cnt;
	size_t			 i, nw = 0;
	int			 rc = -1;

	memset(&ex, 0, sizeof ex);
	memset(summary, 0, sizeof *summary);
	ex.inv = inv;
	ex.plan = plan;
	ex.opts = opts;
	ex.run_id = run_id;
	ex.started_ms = util_now_ms();
	pthread_mutex_init(&ex.mtx, NULL);
	pthread_cond_init(&ex.cond, NULL);
	ex.hosts = xcalloc(inv->nhosts, sizeof *ex.hosts);
	for (i = 0; i < inv->nhosts; i++)
		ex.hosts[i].cfg = &inv->hosts[i];
	ws = xcalloc(plan->nlinks, sizeof *ws);
	for (i = 0; i < plan->nlinks; i++) {
		ws[i].ex = &ex;
		ws[i].link = config_inventory_link(inv, plan->links[i]);
		if (ws[i].link == NULL) {
			util_seterr(err, errlen, "plan link %s is not in the "
			    "inventory", plan->links[i]);
			goto out;
		}
		if (store_open(opts->db_path, 0, &ws[i].st, err, errlen) == -1)
			goto out;
	}
	if (store_job_counts(ws[0].st, run_id, NULL, &cnt, err, errlen) == -1)
		goto out;
	ex.prog.total = cnt.total;
	ex.prog.done = cnt.total - cnt.n[STORE_JOB_QUEUED] -
	    cnt.n[STORE_JOB_RUNNING];
	ex.prog.failed = cnt.n[STORE_JOB_FAILED];
	/* Progress ETA counts from here: resumed work is not free. */
	ex.prog.total -= ex.prog.done;
	ex.prog.done = 0;
	ex.pre_left = (int)plan->nlinks;
	for (nw = 0; nw < plan->nlinks; nw++) {
		if ((errno = pthread_create(&ws[nw].thread, NULL, worker_main,
		    &ws[nw])) != 0) {
			char e[128];

			snprintf(e, sizeof e, "pthread_create: %s",
			    strerror(errno));
			preflight_done(&ex, (int)(plan->nlinks - nw), e);
			break;
		}
	}
	for (i = 0; i < nw; i++)
		pthread_join(ws[i].thread, NULL);
	if (ex.pre_failed) {
		/* Nothing was applied anywhere: nothing to restore. */
		util_seterr(err, errlen, "%s", ex.pre_err);
		goto out;
	}
	rc = 0;

	/* Every host we touched goes back to what it was, whatever happened. */
	for (i = 0; i < plan->nlinks; i++) {
		const struct config_link *l = ws[i].link;
		struct exec_host *h[2] = { &ex.hosts[l->client.host_index],
		    &ex.hosts[l->server.host_index] };
		const char *ifs[2] = { l->client.ifname, l->server.ifname };
		int k;

		for (k = 0; k < 2; k++) {
			char e[512];
			int64_t fid;

			if (!h[k]->used)
				continue;
			if (h[k]->agent == NULL && exec_host_ensure(&ex, h[k],
			    ws[i].st, ifs[k], &fid, e, sizeof e) == -1) {
				log_warnx("%s: cannot restore %s: %s",
				    h[k]->cfg->name, ifs[k], e);
				summary->restore_failures++;
				continue;
			}
			if (exec_host_restore(h[k], ifs[k]) == -1)
				summary->restore_failures++;
		}
	}
	if (store_job_counts(ws[0].st, run_id, NULL, &cnt, err, errlen) == 0) {
		summary->done = cnt.n[STORE_JOB_DONE];
		summary->failed = cnt.n[STORE_JOB_FAILED];
		summary->cancelled = cnt.n[STORE_JOB_CANCELLED];
	}
	summary->stopped = exec_stopped(&ex);
out:
	for (i = 0; i < plan->nlinks; i++)
		if (ws[i].st != NULL)
			store_close(ws[i].st);
	for (i = 0; i < inv->nhosts; i++) {
		agentctl_free(ex.hosts[i].agent);
		if (ex.hosts[i].conn != NULL)
			ssh_close(ex.hosts[i].conn);
	}
	free(ex.hosts);
	free(ws);
	pthread_cond_destroy(&ex.cond);
	pthread_mutex_destroy(&ex.mtx);
	return rc;
}

int
executor_restore_all(const struct config_inventory *inv,
    const struct config_plan *plan, int connect_timeout_s, char *err,
    size_t errlen)
{
	struct exec_host	 h;
	struct agentctl_deploy_info di;
	size_t			 i, k;
	int			 failures = 0;

	for (i = 0; i < plan->nlinks; i++) {
		const struct config_link *l = config_inventory_link(inv,
		    plan->links[i]);
		const struct config_endpoint *eps[2];

		if (l == NULL)
			continue;
		eps[0] = &l->client;
		eps[1] = &l->server;
		for (k = 0; k < 2; k++) {
			memset(&h, 0, sizeof h);
			h.cfg = &inv->hosts[eps[k]->host_index];
			h.conn = host_connect(h.cfg, connect_timeout_s, err,
			    errlen);
			if (h.conn == NULL) {
				log_warnx("%s", err);
				failures++;
				continue;
			}
			h.agent = agentctl_new(h.conn);
			if (agentctl_deploy(h.agent, NULL, 300000, &di, err,
			    errlen) == -1) {
				log_warnx("%s", err);
				failures++;
			} else
				exec_host_restore(&h, eps[k]->ifname);
			agentctl_free(h.agent);
			ssh_close(h.conn);
		}
	}
	return failures;
}
