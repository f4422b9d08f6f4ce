/*
 * client_api: the remote CLI's requests to a daemon's HTTP API (see
 * client.h "the daemon's HTTP API"), one client_request() per attempt:
 * the bearer token as a header, the lab's CA file, a whole-request
 * timeout, a 16 MiB reply ceiling, and 503 (the daemon is busy or
 * stopping) retried after the server's Retry-After or an exponential
 * backoff, whichever is longer, each wait capped.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"
#include "log.h"
#include "util.h"

#define API_BACKOFF_MS		500	/* first wait; doubles per retry */
#define API_WAIT_MAX_MS		30000	/* no wait is longer */
#define API_TIMEOUT_S		30

static void
api_sleep_ms(long ms)
{
	struct timespec	ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* How long before retry number `attempt` (0 = the first retry). */
static long
api_wait_ms(int attempt, long retry_after_s)
{
	long	ms = API_BACKOFF_MS;
	int	i;

	for (i = 0; i < attempt && ms < API_WAIT_MAX_MS; i++)
		ms *= 2;
	if (retry_after_s > 0 && retry_after_s * 1000 > ms)
		ms = retry_after_s >= API_WAIT_MAX_MS / 1000 ? API_WAIT_MAX_MS :
		    retry_after_s * 1000;
	return ms < API_WAIT_MAX_MS ? ms : API_WAIT_MAX_MS;
}

/* Checks base, path and token; the URL into url (heap, caller frees). */
static int
api_url(const struct client_api *a, const char *path, char **url, char *err,
    size_t errlen)
{
	size_t	i, bl;

	*url = NULL;
	if (a->base == NULL || (strncmp(a->base, "http://", 7) != 0 &&
	    strncmp(a->base, "https://", 8) != 0)) {
		util_seterr(err, errlen, "server %s: not an http:// or "
		    "https:// URL", a->base != NULL ? a->base : "(none)");
		return -1;
	}
	bl = strlen(a->base);
	while (bl > 0 && a->base[bl - 1] == '/')
		bl--;
	if (path == NULL || strncmp(path, "/api/v1/", 8) != 0) {
		util_seterr(err, errlen, "%.*s: path %s: not under /api/v1/",
		    (int)bl, a->base, path != NULL ? path : "(none)");
		return -1;
	}
	for (i = 0; path[i] != '\0'; i++)
		if ((unsigned char)path[i] <= ' ' || path[i] == 0x7f) {
			util_seterr(err, errlen, "%.*s: path %s: a space or "
			    "control character", (int)bl, a->base, path);
			return -1;
		}
	*url = xasprintf("%.*s%s", (int)bl, a->base, path);
	for (i = 0; a->token != NULL && a->token[i] != '\0'; i++)
		if ((unsigned char)a->token[i] <= ' ' || a->token[i] == 0x7f) {
			util_seterr(err, errlen, "%s: the token holds a space "
			    "or control character (a token file has the "
			    "secret alone on one line)", *url);
			free(*url);
			*url = NULL;
			return -1;
		}
	return 0;
}

int
client_api_send(const struct client_api *a, const char *method,
    const char *path, const char *json, const char *want,
    struct client_api_reply *out, char *err, size_t errlen)
{
	struct client_request	 rq;
	struct client_response	 r;
	const char		*hdrs[3];
	char			*url, *auth = NULL;
	long			 t = a->timeout_s > 0 ? a->timeout_s :
				    API_TIMEOUT_S;
	int			 attempt, nh = 0, rc;

	memset(out, 0, sizeof *out);
	if (api_url(a, path, &url, err, errlen) == -1)
		return -1;
	if (a->token != NULL && a->token[0] != '\0') {
		auth = xasprintf("Authorization: Bearer %s", a->token);
		hdrs[nh++] = auth;
	}
	hdrs[nh++] = "Accept: application/json";
	hdrs[nh] = NULL;
	memset(&rq, 0, sizeof rq);
	rq.url = url;
	rq.method = method;
	rq.body = json;
	rq.content_type = json != NULL ? "application/json" : NULL;
	rq.want_header = want;
	rq.headers = hdrs;
	rq.cafile = a->cafile;
	rq.timeout_ms = (int)(t > 3600 ? 3600000 : t * 1000);
	rq.connect_timeout_ms = rq.timeout_ms < 10000 ? rq.timeout_ms : 10000;
	rq.max_body = CLIENT_API_BODY_MAX;
	for (attempt = 0;; attempt++) {
		rc = client_request(&rq, &r, err, errlen);
		if (rc == -1 || r.status != 503 || attempt >= a->retries)
			break;
		free(r.body);
		api_sleep_ms(api_wait_ms(attempt, r.retry_after_s));
	}
	if (rc == 0) {
		out->body = r.body;
		out->len = r.len;
		out->status = r.status;
		memcpy(out->header, r.header, sizeof out->header);
	}
	if (auth != NULL) {
		explicit_bzero(auth, strlen(auth));
		free(auth);
	}
	free(url);
	return rc;
}

int
client_api_call(const struct client_api *a, const char *token_file,
    const char *method, const char *path, const char *json, const char *want,
    struct client_api_reply *r, char *err, size_t errlen)
{
	struct client_api	 b = *a;
	char			*tok = NULL;
	int			 others, rc;

	memset(r, 0, sizeof *r);
	if (token_file != NULL) {
		if ((tok = client_token_file(token_file, &others, err,
		    errlen)) == NULL)
			return -1;
		if (others)
			log_warnx("token file %s is readable by others "
			    "(chmod 600 it)", token_file);
		b.token = tok;
	}
	/* A mutation is not repeated: a 503 may have come after it. */
	if (strcmp(method, "GET") != 0)
		b.retries = 0;
	if (client_global_init() == -1) {
		util_seterr(err, errlen, "libcurl cannot be initialised");
		rc = -1;
	} else
		rc = client_api_send(&b, method, path, json, want, r, err,
		    errlen);
	if (tok != NULL) {
		explicit_bzero(tok, strlen(tok));
		free(tok);
	}
	return rc;
}

static int
api_do(const struct client_api *a, const char *method, const char *path,
    const char *json, char **body, size_t *len, long *status, char *err,
    size_t errlen)
{
	struct client_api_reply	r;
	int			rc;

	rc = client_api_send(a, method, path, json, NULL, &r, err, errlen);
	*body = r.body;
	*len = r.len;
	*status = r.status;
	return rc;
}

int
client_api_get(const struct client_api *a, const char *path, char **body,
    size_t *len, long *status, char *err, size_t errlen)
{
	return api_do(a, "GET", path, NULL, body, len, status, err, errlen);
}

int
client_api_post(const struct client_api *a, const char *path,
    const char *json, char **body, size_t *len, long *status, char *err,
    size_t errlen)
{
	return api_do(a, "POST", path, json != NULL ? json : "", body, len,
	    status, err, errlen);
}

void
client_api_query(struct buf *b, const char *key, const char *value)
{
	static const char	hex[] = "0123456789ABCDEF";
	const unsigned char	*p;

	buf_printf(b, "%c%s=", memchr(b->data != NULL ? b->data : "", '?',
	    b->len) != NULL ? '&' : '?', key);
	for (p = (const unsigned char *)value; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p) != NULL)
			buf_printf(b, "%c", *p);
		else
			buf_printf(b, "%%%c%c", hex[*p >> 4], hex[*p & 15]);
	}
}

char *
client_api_path(const char *path, const char *const *kv)
{
	struct buf	b;
	size_t		i;

	buf_init(&b, 8192);
	buf_printf(&b, "%s", path);
	for (i = 0; kv[i] != NULL; i += 2)
		if (kv[i + 1] != NULL)
			client_api_query(&b, kv[i], kv[i + 1]);
	return buf_release(&b);
}

#define CLIENT_TOKEN_MAX	4096	/* a token file's size ceiling */

char *
client_token_file(const char *path, int *others_readable, char *err,
    size_t errlen)
{
	struct stat	sb;
	char		e[512], *s, *nl;
	size_t		len, i;

	*others_readable = 0;
	if ((s = util_read_file(path, CLIENT_TOKEN_MAX, &len, e,
	    sizeof e)) == NULL) {
		util_seterr(err, errlen, "token file: %s", e);
		return NULL;
	}
	if ((nl = strchr(s, '\n')) != NULL)
		*nl = '\0';
	for (i = 0; s[i] != '\0'; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			break;
	if (i == 0 || s[i] != '\0' || strlen(s) != (nl != NULL ?
	    (size_t)(nl - s) : len)) {
		util_seterr(err, errlen, "token file %s: the first line must "
		    "be the secret alone (labrat token add NAME > FILE)", path);
		explicit_bzero(s, len);
		free(s);
		return NULL;
	}
	if (stat(path, &sb) == 0 && (sb.st_mode & 077) != 0)
		*others_readable = 1;
	return s;
}
