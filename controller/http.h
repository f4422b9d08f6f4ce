/*
 * http: the daemon's JSON API under /api/v1, the only includer of
 * microhttpd.h (libmicrohttpd, GnuTLS for https://).  It owns the server's
 * life (start, drain: 503 from then on, stop), its limits (total and
 * per-address connections, idle timeout, header memory, body size, a rate
 * per token), the route table and its dispatch (http_route.c: 404, 405
 * with Allow, JSON problem objects {"error": "...", "status": N}), the
 * pure path and query-string parser (http_query.c), the resources
 * (http_res_*.c), bearer tokens (http_token.c), the dashboard's session
 * cookies with their CSRF secrets (http_session.c), the dashboard's files
 * under /ui/ (http_static.c: compiled in, or http.static_dir) and the
 * store connections its worker threads read with (one per thread of
 * libmicrohttpd's pool).
 */
#ifndef LABRAT_HTTP_H
#define LABRAT_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "store.h"
#include "store_daemon.h"

/* What http_start() needs: the daemon config's "http" section. */
struct http_conf {
	const char	*listen;	/* "http://127.0.0.1:8080" | "https://ADDR:PORT" */
	const char	*cert, *key;	/* PEM files, https only */
	int		 reads_open;	/* 1: GET needs no token */
	int		 max_connections;
	int		 per_address;
	int		 timeout_s;
	size_t		 max_body;
	int		 rate_per_min;	/* per token; 0 = unlimited */
	int		 threads;	/* worker threads, 0 = 4 */
	/* What GET /api/v1/status reports. */
	const char	*version;
	const char	*inventory;	/* default inventory of POST /queue, may be NULL */
	const char	*static_dir;	/* serve /ui/ from here; NULL: embedded */
};

struct http_server;

/* conf's fields from the daemon config's section (points into it). */
void	http_conf_from_config(struct http_conf *, const struct config_http *);

/*
 * Starts serving dbpath (opened once per worker thread, read-write,
 * never migrated: the daemon migrated it).  Strings of conf are copied.
 * 0 with *out (http_stop() frees it), or -1 with err (a bad listen, a
 * certificate that cannot be read, the port taken).
 */
int	http_start(const struct http_conf *, const char *dbpath,
	    struct http_server **out, char *err, size_t errlen);
/* The port the server listens on, or -1. */
int	http_port(const struct http_server *);
/* From now on every request is answered 503 (the daemon is stopping). */
void	http_drain(struct http_server *);
/*
 * After http_drain(): waits until no request is in flight (each has had
 * its 503, or its reply if it was running already), at most timeout_ms.
 * How many are left.  A request is in flight from its handler's first call
 * (its headers are in) to its completion; a client gone in the middle of
 * its body is reported by libmicrohttpd only when it stops, so such a one
 * holds the wait to its end.
 */
int	http_drain_wait(struct http_server *, int timeout_ms);
/* Stops the listener, waits for the running requests, frees.  NULL ok. */
void	http_stop(struct http_server *);

/*
 * The route table as text, one "METHOD PATTERN" per line (patterns like
 * "/api/v1/runs/{id}"), for `labrat serve --print-routes` and the test
 * that checks schemas/openapi.json.  Heap, the caller frees.
 */
char	*http_routes_text(void);

/* ---- tokens (http_token.c) ------------------------------------------ */

/*
 * A token's secret, shown once: "lrt_<id>_<43 characters of unpadded
 * base64url of 32 bytes from getrandom(2)>".  The store keeps a random
 * 16-byte salt and hex(HMAC-SHA256(key = the salt's bytes, msg = the whole
 * secret)), never the secret.  HTTP_TOKEN_SECRET_MAX holds any secret and
 * its NUL.  Names: store_token_name_ok() (1-63 of A-Z a-z 0-9 . _ -).
 */
#define HTTP_TOKEN_SECRET_MAX	96

struct http_auth { int64_t token_id; char name[64]; int read_only; };
/* Creates a token; writes the secret (NUL-terminated) to secret. */
int	http_token_add(struct store *st, const char *name, int read_only,
	    char *secret, size_t secretlen, char *err, size_t errlen);
/*
 * 1: valid and not revoked (fills *out, updates last_used, at most once a
 * second per token); 0: unknown, malformed, wrong or revoked (err says
 * which, for the log only: the HTTP reply says 401 and nothing more);
 * -1: store error.  The hash is compared in constant time.
 */
int	http_token_check(struct store *st, const char *secret,
	    struct http_auth *out, char *err, size_t errlen);
/* 0, or -1 when name is unknown or already revoked (err says which). */
int	http_token_revoke(struct store *st, const char *name, char *err,
	    size_t errlen);

#endif
