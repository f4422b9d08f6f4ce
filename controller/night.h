/*
 * night: one firing of a nightly schedule, end to end, resumable.  It owns
 * the nightly loop below the daemon: the newest revision from the
 * schedule's revision source (a command or a git ref, run without a
 * shell), its install on the hosts of the schedule's links (kernel
 * providers), the plan run on those links (kind "nightly"), detection
 * against the last good night on the same links (detect's run over run,
 * the plan's statistics), one confirming re-run, the regression records
 * (store.h "nights and regressions": a later night joins an active record,
 * never a second bisect), the bisect of each new regression -- in this
 * call, through hunt_start() -- and the notifications (notify module) when
 * a bisect ends or a regression is fixed.
 *
 * Every step is recorded in the night's row before the next starts (the
 * revision before anything is installed, a run's id once it exists, a
 * bisect's id once it is stored), so a night killed at any moment
 * continues from there: the run through run_execute()'s resume, the bisect
 * through hunt_resume(), nothing done twice.  A notification is marked
 * delivered only after delivery; undelivered ones are sent again by the
 * next night_fire() of any schedule.  Files it writes (the plan restricted
 * to the links, bisect tests) go to DB.nights/ beside the database.
 */
#ifndef LABRAT_NIGHT_H
#define LABRAT_NIGHT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "config.h"

struct store_sched;

struct night_request {
	const char	*db_path;
	const struct config_daemon *daemon;	/* sources, notify targets, health settings */
	int64_t		 schedule_id;	/* the stored schedule that fired */
	int64_t		 slot;		/* its cron slot, ms */
	const char	*owner;		/* store_owner text (leases, run/bisect owner) */
	volatile sig_atomic_t *stop;	/* never NULL: stop at the next job boundary */
	/* Added: progress lines (no newline), e.g. the CLI's stderr; may be
	 * NULL. */
	void		(*say)(const char *line, void *arg);
	void		*say_arg;
};

enum night_status { NIGHT_DONE, NIGHT_INTERRUPTED, NIGHT_FAILED };

/* "done", "interrupted", "failed". */
const char *night_status_name(enum night_status);

/*
 * One firing, from start or from where a killed one left off (its night
 * row is keyed by schedule_id + slot): newest revision -> install -> run
 * -> detect against the last good night -> confirm -> regression records
 * -> bisect (in this call) -> notify.  err says why on NIGHT_FAILED /
 * NIGHT_INTERRUPTED.  *night_id (may be NULL) gets the night's row id.
 */
enum night_status night_fire(const struct night_request *, char *err,
	    size_t errlen);
enum night_status night_fire_id(const struct night_request *,
	    int64_t *night_id, char *err, size_t errlen);

/* The newest revision of source: its command's first line of output, or
 * git fetch + rev-parse; validated as a revision id.  0, or -1 with err. */
int	night_newest(const struct config_revsource *, char *rev, size_t len,
	    char *err, size_t errlen);

/* ---- schedules by name (night_named.c) ---- */

/* What night_schedule_add() and night_fire_named() did. */
enum night_named_rc {
	NIGHT_NAMED_OK,		/* stored; fired (*ns says how the night ended) */
	NIGHT_NAMED_BAD,	/* bad input: the errors in errs, else err */
	NIGHT_NAMED_FAIL	/* the store, or no such schedule: err */
};

/* What night_schedule_add() tells beyond its rc. */
struct night_sched_added {
	const char	*field;	/* NIGHT_NAMED_BAD: the input at fault, "name",
				 * "cron", "tz", "inventory", "plan", "links"
				 * (the files' own errors in errs: "inventory"
				 * or "plan") */
	int		 dup;	/* NIGHT_NAMED_FAIL: the name exists */
	int64_t		 id;	/* NIGHT_NAMED_OK: the stored schedule */
	time_t		 next;	/* NIGHT_NAMED_OK: the first firing after now,
				 * (time_t)-1 none in 10 years */
};

/*
 * `labrat schedule add` and POST /api/v1/schedules: stores s
 * (store_sched_add) after the checks the daemon's firing would otherwise
 * fail on: the name (store_sched_name_ok), cron, inventory and plan given,
 * the cron expression in s->tz (NULL or "" = UTC), the inventory and plan
 * (loaded and cross-checked; key files are not required, the daemon's
 * host may hold them) and s->links (NULL or "" = all) against the plan.
 * s->plan_text is set to the plan as read during the call only.  out
 * (may be NULL) says which input was bad, whether the name exists, and
 * the next firing.
 */
enum night_named_rc night_schedule_add(const char *db_path,
	    struct store_sched *s, struct night_sched_added *out,
	    struct config_errors *errs, char *err, size_t errlen);
/* Its first check alone (the name; cron, inventory and plan given), for
 * the remote CLI before it sends them: 0, or -1 with err. */
int	night_schedule_given(const struct store_sched *, char *err,
	    size_t errlen);

/*
 * `labrat schedule fire NAME`: loads the daemon config at config_path
 * (every error into errs), looks the schedule called name up in
 * rq->db_path and fires it with night_fire_id(), using rq's db_path,
 * owner, stop and say (which also gets "schedule NAME fires, slot N").
 * Fills rq->schedule_id, and rq->slot when it is 0 (now, ms); rq->daemon
 * is the loaded config during the call only (freed, NULL again on
 * return).  On NIGHT_NAMED_OK, *ns and *night_id are night_fire_id()'s,
 * err its reason when *ns is not NIGHT_DONE.
 */
enum night_named_rc night_fire_named(struct night_request *rq,
	    const char *config_path, const char *name,
	    struct config_errors *errs, enum night_status *ns,
	    int64_t *night_id, char *err, size_t errlen);

#endif
