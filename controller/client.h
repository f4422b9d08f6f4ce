/*
 * client: minimal HTTP client on libcurl, the only includer of curl.h.  Used
 * by kernel.c to ask a PDU to power-cycle a hung host.  One request per call,
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
	const char	*method;	/* "GET" or "POST" (NULL = "GET") */
	const char	*body;		/* POST body, may be NULL (empty) */
	int		 connect_timeout_ms;	/* 0 = 5 s */
	int		 timeout_ms;		/* whole request, 0 = 30 s */
	size_t		 max_body;		/* 0 = CLIENT_BODY_MAX */
};

struct client_response {
	long	 status;	/* HTTP status, e.g. 200 */
	char	*body;		/* heap, NUL-terminated; caller frees */
	size_t	 len;
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

#endif
