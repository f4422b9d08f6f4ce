/*
 * cmd_apply.c: `apply` (the way back, restore, the rollback timer and
 * confirm: cmd_restore.c).
 *
 * apply: read what is in force, plan, save the original (only if none is
 * saved yet), arm (or re-arm) the rollback timer, run the plan, wait for
 * the link when something changed (--settle-max), read back, report.  With
 * --reset-others an apply is a transition from whatever the last one left
 * to the state asked, every knob not asked back at its saved original, so
 * a controller need not restore between two jobs.  The
 * timer is armed before anything changes, so an agent or controller that
 * dies half-way still gets its host restored.  Every step on one interface
 * runs under state/IF.lock.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <net/if.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "emit.h"
#include "exec.h"
#include "knobs_emit.h"
#include "lease.h"
#include "osdep.h"
#include "proc.h"
#include "state.h"
#include "validate.h"
#include "verified.h"

static int
onoff(struct validate_opt *o, const char *name)
{
	o = validate_opt(o, name);
	if (!o->seen)
		return OSDEP_UNSET;
	return strcmp(o->val, "on") == 0;
}

/* ---- apply -------------------------------------------------------------- */

/* What apply was asked besides the knobs. */
struct apply_opts {
	int	 rollback;	/* seconds; 0: no timer */
	int	 reset_others;	/* knobs not asked go back to the original */
	int	 settle_max;	/* ms to wait for the link after a change */
	/* --preflight (0.5): the preflight's checks after the apply, in its
	 * result (peer, speed, port as preflight's; expect_nat: the NAT the
	 * check wants when apply is not given one, OSDEP_UNSET: none). */
	int	 preflight;
	const char *peer;
	int	 speed, port, expect_nat;
	/* --serve TOOL --serve-bind ADDR [--serve-port N]: the workload
	 * server started (or kept) once the apply went through. */
	const char *serve_tool, *serve_bind;
	int	 serve_port, serve_keep;
};

/*
 * "serve":{...} as `serve --tool --bind --if IF [--port] [--keep]` would
 * answer, or {"error":...} when it could not start (the apply stands:
 * the controller starts it on its own then, and reports why).
 */
static void
apply_serve(struct emit *e, const struct apply_opts *ao, const char *ifname)
{
	struct agent_served sv;
	char	 err[512];

	emit_obj(e, "serve");
	if (agent_serve_start(ao->serve_tool, ao->serve_bind, ao->serve_port,
	    ao->serve_keep, &sv, err, sizeof(err)) == AGENT_EXIT_OK)
		agent_serve_emit(e, &sv, ifname);
	else
		emit_str(e, "error", err);
	emit_end(e);
}

/*
 * After a plan that changed something: waits until ifname is up with
 * carrier (carrier unknown counts as up), for at most max_ms.  Returns
 * the ms waited; *up is 1 when the link was up at the end, else 0.
 */
static long long
apply_settle(const char *ifname, int max_ms, int *up)
{
	const struct osdep_dialect *d = osdep_host();
	struct osdep_link lk;
	char	 err[256];
	long long t0 = exec_now_ms(), t;

	for (;;) {
		*up = d->link(ifname, &lk, err, sizeof(err)) == AGENT_EXIT_OK &&
		    lk.admin_up == 1 && lk.carrier != 0;
		t = exec_now_ms() - t0;
		if (*up || t >= max_ms)
			return t;
		proc_sleep_ms(proc_backoff_ms((int)t, 10));
	}
}

/* One apply under way (apply_locked()). */
struct apply_run {
	const char *ifname, *nat_if;
	struct state_saved s;
	int	 found;
	struct osdep_knobs cur, now, target;
	struct osdep_probe pr;
	struct plan plan;
	struct verified v, v0;	/* v0: as loaded */
	int	 nat_cached;	/* NAT taken from v (no nft run) */
	int	 if_cached;	/* offloads taken from v (no ethtool -k) */
	int	 read_back;	/* the knobs read again after the plan */
	int	 back_cached;	/* ... their offloads from v (a flip back) */
	int	 path_cached;	/* the ping skipped: verified at this MTU */
	pid_t	 timer;
	long long at, settled;
	int	 up;
};

/* Reads what is in force, plans, saves the original if none is, arms the
 * timer.  Nothing has changed yet when it returns. */
static int
apply_prepare(struct apply_run *a, const struct osdep_knobs *req,
    const struct apply_opts *ao, char *err, size_t errlen)
{
	const struct osdep_dialect *d = osdep_host();
	const char *ifname = a->ifname;
	int	 rc;

	if (state_load(ifname, &a->s, &a->found, err, errlen) == -1)
		return AGENT_EXIT_INTERNAL;
	/* What an earlier apply of this saved life verified (none for a
	 * new one). */
	if (a->found)
		verified_load(ifname, &a->v);
	a->v0 = a->v;
	/* A transition: what is not asked goes back to the original. */
	osdep_knobs_target(req, ao->reset_others && a->found ? &a->s.knobs :
	    NULL, &a->target);
	a->nat_if = a->target.nat_if[0] ? a->target.nat_if : ifname;
	if ((rc = verified_read(ifname, a->nat_if, &a->v, &a->cur, &a->pr,
	    &a->nat_cached, err, errlen)) != 0)
		return rc;
	a->if_cached = (a->nat_cached & VERIFIED_IF) != 0;
	a->nat_cached = (a->nat_cached & VERIFIED_NAT) != 0;
	if ((rc = d->plan(ifname, &a->cur, &a->target, &a->pr, state_dir(),
	    &a->plan, err, errlen)) != AGENT_EXIT_OK)
		return rc;
	if (!a->found) {
		memset(&a->s, 0, sizeof(a->s));
		snprintf(a->s.ifname, sizeof(a->s.ifname), "%s", ifname);
		snprintf(a->s.os, sizeof(a->s.os), "%s", d->name);
		a->s.saved_at = (long long)time(NULL);
		a->s.knobs = a->cur;
	}
	if ((a->plan.loaded & ~a->s.loaded) != 0 || !a->found) {
		a->s.loaded |= a->plan.loaded;
		if (state_save(&a->s, err, errlen) == -1)
			return AGENT_EXIT_INTERNAL;
	}
	if (a->target.nat == OSDEP_NAT_DIVERT && state_mkdir("natd", err,
	    errlen))
		return AGENT_EXIT_INTERNAL;
	if (ao->rollback > 0) {
		/* Re-armed on every apply: the deadline moves with the work. */
		if ((a->timer = agent_timer_arm(ifname, ao->rollback, err,
		    errlen)) == -1)
			return AGENT_EXIT_INTERNAL;
		a->at = (long long)time(NULL) + ao->rollback;
		emit_progress("%s: rollback timer %ld armed for %d s", ifname,
		    (long)a->timer, ao->rollback);
	}
	return AGENT_EXIT_OK;
}

/* Runs the plan, waits for the link, reads back what changed.  A plan
 * that changed nothing leaves in force what was just read (under the same
 * lock): nothing is read again. */
static int
apply_change(struct apply_run *a, const struct apply_opts *ao, char *err,
    size_t errlen)
{
	int	 rc, cached;

	if ((rc = plan_run(&a->plan, err, errlen)) != AGENT_EXIT_OK)
		return rc;
	if (a->plan.n > 0 && ao->settle_max > 0)
		a->settled = apply_settle(a->ifname, ao->settle_max, &a->up);
	if (a->plan.n == 0) {
		a->now = a->cur;
		return AGENT_EXIT_OK;
	}
	a->read_back = 1;
	if ((rc = verified_read(a->ifname, a->nat_if, &a->v, &a->now, &a->pr,
	    &cached, err, errlen)) != 0)
		return rc;
	a->nat_cached = a->nat_cached && (cached & VERIFIED_NAT);
	a->back_cached = (cached & VERIFIED_IF) != 0;
	return AGENT_EXIT_OK;
}

static void
apply_emit_run(struct emit *e, const struct apply_run *a)
{
	if (a->settled >= 0) {
		emit_int(e, "settle_ms", a->settled);
		emit_bool(e, "link_up", a->up);
	} else {
		emit_null(e, "settle_ms");
		emit_null(e, "link_up");
	}
	if (a->timer > 0) {
		emit_int(e, "rollback_pid", (long long)a->timer);
		emit_int(e, "rollback_at", a->at);
	} else {
		emit_null(e, "rollback_pid");
		emit_null(e, "rollback_at");
	}
	/* What this apply did not run again, as earlier ones verified it. */
	emit_arr(e, "cached");
	if (a->nat_cached)
		emit_str(e, NULL, "nat");
	if (a->if_cached)
		emit_str(e, NULL, "offloads");
	if (!a->read_back)
		emit_str(e, NULL, "read_back");
	if (a->back_cached)
		emit_str(e, NULL, "read_back_offloads");
	if (a->path_cached)
		emit_str(e, NULL, "path");
	emit_end(e);
}

/*
 * The preflight's checks with what was asked in force.  The ping to the
 * peer only when no earlier apply of this saved life checked the path to
 * it at the MTU and NAT in force, or this one changed either.
 */
static int
apply_preflight(struct emit *e, struct apply_run *a,
    const struct osdep_knobs *req, const struct apply_opts *ao, char *msg,
    size_t msglen)
{
	struct osdep_knobs asked = *req;
	const char *pf_nat_if, *peer = ao->peer;
	int	 ok;

	if (asked.nat == OSDEP_UNSET)
		asked.nat = ao->expect_nat;
	a->path_cached = peer != NULL && ao->port == 0 && a->v.path_ok &&
	    strcmp(a->v.peer, peer) == 0 && a->v.path_mtu == a->now.mtu &&
	    a->v.path_nat == a->now.nat && a->cur.mtu == a->now.mtu &&
	    a->cur.nat == a->now.nat;
	if (a->path_cached)
		peer = NULL;
	/* The read back is what is in force, unless its NAT was read on
	 * another interface than the check's. */
	pf_nat_if = asked.nat_if[0] ? asked.nat_if : a->ifname;
	ok = agent_preflight_embed(e, "preflight", a->ifname, peer, ao->speed,
	    ao->port, &asked, strcmp(pf_nat_if, a->nat_if) == 0 ? &a->now :
	    NULL, &a->pr, msg, msglen);
	if (!ok)
		a->v.path_ok = 0;
	else if (peer != NULL && ao->port == 0 &&
	    strlen(peer) < sizeof(a->v.peer)) {
		a->v.path_ok = 1;
		snprintf(a->v.peer, sizeof(a->v.peer), "%s", peer);
		a->v.path_mtu = a->now.mtu;
		a->v.path_nat = a->now.nat;
	}
	return ok;
}

static int
apply_locked(const char *ifname, struct osdep_knobs *req,
    const struct apply_opts *ao, char *err, size_t errlen)
{
	struct apply_run a;
	struct emit e;
	int	 rc, nbad, pf_ok = 1;
	char	 pfmsg[1024];

	memset(&a, 0, sizeof(a));
	a.ifname = ifname;
	a.timer = -1;
	a.settled = -1;
	a.up = -1;
	if ((rc = apply_prepare(&a, req, ao, err, errlen)) != AGENT_EXIT_OK ||
	    (rc = apply_change(&a, ao, err, errlen)) != AGENT_EXIT_OK)
		return rc;
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "apply");
	emit_str(&e, "if", ifname);
	emit_bool(&e, "saved", !a.found);
	knobs_emit(&e, "requested", &a.target, 0);
	knobs_emit(&e, "in_force", &a.now, 1);
	nbad = knobs_emit_diff(&e, "mismatch", &a.target, &a.now);
	knobs_emit_diff(&e, "changed", &a.target, &a.cur);
	/* The fitness checks only make sense with what was asked in force. */
	if (ao->preflight && nbad == 0)
		pf_ok = apply_preflight(&e, &a, req, ao, pfmsg, sizeof(pfmsg));
	else if (ao->preflight)
		emit_null(&e, "preflight");
	apply_emit_run(&e, &a);
	verified_save(ifname, &a.v, &a.v0);
	if (ao->serve_tool != NULL && nbad == 0 && pf_ok)
		apply_serve(&e, ao, ifname);
	emit_flush(&e);
	if (nbad > 0) {
		snprintf(err, errlen, "apply %s: %d knob(s) not in force as "
		    "requested (see mismatch)", ifname, nbad);
		return AGENT_EXIT_MISMATCH;
	}
	if (!pf_ok) {
		snprintf(err, errlen, "%s", pfmsg);
		return AGENT_EXIT_PREFLIGHT;
	}
	return AGENT_EXIT_OK;
}

int
agent_cmd_apply(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ "--tso", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--tcp-tso", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--mtu", VALIDATE_MTU, 0, 0, NULL, { NULL } },
		{ "--nat", VALIDATE_NAT, 0, 0, NULL, { NULL } },
		{ "--nat-if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ "--lro", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--rxcsum", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--txcsum", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--rollback-after", VALIDATE_SECONDS, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ "--reset-others", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ "--settle-max", VALIDATE_MS, 0, 0, NULL, { NULL } },
		{ "--preflight", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ "--peer", VALIDATE_ADDR, 0, 0, NULL, { NULL } },
		{ "--speed", VALIDATE_SPEED, 0, 0, NULL, { NULL } },
		{ "--port", VALIDATE_PORT, 0, 0, NULL, { NULL } },
		{ "--expect-nat", VALIDATE_NAT, 0, 0, NULL, { NULL } },
		{ "--serve", VALIDATE_TOOL, 0, 0, NULL, { NULL } },
		{ "--serve-bind", VALIDATE_ADDR, 0, 0, NULL, { NULL } },
		{ "--serve-port", VALIDATE_PORT, 0, 0, NULL, { NULL } },
		{ "--serve-keep", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	static const char *const pf_only[] = { "--peer", "--speed", "--port",
	    "--expect-nat", NULL };
	struct apply_opts ao;
	struct osdep_knobs req;
	struct validate_opt *o;
	char	 err[1024];
	const char *ifname, *owner;
	int	 fd, lfd, rc;
	size_t	 i;

	memset(&ao, 0, sizeof(ao));
	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	ao.preflight = validate_opt(opts, "--preflight")->seen;
	for (i = 0; pf_only[i] != NULL; i++)
		if (!ao.preflight && validate_opt(opts, pf_only[i])->seen) {
			snprintf(err, sizeof(err), "%s: only with --preflight",
			    pf_only[i]);
			return emit_error(AGENT_EXIT_USAGE, err);
		}
	ao.peer = validate_opt(opts, "--peer")->val;
	if ((o = validate_opt(opts, "--speed"))->seen)
		ao.speed = (int)validate_number(o->val);
	if ((o = validate_opt(opts, "--port"))->seen) {
		if (ao.peer == NULL)
			return emit_error(AGENT_EXIT_USAGE,
			    "--port: needs --peer");
		ao.port = (int)validate_number(o->val);
	}
	ao.expect_nat = osdep_nat_parse(validate_opt(opts,
	    "--expect-nat")->val);
	ao.serve_tool = validate_opt(opts, "--serve")->val;
	ao.serve_bind = validate_opt(opts, "--serve-bind")->val;
	if ((o = validate_opt(opts, "--serve-port"))->seen)
		ao.serve_port = (int)validate_number(o->val);
	ao.serve_keep = validate_opt(opts, "--serve-keep")->seen;
	if ((ao.serve_tool == NULL) != (ao.serve_bind == NULL) ||
	    (ao.serve_tool == NULL && (ao.serve_port || ao.serve_keep)))
		return emit_error(AGENT_EXIT_USAGE, "--serve and --serve-bind "
		    "go together (--serve-port, --serve-keep only with them)");
	if ((ifname = validate_opt(opts, "--if")->val) == NULL)
		return emit_error(AGENT_EXIT_USAGE, "apply: --if is required");
	osdep_knobs_unset(&req);
	req.tso = onoff(opts, "--tso");
	req.tcp_tso = onoff(opts, "--tcp-tso");
	req.lro = onoff(opts, "--lro");
	req.rxcsum = onoff(opts, "--rxcsum");
	req.txcsum = onoff(opts, "--txcsum");
	if ((o = validate_opt(opts, "--mtu"))->seen)
		req.mtu = (int)validate_number(o->val);
	if ((o = validate_opt(opts, "--nat"))->seen)
		req.nat = osdep_nat_parse(o->val);
	if ((o = validate_opt(opts, "--nat-if"))->seen) {
		if (req.nat == OSDEP_UNSET)
			return emit_error(AGENT_EXIT_USAGE,
			    "--nat-if: only with --nat");
		snprintf(req.nat_if, sizeof(req.nat_if), "%s", o->val);
	}
	if ((o = validate_opt(opts, "--rollback-after"))->seen)
		ao.rollback = (int)validate_number(o->val);
	ao.reset_others = validate_opt(opts, "--reset-others")->seen;
	if ((o = validate_opt(opts, "--settle-max"))->seen)
		ao.settle_max = (int)validate_number(o->val);
	owner = validate_opt(opts, "--owner")->val;
	if ((rc = agent_lease_gate("apply", owner, &lfd)) != 0)
		return rc;
	/* The lease outlives the rollback deadline (before the timer is
	 * armed: a taker must never restore under a pending timer early). */
	if (ao.rollback > 0 && (rc = lease_hold_locked(owner,
	    (long long)time(NULL) + ao.rollback + LEASE_ROLLBACK_GRACE, err,
	    sizeof(err))) != AGENT_EXIT_OK) {
		lease_unlock(lfd);
		return emit_error(rc, err);
	}
	if ((fd = state_lock(ifname, err, sizeof(err))) == -1) {
		lease_unlock(lfd);
		return emit_error(AGENT_EXIT_INTERNAL, err);
	}
	rc = apply_locked(ifname, &req, &ao, err, sizeof(err));
	state_unlock(fd);
	lease_unlock(lfd);
	if (rc != AGENT_EXIT_OK)
		return emit_error(rc, err);
	return AGENT_EXIT_OK;
}

