/*
 * test_json: the writer's exact output (strings of every escape class,
 * valid and invalid UTF-8, numbers shortest-round-trip, nesting and
 * commas compact and pretty, misuse and write failures) compared against
 * expected text -- no JSON parser is linked here -- and the raw-text pass
 * on tables of accepted, rejected and malformed inputs with their exact
 * messages.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "json.h"
#include "util.h"

#define N(x)	(sizeof(x) / sizeof((x)[0]))

/* A writer into memory; done() returns the text (heap) and the rc. */
struct mem {
	FILE			*fp;
	char			*text;
	size_t			 len;
	struct json_writer	*w;
};

static struct json_writer *
mem_open(struct mem *m, int flags)
{
	memset(m, 0, sizeof *m);
	m->fp = open_memstream(&m->text, &m->len);
	assert_non_null(m->fp);
	m->w = json_writer_new(m->fp, flags);
	return m->w;
}

static int
mem_done(struct mem *m, char *err, size_t errlen)
{
	int	rc = json_writer_free(m->w, err, errlen);

	assert_int_equal(fclose(m->fp), 0);
	return rc;
}

/* ---- strings ----------------------------------------------------------- */

struct str_case {
	const char	*name;
	const char	*in;
	size_t		 len;		/* 0: strlen(in) */
	const char	*out;		/* without its newline */
};

static const struct str_case str_cases[] = {
	{ "plain", "em0 tso=on", 0, "\"em0 tso=on\"" },
	{ "empty", "", 0, "\"\"" },
	{ "quote", "say \"hi\"", 0, "\"say \\\"hi\\\"\"" },
	{ "backslash", "C:\\dir\\", 0, "\"C:\\\\dir\\\\\"" },
	{ "slash kept", "a/b</", 0, "\"a/b</\"" },
	{ "named controls", "\b\f\n\r\t", 0, "\"\\b\\f\\n\\r\\t\"" },
	{ "other controls", "\x01\x1f\x7f", 0, "\"\\u0001\\u001f\\u007f\"" },
	{ "escape sequence", "\x1b[31mred", 0, "\"\\u001b[31mred\"" },
	{ "NUL inside", "a\0b", 3, "\"a\\u0000b\"" },
	{ "2-byte", "caf\xc3\xa9", 0, "\"caf\xc3\xa9\"" },
	{ "3-byte", "\xe2\x82\xac 5", 0, "\"\xe2\x82\xac 5\"" },
	{ "4-byte", "\xf0\x9d\x84\x9e", 0, "\"\xf0\x9d\x84\x9e\"" },
	{ "U+10FFFF", "\xf4\x8f\xbf\xbf", 0, "\"\xf4\x8f\xbf\xbf\"" },
	{ "U+FFFD itself", "\xef\xbf\xbd", 0, "\"\xef\xbf\xbd\"" },
	{ "U+2028/9", "a\xe2\x80\xa8" "b\xe2\x80\xa9", 0,
	    "\"a\\u2028b\\u2029\"" },
	{ "stray continuation", "a\x80z", 0, "\"a\\ufffdz\"" },
	{ "Latin-1", "caf\xe9!", 0, "\"caf\\ufffd!\"" },
	{ "overlong 2-byte /", "\xc0\xaf", 0, "\"\\ufffd\\ufffd\"" },
	{ "overlong C1", "\xc1\xbf", 0, "\"\\ufffd\\ufffd\"" },
	{ "overlong 3-byte", "\xe0\x80\xaf", 0, "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "overlong 4-byte", "\xf0\x8f\xbf\xbf", 0,
	    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "surrogate D800", "\xed\xa0\x80", 0, "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "surrogate DFFF", "\xed\xbf\xbf", 0, "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "past U+10FFFF", "\xf4\x90\x80\x80", 0,
	    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
	{ "F5 lead", "\xf5\x80", 0, "\"\\ufffd\\ufffd\"" },
	{ "FF", "\xff" "x", 0, "\"\\ufffdx\"" },
	{ "truncated 3-byte", "\xe2\x82" "A", 0, "\"\\ufffdA\"" },
	{ "truncated 4-byte at end", "\xf0\x9d\x84", 0, "\"\\ufffd\"" },
	{ "truncated 2-byte at end", "x\xc3", 0, "\"x\\ufffd\"" },
	{ "lead then lead", "\xc3\xc3\xa9", 0, "\"\\ufffd\xc3\xa9\"" },
};

static void
test_strings(void **state)
{
	struct mem	 m;
	char		 err[128], want[256];
	size_t		 i, len;

	(void)state;
	for (i = 0; i < N(str_cases); i++) {
		const struct str_case *c = &str_cases[i];

		len = c->len != 0 ? c->len : strlen(c->in);
		json_put_strn(mem_open(&m, 0), c->in, len);
		assert_int_equal(mem_done(&m, err, sizeof err), 0);
		snprintf(want, sizeof want, "%s\n", c->out);
		if (strcmp(m.text, want) != 0) {
			print_error("%s: got %s want %s", c->name, m.text,
			    want);
			fail();
		}
		free(m.text);
	}
	/* Keys are escaped the same way; NULL is null. */
	mem_open(&m, 0);
	json_begin_obj(m.w);
	json_kv_str(m.w, "a\"\n\xff", NULL);
	json_end_obj(m.w);
	assert_int_equal(mem_done(&m, err, sizeof err), 0);
	assert_string_equal(m.text, "{\"a\\\"\\n\\ufffd\":null}\n");
	free(m.text);
}

/* ---- numbers ----------------------------------------------------------- */

struct num_case {
	double		 d;
	const char	*out;
};

static void
test_numbers(void **state)
{
	const struct num_case cases[] = {
		{ 0.05, "0.05" },
		{ 0.1 + 0.2, "0.30000000000000004" },
		{ 1.0 / 3.0, "0.3333333333333333" },
		{ 2.0 / 3.0, "0.6666666666666666" },
		{ 1e21, "1e+21" },
		{ 1e-7, "1e-07" },
		{ -0.0, "-0" },
		{ 0.0, "0" },
		{ 100.0, "100" },
		{ -1.5, "-1.5" },
		{ 994838000.0, "994838000" },
		{ 9.94838e+08, "994838000" },
		{ 994838123.456789, "994838123.456789" },
		{ 933e6, "933000000" },
		{ 9007199254740992.0, "9007199254740992" },
		{ 1.2345678901234568e17, "1.2345678901234568e+17" },
		{ DBL_MAX, "1.7976931348623157e+308" },
		{ DBL_MIN, "2.2250738585072014e-308" },
		{ 5e-324, "4.94065645841247e-324" },
		{ 0.891, "0.891" },
		{ NAN, "null" },
		{ INFINITY, "null" },
		{ -INFINITY, "null" },
	};
	char	buf[JSON_NUM_MAX], err[128];
	struct mem m;
	size_t	i;

	(void)state;
	for (i = 0; i < N(cases); i++) {
		json_dtoa(cases[i].d, buf, sizeof buf);
		if (strcmp(buf, cases[i].out) != 0) {
			print_error("case %zu: got %s want %s\n", i, buf,
			    cases[i].out);
			fail();
		}
		if (isfinite(cases[i].d)) {
			assert_true(strtod(buf, NULL) == cases[i].d);
			assert_int_equal(signbit(strtod(buf, NULL)),
			    signbit(cases[i].d));
		}
	}
	/* Round trip over a spread of awkward values. */
	for (i = 0; i < 20000; i++) {
		double	d = (double)(i * 7919 % 100003) / 997.0;
		size_t	k;

		for (k = 0; k < i % 41; k++)
			d *= i % 2 ? 10.0 : 0.1;

		json_dtoa(d, buf, sizeof buf);
		assert_true(strtod(buf, NULL) == d);
	}
	mem_open(&m, 0);
	json_begin_arr(m.w);
	json_put_num(m.w, 0.05);
	json_put_int(m.w, INT64_MIN);
	json_put_int(m.w, INT64_MAX);
	json_put_int(m.w, 0);
	json_put_num(m.w, NAN);
	json_end_arr(m.w);
	assert_int_equal(mem_done(&m, err, sizeof err), 0);
	assert_string_equal(m.text, "[0.05,-9223372036854775808,"
	    "9223372036854775807,0,null]\n");
	free(m.text);
}

/* ---- nesting ----------------------------------------------------------- */

static void
write_doc(struct json_writer *w)
{
	json_begin_obj(w);
	json_kv_int(w, "run", 2);
	json_key(w, "list");
	json_begin_arr(w);
	json_put_bool(w, 1);
	json_put_bool(w, 0);
	json_put_null(w);
	json_put_str(w, "x");
	json_begin_arr(w);
	json_end_arr(w);
	json_begin_obj(w);
	json_end_obj(w);
	json_begin_arr(w);
	json_put_int(w, 1);
	json_begin_arr(w);
	json_put_int(w, 2);
	json_end_arr(w);
	json_end_arr(w);
	json_end_arr(w);
	json_key(w, "o");
	json_begin_obj(w);
	json_kv_num(w, "ratio", 0.891);
	json_kv_bool(w, "collapse", 0);
	json_kv_null(w, "p");
	json_kv_str(w, "s", "v");
	json_end_obj(w);
	json_end_obj(w);
}

static void
test_nesting(void **state)
{
	struct mem	m;
	char		err[128];

	(void)state;
	write_doc(mem_open(&m, 0));
	assert_int_equal(mem_done(&m, err, sizeof err), 0);
	assert_string_equal(m.text, "{\"run\":2,\"list\":[true,false,null,"
	    "\"x\",[],{},[1,[2]]],\"o\":{\"ratio\":0.891,\"collapse\":false,"
	    "\"p\":null,\"s\":\"v\"}}\n");
	free(m.text);

	write_doc(mem_open(&m, JSON_PRETTY));
	assert_int_equal(mem_done(&m, err, sizeof err), 0);
	assert_string_equal(m.text,
	    "{\n"
	    "  \"run\":2,\n"
	    "  \"list\":[\n"
	    "    true,\n"
	    "    false,\n"
	    "    null,\n"
	    "    \"x\",\n"
	    "    [],\n"
	    "    {},\n"
	    "    [\n"
	    "      1,\n"
	    "      [\n"
	    "        2\n"
	    "      ]\n"
	    "    ]\n"
	    "  ],\n"
	    "  \"o\":{\n"
	    "    \"ratio\":0.891,\n"
	    "    \"collapse\":false,\n"
	    "    \"p\":null,\n"
	    "    \"s\":\"v\"\n"
	    "  }\n"
	    "}\n");
	free(m.text);

	/* Top-level values one per line: JSON lines. */
	mem_open(&m, 0);
	json_begin_obj(m.w);
	json_kv_int(m.w, "a", 1);
	json_end_obj(m.w);
	json_put_str(m.w, "two");
	json_put_int(m.w, 3);
	assert_int_equal(mem_done(&m, err, sizeof err), 0);
	assert_string_equal(m.text, "{\"a\":1}\n\"two\"\n3\n");
	free(m.text);

	/* Deep but within the limit. */
	{
		int	i;

		mem_open(&m, 0);
		for (i = 0; i < JSON_WRITER_DEPTH; i++)
			json_begin_arr(m.w);
		for (i = 0; i < JSON_WRITER_DEPTH; i++)
			json_end_arr(m.w);
		assert_int_equal(mem_done(&m, err, sizeof err), 0);
		assert_int_equal(m.len, 2 * JSON_WRITER_DEPTH + 1);
		free(m.text);
	}
}

/* ---- misuse and write failures ----------------------------------------- */

static void
misuse(int which, const char *want_err, const char *want_text)
{
	struct mem	m;
	char		err[128];
	int		i;

	mem_open(&m, 0);
	switch (which) {
	case 0:		/* a value in an object without its key */
		json_begin_obj(m.w);
		json_put_int(m.w, 1);
		json_end_obj(m.w);
		break;
	case 1:		/* a key in an array */
		json_begin_arr(m.w);
		json_key(m.w, "k");
		break;
	case 2:		/* unbalanced end */
		json_begin_arr(m.w);
		json_end_obj(m.w);
		break;
	case 3:		/* never ended */
		json_begin_arr(m.w);
		json_begin_obj(m.w);
		break;
	case 4:		/* too deep */
		for (i = 0; i <= JSON_WRITER_DEPTH; i++)
			json_begin_arr(m.w);
		break;
	case 5:		/* a key without a value */
		json_begin_obj(m.w);
		json_key(m.w, "a");
		json_end_obj(m.w);
		break;
	case 6:		/* two keys */
		json_begin_obj(m.w);
		json_key(m.w, "a");
		json_key(m.w, "b");
		break;
	}
	assert_int_equal(mem_done(&m, err, sizeof err), -1);
	assert_string_equal(err, want_err);
	if (want_text != NULL)
		assert_string_equal(m.text, want_text);
	free(m.text);
}

static void
test_misuse(void **state)
{
	struct json_writer	*w;
	FILE			*fp;
	char			 err[128];

	(void)state;
	misuse(0, "json: a value in an object without a key", "{");
	misuse(1, "json: key \"k\" outside an object", "[");
	misuse(2, "json: unbalanced end of an object", "[");
	misuse(3, "json: 2 containers not ended", "[{");
	misuse(4, "json: nested deeper than 64", NULL);
	misuse(5, "json: a key without a value before the end of an object",
	    "{\"a\":");
	misuse(6, "json: key \"b\" after a key without a value", "{\"a\":");
	assert_int_equal(json_writer_free(NULL, err, sizeof err), 0);

	/* A full disk: the first failed write is reported. */
	fp = fopen("/dev/full", "w");
	if (fp == NULL)
		skip();
	setvbuf(fp, NULL, _IONBF, 0);
	w = json_writer_new(fp, JSON_PRETTY);
	json_begin_obj(w);
	json_kv_str(w, "a", "b");
	json_end_obj(w);
	assert_int_equal(json_writer_free(w, err, sizeof err), -1);
	assert_string_equal(err, "json: write failed: No space left on device");
	fclose(fp);
}

/* ---- raw-text pass ----------------------------------------------------- */

struct raw_case {
	const char	*in;
	size_t		 len;		/* 0: strlen(in) */
	int		 rc;
	const char	*err;		/* NULL: not checked */
};

static const struct raw_case raw_cases[] = {
	/* Accepted. */
	{ "{}", 0, JSON_RAW_OK, NULL },
	{ " [ ] ", 0, JSON_RAW_OK, NULL },
	{ "1", 0, JSON_RAW_OK, NULL },
	{ "-0.5e+3", 0, JSON_RAW_OK, NULL },
	{ "[0,-0,1.25,1E9,2e-3,true,false,null]", 0, JSON_RAW_OK, NULL },
	{ "\t{\"a\":1,\"b\":{\"a\":2},\"c\":[{\"a\":1},{\"a\":1}]}\r\n", 0,
	    JSON_RAW_OK, NULL },
	{ "{\"a\":{},\"b\":{}}", 0, JSON_RAW_OK, NULL },
	{ "{\"\":1,\"A\":2,\"a\":3}", 0, JSON_RAW_OK, NULL },
	{ "[\"\\ud83d\\ude00\",\"\\u00e9\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", 0,
	    JSON_RAW_OK, NULL },
	{ "{\"v\":\"x\\u0000y\"}", 0, JSON_RAW_OK, NULL },
	{ "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e \xf4\x8f\xbf\xbf\"", 0,
	    JSON_RAW_OK, NULL },
	{ "{\"caf\xc3\xa9\":1,\"cafe\\u0301\":2}", 0, JSON_RAW_OK, NULL },

	/* Rejected: what json-c would accept and change. */
	{ "{\"a\":1,\"a\":2}", 0, JSON_RAW_REJECTED,
	    "a: duplicate key, first at byte 1 (byte 7)" },
	{ "{\"a\":1,\"\\u0061\":2}", 0, JSON_RAW_REJECTED,
	    "a: duplicate key, first at byte 1 (byte 7)" },
	{ "{\"hosts\":[{\"name\":\"x\",\"nics\":[{},{\"n\":1,\"n\":2}]}]}", 0,
	    JSON_RAW_REJECTED,
	    "hosts[0].nics[1].n: duplicate key, first at byte 34 (byte 40)" },
	{ "{\n  \"a\": 1,\n  \"b\": [1, 2],\n  \"a\": 2\n}\n", 0,
	    JSON_RAW_REJECTED,
	    "a: duplicate key, first at byte 4 (line 4, byte 29)" },
	{ "{\"a\\u0000b\":1}", 0, JSON_RAW_REJECTED,
	    "NUL (\\u0000) in a key (byte 3)" },
	{ "{\"x\":{\"\\u0000\":1}}", 0, JSON_RAW_REJECTED,
	    "x: NUL (\\u0000) in a key (byte 7)" },
	{ "{\"k\":\"\\ud800\"}", 0, JSON_RAW_REJECTED,
	    "k: lone high surrogate \\uD800 (byte 6)" },
	{ "{\"k\":\"\\uDBFFx\"}", 0, JSON_RAW_REJECTED,
	    "k: lone high surrogate \\uDBFF (byte 6)" },
	{ "{\"k\":\"\\udc00\"}", 0, JSON_RAW_REJECTED,
	    "k: lone low surrogate \\uDC00 (byte 6)" },
	{ "[1,\"\\ud800\\u0041\"]", 0, JSON_RAW_REJECTED,
	    "[1]: lone high surrogate \\uD800 (byte 4)" },
	{ "[\"\\ud800\\ud800\"]", 0, JSON_RAW_REJECTED,
	    "[0]: lone high surrogate \\uD800 (byte 2)" },
	{ "{\"\\udfff\":1}", 0, JSON_RAW_REJECTED,
	    "lone low surrogate \\uDFFF (byte 2)" },
	{ "{\"r\":\"\xc0\xaf\"}", 0, JSON_RAW_REJECTED,
	    "r: overlong UTF-8 (byte 6)" },
	{ "\"\xe0\x80\xaf\"", 0, JSON_RAW_REJECTED, "overlong UTF-8 (byte 1)" },
	{ "\"\xf0\x8f\xbf\xbf\"", 0, JSON_RAW_REJECTED,
	    "overlong UTF-8 (byte 1)" },
	{ "\"\xed\xa0\x80\"", 0, JSON_RAW_REJECTED,
	    "UTF-8-encoded surrogate (byte 1)" },
	{ "\"\xf4\x90\x80\x80\"", 0, JSON_RAW_REJECTED,
	    "UTF-8 beyond U+10FFFF (byte 1)" },
	{ "\"\xf5\x80\x80\x80\"", 0, JSON_RAW_REJECTED,
	    "UTF-8 beyond U+10FFFF (byte 1)" },
	{ "\"ab\xe2\x82\"", 0, JSON_RAW_REJECTED,
	    "truncated UTF-8 sequence (byte 3)" },
	{ "\"\x80\"", 0, JSON_RAW_REJECTED,
	    "stray UTF-8 continuation byte (byte 1)" },
	{ "\"\xff\"", 0, JSON_RAW_REJECTED, "invalid UTF-8 byte (byte 1)" },
	{ "\"caf\xe9\"", 0, JSON_RAW_REJECTED,
	    "truncated UTF-8 sequence (byte 4)" },
	{ "{\"\xc3\x28\":1}", 0, JSON_RAW_REJECTED,
	    "truncated UTF-8 sequence (byte 2)" },
	{ "{\"a\":1}\0junk", 12, JSON_RAW_REJECTED, "NUL byte (byte 7)" },
	{ "{\"a\":\"x\0y\"}", 11, JSON_RAW_REJECTED, "a: NUL byte (byte 7)" },
	{ "[1,\0]", 5, JSON_RAW_REJECTED, "[1]: NUL byte (byte 3)" },

	/* Not JSON at all. */
	{ "", 0, JSON_RAW_SYNTAX,
	    "unexpected end of input, expected a value (byte 0)" },
	{ "{", 0, JSON_RAW_SYNTAX,
	    "unexpected end of input, expected a member name (byte 1)" },
	{ "{\"a\"}", 0, JSON_RAW_SYNTAX, "a: unexpected '}', expected ':' "
	    "(byte 4)" },
	{ "{\"a\":1,}", 0, JSON_RAW_SYNTAX, "unexpected '}', expected a "
	    "member name (byte 7)" },
	{ "[1,]", 0, JSON_RAW_SYNTAX, "[1]: unexpected ']', expected a value "
	    "(byte 3)" },
	{ "[1 2]", 0, JSON_RAW_SYNTAX, "[0]: unexpected '2', expected ',' or "
	    "']' (byte 3)" },
	{ "{'a':1}", 0, JSON_RAW_SYNTAX, NULL },
	{ "01", 0, JSON_RAW_SYNTAX, "bad number (byte 0)" },
	{ "1.", 0, JSON_RAW_SYNTAX, "bad number (byte 0)" },
	{ "-", 0, JSON_RAW_SYNTAX, "bad number (byte 0)" },
	{ "1e+", 0, JSON_RAW_SYNTAX, "bad number (byte 0)" },
	{ ".5", 0, JSON_RAW_SYNTAX, NULL },
	{ "+1", 0, JSON_RAW_SYNTAX, NULL },
	{ "tru", 0, JSON_RAW_SYNTAX, NULL },
	{ "NaN", 0, JSON_RAW_SYNTAX, NULL },
	{ "\"abc", 0, JSON_RAW_SYNTAX, "unterminated string (byte 4)" },
	{ "\"\\x\"", 0, JSON_RAW_SYNTAX, "bad escape (byte 1)" },
	{ "\"\\u12\"", 0, JSON_RAW_SYNTAX, "bad \\u escape (byte 1)" },
	{ "\"a\nb\"", 0, JSON_RAW_SYNTAX,
	    "control character 0x0a in a string (line 1, byte 2)" },
	{ "{\"a\":1} x", 0, JSON_RAW_SYNTAX, "data after the value (byte 8)" },
	{ "{\"a\":1}{}", 0, JSON_RAW_SYNTAX, "data after the value (byte 7)" },
	{ "\xef\xbb\xbf{}", 0, JSON_RAW_SYNTAX,
	    "unexpected byte 0xef, expected a value (byte 0)" },
	/* A syntax error before a duplicate is reported as syntax. */
	{ "{\"a\":1 \"a\":2}", 0, JSON_RAW_SYNTAX, NULL },
};

static void
test_raw(void **state)
{
	char	err[256];
	size_t	i, len;
	int	rc;

	(void)state;
	for (i = 0; i < N(raw_cases); i++) {
		const struct raw_case *c = &raw_cases[i];

		len = c->len != 0 ? c->len : strlen(c->in);
		err[0] = '\0';
		rc = json_check_raw(c->in, len, err, sizeof err);
		if (rc != c->rc || (c->err != NULL &&
		    strcmp(err, c->err) != 0)) {
			print_error("case %zu (%s): rc %d want %d, err \"%s\" "
			    "want \"%s\"\n", i, c->in, rc, c->rc, err,
			    c->err != NULL ? c->err : "-");
			fail();
		}
	}
}

static void
test_raw_limits(void **state)
{
	struct buf	b;
	char		err[256];
	size_t		i;

	(void)state;
	/* Deep nesting: up to the limit fine, one more is syntax. */
	buf_init(&b, 4096);
	for (i = 0; i < JSON_RAW_MAX_DEPTH; i++)
		buf_append(&b, "[", 1);
	for (i = 0; i < JSON_RAW_MAX_DEPTH; i++)
		buf_append(&b, "]", 1);
	assert_int_equal(json_check_raw(b.data, b.len, err, sizeof err),
	    JSON_RAW_OK);
	buf_reset(&b);
	for (i = 0; i <= JSON_RAW_MAX_DEPTH; i++)
		buf_append(&b, "[", 1);
	assert_int_equal(json_check_raw(b.data, b.len, err, sizeof err),
	    JSON_RAW_SYNTAX);
	assert_non_null(strstr(err, "nested deeper than 512 (byte 512)"));
	buf_free(&b);

	/* 100000 keys in one object stay fast; a duplicate at the end. */
	buf_init(&b, 4 * 1024 * 1024);
	buf_append(&b, "{", 1);
	for (i = 0; i < 100000; i++)
		buf_printf(&b, "%s\"k%zu\":{\"k%zu\":%zu}", i > 0 ? "," : "",
		    i, i, i);
	buf_append(&b, "}", 1);
	assert_int_equal(json_check_raw(b.data, b.len, err, sizeof err),
	    JSON_RAW_OK);
	b.len--;
	buf_printf(&b, ",\"k77\":0}");
	assert_int_equal(json_check_raw(b.data, b.len, err, sizeof err),
	    JSON_RAW_REJECTED);
	assert_true(strncmp(err, "k77: duplicate key, first at byte ", 34)
	    == 0);
	buf_free(&b);

	/* The writer's output passes the raw pass, invalid input or not. */
	{
		struct mem	m;

		mem_open(&m, JSON_PRETTY);
		json_begin_arr(m.w);
		for (i = 0; i < N(str_cases); i++)
			json_put_strn(m.w, str_cases[i].in,
			    str_cases[i].len != 0 ? str_cases[i].len :
			    strlen(str_cases[i].in));
		json_end_arr(m.w);
		assert_int_equal(mem_done(&m, err, sizeof err), 0);
		assert_int_equal(json_check_raw(m.text, m.len, err,
		    sizeof err), JSON_RAW_OK);
		free(m.text);
	}
}

/* json_mem: the text, its length, the trailing newline kept or trimmed,
 * and a broken writer giving NULL with the writer's reason. */
static void
test_mem(void **state)
{
	struct json_mem		 m;
	struct json_writer	*w;
	char			*text, err[128] = "";
	size_t			 len = 99;

	(void)state;
	assert_non_null(w = json_mem_begin(&m, 0));
	json_begin_obj(w);
	json_kv_str(w, "a", "x\"y");
	json_end_obj(w);
	assert_non_null(text = json_mem_end(&m, &len, err, sizeof err));
	assert_string_equal(text, "{\"a\":\"x\\\"y\"}\n");
	assert_int_equal(len, strlen(text));
	free(text);
	assert_non_null(w = json_mem_begin(&m, JSON_MEM_TRIM | JSON_PRETTY));
	json_begin_arr(w);
	json_put_int(w, 1);
	json_end_arr(w);
	assert_non_null(text = json_mem_end(&m, &len, err, sizeof err));
	assert_string_equal(text, "[\n  1\n]");
	assert_int_equal(len, 7);
	free(text);
	assert_non_null(w = json_mem_begin(&m, 0));
	json_begin_obj(w);
	assert_null(json_mem_end(&m, &len, err, sizeof err));
	assert_int_equal(len, 0);
	assert_string_equal(err, "json: 1 container not ended");
	assert_null(m.buf);
}

/* Files in dir, "." and ".." aside. */
static int
count_files(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	int		 n = 0;

	assert_non_null(d = opendir(dir));
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* json_mem_write_file: the text in the file (0600, replacing one that was
 * there, no temporary left); a broken writer or a directory that is not
 * there fails naming the path and leaves the file as it was. */
static void
test_mem_write_file(void **state)
{
	struct json_mem		 m;
	struct json_writer	*w;
	struct stat		 sb;
	char			 dir[] = "/tmp/test_json.XXXXXX", path[64];
	char			 bad[96], want[96], err[256], *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/c.json", dir);
	assert_non_null(w = json_mem_begin(&m, JSON_PRETTY));
	json_begin_obj(w);
	json_kv_str(w, "a", "old");
	json_end_obj(w);
	assert_int_equal(json_mem_write_file(&m, path, err, sizeof err), 0);
	assert_non_null(w = json_mem_begin(&m, JSON_PRETTY));
	json_begin_obj(w);
	json_key(w, "inventories");
	json_begin_arr(w);
	json_put_str(w, "/x/inv.json");
	json_end_arr(w);
	json_end_obj(w);
	assert_int_equal(json_mem_write_file(&m, path, err, sizeof err), 0);
	assert_null(m.buf);
	assert_non_null(text = util_read_file(path, 4096, NULL, err,
	    sizeof err));
	assert_string_equal(text,
	    "{\n  \"inventories\":[\n    \"/x/inv.json\"\n  ]\n}\n");
	free(text);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(count_files(dir), 1);

	/* A container left open: nothing written, the old file stays. */
	assert_non_null(w = json_mem_begin(&m, 0));
	json_begin_obj(w);
	json_kv_str(w, "a", "new");
	assert_int_equal(json_mem_write_file(&m, path, err, sizeof err), -1);
	snprintf(want, sizeof want, "%s: json: 1 container not ended", path);
	assert_string_equal(err, want);
	assert_null(m.buf);
	assert_non_null(text = util_read_file(path, 4096, NULL, err,
	    sizeof err));
	assert_non_null(strstr(text, "inventories"));
	free(text);
	assert_int_equal(count_files(dir), 1);

	/* No such directory: the error names the file it tried. */
	snprintf(bad, sizeof bad, "%s/none/c.json", dir);
	assert_non_null(w = json_mem_begin(&m, 0));
	json_put_int(w, 1);
	assert_int_equal(json_mem_write_file(&m, bad, err, sizeof err), -1);
	assert_non_null(strstr(err, bad));
	assert_non_null(strstr(err, "No such file or directory"));

	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_misuse),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_raw_limits),
		cmocka_unit_test(test_mem),
		cmocka_unit_test(test_mem_write_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
