/*
 * test_client_api: the remote CLI's API client (client_api.c) against a
 * real HTTP listener on 127.0.0.1 (a forked child answering connections
 * one by one, so it can count them): GET and POST with the bearer token,
 * Accept and Content-Type seen by the server; 503, 503, then 200 retried
 * after the server's Retry-After (the waits measured); a 503 that stays
 * returned after exactly retries + 1 attempts; a reply past 16 MiB
 * refused with an error naming the URL while 1 MiB passes; a connection
 * closed without a reply, a refused connection and a stalled server
 * (timeout) as errors naming the URL; bad bases, paths and tokens refused
 * before any request.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "client.h"
#include "listener_fixture.h"

static int	port;
static pid_t	child;
static char	base[64];

/* The server's counters (in the child). */
static int	busy_hits, stuck_hits;

static void
put(int c, int status, const char *extra, const char *body, size_t blen)
{
	char	hdr[512];

	snprintf(hdr, sizeof hdr, "HTTP/1.1 %d X\r\nContent-Length: %zu\r\n"
	    "Content-Type: application/json\r\n%sConnection: close\r\n\r\n",
	    status, blen, extra);
	if (write(c, hdr, strlen(hdr)) > 0 && blen > 0)
		(void)!write(c, body, blen);
}

/* A header's value from the request (up to CR), or "-". */
static void
header(const char *req, const char *name, char *out, size_t len)
{
	const char	*p = strcasestr(req, name);

	if (p == NULL) {
		snprintf(out, len, "-");
		return;
	}
	p += strlen(name);
	snprintf(out, len, "%.*s", (int)strcspn(p, "\r"), p);
}

/* Sends n bytes of 'x' in chunks (the client may hang up: EPIPE). */
static void
put_big(int c, size_t n)
{
	static char	chunk[65536];
	char		hdr[128];
	size_t		k;

	memset(chunk, 'x', sizeof chunk);
	snprintf(hdr, sizeof hdr, "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n"
	    "Connection: close\r\n\r\n", n);
	if (write(c, hdr, strlen(hdr)) <= 0)
		return;
	while (n > 0) {
		k = n < sizeof chunk ? n : sizeof chunk;
		if (write(c, chunk, k) <= 0)
			return;
		n -= k;
	}
}

static void
serve_one(int c)
{
	char	req[8192], out[9000], auth[256], ct[128], acc[128], *b;
	size_t	len = 0, clen;
	ssize_t	n;

	while (len < sizeof req - 1 && (n = read(c, req + len,
	    sizeof req - 1 - len)) > 0) {
		len += (size_t)n;
		req[len] = '\0';
		if ((b = strstr(req, "\r\n\r\n")) != NULL) {
			header(req, "\r\nContent-Length: ", ct, sizeof ct);
			clen = ct[0] == '-' ? 0 : strtoul(ct, NULL, 10);
			if ((size_t)(req + len - (b + 4)) >= clen)
				break;
		}
	}
	req[len] = '\0';
	b = strstr(req, "\r\n\r\n");
	b = b != NULL ? b + 4 : req + len;
	if (strstr(req, " /api/v1/echo ") != NULL) {
		header(req, "\r\nAuthorization: ", auth, sizeof auth);
		header(req, "\r\nContent-Type: ", ct, sizeof ct);
		header(req, "\r\nAccept: ", acc, sizeof acc);
		snprintf(out, sizeof out, "%.4s|%s|%s|%s|%s", req, auth, ct,
		    acc, b);
		put(c, 200, "", out, strlen(out));
	} else if (strstr(req, " /api/v1/busy ") != NULL) {
		if (++busy_hits <= 2)
			put(c, 503, "Retry-After: 1\r\n", "{}", 2);
		else {
			snprintf(out, sizeof out, "ready after %d", busy_hits);
			put(c, 200, "", out, strlen(out));
		}
	} else if (strstr(req, " /api/v1/stuck ") != NULL) {
		snprintf(out, sizeof out, "stuck %d", ++stuck_hits);
		put(c, 503, "", out, strlen(out));
	} else if (strstr(req, " /api/v1/far ") != NULL)
		put(c, 503, "Retry-After: 100000\r\n", "far", 3);
	else if (strstr(req, " /api/v1/big ") != NULL)
		put_big(c, CLIENT_API_BODY_MAX + 1024 * 1024);
	else if (strstr(req, " /api/v1/mib ") != NULL)
		put_big(c, 1024 * 1024);
	else if (strstr(req, " /api/v1/slow ") != NULL)
		sleep(3);
	else if (strstr(req, " /api/v1/close ") == NULL)
		put(c, 404, "", "{\"error\": \"no\", \"status\": 404}", 31);
	/* /close: hang up without a reply. */
}

static int
setup(void **state)
{
	(void)state;
	if ((port = fx_listen_fork(serve_one, 60, &child)) == -1)
		return -1;
	snprintf(base, sizeof base, "http://127.0.0.1:%d/", port);
	return client_global_init();
}

static int
teardown(void **state)
{
	(void)state;
	fx_listen_stop(child);
	return 0;
}

static double
now_s(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct client_api
api(const char *token, int retries)
{
	struct client_api	a;

	memset(&a, 0, sizeof a);
	a.base = base;
	a.token = token;
	a.timeout_s = 5;
	a.retries = retries;
	return a;
}

static void
test_get_post(void **state)
{
	struct client_api	a = api("lrt_1_abc", 0);
	char			*body, err[512];
	size_t			 len;
	long			 st;

	(void)state;
	assert_int_equal(client_api_get(&a, "/api/v1/echo", &body, &len, &st,
	    err, sizeof err), 0);
	assert_int_equal(st, 200);
	assert_string_equal(body, "GET |Bearer lrt_1_abc|-|application/json|");
	assert_int_equal(len, strlen(body));
	free(body);
	assert_int_equal(client_api_post(&a, "/api/v1/echo", "{\"a\": 1}",
	    &body, &len, &st, err, sizeof err), 0);
	assert_int_equal(st, 200);
	assert_string_equal(body, "POST|Bearer lrt_1_abc|application/json|"
	    "application/json|{\"a\": 1}");
	free(body);
	/* No token: no Authorization header at all. */
	a.token = NULL;
	assert_int_equal(client_api_get(&a, "/api/v1/echo", &body, &len, &st,
	    err, sizeof err), 0);
	assert_string_equal(body, "GET |-|-|application/json|");
	free(body);
	/* Any status is a reply for the caller to judge. */
	assert_int_equal(client_api_get(&a, "/api/v1/nothing", &body, &len,
	    &st, err, sizeof err), 0);
	assert_int_equal(st, 404);
	assert_non_null(strstr(body, "\"status\": 404"));
	free(body);
}

static void
test_retry_503(void **state)
{
	struct client_api	a = api(NULL, 3);
	char			*body, err[512];
	size_t			 len;
	long			 st;
	double			 t0, dt;

	(void)state;
	/* 503, 503 (Retry-After: 1 each), then 200. */
	t0 = now_s();
	assert_int_equal(client_api_get(&a, "/api/v1/busy", &body, &len, &st,
	    err, sizeof err), 0);
	dt = now_s() - t0;
	assert_int_equal(st, 200);
	assert_string_equal(body, "ready after 3");
	free(body);
	if (dt < 1.9 || dt > 10)
		fail_msg("two Retry-After: 1 waits took %.2f s", dt);

	/* A 503 that stays: retries + 1 attempts, the last reply returned,
	 * after the backoff (0.5 s, 1 s) with no Retry-After. */
	a.retries = 2;
	t0 = now_s();
	assert_int_equal(client_api_get(&a, "/api/v1/stuck", &body, &len, &st,
	    err, sizeof err), 0);
	dt = now_s() - t0;
	assert_int_equal(st, 503);
	assert_string_equal(body, "stuck 3");
	free(body);
	if (dt < 1.4 || dt > 10)
		fail_msg("backoff 0.5 s + 1 s took %.2f s", dt);

	/* retries 0: one attempt, whatever Retry-After says. */
	a.retries = 0;
	t0 = now_s();
	assert_int_equal(client_api_get(&a, "/api/v1/far", &body, &len, &st,
	    err, sizeof err), 0);
	assert_int_equal(st, 503);
	free(body);
	assert_true(now_s() - t0 < 3);
	assert_int_equal(client_api_get(&a, "/api/v1/stuck", &body, &len, &st,
	    err, sizeof err), 0);
	assert_string_equal(body, "stuck 4");
	free(body);
}

static void
test_ceiling(void **state)
{
	struct client_api	a = api(NULL, 0);
	char			*body, err[512], want[128];
	size_t			 len;
	long			 st;

	(void)state;
	assert_int_equal(client_api_get(&a, "/api/v1/mib", &body, &len, &st,
	    err, sizeof err), 0);
	assert_int_equal(len, 1024 * 1024);
	assert_int_equal(body[len], '\0');
	free(body);
	assert_int_equal(client_api_get(&a, "/api/v1/big", &body, &len, &st,
	    err, sizeof err), -1);
	assert_null(body);
	snprintf(want, sizeof want, "http://127.0.0.1:%d/api/v1/big: ", port);
	if (strstr(err, want) == NULL || strstr(err, "larger than 16777216 "
	    "bytes") == NULL)
		fail_msg("err: %s", err);
}

static void
test_transport_errors(void **state)
{
	struct client_api	a = api(NULL, 2);
	char			*body, err[512], want[128];
	size_t			 len;
	long			 st;

	(void)state;
	/* Closed without a reply: an error (not retried as a 503). */
	assert_int_equal(client_api_get(&a, "/api/v1/close", &body, &len, &st,
	    err, sizeof err), -1);
	snprintf(want, sizeof want, "http://127.0.0.1:%d/api/v1/close: ",
	    port);
	if (strstr(err, want) == NULL)
		fail_msg("err: %s", err);
	assert_null(body);
	/* Nothing listens on port 1. */
	a.base = "http://127.0.0.1:1";
	assert_int_equal(client_api_get(&a, "/api/v1/status", &body, &len,
	    &st, err, sizeof err), -1);
	assert_non_null(strstr(err, "http://127.0.0.1:1/api/v1/status: "));
	/* A stalled server: the timeout. */
	a.base = base;
	a.timeout_s = 1;
	assert_int_equal(client_api_get(&a, "/api/v1/slow", &body, &len, &st,
	    err, sizeof err), -1);
	snprintf(want, sizeof want, "http://127.0.0.1:%d/api/v1/slow: ", port);
	if (strstr(err, want) == NULL || strstr(err, "imed out") == NULL)
		fail_msg("err: %s", err);
}

static void
test_refused_inputs(void **state)
{
	struct client_api	a = api(NULL, 0);
	char			*body, err[512];
	size_t			 len;
	long			 st;

	(void)state;
	a.base = "ftp://127.0.0.1:21";
	assert_int_equal(client_api_get(&a, "/api/v1/status", &body, &len,
	    &st, err, sizeof err), -1);
	assert_non_null(strstr(err, "server ftp://127.0.0.1:21: not an"));
	a.base = NULL;
	assert_int_equal(client_api_get(&a, "/api/v1/status", &body, &len,
	    &st, err, sizeof err), -1);
	a.base = base;
	assert_int_equal(client_api_get(&a, "/status", &body, &len, &st, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "not under /api/v1/"));
	assert_int_equal(client_api_get(&a, "/api/v1/a b", &body, &len, &st,
	    err, sizeof err), -1);
	assert_int_equal(client_api_get(&a, "/api/v1/a\r\nX: y", &body, &len,
	    &st, err, sizeof err), -1);
	assert_non_null(strstr(err, "control character"));
	a.token = "lrt_1_x\r\nX-Evil: 1";
	assert_int_equal(client_api_get(&a, "/api/v1/echo", &body, &len, &st,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "/api/v1/echo: the token holds"));
	assert_null(body);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_post),
		cmocka_unit_test(test_retry_503),
		cmocka_unit_test(test_ceiling),
		cmocka_unit_test(test_refused_inputs),
		cmocka_unit_test(test_transport_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
