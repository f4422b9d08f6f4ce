/*
 * test_http_query: the request-target parser (http_query.c) from a table
 * of targets: what is accepted and how it decodes (segments, parameters,
 * "+" and %XX, repeated keys, keys without values), and every refusal
 * (NUL, control characters, invalid UTF-8 and overlongs, surrogates, "."
 * and ".." plain and percent-encoded, an encoded "/", empty segments,
 * bad escapes, too many segments or parameters, over-long keys, values
 * and targets); then the typed getters (id, limit, strings, unknown keys).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "http_int.h"

struct ok_case {
	const char	*target;
	const char	*segs;		/* joined with "|" */
	const char	*params;	/* "k=v|k=v" */
};

static const struct ok_case ok_cases[] = {
	{ "/", "", "" },
	{ "/api/v1/status", "api|v1|status", "" },
	{ "/api/v1/runs?limit=5&state=done", "api|v1|runs",
	  "limit=5|state=done" },
	{ "/a?x=1&x=2", "a", "x=1|x=2" },
	{ "/a?x", "a", "x=" },
	{ "/a?x=", "a", "x=" },
	{ "/a?&&x=1&&", "a", "x=1" },
	{ "/a?note=a+b%20c", "a", "note=a b c" },
	{ "/a%20b", "a b", "" },
	{ "/a+b", "a+b", "" },
	{ "/h/em%2Dbce", "h|em-bce", "" },
	{ "/%c3%a9t%C3%A9", "\xc3\xa9t\xc3\xa9", "" },
	{ "/a?k=%F0%9F%98%80", "a", "k=\xf0\x9f\x98\x80" },
	{ "/a?link=em';DROP TABLE runs;--", "a",
	  "link=em';DROP TABLE runs;--" },
	{ "/a?q=%3D%26", "a", "q==&" },
	{ "/...", "...", "" },
	{ "/.a", ".a", "" },
};

static const char *const bad_cases[] = {
	"",
	"api/v1",
	"//",
	"/a//b",
	"/a/",
	"/.",
	"/..",
	"/a/../b",
	"/a/%2e%2e/b",
	"/a/%2E%2e",
	"/a/.%2e",
	"/a/%2e",
	"/a%2fb",
	"/a%2Fb",
	"/a%00",
	"/a?x=%00",
	"/a?x=%0a",
	"/a?x=%7f",
	"/a%",
	"/a%4",
	"/a%zz",
	"/a?x=%g0",
	"/a%ff",
	"/a%c0%af",		/* overlong "/" */
	"/a%e0%80%ae",		/* overlong "." */
	"/a%ed%a0%80",		/* a surrogate */
	"/a%f4%90%80%80",	/* past U+10FFFF */
	"/a%c3",		/* truncated */
	"/a?x=%c3(",
	"/a?X=1",
	"/a?=1",
	"/a?a-b=1",
	"/a?x%00=1",
	"/a#frag",
	"/1/2/3/4/5/6/7/8/9",
};

static void
join_segs(const struct http_uri *u, char *out, size_t len)
{
	size_t	i;

	out[0] = '\0';
	for (i = 0; i < u->nseg; i++) {
		if (i > 0)
			strncat(out, "|", len - strlen(out) - 1);
		strncat(out, u->seg[i], len - strlen(out) - 1);
	}
}

static void
join_params(const struct http_uri *u, char *out, size_t len)
{
	size_t	i;

	out[0] = '\0';
	for (i = 0; i < u->nparam; i++) {
		if (i > 0)
			strncat(out, "|", len - strlen(out) - 1);
		strncat(out, u->param[i].key, len - strlen(out) - 1);
		strncat(out, "=", len - strlen(out) - 1);
		strncat(out, u->param[i].val, len - strlen(out) - 1);
	}
}

static void
test_accepted(void **state)
{
	struct http_uri	*u = malloc(sizeof *u);
	char		 err[256], got[512];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof ok_cases / sizeof ok_cases[0]; i++) {
		err[0] = '\0';
		if (http_uri_parse(ok_cases[i].target,
		    strlen(ok_cases[i].target), u, err, sizeof err) != 0) {
			print_error("%s: refused: %s\n", ok_cases[i].target,
			    err);
			fail();
		}
		join_segs(u, got, sizeof got);
		assert_string_equal(got, ok_cases[i].segs);
		join_params(u, got, sizeof got);
		assert_string_equal(got, ok_cases[i].params);
	}
	free(u);
}

static void
test_refused(void **state)
{
	struct http_uri	*u = malloc(sizeof *u);
	char		 err[256];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		err[0] = '\0';
		if (http_uri_parse(bad_cases[i], strlen(bad_cases[i]), u, err,
		    sizeof err) != -1) {
			print_error("%s: accepted\n", bad_cases[i]);
			fail();
		}
		assert_true(err[0] != '\0');
	}
	/* A NUL byte inside the given length. */
	assert_int_equal(http_uri_parse("/a\0b", 4, u, err, sizeof err), -1);
	assert_non_null(strstr(err, "NUL"));
	free(u);
}

static void
test_caps(void **state)
{
	struct http_uri	*u = malloc(sizeof *u);
	char		*t = malloc(HTTP_URI_MAX * 2), err[256];
	size_t		 i, n;

	(void)state;
	/* 32 parameters pass, 33 do not. */
	strcpy(t, "/a?");
	for (i = 0; i < HTTP_PARAMS_MAX; i++)
		strcat(t, "k=1&");
	assert_int_equal(http_uri_parse(t, strlen(t), u, err, sizeof err), 0);
	assert_int_equal(u->nparam, HTTP_PARAMS_MAX);
	assert_int_equal(http_query_count(u, "k"), HTTP_PARAMS_MAX);
	strcat(t, "k=1");
	assert_int_equal(http_uri_parse(t, strlen(t), u, err, sizeof err), -1);
	/* A value of HTTP_VAL_MAX bytes passes, one more does not. */
	strcpy(t, "/a?v=");
	n = strlen(t);
	memset(t + n, 'x', HTTP_VAL_MAX);
	t[n + HTTP_VAL_MAX] = '\0';
	assert_int_equal(http_uri_parse(t, strlen(t), u, err, sizeof err), 0);
	strcat(t, "x");
	assert_int_equal(http_uri_parse(t, strlen(t), u, err, sizeof err), -1);
	assert_non_null(strstr(err, "parameter v"));
	/* A key of 33 bytes. */
	strcpy(t, "/a?");
	memset(t + 3, 'k', HTTP_KEY_MAX + 1);
	t[3 + HTTP_KEY_MAX + 1] = '\0';
	assert_int_equal(http_uri_parse(t, strlen(t), u, err, sizeof err), -1);
	/* A target over HTTP_URI_MAX, and one of exactly that. */
	t[0] = '/';
	memset(t + 1, 'a', HTTP_URI_MAX);
	t[HTTP_URI_MAX + 1] = '\0';
	assert_int_equal(http_uri_parse(t, strlen(t), u, err, sizeof err), -1);
	strcpy(t, "/a?");
	for (n = 3; n + 4 <= HTTP_URI_MAX; n += 4)
		memcpy(t + n, "&&&&", 4);
	memset(t + n, '&', HTTP_URI_MAX - n);
	t[HTTP_URI_MAX] = '\0';
	assert_int_equal(http_uri_parse(t, strlen(t), u, err, sizeof err), 0);
	/* A segment over HTTP_SEG_MAX. */
	t[0] = '/';
	memset(t + 1, 's', HTTP_SEG_MAX + 1);
	t[HTTP_SEG_MAX + 2] = '\0';
	assert_int_equal(http_uri_parse(t, strlen(t), u, err, sizeof err), -1);
	free(t);
	free(u);
}

static int
parse(struct http_uri *u, const char *t)
{
	char	err[256];

	return http_uri_parse(t, strlen(t), u, err, sizeof err);
}

static void
test_getters(void **state)
{
	static const char *const allowed[] = { "limit", "after", "state",
		NULL };
	struct http_uri	*u = malloc(sizeof *u);
	const char	*s;
	char		 err[256];
	int64_t		 id;
	size_t		 lim;

	(void)state;
	assert_int_equal(parse(u, "/r?after=42&state=done"), 0);
	assert_int_equal(http_query_id(u, "after", &id, err, sizeof err), 1);
	assert_int_equal(id, 42);
	id = 7;
	assert_int_equal(http_query_id(u, "before", &id, err, sizeof err), 0);
	assert_int_equal(id, 7);
	assert_int_equal(http_query_limit(u, &lim, err, sizeof err), 0);
	assert_int_equal(lim, HTTP_LIMIT_DEFAULT);
	assert_int_equal(http_query_str(u, "state", 16, &s, err, sizeof err),
	    1);
	assert_string_equal(s, "done");
	assert_int_equal(http_query_str(u, "state", 3, &s, err, sizeof err),
	    -1);
	assert_int_equal(http_query_only(u, allowed, err, sizeof err), 0);
	assert_int_equal(parse(u, "/r?after=1&bogus=2"), 0);
	assert_int_equal(http_query_only(u, allowed, err, sizeof err), -1);
	assert_non_null(strstr(err, "bogus"));

	assert_int_equal(parse(u, "/r?after=-1"), 0);
	assert_int_equal(http_query_id(u, "after", &id, err, sizeof err), -1);
	assert_non_null(strstr(err, "parameter after"));
	assert_int_equal(parse(u, "/r?after=abc"), 0);
	assert_int_equal(http_query_id(u, "after", &id, err, sizeof err), -1);
	assert_int_equal(parse(u, "/r?after=0"), 0);
	assert_int_equal(http_query_id(u, "after", &id, err, sizeof err), -1);
	assert_int_equal(parse(u, "/r?after=9223372036854775808"), 0);
	assert_int_equal(http_query_id(u, "after", &id, err, sizeof err), -1);
	assert_int_equal(parse(u, "/r?after=9223372036854775807"), 0);
	assert_int_equal(http_query_id(u, "after", &id, err, sizeof err), 1);
	assert_true(id == INT64_MAX);
	assert_int_equal(parse(u, "/r?after=1&after=2"), 0);
	assert_int_equal(http_query_id(u, "after", &id, err, sizeof err), -1);
	assert_non_null(strstr(err, "more than once"));
	assert_int_equal(parse(u, "/r?after=1%20"), 0);
	assert_int_equal(http_query_id(u, "after", &id, err, sizeof err), -1);

	assert_int_equal(parse(u, "/r?limit=10"), 0);
	assert_int_equal(http_query_limit(u, &lim, err, sizeof err), 1);
	assert_int_equal(lim, 10);
	assert_int_equal(parse(u, "/r?limit=1000000000000"), 0);
	assert_int_equal(http_query_limit(u, &lim, err, sizeof err), 1);
	assert_int_equal(lim, HTTP_LIMIT_MAX);
	assert_int_equal(parse(u, "/r?limit=99999999999999999999999999"), 0);
	assert_int_equal(http_query_limit(u, &lim, err, sizeof err), 1);
	assert_int_equal(lim, HTTP_LIMIT_MAX);
	assert_int_equal(parse(u, "/r?limit=0"), 0);
	assert_int_equal(http_query_limit(u, &lim, err, sizeof err), -1);
	assert_int_equal(parse(u, "/r?limit=-5"), 0);
	assert_int_equal(http_query_limit(u, &lim, err, sizeof err), -1);
	assert_non_null(strstr(err, "parameter limit"));
	assert_int_equal(parse(u, "/r?limit="), 0);
	assert_int_equal(http_query_limit(u, &lim, err, sizeof err), -1);

	assert_int_equal(http_parse_id("12", &id), 0);
	assert_int_equal(id, 12);
	assert_int_equal(http_parse_id("012", &id), -1);
	assert_int_equal(http_parse_id("", &id), -1);
	assert_int_equal(http_parse_id("1e3", &id), -1);
	assert_int_equal(http_parse_id("+1", &id), -1);
	free(u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_getters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
