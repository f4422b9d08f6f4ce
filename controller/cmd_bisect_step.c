/*
 * cmd_bisect_step: drives a stored bisect to its end.  The machine
 * (bisect.h) is rebuilt from the stored steps, so a controller killed at
 * any moment continues with `bisect resume` without repeating a finished
 * step.  Each step: a run of kind "bisect" is created, the revision goes on
 * both hosts of the link (kernel.h), then jobs are added in the batches the
 * adaptive sampling asks for and measured by the executor; the verdict is
 * written to the step row before the machine records it.
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CMD_BISECT_INTERNAL
#include "bisect.h"
#include "cmd.h"
#include "config.h"
#include "executor.h"
#include "kernel.h"
#include "log.h"
#include "matrix.h"
#include "stats.h"
#include "store.h"
#include "util.h"


static volatile sig_atomic_t	bs_stop;

static void
bs_on_signal(int sig)
{
	(void)sig;
	bs_stop = 1;
}

void
bisect_sess_free(struct bisect_sess *s)
{
	bisect_free(s->m);
	config_plan_free(s->plan);
	config_bisect_test_free(s->test);
	config_inventory_free(s->inv);
	free(s->plan_text);
	config_argv_free(s->ids);
	config_argv_free(s->msgs);
	free(s->base);
	store_bisect_free(&s->row);
	store_close(s->st);
}

/* "id\tmessage" lines of the stored bisect -> ids, msgs. */
static void
bs_revisions(struct bisect_sess *s)
{
	const char	*p = s->row.revisions != NULL ? s->row.revisions : "";
	const char	*nl, *tab;
	size_t		 cap = 16;

	s->ids = xcalloc(cap + 1, sizeof *s->ids);
	s->msgs = xcalloc(cap + 1, sizeof *s->msgs);
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl == p)
			continue;
		if (s->n == cap) {
			s->ids = xreallocarray(s->ids, cap * 2 + 1,
			    sizeof *s->ids);
			s->msgs = xreallocarray(s->msgs, cap * 2 + 1,
			    sizeof *s->msgs);
			cap *= 2;
		}
		tab = memchr(p, '\t', (size_t)(nl - p));
		s->ids[s->n] = xstrndup(p, (size_t)((tab != NULL ? tab : nl) -
		    p));
		s->msgs[s->n] = tab != NULL ? xstrndup(tab + 1,
		    (size_t)(nl - tab - 1)) : xstrdup("");
		s->n++;
		s->ids[s->n] = s->msgs[s->n] = NULL;
	}
}

/* The job specs of the reference and the candidate side. */
static int
bs_specs(struct bisect_sess *s, char *err, size_t errlen)
{
	struct matrix_job	*jobs = NULL;
	size_t			 nj = 0, i;
	int			 side;

	if (matrix_expand(s->plan, s->inv, &jobs, &nj, err, errlen) == -1)
		return -1;
	for (i = 0; i < nj && i < 2; i++) {
		side = BISECT_SESS_CAND;
		if (s->test->compare == CONFIG_BISECT_AB &&
		    jobs[i].knobs.value[s->test->ab_knob] ==
		    s->test->ab_reference)
			side = BISECT_SESS_REF;
		executor_job_spec(&jobs[i], s->params[side],
		    sizeof s->params[side], &s->spec[side]);
		s->spec[side].link = s->row.link;
		knobs_key(&s->spec[side].knobs, s->key[side],
		    sizeof s->key[side]);
		s->have_spec[side] = 1;
	}
	free(jobs);
	if (!s->have_spec[BISECT_SESS_CAND] ||
	    (s->test->compare == CONFIG_BISECT_AB &&
	    !s->have_spec[BISECT_SESS_REF])) {
		util_seterr(err, errlen, "the test expands to %zu jobs per "
		    "repetition, want %d", nj, s->test->compare ==
		    CONFIG_BISECT_AB ? 2 : 1);
		return -1;
	}
	return 0;
}

static void
bs_print_errs(struct config_errors *errs)
{
	size_t	i;

	for (i = 0; i < errs->n; i++)
		fprintf(stderr, "%s\n", errs->msgs[i]);
	config_errors_free(errs);
}

/* Loads everything a stored bisect needs.  0, -1 (failure), -2 (config). */
int
bisect_sess_open(struct bisect_sess *s, const char *db, int64_t id,
    int readonly)
{
	struct config_errors	errs;
	char			err[1024];
	int			r;

	memset(s, 0, sizeof *s);
	s->db = db;
	if (store_open(db, readonly ? STORE_OPEN_READONLY : STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &s->st, err, sizeof err) == -1) {
		log_warnx("%s", err);
		return -1;
	}
	if ((r = store_bisect_get(s->st, id, &s->row, err, sizeof err)) != 1) {
		log_warnx("bisect %lld: %s", (long long)id, r == 0 ?
		    "no such bisect" : err);
		return -1;
	}
	bs_revisions(s);
	config_errors_init(&errs);
	/* Showing a bisect needs no inventory (the lab may be gone), nor
	 * its test file: the steps hold the evidence. */
	if (readonly && access(s->row.plan_path, R_OK) == -1) {
		char *t = xasprintf("{\"compare\":{\"type\":\"baseline\"},"
		    "\"workload\":{\"tool\":\"iperf3\"},\"metric\":\"%s\"}",
		    s->row.metric);

		s->test = config_bisect_test_parse(s->row.plan_path, t,
		    strlen(t), &errs);
		s->test_missing = 1;
		free(t);
	}
	if ((!readonly && (s->inv = config_inventory_load(
	    s->row.inventory_path, &errs)) == NULL) || (s->test == NULL &&
	    (s->test = config_bisect_test_load(s->row.plan_path,
	    &errs)) == NULL) || (s->plan = config_bisect_plan(s->test,
	    s->row.link, s->inv, &errs)) == NULL) {
		bs_print_errs(&errs);
		return -2;
	}
	config_errors_free(&errs);
	s->plan_text = config_bisect_plan_text(s->test, s->row.link);
	s->link = readonly ? NULL : config_inventory_link(s->inv, s->row.link);
	bisect_test_default(&s->bt, s->test->threshold);
	s->bt.fixed_reference = s->test->compare == CONFIG_BISECT_BASELINE;
	s->bt.remeasures = s->test->remeasures;
	s->bt.stats.alpha = s->test->alpha;
	s->bt.stats.min_samples = (size_t)s->test->min_samples;
	s->bt.stats.max_samples = (size_t)s->test->max_samples;
	s->bt.stats.collapse = s->test->collapse_factor;
	s->bt.stats.collapse_min_samples =
	    (size_t)s->test->collapse_min_samples;
	s->bt.stats.lower_is_better = s->test->lower_is_better;
	s->bt.stats.seed = (uint64_t)s->row.id;
	if ((!readonly && s->link == NULL) || bisect_test_check(&s->bt, err,
	    sizeof err) == -1 || bs_specs(s, err, sizeof err) == -1) {
		log_warnx("bisect %lld: %s", (long long)s->row.id,
		    s->link == NULL ? "link not in the inventory" : err);
		return -2;
	}
	return 0;
}

/* The stored steps with a verdict, as machine steps; *pending: an
 * unfinished row (verdict "") or -1. */
int
bisect_sess_replay(struct bisect_sess *s, struct store_bisect_step **rowsp,
    size_t *nrowsp, long *pending, char *err, size_t errlen)
{
	struct store_bisect_step	*rows = NULL;
	struct bisect_step		*steps;
	size_t				 nrows = 0, ns = 0, i;
	long				 good, bad, r;
	enum bisect_outcome		 o;

	*pending = -1;
	if (store_bisect_steps(s->st, s->row.id, &rows, &nrows, err,
	    errlen) == -1)
		return -1;
	steps = xcalloc(nrows + 1, sizeof *steps);
	for (i = 0; i < nrows; i++) {
		if (bisect_outcome_parse(rows[i].verdict, &o) == -1) {
			*pending = (long)i;
			continue;
		}
		steps[ns].outcome = o;
		steps[ns].strength = o == BISECT_SKIP ? -1.0 :
		    1.0 - rows[i].p / 2.0;
		steps[ns].rev = 0;
		for (r = 0; r < (long)s->n; r++)
			if (strcmp(s->ids[r], rows[i].revision) == 0)
				steps[ns].rev = (size_t)r;
		ns++;
	}
	good = bad = -1;
	for (r = 0; r < (long)s->n; r++) {
		if (strcmp(s->ids[r], s->row.good) == 0)
			good = r;
		if (strcmp(s->ids[r], s->row.bad) == 0)
			bad = r;
	}
	s->m = good < 0 || bad < 0 ? NULL : bisect_replay((const char *const *)
	    s->ids, s->n, (size_t)good, (size_t)bad, steps, ns, err, errlen);
	free(steps);
	if (good < 0 || bad < 0)
		util_seterr(err, errlen, "GOOD or BAD not in the revisions");
	if (s->m == NULL) {
		free(rows);
		return -1;
	}
	*rowsp = rows;
	*nrowsp = nrows;
	return 0;
}

/* ---- putting a revision on the link's hosts --------------------------- */

struct bs_install {
	const struct config_host	*h;
	const char			*rev;
	struct kernel_opts		 ko;
	struct kernel_outcome		 out;
	int				 rc;
	char				 err[1024];
};

static void *
bs_install_thread(void *arg)
{
	struct bs_install	*in = arg;

	in->rc = kernel_install_host(in->h, in->rev, &in->ko, &in->out,
	    in->err, sizeof in->err);
	return NULL;
}

/* 0 installed, 1 skip (reason), -1 error (err). */
static int
bs_install(struct bisect_sess *s, const char *rev, char *reason, size_t rlen,
    char *err, size_t errlen)
{
	struct bs_install	in[2];
	pthread_t		tid[2];
	int			i, nh = 2, started[2] = { 0, 0 }, rc = 0;

	memset(in, 0, sizeof in);
	in[0].h = &s->inv->hosts[s->link->client.host_index];
	in[1].h = &s->inv->hosts[s->link->server.host_index];
	for (i = 0; i < nh; i++) {
		in[i].rev = rev;
		in[i].ko.connect_timeout_s = s->test->connect_timeout;
		in[i].ko.install_timeout_s = s->test->install_timeout;
		in[i].ko.down_timeout_s = s->test->down_timeout;
		in[i].ko.boot_timeout_s = s->test->boot_timeout;
		in[i].ko.power_timeout_s = s->test->power_timeout;
		if (pthread_create(&tid[i], NULL, bs_install_thread,
		    &in[i]) == 0)
			started[i] = 1;
		else
			bs_install_thread(&in[i]);
	}
	reason[0] = '\0';
	for (i = 0; i < nh; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		if (in[i].rc == -1) {
			util_seterr(err, errlen, "%s", in[i].err);
			rc = -1;
		} else if (rc == 0 && in[i].out.result != KERNEL_OK) {
			snprintf(reason, rlen, "%s: %s: %s", in[i].h->name,
			    kernel_result_name(in[i].out.result),
			    in[i].out.detail);
			rc = 1;
		}
		if (in[i].rc == 0 && !s->quiet)
			fprintf(stderr, "labrat: bisect: %s: %s %s "
			    "(install %.1f s, boot %.1f s%s)\n", in[i].h->name,
			    rev, kernel_result_name(in[i].out.result),
			    in[i].out.install_ms / 1e3, in[i].out.boot_ms / 1e3,
			    in[i].out.power_cycled ? ", power-cycled" : "");
	}
	return rc;
}

/* ---- measuring ------------------------------------------------------- */

/* The metric's values of a side in run_id, in job order (heap). */
static int
bs_values(struct bisect_sess *s, int64_t run_id, int side, double **v,
    size_t *n, char *err, size_t errlen)
{
	struct store_series	*ser = NULL;
	size_t			 nser = 0, i;

	*v = NULL;
	*n = 0;
	if (store_samples_query(s->st, run_id, s->test->metric, &ser, &nser,
	    err, errlen) == -1)
		return -1;
	for (i = 0; i < nser; i++) {
		if (strcmp(ser[i].knobs_key, s->key[side]) != 0 ||
		    strcmp(ser[i].link, s->row.link) != 0)
			continue;
		*v = xreallocarray(*v, *n + ser[i].n + 1, sizeof **v);
		memcpy(*v + *n, ser[i].values, ser[i].n * sizeof **v);
		*n += ser[i].n;
	}
	store_series_free(ser, nser);
	return 0;
}

/* Queues nref + ncand jobs (interleaved) and lets the executor run them. */
static int
bs_batch(struct bisect_sess *s, int64_t run_id, size_t nref, size_t ncand,
    char *err, size_t errlen)
{
	struct store_job_spec	*specs;
	struct executor_opts	 opts;
	struct executor_summary	 sum;
	size_t			 i, k = 0;

	specs = xcalloc(nref + ncand + 1, sizeof *specs);
	for (i = 0; i < nref || i < ncand; i++) {
		if (i < ncand) {
			specs[k] = s->spec[BISECT_SESS_CAND];
			specs[k++].repetition = s->reps;
		}
		if (i < nref) {
			specs[k] = s->spec[BISECT_SESS_REF];
			specs[k++].repetition = s->reps;
		}
		s->reps++;
	}
	if (store_jobs_add(s->st, run_id, specs, k, err, errlen) == -1) {
		free(specs);
		return -1;
	}
	free(specs);
	memset(&opts, 0, sizeof opts);
	opts.db_path = s->db;
	opts.owner = s->owner;
	opts.stop = &bs_stop;
	if (executor_run(s->inv, s->plan, run_id, &opts, &sum, err,
	    errlen) == -1)
		return -1;
	if (sum.stopped || bs_stop) {
		util_seterr(err, errlen, "interrupted");
		return -1;
	}
	return 0;
}

struct bs_measure {
	double			*ref, *cand;
	size_t			 nref, ncand;
	struct bisect_decision	 d;
	size_t			 jobs;
};

/* Adaptive sampling of one step in run_id. */
static int
bs_measure(struct bisect_sess *s, const struct bisect_request *req,
    int64_t run_id, struct bs_measure *ms, char *err, size_t errlen)
{
	double	*rv = NULL, *cv = NULL;
	size_t	 nr = 0, nc = 0, roff = 0, coff = 0, before;
	int	 attempt = 0, baseline_ref;

	baseline_ref = s->test->compare == CONFIG_BISECT_BASELINE &&
	    s->nbase == 0 && req->why == BISECT_CHECK_GOOD;
	for (;;) {
		ms->ref = s->test->compare == CONFIG_BISECT_AB ? rv + roff :
		    s->base;
		ms->nref = s->test->compare == CONFIG_BISECT_AB ? nr - roff :
		    s->nbase;
		ms->cand = cv + coff;
		ms->ncand = nc - coff;
		if (baseline_ref) {
			/* GOOD's own samples become the fixed reference. */
			memset(&ms->d, 0, sizeof ms->d);
			if (ms->ncand < s->bt.stats.max_samples)
				ms->d.add_cand = s->bt.stats.max_samples -
				    ms->ncand;
			else {
				ms->d.action = BISECT_DECIDED;
				ms->d.outcome = BISECT_GOOD;
				ms->d.strength = 1.0;
				ms->d.ratio = 1.0;
				ms->d.v.p = 0.0;
				ms->d.v.median_b = stats_median(ms->cand,
				    ms->ncand);
				s->base = xcalloc(ms->ncand, sizeof *s->base);
				memcpy(s->base, ms->cand, ms->ncand *
				    sizeof *s->base);
				s->nbase = ms->ncand;
				break;
			}
		} else if (bisect_sample_next(&s->bt, ms->ref, ms->nref,
		    ms->cand, ms->ncand, attempt, &ms->d, err, errlen) == -1)
			goto fail;
		if (ms->d.action == BISECT_DECIDED)
			break;
		if (ms->d.action == BISECT_REMEASURE) {
			attempt++;
			roff = nr;
			coff = nc;
			continue;
		}
		before = nr + nc;
		if (bs_batch(s, run_id, s->test->compare == CONFIG_BISECT_AB ?
		    ms->d.add_ref : 0, ms->d.add_cand, err, errlen) == -1)
			goto fail;
		ms->jobs += ms->d.add_ref + ms->d.add_cand;
		free(rv);
		free(cv);
		rv = cv = NULL;
		if ((s->test->compare == CONFIG_BISECT_AB && bs_values(s,
		    run_id, BISECT_SESS_REF, &rv, &nr, err, errlen) == -1) ||
		    bs_values(s, run_id, BISECT_SESS_CAND, &cv, &nc, err,
		    errlen) == -1)
			goto fail;
		if (nr + nc == before) {
			util_seterr(err, errlen, "no sample from %zu jobs "
			    "(see `labrat report` of run %lld)",
			    ms->d.add_ref + ms->d.add_cand, (long long)run_id);
			goto fail;
		}
	}
	/* Keep copies: the arrays above are freed. */
	ms->ref = ms->nref > 0 ? memcpy(xcalloc(ms->nref, sizeof(double)),
	    ms->ref, ms->nref * sizeof(double)) : NULL;
	ms->cand = ms->ncand > 0 ? memcpy(xcalloc(ms->ncand, sizeof(double)),
	    ms->cand, ms->ncand * sizeof(double)) : NULL;
	free(rv);
	free(cv);
	return 0;
fail:
	free(rv);
	free(cv);
	ms->ref = ms->cand = NULL;
	return -1;
}

/* One step: run, install, measure, verdict into row.  0 or -1. */
static int
bs_step(struct bisect_sess *s, const struct bisect_request *req,
    struct store_bisect_step *row, enum bisect_outcome *out,
    double *strength, char *err, size_t errlen)
{
	struct store_run_spec	 rs;
	struct bs_measure	 ms;
	char			 reason[2048], e[1024];
	int64_t			 run_id;
	int			 r;

	memset(&rs, 0, sizeof rs);
	rs.kind = "bisect";
	rs.inventory_path = s->row.inventory_path;
	rs.plan_path = s->row.plan_path;
	rs.plan_text = s->plan_text;
	rs.owner = s->owner;
	rs.bisect_id = s->row.id;
	if (store_run_create(s->st, &rs, &run_id, err, errlen) == -1)
		return -1;
	row->run_id = run_id;
	if (store_bisect_step_update(s->st, row, err, errlen) == -1)
		return -1;
	if ((r = bs_install(s, req->id, reason, sizeof reason, err,
	    errlen)) == -1) {
		store_run_finish(s->st, run_id, STORE_RUN_FAILED, err, e,
		    sizeof e);
		return -1;
	}
	if (r == 1) {
		store_run_finish(s->st, run_id, STORE_RUN_FAILED, reason, e,
		    sizeof e);
		if (!s->quiet)
			fprintf(stderr, "labrat: bisect: %s skipped: "
			    "%.200s%s\n",
			    req->id, reason, strlen(reason) > 200 ? "..." : "");
		*out = BISECT_SKIP;
		*strength = -1;
		snprintf(row->verdict, sizeof row->verdict, "skip");
		return 0;
	}
	memset(&ms, 0, sizeof ms);
	if (bs_measure(s, req, run_id, &ms, err, errlen) == -1) {
		store_run_finish(s->st, run_id, bs_stop ? STORE_RUN_CANCELLED :
		    STORE_RUN_FAILED, err, e, sizeof e);
		return -1;
	}
	*out = ms.d.outcome;
	*strength = ms.d.outcome == BISECT_SKIP ? -1 : ms.d.strength;
	snprintf(row->verdict, sizeof row->verdict, "%s",
	    bisect_outcome_name(ms.d.outcome));
	row->n = (int)ms.ncand;
	row->median = ms.ncand > 0 ? stats_median(ms.cand, ms.ncand) : NAN;
	row->baseline_median = ms.nref > 0 ? stats_median(ms.ref, ms.nref) :
	    NAN;
	row->ratio = ms.d.ratio;
	row->p = ms.d.outcome == BISECT_SKIP ? 1.0 : ms.d.v.p;
	store_run_finish(s->st, run_id, STORE_RUN_DONE, ms.d.outcome ==
	    BISECT_SKIP ? "inconclusive after re-measuring" : NULL, e,
	    sizeof e);
	if (!s->quiet)
		fprintf(stderr, "labrat: bisect: %s (%s): %s, n=%d, ratio "
		    "%.3f, p=%.4g\n", req->id, bisect_why_name(req->why),
		    row->verdict, row->n, row->ratio, row->p);
	free(ms.ref);
	free(ms.cand);
	return 0;
}

/* Loads GOOD's samples of a baseline bisect from its check step's run. */
static int
bs_load_base(struct bisect_sess *s, const struct store_bisect_step *rows,
    size_t nrows, char *err, size_t errlen)
{
	size_t	i;

	if (s->test->compare != CONFIG_BISECT_BASELINE)
		return 0;
	for (i = 0; i < nrows; i++)
		if (strcmp(rows[i].revision, s->row.good) == 0 &&
		    strcmp(rows[i].verdict, "good") == 0)
			return bs_values(s, rows[i].run_id,
			    BISECT_SESS_CAND, &s->base,
			    &s->nbase, err, errlen);
	return 0;
}

static int
bs_drive(struct bisect_sess *s, char *err, size_t errlen)
{
	struct store_bisect_step	*rows = NULL, row;
	struct bisect_request		 req;
	struct bisect_result		 res;
	enum bisect_outcome		 o;
	double				 strength;
	long				 pending;
	size_t				 nrows = 0;
	int64_t				 sid;
	char				 e[512];

	if (bisect_sess_replay(s, &rows, &nrows, &pending, err, errlen) == -1 ||
	    bs_load_base(s, rows, nrows, err, errlen) == -1) {
		free(rows);
		return -1;
	}
	while (bisect_next(s->m, &req)) {
		if (bs_stop) {
			util_seterr(err, errlen, "interrupted");
			goto fail;
		}
		memset(&row, 0, sizeof row);
		if (pending >= 0 && strcmp(rows[pending].revision,
		    req.id) == 0) {
			/* the step a kill cut short */
			row = rows[pending];
			if (row.run_id > 0)
				store_run_finish(s->st, row.run_id,
				    STORE_RUN_CANCELLED, "controller died",
				    e, sizeof e);
			row.run_id = 0;
			pending = -1;
		} else {
			snprintf(row.revision, sizeof row.revision, "%s",
			    req.id);
			if (store_bisect_step_add(s->st, s->row.id, &row, &sid,
			    err, errlen) == -1)
				goto fail;
			row.id = sid;
			row.bisect_id = s->row.id;
		}
		if (!s->quiet)
			fprintf(stderr, "labrat: bisect %lld: testing %s "
			    "(%s)\n",
			    (long long)s->row.id, req.id,
			    bisect_why_name(req.why));
		if (bs_step(s, &req, &row, &o, &strength, err, errlen) == -1 ||
		    store_bisect_step_update(s->st, &row, err, errlen) == -1 ||
		    bisect_record(s->m, req.rev, o, strength, err,
		    errlen) == -1)
			goto fail;
	}
	free(rows);
	bisect_result(s->m, &res);
	if (store_bisect_update(s->st, s->row.id, res.status == BISECT_FAILED ?
	    "failed" : "done", res.status == BISECT_FOUND ?
	    bisect_id(s->m, res.culprit) : NULL, res.confidence, res.reason,
	    err, errlen) == -1)
		return -1;
	return res.status == BISECT_FAILED ? 1 : 0;
fail:
	free(rows);
	return -1;
}

int
bisect_cli_resume(const char *db, int64_t id, int json, int quiet)
{
	struct bisect_sess		 s;
	struct store_bisect	*list = NULL;
	struct sigaction	 sa, oint, oterm;
	size_t			 n = 0, i;
	char			 err[2048], host[64];
	int			 rc;

	if (id == 0) {
		struct store *st;

		if (store_open(db, STORE_OPEN_READONLY, &st, err,
		    sizeof err) == -1 || store_bisect_list(st, &list, &n, err,
		    sizeof err) == -1) {
			log_warnx("%s", err);
			return CMD_EXIT_FAIL;
		}
		for (i = 0; i < n && id == 0; i++)
			if (strcmp(list[i].state, "running") == 0)
				id = list[i].id;
		store_bisects_free(list, n);
		store_close(st);
		if (id == 0) {
			log_warnx("%s: no running bisect to resume", db);
			return CMD_EXIT_FAIL;
		}
	}
	if ((rc = bisect_sess_open(&s, db, id, 0)) != 0) {
		bisect_sess_free(&s);
		return rc == -2 ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
	}
	if (strcmp(s.row.state, "running") != 0) {
		bisect_sess_free(&s);
		return bisect_cli_show(db, id, 0, json, stdout) == 0 ?
		    CMD_EXIT_OK : CMD_EXIT_FAIL;
	}
	s.json = json;
	s.quiet = quiet;
	if (gethostname(host, sizeof host) == -1)
		snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	snprintf(s.owner, sizeof s.owner, "%s:%ld:bisect", host,
	    (long)getpid());
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = bs_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGTERM, &sa, &oterm);
	bs_stop = 0;
	rc = bs_drive(&s, err, sizeof err);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
	bisect_sess_free(&s);
	if (rc == -1) {
		log_warnx("bisect %lld: %s; `labrat bisect resume` continues "
		    "where it stopped", (long long)id, err);
		return CMD_EXIT_FAIL;
	}
	if (bisect_cli_show(db, id, 0, json, stdout) == -1)
		return CMD_EXIT_FAIL;
	return rc == 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

