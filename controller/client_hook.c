/*
 * client_hook.c: a notification webhook, one JSON POST judged by its
 * status: anything but 2xx is an error that names the URL, the status and
 * the start of what the receiver said (made safe for a terminal).
 */
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "util.h"

int
client_webhook_post(const char *url, const char *json, int timeout_ms,
    char *err, size_t errlen)
{
	struct client_request	 rq;
	struct client_response	 resp;
	char			 e[512], snip[CLIENT_HOOK_SNIPPET * 4 + 1];
	size_t			 n;

	memset(&rq, 0, sizeof rq);
	rq.url = url;
	rq.method = "POST";
	rq.body = json;
	rq.content_type = "application/json";
	rq.timeout_ms = timeout_ms > 0 ? timeout_ms : 30000;
	rq.connect_timeout_ms = rq.timeout_ms < 5000 ? rq.timeout_ms : 5000;
	if (client_request(&rq, &resp, e, sizeof e) == -1) {
		util_seterr(err, errlen, "webhook %s", e);
		return -1;
	}
	if (resp.status >= 200 && resp.status <= 299) {
		free(resp.body);
		return 0;
	}
	n = resp.len < CLIENT_HOOK_SNIPPET ? resp.len : CLIENT_HOOK_SNIPPET;
	while (n > 0 && (resp.body[n - 1] == '\n' || resp.body[n - 1] == '\r' ||
	    resp.body[n - 1] == ' '))
		n--;
	util_term_safe(snip, sizeof snip, resp.body, n);
	util_seterr(err, errlen, "webhook %s: HTTP %ld%s%s", url, resp.status,
	    snip[0] != '\0' ? ": " : "", snip);
	free(resp.body);
	return -1;
}
