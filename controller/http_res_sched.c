/*
 * http_res_sched: the schedule mutations under /api/v1 (a token that may
 * write, checked by http.c first).  POST schedules checks and stores
 * through night_schedule_add(), the call of `labrat schedule add`; DELETE
 * schedules/{name} is store_sched_rm(), as `labrat schedule rm`, and POST
 * schedules/{name}/enable|disable store_sched_enable(), as `labrat
 * schedule enable|disable`.  Paths in a body are the controller's and must
 * be absolute.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "config.h"
#include "http_int.h"
#include "log.h"
#include "night.h"
#include "store_daemon.h"
#include "util.h"

#define SCHED_LINKS_MAX	64	/* members of "links" */
#define SCHED_CRON_MAX	256
#define SCHED_TZ_MAX	128

/* "links": an array of link names joined with ","; NULL (absent) or heap
 * into *out.  0, or -1 with the reply. */
static int
sched_links(struct json_object *o, char **out, struct http_res *res)
{
	struct json_object	*a, *v;
	struct buf		 b;
	const char		*s;
	size_t			 i, n;

	*out = NULL;
	if (!json_object_object_get_ex(o, "links", &a))
		return 0;
	if (a == NULL || !json_object_is_type(a, json_type_array) ||
	    (n = json_object_array_length(a)) == 0 || n > SCHED_LINKS_MAX)
		return http_problem(res, 400, "body.links: must be an array of "
		    "1 to %d link names", SCHED_LINKS_MAX);
	buf_init(&b, SCHED_LINKS_MAX * STORE_NAME_MAX);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(a, i);
		s = v != NULL && json_object_is_type(v, json_type_string) ?
		    json_object_get_string(v) : NULL;
		if (s == NULL || strlen(s) != (size_t)
		    json_object_get_string_len(v) || !http_link_name_ok(s)) {
			buf_free(&b);
			return http_problem(res, 400, "body.links[%zu]: must be "
			    "a link name", i);
		}
		buf_printf(&b, "%s%s", i > 0 ? "," : "", s);
	}
	*out = buf_release(&b);
	return 0;
}

/* "revisions": a path or git:PATH[:SUB,...], PATH absolute. */
static int
sched_revisions(struct json_object *o, const char **out,
    struct http_res *res)
{
	const char	*p;
	int		 r;

	if ((r = http_mut_str(o, "revisions", HTTP_MUT_PATH_MAX, out,
	    res)) != 1)
		return r;
	p = strncmp(*out, "git:", 4) == 0 ? *out + 4 : *out;
	if (*p != '/')
		return http_problem(res, 400, "body.revisions: \"%.64s\" must be "
		    "an absolute path (or git:/PATH) on the controller", *out);
	return 1;
}

/* The reply to a refused night_schedule_add(). */
static int
sched_refused(enum night_named_rc rc, const struct night_sched_added *a,
    const struct config_errors *errs, const char *err, struct http_res *res)
{
	const char	*m = strncmp(err, "--", 2) == 0 ? err + 2 : err;

	if (rc == NIGHT_NAMED_FAIL && a->dup)
		return http_problem(res, 409, "%s", err);
	if (rc == NIGHT_NAMED_FAIL)
		return http_problem(res, 500, "%s", err);
	return http_problem(res, 400, "body.%s: %s%s", a->field != NULL ?
	    a->field : "plan", errs->n > 0 ? errs->msgs[0] : m,
	    errs->n > 1 ? " (and more errors)" : "");
}

static int
sched_created(struct http_res *res, const char *name, time_t next)
{
	struct http_json	 j;
	struct json_writer	*w;
	struct tm		 tm;
	char			 buf[32];

	res->status = 201;
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_kv_str(w, "name", name);
		if (next == (time_t)-1 || gmtime_r(&next, &tm) == NULL)
			json_kv_null(w, "next");
		else {
			strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
			json_kv_str(w, "next", buf);
		}
		json_end_obj(w);
	}
	return http_json_end(&j, res);
}

int
http_res_schedule_add(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "name", "cron", "tz", "inventory",
		"plan", "links", "revisions", NULL };
	struct night_sched_added a;
	struct config_errors	 errs;
	struct store_sched	 s;
	struct json_object	*o;
	const char		*name = NULL, *cron = NULL, *tz = NULL;
	const char		*inv = NULL, *plan = NULL, *revs = NULL;
	char			*links = NULL, err[1024];
	enum night_named_rc	 rc;

	if ((o = http_mut_body(req, res, keys)) == NULL)
		return -1;
	if (http_mut_str(o, "name", STORE_NAME_MAX, &name, res) == -1 ||
	    http_mut_str(o, "cron", SCHED_CRON_MAX, &cron, res) == -1 ||
	    http_mut_str(o, "tz", SCHED_TZ_MAX, &tz, res) == -1 ||
	    http_mut_path(o, "inventory", 1, &inv, res) == -1 ||
	    http_mut_path(o, "plan", 1, &plan, res) == -1 ||
	    sched_links(o, &links, res) == -1 ||
	    sched_revisions(o, &revs, res) == -1) {
		free(links);
		json_object_put(o);
		return -1;
	}
	if (name == NULL || cron == NULL) {
		free(links);
		json_object_put(o);
		return http_problem(res, 400, "body.%s: required",
		    name == NULL ? "name" : "cron");
	}
	memset(&s, 0, sizeof s);
	s.name = (char *)name;
	s.cron = (char *)cron;
	s.tz = (char *)tz;
	s.inventory_path = (char *)inv;
	s.plan_path = (char *)plan;
	s.links = links;
	s.revisions = (char *)revs;
	s.enabled = 1;
	config_errors_init(&errs);
	rc = night_schedule_add(req->dbpath, &s, &a, &errs, err, sizeof err);
	if (rc != NIGHT_NAMED_OK)
		sched_refused(rc, &a, &errs, err, res);
	else {
		log_info("http: token %s added schedule %s", req->token_name,
		    name);
		sched_created(res, name, a.next);
	}
	config_errors_free(&errs);
	free(links);
	json_object_put(o);
	return rc == NIGHT_NAMED_OK ? 0 : -1;
}

/* DELETE schedules/{name} (op 'r'), POST schedules/{name}/enable ('e') and
 * /disable ('d'): the named schedule's store call; 404 when there is none. */
static int
sched_named(struct http_req *req, struct http_res *res, int op)
{
	static const char *const done[] = { "removed", "enabled", "disabled" };
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[512];
	int			 r, k = op == 'r' ? 0 : op == 'e' ? 1 : 2;

	if (http_query_only(&req->uri, (const char *const[]){ NULL }, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (!store_sched_name_ok(req->var[0]))
		return http_problem(res, 400, "schedule name \"%.64s\": must "
		    "match ^[A-Za-z0-9._-]{1,64}$", req->var[0]);
	if (op == 'r')
		r = store_sched_rm(req->st, req->var[0], err, sizeof err);
	else
		r = store_sched_enable(req->st, req->var[0], op == 'e', err,
		    sizeof err);
	if (r == -1)
		return http_problem(res, 500, "%s", err);
	if (r == 0)
		return http_problem(res, 404, "no schedule \"%s\"",
		    req->var[0]);
	log_info("http: token %s %s schedule %s", req->token_name, done[k],
	    req->var[0]);
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_kv_str(w, "name", req->var[0]);
		if (op == 'r')
			json_kv_bool(w, "removed", 1);
		else
			json_kv_bool(w, "enabled", op == 'e');
		json_end_obj(w);
	}
	return http_json_end(&j, res);
}

int
http_res_schedule_rm(struct http_req *req, struct http_res *res)
{
	return sched_named(req, res, 'r');
}

int
http_res_schedule_enable(struct http_req *req, struct http_res *res)
{
	return sched_named(req, res, 'e');
}

int
http_res_schedule_disable(struct http_req *req, struct http_res *res)
{
	return sched_named(req, res, 'd');
}
