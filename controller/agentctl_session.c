/*
 * agentctl_session: agent commands through the agent's `session`, kept on
 * a channel of the host's connection (PROTOCOL.md, "Sessions"): a command
 * costs the host a fork instead of a new channel, a login shell and an
 * exec.  The session starts with the first command that wants it and goes
 * with the connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentctl.h"
#include "agentctl_int.h"
#include "ssh.h"
#include "util.h"

/* The line at in[from..] without its newline into line; 0 when there is
 * none yet, -1 when too long, else the offset after the newline. */
static long
sess_line(const struct buf *in, size_t from, char *line, size_t len)
{
	const char	*nl;
	size_t		 n;

	if (in->len <= from)
		return 0;
	nl = memchr(in->data + from, '\n', in->len - from);
	if (nl == NULL)
		return in->len - from >= len ? -1 : 0;
	n = (size_t)(nl - (in->data + from));
	if (n >= len)
		return -1;
	memcpy(line, in->data + from, n);
	line[n] = '\0';
	return (long)(from + n + 1);
}

static int
sess_sig_ok(const char *s)
{
	size_t	n = strlen(s);

	return strcmp(s, "-") == 0 || (n >= 1 && n <= 16 &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == n);
}

/* Splits line at single spaces into at most max words (w); how many, or
 * -1 when there are more or a word is empty. */
static int
sess_split(char *line, char **w, int max)
{
	int	n = 0;
	char	*sp;

	for (;;) {
		if (n == max || *line == '\0' || *line == ' ')
			return -1;
		w[n++] = line;
		if ((sp = strchr(line, ' ')) == NULL)
			return n;
		*sp = '\0';
		line = sp + 1;
	}
}

/* A decimal count of up to 18 digits into *v: 0, or -1. */
static int
sess_num(const char *s, unsigned long long *v)
{
	size_t	n = strlen(s);

	if (n < 1 || n > 18 || strspn(s, "0123456789") != n)
		return -1;
	*v = strtoull(s, NULL, 10);
	return 0;
}

int
agentctl_sess_parse(const struct buf *in, void *arg)
{
	struct agentctl_sess_parse	*p = arg;
	char			 line[AGENTCTL_SESS_LINE], *w[6];
	long			 next;
	unsigned long long	 ex = 0, ol, el;
	size_t			 total;
	int			 nw;

	if (p->want_hello && !p->hello_seen) {
		if ((next = sess_line(in, 0, line, sizeof line)) <= 0) {
			if (next == 0)
				return 0;
			snprintf(p->why, sizeof p->why, "no session hello");
			return -1;
		}
		if (strncmp(line, "labrat-session 1 ", 17) != 0 ||
		    (p->hash != NULL && strcmp(line + 17, p->hash) != 0)) {
			snprintf(p->why, sizeof p->why, "no session hello");
			return -1;
		}
		p->hello_seen = 1;
		p->start = (size_t)next;
	}
	if (p->body == 0) {
		if ((next = sess_line(in, p->start, line, sizeof line)) <= 0) {
			if (next == 0)
				return 0;
			snprintf(p->why, sizeof p->why, "answer line too long");
			return -1;
		}
		nw = sess_split(line, w, 6);
		if (nw == 1 && strcmp(w[0], "gone") == 0) {
			p->gone = 1;
			snprintf(p->why, sizeof p->why, "the agent's file "
			    "changed");
			return -1;
		}
		if (nw == 2 && strcmp(w[0], "overflow") == 0 &&
		    sess_num(w[1], &ol) == 0) {
			p->overflow = 1;
			return -1;
		}
		if (nw != 5 || strcmp(w[0], "done") != 0 ||
		    (strcmp(w[1], "-1") != 0 && (sess_num(w[1], &ex) == -1 ||
		    ex > 255)) || !sess_sig_ok(w[2]) ||
		    (w[1][0] == '-') != (w[2][0] != '-') ||
		    sess_num(w[3], &ol) == -1 || sess_num(w[4], &el) == -1 ||
		    el > p->err_max) {
			snprintf(p->why, sizeof p->why, "malformed answer "
			    "line");
			return -1;
		}
		if (ol > p->out_max) {
			p->overflow = 1;
			return -1;
		}
		p->exit_status = w[1][0] == '-' ? -1 : (int)ex;
		snprintf(p->sig, sizeof p->sig, "%s", w[2][0] == '-' ? "" :
		    w[2]);
		p->outlen = (size_t)ol;
		p->errlen = (size_t)el;
		p->body = (size_t)next;
	}
	total = p->body + p->outlen + p->errlen;
	if (in->len < total)
		return 0;
	if (in->len > total) {
		snprintf(p->why, sizeof p->why, "more than the answer");
		return -1;
	}
	return 1;
}

/* The request: "call NARGS LEN\n" and the arguments, each NUL-ended. */
static int
sess_request(struct buf *req, const char *const *argv)
{
	size_t	i, len = 0;

	for (i = 0; argv[i] != NULL; i++)
		len += strlen(argv[i]) + 1;
	if (i == 0 || i > AGENTCTL_SESS_ARGS || len > AGENTCTL_SESS_REQ)
		return -1;
	if (buf_printf(req, "call %zu %zu\n", i, len) == -1)
		return -1;
	for (i = 0; argv[i] != NULL; i++)
		if (buf_append(req, argv[i], strlen(argv[i]) + 1) == -1)
			return -1;
	return 0;
}

int
agentctl_sess_call(struct ssh_conn *c, const char *path, const char *hash,
    const char *const *argv, int timeout_ms, struct buf *out, struct buf *eb,
    struct ssh_result *res, int *fallback, char *err, size_t errlen)
{
	struct agentctl_sess_parse	 p;
	struct buf		 req, in, cmd;
	int64_t			 start = util_now_ms();
	int			 st;

	*fallback = 0;
	memset(res, 0, sizeof *res);
	res->exit_status = -1;
	memset(&p, 0, sizeof p);
	p.hash = hash;
	p.out_max = out->max;
	p.err_max = eb->max;
	buf_init(&req, AGENTCTL_SESS_REQ + 64);
	if (sess_request(&req, argv) == -1) {
		buf_free(&req);
		*fallback = 1;		/* too big to frame: the usual way */
		return SSH_EFAIL;
	}
	if (!ssh_kept_live(c)) {
		buf_init(&cmd, 4096);
		util_shell_quote(&cmd, path);
		buf_printf(&cmd, " session");
		st = ssh_kept_start(c, cmd.data, timeout_ms, err, errlen);
		buf_free(&cmd);
		if (st != SSH_OK) {
			buf_free(&req);
			*fallback = st == SSH_EFAIL;
			return st;
		}
		p.want_hello = 1;
	}
	buf_init(&in, out->max + eb->max + 2 * AGENTCTL_SESS_LINE);
	st = ssh_kept_call(c, req.data, req.len, timeout_ms -
	    (int)(util_now_ms() - start), &in, agentctl_sess_parse, &p, err,
	    errlen);
	buf_free(&req);
	/* (A refused or unfinished answer has stopped the session.) */
	if (p.overflow || st == SSH_EOUTPUT) {
		util_seterr(err, errlen, "%s: stdout exceeds %zu bytes; "
		    "command abandoned", ssh_name(c), out->max);
		st = SSH_EOUTPUT;
	} else if (st == SSH_EFAIL && p.gone) {
		/* Not run: the usual way finds the agent gone or another
		 * one (a redeploy), and a new session begins after. */
		*fallback = 1;
	} else if (st == SSH_EFAIL && p.want_hello && !p.hello_seen) {
		/* Nothing read the request: the command did not run.  An
		 * agent that ended or answered something else has no
		 * session (until a redeploy). */
		*fallback = 2;
	} else if (st == SSH_EFAIL) {
		util_seterr(err, errlen, "%s: agent session: %s (the command "
		    "may have run)", ssh_name(c), p.why[0] != '\0' ? p.why :
		    "it ended mid-command");
		st = SSH_EDROPPED;
	}
	if (st == SSH_OK) {
		buf_append(out, in.data + p.body, p.outlen);
		if (buf_append(eb, in.data + p.body + p.outlen, p.errlen) ==
		    -1)
			res->err_truncated = 1;
		res->exit_status = p.exit_status;
		snprintf(res->exit_signal, sizeof res->exit_signal, "%s",
		    p.sig);
		res->elapsed_ms = util_now_ms() - start;
	}
	buf_free(&in);
	return st;
}
