/*
 * ssh: the controller's SSH transport and the only includer of libssh2.h.
 *
 * One struct ssh_conn per lab host, reused for every command.  Every call
 * has a deadline: the socket is non-blocking and each libssh2 call is
 * retried under poll(), so a hung or vanished host costs at most the
 * deadline, never a hang.  Host keys are checked strictly against the
 * inventory's known_hosts; authentication is by ed25519/ECDSA key only in
 * practice (libssh2 1.10 signs RSA with SHA-1, which OpenSSH >= 8.8 rejects).
 *
 * Reconnect policy: a session that is found dead (EOF, socket error,
 * keepalive failure) or torn down after a deadline is re-established once,
 * transparently, at the start of the next ssh_exec()/ssh_upload(), because
 * no command had started on it; the loss is logged and counted.  A session
 * that drops while a command runs is never replayed: that call returns
 * SSH_EDROPPED (the command may or may not have run) and the caller decides.
 *
 * A connection must be used by one thread at a time.  ssh_global_init()
 * must run once before any thread is started.
 */
#ifndef LABRAT_SSH_H
#define LABRAT_SSH_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct ssh_conn;

/* Where and how to reach one host.  The strings are copied by ssh_open(). */
struct ssh_target {
	const char	*name;		/* host name for messages ("em-a") */
	const char	*address;	/* IP literal or DNS name */
	int		 port;		/* 0 = 22 */
	const char	*user;		/* NULL = "root" */
	const char	*key;		/* private key file (ed25519/ECDSA) */
	const char	*known_hosts;	/* OpenSSH known_hosts file */
	int		 connect_timeout_ms; /* TCP + handshake + auth; 0 = 10 s */
	int		 keepalive_s;	/* 0 = 15 s; < 0 disables.  A peer
					 * silent for 3 intervals is dead. */
	int		 no_reconnect;	/* 1: never reconnect by itself */
};

/* Return values of ssh_exec() and ssh_upload(). */
enum ssh_status {
	SSH_OK = 0,
	SSH_EFAIL = -1,		/* refused or failed; session still usable */
	SSH_ECONNECT = -2,	/* could not (re)connect: TCP, host key, auth */
	SSH_ETIMEOUT = -3,	/* deadline passed; the session was reset */
	SSH_EDROPPED = -4,	/* session lost mid-command; may have run */
	SSH_EOUTPUT = -5,	/* stdout exceeded its buffer's ceiling */
};

/* What a finished command reported. */
struct ssh_result {
	int	 exit_status;	/* 0-255, or -1 when killed by a signal */
	char	 exit_signal[32]; /* "KILL" etc., "" when none */
	int	 err_truncated;	/* stderr went past its ceiling (rest dropped) */
	int64_t	 elapsed_ms;
};

/* A file for ssh_upload(); data is not copied. */
struct ssh_file {
	const char	*path;		/* absolute path on the host */
	const void	*data;
	size_t		 len;
	int		 mode;		/* e.g. 0644 */
};

/* libssh2_init(); call once before threads.  0 or -1. */
int	ssh_global_init(void);
void	ssh_global_cleanup(void);

/*
 * Connects, verifies the host key and authenticates.  Returns a connection
 * the caller releases with ssh_close(), or NULL with err set (naming the
 * host, the step and the cause; for host keys, the SHA256 fingerprint).
 */
struct ssh_conn *ssh_open(const struct ssh_target *, char *err,
	    size_t errlen);
/* Disconnects (bounded by a short deadline) and frees; NULL is fine. */
void	ssh_close(struct ssh_conn *);

/*
 * Runs cmd (a shell command line for the remote user's shell) with a
 * deadline of timeout_ms.  stdout goes to out, stderr to errout (either may
 * be NULL to discard); both must be buf_init()ed by the caller, whose max is
 * the ceiling.  stdout past its ceiling stops the command (SSH_EOUTPUT);
 * stderr past its ceiling is dropped and flagged.  On SSH_OK, res holds the
 * exit status: a non-zero exit is still SSH_OK.
 */
int	ssh_exec(struct ssh_conn *, const char *cmd, int timeout_ms,
	    struct buf *out, struct buf *errout, struct ssh_result *res,
	    char *err, size_t errlen);

/*
 * A command kept running on a channel of its own (at most one per
 * connection), spoken to in requests and answers: the agent's `session`.
 * It goes with the session (a reconnect, a deadline, a drop).
 * ssh_kept_start() starts cmd without waiting for anything it says.
 * ssh_kept_call() writes req and reads the command's stdout into in until
 * done(in, arg) says 1 (the answer is complete: SSH_OK) or -1 (malformed:
 * the kept command is stopped, SSH_EFAIL); the command's end before that
 * is SSH_EFAIL too (stopped), and deadlines and drops are as ssh_exec()'s.
 * An answer past in's ceiling stops the command (SSH_EOUTPUT).
 */
int	ssh_kept_start(struct ssh_conn *, const char *cmd, int timeout_ms,
	    char *err, size_t errlen);
int	ssh_kept_call(struct ssh_conn *, const void *req, size_t reqlen,
	    int timeout_ms, struct buf *in,
	    int (*done)(const struct buf *, void *), void *arg, char *err,
	    size_t errlen);
/* Whether a kept command runs on the live session and said nothing
 * since its last answer (one that ended or did is stopped). */
int	ssh_kept_live(struct ssh_conn *);
void	ssh_kept_stop(struct ssh_conn *);
/* Writes files over SFTP (sshd needs a `Subsystem sftp`), one deadline. */
int	ssh_upload(struct ssh_conn *, const struct ssh_file *, size_t nfiles,
	    int timeout_ms, char *err, size_t errlen);

/*
 * Proves the session alive with a round trip (a channel opened and closed)
 * within timeout_ms, re-establishing a dead one once.  SSH_OK or < 0.
 */
int	ssh_check(struct ssh_conn *, int timeout_ms, char *err, size_t errlen);

const char *ssh_name(const struct ssh_conn *);
/* Times the session was re-established after a loss. */
int	ssh_reconnects(const struct ssh_conn *);
/* SHA256:base64 of the host key that was verified. */
const char *ssh_fingerprint(const struct ssh_conn *);
const char *ssh_strstatus(int);

/*
 * Process-wide counters, for tests that prove a session was reused and for
 * log lines: every TCP connect attempted (ssh_open() and each
 * re-establishment), and every session that completed its handshake,
 * host-key check and authentication.  Thread-safe.
 */
struct ssh_stats {
	int64_t	connects;	/* attempts */
	int64_t	handshakes;	/* sessions established */
	int64_t	reconnects;	/* of those, re-establishments */
	int64_t	execs;		/* commands started (ssh_exec(),
				 * ssh_kept_call()) */
};

void	ssh_stats_get(struct ssh_stats *);

#endif
