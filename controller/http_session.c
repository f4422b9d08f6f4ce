/*
 * http_session: the dashboard's session cookies (http_int.h "sessions")
 * and their resources:
 *
 *	POST   /api/v1/session	(a bearer token) -> a cookie and its CSRF secret
 *	GET    /api/v1/session	(the cookie) -> the session (the page reloaded)
 *	DELETE /api/v1/session	-> the session ends, the cookie is cleared
 *
 * The table is an array of at most cap entries under one mutex, looked up
 * by a scan that compares every id in constant time (cap is small: 1024).
 * http.c's auth finds a request's session, re-reads its token's row (a
 * revoked token ends its sessions) and checks X-CSRF-Token on anything
 * but a read.  Nothing here outlives the process.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http_int.h"
#include "util.h"

struct http_sessions {
	pthread_mutex_t		 mtx;
	struct http_session	*s;
	size_t			 n, cap;
};

struct http_sessions *
http_sessions_new(size_t cap)
{
	struct http_sessions	*t = xcalloc(1, sizeof *t);

	t->cap = cap > 0 ? cap : HTTP_SESSION_CAP;
	t->s = xcalloc(t->cap, sizeof *t->s);
	pthread_mutex_init(&t->mtx, NULL);
	return t;
}

void
http_sessions_free(struct http_sessions *t)
{
	if (t == NULL)
		return;
	explicit_bzero(t->s, t->cap * sizeof *t->s);
	free(t->s);
	pthread_mutex_destroy(&t->mtx);
	free(t);
}

/* Removes entry i (the mutex held): the last one takes its place. */
static void
ses_drop(struct http_sessions *t, size_t i)
{
	t->s[i] = t->s[t->n - 1];
	explicit_bzero(&t->s[t->n - 1], sizeof t->s[0]);
	t->n--;
}

/* Index of id, or t->n; every entry is compared, in constant time. */
static size_t
ses_index(struct http_sessions *t, const char *id)
{
	size_t	i, found = t->n;

	if (strlen(id) != HTTP_B64_32)
		return t->n;
	for (i = 0; i < t->n; i++)
		if (util_ct_equal(t->s[i].id, id, HTTP_B64_32) &&
		    found == t->n)
			found = i;
	return found;
}

int
http_session_new(struct http_sessions *t, int64_t token_id, int64_t now_ms,
    int64_t ttl_ms, struct http_session *out, char *err, size_t errlen)
{
	struct http_session	 ses;
	uint8_t			 rnd[64];
	size_t			 i, old;

	memset(&ses, 0, sizeof ses);
	if (http_random(rnd, sizeof rnd, err, errlen) == -1)
		return -1;
	http_b64url(rnd, 32, ses.id);
	http_b64url(rnd + 32, 32, ses.csrf);
	explicit_bzero(rnd, sizeof rnd);
	ses.token_id = token_id;
	ses.created_ms = now_ms;
	ses.expires_ms = now_ms + ttl_ms;
	pthread_mutex_lock(&t->mtx);
	for (i = 0; i < t->n; )		/* the expired ones first */
		if (t->s[i].expires_ms <= now_ms)
			ses_drop(t, i);
		else
			i++;
	if (t->n == t->cap) {		/* then the oldest */
		for (old = 0, i = 1; i < t->n; i++)
			if (t->s[i].created_ms < t->s[old].created_ms)
				old = i;
		ses_drop(t, old);
	}
	t->s[t->n++] = ses;
	pthread_mutex_unlock(&t->mtx);
	*out = ses;
	explicit_bzero(&ses, sizeof ses);
	return 0;
}

int
http_session_find(struct http_sessions *t, const char *id, int64_t now_ms,
    struct http_session *out)
{
	size_t	i;
	int	found = 0;

	pthread_mutex_lock(&t->mtx);
	if ((i = ses_index(t, id)) < t->n) {
		if (t->s[i].expires_ms <= now_ms) {
			ses_drop(t, i);
		} else {
			*out = t->s[i];
			found = 1;
		}
	}
	pthread_mutex_unlock(&t->mtx);
	return found;
}

int
http_session_remove(struct http_sessions *t, const char *id)
{
	size_t	i;
	int	found = 0;

	pthread_mutex_lock(&t->mtx);
	if ((i = ses_index(t, id)) < t->n) {
		ses_drop(t, i);
		found = 1;
	}
	pthread_mutex_unlock(&t->mtx);
	return found;
}

size_t
http_session_drop_token(struct http_sessions *t, int64_t token_id)
{
	size_t	i, n = 0;

	pthread_mutex_lock(&t->mtx);
	for (i = 0; i < t->n; )
		if (t->s[i].token_id == token_id) {
			ses_drop(t, i);
			n++;
		} else
			i++;
	pthread_mutex_unlock(&t->mtx);
	return n;
}

size_t
http_session_count(struct http_sessions *t)
{
	size_t	n;

	pthread_mutex_lock(&t->mtx);
	n = t->n;
	pthread_mutex_unlock(&t->mtx);
	return n;
}

/* ---- resources ---------------------------------------------------------- */

static void
ses_cookie(struct http_req *req, struct http_res *res, const char *id,
    int64_t max_age_s)
{
	http_res_header(res, "Set-Cookie", "%s=%s; Path=/; HttpOnly; "
	    "SameSite=Strict; Max-Age=%lld%s", HTTP_SESSION_COOKIE, id,
	    (long long)max_age_s, http_tls(req->srv) ? "; Secure" : "");
}

/* {"csrf", "read_only", "expires", "token"} of ses. */
static int
ses_reply(struct http_req *req, struct http_res *res,
    const struct http_session *ses)
{
	struct http_json	 j;
	struct json_writer	*w;
	struct tm		 tm;
	time_t			 t = (time_t)(ses->expires_ms / 1000);
	char			 when[32] = "";

	if (gmtime_r(&t, &tm) != NULL)
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if ((w = http_json_begin(&j)) == NULL)
		return http_problem(res, 500, "out of memory");
	json_begin_obj(w);
	json_kv_str(w, "csrf", ses->csrf);
	json_kv_bool(w, "read_only", req->read_only);
	json_kv_str(w, "expires", when);
	json_kv_str(w, "token", req->token_name);
	json_end_obj(w);
	return http_json_end(&j, res);
}

int
http_res_session_new(struct http_req *req, struct http_res *res)
{
	struct http_session	ses;
	char			err[256];
	int			rc;

	if (http_query_only(&req->uri, (const char *const[]){ NULL }, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (req->token_id == 0 || req->via_session)
		return http_problem(res, 401, "a session is made from a bearer "
		    "token (Authorization: Bearer lrt_...)");
	if (http_session_new(http_sessions(req->srv), req->token_id,
	    util_wall_ms(), HTTP_SESSION_TTL_MS, &ses, err, sizeof err) == -1)
		return http_problem(res, 503, "%s", err);
	ses_cookie(req, res, ses.id, HTTP_SESSION_TTL_MS / 1000);
	rc = ses_reply(req, res, &ses);
	explicit_bzero(&ses, sizeof ses);
	return rc;
}

int
http_res_session_get(struct http_req *req, struct http_res *res)
{
	struct http_session	ses;
	char			err[256];

	if (http_query_only(&req->uri, (const char *const[]){ NULL }, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (!req->via_session || http_session_find(http_sessions(req->srv),
	    req->session_id, util_wall_ms(), &ses) != 1)
		return http_problem(res, 401, "no session (POST "
		    "/api/v1/session with a bearer token makes one)");
	return ses_reply(req, res, &ses);
}

int
http_res_session_end(struct http_req *req, struct http_res *res)
{
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[256];
	int			 removed = 0;

	if (http_query_only(&req->uri, (const char *const[]){ NULL }, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (req->via_session)
		removed = http_session_remove(http_sessions(req->srv),
		    req->session_id);
	ses_cookie(req, res, "", 0);
	if ((w = http_json_begin(&j)) == NULL)
		return http_problem(res, 500, "out of memory");
	json_begin_obj(w);
	json_kv_bool(w, "removed", removed);
	json_end_obj(w);
	return http_json_end(&j, res);
}
