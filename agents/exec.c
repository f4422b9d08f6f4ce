/*
 * exec.c: fork/exec with a deadline and capped capture (see exec.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "exec.h"

struct sink {
	char	*buf;
	size_t	 len;
	size_t	 cap;	/* allocated */
	size_t	 max;
	int	 truncated;
};

long long
exec_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
sink_add(struct sink *s, const char *p, size_t n)
{
	size_t	 ncap;
	char	*nb;

	if (s->len + n > s->max) {
		s->truncated = 1;
		n = s->max - s->len;
	}
	if (s->len + n + 1 > s->cap) {
		ncap = s->cap ? s->cap : 4096;
		while (ncap < s->len + n + 1)
			ncap *= 2;
		if ((nb = realloc(s->buf, ncap)) == NULL)
			return -1;
		s->buf = nb;
		s->cap = ncap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return 0;
}

void
exec_argv_str(char *const argv[], char *buf, size_t len)
{
	size_t	 n = 0;
	int	 i;

	buf[0] = '\0';
	for (i = 0; argv[i] != NULL && n + 1 < len; i++) {
		snprintf(buf + n, len - n, "%s%s", i ? " " : "", argv[i]);
		n = strlen(buf);
	}
}

/* What a child runs: argv's program (exec_run()) or fn(arg) (exec_call()). */
struct job {
	char *const	*argv;
	int		(*fn)(void *);
	void		*arg;
	const char	*name;		/* for messages */
};

static void
child(const struct job *j, int outfd, int errfd, int errpipe)
{
	int	 fd, e;

	setpgid(0, 0);
	if ((fd = open("/dev/null", O_RDONLY)) != -1) {
		dup2(fd, 0);
		if (fd > 2)
			close(fd);
	}
	dup2(outfd, 1);
	dup2(errfd, 2);
	if (outfd > 2)
		close(outfd);
	if (errfd > 2 && errfd != outfd)
		close(errfd);
	if (j->fn != NULL) {
		/* No exec to close it: the parent waits for its end. */
		close(errpipe);
		exit(j->fn(j->arg));
	}
	signal(SIGPIPE, SIG_DFL);
	execvp(j->argv[0], j->argv);
	e = errno;
	if (write(errpipe, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Reads what is ready on the pipes until both close or the deadline. */
static int
pump(int fds[2], struct sink *sinks, long long deadline, pid_t pid,
    struct exec_result *r)
{
	struct pollfd pfd[2];
	char	 tmp[8192];
	ssize_t	 n;
	int	 i, open_fds = 2, killed = 0;
	long long left, kill_at = 0;

	while (open_fds > 0) {
		for (i = 0; i < 2; i++) {
			pfd[i].fd = fds[i];
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		left = (killed ? kill_at : deadline) - exec_now_ms();
		if (left < 0)
			left = 0;
		if (left == 0) {
			if (!killed) {
				r->timed_out = 1;
				kill(-pid, SIGTERM);
				kill(pid, SIGTERM);
				killed = 1;
				kill_at = exec_now_ms() + 1000;
				continue;
			}
			/* SIGKILL, then stop waiting for the pipes: a
			 * grandchild that escaped the group may hold them. */
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			break;
		}
		if (poll(pfd, 2, (int)(left > 1000 ? 1000 : left)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		for (i = 0; i < 2; i++) {
			if (fds[i] == -1 ||
			    (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0)
				continue;
			n = read(fds[i], tmp, sizeof(tmp));
			if (n > 0) {
				if (sink_add(&sinks[i], tmp, (size_t)n) == -1)
					return -1;
			} else if (n == 0 || errno != EINTR) {
				close(fds[i]);
				fds[i] = -1;
				open_fds--;
			}
		}
	}
	return 0;
}

/* Waits for pid, still honouring the deadline (a child that closed its
 * pipes but keeps running). */
static void
reap(pid_t pid, long long deadline, struct exec_result *r)
{
	int	 st, stage = 0;
	long	 nap_us = 200;	/* the child usually exits right after its
				 * pipes close: poll fast, then back off */
	pid_t	 w;

	for (;;) {
		w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			break;
		if (w == -1 && errno != EINTR) {
			r->status = -1;
			return;
		}
		if (exec_now_ms() >= deadline) {
			r->timed_out = 1;
			kill(-pid, stage == 0 ? SIGTERM : SIGKILL);
			kill(pid, stage == 0 ? SIGTERM : SIGKILL);
			deadline = exec_now_ms() + 1000;
			stage = 1;
		}
		{
			struct timespec ts = { 0, nap_us * 1000 };

			nanosleep(&ts, NULL);
			if (nap_us < 10 * 1000)
				nap_us *= 2;
		}
	}
	if (WIFEXITED(st)) {
		r->exited = 1;
		r->status = WEXITSTATUS(st);
	} else if (WIFSIGNALED(st)) {
		r->status = -1;
		r->signo = WTERMSIG(st);
	}
}

/* Moves the captured streams into r (always NUL-terminated strings). */
static int
hand_over(struct sink *sinks, struct exec_result *r)
{
	r->out = sinks[0].buf ? sinks[0].buf : calloc(1, 1);
	r->outlen = sinks[0].len;
	r->out_truncated = sinks[0].truncated;
	r->err = sinks[1].buf ? sinks[1].buf : calloc(1, 1);
	r->errlen = sinks[1].len;
	r->err_truncated = sinks[1].truncated;
	if (r->out == NULL || r->err == NULL) {
		exec_free(r);
		return -1;
	}
	return 0;
}

/*
 * The child's stdout, stderr and exec-error pipes.  The exec error pipe
 * closes on a successful exec; the read ends must not leak into the child
 * (or a daemon it starts).  -1 with errno; the caller closes what opened.
 */
static int
open_pipes(int outp[2], int errp[2], int ep[2])
{
	if (pipe(outp) == -1 || pipe(errp) == -1 || pipe(ep) == -1)
		return -1;
	fcntl(ep[1], F_SETFD, FD_CLOEXEC);
	fcntl(ep[0], F_SETFD, FD_CLOEXEC);
	fcntl(outp[0], F_SETFD, FD_CLOEXEC);
	fcntl(errp[0], F_SETFD, FD_CLOEXEC);
	return 0;
}

static int
run(const struct job *j, int timeout_ms, size_t cap, struct exec_result *r,
    char *err, size_t errlen)
{
	struct sink sinks[2];
	int	 outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	int	 ep[2] = { -1, -1 }, e = 0, fds[2];
	long long start, deadline;
	pid_t	 pid;
	ssize_t	 n;

	memset(r, 0, sizeof(*r));
	memset(sinks, 0, sizeof(sinks));
	r->status = -1;
	sinks[0].max = sinks[1].max = cap;
	if (open_pipes(outp, errp, ep) == -1) {
		snprintf(err, errlen, "%s: pipe: %s", j->name,
		    strerror(errno));
		goto fail;
	}
	start = exec_now_ms();
	deadline = start + (timeout_ms > 0 ? timeout_ms : EXEC_TIMEOUT_DEFAULT);
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		snprintf(err, errlen, "%s: fork: %s", j->name,
		    strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		close(ep[0]);
		close(outp[0]);
		close(errp[0]);
		child(j, outp[1], errp[1], ep[1]);
	}
	setpgid(pid, pid);	/* also here: no race with an early kill */
	close(outp[1]);
	close(errp[1]);
	close(ep[1]);
	outp[1] = errp[1] = ep[1] = -1;
	do {
		n = read(ep[0], &e, sizeof(e));
	} while (n == -1 && errno == EINTR);
	close(ep[0]);
	ep[0] = -1;
	fds[0] = outp[0];
	fds[1] = errp[0];
	outp[0] = errp[0] = -1;
	if (n == (ssize_t)sizeof(e)) {
		close(fds[0]);
		close(fds[1]);
		reap(pid, deadline, r);
		snprintf(err, errlen, "%s: cannot execute: %s", j->name,
		    strerror(e));
		goto fail;
	}
	if (pump(fds, sinks, deadline, pid, r) == -1) {
		snprintf(err, errlen, "%s: reading output: %s", j->name,
		    strerror(errno));
		kill(-pid, SIGKILL);
	}
	if (fds[0] != -1)
		close(fds[0]);
	if (fds[1] != -1)
		close(fds[1]);
	reap(pid, r->timed_out ? exec_now_ms() : deadline, r);
	r->elapsed_ms = exec_now_ms() - start;
	if (hand_over(sinks, r) == -1) {
		snprintf(err, errlen, "%s: out of memory", j->name);
		return -1;
	}
	return 0;
fail:
	if (outp[0] != -1) close(outp[0]);
	if (outp[1] != -1) close(outp[1]);
	if (errp[0] != -1) close(errp[0]);
	if (errp[1] != -1) close(errp[1]);
	if (ep[0] != -1) close(ep[0]);
	if (ep[1] != -1) close(ep[1]);
	free(sinks[0].buf);
	free(sinks[1].buf);
	r->out = r->err = NULL;
	return -1;
}

int
exec_run(char *const argv[], int timeout_ms, size_t cap,
    struct exec_result *r, char *err, size_t errlen)
{
	struct job	j = { argv, NULL, NULL, argv[0] };

	return run(&j, timeout_ms, cap, r, err, errlen);
}

int
exec_call(const char *name, int (*fn)(void *), void *arg, int timeout_ms,
    size_t cap, struct exec_result *r, char *err, size_t errlen)
{
	struct job	j = { NULL, fn, arg, name };

	return run(&j, timeout_ms, cap, r, err, errlen);
}

void
exec_free(struct exec_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

int
exec_cmd(char *const argv[], int timeout_ms, struct exec_result *r,
    char *err, size_t errlen)
{
	char	 cmd[256], line[256];
	size_t	 n;

	exec_argv_str(argv, cmd, sizeof(cmd));
	if (exec_run(argv, timeout_ms, EXEC_CAP_DEFAULT, r, err, errlen) == -1)
		return AGENT_EXIT_COMMAND;
	if (r->timed_out) {
		snprintf(err, errlen, "%s: killed after its deadline of %d ms",
		    cmd, timeout_ms);
		return AGENT_EXIT_TIMEOUT;
	}
	if (r->exited && r->status == 0)
		return AGENT_EXIT_OK;
	n = strcspn(r->err, "\n");
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, r->err, n);
	line[n] = '\0';
	if (r->exited)
		snprintf(err, errlen, "%s: exited %d%s%s", cmd, r->status,
		    n ? ": " : "", line);
	else
		snprintf(err, errlen, "%s: killed by signal %d", cmd,
		    r->signo);
	return AGENT_EXIT_COMMAND;
}
