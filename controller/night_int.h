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
enum night_status night_bisect_all(struct night_ctx *, char *err,
	    size_t errlen);

/* night_notify.c: every record whose final state is not yet delivered. */
void	night_notify_pending(struct night_ctx *);
struct notify_msg;
/* m to the daemon's targets; 0 delivered (or no target), -1 with err. */
int	night_notify_send(struct night_ctx *, const struct notify_msg *m,
	    char *err, size_t errlen);

/* night_health.c: 0 (the plan cut to the usable links), 1 stopped, -1. */
int	night_health(struct night_ctx *, char *err, size_t errlen);

#endif
