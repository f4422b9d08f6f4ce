/*
 * hunt: a bisect's session -- creating it, loading it back with its
 * inventory, test, plan and job specs, rebuilding the machine from the
 * stored steps -- and the loop that drives it to its end (the step itself
 * is hunt_step.c, the revision sources hunt_revs.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"
#include "config.h"
#include "executor.h"
#include "hunt_int.h"
#include "log.h"
#include "matrix.h"
#include "run.h"
#include "store.h"
#include "util.h"

const char *
hunt_status_name(enum hunt_status st)
{
	switch (st) {
	case HUNT_FOUND:	return "found";
	case HUNT_RANGE:	return "range";
	case HUNT_FAILED:	return "failed";
	case HUNT_INTERRUPTED:	return "interrupted";
	case HUNT_CONFIG:	return "config error";
	case HUNT_ERROR:	return "error";
	case HUNT_ENDED:	return "ended";
	}
	return "?";
}

void
hunt_emit(const struct hunt_opts *o, int64_t id, enum hunt_event_kind kind,
    const char *rev, const char *fmt, ...)
{
	struct hunt_event	ev;
	va_list			ap;
	char			text[2048];

	if (o == NULL || o->event == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	ev.kind = kind;
	ev.bisect_id = id;
	ev.revision = rev;
	ev.text = text;
	o->event(&ev, o->event_arg);
}

/* Every collected config error into err, one per line; frees errs. */
void
hunt_errs(struct config_errors *errs, char *err, size_t errlen)
{
	size_t	i, len = 0;

	if (errlen > 0)
		err[0] = '\0';
	for (i = 0; i < errs->n && len + 1 < errlen; i++) {
		snprintf(err + len, errlen - len, "%s%s", i > 0 ? "\n" : "",
		    errs->msgs[i]);
		len += strlen(err + len);
	}
	config_errors_free(errs);
}

void
hunt_view_free(struct hunt_view *v)
{
	bisect_free(v->m);
	config_bisect_test_free(v->test);
	config_argv_free(v->ids);
	config_argv_free(v->msgs);
	free(v->steps);
	store_bisect_free(&v->row);
	store_close(v->st);
	memset(v, 0, sizeof *v);
}

static void
sess_free(struct hunt_sess *s)
{
	if (s->ops == &hunt_lab_real)
		hunt_lab_real_free(s->lab_arg);
	hunt_view_free(&s->v);
	config_plan_free(s->plan);
	config_inventory_free(s->inv);
	free(s->plan_text);
	free(s->base);
	memset(s, 0, sizeof *s);
}

/* The job specs of the reference and the candidate side. */
static int
sess_specs(struct hunt_sess *s, char *err, size_t errlen)
{
	const struct config_bisect_test	*t = s->v.test;
	struct matrix_job		*jobs = NULL;
	size_t				 nj = 0, i;
	int				 side;

	if (matrix_expand(s->plan, s->inv, &jobs, &nj, err, errlen) == -1)
		return -1;
	for (i = 0; i < nj && i < 2; i++) {
		side = HUNT_SIDE_CAND;
		if (t->compare == CONFIG_BISECT_AB &&
		    jobs[i].knobs.value[t->ab_knob] == t->ab_reference)
			side = HUNT_SIDE_REF;
		executor_job_spec(&jobs[i], s->params[side],
		    sizeof s->params[side], &s->spec[side]);
		s->spec[side].link = s->v.row.link;
		knobs_key(&s->spec[side].knobs, s->key[side],
		    sizeof s->key[side]);
		s->have_spec[side] = 1;
	}
	free(jobs);
	if (!s->have_spec[HUNT_SIDE_CAND] || (t->compare == CONFIG_BISECT_AB &&
	    !s->have_spec[HUNT_SIDE_REF])) {
		util_seterr(err, errlen, "the test expands to %zu jobs per "
		    "repetition, want %d", nj, t->compare == CONFIG_BISECT_AB ?
		    2 : 1);
		return -1;
	}
	return 0;
}

/*
 * The inventory a bisect was started with: the text it stored (a bisect
 * started before schema 4 has none: its file, read now).
 */
static struct config_inventory *
sess_inventory(const struct store_bisect *row, struct config_errors *errs)
{
	if (row->inventory_text != NULL)
		return config_inventory_parse(row->inventory_path,
		    row->inventory_text, strlen(row->inventory_text), errs);
	return config_inventory_load(row->inventory_path, errs);
}

int
hunt_test_judging(struct config_bisect_test *t, char *err, size_t errlen)
{
	int	lower;

	if (stats_metric_direction(t->metric, t->lower_is_better, &lower,
	    NULL, 0) == -1) {
		util_seterr(err, errlen, "metric: \"%s\" has no known direction "
		    "(not a metric labrat stores): set \"lower_is_better\"",
		    t->metric);
		return -1;
	}
	t->lower_is_better = lower;
	if (!t->threshold_set)
		t->threshold = lower ? 1.1 : 0.9;
	return 0;
}

/* The judging parameters of the test. */
static void
sess_bisect_test(struct hunt_sess *s)
{
	const struct config_bisect_test	*t = s->v.test;

	bisect_test_default(&s->bt, t->threshold);
	s->bt.fixed_reference = t->compare == CONFIG_BISECT_BASELINE;
	s->bt.remeasures = t->remeasures;
	s->bt.stats.alpha = t->alpha;
	s->bt.stats.min_samples = (size_t)t->min_samples;
	s->bt.stats.max_samples = (size_t)t->max_samples;
	s->bt.stats.collapse = t->collapse_factor;
	s->bt.stats.collapse_min_samples = (size_t)t->collapse_min_samples;
	s->bt.stats.lower_is_better = t->lower_is_better;
	s->bt.stats.seed = (uint64_t)s->v.row.id;
}

/*
 * Loads everything a stored bisect needs (readonly: no inventory, for
 * showing it).  0, -1 (failure), -2 (config); err either way.
 */
static int
sess_open(struct hunt_sess *s, const char *db, int64_t id, int readonly,
    char *err, size_t errlen)
{
	struct config_errors	errs;
	struct hunt_revs	r;
	char			e[1024];
	int			rc;

	memset(s, 0, sizeof *s);
	s->db = db;
	if (store_open(db, readonly ? STORE_OPEN_READONLY : STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &s->v.st, err, errlen) == -1)
		return -1;
	if ((rc = store_bisect_get(s->v.st, id, &s->v.row, e,
	    sizeof e)) != 1) {
		util_seterr(err, errlen, "bisect %lld: %s", (long long)id,
		    rc == 0 ? "no such bisect" : e);
		return -1;
	}
	hunt_revs_parse_stored(&r, s->v.row.revisions);
	s->v.ids = r.ids;
	s->v.msgs = r.msgs;
	s->v.n = r.n;
	config_errors_init(&errs);
	/* The test as validated at the start (its text is stored).  An
	 * older bisect has only the path: showing it needs no inventory
	 * (the lab may be gone), nor its test file (the steps hold the
	 * evidence). */
	if (s->v.row.test_text != NULL)
		s->v.test = config_bisect_test_parse(s->v.row.plan_path,
		    s->v.row.test_text, strlen(s->v.row.test_text), &errs);
	else if (readonly && (s->v.row.plan_path == NULL ||
	    access(s->v.row.plan_path, R_OK) == -1)) {
		s->v.test = config_bisect_test_stand_in(s->v.row.plan_path !=
		    NULL ? s->v.row.plan_path : "(no test stored)",
		    s->v.row.metric, &errs);
		s->v.test_missing = 1;
	} else if (s->v.row.plan_path == NULL) {
		util_seterr(err, errlen, "bisect %lld stores neither its test "
		    "nor the path of its test file", (long long)id);
		config_errors_free(&errs);
		return -2;
	}
	if ((!readonly && (s->inv = sess_inventory(&s->v.row, &errs)) ==
	    NULL) || (s->v.test == NULL && errs.n == 0 &&
	    (s->v.test = config_bisect_test_load(s->v.row.plan_path,
	    &errs)) == NULL) || s->v.test == NULL ||
	    (s->plan = config_bisect_plan(s->v.test,
	    s->v.row.link, s->inv, &errs)) == NULL) {
		hunt_errs(&errs, err, errlen);
		return -2;
	}
	config_errors_free(&errs);
	if (hunt_test_judging(s->v.test, e, sizeof e) == -1) {
		/* A stand-in only shows the steps: say ">=" as before. */
		if (!s->v.test_missing) {
			util_seterr(err, errlen, "bisect %lld: %s",
			    (long long)s->v.row.id, e);
			return -2;
		}
		s->v.test->lower_is_better = 0;
	}
	s->plan_text = config_plan_json(s->plan);
	s->link = readonly ? NULL : config_inventory_link(s->inv,
	    s->v.row.link);
	sess_bisect_test(s);
	if ((!readonly && s->link == NULL) || bisect_test_check(&s->bt, e,
	    sizeof e) == -1 || sess_specs(s, e, sizeof e) == -1) {
		util_seterr(err, errlen, "bisect %lld: %s",
		    (long long)s->v.row.id, !readonly && s->link == NULL ?
		    "link not in the inventory" : e);
		return -2;
	}
	return 0;
}

/* Index of revision id in the session's list, or -1. */
static long
sess_index(const struct hunt_sess *s, const char *id)
{
	size_t	r;

	for (r = 0; r < s->v.n; r++)
		if (strcmp(s->v.ids[r], id) == 0)
			return (long)r;
	return -1;
}

/*
 * Reads the stored steps into s->v.steps and rebuilds the machine from
 * those with a verdict; *pending: an unfinished row (verdict "") or -1.
 */
static int
sess_replay(struct hunt_sess *s, long *pending, char *err, size_t errlen)
{
	struct store_bisect_step	*rows;
	struct bisect_step		*steps;
	size_t				 nrows = 0, ns = 0, i;
	long				 good, bad, r;
	enum bisect_outcome		 o;

	*pending = -1;
	if (store_bisect_steps(s->v.st, s->v.row.id, &s->v.steps,
	    &s->v.nsteps, err, errlen) == -1)
		return -1;
	rows = s->v.steps;
	nrows = s->v.nsteps;
	steps = xcalloc(nrows + 1, sizeof *steps);
	for (i = 0; i < nrows; i++) {
		if (bisect_outcome_parse(rows[i].verdict, &o) == -1) {
			*pending = (long)i;
			continue;
		}
		steps[ns].outcome = o;
		steps[ns].strength = o == BISECT_SKIP ? -1.0 :
		    1.0 - rows[i].p / 2.0;
		r = sess_index(s, rows[i].revision);
		steps[ns].rev = r < 0 ? 0 : (size_t)r;
		ns++;
	}
	good = sess_index(s, s->v.row.good);
	bad = sess_index(s, s->v.row.bad);
	s->v.m = good < 0 || bad < 0 ? NULL : bisect_replay(
	    (const char *const *)s->v.ids, s->v.n, (size_t)good, (size_t)bad,
	    steps, ns, err, errlen);
	free(steps);
	if (good < 0 || bad < 0)
		util_seterr(err, errlen, "GOOD or BAD not in the revisions");
	return s->v.m == NULL ? -1 : 0;
}

int
hunt_view_open(struct hunt_view *v, const char *db, int64_t id, char *err,
    size_t errlen)
{
	struct hunt_sess	s;
	long			pending;
	char			e[1024];

	memset(v, 0, sizeof *v);
	if (sess_open(&s, db, id, 1, err, errlen) != 0) {
		sess_free(&s);
		return -1;
	}
	if (sess_replay(&s, &pending, e, sizeof e) == -1) {
		util_seterr(err, errlen, "bisect %lld: %s", (long long)s.v.row.id, e);
		sess_free(&s);
		return -1;
	}
	/* A failed bisect's reason is the stored one: the driver's account
	 * of an endpoint skip, which the machine alone cannot give. */
	if (strcmp(s.v.row.state, "failed") == 0 && s.v.row.reason != NULL)
		bisect_explain(s.v.m, s.v.row.reason);
	/* A running bisect its driver left on a stop, or whose driver is
	 * gone (killed), is interrupted. */
	if (strcmp(s.v.row.state, "running") == 0 && ((s.v.row.reason !=
	    NULL && strcmp(s.v.row.reason, HUNT_REASON_STOPPED) == 0) ||
	    store_owner_state(&s.v.row.who) == STORE_OWNER_GONE))
		snprintf(s.v.row.state, sizeof s.v.row.state, "interrupted");
	*v = s.v;
	memset(&s.v, 0, sizeof s.v);
	sess_free(&s);
	return 0;
}

/* The step row for req: the one a kill cut short, or a new one. */
static int
drive_row(struct hunt_sess *s, const struct bisect_request *req,
    long *pending, struct store_bisect_step *row, char *err, size_t errlen)
{
	int64_t	sid;
	char	e[512];

	memset(row, 0, sizeof *row);
	if (*pending >= 0 && strcmp(s->v.steps[*pending].revision,
	    req->id) == 0) {
		*row = s->v.steps[*pending];
		if (row->run_id > 0)
			store_run_finish(s->v.st, row->run_id,
			    STORE_RUN_CANCELLED, "controller died", e,
			    sizeof e);
		row->run_id = 0;
		*pending = -1;
		return 0;
	}
	snprintf(row->revision, sizeof row->revision, "%s", req->id);
	if (store_bisect_step_add(s->v.st, s->v.row.id, row, &sid, err,
	    errlen) == -1)
		return -1;
	row->id = sid;
	row->bisect_id = s->v.row.id;
	return 0;
}

/* Drives the machine to its end: 0 with *res, or -1 with err. */
static int
drive(struct hunt_sess *s, struct bisect_result *res, char *err,
    size_t errlen)
{
	struct store_bisect_step	row;
	struct bisect_request		req;
	enum bisect_outcome		o;
	double				strength;
	long				pending;

	if (sess_replay(s, &pending, err, errlen) == -1 ||
	    hunt_load_base(s, err, errlen) == -1)
		return -1;
	hunt_before(s);
	/* Driven again: no longer interrupted. */
	if (((s->v.row.reason != NULL && s->v.row.reason[0] != '\0') ||
	    strcmp(s->v.row.state, "interrupted") == 0) &&
	    store_bisect_update(s->v.st, s->v.row.id, "running", NULL, 0, "",
	    err, errlen) == -1)
		return -1;
	while (bisect_next(s->v.m, &req)) {
		if (*s->stop) {
			util_seterr(err, errlen, "interrupted");
			return -1;
		}
		if (drive_row(s, &req, &pending, &row, err, errlen) == -1)
			return -1;
		hunt_emit(s->opts, s->v.row.id, HUNT_EV_TESTING, req.id,
		    "bisect %lld: testing %s (%s)", (long long)s->v.row.id,
		    req.id, bisect_why_name(req.why));
		if (hunt_step(s, &req, &row, &o, &strength, err,
		    errlen) == -1 || store_bisect_step_update(s->v.st, &row,
		    err, errlen) == -1 || bisect_record(s->v.m, req.rev, o,
		    strength, err, errlen) == -1)
			return -1;
	}
	/* An endpoint skip: say what happened there, not what might have. */
	bisect_explain(s->v.m, s->endpoint_why);
	bisect_result(s->v.m, res);
	if (store_bisect_update(s->v.st, s->v.row.id,
	    res->status == BISECT_FAILED ? "failed" : "done",
	    res->status == BISECT_FOUND ? bisect_id(s->v.m, res->culprit) :
	    NULL, res->confidence, res->reason, err, errlen) == -1)
		return -1;
	hunt_put_back(s, res);
	return 0;
}

/* A bisect in this state has more to do. */
static int
resumable(const char *state)
{
	return strcmp(state, "running") == 0 ||
	    strcmp(state, "interrupted") == 0;
}

/* The newest running bisect of db into *id; 0 or -1 with err. */
static int
newest_running(const char *db, int64_t *id, char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct store_bisect	*list = NULL;
	size_t			 n = 0, i;

	*id = 0;
	if (store_open(db, STORE_OPEN_READONLY, &st, err, errlen) == -1 ||
	    store_bisect_list(st, &list, &n, err, errlen) == -1) {
		store_close(st);
		return -1;
	}
	for (i = 0; i < n && *id == 0; i++)
		if (resumable(list[i].state))
			*id = list[i].id;
	store_bisects_free(list, n);
	store_close(st);
	if (*id == 0) {
		util_seterr(err, errlen, "%s: no running bisect to resume", db);
		return -1;
	}
	return 0;
}

static void
sess_lab(struct hunt_sess *s, const struct hunt_opts *o,
    volatile sig_atomic_t *nostop)
{
	char	host[64];

	s->opts = o;
	s->ops = o->lab != NULL ? o->lab : &hunt_lab_real;
	s->lab_arg = s->ops == &hunt_lab_real ? hunt_lab_real_new() :
	    o->lab_arg;
	s->stop = o->stop != NULL ? o->stop : nostop;
	if (gethostname(host, sizeof host) == -1)
		snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	snprintf(s->owner, sizeof s->owner, "%s:%ld:bisect", host,
	    (long)getpid());
	s->lab.inv = s->inv;
	s->lab.plan = s->plan;
	s->lab.link = s->link;
	s->lab.test = s->v.test;
	s->lab.db_path = s->db;
	s->lab.owner = s->owner;
	s->lab.stop = s->stop;
}

/*
 * Before a resume drives it: a running bisect whose owner still lives is
 * refused (naming it), then this process owns it.  0 or -1 with err.
 */
static int
take_over(struct hunt_sess *s, const struct hunt_opts *o, char *err,
    size_t errlen)
{
	struct store_owner	me;
	char			what[48];

	snprintf(what, sizeof what, "bisect %lld", (long long)s->v.row.id);
	if (strcmp(s->v.row.state, "running") == 0 &&
	    run_owner_check(&s->v.row.who, what, o->force, err, errlen) == -1)
		return -1;
	store_owner_self(&me);
	return store_bisect_set_owner(s->v.st, s->v.row.id, &me, err, errlen);
}

/*
 * A lab or store error stopped the drive (err): the bisect is stored
 * interrupted with it, if the store takes that write (if not, it reads as
 * interrupted once this process is gone), and err says what to do.
 */
static void
interrupted(struct hunt_sess *s, char *err, size_t errlen)
{
	const char	*advice = store_fault_advice(store_last_fault(s->v.st));
	char		 why[STORE_REASON_MAX], e[512];

	snprintf(why, sizeof why, "%s", err);
	if (store_bisect_update(s->v.st, s->v.row.id, "interrupted", NULL, 0,
	    why, e, sizeof e) == -1) {
		log_warnx("bisect %lld: cannot mark it interrupted (it reads "
		    "as interrupted once this process is gone): %s",
		    (long long)s->v.row.id, e);
		if (advice == NULL)
			advice = store_fault_advice(store_last_fault(s->v.st));
	}
	if (advice != NULL)
		util_seterr(err, errlen, "%s; %s", why, advice);
}

enum hunt_status
hunt_resume(const struct hunt_opts *o, int64_t id, int64_t *idp, char *err,
    size_t errlen)
{
	struct hunt_sess	s;
	struct bisect_result	res;
	volatile sig_atomic_t	nostop = 0;
	enum hunt_status	st;
	char			e[512];
	int			rc;

	if (idp != NULL)
		*idp = id;
	if (id == 0 && newest_running(o->db_path, &id, err, errlen) == -1)
		return HUNT_ERROR;
	if (idp != NULL)
		*idp = id;
	if ((rc = sess_open(&s, o->db_path, id, 0, err, errlen)) != 0) {
		sess_free(&s);
		return rc == -2 ? HUNT_CONFIG : HUNT_ERROR;
	}
	if (!resumable(s.v.row.state)) {
		sess_free(&s);
		return HUNT_ENDED;
	}
	if (take_over(&s, o, err, errlen) == -1) {
		sess_free(&s);
		return HUNT_ERROR;
	}
	sess_lab(&s, o, &nostop);
	if (drive(&s, &res, err, errlen) == -1) {
		st = HUNT_INTERRUPTED;
		/* Stopped on purpose: said so in status and log (a store
		 * that fails here leaves it "running", as a kill does). */
		if (*s.stop)
			store_bisect_update(s.v.st, s.v.row.id, "running",
			    NULL, 0, HUNT_REASON_STOPPED, e, sizeof e);
		else
			interrupted(&s, err, errlen);
	} else
		st = res.status == BISECT_FOUND ? HUNT_FOUND :
		    res.status == BISECT_RANGE ? HUNT_RANGE : HUNT_FAILED;
	sess_free(&s);
	return st;
}

/* Stores the validated bisect; 0 or -1 with err. */
static int
create_store(const struct hunt_opts *o, const struct hunt_request *rq,
    const char *inv_text, const struct config_bisect_test *t,
    const struct hunt_revs *r, long gi, long bi, const char *ipath,
    const char *tpath, int64_t *id, char *err, size_t errlen)
{
	struct store_bisect_spec	 sp;
	struct store			*st = NULL;
	char				*text, *wl, knobs[STORE_KEY_MAX];
	int				 rc = -1;

	text = hunt_revs_text(r, (size_t)gi, (size_t)bi);
	hunt_test_knobs_key(t, knobs, sizeof knobs);
	memset(&sp, 0, sizeof sp);
	sp.link = rq->link;
	sp.knobs = knobs;
	wl = config_workload_json(&t->workload);
	sp.tool = config_tool_name(t->workload.tool);
	sp.params = strlen(wl) < STORE_PARAMS_MAX ? wl : "";
	sp.metric = t->metric;
	sp.good = r->ids[gi];
	sp.bad = r->ids[bi];
	sp.revisions = text;
	sp.inventory_path = ipath;
	sp.plan_path = tpath;
	/* The texts validated here are what every resume parses. */
	sp.inventory_text = inv_text;
	sp.test_text = t->text;
	/* hunt_new_check() settled t (hunt_test_judging()). */
	sp.judged = 1;
	sp.threshold = t->threshold;
	sp.lower_is_better = t->lower_is_better;
	if (store_open(o->db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE,
	    &st, err, errlen) == 0 && store_bisect_create(st, &sp, id, err,
	    errlen) == 0)
		rc = 0;
	store_close(st);
	free(text);
	free(wl);
	return rc;
}

/* Validates and stores a new bisect; 0, -1 (fail), -2 (config). */
static int
create(const struct hunt_opts *o, const struct hunt_request *rq, int64_t *id,
    char *err, size_t errlen)
{
	struct hunt_new	n;
	int		rc;

	if ((rc = hunt_new_check(rq, &n, err, errlen)) == 0 &&
	    (rc = create_store(o, rq, n.inv->text, n.t, &n.r, n.gi, n.bi,
	    n.ipath, n.tpath, id, err, errlen)) == 0)
		hunt_emit(o, *id, HUNT_EV_STARTED, NULL, "bisect %lld started: "
		    "%ld revisions %s..%s on link %s (db %s)", (long long)*id,
		    n.bi - n.gi + 1, n.good, n.bad, rq->link, o->db_path);
	hunt_new_free(&n);
	return rc;
}

enum hunt_status
hunt_start(const struct hunt_opts *o0, const struct hunt_request *rq,
    int64_t *idp, char *err, size_t errlen)
{
	struct hunt_opts	 oo = *o0, *o = &oo;
	struct store		*st = NULL;
	char			 e[1024];
	int64_t			 id = 0;
	int			 rc, nsteps = 0;

	oo.leave_on_culprit |= rq->leave_on_culprit;

	*idp = 0;
	if ((rc = create(o, rq, &id, err, errlen)) != 0)
		return rc == -2 ? HUNT_CONFIG : HUNT_ERROR;
	*idp = id;
	if (rq->replay != NULL) {
		if (store_open(o->db_path, STORE_OPEN_MIGRATE, &st, e,
		    sizeof e) == -1) {
			util_seterr(err, errlen, "replay %s: %s", rq->replay,
			    e);
			return HUNT_ERROR;
		}
		rc = hunt_replay_log(st, id, rq->replay, &nsteps, err, errlen);
		store_close(st);
		if (rc == -1)
			return HUNT_ERROR;
		hunt_emit(o, id, HUNT_EV_REPLAYED, NULL, "bisect %lld: %d "
		    "steps replayed from %s", (long long)id, nsteps,
		    rq->replay);
	}
	return hunt_resume(o, id, NULL, err, errlen);
}

/* A running bisect's hosts back where they were (done says what). */
static void
reset_back(const struct hunt_opts *o, int64_t id, char *done,
    size_t donelen)
{
	struct hunt_sess	s;
	volatile sig_atomic_t	nostop = 0;
	char			e[1024];

	if (sess_open(&s, o->db_path, id, 0, e, sizeof e) != 0)
		snprintf(done, donelen, "hosts not put back: %s", e);
	else {
		sess_lab(&s, o, &nostop);
		hunt_reset_back(&s, done, donelen);
	}
	sess_free(&s);
}

int
hunt_reset(const struct hunt_opts *o, int64_t id, int64_t *idp, char *was,
    size_t waslen, char *done, size_t donelen, char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct store_bisect	 b;
	int			 r;

	memset(&b, 0, sizeof b);
	*idp = 0;
	if (waslen > 0)
		was[0] = '\0';
	if (donelen > 0)
		done[0] = '\0';
	if (store_open(o->db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE,
	    &st, err, errlen) == -1 || (r = store_bisect_get(st, id, &b, err,
	    errlen)) == -1)
		r = -1;
	else if (r == 1 && resumable(b.state))
		reset_back(o, b.id, done, donelen);
	if (r == 1 && store_bisect_update(st, b.id, "reset", NULL, 0,
	    "reset by the user", err, errlen) == -1)
		r = -1;
	else if (r == 1) {
		*idp = b.id;
		snprintf(was, waslen, "%s", b.state);
	}
	store_bisect_free(&b);
	store_close(st);
	return r;
}
