/*
 * night_int.h: the night module's shared parts (night.c: the firing's
 * steps, revision and install; night_detect.c: detection, records,
 * confirmation; night_bisect.c: the bisect of a record; night_notify.c:
 * notifications).  Nothing outside the module includes it.
 */
#ifndef LABRAT_NIGHT_INT_H
#define LABRAT_NIGHT_INT_H

#include <limits.h>

#include "config.h"
#include "detect.h"
#include "night.h"
#include "store.h"
#include "store_daemon.h"

#define NIGHT_OUT_MAX		4096	/* a newest-revision command's output */
#define NIGHT_CMD_TIMEOUT_MS	(10 * 60 * 1000)

struct night_ctx {
	const struct night_request *rq;
	struct store		*st;
	struct store_sched	 sched;
	struct store_night	 n;		/* tonight */
	struct store_night	 good;		/* the baseline; id 0: none */
	struct config_inventory	*inv;
	struct config_plan	*plan;		/* restricted to the links */
	char			 dir[PATH_MAX];		/* DB.nights */
	char			 plan_path[PATH_MAX + 64];	/* the plan run */
};

void	night_say(struct night_ctx *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Writes n's row (store_night_update); 0 or -1 with err. */
int	night_save(struct night_ctx *, const char *state, char *err,
	    size_t errlen);
/* Writes the plan restricted to links (a comma list) to path. */
int	night_plan_file(struct night_ctx *, const char *links,
	    const char *path, char *err, size_t errlen);
/* run_execute() of plan_path (resume when *run_id != 0); 0 driven, -1. */
int	night_run(struct night_ctx *, const char *plan_path, int64_t *run_id,
	    int is_confirm, char *err, size_t errlen);

/* night_detect.c */
int	night_detect(struct night_ctx *, char *err, size_t errlen);
int	night_confirm(struct night_ctx *, char *err, size_t errlen);
/* The detect parameters of the plan. */
int	night_params(struct night_ctx *, struct detect_params *, char *err,
	    size_t errlen);

/* night_bisect.c: every record of tonight, to its end; NIGHT_* status. */
#define NIGHT_BISECT_WAIT_MS	5000	/* limits.max_bisects: polled */
/* How many of v are running, driven by a live process (or one on another
 * host, which cannot be checked) other than self_pid; who gets the
 * first ("bisect 7 by pid 4711 on ctl1 since 06:41 UTC"). */
int	night_bisects_busy(const struct store_bisect *v, size_t n,
	    int64_t self_pid, char *who, size_t wholen);
enum night_status night_bisect_all(struct night_ctx *, char *err,
	    size_t errlen);

/* night_notify.c: every record whose final state is not yet delivered. */
/* "TSO on, MTU 9000" from a knobs key ("mtu=9000,tso=on"): knob first
 * (the regression's trigger, the one its bisect flips A/B) leads, the
 * rest follow in key order; first -1: key order.  A key that does not
 * parse is copied as it is. */
void	night_knobs_text(const char *key, int first, char *buf, size_t len);
void	night_notify_pending(struct night_ctx *);
struct notify_msg;
/* m to the daemon's targets; 0 delivered (or no target), -1 with err. */
int	night_notify_send(struct night_ctx *, const struct notify_msg *m,
	    char *err, size_t errlen);

/* night_health.c: 0 (the plan cut to the usable links), 1 stopped, -1. */
int	night_health(struct night_ctx *, char *err, size_t errlen);

#endif
