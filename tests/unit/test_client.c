/*
 * test_client: the libcurl request function against a tiny HTTP listener
 * on 127.0.0.1 (a forked child): GET and POST with their status and body,
 * a non-2xx status, the response-size ceiling, the deadline against a
 * server that stalls, a refused connection and rejected URLs/methods.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "client.h"
#include "listener_fixture.h"

static int	port;
static pid_t	child;

static void
serve_one(int c)
{
	char	req[4096], hdr[256], *body;
	size_t	len = 0, blen = 0;
	ssize_t	n;
	int	status = 200;

	while (len < sizeof req - 1 && (n = read(c, req + len,
	    sizeof req - 1 - len)) > 0) {
		len += (size_t)n;
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n") != NULL)
			break;
	}
	req[len] = '\0';
	if (strncmp(req, "GET /slow", 9) == 0) {
		sleep(3);
		return;
	}
	if (strstr(req, " /big ") != NULL) {
		blen = 200 * 1024;
		body = malloc(blen);
		memset(body, 'x', blen);
	} else {
		body = strdup(strncmp(req, "POST", 4) == 0 ? "POST cycled" :
		    "GET cycled");
		blen = strlen(body);
		if (strstr(req, " /missing ") != NULL)
			status = 404;
	}
	snprintf(hdr, sizeof hdr, "HTTP/1.0 %d X\r\nContent-Length: %zu\r\n"
	    "Connection: close\r\n\r\n", status, blen);
	if (write(c, hdr, strlen(hdr)) > 0)
		(void)!write(c, body, blen);
	free(body);
}

static int
setup(void **state)
{
	(void)state;
	if ((port = fx_listen_fork(serve_one, 30, &child)) == -1)
		return -1;
	return client_global_init();
}

static int
teardown(void **state)
{
	(void)state;
	fx_listen_stop(child);
	return 0;
}

static int
req(const char *path, const char *method, size_t max, int timeout_ms,
    struct client_response *r, char *err, size_t errlen)
{
	struct client_request	rq;
	char			url[128];

	snprintf(url, sizeof url, "http://127.0.0.1:%d%s", port, path);
	memset(&rq, 0, sizeof rq);
	rq.url = url;
	rq.method = method;
	rq.max_body = max;
	rq.timeout_ms = timeout_ms;
	return client_request(&rq, r, err, errlen);
}

static void
test_get_post(void **state)
{
	struct client_response	r;
	char			err[512];

	(void)state;
	assert_int_equal(req("/outlet/3/cycle", "GET", 0, 0, &r, err,
	    sizeof err), 0);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "GET cycled");
	free(r.body);
	assert_int_equal(req("/outlet/3/cycle", "POST", 0, 0, &r, err,
	    sizeof err), 0);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "POST cycled");
	assert_int_equal(r.len, 11);
	free(r.body);
	assert_int_equal(req("/missing", NULL, 0, 0, &r, err, sizeof err), 0);
	assert_int_equal(r.status, 404);
	free(r.body);
}

static void
test_limits(void **state)
{
	struct client_response	r;
	char			err[512];

	(void)state;
	assert_int_equal(req("/big", "GET", 1024, 0, &r, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "larger than 1024 bytes"));
	assert_null(r.body);
	assert_int_equal(req("/big", "GET", 0, 0, &r, err, sizeof err), -1);
	assert_int_equal(req("/big", "GET", 256 * 1024, 0, &r, err,
	    sizeof err), 0);
	assert_int_equal(r.len, 200 * 1024);
	free(r.body);
	assert_int_equal(req("/slow", "GET", 0, 400, &r, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "127.0.0.1"));
}

static void
test_rejected(void **state)
{
	struct client_request	rq;
	struct client_response	r;
	char			err[512];

	(void)state;
	memset(&rq, 0, sizeof rq);
	rq.url = "ftp://127.0.0.1/x";
	assert_int_equal(client_request(&rq, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "only http"));
	assert_int_equal(req("/x", "PUT", 0, 0, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "GET, POST or DELETE"));
	rq.url = "http://127.0.0.1:1/x";	/* nothing listens there */
	assert_int_equal(client_request(&rq, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "127.0.0.1:1"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_post),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_rejected),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
