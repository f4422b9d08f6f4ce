/*
 * executor_int.h: internals shared by the executor module's files
 * (executor.c: the executor object, workers, a drain; executor_pool.c: the
 * host pool, its sessions, leases and facts; executor_job.c: one job on a
 * leased host pair; executor_plaus.c: the plausibility of its result).  Nothing outside the executor module includes it:
 * callers see executor.h only.
 */
#ifndef LABRAT_EXECUTOR_INT_H
#define LABRAT_EXECUTOR_INT_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "agentctl.h"
#include "config.h"
#include "executor.h"
#include "host.h"
#include "store.h"

#define EXEC_FACTS_IFS		8
#define EXEC_CALL_MS		30000	/* apply, restore, serve, keys */
#define EXEC_SLACK_S		30	/* workload deadline past its time */
#define EXEC_WAIT_STEP_MS	500	/* polling a host that is down */

enum exec_outcome {
	EXEC_OK = 0,
	EXEC_INFRA,	/* SSH, timeout, agent trouble: retry */
	EXEC_MEASURED,	/* a real answer (mismatch, refused): no retry */
	EXEC_STOPPED,
	EXEC_PREFLIGHT,	/* the lab is unfit to measure: failed, class
			 * infra, no retry, no sample */
};

/*
 * One host of the pool.  The session (host) outlives drains; the rest
 * describes the current drain: facts rows belong to its run.
 */
struct exec_host {
	const struct config_host *cfg;
	struct host		*host;		/* NULL: not connected (yet) */
	int			 busy;
	int			 used;		/* needs a final restore */
	unsigned		 generation;	/* host_generation() at facts */
	/* Bumped whenever a workload server on it may have been replaced
	 * (one started or stopped): a link's counters from before are then
	 * not its server's any more (executor_link.c). */
	unsigned		 serve_gen;
	int			 probe;		/* first use in this drain */
	int			 down;		/* did not answer a whole wait */
	/* exec_pool_connect() failed for it: the next exec_host_connect()
	 * reports pre_err instead of trying again at once. */
	int			 pre_failed;
	char			 pre_err[1024];
	/* The facts exec_pool_connect() read for pre_if on session
	 * generation pre_gen, for exec_host_ensure() to record (both ends
	 * of a link are asked at once, not one after the other). */
	int			 pre_have;
	unsigned		 pre_gen;
	char			 pre_if[CONFIG_IFNAME_MAX + 1];
	struct agentctl_reply	 pre_facts;
	char			 facts_if[EXEC_FACTS_IFS][CONFIG_IFNAME_MAX + 1];
	int64_t			 facts_id[EXEC_FACTS_IFS];
	long long		 facts_speed[EXEC_FACTS_IFS];	/* -1 */
	size_t			 nfacts;
};

struct executor {
	const struct config_inventory	*inv;
	const struct config_plan	*plan;
	const struct config_link	**links;	/* the plan's */
	size_t				 nlinks;
	struct executor_opts		 opts_copy;
	const struct executor_opts	*opts;		/* &opts_copy */
	int				 connect_timeout_s;
	pthread_mutex_t			 mtx;
	pthread_cond_t			 cond;
	struct exec_host		*hosts;		/* inv->nhosts */
	struct host_lease_id		 lease_id;	/* every host's */
	/* The current drain. */
	int64_t				 run_id;
	struct executor_progress	 prog;
	int64_t				 started_ms;
	struct executor_summary		 sum;
	/* A store error stopped the drain (exec_halt()): set once, under
	 * mtx; read without it by exec_stopped(). */
	volatile sig_atomic_t		 halted;
	enum store_fault		 fault;
	char				 halt_err[512];
	/* executor_drain_keep(): the current drain leaves its links as
	 * they are (keep), and what the last one left, per link, of run
	 * kept_run (executor_end() ends them). */
	int				 keep;
	struct exec_linkstate		*kept;		/* nlinks */
	int64_t				 kept_run;
	int				 pre_left;	/* links not ready */
	int				 pre_failed;
	char				 pre_err[1024];
};

/*
 * What a link left on its hosts between two of its jobs (executor_link.c):
 * which ends carry its knobs (to restore at the link's end) and the
 * workload server it keeps running on the server end.
 */
struct exec_linkstate {
	int			 applied[2];	/* 0 the server, 1 the client */
	int			 serving;	/* a server may run: stop it */
	int			 started;	/* this batch started one */
	/* The last `serve --keep`: the receiver's counters then (the next
	 * job's "before"), and what it served. */
	int			 have_rx;
	struct agentctl_ifsnap	 rx;
	enum config_tool	 tool;
	int			 port;		/* the plan's; 0 the default */
	int			 served_port;	/* where it listens */
	/* It found the receiver's interface as the server end's last apply
	 * verified it (MTU, offloads, NAT ruleset): that apply may still be
	 * skipped.  When not, the next job applies there again. */
	int			 rx_stands;
	unsigned		 serve_gen, host_gen;
	/* The server end's last apply that went through, fit: a later job
	 * that asks it the same (srv_args) on the same session (srv_gen)
	 * while the rollback timer it armed still covers that job (srv_until,
	 * the controller's clock before the call + its --rollback-after)
	 * skips the call and stands on this reply (exec_link_apply_begin()),
	 * unless the last serve found the receiver moved (rx_stands). */
	int			 srv_ok;
	char			 srv_args[512];
	struct agentctl_apply	 srv_apply;
	int64_t			 srv_until;
	unsigned		 srv_gen;
};

struct exec_apply;

/*
 * The link's next job, claimed while the last one's workload ended, and
 * its apply begun (ap) while the last one's counters are read and its
 * samples stored (executor_job.c, job_next()).
 */
struct exec_next {
	int			 claimed;	/* job is the link's, running */
	struct store_job	 job;
	struct exec_apply	*ap;		/* NULL: not begun */
	int64_t			 facts_id[2];	/* the client's, the server's */
	/* The claim failed (on st2): reported once the last job is
	 * stored, as a claim of the worker's own would have been. */
	int			 claim_failed;
	char			 claim_err[512];
	/* The claim found nothing queued for the link: the job that just
	 * ran was its last of the drain (unless it is retried). */
	int			 none;
};

struct exec_worker {
	struct executor		*ex;
	const struct config_link *link;
	pthread_t		 thread;
	struct store		*st;
	/* The connection of job_next(): its failures are not the
	 * running job's (opened before the first job; NULL: none). */
	struct store		*st2;
	/* The link's hosts share none with another link of the executor:
	 * the next job may begin before the last one is stored. */
	int			 pipe;
	int			 leased;	/* holds both hosts' leases */
	struct exec_linkstate	 ls;
	struct exec_next	 next;
};

/* Samples of one job; metric names made at run time are kept in names. */
struct exec_samples {
	struct store_sample	*v;
	size_t			 n, cap;
	char			**names;
	size_t			 nnames;
};

/* executor.c */
/* *stop was set, or a store error halted the drain. */
int	exec_stopped(const struct executor *);
/* If st's last failure was the store's (full, busy, I/O), halts the
 * drain with err (the first one is kept) and returns 1; else 0. */
int	exec_halt(struct executor *, struct store *st, const char *err);
void	exec_sleep_ms(int ms);
/* Adds a sample; metric and unit must outlive smp (exec_samples_name()). */
void	exec_samples_add(struct exec_samples *, const char *metric, double,
	    const char *unit, int interval);
/* A copy of name owned by s (freed with its samples). */
const char *exec_samples_name(struct exec_samples *, const char *name);

/* executor_pool.c */
/* The pool: one exec_host per inventory host, none connected yet. */
void	exec_pool_init(struct executor *);
/* Closes every session and frees the pool. */
void	exec_pool_free(struct executor *);
/* Forgets what belonged to the last drain (facts rows, used, down);
 * sessions stay.  goon: the drain goes on with the last one's run and
 * kept links (executor_drain_keep()): the facts rows stay the run's,
 * the kept links' hosts stay used, and no session is probed first (one
 * the host dropped shows at the next call, and the job is retried). */
void	exec_pool_reset(struct executor *, int goon);
/* Connects and deploys every host the executor's links use, all at once
 * (one thread per host), before any worker runs; a host that fails keeps
 * its error for its first exec_host_connect().  facts: each also reads
 * the facts of its first link's interface, unless recorded in this run
 * already (exec_host_ensure() records them). */
void	exec_pool_connect(struct executor *, int facts);
/* Waits until hosts a and b are both free and takes them. */
void	exec_lease(struct executor *, size_t a, size_t b);
void	exec_unlease(struct executor *, size_t a, size_t b);
/* With hosts a and b taken: renews their host leases when due, so that
 * they last need_s more (a job's deadline).  0 or -1 with err (a lease
 * lost to another controller, a host that does not answer). */
int	exec_pool_keep(struct executor *, size_t a, size_t b, int need_s,
	    char *err, size_t errlen);
/* A live session with the agent deployed: opens one when there is none,
 * redeploys after the ssh module re-established it.  0 or -1. */
int	exec_host_connect(struct executor *, struct exec_host *, char *err,
	    size_t errlen);
/* Connects and deploys the agent if needed, and records h's facts for
 * ifname in this run (*facts_id gets the facts row). */
int	exec_host_ensure(struct executor *, struct exec_host *,
	    struct store *, const char *ifname, int64_t *facts_id, char *err,
	    size_t errlen);
/* 1 when h's session answers a round trip within timeout_ms (or h has
 * none yet: ensure will open one), else 0 with err. */
int	exec_host_alive(struct exec_host *, int timeout_ms, char *err,
	    size_t errlen);
/* One agent call, classified as an exec_outcome (EXEC_OK, EXEC_MEASURED,
 * EXEC_INFRA); r must be freed by the caller. */
int	exec_host_call(struct exec_host *, const char *const *args,
	    int timeout_ms, struct agentctl_reply *r, char *err,
	    size_t errlen);
/* Puts a host's interface back; failures are logged.  0 or -1. */
int	exec_host_restore(struct exec_host *, const char *ifname);

/* executor_preflight.c: after the knobs are applied, before the workload:
 * is the lab fit to measure on both ends (ends[0] the server, ends[1] the
 * client)?  EXEC_OK, EXEC_PREFLIGHT with reason, or EXEC_INFRA. */
int	exec_job_preflight(struct exec_worker *, const struct store_job *,
	    const struct config_workload *, struct exec_host *ends[2],
	    char *reason, size_t rlen);

/* The options apply --preflight takes for end i (0 the server, 1 the
 * client) of the job's link, the same checks as exec_job_preflight()'s:
 * appended at args[*n] (NULL-terminated after); spdb holds the speed. */
void	exec_pf_apply_args(const struct executor *,
	    const struct config_link *, const struct store_job *,
	    const struct config_workload *, int i, const char **args,
	    size_t *n, char *spdb, size_t spdlen);
/* After apply --preflight on both ends (ar[0] the server's reply, ar[1]
 * the client's): EXEC_OK when both ends' checks passed, EXEC_PREFLIGHT
 * with reason when one failed (the client's first); -1 when they cannot
 * stand (an end did not run them, or the server's apply changed a knob
 * while the client's ran): exec_job_preflight() is due. */
int	exec_pf_folded(struct exec_host *ends[2],
	    const struct agentctl_reply ar[2], char *reason, size_t rlen);

/* executor_link.c (see there). */
/* The apply argv of one end: k's knobs (TSO when tso_here, NAT mode
 * nat_here or none), as a transition from the link's last job, the rollback
 * timer re-armed for rollback_s, waiting up to settle_ms for the link after
 * a change (0: no wait).  buf holds the numbers. */
void	exec_link_apply_args(const struct knobs *k, const char *ifname,
	    int tso_here, const char *nat_here, int rollback_s, int settle_ms,
	    const char **args, char (*buf)[16]);
/* Applies job's knobs on both ends at once (ends[0] the server, ends[1]
 * the client), each end running the preflight's checks after its apply
 * (apply --preflight: see exec_pf_folded(); a failed check is not an
 * apply failure); ar gets both replies (the caller frees them).  EXEC_OK,
 * EXEC_MEASURED (refused knob) or EXEC_INFRA, with reason. */
int	exec_link_apply(struct exec_worker *, const struct store_job *,
	    const struct config_workload *, struct exec_host *ends[2],
	    struct agentctl_reply ar[2], char *reason, size_t rlen);
/* exec_link_apply() in steps: begin starts the client's call at once and
 * the server's too unless server_later (then exec_link_apply_server()
 * starts it, the worker having used the server's session meanwhile); end
 * waits for both, frees ap and returns what exec_link_apply() returns
 * (job NULL: an apply dropped, not logged).  No other call goes to an
 * end while its apply runs. */
struct exec_apply *exec_link_apply_begin(struct exec_worker *,
	    const struct store_job *, const struct config_workload *,
	    struct exec_host *ends[2], int server_later);
void	exec_link_apply_server(struct exec_apply *);
int	exec_link_apply_end(struct exec_apply *, const struct store_job *,
	    struct exec_host *ends[2], struct agentctl_reply ar[2],
	    char *reason, size_t rlen);
/* 1 when the server end needs a `serve --keep` before the workload. */
int	exec_link_serve_due(const struct exec_linkstate *, unsigned serve_gen,
	    unsigned host_gen, enum config_tool, int port);
/* `serve --keep` on s: the link's server running (started if it was not),
 * the receiver's counters into w->ls.rx.  An exec_outcome. */
int	exec_link_serve(struct exec_worker *, struct exec_host *s,
	    const struct config_workload *, char *reason, size_t rlen);
/* After an infrastructure failure, before the retry: waits (up to the job
 * timeout) until both hosts of the link answer again (see there). */
void	exec_link_wait(struct exec_worker *);
/* Whether link i's hosts serve no other link of the executor. */
int	exec_link_alone(const struct executor *, size_t i);
/* With the link's hosts leased: stops its server, restores both ends if
 * they were applied (side by side) and forgets the link's state.  last:
 * the link's work in this drain is over, so each end's restore gives the
 * host lease back with it when the link's two machines are no other
 * link's (a later drain takes it again).  Returns the number of ends
 * that could not be restored. */
int	exec_link_end(struct exec_worker *, int last);
/*
 * After the link's last workload of a drain that keeps nothing: the
 * server end's serve --keep (its counters after the run, as
 * exec_link_serve()) while the client end is restored (giving its lease
 * back as exec_link_end(w, 1) would), so that the link's end has only
 * the server end left.  A restore that fails is left to the link's end.
 */
int	exec_link_serve_last(struct exec_worker *, struct exec_host *,
	    const struct config_workload *, char *reason, size_t rlen);

/* executor_job.c: the deadline of a workload's agent call, in seconds (the
 * plan's job timeout, unless it would not leave the workload its time). */
int	exec_job_deadline_s(const struct executor *,
	    const struct config_workload *);
/* executor_job.c: runs one claimed job with both hosts leased; fills res
 * and returns an exec_outcome.  pre: the job was claimed by the last one
 * (w->next, taken by the caller), its apply maybe begun. */
int	exec_job_execute(struct exec_worker *, const struct store_job *,
	    struct exec_next *pre, struct exec_samples *,
	    struct store_job_result *, char *reason, size_t rlen,
	    char *inforce, size_t inforcelen);
/* pre (a job claimed by job_next()) given back: its apply, if begun,
 * waited for and its replies dropped (the knobs it set stay the link's,
 * restored at the link's end). */
void	exec_job_next_drop(struct exec_worker *, struct exec_next *pre);

/*
 * executor_plaus.c: is a workload's result a measurement?  The input of
 * the pure check; ends[0] is the client (sender), ends[1] the server.
 */
#define EXEC_PLAUS_SPEED_TOL	0.02	/* above the link speed */
#define EXEC_PLAUS_BPS_TOL	0.005	/* bps vs bytes x 8 / seconds */
#define EXEC_PLAUS_RX_FRAC	0.01	/* receiver rx short of the bytes */
/* What may still be in flight when the sender's tool reports: iperf2
 * counts what it wrote (up to a send buffer per stream, 4 MiB on Linux,
 * 2 MiB on FreeBSD by default); iperf3 what the server read. */
#define EXEC_PLAUS_INFLIGHT_STREAM	(8.0 * 1024 * 1024)
#define EXEC_PLAUS_INFLIGHT_READ	(1.0 * 1024 * 1024)

struct exec_plaus_end {
	const char	*host, *ifname;
	long long	 reported_mbps;	/* its facts; <= 0 unknown */
	long long	 declared_mbps;	/* the inventory's; 0 not declared */
};

struct exec_plaus {
	const char		*link, *tool;	/* for the reason */
	int			 exact;		/* 1, 0, -1 not said */
	double			 bytes, seconds, bps;
	double			 time;		/* seconds asked; 0: none */
	double			 size;		/* bytes asked; 0: none */
	struct exec_plaus_end	 ends[2];
	const char		*rx_host, *rx_if;	/* the receiver */
	/* check_rx: the receiver's rx bytes around the run must account
	 * for bytes (rx_ok 0: they could not be read, a refusal). */
	int			 check_rx, rx_ok;
	long long		 rx_before, rx_after;
	double			 rx_slack;	/* bytes in flight */
	/* check_remote: the receiver's copy must hold bytes (-1: unread). */
	int			 check_remote;
	long long		 remote_bytes;
};

/* 0 when p is a measurement, else -1 with the reason ("em: iperf3
 * reported 23000.0 Mbit/s, above the link speed 1000 Mbit/s (lowest of
 * em-a em0 10000, em-b em0 10000, inventory 1000)").  Pure. */
int	exec_plaus_check(const struct exec_plaus *, char *reason, size_t rlen);
/* speed_mbps of ifname in f, -1 when unknown or not listed. */
long long exec_plaus_nic_speed(const struct agentctl_facts *,
	    const char *ifname);
/* The check on an iperf reply, with the server's counters from serve
 * (before) and serve stop (after; NULL when that call failed), and on an
 * scp reply.  EXEC_OK, or EXEC_MEASURED with the reason. */
int	exec_plaus_iperf(const struct exec_worker *,
	    const struct config_workload *, const struct agentctl_iperf *,
	    const struct agentctl_ifsnap *before,
	    const struct agentctl_ifsnap *after, char *reason, size_t rlen);
int	exec_plaus_scp(const struct exec_worker *,
	    const struct config_workload *, const struct agentctl_scp *,
	    char *reason, size_t rlen);

#endif
