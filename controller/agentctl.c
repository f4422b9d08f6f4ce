/*
 * agentctl: see agentctl.h.  The decoder walks the agent's stdout line by
 * line; field getters record the first problem as "HOST: labrat-agent CMD:
 * PATH: what" so a caller sees exactly which host, command and field.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "agentctl.h"
#include "log.h"
#include "ssh.h"
#include "util.h"

#define AGENTCTL_PATH_MAX	512

extern const struct embed_file agentctl_sources[];

struct agentctl {
	struct ssh_conn	*ssh;
	char		 base[AGENTCTL_PATH_MAX];	/* STATE/agent */
	char		 path[AGENTCTL_PATH_MAX];	/* .../HASH/labrat-agent */
};

/* Decoding context: the first error wins, later getters are no-ops. */
struct jctx {
	const char	*host;
	const char	*what;
	char		*err;
	size_t		 errlen;
	int		 failed;
};

static const char *cmd_names[] = {
	[AGENTCTL_VERSION] = "version",
	[AGENTCTL_FACTS] = "facts",
	[AGENTCTL_APPLY] = "apply",
	[AGENTCTL_RESTORE] = "restore",
	[AGENTCTL_CONFIRM] = "confirm",
	[AGENTCTL_SERVE] = "serve",
	[AGENTCTL_SERVE_STOP] = "serve-stop",
	[AGENTCTL_IPERF] = "iperf",
	[AGENTCTL_SCP] = "scp",
	[AGENTCTL_KEYGEN] = "keygen",
	[AGENTCTL_AUTHORIZE] = "authorize",
	[AGENTCTL_DEAUTHORIZE] = "deauthorize",
};

const char *
agentctl_cmd_name(enum agentctl_cmd c)
{
	if ((size_t)c >= sizeof cmd_names / sizeof cmd_names[0])
		return "?";
	return cmd_names[c];
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
	for (i = 0; i < sizeof cmd_names / sizeof cmd_names[0]; i++)
		if (i != AGENTCTL_SERVE_STOP && strcmp(args[0], cmd_names[i]) == 0)
			return (int)i;
	return -1;
}

static void
jfail(struct jctx *j, const char *path, const char *key, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
jfail(struct jctx *j, const char *path, const char *key, const char *fmt,
    ...)
{
	char	msg[512];
	va_list	ap;

	if (j->failed)
		return;
	j->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	util_seterr(j->err, j->errlen, "%s: labrat-agent %s: %s%s%s: %s",
	    j->host, j->what, path, key != NULL ? "." : "",
	    key != NULL ? key : "", msg);
}

/* The member key of o; NULL (after jfail) when missing and required. */
static struct json_object *
jget(struct jctx *j, struct json_object *o, const char *path, const char *key,
    int *isnull)
{
	struct json_object	*v;

	*isnull = 0;
	if (j->failed)
		return NULL;
	if (!json_object_object_get_ex(o, key, &v)) {
		jfail(j, path, key, "missing");
		return NULL;
	}
	if (v == NULL)
		*isnull = 1;
	return v;
}

static void
jstr(struct jctx *j, struct json_object *o, const char *path, const char *key,
    int nullable, char *dst, size_t n)
{
	struct json_object	*v;
	const char		*s;
	int			 isnull;

	dst[0] = '\0';
	v = jget(j, o, path, key, &isnull);
	if (isnull && nullable)
		return;
	if (v == NULL || j->failed) {
		if (isnull)
			jfail(j, path, key, "is null");
		return;
	}
	if (!json_object_is_type(v, json_type_string)) {
		jfail(j, path, key, "not a string");
		return;
	}
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) >= n ||
	    strlen(s) != (size_t)json_object_get_string_len(v)) {
		jfail(j, path, key, "string too long or has NUL bytes");
		return;
	}
	memcpy(dst, s, strlen(s) + 1);
}

/* Numbers: integers or doubles; int-ness checked by jint. */
static void
jdbl(struct jctx *j, struct json_object *o, const char *path, const char *key,
    int nullable, double *dst)
{
	struct json_object	*v;
	int			 isnull;

	*dst = NAN;
	v = jget(j, o, path, key, &isnull);
	if (isnull && nullable)
		return;
	if (v == NULL || j->failed) {
		if (isnull)
			jfail(j, path, key, "is null");
		return;
	}
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double)) {
		jfail(j, path, key, "not a number");
		return;
	}
	*dst = json_object_get_double(v);
	if (!isfinite(*dst))
		jfail(j, path, key, "not a finite number");
}

static void
jint(struct jctx *j, struct json_object *o, const char *path, const char *key,
    int nullable, long long *dst)
{
	double	d;

	*dst = AGENTCTL_NONE;
	jdbl(j, o, path, key, nullable, &d);
	if (j->failed || isnan(d))
		return;
	if (d < -9.0e18 || d > 9.0e18 || (double)(long long)d != d) {
		jfail(j, path, key, "not an integer");
		return;
	}
	*dst = (long long)d;
}

static void
jbool(struct jctx *j, struct json_object *o, const char *path, const char *key,
    int nullable, int *dst)
{
	struct json_object	*v;
	int			 isnull;

	*dst = AGENTCTL_NONE;
	v = jget(j, o, path, key, &isnull);
	if (isnull && nullable)
		return;
	if (v == NULL || j->failed) {
		if (isnull)
			jfail(j, path, key, "is null");
		return;
	}
	if (!json_object_is_type(v, json_type_boolean)) {
		jfail(j, path, key, "not a boolean");
		return;
	}
	*dst = json_object_get_boolean(v) ? 1 : 0;
}

static struct json_object *
jtyped(struct jctx *j, struct json_object *o, const char *path,
    const char *key, enum json_type t, int nullable)
{
	struct json_object	*v;
	int			 isnull;

	v = jget(j, o, path, key, &isnull);
	if (isnull && nullable)
		return NULL;
	if (j->failed)
		return NULL;
	if (v == NULL || !json_object_is_type(v, t)) {
		jfail(j, path, key, "not %s", t == json_type_array ?
		    "an array" : "an object");
		return NULL;
	}
	return v;
}

/* A list of short strings. */
static void
jstrlist(struct jctx *j, struct json_object *o, const char *path,
    const char *key, char (*dst)[16], size_t max, size_t *n)
{
	struct json_object	*a, *e;
	size_t			 i, len;

	*n = 0;
	if ((a = jtyped(j, o, path, key, json_type_array, 0)) == NULL)
		return;
	len = json_object_array_length(a);
	if (len > max) {
		jfail(j, path, key, "more than %zu entries", max);
		return;
	}
	for (i = 0; i < len; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_string) ||
		    (size_t)json_object_get_string_len(e) >= 16) {
			jfail(j, path, key, "[%zu] not a short string", i);
			return;
		}
		snprintf(dst[i], 16, "%s", json_object_get_string(e));
	}
	*n = len;
}

static void
dec_version(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	jstr(j, o, "result", "version", 0, r->u.version.version,
	    sizeof r->u.version.version);
	jstr(j, o, "result", "source_hash", 0, r->u.version.source_hash,
	    sizeof r->u.version.source_hash);
}

static void
dec_nic(struct jctx *j, struct json_object *o, const char *p,
    struct agentctl_nic *n)
{
	jstr(j, o, p, "name", 0, n->name, sizeof n->name);
	jstr(j, o, p, "driver", 1, n->driver, sizeof n->driver);
	jstr(j, o, p, "pci_vendor", 1, n->pci_vendor, sizeof n->pci_vendor);
	jstr(j, o, p, "pci_device", 1, n->pci_device, sizeof n->pci_device);
	jstr(j, o, p, "chip", 1, n->chip, sizeof n->chip);
	jint(j, o, p, "speed_mbps", 1, &n->speed_mbps);
	jstr(j, o, p, "duplex", 1, n->duplex, sizeof n->duplex);
	jint(j, o, p, "mtu", 1, &n->mtu);
	jbool(j, o, p, "tso", 1, &n->tso);
	jbool(j, o, p, "lro", 1, &n->lro);
	jbool(j, o, p, "rxcsum", 1, &n->rxcsum);
	jbool(j, o, p, "txcsum", 1, &n->txcsum);
}

static void
dec_facts(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_facts	*f = &r->u.facts;
	struct json_object	*k, *a, *t;
	char			 p[64];
	size_t			 i, n;

	jstr(j, o, "result", "os", 0, f->os, sizeof f->os);
	jstr(j, o, "result", "hostname", 0, f->hostname, sizeof f->hostname);
	if ((k = jtyped(j, o, "result", "kernel", json_type_object, 0)) !=
	    NULL) {
		jstr(j, k, "kernel", "release", 0, f->kernel_release,
		    sizeof f->kernel_release);
		jstr(j, k, "kernel", "version", 0, f->kernel_version,
		    sizeof f->kernel_version);
		jstr(j, k, "kernel", "revision", 1, f->kernel_revision,
		    sizeof f->kernel_revision);
		jint(j, k, "kernel", "osreldate", 1, &f->osreldate);
	}
	if ((a = jtyped(j, o, "result", "nics", json_type_array, 0)) != NULL) {
		n = json_object_array_length(a);
		if (n > AGENTCTL_NICS_MAX)
			jfail(j, "result", "nics", "more than %d NICs",
			    AGENTCTL_NICS_MAX);
		for (i = 0; i < n && !j->failed; i++) {
			snprintf(p, sizeof p, "nics[%zu]", i);
			if (!json_object_is_type(json_object_array_get_idx(a,
			    i), json_type_object)) {
				jfail(j, p, NULL, "not an object");
				break;
			}
			dec_nic(j, json_object_array_get_idx(a, i), p,
			    &f->nics[i]);
		}
		f->nnics = j->failed ? 0 : n;
	}
	if ((t = jtyped(j, o, "result", "tools", json_type_object, 0)) !=
	    NULL) {
		/* A tool the host lacks may be absent or null. */
		if (json_object_object_get_ex(t, "iperf2", NULL))
			jstr(j, t, "tools", "iperf2", 1, f->iperf2,
			    sizeof f->iperf2);
		if (json_object_object_get_ex(t, "iperf3", NULL))
			jstr(j, t, "tools", "iperf3", 1, f->iperf3,
			    sizeof f->iperf3);
		if (json_object_object_get_ex(t, "scp", NULL))
			jstr(j, t, "tools", "scp", 1, f->scp, sizeof f->scp);
	}
}

/* Knob objects hold only the knobs asked for / known. */
static void
dec_knobs(struct jctx *j, struct json_object *o, const char *p,
    struct agentctl_knobs *k)
{
	k->tso = k->lro = k->rxcsum = k->txcsum = AGENTCTL_NONE;
	k->mtu = AGENTCTL_NONE;
	k->nat[0] = '\0';
	if (json_object_object_get_ex(o, "tso", NULL))
		jbool(j, o, p, "tso", 1, &k->tso);
	if (json_object_object_get_ex(o, "lro", NULL))
		jbool(j, o, p, "lro", 1, &k->lro);
	if (json_object_object_get_ex(o, "rxcsum", NULL))
		jbool(j, o, p, "rxcsum", 1, &k->rxcsum);
	if (json_object_object_get_ex(o, "txcsum", NULL))
		jbool(j, o, p, "txcsum", 1, &k->txcsum);
	if (json_object_object_get_ex(o, "mtu", NULL))
		jint(j, o, p, "mtu", 1, &k->mtu);
	if (json_object_object_get_ex(o, "nat", NULL))
		jstr(j, o, p, "nat", 1, k->nat, sizeof k->nat);
}

static void
dec_apply(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_apply	*a = &r->u.apply;
	struct json_object	*k;

	jstr(j, o, "result", "if", 0, a->ifname, sizeof a->ifname);
	jbool(j, o, "result", "saved", 0, &a->saved);
	if ((k = jtyped(j, o, "result", "requested", json_type_object, 0)))
		dec_knobs(j, k, "requested", &a->requested);
	if ((k = jtyped(j, o, "result", "in_force", json_type_object, 0)))
		dec_knobs(j, k, "in_force", &a->in_force);
	jstrlist(j, o, "result", "mismatch", a->mismatch, AGENTCTL_LIST_MAX,
	    &a->nmismatch);
	jint(j, o, "result", "rollback_pid", 1, &a->rollback_pid);
	jint(j, o, "result", "rollback_at", 1, &a->rollback_at);
}

static void
dec_restore(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_restore	*s = &r->u.restore;

	jstr(j, o, "result", "if", 0, s->ifname, sizeof s->ifname);
	jbool(j, o, "result", "was_saved", 0, &s->was_saved);
	jstrlist(j, o, "result", "changed", s->changed, AGENTCTL_LIST_MAX,
	    &s->nchanged);
}

static void
dec_confirm(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	jstr(j, o, "result", "if", 0, r->u.confirm.ifname,
	    sizeof r->u.confirm.ifname);
	jbool(j, o, "result", "cancelled", 0, &r->u.confirm.cancelled);
}

static void
dec_serve(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_serve	*s = &r->u.serve;

	jstr(j, o, "result", "tool", 0, s->tool, sizeof s->tool);
	jint(j, o, "result", "pid", 0, &s->pid);
	jstr(j, o, "result", "bind", 0, s->bind, sizeof s->bind);
	jint(j, o, "result", "port", 0, &s->port);
}

static void
dec_serve_stop(struct jctx *j, struct json_object *o,
    struct agentctl_reply *r)
{
	struct agentctl_serve_stop	*s = &r->u.serve_stop;
	struct json_object		*a, *e;
	size_t				 i, n;

	if ((a = jtyped(j, o, "result", "stopped", json_type_array, 0)) ==
	    NULL)
		return;
	n = json_object_array_length(a);
	if (n > AGENTCTL_LIST_MAX) {
		jfail(j, "result", "stopped", "more than %d pids",
		    AGENTCTL_LIST_MAX);
		return;
	}
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_int)) {
			jfail(j, "result", "stopped", "[%zu] not a pid", i);
			return;
		}
		s->stopped[i] = json_object_get_int64(e);
	}
	s->nstopped = n;
}

static void
dec_counters(struct jctx *j, struct json_object *o, const char *p,
    struct agentctl_ifcounters *c)
{
	jint(j, o, p, "rx_bytes", 1, &c->rx_bytes);
	jint(j, o, p, "rx_packets", 1, &c->rx_packets);
	jint(j, o, p, "rx_errors", 1, &c->rx_errors);
	jint(j, o, p, "rx_dropped", 1, &c->rx_dropped);
	jint(j, o, p, "tx_bytes", 1, &c->tx_bytes);
	jint(j, o, p, "tx_packets", 1, &c->tx_packets);
	jint(j, o, p, "tx_errors", 1, &c->tx_errors);
	jint(j, o, p, "tx_dropped", 1, &c->tx_dropped);
}

static void
dec_iperf_parts(struct jctx *j, struct json_object *o,
    struct agentctl_iperf *ip)
{
	struct json_object	*a, *e;
	char			 p[64];
	size_t			 i, n;

	/* procs, cpu and ifstats are optional: absent = null. */
	if (json_object_object_get_ex(o, "procs", NULL) &&
	    (a = jtyped(j, o, "result", "procs", json_type_array, 1))) {
		n = json_object_array_length(a);
		if (n > AGENTCTL_LIST_MAX)
			jfail(j, "result", "procs", "too many entries");
		for (i = 0; i < n && !j->failed; i++) {
			e = json_object_array_get_idx(a, i);
			snprintf(p, sizeof p, "procs[%zu]", i);
			jstr(j, e, p, "name", 0, ip->procs[i].name,
			    sizeof ip->procs[i].name);
			jdbl(j, e, p, "cpu_seconds", 1,
			    &ip->procs[i].cpu_seconds);
			jdbl(j, e, p, "cpu_percent", 1,
			    &ip->procs[i].cpu_percent);
		}
		ip->nprocs = j->failed ? 0 : n;
	}
	if (json_object_object_get_ex(o, "ifstats", NULL) &&
	    (a = jtyped(j, o, "result", "ifstats", json_type_object, 1))) {
		ip->has_ifstats = 1;
		jstr(j, a, "ifstats", "if", 0, ip->ifstats_if,
		    sizeof ip->ifstats_if);
		/* A side the OS could not read is null: all -1. */
		memset(&ip->if_before, 0xff, sizeof ip->if_before);
		memset(&ip->if_after, 0xff, sizeof ip->if_after);
		if ((e = jtyped(j, a, "ifstats", "before", json_type_object,
		    1)))
			dec_counters(j, e, "ifstats.before", &ip->if_before);
		if ((e = jtyped(j, a, "ifstats", "after", json_type_object,
		    1)))
			dec_counters(j, e, "ifstats.after", &ip->if_after);
	}
}

static void
dec_iperf(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_iperf	*ip = &r->u.iperf;
	struct json_object	*a, *e;
	char			 p[64];
	size_t			 i, n;

	jstr(j, o, "result", "tool", 0, ip->tool, sizeof ip->tool);
	jdbl(j, o, "result", "bytes", 0, &ip->bytes);
	jdbl(j, o, "result", "seconds", 0, &ip->seconds);
	jdbl(j, o, "result", "bps", 0, &ip->bps);
	jint(j, o, "result", "window_requested", 1, &ip->window_requested);
	jint(j, o, "result", "window_granted", 1, &ip->window_granted);
	jint(j, o, "result", "retransmits", 1, &ip->retransmits);
	if ((a = jtyped(j, o, "result", "intervals", json_type_array, 0))) {
		n = json_object_array_length(a);
		ip->intervals = xcalloc(n, sizeof *ip->intervals);
		for (i = 0; i < n && !j->failed; i++) {
			e = json_object_array_get_idx(a, i);
			snprintf(p, sizeof p, "intervals[%zu]", i);
			jdbl(j, e, p, "start", 0, &ip->intervals[i].start);
			jdbl(j, e, p, "end", 0, &ip->intervals[i].end);
			jdbl(j, e, p, "bytes", 1, &ip->intervals[i].bytes);
			jdbl(j, e, p, "bps", 0, &ip->intervals[i].bps);
		}
		ip->nintervals = n;
	}
	ip->cpu_user = ip->cpu_sys = ip->cpu_idle = NAN;
	if (json_object_object_get_ex(o, "cpu", NULL) &&
	    (a = jtyped(j, o, "result", "cpu", json_type_object, 1))) {
		jdbl(j, a, "cpu", "user", 1, &ip->cpu_user);
		jdbl(j, a, "cpu", "sys", 1, &ip->cpu_sys);
		jdbl(j, a, "cpu", "idle", 1, &ip->cpu_idle);
	}
	dec_iperf_parts(j, o, ip);
}

static void
dec_scp(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	jdbl(j, o, "result", "bytes", 0, &r->u.scp.bytes);
	jdbl(j, o, "result", "seconds", 0, &r->u.scp.seconds);
	jdbl(j, o, "result", "bps", 0, &r->u.scp.bps);
}

static void
dec_keys(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	struct agentctl_authorize	*au = &r->u.authorize;
	struct json_object		*a, *e;
	size_t				 i, n;

	switch (r->cmd) {
	case AGENTCTL_KEYGEN:
		jstr(j, o, "result", "tag", 0, r->u.keygen.tag,
		    sizeof r->u.keygen.tag);
		jstr(j, o, "result", "key", 0, r->u.keygen.key,
		    sizeof r->u.keygen.key);
		jstr(j, o, "result", "pubkey", 0, r->u.keygen.pubkey,
		    sizeof r->u.keygen.pubkey);
		return;
	case AGENTCTL_DEAUTHORIZE:
		jstr(j, o, "result", "tag", 0, r->u.deauthorize.tag,
		    sizeof r->u.deauthorize.tag);
		return;
	default:
		break;
	}
	jstr(j, o, "result", "tag", 0, au->tag, sizeof au->tag);
	if ((a = jtyped(j, o, "result", "hostkeys", json_type_array, 0)) ==
	    NULL)
		return;
	n = json_object_array_length(a);
	if (n > AGENTCTL_HOSTKEYS_MAX) {
		jfail(j, "result", "hostkeys", "too many entries");
		return;
	}
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_string) ||
		    (size_t)json_object_get_string_len(e) >=
		    sizeof au->hostkeys[0]) {
			jfail(j, "result", "hostkeys", "[%zu] not a key", i);
			return;
		}
		snprintf(au->hostkeys[i], sizeof au->hostkeys[0], "%s",
		    json_object_get_string(e));
	}
	au->nhostkeys = n;
}

static void
dec_result(struct jctx *j, struct json_object *o, struct agentctl_reply *r)
{
	char	cmd[32];

	jstr(j, o, "result", "cmd", 0, cmd, sizeof cmd);
	if (j->failed)
		return;
	if (strcmp(cmd, agentctl_cmd_name(r->cmd)) != 0) {
		jfail(j, "result", "cmd", "\"%s\", expected \"%s\"", cmd,
		    agentctl_cmd_name(r->cmd));
		return;
	}
	switch (r->cmd) {
	case AGENTCTL_VERSION:
		dec_version(j, o, r);
		break;
	case AGENTCTL_FACTS:
		dec_facts(j, o, r);
		break;
	case AGENTCTL_APPLY:
		dec_apply(j, o, r);
		break;
	case AGENTCTL_RESTORE:
		dec_restore(j, o, r);
		break;
	case AGENTCTL_CONFIRM:
		dec_confirm(j, o, r);
		break;
	case AGENTCTL_SERVE:
		dec_serve(j, o, r);
		break;
	case AGENTCTL_SERVE_STOP:
		dec_serve_stop(j, o, r);
		break;
	case AGENTCTL_IPERF:
		dec_iperf(j, o, r);
		break;
	case AGENTCTL_SCP:
		dec_scp(j, o, r);
		break;
	case AGENTCTL_KEYGEN:
	case AGENTCTL_AUTHORIZE:
	case AGENTCTL_DEAUTHORIZE:
		dec_keys(j, o, r);
		break;
	}
}

/* One line: a JSON object with proto 1 and a known event. */
static void
dec_line(struct jctx *j, struct json_tokener *tok, const char *line,
    size_t len, size_t lineno, struct agentctl_reply *r, int *nresults)
{
	struct json_object	*o;
	char			 where[32], ev[16];
	long long		 proto;

	snprintf(where, sizeof where, "line %zu", lineno);
	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (o == NULL || json_tokener_get_parse_end(tok) != len ||
	    !json_object_is_type(o, json_type_object)) {
		jfail(j, where, NULL, "not one JSON object (%s): \"%.60s\"",
		    o == NULL ? json_tokener_error_desc(
		    json_tokener_get_error(tok)) : "trailing data or not an "
		    "object", line);
		json_object_put(o);
		return;
	}
	jint(j, o, where, "proto", 0, &proto);
	if (!j->failed && proto != AGENTCTL_PROTO)
		jfail(j, where, "proto", "unknown protocol version %lld "
		    "(this labrat speaks %d)", proto, AGENTCTL_PROTO);
	jstr(j, o, where, "event", 0, ev, sizeof ev);
	if (j->failed)
		goto done;
	if (strcmp(ev, "result") == 0) {
		if (++*nresults > 1) {
			jfail(j, where, NULL, "a second result");
			goto done;
		}
		dec_result(j, o, r);
		r->has_result = !j->failed;
	} else if (strcmp(ev, "error") == 0) {
		jstr(j, o, where, "class", 0, r->error_class,
		    sizeof r->error_class);
		jstr(j, o, where, "message", 0, r->error_message,
		    sizeof r->error_message);
		if (r->error_class[0] == '\0')
			snprintf(r->error_class, sizeof r->error_class, "?");
	} else if (strcmp(ev, "progress") != 0)
		jfail(j, where, "event", "unknown event \"%s\"", ev);
done:
	json_object_put(o);
}

int
agentctl_decode(const char *host, const char *what, enum agentctl_cmd cmd,
    const char *text, size_t len, int truncated, int exit_status,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	struct json_tokener	*tok;
	struct jctx		 j = { host, what, err, errlen, 0 };
	const char		*p = text, *end = text + len, *nl;
	size_t			 n, lineno = 0;
	int			 nresults = 0;

	memset(r, 0, sizeof *r);
	r->cmd = cmd;
	r->exit_status = exit_status;
	if (truncated) {
		jfail(&j, "output", NULL, "larger than %u bytes",
		    AGENTCTL_OUT_MAX);
		return -1;
	}
	if ((tok = json_tokener_new_ex(64)) == NULL)
		fatalx("json_tokener_new");
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

const struct agentctl_bundle *
agentctl_builtin(void)
{
	static const struct agentctl_bundle b = { LABRAT_AGENT_HASH,
	    agentctl_sources };

	return &b;
}

struct agentctl *
agentctl_new(struct ssh_conn *ssh)
{
	struct agentctl	*a;

	a = xcalloc(1, sizeof *a);
	a->ssh = ssh;
	return a;
}

void
agentctl_free(struct agentctl *a)
{
	free(a);
}

const char *
agentctl_path(const struct agentctl *a)
{
	return a->path;
}

/* Runs a /bin/sh script on the host (quoted, so any login shell works). */
static int
run_sh(struct agentctl *a, const char *script, int64_t deadline,
    struct buf *out, struct buf *eb, struct ssh_result *res, char *err,
    size_t errlen)
{
	struct buf	cmd;
	int64_t		left = deadline - util_now_ms();
	int		st;

	if (left <= 0) {
		util_seterr(err, errlen, "%s: deploy: out of time",
		    ssh_name(a->ssh));
		return -1;
	}
	buf_init(&cmd, 64 * 1024);
	buf_append(&cmd, "/bin/sh -c ", 11);
	ssh_quote(&cmd, script);
	st = ssh_exec(a->ssh, cmd.data, (int)left, out, eb, res, err, errlen);
	buf_free(&cmd);
	return st == SSH_OK ? 0 : -1;
}

/* Where agents live on this host: STATE/agent. */
static int
agent_base(struct agentctl *a, int64_t deadline, char *err, size_t errlen)
{
	struct ssh_result	 res;
	struct buf		 out, eb;
	char			 os[64], state[AGENTCTL_PATH_MAX];
	const char		*base;
	int			 r = -1;

	buf_init(&out, 8192);
	buf_init(&eb, 8192);
	if (run_sh(a, "uname -s; printf '%s\\n' \"${LABRAT_AGENT_STATE:-}\"",
	    deadline, &out, &eb, &res, err, errlen) == -1)
		goto done;
	if (res.exit_status != 0 || out.data == NULL ||
	    sscanf(out.data, "%63[^\n]\n", os) != 1) {
		util_seterr(err, errlen, "%s: uname -s failed (exit %d): %.200s",
		    ssh_name(a->ssh), res.exit_status, eb.data ? eb.data : "");
		goto done;
	}
	state[0] = '\0';
	if (out.len > strlen(os) + 1)
		sscanf(out.data + strlen(os) + 1, "%511[^\n]", state);
	if (state[0] != '\0')
		base = state;
	else if (strcmp(os, "FreeBSD") == 0)
		base = "/var/db/labrat";
	else if (strcmp(os, "Linux") == 0)
		base = "/var/lib/labrat";
	else {
		util_seterr(err, errlen, "%s: unsupported OS \"%s\" (labrat-agent "
		    "runs on FreeBSD and Linux)", ssh_name(a->ssh), os);
		goto done;
	}
	if (base[0] != '/' || strstr(base, "..") != NULL) {
		util_seterr(err, errlen, "%s: LABRAT_AGENT_STATE \"%s\" is not "
		    "an absolute path", ssh_name(a->ssh), base);
		goto done;
	}
	if (snprintf(a->base, sizeof a->base, "%s/agent", base) >=
	    (int)sizeof a->base) {
		util_seterr(err, errlen, "%s: agent state path %s too long",
		    ssh_name(a->ssh), base);
		a->base[0] = '\0';
		goto done;
	}
	r = 0;
done:
	buf_free(&out);
	buf_free(&eb);
	return r;
}

/* The source_hash the installed agent reports, "" when there is none. */
static void
agent_installed_hash(struct agentctl *a, int64_t deadline, char *hash,
    size_t n)
{
	static const char *args[] = { "--version", NULL };
	struct agentctl_reply	r;
	char			err[512];
	int64_t			left = deadline - util_now_ms();

	hash[0] = '\0';
	if (left <= 0)
		return;
	if (agentctl_call(a, args, (int)(left < 15000 ? left : 15000), &r,
	    err, sizeof err) == 0)
		snprintf(hash, n, "%s", r.u.version.source_hash);
	else
		log_debug("%s: no usable agent at %s: %s", ssh_name(a->ssh),
		    a->path, err);
	agentctl_reply_free(&r);
}

static int
bundle_check(const struct agentctl_bundle *b, char *err, size_t errlen)
{
	size_t	i;

	if (strlen(b->hash) < 1 || strlen(b->hash) > 64 ||
	    strspn(b->hash, "0123456789abcdef") != strlen(b->hash)) {
		util_seterr(err, errlen, "agent hash \"%s\" is not hex",
		    b->hash);
		return -1;
	}
	for (i = 0; b->files[i].name != NULL; i++)
		if (strspn(b->files[i].name, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
		    strlen(b->files[i].name) || b->files[i].name[0] == '.') {
			util_seterr(err, errlen, "agent source name \"%s\"",
			    b->files[i].name);
			return -1;
		}
	return 0;
}

/* Uploads the bundle's files into dir on the host. */
static int
agent_upload(struct agentctl *a, const struct agentctl_bundle *b,
    const char *dir, int64_t deadline, char *err, size_t errlen)
{
	struct ssh_file	*files;
	size_t		 i, n;
	int		 st;

	for (n = 0; b->files[n].name != NULL; n++)
		;
	files = xcalloc(n, sizeof *files);
	for (i = 0; i < n; i++) {
		files[i].path = xasprintf("%s/%s", dir, b->files[i].name);
		files[i].data = b->files[i].data;
		files[i].len = b->files[i].len;
		files[i].mode = 0644;
	}
	st = ssh_upload(a->ssh, files, n, (int)(deadline - util_now_ms()), err,
	    errlen);
	for (i = 0; i < n; i++)
		free((char *)files[i].path);
	free(files);
	return st == SSH_OK ? 0 : -1;
}

/* Uploads the sources to a fresh directory below base and builds there. */
static int
agent_build(struct agentctl *a, const struct agentctl_bundle *b,
    int64_t deadline, char *err, size_t errlen)
{
	struct ssh_result	 res;
	struct buf		 out, eb, sc;
	char			 tmp[AGENTCTL_PATH_MAX], define[128];
	int			 r = -1;

	buf_init(&out, 8192);
	buf_init(&eb, AGENTCTL_ERR_MAX);
	buf_init(&sc, 64 * 1024);
	tmp[0] = '\0';
	buf_append(&sc, "umask 022 && mkdir -p ", 22);
	ssh_quote(&sc, a->base);
	buf_printf(&sc, " && mktemp -d ");
	ssh_quote(&sc, a->base);
	buf_printf(&sc, "/.build.XXXXXX");
	if (run_sh(a, sc.data, deadline, &out, &eb, &res, err, errlen) == -1)
		goto done;
	if (res.exit_status != 0 || out.data == NULL ||
	    sscanf(out.data, "%511[^\n]", tmp) != 1 ||
	    strncmp(tmp, a->base, strlen(a->base)) != 0) {
		util_seterr(err, errlen, "%s: deploy: mkdir/mktemp in %s failed "
		    "(exit %d): %.300s", ssh_name(a->ssh), a->base,
		    res.exit_status, eb.data != NULL ? eb.data : "");
		tmp[0] = '\0';
		goto done;
	}
	if (agent_upload(a, b, tmp, deadline, err, errlen) == -1)
		goto done;

	/* Same file system, so the final mv is an atomic rename(2). */
	buf_reset(&sc);
	buf_reset(&out);
	buf_reset(&eb);
	snprintf(define, sizeof define, "-DLABRAT_AGENT_HASH=\"%s\"", b->hash);
	buf_printf(&sc, "cd ");
	ssh_quote(&sc, tmp);
	buf_printf(&sc, " && cc -O2 ");
	ssh_quote(&sc, define);
	buf_printf(&sc, " *.c -o labrat-agent && mkdir -p ");
	ssh_quote(&sc, a->base);
	buf_printf(&sc, "/%s && mv -f labrat-agent ", b->hash);
	ssh_quote(&sc, a->path);
	if (run_sh(a, sc.data, deadline, &out, &eb, &res, err, errlen) == -1)
		goto done;
	if (res.exit_status != 0) {
		util_seterr(err, errlen, "%s: build labrat-agent with the host's "
		    "cc failed (exit %d): %.600s", ssh_name(a->ssh),
		    res.exit_status, eb.data != NULL ? eb.data : "");
		goto done;
	}
	r = 0;
done:
	if (tmp[0] != '\0' && deadline > util_now_ms()) {
		buf_reset(&sc);
		buf_printf(&sc, "rm -rf ");
		ssh_quote(&sc, tmp);
		if (run_sh(a, sc.data, deadline, &out, &eb, &res, NULL, 0) ==
		    -1 || res.exit_status != 0)
			log_warnx("%s: could not remove %s", ssh_name(a->ssh),
			    tmp);
	}
	buf_free(&out);
	buf_free(&eb);
	buf_free(&sc);
	return r;
}

int
agentctl_deploy(struct agentctl *a, const struct agentctl_bundle *b,
    int timeout_ms, struct agentctl_deploy_info *info, char *err,
    size_t errlen)
{
	int64_t	start = util_now_ms(), deadline = start + timeout_ms;
	char	have[64];

	memset(info, 0, sizeof *info);
	if (b == NULL)
		b = agentctl_builtin();
	if (bundle_check(b, err, errlen) == -1)
		return -1;
	if (a->base[0] == '\0' && agent_base(a, deadline, err, errlen) == -1)
		return -1;
	if (snprintf(a->path, sizeof a->path, "%s/%s/labrat-agent", a->base,
	    b->hash) >= (int)sizeof a->path) {
		util_seterr(err, errlen, "%s: agent path below %s too long",
		    ssh_name(a->ssh), a->base);
		return -1;
	}
	snprintf(info->path, sizeof info->path, "%s", a->path);
	agent_installed_hash(a, deadline, have, sizeof have);
	if (strcmp(have, b->hash) != 0) {
		log_info("%s: installing labrat-agent %s (found %s)",
		    ssh_name(a->ssh), b->hash, have[0] != '\0' ? have : "none");
		if (agent_build(a, b, deadline, err, errlen) == -1)
			return -1;
		info->built = 1;
		agent_installed_hash(a, deadline, have, sizeof have);
		if (strcmp(have, b->hash) != 0) {
			util_seterr(err, errlen, "%s: the freshly built %s "
			    "reports source_hash \"%s\", expected \"%s\"",
			    ssh_name(a->ssh), a->path, have, b->hash);
			return -1;
		}
	}
	info->ms = util_now_ms() - start;
	return 0;
}

int
agentctl_call(struct agentctl *a, const char *const *args, int timeout_ms,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	struct ssh_result	 res;
	struct buf		 cmd, out, eb;
	char			 what[96], sshmsg[512];
	size_t			 i;
	int			 kind, st, rc = -1;

	memset(r, 0, sizeof *r);
	what[0] = '\0';
	for (i = 0; args[i] != NULL && strlen(what) < 64; i++)
		snprintf(what + strlen(what), sizeof what - strlen(what),
		    "%s%.40s", i > 0 ? " " : "", args[i]);
	if ((kind = agentctl_cmd_of(args)) == -1 || a->path[0] == '\0') {
		util_seterr(err, errlen, "%s: labrat-agent %s: %s",
		    ssh_name(a->ssh), what, kind == -1 ? "unknown subcommand" :
		    "agent not deployed");
		return -1;
	}
	buf_init(&cmd, 64 * 1024);
	buf_init(&out, AGENTCTL_OUT_MAX);
	buf_init(&eb, AGENTCTL_ERR_MAX);
	ssh_quote(&cmd, a->path);
	for (i = 0; args[i] != NULL; i++) {
		buf_append(&cmd, " ", 1);
		ssh_quote(&cmd, args[i]);
	}
	st = ssh_exec(a->ssh, cmd.data, timeout_ms, &out, &eb, &res, err,
	    errlen);
	if (st == SSH_EOUTPUT) {
		util_seterr(err, errlen, "%s: labrat-agent %s: output larger "
		    "than %u bytes", ssh_name(a->ssh), what, AGENTCTL_OUT_MAX);
		goto done;
	}
	if (st != SSH_OK) {
		snprintf(sshmsg, sizeof sshmsg, "%s", err != NULL ? err : "");
		util_seterr(err, errlen, "%s: labrat-agent %s: %s (%s)",
		    ssh_name(a->ssh), what, ssh_strstatus(st), sshmsg);
		goto done;
	}
	if (res.exit_signal[0] != '\0') {
		util_seterr(err, errlen, "%s: labrat-agent %s: killed by SIG%s",
		    ssh_name(a->ssh), what, res.exit_signal);
		goto done;
	}
	rc = agentctl_decode(ssh_name(a->ssh), what, (enum agentctl_cmd)kind,
	    out.data != NULL ? out.data : "", out.len, 0, res.exit_status, r,
	    err, errlen);
	if (rc == -1 && r->error_class[0] == '\0' && eb.len > 0 &&
	    err != NULL && strlen(err) + 1 < errlen)
		util_seterr(err + strlen(err), errlen - strlen(err),
		    "; stderr: %.300s", eb.data);
	r->raw = buf_release(&out);
	r->rawlen = strlen(r->raw);
done:
	buf_free(&cmd);
	buf_free(&out);
	buf_free(&eb);
	return rc;
}

int
agentctl_facts(struct agentctl *a, const char *ifname, int timeout_ms,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	const char	*args[4] = { "facts", NULL, NULL, NULL };

	if (ifname != NULL) {
		args[1] = "--if";
		args[2] = ifname;
	}
	return agentctl_call(a, args, timeout_ms, r, err, errlen);
}
