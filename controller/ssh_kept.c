/*
 * ssh_kept: one command kept running on its own channel of a connection
 * and spoken to in requests and answers (the agent's `session`; see ssh.h).
 * It lives and dies with the session: a reconnect, a deadline or a drop
 * that tears the session down takes it along (ssh_teardown()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libssh2.h>

#include "log.h"
#include "ssh.h"
#include "ssh_int.h"
#include "util.h"

/* Frees the kept channel within a short deadline; a channel that will not
 * go costs the session. */
static void
kept_free(struct ssh_conn *c)
{
	int64_t	deadline = util_now_ms() + SSH_TEARDOWN_MS;

	if (c->kept == NULL)
		return;
	while (libssh2_channel_free(c->kept) == LIBSSH2_ERROR_EAGAIN)
		if (ssh_wait(c, deadline) != 0) {
			c->kept = NULL;
			ssh_mark_dead(c, "kept channel free did not finish");
			ssh_teardown(c, 0);
			return;
		}
	c->kept = NULL;
}

int
ssh_kept_live(struct ssh_conn *c)
{
	char	tmp[256];
	ssize_t	n;

	if (c->kept == NULL || c->s == NULL || c->dead)
		return 0;
	/* Between two answers it says nothing: what came (its end, bytes
	 * no request asked for, an error) means it is not to be used. */
	n = libssh2_channel_read(c->kept, tmp, sizeof tmp);
	if (n == LIBSSH2_ERROR_EAGAIN && !libssh2_channel_eof(c->kept))
		return 1;
	log_debug("%s: kept command gone (%s)", c->name, n > 0 ?
	    "unasked output" : n == 0 || n == LIBSSH2_ERROR_EAGAIN ? "ended" :
	    ssh_lasterr(c->s));
	ssh_kept_stop(c);
	return 0;
}

int
ssh_kept_start(struct ssh_conn *c, const char *cmd, int timeout_ms,
    char *err, size_t errlen)
{
	LIBSSH2_CHANNEL	*ch;
	int64_t		 deadline = util_now_ms() + (timeout_ms > 0 ?
	    timeout_ms : 1);
	int		 st, rc, w;

	ssh_begin(c);
	kept_free(c);
	snprintf(c->kept_cmd, sizeof c->kept_cmd, "%s", cmd);
	if ((ch = ssh_open_channel(c, deadline, &st, err, errlen)) == NULL)
		return st;
	while ((rc = libssh2_channel_exec(ch, cmd)) == LIBSSH2_ERROR_EAGAIN)
		if ((w = ssh_wait(c, deadline)) != 0)
			return ssh_lost(c, w > 0, cmd, timeout_ms, err, errlen);
	if (rc != 0 && ssh_fatal_rc(rc))
		return ssh_lost(c, 0, cmd, timeout_ms, err, errlen);
	c->kept = ch;
	if (rc != 0) {
		util_seterr(err, errlen, "%s: `%.80s`: exec refused: %s",
		    c->name, cmd, ssh_lasterr(c->s));
		kept_free(c);
		return SSH_EFAIL;
	}
	return SSH_OK;
}

void
ssh_kept_stop(struct ssh_conn *c)
{
	if (c->s != NULL)
		kept_free(c);
	c->kept = NULL;
}

/* Writes all of p within the deadline: 0, 1 deadline, -1 dropped. */
static int
kept_write(struct ssh_conn *c, const char *p, size_t len, int64_t deadline)
{
	ssize_t	n;
	int	w;

	while (len > 0) {
		n = libssh2_channel_write(c->kept, p, len);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n != LIBSSH2_ERROR_EAGAIN)
			return -1;
		if ((w = ssh_wait(c, deadline)) != 0)
			return w > 0 ? 1 : -1;
	}
	return 0;
}

int
ssh_kept_call(struct ssh_conn *c, const void *req, size_t reqlen,
    int timeout_ms, struct buf *in, int (*done)(const struct buf *, void *),
    void *arg, char *err, size_t errlen)
{
	char	 tmp[16384];
	int64_t	 deadline = util_now_ms() + (timeout_ms > 0 ? timeout_ms : 1);
	ssize_t	 n;
	int	 w = 0, r;

	ssh_begin(c);
	if (c->kept == NULL || c->s == NULL || c->dead) {
		util_seterr(err, errlen, "%s: no kept command", c->name);
		return SSH_EFAIL;
	}
	ssh_stat_exec();
	if ((w = kept_write(c, req, reqlen, deadline)) != 0)
		goto failed;
	for (;;) {
		while ((n = libssh2_channel_read(c->kept, tmp, sizeof tmp)) >
		    0) {
			c->last_rx = util_now_ms();
			if (buf_append(in, tmp, (size_t)n) == -1) {
				util_seterr(err, errlen, "%s: kept command: "
				    "answer exceeds %zu bytes", c->name,
				    in->max);
				ssh_kept_stop(c);
				return SSH_EOUTPUT;
			}
			if ((r = done(in, arg)) != 0) {
				if (r < 0)
					ssh_kept_stop(c);
				return r > 0 ? SSH_OK : SSH_EFAIL;
			}
		}
		if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
			w = -1;
			goto failed;
		}
		/* Its own stderr carries nothing of a command's: dropped. */
		while (libssh2_channel_read_stderr(c->kept, tmp, sizeof tmp) >
		    0)
			;
		if (libssh2_channel_eof(c->kept)) {
			util_seterr(err, errlen, "%s: kept command ended",
			    c->name);
			ssh_kept_stop(c);
			return SSH_EFAIL;
		}
		if ((w = ssh_wait(c, deadline)) != 0)
			goto failed;
	}
failed:
	return ssh_lost(c, w > 0, c->kept_cmd, timeout_ms, err, errlen);
}
