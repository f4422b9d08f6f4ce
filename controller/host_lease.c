/*
 * host_lease: the controller's side of the agent's host lease (see host.h
 * and PROTOCOL.md "Host lease").  The agent keeps the lease file and its
 * lock; this file names the owner, takes the lease when a session comes
 * up, renews it before it runs out, extends it over a reboot and gives it
 * back.  Expiry is tracked on our own clock from the agent's answer
 * (expires - now), so a host whose clock is off does not matter.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "agentctl.h"
#include "host.h"
#include "host_int.h"
#include "log.h"
#include "util.h"

#define LEASE_MARGIN_S	30	/* beyond a step's deadline */

/* s made fit for the agent's token alphabet, at most n-1 bytes. */
static void
lease_safe(char *dst, size_t n, const char *s)
{
	size_t	i;

	for (i = 0; s[i] != '\0' && i + 1 < n; i++) {
		char c = s[i];

		dst[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		    c == ':' || c == '@' || c == '-' ? c : '_';
	}
	dst[i] = '\0';
	if (i == 0) {		/* n >= 2 */
		dst[0] = '_';
		dst[1] = '\0';
	} else if (dst[0] == '-')
		dst[0] = '_';
}

/* This machine's host name, agent-safe. */
static void
lease_hostname(char *dst, size_t n)
{
	char	host[256];

	if (gethostname(host, sizeof host) == -1)
		snprintf(host, sizeof host, "unknown");
	host[sizeof host - 1] = '\0';
	lease_safe(dst, n, host);
}

int
host_lease_id_init(struct host_lease_id *id, const char *run, int ttl_s,
    char *err, size_t errlen)
{
	const char	*env = getenv("LABRAT_LEASE_TTL");
	char		 r[17], hn[21], *end;	/* token <= 64 */
	long		 v;

	memset(id, 0, sizeof *id);
	if (ttl_s <= 0 && env != NULL && *env != '\0') {
		errno = 0;
		v = strtol(env, &end, 10);
		if (errno != 0 || *end != '\0' || v < 1 || v > 86400) {
			util_seterr(err, errlen, "LABRAT_LEASE_TTL=\"%.40s\": "
			    "not a number of seconds in 1..86400", env);
			return -1;
		}
		ttl_s = (int)v;
	}
	id->ttl_s = ttl_s > 0 ? ttl_s : HOST_LEASE_TTL_S;
	lease_hostname(id->host, sizeof id->host);
	lease_safe(r, sizeof r, run != NULL && *run != '\0' ? run : "0");
	snprintf(id->run, sizeof id->run, "%s", r);
	id->pid = (long)getpid();
	lease_safe(hn, sizeof hn, id->host);
	snprintf(id->token, sizeof id->token, "%s:%ld:%s:%lld", hn, id->pid,
	    r, (long long)time(NULL));
	return 0;
}

/*
 * One `lease ...` call.  A refusal reads as the agent's own words after
 * the host's name ("em-a: leased by ctl2 pid 4711 run 12 since 06:41,
 * expires 06:58").  r is freed here; *out gets the lease result.
 */
static int
lease_call(struct host *h, const char *const *args, struct agentctl_lease *out,
    char *cls, size_t clslen, char *err, size_t errlen)
{
	struct agentctl		*a = host_agent(h);
	struct agentctl_reply	 r;
	int			 rc;

	if (out != NULL)
		memset(out, 0, sizeof *out);
	if (cls != NULL)
		cls[0] = '\0';
	if (a == NULL) {
		util_seterr(err, errlen, "%s: not connected", host_name(h));
		return -1;
	}
	rc = agentctl_call(a, args, HOST_LEASE_CALL_MS, &r, err, errlen);
	if (rc == -1 && (strcmp(r.error_class, "leased") == 0 ||
	    strcmp(r.error_class, "unleased") == 0))
		util_seterr(err, errlen, "%s: %s", host_name(h),
		    r.error_message);
	if (rc == 0 && out != NULL)
		*out = r.u.lease;
	if (cls != NULL)
		snprintf(cls, clslen, "%s", r.error_class);
	agentctl_reply_free(&r);
	return rc;
}

/* Notes what the agent answered: held, and until when by our clock. */
static void
lease_note(struct host_lease_state *st, const struct agentctl_lease *l)
{
	st->held = l->has_lease;
	st->expires_ms = util_now_ms() + (l->lease.expires - l->now) * 1000;
}

/*
 * After a refusal: a live lease whose owner ran on this machine and whose
 * process is gone (a SIGKILLed `labrat run` being resumed) need not be
 * waited out.  It is removed, so that the take that follows restores
 * what the dead owner left applied, as after its expiry.  0 when it was
 * removed; -1 leaves err (the refusal) as it was.
 */
static int
lease_takeover(struct host *h, char *err, size_t errlen)
{
	struct agentctl_lease	 cur, rel;
	const char		*show[] = { "lease", "show", NULL };
	const char		*force[] = { "lease", "release", "--force", NULL };
	char			 e[512];

	if (lease_call(h, show, &cur, NULL, 0, e, sizeof e) == -1 ||
	    host_lease_owner(&cur) != HOST_LEASE_DEAD)
		return -1;
	log_warnx("%s: %s, but its controller (pid %lld on this machine) is "
	    "gone: taking the lease over", host_name(h), cur.lease.message,
	    cur.lease.pid);
	if (lease_call(h, force, &rel, NULL, 0, e, sizeof e) == -1) {
		util_seterr(err, errlen, "%s", e);
		return -1;
	}
	return 0;
}

/*
 * A lease command to run inside another: the agent's path, plain as it
 * is, then each of quoted shell-quoted after a space, into dst.  0 or -1
 * with err.
 */
static int
lease_command(struct host *h, const char *plain, const char *const *quoted,
    char *dst, size_t len, char *err, size_t errlen)
{
	struct buf	 b;
	size_t		 i;
	int		 rc = 0;

	dst[0] = '\0';
	if (host_agent(h) == NULL || agentctl_path(host_agent(h))[0] == '\0') {
		util_seterr(err, errlen, "%s: lease: agent not deployed",
		    host_name(h));
		return -1;
	}
	buf_init(&b, len);
	if (util_shell_quote(&b, agentctl_path(host_agent(h))) == -1 ||
	    buf_append(&b, plain, strlen(plain)) == -1)
		rc = -1;
	for (i = 0; rc == 0 && quoted[i] != NULL; i++)
		if (buf_append(&b, " ", 1) == -1 ||
		    util_shell_quote(&b, quoted[i]) == -1)
			rc = -1;
	if (rc == -1 || b.len + 1 > len) {
		util_seterr(err, errlen, "%s: lease: command too long",
		    host_name(h));
		rc = -1;
	} else
		snprintf(dst, len, "%.*s", (int)b.len, b.data);
	buf_free(&b);
	return rc;
}

/* `lease take` of id; pid and ttl are args's number buffers. */
static void
lease_take_args(const struct host_lease_id *id, const char **args,
    char pid[24], char ttl[16])
{
	const char	*a[HOST_LEASE_ARGS] = { "lease", "take", "--owner",
			    id->token, "--host", id->host, "--pid", pid,
			    "--run", id->run, "--ttl", ttl, NULL };

	snprintf(pid, 24, "%ld", id->pid);
	snprintf(ttl, 16, "%d", id->ttl_s);
	memcpy(args, a, sizeof a);
}

void
host_lease_take_args(struct host *h, const char **args, char pid[24],
    char ttl[16])
{
	lease_take_args(host_lease_state(h)->id, args, pid, ttl);
}

static int
lease_take(struct host *h, char *err, size_t errlen)
{
	struct host_lease_state		*st = host_lease_state(h);
	struct agentctl_lease		 l;
	char				 pid[24], ttl[16], cls[16];
	const char			*args[HOST_LEASE_ARGS];

	lease_take_args(st->id, args, pid, ttl);
	st->held = 0;
	st->pending = 0;
	if (lease_call(h, args, &l, cls, sizeof cls, err, errlen) == -1 &&
	    (strcmp(cls, "leased") != 0 || lease_takeover(h, err, errlen) ==
	    -1 || lease_call(h, args, &l, NULL, 0, err, errlen) == -1))
		return -1;
	lease_note(st, &l);
	return 0;
}

int
host_lease_on_session(struct host *h, char *err, size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);

	if (st->id == NULL || host_agent(h) == NULL)
		return 0;
	agentctl_set_owner(host_agent(h), st->id->token);
	if (st->defer) {
		/* Made by the caller's next command. */
		st->held = 0;
		st->pending = 1;
		return 0;
	}
	return lease_take(h, err, errlen);
}

int
host_lease_on_open(struct host *h, const struct agentctl_open *o, char *err,
    size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);

	if (st->id == NULL || host_agent(h) == NULL || st->defer ||
	    !o->has_lease || o->lease_rc != 0 ||
	    strcmp(o->lease.u.lease.action, "take") != 0)
		return host_lease_on_session(h, err, errlen);
	agentctl_set_owner(host_agent(h), st->id->token);
	st->pending = 0;
	lease_note(st, &o->lease.u.lease);
	return 0;
}

void
host_lease_defer(struct host *h, int on)
{
	host_lease_state(h)->defer = on;
	if (!on)
		host_lease_state(h)->open = 0;
}

int
host_lease_pending(struct host *h)
{
	return host_lease_state(h)->pending;
}

int
host_lease_take_command(struct host *h, char *dst, size_t len, char *err,
    size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);
	const char		*args[HOST_LEASE_ARGS];	/* 12 + NULL */
	const char		*ifname = host_opened_if(h);
	char			 pid[24], ttl[16];
	size_t			 n;

	dst[0] = '\0';
	if (st->id == NULL)
		return 0;
	lease_take_args(st->id, args, pid, ttl);
	if (!st->open)
		return lease_command(h, "", args, dst, len, err, errlen);
	/* `open`: the agent's version and the facts with the take. */
	for (n = 0; args[n + 2] != NULL; n++)
		args[n] = args[n + 2];
	args[n++] = ifname != NULL ? "--if" : NULL;
	args[n++] = ifname;
	args[n] = NULL;
	return lease_command(h, " open", args, dst, len, err, errlen);
}

/*
 * What a folded `open` printed: the agent checked (missing or another:
 * deployed the usual way), the lease noted (else taken the usual way),
 * the facts kept for the next host_facts().
 */
static int
lease_open_result(struct host *h, const char *out, size_t len, char *err,
    size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);
	struct agentctl_open	 o;
	int			 rc;

	st->open = 0;
	rc = agentctl_open_decode(host_name(h), out, len, 1,
	    host_opened_if(h) != NULL, &o);
	if (!o.answered || strcmp(o.version.source_hash,
	    agentctl_builtin()->hash) != 0) {
		log_debug("%s: folded open: %s; deploying the agent",
		    host_name(h), o.answered ? "another agent" : o.err);
		agentctl_open_free(&o);
		if (host_deploy(h, err, errlen) == -1)
			return -1;
		return lease_take(h, err, errlen);
	}
	if (rc == 0 && o.lease_rc == 0 &&
	    strcmp(o.lease.u.lease.action, "take") == 0)
		lease_note(st, &o.lease.u.lease);
	else {
		log_debug("%s: folded open: %s; taking the lease again",
		    host_name(h), o.err);
		rc = -1;
	}
	host_opened_keep(h, &o);
	return rc == 0 ? 0 : lease_take(h, err, errlen);
}

int
host_lease_take_result(struct host *h, const char *out, size_t len,
    int status, char *err, size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);
	struct agentctl_reply	 r;
	char			 e[512];
	int			 rc;

	st->pending = 0;
	if (st->open)
		return lease_open_result(h, out, len, err, errlen);
	rc = agentctl_decode(host_name(h), "lease take", AGENTCTL_LEASE, out,
	    len, 0, status, &r, e, sizeof e);
	if (rc == 0)
		lease_note(st, &r.u.lease);
	agentctl_reply_free(&r);
	if (rc == 0)
		return 0;
	/* A refusal (a dead owner's lease?), an agent gone: as usual. */
	log_debug("%s: folded lease take: %s; taking it again", host_name(h),
	    e);
	return lease_take(h, err, errlen);
}

int
host_lease_renew_result(struct host *h, int extend_s, const char *out,
    size_t len, int status, char *err, size_t errlen)
{
	struct agentctl_reply	 r;
	char			 e[512];
	int			 rc;

	rc = agentctl_decode(host_name(h), "lease renew", AGENTCTL_LEASE, out,
	    len, 0, status, &r, e, sizeof e);
	if (rc == 0)
		lease_note(host_lease_state(h), &r.u.lease);
	agentctl_reply_free(&r);
	if (rc == 0)
		return 0;
	log_debug("%s: folded lease renew: %s; renewing again", host_name(h),
	    e);
	return host_lease_renew(h, extend_s, err, errlen);
}

int
host_lease_take_pending(struct host *h, char *err, size_t errlen)
{
	return host_lease_state(h)->pending ? lease_take(h, err, errlen) : 0;
}

int
host_lease_renew(struct host *h, int extend_s, char *err, size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);
	struct agentctl_lease	 l;
	char			 ext[16], cls[16];
	const char		*args[] = { "lease", "renew", "--owner", NULL,
				    NULL, NULL, NULL };

	if (st->id == NULL)
		return 0;
	args[3] = st->id->token;
	if (extend_s > 0) {
		snprintf(ext, sizeof ext, "%d", extend_s > 86400 ? 86400 :
		    extend_s);
		args[4] = "--extend";
		args[5] = ext;
	}
	if (lease_call(h, args, &l, cls, sizeof cls, err, errlen) == -1) {
		/* Refused: not ours any more; else unknown, try again. */
		if (strcmp(cls, "leased") == 0 || strcmp(cls, "unleased") == 0)
			st->held = 0;
		return -1;
	}
	lease_note(st, &l);
	return 0;
}

int
host_lease_keep(struct host *h, int need_s, char *err, size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);
	int64_t			 left;
	int			 ttl;

	if (st->id == NULL)
		return 0;
	if (!st->held)
		return lease_take(h, err, errlen);
	ttl = st->id->ttl_s;
	left = st->expires_ms - util_now_ms();
	if (left >= (int64_t)ttl * 2000 / 3 && left >= ((int64_t)need_s +
	    LEASE_MARGIN_S) * 1000)
		return 0;
	return host_lease_renew(h, need_s + LEASE_MARGIN_S > ttl ? need_s +
	    LEASE_MARGIN_S : 0, err, errlen);
}

int
host_lease_release(struct host *h, char *err, size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);
	const char		*args[] = { "lease", "release", "--owner", NULL,
				    NULL };

	if (st->id == NULL || !st->held)
		return 0;
	st->held = 0;
	args[3] = st->id->token;
	return lease_call(h, args, NULL, NULL, 0, err, errlen);
}

void
host_lease_released(struct host *h)
{
	host_lease_state(h)->held = 0;
}

int
host_lease_gate_command(struct host *h, int extend_s, char *dst, size_t len,
    char *err, size_t errlen)
{
	struct host_lease_state	*st = host_lease_state(h);
	const char		*tok[2] = { NULL, NULL };
	char			 ext[64];

	dst[0] = '\0';
	if (st->id == NULL)
		return 0;
	snprintf(ext, sizeof ext, " lease renew --extend %d --owner",
	    extend_s < 1 ? 1 : extend_s > 86400 ? 86400 : extend_s);
	tok[0] = st->id->token;
	return lease_command(h, ext, tok, dst, len, err, errlen);
}

int
host_lease_show(struct host *h, struct agentctl_lease *out, char *err,
    size_t errlen)
{
	const char	*args[] = { "lease", "show", NULL };

	return lease_call(h, args, out, NULL, 0, err, errlen);
}

int
host_lease_refused(const char *err)
{
	return err != NULL && strstr(err, ": leased by ") != NULL;
}

enum host_lease_owner
host_lease_owner(const struct agentctl_lease *l)
{
	char	me[65];

	if (!l->has_lease)
		return HOST_LEASE_FREE;
	if (!l->lease.live)
		return HOST_LEASE_EXPIRED;
	lease_hostname(me, sizeof me);
	if (strcmp(me, l->lease.host) == 0 && l->lease.pid > 0 &&
	    kill((pid_t)l->lease.pid, 0) == -1 && errno == ESRCH)
		return HOST_LEASE_DEAD;
	return HOST_LEASE_LIVE;
}

const char *
host_lease_owner_name(enum host_lease_owner o)
{
	switch (o) {
	case HOST_LEASE_FREE:
		return "free";
	case HOST_LEASE_EXPIRED:
		return "expired";
	case HOST_LEASE_DEAD:
		return "owner dead";
	case HOST_LEASE_LIVE:
		return "live";
	}
	return "?";
}

int
host_lease_force_release(const struct config_host *cfg,
    const struct host_opts *opts, struct agentctl_lease *out, char *err,
    size_t errlen)
{
	struct host_opts	 o;
	struct host		*h;
	const char		*args[] = { "lease", "release", "--force", NULL };
	int			 rc;

	memset(out, 0, sizeof *out);
	if (opts != NULL)
		o = *opts;
	else
		memset(&o, 0, sizeof o);
	o.lease = NULL;
	o.no_deploy = 0;
	if (host_open(cfg, &o, &h, err, errlen) == -1)
		return -1;
	rc = lease_call(h, args, out, NULL, 0, err, errlen);
	host_close(h);
	return rc;
}

int
host_lease_release_named(const struct config_inventory *inv,
    const char *name, const struct host_opts *opts, char *msg, size_t msglen,
    int *unknown, char *err, size_t errlen)
{
	const struct config_host	*h = config_inventory_host(inv, name);
	struct agentctl_lease		 l;

	*unknown = h == NULL;
	if (h == NULL) {
		util_seterr(err, errlen, "%s: not a host of %s", name,
		    inv->path);
		return -1;
	}
	if (host_lease_force_release(h, opts, &l, err, errlen) == -1)
		return -1;
	if (l.released && l.has_previous)
		snprintf(msg, msglen, "%s: released (was %s%s)", h->name,
		    l.previous.message, l.previous.live ? "" : ", expired");
	else
		snprintf(msg, msglen, "%s: no lease held", h->name);
	return 0;
}
