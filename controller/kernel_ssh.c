/*
 * kernel_ssh: the SSH implementation of struct kernel_io (kernel.c's
 * sequencing over a host's session): kernel_install_host() on a session
 * of its own, kernel_install_on() on a caller's (a bisect's executor),
 * kernel_running(); the host lease's calls ride on the commands they
 * precede (kssh_exec_lease()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "host.h"
#include "kernel.h"
#include "kernel_int.h"
#include "log.h"
#include "ssh.h"
#include "util.h"

struct kssh {
	const struct config_host	*h;
	struct host_opts		 hopts;
	struct host			*host;	/* NULL while disconnected */
	int				 power_timeout_s;
	/* A caller's session (kernel_install_on()): it revives itself, so
	 * the old session's death shows as a re-establishment. */
	int				 borrowed;
	int				 renew_s;	/* owed before install */
	int				 rebooted;	/* alive() was asked */
	int				 revived;	/* ... and it was */
};

#define KSSH_FOLD_MARK	"\nlabrat-lease-call-exit "

/*
 * One round trip for a lease call and the command after it: the renew
 * before an install (kssh_lease()), the take a rebooted host's new session
 * owes (host_lease_defer()) before verify.  stdout is the lease call's
 * answer (into *lout, its exit status *lstatus), a marker line, then the
 * command's own output, which goes to out with its stderr after it; the
 * command runs only when the lease call succeeded (else *ran is 0).
 */
static int
kssh_exec_folded(struct kssh *k, const char *lease, const char *cmd,
    int timeout_ms, struct buf *lout, int *lstatus, struct buf *out,
    int *status, int *ran, char *err, size_t errlen)
{
	struct ssh_result	 r;
	struct buf		 eb, line;
	char			*inner, *m, *rest;
	int			 rc = -1, st;

	*ran = 0;
	inner = xasprintf("%s 2>/dev/null; s=$?; printf '%s%%d\\n' \"$s\"; "
	    "[ \"$s\" -eq 0 ] || exit 1; %s", lease, KSSH_FOLD_MARK, cmd);
	/* sh's syntax whatever the login shell (root's is csh on FreeBSD). */
	buf_init(&line, 4 * strlen(inner) + 64);
	buf_init(&eb, 64 * 1024);
	if (buf_append(&line, "/bin/sh -c ", 11) == -1 ||
	    util_shell_quote(&line, inner) == -1) {
		util_seterr(err, errlen, "%s: command too long", k->h->name);
		goto done;
	}
	buf_reset(lout);
	st = ssh_exec(host_ssh(k->host), line.data, timeout_ms, lout, &eb, &r,
	    err, errlen);
	if (st != SSH_OK && st != SSH_EOUTPUT)
		goto done;
	if (lout->data == NULL || (m = strstr(lout->data, KSSH_FOLD_MARK)) ==
	    NULL || (rest = strchr(m + 1, '\n')) == NULL) {
		util_seterr(err, errlen, "%s: no lease call before the "
		    "command's output", k->h->name);
		goto done;
	}
	*m = '\0';
	*lstatus = atoi(m + strlen(KSSH_FOLD_MARK));
	rest++;
	if (*lstatus == 0) {
		*ran = 1;
		buf_append(out, rest, lout->len - (size_t)(rest - lout->data));
		if (eb.len > 0)
			buf_append(out, eb.data, eb.len);
		*status = st == SSH_OK ? r.exit_status : 255;
	}
	lout->len = strlen(lout->data);
	rc = 0;
done:
	buf_free(&eb);
	buf_free(&line);
	free(inner);
	return rc;
}

/* kssh_exec() with the lease call it owes first; -1 when none is owed. */
static int
kssh_exec_lease(struct kssh *k, const char *cmd, int timeout_ms,
    struct buf *out, int *status, int *ran, char *err, size_t errlen)
{
	struct buf	 lout;
	char		 lease[2048];
	int		 take = host_lease_pending(k->host), lst = 0, rc;

	*ran = 0;
	if (!take && k->renew_s <= 0)
		return 0;
	if ((take ? host_lease_take_command(k->host, lease, sizeof lease,
	    err, errlen) : host_lease_gate_command(k->host, k->renew_s, lease,
	    sizeof lease, err, errlen)) == -1)
		return -1;
	buf_init(&lout, KERNEL_OUT_MAX);
	rc = kssh_exec_folded(k, lease, cmd, timeout_ms, &lout, &lst, out,
	    status, ran, err, errlen);
	/* A failed call is made again the usual way, which says why. */
	if (rc == 0 && take)
		rc = host_lease_take_result(k->host, lout.data != NULL ?
		    lout.data : "", lout.len, lst, err, errlen);
	else if (rc == 0) {
		rc = host_lease_renew_result(k->host, k->renew_s, lout.data !=
		    NULL ? lout.data : "", lout.len, lst, err, errlen);
		k->renew_s = 0;
	}
	buf_free(&lout);
	return rc;
}

static int
kssh_exec(void *arg, const char *cmd, int timeout_ms, struct buf *out,
    int *status, char *err, size_t errlen)
{
	struct kssh		*k = arg;
	struct ssh_conn		*c = k->host != NULL ? host_ssh(k->host) : NULL;
	struct ssh_result	 r;
	struct buf		 eb;
	int			 rc, ran;

	if (c == NULL) {
		util_seterr(err, errlen, "not connected");
		return -1;
	}
	if (kssh_exec_lease(k, cmd, timeout_ms, out, status, &ran, err,
	    errlen) == -1)
		return -1;
	if (ran)
		return 0;
	buf_init(&eb, 64 * 1024);
	rc = ssh_exec(c, cmd, timeout_ms, out, &eb, &r, err, errlen);
	if (rc == SSH_OK || rc == SSH_EOUTPUT) {
		if (eb.len > 0)
			buf_append(out, eb.data, eb.len);
		*status = rc == SSH_OK ? r.exit_status : 255;
		rc = 0;
	} else
		rc = -1;
	buf_free(&eb);
	return rc;
}

static int
kssh_alive(void *arg, int timeout_ms)
{
	struct kssh	*k = arg;
	char		 e[256];
	int		 before, ok;

	if (!k->borrowed)
		return k->host != NULL && host_check(k->host, timeout_ms, e,
		    sizeof e) == 0;
	/* Only asked after the reboot command. */
	k->rebooted = 1;
	if (k->revived || host_ssh(k->host) == NULL)
		return 0;
	before = ssh_reconnects(host_ssh(k->host));
	ok = host_check(k->host, timeout_ms, e, sizeof e) == 0;
	if (host_ssh(k->host) != NULL &&
	    ssh_reconnects(host_ssh(k->host)) != before)
		k->revived = 1;		/* a new session: the old one died */
	return ok && !k->revived;
}

static int
kssh_connect(void *arg, int timeout_ms, char *err, size_t errlen)
{
	struct kssh	*k = arg;

	if (k->borrowed && !k->rebooted)
		return host_sync(k->host, timeout_ms, err, errlen) == -1 ?
		    -1 : 0;
	if (k->borrowed && k->revived) {
		/* The probe already opened the new system's session. */
		k->revived = 0;
		if (host_sync(k->host, timeout_ms, err, errlen) != -1)
			return 0;
	}
	if (k->host != NULL)
		return host_reconnect(k->host, timeout_ms, err, errlen);
	k->hopts.connect_timeout_ms = timeout_ms;
	return host_open(k->h, &k->hopts, &k->host, err, errlen);
}

static int
kssh_power(void *arg, char *err, size_t errlen)
{
	struct kssh	*k = arg;

	if (!k->borrowed) {
		host_close(k->host);
		k->host = NULL;
	}
	k->revived = 0;
	return kernel_power_cycle(k->h, k->power_timeout_s, err, errlen);
}

static void
kssh_sleep(void *arg, int ms)
{
	struct timespec	ts;

	(void)arg;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static int64_t
kssh_now(void *arg)
{
	(void)arg;
	return util_now_ms();
}

/*
 * A leased session: the lease must outlast the install, the reboot and a
 * power cycle (a lease that ran out would let another controller take
 * the host in the middle); gate gets the reboot command's renew.
 */
static int
kssh_lease(struct kssh *k, const struct kernel_opts *o, char *gate,
    size_t len, char *err, size_t errlen)
{
	int	reboot_s = DEF(o->down_timeout_s, 120) +
		    2 * DEF(o->boot_timeout_s, 300) +
		    DEF(o->power_timeout_s, 60) + 60;

	gate[0] = '\0';
	if (k->host == NULL || !host_lease_held(k->host))
		return 0;
	/* Renewed by the install's first command (kssh_exec_lease()). */
	k->renew_s = DEF(o->install_timeout_s, 7200) + reboot_s;
	return host_lease_gate_command(k->host, reboot_s, gate, len, err,
	    errlen);
}

/* kernel_switch() through k, then the agent; k->host is not closed. */
static int
kssh_install(struct kssh *k, const char *rev, const struct kernel_opts *o,
    struct kernel_outcome *res, char *err, size_t errlen)
{
	const struct config_host	*h = k->h;
	struct kernel_io		 io;
	char				 e[1024], gate[1024];
	int				 rc;

	memset(res, 0, sizeof *res);
	if (kernel_check_rev(h, rev, err, errlen) == -1)
		return -1;
	k->power_timeout_s = DEF(o->power_timeout_s, 60);
	memset(&io, 0, sizeof io);
	io.arg = k;
	io.exec = kssh_exec;
	io.alive = kssh_alive;
	io.connect = kssh_connect;
	io.power = kssh_power;
	io.sleep_ms = kssh_sleep;
	io.now_ms = kssh_now;
	/* A host may still be booting (say, after a controller crash). */
	if (!kernel_wait_up(o, &io, e, sizeof e)) {
		util_seterr(err, errlen, "%s: before installing %s: %s",
		    h->name, rev, e);
		return -1;
	}
	if (kssh_lease(k, o, gate, sizeof gate, err, errlen) == -1)
		return -1;
	io.reboot_gate = gate;
	/* The new system's session takes the lease with its first command
	 * (verify's) instead of a round trip of its own. */
	if (k->borrowed)
		host_lease_defer(k->host, 1);
	rc = kernel_switch(h, rev, o, &io, res, err, errlen);
	k->renew_s = 0;
	if (k->borrowed && k->host != NULL) {
		host_lease_defer(k->host, 0);
		if (rc == 0 && host_lease_take_pending(k->host, err,
		    errlen) == -1)
			rc = -1;
	}
	if (rc == -1)
		return -1;
	/* A caller's session deployed the agent itself when it was renewed
	 * (host_reconnect(), host_sync()): a second check is a round trip
	 * for nothing on every step. */
	if (res->result != KERNEL_OK || k->host == NULL ||
	    host_ssh(k->host) == NULL || k->borrowed)
		return 0;
	/* A new kernel may come with a fresh /var: redeploy when needed. */
	if (host_deploy(k->host, e, sizeof e) == -1) {
		util_seterr(err, errlen, "%s: agent after reboot: %s", h->name,
		    e);
		return -1;
	}
	return 0;
}

int
kernel_install_host(const struct config_host *h, const char *rev,
    const struct kernel_opts *o, struct kernel_outcome *res, char *err,
    size_t errlen)
{
	struct kssh	k;
	int		rc;

	memset(&k, 0, sizeof k);
	k.h = h;
	/* The old session must die with the old system: no keepalive
	 * surprises, no silent revival; the agent comes after verify. */
	k.hopts.keepalive_s = -1;
	k.hopts.no_reconnect = 1;
	k.hopts.no_deploy = 1;
	k.hopts.deploy_timeout_ms = 120000;
	rc = kssh_install(&k, rev, o, res, err, errlen);
	host_close(k.host);
	return rc;
}

int
kernel_install_on(struct host *hs, const char *rev,
    const struct kernel_opts *o, struct kernel_outcome *res, char *err,
    size_t errlen)
{
	struct kssh	k;

	memset(&k, 0, sizeof k);
	k.h = host_config(hs);
	k.host = hs;
	k.borrowed = 1;
	return kssh_install(&k, rev, o, res, err, errlen);
}

int
kernel_running(struct host *hs, const struct kernel_opts *o, char *rev,
    size_t revlen, char *err, size_t errlen)
{
	const struct config_host	*h = host_config(hs);
	struct kssh			 k;
	struct kernel_io		 io;
	struct buf			 out;
	char				*a = NULL, *b = NULL, *nl;
	int				 st, rc = -1;

	if (h->kernel.type == CONFIG_KERNEL_FREEBSD_SRC ||
	    h->kernel.verify.argv == NULL) {
		util_seterr(err, errlen, "%s: no verify template that prints "
		    "the running revision", h->name);
		return -1;
	}
	/* A template that needs {rev} can only confirm, not tell. */
	if ((a = kernel_template_command(&h->kernel.verify, "0", h->name, err,
	    errlen)) == NULL || (b = kernel_template_command(&h->kernel.verify,
	    "1", h->name, err, errlen)) == NULL || strcmp(a, b) != 0) {
		if (b != NULL)
			util_seterr(err, errlen, "%s: the verify template "
			    "needs {rev}: it cannot tell what runs", h->name);
		free(a);
		free(b);
		return -1;
	}
	memset(&k, 0, sizeof k);
	k.h = h;
	k.host = hs;
	memset(&io, 0, sizeof io);
	io.arg = &k;
	io.exec = kssh_exec;
	buf_init(&out, KERNEL_OUT_MAX);
	if (kernel_run(&io, h, "verify", a, DEF(o->connect_timeout_s, 10) * 1000,
	    &out, &st, err, errlen) == 0) {
		if (out.data != NULL && (nl = strchr(out.data, '\n')) != NULL)
			*nl = '\0';
		if (st != 0 || out.data == NULL ||
		    !config_valid_revision(out.data))
			util_seterr(err, errlen, "%s: verify: exit %d, \"%.80s\"",
			    h->name, st, out.data != NULL ? out.data : "");
		else {
			snprintf(rev, revlen, "%s", out.data);
			rc = 0;
		}
	}
	buf_free(&out);
	free(a);
	free(b);
	return rc;
}
