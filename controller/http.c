/*
 * http: the server's life over libmicrohttpd (see http.h).
 *
 * Threads: libmicrohttpd's internal thread pool (conf.threads, epoll), so
 * a slow or trickling client holds a connection, not a thread, and the
 * total and per-address connection caps bound what a client can take.
 * Store: a struct store is used by one thread at a time, so the server
 * keeps one connection per pool thread in a small pool taken and given
 * back around each request (a thread handles one request at a time, so
 * taking never waits); a mutex guards only the pool's bookkeeping, the
 * reads themselves run in parallel (WAL).
 *
 * The request target is read raw (the URI log callback sees it before
 * libmicrohttpd unescapes anything) and parsed by http_query.c, so "%2e%2e"
 * or "%00" reach our checks and never a decoded path.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "http.h"
#include "http_int.h"
#include "log.h"
#include "util.h"

#define HTTP_THREADS_DEFAULT	4
#define HTTP_CONN_MEMORY	(32 * 1024)	/* request line + headers */
#define HTTP_PEM_MAX		(1024 * 1024)
/* Every reply (the dashboard's above all): nothing but our own origin. */
#define HTTP_CSP	"default-src 'self'; img-src 'self' data:; " \
			"style-src 'self'; script-src 'self'; " \
			"connect-src 'self'; frame-ancestors 'none'"

struct http_pool {
	pthread_mutex_t	  mtx;
	struct store	**st;
	int		 *busy;
	size_t		  n;
};

/* Requests of one token in the current minute (a fixed window). */
struct http_rate {
	int64_t	token_id;
	int64_t	window;		/* wall-clock minute */
	int	n;
};
#define HTTP_RATE_SLOTS	64

struct http_server {
	struct MHD_Daemon	*mhd;
	pthread_mutex_t		 rmtx;
	struct http_rate	 rate[HTTP_RATE_SLOTS];
	char			*listen, *version, *inventory, *dbpath;
	char			*cert_pem, *key_pem;
	int			 reads_open;
	int			 tls;
	int			 static_fd;	/* http.static_dir, or -1 */
	struct http_sessions	*sessions;
	atomic_int		 inflight;	/* requests begun, not done */
	size_t			 max_body;
	int			 rate_per_min;
	atomic_int		 draining;
	int64_t			 started_ms;
	struct http_pool	 pool;
};

/* What one request carries between libmicrohttpd's calls. */
struct http_conn {
	char	*target;	/* the raw request target */
	int	 started;
	int	 too_big;
	char	*body;
	size_t	 body_len;
};

void
http_conf_from_config(struct http_conf *c, const struct config_http *h)
{
	memset(c, 0, sizeof *c);
	c->listen = h->listen;
	c->cert = h->cert;
	c->key = h->key;
	c->reads_open = h->reads == CONFIG_HTTP_READS_OPEN;
	c->max_connections = h->max_connections;
	c->per_address = h->per_address;
	c->timeout_s = h->timeout_s;
	c->max_body = (size_t)h->max_body;
	c->rate_per_min = h->rate_per_min;
	c->static_dir = h->static_dir;
}

int
http_tls(const struct http_server *s)
{
	return s->tls;
}

int
http_reads_open(const struct http_server *s)
{
	return s->reads_open;
}

int
http_static_dirfd(const struct http_server *s)
{
	return s->static_fd;
}

struct http_sessions *
http_sessions(struct http_server *s)
{
	return s->sessions;
}

const char *
http_req_header(const struct http_req *req, const char *name)
{
	if (req->conn == NULL)
		return NULL;
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

const char *
http_req_cookie(const struct http_req *req, const char *name)
{
	if (req->conn == NULL)
		return NULL;
	return MHD_lookup_connection_value(req->conn, MHD_COOKIE_KIND, name);
}

int64_t
http_started_ms(const struct http_server *s)
{
	return s->started_ms;
}

const char *
http_version(const struct http_server *s)
{
	return s->version;
}

const char *
http_inventory(const struct http_server *s)
{
	return s->inventory;
}

/* ---- store pool ------------------------------------------------------- */

static struct store *
http_pool_take(struct http_server *s, char *err, size_t errlen)
{
	struct store	*st = NULL;
	size_t		 i;

	pthread_mutex_lock(&s->pool.mtx);
	for (i = 0; i < s->pool.n && s->pool.busy[i]; i++)
		;
	if (i < s->pool.n)
		s->pool.busy[i] = 1;
	pthread_mutex_unlock(&s->pool.mtx);
	if (i == s->pool.n) {
		util_seterr(err, errlen, "no store connection free");
		return NULL;
	}
	if (s->pool.st[i] == NULL && store_open(s->dbpath, 0, &st, err,
	    errlen) == -1) {
		pthread_mutex_lock(&s->pool.mtx);
		s->pool.busy[i] = 0;
		pthread_mutex_unlock(&s->pool.mtx);
		return NULL;
	}
	if (s->pool.st[i] == NULL)
		s->pool.st[i] = st;	/* slot i is ours alone while busy */
	return s->pool.st[i];
}

static void
http_pool_give(struct http_server *s, struct store *st)
{
	size_t	i;

	pthread_mutex_lock(&s->pool.mtx);
	for (i = 0; i < s->pool.n; i++)
		if (s->pool.st[i] == st)
			s->pool.busy[i] = 0;
	pthread_mutex_unlock(&s->pool.mtx);
}

/* ---- responses --------------------------------------------------------- */

static enum MHD_Result
http_send(struct MHD_Connection *c, struct http_res *res)
{
	struct MHD_Response	*r;
	enum MHD_Result		 ret;
	size_t			 i;
	int			 cache = 0;

	r = MHD_create_response_from_buffer(res->len, res->body,
	    MHD_RESPMEM_MUST_FREE);
	if (r == NULL) {
		free(res->body);
		return MHD_NO;
	}
	res->body = NULL;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
	    res->ctype != NULL ? res->ctype : "application/json");
	for (i = 0; i < res->nhdr; i++) {
		MHD_add_response_header(r, res->hdr[i].name,
		    res->hdr[i].value);
		cache |= strcasecmp(res->hdr[i].name, "Cache-Control") == 0;
	}
	if (!cache)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
		    "no-store");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, "Content-Security-Policy", HTTP_CSP);
	if (res->status == MHD_HTTP_METHOD_NOT_ALLOWED && res->allow[0])
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, res->allow);
	if (res->status == MHD_HTTP_SERVICE_UNAVAILABLE)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "5");
	if (res->status == MHD_HTTP_UNAUTHORIZED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
		    "Bearer realm=\"labrat\"");
	ret = MHD_queue_response(c, (unsigned int)res->status, r);
	MHD_destroy_response(r);
	return ret;
}

/* 1 when the token may make one more request this minute. */
static int
http_rate_ok(struct http_server *s, int64_t token_id)
{
	struct http_rate	*r, *victim = &s->rate[0];
	int64_t			 now = util_wall_ms() / 60000;
	size_t			 i;
	int			 ok;

	if (s->rate_per_min <= 0)
		return 1;
	pthread_mutex_lock(&s->rmtx);
	for (i = 0; i < HTTP_RATE_SLOTS; i++) {
		r = &s->rate[i];
		if (r->token_id == token_id)
			break;
		if (r->window < victim->window)
			victim = r;	/* the stalest slot, if it is new */
	}
	if (i == HTTP_RATE_SLOTS) {
		r = victim;
		r->token_id = token_id;
		r->window = now;
		r->n = 0;
	}
	if (r->window != now) {
		r->window = now;
		r->n = 0;
	}
	ok = r->n < s->rate_per_min;
	if (ok)
		r->n++;
	pthread_mutex_unlock(&s->rmtx);
	return ok;
}

/*
 * The session cookie's auth (no Authorization header): 1 when the cookie
 * names a live session whose token is still valid (req filled), 0 when
 * there is no such session (the request goes on as one without a token),
 * -1 with the reply in res (the store failed).  A revoked or deleted
 * token ends every session of it.
 */
static int
http_auth_cookie(struct http_server *s, struct http_req *req,
    struct http_res *res)
{
	struct http_session	 ses;
	struct store_token	 t;
	const char		*id = http_req_cookie(req, HTTP_SESSION_COOKIE);
	char			 err[256];
	int			 r;

	if (id == NULL || http_session_find(s->sessions, id, util_wall_ms(),
	    &ses) != 1)
		return 0;
	if ((r = store_token_get(req->st, ses.token_id, &t, err,
	    sizeof err)) == -1) {
		log_warnx("http: session token check: %s", err);
		return http_problem(res, 503, "the token could not be "
		    "checked");
	}
	if (r == 0 || t.revoked_ms != 0) {
		log_info("http: token id %lld %s: its sessions end",
		    (long long)ses.token_id, r == 0 ? "is gone" : "revoked");
		http_session_drop_token(s->sessions, ses.token_id);
		return 0;
	}
	req->token_id = t.id;
	req->read_only = t.read_only;
	req->via_session = 1;
	snprintf(req->token_name, sizeof req->token_name, "%s", t.name);
	snprintf(req->session_id, sizeof req->session_id, "%s", ses.id);
	/* Anything but a read, with the cookie, proves it comes from our
	 * page: the CSRF secret only the page was given. */
	if (strcmp(req->method, "GET") != 0 &&
	    strcmp(req->method, "HEAD") != 0) {
		id = http_req_header(req, "X-CSRF-Token");
		if (id == NULL || strlen(id) != HTTP_B64_32 ||
		    !util_ct_equal(id, ses.csrf, HTTP_B64_32))
			return http_problem(res, 403, "csrf token missing or "
			    "wrong");
	}
	return 1;
}

/* A bearer token in h: 0 with req filled, -1 with the reply in res. */
static int
http_auth_bearer(struct http_req *req, const struct http_route *rt,
    const char *h, struct http_res *res)
{
	struct http_auth	 a;
	char			 err[256];
	int			 r;

	if (strncasecmp(h, "Bearer ", 7) != 0)
		return http_problem(res, 401, "only Bearer tokens are "
		    "accepted");
	h += 7;
	while (*h == ' ')
		h++;
	if ((r = http_token_check(req->st, h, &a, err, sizeof err)) == -1) {
		log_warnx("http: token check: %s", err);
		return http_problem(res, 503, "the token could not be "
		    "checked");
	}
	if (r == 0) {
		log_info("http: %s %s refused: %s", req->method,
		    rt->pattern, err);
		return http_problem(res, 401, "invalid token");
	}
	req->token_id = a.token_id;
	req->read_only = a.read_only;
	snprintf(req->token_name, sizeof req->token_name, "%s", a.name);
	return 0;
}

/*
 * Auth: a bearer token, when given, is always checked (a bad one is 401
 * even where reads are open); without one, the session cookie (mutations
 * with it need X-CSRF-Token); mutations need a token that may write
 * (403).  The rate is per token however it came.  0 to go on, -1 with
 * the reply in res.
 */
static int
http_auth(struct http_server *s, struct http_req *req,
    const struct http_route *rt, struct http_res *res)
{
	const char	*h = req->authorization;
	int		 r;

	if (h != NULL) {
		if (http_auth_bearer(req, rt, h, res) == -1)
			return -1;
	} else if ((r = http_auth_cookie(s, req, res)) == -1) {
		return -1;
	} else if (r == 0) {
		if (rt->mutation || !s->reads_open)
			return http_problem(res, 401, "a bearer token is "
			    "needed (Authorization: Bearer lrt_...)");
		return 0;
	}
	if (!http_rate_ok(s, req->token_id))
		return http_problem(res, 429, "token %s: over %d requests a "
		    "minute", req->token_name, s->rate_per_min);
	if (rt->mutation && req->read_only)
		return http_problem(res, 403, "token %s is read-only",
		    req->token_name);
	return 0;
}

/*
 * The target to parse: "/ui/" (the dashboard's page) is "/ui" with
 * req->dir set, since the parser refuses a trailing "/" everywhere.
 */
static const char *
http_target(struct http_req *req, const char *t, char *buf, size_t len)
{
	if (strncmp(t, "/ui/", 4) != 0 || (t[4] != '\0' && t[4] != '?'))
		return t;
	snprintf(buf, len, "/ui%s", t + 4);
	req->dir = 1;
	return buf;
}

/* Runs one complete request: parse, route, auth, handler. */
static void
http_handle(struct http_server *s, struct MHD_Connection *c,
    struct http_conn *hc, const char *method, struct http_res *res)
{
	struct http_req		*req;
	const struct http_route	*rt;
	const char		*target;
	char			 err[256], tbuf[HTTP_URI_MAX + 2];

	if (atomic_load(&s->draining)) {
		http_problem(res, 503, "the daemon is stopping");
		return;
	}
	if (hc->too_big) {
		http_problem(res, 413, "the request body is over %zu bytes",
		    s->max_body);
		return;
	}
	req = xcalloc(1, sizeof *req);
	req->srv = s;
	req->conn = c;
	req->method = method;
	req->dbpath = s->dbpath;
	req->body = hc->body;
	req->body_len = hc->body_len;
	req->authorization = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_AUTHORIZATION);
	if (hc->target == NULL || strlen(hc->target) > HTTP_URI_MAX) {
		http_problem(res, 414, "the request target is over %d bytes",
		    HTTP_URI_MAX);
		goto out;
	}
	target = http_target(req, hc->target, tbuf, sizeof tbuf);
	if (http_uri_parse(target, strlen(target), &req->uri, err,
	    sizeof err) == -1) {
		http_problem(res, 400, "%s", err);
		goto out;
	}
	if ((rt = http_route_find(req, res)) == NULL)
		goto out;
	if (HTTP_ROUTE_OPEN(rt)) {
		if (rt->fn(req, res) == -1 && res->body == NULL)
			http_problem(res, 500, "internal error");
		goto out;
	}
	if ((req->st = http_pool_take(s, err, sizeof err)) == NULL) {
		log_warnx("http: %s", err);
		http_problem(res, 503, "the store cannot be opened");
		goto out;
	}
	if (http_auth(s, req, rt, res) == 0 && rt->fn(req, res) == -1 &&
	    res->body == NULL)
		http_problem(res, 500, "internal error");
	http_pool_give(s, req->st);
out:
	free(req);
}

static enum MHD_Result
http_access(void *cls, struct MHD_Connection *c, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **con_cls)
{
	struct http_server	*s = cls;
	struct http_conn	*hc = *con_cls;
	struct http_res		 res;
	const char		*cl;
	size_t			 n = *upload_data_size;

	(void)url;
	(void)version;
	if (hc == NULL)		/* the URI callback always sets one */
		return MHD_NO;
	if (!hc->started) {
		/* In flight from its headers to its completion (libmicrohttpd
		 * notifies every request its handler has seen). */
		hc->started = 1;
		atomic_fetch_add(&s->inflight, 1);
		cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
		    MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (cl != NULL && strtoull(cl, NULL, 10) > s->max_body)
			hc->too_big = 1;
		if (!hc->too_big)
			return MHD_YES;
	}
	if (n > 0 && !hc->too_big) {
		if (hc->body_len + n > s->max_body) {
			hc->too_big = 1;
		} else {
			hc->body = xreallocarray(hc->body, hc->body_len + n + 1,
			    1);
			memcpy(hc->body + hc->body_len, upload_data, n);
			hc->body_len += n;
			hc->body[hc->body_len] = '\0';
		}
	}
	if (n > 0 && !hc->too_big) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	*upload_data_size = 0;
	memset(&res, 0, sizeof res);
	http_handle(s, c, hc, method, &res);
	return http_send(c, &res);
}

static void *
http_uri_log(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct http_conn	*hc = xcalloc(1, sizeof *hc);

	(void)cls;
	(void)c;
	if (uri != NULL && strlen(uri) <= HTTP_URI_MAX)
		hc->target = xstrdup(uri);
	return hc;
}

static void
http_completed(void *cls, struct MHD_Connection *c, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct http_server	*s = cls;
	struct http_conn	*hc = *con_cls;

	(void)c;
	(void)toe;
	if (hc == NULL)
		return;
	if (hc->started)
		atomic_fetch_sub(&s->inflight, 1);
	free(hc->target);
	free(hc->body);
	free(hc);
	*con_cls = NULL;
}

static void
http_mhd_log(void *cls, const char *fmt, va_list ap)
{
	char	buf[512];
	size_t	n;

	(void)cls;
	vsnprintf(buf, sizeof buf, fmt, ap);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	log_warnx("http: %s", buf);
}

/* ---- start / stop ------------------------------------------------------ */

static int
http_sockaddr(const char *listen, struct sockaddr_storage *ss, int *tls,
    int *v6, char *err, size_t errlen)
{
	struct sockaddr_in	*in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*in6 = (struct sockaddr_in6 *)ss;
	char			 addr[64];
	int			 port, loop;

	if (config_http_listen(listen, tls, addr, sizeof addr, &port,
	    &loop) == -1) {
		util_seterr(err, errlen, "listen \"%s\": not "
		    "http[s]://ADDR:PORT", listen);
		return -1;
	}
	memset(ss, 0, sizeof *ss);
	*v6 = strchr(addr, ':') != NULL;
	if (*v6) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		inet_pton(AF_INET6, addr, &in6->sin6_addr);
	} else {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)port);
		inet_pton(AF_INET, addr, &in4->sin_addr);
	}
	return 0;
}

static int
http_read_pems(struct http_server *s, const struct http_conf *conf,
    char *err, size_t errlen)
{
	char	e[256];

	if (conf->cert == NULL || conf->key == NULL) {
		util_seterr(err, errlen, "listen %s needs a cert and a key",
		    conf->listen);
		return -1;
	}
	if ((s->cert_pem = util_read_file(conf->cert, HTTP_PEM_MAX, NULL, e,
	    sizeof e)) == NULL ||
	    (s->key_pem = util_read_file(conf->key, HTTP_PEM_MAX, NULL, e,
	    sizeof e)) == NULL) {
		util_seterr(err, errlen, "%s", e);
		return -1;
	}
	return 0;
}

static void
http_free(struct http_server *s)
{
	size_t	i;

	for (i = 0; i < s->pool.n; i++)
		store_close(s->pool.st[i]);
	if (s->static_fd != -1)
		close(s->static_fd);
	http_sessions_free(s->sessions);
	free(s->pool.st);
	free(s->pool.busy);
	pthread_mutex_destroy(&s->pool.mtx);
	pthread_mutex_destroy(&s->rmtx);
	free(s->listen);
	free(s->version);
	free(s->inventory);
	free(s->dbpath);
	free(s->cert_pem);
	if (s->key_pem != NULL)
		explicit_bzero(s->key_pem, strlen(s->key_pem));
	free(s->key_pem);
	free(s);
}

int
http_start(const struct http_conf *conf, const char *dbpath,
    struct http_server **out, char *err, size_t errlen)
{
	struct http_server	*s;
	struct sockaddr_storage	 ss;
	unsigned int		 flags = MHD_USE_INTERNAL_POLLING_THREAD |
				    MHD_USE_ERROR_LOG | MHD_USE_EPOLL;
	int			 tls, v6, threads;

	*out = NULL;
	s = xcalloc(1, sizeof *s);
	pthread_mutex_init(&s->pool.mtx, NULL);
	pthread_mutex_init(&s->rmtx, NULL);
	s->static_fd = -1;
	s->sessions = http_sessions_new(0);
	if (conf->static_dir != NULL && (s->static_fd = open(conf->static_dir,
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		util_seterr(err, errlen, "http.static_dir %s: %s",
		    conf->static_dir, strerror(errno));
		http_free(s);
		return -1;
	}
	if (http_sockaddr(conf->listen, &ss, &tls, &v6, err, errlen) == -1 ||
	    (tls && http_read_pems(s, conf, err, errlen) == -1)) {
		http_free(s);
		return -1;
	}
	s->listen = xstrdup(conf->listen);
	s->version = xstrdup(conf->version != NULL ? conf->version : "");
	s->inventory = conf->inventory != NULL ? xstrdup(conf->inventory) :
	    NULL;
	s->dbpath = xstrdup(dbpath);
	s->reads_open = conf->reads_open;
	s->tls = tls;
	s->max_body = conf->max_body > 0 ? conf->max_body : 64 * 1024;
	s->rate_per_min = conf->rate_per_min;
	s->started_ms = util_wall_ms();
	threads = conf->threads > 0 ? conf->threads : HTTP_THREADS_DEFAULT;
	s->pool.n = (size_t)threads;
	s->pool.st = xcalloc(s->pool.n, sizeof *s->pool.st);
	s->pool.busy = xcalloc(s->pool.n, sizeof *s->pool.busy);
	if (tls)
		flags |= MHD_USE_TLS;
	if (v6)
		flags |= MHD_USE_IPv6;
	s->mhd = MHD_start_daemon(flags, 0, NULL, NULL, http_access, s,
	    MHD_OPTION_EXTERNAL_LOGGER, http_mhd_log, (void *)s,
	    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)threads,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)conf->max_connections,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT,
	    (unsigned int)conf->per_address,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)conf->timeout_s,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_CONN_MEMORY,
	    MHD_OPTION_URI_LOG_CALLBACK, http_uri_log, (void *)s,
	    MHD_OPTION_NOTIFY_COMPLETED, http_completed, (void *)s,
	    tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, s->key_pem,
	    MHD_OPTION_HTTPS_MEM_CERT, s->cert_pem,
	    MHD_OPTION_END);
	if (s->mhd == NULL) {
		util_seterr(err, errlen, "listen %s: libmicrohttpd could not "
		    "start (address in use, or a bad certificate or key)",
		    conf->listen);
		http_free(s);
		return -1;
	}
	log_info("http: listening on %s, reads %s, /ui/ from %s", s->listen,
	    s->reads_open ? "open" : "need a token", conf->static_dir != NULL ?
	    conf->static_dir : "the embedded files");
	*out = s;
	return 0;
}

int
http_port(const struct http_server *s)
{
	const union MHD_DaemonInfo	*i;

	i = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
	return i != NULL ? (int)i->port : -1;
}

void
http_drain(struct http_server *s)
{
	if (s != NULL)
		atomic_store(&s->draining, 1);
}

int
http_drain_wait(struct http_server *s, int timeout_ms)
{
	int64_t	end = util_now_ms() + timeout_ms;
	int	n;

	if (s == NULL)
		return 0;
	while ((n = atomic_load(&s->inflight)) > 0 && util_now_ms() < end)
		usleep(20 * 1000);
	return n;
}

void
http_stop(struct http_server *s)
{
	if (s == NULL)
		return;
	atomic_store(&s->draining, 1);
	MHD_stop_daemon(s->mhd);
	http_free(s);
}
