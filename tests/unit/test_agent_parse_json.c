/*
 * test_agent_parse_json: the agent's bounded JSON reader: RFC 8259 syntax
 * accepted and rejected, escapes and surrogates, numbers, depth / node /
 * size limits, lookups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "agent_parse_fx.h"
#include "json.h"

static char err[256];

static struct json_doc *
parse(const char *s)
{
	err[0] = '\0';
	return json_doc_parse(s, strlen(s), err, sizeof(err));
}

static void
test_valid(void **state)
{
	static const char *ok[] = {
		"{}", "[]", "0", "-0", "1.5e3", "-1E-2", "\"\"", "true",
		"false", "null", " \r\n\t[1, 2 ,3]\r\n", "{\"a\":{\"b\":[{}]}}",
		"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "123456789012345678901234",
	};
	size_t i;
	struct json_doc *d;

	(void)state;
	for (i = 0; i < N(ok); i++) {
		if ((d = parse(ok[i])) == NULL) {
			print_error("rejected %s: %s\n", ok[i], err);
			fail();
		}
		json_doc_free(d);
	}
}

static void
test_invalid(void **state)
{
	static const struct {
		const char *text, *needle;
	} bad[] = {
		{ "", "end of input" }, { "   ", "end of input" },
		{ "{", "member name" }, { "[1,]", "unexpected" },
		{ "{\"a\" 1}", "':'" }, { "{\"a\":1,}", "member name" },
		{ "[1 2]", "','" }, { "01", "trailing" }, { "1.", "fraction" },
		{ ".5", "unexpected" }, { "+1", "unexpected" },
		{ "1e", "exponent" }, { "1e400", "out of range" },
		{ "-1e400", "out of range" }, { "tru", "unexpected" },
		{ "nul", "unexpected" }, { "\"abc", "unterminated" },
		{ "\"a\x01\"", "control" }, { "\"\\x\"", "bad escape" },
		{ "\"\\u12\"", "\\u" }, { "\"\\u12G4\"", "\\u" },
		{ "\"\\ud800\"", "surrogate" }, { "\"\\udc00\"", "surrogate" },
		{ "\"\\ud800\\u0041\"", "surrogate" },
		{ "\"\\u0000\"", "\\u0000" }, { "{} {}", "trailing" },
		{ "[1]x", "trailing" }, { "{1:2}", "member name" },
		{ "NaN", "unexpected" }, { "Infinity", "unexpected" },
		{ "'a'", "unexpected" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < N(bad); i++) {
		if (parse(bad[i].text) != NULL) {
			print_error("accepted \"%s\"\n", bad[i].text);
			fail();
		}
		fx_err_has(err, bad[i].needle);
	}
	assert_null(json_doc_parse(NULL, 0, err, sizeof(err)));
	/* Embedded NUL is not whitespace. */
	assert_null(json_doc_parse("[1]\0", 4, err, sizeof(err)));
}

static void
test_strings(void **state)
{
	struct json_doc *d;
	const char *s;

	(void)state;
	d = parse("[\"caf\\u00e9\", \"\\ud83d\\ude00\", \"\\u20ac\", \"a\\/b\"]");
	assert_non_null(d);
	assert_string_equal(json_string(json_at(json_doc_root(d), 0)),
	    "caf\xc3\xa9");
	assert_string_equal(json_string(json_at(json_doc_root(d), 1)),
	    "\xf0\x9f\x98\x80");
	assert_string_equal(json_string(json_at(json_doc_root(d), 2)),
	    "\xe2\x82\xac");
	s = json_string(json_at(json_doc_root(d), 3));
	assert_string_equal(s, "a/b");
	json_doc_free(d);
}

static void
test_lookup(void **state)
{
	struct json_doc *d;
	const struct json_value *root, *v;
	double x = 0;
	size_t n = 0;

	(void)state;
	d = parse("{\"end\":{\"sum_sent\":{\"bytes\":12345678901,"
	    "\"ok\":true}},\"a\":1,\"a\":2,\"list\":[10,20,30],\"n\":null}");
	assert_non_null(d);
	root = json_doc_root(d);
	assert_int_equal(json_type(root), JSON_OBJECT);
	assert_int_equal(json_number(json_path(root, "end.sum_sent.bytes"),
	    &x), 0);
	fx_eq(x, 12345678901.0, "bytes");
	assert_int_equal(json_bool(json_path(root, "end.sum_sent.ok")), 1);
	assert_int_equal(json_bool(json_get(root, "a")), -1);
	assert_int_equal(json_number(json_get(root, "a"), &x), 0);
	fx_eq(x, 1, "first duplicate wins");
	assert_null(json_path(root, "end.nope.bytes"));
	assert_null(json_get(json_get(root, "list"), "x"));
	assert_int_equal(json_len(json_get(root, "list")), 3);
	assert_int_equal(json_number(json_at(json_get(root, "list"), 2), &x),
	    0);
	fx_eq(x, 30, "list[2]");
	assert_null(json_at(json_get(root, "list"), 3));
	for (v = json_first(json_get(root, "list")); v != NULL;
	    v = json_next(v))
		n++;
	assert_int_equal(n, 3);
	assert_int_equal(json_type(json_get(root, "n")), JSON_NULL);
	assert_int_equal(json_number(json_get(root, "n"), &x), -1);
	assert_null(json_string(json_get(root, "n")));
	assert_string_equal(json_key(json_first(root)), "end");
	assert_int_equal(json_len(root), 5);
	json_doc_free(d);
	json_doc_free(NULL);
	assert_null(json_doc_root(NULL));
}

static char *
nest(int depth)
{
	char *s = malloc((size_t)depth * 2 + 1);
	int i;

	assert_non_null(s);
	for (i = 0; i < depth; i++) {
		s[i] = '[';
		s[depth * 2 - 1 - i] = ']';
	}
	s[depth * 2] = '\0';
	return s;
}

static void
test_limits(void **state)
{
	struct json_doc *d;
	char *s;
	size_t n, i;

	(void)state;
	s = nest(JSON_MAX_DEPTH + 1);		/* depths 0..64 */
	d = parse(s);
	assert_non_null(d);
	json_doc_free(d);
	free(s);
	s = nest(JSON_MAX_DEPTH + 2);
	assert_null(parse(s));
	fx_err_has(err, "deep");
	free(s);
	s = nest(100000);			/* no stack overflow */
	assert_null(parse(s));
	free(s);

	/* More values than JSON_MAX_NODES. */
	n = (size_t)JSON_MAX_NODES * 2 + 2;
	s = malloc(n + 1);
	assert_non_null(s);
	s[0] = '[';
	for (i = 1; i < n - 1; i += 2) {
		s[i] = '0';
		s[i + 1] = ',';
	}
	s[n - 1] = ']';
	s[n] = '\0';
	s[n - 2] = '0';
	assert_null(json_doc_parse(s, n - 0, err, sizeof(err)));
	fx_err_has(err, "too many values");
	free(s);

	/* Over the size limit. */
	n = JSON_MAX_INPUT + 1;
	s = malloc(n);
	assert_non_null(s);
	memset(s, ' ', n);
	s[0] = '0';
	assert_null(json_doc_parse(s, n, err, sizeof(err)));
	fx_err_has(err, "size limit");
	free(s);

	/* A long number is refused, not truncated. */
	s = malloc(200);
	assert_non_null(s);
	memset(s, '1', 199);
	s[199] = '\0';
	assert_null(parse(s));
	fx_err_has(err, "too long");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
