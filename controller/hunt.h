/*
 * hunt: the bisect driver.  It owns a bisect's life below the command line:
 * the revision list (git first-parent history, a plain list or a simulated
 * lab's history: hunt_revs.c), the stored session, replay of the stored
 * steps on resume, and each step -- a run of kind "bisect", the revision
 * installed, rebooted and verified on both hosts of the link, measurement
 * batches as the adaptive sampling asks for them, the verdict written to
 * the step row before the state machine (bisect.h) records it.  A
 * controller killed at any moment continues with hunt_resume() without
 * repeating a finished step.
 *
 * Nothing here prints or exits: progress goes through hunt_opts.event,
 * errors into the caller's buffer, and a stop flag (a SIGINT handler's)
 * cuts a hunt short.  The lab is reached through struct hunt_lab_ops, whose
 * default (NULL) is kernel.h for installing and the executor for
 * measuring; tests pass a fake one.
 */
#ifndef LABRAT_HUNT_H
#define LABRAT_HUNT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bisect.h"
#include "config.h"
#include "kernel.h"
#include "store.h"

/*
 * Settles how test t judges: its lower_is_better when the file gives one,
 * else the metric's built-in direction (stats_metric_direction()); its
 * threshold when given, else 0.9 (higher is better: 10 % lower is bad) or
 * 1.1 (lower is better: 10 % higher is bad).  Afterwards t->lower_is_better
 * is 0 or 1.  0, or -1 with err ("metric: ...", the key, not the file)
 * when the metric's direction is unknown and the file declares none.
 */
int	hunt_test_judging(struct config_bisect_test *t, char *err,
	    size_t errlen);
/*
 * Settles t (hunt_test_judging()) and writes the "ok" line `config check`
 * prints for it (what it compares, the metric and its direction, the
 * threshold), without a newline, into buf.  0, or -1 with err as
 * hunt_test_judging().
 */
int	hunt_test_summary(struct config_bisect_test *t, char *buf, size_t len,
	    char *err, size_t errlen);

/* What hunt_start() and hunt_resume() end with. */
enum hunt_status {
	HUNT_FOUND = 0,		/* culprit exact (stored "done") */
	HUNT_RANGE,		/* smallest provable range (stored "done") */
	HUNT_FAILED,		/* ended without a culprit (stored "failed"):
				   endpoints wrong, verdicts inconsistent */
	HUNT_INTERRUPTED,	/* stopped before its end: the stop flag
				   (still "running", shown "interrupted"),
				   or a lab or store error (err; stored
				   "interrupted" if the store takes it, else
				   shown so once its owner is gone);
				   hunt_resume() continues it */
	HUNT_CONFIG,		/* bad request, inventory, test or revisions
				   (err, one line per error); nothing run */
	HUNT_ERROR,		/* nothing driven: no such bisect, store
				   error, a --replay log refused (err) */
	HUNT_ENDED		/* hunt_resume() of a bisect that had ended
				   before: nothing done */
};

const char	*hunt_status_name(enum hunt_status);

/* ---- progress ----------------------------------------------------------- */

enum hunt_event_kind {
	HUNT_EV_STARTED,	/* a new bisect was stored */
	HUNT_EV_REPLAYED,	/* steps of a --replay log recorded */
	HUNT_EV_TESTING,	/* a step begins */
	HUNT_EV_INSTALLED,	/* one host's install/reboot/verify outcome */
	HUNT_EV_SKIPPED,	/* a revision could not be put on the hosts */
	HUNT_EV_VERDICT		/* a step's verdict */
};

/* One progress line; text has no newline and no program name. */
struct hunt_event {
	enum hunt_event_kind	 kind;
	int64_t			 bisect_id;
	const char		*revision;	/* NULL for STARTED, REPLAYED */
	const char		*text;
};

/* ---- the lab, as the driver reaches it --------------------------------- */

/* What the ops get: the bisect's configuration and where it records. */
struct hunt_lab {
	const struct config_inventory	*inv;
	const struct config_plan	*plan;	/* the test's one-workload plan */
	const struct config_link	*link;
	const struct config_bisect_test	*test;
	const char			*db_path;
	const char			*owner;	/* lease owner, "host:pid:bisect" */
	volatile sig_atomic_t		*stop;	/* never NULL */
};

/* One host's part of putting a revision on the link. */
struct hunt_install {
	const struct config_host	*host;	/* set by the driver */
	int				 rc;	/* 0: out valid; -1: err */
	struct kernel_outcome		 out;
	char				 err[1024];
};

struct hunt_lab_ops {
	/*
	 * Installs rev on in[0].host (the link's client) and in[1].host (its
	 * server), reboots and verifies each: fills rc, out and err of both
	 * (a KERNEL_UNBUILDABLE / UNBOOTABLE outcome makes the step a skip,
	 * rc -1 stops the hunt as interrupted).
	 */
	void	(*install)(void *arg, const struct hunt_lab *, const char *rev,
		    struct hunt_install in[2]);
	/*
	 * Runs every queued job of run_id (the driver queued them: the
	 * reference and candidate sides interleaved) and records each job's
	 * samples in the store at lab->db_path, as the executor does.
	 * Returns 0 when the run could be driven (*stopped = 1 when
	 * *lab->stop cut it short), -1 with err when it could not start.
	 */
	int	(*measure)(void *arg, const struct hunt_lab *, int64_t run_id,
		    int *stopped, char *err, size_t errlen);
	/*
	 * The step's measuring is over (decided, failed or interrupted):
	 * what measure left on the link for the step's next batch (knobs,
	 * the workload server) goes, and both hosts get their originals
	 * back.  NULL: measure leaves nothing.
	 */
	void	(*end)(void *arg, const struct hunt_lab *);
	/*
	 * The revision host runs now, into rev: asked of both hosts before
	 * a new bisect's first step, so that its end puts them back there.
	 * 0, or -1 with err (the hosts then stay where the bisect left
	 * them).  NULL: the lab cannot tell.
	 */
	int	(*running)(void *arg, const struct hunt_lab *,
		    const struct config_host *host, char *rev, size_t revlen,
		    char *err, size_t errlen);
};

/* The default ops: one executor for the whole bisect, drained once per
 * batch (the link kept as it is from one batch of a step to the next,
 * restored at the step's end); kernel_install_on() on both hosts in
 * parallel, on that executor's sessions (lab_arg is the driver's own
 * then). */
extern const struct hunt_lab_ops hunt_lab_real;

/* ---- hunting ------------------------------------------------------------ */

struct hunt_opts {
	const char		*db_path;
	volatile sig_atomic_t	*stop;		/* may be NULL */
	void			(*event)(const struct hunt_event *, void *);
	void			*event_arg;	/* event may be NULL */
	const struct hunt_lab_ops *lab;		/* NULL = hunt_lab_real */
	void			*lab_arg;
	/* At the end, leave the hosts on the culprit (installed if the last
	 * step tested another revision), or where the bisect left them,
	 * instead of putting them back on what they ran before it. */
	int			 leave_on_culprit;
	/* hunt_resume(): take the bisect over even when its owner is on
	 * another host (run_owner_check()). */
	int			 force;
};

/* A new bisect.  revisions: "git:PATH[:SUB,...]", a file of "ID message"
 * lines or a lab history (NULL = the inventory's "revisions"; neither is
 * a HUNT_CONFIG error);
 * replay: a `bisect log` whose steps are recorded first (may be NULL). */
struct hunt_request {
	const char	*inventory;
	const char	*link;
	const char	*good;
	const char	*bad;
	const char	*test;
	const char	*revisions;
	const char	*replay;
	int		 leave_on_culprit;	/* or'ed into the opts' */
	const char	*note;		/* hunt_enqueue(): kept in the queue
					 * item's payload; NULL = none */
};

/*
 * Validates and stores a new bisect (*bisect_id, 0 when none was stored),
 * records the replayed steps, and drives it to its end as hunt_resume().
 */
enum hunt_status hunt_start(const struct hunt_opts *,
		    const struct hunt_request *, int64_t *bisect_id,
		    char *err, size_t errlen);

/*
 * `labrat bisect start --enqueue`: checks rq as hunt_start() does, then
 * queues it (STORE_Q_BISECT, STORE_PRIO_INTERACTIVE, paths absolute) for
 * the daemon serving db_path, refused when none lives (store_q_submit()).
 * *item gets the queue item.  0, -1 with err, -2 config errors in err.
 */
int	hunt_enqueue(const char *db_path, const struct hunt_request *,
	    int64_t *item, char *err, size_t errlen);

/* A bisect item's payload as hunt_enqueue() writes it (hunt_queue.c);
 * strings heap (NULL when absent), freed by hunt_payload_free(). */
struct hunt_payload {
	char	*inventory, *link, *good, *bad, *test, *revisions;
	int	 leave_on_culprit;
};
/* 0, or -1 with err (not a JSON object). */
int	hunt_payload_decode(const char *text, struct hunt_payload *,
	    char *err, size_t errlen);
void	hunt_payload_free(struct hunt_payload *);

/*
 * Continues bisect id (0 = the newest running one, *bisect_id gets which)
 * from its stored steps; a step a kill cut short is measured again from
 * the start, finished steps never are.
 */
enum hunt_status hunt_resume(const struct hunt_opts *, int64_t id,
		    int64_t *bisect_id, char *err, size_t errlen);

/*
 * Marks bisect id (0 = the newest) "reset".  *bisect_id gets its id and was
 * its state before.  A running one's hosts are first put back on the
 * revision they ran before it (stored at its start; the inventory is the
 * text stored then, the lab o->lab as for a hunt); done says what became
 * of them ("em-a, em-b back on r200399", or why they stay; "" for a bisect
 * that was not running).  1 done, 0 no such bisect, -1 with err.
 */
int	hunt_reset(const struct hunt_opts *, int64_t id, int64_t *bisect_id,
	    char *was, size_t waslen, char *done, size_t donelen, char *err,
	    size_t errlen);

/* ---- reading a bisect back (status, log, result) ----------------------- */

/*
 * A stored bisect and the machine its steps rebuild, read only: no
 * inventory needed, and a test file that is gone is replaced by one with
 * the stored metric (test_missing).  Every pointer is owned by the view
 * (hunt_view_free()); st stays open for further reads.
 */
struct hunt_view {
	struct store			*st;
	struct store_bisect		 row;	/* state "interrupted" for a
						   running one its stop flag
						   stopped */
	struct config_bisect_test	*test;
	struct bisect			*m;
	char				**ids, **msgs;	/* the revisions */
	size_t				 n;
	struct store_bisect_step	*steps;		/* stored, in order */
	size_t				 nsteps;
	int				 test_missing;
};

/* 0, or -1 with err (no such bisect, store error, a test that does not
 * load, steps that do not replay). */
int	hunt_view_open(struct hunt_view *, const char *db_path, int64_t id,
	    char *err, size_t errlen);
void	hunt_view_free(struct hunt_view *);

/* What hunt_show() writes. */
enum hunt_show {
	HUNT_SHOW_RESULT = 0,	/* head, result, evidence */
	HUNT_SHOW_STATUS = 1,	/* the same, for a bisect still running */
	HUNT_SHOW_LOG = 2	/* the `bisect log` format (text only: with
				   json, the status object) */
};

/*
 * Writes bisect id of the store at db_path to fp (hunt_fmt.c), as text or
 * one JSON object.  0; -1 with err when nothing was written (no such
 * bisect, store error, hunt_view_open()); 1 with err when the JSON writer
 * failed after writing began.
 */
int	hunt_show(const char *db_path, int64_t id, enum hunt_show, int json,
	    FILE *fp, char *err, size_t errlen);

#endif
