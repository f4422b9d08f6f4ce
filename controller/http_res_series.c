/*
 * http_res_series: the reads a dashboard draws from under /api/v1: the
 * series that exist (series/keys), one series across runs with each run's
 * median, quartiles (the stats module's type 7 quantiles, as the report
 * computes them), extremes and optionally its samples, plus the nights
 * and culprits marked on its link (series); one night with its verdict
 * per pair, the regressions it found and the bisects it started
 * (nights/{id}); a link's health state and history (hosts/{link}/health).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "http_int.h"
#include "stats.h"
#include "util.h"

/* ms since the epoch as ISO 8601 UTC; null when 0. */
static void
kv_time(struct json_writer *w, const char *key, int64_t ms)
{
	char		buf[32];
	struct tm	tm;
	time_t		t = (time_t)(ms / 1000);

	if (ms <= 0 || gmtime_r(&t, &tm) == NULL) {
		json_kv_null(w, key);
		return;
	}
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_kv_str(w, key, buf);
}

static void
kv_id(struct json_writer *w, const char *key, int64_t id)
{
	if (id > 0)
		json_kv_int(w, key, id);
	else
		json_kv_null(w, key);
}

static void
kv_text(struct json_writer *w, const char *key, const char *s)
{
	json_kv_str(w, key, s != NULL && s[0] != '\0' ? s : NULL);
}

/* The page's tail: next_after or null. */
static void
kv_next(struct json_writer *w, int64_t next)
{
	kv_id(w, "next_after", next);
}

/* ---- series/keys ------------------------------------------------------------ */

int
http_res_series_keys(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "link", "limit", "after", NULL };
	struct store_api_key	*k = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	const char		*link = NULL;
	char			 err[512];
	size_t			 n = 0, limit, i, end;
	int64_t			 after = 0;

	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    http_query_limit(&req->uri, &limit, err, sizeof err) == -1 ||
	    http_query_id(&req->uri, "after", &after, err, sizeof err) == -1 ||
	    http_query_str(&req->uri, "link", STORE_NAME_MAX - 1, &link, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (store_api_series_keys(req->st, link, &k, &n, err,
	    sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	i = (size_t)after < n ? (size_t)after : n;
	end = n - i > limit ? i + limit : n;
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_key(w, "keys");
		json_begin_arr(w);
		for (; i < end; i++) {
			json_begin_obj(w);
			json_kv_str(w, "link", k[i].link);
			json_kv_str(w, "knobs", k[i].knobs);
			json_kv_str(w, "workload", k[i].workload);
			json_kv_str(w, "tool", k[i].tool);
			json_kv_str(w, "params", k[i].params);
			json_kv_str(w, "metric", k[i].metric);
			json_kv_str(w, "unit", k[i].unit);
			json_kv_int(w, "runs", k[i].runs);
			json_kv_int(w, "last_run", k[i].last_run);
			json_end_obj(w);
		}
		json_end_arr(w);
		kv_next(w, end < n ? (int64_t)end : 0);
		json_end_obj(w);
	}
	free(k);
	return http_json_end(&j, res);
}

/* ---- series ------------------------------------------------------------------ */

/* A required text parameter: 0, or -1 with the 400 reply. */
static int
need_str(struct http_req *req, struct http_res *res, const char *key,
    size_t max, const char **out)
{
	char	err[256];
	int	r;

	if ((r = http_query_str(&req->uri, key, max, out, err,
	    sizeof err)) == -1)
		return http_problem(res, 400, "%s", err);
	if (r == 0)
		return http_problem(res, 400, "parameter %s: required", key);
	return 0;
}

static int
series_params(struct http_req *req, struct http_res *res,
    struct store_api_series_q *q, int *samples)
{
	static const char *const keys[] = { "link", "knobs", "workload",
		"metric", "limit", "after", "samples", NULL };
	const char	*s = NULL;
	char		 err[256];

	memset(q, 0, sizeof *q);
	q->metric = "throughput_bps";
	*samples = 0;
	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    http_query_limit(&req->uri, &q->limit, err, sizeof err) == -1 ||
	    http_query_id(&req->uri, "after", &q->after, err,
	    sizeof err) == -1 ||
	    http_query_str(&req->uri, "metric", STORE_NAME_MAX - 1,
	    &q->metric, err, sizeof err) == -1 ||
	    http_query_str(&req->uri, "samples", 1, &s, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (s != NULL && strcmp(s, "0") != 0 && strcmp(s, "1") != 0)
		return http_problem(res, 400, "parameter samples: \"%s\" is "
		    "not 0 or 1", s);
	*samples = s != NULL && s[0] == '1';
	if (need_str(req, res, "link", STORE_NAME_MAX - 1, &q->link) == -1 ||
	    need_str(req, res, "knobs", STORE_KEY_MAX - 1, &q->knobs) == -1 ||
	    need_str(req, res, "workload", STORE_WORKLOAD_MAX - 1,
	    &q->workload) == -1)
		return -1;
	return 0;
}

static void
point_json(struct json_writer *w, const struct store_api_point *p,
    int samples)
{
	struct stats_summary	sum;
	char			err[128];
	size_t			i;
	int			ok;

	ok = p->n > 0 && stats_summarize(p->values, p->n, &sum, err,
	    sizeof err) == 0;
	json_begin_obj(w);
	json_kv_int(w, "run", p->run);
	json_kv_int(w, "job", p->jobs[0]);
	json_key(w, "jobs");
	json_begin_arr(w);
	for (i = 0; i < p->n; i++)
		json_put_int(w, p->jobs[i]);
	json_end_arr(w);
	json_kv_str(w, "kind", p->kind);
	kv_id(w, "night", p->night);
	kv_id(w, "bisect", p->bisect);
	kv_text(w, "revision", p->revision);
	kv_text(w, "message", p->message);
	kv_time(w, "started", p->started);
	json_kv_int(w, "started_ms", p->started);
	json_kv_str(w, "unit", p->unit);
	json_kv_int(w, "n", (int64_t)p->n);
	json_kv_num(w, "median", ok ? sum.median : NAN);
	json_kv_num(w, "min", ok ? sum.min : NAN);
	json_kv_num(w, "max", ok ? sum.max : NAN);
	json_kv_num(w, "q1", ok ? sum.q1 : NAN);
	json_kv_num(w, "q3", ok ? sum.q3 : NAN);
	if (samples) {
		json_key(w, "samples");
		json_begin_arr(w);
		for (i = 0; i < p->n; i++)
			json_put_num(w, p->values[i]);
		json_end_arr(w);
	}
	json_end_obj(w);
}

static void
mark_json(struct json_writer *w, const struct store_api_mark *m)
{
	json_begin_obj(w);
	json_kv_str(w, "kind", m->kind);
	kv_id(w, "run", m->run);
	kv_id(w, "night", m->night);
	kv_id(w, "bisect", m->bisect);
	kv_id(w, "regression", m->regression);
	kv_text(w, "revision", m->revision);
	json_kv_str(w, "knobs", m->knobs);
	json_kv_str(w, "workload", m->workload);
	json_kv_str(w, "metric", m->metric);
	if (strcmp(m->kind, "regression") == 0)
		json_kv_num(w, "change", m->change);
	else
		json_kv_null(w, "change");
	json_kv_bool(w, "series", m->same);
	json_end_obj(w);
}

int
http_res_series(struct http_req *req, struct http_res *res)
{
	struct store_api_series_q	 q;
	struct store_api_series		 s;
	struct http_json		 j;
	struct json_writer		*w;
	char				 err[512];
	size_t				 i;
	int				 samples;

	if (series_params(req, res, &q, &samples) == -1)
		return -1;
	if (store_api_series(req->st, &q, &s, err, sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_kv_str(w, "link", q.link);
		json_kv_str(w, "knobs", q.knobs);
		json_kv_str(w, "workload", q.workload);
		json_kv_str(w, "metric", q.metric);
		kv_text(w, "unit", s.npoints > 0 ? s.points[0].unit : NULL);
		json_key(w, "points");
		json_begin_arr(w);
		for (i = 0; i < s.npoints; i++)
			point_json(w, &s.points[i], samples);
		json_end_arr(w);
		json_key(w, "marks");
		json_begin_arr(w);
		for (i = 0; i < s.nmarks; i++)
			mark_json(w, &s.marks[i]);
		json_end_arr(w);
		kv_next(w, s.next_after);
		json_end_obj(w);
	}
	store_api_series_free(&s);
	return http_json_end(&j, res);
}

/* ---- nights/{id} ------------------------------------------------------------- */

/* Tally of one link's verdicts in a night. */
struct pair_tally {
	char	link[STORE_NAME_MAX];
	int64_t	regr, impr, same, inconcl;
};

/* The night's verdicts (JSON array text) per link, in order of first
 * appearance: *v heap, *n. */
static void
night_pairs(const char *verdicts, struct pair_tally **v, size_t *n)
{
	struct json_object	*a, *o, *x;
	const char		*link, *verdict;
	size_t			 i, j, len;

	*v = NULL;
	*n = 0;
	if (verdicts == NULL || (a = json_tokener_parse(verdicts)) == NULL)
		return;
	len = json_object_is_type(a, json_type_array) ?
	    json_object_array_length(a) : 0;
	*v = xcalloc(len + 1, sizeof **v);
	for (i = 0; i < len; i++) {
		o = json_object_array_get_idx(a, i);
		link = json_object_object_get_ex(o, "link", &x) ?
		    json_object_get_string(x) : NULL;
		verdict = json_object_object_get_ex(o, "verdict", &x) ?
		    json_object_get_string(x) : "";
		if (link == NULL)
			continue;
		for (j = 0; j < *n && strcmp((*v)[j].link, link) != 0; j++)
			;
		if (j == *n)
			snprintf((*v)[(*n)++].link, sizeof (*v)[j].link, "%s",
			    link);
		if (strcmp(verdict, "regression") == 0)
			(*v)[j].regr++;
		else if (strcmp(verdict, "improvement") == 0)
			(*v)[j].impr++;
		else if (strcmp(verdict, "no change") == 0)
			(*v)[j].same++;
		else
			(*v)[j].inconcl++;
	}
	json_object_put(a);
}

static void
pairs_json(struct json_writer *w, const char *verdicts)
{
	struct pair_tally	*v;
	size_t			 i, n;

	night_pairs(verdicts, &v, &n);
	json_key(w, "pairs");
	json_begin_arr(w);
	for (i = 0; i < n; i++) {
		json_begin_obj(w);
		json_kv_str(w, "link", v[i].link);
		json_kv_str(w, "verdict", v[i].regr ? "regression" :
		    v[i].inconcl ? "inconclusive" : v[i].impr ?
		    "improvement" : "no change");
		json_kv_int(w, "regressions", v[i].regr);
		json_kv_int(w, "improvements", v[i].impr);
		json_kv_int(w, "no_change", v[i].same);
		json_kv_int(w, "inconclusive", v[i].inconcl);
		json_end_obj(w);
	}
	json_end_arr(w);
	free(v);
}

static void
night_head(struct json_writer *w, const struct store_night *n)
{
	json_kv_int(w, "id", n->id);
	json_kv_int(w, "schedule", n->schedule_id);
	json_kv_int(w, "slot_ms", n->slot);
	kv_time(w, "slot", n->slot);
	json_kv_str(w, "links", n->links);
	json_kv_str(w, "state", n->state);
	json_kv_str(w, "revision", n->revision);
	json_kv_int(w, "good_night", n->good_night);
	json_kv_int(w, "run", n->run_id);
	json_kv_int(w, "confirm_run", n->confirm_run_id);
	json_kv_bool(w, "good", n->good);
	json_key(w, "verdicts");
	json_put_raw(w, n->verdicts);
	json_kv_str(w, "reason", n->reason);
	json_kv_int(w, "created_ms", n->created);
	json_kv_int(w, "finished_ms", n->finished);
}

static void
regr_json(struct json_writer *w, const struct store_regr *r, int64_t night)
{
	json_begin_obj(w);
	json_kv_int(w, "id", r->id);
	json_kv_str(w, "link", r->link);
	json_kv_str(w, "knobs", r->knobs);
	json_kv_str(w, "workload", r->workload);
	json_kv_str(w, "metric", r->metric);
	json_kv_str(w, "direction", r->direction);
	json_kv_str(w, "state", store_regr_state_name(r->state));
	json_kv_num(w, "change", r->change);
	json_kv_bool(w, "new", r->first_night == night);
	json_kv_str(w, "good_revision", r->good_rev);
	json_kv_str(w, "bad_revision", r->bad_rev);
	kv_id(w, "first_night", r->first_night);
	kv_id(w, "last_night", r->last_night);
	kv_id(w, "bisect", r->bisect_id);
	kv_text(w, "culprit", r->culprit);
	kv_text(w, "range_first", r->range_first);
	kv_text(w, "range_last", r->range_last);
	json_end_obj(w);
}

/* The bisects the night started: those of the records it opened. */
static int
night_bisects(struct http_req *req, struct json_writer *w,
    const struct store_regr *r, size_t n, int64_t night, char *err,
    size_t errlen)
{
	struct store_bisect	b;
	size_t			i;
	int			rc;

	json_key(w, "bisects");
	json_begin_arr(w);
	for (i = 0; i < n; i++) {
		if (r[i].first_night != night || r[i].bisect_id <= 0)
			continue;
		if ((rc = store_bisect_get(req->st, r[i].bisect_id, &b, err,
		    errlen)) == -1)
			return -1;
		if (rc == 0)
			continue;
		json_begin_obj(w);
		json_kv_int(w, "id", b.id);
		json_kv_int(w, "regression", r[i].id);
		json_kv_str(w, "state", b.state);
		json_kv_str(w, "link", b.link);
		json_kv_str(w, "good", b.good);
		json_kv_str(w, "bad", b.bad);
		kv_text(w, "culprit", b.culprit);
		json_kv_num(w, "confidence", b.culprit[0] ? b.confidence :
		    NAN);
		json_end_obj(w);
		store_bisect_free(&b);
	}
	json_end_arr(w);
	return 0;
}

int
http_res_night(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { NULL };
	struct store_night	 n;
	struct store_regr	*r = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];
	size_t			 nr = 0, i, k;
	int64_t			 id;
	int			 rc;

	if (http_query_only(&req->uri, keys, err, sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (http_parse_id(req->var[0], &id) == -1)
		return http_problem(res, 400, "night id \"%.40s\" is not a "
		    "positive integer", req->var[0]);
	if ((rc = store_night_get(req->st, id, &n, err, sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (rc == 0)
		return http_problem(res, 404, "no night %lld", (long long)id);
	if (store_regr_list(req->st, 0, &r, &nr, err, sizeof err) == -1) {
		store_night_free(&n);
		return http_problem(res, 500, "%s", err);
	}
	for (i = k = 0; i < nr; i++) {	/* the records this night showed */
		if (r[i].first_night <= id && r[i].last_night >= id)
			r[k++] = r[i];
		else
			store_regr_free(&r[i]);
	}
	nr = k;
	rc = 0;
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		night_head(w, &n);
		pairs_json(w, n.verdicts);
		json_key(w, "regressions");
		json_begin_arr(w);
		for (i = 0; i < nr; i++)
			regr_json(w, &r[i], id);
		json_end_arr(w);
		rc = night_bisects(req, w, r, nr, id, err, sizeof err);
		json_end_obj(w);
	}
	store_night_free(&n);
	store_regrs_free(r, nr);
	if (rc == -1) {
		http_json_end(&j, res);
		return http_problem(res, 500, "%s", err);
	}
	return http_json_end(&j, res);
}

/* ---- hosts/{link}/health ----------------------------------------------------- */

static void
health_head(struct json_writer *w, const char *link,
    const struct store_health *h, int have)
{
	json_kv_str(w, "link", link);
	json_kv_str(w, "state", have ? h->state : "unknown");
	kv_time(w, "since", have ? h->since : 0);
	kv_text(w, "why", have ? h->why : NULL);
	kv_time(w, "last_check", have ? h->checked_at : 0);
	if (have && h->check_ok >= 0)
		json_kv_bool(w, "last_check_ok", h->check_ok);
	else
		json_kv_null(w, "last_check_ok");
	kv_id(w, "last_run", have ? h->run_id : 0);
}

int
http_res_host_health(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "limit", "after", NULL };
	struct store_health	 h;
	struct store_health_tr	*t = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	const char		*link = req->var[0];
	char			 err[512];
	size_t			 limit, n = 0, i;
	int64_t			 after = 0;
	int			 have;

	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    http_query_limit(&req->uri, &limit, err, sizeof err) == -1 ||
	    http_query_id(&req->uri, "after", &after, err, sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (strlen(link) >= STORE_NAME_MAX)
		return http_problem(res, 400, "link \"%.40s...\": over %d "
		    "bytes", link, STORE_NAME_MAX - 1);
	if ((have = store_api_link_known(req->st, link, err,
	    sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (have == 0)
		return http_problem(res, 404, "no link \"%s\" in the store "
		    "(no health record, no job)", link);
	if ((have = store_health_get(req->st, link, &h, err,
	    sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (store_api_health_history(req->st, link, after, limit, &t, &n,
	    err, sizeof err) == -1) {
		store_health_free(&h);
		return http_problem(res, 500, "%s", err);
	}
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		health_head(w, link, &h, have);
		json_key(w, "history");
		json_begin_arr(w);
		for (i = 0; i < n; i++) {
			json_begin_obj(w);
			json_kv_int(w, "id", t[i].id);
			kv_time(w, "at", t[i].at);
			json_kv_str(w, "from", t[i].from);
			json_kv_str(w, "state", t[i].to);
			json_kv_str(w, "who", t[i].who);
			json_kv_str(w, "why", t[i].why);
			json_end_obj(w);
		}
		json_end_arr(w);
		kv_next(w, n == limit && n > 0 ? t[n - 1].id : 0);
		json_end_obj(w);
	}
	store_health_free(&h);
	store_health_trs_free(t, n);
	return http_json_end(&j, res);
}
