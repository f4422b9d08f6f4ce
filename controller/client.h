/*
 * client: minimal HTTP client on libcurl, the only includer of curl.h.  Used
 * by kernel.c to ask a PDU to power-cycle a hung host and by notify for
 * webhooks (client_hook.c) and mail (client_mail.c: SMTP through libcurl,
 * or a sendmail command run without a shell), and by the remote CLI for the
 * daemon's HTTP API (client_api.c: bearer token, CA file, 503 retries).  One request per call,
 * with a connect timeout, a whole-request deadline and a ceiling on the
 * response body, so a slow or chatty PDU costs at most the deadline and a
 * bounded amount of memory.  No redirects are followed; http:// and
 * https:// only.
 */
#ifndef LABRAT_CLIENT_H
#define LABRAT_CLIENT_H

#include <stddef.h>

#define CLIENT_BODY_MAX		(64 * 1024)	/* default response ceiling */

struct client_request {
	const char	*url;		/* http:// or https:// */
	const char	*method;	/* "GET", "POST" or "DELETE" (NULL =
					 * "GET"); only POST sends body */
	const char	*body;		/* POST body, may be NULL (empty) */
	int		 connect_timeout_ms;	/* 0 = 5 s */
	int		 timeout_ms;		/* whole request, 0 = 30 s */
	size_t		 max_body;		/* 0 = CLIENT_BODY_MAX */
	const char	*content_type;	/* POST's Content-Type, NULL = curl's */
	const char *const *headers;	/* more "Name: value" lines, NULL-
					 * terminated; NULL = none */
	const char	*cafile;	/* PEM CA bundle for https, NULL =
					 * the system's */
	const char	*want_header;	/* a reply header to keep in
					 * resp->header, NULL = none */
};

struct client_response {
	long	 status;	/* HTTP status, e.g. 200 */
	char	*body;		/* heap, NUL-terminated; caller frees */
	size_t	 len;
	long	 retry_after_s;	/* the reply's Retry-After in seconds (a
				 * date made relative), -1 when absent
				 * or 0 */
	char	 header[64];	/* rq->want_header's value, "" when absent
				 * (cut to 63 bytes) */
};

/* curl_global_init(); call once before threads.  0 or -1. */
int	client_global_init(void);

/*
 * Performs the request.  Returns 0 when a response arrived (any status: the
 * caller judges it; resp->body is heap, free it), or -1 with err naming the
 * URL and the cause (bad URL, connect failure, timeout, body past its
 * ceiling).  resp->body is NULL after -1.
 */
int	client_request(const struct client_request *,
	    struct client_response *resp, char *err, size_t errlen);

/* ---- notifications (client_hook.c, client_mail.c) ----------------------- */

#define CLIENT_MAIL_MAX		(2 * 1024 * 1024)	/* a message we send */
#define CLIENT_HOOK_SNIPPET	200	/* response bytes quoted in an error */

/*
 * POSTs json (Content-Type application/json, no redirects) to url within
 * timeout_ms (0 = 30 s), the response body read up to CLIENT_BODY_MAX.
 * 0 on a 2xx status; -1 with err "webhook URL: HTTP 500: <start of the
 * body>" or naming the connect failure.
 */
int	client_webhook_post(const char *url, const char *json, int timeout_ms,
	    char *err, size_t errlen);

struct client_mail {
	const char		*url;	/* smtp://host[:port] or smtps:// */
	const char		*from;	/* envelope sender: an address */
	const char *const	*to;	/* envelope recipients, NULL-terminated */
	const char		*message;	/* RFC 5322 text, CRLF lines */
	int			 timeout_ms;	/* whole delivery, 0 = 30 s */
};

/*
 * Hands the message to the SMTP server (EHLO, MAIL FROM, RCPT TO for each
 * recipient, DATA, QUIT).  libcurl dot-stuffs lines that start with "."
 * and ends the data with CRLF.CRLF.  Addresses are checked first (no
 * control characters, spaces, "<>" or ","; "Name <a@b>" gives a@b);
 * a message past CLIENT_MAIL_MAX is refused.  0, or -1 with err naming
 * the URL and the server's answer ("smtp://127.0.0.1:25: RCPT failed: 550").
 */
int	client_smtp_send(const struct client_mail *, char *err, size_t errlen);

/*
 * Runs argv (argv[0] a path, or a name looked up in $PATH; no shell) with
 * the message on its standard input, CRLF turned into LF as local
 * submission expects; its stdout and stderr are read (the first bytes
 * kept for the error).  The program must exit 0 within timeout_ms (0 =
 * 30 s), else it is killed.  0, or -1 with err "sendmail ARGV0: exited
 * 75: <its output>" / "timed out after N ms" / the exec failure.
 */
int	client_sendmail(const char *const *argv, const char *message,
	    int timeout_ms, char *err, size_t errlen);

/* ---- the daemon's HTTP API, for the remote CLI (client_api.c) ----------- */

#define CLIENT_API_BODY_MAX	(16 * 1024 * 1024)	/* a reply's ceiling */

struct client_api {
	const char	*base;	/* "http://127.0.0.1:8080" */
	const char	*token;	/* may be NULL */
	const char	*cafile;	/* may be NULL */
	long		 timeout_s;	/* per attempt, 0 = 30 s */
	int		 retries;	/* attempts after a 503, 0 = none */
};

/*
 * GET base+path (path starts "/api/v1/"); *body (NUL-terminated, free())
 * and *status filled on any HTTP reply; -1 on transport error (err names
 * the URL and what failed: connect, timeout, TLS, a reply past
 * CLIENT_API_BODY_MAX).  Sends "Authorization: Bearer TOKEN" when token
 * is set.  Retries 503 up to retries times, waiting the reply's
 * Retry-After or 0.5 s doubled per retry, whichever is longer, at most
 * 30 s; the last 503 is returned as a reply.  Redirects are not followed.
 */
int	client_api_get(const struct client_api *, const char *path,
	    char **body, size_t *len, long *status, char *err, size_t errlen);
/* The same as a POST of json (Content-Type application/json). */
int	client_api_post(const struct client_api *, const char *path,
	    const char *json, char **body, size_t *len, long *status,
	    char *err, size_t errlen);

/* Any of them: method "GET", "POST" (json) or "DELETE"; the reply's
 * header want (NULL = none) into r->header. */
struct client_api_reply {
	char	*body;		/* NUL-terminated, free() */
	size_t	 len;
	long	 status;
	char	 header[64];
};
/*
 * Appends "?key=value" to the path in b ("&key=value" once b holds a "?"),
 * value percent-encoded (all but A-Z a-z 0-9 - . _ ~).  A buf past its
 * ceiling stays so (buf_append()'s refusal).
 */
struct buf;
void	client_api_query(struct buf *, const char *key, const char *value);
int	client_api_send(const struct client_api *, const char *method,
	    const char *path, const char *json, const char *want,
	    struct client_api_reply *r, char *err, size_t errlen);
/*
 * client_api_send() as the remote CLI makes it: libcurl initialised, the
 * secret read from token_file (NULL = a->token; a file others can read is
 * warned about) and zeroed after use, and a->retries for a GET only (a
 * mutation is not repeated: a 503 may have come after it).  0 when a
 * reply arrived (any status; r->body is the caller's), -1 with err naming
 * the token file, the URL or the transport failure.
 */
int	client_api_call(const struct client_api *, const char *token_file,
	    const char *method, const char *path, const char *json,
	    const char *want, struct client_api_reply *r, char *err,
	    size_t errlen);
/*
 * path with "?k=v&..." appended from kv (key, value pairs, NULL-
 * terminated; a NULL value skips its key), values percent-encoded.  Heap,
 * caller frees.
 */
char	*client_api_path(const char *path, const char *const *kv);

/*
 * The bearer secret in a token file: its first line alone, as `labrat
 * token add NAME > FILE` writes it (at most 4 KiB).  Heap (the caller
 * zeroes and frees it), or NULL with err naming the file.
 * *others_readable: the file's mode lets group or others read it.
 */
char	*client_token_file(const char *path, int *others_readable, char *err,
	    size_t errlen);

#endif
