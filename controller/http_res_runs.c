/*
 * http_res_runs: the runs and their jobs under /api/v1: the run list
 * (paged by an id cursor, newest first, filters state, kind, link: what
 * `labrat runs` prints, the same report_runs_page() call), one run, its
 * jobs (paged by job id, in seq order), its report (exactly what `labrat
 * report RUN` prints in each of its formats: the same report_run() call),
 * one job, its samples and one raw output of it (text as the host wrote
 * it), and two runs compared (`labrat compare`).  Also ?format= for every
 * read whose command has --format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_int.h"
#include "report.h"
#include "util.h"

static void
run_json(struct json_writer *w, const struct store_run *r,
    const struct store_counts *c)
{
	json_begin_obj(w);
	json_kv_int(w, "id", r->id);
	json_kv_str(w, "kind", r->kind);
	json_kv_str(w, "state", report_run_state(r));
	json_kv_int(w, "created_ms", r->created_at);
	if (r->finished_at > 0)
		json_kv_int(w, "finished_ms", r->finished_at);
	else
		json_kv_null(w, "finished_ms");
	json_kv_str(w, "inventory", r->inventory_path);
	json_kv_str(w, "plan", r->plan_path);
	json_kv_str(w, "note", r->note);
	json_kv_str(w, "owner", r->owner);
	json_kv_str(w, "reason", r->reason);
	if (r->schedule_id > 0)
		json_kv_int(w, "schedule", r->schedule_id);
	else
		json_kv_null(w, "schedule");
	if (r->bisect_id > 0)
		json_kv_int(w, "bisect", r->bisect_id);
	else
		json_kv_null(w, "bisect");
	json_key(w, "jobs");
	json_begin_obj(w);
	json_kv_int(w, "total", c->total);
	json_kv_int(w, "queued", c->n[STORE_JOB_QUEUED]);
	json_kv_int(w, "running", c->n[STORE_JOB_RUNNING]);
	json_kv_int(w, "done", c->n[STORE_JOB_DONE]);
	json_kv_int(w, "failed", c->n[STORE_JOB_FAILED]);
	json_kv_int(w, "cancelled", c->n[STORE_JOB_CANCELLED]);
	json_end_obj(w);
	json_end_obj(w);
}

/* A list's tail: "next_after" is the cursor of the next page, or null. */
static void
page_end(struct json_writer *w, size_t n, size_t limit, int64_t last)
{
	json_end_arr(w);
	if (n == limit && n > 0)
		json_kv_int(w, "next_after", last);
	else
		json_kv_null(w, "next_after");
	json_end_obj(w);
}

int
http_res_format(struct http_req *req, struct http_res *res,
    const char *allowed, enum report_format *f)
{
	const char	*v = NULL, *p;
	char		 err[256], first[16];
	size_t		 n;

	if (http_query_str(&req->uri, "format", 15, &v, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	n = strcspn(allowed, "|");
	snprintf(first, sizeof first, "%.*s", (int)n, allowed);
	if (v == NULL)
		v = first;
	for (p = allowed; *p != '\0'; p += n + (p[n] == '|')) {
		n = strcspn(p, "|");
		if (strlen(v) == n && strncmp(p, v, n) == 0)
			break;
	}
	if (*p == '\0' || report_format_parse(v, f) == -1)
		return http_problem(res, 400, "parameter format: \"%s\" is "
		    "not one of %s", v, allowed);
	res->ctype = *f == REPORT_TEXT ? "text/plain; charset=utf-8" :
	    *f == REPORT_CSV ? "text/csv; charset=utf-8" :
	    *f == REPORT_JUNIT ? "application/xml" : NULL;
	return 0;
}

static int
runs_filters(struct http_req *req, struct store_api_runs_q *q,
    struct http_res *res)
{
	static const char *const keys[] = { "limit", "after", "state", "kind",
		"link", "format", NULL };
	const char	*state = NULL;
	char		 err[256];
	int		 i;

	memset(q, 0, sizeof *q);
	q->state = -1;
	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    http_query_limit(&req->uri, &q->limit, err, sizeof err) == -1 ||
	    http_query_id(&req->uri, "after", &q->after, err,
	    sizeof err) == -1 ||
	    http_query_str(&req->uri, "state", 16, &state, err,
	    sizeof err) == -1 ||
	    http_query_str(&req->uri, "kind", 15, &q->kind, err,
	    sizeof err) == -1 ||
	    http_query_str(&req->uri, "link", STORE_NAME_MAX - 1, &q->link,
	    err, sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	for (i = STORE_RUN_RUNNING; state != NULL &&
	    i <= STORE_RUN_INTERRUPTED; i++)
		if (strcmp(state, store_run_state_name(
		    (enum store_run_state)i)) == 0)
			q->state = i;
	if (state != NULL && q->state == -1)
		return http_problem(res, 400, "parameter state: \"%s\" is not "
		    "one of running, done, failed, cancelled, interrupted",
		    state);
	return 0;
}

int
http_res_runs(struct http_req *req, struct http_res *res)
{
	struct store_api_runs_q	 q;
	enum report_format	 f;
	char			 err[512], *buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	if (runs_filters(req, &q, res) == -1 ||
	    http_res_format(req, res, "json|text", &f) == -1)
		return -1;
	if ((fp = open_memstream(&buf, &len)) == NULL)
		return http_problem(res, 500, "out of memory");
	return http_res_mem(fp, &buf, &len, report_runs_page(req->st, &q, f,
	    fp, err, sizeof err), err, res);
}

/* The run of the path's {id}: 1 (run filled), or -1 with the reply. */
static int
path_run(struct http_req *req, struct http_res *res, struct store_run *run)
{
	char	err[512];
	int64_t	id;
	int	r;

	if (http_parse_id(req->var[0], &id) == -1)
		return http_problem(res, 400, "run id \"%.40s\" is not a "
		    "positive integer", req->var[0]);
	if ((r = store_run_get(req->st, id, run, err, sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (r == 0)
		return http_problem(res, 404, "no run %lld", (long long)id);
	return 1;
}

static int
no_params(struct http_req *req, struct http_res *res)
{
	char	err[256];

	if (http_query_only(&req->uri, (const char *const[]){ NULL }, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	return 0;
}

int
http_res_run(struct http_req *req, struct http_res *res)
{
	struct store_run	 run;
	struct store_counts	 c;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];

	if (no_params(req, res) == -1 || path_run(req, res, &run) == -1)
		return -1;
	if (store_job_counts(req->st, run.id, NULL, &c, err,
	    sizeof err) == -1) {
		store_run_free(&run);
		return http_problem(res, 500, "%s", err);
	}
	if ((w = http_json_begin(&j)) != NULL)
		run_json(w, &run, &c);
	store_run_free(&run);
	return http_json_end(&j, res);
}

static void
job_json(struct json_writer *w, const struct store_job *jb)
{
	json_begin_obj(w);
	json_kv_int(w, "id", jb->id);
	json_kv_int(w, "run", jb->run_id);
	json_kv_int(w, "seq", jb->seq);
	json_kv_str(w, "state", store_job_state_name(jb->state));
	json_kv_str(w, "link", jb->link);
	json_kv_str(w, "knobs", jb->knobs_key);
	json_kv_str(w, "knobs_in_force", jb->knobs_in_force);
	json_kv_str(w, "tool", jb->tool);
	json_kv_str(w, "params", jb->params);
	json_kv_int(w, "repetition", jb->repetition);
	json_kv_int(w, "attempts", jb->attempt);
	json_kv_str(w, "reason", jb->reason[0] ? jb->reason : NULL);
	json_kv_str(w, "failure_class",
	    store_fail_class_name(jb->failure_class));
	json_kv_int(w, "queued_ms", jb->queued_at);
	json_kv_int(w, "started_ms", jb->started_at);
	json_kv_int(w, "finished_ms", jb->finished_at);
	json_end_obj(w);
}

int
http_res_run_jobs(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "limit", "after", NULL };
	struct store_run	 run;
	struct store_job	*jobs = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];
	size_t			 i, n = 0, limit, k = 0;
	int64_t			 after = 0, last = 0, id;

	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    http_query_limit(&req->uri, &limit, err, sizeof err) == -1 ||
	    http_query_id(&req->uri, "after", &after, err, sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (path_run(req, res, &run) == -1)
		return -1;
	id = run.id;
	store_run_free(&run);
	/* A run's jobs are one plan's matrix (thousands at most): read by
	 * seq through the index on run_id, paged here. */
	if (store_job_list(req->st, id, -1, &jobs, &n, err,
	    sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_key(w, "jobs");
		json_begin_arr(w);
		for (i = 0; i < n && k < limit; i++) {
			if (jobs[i].id <= after)
				continue;
			job_json(w, &jobs[i]);
			last = jobs[i].id;
			k++;
		}
		page_end(w, k, limit, last);
	}
	free(jobs);
	return http_json_end(&j, res);
}

/* ?baseline=ID | no_baseline=1, ?metric=, ?format= as `labrat report`
 * takes them; X-Labrat-Regressions: how many regressions it found. */
int
http_res_run_report(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "baseline", "no_baseline",
		"metric", "format", NULL };
	struct store_run	 run;
	enum report_format	 f;
	const char		*metric = NULL, *nob = NULL;
	char			 err[1024], *buf = NULL;
	size_t			 len = 0;
	FILE			*fp;
	int64_t			 id, base = 0;
	int			 rc, nreg = 0, stored;

	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    http_query_id(&req->uri, "baseline", &base, err,
	    sizeof err) == -1 ||
	    http_query_str(&req->uri, "no_baseline", 1, &nob, err,
	    sizeof err) == -1 ||
	    http_query_str(&req->uri, "metric", 63, &metric, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (nob != NULL && (strcmp(nob, "1") != 0 || base > 0))
		return http_problem(res, 400, "parameter no_baseline: 1 alone, "
		    "without baseline");
	if (http_res_format(req, res, "json|text|csv|junit", &f) == -1 ||
	    path_run(req, res, &run) == -1)
		return -1;
	id = run.id;
	store_run_free(&run);
	if (f == REPORT_JSON && base == 0 && nob == NULL && metric == NULL) {
		/* The defaults: the verdicts stored when the run finished
		 * (schema 14), else computed; nreg is stored with them. */
		if (report_run_json(req->st, req->dbpath, id, &buf, &len,
		    &stored, &nreg, err, sizeof err) == -1)
			return http_problem(res, 500, "%s", err);
		http_res_header(res, "X-Labrat-Regressions", "%d", nreg);
		return http_body_take(res, 200, buf, len);
	}
	if ((fp = open_memstream(&buf, &len)) == NULL)
		return http_problem(res, 500, "out of memory");
	rc = report_run(req->dbpath, id, nob != NULL ? -1 : base, metric, f,
	    fp, &nreg, err, sizeof err);
	if (fclose(fp) != 0)
		rc = -1;
	if (rc == -1) {
		free(buf);
		return http_problem(res, 400, "%s", err);
	}
	http_res_header(res, "X-Labrat-Regressions", "%d", nreg);
	return http_body_take(res, 200, buf, len);
}

/* The job of the path's {id}: 0 (job filled), or -1 with the reply. */
static int
path_job(struct http_req *req, struct http_res *res, struct store_job *job)
{
	char	err[512];
	int64_t	id;
	int	r;

	if (http_parse_id(req->var[0], &id) == -1)
		return http_problem(res, 400, "job id \"%.40s\" is not a "
		    "positive integer", req->var[0]);
	if ((r = store_job_get(req->st, id, job, err, sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (r == 0)
		return http_problem(res, 404, "no job %lld", (long long)id);
	return 0;
}

int
http_res_job(struct http_req *req, struct http_res *res)
{
	struct store_job	 job;
	struct http_json	 j;
	struct json_writer	*w;

	if (no_params(req, res) == -1 || path_job(req, res, &job) == -1)
		return -1;
	if ((w = http_json_begin(&j)) != NULL)
		job_json(w, &job);
	return http_json_end(&j, res);
}

/* ?name= (default client.agent): the raw output as stored. */
int
http_res_job_raw(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "name", NULL };
	struct store_job	 job;
	const char		*name = "client.agent";
	char			 err[512], *data = NULL;
	size_t			 len = 0;
	int			 r;

	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    http_query_str(&req->uri, "name", STORE_NAME_MAX - 1, &name, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (path_job(req, res, &job) == -1)
		return -1;
	r = store_raw_get(req->st, job.id, name, &data, &len, err,
	    sizeof err);
	if (r == -1)
		return http_problem(res, 500, "%s", err);
	if (r == 0)
		return http_problem(res, 404, "job %lld has no raw output "
		    "\"%s\"", (long long)job.id, name);
	res->ctype = "text/plain";
	return http_body_take(res, 200, data, len);
}

int
http_res_job_samples(struct http_req *req, struct http_res *res)
{
	struct store_job	 job;
	struct store_sample_row	*rows = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];
	size_t			 i, n = 0;
	int64_t			 id;

	if (no_params(req, res) == -1 || path_job(req, res, &job) == -1)
		return -1;
	id = job.id;
	if (store_job_samples(req->st, id, &rows, &n, err, sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_key(w, "job");
		job_json(w, &job);
		json_key(w, "samples");
		json_begin_arr(w);
		for (i = 0; i < n; i++) {
			json_begin_obj(w);
			json_kv_str(w, "metric", rows[i].metric);
			json_kv_num(w, "value", rows[i].value);
			json_kv_str(w, "unit", rows[i].unit);
			json_kv_int(w, "interval", rows[i].interval);
			json_end_obj(w);
		}
		json_end_arr(w);
		json_end_obj(w);
	}
	free(rows);
	return http_json_end(&j, res);
}

/* GET /api/v1/compare?a=RUN&b=RUN (link, knobs, metric, width, format):
 * `labrat compare A B` as the command prints it (the same
 * report_compare() call), text or json; X-Labrat-Regressions says how many
 * series regressed (the command's exit status). */

/* ?a= or ?b=: a run that exists.  0, or -1 with the reply. */
static int
compare_run(struct http_req *req, struct http_res *res, const char *key,
    int64_t *id)
{
	struct store_run	run;
	char			err[512];
	int			r;

	if ((r = http_query_id(&req->uri, key, id, err, sizeof err)) == -1)
		return http_problem(res, 400, "%s", err);
	if (r == 0)
		return http_problem(res, 400, "parameter %s: missing (a run "
		    "id)", key);
	if ((r = store_run_get(req->st, *id, &run, err, sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (r == 0)
		return http_problem(res, 404, "no run %lld", (long long)*id);
	store_run_free(&run);
	return 0;
}

static int
compare_opts(struct http_req *req, struct http_res *res,
    struct report_compare_opts *o)
{
	static const char *const keys[] = { "a", "b", "link", "knobs",
		"metric", "width", "format", NULL };
	const char	*width = NULL, *errstr;
	char		 err[256];
	long long	 w;

	memset(o, 0, sizeof *o);
	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    http_query_str(&req->uri, "link", STORE_NAME_MAX - 1, &o->link,
	    err, sizeof err) == -1 ||
	    http_query_str(&req->uri, "knobs", 512, &o->knobs, err,
	    sizeof err) == -1 ||
	    http_query_str(&req->uri, "metric", 63, &o->metric, err,
	    sizeof err) == -1 ||
	    http_query_str(&req->uri, "width", 3, &width, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (width != NULL) {
		if (util_strtonum(width, 20, 400, &w, &errstr) == -1)
			return http_problem(res, 400, "parameter width: \"%s\" "
			    "is %s (20-400)", width, errstr);
		o->width = (int)w;
	}
	return 0;
}

int
http_res_compare(struct http_req *req, struct http_res *res)
{
	struct report_compare_opts	 o;
	enum report_format		 f;
	char				 err[1024], *buf = NULL;
	size_t				 len = 0;
	FILE				*fp;
	int64_t				 a, b;
	int				 rc, nreg = 0;

	if (compare_opts(req, res, &o) == -1 ||
	    http_res_format(req, res, "text|json", &f) == -1 ||
	    compare_run(req, res, "a", &a) == -1 ||
	    compare_run(req, res, "b", &b) == -1)
		return -1;
	o.format = f;
	if ((fp = open_memstream(&buf, &len)) == NULL)
		return http_problem(res, 500, "out of memory");
	rc = report_compare(req->dbpath, a, b, &o, fp, &nreg, err,
	    sizeof err);
	if (fclose(fp) != 0)
		rc = -1;
	if (rc == -1) {
		free(buf);
		/* The runs exist: nothing in common, or not readable. */
		return http_problem(res, 400, "%s", err);
	}
	http_res_header(res, "X-Labrat-Regressions", "%d", nreg);
	return http_body_take(res, 200, buf, len);
}
