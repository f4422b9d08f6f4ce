/*
 * test_report_remote: what the remote CLI reads out of API replies
 * (report_remote.c): the problem text of an error reply (and the start of
 * a body that is no problem object), the newest id of a list with kinds
 * passed over, an empty list, a list of another shape, a reply that is
 * not JSON; one member as text (string or integer), absent, of another
 * type.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "report.h"

#define S(x)	x, strlen(x)

static void
test_api_error(void **state)
{
	char	out[128];

	(void)state;
	report_api_error(S("{\"error\": \"no run 9\", \"status\": 404}"), out,
	    sizeof out);
	assert_string_equal(out, "no run 9");
	report_api_error(S("<html>busy</html>"), out, sizeof out);
	assert_string_equal(out, "<html>busy</html>");
	report_api_error(NULL, 0, out, sizeof out);
	assert_string_equal(out, "(no reply body)");
}

static void
test_first_id(void **state)
{
	static const char *const skip[] = { "bisect", "health", NULL };
	const char	*runs = "{\"runs\": [{\"id\": 9, \"kind\": \"bisect\"}, "
	    "{\"id\": 8, \"kind\": \"health\"}, {\"id\": 7, \"kind\": "
	    "\"manual\"}, {\"id\": 6, \"kind\": \"nightly\"}], "
	    "\"next_after\": null}";
	char		err[256];
	int64_t		id;

	(void)state;
	assert_int_equal(report_remote_first_id(S(runs), "runs", skip, &id,
	    err, sizeof err), 1);
	assert_int_equal(id, 7);
	assert_int_equal(report_remote_first_id(S(runs), "runs", NULL, &id,
	    err, sizeof err), 1);
	assert_int_equal(id, 9);
	assert_int_equal(report_remote_first_id(S("{\"bisects\": []}"),
	    "bisects", NULL, &id, err, sizeof err), 0);
	assert_int_equal(id, 0);
	/* Only skipped kinds: none. */
	assert_int_equal(report_remote_first_id(
	    S("{\"runs\": [{\"id\": 2, \"kind\": \"bisect\"}]}"), "runs", skip,
	    &id, err, sizeof err), 0);
	assert_int_equal(report_remote_first_id(S("{\"runs\": {}}"), "runs",
	    NULL, &id, err, sizeof err), -1);
	assert_non_null(strstr(err, "no \"runs\" array"));
	assert_int_equal(report_remote_first_id(
	    S("{\"runs\": [{\"id\": \"7\"}]}"), "runs", NULL, &id, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "runs[0].id: not a positive integer"));
	assert_int_equal(report_remote_first_id(S("[1, 2"), "runs", NULL, &id,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "not JSON"));
}

static void
test_member(void **state)
{
	const char	*r = "{\"bisect\": 3, \"state\": \"reset\", \"was\": "
	    "\"running\", \"hosts\": null, \"ok\": true}";
	char		 out[16];

	(void)state;
	assert_int_equal(report_remote_member(S(r), "bisect", out,
	    sizeof out), 1);
	assert_string_equal(out, "3");
	assert_int_equal(report_remote_member(S(r), "was", out, sizeof out),
	    1);
	assert_string_equal(out, "running");
	assert_int_equal(report_remote_member(S(r), "hosts", out, sizeof out),
	    0);
	assert_string_equal(out, "");
	assert_int_equal(report_remote_member(S(r), "ok", out, sizeof out), 0);
	assert_int_equal(report_remote_member(S(r), "nope", out, sizeof out),
	    0);
	assert_int_equal(report_remote_member(S("[]"), "id", out, sizeof out),
	    -1);
	/* Cut to the buffer, NUL-terminated. */
	assert_int_equal(report_remote_member(S("{\"id\": "
	    "\"0123456789abcdefXYZ\"}"), "id", out, sizeof out), 1);
	assert_string_equal(out, "0123456789abcde");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_error),
		cmocka_unit_test(test_first_id),
		cmocka_unit_test(test_member),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
