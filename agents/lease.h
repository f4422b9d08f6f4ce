/*
 * lease.h: the host lease (PROTOCOL.md "Host lease").  One controller at a
 * time owns a host: STATEDIR/lease/lease.json names the owner (an opaque
 * token, plus the controller's host name, pid and run id for humans), when
 * it was taken, and when it expires.  Every read-modify-write of the lease
 * runs under an fcntl write lock on STATEDIR/lease/lease.lock and the file
 * is replaced atomically (temp + fsync + rename), so two takers never both
 * win and a reader never sees half a lease.
 *
 * The lease stays live until max(expires, hold_until): hold_until is the
 * owner's latest rollback deadline on this host (apply raises it), so a
 * dead controller's lease never expires before its rollback timer had its
 * chance.  Taking a free or expired lease first restores every saved
 * original (cmd_restore.c), so a new owner never builds on someone else's
 * half-applied state.
 *
 * Functions return an AGENT_EXIT_* code (AGENT_EXIT_LEASED: held by another
 * owner, AGENT_EXIT_UNLEASED: the owner given does not hold it) with the
 * reason in err.  No heap memory crosses this interface.
 */
#ifndef LABRAT_AGENT_LEASE_H
#define LABRAT_AGENT_LEASE_H

#include <stddef.h>

#define LEASE_TOKENSZ		65	/* VALIDATE_TOKEN: 1-64 chars + NUL */
#define LEASE_DEFAULT_TTL	300	/* seconds, when take gives no --ttl */
#define LEASE_ROLLBACK_GRACE	30	/* beyond a rollback deadline */
#define LEASE_RESTORED_MAX	16	/* interfaces restored by one take */

struct lease {
	char	 owner[LEASE_TOKENSZ];	/* the token commands pass */
	char	 host[LEASE_TOKENSZ];	/* controller host name */
	char	 run[LEASE_TOKENSZ];	/* controller run id */
	long	 pid;			/* controller pid (on its host) */
	long long since;		/* epoch s: taken */
	long long renewed;		/* epoch s: last take/renew */
	long long expires;		/* epoch s: renewed + ttl (or extend) */
	long long hold_until;		/* epoch s: rollback deadline, 0 none */
	int	 ttl;			/* seconds a plain renew adds */
};

/* What a take restored before writing the new lease. */
struct lease_restored {
	int	 n;
	char	 ifs[LEASE_RESTORED_MAX][16];
};

/* max(expires, hold_until): the lease is live before this instant. */
long long lease_until(const struct lease *);
int	lease_live(const struct lease *, long long now);
/* "leased by ctl2 pid 4711 run 12 since 06:41, expires 06:58" (host's
 * local time). */
void	lease_describe(const struct lease *, char *, size_t);

/* Exclusive lock of the lease (blocks): an fd for lease_unlock, or -1. */
int	lease_lock(char *err, size_t errlen);
void	lease_unlock(int);
/* 0 with *found 0/1, or -1 with err (unreadable or corrupt). */
int	lease_load(struct lease *, int *found, char *err, size_t errlen);
int	lease_save(const struct lease *, char *err, size_t errlen);
int	lease_remove(char *err, size_t errlen);

/*
 * May owner (NULL: a caller that names none) act on this host?  The caller
 * holds the lock.  OK when owner holds the lease (live or not, nobody took
 * it over), or when owner is NULL and no live lease exists.  LEASED when
 * another owner's lease is live; UNLEASED when owner is given but does not
 * hold the lease.  *cur and *found describe the lease file either way.
 */
int	lease_check_locked(const char *owner, long long now, struct lease *cur,
	    int *found, char *err, size_t errlen);
/* lease_check_locked under the lock.  With keep != NULL the lock stays held
 * and its fd is stored there (only when OK is returned). */
int	lease_guard(const char *owner, int *keep, struct lease *cur,
	    int *found, char *err, size_t errlen);
/* Raises hold_until of owner's lease to at least until (lock held; no-op
 * without an owner or a lease of owner's). */
int	lease_hold_locked(const char *owner, long long until, char *err,
	    size_t errlen);

/*
 * Takes the lease for want->owner/host/pid/run with ttl seconds.  The same
 * owner taking again renews (*renewed = 1).  A free or expired lease: the
 * saved originals are restored first (into *restored); if that fails the
 * lease is not taken.  *out is the new lease, *prev (with *had_prev) the
 * one it replaced.
 */
int	lease_take(const struct lease *want, int ttl, long long now,
	    struct lease *out, struct lease *prev, int *had_prev,
	    int *renewed, struct lease_restored *restored, char *err,
	    size_t errlen);
/* Owner's lease expires at now + ttl (0: the stored ttl), or with
 * extend > 0 at max(expires, now + extend). */
int	lease_renew(const char *owner, int ttl, int extend, long long now,
	    struct lease *out, char *err, size_t errlen);
/* Removes owner's lease (force: anyone's).  *had is 0 when there was none
 * to remove (no-op); another owner's live lease without force is LEASED,
 * an expired one is left for a taker (*had 0). */
int	lease_release(const char *owner, int force, long long now,
	    struct lease *prev, int *had, char *err, size_t errlen);

#endif
