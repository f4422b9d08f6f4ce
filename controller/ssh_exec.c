/*
 * ssh_exec: commands (exec with deadline and capped output, the session
 * check) and SFTP uploads over a connection of ssh.c (see ssh.h and the
 * libssh2 notes at the top of ssh.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libssh2.h>
#include <libssh2_sftp.h>

#include "log.h"
#include "ssh.h"
#include "ssh_int.h"
#include "util.h"

/*
 * Opens a session channel, reviving a dead session once when the open
 * shows it is gone: nothing had been started on it, so that is safe.
 */
LIBSSH2_CHANNEL *
ssh_open_channel(struct ssh_conn *c, int64_t deadline, int *st, char *err,
    size_t errlen)
{
	LIBSSH2_CHANNEL	*ch;
	int		 attempt, rc, w;

	for (attempt = 0; attempt < 2; attempt++) {
		if ((*st = ssh_revive(c, err, errlen)) != SSH_OK)
			return NULL;
		for (;;) {
			ch = libssh2_channel_open_session(c->s);
			if (ch != NULL)
				return ch;
			rc = libssh2_session_last_errno(c->s);
			if (rc != LIBSSH2_ERROR_EAGAIN)
				break;
			if ((w = ssh_wait(c, deadline)) > 0) {
				*st = SSH_ETIMEOUT;
				util_seterr(err, errlen, "%s: open channel: "
				    "timed out", c->name);
				ssh_mark_dead(c, "channel open timed out");
				return NULL;
			}
			if (w < 0) {
				rc = LIBSSH2_ERROR_SOCKET_SEND;
				break;
			}
		}
		if (!ssh_fatal_rc(rc) && rc != LIBSSH2_ERROR_CHANNEL_FAILURE) {
			*st = SSH_EFAIL;
			util_seterr(err, errlen, "%s: open channel: %s",
			    c->name, ssh_lasterr(c->s));
			return NULL;
		}
		ssh_mark_dead(c, ssh_cause(c));
	}
	*st = SSH_EDROPPED;
	util_seterr(err, errlen, "%s: open channel: session lost again after "
	    "reconnecting (%s)", c->name, c->dead_why);
	return NULL;
}

/* Closes the channel and collects the exit status, within the deadline. */
static int
ssh_finish(struct ssh_conn *c, LIBSSH2_CHANNEL *ch, int64_t deadline,
    struct ssh_result *res)
{
	char	*sig = NULL;
	size_t	 siglen = 0;
	int	 rc, w;

	/* EAGAIN back means the deadline passed; a dead peer is a socket
	 * error. */
	while ((rc = libssh2_channel_close(ch)) == LIBSSH2_ERROR_EAGAIN)
		if ((w = ssh_wait(c, deadline)) != 0)
			return w > 0 ? rc : LIBSSH2_ERROR_SOCKET_RECV;
	if (rc == 0)
		while ((rc = libssh2_channel_wait_closed(ch)) ==
		    LIBSSH2_ERROR_EAGAIN)
			if ((w = ssh_wait(c, deadline)) != 0)
				return w > 0 ? rc : LIBSSH2_ERROR_SOCKET_RECV;
	if (rc != 0)
		return rc;
	res->exit_status = libssh2_channel_get_exit_status(ch);
	if (libssh2_channel_get_exit_signal(ch, &sig, &siglen, NULL, NULL,
	    NULL, NULL) == 0 && sig != NULL) {
		snprintf(res->exit_signal, sizeof res->exit_signal, "%.*s",
		    (int)siglen, sig);
		res->exit_status = -1;
		libssh2_free(c->s, sig);
	}
	/* The command's outcome is known: a channel that cannot be freed
	 * in time costs the session, not the result. */
	while (libssh2_channel_free(ch) == LIBSSH2_ERROR_EAGAIN)
		if (ssh_wait(c, deadline) != 0) {
			ssh_mark_dead(c, "channel free did not finish");
			ssh_teardown(c, 0);
			break;
		}
	return 0;
}

/* One pass over stdout and stderr: >0 data read, 0 nothing, <0 error. */
static int
ssh_drain(LIBSSH2_CHANNEL *ch, struct buf *out, struct buf *errout,
    struct ssh_result *res, int *overflow)
{
	char	 tmp[16384];
	ssize_t	 n;
	int	 got = 0, stream;

	for (stream = 0; stream < 2; stream++) {
		while ((n = stream == 0 ?
		    libssh2_channel_read(ch, tmp, sizeof tmp) :
		    libssh2_channel_read_stderr(ch, tmp, sizeof tmp)) > 0) {
			got = 1;
			if (stream == 0 && out != NULL &&
			    buf_append(out, tmp, (size_t)n) == -1) {
				*overflow = 1;
				return 1;
			}
			if (stream == 1 && errout != NULL &&
			    !errout->truncated &&
			    buf_append(errout, tmp, (size_t)n) == -1)
				res->err_truncated = 1;
		}
		if (n < 0 && n != LIBSSH2_ERROR_EAGAIN)
			return (int)n;
	}
	return got;
}

int
ssh_exec(struct ssh_conn *c, const char *cmd, int timeout_ms,
    struct buf *out, struct buf *errout, struct ssh_result *res,
    char *err, size_t errlen)
{
	LIBSSH2_CHANNEL	*ch;
	int64_t		 start = util_now_ms(), deadline;
	int		 st, rc, w, overflow = 0;

	deadline = start + (timeout_ms > 0 ? timeout_ms : 1);
	ssh_begin(c);
	memset(res, 0, sizeof *res);
	res->exit_status = -1;
	if ((ch = ssh_open_channel(c, deadline, &st, err, errlen)) == NULL)
		return st;
	ssh_stat_exec();
	while ((rc = libssh2_channel_exec(ch, cmd)) == LIBSSH2_ERROR_EAGAIN)
		if ((w = ssh_wait(c, deadline)) != 0)
			goto wait_failed;
	if (rc != 0) {
		if (ssh_fatal_rc(rc))
			goto dropped;
		util_seterr(err, errlen, "%s: exec refused: %s", c->name,
		    ssh_lasterr(c->s));
		while (libssh2_channel_free(ch) == LIBSSH2_ERROR_EAGAIN)
			if (ssh_wait(c, deadline) != 0) {
				ssh_mark_dead(c, "channel free timed out");
				ssh_teardown(c, 0);
				break;
			}
		return SSH_EFAIL;
	}
	for (;;) {
		rc = ssh_drain(ch, out, errout, res, &overflow);
		if (rc > 0)
			c->last_rx = util_now_ms();	/* data is life */
		if (overflow) {
			util_seterr(err, errlen, "%s: `%.80s`: stdout exceeds "
			    "%zu bytes; command abandoned", c->name, cmd,
			    out->max);
			ssh_mark_dead(c, "command abandoned (output too large)");
			ssh_teardown(c, 0);
			return SSH_EOUTPUT;
		}
		if (rc < 0)
			goto dropped;
		if (rc == 0 && libssh2_channel_eof(ch))
			break;
		if (rc == 0 && (w = ssh_wait(c, deadline)) != 0)
			goto wait_failed;
	}
	if ((rc = ssh_finish(c, ch, deadline, res)) != 0) {
		if (rc == LIBSSH2_ERROR_EAGAIN) {
			w = 1;
			goto wait_failed;
		}
		goto dropped;
	}
	res->elapsed_ms = util_now_ms() - start;
	return SSH_OK;
wait_failed:
	/* (libssh2 1.10 cannot signal the command; sshd closes its pipes
	 * when the connection goes.) */
	if (w > 0)
		return ssh_lost(c, 1, cmd, timeout_ms, err, errlen);
dropped:
	return ssh_lost(c, 0, cmd, timeout_ms, err, errlen);
}

int
ssh_lost(struct ssh_conn *c, int timed_out, const char *cmd, int timeout_ms,
    char *err, size_t errlen)
{
	if (timed_out) {
		util_seterr(err, errlen, "%s: `%.80s`: timed out after %d ms "
		    "(session reset)", c->name, cmd, timeout_ms);
		ssh_mark_dead(c, "previous command timed out");
		ssh_teardown(c, 0);
		return SSH_ETIMEOUT;
	}
	util_seterr(err, errlen, "%s: `%.80s`: connection dropped: %s",
	    c->name, cmd, ssh_cause(c));
	ssh_mark_dead(c, ssh_cause(c));
	ssh_teardown(c, 0);
	return SSH_EDROPPED;
}

/*
 * A real round trip: opening and closing a channel needs the server's
 * answers, so this proves the session alive (or revives it once).
 */
int
ssh_check(struct ssh_conn *c, int timeout_ms, char *err, size_t errlen)
{
	LIBSSH2_CHANNEL	*ch;
	int64_t		 deadline = util_now_ms() + timeout_ms;
	int		 st, rc, w = 0;

	ssh_begin(c);
	if ((ch = ssh_open_channel(c, deadline, &st, err, errlen)) == NULL)
		return st;
	while ((rc = libssh2_channel_free(ch)) == LIBSSH2_ERROR_EAGAIN)
		if ((w = ssh_wait(c, deadline)) != 0)
			break;
	if (rc == 0)
		return SSH_OK;
	util_seterr(err, errlen, "%s: session check: %s", c->name,
	    w > 0 ? "timed out" : ssh_cause(c));
	ssh_mark_dead(c, w > 0 ? "session check timed out" : ssh_cause(c));
	ssh_teardown(c, 0);
	return w > 0 ? SSH_ETIMEOUT : SSH_EDROPPED;
}

/* Waits for one SFTP step; sets err and the status on failure. */
static int
ssh_sftp_wait(struct ssh_conn *c, int64_t deadline, const char *what,
    int *st, char *err, size_t errlen)
{
	int	w, rc;

	rc = libssh2_session_last_errno(c->s);
	if (rc != LIBSSH2_ERROR_EAGAIN) {
		*st = ssh_fatal_rc(rc) ? SSH_EDROPPED : SSH_EFAIL;
		util_seterr(err, errlen, "%s: sftp %s: %s", c->name, what,
		    ssh_lasterr(c->s));
		return -1;
	}
	if ((w = ssh_wait(c, deadline)) != 0) {
		*st = w > 0 ? SSH_ETIMEOUT : SSH_EDROPPED;
		util_seterr(err, errlen, "%s: sftp %s: %s", c->name, what,
		    w > 0 ? "timed out" : ssh_cause(c));
		return -1;
	}
	return 0;
}

static int
ssh_sftp_put(struct ssh_conn *c, LIBSSH2_SFTP *sftp, const struct ssh_file *f,
    int64_t deadline, char *err, size_t errlen)
{
	LIBSSH2_SFTP_HANDLE	*h;
	const char		*p = f->data;
	size_t			 left = f->len;
	ssize_t			 n;
	int			 st = SSH_EFAIL, rc;

	while ((h = libssh2_sftp_open(sftp, f->path, LIBSSH2_FXF_WRITE |
	    LIBSSH2_FXF_CREAT | LIBSSH2_FXF_TRUNC, f->mode)) == NULL) {
		if (libssh2_session_last_errno(c->s) == LIBSSH2_ERROR_SFTP_PROTOCOL) {
			util_seterr(err, errlen, "%s: sftp open %s: SFTP error "
			    "%lu", c->name, f->path, libssh2_sftp_last_error(sftp));
			return SSH_EFAIL;
		}
		if (ssh_sftp_wait(c, deadline, f->path, &st, err, errlen) == -1)
			return st;
	}
	while (left > 0) {
		n = libssh2_sftp_write(h, p, left);
		if (n > 0) {
			p += n;
			left -= (size_t)n;
			c->last_rx = util_now_ms();	/* acks came back */
		} else if (n != LIBSSH2_ERROR_EAGAIN) {
			util_seterr(err, errlen, "%s: sftp write %s: %s",
			    c->name, f->path, ssh_lasterr(c->s));
			return ssh_fatal_rc((int)n) ? SSH_EDROPPED : SSH_EFAIL;
		} else if (ssh_sftp_wait(c, deadline, f->path, &st, err,
		    errlen) == -1)
			return st;
	}
	while ((rc = libssh2_sftp_close(h)) == LIBSSH2_ERROR_EAGAIN)
		if (ssh_sftp_wait(c, deadline, f->path, &st, err, errlen) == -1)
			return st;
	if (rc != 0) {
		util_seterr(err, errlen, "%s: sftp close %s: %s", c->name,
		    f->path, ssh_lasterr(c->s));
		return SSH_EFAIL;
	}
	return SSH_OK;
}

int
ssh_upload(struct ssh_conn *c, const struct ssh_file *files, size_t nfiles,
    int timeout_ms, char *err, size_t errlen)
{
	LIBSSH2_SFTP	*sftp;
	int64_t		 deadline = util_now_ms() + timeout_ms;
	size_t		 i;
	int		 st = SSH_OK, rc;

	ssh_begin(c);
	if ((st = ssh_revive(c, err, errlen)) != SSH_OK)
		return st;
	while ((sftp = libssh2_sftp_init(c->s)) == NULL)
		if (ssh_sftp_wait(c, deadline, "init", &st, err, errlen) == -1)
			goto fail;
	for (i = 0; i < nfiles && st == SSH_OK; i++)
		st = ssh_sftp_put(c, sftp, &files[i], deadline, err, errlen);
	if (st == SSH_ETIMEOUT || st == SSH_EDROPPED)
		goto fail;
	while ((rc = libssh2_sftp_shutdown(sftp)) == LIBSSH2_ERROR_EAGAIN)
		if (ssh_wait(c, deadline) != 0)
			break;
	if (rc != 0) {
		ssh_mark_dead(c, "sftp shutdown did not finish");
		ssh_teardown(c, 0);
	}
	return st;
fail:
	/* Channels of a half-done SFTP session cannot be closed in time. */
	ssh_mark_dead(c, st == SSH_ETIMEOUT ? "upload timed out" :
	    "upload failed");
	ssh_teardown(c, 0);
	return st == SSH_OK ? SSH_EFAIL : st;
}
