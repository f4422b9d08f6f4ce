/*
 * executor_int.h: internals shared by the executor module's files
 * (executor.c: the executor object, workers, a drain; executor_pool.c: the
 * host pool, its sessions, leases and facts; executor_job.c: one job on a
 * leased host pair).  Nothing outside the executor module includes it:
 * callers see executor.h only.
 */
#ifndef LABRAT_EXECUTOR_INT_H
#define LABRAT_EXECUTOR_INT_H

#include <pthread.h>
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
	int			 probe;		/* first use in this drain */
	int			 down;		/* did not answer a whole wait */
	/* exec_pool_connect() failed for it: the next exec_host_connect()
	 * reports pre_err instead of trying again at once. */
	int			 pre_failed;
	char			 pre_err[1024];
	char			 facts_if[EXEC_FACTS_IFS][CONFIG_IFNAME_MAX + 1];
	int64_t			 facts_id[EXEC_FACTS_IFS];
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
	int				 pre_left;	/* links not ready */
	int				 pre_failed;
	char				 pre_err[1024];
};

struct exec_worker {
	struct executor		*ex;
	const struct config_link *link;
	pthread_t		 thread;
	struct store		*st;
};

/* Samples of one job; metric names made at run time are kept in names. */
struct exec_samples {
	struct store_sample	*v;
	size_t			 n, cap;
	char			**names;
	size_t			 nnames;
};

/* executor.c */
int	exec_stopped(const struct executor *);
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
 * sessions stay. */
void	exec_pool_reset(struct executor *);
/* Connects and deploys every host the executor's links use, all at once
 * (one thread per host), before any worker runs; a host that fails keeps
 * its error for its first exec_host_connect(). */
void	exec_pool_connect(struct executor *);
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

/* executor_job.c: runs one claimed job with both hosts leased; fills res
 * and returns an exec_outcome. */
int	exec_job_execute(struct exec_worker *, const struct store_job *,
	    struct exec_samples *, struct store_job_result *, char *reason,
	    size_t rlen, char *inforce, size_t inforcelen);

#endif
