/*
 * executor_pool: the executor's hosts (see executor_int.h).  One exec_host
 * per inventory host holds its session (a struct host from host.c) for the
 * executor's whole life, so drain after drain reuses the connection and
 * the deployed agent; a session the ssh module had to re-establish (the
 * host rebooted, sshd restarted) is noticed by host_sync() and the agent
 * deployed again.  Hosts are leased two at a time under the executor's
 * mutex: everything a worker does on a host it does while holding that
 * lease, so a session is never used by two threads at once.  Before the
 * workers start, exec_pool_connect() opens every host's session from a
 * thread of its own (no leases needed: nobody else runs yet).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentctl.h"
#include "executor.h"
#include "executor_int.h"
#include "host.h"
#include "log.h"
#include "util.h"

#define EXEC_DEPLOY_MS	300000

void
exec_pool_init(struct executor *ex)
{
	size_t	i;

	ex->hosts = xcalloc(ex->inv->nhosts, sizeof *ex->hosts);
	for (i = 0; i < ex->inv->nhosts; i++)
		ex->hosts[i].cfg = &ex->inv->hosts[i];
}

/* Forgets the facts exec_pool_connect() read ahead for h. */
static void
pool_prefacts_drop(struct exec_host *h)
{
	if (h->pre_have)
		agentctl_reply_free(&h->pre_facts);
	h->pre_have = 0;
}

/* Gives back h's lease (the drain restored the host) and closes it. */
static void *
pool_close_main(void *arg)
{
	struct exec_host	*h = arg;
	char			 e[1024];

	if (h->host != NULL && host_lease_release(h->host, e, sizeof e) == -1)
		log_warnx("%s: lease release: %s", h->cfg->name, e);
	host_close(h->host);
	h->host = NULL;
	pool_prefacts_drop(h);
	return NULL;
}

/* Every host at once: a run's end waits one round trip, not one a host
 * (a host whose thread cannot be started is closed from here). */
void
exec_pool_free(struct executor *ex)
{
	pthread_t	*t;
	int		*ok;
	size_t		 i;

	if (ex->hosts == NULL)
		return;
	t = xcalloc(ex->inv->nhosts > 0 ? ex->inv->nhosts : 1, sizeof *t);
	ok = xcalloc(ex->inv->nhosts > 0 ? ex->inv->nhosts : 1, sizeof *ok);
	for (i = 0; i < ex->inv->nhosts; i++)
		if (ex->hosts[i].host != NULL)
			ok[i] = pthread_create(&t[i], NULL, pool_close_main,
			    &ex->hosts[i]) == 0;
	for (i = 0; i < ex->inv->nhosts; i++) {
		if (ok[i])
			pthread_join(t[i], NULL);
		else
			pool_close_main(&ex->hosts[i]);
	}
	free(ok);
	free(t);
	free(ex->hosts);
	ex->hosts = NULL;
}

void
exec_pool_reset(struct executor *ex, int goon)
{
	size_t	i;

	for (i = 0; i < ex->inv->nhosts; i++) {
		ex->hosts[i].busy = 0;
		ex->hosts[i].down = 0;
		ex->hosts[i].pre_failed = 0;
		pool_prefacts_drop(&ex->hosts[i]);
		if (goon)
			continue;
		ex->hosts[i].used = 0;
		ex->hosts[i].nfacts = 0;
		ex->hosts[i].probe = 1;
	}
}

struct pool_conn {
	struct executor		*ex;
	struct exec_host	*h;
	const char		*ifname;	/* its first link's end */
	int			 facts;		/* read them too */
	pthread_t		 thread;
};

/* Whether h's facts for ifname are recorded in this run already. */
static int
pool_facts_known(const struct exec_host *h, const char *ifname)
{
	size_t	i;

	if (h->host == NULL || host_generation(h->host) != h->generation)
		return 0;
	for (i = 0; i < h->nfacts; i++)
		if (strcmp(h->facts_if[i], ifname) == 0)
			return 1;
	return 0;
}

/*
 * Connects h and reads the facts its link's first job needs (a drain after
 * a reboot has none yet): the preflight records them without a round trip
 * of its own.  A facts call that fails is left to the preflight's own,
 * which says what is wrong.
 */
static void *
pool_connect_main(void *arg)
{
	struct pool_conn	*pc = arg;
	struct exec_host	*h = pc->h;
	char			 e[1024];

	if (exec_host_connect(pc->ex, h, h->pre_err, sizeof h->pre_err) == -1) {
		h->pre_failed = 1;
		return NULL;
	}
	pool_prefacts_drop(h);
	if (!pc->facts || pool_facts_known(h, pc->ifname))
		return NULL;
	/* Read by the session's open (host_opts.facts_if), else now. */
	if (host_facts(h->host, pc->ifname, EXEC_CALL_MS, &h->pre_facts, e,
	    sizeof e) == -1) {
		agentctl_reply_free(&h->pre_facts);
		return NULL;
	}
	h->pre_have = 1;
	h->pre_gen = host_generation(h->host);
	snprintf(h->pre_if, sizeof h->pre_if, "%s", pc->ifname);
	return NULL;
}

/*
 * Building the agent on a fresh host takes seconds (20 s on a loaded
 * machine), and a link's first job needs both ends: connecting them one
 * after the other would make it wait twice that.  A host whose thread
 * cannot be started is simply connected later, at its first use.
 */
void
exec_pool_connect(struct executor *ex, int facts)
{
	struct pool_conn	*pc;
	size_t			 i, k, n = 0, started;
	size_t			 idx[2];

	pc = xcalloc(ex->inv->nhosts > 0 ? ex->inv->nhosts : 1, sizeof *pc);
	for (i = 0; i < ex->nlinks; i++) {
		const char *ifs[2] = { ex->links[i]->client.ifname,
		    ex->links[i]->server.ifname };

		idx[0] = ex->links[i]->client.host_index;
		idx[1] = ex->links[i]->server.host_index;
		for (k = 0; k < 2; k++) {
			size_t	j;

			for (j = 0; j < n; j++)
				if (pc[j].h == &ex->hosts[idx[k]])
					break;
			if (j < n)
				continue;
			pc[n].ex = ex;
			pc[n].h = &ex->hosts[idx[k]];
			pc[n].ifname = ifs[k];
			pc[n].facts = facts;
			n++;
		}
	}
	for (started = 0; started < n; started++)
		if (pthread_create(&pc[started].thread, NULL,
		    pool_connect_main, &pc[started]) != 0)
			break;
	for (i = 0; i < started; i++)
		pthread_join(pc[i].thread, NULL);
	free(pc);
}

/*
 * Taking both hosts at once under one mutex means two links sharing a host
 * can never deadlock.
 */
void
exec_lease(struct executor *ex, size_t a, size_t b)
{
	pthread_mutex_lock(&ex->mtx);
	while (ex->hosts[a].busy || ex->hosts[b].busy)
		pthread_cond_wait(&ex->cond, &ex->mtx);
	ex->hosts[a].busy = ex->hosts[b].busy = 1;
	pthread_mutex_unlock(&ex->mtx);
}

void
exec_unlease(struct executor *ex, size_t a, size_t b)
{
	pthread_mutex_lock(&ex->mtx);
	ex->hosts[a].busy = ex->hosts[b].busy = 0;
	pthread_cond_broadcast(&ex->cond);
	pthread_mutex_unlock(&ex->mtx);
}

int
exec_pool_keep(struct executor *ex, size_t a, size_t b, int need_s,
    char *err, size_t errlen)
{
	struct exec_host	*h[2] = { &ex->hosts[a], &ex->hosts[b] };
	int			 k;

	for (k = 0; k < (a == b ? 1 : 2); k++)
		if (h[k]->host != NULL && host_lease_keep(h[k]->host, need_s,
		    err, errlen) == -1)
			return -1;
	return 0;
}

/* The end of h's first link: whose facts its sessions read on opening. */
static const char *
pool_first_if(const struct executor *ex, const struct exec_host *h)
{
	size_t	i, k = (size_t)(h - ex->hosts);

	for (i = 0; i < ex->nlinks; i++) {
		if (ex->links[i]->client.host_index == k)
			return ex->links[i]->client.ifname;
		if (ex->links[i]->server.host_index == k)
			return ex->links[i]->server.ifname;
	}
	return NULL;
}

static void
exec_host_drop(struct exec_host *h)
{
	host_close(h->host);
	h->host = NULL;
	pool_prefacts_drop(h);
}

int
exec_host_connect(struct executor *ex, struct exec_host *h, char *err,
    size_t errlen)
{
	struct host_opts	o;

	if (h->pre_failed) {
		/* Just tried by exec_pool_connect(): its error, once. */
		h->pre_failed = 0;
		util_seterr(err, errlen, "%s", h->pre_err);
		return -1;
	}
	if (h->host != NULL) {
		/*
		 * The first use in a drain proves the session alive: since
		 * the last drain the host may have rebooted (a bisect step),
		 * and a session revived now gets its agent deployed again.
		 */
		if (host_sync(h->host, h->probe ? ex->connect_timeout_s *
		    1000 : 0, err, errlen) == -1) {
			exec_host_drop(h);
			return -1;
		}
		h->probe = 0;
		return 0;
	}
	h->probe = 0;
	memset(&o, 0, sizeof o);
	o.connect_timeout_ms = ex->connect_timeout_s * 1000;
	o.deploy_timeout_ms = EXEC_DEPLOY_MS;
	o.lease = &ex->lease_id;
	o.facts_if = pool_first_if(ex, h);
	return host_open(h->cfg, &o, &h->host, err, errlen);
}

int
exec_host_alive(struct exec_host *h, int timeout_ms, char *err,
    size_t errlen)
{
	return h->host == NULL || host_check(h->host, timeout_ms, err,
	    errlen) == 0;
}

/* Records the facts r of h's ifname in this run (*facts_id: the row). */
static int
exec_host_record(struct executor *ex, struct exec_host *h, struct store *st,
    const char *ifname, const struct agentctl_reply *r, int64_t *facts_id,
    char *err, size_t errlen)
{
	struct store_host_facts		 f;
	const struct agentctl_nic	*nic = NULL;
	const struct config_nic		*cn;
	size_t				 i;

	for (i = 0; i < r->u.facts.nnics; i++)
		if (strcmp(r->u.facts.nics[i].name, ifname) == 0)
			nic = &r->u.facts.nics[i];
	memset(&f, 0, sizeof f);
	f.host = h->cfg->name;
	f.os = r->u.facts.os;
	f.address = h->cfg->address;
	f.kernel_version = r->u.facts.kernel_version;
	f.revision = r->u.facts.kernel_revision;
	f.ifname = ifname;
	/* The host's word is the evidence; the inventory's claim goes
	 * beside it, never over it. */
	f.driver = nic != NULL ? nic->driver : "";
	f.chip = nic != NULL && nic->chip[0] != '\0' ? nic->chip : NULL;
	if ((cn = config_host_nic(h->cfg, ifname)) != NULL) {
		f.declared_driver = cn->driver;
		f.declared_chip = cn->chip;
	}
	f.facts_json = r->raw;
	return store_host_facts_add(st, ex->run_id, &f, facts_id, err, errlen);
}

/*
 * Connects and deploys the agent if needed, and records the host's facts
 * for ifname in this run (again after a new session: the host may have
 * rebooted into another kernel).  *facts_id gets the facts row.
 */
int
exec_host_ensure(struct executor *ex, struct exec_host *h, struct store *st,
    const char *ifname, int64_t *facts_id, char *err, size_t errlen)
{
	struct agentctl_reply	r;
	size_t			i;
	int			rc;

	if (exec_host_connect(ex, h, err, errlen) == -1)
		return -1;
	if (host_generation(h->host) != h->generation) {
		h->generation = host_generation(h->host);
		h->nfacts = 0;
	}
	/* Not used yet: facts change nothing on the host.  The apply or
	 * serve that does marks it (a host whose link ended and gave its
	 * lease back is not restored again, without a lease, by a later
	 * round that has no job for it). */
	for (i = 0; i < h->nfacts; i++) {
		if (strcmp(h->facts_if[i], ifname) == 0) {
			*facts_id = h->facts_id[i];
			return 0;
		}
	}
	if (h->pre_have && h->pre_gen == h->generation &&
	    strcmp(h->pre_if, ifname) == 0) {
		/* Read by exec_pool_connect() a moment ago. */
		r = h->pre_facts;
		h->pre_have = 0;
	} else if (host_facts(h->host, ifname, EXEC_CALL_MS, &r, err,
	    errlen) == -1) {
		/* A host that cannot even say what it is: start afresh. */
		agentctl_reply_free(&r);
		exec_host_drop(h);
		return -1;
	}
	rc = exec_host_record(ex, h, st, ifname, &r, facts_id, err, errlen);
	if (rc == 0 && h->nfacts < EXEC_FACTS_IFS) {
		snprintf(h->facts_if[h->nfacts], sizeof h->facts_if[0], "%s",
		    ifname);
		h->facts_speed[h->nfacts] = exec_plaus_nic_speed(&r.u.facts,
		    ifname);
		h->facts_id[h->nfacts++] = *facts_id;
	}
	agentctl_reply_free(&r);
	return rc;
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
	struct agentctl	*a = h->host != NULL ? host_agent(h->host) : NULL;

	if (a == NULL) {
		memset(r, 0, sizeof *r);
		util_seterr(err, errlen, "%s: not connected", h->cfg->name);
		return EXEC_INFRA;
	}
	if (agentctl_call(a, args, timeout_ms, r, err, errlen) == 0)
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
