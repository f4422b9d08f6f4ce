/*
 * client: one HTTP request through libcurl's easy interface; see client.h.
 */
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "client.h"
#include "util.h"

struct client_sink {
	struct buf	b;
	int		over;
};

static size_t
client_write(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct client_sink	*s = arg;
	size_t			 n = size * nmemb;

	if (buf_append(&s->b, ptr, n) == -1) {
		s->over = 1;
		return 0;	/* makes curl stop with CURLE_WRITE_ERROR */
	}
	return n;
}

int
client_global_init(void)
{
	return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

static int
client_check(const struct client_request *rq, char *err, size_t errlen)
{
	size_t	i;

	if (rq->url == NULL || (strncmp(rq->url, "http://", 7) != 0 &&
	    strncmp(rq->url, "https://", 8) != 0)) {
		util_seterr(err, errlen, "%s: only http:// and https:// URLs",
		    rq->url != NULL ? rq->url : "(null)");
		return -1;
	}
	if (rq->method != NULL && strcmp(rq->method, "GET") != 0 &&
	    strcmp(rq->method, "POST") != 0 &&
	    strcmp(rq->method, "DELETE") != 0) {
		util_seterr(err, errlen, "%s: method %s: GET, POST or DELETE "
		    "only", rq->url, rq->method);
		return -1;
	}
	for (i = 0; rq->headers != NULL && rq->headers[i] != NULL; i++)
		if (strpbrk(rq->headers[i], "\r\n") != NULL ||
		    strchr(rq->headers[i], ':') == NULL) {
			util_seterr(err, errlen, "%s: header %zu is not one "
			    "\"Name: value\" line", rq->url, i + 1);
			return -1;
		}
	return 0;
}

/* The reply's header name (its last value) into resp->header. */
static void
client_header(CURL *c, const char *name, struct client_response *resp)
{
	struct curl_header	*h;

	resp->header[0] = '\0';
	if (name != NULL && curl_easy_header(c, name, 0, CURLH_HEADER, -1,
	    &h) == CURLHE_OK && h->value != NULL)
		snprintf(resp->header, sizeof resp->header, "%s", h->value);
}

int
client_request(const struct client_request *rq, struct client_response *resp,
    char *err, size_t errlen)
{
	struct client_sink	 sink;
	CURL			*c;
	CURLcode		 rc;
	struct curl_slist	*hdrs = NULL;
	curl_off_t		 ra = -1;
	char			 cerr[CURL_ERROR_SIZE], ct[256];
	int			 post;
	size_t			 i;

	memset(resp, 0, sizeof *resp);
	resp->retry_after_s = -1;
	if (client_check(rq, err, errlen) == -1)
		return -1;
	if ((c = curl_easy_init()) == NULL) {
		util_seterr(err, errlen, "%s: curl_easy_init failed", rq->url);
		return -1;
	}
	memset(&sink, 0, sizeof sink);
	buf_init(&sink.b, rq->max_body > 0 ? rq->max_body : CLIENT_BODY_MAX);
	cerr[0] = '\0';
	post = rq->method != NULL && strcmp(rq->method, "POST") == 0;
	curl_easy_setopt(c, CURLOPT_URL, rq->url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	if (rq->cafile != NULL)
		curl_easy_setopt(c, CURLOPT_CAINFO, rq->cafile);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)
	    (rq->connect_timeout_ms > 0 ? rq->connect_timeout_ms : 5000));
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)
	    (rq->timeout_ms > 0 ? rq->timeout_ms : 30000));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, client_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, cerr);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "labrat");
	if (rq->method != NULL && strcmp(rq->method, "DELETE") == 0)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "DELETE");
	if (post) {
		curl_easy_setopt(c, CURLOPT_POST, 1L);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS,
		    rq->body != NULL ? rq->body : "");
		if (rq->content_type != NULL && strpbrk(rq->content_type,
		    "\r\n") == NULL) {
			snprintf(ct, sizeof ct, "Content-Type: %s",
			    rq->content_type);
			hdrs = curl_slist_append(hdrs, ct);
		}
		/* No "Expect: 100-continue" wait for a larger body. */
		hdrs = curl_slist_append(hdrs, "Expect:");
	}
	for (i = 0; rq->headers != NULL && rq->headers[i] != NULL; i++)
		hdrs = curl_slist_append(hdrs, rq->headers[i]);
	if (hdrs != NULL)
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	rc = curl_easy_perform(c);
	curl_slist_free_all(hdrs);
	if (rc != CURLE_OK) {
		if (sink.over)
			util_seterr(err, errlen, "%s: response body larger "
			    "than %zu bytes", rq->url, sink.b.max);
		else
			util_seterr(err, errlen, "%s: %s", rq->url,
			    cerr[0] != '\0' ? cerr : curl_easy_strerror(rc));
		buf_free(&sink.b);
		curl_easy_cleanup(c);
		return -1;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp->status);
	if (curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK &&
	    ra > 0)
		resp->retry_after_s = ra > 86400 ? 86400 : (long)ra;
	client_header(c, rq->want_header, resp);
	resp->len = sink.b.len;
	resp->body = buf_release(&sink.b);
	curl_easy_cleanup(c);
	return 0;
}
