/*
 * http_res_mut: the first mutations under /api/v1 (a token that may write,
 * checked by http.c before these run): POST queue (enqueue a run: the
 * same run_enqueue() as `labrat run --enqueue`), DELETE queue/{id} (cancel
 * a queued item), POST hosts/{link}/maintenance (health_maintenance(), as
 * `labrat hosts maintenance`).  Bodies are JSON objects: the raw pass
 * first (json_check_raw), then json-c; unknown keys are refused.  The
 * body helpers (http_mut_*) serve every mutation: http_res_sched.c and
 * http_res_bisect.c have the others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "health.h"
#include "http_int.h"
#include "log.h"
#include "run.h"
#include "util.h"

#define MUT_WHY_MAX	512

struct json_object *
http_mut_body(struct http_req *req, struct http_res *res,
    const char *const *keys)
{
	struct json_object	*o;
	char			 err[256];
	size_t			 i;

	if (req->body == NULL || req->body_len == 0) {
		http_problem(res, 400, "body: must be a JSON object");
		return NULL;
	}
	if (json_check_raw(req->body, req->body_len, err, sizeof err) !=
	    JSON_RAW_OK) {
		http_problem(res, 400, "body: %s", err);
		return NULL;
	}
	o = json_tokener_parse(req->body);
	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		http_problem(res, 400, "body: must be a JSON object");
		return NULL;
	}
	json_object_object_foreach(o, k, v) {
		(void)v;
		for (i = 0; keys[i] != NULL && strcmp(keys[i], k) != 0; i++)
			;
		if (keys[i] == NULL) {
			http_problem(res, 400, "body.%.40s: unknown member", k);
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

int
http_mut_str(struct json_object *o, const char *key, size_t max,
    const char **out, struct http_res *res)
{
	struct json_object	*v;
	const char		*s;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (v == NULL || !json_object_is_type(v, json_type_string))
		return http_problem(res, 400, "body.%s: must be a string",
		    key);
	s = json_object_get_string(v);
	if (*s == '\0' || strlen(s) > max ||
	    strlen(s) != (size_t)json_object_get_string_len(v))
		return http_problem(res, 400, "body.%s: must be 1 to %zu "
		    "bytes", key, max);
	*out = s;
	return 1;
}

int
http_mut_path(struct json_object *o, const char *key, int required,
    const char **out, struct http_res *res)
{
	int	r;

	if ((r = http_mut_str(o, key, HTTP_MUT_PATH_MAX, out, res)) == -1)
		return -1;
	if (r == 0 && required)
		return http_problem(res, 400, "body.%s: required", key);
	if (r == 1 && (*out)[0] != '/')
		return http_problem(res, 400, "body.%s: \"%.64s\" must be an "
		    "absolute path on the controller", key, *out);
	return r;
}

int
http_mut_bool(struct json_object *o, const char *key, int *out,
    struct http_res *res)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (v == NULL || !json_object_is_type(v, json_type_boolean))
		return http_problem(res, 400, "body.%s: must be true or false",
		    key);
	*out = json_object_get_boolean(v);
	return 1;
}

static int
mut_created(struct http_res *res, int status, int64_t id, const char *kind,
    const char *state)
{
	struct http_json	 j;
	struct json_writer	*w;

	res->status = status;
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_kv_int(w, "id", id);
		json_kv_str(w, "kind", kind);
		json_kv_str(w, "state", state);
		json_end_obj(w);
	}
	return http_json_end(&j, res);
}

int
http_res_queue_add(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "inventory", "plan", "note",
		NULL };
	struct config_errors	 errs;
	struct json_object	*o;
	const char		*inv = http_inventory(req->srv), *plan = NULL;
	const char		*note = NULL;
	char			 err[1024];
	int64_t			 item = 0;
	enum run_status		 rs;

	if ((o = http_mut_body(req, res, keys)) == NULL)
		return -1;
	if (http_mut_path(o, "inventory", 0, &inv, res) == -1 ||
	    http_mut_path(o, "plan", 1, &plan, res) == -1 ||
	    http_mut_str(o, "note", STORE_NOTE_MAX - 1, &note, res) == -1)
		goto fail;
	if (inv == NULL) {
		http_problem(res, 400, "body.inventory: required (the daemon "
		    "serves none)");
		goto fail;
	}
	config_errors_init(&errs);
	rs = run_enqueue(req->dbpath, inv, plan, note, &item, &errs, err,
	    sizeof err);
	if (rs == RUN_CONFIG)
		http_problem(res, 400, "%s%s", errs.n > 0 ? errs.msgs[0] :
		    "the inventory or plan is not valid", errs.n > 1 ?
		    " (and more errors)" : "");
	else if (rs != RUN_OK)
		http_problem(res, 503, "%s", err);
	config_errors_free(&errs);
	json_object_put(o);
	if (rs != RUN_OK)
		return -1;
	log_info("http: token %s queued run item %lld", req->token_name,
	    (long long)item);
	return mut_created(res, 201, item, "run", "queued");
fail:
	json_object_put(o);
	return -1;
}

int
http_res_queue_cancel(struct http_req *req, struct http_res *res)
{
	struct store_q_item	 q;
	enum store_q_state	 state;
	char			 err[512], why[160];
	int64_t			 id;
	int			 r;

	if (http_query_only(&req->uri, (const char *const[]){ NULL }, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (http_parse_id(req->var[0], &id) == -1)
		return http_problem(res, 400, "queue item \"%.40s\" is not a "
		    "positive integer", req->var[0]);
	if ((r = store_q_get(req->st, id, &q, err, sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (r == 0)
		return http_problem(res, 404, "no queue item %lld",
		    (long long)id);
	state = q.state;
	store_q_item_free(&q);
	if (state != STORE_Q_QUEUED)
		return http_problem(res, 409, "queue item %lld is %s: only a "
		    "queued item can be cancelled", (long long)id,
		    store_q_state_name(state));
	snprintf(why, sizeof why, "cancelled through the API (token %s)",
	    req->token_name);
	if (store_q_finish(req->st, id, STORE_Q_CANCELLED, why, err,
	    sizeof err) == -1)
		return http_problem(res, 409, "%s", err);
	log_info("http: token %s cancelled queue item %lld", req->token_name,
	    (long long)id);
	return mut_created(res, 200, id, "queue item", "cancelled");
}

int
http_link_name_ok(const char *s)
{
	size_t	n = strlen(s);

	return n >= 1 && n < STORE_NAME_MAX && strspn(s,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	    "._-") == n;
}

int
http_res_maintenance(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "on", "why", NULL };
	struct health_result	 hr;
	struct json_object	*o, *v;
	struct http_json	 j;
	struct json_writer	*w;
	const char		*why = NULL;
	char			 err[512], who[160];
	int			 on;

	if (!http_link_name_ok(req->var[0]))
		return http_problem(res, 400, "\"%.64s\" is not a link name",
		    req->var[0]);
	if ((o = http_mut_body(req, res, keys)) == NULL)
		return -1;
	if (!json_object_object_get_ex(o, "on", &v) ||
	    !json_object_is_type(v, json_type_boolean)) {
		json_object_put(o);
		return http_problem(res, 400, "body.on: required, true or "
		    "false");
	}
	on = json_object_get_boolean(v);
	if (http_mut_str(o, "why", MUT_WHY_MAX, &why, res) != 1) {
		json_object_put(o);
		return res->body != NULL ? -1 : http_problem(res, 400,
		    "body.why: required");
	}
	snprintf(who, sizeof who, "API token %s", req->token_name);
	if (health_maintenance(req->dbpath, req->var[0], on, why, who, &hr,
	    err, sizeof err) == -1) {
		json_object_put(o);
		return http_problem(res, 409, "%s", err);
	}
	json_object_put(o);
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_kv_str(w, "link", req->var[0]);
		json_kv_str(w, "before", health_state_name(hr.before));
		json_kv_str(w, "after", health_state_name(hr.after));
		json_kv_str(w, "why", hr.why);
		json_end_obj(w);
	}
	return http_json_end(&j, res);
}
