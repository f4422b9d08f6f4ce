/*
 * osdep.c: what both dialects share -- plans, the command runner, knob
 * names and the kernel revision heuristic.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "emit.h"
#include "osdep.h"

static osdep_runner_fn	runner_fn;
static void		*runner_ctx;

void
plan_init(struct plan *p)
{
	memset(p, 0, sizeof(*p));
}

void
plan_add(struct plan *p, int flags, const char *knob, ...)
{
	struct plan_cmd *c;
	const char *w;
	va_list	 ap;

	if (p->n >= PLAN_MAXCMDS) {
		p->overflow = 1;
		return;
	}
	c = &p->cmd[p->n++];
	memset(c, 0, sizeof(*c));
	c->flags = flags;
	c->knob = knob;
	va_start(ap, knob);
	while ((w = va_arg(ap, const char *)) != NULL) {
		if (c->argc >= PLAN_MAXARGS || strlen(w) >= PLAN_ARGLEN) {
			p->overflow = 1;
			break;
		}
		strcpy(c->args[c->argc++], w);
	}
	va_end(ap);
}

void
plan_format(const struct plan *p, char *buf, size_t len)
{
	size_t	 n = 0;
	int	 i, j;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < p->n; i++) {
		for (j = 0; j < p->cmd[i].argc && n < len; j++) {
			snprintf(buf + n, len - n, "%s%s", j ? " " : "",
			    p->cmd[i].args[j]);
			n = strlen(buf);
		}
		if (n + 1 < len) {
			buf[n++] = '\n';
			buf[n] = '\0';
		}
	}
}

void
osdep_set_runner(osdep_runner_fn fn, void *ctx)
{
	runner_fn = fn;
	runner_ctx = ctx;
}

int
osdep_runner_set(void)
{
	return runner_fn != NULL;
}

int
osdep_run(char *const argv[], int timeout_ms, struct exec_result *r,
    char *err, size_t errlen)
{
	if (runner_fn != NULL)
		return runner_fn(runner_ctx, argv, timeout_ms, r, err, errlen);
	return exec_run(argv, timeout_ms, EXEC_CAP_DEFAULT, r, err, errlen);
}

int
plan_run(const struct plan *p, char *err, size_t errlen)
{
	const struct osdep_dialect *d = osdep_host();
	struct exec_result r;
	char	*argv[PLAN_MAXARGS + 1], cmd[512], line[256];
	int	 i, j, ok;
	size_t	 n;

	if (p->overflow) {
		snprintf(err, errlen, "internal: plan too long");
		return AGENT_EXIT_INTERNAL;
	}
	for (i = 0; i < p->n; i++) {
		for (j = 0; j < p->cmd[i].argc; j++)
			argv[j] = (char *)p->cmd[i].args[j];
		argv[j] = NULL;
		exec_argv_str(argv, cmd, sizeof(cmd));
		/* The command as named, carried out by the dialect where
		 * it can do without a process (ethtool's ioctl). */
		if (d->builtin != NULL && d->builtin(argv, &r) == 0)
			emit_progress("run: %s (ioctl)", cmd);
		else {
			emit_progress("run: %s", cmd);
			if (osdep_run(argv, EXEC_TIMEOUT_DEFAULT, &r, err,
			    errlen) == -1) {
				exec_free(&r);
				return AGENT_EXIT_COMMAND;
			}
		}
		ok = r.exited && r.status == 0;
		n = strcspn(r.err, "\n");
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, r.err, n);
		line[n] = '\0';
		if (r.timed_out) {
			snprintf(err, errlen, "%s: killed after its deadline",
			    cmd);
			exec_free(&r);
			return AGENT_EXIT_TIMEOUT;
		}
		if (!ok && (p->cmd[i].flags & (PLAN_SOFT | PLAN_IGNORE))) {
			emit_progress("%s: exited %d: %s (%s)", cmd, r.status,
			    line, (p->cmd[i].flags & PLAN_SOFT) ?
			    "verified by read back" : "ignored");
		} else if (!ok) {
			snprintf(err, errlen, "%s: exited %d%s%s", cmd,
			    r.status, n ? ": " : "", line);
			exec_free(&r);
			return AGENT_EXIT_COMMAND;
		}
		exec_free(&r);
	}
	return AGENT_EXIT_OK;
}

void
osdep_knobs_unset(struct osdep_knobs *k)
{
	memset(k, 0, sizeof(*k));
	k->tso = k->tcp_tso = k->mtu = k->lro = k->rxcsum = k->txcsum =
	    k->nat = OSDEP_UNSET;
}

/* The numeric knobs of struct osdep_knobs (NAT goes with its interface). */
static const size_t knob_offsets[] = {
	offsetof(struct osdep_knobs, tso),
	offsetof(struct osdep_knobs, tcp_tso),
	offsetof(struct osdep_knobs, mtu),
	offsetof(struct osdep_knobs, lro),
	offsetof(struct osdep_knobs, rxcsum),
	offsetof(struct osdep_knobs, txcsum)
};

void
osdep_knobs_target(const struct osdep_knobs *req,
    const struct osdep_knobs *saved, struct osdep_knobs *out)
{
	size_t	i;

	*out = *req;
	if (saved == NULL)
		return;
	for (i = 0; i < sizeof(knob_offsets) / sizeof(knob_offsets[0]); i++) {
		int		*o = (int *)((char *)out + knob_offsets[i]);
		const int	*s = (const int *)((const char *)saved +
				    knob_offsets[i]);

		if (*o == OSDEP_UNSET)
			*o = *s;
	}
	if (out->nat == OSDEP_UNSET && saved->nat != OSDEP_UNSET) {
		/* NAT goes back on the interface its original was read on. */
		out->nat = saved->nat;
		memcpy(out->nat_if, saved->nat_if, sizeof(out->nat_if));
	}
}

const char *
osdep_nat_name(int nat)
{
	switch (nat) {
	case OSDEP_NAT_OFF:
		return "off";
	case OSDEP_NAT_DIVERT:
		return "divert";
	case OSDEP_NAT_KERNEL:
		return "kernel";
	default:
		return NULL;
	}
}

int
osdep_nat_parse(const char *s)
{
	if (s == NULL)
		return OSDEP_UNSET;
	if (strcmp(s, "off") == 0)
		return OSDEP_NAT_OFF;
	if (strcmp(s, "divert") == 0)
		return OSDEP_NAT_DIVERT;
	if (strcmp(s, "kernel") == 0)
		return OSDEP_NAT_KERNEL;
	return OSDEP_UNSET;
}

static size_t
span_hex(const char *s)
{
	size_t	n = 0;

	while (isxdigit((unsigned char)s[n]) && !isupper((unsigned char)s[n]))
		n++;
	return n;
}

static int
tok_start(const char *base, const char *p)
{
	return p == base || strchr(" \t\n(#:", p[-1]) != NULL;
}

static int
tok_end(char c)
{
	return c == '\0' || strchr(" \t\n):,", c) != NULL;
}

static int
copy_tok(const char *p, size_t n, char *out, size_t outlen)
{
	if (n == 0 || n >= outlen)
		return -1;
	memcpy(out, p, n);
	out[n] = '\0';
	return 0;
}

void
osdep_kernel_revision(const char *v, char *out, size_t outlen)
{
	const char *p;
	size_t	 n;

	out[0] = '\0';
	for (p = v; *p != '\0'; p++) {
		/* svn: r209169 */
		if (*p == 'r' && tok_start(v, p) &&
		    isdigit((unsigned char)p[1])) {
			n = 1;
			while (isdigit((unsigned char)p[n]))
				n++;
			if (tok_end(p[n]) && copy_tok(p, n, out, outlen) == 0)
				return;
		}
		/* git: -g1a2b3c4 (Linux localversion), "rev 1a2b3c4" */
		if ((strncmp(p, "-g", 2) == 0 && (n = span_hex(p + 2)) >= 7 &&
		    tok_end(p[2 + n]) && copy_tok(p + 2, n, out, outlen) == 0) ||
		    (strncmp(p, "rev ", 4) == 0 && tok_start(v, p) &&
		    (n = span_hex(p + 4)) >= 7 && tok_end(p[4 + n]) &&
		    copy_tok(p + 4, n, out, outlen) == 0))
			return;
		/* FreeBSD git builds: main-n262658-b347c2284603 */
		if (strncmp(p, "-n", 2) == 0 && isdigit((unsigned char)p[2])) {
			const char *q = p + 2;

			while (isdigit((unsigned char)*q))
				q++;
			if (*q == '-' && (n = span_hex(q + 1)) >= 7 &&
			    tok_end(q[1 + n]) &&
			    copy_tok(q + 1, n, out, outlen) == 0)
				return;
		}
	}
}

int
osdep_read_small(const char *path, char *buf, size_t len)
{
	ssize_t	 n;
	int	 fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

const struct osdep_dialect *
osdep_host(void)
{
#if defined(__FreeBSD__)
	return &osdep_freebsd;
#else
	return &osdep_linux;
#endif
}
