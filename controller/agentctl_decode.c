/*
 * agentctl_decode: the agent's JSON lines (PROTOCOL.md) into the typed
 * replies of agentctl.h.  The decoder walks stdout line by line; the
 * typed getters of agentctl_int.h (agentctl_jget.c) record the first
 * problem as "HOST: labrat-agent CMD: PATH: what" so a caller sees exactly
 * which host, command and field.  json-c is seen by these two files only.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "agentctl.h"
#include "agentctl_int.h"
#include "json.h"
#include "log.h"
#include "util.h"

static void
dec_version(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	adec_str_pat(j, o, "result", "version", 0, r->u.version.version,
	    sizeof r->u.version.version, agentctl_version_ok, "a version");
	adec_str_pat(j, o, "result", "source_hash", 0, r->u.version.source_hash,
	    sizeof r->u.version.source_hash, agentctl_hash_ok,
	    "a source hash");
}

static void
dec_nic(struct adec *j, struct json_object *o, const char *p,
    struct agentctl_nic *n)
{
	adec_str_pat(j, o, p, "name", 0, n->name, sizeof n->name,
	    agentctl_ifname_ok, "an interface name");
	adec_str_pat(j, o, p, "driver", J_NULL, n->driver, sizeof n->driver,
	    agentctl_driver_ok, "a driver name");
	adec_str_pat(j, o, p, "pci_vendor", J_NULL, n->pci_vendor,
	    sizeof n->pci_vendor, agentctl_hexid_ok, "a PCI id");
	adec_str_pat(j, o, p, "pci_device", J_NULL, n->pci_device,
	    sizeof n->pci_device, agentctl_hexid_ok, "a PCI id");
	adec_str_pat(j, o, p, "chip", J_NULL, n->chip, sizeof n->chip,
	    agentctl_hexid_ok, "a chip id");
	adec_int(j, o, p, "speed_mbps", J_NULL, &n->speed_mbps);
	adec_str(j, o, p, "duplex", J_NULL, n->duplex, sizeof n->duplex);
	adec_int(j, o, p, "mtu", J_NULL, &n->mtu);
	adec_bool(j, o, p, "tso", J_NULL, &n->tso);
	adec_bool(j, o, p, "lro", J_NULL, &n->lro);
	adec_bool(j, o, p, "rxcsum", J_NULL, &n->rxcsum);
	adec_bool(j, o, p, "txcsum", J_NULL, &n->txcsum);
}

static void
dec_facts(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_facts	*f = &r->u.facts;
	struct json_object	*k, *a, *t, *e;
	char			 p[64];
	size_t			 i, n;

	adec_str_pat(j, o, "result", "os", 0, f->os, sizeof f->os,
	    agentctl_os_ok, "freebsd or linux");
	adec_str(j, o, "result", "hostname", 0, f->hostname, sizeof f->hostname);
	if ((k = adec_typed(j, o, "result", "kernel", json_type_object, 0))) {
		adec_str_pat(j, k, "kernel", "release", 0, f->kernel_release,
		    sizeof f->kernel_release, agentctl_version_ok,
		    "a kernel release");
		adec_str(j, k, "kernel", "version", 0, f->kernel_version,
		    sizeof f->kernel_version);
		adec_str_pat(j, k, "kernel", "revision", J_NULL,
		    f->kernel_revision, sizeof f->kernel_revision,
		    agentctl_rev_ok,
		    "a revision (^[A-Za-z0-9._-]{1,64}$)");
		adec_int(j, k, "kernel", "osreldate", J_NULL, &f->osreldate);
	}
	if ((a = adec_array(j, o, "result", "nics", 0, AGENTCTL_NICS_MAX, "NICs",
	    &n))) {
		for (i = 0; i < n && !j->failed; i++)
			if ((e = adec_elem(j, a, "nics", i, p, sizeof p)))
				dec_nic(j, e, p, &f->nics[i]);
		f->nnics = j->failed ? 0 : n;
	}
	/* A tool the host lacks may be absent or null. */
	if ((t = adec_typed(j, o, "result", "tools", json_type_object, 0))) {
		adec_str_pat(j, t, "tools", "iperf2", J_OPT, f->iperf2,
		    sizeof f->iperf2, agentctl_version_ok, "a version");
		adec_str_pat(j, t, "tools", "iperf3", J_OPT, f->iperf3,
		    sizeof f->iperf3, agentctl_version_ok, "a version");
		adec_str_pat(j, t, "tools", "scp", J_OPT, f->scp, sizeof f->scp,
		    agentctl_version_ok, "a version");
	}
}

/* Knob objects hold only the knobs asked for / known; each getter sets
 * its knob to "unknown" first. */
static void
dec_knobs(struct adec *j, struct json_object *o, const char *p,
    struct agentctl_knobs *k)
{
	adec_bool(j, o, p, "tso", J_OPT, &k->tso);
	adec_bool(j, o, p, "lro", J_OPT, &k->lro);
	adec_bool(j, o, p, "rxcsum", J_OPT, &k->rxcsum);
	adec_bool(j, o, p, "txcsum", J_OPT, &k->txcsum);
	adec_int(j, o, p, "mtu", J_OPT, &k->mtu);
	adec_str(j, o, p, "nat", J_OPT, k->nat, sizeof k->nat);
}

static void	dec_checks(struct adec *, struct json_object *, const char *,
		    struct agentctl_preflight *);
static void	dec_serve_obj(struct adec *, struct json_object *,
		    const char *, struct agentctl_serve *);

static void
dec_apply(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_apply	*a = &r->u.apply;
	struct json_object	*k;

	adec_str_pat(j, o, "result", "if", 0, a->ifname, sizeof a->ifname,
	    agentctl_ifname_ok, "an interface name");
	adec_bool(j, o, "result", "saved", 0, &a->saved);
	if ((k = adec_typed(j, o, "result", "requested", json_type_object, 0)))
		dec_knobs(j, k, "requested", &a->requested);
	if ((k = adec_typed(j, o, "result", "in_force", json_type_object, 0)))
		dec_knobs(j, k, "in_force", &a->in_force);
	adec_strlist(j, o, "mismatch", a->mismatch[0], sizeof a->mismatch[0],
	    AGENTCTL_LIST_MAX, "a short string", &a->nmismatch);
	/* Agent 0.4 on: absent from older agents. */
	if (json_object_object_get_ex(o, "changed", NULL))
		adec_strlist(j, o, "changed", a->changed[0],
		    sizeof a->changed[0], AGENTCTL_LIST_MAX, "a short string",
		    &a->nchanged);
	adec_int(j, o, "result", "settle_ms", J_OPT, &a->settle_ms);
	adec_bool(j, o, "result", "link_up", J_OPT, &a->link_up);
	adec_int(j, o, "result", "rollback_pid", J_NULL, &a->rollback_pid);
	adec_int(j, o, "result", "rollback_at", J_NULL, &a->rollback_at);
	/* Agent 0.5 on, with --preflight: null after a mismatch. */
	if ((k = adec_typed(j, o, "result", "preflight", json_type_object,
	    J_OPT)) != NULL) {
		snprintf(a->preflight.ifname, sizeof a->preflight.ifname, "%s",
		    a->ifname);
		dec_checks(j, k, "preflight", &a->preflight);
		a->has_preflight = !j->failed;
	}
	/* Agent 0.7 on, with --serve, once the apply went through. */
	if ((k = adec_typed(j, o, "result", "serve", json_type_object,
	    J_OPT)) == NULL)
		return;
	if (json_object_object_get_ex(k, "error", NULL))
		adec_str(j, k, "serve", "error", 0, a->serve_err,
		    sizeof a->serve_err);
	else {
		dec_serve_obj(j, k, "serve", &a->serve);
		a->has_serve = !j->failed;
	}
}

/* result.stopped: the pids of the servers stopped; 1 when it was there
 * (flags J_OPT: it may be missing). */
static int
dec_stopped(struct adec *j, struct json_object *o, int flags, long long *out,
    size_t *nout)
{
	struct json_object	*a, *e;
	size_t			 i, n;

	*nout = 0;
	if ((a = adec_array(j, o, "result", "stopped", flags,
	    AGENTCTL_LIST_MAX, "pids", &n)) == NULL)
		return 0;
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_int)) {
			adec_fail(j, "result", "stopped", "[%zu] not a pid", i);
			return 0;
		}
		out[i] = json_object_get_int64(e);
	}
	*nout = n;
	return 1;
}

static void
dec_restore(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_restore	*s = &r->u.restore;

	adec_str_pat(j, o, "result", "if", 0, s->ifname, sizeof s->ifname,
	    agentctl_ifname_ok, "an interface name");
	adec_bool(j, o, "result", "was_saved", 0, &s->was_saved);
	adec_strlist(j, o, "changed", s->changed[0], sizeof s->changed[0],
	    AGENTCTL_LIST_MAX, "a short string", &s->nchanged);
	s->has_stopped = dec_stopped(j, o, J_OPT, s->stopped, &s->nstopped);
	adec_bool(j, o, "result", "released", J_OPT, &s->released);
}

static void
dec_confirm(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	adec_str(j, o, "result", "if", 0, r->u.confirm.ifname,
	    sizeof r->u.confirm.ifname);
	adec_bool(j, o, "result", "cancelled", 0, &r->u.confirm.cancelled);
}

static void
dec_counters(struct adec *j, struct json_object *o, const char *p,
    struct agentctl_ifcounters *c)
{
	adec_int(j, o, p, "rx_bytes", J_NULL, &c->rx_bytes);
	adec_int(j, o, p, "rx_packets", J_NULL, &c->rx_packets);
	adec_int(j, o, p, "rx_errors", J_NULL, &c->rx_errors);
	adec_int(j, o, p, "rx_dropped", J_NULL, &c->rx_dropped);
	adec_int(j, o, p, "tx_bytes", J_NULL, &c->tx_bytes);
	adec_int(j, o, p, "tx_packets", J_NULL, &c->tx_packets);
	adec_int(j, o, p, "tx_errors", J_NULL, &c->tx_errors);
	adec_int(j, o, p, "tx_dropped", J_NULL, &c->tx_dropped);
}

/* serve's and serve stop's optional "ifstats" (with --if). */
static void
dec_ifsnap(struct adec *j, struct json_object *o, struct agentctl_ifsnap *s)
{
	struct json_object	*a, *c;

	memset(&s->c, 0xff, sizeof s->c);
	if ((a = adec_typed(j, o, "result", "ifstats", json_type_object,
	    J_OPT)) == NULL)
		return;
	s->has = 1;
	adec_str(j, a, "ifstats", "if", 0, s->ifname, sizeof s->ifname);
	if ((c = adec_typed(j, a, "ifstats", "counters", json_type_object,
	    J_NULL)) == NULL)
		return;
	s->has_counters = 1;
	dec_counters(j, c, "ifstats.counters", &s->c);
}

/* serve's result, or apply's "serve" object (p: its path). */
static void
dec_serve_obj(struct adec *j, struct json_object *o, const char *p,
    struct agentctl_serve *s)
{
	char	state[16] = "";

	adec_str(j, o, p, "tool", 0, s->tool, sizeof s->tool);
	adec_int(j, o, p, "pid", 0, &s->pid);
	adec_str(j, o, p, "bind", 0, s->bind, sizeof s->bind);
	adec_int(j, o, p, "port", 0, &s->port);
	adec_bool(j, o, p, "kept", J_OPT, &s->kept);
	adec_str(j, o, p, "state", J_OPT, state, sizeof state);
	s->stands = strcmp(state, "stands") == 0;
	dec_ifsnap(j, o, &s->ifstats);
}

static void
dec_serve(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	dec_serve_obj(j, o, "result", &r->u.serve);
}

static void
dec_serve_stop(struct adec *j, struct json_object *o,
    struct agentctl_reply *r)
{
	struct agentctl_serve_stop	*s = &r->u.serve_stop;

	if (!dec_stopped(j, o, 0, s->stopped, &s->nstopped))
		return;
	dec_ifsnap(j, o, &s->ifstats);
}

/* procs, cpu and ifstats are optional: absent = null. */
static void
dec_iperf_parts(struct adec *j, struct json_object *o,
    struct agentctl_iperf *ip)
{
	struct json_object	*a, *e;
	char			 p[64];
	size_t			 i, n;

	ip->cpu_user = ip->cpu_sys = ip->cpu_idle = NAN;
	if ((a = adec_typed(j, o, "result", "cpu", json_type_object, J_OPT))) {
		adec_dbl(j, a, "cpu", "user", J_NULL, &ip->cpu_user);
		adec_dbl(j, a, "cpu", "sys", J_NULL, &ip->cpu_sys);
		adec_dbl(j, a, "cpu", "idle", J_NULL, &ip->cpu_idle);
	}
	if ((a = adec_array(j, o, "result", "procs", J_OPT, AGENTCTL_LIST_MAX,
	    "entries", &n))) {
		for (i = 0; i < n && !j->failed; i++) {
			if ((e = adec_elem(j, a, "procs", i, p, sizeof p)) == NULL)
				break;
			adec_str(j, e, p, "name", 0, ip->procs[i].name,
			    sizeof ip->procs[i].name);
			adec_dbl(j, e, p, "cpu_seconds", J_NULL,
			    &ip->procs[i].cpu_seconds);
			adec_dbl(j, e, p, "cpu_percent", J_NULL,
			    &ip->procs[i].cpu_percent);
		}
		ip->nprocs = j->failed ? 0 : n;
	}
	if ((a = adec_typed(j, o, "result", "ifstats", json_type_object,
	    J_OPT))) {
		ip->has_ifstats = 1;
		adec_str(j, a, "ifstats", "if", 0, ip->ifstats_if,
		    sizeof ip->ifstats_if);
		/* A side the OS could not read is null: all -1. */
		memset(&ip->if_before, 0xff, sizeof ip->if_before);
		memset(&ip->if_after, 0xff, sizeof ip->if_after);
		if ((e = adec_typed(j, a, "ifstats", "before", json_type_object,
		    J_NULL)))
			dec_counters(j, e, "ifstats.before", &ip->if_before);
		if ((e = adec_typed(j, a, "ifstats", "after", json_type_object,
		    J_NULL)))
			dec_counters(j, e, "ifstats.after", &ip->if_after);
	}
}

static void
dec_iperf(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_iperf	*ip = &r->u.iperf;
	struct json_object	*a, *e;
	char			 p[64];
	size_t			 i, n;

	adec_str(j, o, "result", "tool", 0, ip->tool, sizeof ip->tool);
	ip->exact = -1;
	adec_bool(j, o, "result", "exact", J_OPT, &ip->exact);
	adec_dbl(j, o, "result", "bytes", 0, &ip->bytes);
	adec_dbl(j, o, "result", "seconds", 0, &ip->seconds);
	adec_dbl(j, o, "result", "bps", 0, &ip->bps);
	adec_int(j, o, "result", "window_requested", J_NULL,
	    &ip->window_requested);
	adec_int(j, o, "result", "window_granted", J_NULL, &ip->window_granted);
	adec_int(j, o, "result", "retransmits", J_NULL, &ip->retransmits);
	if ((a = adec_array(j, o, "result", "intervals", 0, SIZE_MAX, "entries",
	    &n))) {
		ip->intervals = xcalloc(n, sizeof *ip->intervals);
		for (i = 0; i < n && !j->failed; i++) {
			if ((e = adec_elem(j, a, "intervals", i, p, sizeof p)) ==
			    NULL)
				break;
			adec_dbl(j, e, p, "start", 0, &ip->intervals[i].start);
			adec_dbl(j, e, p, "end", 0, &ip->intervals[i].end);
			adec_dbl(j, e, p, "bytes", J_NULL, &ip->intervals[i].bytes);
			adec_dbl(j, e, p, "bps", 0, &ip->intervals[i].bps);
		}
		ip->nintervals = n;
	}
	dec_iperf_parts(j, o, ip);
}

static void
dec_scp(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	adec_dbl(j, o, "result", "bytes", 0, &r->u.scp.bytes);
	adec_dbl(j, o, "result", "seconds", 0, &r->u.scp.seconds);
	adec_dbl(j, o, "result", "bps", 0, &r->u.scp.bps);
	r->u.scp.remote_bytes = AGENTCTL_NONE;
	adec_int(j, o, "result", "remote_bytes", J_OPT, &r->u.scp.remote_bytes);
}

static void
dec_keys(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_keygen		*kg = &r->u.keygen;
	struct agentctl_authorize	*au = &r->u.authorize;

	switch (r->cmd) {
	case AGENTCTL_KEYGEN:
		adec_str(j, o, "result", "tag", 0, kg->tag, sizeof kg->tag);
		adec_str_pat(j, o, "result", "key", 0, kg->key, sizeof kg->key,
		    agentctl_printable_ok, "one line of printable text");
		adec_str_pat(j, o, "result", "pubkey", 0, kg->pubkey,
		    sizeof kg->pubkey, agentctl_printable_ok,
		    "one line of printable text");
		return;
	case AGENTCTL_DEAUTHORIZE:
		adec_str(j, o, "result", "tag", 0, r->u.deauthorize.tag,
		    sizeof r->u.deauthorize.tag);
		return;
	default:
		break;
	}
	adec_str(j, o, "result", "tag", 0, au->tag, sizeof au->tag);
	adec_strlist(j, o, "hostkeys", au->hostkeys[0], sizeof au->hostkeys[0],
	    AGENTCTL_HOSTKEYS_MAX, "a key", &au->nhostkeys);
}

static void
dec_lease_info(struct adec *j, struct json_object *o, const char *key,
    int *has, struct agentctl_lease_info *l)
{
	struct json_object	*v;
	char			 p[32];

	*has = 0;
	if ((v = adec_typed(j, o, "result", key, json_type_object, J_OPT)) ==
	    NULL)
		return;
	snprintf(p, sizeof p, "result.%s", key);
	adec_str(j, v, p, "owner", 0, l->owner, sizeof l->owner);
	adec_str(j, v, p, "host", 0, l->host, sizeof l->host);
	adec_int(j, v, p, "pid", 0, &l->pid);
	adec_str(j, v, p, "run", 0, l->run, sizeof l->run);
	adec_int(j, v, p, "since", 0, &l->since);
	adec_int(j, v, p, "renewed", 0, &l->renewed);
	adec_int(j, v, p, "ttl", 0, &l->ttl);
	adec_int(j, v, p, "expires", 0, &l->expires);
	adec_int(j, v, p, "hold_until", J_NULL, &l->hold_until);
	adec_int(j, v, p, "until", 0, &l->until);
	adec_bool(j, v, p, "live", 0, &l->live);
	adec_str(j, v, p, "message", 0, l->message, sizeof l->message);
	*has = !j->failed;
}

static void
dec_lease(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_lease	*l = &r->u.lease;

	adec_str(j, o, "result", "action", 0, l->action, sizeof l->action);
	adec_int(j, o, "result", "now", 0, &l->now);
	dec_lease_info(j, o, "lease", &l->has_lease, &l->lease);
	dec_lease_info(j, o, "previous", &l->has_previous, &l->previous);
	adec_bool(j, o, "result", "held", J_OPT, &l->held);
	adec_bool(j, o, "result", "renewed", J_OPT, &l->renewed);
	adec_bool(j, o, "result", "released", J_OPT, &l->released);
	adec_bool(j, o, "result", "forced", J_OPT, &l->forced);
	if (strcmp(l->action, "take") == 0)
		adec_strlist(j, o, "restored", l->restored[0],
		    sizeof l->restored[0], AGENTCTL_LIST_MAX,
		    "an interface name", &l->nrestored);
}

/* The checks of a preflight (the result, or apply's "preflight") at o. */
static void
dec_checks(struct adec *j, struct json_object *o, const char *path,
    struct agentctl_preflight *pf)
{
	struct json_object		*a, *e;
	char				 p[32];
	size_t				 i, n;

	adec_bool(j, o, path, "ok", 0, &pf->ok);
	adec_dbl(j, o, path, "ms", 0, &pf->ms);
	if ((a = adec_array(j, o, path, "checks", 0, AGENTCTL_CHECKS_MAX,
	    "checks", &n)) == NULL)
		return;
	for (i = 0; i < n && !j->failed; i++) {
		struct agentctl_check	*c = &pf->checks[i];

		if ((e = adec_elem(j, a, "checks", i, p, sizeof p)) == NULL)
			break;
		adec_str(j, e, p, "name", 0, c->name, sizeof c->name);
		adec_bool(j, e, p, "ok", 0, &c->ok);
		adec_dbl(j, e, p, "ms", 0, &c->ms);
		adec_str(j, e, p, "detail", 0, c->detail, sizeof c->detail);
	}
	pf->nchecks = n;
}

static void
dec_preflight(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_preflight	*pf = &r->u.preflight;

	adec_str(j, o, "result", "if", 0, pf->ifname, sizeof pf->ifname);
	dec_checks(j, o, "result", pf);
}

/* The subcommands: their names and result decoders, by enum agentctl_cmd. */
static const struct {
	const char	*name;
	void		(*dec)(struct adec *, struct json_object *,
			    struct agentctl_reply *);
} cmds[] = {
	[AGENTCTL_VERSION] = { "version", dec_version },
	[AGENTCTL_FACTS] = { "facts", dec_facts },
	[AGENTCTL_APPLY] = { "apply", dec_apply },
	[AGENTCTL_RESTORE] = { "restore", dec_restore },
	[AGENTCTL_CONFIRM] = { "confirm", dec_confirm },
	[AGENTCTL_SERVE] = { "serve", dec_serve },
	[AGENTCTL_SERVE_STOP] = { "serve-stop", dec_serve_stop },
	[AGENTCTL_IPERF] = { "iperf", dec_iperf },
	[AGENTCTL_SCP] = { "scp", dec_scp },
	[AGENTCTL_KEYGEN] = { "keygen", dec_keys },
	[AGENTCTL_AUTHORIZE] = { "authorize", dec_keys },
	[AGENTCTL_DEAUTHORIZE] = { "deauthorize", dec_keys },
	[AGENTCTL_LEASE] = { "lease", dec_lease },
	[AGENTCTL_PREFLIGHT] = { "preflight", dec_preflight },
};

const char *
agentctl_cmd_name(enum agentctl_cmd c)
{
	if ((size_t)c >= sizeof cmds / sizeof cmds[0])
		return "?";
	return cmds[c].name;
}

int
agentctl_cmd_of(const char *const *args)
{
	size_t	i;

	if (args == NULL || args[0] == NULL)
		return -1;
	if (strcmp(args[0], "--version") == 0)
		return AGENTCTL_VERSION;
	if (strcmp(args[0], "serve") == 0 && args[1] != NULL &&
	    strcmp(args[1], "stop") == 0)
		return AGENTCTL_SERVE_STOP;
	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (i != AGENTCTL_SERVE_STOP &&
		    strcmp(args[0], cmds[i].name) == 0)
			return (int)i;
	return -1;
}

static void
dec_result(struct adec *j, struct json_object *o, struct agentctl_reply *r)
{
	char	cmd[32];

	adec_str(j, o, "result", "cmd", 0, cmd, sizeof cmd);
	if (j->failed)
		return;
	if (strcmp(cmd, agentctl_cmd_name(r->cmd)) != 0) {
		adec_fail(j, "result", "cmd", "\"%s\", expected \"%s\"", cmd,
		    agentctl_cmd_name(r->cmd));
		return;
	}
	if ((size_t)r->cmd < sizeof cmds / sizeof cmds[0])
		cmds[r->cmd].dec(j, o, r);
}

/* One line: a JSON object with proto 1 and a known event. */
static void
dec_line(struct adec *j, struct json_tokener *tok, const char *line,
    size_t len, size_t lineno, struct agentctl_reply *r, int *nresults)
{
	struct json_object	*o;
	char			 where[32], ev[16], raw[256], safe[256];
	long long		 proto;
	int			 rawrc;

	snprintf(where, sizeof where, "line %zu", lineno);
	/* What json-c would accept and change: duplicate keys, bad UTF-8. */
	rawrc = json_check_raw(line, len, raw, sizeof raw);
	if (rawrc == JSON_RAW_REJECTED) {
		adec_fail(j, where, NULL, "%s", raw);
		return;
	}
	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (o == NULL || json_tokener_get_parse_end(tok) != len ||
	    rawrc != JSON_RAW_OK || !json_object_is_type(o, json_type_object)) {
		adec_fail(j, where, NULL, "not one JSON object (%s): \"%s\"",
		    o == NULL ? json_tokener_error_desc(
		    json_tokener_get_error(tok)) : rawrc != JSON_RAW_OK ? raw :
		    "trailing data or not an object", util_term_safe(safe,
		    sizeof safe, line, len < 60 ? len : 60));
		json_object_put(o);
		return;
	}
	adec_int(j, o, where, "proto", 0, &proto);
	if (!j->failed && proto != AGENTCTL_PROTO)
		adec_fail(j, where, "proto", "unknown protocol version %lld "
		    "(this labrat speaks %d)", proto, AGENTCTL_PROTO);
	adec_str(j, o, where, "event", 0, ev, sizeof ev);
	if (j->failed)
		goto done;
	if (strcmp(ev, "result") == 0) {
		if (++*nresults > 1) {
			adec_fail(j, where, NULL, "a second result");
			goto done;
		}
		dec_result(j, o, r);
		r->has_result = !j->failed;
	} else if (strcmp(ev, "error") == 0) {
		adec_str(j, o, where, "class", 0, r->error_class,
		    sizeof r->error_class);
		adec_str(j, o, where, "message", 0, r->error_message,
		    sizeof r->error_message);
		if (r->error_class[0] == '\0')
			snprintf(r->error_class, sizeof r->error_class, "?");
	} else if (strcmp(ev, "progress") != 0)
		adec_fail(j, where, "event", "unknown event \"%s\"", ev);
done:
	json_object_put(o);
}

int
agentctl_decode(const char *host, const char *what, enum agentctl_cmd cmd,
    const char *text, size_t len, int truncated, int exit_status,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	struct json_tokener	*tok;
	struct adec		 j = { host, what, err, errlen, 0 };
	const char		*p = text, *end = text + len, *nl;
	size_t			 n, lineno = 0;
	int			 nresults = 0;

	memset(r, 0, sizeof *r);
	r->cmd = cmd;
	r->exit_status = exit_status;
	if (truncated) {
		adec_fail(&j, "output", NULL, "larger than %u bytes",
		    AGENTCTL_OUT_MAX);
		return -1;
	}
	if ((tok = json_tokener_new_ex(64)) == NULL)
		fatalx("json_tokener_new");
	/* As for config files: no comments, single quotes or bad UTF-8
	 * (the raw pass has refused most of it already). */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
	    JSON_TOKENER_VALIDATE_UTF8);
	while (p < end && !j.failed) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' '))
			n--;
		if (n > 0)
			dec_line(&j, tok, p, n, lineno, r, &nresults);
		p = nl != NULL ? nl + 1 : end;
	}
	json_tokener_free(tok);
	if (j.failed) {
		r->has_result = 0;
		return -1;
	}
	if (r->error_class[0] != '\0') {
		util_seterr(err, errlen, "%s: labrat-agent %s: %s error (exit "
		    "%d): %s", host, what, r->error_class, exit_status,
		    r->error_message);
		return -1;
	}
	if (exit_status != 0) {
		util_seterr(err, errlen, "%s: labrat-agent %s: exited %d "
		    "without an error event", host, what, exit_status);
		return -1;
	}
	if (!r->has_result) {
		util_seterr(err, errlen, "%s: labrat-agent %s: no result line",
		    host, what);
		return -1;
	}
	return 0;
}

/*
 * The part of an `open` reply that starts at *p: its progress lines and
 * the one line after them (a result or an error); *p moves past it.
 * 0 when there was none left.
 */
static size_t
open_part(const char **p, const char *end)
{
	static const char progress[] = "{\"proto\":1,\"event\":\"progress\"";
	const char	*start = *p, *nl;

	while (*p < end) {
		nl = memchr(*p, '\n', (size_t)(end - *p));
		nl = nl != NULL ? nl + 1 : end;
		if ((size_t)(end - *p) < sizeof progress - 1 ||
		    strncmp(*p, progress, sizeof progress - 1) != 0) {
			*p = nl;
			break;
		}
		*p = nl;
	}
	return (size_t)(*p - start);
}

int
agentctl_open_decode(const char *host, const char *text, size_t len,
    int want_lease, int want_facts, struct agentctl_open *o)
{
	const char	*p = text, *end = text + len, *part;
	char		 e[512];
	size_t		 n;

	memset(o, 0, sizeof *o);
	while (p < end && (*p == '\n' || *p == '\r'))
		p++;
	part = p;
	if ((n = open_part(&p, end)) == 0 || agentctl_decode(host, "open",
	    AGENTCTL_VERSION, part, n, 0, 0, &o->lease, o->err,
	    sizeof o->err) == -1) {
		if (n == 0)
			util_seterr(o->err, sizeof o->err, "%s: labrat-agent "
			    "open: no answer", host);
		agentctl_reply_free(&o->lease);
		memset(&o->lease, 0, sizeof o->lease);
		return -1;
	}
	o->version = o->lease.u.version;
	o->answered = 1;
	memset(&o->lease, 0, sizeof o->lease);
	if (want_lease) {
		part = p;
		if ((n = open_part(&p, end)) == 0)
			goto short_;
		o->has_lease = 1;
		o->lease_rc = agentctl_decode(host, "open lease take",
		    AGENTCTL_LEASE, part, n, 0, 0, &o->lease, o->err,
		    sizeof o->err);
	}
	if (want_facts) {
		part = p;
		if ((n = open_part(&p, end)) == 0)
			goto short_;
		o->has_facts = 1;
		o->facts_rc = agentctl_decode(host, "open facts",
		    AGENTCTL_FACTS, part, n, 0, 0, &o->facts, e, sizeof e);
		if (o->facts_rc == -1 && o->err[0] == '\0')
			snprintf(o->err, sizeof o->err, "%s", e);
		if (o->facts_rc == 0)
			o->facts.raw = xstrndup(part, n);
		if (o->facts.raw != NULL)
			o->facts.rawlen = strlen(o->facts.raw);
	}
	while (p < end && (*p == '\n' || *p == '\r' || *p == ' '))
		p++;
	if (p == end)
		return 0;
	util_seterr(o->err, sizeof o->err, "%s: labrat-agent open: more "
	    "output than its parts", host);
	return -1;
short_:
	util_seterr(o->err, sizeof o->err, "%s: labrat-agent open: the %s "
	    "part is missing", host, want_lease && !o->has_lease ? "lease" :
	    "facts");
	return -1;
}

void
agentctl_open_free(struct agentctl_open *o)
{
	if (o == NULL)
		return;
	agentctl_reply_free(&o->lease);
	agentctl_reply_free(&o->facts);
	memset(o, 0, sizeof *o);
}

void
agentctl_reply_free(struct agentctl_reply *r)
{
	if (r == NULL)
		return;
	if (r->cmd == AGENTCTL_IPERF)
		free(r->u.iperf.intervals);
	r->u.iperf.intervals = NULL;
	free(r->raw);
	r->raw = NULL;
}
