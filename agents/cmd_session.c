/*
 * cmd_session.c: `session` keeps one agent on one SSH channel for many
 * commands.  Each command the controller sends runs in a child of this
 * process (exec_call(): its own process group, stdin /dev/null, its stdout
 * and stderr captured, its exit status or signal), as it would have run on
 * a channel of its own, but without sshd's new channel, the login shell and the exec
 * of a fresh agent: a fork.  PROTOCOL.md, "Sessions", has the framing:
 *
 *   agent:      labrat-session 1 HASH\n                (once, at start)
 *   controller: call NARGS LEN\n  then LEN bytes: NARGS strings, each
 *               ending in a NUL, the subcommand first
 *   agent:      done EXIT SIG OUTLEN ERRLEN\n  then the stdout, the stderr
 *               (EXIT -1 and SIG the signal's name when killed, else -)
 *           or  overflow MAX\n   (stdout past MAX: the rest was dropped)
 *           or  gone\n   (not run: the agent's file was removed or
 *                        replaced since the session began; it ends)
 *
 * End of input ends the session (a command under way finishes first, as
 * on a channel whose controller went away).  A malformed request ends it
 * with "error ...\n": there is no telling where the next one starts.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "exec.h"

/* What a command's output may grow to: the controller's ceilings. */
#define SESSION_OUT_MAX		(8 * 1024 * 1024)
#define SESSION_ERR_MAX		(64 * 1024)
/* A command's ceiling in time: far beyond any the controller gives one
 * (its own deadline ends the session first); then it is killed. */
#define SESSION_CMD_MS		(24 * 3600 * 1000)

struct sess_in {
	char	 buf[4096];
	size_t	 off, have;
	int	 eof;
};

/* Next byte of stdin, or -1 at its end. */
static int
in_byte(struct sess_in *in)
{
	ssize_t	 n;

	if (in->off == in->have) {
		if (in->eof)
			return -1;
		do
			n = read(0, in->buf, sizeof(in->buf));
		while (n == -1 && errno == EINTR);
		if (n <= 0) {
			in->eof = 1;
			return -1;
		}
		in->off = 0;
		in->have = (size_t)n;
	}
	return (unsigned char)in->buf[in->off++];
}

static int
out_all(const void *p, size_t len)
{
	const char *s = p;
	ssize_t	 n;

	while (len > 0) {
		n = write(1, s, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

int
agent_session_head(const char *line, size_t *nargs, size_t *len)
{
	unsigned long a, b;
	char	 extra;

	if (strncmp(line, "call ", 5) != 0 || strspn(line + 5,
	    "0123456789 ") != strlen(line + 5) ||
	    sscanf(line, "call %lu %lu%c", &a, &b, &extra) != 2 || a < 1 ||
	    a > SESSION_ARGS_MAX || b < a || b > SESSION_REQ_MAX)
		return -1;
	*nargs = a;
	*len = b;
	return 0;
}

int
agent_session_args(const char *buf, size_t len, size_t nargs, char **argv)
{
	size_t	 i, n = 0, start = 0;

	if (len == 0 || buf[len - 1] != '\0')
		return -1;
	for (i = 0; i < len; i++) {
		if (buf[i] != '\0')
			continue;
		if (n == nargs)
			return -1;
		argv[n++] = (char *)buf + start;
		start = i + 1;
	}
	if (n != nargs)
		return -1;
	argv[n] = NULL;
	return 0;
}

static const char *
sig_name(int sig)
{
	static char other[16];

	switch (sig) {
	case SIGHUP: return "HUP";
	case SIGINT: return "INT";
	case SIGQUIT: return "QUIT";
	case SIGILL: return "ILL";
	case SIGABRT: return "ABRT";
	case SIGFPE: return "FPE";
	case SIGKILL: return "KILL";
	case SIGSEGV: return "SEGV";
	case SIGPIPE: return "PIPE";
	case SIGALRM: return "ALRM";
	case SIGTERM: return "TERM";
	case SIGBUS: return "BUS";
	case SIGUSR1: return "USR1";
	case SIGUSR2: return "USR2";
	}
	snprintf(other, sizeof(other), "%d", sig);
	return other;
}

/* The command in the child (exec_call()): argv[0] is the program. */
static int
sess_command(void *arg)
{
	char	**argv = arg;
	int	 argc = 0;

	while (argv[argc] != NULL)
		argc++;
	return agent_dispatch(argc, argv);
}

/* Runs one command, as on a channel of its own, and answers it.  -1 when
 * the answer cannot go out. */
static int
sess_run(char **argv)
{
	struct exec_result r;
	char	 head[128], err[256];
	size_t	 errlen;
	int	 rc;

	if (exec_call(argv[1], sess_command, argv, SESSION_CMD_MS,
	    SESSION_OUT_MAX, &r, err, sizeof(err)) == -1) {
		exec_free(&r);
		snprintf(head, sizeof(head), "done %d - 0 %zu\n",
		    AGENT_EXIT_INTERNAL, strlen(err));
		return out_all(head, strlen(head)) == 0 &&
		    out_all(err, strlen(err)) == 0 ? 0 : -1;
	}
	errlen = r.errlen < SESSION_ERR_MAX ? r.errlen : SESSION_ERR_MAX;
	if (r.out_truncated)
		snprintf(head, sizeof(head), "overflow %d\n", SESSION_OUT_MAX);
	else if (r.signo != 0)
		snprintf(head, sizeof(head), "done -1 %s %zu %zu\n",
		    sig_name(r.signo), r.outlen, errlen);
	else
		snprintf(head, sizeof(head), "done %d - %zu %zu\n",
		    r.exited ? r.status : AGENT_EXIT_INTERNAL, r.outlen,
		    errlen);
	rc = out_all(head, strlen(head));
	if (rc == 0 && !r.out_truncated)
		rc = out_all(r.out, r.outlen) == 0 &&
		    out_all(r.err, errlen) == 0 ? 0 : -1;
	exec_free(&r);
	return rc;
}

static int
sess_fail(const char *why)
{
	char	 line[160];

	snprintf(line, sizeof(line), "error %s\n", why);
	(void)out_all(line, strlen(line));
	return AGENT_EXIT_USAGE;
}

/* Whether the file the session was started from is still the same one
 * (a session started by name, from PATH, is not checked). */
static int
sess_same_file(const struct stat *at_start, int checked)
{
	struct stat st;

	if (!checked)
		return 1;
	return stat(agent_self, &st) == 0 && st.st_dev == at_start->st_dev &&
	    st.st_ino == at_start->st_ino;
}

int
agent_cmd_session(int argc, char **argv)
{
	static struct sess_in in;
	struct stat self;
	int	 checked;
	char	 line[SESSION_HEAD_MAX + 1], *req, *args[SESSION_ARGS_MAX + 2];
	size_t	 n, nargs, len, i;
	int	 c;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: labrat-agent session\n");
		return AGENT_EXIT_USAGE;
	}
	/* Removed or replaced (a cleanup, a redeploy by another controller):
	 * commands then run the way without a session, which finds out. */
	checked = agent_self != NULL && strchr(agent_self, '/') != NULL &&
	    stat(agent_self, &self) == 0;
	snprintf(line, sizeof(line), "labrat-session 1 %s\n",
	    LABRAT_AGENT_HASH);
	if (out_all(line, strlen(line)) == -1)
		return AGENT_EXIT_INTERNAL;
	for (;;) {
		n = 0;
		while ((c = in_byte(&in)) != -1 && c != '\n') {
			if (n == SESSION_HEAD_MAX)
				return sess_fail("request line too long");
			line[n++] = (char)c;
		}
		if (c == -1 && n == 0)
			return AGENT_EXIT_OK;	/* the controller is done */
		if (c == -1)
			return sess_fail("input ended inside a request");
		line[n] = '\0';
		if (agent_session_head(line, &nargs, &len) == -1)
			return sess_fail("malformed request line");
		if ((req = malloc(len)) == NULL)
			return sess_fail("out of memory");
		for (i = 0; i < len && (c = in_byte(&in)) != -1; i++)
			req[i] = (char)c;
		if (i < len) {
			free(req);
			return sess_fail("input ended inside a request");
		}
		if (agent_session_args(req, len, nargs, args + 1) == -1) {
			free(req);
			return sess_fail("malformed arguments");
		}
		if (!sess_same_file(&self, checked)) {
			free(req);
			(void)out_all("gone\n", 5);
			return AGENT_EXIT_OK;
		}
		args[0] = "labrat-agent";
		c = sess_run(args);
		free(req);
		if (c == -1)
			return AGENT_EXIT_INTERNAL;
	}
}
