/*
 * http_res_bisect: the bisect mutations under /api/v1 (a token that may
 * write, checked by http.c first).  POST bisects queues a bisect with
 * hunt_enqueue(), the call of `labrat bisect start --enqueue` (the same
 * checks of inventory, test, link, revisions; the daemon's inventory when
 * the body names none), refused with 409 while the link is not usable
 * (maintenance, bad, retired) or a bisect with a live controller runs on
 * it.  POST bisects/{id}/reset queues the reset (store_q_add_reset(): a
 * reset item, the daemon's worker calls hunt_reset() as `labrat bisect
 * reset --bisect ID` does), refused with 409 for a bisect already reset or
 * driven by a live controller (reset would pull its hosts from under it);
 * asked again while its item waits or runs, it answers with that item.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "health.h"
#include "http_int.h"
#include "hunt.h"
#include "log.h"
#include "store.h"
#include "util.h"

#define REV_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
	"0123456789._:/+~^@-"

/* good, bad: a revision as a source names it; 1, 0 absent, -1 reply. */
static int
bisect_rev(struct json_object *o, const char *key, const char **out,
    struct http_res *res)
{
	int	r;

	if ((r = http_mut_str(o, key, STORE_NAME_MAX - 1, out, res)) != 1)
		return r == 0 ? http_problem(res, 400, "body.%s: required",
		    key) : -1;
	if (strspn(*out, REV_CHARS) != strlen(*out) || **out == '-')
		return http_problem(res, 400, "body.%s: \"%.64s\" is not a "
		    "revision ([A-Za-z0-9._:/+~^@-], not starting with -)",
		    key, *out);
	return 1;
}

/* The request from the body; 0, or -1 with the reply. */
static int
bisect_request(struct http_req *req, struct json_object *o,
    struct hunt_request *rq, struct http_res *res)
{
	const char	*p;
	int		 r;

	memset(rq, 0, sizeof *rq);
	rq->inventory = http_inventory(req->srv);
	if (http_mut_path(o, "inventory", 0, &rq->inventory, res) == -1 ||
	    (r = http_mut_str(o, "link", STORE_NAME_MAX - 1, &rq->link,
	    res)) == -1 || bisect_rev(o, "good", &rq->good, res) == -1 ||
	    bisect_rev(o, "bad", &rq->bad, res) == -1 ||
	    http_mut_path(o, "test", 1, &rq->test, res) == -1 ||
	    http_mut_str(o, "revisions", HTTP_MUT_PATH_MAX, &rq->revisions,
	    res) == -1 || http_mut_bool(o, "leave_on_culprit",
	    &rq->leave_on_culprit, res) == -1 || http_mut_str(o, "note",
	    STORE_NOTE_MAX - 1, &rq->note, res) == -1)
		return -1;
	if (r == 0 || !http_link_name_ok(rq->link))
		return http_problem(res, 400, "body.link: %s", r == 0 ?
		    "required" : "not a link name");
	if (rq->inventory == NULL)
		return http_problem(res, 400, "body.inventory: required (the "
		    "daemon serves none)");
	p = rq->revisions;
	if (p != NULL && strncmp(p, "git:", 4) == 0)
		p += 4;
	if (p != NULL && *p != '/')
		return http_problem(res, 400, "body.revisions: \"%.64s\" must be "
		    "an absolute path (or git:/PATH) on the controller",
		    rq->revisions);
	return 0;
}

/* 409 while link is not usable or a live bisect runs on it; 0 free. */
static int
bisect_conflict(struct http_req *req, const char *link,
    struct http_res *res)
{
	struct store_bisect	*list = NULL;
	enum health_state	 hs;
	enum store_owner_state	 os;
	char			 err[512], who[160];
	size_t			 n = 0, i;
	int			 rc = 0;

	if (health_get(req->dbpath, link, &hs, err, sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	if (!health_usable(hs))
		return http_problem(res, 409, "link %s is %s: no bisect is "
		    "started on it", link, health_state_name(hs));
	if (store_bisect_list(req->st, &list, &n, err, sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	for (i = 0; i < n && rc == 0; i++) {
		if (strcmp(list[i].link, link) != 0 ||
		    strcmp(list[i].state, "running") != 0)
			continue;
		os = store_owner_state(&list[i].who);
		if (os != STORE_OWNER_ALIVE && os != STORE_OWNER_ELSEWHERE)
			continue;
		store_owner_text(&list[i].who, who, sizeof who);
		rc = http_problem(res, 409, "bisect %lld runs on link %s (%s)",
		    (long long)list[i].id, link, who);
	}
	store_bisects_free(list, n);
	return rc;
}

/* hunt_enqueue()'s config error: the member it is about. */
static const char *
bisect_member(const struct hunt_request *rq, const char *err)
{
	char	l[STORE_NAME_MAX + 16];

	snprintf(l, sizeof l, "link \"%s\" is not in", rq->link);
	if (strstr(err, ": no link ") != NULL || strstr(err, l) != NULL)
		return "link";
	if (strncmp(err, rq->test, strlen(rq->test)) == 0)
		return "test";
	if (strncmp(err, "revisions:", 10) == 0 || strncmp(err, "--revisions",
	    11) == 0 || strncmp(err, "no revision source", 18) == 0)
		return "revisions";
	if (strncmp(err, "--good", 6) == 0)
		return "good";
	if (strncmp(err, "--bad", 5) == 0)
		return "bad";
	return "inventory";
}

int
http_res_bisect_start(struct http_req *req, struct http_res *res)
{
	static const char *const keys[] = { "link", "good", "bad", "test",
		"inventory", "revisions", "leave_on_culprit", "note", NULL };
	struct hunt_request	 rq;
	struct http_json	 j;
	struct json_writer	*w;
	struct json_object	*o;
	char			 err[4096];
	int64_t			 item = 0;
	int			 rc;

	if ((o = http_mut_body(req, res, keys)) == NULL)
		return -1;
	if (bisect_request(req, o, &rq, res) == -1 ||
	    bisect_conflict(req, rq.link, res) == -1) {
		json_object_put(o);
		return -1;
	}
	if ((rc = hunt_enqueue(req->dbpath, &rq, &item, err, sizeof err)) ==
	    -2)
		http_problem(res, 400, "body.%s: %s", bisect_member(&rq, err),
		    err);
	else if (rc == -1)
		http_problem(res, 503, "%s", err);
	json_object_put(o);
	if (rc != 0)
		return -1;
	log_info("http: token %s queued bisect item %lld", req->token_name,
	    (long long)item);
	res->status = 201;
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_kv_int(w, "queue", item);
		json_kv_str(w, "kind", "bisect");
		json_kv_str(w, "state", "queued");
		json_end_obj(w);
	}
	return http_json_end(&j, res);
}

/* 404 no such bisect, 409 reset already, driven by a live controller, or
 * (its hosts to be reinstalled) on a link that is not usable; 0 when its
 * reset may be queued. */
static int
reset_check(struct http_req *req, int64_t id, struct http_res *res)
{
	struct store_bisect	 b;
	enum store_owner_state	 os;
	enum health_state	 hs;
	char			 err[512], who[160];
	int			 r;

	memset(&b, 0, sizeof b);
	if ((r = store_bisect_get(req->st, id, &b, err, sizeof err)) == -1)
		return http_problem(res, 500, "%s", err);
	if (r == 0)
		return http_problem(res, 404, "no bisect %lld", (long long)id);
	os = store_owner_state(&b.who);
	store_owner_text(&b.who, who, sizeof who);
	r = 0;
	if (strcmp(b.state, "reset") == 0)
		r = http_problem(res, 409, "bisect %lld is reset already",
		    (long long)id);
	else if (strcmp(b.state, "running") == 0 &&
	    (os == STORE_OWNER_ALIVE || os == STORE_OWNER_ELSEWHERE))
		r = http_problem(res, 409, "bisect %lld is driven by %s: stop "
		    "it first", (long long)id, who);
	else if (strcmp(b.state, "done") != 0 && strcmp(b.state, "failed") !=
	    0) {
		/* Its hosts are reinstalled: as a bisect, not on a link in
		 * maintenance, bad or retired. */
		if (health_get(req->dbpath, b.link, &hs, err, sizeof err) == -1)
			r = http_problem(res, 500, "%s", err);
		else if (!health_usable(hs))
			r = http_problem(res, 409, "link %s is %s: bisect %lld's "
			    "hosts are not reinstalled", b.link,
			    health_state_name(hs), (long long)id);
	}
	store_bisect_free(&b);
	return r;
}

int
http_res_bisect_reset(struct http_req *req, struct http_res *res)
{
	struct json_object	*o = NULL;
	struct store_q_item	 it;
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[1024], who[160];
	int64_t			 id, item;
	int			 r, dup;

	if (http_query_only(&req->uri, (const char *const[]){ NULL }, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (http_parse_id(req->var[0], &id) == -1)
		return http_problem(res, 400, "bisect \"%.40s\" is not a positive "
		    "integer", req->var[0]);
	/* No body, or an empty object. */
	if (req->body_len > 0 && (o = http_mut_body(req, res,
	    (const char *const[]){ NULL })) == NULL)
		return -1;
	json_object_put(o);
	if (reset_check(req, id, res) == -1)
		return -1;
	/* The daemon's worker puts the hosts back (serve_queue.c): a reset
	 * of a running bisect reinstalls them, for minutes on real ones. */
	snprintf(who, sizeof who, "API token %s", req->token_name);
	if ((dup = store_q_add_reset(req->st, id, STORE_PRIO_INTERACTIVE, who,
	    &item, err, sizeof err)) == -1)
		return http_problem(res, 503, "%s", err);
	if ((r = store_q_get(req->st, item, &it, err, sizeof err)) != 1)
		return http_problem(res, 500, "%s", r == 0 ? "queue item gone" :
		    err);
	log_info("http: token %s: the reset of bisect %lld is item %lld%s",
	    req->token_name, (long long)id, (long long)item, dup ?
	    " (queued before)" : "");
	res->status = 202;
	if ((w = http_json_begin(&j)) != NULL) {
		json_begin_obj(w);
		json_kv_int(w, "queue", item);
		json_kv_str(w, "kind", "reset");
		json_kv_str(w, "state", store_q_state_name(it.state));
		json_kv_int(w, "bisect", id);
		json_end_obj(w);
	}
	store_q_item_free(&it);
	return http_json_end(&j, res);
}
