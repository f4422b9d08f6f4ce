/*
 * executor_link: what a link leaves on its two hosts between its jobs (see
 * executor_int.h, struct exec_linkstate).  A link's first job saves each
 * end's original (agent `apply`, rollback timer armed); every later job is
 * a transition (`apply --reset-others`): the agent changes only the knobs
 * that differ from what is in force, puts back at the original every knob
 * the job does not set, re-arms the timer and reads everything back.  Both
 * ends are configured at once, each from its own thread on its own session
 * (the worker holds both hosts' leases).  The workload server runs for the
 * link's whole batch (`serve --keep` around each job, which restarts it if
 * it died).  exec_link_end() stops the server and restores both ends once:
 * when the link's work ends, is stopped or cancelled, and after any job
 * that failed (its state is then unknown).  A controller that dies between
 * two jobs leaves the rollback timers armed: they restore the hosts.
 * Also here: the wait for a link's hosts before a retry, and whether a
 * link shares a host with another.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentctl.h"
#include "executor.h"
#include "executor_int.h"
#include "log.h"
#include "util.h"

#define LINK_ARGS	40

/* One agent call of a pair that runs side by side (after the call first,
 * if any: its outcome in first_rc and first_err). */
struct link_call {
	struct exec_host	*h;
	const char		*first[4];
	int			 first_rc;
	char			 first_err[512];
	const char		*args[LINK_ARGS];
	char			 buf[5][16];	/* numbers for args */
	int			 timeout_ms;
	struct agentctl_reply	 r;
	int			 rc;
	char			 err[1024];
	/* After an apply that went through: the link's server started on
	 * this end (exec_link_serve()), NULL for none. */
	struct exec_worker	*serve_w;
	const struct config_workload *serve_wl;
	/* An apply: its --rollback-after, the controller's clock before it
	 * was sent, its arguments joined (the server end's: skipped, when
	 * its last apply stands for this one). */
	int			 rb_s;
	int64_t			 sent;
	char			 joined[512];
	int			 skip;
};

static void	serve_note(struct exec_worker *, struct exec_host *,
		    const struct config_workload *,
		    const struct agentctl_serve *);
static int	serve_keep(const struct exec_linkstate *,
		    const struct config_workload *);

static void *
link_call_run(void *arg)
{
	struct link_call	*c = arg;

	if (c->first[0] != NULL) {
		c->first_rc = exec_host_call(c->h, c->first, c->timeout_ms,
		    &c->r, c->first_err, sizeof c->first_err);
		agentctl_reply_free(&c->r);
	}
	if (c->args[0] == NULL) {
		c->rc = EXEC_OK;
		return NULL;
	}
	/* Asked for: stopped at the link's end even if the answer is lost. */
	if (c->serve_w != NULL)
		c->serve_w->ls.serving = 1;
	c->sent = util_now_ms();
	c->rc = exec_host_call(c->h, c->args, c->timeout_ms, &c->r, c->err,
	    sizeof c->err);
	/* The server the apply started once it went through; if it could
	 * not, a serve of its own (a failure leaves it to the workload,
	 * which reports it). */
	if (c->serve_w == NULL || c->rc != EXEC_OK)
		return NULL;
	if (c->r.u.apply.has_serve) {
		serve_note(c->serve_w, c->h, c->serve_wl, &c->r.u.apply.serve);
		return NULL;
	}
	if (c->r.u.apply.serve_err[0] != '\0')
		log_debug("%s: serve in the apply: %s", c->h->cfg->name,
		    c->r.u.apply.serve_err);
	if (exec_link_serve(c->serve_w, c->h, c->serve_wl, c->first_err,
	    sizeof c->first_err) != EXEC_OK)
		log_debug("%s: serve beside the apply: %s", c->h->cfg->name,
		    c->first_err);
	return NULL;
}

/* Runs c[0] and c[1] at once (c[0] from a thread of its own). */
static void
link_call_both(struct link_call c[2])
{
	pthread_t	t;

	if (pthread_create(&t, NULL, link_call_run, &c[0]) != 0) {
		link_call_run(&c[0]);
		link_call_run(&c[1]);
		return;
	}
	link_call_run(&c[1]);
	pthread_join(t, NULL);
}

static void
onoff(const struct knobs *k, enum knob id, const char *opt, const char **a,
    size_t *n)
{
	if (!knobs_isset(k, id))
		return;
	a[(*n)++] = opt;
	a[(*n)++] = k->value[id] ? "on" : "off";
}

void
exec_link_apply_args(const struct knobs *k, const char *ifname, int tso_here,
    const char *nat_here, int rollback_s, int settle_ms, const char **args,
    char (*buf)[16])
{
	size_t	n = 0;

	args[n++] = "apply";
	args[n++] = "--if";
	args[n++] = ifname;
	if (knobs_isset(k, KNOB_MTU)) {
		snprintf(buf[0], sizeof buf[0], "%d", k->value[KNOB_MTU]);
		args[n++] = "--mtu";
		args[n++] = buf[0];
	}
	if (tso_here)
		onoff(k, KNOB_TSO, "--tso", args, &n);
	onoff(k, KNOB_LRO, "--lro", args, &n);
	onoff(k, KNOB_RXCSUM, "--rxcsum", args, &n);
	onoff(k, KNOB_TXCSUM, "--txcsum", args, &n);
	if (nat_here != NULL) {
		args[n++] = "--nat";
		args[n++] = nat_here;
	}
	snprintf(buf[1], sizeof buf[1], "%d", rollback_s);
	args[n++] = "--rollback-after";
	args[n++] = buf[1];
	/* Whatever the link's last job left goes to what this one asks. */
	args[n++] = "--reset-others";
	if (settle_ms > 0) {
		snprintf(buf[2], sizeof buf[2], "%d", settle_ms);
		args[n++] = "--settle-max";
		args[n++] = buf[2];
	}
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

/* A pair of apply calls under way (exec_link_apply_begin()). */
struct exec_apply {
	struct exec_linkstate	*ls;
	struct link_call	 c[2];
	pthread_t		 t[2];
	int			 running[2];	/* t[i] runs c[i] */
	int			 done[2];	/* c[i] ran (here or in t[i]) */
};

/*
 * Right before the server end's call goes (i 0): a skip stands only while
 * the last serve --keep, which checked the receiver as its last apply
 * verified it, found it so; otherwise the apply runs after all, in this
 * job's attempt (an outside change between two jobs is put back).
 */
static void
apply_skip_settle(struct exec_apply *ap, int i)
{
	struct link_call	*c = &ap->c[0];

	if (i != 0 || !c->skip)
		return;
	if (ap->ls->rx_stands) {
		c->args[0] = NULL;
		return;
	}
	c->skip = 0;
	log_debug("%s: the receiver moved since its last apply (or cannot be "
	    "checked): applied again", c->h->cfg->name);
}

/* Starts end i's call from a thread of its own (or runs it here when no
 * thread can be had). */
static void
apply_start(struct exec_apply *ap, int i)
{
	apply_skip_settle(ap, i);
	if (pthread_create(&ap->t[i], NULL, link_call_run, &ap->c[i]) == 0)
		ap->running[i] = 1;
	else
		link_call_run(&ap->c[i]);
	ap->done[i] = 1;
}

/*
 * Whether the server end's apply c can be skipped: the link is alone on its
 * hosts, its last apply there went through fit on this session, asked the
 * same, and the rollback timer it armed outlasts this job's apply, workload
 * and serve with a margin (so that the apply of the job after it re-arms
 * the timer in time).  Nothing changes there then; the serve --keep after
 * each run checks the receiver as that apply verified it, and a skip does
 * not stand when it found it moved (apply_skip_settle()).
 */
static int
apply_skip(const struct exec_worker *w, const struct config_workload *wl,
    struct link_call *c)
{
	const struct exec_linkstate	*ls = &w->ls;
	int64_t				 need;
	size_t				 i, off = 0;

	for (i = 0; c->args[i] != NULL && off < sizeof c->joined; i++)
		off += (size_t)snprintf(c->joined + off,
		    sizeof c->joined - off, "%s ", c->args[i]);
	if (off >= sizeof c->joined || !w->pipe || !ls->srv_ok ||
	    c->serve_w != NULL || ls->srv_gen != c->h->generation ||
	    strcmp(ls->srv_args, c->joined) != 0)
		return 0;
	need = (int64_t)(exec_job_deadline_s(w->ex, wl) + 10) * 1000 +
	    2 * EXEC_CALL_MS;
	return util_now_ms() + need <= ls->srv_until;
}

/* After the server end's apply: what a later job may skip on. */
static void
apply_note(struct exec_linkstate *ls, const struct link_call *c)
{
	const struct agentctl_apply	*a = &c->r.u.apply;

	if (c->skip)
		return;
	ls->srv_ok = c->args[0] != NULL && c->rc == EXEC_OK &&
	    c->r.has_result && a->nmismatch == 0 && a->rollback_at > 0 &&
	    (!a->has_preflight || a->preflight.ok);
	if (!ls->srv_ok)
		return;
	snprintf(ls->srv_args, sizeof ls->srv_args, "%s", c->joined);
	ls->srv_apply = *a;
	ls->srv_until = c->sent + (int64_t)c->rb_s * 1000;
	ls->srv_gen = c->h->generation;
}

/* The reply a skipped apply stands on: the last one, with nothing changed
 * and no wait. */
static void
apply_stand_in(const struct exec_linkstate *ls, struct agentctl_reply *r)
{
	memset(r, 0, sizeof *r);
	r->cmd = AGENTCTL_APPLY;
	r->has_result = 1;
	r->u.apply = ls->srv_apply;
	r->u.apply.nchanged = 0;
	r->u.apply.settle_ms = -1;
	r->u.apply.link_up = -1;
}

/* The server started by the apply itself, its arguments after the n
 * the apply has (after apply_skip(): not part of what a later apply
 * compares). */
static void
apply_serve_args(struct link_call *c, const struct exec_worker *w,
    const struct config_workload *wl, size_t n)
{
	c->args[n++] = "--serve";
	c->args[n++] = config_tool_name(wl->tool);
	c->args[n++] = "--serve-bind";
	c->args[n++] = w->link->server.address;
	if (wl->port != 0) {
		snprintf(c->buf[3], sizeof c->buf[3], "%d", wl->port);
		c->args[n++] = "--serve-port";
		c->args[n++] = c->buf[3];
	}
	if (serve_keep(&w->ls, wl))
		c->args[n++] = "--serve-keep";
	c->args[n] = NULL;
}

struct exec_apply *
exec_link_apply_begin(struct exec_worker *w, const struct store_job *job,
    const struct config_workload *wl, struct exec_host *ends[2],
    int server_later)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	struct exec_apply		*ap;
	struct link_call		*c;
	size_t				 n;
	int				 i, rb;

	ap = xcalloc(1, sizeof *ap);
	ap->ls = &w->ls;
	c = ap->c;
	/* The timer outlives this job's apply, preflight and workload; the
	 * next job's apply re-arms it. */
	rb = ex->plan->job_timeout + (wl->tool == CONFIG_TOOL_SCP ? 0 :
	    wl->time) + 60;
	for (i = 0; i < 2; i++) {
		const struct config_endpoint *ep = i == 0 ? &l->server :
		    &l->client;
		int	is_nat = l->nat != NULL &&
		    strcmp(l->nat, ends[i]->cfg->name) == 0;

		c[i].h = ends[i];
		c[i].timeout_ms = EXEC_CALL_MS;
		exec_link_apply_args(&job->knobs, ep->ifname, i == 1 ||
		    ex->plan->tso_on == CONFIG_TSO_ON_BOTH,
		    is_nat && knobs_isset(&job->knobs, KNOB_NAT) ?
		    knobs_nat_name(job->knobs.value[KNOB_NAT]) : NULL, rb,
		    ex->plan->settle_ms, c[i].args, c[i].buf);
		for (n = 0; c[i].args[n] != NULL; n++)
			;
		exec_pf_apply_args(ex, l, job, wl, i, c[i].args, &n,
		    c[i].buf[4], sizeof c[i].buf[4]);
		/* The link's first job: its server starts right after the
		 * receiver's apply, while the sender's runs (the counters it
		 * reads are a floor for the check: a ping after them only
		 * adds to what the receiver got).  Not beside a begun apply
		 * (server_later): the worker reads the link's state then. */
		if (i == 0 && !server_later && wl->tool != CONFIG_TOOL_SCP &&
		    exec_link_serve_due(&w->ls, ends[0]->serve_gen,
		    ends[0]->generation, wl->tool, wl->port)) {
			c[i].serve_w = w;
			c[i].serve_wl = wl;
		}
		c[i].rb_s = rb;
		/* Settled when the call goes (apply_skip_settle()). */
		if (i == 0 && apply_skip(w, wl, &c[i]))
			c[i].skip = 1;
		if (c[i].serve_w != NULL)
			apply_serve_args(&c[i], w, wl, n);
		/* Asked: from now on it must be restored at the end. */
		w->ls.applied[i] = 1;
		ends[i]->used = 1;
	}
	apply_start(ap, 1);
	if (!server_later)
		apply_start(ap, 0);
	return ap;
}

void
exec_link_apply_server(struct exec_apply *ap)
{
	if (!ap->done[0])
		apply_start(ap, 0);
}

int
exec_link_apply_end(struct exec_apply *ap, const struct store_job *job,
    struct exec_host *ends[2], struct agentctl_reply ar[2], char *reason,
    size_t rlen)
{
	struct link_call	*c = ap->c;
	int			 i, rc = EXEC_OK;

	for (i = 0; i < 2; i++) {
		if (!ap->done[i]) {
			apply_skip_settle(ap, i);
			link_call_run(&c[i]);
		}
		if (ap->running[i])
			pthread_join(ap->t[i], NULL);
	}
	apply_note(ap->ls, &c[0]);
	if (c[0].skip)
		apply_stand_in(ap->ls, &c[0].r);
	/* The client's trouble first: it is the sender. */
	for (i = 1; i >= 0; i--) {
		/* Applied, but unfit: exec_pf_folded() judges. */
		if (c[i].rc != EXEC_OK && c[i].r.has_result &&
		    c[i].r.u.apply.has_preflight &&
		    c[i].r.u.apply.nmismatch == 0 &&
		    strcmp(c[i].r.error_class, "preflight") == 0)
			c[i].rc = EXEC_OK;
		if (c[i].rc == EXEC_OK || rc != EXEC_OK)
			continue;
		rc = c[i].rc;
		if (rc == EXEC_MEASURED && c[i].r.has_result)
			mismatch_reason(ends[i]->cfg->name, &c[i].r.u.apply,
			    reason, rlen);
		else
			util_seterr(reason, rlen, "%s", c[i].err);
	}
	for (i = 0; i < 2; i++) {
		if (job != NULL && c[i].skip)
			log_debug("job %lld (%s %s): %s %s: apply skipped, the "
			    "last one stands", (long long)job->id, job->link,
			    job->knobs_key, ends[i]->cfg->name,
			    c[i].r.u.apply.ifname);
		else if (job != NULL && c[i].rc == EXEC_OK && c[i].r.has_result)
			log_debug("job %lld (%s %s): %s %s: %zu knob(s) "
			    "changed, settled in %lld ms", (long long)job->id,
			    job->link, job->knobs_key, ends[i]->cfg->name,
			    c[i].r.u.apply.ifname, c[i].r.u.apply.nchanged,
			    c[i].r.u.apply.settle_ms);
		ar[i] = c[i].r;
	}
	free(ap);
	return rc;
}

int
exec_link_apply(struct exec_worker *w, const struct store_job *job,
    const struct config_workload *wl, struct exec_host *ends[2],
    struct agentctl_reply ar[2], char *reason, size_t rlen)
{
	return exec_link_apply_end(exec_link_apply_begin(w, job, wl, ends, 0),
	    job, ends, ar, reason, rlen);
}

/* Whether the server end needs a `serve --keep` before the workload: the
 * link has no counters of its own from the last one, or another link (or
 * a new session) may have replaced the server since.  Pure. */
int
exec_link_serve_due(const struct exec_linkstate *ls, unsigned serve_gen,
    unsigned host_gen, enum config_tool tool, int port)
{
	return !ls->have_rx || ls->serve_gen != serve_gen ||
	    ls->host_gen != host_gen || ls->tool != tool || ls->port != port;
}

/* What the link's server end answered to a serve (NULL: it failed). */
static void
serve_note(struct exec_worker *w, struct exec_host *s,
    const struct config_workload *wl, const struct agentctl_serve *sv)
{
	struct exec_linkstate	*ls = &w->ls;

	ls->serving = 1;
	ls->have_rx = sv != NULL;
	ls->rx_stands = sv != NULL && sv->stands;
	if (sv == NULL)
		return;
	log_debug("%s: %s server on %s port %lld %s (pid %lld)",
	    s->cfg->name, sv->tool, sv->bind, sv->port, sv->kept == 1 ?
	    "kept" : "started", sv->pid);
	ls->rx = sv->ifstats;
	ls->served_port = (int)sv->port;
	if (sv->kept != 1)
		s->serve_gen++;
	ls->serve_gen = s->serve_gen;
	ls->host_gen = s->generation;
	ls->started = 1;
	ls->tool = wl->tool;
	ls->port = wl->port;
}

/* Whether the link's next serve may keep the server it started. */
static int
serve_keep(const struct exec_linkstate *ls, const struct config_workload *wl)
{
	return ls->started && ls->tool == wl->tool && ls->port == wl->port;
}

int
exec_link_serve(struct exec_worker *w, struct exec_host *s,
    const struct config_workload *wl, char *reason, size_t rlen)
{
	const struct config_link	*l = w->link;
	struct exec_linkstate		*ls = &w->ls;
	struct agentctl_reply		 r;
	const char			*args[16];
	char				 portbuf[16];
	size_t				 n = 0;
	int				 rc;

	args[n++] = "serve";
	args[n++] = "--tool";
	args[n++] = config_tool_name(wl->tool);
	args[n++] = "--bind";
	args[n++] = l->server.address;
	/* The receiver's counters, for the check. */
	args[n++] = "--if";
	args[n++] = l->server.ifname;
	/* Only a server this batch started serves on: one left by a
	 * controller that died may still be busy with its last test. */
	if (serve_keep(ls, wl))
		args[n++] = "--keep";
	if (wl->port != 0) {
		snprintf(portbuf, sizeof portbuf, "%d", wl->port);
		args[n++] = "--port";
		args[n++] = portbuf;
	}
	args[n] = NULL;
	ls->serving = 1;
	s->used = 1;
	rc = exec_host_call(s, args, EXEC_CALL_MS, &r, reason, rlen);
	serve_note(w, s, wl, rc == EXEC_OK ? &r.u.serve : NULL);
	agentctl_reply_free(&r);
	return rc;
}

/* Whether two inventory hosts are one machine (one agent, one lease). */
static int
same_machine(const struct config_host *a, const struct config_host *b)
{
	return a == b || (strcmp(a->address, b->address) == 0 &&
	    a->ssh.port == b->ssh.port);
}

/*
 * Whether l's two hosts are two machines that no other link of the
 * executor uses, even under another inventory name: then each end's
 * restore may give the host's lease back, the other end's restore and
 * other links' work needing none of it.  Otherwise the lease goes at
 * the executor's end, after every restore.
 */
static int
link_hosts_own(const struct executor *ex, const struct config_link *l)
{
	const struct config_host	*h = ex->inv->hosts;
	const struct config_host	*a = &h[l->client.host_index];
	const struct config_host	*b = &h[l->server.host_index];
	size_t				 j;

	if (same_machine(a, b))
		return 0;
	for (j = 0; j < ex->nlinks; j++) {
		const struct config_link *o = ex->links[j];

		if (o == l)
			continue;
		if (same_machine(&h[o->client.host_index], a) ||
		    same_machine(&h[o->client.host_index], b) ||
		    same_machine(&h[o->server.host_index], a) ||
		    same_machine(&h[o->server.host_index], b))
			return 0;
	}
	return 1;
}

/* The end's restore: its server stopped first (the server end's, while
 * the link serves), its lease given back after it (last). */
static void
link_end_args(struct link_call *c, const char *ifname, int applied,
    int serving, int release)
{
	size_t	n = 0;

	if (applied) {
		c->args[n++] = "restore";
		c->args[n++] = "--if";
		c->args[n++] = ifname;
		if (serving)
			c->args[n++] = "--serve-stop";
		if (release && c->h->host != NULL &&
		    host_lease_held(c->h->host))
			c->args[n++] = "--release";
	} else if (serving) {
		c->first[0] = "serve";
		c->first[1] = "stop";
	}
	c->args[n] = NULL;
}

int
exec_link_serve_last(struct exec_worker *w, struct exec_host *s,
    const struct config_workload *wl, char *reason, size_t rlen)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	struct link_call		 c;
	pthread_t			 t;
	int				 rc, threaded;

	if (!w->ls.applied[1])
		return exec_link_serve(w, s, wl, reason, rlen);
	memset(&c, 0, sizeof c);
	c.h = &ex->hosts[l->client.host_index];
	c.timeout_ms = EXEC_CALL_MS;
	link_end_args(&c, l->client.ifname, 1, 0, link_hosts_own(ex, l));
	threaded = pthread_create(&t, NULL, link_call_run, &c) == 0;
	rc = exec_link_serve(w, s, wl, reason, rlen);
	if (threaded)
		pthread_join(t, NULL);
	else
		link_call_run(&c);
	if (c.rc == EXEC_OK) {
		/* Restored: nothing for the drain's end either. */
		w->ls.applied[1] = 0;
		c.h->used = 0;
		if (c.r.u.restore.released == 1)
			host_lease_released(c.h->host);
	} else
		log_debug("%s: restore after the link's last job: %s (again "
		    "at its end)", c.h->cfg->name, c.err);
	agentctl_reply_free(&c.r);
	return rc;
}

int
exec_link_end(struct exec_worker *w, int last)
{
	struct executor			*ex = w->ex;
	const struct config_link	*l = w->link;
	struct exec_linkstate		*ls = &w->ls;
	struct exec_host		*ends[2];
	struct link_call		 c[2];
	const char			*ifs[2] = { l->server.ifname,
					    l->client.ifname };
	int				 i, failures = 0;

	ends[0] = &ex->hosts[l->server.host_index];
	ends[1] = &ex->hosts[l->client.host_index];
	/* Both ends at once, one call each. */
	for (i = 0; i < 2; i++) {
		memset(&c[i], 0, sizeof c[i]);
		c[i].h = ends[i];
		c[i].timeout_ms = EXEC_CALL_MS;
		link_end_args(&c[i], ifs[i], ls->applied[i], i == 0 &&
		    ls->serving, last && link_hosts_own(ex, l));
	}
	if (c[0].args[0] != NULL || c[0].first[0] != NULL) {
		if (c[1].args[0] != NULL)
			link_call_both(c);
		else
			link_call_run(&c[0]);
	} else if (c[1].args[0] != NULL)
		link_call_run(&c[1]);
	if (c[0].first[0] != NULL && c[0].first_rc != EXEC_OK)
		log_warnx("%s: serve stop failed: %s", ends[0]->cfg->name,
		    c[0].first_err);
	/* Stopped, or in doubt: the next serve on the host is no --keep. */
	if (ls->serving)
		ends[0]->serve_gen++;
	for (i = 0; i < 2; i++) {
		if (!ls->applied[i])
			continue;
		if (c[i].rc == EXEC_OK && c[i].r.u.restore.released == 1)
			host_lease_released(c[i].h->host);
		/* A restore that failed is tried again at the drain's end
		 * (the host stays used); the rollback timer is the last
		 * resort.  One that went through spares the drain's end a
		 * round trip (another link on the host marks it again). */
		ends[i]->used = c[i].rc != EXEC_OK;
		if (c[i].rc != EXEC_OK) {
			log_warnx("%s", c[i].err);
			failures++;
		}
		agentctl_reply_free(&c[i].r);
	}
	memset(ls, 0, sizeof *ls);
	return failures;
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
void
exec_link_wait(struct exec_worker *w)
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
	exec_lease(ex, l->client.host_index, l->server.host_index);
	for (k = 0; k < 2; k++) {
		for (;;) {
			ok = exec_host_alive(h[k], ex->connect_timeout_s *
			    1000, err, sizeof err);
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
	exec_unlease(ex, l->client.host_index, l->server.host_index);
}

/* Whether link i's hosts are no other link's: its worker may then hold
 * their leases from one job into the next (job_next(), executor_job.c). */
int
exec_link_alone(const struct executor *ex, size_t i)
{
	const struct config_link	*a = ex->links[i], *b;
	size_t				 j;

	for (j = 0; j < ex->nlinks; j++) {
		b = ex->links[j];
		if (j != i && (a->client.host_index == b->client.host_index ||
		    a->client.host_index == b->server.host_index ||
		    a->server.host_index == b->client.host_index ||
		    a->server.host_index == b->server.host_index))
			return 0;
	}
	return 1;
}
