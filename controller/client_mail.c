/*
 * client_mail.c: a finished message to its recipients, by SMTP through
 * libcurl or by a local sendmail command.
 *
 * SMTP: libcurl speaks the protocol (EHLO, falling back to HELO, MAIL
 * FROM with SIZE when offered, one RCPT TO per recipient, DATA, QUIT),
 * dot-stuffs every line that starts with "." and adds the final
 * CRLF.CRLF (RFC 5321 4.5.2); the message is uploaded through a read
 * callback from memory.
 *
 * sendmail: fork + exec of the configured argv, no shell.  Its standard
 * input is one end of a socketpair, so a program that exits without
 * reading makes send() fail with EPIPE (MSG_NOSIGNAL) instead of raising
 * SIGPIPE in a daemon that may not ignore it.  It runs in its own process
 * group, killed whole at the deadline.
 */
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "client.h"
#include "util.h"

#define ADDR_MAX	256
#define OUT_KEEP	512	/* sendmail output kept for an error */

struct mail_src {
	const char	*p;
	size_t		 left;
};

static size_t
mail_read(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct mail_src	*s = arg;
	size_t		 n = size * nmemb;

	if (n > s->left)
		n = s->left;
	memcpy(ptr, s->p, n);
	s->p += n;
	s->left -= n;
	return n;
}

/*
 * "Name <a@b>" or "a@b" -> "<a@b>" in out.  Refuses what could end an
 * SMTP command line or smuggle a second address: control bytes, spaces,
 * non-ASCII, and <>,;:"\()[] inside the address.  0 or -1.
 */
static int
mail_addr(const char *in, char *out, size_t outlen, char *err, size_t errlen)
{
	const char	*s = in, *e, *p;
	char		 safe[ADDR_MAX * 4 + 1];

	if (in != NULL)
		util_term_safe(safe, sizeof safe, in, (size_t)-1);
	if (in == NULL || *in == '\0') {
		util_seterr(err, errlen, "empty mail address");
		return -1;
	}
	if ((p = strrchr(in, '<')) != NULL) {
		s = p + 1;
		if ((e = strchr(s, '>')) == NULL || e[1] != '\0') {
			util_seterr(err, errlen, "mail address %s: no closing "
			    "'>' at its end", safe);
			return -1;
		}
	} else
		e = in + strlen(in);
	if (e == s || (size_t)(e - s) + 3 > outlen || e - s > ADDR_MAX) {
		util_seterr(err, errlen, "mail address %s: empty or too long",
		    safe);
		return -1;
	}
	for (p = s; p < e; p++) {
		unsigned char c = (unsigned char)*p;

		if (c <= 0x20 || c >= 0x7f || strchr("<>,;:\"\\()[]", c)) {
			util_seterr(err, errlen, "mail address %s: character "
			    "0x%02x not allowed", safe, c);
			return -1;
		}
	}
	snprintf(out, outlen, "<%.*s>", (int)(e - s), s);
	return 0;
}

static int
smtp_check(const struct client_mail *m, struct curl_slist **rcpt,
    char *from, size_t fromlen, char *err, size_t errlen)
{
	char	a[ADDR_MAX + 3], e[512];
	size_t	i;

	if (m->url == NULL || (strncmp(m->url, "smtp://", 7) != 0 &&
	    strncmp(m->url, "smtps://", 8) != 0)) {
		util_seterr(err, errlen, "%s: only smtp:// and smtps:// URLs",
		    m->url != NULL ? m->url : "(null)");
		return -1;
	}
	if (m->message == NULL || strlen(m->message) > CLIENT_MAIL_MAX) {
		util_seterr(err, errlen, "%s: no message, or larger than %d "
		    "bytes", m->url, CLIENT_MAIL_MAX);
		return -1;
	}
	if (mail_addr(m->from, from, fromlen, e, sizeof e) == -1) {
		util_seterr(err, errlen, "%s: from: %s", m->url, e);
		return -1;
	}
	for (i = 0; m->to != NULL && m->to[i] != NULL; i++) {
		if (mail_addr(m->to[i], a, sizeof a, e, sizeof e) == -1) {
			util_seterr(err, errlen, "%s: to[%zu]: %s", m->url, i,
			    e);
			return -1;
		}
		*rcpt = curl_slist_append(*rcpt, a);
	}
	if (*rcpt == NULL) {
		util_seterr(err, errlen, "%s: no recipients", m->url);
		return -1;
	}
	return 0;
}

int
client_smtp_send(const struct client_mail *m, char *err, size_t errlen)
{
	struct curl_slist	*rcpt = NULL;
	struct mail_src		 src;
	char			 from[ADDR_MAX + 3], cerr[CURL_ERROR_SIZE];
	CURL			*c = NULL;
	CURLcode		 rc;
	long			 code = 0;
	int			 tmo = m->timeout_ms > 0 ? m->timeout_ms : 30000;

	if (smtp_check(m, &rcpt, from, sizeof from, err, errlen) == -1) {
		curl_slist_free_all(rcpt);
		return -1;
	}
	if ((c = curl_easy_init()) == NULL) {
		util_seterr(err, errlen, "%s: curl_easy_init failed", m->url);
		curl_slist_free_all(rcpt);
		return -1;
	}
	src.p = m->message;
	src.left = strlen(m->message);
	cerr[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, m->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
	    (long)(tmo < 5000 ? tmo : 5000));
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)tmo);
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpt);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, mail_read);
	curl_easy_setopt(c, CURLOPT_READDATA, &src);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)src.left);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_cleanup(c);
	curl_slist_free_all(rcpt);
	if (rc != CURLE_OK) {
		char	last[48] = "";

		if (code > 0 && strstr(cerr, "failed: ") == NULL)
			snprintf(last, sizeof last, " (last reply %ld)", code);
		util_seterr(err, errlen, "%s: %s%s", m->url,
		    cerr[0] != '\0' ? cerr : curl_easy_strerror(rc), last);
		return -1;
	}
	return 0;
}

/* ---- sendmail ----------------------------------------------------------- */

/* argv[0] as exec will run it: a path, or found in $PATH. */
static int
sm_path(const char *name, char *out, size_t len)
{
	const char	*path = getenv("PATH"), *p, *e;

	if (strchr(name, '/') != NULL) {
		snprintf(out, len, "%s", name);
		return 0;
	}
	if (path == NULL || *path == '\0')
		path = "/usr/sbin:/usr/bin:/sbin:/bin";
	for (p = path; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		snprintf(out, len, "%.*s/%s", (int)(e - p), e > p ? p : ".",
		    name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* The message with CRLF as LF (heap). */
static char *
sm_lf(const char *msg, size_t *len)
{
	char	*o = xmalloc(strlen(msg) + 1);
	size_t	 n = 0;

	for (; *msg != '\0'; msg++)
		if (!(msg[0] == '\r' && msg[1] == '\n'))
			o[n++] = *msg;
	o[n] = '\0';
	*len = n;
	return o;
}

/* The child: never returns.  Only async-signal-safe calls after fork. */
static void
sm_child(const char *path, const char *const *argv, int in, int out)
{
	sigset_t	none;
	static const char msg[] = "exec failed\n";

	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(in, 0) == -1 || dup2(out, 1) == -1 || dup2(out, 2) == -1)
		_exit(127);
	/* Nothing else of the daemon (store, sockets) reaches the program. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
	close_range(3, ~0U, 0);
#else
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
#endif
	execv(path, (char *const *)argv);
	(void)!write(2, msg, sizeof msg - 1);
	_exit(127);
}

struct sm_io {
	int		 in, out;	/* our ends; -1 once done */
	const char	*p;
	size_t		 left;
	struct buf	 keep;		/* the first OUT_KEEP bytes of output */
};

/* One poll round: feed stdin, drain output.  0 going on, -1 poll error. */
static int
sm_round(struct sm_io *io, int wait_ms)
{
	struct pollfd	pf[2];
	char		b[4096];
	ssize_t		n;
	int		k = 0;

	if (io->in != -1) {
		pf[k].fd = io->in;
		pf[k++].events = POLLOUT;
	}
	pf[k].fd = io->out;
	pf[k++].events = POLLIN;
	if (poll(pf, (nfds_t)k, wait_ms) == -1)
		return errno == EINTR ? 0 : -1;
	if (io->in != -1 && pf[0].revents != 0) {
		n = send(io->in, io->p, io->left, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			io->p += n;
			io->left -= (size_t)n;
		}
		if ((n == -1 && errno != EAGAIN && errno != EINTR) ||
		    io->left == 0) {
			/* all written, or the reader is gone: EOF either way */
			shutdown(io->in, SHUT_WR);
			close(io->in);
			io->in = -1;
		}
	}
	if (pf[k - 1].revents != 0) {
		n = read(io->out, b, sizeof b);
		if (n > 0) {
			if (io->keep.len < OUT_KEEP)
				buf_append(&io->keep, b, (size_t)n);
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			close(io->out);
			io->out = -1;
		}
	}
	return 0;
}

/* Feeds and drains until output EOF, then waits: 0 exited (*st), -1 timeout. */
static int
sm_drive(struct sm_io *io, pid_t pid, int64_t deadline, int *st)
{
	int64_t	left;

	while (io->out != -1) {
		if ((left = deadline - util_now_ms()) <= 0)
			return -1;
		if (sm_round(io, (int)(left < 200 ? left : 200)) == -1)
			return -1;
	}
	for (;;) {
		pid_t	r = waitpid(pid, st, WNOHANG);

		if (r == pid)
			return 0;
		if (r == -1 && errno == ECHILD) {
			/* reaped by someone else's SIGCHLD handler */
			*st = -1;
			return 0;
		}
		if (util_now_ms() >= deadline)
			return -1;
		usleep(10 * 1000);
	}
}

static void
sm_report(const char *argv0, int st, struct buf *keep, char *err,
    size_t errlen)
{
	char	safe[OUT_KEEP * 4 + 1];
	size_t	n = keep->len < OUT_KEEP ? keep->len : OUT_KEEP;

	while (n > 0 && (keep->data[n - 1] == '\n' || keep->data[n - 1] == ' '))
		n--;
	util_term_safe(safe, sizeof safe, keep->data != NULL ? keep->data : "",
	    n);
	if (st == -1)
		util_seterr(err, errlen, "sendmail %s: its exit status was "
		    "taken by another waitpid()%s%s", argv0,
		    safe[0] != '\0' ? ": " : "", safe);
	else if (WIFEXITED(st))
		util_seterr(err, errlen, "sendmail %s: exited %d%s%s", argv0,
		    WEXITSTATUS(st), safe[0] != '\0' ? ": " : "", safe);
	else
		util_seterr(err, errlen, "sendmail %s: killed by signal %d%s%s",
		    argv0, WTERMSIG(st), safe[0] != '\0' ? ": " : "", safe);
}

int
client_sendmail(const char *const *argv, const char *message, int timeout_ms,
    char *err, size_t errlen)
{
	struct sm_io	io;
	char		path[4096], *lf;
	int		sv[2], op[2], st = 0, tmo, rc = -1;
	size_t		len;
	pid_t		pid;

	if (argv == NULL || argv[0] == NULL || *argv[0] == '\0' ||
	    message == NULL) {
		util_seterr(err, errlen, "sendmail: no command or no message");
		return -1;
	}
	if (sm_path(argv[0], path, sizeof path) == -1) {
		util_seterr(err, errlen, "sendmail %s: not found in $PATH",
		    argv[0]);
		return -1;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == -1)
		goto syserr;
	if (pipe2(op, O_CLOEXEC) == -1) {
		close(sv[0]);
		close(sv[1]);
		goto syserr;
	}
	if ((pid = fork()) == -1) {
		close(sv[0]);
		close(sv[1]);
		close(op[0]);
		close(op[1]);
		goto syserr;
	}
	if (pid == 0)
		sm_child(path, argv, sv[1], op[1]);
	setpgid(pid, pid);	/* as the child does: no race with kill(-pid) */
	close(sv[1]);
	close(op[1]);
	fcntl(op[0], F_SETFL, O_NONBLOCK);
	lf = sm_lf(message, &len);
	memset(&io, 0, sizeof io);
	io.in = sv[0];
	io.out = op[0];
	io.p = lf;
	io.left = len;
	buf_init(&io.keep, OUT_KEEP * 2);
	tmo = timeout_ms > 0 ? timeout_ms : 30000;
	if (sm_drive(&io, pid, util_now_ms() + tmo, &st) == -1) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		util_seterr(err, errlen, "sendmail %s: timed out after %d ms",
		    argv[0], tmo);
	} else if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
		rc = 0;
	else
		sm_report(argv[0], st, &io.keep, err, errlen);
	if (io.in != -1)
		close(io.in);
	if (io.out != -1)
		close(io.out);
	buf_free(&io.keep);
	free(lf);
	return rc;
syserr:
	util_seterr(err, errlen, "sendmail %s: %s", argv[0], strerror(errno));
	return -1;
}
