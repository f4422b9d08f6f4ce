/*
 * listener_fixture.h: a real TCP listener on 127.0.0.1 for the client
 * tests: a forked child accepts connections one at a time and hands each
 * to the test's serve function (one child, so it can count requests),
 * for at most lifetime_s seconds.  Header-only (static functions).
 */
#ifndef LABRAT_LISTENER_FIXTURE_H
#define LABRAT_LISTENER_FIXTURE_H

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <signal.h>
#include <string.h>
#include <unistd.h>

/*
 * Binds a free port, forks the server (*child) and returns the port, or
 * -1.  SIGPIPE is ignored in the child: a client may hang up mid-reply.
 */
static inline int
fx_listen_fork(void (*serve)(int), int lifetime_s, pid_t *child)
{
	struct sockaddr_in	sin;
	socklen_t		sl = sizeof sin;
	int			s, c, one = 1;

	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    listen(s, 8) == -1 || getsockname(s, (struct sockaddr *)&sin,
	    &sl) == -1) {
		close(s);
		return -1;
	}
	if ((*child = fork()) == 0) {
		signal(SIGPIPE, SIG_IGN);
		alarm((unsigned)lifetime_s);
		for (;;) {
			if ((c = accept(s, NULL, NULL)) == -1)
				_exit(0);
			serve(c);
			close(c);
		}
	}
	close(s);
	return *child == -1 ? -1 : ntohs(sin.sin_port);
}

/* Stops the server. */
static inline void
fx_listen_stop(pid_t child)
{
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

#endif
