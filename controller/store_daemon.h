/*
 * store_daemon: the daemon's tables of module store (a second public header
 * of store, so that store.h keeps room): schedules, the queue, the daemon's
 * heartbeat, link leases, nights and regression records, link health,
 * the HTTP API's tokens.  Implemented in store_sched.c, store_queue.c,
 * store_night.c, store_health.c and store_token.c; the conventions of
 * store.h (0/-1 with err, ms timestamps, heap strings owned by the struct
 * read back) hold here too.
 */
#ifndef LABRAT_STORE_DAEMON_H
#define LABRAT_STORE_DAEMON_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* ---- schedules of the daemon (store_sched.c, schema 9) ----
 * A schedule as `labrat schedule add` stores it.  Times are ms since the
 * epoch.  All strings of a struct store_sched read back are heap, owned
 * by it: free with store_sched_free() / store_scheds_free(). */
#define STORE_SCHED_NAME_MAX	64	/* ^[A-Za-z0-9._-]{1,64}$ */

struct store_sched {
	int64_t	 id;
	char	*name;
	char	*cron;		/* "0 3 * * *" */
	char	*tz;		/* "UTC", "Europe/Berlin" */
	char	*inventory_path;
	char	*plan_path;
	char	*plan_text;	/* the plan as read at add time */
	char	*links;		/* "l1,l2"; "" = all the plan's links */
	char	*revisions;	/* revision source; NULL = none */
	int	 enabled;
	int64_t	 created;
	int64_t	 last_fired;	/* 0 = never */
};

/* 1 if name matches ^[A-Za-z0-9._-]{1,64}$. */
int	store_sched_name_ok(const char *name);
/* Adds s (id, created, last_fired ignored; enabled as given).  A duplicate
 * name fails with "schedule \"NAME\" exists" and *dup (may be NULL) set to
 * 1.  0 with *id (may be NULL) set, or -1. */
int	store_sched_add(struct store *, const struct store_sched *, int64_t *id,
	    int *dup, char *err, size_t errlen);
/* By name: 1 found (*out filled, free with store_sched_free), 0 not, -1. */
int	store_sched_get(struct store *, const char *name,
	    struct store_sched *out, char *err, size_t errlen);
int	store_sched_get_id(struct store *, int64_t id,
	    struct store_sched *out, char *err, size_t errlen);	/* 1/0/-1 */
/* All, by name. */
int	store_sched_list(struct store *, struct store_sched **, size_t *,
	    char *err, size_t errlen);
/* 1 removed, 0 no such name, -1 error. */
int	store_sched_rm(struct store *, const char *name, char *err,
	    size_t errlen);
/* Sets enabled (on 0 or 1; a disabled schedule does not fire, its nights
 * stay): 1 set (also when it was so already), 0 no such name, -1 error. */
int	store_sched_enable(struct store *, const char *name, int on,
	    char *err, size_t errlen);
/* Records slot t (ms) as the schedule's last firing only if it is later
 * than the stored one: 1 updated, 0 not (t <= last_fired, or no such id),
 * -1 error.  A daemon stores a slot before it starts the firing's run. */
int	store_sched_fired(struct store *, int64_t id, int64_t t, char *err,
	    size_t errlen);
void	store_sched_free(struct store_sched *);
void	store_scheds_free(struct store_sched *, size_t);

/* ---- the daemon's queue, heartbeat, link leases (store_queue.c, schema 10)
 * Owners are texts "host:pid[:start]" or store_owner_text()'s; parsed for
 * liveness (store_owner_state); this process's own start time is kept. */
enum store_q_kind { STORE_Q_RUN, STORE_Q_BISECT, STORE_Q_NIGHT, STORE_Q_HEALTH,
    STORE_Q_RESET };	/* reset: schema 15 */
enum store_q_state { STORE_Q_QUEUED, STORE_Q_RUNNING, STORE_Q_DONE,
    STORE_Q_FAILED, STORE_Q_CANCELLED };
#define STORE_PRIO_REGRESSION	300	/* the bisect of a night's regression */
#define STORE_PRIO_INTERACTIVE	200	/* labrat run|bisect start --enqueue */
#define STORE_PRIO_NIGHTLY	100	/* a schedule's firing */
#define STORE_PRIO_ROUTINE	0	/* health checks and the like */
#define STORE_DAEMON_STALE_MS	15000	/* 3 x serve's 5 s beat */
const char *store_q_kind_name(enum store_q_kind);	/* "run", "bisect", "night", "health", "reset" */
const char *store_q_state_name(enum store_q_state);	/* "queued", ... */
struct store_q_item {
	int64_t id; enum store_q_kind kind; int priority; enum store_q_state state;
	char *payload;	/* JSON object text (kind-specific), heap */
	char *who;	/* who enqueued: "user@host pid N" or "schedule NAME", heap */
	char *owner;	/* store_owner text of the daemon running it, heap or NULL */
	char *result;	/* one-line outcome (a requeue's why), heap or NULL */
	int64_t schedule_id, slot;	/* a firing: its schedule and cron slot (ms), else 0 */
	int64_t run_id, bisect_id;	/* what it created, 0 = nothing yet */
	int64_t enqueued, started, finished;	/* ms since the epoch, 0 = not yet */
	int attempts;	/* times it was claimed */
};
/* (schedule_id, slot) is unique when schedule_id != 0: adding the same
 * firing again returns 0 with *dup = 1 and *id the existing item. */
int store_q_add(struct store *, enum store_q_kind, int priority,
    const char *payload, const char *who, int64_t schedule_id, int64_t slot,
    int64_t *id, int *dup, char *err, size_t errlen);
/* The reset of bisect_id (STORE_Q_RESET, payload {"bisect": ID}, its
 * bisect_id set), store_q_submit()'s way: 0 queued, 1 one is queued or
 * running already (*id gets either), -1. */
int store_q_add_reset(struct store *, int64_t bisect_id, int priority,
    const char *who, int64_t *id, char *err, size_t errlen);
/* store_q_add only if a live daemon serves the store, else -1: "no daemon
 * serves DB: last heartbeat N s ago (labrat serve --db DB)" / "... never". */
int store_q_submit(struct store *, enum store_q_kind, int priority,
    const char *payload, const char *who, int64_t *id, char *err, size_t errlen);
void store_q_who(char *buf, size_t len);	/* "user@host pid N" of this process */
/* Atomically claims the best queued item (priority desc, then id asc) whose
 * kind is in kinds_mask (1 << kind): running, owner set, attempts++.
 * 1 claimed (*out filled), 0 none, -1. */
int store_q_claim(struct store *, const char *owner, unsigned kinds_mask,
    struct store_q_item *out, char *err, size_t errlen);
int store_q_get(struct store *, int64_t id, struct store_q_item *out, char *err, size_t errlen); /* 1/0/-1 */
int store_q_set_ids(struct store *, int64_t id, int64_t run_id, int64_t bisect_id, char *err, size_t errlen);
/* running -> done|failed|cancelled, queued -> cancelled. */
int store_q_finish(struct store *, int64_t id, enum store_q_state, const char *result, char *err, size_t errlen);
/* running -> queued (owner cleared), e.g. on SIGTERM or for a dead owner. */
int store_q_requeue(struct store *, int64_t id, const char *why, char *err, size_t errlen);
/* Every running item whose owner is not live (store_owner_state) -> queued; *n requeued. */
int store_q_requeue_dead(struct store *, int64_t *n, char *err, size_t errlen);
/* Items of schedule_id still queued or running. */
int store_q_active_for(struct store *, int64_t schedule_id, int64_t *n, char *err, size_t errlen);
/* states_mask = 1 << state; newest first, at most limit (0 = all). */
int store_q_list(struct store *, unsigned states_mask, size_t limit,
    struct store_q_item **items, size_t *n, char *err, size_t errlen);
/* The same, only items older than after (id < after; 0 = from the newest):
 * a page that the id of its last item continues. */
int store_q_page(struct store *, unsigned states_mask, int64_t after,
    size_t limit, struct store_q_item **items, size_t *n, char *err,
    size_t errlen);
void store_q_item_free(struct store_q_item *);
void store_q_items_free(struct store_q_item *, size_t);

struct store_daemon { char *owner; int64_t started, beat; int stopping;	/* owner = store_owner text */
	int stopped; };	/* unregistered: the row stays for "last heartbeat" */
/* 0 registered (any stale/dead row replaced); 1 refused: another live
 * daemon (beat within stale_ms and, on this host, its pid alive) serves
 * this store (*other filled); -1. */
int store_daemon_register(struct store *, const char *owner, int64_t stale_ms,
    struct store_daemon *other, char *err, size_t errlen);
/* -1 also when owner is not the registered daemon (taken over). */
int store_daemon_beat(struct store *, const char *owner, int stopping, char *err, size_t errlen);
int store_daemon_unregister(struct store *, const char *owner, char *err, size_t errlen);
/* The clock (ms since the epoch) the daemon and queue rows are stamped
 * with, so ages are read against it (LABRAT_TEST_CLOCK=@MS stops it). */
int64_t store_daemon_now(void);
/* 1: a row (live or not: *live set), 0: none, -1. */
int store_daemon_get(struct store *, int64_t stale_ms, struct store_daemon *out, int *live, char *err, size_t errlen);
void store_daemon_free(struct store_daemon *);

/* Link leases: 1 taken or renewed (same owner), 0 held by another until
 * it expires or its owner is gone (*holder filled), -1. */
int store_link_lease_take(struct store *, const char *link, const char *owner,
    int64_t ttl_ms, char *holder, size_t holderlen, char *err, size_t errlen);
int store_link_lease_release(struct store *, const char *link, const char *owner, char *err, size_t errlen);
/* ---- nights and regressions (store_night.c, schema 12); strings heap,
 * owned (store_night_free, store_regr_free) */
struct store_night {
	int64_t	 id, schedule_id, slot;
	char	*links, *state;	/* "em,bce"; started revision installed ran
				 * detected confirmed bisecting done failed */
	char	*revision;	/* NULL until known */
	int64_t	 good_night, run_id, confirm_run_id;	/* 0 = none */
	int	 good;		/* no regression: later nights compare with it */
	char	*verdicts, *reason;	/* JSON array text; NULL */
	int64_t	 created, finished;
};
/* Get or create (state started) the night of (schedule, slot): 1 new, 0 old. */
int	store_night_begin(struct store *, int64_t schedule_id, int64_t slot,
	    const char *links, struct store_night *out, char *err, size_t errlen);
int	store_night_get(struct store *, int64_t id, struct store_night *out,
	    char *err, size_t errlen);	/* 1/0/-1 */
/* Writes every field but the key (finished when done or failed). */
int	store_night_update(struct store *, const struct store_night *,
	    char *err, size_t errlen);
/* Newest good done night on exactly links before before_id (0 any): 1/0/-1. */
int	store_night_last_good(struct store *, const char *links,
	    int64_t before_id, struct store_night *out, char *err, size_t errlen);
int	store_night_list(struct store *, size_t limit, struct store_night **,
	    size_t *n, char *err, size_t errlen);	/* newest first */
void	store_night_free(struct store_night *);
void	store_nights_free(struct store_night *, size_t);
enum store_regr_state { STORE_REGR_OPEN, STORE_REGR_CONFIRMED,
    STORE_REGR_BISECTING, STORE_REGR_CULPRIT, STORE_REGR_RANGE,
    STORE_REGR_FAILED, STORE_REGR_FIXED, STORE_REGR_NSTATES };
const char *store_regr_state_name(enum store_regr_state);	/* "open" ... */
int	store_regr_state_parse(const char *, enum store_regr_state *);
/* open -> confirmed -> bisecting -> culprit|range|failed; those and
 * confirmed -> fixed: 1 allowed, 0 not. */
int	store_regr_can(enum store_regr_state from, enum store_regr_state to);
struct store_regr {
	int64_t	 id;
	char	*link, *knobs, *workload, *metric, *direction;	/* key; down|up */
	enum store_regr_state state;
	int64_t	 schedule_id, first_night, last_night, bisect_id;
	char	*good_rev, *bad_rev;	/* the baseline night's and tonight's */
	double	 change;		/* -0.18 */
	char	*culprit, *range_first, *range_last, *reason;
	int	 notified;	/* the state last delivered, -1 none */
	int64_t	 created, updated;
};
/* Joins the not-fixed record of r's key (last_night = night) or opens one
 * (open, first = last = night): *opened 1/0, *id. */
int	store_regr_join(struct store *, const struct store_regr *r,
	    int64_t night_id, int64_t *id, int *opened, char *err, size_t errlen);
int	store_regr_get(struct store *, int64_t id, struct store_regr *out,
	    char *err, size_t errlen);	/* 1/0/-1 */
/* To state (same or store_regr_can, else -1); NULL/0 fields kept. */
int	store_regr_set(struct store *, int64_t id, enum store_regr_state,
	    int64_t bisect_id, const char *culprit, const char *range_first,
	    const char *range_last, const char *reason, char *err,
	    size_t errlen);
int	store_regr_notified(struct store *, int64_t id, enum store_regr_state,
	    char *err, size_t errlen);	/* after delivery */
/* Deletes an open record (its confirming run did not show it). */
int	store_regr_drop(struct store *, int64_t id, char *err, size_t errlen);
int	store_regr_list(struct store *, unsigned states_mask,
	    struct store_regr **, size_t *n, char *err, size_t errlen);	/* by id */
void	store_regr_free(struct store_regr *);
void	store_regrs_free(struct store_regr *, size_t);

/* ---- link health (store_health.c, schema 11): heap strings, owned */
struct store_health { char *link, *state, *why, *warnings, *good_facts;
	int64_t since, checked_at, good_at, run_id; int check_ok; /* -1 never */
	double good_figure; };	/* good_*: the last pass's (bit/s, facts) */
struct store_health_rec { const char *link, *state, *why, *who;
	const char *const *keep; const char *only; /* else left alone */
	int checked, check_ok; const char *warnings; int64_t run_id;
	double good_figure; const char *good_facts; };	/* > 0: a pass */
/* One transaction (a transition when the state changes): 1, 0 left, -1. */
int	store_health_record(struct store *, const struct store_health_rec *,
	    char *from, size_t fromlen, char *err, size_t errlen);
int	store_health_get(struct store *, const char *link,
	    struct store_health *, char *err, size_t errlen);	/* 1/0/-1 */
int	store_health_list(struct store *, struct store_health **, size_t *,
	    char *err, size_t errlen);
struct store_health_tr { int64_t id, at; char *link, *from, *to, *who, *why; };
int	store_health_transitions(struct store *, const char *link, size_t limit,
	    struct store_health_tr **, size_t *, char *err, size_t errlen);
/* A link's transitions with ids below after (0: from the newest), newest
 * first, at most limit (0 = 50): GET /api/v1/hosts/{link}/health
 * (store_series.c, an API read). */
int	store_api_health_history(struct store *, const char *link,
	    int64_t after, size_t limit, struct store_health_tr **, size_t *,
	    char *err, size_t errlen);
void	store_health_free(struct store_health *);
void	store_healths_free(struct store_health *, size_t);
void	store_health_trs_free(struct store_health_tr *, size_t);

/* ---- tokens of the HTTP API (schema 13; store_token.c) ------------------ */

/*
 * A token's row: salt is 16 random bytes and hash HMAC-SHA256(salt, the
 * whole secret), both lower-case hex; the secret itself is never stored.
 * Times in ms since the epoch, 0 = never (revoked_ms, last_used_ms).
 */
#define STORE_TOKEN_NAME_MAX	63
struct store_token { int64_t id; char name[64]; int read_only;
	char salt[33]; char hash[65]; int64_t created_ms, revoked_ms, last_used_ms; };
/* 1 when name is 1-63 characters of A-Z a-z 0-9 . _ -. */
int	store_token_name_ok(const char *name);
int	store_token_insert(struct store *, const char *name, int read_only,
	    const char *salt_hex, const char *hash_hex, int64_t now_ms,
	    int64_t *id, char *err, size_t errlen);   /* name taken: -1, err says so */
int	store_token_get(struct store *, int64_t id, struct store_token *,
	    char *err, size_t errlen);                /* 1 found, 0 not, -1 error */
int	store_token_list(struct store *, struct store_token **out, size_t *n,
	    char *err, size_t errlen);                /* *out: free() */
int	store_token_revoke(struct store *, const char *name, int64_t now_ms,
	    char *err, size_t errlen);                /* 0, -1 unknown/already */
int	store_token_used(struct store *, int64_t id, int64_t now_ms, char *err,
	    size_t errlen);
/* The hash of a live token (http_token_add: the secret names the id the
 * insert gave).  0, or -1 when the hash is not hex or no live token. */
int	store_token_set_hash(struct store *, int64_t id, const char *hash_hex,
	    char *err, size_t errlen);

#endif
