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
#include "json.h"
#include "http_int.h"
#include "hunt.h"
#include "log.h"
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
	static const char *const keys[] = { "limit", "after", "format",
		NULL };
	enum report_format	 f;
	char			 err[512], *buf = NULL;
	size_t			 len = 0, limit;
	int64_t			 after = 0;
	FILE			*fp;

	if (lab_params(req, res, keys, &limit) == -1 ||
	    http_res_format(req, res, "json|text", &f) == -1)
		return -1;
	if (http_query_id(&req->uri, "after", &after, err, sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if ((fp = open_memstream(&buf, &len)) == NULL)
		return http_problem(res, 500, "out of memory");
	return http_res_mem(fp, &buf, &len, report_queue(req->dbpath, limit,
	    after, f, fp, err, sizeof err), err, res);
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

/* How bisect b judges a step, from its stored test as hunt_test_judging()
 * settles it: 1 with *threshold and *lower (0 or 1), 0 when it cannot
 * tell (no stored test, one that no longer parses). */
static int
bisect_judging(const struct store_bisect *b, double *threshold, int *lower)
{
	struct config_errors		 errs;
	struct config_bisect_test	*t;
	char				 e[256];
	int				 ok = 0;

	if (b->test_text == NULL)
		return 0;
	config_errors_init(&errs);
	t = config_bisect_test_parse(b->plan_path != NULL ? b->plan_path :
	    "test", b->test_text, strlen(b->test_text), &errs);
	if (t != NULL && hunt_test_judging(t, e, sizeof e) == 0) {
		*threshold = t->threshold;
		*lower = t->lower_is_better;
		ok = 1;
	}
	if (t != NULL)
		config_bisect_test_free(t);
	config_errors_free(&errs);
	return ok;
}

/*
 * The bisects of a page the list shows for the first time (judged -1:
 * stored before schema 15, or by a controller that does not settle them):
 * their tests are parsed here and what they say stored, in one
 * transaction, so that no later page parses them.  A store that cannot
 * take the write now is asked again next time.
 */
static void
bisects_settle(struct store *st, struct store_bisect *b, size_t n)
{
	struct store_bisect	*s;
	char			 e[256];
	size_t			 i, k = 0;

	s = xcalloc(n > 0 ? n : 1, sizeof *s);
	for (i = 0; i < n; i++) {
		if (b[i].judged != -1)
			continue;
		b[i].judged = bisect_judging(&b[i], &b[i].threshold,
		    &b[i].lower_is_better);
		s[k].id = b[i].id;
		s[k].judged = b[i].judged;
		s[k].threshold = b[i].threshold;
		s[k++].lower_is_better = b[i].lower_is_better;
	}
	if (k > 0 && store_bisect_set_judging(st, s, k, e, sizeof e) == -1)
		log_warnx("store how %zu bisects judge: %s", k, e);
	free(s);
}

static void
bisect_row(struct json_writer *w, const struct store_bisect *b)
{
	json_begin_obj(w);
	json_kv_int(w, "id", b->id);
	json_kv_str(w, "state", b->state);
	json_kv_str(w, "link", b->link);
	json_kv_str(w, "knobs", b->knobs);
	json_kv_str(w, "tool", b->tool);
	json_kv_str(w, "metric", b->metric);
	json_kv_str(w, "good", b->good);
	json_kv_str(w, "bad", b->bad);
	json_kv_str(w, "culprit", b->culprit[0] ? b->culprit : NULL);
	json_kv_num(w, "confidence", b->confidence);
	/* "threshold" and "lower_is_better": null when unknown. */
	if (b->judged == 1) {
		json_kv_num(w, "threshold", b->threshold);
		json_kv_bool(w, "lower_is_better", b->lower_is_better);
	} else {
		json_kv_null(w, "threshold");
		json_kv_null(w, "lower_is_better");
	}
	json_kv_int(w, "created_ms", b->created_at);
	json_kv_int(w, "finished_ms", b->finished_at);
	json_kv_str(w, "reason", b->reason);
	json_end_obj(w);
}

int
http_res_bisects(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "limit", "after", NULL };
	struct store_bisect	*b = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];
	size_t			 i, n = 0, limit, end;
	int64_t			 after = 0;
	int			 paged;

	/* Every bisect without limit and after (as before the cursor); a
	 * page of them, newest first, with either: the newest limit + 1
	 * older than after (one more says there is a next page). */
	if (http_query_only(&req->uri, keys, err, sizeof err) == -1 ||
	    (paged = http_query_limit(&req->uri, &limit, err,
	    sizeof err)) == -1 ||
	    http_query_id(&req->uri, "after", &after, err, sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (paged == 0 && after <= 0)
		limit = 0;
	if (store_bisect_page(req->st, after, limit == 0 ? 0 : limit + 1, &b,
	    &n, err, sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	end = limit != 0 && n > limit ? limit : n;
	bisects_settle(req->st, b, end);
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_key(w, "bisects");
		json_begin_arr(w);
		for (i = 0; i < end; i++)
			bisect_row(w, &b[i]);
		json_end_arr(w);
		if (end < n)
			json_kv_int(w, "next_after", b[end - 1].id);
		else
			json_kv_null(w, "next_after");
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
	/* As cmd_bisect_show.c's bisect_status() calls it (the JSON
	 * says how a step is judged: threshold, lower_is_better). */
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
	static const char *const keys[] = { "limit", "after", NULL };
	struct store_night	*v = NULL;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];
	size_t			 i = 0, n = 0, limit, end;
	int64_t			 after = 0;

	if (lab_params(req, res, keys, &limit) == -1)
		return -1;
	if (http_query_id(&req->uri, "after", &after, err, sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	/* The newest limit + 1 (one more says there is a next page); after
	 * a cursor every night, the newer ones skipped (a night is one row
	 * a day: years of them are a few thousand rows). */
	if (store_night_list(req->st, after > 0 ? 0 : limit + 1, &v, &n, err,
	    sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	while (after > 0 && i < n && v[i].id >= after)
		i++;
	end = n - i > limit ? i + limit : n;
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_key(w, "nights");
		json_begin_arr(w);
		for (; i < end; i++) {
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
		if (end < n && end > 0)
			json_kv_int(w, "next_after", v[end - 1].id);
		else
			json_kv_null(w, "next_after");
		json_end_obj(w);
	}
	store_nights_free(v, n);
	return http_json_end(&j, res);
}
