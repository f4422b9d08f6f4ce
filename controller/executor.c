/*
 * executor: see executor.h.  The host table (connections, agents, leases)
 * is shared by the workers under one mutex; everything a worker does on a
 * host it does while holding that host's lease, so connections are never
 * used by two threads at once (libssh2 sessions are not thread-safe).
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
#include "log.h"
#include "util.h"

#define EXEC_FACTS_IFS		8
#define EXEC_CALL_MS		30000	/* apply, restore, serve, keys */
#define EXEC_SLACK_S		30	/* workload deadline past its time */
#define EXEC_WAIT_STEP_MS	500	/* polling a host that is down */

enum exec_outcome {
	EXEC_OK = 0,
	EXEC_INFRA,	/* SSH, timeout, agent trouble: retry */
	EXEC_MEASURED,	/* a real answer (mismatch, refused): no retry */
	EXEC_STOPPED,
};

struct exec_host {
	const struct config_host *cfg;
	struct ssh_conn		*conn;
	struct agentctl		*agent;
	int			 busy;
	int			 used;		/* needs a final restore */
	int			 reconnects;	/* ssh_reconnects() at facts */
	int			 down;		/* did not answer a whole wait */
	char			 facts_if[EXEC_FACTS_IFS][CONFIG_IFNAME_MAX + 1];
	int64_t			 facts_id[EXEC_FACTS_IFS];
	size_t			 nfacts;
};

struct executor {
	const struct config_inventory	*inv;
	const struct config_plan	*plan;
	const struct executor_opts	*opts;
	int64_t				 run_id;
	pthread_mutex_t			 mtx;
	pthread_cond_t			 cond;
	struct exec_host		*hosts;
	struct executor_progress	 prog;
	int64_t				 started_ms;
	struct executor_summary		 sum;
	int				 pre_left;	/* links not ready */
	int				 pre_failed;
	char				 pre_err[1024];
};

struct exec_worker {
	struct executor		*ex;
	const struct config_link *link;
	pthread_t		 thread;
	struct store		*st;
};

/* Samples of one job; metric names made at run time are kept in names. */
struct exec_samples {
	struct store_sample	*v;
	size_t			 n, cap;
	char			**names;
	size_t			 nnames;
};

static void	samples_add(struct exec_samples *, const char *, double,
		    const char *, int);
static void	samples_free(struct exec_samples *);
static int	stopped(const struct executor *);
static void	lease(struct executor *, size_t, size_t);
static void	unlease(struct executor *, size_t, size_t);
static int	host_ensure(struct executor *, struct exec_host *,
		    struct store *, const char *, int64_t *, char *, size_t);
static int	host_call(struct exec_host *, const char *const *, int,
		    struct agentctl_reply *, char *, size_t);
static int	host_restore(struct exec_host *, const char *);
static int	job_execute(struct exec_worker *, const struct store_job *,
		    struct exec_samples *, struct store_job_result *,
		    char *, size_t, char *, size_t);
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

static int
stopped(const struct executor *ex)
{
	return ex->opts->stop != NULL && *ex->opts->stop != 0;
}

static void
samples_add(struct exec_samples *s, const char *metric, double value,
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
static const char *
samples_name(struct exec_samples *s, const char *name)
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
	const struct matrix_combo	*c = &j->knobs;
	int				 k;

	memset(out, 0, sizeof *out);
	out->link = j->link_name;
	store_knobs_init(&out->knobs);
	for (k = 0; k < CONFIG_KNOB_COUNT; k++) {
		if ((c->set & (1u << k)) == 0)
			continue;
		switch (k) {
		case CONFIG_KNOB_TSO:
			out->knobs.tso = c->value[k];
			break;
		case CONFIG_KNOB_LRO:
			out->knobs.lro = c->value[k];
			break;
		case CONFIG_KNOB_RXCSUM:
			out->knobs.rxcsum = c->value[k];
			break;
		case CONFIG_KNOB_TXCSUM:
			out->knobs.txcsum = c->value[k];
			break;
		case CONFIG_KNOB_MTU:
			out->knobs.mtu = c->value[k];
			break;
		case CONFIG_KNOB_NAT:
			snprintf(out->knobs.nat, sizeof out->knobs.nat, "%s",
			    config_nat_name((enum config_nat)c->value[k]));
			break;
		}
	}
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
static int
host_ensure(struct executor *ex, struct exec_host *h, struct store *st,
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
static int
host_call(struct exec_host *h, const char *const *args, int timeout_ms,
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
static int
host_restore(struct exec_host *h, const char *ifname)
{
	struct agentctl_reply	 r;
	const char		*args[] = { "restore", "--if", ifname, NULL };
	char			 err[1024];
	int			 rc = 0;

	if (host_call(h, args, EXEC_CALL_MS, &r, err, sizeof err) !=
	    EXEC_OK) {
		log_warnx("%s", err);
		rc = -1;
	}
	agentctl_reply_free(&r);
	return rc;
}

/* The apply argv for one end of a link. */
static void
apply_args(const struct store_knobs *k, const char *ifname, int tso_here,
    const char *nat_here, int rollback_s, const char **args, char *mtubuf,
    size_t mtulen, char *rbbuf, size_t rblen)
{
	size_t	n = 0;

	args[n++] = "apply";
	args[n++] = "--if";
	args[n++] = ifname;
	if (k->mtu > 0) {
		snprintf(mtubuf, mtulen, "%d", k->mtu);
		args[n++] = "--mtu";
		args[n++] = mtubuf;
	}
	if (tso_here && k->tso >= 0) {
		args[n++] = "--tso";
		args[n++] = k->tso ? "on" : "off";
	}
	if (k->lro >= 0) {
		args[n++] = "--lro";
		args[n++] = k->lro ? "on" : "off";
	}
	if (k->rxcsum >= 0) {
		args[n++] = "--rxcsum";
		args[n++] = k->rxcsum ? "on" : "off";
	}
	if (k->txcsum >= 0) {
		args[n++] = "--txcsum";
		args[n++] = k->txcsum ? "on" : "off";
	}
	if (nat_here != NULL) {
		args[n++] = "--nat";
		args[n++] = nat_here;
	}
	snprintf(rbbuf, rblen, "%d", rollback_s);
	args[n++] = "--rollback-after";
	args[n++] = rbbuf;
	args[n] = NULL;
}

/* Describes an apply mismatch like "em-a: driver refused tso=on on em0". */
static void
mismatch_reason(const char *host, const struct agentctl_apply *a, char *buf,
    size_t len)
{
	size_t	i, off;

	off = (size_t)snprintf(buf, len, "%s: driver refused", host);
	for (i = 0; i < a->nmismatch && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s %s",
		    i > 0 ? "," : "", a->mismatch[i]);
	if (off < len)
		snprintf(buf + off, len - off, " on %s (in force: tso=%d "
		    "mtu=%lld nat=%s)", a->ifname, a->in_force.tso,
		    a->in_force.mtu, a->in_force.nat[0] != '\0' ?
		    a->in_force.nat : "?");
}

/* The workload: iperf through a server on the receiver, or scp. */
static int
job_workload(struct exec_worker *w, const struct config_workload *wl,
    struct exec_host *c, struct exec_host *s, const struct store_job *job,
    struct exec_samples *smp, struct agentctl_reply *out, char *reason,
    size_t rlen)
{
	const struct config_link	*l = w->link;
	struct agentctl_reply		 r;
	const char			*args[32];
	char				 tag[64], size[32], tbuf[16], pbuf[16];
	char				 portbuf[16], to[512];
	const char			*tool = config_tool_name(wl->tool);
	size_t				 n = 0;
	int				 rc, deadline;

	/* The plan's job timeout bounds the workload (unless it would not
	 * even leave the workload its own time). */
	deadline = wl->tool == CONFIG_TOOL_SCP ? w->ex->plan->job_timeout :
	    wl->time + EXEC_SLACK_S;
	if (wl->tool != CONFIG_TOOL_SCP && w->ex->plan->job_timeout >
	    wl->time && w->ex->plan->job_timeout < deadline)
		deadline = w->ex->plan->job_timeout;
	deadline *= 1000;
	if (wl->tool == CONFIG_TOOL_SCP) {
		snprintf(tag, sizeof tag, "run%lld-job%lld",
		    (long long)job->run_id, (long long)job->id);
		args[0] = "keygen"; args[1] = "--tag"; args[2] = tag;
		args[3] = NULL;
		if ((rc = host_call(c, args, EXEC_CALL_MS, &r, reason,
		    rlen)) != EXEC_OK)
			goto out;
		{
			char	pub[sizeof r.u.keygen.pubkey];
			char	key[sizeof r.u.keygen.key];

			snprintf(pub, sizeof pub, "%s", r.u.keygen.pubkey);
			snprintf(key, sizeof key, "%s", r.u.keygen.key);
			agentctl_reply_free(&r);
			args[0] = "authorize"; args[3] = "--pubkey";
			args[4] = pub; args[5] = NULL;
			if ((rc = host_call(s, args, EXEC_CALL_MS, &r, reason,
			    rlen)) != EXEC_OK || r.u.authorize.nhostkeys == 0) {
				if (rc == EXEC_OK) {
					util_seterr(reason, rlen, "%s: "
					    "authorize: no host key",
					    s->cfg->name);
					rc = EXEC_INFRA;
				}
				goto keys;
			}
			snprintf(to, sizeof to, "%s@%s", s->cfg->ssh.user,
			    l->server.address);
			snprintf(size, sizeof size, "%llu",
			    (unsigned long long)wl->size_bytes);
			args[0] = "scp"; args[1] = "--to"; args[2] = to;
			args[3] = "--size"; args[4] = size; args[5] = "--key";
			args[6] = key; args[7] = "--hostkey";
			args[8] = r.u.authorize.hostkeys[0]; args[9] = NULL;
			rc = host_call(c, args, deadline, out, reason, rlen);
			agentctl_reply_free(&r);
			if (rc == EXEC_OK) {
				samples_add(smp, "throughput_bps",
				    out->u.scp.bps, "bit/s", 0);
				samples_add(smp, "bytes", out->u.scp.bytes, "B",
				    0);
				samples_add(smp, "seconds", out->u.scp.seconds,
				    "s", 0);
			}
		}
keys:
		agentctl_reply_free(&r);
		args[0] = "deauthorize"; args[1] = "--tag"; args[2] = tag;
		args[3] = NULL;
		if (host_call(s, args, EXEC_CALL_MS, &r, tbuf, 1) != EXEC_OK)
			log_warnx("%s: deauthorize %s failed", s->cfg->name,
			    tag);
		agentctl_reply_free(&r);
		if (host_call(c, args, EXEC_CALL_MS, &r, tbuf, 1) != EXEC_OK)
			log_warnx("%s: deauthorize %s failed", c->cfg->name,
			    tag);
		agentctl_reply_free(&r);
		return rc;
	}

	args[0] = "serve"; args[1] = "--tool"; args[2] = tool;
	args[3] = "--bind"; args[4] = l->server.address; args[5] = NULL;
	if ((rc = host_call(s, args, EXEC_CALL_MS, &r, reason, rlen)) !=
	    EXEC_OK)
		goto out;
	snprintf(portbuf, sizeof portbuf, "%lld", r.u.serve.port);
	agentctl_reply_free(&r);

	args[n++] = "iperf"; args[n++] = "--tool"; args[n++] = tool;
	args[n++] = "--server"; args[n++] = l->server.address;
	args[n++] = "--port"; args[n++] = portbuf;
	if (wl->len != NULL) {
		args[n++] = "--len"; args[n++] = wl->len;
	}
	if (wl->window != NULL) {
		args[n++] = "--window"; args[n++] = wl->window;
	}
	if (wl->nodelay)
		args[n++] = "--nodelay";
	snprintf(tbuf, sizeof tbuf, "%d", wl->time);
	args[n++] = "--time"; args[n++] = tbuf;
	snprintf(pbuf, sizeof pbuf, "%d", wl->parallel);
	args[n++] = "--parallel"; args[n++] = pbuf;
	if (strcmp(job->knobs.nat, "divert") == 0) {
		args[n++] = "--watch"; args[n++] = "natd";
	}
	args[n] = NULL;
	rc = host_call(c, args, deadline, out, reason, rlen);
	if (rc == EXEC_OK) {
		const struct agentctl_iperf	*ip = &out->u.iperf;
		size_t				 i;

		samples_add(smp, "throughput_bps", ip->bps, "bit/s", 0);
		samples_add(smp, "bytes", ip->bytes, "B", 0);
		samples_add(smp, "seconds", ip->seconds, "s", 0);
		if (ip->retransmits >= 0)
			samples_add(smp, "retransmits",
			    (double)ip->retransmits, "", 0);
		if (ip->window_requested >= 0)
			samples_add(smp, "window_requested",
			    (double)ip->window_requested, "B", 0);
		if (ip->window_granted >= 0)
			samples_add(smp, "window_granted",
			    (double)ip->window_granted, "B", 0);
		samples_add(smp, "cpu_user", ip->cpu_user, "%", 0);
		samples_add(smp, "cpu_sys", ip->cpu_sys, "%", 0);
		samples_add(smp, "cpu_idle", ip->cpu_idle, "%", 0);
		for (i = 0; i < ip->nprocs; i++) {
			char	m[64];

			snprintf(m, sizeof m, "cpu_%s", ip->procs[i].name);
			samples_add(smp, samples_name(smp, m),
			    ip->procs[i].cpu_percent, "%", 0);
		}
		if (ip->has_ifstats && ip->if_after.tx_errors >= 0 &&
		    ip->if_before.tx_errors >= 0)
			samples_add(smp, "tx_errors", (double)
			    (ip->if_after.tx_errors - ip->if_before.tx_errors),
			    "", 0);
		for (i = 0; i < ip->nintervals; i++)
			samples_add(smp, "throughput_bps",
			    ip->intervals[i].bps, "bit/s", (int)i + 1);
	}
	args[0] = "serve"; args[1] = "stop"; args[2] = NULL;
	if (host_call(s, args, EXEC_CALL_MS, &r, tbuf, 1) != EXEC_OK)
		log_warnx("%s: serve stop failed", s->cfg->name);
out:
	agentctl_reply_free(&r);
	return rc;
}

/*
 * Runs one claimed job with both hosts leased.  Fills res (state, reason,
 * samples, raws, facts ids) and returns an exec_outcome.
 */
static int
job_execute(struct exec_worker *w, const struct store_job *job,
    struct exec_samples *smp, struct store_job_result *res, char *reason,
    size_t rlen, char *inforce, size_t inforcelen)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	const struct config_workload	*wl = NULL;
	struct exec_host		*c = &ex->hosts[l->client.host_index];
	struct exec_host		*s = &ex->hosts[l->server.host_index];
	struct exec_host		*ends[2];
	struct agentctl_reply		 ar[2], wr;
	struct store_knobs		 inf;
	const char			*args[24];
	char				 mtub[16], rbb[16], key[MATRIX_KEY_MAX];
	size_t				 i;
	int				 rc = EXEC_INFRA, applied = 0, rb;

	memset(ar, 0, sizeof ar);
	memset(&wr, 0, sizeof wr);
	for (i = 0; i < ex->plan->nworkloads; i++) {
		wl = &ex->plan->workloads[i];
		if (matrix_workload_key(wl, key, sizeof key) == 0 &&
		    strcmp(key, job->params) == 0)
			break;
		wl = NULL;
	}
	if (wl == NULL) {
		util_seterr(reason, rlen, "job %lld: workload '%s' is not in "
		    "the plan", (long long)job->id, job->params);
		return EXEC_MEASURED;
	}
	if (host_ensure(ex, c, w->st, l->client.ifname, &res->client_facts_id,
	    reason, rlen) == -1 || host_ensure(ex, s, w->st, l->server.ifname,
	    &res->server_facts_id, reason, rlen) == -1)
		return EXEC_INFRA;
	if (stopped(ex))
		return EXEC_STOPPED;

	/* Apply: receiver first, so the sender never floods a small MTU. */
	ends[0] = s;
	ends[1] = c;
	rb = ex->plan->job_timeout + (wl->tool == CONFIG_TOOL_SCP ? 0 :
	    wl->time) + 60;
	for (i = 0; i < 2; i++) {
		const struct config_endpoint *ep = i == 0 ? &l->server :
		    &l->client;
		int	is_nat = l->nat != NULL &&
		    strcmp(l->nat, ends[i]->cfg->name) == 0;

		apply_args(&job->knobs, ep->ifname, i == 1 ||
		    ex->plan->tso_on == CONFIG_TSO_ON_BOTH,
		    is_nat && job->knobs.nat[0] != '\0' ? job->knobs.nat :
		    NULL, rb, args, mtub, sizeof mtub, rbb, sizeof rbb);
		rc = host_call(ends[i], args, EXEC_CALL_MS, &ar[i], reason,
		    rlen);
		applied |= 1 << i;
		if (rc == EXEC_MEASURED && ar[i].has_result)
			mismatch_reason(ends[i]->cfg->name, &ar[i].u.apply,
			    reason, rlen);
		if (rc != EXEC_OK)
			goto restore;
	}
	/* What is really in force, as the sender (and NAT host) report. */
	store_knobs_init(&inf);
	inf.mtu = job->knobs.mtu > 0 ? (int)ar[1].u.apply.in_force.mtu : 0;
	inf.tso = job->knobs.tso >= 0 ? ar[1].u.apply.in_force.tso : -1;
	inf.lro = job->knobs.lro >= 0 ? ar[1].u.apply.in_force.lro : -1;
	inf.rxcsum = job->knobs.rxcsum >= 0 ? ar[1].u.apply.in_force.rxcsum :
	    -1;
	inf.txcsum = job->knobs.txcsum >= 0 ? ar[1].u.apply.in_force.txcsum :
	    -1;
	if (job->knobs.nat[0] != '\0') {
		const struct agentctl_apply *na = l->nat != NULL &&
		    strcmp(l->nat, s->cfg->name) == 0 ? &ar[0].u.apply :
		    &ar[1].u.apply;
		snprintf(inf.nat, sizeof inf.nat, "%.7s",
		    na->in_force.nat[0] != '\0' ? na->in_force.nat : "off");
	}
	if (store_knobs_key(&inf, inforce, inforcelen) == -1)
		inforce[0] = '\0';
	/*
	 * A real NIC renegotiates its link after an MTU change and a driver
	 * may take a moment to reprogram offloads: measure once it settled.
	 */
	if (ex->plan->settle_ms > 0)
		usleep((useconds_t)ex->plan->settle_ms * 1000);
	if (stopped(ex)) {
		rc = EXEC_STOPPED;
		goto restore;
	}
	rc = job_workload(w, wl, c, s, job, smp, &wr, reason, rlen);
	if (wr.raw != NULL) {
		res->raws = xcalloc(1, sizeof *res->raws);
		((struct store_raw *)res->raws)->name = "client.agent";
		((struct store_raw *)res->raws)->data = xstrdup(wr.raw);
		((struct store_raw *)res->raws)->len = wr.rawlen;
		res->nraws = 1;
	}
restore:
	for (i = 0; i < 2; i++)
		if (applied & (1 << i))
			host_restore(ends[i], i == 0 ? l->server.ifname :
			    l->client.ifname);
	agentctl_reply_free(&ar[0]);
	agentctl_reply_free(&ar[1]);
	agentctl_reply_free(&wr);
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
			if (ok && host_ensure(ex, h[k], w->st, ifs[k], &fid,
			    err, sizeof err) == 0) {
				h[k]->down = 0;
				break;
			}
			if (h[k]->down || stopped(ex) ||
			    util_now_ms() >= deadline) {
				if (!stopped(ex) && !h[k]->down)
					log_warnx("%s: still not answering "
					    "after %d s: %s", h[k]->cfg->name,
					    ex->plan->job_timeout, err);
				h[k]->down = !stopped(ex);
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
	rc = job_execute(w, job, &smp, &res, reason, sizeof reason, inforce,
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
	    !stopped(ex)) {
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
	rc = host_ensure(ex, &ex->hosts[l->client.host_index], w->st,
	    l->client.ifname, &fid, err, sizeof err) == -1 ||
	    host_ensure(ex, &ex->hosts[l->server.host_index], w->st,
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
	while (!stopped(ex)) {
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
			if (h[k]->agent == NULL && host_ensure(&ex, h[k],
			    ws[i].st, ifs[k], &fid, e, sizeof e) == -1) {
				log_warnx("%s: cannot restore %s: %s",
				    h[k]->cfg->name, ifs[k], e);
				summary->restore_failures++;
				continue;
			}
			if (host_restore(h[k], ifs[k]) == -1)
				summary->restore_failures++;
		}
	}
	if (store_job_counts(ws[0].st, run_id, NULL, &cnt, err, errlen) == 0) {
		summary->done = cnt.n[STORE_JOB_DONE];
		summary->failed = cnt.n[STORE_JOB_FAILED];
		summary->cancelled = cnt.n[STORE_JOB_CANCELLED];
	}
	summary->stopped = stopped(&ex);
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
				host_restore(&h, eps[k]->ifname);
			agentctl_free(h.agent);
			ssh_close(h.conn);
		}
	}
	return failures;
}
