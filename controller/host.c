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
	int				 seen_reconnects; /* ssh_reconnects() */
	unsigned			 generation;
	struct agentctl_deploy_info	 deploy;
	struct host_lease_state		 lease;
};

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
	host_drop(h);
	h->tgt.connect_timeout_ms = timeout_ms > 0 ? timeout_ms :
	    h->opts.connect_timeout_ms;
	if ((h->conn = ssh_open(&h->tgt, err, errlen)) == NULL)
		return -1;
	h->agent = agentctl_new(h->conn);
	h->seen_reconnects = ssh_reconnects(h->conn);
	h->generation++;
	if (!h->opts.no_deploy && (host_deploy(h, err, errlen) == -1 ||
	    host_lease_on_session(h, err, errlen) == -1)) {
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
	free(h);
}

int
host_deploy(struct host *h, char *err, size_t errlen)
{
	if (h->agent == NULL) {
		util_seterr(err, errlen, "%s: not connected", h->cfg->name);
		return -1;
	}
	if (agentctl_deploy(h->agent, NULL, h->opts.deploy_timeout_ms,
	    &h->deploy, err, errlen) == -1)
		return -1;
	if (h->deploy.built)
		log_info("%s: agent built in %lld ms", h->cfg->name,
		    (long long)h->deploy.ms);
	return 0;
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
	if (!h->opts.no_deploy && (host_deploy(h, err, errlen) == -1 ||
	    host_lease_on_session(h, err, errlen) == -1))
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
