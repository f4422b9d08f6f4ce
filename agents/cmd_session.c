/*
 * cmd_session.c: `session` keeps one agent on one SSH channel for many
 * commands.  Each command the controller sends runs in a child of this
 * process, as it would have run on a channel of its own (a new session,
 * stdin /dev/null, its stdout and stderr captured, its exit status or
 * signal), but without sshd's new channel, the login shell and the exec
 * of a fresh agent: a fork.  PROTOCOL.md, "Sessions", has the framing:
 *
 *   agent:      labrat-session 1 HASH\n                (once, at start)
 *   controller: call NARGS LEN\n  then LEN bytes: NARGS strings, each
 *               ending in a NUL, the subcommand first
 *   agent:      done EXIT SIG OUTLEN ERRLEN\n  then the stdout, the stderr
 *               (EXIT -1 and SIG the signal's name when killed, else -)
 *           or  overflow MAX\n   (stdout past MAX: the command was killed)
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
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "exec.h"
#include "proc.h"

/* What a command's output may grow to: the controller's ceilings. */
#define SESSION_OUT_MAX		(8 * 1024 * 1024)
#define SESSION_ERR_MAX		(64 * 1024)
/* After the command's exit, how long output of a child it left behind
 * holding the pipes is still waited for. */
#define SESSION_LINGER_MS	500

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
	    sscanf(line, "call %lu %lu%c", &a, &b, &extra) != 2 || a < 1 || a > SESSION_ARGS_MAX ||
	    b < a || b > SESSION_REQ_MAX)
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

struct sess_out {
	char	*data;
	size_t	 len, cap, max;
	int	 over;
};

static void
sess_out_add(struct sess_out *o, const char *p, size_t n)
{
	if (o->over)
		return;
	if (o->len + n > o->max) {
		o->over = 1;
		n = o->max - o->len;
	}
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 16384;
		char	*d;

		while (cap < o->len + n)
			cap *= 2;
		if ((d = realloc(o->data, cap)) == NULL) {
			o->over = 1;
			return;
		}
		o->data = d;
		o->cap = cap;
	}
	memcpy(o->data + o->len, p, n);
	o->len += n;
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

/* The child: a command as on a channel of its own. */
static void
sess_child(char **argv, int po, int pe)
{
	int	 fd, argc = 0;

	(void)setsid();
	if ((fd = open("/dev/null", O_RDONLY)) != -1) {
		dup2(fd, 0);
		if (fd > 2)
			close(fd);
	}
	dup2(po, 1);
	dup2(pe, 2);
	if (po > 2)
		close(po);
	if (pe > 2 && pe != po)
		close(pe);
	while (argv[argc] != NULL)
		argc++;
	exit(agent_dispatch(argc, argv));
}

/* Runs one command and answers it.  -1 when the answer cannot go out. */
static int
sess_run(char **argv)
{
	struct sess_out out, err;
	struct pollfd pf[2];
	char	 tmp[16384], head[128];
	int	 po[2], pe[2], status = 0, reaped = 0, open_fds, i;
	long long done_at = 0;
	pid_t	 pid;
	ssize_t	 n;

	memset(&out, 0, sizeof(out));
	memset(&err, 0, sizeof(err));
	out.max = SESSION_OUT_MAX;
	err.max = SESSION_ERR_MAX;
	if (pipe(po) == -1)
		return -1;
	if (pipe(pe) == -1) {
		close(po[0]);
		close(po[1]);
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		close(po[0]); close(po[1]); close(pe[0]); close(pe[1]);
		snprintf(head, sizeof(head), "done %d - 0 0\n",
		    AGENT_EXIT_INTERNAL);
		return out_all(head, strlen(head));
	}
	if (pid == 0) {
		close(po[0]);
		close(pe[0]);
		sess_child(argv, po[1], pe[1]);
	}
	close(po[1]);
	close(pe[1]);
	pf[0].fd = po[0];
	pf[1].fd = pe[0];
	open_fds = 2;
	while (open_fds > 0) {
		pf[0].events = pf[1].events = POLLIN;
		if (poll(pf, 2, 100) == -1 && errno != EINTR)
			break;
		for (i = 0; i < 2; i++) {
			if (pf[i].fd == -1 || !(pf[i].revents &
			    (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(pf[i].fd, tmp, sizeof(tmp));
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
				continue;
			}
			sess_out_add(i == 0 ? &out : &err, tmp, (size_t)n);
			/* Past the ceiling: the command goes, as a channel's
			 * command the controller abandons. */
			if (i == 0 && out.over && !reaped)
				kill(-pid, SIGKILL);
		}
		if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
			reaped = 1;
			done_at = exec_now_ms();
		}
		/* Something the command left running holds its output. */
		if (reaped && exec_now_ms() - done_at > SESSION_LINGER_MS)
			break;
	}
	for (i = 0; i < 2; i++)
		if (pf[i].fd != -1)
			close(pf[i].fd);
	if (!reaped)
		while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
			;
	if (out.over)
		snprintf(head, sizeof(head), "overflow %d\n", SESSION_OUT_MAX);
	else if (WIFSIGNALED(status))
		snprintf(head, sizeof(head), "done -1 %s %zu %zu\n",
		    sig_name(WTERMSIG(status)), out.len, err.len);
	else
		snprintf(head, sizeof(head), "done %d - %zu %zu\n",
		    WEXITSTATUS(status), out.len, err.len);
	i = out_all(head, strlen(head));
	if (i == 0 && !out.over)
		i = out_all(out.data != NULL ? out.data : "", out.len) == 0 &&
		    out_all(err.data != NULL ? err.data : "", err.len) == 0 ?
		    0 : -1;
	free(out.data);
	free(err.data);
	return i;
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
