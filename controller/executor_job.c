/*
 * executor_job: one claimed job on a leased host pair (see executor_int.h):
 * go from the link's last job's knobs to this one's on both ends and check
 * what is really in force (executor_link.c), run the workload (iperf2/iperf3
 * through the link's server on the receiver, or scp with a one-off key),
 * record its samples.  The interfaces are restored at the link's end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agentctl.h"
#include "executor.h"
#include "executor_int.h"
#include "log.h"
#include "util.h"

/*
 * The key of what is in force: of the knobs the job sets, what the sender
 * (snd) and, for nat, the NAT host (nat) report.  A knob they report as
 * unknown (or out of range) is left out; a NAT host reporting no NAT mode
 * has it off.
 */
static void
in_force_key(const struct knobs *job, const struct agentctl_knobs *snd,
    const struct agentctl_knobs *nat, char *key, size_t keylen)
{
	struct knobs	inf;
	int		n;

	knobs_clear(&inf);
	if (knobs_isset(job, KNOB_MTU) && snd->mtu >= KNOBS_MTU_MIN &&
	    snd->mtu <= KNOBS_MTU_MAX)
		knobs_set(&inf, KNOB_MTU, (int)snd->mtu);
	if (knobs_isset(job, KNOB_TSO))
		knobs_set(&inf, KNOB_TSO, snd->tso);
	if (knobs_isset(job, KNOB_LRO))
		knobs_set(&inf, KNOB_LRO, snd->lro);
	if (knobs_isset(job, KNOB_RXCSUM))
		knobs_set(&inf, KNOB_RXCSUM, snd->rxcsum);
	if (knobs_isset(job, KNOB_TXCSUM))
		knobs_set(&inf, KNOB_TXCSUM, snd->txcsum);
	if (knobs_isset(job, KNOB_NAT)) {
		n = nat->nat[0] != '\0' ? knobs_nat_from_name(nat->nat) :
		    KNOB_NAT_OFF;
		knobs_set(&inf, KNOB_NAT, n);
	}
	if (knobs_key(&inf, key, keylen) == -1)
		key[0] = '\0';
}

/* The scp workload: a one-off key for client -> server, the transfer, and
 * the key taken back from both hosts whatever happened. */
static int
job_scp(struct exec_worker *w, const struct config_workload *wl,
    struct exec_host *c, struct exec_host *s, const struct store_job *job,
    int deadline, struct exec_samples *smp, struct agentctl_reply *out,
    char *reason, size_t rlen)
{
	const struct config_link	*l = w->link;
	struct agentctl_reply		 r;
	const char			*args[16];
	char				 tag[64], size[32], tbuf[16], to[512];
	char				 pub[sizeof r.u.keygen.pubkey];
	char				 key[sizeof r.u.keygen.key];
	int				 rc;

	snprintf(tag, sizeof tag, "run%lld-job%lld",
	    (long long)job->run_id, (long long)job->id);
	args[0] = "keygen"; args[1] = "--tag"; args[2] = tag;
	args[3] = NULL;
	if ((rc = exec_host_call(c, args, EXEC_CALL_MS, &r, reason,
	    rlen)) != EXEC_OK) {
		agentctl_reply_free(&r);
		return rc;
	}
	snprintf(pub, sizeof pub, "%s", r.u.keygen.pubkey);
	snprintf(key, sizeof key, "%s", r.u.keygen.key);
	agentctl_reply_free(&r);
	args[0] = "authorize"; args[3] = "--pubkey";
	args[4] = pub; args[5] = NULL;
	if ((rc = exec_host_call(s, args, EXEC_CALL_MS, &r, reason,
	    rlen)) != EXEC_OK || r.u.authorize.nhostkeys == 0) {
		if (rc == EXEC_OK) {
			util_seterr(reason, rlen, "%s: authorize: no host key",
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
	rc = exec_host_call(c, args, deadline, out, reason, rlen);
	agentctl_reply_free(&r);
	if (rc == EXEC_OK)
		rc = exec_plaus_scp(w, wl, &out->u.scp, reason, rlen);
	if (rc == EXEC_OK) {
		/* Stored as bytes x 8 / seconds (the check bounds the
		 * agent's own bps to that). */
		exec_samples_add(smp, "throughput_bps", out->u.scp.bytes * 8.0 /
		    out->u.scp.seconds, "bit/s", 0);
		exec_samples_add(smp, "bytes", out->u.scp.bytes, "B", 0);
		exec_samples_add(smp, "seconds", out->u.scp.seconds, "s", 0);
	}
keys:
	agentctl_reply_free(&r);
	args[0] = "deauthorize"; args[1] = "--tag"; args[2] = tag;
	args[3] = NULL;
	if (exec_host_call(s, args, EXEC_CALL_MS, &r, tbuf, 1) != EXEC_OK)
		log_warnx("%s: deauthorize %s failed", s->cfg->name, tag);
	agentctl_reply_free(&r);
	if (exec_host_call(c, args, EXEC_CALL_MS, &r, tbuf, 1) != EXEC_OK)
		log_warnx("%s: deauthorize %s failed", c->cfg->name, tag);
	agentctl_reply_free(&r);
	return rc;
}

/* What an iperf reply adds to the job's samples. */
static void
iperf_samples(struct exec_samples *smp, const struct agentctl_iperf *ip)
{
	size_t	i;

	/* bytes x 8 / seconds, exactly (the check bounds ip->bps to it). */
	exec_samples_add(smp, "throughput_bps", ip->bytes * 8.0 / ip->seconds,
	    "bit/s", 0);
	exec_samples_add(smp, "bytes", ip->bytes, "B", 0);
	exec_samples_add(smp, "seconds", ip->seconds, "s", 0);
	if (ip->retransmits >= 0)
		exec_samples_add(smp, "retransmits", (double)ip->retransmits, "",
		    0);
	if (ip->window_requested >= 0)
		exec_samples_add(smp, "window_requested",
		    (double)ip->window_requested, "B", 0);
	if (ip->window_granted >= 0)
		exec_samples_add(smp, "window_granted",
		    (double)ip->window_granted, "B", 0);
	/* The agent's iperf runs the client: CPU figures are the sender's
	 * (stats_metric_find() knows every name written here). */
	exec_samples_add(smp, "cpu_sender", ip->cpu_user + ip->cpu_sys, "%",
	    0);
	exec_samples_add(smp, "cpu_sender_user", ip->cpu_user, "%", 0);
	exec_samples_add(smp, "cpu_sender_sys", ip->cpu_sys, "%", 0);
	exec_samples_add(smp, "cpu_sender_idle", ip->cpu_idle, "%", 0);
	for (i = 0; i < ip->nprocs; i++) {
		char	m[64];

		snprintf(m, sizeof m, "cpu_sender_%s", ip->procs[i].name);
		exec_samples_add(smp, exec_samples_name(smp, m),
		    ip->procs[i].cpu_percent, "%", 0);
	}
	if (ip->has_ifstats && ip->if_after.tx_errors >= 0 &&
	    ip->if_before.tx_errors >= 0)
		exec_samples_add(smp, "tx_errors", (double)
		    (ip->if_after.tx_errors - ip->if_before.tx_errors), "", 0);
	for (i = 0; i < ip->nintervals; i++)
		exec_samples_add(smp, "throughput_bps", ip->intervals[i].bps,
		    "bit/s", (int)i + 1);
}

/* The plan's workload of job (by its canonical key), or NULL + reason. */
static const struct config_workload *
job_find_workload(const struct executor *ex, const struct store_job *job,
    char *reason, size_t rlen)
{
	const struct config_workload	*wl;
	char				 key[STORE_PARAMS_MAX];
	size_t				 i;

	for (i = 0; i < ex->plan->nworkloads; i++) {
		wl = &ex->plan->workloads[i];
		if (matrix_workload_key(wl, key, sizeof key) == 0 &&
		    strcmp(key, job->params) == 0)
			return wl;
	}
	util_seterr(reason, rlen, "job %lld: workload '%s' is not in the plan",
	    (long long)job->id, job->params);
	return NULL;
}

/*
 * Right after a workload that went through, while the hosts are still
 * leased: claims the link's next job (on st2: a store failure here is
 * reported only once this job is stored) and begins its apply on the
 * client (the server's follows the counters of this job: see job_iperf()).
 * Anything that does not go leaves the next job to be run as usual.
 */
static void
job_next(struct exec_worker *w, struct exec_host *c, struct exec_host *s)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	struct exec_next		*nx = &w->next;
	const struct config_workload	*wl;
	struct exec_host		*ends[2];
	char				 err[1024];
	int				 r;

	if (!w->pipe || w->st2 == NULL || nx->claimed || nx->claim_failed ||
	    exec_stopped(ex))
		return;
	r = store_job_claim(w->st2, ex->run_id, l->name, ex->opts->owner,
	    &nx->job, nx->claim_err, sizeof nx->claim_err);
	if (r == -1)
		nx->claim_failed = 1;
	nx->none = r == 0;
	if (r != 1)
		return;
	nx->claimed = 1;
	if ((wl = job_find_workload(ex, &nx->job, err, sizeof err)) == NULL ||
	    exec_pool_keep(ex, l->client.host_index, l->server.host_index,
	    ex->plan->job_timeout, err, sizeof err) == -1 ||
	    exec_host_ensure(ex, c, w->st2, l->client.ifname, &nx->facts_id[0],
	    err, sizeof err) == -1 ||
	    exec_host_ensure(ex, s, w->st2, l->server.ifname, &nx->facts_id[1],
	    err, sizeof err) == -1)
		return;
	ends[0] = s;
	ends[1] = c;
	nx->ap = exec_link_apply_begin(w, &nx->job, wl, ends, 1);
}

void
exec_job_next_drop(struct exec_worker *w, struct exec_next *pre)
{
	const struct config_link	*l = w->link;
	struct exec_host		*ends[2];
	struct agentctl_reply		 ar[2];
	char				 err[1024];

	if (pre->ap == NULL)
		return;
	ends[0] = &w->ex->hosts[l->server.host_index];
	ends[1] = &w->ex->hosts[l->client.host_index];
	exec_link_apply_end(pre->ap, NULL, ends, ar, err, sizeof err);
	pre->ap = NULL;
	agentctl_reply_free(&ar[0]);
	agentctl_reply_free(&ar[1]);
}

/* The client's arguments of the iperf workload (bufs: 3 numbers). */
static void
job_iperf_args(const struct exec_worker *w, const struct config_workload *wl,
    const struct store_job *job, const char **args, char (*buf)[16])
{
	const struct config_link	*l = w->link;
	size_t				 n = 0;

	args[n++] = "iperf"; args[n++] = "--tool";
	args[n++] = config_tool_name(wl->tool);
	args[n++] = "--server"; args[n++] = l->server.address;
	/* The client goes where the server says it listens: the plan's
	 * port, or the tool's default when the plan has none. */
	snprintf(buf[0], sizeof buf[0], "%d", w->ls.served_port);
	args[n++] = "--port"; args[n++] = buf[0];
	/* The sender's interface is the link's: no route lookup. */
	args[n++] = "--if"; args[n++] = l->client.ifname;
	if (wl->len != NULL) {
		args[n++] = "--len"; args[n++] = wl->len;
	}
	if (wl->window != NULL) {
		args[n++] = "--window"; args[n++] = wl->window;
	}
	if (wl->nodelay)
		args[n++] = "--nodelay";
	snprintf(buf[1], sizeof buf[1], "%d", wl->time);
	args[n++] = "--time"; args[n++] = buf[1];
	snprintf(buf[2], sizeof buf[2], "%d", wl->parallel);
	args[n++] = "--parallel"; args[n++] = buf[2];
	if (knobs_get(&job->knobs, KNOB_NAT) == KNOB_NAT_DIVERT) {
		args[n++] = "--watch"; args[n++] = "natd";
	}
	args[n] = NULL;
}

/* Whether an iperf call failed to reach its server at all. */
static int
iperf_unreached(const struct agentctl_reply *r)
{
	return strcmp(r->error_class, "command") == 0 &&
	    (strstr(r->error_message, "unable to connect") != NULL ||
	    strstr(r->error_message, "connect failed") != NULL);
}

/*
 * The client could not reach the link's server (rc, out): when `serve
 * --keep` finds the server gone and starts a new one, the run goes again,
 * once, within the same attempt (the lab lost a process between two jobs;
 * the job did not fail).  When the server was there, the failure stands.
 * No separate "is it alive" call is spent on the jobs that reach it.
 */
static int
job_iperf_again(struct exec_worker *w, const struct config_workload *wl,
    struct exec_host *c, struct exec_host *s, const char **args,
    char (*buf)[16], int deadline, struct agentctl_reply *out, int rc,
    struct agentctl_ifsnap *rx0, char *reason, size_t rlen)
{
	unsigned	gen = s->serve_gen;
	char		err[512];

	if (rc == EXEC_OK || !iperf_unreached(out) ||
	    exec_link_serve(w, s, wl, err, sizeof err) != EXEC_OK ||
	    s->serve_gen == gen)
		return rc;
	log_warnx("%s: the %s server was gone (%s): started again, the run "
	    "goes again", s->cfg->name, config_tool_name(wl->tool),
	    out->error_message);
	*rx0 = w->ls.rx;
	snprintf(buf[0], sizeof buf[0], "%d", w->ls.served_port);
	agentctl_reply_free(out);
	return exec_host_call(c, args, deadline, out, reason, rlen);
}

/* The iperf2/iperf3 workload: the link's server on s (started for the
 * batch, restarted if it died), the client on c; the server's counters
 * read around the run. */
static int
job_iperf(struct exec_worker *w, const struct config_workload *wl,
    struct exec_host *c, struct exec_host *s, const struct store_job *job,
    int deadline, struct exec_samples *smp, struct agentctl_reply *out,
    char *reason, size_t rlen)
{
	const char			*args[32];
	char				 buf[3][16], tbuf[16];
	struct agentctl_ifsnap		 rx0;
	int				 rc, src;

	/* The last job's "after" is this one's "before" unless the server
	 * may have changed hands since. */
	if (exec_link_serve_due(&w->ls, s->serve_gen, s->generation, wl->tool,
	    wl->port) && (rc = exec_link_serve(w, s, wl, reason, rlen)) !=
	    EXEC_OK)
		return rc;
	rx0 = w->ls.rx;
	job_iperf_args(w, wl, job, args, buf);
	rc = exec_host_call(c, args, deadline, out, reason, rlen);
	rc = job_iperf_again(w, wl, c, s, args, buf, deadline, out, rc, &rx0,
	    reason, rlen);
	/* The next job's apply begins on the client while this one's
	 * counters are read on the server, ... */
	if (rc == EXEC_OK)
		job_next(w, c, s);
	/* The counters after the run, and a live server for the next job
	 * (after the link's last, the client restored meanwhile). */
	if (rc == EXEC_OK && w->next.none && !w->ex->keep)
		src = exec_link_serve_last(w, s, wl, tbuf, sizeof tbuf);
	else
		src = exec_link_serve(w, s, wl, tbuf, sizeof tbuf);
	if (src != EXEC_OK)
		log_warnx("%s: serve --keep after the run failed", s->cfg->name);
	/* ... and on the server once they are (while this job is judged and
	 * stored). */
	if (w->next.ap != NULL)
		exec_link_apply_server(w->next.ap);
	if (rc == EXEC_OK)
		rc = exec_plaus_iperf(w, wl, &out->u.iperf, &rx0, src == EXEC_OK ?
		    &w->ls.rx : NULL, reason, rlen);
	if (rc == EXEC_OK)
		iperf_samples(smp, &out->u.iperf);
	return rc;
}

int
exec_job_deadline_s(const struct executor *ex, const struct config_workload *wl)
{
	int	deadline;

	/* The plan's job timeout bounds the workload (unless it would not
	 * even leave the workload its own time). */
	deadline = wl->tool == CONFIG_TOOL_SCP ? ex->plan->job_timeout :
	    wl->time + EXEC_SLACK_S;
	if (wl->tool != CONFIG_TOOL_SCP && ex->plan->job_timeout >
	    wl->time && ex->plan->job_timeout < deadline)
		deadline = ex->plan->job_timeout;
	return deadline;
}

/* The workload: iperf through a server on the receiver, or scp. */
static int
job_workload(struct exec_worker *w, const struct config_workload *wl,
    struct exec_host *c, struct exec_host *s, const struct store_job *job,
    struct exec_samples *smp, struct agentctl_reply *out, char *reason,
    size_t rlen)
{
	int	deadline = exec_job_deadline_s(w->ex, wl) * 1000;

	if (wl->tool == CONFIG_TOOL_SCP)
		return job_scp(w, wl, c, s, job, deadline, smp, out, reason,
		    rlen);
	return job_iperf(w, wl, c, s, job, deadline, smp, out, reason, rlen);
}

/*
 * Takes the link from its last job's knobs to job's on both ends (ends[0]
 * the server, ends[1] the client): the apply begun by the last job (pre),
 * or one made now.  *wl: the job's workload.  An exec_outcome; ar holds
 * the replies either way.
 */
static int
job_apply(struct exec_worker *w, const struct store_job *job,
    struct exec_next *pre, struct exec_host *ends[2],
    struct agentctl_reply ar[2], const struct config_workload **wl,
    struct store_job_result *res, char *reason, size_t rlen)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	int				 rc;

	if (pre != NULL && pre->ap != NULL) {
		/* Begun by the last job: its outcome is this job's apply. */
		res->client_facts_id = pre->facts_id[0];
		res->server_facts_id = pre->facts_id[1];
		*wl = job_find_workload(ex, job, reason, rlen);
		rc = exec_link_apply_end(pre->ap, job, ends, ar, reason, rlen);
		pre->ap = NULL;
		return rc == EXEC_OK && exec_stopped(ex) ? EXEC_STOPPED : rc;
	}
	if ((*wl = job_find_workload(ex, job, reason, rlen)) == NULL)
		return EXEC_MEASURED;
	if (exec_host_ensure(ex, ends[1], w->st, l->client.ifname,
	    &res->client_facts_id, reason, rlen) == -1 ||
	    exec_host_ensure(ex, ends[0], w->st, l->server.ifname,
	    &res->server_facts_id, reason, rlen) == -1)
		return EXEC_INFRA;
	if (exec_stopped(ex))
		return EXEC_STOPPED;
	/* Both ends at once; the agent waits (up to the plan's settle_ms)
	 * for the link after a change, and only then. */
	return exec_link_apply(w, job, *wl, ends, ar, reason, rlen);
}

/*
 * Runs one claimed job with both hosts leased.  Fills res (state, reason,
 * samples, raws, facts ids) and returns an exec_outcome.  The knobs stay
 * in force for the link's next job (a transition from them) unless the
 * job failed: then both ends are restored at once (the link's state is
 * unknown), and the next job starts from the originals.
 */
int
exec_job_execute(struct exec_worker *w, const struct store_job *job,
    struct exec_next *pre, struct exec_samples *smp,
    struct store_job_result *res, char *reason, size_t rlen, char *inforce,
    size_t inforcelen)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	const struct config_workload	*wl = NULL;
	struct exec_host		*c = &ex->hosts[l->client.host_index];
	struct exec_host		*s = &ex->hosts[l->server.host_index];
	struct exec_host		*ends[2];
	struct agentctl_reply		 ar[2], wr;
	struct store_raw		*raw;
	int				 rc, begun;

	memset(ar, 0, sizeof ar);
	memset(&wr, 0, sizeof wr);
	ends[0] = s;
	ends[1] = c;
	begun = pre != NULL && pre->ap != NULL;
	rc = job_apply(w, job, pre, ends, ar, &wl, res, reason, rlen);
	/* A job whose workload is not in the plan never got near a host. */
	if (!begun && wl == NULL)
		return rc;
	if (rc != EXEC_OK)
		goto out;
	/* What is really in force, as the sender (and NAT host) report. */
	in_force_key(&job->knobs, &ar[1].u.apply.in_force, l->nat != NULL &&
	    strcmp(l->nat, s->cfg->name) == 0 ? &ar[0].u.apply.in_force :
	    &ar[1].u.apply.in_force, inforce, inforcelen);
	if (exec_stopped(ex)) {
		rc = EXEC_STOPPED;
		goto out;
	}
	/* The checks each end ran after its apply, or (when they cannot
	 * stand) both ends asked again now. */
	if ((rc = exec_pf_folded(ends, ar, reason, rlen)) == -1)
		rc = exec_job_preflight(w, job, wl, ends, reason, rlen);
	if (rc != EXEC_OK)
		goto out;
	rc = job_workload(w, wl, c, s, job, smp, &wr, reason, rlen);
	if (wr.raw != NULL) {
		raw = xcalloc(1, sizeof *raw);
		raw->name = "client.agent";
		raw->data = xstrdup(wr.raw);
		raw->len = wr.rawlen;
		res->raws = raw;
		res->nraws = 1;
	}
out:
	/* A stop restores at the link's end (the worker leaves).  A failed
	 * job's link is restored, a next job's apply begun meanwhile
	 * included: that job starts from the originals, applied anew. */
	if (rc != EXEC_OK && rc != EXEC_STOPPED) {
		exec_job_next_drop(w, &w->next);
		exec_link_end(w, 0);
	}
	agentctl_reply_free(&ar[0]);
	agentctl_reply_free(&ar[1]);
	agentctl_reply_free(&wr);
	return rc;
}
