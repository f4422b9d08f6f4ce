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
