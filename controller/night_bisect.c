/*
 * night_bisect.c: the bisect of each regression record tonight opened and
 * confirmed, in this call (hunt_start(); a record already bisecting is
 * continued with hunt_resume()).  The test is built from the plan and the
 * regression: A/B on the triggering knob within one boot when tonight's
 * run shows the regression as a knob interaction (a within-run trigger on
 * the regressed combination), against GOOD otherwise; the threshold half
 * way between no change and the change seen.  It is written to
 * DB.nights/regression-ID-test.json (the bisect stores its text too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hunt.h"
#include "json.h"
#include "log.h"
#include "matrix.h"
#include "night_int.h"
#include "util.h"

/* The plan's workload measured by series s, or NULL. */
static const struct config_workload *
night_workload(const struct config_plan *plan, const struct store_series *s)
{
	char	key[STORE_PARAMS_MAX];
	size_t	i, tl = strlen(s->tool);

	for (i = 0; i < plan->nworkloads; i++) {
		if (matrix_workload_key(&plan->workloads[i], key,
		    sizeof key) == -1)
			continue;
		if (strcmp(key, s->params) == 0 || (strncmp(key, s->tool,
		    tl) == 0 && key[tl] == ':' && strcmp(key + tl + 1,
		    s->params) == 0))
			return &plan->workloads[i];
	}
	return NULL;
}

/* A knob's value as the test file spells it. */
static void
night_knob_val(FILE *fp, enum knob k, int v)
{
	if (k == KNOB_MTU)
		fprintf(fp, "%d", v);
	else if (k == KNOB_NAT)
		fprintf(fp, "\"%s\"", knobs_nat_name(v));
	else
		fprintf(fp, "%s", v ? "true" : "false");
}

/* How tonight showed series si: the knob of its within-run trigger
 * (-1: none, compare against GOOD) and that comparison's change. */
static int
night_ab_knob(const struct detect_result *res, size_t si, int *ref,
    double *change)
{
	const struct detect_cmp	*m;
	size_t			 i;

	for (i = 0; i < res->ntriggers; i++) {
		if (res->triggers[i].worse != si ||
		    res->triggers[i].headline == DETECT_NONE)
			continue;
		m = &res->cmps[res->triggers[i].headline];
		if (m->knob < 0 || m->sb != si)
			continue;
		*ref = knobs_get(&res->series[m->sa].knobs, m->knob);
		*change = m->v.effect;
		return m->knob;
	}
	for (i = 0; i < res->ncmps; i++) {
		m = &res->cmps[i];
		if (m->sb == si && m->knob >= 0 &&
		    m->v.verdict == STATS_REGRESSION) {
			*ref = knobs_get(&res->series[m->sa].knobs, m->knob);
			*change = m->v.effect;
			return m->knob;
		}
	}
	return -1;
}

/*
 * The test file's text for record r (series si of res); heap, or NULL.
 * Every value in it is validated config or a number: link and knob
 * names match their patterns, the workload is config_workload_json().
 */
static char *
night_test_text(struct night_ctx *c, const struct store_regr *r,
    const struct detect_result *res, size_t si)
{
	const struct store_series	*s = &res->series[si];
	const struct config_workload	*wl = night_workload(c->plan, s);
	const struct config_stats	*st = &c->plan->stats;
	struct config_workload		 one;
	char				*text = NULL, *wj;
	const char			*sep = "";
	size_t				 len = 0;
	double				 change = r->change, thr;
	int				 k, ab, ref = 0, mins;
	FILE				*fp;

	if (wl == NULL || (fp = open_memstream(&text, &len)) == NULL)
		return NULL;
	ab = night_ab_knob(res, si, &ref, &change);
	one = *wl;
	one.links = NULL;
	one.nlinks = 0;
	wj = config_workload_json(&one);
	thr = 1 + change / 2;
	/* The night's own sampling rule; at least 2 more when undecided. */
	mins = st->min_samples;
	fprintf(fp, "{\n  \"description\": \"night %lld: regression %lld "
	    "on %s (%s), %s\",\n  \"knobs\": {", (long long)c->n.id,
	    (long long)r->id, r->link, r->knobs, ab >= 0 ? "A/B within one "
	    "boot" : "against GOOD");
	for (k = 0; k < KNOB_COUNT; k++) {
		if (k == ab || !knobs_isset(&s->knobs, k))
			continue;
		fprintf(fp, "%s\"%s\": ", sep, knobs_name(k));
		night_knob_val(fp, k, knobs_get(&s->knobs, k));
		sep = ", ";
	}
	fprintf(fp, "},\n  \"compare\": ");
	if (ab >= 0) {
		fprintf(fp, "{\"type\": \"ab\", \"knob\": \"%s\", "
		    "\"reference\": ", knobs_name(ab));
		night_knob_val(fp, ab, ref);
		fprintf(fp, ", \"candidate\": ");
		night_knob_val(fp, ab, knobs_get(&s->knobs, ab));
		fprintf(fp, "},\n");
	} else
		fprintf(fp, "{\"type\": \"baseline\"},\n");
	fprintf(fp, "  \"workload\": %s,\n  \"metric\": \"%s\",\n"
	    "  \"threshold\": %.4f,\n  \"sampling\": {\"alpha\": %g, "
	    "\"min_samples\": %d, \"max_samples\": %d, "
	    "\"collapse_factor\": %g},\n  \"timeouts\": {\"connect\": %d, "
	    "\"job\": %d}\n}\n", wj, r->metric, thr, st->alpha, mins,
	    st->max_samples > mins ? st->max_samples : mins + 2,
	    st->collapse_factor, c->plan->connect_timeout,
	    c->plan->job_timeout);
	fclose(fp);
	free(wj);
	return text;
}

/* The series of tonight's run (within res) of record r, or DETECT_NONE. */
static size_t
night_series_of(const struct detect_result *res, const struct store_regr *r)
{
	size_t	i, tl;
	const struct store_series *s;

	for (i = 0; i < res->nrun_series; i++) {
		s = &res->series[i];
		tl = strlen(s->tool);
		if (strcmp(s->link, r->link) != 0 ||
		    strcmp(s->knobs_key, r->knobs) != 0 ||
		    strcmp(s->metric, r->metric) != 0)
			continue;
		if (strcmp(s->params, r->workload) == 0 ||
		    (strncmp(r->workload, s->tool, tl) == 0 &&
		    r->workload[tl] == ':' &&
		    strcmp(r->workload + tl + 1, s->params) == 0))
			return i;
	}
	return DETECT_NONE;
}

struct night_hunt_arg {
	struct night_ctx	*c;
	int64_t			 regr_id;
};

static void
night_hunt_event(const struct hunt_event *ev, void *arg)
{
	struct night_hunt_arg	*a = arg;
	char			 err[512];

	if (ev->kind == HUNT_EV_STARTED) {
		/* Recorded before the first step: a kill from here on
		 * resumes this bisect, never starts a second. */
		if (store_regr_set(a->c->st, a->regr_id, STORE_REGR_BISECTING,
		    ev->bisect_id, NULL, NULL, NULL, NULL, err,
		    sizeof err) == -1)
			log_warn("regression %lld: %s", (long long)a->regr_id,
			    err);
	}
	if (ev->kind == HUNT_EV_STARTED || ev->kind == HUNT_EV_VERDICT ||
	    ev->kind == HUNT_EV_SKIPPED)
		night_say(a->c, "bisect %lld: %s", (long long)ev->bisect_id,
		    ev->text);
}

/* The record's final state from its ended bisect. */
static int
night_hunt_end(struct night_ctx *c, int64_t regr_id, int64_t bisect_id,
    enum hunt_status hs, const char *why, char *err, size_t errlen)
{
	struct hunt_view	v;
	struct bisect_result	br;
	enum store_regr_state	to;
	const char		*first = NULL, *last = NULL, *culprit = NULL;
	int			rc, opened = 0;

	memset(&v, 0, sizeof v);
	if (bisect_id != 0 && hunt_view_open(&v, c->rq->db_path, bisect_id,
	    err, errlen) == 0) {
		opened = 1;
		bisect_result(v.m, &br);
		if (br.status == BISECT_FOUND)
			culprit = v.ids[br.culprit];
		else if (br.last_good + 1 < v.n && br.first_bad < v.n) {
			first = v.ids[br.last_good + 1];
			last = v.ids[br.first_bad];
		}
	}
	to = hs == HUNT_FOUND && culprit != NULL ? STORE_REGR_CULPRIT :
	    hs == HUNT_RANGE ? STORE_REGR_RANGE : STORE_REGR_FAILED;
	rc = store_regr_set(c->st, regr_id, STORE_REGR_BISECTING, bisect_id,
	    NULL, NULL, NULL, NULL, err, errlen);
	if (rc == 0)
		rc = store_regr_set(c->st, regr_id, to, 0, culprit, first,
		    last, to == STORE_REGR_FAILED ? why : NULL, err, errlen);
	if (rc == 0)
		night_say(c, "regression %lld: %s%s%s", (long long)regr_id,
		    store_regr_state_name(to), culprit != NULL ? " " : "",
		    culprit != NULL ? culprit : "");
	if (opened)
		hunt_view_free(&v);
	return rc;
}

int
night_bisects_busy(const struct store_bisect *v, size_t n, int64_t self_pid,
    char *who, size_t wholen)
{
	enum store_owner_state	os;
	size_t			i;
	int			busy = 0;

	if (wholen > 0)
		who[0] = '\0';
	for (i = 0; i < n; i++) {
		if (strcmp(v[i].state, "running") != 0 ||
		    v[i].who.pid == self_pid)
			continue;
		os = store_owner_state(&v[i].who);
		/* Gone (killed, never resumed) or nobody yet: not running.
		 * Another host's cannot be checked: it counts. */
		if (os != STORE_OWNER_ALIVE && os != STORE_OWNER_ELSEWHERE)
			continue;
		if (busy++ == 0 && wholen > 0) {
			char	o[STORE_OWNER_MAX];

			store_owner_text(&v[i].who, o, sizeof o);
			snprintf(who, wholen, "bisect %lld by %s",
			    (long long)v[i].id, o);
		}
	}
	return busy;
}

/*
 * limits.max_bisects: a new bisect waits (polling every
 * NIGHT_BISECT_WAIT_MS) while that many are running in the store -- a
 * `labrat bisect start` beside the daemon, another daemon's; the worker
 * runs one item at a time, so this daemon's own never overlap.  0 free,
 * 1 stopped while waiting, -1 with err.
 */
static int
night_bisect_slot(struct night_ctx *c, char *err, size_t errlen)
{
	struct store_bisect	*v = NULL;
	struct store_owner	 me;
	struct timespec		 tick = { 0, 100 * 1000000L };
	char			 who[STORE_OWNER_MAX + 64];
	size_t			 n = 0;
	int			 busy, said = 0, i;

	store_owner_self(&me);
	for (;;) {
		if (store_bisect_list(c->st, &v, &n, err, errlen) == -1)
			return -1;
		busy = night_bisects_busy(v, n, me.pid, who, sizeof who);
		store_bisects_free(v, n);
		if (busy < c->rq->daemon->max_bisects)
			return 0;
		if (!said++)
			night_say(c, "the bisect waits: %d running, "
			    "limits.max_bisects %d (%s)", busy,
			    c->rq->daemon->max_bisects, who);
		for (i = 0; i < NIGHT_BISECT_WAIT_MS / 100; i++) {
			if (*c->rq->stop) {
				util_seterr(err, errlen, "stopped while the "
				    "bisect waited for limits.max_bisects");
				return 1;
			}
			nanosleep(&tick, NULL);
		}
	}
}

/* Bisects (or continues the bisect of) record r. */
static enum night_status
night_bisect_one(struct night_ctx *c, const struct store_regr *r,
    const struct detect_result *res, char *err, size_t errlen)
{
	const struct config_revsource	*src;
	struct night_hunt_arg		 a = { c, r->id };
	struct hunt_opts		 o;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	char				 path[PATH_MAX + 64], *text;
	char				 why[STORE_REASON_MAX - 1];
	int64_t				 bid = r->bisect_id;
	enum hunt_status		 hs;
	size_t				 si;
	int				 slot;

	memset(&o, 0, sizeof o);
	o.db_path = c->rq->db_path;
	o.stop = c->rq->stop;
	o.event = night_hunt_event;
	o.event_arg = &a;
	if (bid != 0 && store_bisect_get(c->st, bid, &b, err, errlen) == 1) {
		int ended = strcmp(b.state, "done") == 0 ||
		    strcmp(b.state, "failed") == 0 ||
		    strcmp(b.state, "reset") == 0;

		store_bisect_free(&b);
		hs = ended ? HUNT_ENDED : hunt_resume(&o, bid, &bid, err,
		    errlen);
	} else {
		si = night_series_of(res, r);
		text = si != DETECT_NONE ? night_test_text(c, r, res, si) :
		    NULL;
		if (text == NULL) {
			util_seterr(err, errlen, "regression %lld: no series "
			    "or workload of tonight's run", (long long)r->id);
			hs = HUNT_CONFIG;
		} else {
			snprintf(path, sizeof path, "%s/regression-%lld-"
			    "test.json", c->dir, (long long)r->id);
			if (util_write_file_atomic(path, text, strlen(text), 0640,
			    err, errlen) == -1)
				hs = HUNT_ERROR;
			else if ((slot = night_bisect_slot(c, err,
			    errlen)) != 0)
				hs = slot == 1 ? HUNT_INTERRUPTED : HUNT_ERROR;
			else {
				src = config_daemon_source(c->rq->daemon,
				    c->sched.revisions);
				memset(&rq, 0, sizeof rq);
				rq.inventory = c->sched.inventory_path;
				rq.link = r->link;
				rq.good = r->good_rev;
				rq.bad = c->n.revision;
				rq.test = path;
				rq.revisions = src != NULL ? src->revisions :
				    NULL;
				night_say(c, "bisecting regression %lld on %s "
				    "between %s and %s", (long long)r->id,
				    r->link, r->good_rev, c->n.revision);
				hs = hunt_start(&o, &rq, &bid, err, errlen);
			}
			free(text);
		}
	}
	if (hs == HUNT_INTERRUPTED)
		return NIGHT_INTERRUPTED;
	if (hs == HUNT_ENDED) {
		/* Ended before a kill: its stored result decides. */
		if (store_bisect_get(c->st, bid, &b, err, errlen) != 1)
			return NIGHT_FAILED;
		hs = b.culprit[0] != '\0' ? HUNT_FOUND :
		    strcmp(b.state, "done") == 0 ? HUNT_RANGE : HUNT_FAILED;
		store_bisect_free(&b);
	}
	snprintf(why, sizeof why, "%s", err);
	return night_hunt_end(c, r->id, bid, hs, why, err, errlen) == 0 ?
	    NIGHT_DONE : NIGHT_FAILED;
}

enum night_status
night_bisect_all(struct night_ctx *c, char *err, size_t errlen)
{
	struct detect_result	 res;
	struct detect_params	 p;
	struct store_regr	*v = NULL;
	size_t			 n = 0, i;
	enum night_status	 st = NIGHT_DONE;
	unsigned		 mask = 1u << STORE_REGR_CONFIRMED |
	    1u << STORE_REGR_BISECTING;

	memset(&res, 0, sizeof res);
	if (night_params(c, &p, err, errlen) == -1 ||
	    detect_run(c->st, c->n.run_id, &p, &res, err, errlen) == -1 ||
	    store_regr_list(c->st, mask, &v, &n, err, errlen) == -1) {
		detect_result_free(&res);
		return NIGHT_FAILED;
	}
	if (night_save(c, "bisecting", err, errlen) == -1)
		st = NIGHT_FAILED;
	for (i = 0; st == NIGHT_DONE && i < n; i++) {
		if (v[i].first_night != c->n.id)
			continue;
		st = night_bisect_one(c, &v[i], &res, err, errlen);
		if (st == NIGHT_DONE)
			night_notify_pending(c);
	}
	store_regrs_free(v, n);
	detect_result_free(&res);
	return st;
}
