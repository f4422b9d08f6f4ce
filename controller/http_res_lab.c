/*
 * http_res_lab: the daemon's side of the store under /api/v1: the queue
 * (as `labrat queue` writes it), link health (as `labrat hosts health`),
 * schedules (as `labrat schedule list` and `schedule show NAME`), bisects
 * (the list; one as `labrat bisect status`; its log as `bisect log`) and
 * nights.  Each read of a command with --format takes ?format= with the
 * command's formats and is written by the same call the command makes
 * (JSON by default; the log's default is text, as the command's is).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "health.h"
#include "http_int.h"
#include "hunt.h"
#include "report.h"
#include "util.h"

static int
lab_params(struct http_req *req, struct http_res *res,
    const char *const *keys, size_t *limit)
{
	char	err[256];

	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    (limit != NULL && http_query_limit(&req->uri, limit, err,
	    sizeof err) == -1))
		return http_problem(res, 400, "%s", err);
	return 0;
}

/* A memstream a module writes its JSON (or text) to; rc its result. */
int
http_res_mem(FILE *fp, char **buf, size_t *len, int rc, const char *err,
    struct http_res *res)
{
	/* *buf and *len are the memstream's: valid only after fclose(). */
	if (fclose(fp) != 0)
		rc = -1;
	if (rc != 0) {
		free(*buf);
		return http_problem(res, 500, "%s", err);
	}
	return http_body_take(res, 200, *buf, *len);
}

int
http_res_queue(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "limit", "format", NULL };
	enum report_format	 f;
	char			 err[512], *buf = NULL;
	size_t			 len = 0, limit;
	FILE			*fp;

	if (lab_params(req, res, keys, &limit) == -1 ||
	    http_res_format(req, res, "json|text", &f) == -1)
		return -1;
	if ((fp = open_memstream(&buf, &len)) == NULL)
		return http_problem(res, 500, "out of memory");
	return http_res_mem(fp, &buf, &len, report_queue(req->dbpath, limit,
	    f, fp, err, sizeof err), err, res);
}

int
http_res_hosts(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "limit", "format", NULL };
	enum report_format	 f;
	char			 err[512], *buf = NULL;
	size_t			 len = 0, limit;
	FILE			*fp;

	/* ?limit=: the transitions shown (`hosts health` shows 10). */
	if (lab_params(req, res, keys, &limit) == -1 ||
	    http_res_format(req, res, "json|text", &f) == -1)
		return -1;
	if ((fp = open_memstream(&buf, &len)) == NULL)
		return http_problem(res, 500, "out of memory");
	return http_res_mem(fp, &buf, &len, health_show(req->dbpath,
	    limit, f == REPORT_JSON, fp, err, sizeof err), err, res);
}

/* As `labrat schedule list` (name NULL) or `schedule show NAME` print. */
static int
sched_show(struct http_req *req, struct http_res *res, const char *name)
{
	static const char *const keys[] = { "format", NULL };
	enum report_format	 f;
	char			 err[512], *buf = NULL;
	size_t			 len = 0;
	FILE			*fp;
	int			 rc;

	if (lab_params(req, res, keys, NULL) == -1 ||
	    http_res_format(req, res, "json|text", &f) == -1)
		return -1;
	if ((fp = open_memstream(&buf, &len)) == NULL)
		return http_problem(res, 500, "out of memory");
	rc = report_schedules(req->dbpath, name, f, fp, err, sizeof err);
	if (rc == 1) {
		fclose(fp);
		free(buf);
		return http_problem(res, 404, "no schedule \"%s\"", name);
	}
	return http_res_mem(fp, &buf, &len, rc, err, res);
}

int
http_res_schedules(struct http_req *req, struct http_res *res)
{
	return sched_show(req, res, NULL);
}

int
http_res_schedule(struct http_req *req, struct http_res *res)
{
	return sched_show(req, res, req->var[0]);
}

int
http_res_bisects(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { NULL };
	struct store_bisect	*b = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];
	size_t			 i, n = 0;

	if (lab_params(req, res, keys, NULL) == -1)
		return -1;
	if (store_bisect_list(req->st, &b, &n, err, sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_key(w, "bisects");
		json_begin_arr(w);
		for (i = 0; i < n; i++) {
			json_begin_obj(w);
			json_kv_int(w, "id", b[i].id);
			json_kv_str(w, "state", b[i].state);
			json_kv_str(w, "link", b[i].link);
			json_kv_str(w, "knobs", b[i].knobs);
			json_kv_str(w, "tool", b[i].tool);
			json_kv_str(w, "metric", b[i].metric);
			json_kv_str(w, "good", b[i].good);
			json_kv_str(w, "bad", b[i].bad);
			json_kv_str(w, "culprit", b[i].culprit[0] ?
			    b[i].culprit : NULL);
			json_kv_num(w, "confidence", b[i].confidence);
			json_kv_int(w, "created_ms", b[i].created_at);
			json_kv_int(w, "finished_ms", b[i].finished_at);
			json_kv_str(w, "reason", b[i].reason);
			json_end_obj(w);
		}
		json_end_arr(w);
		json_end_obj(w);
	}
	store_bisects_free(b, n);
	return http_json_end(&j, res);
}

/* /bisects/{id} (`bisect status`, JSON by default) and /bisects/{id}/log
 * (`bisect log`, text by default). */
static int
bisect_show(struct http_req *req, struct http_res *res, int log)
{
	static const char *const keys[] = { "format", NULL };
	struct store_bisect	 b;
	enum report_format	 f;
	char			 err[512], *buf = NULL;
	size_t			 len = 0;
	int64_t			 id;
	FILE			*fp;
	int			 r;

	if (lab_params(req, res, keys, NULL) == -1 ||
	    http_res_format(req, res, log ? "text|json" : "json|text",
	    &f) == -1)
		return -1;
	if (http_parse_id(req->var[0], &id) == -1)
		return http_problem(res, 400, "bisect id \"%.40s\" is not a "
		    "positive integer", req->var[0]);
	if ((r = store_bisect_get(req->st, id, &b, err, sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (r == 0)
		return http_problem(res, 404, "no bisect %lld", (long long)id);
	store_bisect_free(&b);
	if ((fp = open_memstream(&buf, &len)) == NULL)
		return http_problem(res, 500, "out of memory");
	/* As cmd_bisect_show.c's bisect_status() calls it. */
	r = hunt_show(req->dbpath, id, log ? HUNT_SHOW_LOG : HUNT_SHOW_STATUS,
	    f == REPORT_JSON, fp, err, sizeof err);
	return http_res_mem(fp, &buf, &len, r, err, res);
}

int
http_res_bisect(struct http_req *req, struct http_res *res)
{
	return bisect_show(req, res, 0);
}

int
http_res_bisect_log(struct http_req *req, struct http_res *res)
{
	return bisect_show(req, res, 1);
}

int
http_res_nights(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "limit", NULL };
	struct store_night	*v = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];
	size_t			 i, n = 0, limit;

	if (lab_params(req, res, keys, &limit) == -1)
		return -1;
	if (store_night_list(req->st, limit, &v, &n, err, sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_key(w, "nights");
		json_begin_arr(w);
		for (i = 0; i < n; i++) {
			json_begin_obj(w);
			json_kv_int(w, "id", v[i].id);
			json_kv_int(w, "schedule", v[i].schedule_id);
			json_kv_int(w, "slot_ms", v[i].slot);
			json_kv_str(w, "links", v[i].links);
			json_kv_str(w, "state", v[i].state);
			json_kv_str(w, "revision", v[i].revision);
			json_kv_int(w, "good_night", v[i].good_night);
			json_kv_int(w, "run", v[i].run_id);
			json_kv_int(w, "confirm_run", v[i].confirm_run_id);
			json_kv_bool(w, "good", v[i].good);
			json_key(w, "verdicts");
			json_put_raw(w, v[i].verdicts);
			json_kv_str(w, "reason", v[i].reason);
			json_kv_int(w, "created_ms", v[i].created);
			json_kv_int(w, "finished_ms", v[i].finished);
			json_end_obj(w);
		}
		json_end_arr(w);
		json_end_obj(w);
	}
	store_nights_free(v, n);
	return http_json_end(&j, res);
}
