/*
 * smtpsink: a minimal real SMTP server for tests (RFC 5321's minimum:
 * EHLO/HELO, MAIL FROM, RCPT TO, DATA, RSET, NOOP, QUIT) on 127.0.0.1.
 * Each accepted message is stored in DIR as N.eml, exactly the bytes
 * between DATA and the final "." with the client's dot-stuffing undone,
 * and N.env, the envelope ("MAIL FROM:<a>" then one "RCPT TO:<b>" line
 * per recipient); N.env is written first, so N.eml's appearance means
 * both are complete; a line on stderr names each file stored.  Clients
 * are served one at a time.
 *
 *   smtpsink --dir DIR [--port N] [--rcpt-code C] [--data-code C]
 *            [--lifetime S]
 *
 * prints its port on stdout; --rcpt-code / --data-code answer every RCPT
 * / the end of DATA with that code instead of 250 (e.g. 550); it exits
 * after --lifetime seconds (default 600) so a forgotten sink goes away.
 */
#include <ctype.h>
#include <strings.h>

#include "sink.h"

#define LINE_MAX_SMTP	(1024 * 1024)
#define MSG_MAX_SMTP	(20 * 1024 * 1024)

static const char	*dir;
static int		 rcpt_code, data_code, seq;

struct env {
	char	*text;		/* the envelope lines */
	size_t	 len;
	int	 nrcpt, from;
};

static void
env_add(struct env *e, const char *line)
{
	size_t	n = strlen(line);

	e->text = realloc(e->text, e->len + n + 2);
	memcpy(e->text + e->len, line, n);
	e->len += n;
	e->text[e->len++] = '\n';
	e->text[e->len] = '\0';
}

static void
env_reset(struct env *e)
{
	free(e->text);
	memset(e, 0, sizeof *e);
}

/* Reads DATA up to the lone ".", undoing dot-stuffing.  0, or -1. */
static int
data(struct sink_rd *r, int c, struct env *e, char *line)
{
	char	*msg = NULL, name[64], reply[128];
	size_t	 len = 0;
	ssize_t	 n;
	int	 over = 0;

	sink_say(c, "354 end with <CRLF>.<CRLF>\r\n");
	for (;;) {
		if ((n = sink_line(r, line, LINE_MAX_SMTP)) <= 0) {
			free(msg);
			return -1;
		}
		if (strcmp(line, ".\r\n") == 0 || strcmp(line, ".\n") == 0)
			break;
		if (line[0] == '.') {
			memmove(line, line + 1, (size_t)n);
			n--;
		}
		if (len + (size_t)n > MSG_MAX_SMTP) {
			over = 1;
			continue;
		}
		msg = realloc(msg, len + (size_t)n + 1);
		memcpy(msg + len, line, (size_t)n);
		len += (size_t)n;
	}
	if (over)
		sink_say(c, "552 message too large\r\n");
	else if (data_code != 0) {
		snprintf(reply, sizeof reply, "%d smtpsink refuses the "
		    "message\r\n", data_code);
		sink_say(c, reply);
	} else {
		seq++;
		snprintf(name, sizeof name, "%d.env", seq);
		sink_file(dir, name, e->text, e->len);
		snprintf(name, sizeof name, "%d.eml", seq);
		sink_file(dir, name, msg != NULL ? msg : "", len);
		fprintf(stderr, "smtpsink: %s/%s: %zu bytes, %d recipient%s\n",
		    dir, name, len, e->nrcpt, e->nrcpt == 1 ? "" : "s");
		snprintf(reply, sizeof reply, "250 OK queued as %d\r\n", seq);
		sink_say(c, reply);
	}
	free(msg);
	env_reset(e);
	return 0;
}

static int
verb(const char *line, const char *v)
{
	return strncasecmp(line, v, strlen(v)) == 0;
}

/* One command line (CR LF cut off).  1 go on, 0 quit, -1 error. */
static int
command(struct sink_rd *r, int c, struct env *e, char *line)
{
	char	reply[128];

	if (verb(line, "EHLO ")) {
		env_reset(e);
		return sink_say(c, "250-smtpsink\r\n250-SIZE 20971520\r\n"
		    "250-8BITMIME\r\n250 HELP\r\n") == 0 ? 1 : -1;
	}
	if (verb(line, "HELO "))
		return sink_say(c, "250 smtpsink\r\n") == 0 ? 1 : -1;
	if (verb(line, "MAIL FROM:")) {
		env_reset(e);
		env_add(e, line);
		e->from = 1;
		return sink_say(c, "250 OK\r\n") == 0 ? 1 : -1;
	}
	if (verb(line, "RCPT TO:")) {
		if (!e->from)
			return sink_say(c, "503 MAIL first\r\n") == 0 ? 1 : -1;
		if (rcpt_code != 0) {
			snprintf(reply, sizeof reply, "%d no such user here"
			    "\r\n", rcpt_code);
			return sink_say(c, reply) == 0 ? 1 : -1;
		}
		env_add(e, line);
		e->nrcpt++;
		return sink_say(c, "250 OK\r\n") == 0 ? 1 : -1;
	}
	if (verb(line, "DATA")) {
		if (e->nrcpt == 0)
			return sink_say(c, "503 RCPT first\r\n") == 0 ? 1 : -1;
		return data(r, c, e, line) == 0 ? 1 : -1;
	}
	if (verb(line, "RSET")) {
		env_reset(e);
		return sink_say(c, "250 OK\r\n") == 0 ? 1 : -1;
	}
	if (verb(line, "NOOP"))
		return sink_say(c, "250 OK\r\n") == 0 ? 1 : -1;
	if (verb(line, "QUIT")) {
		sink_say(c, "221 bye\r\n");
		return 0;
	}
	return sink_say(c, "502 command not implemented\r\n") == 0 ? 1 : -1;
}

static void
session(int c)
{
	struct sink_rd	 r;
	struct env	 e;
	char		*line = malloc(LINE_MAX_SMTP);
	ssize_t		 n;

	memset(&r, 0, sizeof r);
	memset(&e, 0, sizeof e);
	r.fd = c;
	if (sink_say(c, "220 smtpsink ESMTP\r\n") == -1)
		goto done;
	while ((n = sink_line(&r, line, LINE_MAX_SMTP)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (command(&r, c, &e, line) <= 0)
			break;
	}
done:
	env_reset(&e);
	free(line);
	close(c);
}

int
main(int argc, char **argv)
{
	const struct sink_opt	opts[] = { { "--rcpt-code", &rcpt_code },
	    { "--data-code", &data_code }, { NULL, NULL } };
	int			port, life;

	dir = sink_args(argc, argv, "smtpsink --dir DIR [--port N] "
	    "[--rcpt-code C] [--data-code C] [--lifetime S]", opts, &port,
	    &life);
	sink_serve("smtpsink", port, life, session);
}
