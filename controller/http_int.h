/*
 * http_int.h: the http module's private parts: the parsed request URI
 * (http_query.c, pure), a request and its response as the handlers see
 * them, the route table (http_route.c), the resources (http_res_*.c), the
 * session table (http_session.c) and the static files (http_static.c).
 */
#ifndef LABRAT_HTTP_INT_H
#define LABRAT_HTTP_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "http.h"
#include "json.h"
#include "report.h"
#include "store.h"

/* ---- the URI: path segments and query (http_query.c) ----------------- */

#define HTTP_URI_MAX	4096	/* raw request target, bytes */
#define HTTP_SEGS_MAX	8	/* path segments */
#define HTTP_SEG_MAX	256	/* one decoded segment, bytes */
#define HTTP_PARAMS_MAX	32	/* key=value pairs */
#define HTTP_KEY_MAX	32	/* one decoded key, bytes */
#define HTTP_VAL_MAX	1024	/* one decoded value, bytes */
#define HTTP_LIMIT_DEFAULT 50	/* ?limit= absent */
#define HTTP_LIMIT_MAX	500	/* larger limits are cut to this */

struct http_param {
	const char	*key;
	const char	*val;
};

/* Everything points into buf: decoding never grows a string. */
struct http_uri {
	size_t		  nseg;
	const char	 *seg[HTTP_SEGS_MAX];
	size_t		  nparam;
	struct http_param param[HTTP_PARAMS_MAX];
	char		  buf[HTTP_URI_MAX + 2];
};

/*
 * Parses a raw request target ("/api/v1/runs?limit=5&state=done", len
 * bytes, no NUL needed) into u.  Path segments are percent-decoded and
 * refused when empty, "." or "..", longer than HTTP_SEG_MAX, holding a
 * NUL, a "/" or a control character, or not valid UTF-8; the query is
 * split on "&" (empty pairs skipped), "+" is a blank, %XX decoded, keys
 * and values checked the same way (a key must be [a-z0-9_]+).  0, or -1
 * with err naming what is wrong (the caller answers 400; 414 for a target
 * over HTTP_URI_MAX).
 */
int	http_uri_parse(const char *raw, size_t len, struct http_uri *u,
	    char *err, size_t errlen);
/* The first value of key, or NULL; how many times key is given. */
const char *http_query_get(const struct http_uri *, const char *key);
size_t	http_query_count(const struct http_uri *, const char *key);
/*
 * A positive int64 (1..INT64_MAX, decimal digits only) from a segment or a
 * parameter value: 0, or -1.
 */
int	http_parse_id(const char *s, int64_t *out);
/*
 * ?KEY=ID: 1 with *out, 0 when absent (*out untouched), -1 with err
 * ("parameter KEY: \"abc\" is not a positive integer"; also when given
 * twice).
 */
int	http_query_id(const struct http_uri *, const char *key, int64_t *out,
	    char *err, size_t errlen);
/* ?limit=: HTTP_LIMIT_DEFAULT when absent, cut to HTTP_LIMIT_MAX; -1 with
 * err when not a positive integer. */
int	http_query_limit(const struct http_uri *, size_t *out, char *err,
	    size_t errlen);
/* ?KEY=text: 1 with *out (points into u), 0 absent, -1 given twice or
 * longer than max bytes (err names it). */
int	http_query_str(const struct http_uri *, const char *key, size_t max,
	    const char **out, char *err, size_t errlen);
/* Every key of u is in allowed (NULL-terminated): 0, else -1 with err
 * naming the first unknown one. */
int	http_query_only(const struct http_uri *, const char *const *allowed,
	    char *err, size_t errlen);

/* ---- a request and its response --------------------------------------- */

#define HTTP_VARS_MAX	4
#define HTTP_HDRS_MAX	8

struct http_req {
	struct http_server	*srv;
	const char		*method;
	struct http_uri		 uri;
	const char		*var[HTTP_VARS_MAX];	/* "{...}" segments, in order */
	size_t			 nvar;
	const char		*body;		/* NUL-terminated, may be NULL */
	size_t			 body_len;
	const char		*authorization;	/* the header, or NULL */
	struct store		*st;		/* this thread's connection */
	const char		*dbpath;
	int64_t			 token_id;	/* 0: no token */
	int			 read_only;	/* the token's */
	char			 token_name[64];
	int			 via_session;	/* authenticated by the cookie */
	char			 session_id[64];	/* its id, when via_session */
	int			 dir;		/* the target was "/ui/" */
	void			*conn;		/* libmicrohttpd's connection */
};

/* A request header (case-insensitive name) or a cookie's value, or NULL. */
const char *http_req_header(const struct http_req *, const char *name);
const char *http_req_cookie(const struct http_req *, const char *name);
/* Whether the server listens on https:// (cookies get Secure). */
int	http_tls(const struct http_server *);
int	http_reads_open(const struct http_server *);

struct http_res {
	int		 status;
	char		*body;		/* heap */
	size_t		 len;
	const char	*ctype;		/* NULL: application/json */
	char		 allow[64];	/* 405: the methods the path has */
	/* Further headers; a Cache-Control here replaces the default
	 * no-store. */
	struct http_hdr {
		const char	*name;		/* a literal */
		char		 value[320];
	}		 hdr[HTTP_HDRS_MAX];
	size_t		 nhdr;
};

/* Adds a header to res (silently dropped past HTTP_HDRS_MAX). */
void	http_res_header(struct http_res *, const char *name, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));

/* The response is a problem object {"error": msg, "status": status}. */
int	http_problem(struct http_res *, int status, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* A JSON body built on a memstream: begin, write with w, end.  end
 * returns 0 (res filled, status 200 unless set) or -1 (500 problem). */
struct http_json {
	struct json_mem		m;
};
struct json_writer *http_json_begin(struct http_json *);
int	http_json_end(struct http_json *, struct http_res *);
/* res takes text (heap, NUL-terminated, from a memstream) as its body. */
int	http_body_take(struct http_res *, int status, char *text, size_t len);

/*
 * ?format= of a read whose CLI command has --format (http_res_runs.c):
 * one of allowed ("json|text|csv|junit"), the first when absent, into *f;
 * res->ctype is set to its type (text/plain, text/csv, application/xml,
 * NULL for JSON).  0, or -1 with the 400 reply naming the parameter.
 */
int	http_res_format(struct http_req *, struct http_res *,
	    const char *allowed, enum report_format *f);
/* A module's memstream output as the reply (http_res_lab.c): rc 0 takes
 * *buf as the 200 body, else a 500 naming err.  Closes fp. */
int	http_res_mem(FILE *fp, char **buf, size_t *len, int rc,
	    const char *err, struct http_res *res);

/* ---- routes (http_route.c) -------------------------------------------- */

typedef int (*http_handler)(struct http_req *, struct http_res *);

struct http_route {
	const char	*method;
	const char	*pattern;	/* "/api/v1/runs/{id}" */
	http_handler	 fn;
	int		 mutation;	/* needs a token that may write */
};
/* Routes outside /api/ (the dashboard's files) need no auth, no store. */
#define HTTP_ROUTE_OPEN(rt)	(strncmp((rt)->pattern, "/api/", 5) != 0)

extern const struct http_route http_routes[];

/*
 * Finds the route of req's method and path and calls it: 404 (no such
 * path), 405 with res->allow (the path exists for other methods), else
 * the handler's response.  Auth is the caller's (http.c) business; it
 * asks http_route_find() first.
 */
const struct http_route *http_route_find(struct http_req *,
	    struct http_res *);

/* ---- resources (http_res_*.c) ----------------------------------------- */

int	http_res_status(struct http_req *, struct http_res *);
int	http_res_runs(struct http_req *, struct http_res *);
int	http_res_run(struct http_req *, struct http_res *);
int	http_res_run_jobs(struct http_req *, struct http_res *);
int	http_res_run_report(struct http_req *, struct http_res *);
int	http_res_job(struct http_req *, struct http_res *);
int	http_res_job_raw(struct http_req *, struct http_res *);
int	http_res_job_samples(struct http_req *, struct http_res *);
int	http_res_queue(struct http_req *, struct http_res *);
int	http_res_hosts(struct http_req *, struct http_res *);
int	http_res_schedules(struct http_req *, struct http_res *);
int	http_res_bisects(struct http_req *, struct http_res *);
int	http_res_bisect(struct http_req *, struct http_res *);
int	http_res_bisect_log(struct http_req *, struct http_res *);
int	http_res_nights(struct http_req *, struct http_res *);
/* http_res_series.c */
int	http_res_series_keys(struct http_req *, struct http_res *);
int	http_res_series(struct http_req *, struct http_res *);
int	http_res_night(struct http_req *, struct http_res *);
int	http_res_host_health(struct http_req *, struct http_res *);
int	http_res_schedule(struct http_req *, struct http_res *);
int	http_res_compare(struct http_req *, struct http_res *);
int	http_res_queue_add(struct http_req *, struct http_res *);
int	http_res_queue_cancel(struct http_req *, struct http_res *);
int	http_res_maintenance(struct http_req *, struct http_res *);
int	http_res_bisect_start(struct http_req *, struct http_res *);
int	http_res_bisect_reset(struct http_req *, struct http_res *);
int	http_res_schedule_add(struct http_req *, struct http_res *);
int	http_res_schedule_rm(struct http_req *, struct http_res *);
int	http_res_schedule_enable(struct http_req *, struct http_res *);
int	http_res_schedule_disable(struct http_req *, struct http_res *);

int	http_res_session_new(struct http_req *, struct http_res *);
int	http_res_session_get(struct http_req *, struct http_res *);
int	http_res_session_end(struct http_req *, struct http_res *);
int	http_res_root(struct http_req *, struct http_res *);
int	http_res_ui(struct http_req *, struct http_res *);

/* ---- mutation bodies (http_res_mut.c) --------------------------------- */

#define HTTP_MUT_PATH_MAX 1024	/* a path member, bytes */

struct json_object;
/*
 * The body as a JSON object (json_check_raw(), then json-c) with only the
 * members keys (NULL-terminated); NULL with a 400 in res naming what is
 * wrong ("body.foo: unknown member").  The caller puts the object.
 */
struct json_object *http_mut_body(struct http_req *, struct http_res *,
	    const char *const *keys);
/* A string member (1 to max bytes, no NUL): 1 with *out (the object's),
 * 0 absent (*out untouched), -1 with a 400 naming "body.KEY". */
int	http_mut_str(struct json_object *, const char *key, size_t max,
	    const char **out, struct http_res *);
/* A path member: as http_mut_str(), absolute; absent and required -> 400. */
int	http_mut_path(struct json_object *, const char *key, int required,
	    const char **out, struct http_res *);
/* A boolean member: 1 with *out, 0 absent, -1 with a 400. */
int	http_mut_bool(struct json_object *, const char *key, int *out,
	    struct http_res *);
/* A link name: [A-Za-z0-9._-], 1 to STORE_NAME_MAX - 1 bytes. */
int	http_link_name_ok(const char *);

/* ---- sessions (http_session.c) ---------------------------------------- */

/*
 * The dashboard's sessions, in memory only (a restart asks for the token
 * again): a cookie id and a CSRF secret, each 32 bytes of getrandom(2) in
 * unpadded base64url (43 characters), the token they stand for and when
 * they expire.  At most cap sessions: a new one evicts the oldest.  Every
 * call takes the table's mutex; what it returns is a copy.
 */
#define HTTP_SESSION_CAP	1024
#define HTTP_SESSION_TTL_MS	(12LL * 3600 * 1000)
#define HTTP_SESSION_COOKIE	"labrat_session"
#define HTTP_B64_32		43	/* base64url of 32 bytes */

struct http_session {
	char	id[HTTP_B64_32 + 1];
	char	csrf[HTTP_B64_32 + 1];
	int64_t	token_id;
	int64_t	created_ms, expires_ms;
};
struct http_sessions;

/* A table of at most cap (0: HTTP_SESSION_CAP) sessions; free: NULL ok. */
struct http_sessions *http_sessions_new(size_t cap);
void	http_sessions_free(struct http_sessions *);
/* A new session of token_id from now_ms (expires now + ttl_ms): 0 with
 * *out, -1 when getrandom fails (err). */
int	http_session_new(struct http_sessions *, int64_t token_id,
	    int64_t now_ms, int64_t ttl_ms, struct http_session *out,
	    char *err, size_t errlen);
/* 1 with *out when id names a live session (an expired one is removed:
 * 0), 0 when unknown.  The ids are compared in constant time. */
int	http_session_find(struct http_sessions *, const char *id,
	    int64_t now_ms, struct http_session *out);
/* Removes the session id: 1, or 0 when there is none. */
int	http_session_remove(struct http_sessions *, const char *id);
/* Removes every session of token_id (it was revoked); how many. */
size_t	http_session_drop_token(struct http_sessions *, int64_t token_id);
size_t	http_session_count(struct http_sessions *);
/* The server's table. */
struct http_sessions *http_sessions(struct http_server *);

/* getrandom(2) into buf: 0, or -1 with err (http_token.c). */
int	http_random(void *buf, size_t len, char *err, size_t errlen);
/* Unpadded base64url of n bytes into out (4 * n / 3 + 2 bytes). */
void	http_b64url(const uint8_t *in, size_t n, char *out);

/* ---- static files (http_static.c) ------------------------------------- */

#define HTTP_ETAG_MAX	48
/* The Content-Type of a file name by its extension (octet-stream else). */
const char *http_static_ctype(const char *name);
/* A strong ETag: "\"" + hex of SHA-256's first 16 bytes [+ "-gz"] + "\"". */
void	http_static_etag(const void *data, size_t len, int gz,
	    char out[HTTP_ETAG_MAX]);
/* Whether an If-None-Match header value matches etag (a list, W/, "*"). */
int	http_static_etag_match(const char *inm, const char *etag);
/* Whether an Accept-Encoding header value allows gzip (q > 0). */
int	http_static_gzip_ok(const char *accept_encoding);
/* Cache-Control of a file: index.html no-cache, vendor/ max-age. */
const char *http_static_cache(const char *name);
/* The directory http.static_dir names, or -1 for the embedded set. */
int	http_static_dirfd(const struct http_server *);

/* The server, for the resources that report on it. */
int64_t	http_started_ms(const struct http_server *);
const char *http_version(const struct http_server *);
const char *http_inventory(const struct http_server *);	/* may be NULL */

#endif
