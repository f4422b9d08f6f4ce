/*
 * executor_preflight: before every measurement, once the job's knobs are in
 * force (so the MTU is the job's), both ends of the link are asked whether
 * the lab is fit to measure (agent `preflight`, PROTOCOL.md): link up with
 * carrier, speed and duplex as the inventory declares, the knobs in force
 * as asked and nothing else left changed, no NAT left over, a
 * don't-fragment ping from the client to the server at the MTU (its echo
 * reply checks the way back), and for scp the server's sshd answering.
 * A failure is the lab's, not the system under test's: the job fails as
 * an infrastructure failure with the agent's words, and stores no sample.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "agentctl.h"
#include "executor.h"
#include "executor_int.h"
#include "log.h"
#include "util.h"

#define PF_ARGS		32
#define PF_SSH_PORT	"22"	/* the agent's scp talks to the default port */

/* The lowest speed the inventory declares for the link's two NICs; 0 when
 * neither declares one (then only link up and duplex are checked). */
static int
pf_speed(const struct config_link *l, const struct config_inventory *inv)
{
	const struct config_endpoint *ep[2] = { &l->client, &l->server };
	const struct config_nic *nic;
	int	 i, speed = 0;

	for (i = 0; i < 2; i++) {
		nic = config_host_nic(&inv->hosts[ep[i]->host_index],
		    ep[i]->ifname);
		if (nic != NULL && nic->speed_mbps > 0 &&
		    (speed == 0 || nic->speed_mbps < speed))
			speed = nic->speed_mbps;
	}
	return speed;
}

static void
pf_onoff(const struct knobs *k, enum knob id, const char *opt,
    const char **args, size_t *n)
{
	if (!knobs_isset(k, id))
		return;
	args[(*n)++] = opt;
	args[(*n)++] = k->value[id] ? "on" : "off";
}

/*
 * The preflight argv of one end (i: 0 the server, 1 the client): the same
 * knobs its apply was given, NAT off on the end that is not the NAT host
 * when the job sets NAT, the peer for the path check on the client.
 */
static void
pf_args(const struct executor *ex, const struct config_link *l,
    const struct store_job *job, const struct config_workload *wl,
    const struct exec_host *h, int i, int speed, const char **args,
    char *mtub, size_t mtulen, char *spdb, size_t spdlen)
{
	const struct knobs	*k = &job->knobs;
	size_t			 n = 0;
	int			 is_nat = l->nat != NULL &&
				    strcmp(l->nat, h->cfg->name) == 0;

	args[n++] = "preflight";
	args[n++] = "--if";
	args[n++] = i == 0 ? l->server.ifname : l->client.ifname;
	if (i == 1) {
		args[n++] = "--peer";
		args[n++] = l->server.address;
		if (wl->tool == CONFIG_TOOL_SCP) {
			args[n++] = "--port";
			args[n++] = PF_SSH_PORT;
		}
	}
	if (knobs_isset(k, KNOB_MTU)) {
		snprintf(mtub, mtulen, "%d", k->value[KNOB_MTU]);
		args[n++] = "--mtu";
		args[n++] = mtub;
	}
	if (speed > 0) {
		snprintf(spdb, spdlen, "%d", speed);
		args[n++] = "--speed";
		args[n++] = spdb;
	}
	if (i == 1 || ex->plan->tso_on == CONFIG_TSO_ON_BOTH)
		pf_onoff(k, KNOB_TSO, "--tso", args, &n);
	pf_onoff(k, KNOB_LRO, "--lro", args, &n);
	pf_onoff(k, KNOB_RXCSUM, "--rxcsum", args, &n);
	pf_onoff(k, KNOB_TXCSUM, "--txcsum", args, &n);
	if (knobs_isset(k, KNOB_NAT)) {
		args[n++] = "--nat";
		args[n++] = is_nat ? knobs_nat_name(k->value[KNOB_NAT]) : "off";
	}
	args[n] = NULL;
}

/* "preflight failed on em-b em0: link: ...; path: ..." from the result's
 * failed checks (or the agent's error when there was no result). */
static void
pf_reason(const struct exec_host *h, const char *ifname,
    const struct agentctl_preflight *pf, const char *err, char *reason,
    size_t rlen)
{
	size_t	 i, off;
	int	 first = 1;

	off = (size_t)snprintf(reason, rlen, "preflight failed on %s %s:",
	    h->cfg->name, ifname);
	for (i = 0; pf != NULL && i < pf->nchecks && off < rlen; i++) {
		const struct agentctl_check *c = &pf->checks[i];

		if (c->ok)
			continue;
		off += (size_t)snprintf(reason + off, rlen - off, "%s %s: %s",
		    first ? "" : ";", c->name, c->detail);
		first = 0;
	}
	if (first && off < rlen)
		util_seterr(reason + off, rlen - off, " %s", err);
}

/* One end's call; the two ends run side by side (their own sessions). */
struct pf_end {
	struct executor			*ex;
	const struct config_link	*l;
	const struct store_job		*job;
	const struct config_workload	*wl;
	struct exec_host		*h;
	int				 i;	/* 0 the server, 1 the client */
	int				 speed;
	int				 rc;	/* EXEC_OK, _PREFLIGHT, _INFRA */
	double				 agent_ms;
	char				 reason[STORE_REASON_MAX];
};

static void *
pf_end_run(void *arg)
{
	struct pf_end		*e = arg;
	struct agentctl_reply	 r;
	const char		*args[PF_ARGS];
	char			 mtub[16], spdb[16], err[1024];

	pf_args(e->ex, e->l, e->job, e->wl, e->h, e->i, e->speed, args, mtub,
	    sizeof mtub, spdb, sizeof spdb);
	e->rc = exec_host_call(e->h, args, EXEC_CALL_MS, &r, err, sizeof err);
	if (r.has_result && r.cmd == AGENTCTL_PREFLIGHT)
		e->agent_ms = r.u.preflight.ms;
	/* The agent judged (or could not read its own arguments): the lab
	 * is unfit; anything else is the transport's. */
	if (e->rc != EXEC_OK && (strcmp(r.error_class, "preflight") == 0 ||
	    strcmp(r.error_class, "usage") == 0)) {
		pf_reason(e->h, args[2], r.has_result ? &r.u.preflight : NULL,
		    err, e->reason, sizeof e->reason);
		e->rc = EXEC_PREFLIGHT;
	} else if (e->rc != EXEC_OK) {
		util_seterr(e->reason, sizeof e->reason, "preflight: %s", err);
		e->rc = EXEC_INFRA;
	}
	agentctl_reply_free(&r);
	return NULL;
}

/*
 * Runs the preflight on both ends of the job's link (ends[0] the server,
 * ends[1] the client), side by side.  EXEC_OK; EXEC_PREFLIGHT with the
 * reason when an end is unfit (the client's reason first); EXEC_INFRA when
 * an end could not be asked (SSH, agent) and none was found unfit.
 */
int
exec_job_preflight(struct exec_worker *w, const struct store_job *job,
    const struct config_workload *wl, struct exec_host *ends[2],
    char *reason, size_t rlen)
{
	struct pf_end	 e[2];
	pthread_t	 t;
	int64_t		 t0 = util_now_ms();
	int		 i, threaded, rc = EXEC_OK;

	for (i = 0; i < 2; i++) {
		memset(&e[i], 0, sizeof e[i]);
		e[i].ex = w->ex;
		e[i].l = w->link;
		e[i].job = job;
		e[i].wl = wl;
		e[i].h = ends[i];
		e[i].i = i;
		e[i].speed = pf_speed(w->link, w->ex->inv);
	}
	threaded = pthread_create(&t, NULL, pf_end_run, &e[0]) == 0;
	pf_end_run(&e[1]);
	if (threaded)
		pthread_join(t, NULL);
	else
		pf_end_run(&e[0]);
	for (i = 1; i >= 0; i--)
		if (e[i].rc == EXEC_PREFLIGHT ||
		    (e[i].rc == EXEC_INFRA && rc == EXEC_OK)) {
			if (rc != EXEC_PREFLIGHT)
				util_seterr(reason, rlen, "%s", e[i].reason);
			rc = rc == EXEC_PREFLIGHT ? rc : e[i].rc;
		}
	log_debug("job %lld (%s %s): preflight %s in %lld ms (agent %.1f ms "
	    "on %s, %.1f ms on %s)", (long long)job->id, job->link,
	    job->knobs_key, rc == EXEC_OK ? "ok" : "failed",
	    (long long)(util_now_ms() - t0), e[1].agent_ms,
	    ends[1]->cfg->name, e[0].agent_ms, ends[0]->cfg->name);
	return rc;
}

void
exec_pf_apply_args(const struct executor *ex, const struct config_link *l,
    const struct store_job *job, const struct config_workload *wl, int i,
    const char **args, size_t *n, char *spdb, size_t spdlen)
{
	int	speed = pf_speed(l, ex->inv);

	args[(*n)++] = "--preflight";
	if (i == 1) {
		args[(*n)++] = "--peer";
		args[(*n)++] = l->server.address;
		if (wl->tool == CONFIG_TOOL_SCP) {
			args[(*n)++] = "--port";
			args[(*n)++] = PF_SSH_PORT;
		}
	}
	if (speed > 0) {
		snprintf(spdb, spdlen, "%d", speed);
		args[(*n)++] = "--speed";
		args[(*n)++] = spdb;
	}
	/* The end that is not the NAT host must have none (its apply is
	 * given no --nat: it goes back to its original). */
	if (knobs_isset(&job->knobs, KNOB_NAT) && (l->nat == NULL ||
	    strcmp(l->nat, ex->inv->hosts[i == 0 ? l->server.host_index :
	    l->client.host_index].name) != 0)) {
		args[(*n)++] = "--expect-nat";
		args[(*n)++] = "off";
	}
	args[*n] = NULL;
}

int
exec_pf_folded(struct exec_host *ends[2], const struct agentctl_reply ar[2],
    char *reason, size_t rlen)
{
	int	i;

	/* The client's checks (the link, the ping to the server) ran while
	 * the server's apply did: they stand only if it changed nothing. */
	if (!ar[0].has_result || !ar[1].has_result ||
	    !ar[0].u.apply.has_preflight || !ar[1].u.apply.has_preflight ||
	    ar[0].u.apply.nchanged != 0)
		return -1;
	for (i = 1; i >= 0; i--)
		if (!ar[i].u.apply.preflight.ok) {
			pf_reason(ends[i], ar[i].u.apply.ifname,
			    &ar[i].u.apply.preflight, ar[i].error_message,
			    reason, rlen);
			return EXEC_PREFLIGHT;
		}
	log_debug("%s, %s: preflight in apply ok (agent %.1f ms, %.1f ms)",
	    ends[1]->cfg->name, ends[0]->cfg->name,
	    ar[1].u.apply.preflight.ms, ar[0].u.apply.preflight.ms);
	return EXEC_OK;
}
