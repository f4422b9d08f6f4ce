/*
 * host: see host.h.  The SSH target is built here from the inventory and
 * kept for every reconnect; the agent handle lives and dies with the
 * session it runs on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentctl.h"
#include "config.h"
#include "host.h"
#include "host_int.h"
#include "log.h"
#include "ssh.h"
#include "util.h"

struct host {
	const struct config_host	*cfg;
	struct host_opts		 opts;
	struct ssh_target		 tgt;
	struct ssh_conn			*conn;
	struct agentctl			*agent;
	/* The last session's agent handle, kept while the host has no
	 * session, for where its agent is (agentctl_inherit()); never
	 * called. */
	struct agentctl			*prev_agent;
	int				 seen_reconnects; /* ssh_reconnects() */
	unsigned			 generation;
	struct agentctl_deploy_info	 deploy;
	struct host_lease_state		 lease;
	/* The facts of opts.facts_if the session's open read (has_facts,
	 * facts_rc 0), which host_facts() hands out once; generation:
	 * whose. */
	struct agentctl_open		 opened;
	unsigned			 opened_gen;
};

/* Keeps the facts an open read (its lease part is the caller's). */
void
host_opened_keep(struct host *h, struct agentctl_open *o)
{
	agentctl_open_free(&h->opened);
	if (o->has_facts && o->facts_rc == 0 && h->opts.facts_if != NULL) {
		h->opened.has_facts = 1;
		h->opened.facts = o->facts;
		h->opened_gen = h->generation;
		memset(&o->facts, 0, sizeof o->facts);
	}
	agentctl_open_free(o);
}

const char *
host_opened_if(struct host *h)
{
	return h->opts.facts_if;
}

/* The facts of ifname this session's open read, moved into r: 1 once,
 * else 0 (ask the agent). */
static int
host_facts_opened(struct host *h, const char *ifname,
    struct agentctl_reply *r)
{
	if (!h->opened.has_facts || h->opened_gen != h->generation ||
	    h->opts.facts_if == NULL || ifname == NULL ||
	    strcmp(h->opts.facts_if, ifname) != 0)
		return 0;
	*r = h->opened.facts;
	memset(&h->opened, 0, sizeof h->opened);
	return 1;
}

static int	host_sync_agent(struct host *, char *, size_t);

static void
host_drop(struct host *h)
{
	agentctl_free(h->agent);
	ssh_close(h->conn);
	h->agent = NULL;
	h->conn = NULL;
}

/* A new session (and agent handle) within timeout_ms; 0 or -1. */
static int
host_connect(struct host *h, int timeout_ms, char *err, size_t errlen)
{
	if (h->agent != NULL) {
		agentctl_free(h->prev_agent);
		h->prev_agent = h->agent;
		h->agent = NULL;
	}
	host_drop(h);
	h->tgt.connect_timeout_ms = timeout_ms > 0 ? timeout_ms :
	    h->opts.connect_timeout_ms;
	if ((h->conn = ssh_open(&h->tgt, err, errlen)) == NULL)
		return -1;
	h->agent = agentctl_new(h->conn);
	/* The same host: where its agent was (checked again below, or by
	 * the deferred take's open). */
	if (h->prev_agent != NULL)
		agentctl_inherit(h->agent, h->prev_agent);
	agentctl_free(h->prev_agent);
	h->prev_agent = NULL;
	h->seen_reconnects = ssh_reconnects(h->conn);
	h->generation++;
	if (!h->opts.no_deploy && host_sync_agent(h, err, errlen) == -1) {
		host_drop(h);
		return -1;
	}
	return 0;
}

int
host_open(const struct config_host *cfg, const struct host_opts *opts,
    struct host **out, char *err, size_t errlen)
{
	struct host	*h;

	*out = NULL;
	h = xcalloc(1, sizeof *h);
	h->cfg = cfg;
	if (opts != NULL)
		h->opts = *opts;
	if (h->opts.connect_timeout_ms <= 0)
		h->opts.connect_timeout_ms = HOST_CONNECT_MS;
	if (h->opts.deploy_timeout_ms <= 0)
		h->opts.deploy_timeout_ms = HOST_DEPLOY_MS;
	h->tgt.name = cfg->name;
	h->tgt.address = cfg->address;
	h->tgt.port = cfg->ssh.port;
	h->tgt.user = cfg->ssh.user;
	h->tgt.key = cfg->ssh.key;
	h->tgt.known_hosts = cfg->ssh.known_hosts;
	h->tgt.keepalive_s = h->opts.keepalive_s;
	h->tgt.no_reconnect = h->opts.no_reconnect;
	h->lease.id = h->opts.lease;
	if (host_connect(h, 0, err, errlen) == -1) {
		free(h);
		return -1;
	}
	*out = h;
	return 0;
}

void
host_close(struct host *h)
{
	if (h == NULL)
		return;
	host_drop(h);
	agentctl_free(h->prev_agent);
	agentctl_open_free(&h->opened);
	free(h);
}

/* host_deploy() with an open of req into o (NULL: a plain deploy). */
static int
host_deploy_req(struct host *h, const struct agentctl_open_req *req,
    struct agentctl_open *o, char *err, size_t errlen)
{
	if (h->agent == NULL) {
		util_seterr(err, errlen, "%s: not connected", h->cfg->name);
		return -1;
	}
	if (agentctl_deploy_open(h->agent, NULL, h->opts.deploy_timeout_ms,
	    req, &h->deploy, o, err, errlen) == -1)
		return -1;
	if (h->deploy.built)
		log_info("%s: agent built in %lld ms", h->cfg->name,
		    (long long)h->deploy.ms);
	return 0;
}

int
host_deploy(struct host *h, char *err, size_t errlen)
{
	return host_deploy_req(h, NULL, NULL, err, errlen);
}

/*
 * A new session's agent, lease and facts in one round trip when the
 * agent is in place (`open`): the deploy check takes the lease (unless
 * deferred to the caller's next command) and reads opts.facts_if's
 * facts.  What the open did not do is done the usual way.
 */
static int
host_open_agent(struct host *h, char *err, size_t errlen)
{
	struct agentctl_open_req	 req;
	struct agentctl_open		 o;
	const char			*args[HOST_LEASE_ARGS];
	char				 pid[24], ttl[16];
	int				 rc;

	memset(&req, 0, sizeof req);
	if (h->lease.id != NULL && !h->lease.defer) {
		host_lease_take_args(h, args, pid, ttl);
		req.lease_args = args + 2;	/* after "lease", "take" */
	}
	req.ifname = h->opts.facts_if;
	if (host_deploy_req(h, &req, &o, err, errlen) == -1)
		return -1;
	rc = host_lease_on_open(h, &o, err, errlen);
	host_opened_keep(h, &o);
	return rc;
}

/*
 * A session the ssh module re-established: the open as on a new one; but
 * while the lease take is deferred to the caller's next command (a
 * rebooted host's verify), the open rides there too
 * (host_lease_take_command()) and nothing is asked now.
 */
static int
host_sync_agent(struct host *h, char *err, size_t errlen)
{
	if (h->lease.id != NULL && h->lease.defer && h->agent != NULL &&
	    agentctl_path(h->agent)[0] != '\0') {
		agentctl_set_owner(h->agent, h->lease.id->token);
		h->lease.held = 0;
		h->lease.pending = 1;
		h->lease.open = 1;
		return 0;
	}
	return host_open_agent(h, err, errlen);
}

int
host_sync(struct host *h, int probe_ms, char *err, size_t errlen)
{
	if (h->conn == NULL)
		return host_connect(h, 0, err, errlen) == -1 ? -1 : 1;
	if (probe_ms > 0 && ssh_check(h->conn, probe_ms, err, errlen) !=
	    SSH_OK)
		return -1;
	if (ssh_reconnects(h->conn) == h->seen_reconnects)
		return 0;
	/* A new session: maybe a reboot, and the agent may be gone. */
	h->seen_reconnects = ssh_reconnects(h->conn);
	h->generation++;
	if (!h->opts.no_deploy && host_sync_agent(h, err, errlen) == -1)
		return -1;
	return 1;
}

int
host_check(struct host *h, int timeout_ms, char *err, size_t errlen)
{
	if (h->conn == NULL) {
		util_seterr(err, errlen, "%s: not connected", h->cfg->name);
		return -1;
	}
	return ssh_check(h->conn, timeout_ms, err, errlen) == SSH_OK ? 0 : -1;
}

int
host_reconnect(struct host *h, int timeout_ms, char *err, size_t errlen)
{
	return host_connect(h, timeout_ms, err, errlen);
}

int
host_facts(struct host *h, const char *ifname, int timeout_ms,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	if (h->agent == NULL) {
		memset(r, 0, sizeof *r);
		util_seterr(err, errlen, "%s: not connected", h->cfg->name);
		return -1;
	}
	if (host_facts_opened(h, ifname, r))
		return 0;
	return agentctl_facts(h->agent, ifname, timeout_ms, r, err, errlen);
}

struct ssh_conn *
host_ssh(struct host *h)
{
	return h->conn;
}

struct agentctl *
host_agent(struct host *h)
{
	return h->agent;
}

const struct config_host *
host_config(const struct host *h)
{
	return h->cfg;
}

const char *
host_name(const struct host *h)
{
	return h->cfg->name;
}

unsigned
host_generation(const struct host *h)
{
	return h->generation;
}

const struct agentctl_deploy_info *
host_deploy_info(const struct host *h)
{
	return &h->deploy;
}

struct host_lease_state *
host_lease_state(struct host *h)
{
	return &h->lease;
}

int
host_lease_held(const struct host *h)
{
	return h->lease.held;
}
