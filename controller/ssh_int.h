/*
 * ssh_int.h: internals shared by the ssh module's files (ssh.c: connect,
 * verify, authenticate, keep the session; ssh_exec.c: commands and
 * uploads).  Nothing outside the ssh module includes it: callers see ssh.h
 * only.
 */
#ifndef LABRAT_SSH_INT_H
#define LABRAT_SSH_INT_H

#include <stdint.h>

#include <libssh2.h>

#define SSH_DEFAULT_CONNECT_MS	10000
#define SSH_DEFAULT_KEEPALIVE_S	15
#define SSH_TEARDOWN_MS		500
#define SSH_KH_MAX		(1024 * 1024)

struct ssh_conn {
	char		*name;
	char		*address;
	char		*user;
	char		*key;
	char		*known_hosts;
	int		 port;
	int		 connect_ms;
	int		 keepalive_s;
	int		 no_reconnect;

	int		 sock;
	LIBSSH2_SESSION	*s;
	int		 dead;		/* session must be re-established */
	char		 dead_why[256];
	int		 reconnects;
	char		 fp[64];
	int64_t		 last_rx;	/* last time the socket had input */
	char		 wait_err[128];	/* why ssh_wait() gave up, or "" */
	LIBSSH2_CHANNEL	*kept;		/* ssh_kept_start()'s, or NULL */
	char		 kept_cmd[96];	/* its command, for messages */
};

/* libssh2's last error message on s (never NULL). */
const char *ssh_lasterr(LIBSSH2_SESSION *);
/* Errors after which the session cannot carry another command. */
int	ssh_fatal_rc(int rc);
/* Marks the session for re-establishment; the first reason is kept. */
void	ssh_mark_dead(struct ssh_conn *, const char *why);
/* Waits for the socket until deadline, sending keepalives: 0 ready,
 * 1 deadline passed, -1 peer silent or keepalive failed (c->wait_err). */
int	ssh_wait(struct ssh_conn *, int64_t deadline);
/* Starts an operation: silence is measured from here. */
void	ssh_begin(struct ssh_conn *);
/* Counts a command for ssh_stats.execs. */
void	ssh_stat_exec(void);
/* The cause of the last failure: ssh_wait's, else libssh2's. */
const char *ssh_cause(struct ssh_conn *);
/* Ends the session (graceful: a proper disconnect first). */
void	ssh_teardown(struct ssh_conn *, int graceful);
/* Opens a session channel, reviving a dead session once (nothing had
 * started on it); NULL with *st and err set. */
LIBSSH2_CHANNEL *ssh_open_channel(struct ssh_conn *, int64_t deadline,
	    int *st, char *err, size_t errlen);
/* A command's session lost while cmd ran (timed_out: its deadline of
 * timeout_ms passed; else the connection dropped): the session is reset;
 * SSH_ETIMEOUT or SSH_EDROPPED with err naming the host and cmd. */
int	ssh_lost(struct ssh_conn *, int timed_out, const char *cmd,
	    int timeout_ms, char *err, size_t errlen);
/* Re-establishes a dead session (once per call).  SSH_OK or SSH_ECONNECT. */
int	ssh_revive(struct ssh_conn *, char *err, size_t errlen);

#endif
