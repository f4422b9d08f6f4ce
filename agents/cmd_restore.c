/*
 * cmd_restore.c: the way back from apply (cmd_apply.c): `restore` (with
 * --serve-stop and --release: a controller's last word on a host), the
 * restores a lease take runs for a dead owner, the rollback timer apply
 * arms and `confirm`, which cancels it.  Every step on one interface runs
 * under state/IF.lock.
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

static void
rollback_path(char *buf, size_t len, const char *ifname)
{
	char	name[40];

	snprintf(name, sizeof(name), "%s.pid", ifname);
	if (state_path(buf, len, "rollback", name) == -1)
		buf[0] = '\0';
}

/* ---- restore ------------------------------------------------------------ */

struct restore_out {
	int	 was_saved;
	struct osdep_knobs saved, before, after;
	/* restore --serve-stop: the servers stopped first; --release: the
	 * lease given back after a restore that went through. */
	int	 stop, release, released;
	size_t	 nstopped;
	const long *stopped;
};

/*
 * Puts back the saved original of ifname.  The caller holds the lock.
 * AGENT_EXIT_OK, _MISMATCH (something did not come back; state kept) or an
 * error class with err.
 */
static int
restore_locked(const char *ifname, int from_timer, struct restore_out *o,
    char *err, size_t errlen)
{
	const struct osdep_dialect *d = osdep_host();
	struct state_saved s;
	struct osdep_probe pr;
	struct verified v;
	struct plan plan;
	const char *nat_if;
	char	 pidfile[512];
	int	 found, rc, cached;

	memset(o, 0, sizeof(*o));
	if (!from_timer) {
		rollback_path(pidfile, sizeof(pidfile), ifname);
		if (proc_pidfile_stop(pidfile, 2000) > 0)
			emit_progress("%s: rollback timer cancelled", ifname);
	}
	if (state_load(ifname, &s, &found, err, errlen) == -1)
		return AGENT_EXIT_INTERNAL;
	if (!found)
		return AGENT_EXIT_OK;
	o->was_saved = 1;
	o->saved = s.knobs;
	/* What is in force, as a transition reads it: from what the applies
	 * of this saved life verified while the ruleset's generation and the
	 * features bitmap have not moved (verified.h); read back only after
	 * a plan that changed something. */
	nat_if = s.knobs.nat_if[0] ? s.knobs.nat_if : ifname;
	verified_load(ifname, &v);
	if ((rc = verified_read(ifname, nat_if, &v, &o->before, &pr, &cached,
	    err, errlen)) != AGENT_EXIT_OK)
		return rc;
	if ((rc = d->plan(ifname, &o->before, &s.knobs, &pr, state_dir(),
	    &plan, err, errlen)) != AGENT_EXIT_OK)
		return rc;
	d->plan_unload(s.loaded, &plan);
	if ((rc = plan_run(&plan, err, errlen)) != AGENT_EXIT_OK)
		return rc;
	if (plan.n == 0)
		o->after = o->before;
	else if ((rc = verified_read(ifname, nat_if, &v, &o->after, &pr,
	    &cached, err, errlen)) != AGENT_EXIT_OK)
		return rc;
	if (knobs_differ(&s.knobs, &o->after) > 0) {
		snprintf(err, errlen, "restore %s: some knobs did not return "
		    "to the saved values; state kept", ifname);
		return AGENT_EXIT_MISMATCH;
	}
	if (state_remove(ifname, err, errlen) == -1)
		return AGENT_EXIT_INTERNAL;
	verified_remove(ifname);
	return AGENT_EXIT_OK;
}

static int
restore_report(const char *ifname, int rc, struct restore_out *o,
    const char *err)
{
	struct emit e;
	size_t	 i;

	if (rc != AGENT_EXIT_OK && rc != AGENT_EXIT_MISMATCH)
		return emit_error(rc, err);
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "restore");
	emit_str(&e, "if", ifname);
	emit_bool(&e, "was_saved", o->was_saved);
	if (o->stop) {
		emit_arr(&e, "stopped");
		for (i = 0; i < o->nstopped; i++)
			emit_int(&e, NULL, (long long)o->stopped[i]);
		emit_end(&e);
	}
	if (o->release)
		emit_bool(&e, "released", o->released);
	if (o->was_saved)
		knobs_emit_diff(&e, "changed", &o->saved, &o->before);
	else {
		emit_arr(&e, "changed");
		emit_end(&e);
	}
	if (rc == AGENT_EXIT_MISMATCH)
		knobs_emit_diff(&e, "mismatch", &o->saved, &o->after);
	emit_flush(&e);
	if (rc == AGENT_EXIT_MISMATCH)
		return emit_error(rc, err);
	return AGENT_EXIT_OK;
}

int
agent_cmd_restore(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ "--serve-stop", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ "--release", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct restore_out o;
	long	 stopped[AGENT_SERVE_MAX];
	size_t	 nstopped = 0;
	char	 err[1024];
	const char *ifname;
	int	 fd, lfd, rc;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if ((ifname = opts[0].val) == NULL)
		return emit_error(AGENT_EXIT_USAGE, "restore: --if is required");
	if (opts[3].seen && opts[1].val == NULL)
		return emit_error(AGENT_EXIT_USAGE, "restore: --release needs "
		    "--owner");
	if ((rc = agent_lease_gate("restore", opts[1].val, &lfd)) != 0)
		return rc;
	if ((fd = state_lock(ifname, err, sizeof(err))) == -1) {
		lease_unlock(lfd);
		return emit_error(AGENT_EXIT_INTERNAL, err);
	}
	if (opts[2].seen)
		nstopped = agent_serve_stop(stopped, AGENT_SERVE_MAX);
	rc = restore_locked(ifname, 0, &o, err, sizeof(err));
	state_unlock(fd);
	lease_unlock(lfd);
	o.stop = opts[2].seen;
	o.nstopped = nstopped;
	o.stopped = stopped;
	/* The owner's last word on this host: its lease goes with it, but
	 * only once the interface has its original back. */
	if (opts[3].seen && rc == AGENT_EXIT_OK) {
		struct lease prev;

		o.release = 1;
		if ((rc = lease_release(opts[1].val, 0, (long long)time(NULL),
		    &prev, &o.released, err, sizeof(err))) != AGENT_EXIT_OK)
			return emit_error(rc, err);
	}
	return restore_report(ifname, rc, &o, err);
}

int
agent_restore_pending(struct lease_restored *out, char *err, size_t errlen)
{
	struct restore_out o;
	struct dirent *de;
	DIR	*d;
	char	 dir[512], ifname[OSDEP_IFNAMSIZ], e[1024];
	size_t	 n;
	int	 fd, rc = AGENT_EXIT_OK;

	memset(out, 0, sizeof(*out));
	if (state_path(dir, sizeof(dir), "state", NULL) == -1) {
		snprintf(err, errlen, "state path too long");
		return AGENT_EXIT_INTERNAL;
	}
	if ((d = opendir(dir)) == NULL)
		return AGENT_EXIT_OK;		/* nothing was ever saved */
	while (rc == AGENT_EXIT_OK && (de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n < 6 || n - 5 >= sizeof(ifname) ||
		    strcmp(de->d_name + n - 5, ".json") != 0)
			continue;
		memcpy(ifname, de->d_name, n - 5);
		ifname[n - 5] = '\0';
		if (validate_value(VALIDATE_IFNAME, "state", ifname, e,
		    sizeof(e)) == -1)
			continue;
		/* A vanished interface has nothing in force to put back; its
		 * original stays for when it returns, and must not block. */
		if (if_nametoindex(ifname) == 0) {
			emit_progress("%s: saved original kept, the interface "
			    "is gone", ifname);
			continue;
		}
		if ((fd = state_lock(ifname, err, errlen)) == -1) {
			rc = AGENT_EXIT_INTERNAL;
			break;
		}
		rc = restore_locked(ifname, 0, &o, e, sizeof(e));
		state_unlock(fd);
		if (rc != AGENT_EXIT_OK)
			snprintf(err, errlen, "%s", e);
		else if (o.was_saved && out->n < LEASE_RESTORED_MAX) {
			emit_progress("%s: restored the saved original",
			    ifname);
			snprintf(out->ifs[out->n++], sizeof(out->ifs[0]), "%s",
			    ifname);
		}
	}
	closedir(d);
	return rc;
}

/* ---- rollback timer ----------------------------------------------------- */

struct timer_arg {
	const char *ifname;
	long long   deadline;	/* exec_now_ms() */
	char	    pidfile[512];
	char	    dlfile[512];
};

/* The deadline in dlfile (monotonic ms), or fallback when unreadable. */
static long long
timer_deadline(const char *dlfile, long long fallback)
{
	char	 buf[32], *end;
	long long v;

	if (osdep_read_small(dlfile, buf, sizeof(buf)) == -1)
		return fallback;
	v = strtoll(buf, &end, 10);
	return end != buf && *end == '\0' && v > 0 ? v : fallback;
}

/*
 * Sleeps until the deadline, which an apply may move on meanwhile (it
 * rewrites dlfile instead of replacing the timer, so that there is never
 * a moment without one), then restores under the interface's lock.
 */
static int
timer_main(void *argp, int notify_fd)
{
	struct timer_arg *a = argp;
	struct restore_out o;
	char	 err[1024];
	long long left;
	int	 pfd, lfd, rc;

	if ((pfd = proc_pidfile_take(a->pidfile)) == -1)
		return 1;
	proc_notify(notify_fd);
	for (;;) {
		left = timer_deadline(a->dlfile, a->deadline) - exec_now_ms();
		if (left > 0) {
			proc_sleep_ms(left < 1000 ? (long)left : 1000);
			continue;
		}
		if ((lfd = state_lock(a->ifname, err, sizeof(err))) == -1) {
			fprintf(stderr, "labrat-agent: %s\n", err);
			return 1;
		}
		/* An apply that held the lock may have moved it on. */
		if (timer_deadline(a->dlfile, a->deadline) <= exec_now_ms())
			break;
		state_unlock(lfd);
	}
	fprintf(stderr, "labrat-agent: rollback timer of %s fired\n",
	    a->ifname);
	rc = restore_locked(a->ifname, 1, &o, err, sizeof(err));
	restore_report(a->ifname, rc, &o, err);
	/* The controller that kept a server for its next job is gone. */
	agent_serve_stop(NULL, 0);
	unlink(a->pidfile);
	unlink(a->dlfile);
	state_unlock(lfd);
	close(pfd);
	return rc;
}

/*
 * Arms the rollback timer of ifname for seconds from now: the live timer
 * moves on to the new deadline, or a new one starts.  The caller holds the
 * interface's lock (so a timer past its old deadline waits for it, then
 * sees the new one).  The timer's pid, or -1 with err.
 */
pid_t
agent_timer_arm(const char *ifname, int seconds, char *err, size_t errlen)
{
	struct timer_arg a;
	char	 log[512], name[40], buf[32];
	pid_t	 pid;
	int	 n;

	if (state_mkdir("rollback", err, errlen) == -1)
		return -1;
	a.ifname = ifname;
	a.deadline = exec_now_ms() + (long long)seconds * 1000;
	rollback_path(a.pidfile, sizeof(a.pidfile), ifname);
	snprintf(name, sizeof(name), "%s.log", ifname);
	if (a.pidfile[0] == '\0' ||
	    state_path(log, sizeof(log), "rollback", name) == -1) {
		snprintf(err, errlen, "rollback path too long");
		return -1;
	}
	snprintf(name, sizeof(name), "%s.deadline", ifname);
	if (state_path(a.dlfile, sizeof(a.dlfile), "rollback", name) == -1) {
		snprintf(err, errlen, "rollback path too long");
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "%lld\n", a.deadline);
	if (state_write_atomic(a.dlfile, buf, (size_t)n, 0600, err,
	    errlen) == -1)
		return -1;
	if ((pid = proc_pidfile_holder(a.pidfile)) > 0)
		return pid;
	return proc_detach(log, timer_main, &a, err, errlen);
}

int
agent_cmd_confirm(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct emit e;
	char	 err[1024], pidfile[512];
	const char *ifname;
	pid_t	 pid;
	int	 fd, lfd, rc;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if ((ifname = opts[0].val) == NULL)
		return emit_error(AGENT_EXIT_USAGE, "confirm: --if is required");
	if ((rc = agent_lease_gate("confirm", opts[1].val, &lfd)) != 0)
		return rc;
	if ((fd = state_lock(ifname, err, sizeof(err))) == -1) {
		lease_unlock(lfd);
		return emit_error(AGENT_EXIT_INTERNAL, err);
	}
	rollback_path(pidfile, sizeof(pidfile), ifname);
	pid = proc_pidfile_stop(pidfile, 2000);
	state_unlock(fd);
	lease_unlock(lfd);
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "confirm");
	emit_str(&e, "if", ifname);
	emit_bool(&e, "cancelled", pid > 0);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}
