/*
 * hunt_int.h: internal to hunt*.c -- a stored bisect loaded with its
 * inventory, test, plan, revisions and job specs (struct hunt_sess), the
 * step (hunt_step.c) and the revision sources (hunt_revs.c).
 */
#ifndef LABRAT_HUNT_INT_H
#define LABRAT_HUNT_INT_H

#include <limits.h>

#include "hunt.h"

#define HUNT_SIDE_REF		0
#define HUNT_SIDE_CAND		1
#define HUNT_TEXT_MAX		(64 * 1024 * 1024)
/* An endpoint still inconclusive at max_samples gets up to this many
 * times as many samples: two steps, and a wasted bisect costs more. */
#define HUNT_ENDPOINT_FACTOR	4
/* The stored reason of a bisect stopped by its stop flag (still
 * "running" in the store, shown "interrupted"). */
#define HUNT_REASON_STOPPED	"interrupted by a signal"

struct hunt_sess {
	struct hunt_view	 v;	/* the stored bisect, machine, steps */
	const char		*db;
	struct config_inventory	*inv;
	struct config_plan	*plan;
	char			*plan_text;
	const struct config_link *link;
	struct bisect_test	 bt;
	struct store_job_spec	 spec[2];
	char			 params[2][STORE_PARAMS_MAX];
	char			 key[2][STORE_KEY_MAX];
	int			 have_spec[2];
	double			*base;	/* GOOD's samples */
	size_t			 nbase;
	char			 owner[128];
	int			 reps;	/* repetitions so far */
	const struct hunt_opts	*opts;
	const struct hunt_lab_ops *ops;
	struct hunt_lab		 lab;
	void			*lab_arg;	/* passed to ops */
	volatile sig_atomic_t	*stop;	/* never NULL while driving */
	/* What both hosts ran before a new bisect ("" unknown), and what
	 * they run now as far as this session put it there. */
	char			 before[128];
	char			 installed[128];
	/* Why the last endpoint check was a skip ("" if it was not). */
	char			 endpoint_why[512];
};

/* hunt.c: a progress line (printf-style) through o->event. */
void	hunt_emit(const struct hunt_opts *o, int64_t bisect_id,
	    enum hunt_event_kind, const char *rev, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));

/*
 * hunt_step.c: one step of revision req->id -- a run, install, measure,
 * verdict into row (row->run_id and the verdict fields).  0, or -1 with
 * err (the run is finished failed or cancelled then).
 */
int	hunt_step(struct hunt_sess *, const struct bisect_request *req,
	    struct store_bisect_step *row, enum bisect_outcome *out,
	    double *strength, char *err, size_t errlen);
/* Puts rev on both hosts of the link: 0 installed, 1 skip (reason), -1
 * error (err); progress through HUNT_EV_INSTALLED. */
int	hunt_install(struct hunt_sess *, const char *rev, char *reason,
	    size_t rlen, char *err, size_t errlen);
/* Loads GOOD's samples of a baseline bisect from its check step's run
 * (s->v.steps). */
int	hunt_load_base(struct hunt_sess *, char *err, size_t errlen);

/* hunt_back.c: before a new bisect's first step, asks both hosts what
 * they run and stores it; on resume, takes what the start stored.  Sets
 * s->before ("" when unknown or the hosts differ: said through
 * o->event). */
void	hunt_before(struct hunt_sess *);
/* At the end (found, range, failed): the hosts back on s->before, or on
 * the culprit with leave_on_culprit.  A failure is said, not fatal. */
void	hunt_put_back(struct hunt_sess *, const struct bisect_result *);
/* A reset of a running bisect: the hosts back on the stored revision;
 * done says what was done ("em-a, em-b back on r200399", or why they
 * stay).  0, or -1 when the install failed (done says so). */
int	hunt_reset_back(struct hunt_sess *, char *done, size_t donelen);

/* hunt_lab.c: the state of hunt_lab_real's ops for one bisect (their
 * arg): the executor whose sessions every step uses.  Heap, released
 * with hunt_lab_real_free() (NULL is fine), which closes the sessions. */
void	*hunt_lab_real_new(void);
void	 hunt_lab_real_free(void *);

/* hunt.c: every collected config error into err, one per line; frees errs. */
void	hunt_errs(struct config_errors *, char *err, size_t errlen);

/* ---- hunt_revs.c ---------------------------------------------------- */

/* A revision list: ids and msgs NULL-terminated, heap (hunt_revs_free()). */
struct hunt_revs {
	char	**ids, **msgs;
	size_t	  n, cap;
};

/*
 * Loads src ("git:PATH[:SUB,...]", a list, a lab history; never NULL:
 * the caller picks --revisions or the inventory's "revisions").  For
 * git, *good and *bad (heap) are replaced by the full hashes.  0, or -1
 * with err.
 */
int	hunt_revs_load(struct hunt_revs *, const char *src, char **good,
	    char **bad, char *err, size_t errlen);
void	hunt_revs_free(struct hunt_revs *);
/* GOOD..BAD as the store keeps it: "id\tmessage" lines; heap string. */
char	*hunt_revs_text(const struct hunt_revs *, size_t good, size_t bad);
/* The store's "id\tmessage" lines back into r. */
void	hunt_revs_parse_stored(struct hunt_revs *, const char *text);
/* Index of GOOD and BAD in r; 0 or -1 with err. */
int	hunt_revs_endpoints(const struct hunt_revs *, const char *good,
	    const char *bad, long *gi, long *bi, char *err, size_t errlen);
/* The candidate side's knobs of a test, as the store keys them. */
void	hunt_test_knobs_key(const struct config_bisect_test *, char *knobs,
	    size_t len);
/*
 * Records the steps of a `bisect log` file for bisect id (not measured
 * again: resume replays them through the machine, which refuses a step
 * that does not apply).  *nsteps gets how many.  0, or -1 with err.
 */
int	hunt_replay_log(struct store *, int64_t id, const char *path,
	    int *nsteps, char *err, size_t errlen);

/* ---- hunt_queue.c: a new bisect checked (start or enqueue) ------------ */

/* What hunt_new_check() validated; heap parts freed by hunt_new_free(). */
struct hunt_new {
	struct config_inventory		*inv;
	struct config_bisect_test	*t;
	struct config_plan		*plan;
	struct bisect			*m;
	struct hunt_revs		 r;
	char				*good, *bad;	/* full ids (git) */
	long				 gi, bi;	/* their index in r */
	char				 ipath[PATH_MAX], tpath[PATH_MAX];
};
/* Checks rq's inventory, test, link and revisions as hunt_start() does:
 * 0, or -2 with err (config errors one per line).  Free n either way. */
int	hunt_new_check(const struct hunt_request *, struct hunt_new *n,
	    char *err, size_t errlen);
void	hunt_new_free(struct hunt_new *);

#endif
