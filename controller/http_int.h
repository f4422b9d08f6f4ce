/*
 * http_int.h: the http module's private parts: the parsed request URI
 * (http_query.c, pure), a request and its response as the handlers see
 * them, the route table (http_route.c) and the resources (http_res_*.c).
 */
#ifndef LABRAT_HTTP_INT_H
#define LABRAT_HTTP_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "http.h"
#include "json.h"
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
};

struct http_res {
	int		 status;
	char		*body;		/* heap */
	size_t		 len;
	const char	*ctype;		/* NULL: application/json */
	char		 allow[64];	/* 405: the methods the path has */
};

/* The response is a problem object {"error": msg, "status": status}. */
int	http_problem(struct http_res *, int status, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* A JSON body built on a memstream: begin, write with w, end.  end
 * returns 0 (res filled, status 200 unless set) or -1 (500 problem). */
struct http_json {
	FILE			*fp;
	char			*buf;
	size_t			 len;
	struct json_writer	*w;
};
struct json_writer *http_json_begin(struct http_json *);
int	http_json_end(struct http_json *, struct http_res *);
/* res takes text (heap, NUL-terminated, from a memstream) as its body. */
int	http_body_take(struct http_res *, int status, char *text, size_t len);

/* ---- routes (http_route.c) -------------------------------------------- */

typedef int (*http_handler)(struct http_req *, struct http_res *);

struct http_route {
	const char	*method;
	const char	*pattern;	/* "/api/v1/runs/{id}" */
	http_handler	 fn;
	int		 mutation;	/* needs a token that may write */
};

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
int	http_res_queue_add(struct http_req *, struct http_res *);
int	http_res_queue_cancel(struct http_req *, struct http_res *);
int	http_res_maintenance(struct http_req *, struct http_res *);
int	http_res_bisect_start(struct http_req *, struct http_res *);
int	http_res_bisect_reset(struct http_req *, struct http_res *);
int	http_res_schedule_add(struct http_req *, struct http_res *);
int	http_res_schedule_rm(struct http_req *, struct http_res *);

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

/* The server, for the resources that report on it. */
int64_t	http_started_ms(const struct http_server *);
const char *http_version(const struct http_server *);
const char *http_inventory(const struct http_server *);	/* may be NULL */

#endif
