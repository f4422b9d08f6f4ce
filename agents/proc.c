/*
 * proc.c: detached processes and locked pid files (see proc.h).
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

#include "proc.h"

void
proc_sleep_ms(long ms)
{
	struct timespec ts, rem;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &rem) == -1 && errno == EINTR)
		ts = rem;
}

static void
detached_child(const char *logpath, int (*fn)(void *, int), void *arg,
    int notify_fd)
{
	int	 fd, i;

	if ((fd = open("/dev/null", O_RDONLY)) != -1) {
		dup2(fd, 0);
		if (fd != 0)
			close(fd);
	}
	fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd == -1)
		fd = open("/dev/null", O_WRONLY);
	if (fd != -1) {
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	/* Keep nothing of the caller's: an inherited SSH channel would keep
	 * the controller's session open. */
	for (i = 3; i < 256; i++)
		if (i != notify_fd)
			close(i);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	_exit(fn(arg, notify_fd));
}

pid_t
proc_detach(const char *logpath, int (*fn)(void *, int), void *arg,
    char *err, size_t errlen)
{
	struct pollfd pfd;
	pid_t	 child, gc = -1;
	int	 p[2], st;
	ssize_t	 n;

	if (pipe(p) == -1) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(stderr);
	if ((child = fork()) == -1) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (child == 0) {
		close(p[0]);
		if (setsid() == -1)
			_exit(1);
		switch (fork()) {
		case -1:
			_exit(1);
		case 0:
			detached_child(logpath, fn, arg, p[1]);
			_exit(1);
		default:
			_exit(0);
		}
	}
	close(p[1]);
	while (waitpid(child, &st, 0) == -1 && errno == EINTR)
		;
	pfd.fd = p[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 10000) == 1) {
		n = read(p[0], &gc, sizeof(gc));
		if (n != (ssize_t)sizeof(gc))
			gc = -1;
	}
	close(p[0]);
	if (gc <= 0) {
		snprintf(err, errlen, "detached process did not start (see "
		    "%s)", logpath);
		return -1;
	}
	return gc;
}

void
proc_notify(int notify_fd)
{
	pid_t	me = getpid();

	if (write(notify_fd, &me, sizeof(me)) != (ssize_t)sizeof(me))
		_exit(1);
	close(notify_fd);
}

int
proc_pidfile_take(const char *path)
{
	struct flock fl;
	char	 buf[32];
	int	 fd, n;

	if ((fd = open(path, O_RDWR | O_CREAT, 0600)) == -1)
		return -1;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, F_SETLK, &fl) == -1) {
		close(fd);
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == -1 || write(fd, buf, (size_t)n) != n) {
		close(fd);
		return -1;
	}
	return fd;
}

pid_t
proc_pidfile_holder(const char *path)
{
	struct flock fl;
	int	 fd;

	if ((fd = open(path, O_RDWR)) == -1)
		return 0;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, F_GETLK, &fl) == -1 || fl.l_type == F_UNLCK) {
		close(fd);
		return 0;
	}
	close(fd);
	return fl.l_pid;
}

/*
 * The pause before the next look at something that takes a few ms
 * (a process going after SIGTERM, a server coming to listen): 1 ms at
 * first, then a tenth of the time waited, at most max_ms.  A process that
 * goes in 2 ms costs 2 ms, not a whole fixed step.
 */
int
proc_backoff_ms(int waited_ms, int max_ms)
{
	int	step = waited_ms / 10;

	return step < 1 ? 1 : step > max_ms ? max_ms : step;
}

pid_t
proc_pidfile_stop(const char *path, int wait_ms)
{
	pid_t	 pid, p;
	int	 waited = 0, killed = 0, step;

	if ((pid = proc_pidfile_holder(path)) <= 0 || pid == getpid()) {
		if (pid == 0)
			unlink(path);
		return 0;
	}
	kill(pid, SIGTERM);
	while ((p = proc_pidfile_holder(path)) == pid) {
		if (waited >= wait_ms && !killed) {
			kill(pid, SIGKILL);
			killed = 1;
		}
		if (waited >= wait_ms + 5000)
			break;
		step = proc_backoff_ms(waited, 20);
		proc_sleep_ms(step);
		waited += step;
	}
	unlink(path);
	return pid;
}
