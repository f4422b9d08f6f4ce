/*
 * serve_int.h: what serve.c (lifecycle), serve_sched.c (firing schedules),
 * serve_health.c (health checks) and serve_queue.c (the worker) share.
 */
#ifndef LABRAT_SERVE_INT_H
#define LABRAT_SERVE_INT_H

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "config.h"
#include "cron.h"
#include "health.h"
#include "store.h"
#include "store_daemon.h"

#define SERVE_BEAT_MS		5000	/* heartbeat and lease renewal */
#define SERVE_TICK_MS		1000	/* scheduler */
#define SERVE_LEASE_TTL_MS	30000	/* a link lease outlives 5 missed beats */
#define SERVE_LINKS_MAX		CONFIG_LINKS_MAX
#define SERVE_HEALTH_TICK_MS	5000	/* health checks due? */
#define SERVE_HEALTH_RETRY_S	60	/* a check that could not run */

struct serve {
	const char		*db_path;
	const char		*config_path;	/* NULL: defaults */
	char			 owner[STORE_OWNER_MAX];	/* store_owner_text */
	volatile sig_atomic_t	 stop;		/* SIGTERM / SIGINT */
	volatile sig_atomic_t	 hup;		/* SIGHUP */
	pthread_mutex_t		 mtx;		/* config, leases */
	pthread_mutex_t		 hmtx;		/* health items: decide + add */
	struct config_daemon	*config;	/* current (never NULL) */
	char			*leased[SERVE_LINKS_MAX];	/* the worker's */
	size_t			 nleased;
};

/* Milliseconds since the epoch: util_wall_ms(), the one clock. */
int64_t	serve_now_ms(void);

/* ---- serve_sched.c ---- */

/* One schedule as the decision sees it. */
struct serve_sched_view {
	const struct cron_sched	*cs;	/* NULL: expression or zone broken */
	int			 enabled;
	int64_t			 created_ms;
	int64_t			 last_fired_ms;	/* 0: never */
	int64_t			 active;	/* its items queued or running */
};

struct serve_fire {
	int	fire;		/* 1: store slot_ms as fired, then enqueue */
	int	held;		/* due, but its previous firing is active */
	int64_t	slot_ms;	/* the latest firing <= now (fire or held) */
	int	missed;		/* firings collapsed into slot (downtime) */
	time_t	next;		/* the firing after slot, or after now */
};

/*
 * Pure: should this schedule fire now?  Its firings are counted from its
 * last firing (its creation if it never fired); all those missed collapse
 * into one, the latest <= now; none while an earlier firing is still
 * queued or running (held: it fires once after that ends).
 */
void	serve_sched_decide(const struct serve_sched_view *, int64_t now_ms,
	    struct serve_fire *);

/*
 * One scheduler pass over the stored schedules: store_sched_fired()
 * first, then the night item (STORE_Q_NIGHT, STORE_PRIO_NIGHTLY,
 * {"schedule": NAME}); a firing already in the queue is not added again.
 * recover: also make sure each schedule's stored last firing has its
 * item (a daemon killed between the two writes).  *fired (may be NULL)
 * counts the items added.  0 or -1 with err (a store error).
 */
int	serve_sched_tick(struct serve *, struct store *, struct cron_cache *,
	    int64_t now_ms, int recover, int *fired, char *err, size_t errlen);

/* ---- serve_health.c ---- */

/* One link as the health decision sees it. */
struct serve_health_view {
	enum health_state	state;		/* stored (unknown: no row) */
	int64_t			checked_ms;	/* its last check, 0 never */
	int64_t			last_item_ms;	/* its newest failed health item's end */
	int			active;		/* a health item queued/running */
	int			infra;		/* an item just failed on it, infra */
};

/* The decision; the values from SERVE_HC_INFRA on queue a check. */
enum serve_hc {
	SERVE_HC_NOT_DUE, SERVE_HC_OFF, SERVE_HC_ACTIVE, SERVE_HC_RETRY,
	SERVE_HC_INFRA, SERVE_HC_NEVER, SERVE_HC_DUE,
};
const char *serve_hc_name(enum serve_hc);

/* Pure: should link get a health check now?  (serve_health.c's rules.) */
enum serve_hc serve_health_decide(const struct serve_health_view *,
	    int64_t now_ms, int interval_s);

/* Decides for link of inventory inv (infra: an infra failure on it) and
 * queues its item; 0 or -1 with err (the store). */
int	serve_health_enqueue(struct serve *, struct store *, const char *inv,
	    const char *link, int infra, int64_t now_ms, int interval_s,
	    char *err, size_t errlen);
/* Every link of the config's inventories (the main thread). */
void	serve_health_tick(struct serve *, struct store *, int64_t now_ms);
/* After run run_id (of inventory inv) ended: a check of each link with a
 * job failed of class infra.  0 or -1 with err. */
int	serve_health_after(struct serve *, struct store *, const char *inv,
	    int64_t run_id, char *err, size_t errlen);
/* 1 when every link may be driven (good or unknown); 0 with why naming
 * the first that may not and its state. */
int	serve_links_usable(struct serve *, char *const *links, size_t n,
	    char *why, size_t whylen);
/* A health item's check: 0 checked (or left alone), -1 could not check,
 * 1 stopped (requeue); result says what happened. */
int	serve_health_run(struct serve *, const char *inv, const char *link,
	    char *result, size_t len);

/* ---- serve_queue.c ---- */

/* The worker thread's body (arg: struct serve *). */
void	*serve_worker(void *);
/* Renews the worker's link leases (the main thread, every beat). */
void	serve_leases_renew(struct serve *, struct store *);

#endif
