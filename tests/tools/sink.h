/*
 * sink.h: what the test listeners smtpsink and hooksink share: a TCP
 * listener on 127.0.0.1 (port 0 = the kernel picks one; the port is
 * printed on stdout, one line, so a test can read it), a buffered line
 * reader with a length ceiling, and files written so that a reader never
 * sees half of one (temporary name, then rename); these are inline here.
 * Their arguments and the listener loop are sink.c's (sink_args(),
 * sink_serve()), linked into both.
 */
#ifndef LABRAT_SINK_H
#define LABRAT_SINK_H

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SINK_IO_TIMEOUT_S	10	/* a silent client is dropped */

struct sink_rd {
	int	fd;
	char	buf[8192];
	size_t	off, len;
};

static inline void sink_die(const char *, const char *)
	    __attribute__((noreturn));

static inline void
sink_die(const char *who, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", who, what, strerror(errno));
	exit(1);
}

/* Listens on 127.0.0.1:port and prints the port chosen. */
static inline int
sink_listen(const char *who, int port)
{
	struct sockaddr_in	sin;
	socklen_t		sl = sizeof sin;
	int			s, one = 1;

	if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		sink_die(who, "socket");
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((unsigned short)port);
	if (bind(s, (struct sockaddr *)&sin, sizeof sin) == -1)
		sink_die(who, "bind 127.0.0.1");
	if (listen(s, 16) == -1)
		sink_die(who, "listen");
	if (getsockname(s, (struct sockaddr *)&sin, &sl) == -1)
		sink_die(who, "getsockname");
	printf("%d\n", ntohs(sin.sin_port));
	fflush(stdout);
	return s;
}

/* Accepts one client, with read and write timeouts set. */
static inline int
sink_accept(int s)
{
	struct timeval	tv = { SINK_IO_TIMEOUT_S, 0 };
	int		c;

	while ((c = accept(s, NULL, NULL)) == -1)
		if (errno != EINTR)
			return -1;
	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	return c;
}

static inline int
sink_send(int fd, const char *s, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = send(fd, s, n, MSG_NOSIGNAL)) <= 0) {
			if (w == -1 && errno == EINTR)
				continue;
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static inline int
sink_say(int fd, const char *s)
{
	return sink_send(fd, s, strlen(s));
}

/*
 * One line into out (at most max bytes, NUL-terminated, the LF kept).
 * Returns its length, 0 at EOF, -1 on error or a line past max.
 */
static inline ssize_t
sink_line(struct sink_rd *r, char *out, size_t max)
{
	size_t	n = 0;
	ssize_t	got;

	for (;;) {
		if (r->off == r->len) {
			got = read(r->fd, r->buf, sizeof r->buf);
			if (got == -1 && errno == EINTR)
				continue;
			if (got <= 0)
				return n > 0 ? -1 : (got == 0 ? 0 : -1);
			r->off = 0;
			r->len = (size_t)got;
		}
		if (n + 1 >= max)
			return -1;
		out[n++] = r->buf[r->off++];
		if (out[n - 1] == '\n') {
			out[n] = '\0';
			return (ssize_t)n;
		}
	}
}

/* Exactly n bytes (after what the line reader buffered).  0 or -1. */
static inline int
sink_read_n(struct sink_rd *r, char *out, size_t n)
{
	size_t	k;
	ssize_t	got;

	k = r->len - r->off < n ? r->len - r->off : n;
	memcpy(out, r->buf + r->off, k);
	r->off += k;
	while (k < n) {
		got = read(r->fd, out + k, n - k);
		if (got == -1 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		k += (size_t)got;
	}
	return 0;
}

/* A sink's own option: --NAME INT into *val. */
struct sink_opt {
	const char	*name;		/* "--status" */
	int		*val;
};

/*
 * Parses --dir DIR [--port N] [--lifetime S] (defaults 0 = any port,
 * 600 s) and opts ({ NULL } terminated, may be NULL), each once or more,
 * in any order; anything else, a missing value or no --dir prints usage
 * ("smtpsink --dir DIR ...") and exits 2.  Returns DIR (argv's).
 */
const char *sink_args(int argc, char **argv, const char *usage,
	    const struct sink_opt *opts, int *port, int *life);

/*
 * Ignores SIGPIPE, exits after life seconds (SIGALRM), listens on
 * 127.0.0.1:port printing the port, and serves one client at a time
 * (serve closes its fd) until accept fails; never returns.
 */
void	sink_serve(const char *who, int port, int life, void (*serve)(int fd))
	    __attribute__((noreturn));

/* dir/name written whole (dir/.name.tmp, then rename).  0 or -1. */
static inline int
sink_file(const char *dir, const char *name, const void *p, size_t n)
{
	char	tmp[4096], path[4096];
	FILE	*fp;

	snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fp = fopen(tmp, "w")) == NULL)
		return -1;
	if (fwrite(p, 1, n, fp) != n || fclose(fp) != 0)
		return -1;
	return rename(tmp, path);
}

#endif
