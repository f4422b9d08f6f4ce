/*
 * kernel: install, reboot, power-cycle and verify kernels on lab hosts; see
 * kernel.h.  The provider sequencing over struct kernel_io; the SSH
 * implementation is kernel_ssh.c, the power hooks kernel_power.c.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "config.h"
#include "kernel.h"
#include "kernel_int.h"
#include "log.h"
#include "util.h"


const char *
kernel_result_name(enum kernel_result r)
{
	switch (r) {
	case KERNEL_OK:
		return "ok";
	case KERNEL_UNBUILDABLE:
		return "unbuildable";
	case KERNEL_UNBOOTABLE:
		return "unbootable";
	}
	return "?";
}

static int
is_word(int c)
{
	return isalnum((unsigned char)c);
}

static int
all_of(const char *s, const char *set)
{
	for (; *s != '\0'; s++)
		if (strchr(set, *s) == NULL)
			return 0;
	return 1;
}

/* One word of text (a run of alphanumerics) against rev. */
static int
word_names_rev(const char *w, size_t n, const char *rev)
{
	size_t	rl = strlen(rev);

	if (n == rl && strncmp(w, rev, n) == 0)
		return 1;
	if (n == rl + 1 && strncmp(w, rev, rl) == 0 && w[rl] == 'M')
		return 1;
	if (rl > 0 && all_of(rev, "0123456789") && n >= rl + 1 &&
	    w[0] == 'r' && strncmp(w + 1, rev, rl) == 0 &&
	    (n == rl + 1 || (n == rl + 2 && w[rl + 1] == 'M')))
		return 1;
	if (n >= 7 && n <= rl && all_of(rev, "0123456789abcdef") &&
	    strncmp(w, rev, n) == 0)
		return 1;
	return 0;
}

int
kernel_text_names_rev(const char *text, const char *rev)
{
	const char	*p = text, *w;

	if (text == NULL || rev == NULL || *rev == '\0')
		return 0;
	while (*p != '\0') {
		while (*p != '\0' && !is_word(*p))
			p++;
		w = p;
		while (*p != '\0' && is_word(*p))
			p++;
		if (p > w && word_names_rev(w, (size_t)(p - w), rev))
			return 1;
	}
	return 0;
}

char *
kernel_template_command(const struct config_argv *tmpl, const char *rev,
    const char *host, char *err, size_t errlen)
{
	char	**argv, *cmd;

	if ((argv = config_template_expand(tmpl, rev, host, err,
	    errlen)) == NULL)
		return NULL;
	cmd = config_shell_quote_argv(argv);
	config_argv_free(argv);
	return cmd;
}

/* A fixed argv (no templates) quoted, plus an optional raw suffix. */
static char *
quoted(const char *suffix, const char *a0, ...)
{
	const char	*args[16];
	char		*q, *cmd;
	va_list		 ap;
	size_t		 n = 0;

	va_start(ap, a0);
	for (args[n++] = a0; n < 15 && (args[n] = va_arg(ap,
	    const char *)) != NULL; n++)
		;
	va_end(ap);
	args[n] = NULL;
	q = config_shell_quote_argv((char *const *)args);
	if (suffix == NULL)
		return q;
	cmd = xasprintf("%s %s", q, suffix);
	free(q);
	return cmd;
}

/* The last lines of out (at most ~1.5 KB) into dst. */
static void
tail_into(char *dst, size_t len, const struct buf *out)
{
	const char	*s = out->data != NULL ? out->data : "";
	size_t		 n = strlen(s), keep = len > 1 ? len - 1 : 0;

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	if (n > keep) {
		s += n - keep;
		n = keep;
		while (n > 0 && *s != '\n') {
			s++;
			n--;
		}
		if (n > 0) {
			s++;
			n--;
		}
	}
	snprintf(dst, len, "%.*s", (int)n, s);
}

/* Runs cmd; 0 ran (*status), -1 error with err naming host and what. */
int
kernel_run(const struct kernel_io *io, const struct config_host *h,
    const char *what, const char *cmd, int timeout_ms, struct buf *out,
    int *status, char *err, size_t errlen)
{
	char	e[1024];

	buf_reset(out);
	e[0] = '\0';
	log_debug("%s: %s: %s", h->name, what, cmd);
	if (io->exec(io->arg, cmd, timeout_ms, out, status, e,
	    sizeof e) == -1) {
		util_seterr(err, errlen, "%s: %s: %s", h->name, what, e);
		return -1;
	}
	return 0;
}

/* ---- install, per provider ------------------------------------------ */

/* 0 installed, 1 unbuildable (out filled), -1 error. */
static int
install_command(const struct config_host *h, const char *rev,
    const struct kernel_opts *o, const struct kernel_io *io,
    struct kernel_outcome *res, char *err, size_t errlen)
{
	struct buf	 out;
	char		*cmd;
	int		 st, rc = -1;

	if (h->kernel.install.argv == NULL) {
		util_seterr(err, errlen, "%s: kernel type %s has no install "
		    "template", h->name, h->kernel.type ==
		    CONFIG_KERNEL_LINUX ? "linux" : "command");
		return -1;
	}
	if ((cmd = kernel_template_command(&h->kernel.install, rev, h->name,
	    err, errlen)) == NULL)
		return -1;
	buf_init(&out, KERNEL_OUT_MAX);
	if (kernel_run(io, h, "install", cmd, DEF(o->install_timeout_s, 7200) *
	    1000, &out, &st, err, errlen) == -1)
		goto fail;
	rc = 0;
	if (st != 0) {
		res->result = KERNEL_UNBUILDABLE;
		tail_into(res->detail, sizeof res->detail, &out);
		rc = 1;
	}
fail:
	buf_free(&out);
	free(cmd);
	return rc;
}

/* svn wants the number of "r209169". */
static const char *
svn_number(const char *rev)
{
	return rev[0] == 'r' && rev[1] != '\0' && all_of(rev + 1,
	    "0123456789") ? rev + 1 : rev;
}

static int
install_freebsd(const struct config_host *h, const char *rev,
    const struct kernel_opts *o, const struct kernel_io *io,
    struct kernel_outcome *res, char *err, size_t errlen)
{
	const struct config_kernel *k = &h->kernel;
	struct buf	 out;
	char		*cmd = NULL, *gitdir, jobs[16];
	char		 kc[CONFIG_ARG_MAX + 16],
			 kodir[CONFIG_ARG_MAX + 16];
	int		 st, rc = -1, tmo = DEF(o->install_timeout_s, 7200) *
			    1000, ctmo = DEF(o->connect_timeout_s, 10) * 1000;

	buf_init(&out, KERNEL_OUT_MAX);
	snprintf(jobs, sizeof jobs, "-j%d", k->jobs);
	snprintf(kc, sizeof kc, "KERNCONF=%s", k->kernconf);
	snprintf(kodir, sizeof kodir, "KODIR=/boot/%s", k->kodir);
	gitdir = xasprintf("%s/.git", k->src);
	cmd = quoted(NULL, "test", "-d", gitdir, NULL);
	free(gitdir);
	if (kernel_run(io, h, "source tree", cmd, ctmo, &out, &st, err,
	    errlen) == -1)
		goto fail;
	free(cmd);
	cmd = st == 0 ? quoted(NULL, "git", "-C", k->src, "checkout", "-q",
	    "--detach", rev, NULL) : quoted(NULL, "svn", "update", "-q", "-r",
	    svn_number(rev), k->src, NULL);
	if (kernel_run(io, h, "checkout", cmd, tmo, &out, &st, err, errlen) == -1)
		goto fail;
	if (st != 0) {
		tail_into(res->detail, sizeof res->detail, &out);
		util_seterr(err, errlen, "%s: checkout of %s in %s failed "
		    "(exit %d): %s", h->name, rev, k->src, st, res->detail);
		goto fail;
	}
	free(cmd);
	cmd = quoted(">" KERNEL_LOG " 2>&1", "make", "-C", k->src, jobs,
	    "buildkernel", kc, NULL);
	if (kernel_run(io, h, "buildkernel", cmd, tmo, &out, &st, err, errlen) == -1)
		goto fail;
	if (st == 0) {
		free(cmd);
		cmd = quoted(">>" KERNEL_LOG " 2>&1", "make", "-C", k->src,
		    "installkernel", kc, kodir, NULL);
		if (kernel_run(io, h, "installkernel", cmd, tmo, &out, &st, err,
		    errlen) == -1)
			goto fail;
	}
	if (st != 0) {
		free(cmd);
		cmd = quoted(NULL, "tail", "-n", "25", KERNEL_LOG, NULL);
		if (kernel_run(io, h, "build log", cmd, ctmo, &out, &st, err,
		    errlen) == -1)
			goto fail;
		res->result = KERNEL_UNBUILDABLE;
		tail_into(res->detail, sizeof res->detail, &out);
		rc = 1;
		goto fail;
	}
	free(cmd);
	cmd = quoted(NULL, "nextboot", "-k", k->kodir, NULL);
	if (kernel_run(io, h, "nextboot", cmd, ctmo, &out, &st, err, errlen) == -1)
		goto fail;
	if (st != 0) {
		tail_into(res->detail, sizeof res->detail, &out);
		util_seterr(err, errlen, "%s: nextboot -k %s failed (exit "
		    "%d): %s", h->name, k->kodir, st, res->detail);
		goto fail;
	}
	rc = 0;
fail:
	free(cmd);
	buf_free(&out);
	return rc;
}

/* ---- reboot, wait, verify -------------------------------------------- */

static int
reboot_host(const struct config_host *h, const char *rev,
    const struct kernel_opts *o, const struct kernel_io *io, char *err,
    size_t errlen)
{
	struct buf	 out;
	char		*cmd, e[512];
	int		 st, rc = 0;

	if (h->kernel.type == CONFIG_KERNEL_FREEBSD_SRC ||
	    h->kernel.reboot.argv == NULL)
		cmd = quoted(NULL, "shutdown", "-r", "now", NULL);
	else if ((cmd = kernel_template_command(&h->kernel.reboot, rev,
	    h->name, err, errlen)) == NULL)
		return -1;
	if (io->reboot_gate != NULL && io->reboot_gate[0] != '\0') {
		char *gated = xasprintf("%s && %s", io->reboot_gate, cmd);

		free(cmd);
		cmd = gated;
	}
	buf_init(&out, KERNEL_OUT_MAX);
	/* A session that drops under a reboot is what we asked for. */
	if (kernel_run(io, h, "reboot", cmd, DEF(o->connect_timeout_s, 10) * 1000,
	    &out, &st, e, sizeof e) == 0 && st != 0) {
		tail_into(e, sizeof e, &out);
		util_seterr(err, errlen, "%s: reboot command failed (exit "
		    "%d): %s", h->name, st, e);
		rc = -1;
	}
	buf_free(&out);
	free(cmd);
	return rc;
}

/* Fills res->running; 1 when it is rev, 0 when not, -1 on error. */
static int
verify(const struct config_host *h, const char *rev,
    const struct kernel_opts *o, const struct kernel_io *io,
    struct kernel_outcome *res, char *err, size_t errlen)
{
	const struct config_kernel *k = &h->kernel;
	struct buf	 out;
	char		*cmd = NULL, *nl, boot[CONFIG_ARG_MAX + 16];
	int		 st, rc = -1, tmo = DEF(o->connect_timeout_s, 10) *
			    1000, match = 0;

	buf_init(&out, KERNEL_OUT_MAX);
	if (k->type == CONFIG_KERNEL_FREEBSD_SRC) {
		cmd = quoted(NULL, "sysctl", "-n", "kern.bootfile", NULL);
		if (kernel_run(io, h, "verify", cmd, tmo, &out, &st, err,
		    errlen) == -1)
			goto fail;
		snprintf(boot, sizeof boot, "/boot/%s/kernel", k->kodir);
		if ((nl = strchr(out.data != NULL ? out.data : "", '\n')) !=
		    NULL)
			*nl = '\0';
		match = st == 0 && out.data != NULL &&
		    strcmp(out.data, boot) == 0;
		snprintf(res->running, sizeof res->running, "%s",
		    out.data != NULL ? out.data : "");
		free(cmd);
		cmd = quoted(NULL, "uname", "-v", NULL);
	} else if (k->verify.argv != NULL) {
		if ((cmd = kernel_template_command(&k->verify, rev, h->name,
		    err, errlen)) == NULL)
			goto fail;
	} else
		cmd = xstrdup("uname -r; cat /proc/version");
	if (kernel_run(io, h, "verify", cmd, tmo, &out, &st, err, errlen) == -1)
		goto fail;
	if (st != 0) {
		util_seterr(err, errlen, "%s: verify: exit %d", h->name, st);
		goto fail;
	}
	if (k->type == CONFIG_KERNEL_COMMAND || (k->type ==
	    CONFIG_KERNEL_LINUX && k->verify.argv != NULL)) {
		if ((nl = strchr(out.data, '\n')) != NULL)
			*nl = '\0';
		snprintf(res->running, sizeof res->running, "%s", out.data);
		match = strcmp(out.data, rev) == 0;
	} else {
		match = (k->type == CONFIG_KERNEL_LINUX || match) &&
		    kernel_text_names_rev(out.data, rev);
		if ((nl = strchr(out.data, '\n')) != NULL)
			*nl = '\0';
		if (k->type == CONFIG_KERNEL_LINUX || match)
			snprintf(res->running, sizeof res->running, "%s",
			    out.data);
	}
	rc = match;
fail:
	free(cmd);
	buf_free(&out);
	return rc;
}

int
kernel_check_rev(const struct config_host *h, const char *rev, char *err,
    size_t errlen)
{
	if (rev == NULL || !config_valid_revision(rev) || rev[0] == '-') {
		util_seterr(err, errlen, "%s: \"%.80s\" is not a revision id",
		    h->name, rev != NULL ? rev : "(null)");
		return -1;
	}
	if (h->kernel.type == CONFIG_KERNEL_NONE) {
		util_seterr(err, errlen, "%s: the inventory gives no kernel "
		    "provider (\"kernel\"), so its revision cannot change",
		    h->name);
		return -1;
	}
	return 0;
}

/* After the reboot command: down, up (power hook if needed), verify. */
static int
boot_and_verify(const struct config_host *h, const char *rev,
    const struct kernel_opts *o, const struct kernel_io *io,
    struct kernel_outcome *res, char *err, size_t errlen)
{
	char	e[1024];
	int	m;

	if (kernel_wait_down(h, o, io, err, errlen) == -1)
		return -1;
	e[0] = '\0';
	if (!kernel_wait_up(o, io, e, sizeof e)) {
		log_warnx("%s: no SSH %d s after rebooting into %s (%s); "
		    "power-cycling", h->name, DEF(o->boot_timeout_s, 300),
		    rev, e);
		if (io->power(io->arg, err, errlen) == -1)
			return -1;
		res->power_cycled = 1;
		if (!kernel_wait_up(o, io, e, sizeof e)) {
			util_seterr(err, errlen, "%s: lost: no SSH %d s after "
			    "a power cycle either: %s", h->name,
			    DEF(o->boot_timeout_s, 300), e);
			return -1;
		}
	}
	if ((m = verify(h, rev, o, io, res, err, errlen)) == -1)
		return -1;
	if (res->power_cycled) {
		res->result = KERNEL_UNBOOTABLE;
		snprintf(res->detail, sizeof res->detail, "did not come back "
		    "after rebooting into %s; power-cycled, now running %s",
		    rev, res->running[0] != '\0' ? res->running : "?");
	} else if (!m) {
		res->result = KERNEL_UNBOOTABLE;
		snprintf(res->detail, sizeof res->detail, "rebooted into %s "
		    "but runs %s", rev, res->running[0] != '\0' ?
		    res->running : "another kernel");
	}
	return 0;
}

int
kernel_switch(const struct config_host *h, const char *rev,
    const struct kernel_opts *o, const struct kernel_io *io,
    struct kernel_outcome *res, char *err, size_t errlen)
{
	int64_t	t0;
	int	rc;

	memset(res, 0, sizeof *res);
	if (kernel_check_rev(h, rev, err, errlen) == -1)
		return -1;
	t0 = io->now_ms(io->arg);
	rc = h->kernel.type == CONFIG_KERNEL_FREEBSD_SRC ?
	    install_freebsd(h, rev, o, io, res, err, errlen) :
	    install_command(h, rev, o, io, res, err, errlen);
	res->install_ms = io->now_ms(io->arg) - t0;
	if (rc != 0)
		return rc == 1 ? 0 : -1;
	t0 = io->now_ms(io->arg);
	if (reboot_host(h, rev, o, io, err, errlen) == -1 ||
	    boot_and_verify(h, rev, o, io, res, err, errlen) == -1)
		return -1;
	res->boot_ms = io->now_ms(io->arg) - t0;
	return 0;
}
