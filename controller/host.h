/*
 * host: from an inventory host (struct config_host) to a connected,
 * verified, agent-deployed host with its facts.  This is the only place
 * that builds an SSH target from config: address, port, user, key and the
 * inventory's known_hosts, checked strictly (ssh.h).
 *
 * A struct host owns one SSH session to one lab host and the agent handle
 * on it.  The ssh module re-establishes a session that died between two
 * commands by itself; host_sync() notices that (the host may have rebooted
 * into a kernel whose /var lost the agent), deploys the agent again and
 * bumps the host's session generation, so a caller holding facts from the
 * old session knows they may be stale.  host_reconnect() opens a new
 * session on purpose, after a reboot the caller asked for.
 *
 * Like an ssh_conn, a struct host is used by one thread at a time;
 * ssh_global_init() must have run before the first host_open().
 *
 * The host lease (host_lease.c, PROTOCOL.md "Host lease"): a host opened
 * with host_opts.lease takes the agent's lease on it right after the agent
 * is deployed (and again on every new session: a reboot may have lost
 * it), and its agent handle then passes `--owner TOKEN` on every changing
 * subcommand, so the host refuses another controller's changes.  A host
 * another controller holds fails to open with "em-a: leased by ctl2 pid
 * 4711 run 12 since 06:41, expires 06:58".  The holder keeps it with
 * host_lease_keep() and gives it back with host_lease_release();
 * host_close() does not release it (a dropped session is reopened by the
 * same owner).  Opened without a lease, a host is fine for read-only use
 * (facts, lease show).
 *
 * host_survey() (host_survey.c) does that for every host of an inventory
 * in parallel, one thread per host, and holds the inventory's declared
 * driver and chip against what each host reported (`labrat hosts`).
 */
#ifndef LABRAT_HOST_H
#define LABRAT_HOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agentctl.h"
#include "config.h"

#define HOST_CONNECT_MS		10000	/* one connect attempt */
#define HOST_DEPLOY_MS		300000	/* upload + a slow host's cc */
#define HOST_LEASE_TTL_S	300	/* default; env LABRAT_LEASE_TTL */
#define HOST_LEASE_CALL_MS	60000	/* a take may restore interfaces */

struct host;

/*
 * Who leases: one controller process and run.  token is
 * "HOST:PID:RUN:START" (the agent's token alphabet, at most 64 bytes),
 * host/pid/run name the holder in the agent's message.
 */
struct host_lease_id {
	char	token[65];
	char	host[65];
	long	pid;
	char	run[65];
	int	ttl_s;
};

/*
 * Fills id for this process and run (a label: a run id, "bisect-3"; made
 * safe for the agent's alphabet).  ttl_s 0 takes LABRAT_LEASE_TTL from
 * the environment when set (1..86400, e.g. a test's short lease), else
 * HOST_LEASE_TTL_S.  0, or -1 with err (a bad LABRAT_LEASE_TTL).
 */
int	host_lease_id_init(struct host_lease_id *, const char *run, int ttl_s,
	    char *err, size_t errlen);

/* How to reach and prepare a host; zeroes take the defaults. */
struct host_opts {
	int	connect_timeout_ms;	/* 0 = HOST_CONNECT_MS */
	int	deploy_timeout_ms;	/* 0 = HOST_DEPLOY_MS */
	int	keepalive_s;		/* 0 = ssh's default; < 0 disables */
	int	no_reconnect;		/* the session never revives itself */
	int	no_deploy;		/* connect only; host_deploy() later */
	/* Take the host lease as this id (borrowed: it must outlive the
	 * host); NULL opens the host without one (read-only use). */
	const struct host_lease_id *lease;
	/* The interface whose facts a new session reads with its agent
	 * check and lease take (one round trip: the agent's `open`); the
	 * session's first host_facts() of it answers with them, no command.
	 * NULL: none.  Borrowed. */
	const char	*facts_if;
};

/*
 * Connects to cfg (strict host-key check, key authentication) and, unless
 * opts->no_deploy, deploys the agent.  cfg must outlive the host; opts is
 * copied (NULL = defaults).  On success *out is a host the caller releases
 * with host_close(); on failure -1 with err naming the host, the step and
 * the cause, and *out NULL.
 */
int	host_open(const struct config_host *cfg, const struct host_opts *opts,
	    struct host **out, char *err, size_t errlen);
/* Disconnects and frees; NULL is fine. */
void	host_close(struct host *);

/* Makes sure the built-in agent is on the host (a cache hit when it is). */
int	host_deploy(struct host *, char *err, size_t errlen);

/*
 * Before using a host again: reconnects a host whose session was lost for
 * good (host_reconnect() failed earlier); with probe_ms > 0, first proves
 * the session alive with a round trip (the ssh module re-establishes a
 * dead one), e.g. when the host may have rebooted since its last use;
 * and after the session was re-established deploys the agent again.  0
 * when the session is the one of the last call, 1 when it is a new one
 * (the generation moved: facts may have changed), -1 with err.
 */
int	host_sync(struct host *, int probe_ms, char *err, size_t errlen);

/* A round trip on the session within timeout_ms, reviving a dead one
 * (unless no_reconnect).  0 or -1 with err. */
int	host_check(struct host *, int timeout_ms, char *err, size_t errlen);

/*
 * Drops the session and opens a new one within timeout_ms (0 = the
 * open's connect timeout), e.g. after a reboot; deploys the agent unless
 * no_deploy.  The generation moves on success.  On failure -1 with err:
 * the host has no session (host_ssh() NULL) until a later
 * host_reconnect() or host_sync() succeeds.
 */
int	host_reconnect(struct host *, int timeout_ms, char *err,
	    size_t errlen);

/*
 * The agent's `facts` (for ifname only, or every physical NIC when NULL)
 * into r, which the caller frees with agentctl_reply_free() whatever the
 * result.  0 or -1 with err.
 */
int	host_facts(struct host *, const char *ifname, int timeout_ms,
	    struct agentctl_reply *r, char *err, size_t errlen);

/* Borrowed handles, valid until the next host_sync/reconnect/close;
 * NULL while the host has no session. */
struct ssh_conn	*host_ssh(struct host *);
struct agentctl	*host_agent(struct host *);

const struct config_host *host_config(const struct host *);
const char	*host_name(const struct host *);
/* Sessions this host has had, counting from 1 at host_open(). */
unsigned	 host_generation(const struct host *);
/* How the last deploy went (zeroes before the first). */
const struct agentctl_deploy_info *host_deploy_info(const struct host *);

/* ---- the host lease (host_lease.c) -------------------------------------- */

/* 1 while this host holds its lease (taken, not lost or released). */
int	host_lease_held(const struct host *);

/*
 * Renews the lease when it is due: less than two thirds of its ttl left,
 * or less than need_s (the next step's deadline, e.g. a job's timeout)
 * plus a margin; a need_s beyond the ttl is covered with --extend.
 * Without a lease (opened without one) a no-op.  0, or -1 with err (the
 * lease was lost: another owner holds it, or the host cannot be reached).
 */
int	host_lease_keep(struct host *, int need_s, char *err, size_t errlen);
/* Renews now; extend_s > 0 makes it last at least that long (`--extend`:
 * before a reboot).  0 or -1 with err. */
int	host_lease_renew(struct host *, int extend_s, char *err,
	    size_t errlen);
/* Gives the lease back (the owner restored first); a no-op when not held.
 * 0 or -1 with err. */
int	host_lease_release(struct host *, char *err, size_t errlen);
/* The lease went back inside another command (`restore --release`): no
 * longer held, and host_lease_release() has nothing left to do. */
void	host_lease_released(struct host *);

/*
 * The shell command that renews the lease for extend_s seconds, to put
 * before a reboot command with "&&" so that only the holder reboots and
 * the lease covers the reboot: into buf, "" when the host has no lease.
 * 0, or -1 with err (buf too small, no agent).
 */
int	host_lease_gate_command(struct host *, int extend_s, char *buf,
	    size_t len, char *err, size_t errlen);

/*
 * Lease calls folded into the command that follows them (one round trip,
 * not two): the take a new session owes, into the kernel provider's first
 * command on a rebooted host; a renew, into an install's.  While deferred
 * (host_lease_defer()), a new session only notes its take as pending;
 * host_lease_take_command() is the shell command that makes it,
 * host_lease_gate_command() a renew's.  host_lease_take_result() and
 * host_lease_renew_result() decode what such a command printed (out, len,
 * its exit status) and note the lease, or make the call again the usual
 * way (a dead owner's lease taken over, a refusal said).  After the
 * deferral, host_lease_take_pending() makes a take still pending the
 * usual way.  0 or -1 with err.
 */
void	host_lease_defer(struct host *, int on);
int	host_lease_pending(struct host *);
int	host_lease_take_command(struct host *, char *buf, size_t len,
	    char *err, size_t errlen);
int	host_lease_take_result(struct host *, const char *out, size_t len,
	    int status, char *err, size_t errlen);
int	host_lease_renew_result(struct host *, int extend_s, const char *out,
	    size_t len, int status, char *err, size_t errlen);
int	host_lease_take_pending(struct host *, char *err, size_t errlen);

/*
 * 1 when err, from host_open() or host_sync() of a host opened with a
 * lease, says another controller holds the host ("em-a: leased by ..."):
 * the caller must not reach the host by other means either.
 */
int	host_lease_refused(const char *err);

/* What a lease says about its owner (host_lease_owner()). */
enum host_lease_owner {
	HOST_LEASE_FREE = 0,	/* nobody holds the host */
	HOST_LEASE_EXPIRED,	/* a lease past its expiry: takeable */
	HOST_LEASE_DEAD,	/* live, but its owner ran on this machine and
				 * its process is gone: it will expire */
	HOST_LEASE_LIVE,	/* live and its owner may well be running */
};

/*
 * `lease show` (read-only, no lease needed) into *out, which the caller
 * owns (no heap).  0 or -1 with err.
 */
int	host_lease_show(struct host *, struct agentctl_lease *out, char *err,
	    size_t errlen);
/*
 * Pure: what the lease of a `lease show` reply says about its owner.
 * DEAD is only decided for an owner on this machine (its host name is
 * ours and kill(pid, 0) says the process is gone); an owner elsewhere is
 * LIVE until the lease expires.
 */
enum host_lease_owner host_lease_owner(const struct agentctl_lease *show);
const char *host_lease_owner_name(enum host_lease_owner);

/*
 * The operator's `labrat hosts release HOST --force`: connects to cfg
 * (opts as host_open(), its lease ignored), deploys the agent and runs
 * `lease release --force`.  *out gets the agent's answer (previous: the
 * lease removed, if any).  0 or -1 with err.
 */
int	host_lease_force_release(const struct config_host *cfg,
	    const struct host_opts *opts, struct agentctl_lease *out,
	    char *err, size_t errlen);
/*
 * The same for the host called name in inv, as `labrat hosts release`
 * says it: msg gets "em-a: released (was leased by ..., expired)" or
 * "em-a: no lease held".  0, or -1 with err; *unknown is 1 when inv has
 * no such host (a usage error), 0 otherwise.
 */
int	host_lease_release_named(const struct config_inventory *inv,
	    const char *name, const struct host_opts *opts, char *msg,
	    size_t msglen, int *unknown, char *err, size_t errlen);

/* ---- surveying an inventory (host_survey.c) ---------------------------- */

/* One host of a survey. */
struct host_survey {
	const struct config_host	*host;	/* the inventory's */
	int				 ok;	/* 0: err says why */
	char				 err[1024];
	struct agentctl_deploy_info	 deploy;
	/* u.facts: the host's physical NICs, then each inventory NIC the
	 * host left out (asked for by name) */
	struct agentctl_reply		 facts;
	/* `lease show`: lease_ok 0 when it could not be read (lease_err) */
	int				 lease_ok;
	struct agentctl_lease		 lease;
	char				 lease_err[256];
};

/*
 * Reaches every host of inv in parallel (one thread per host): host_open()
 * with opts (copied per host; NULL = defaults), the agent deployed, the
 * facts read.  *out gets inv->nhosts results in inventory order, which
 * point into inv and which the caller frees with host_survey_free().
 * Returns the number of hosts that failed (their ok 0, err set).
 */
size_t	host_survey(const struct config_inventory *inv,
	    const struct host_opts *opts, struct host_survey **out);
void	host_survey_free(struct host_survey *, size_t n);
/*
 * The n results as `labrat hosts --format json` prints them: {"hosts":
 * [...]} with each host's agent deploy, lease (null when free) and facts,
 * each NIC with the
 * inventory's declared_driver / declared_chip and mismatch; unknown
 * values null.  0 or -1 with err (the writer failed).
 */
int	host_survey_json(const struct host_survey *, size_t n, FILE *fp,
	    char *err, size_t errlen);
/*
 * The n results as `labrat hosts` prints them: a table, one row per
 * inventory NIC (the host's driver and chip, a line under the row naming
 * what the inventory declares where it differs), a failed host as one
 * ERROR row (neutralised for the terminal), and a line naming the
 * holder of a host's lease.
 */
void	host_survey_text(const struct host_survey *, size_t n, FILE *fp);

/* The NIC called name among f's, or NULL. */
const struct agentctl_nic *host_survey_nic(const struct agentctl_facts *f,
	    const char *name);
/* 1 when the inventory declares a driver (chip) for the NIC and the host
 * reported another; chips compare case-insensitively. */
int	host_nic_driver_differs(const struct config_nic *,
	    const struct agentctl_nic *);
int	host_nic_chip_differs(const struct config_nic *,
	    const struct agentctl_nic *);

#endif
