/*
 * hooksink: an HTTP/1.1 listener for webhook tests on 127.0.0.1.  Each
 * POST with a Content-Length body is stored in DIR as N.head (request line
 * and headers as received) and N.body (the body's bytes; written last, so
 * its appearance means both are complete), and answered with --status
 * (default 200) and a short text body.  "Expect: 100-continue" is
 * honoured; other methods get 405, a body without Content-Length 411.
 * One connection at a time, closed after each answer; a line on stderr
 * names each body stored.
 *
 *   hooksink --dir DIR [--port N] [--status CODE] [--lifetime S]
 *
 * prints its port on stdout; exits after --lifetime seconds (default 600).
 */
#include <strings.h>

#include "sink.h"

#define HEAD_MAX	(64 * 1024)
#define BODY_MAX	(16 * 1024 * 1024)

static const char	*dir;
static int		 status = 200, seq;

static void
answer(int c, int code, const char *text)
{
	char	hdr[256];

	snprintf(hdr, sizeof hdr, "HTTP/1.1 %d %s\r\nContent-Type: text/plain"
	    "\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n", code,
	    code < 300 ? "OK" : "Error", strlen(text));
	if (sink_say(c, hdr) == 0)
		sink_say(c, text);
}

/* Reads the head into head (NUL-terminated).  Length or -1. */
static long
read_head(struct sink_rd *r, char *head, long *clen, int *expect)
{
	char	line[8192];
	ssize_t	n;
	size_t	len = 0;

	*clen = -1;
	*expect = 0;
	while ((n = sink_line(r, line, sizeof line)) > 0) {
		if (len + (size_t)n >= HEAD_MAX)
			return -1;
		memcpy(head + len, line, (size_t)n);
		len += (size_t)n;
		head[len] = '\0';
		if (strcmp(line, "\r\n") == 0 || strcmp(line, "\n") == 0)
			return (long)len;
		if (strncasecmp(line, "Content-Length:", 15) == 0)
			*clen = strtol(line + 15, NULL, 10);
		if (strncasecmp(line, "Expect:", 7) == 0 &&
		    strstr(line, "100-continue") != NULL)
			*expect = 1;
	}
	return -1;
}

static void
serve(int c)
{
	struct sink_rd	 r;
	char		*head = malloc(HEAD_MAX), *body = NULL, name[64], msg[64];
	long		 hlen, clen;
	int		 expect;

	memset(&r, 0, sizeof r);
	r.fd = c;
	if ((hlen = read_head(&r, head, &clen, &expect)) < 0)
		goto done;
	if (strncmp(head, "POST ", 5) != 0) {
		answer(c, 405, "POST only\n");
		goto done;
	}
	if (clen < 0 || clen > BODY_MAX) {
		answer(c, 411, "Content-Length (at most 16 MiB) required\n");
		goto done;
	}
	if (expect)
		sink_say(c, "HTTP/1.1 100 Continue\r\n\r\n");
	body = malloc((size_t)clen + 1);
	if (sink_read_n(&r, body, (size_t)clen) == -1)
		goto done;
	seq++;
	snprintf(name, sizeof name, "%d.head", seq);
	sink_file(dir, name, head, (size_t)hlen);
	snprintf(name, sizeof name, "%d.body", seq);
	sink_file(dir, name, body, (size_t)clen);
	fprintf(stderr, "hooksink: %s/%s: %ld bytes, answered %d\n", dir, name,
	    clen, status);
	snprintf(msg, sizeof msg, "stored %d\n", seq);
	answer(c, status, status < 300 ? msg : "hooksink was told to fail\n");
done:
	free(body);
	free(head);
	close(c);
}

int
main(int argc, char **argv)
{
	static const char	usage[] = "hooksink --dir DIR [--port N] "
	    "[--status CODE] [--lifetime S]";
	const struct sink_opt	opts[] = { { "--status", &status },
	    { NULL, NULL } };
	int			port, life;

	dir = sink_args(argc, argv, usage, opts, &port, &life);
	if (status < 100 || status > 599) {
		fprintf(stderr, "usage: %s\n", usage);
		return 2;
	}
	sink_serve("hooksink", port, life, serve);
}
