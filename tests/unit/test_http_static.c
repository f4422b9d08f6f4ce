/*
 * test_http_static: the dashboard's file logic (http_static.c): the
 * Content-Type by extension, the strong ETag (SHA-256 of the bytes served,
 * "-gz" for the gzip encoding) and If-None-Match matching (lists, W/, *),
 * Accept-Encoding (q=0 refuses, "*" allows), Cache-Control; and the
 * embedded set tools/webembed.c made: names as the build lists them, each
 * gzip encoding a real gzip stream smaller than the file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "embed.h"
#include "http_int.h"

extern const struct embed_web http_static_files[];

static void
test_ctype(void **state)
{
	(void)state;
	assert_string_equal(http_static_ctype("index.html"),
	    "text/html; charset=utf-8");
	assert_string_equal(http_static_ctype("app.js"),
	    "text/javascript; charset=utf-8");
	assert_string_equal(http_static_ctype("views/trend.mjs"),
	    "text/javascript; charset=utf-8");
	assert_string_equal(http_static_ctype("vendor/uPlot.min.css"),
	    "text/css; charset=utf-8");
	assert_string_equal(http_static_ctype("logo.SVG"), "image/svg+xml");
	assert_string_equal(http_static_ctype("a.png"), "image/png");
	assert_string_equal(http_static_ctype("x.json"), "application/json");
	assert_string_equal(http_static_ctype("noext"),
	    "application/octet-stream");
	assert_string_equal(http_static_ctype("dir.js/file"),
	    "application/octet-stream");
	assert_string_equal(http_static_ctype("a/.js"),
	    "application/octet-stream");
	assert_string_equal(http_static_ctype("a.exe"),
	    "application/octet-stream");
}

static void
test_etag(void **state)
{
	char	a[HTTP_ETAG_MAX], b[HTTP_ETAG_MAX], g[HTTP_ETAG_MAX];

	(void)state;
	/* SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223... */
	http_static_etag("abc", 3, 0, a);
	assert_string_equal(a, "\"ba7816bf8f01cfea414140de5dae2223\"");
	http_static_etag("abd", 3, 0, b);
	assert_string_not_equal(a, b);
	http_static_etag("abc", 3, 1, g);
	assert_string_equal(g, "\"ba7816bf8f01cfea414140de5dae2223-gz\"");
	assert_true(http_static_etag_match(a, a));
	assert_true(http_static_etag_match("W/" "\"ba7816bf8f01cfea414140de5dae2223\"", a));
	assert_true(http_static_etag_match("\"x\", \"y\" ,"
	    "\"ba7816bf8f01cfea414140de5dae2223\"", a));
	assert_true(http_static_etag_match("*", a));
	assert_false(http_static_etag_match(NULL, a));
	assert_false(http_static_etag_match("", a));
	assert_false(http_static_etag_match(b, a));
	assert_false(http_static_etag_match(g, a));
	assert_false(http_static_etag_match(a, g));
	assert_false(http_static_etag_match("ba7816bf8f01cfea414140de5dae2223",
	    a));	/* unquoted */
	assert_false(http_static_etag_match("\"ba7816bf8f01cfea414140de5dae222\"",
	    a));	/* a prefix */
}

static void
test_gzip_ok(void **state)
{
	(void)state;
	assert_true(http_static_gzip_ok("gzip"));
	assert_true(http_static_gzip_ok("gzip, deflate, br"));
	assert_true(http_static_gzip_ok("br;q=1.0, GZIP;q=0.5"));
	assert_true(http_static_gzip_ok("x-gzip"));
	assert_true(http_static_gzip_ok("*"));
	assert_true(http_static_gzip_ok("deflate, *;q=0.1"));
	assert_false(http_static_gzip_ok(NULL));
	assert_false(http_static_gzip_ok(""));
	assert_false(http_static_gzip_ok("identity"));
	assert_false(http_static_gzip_ok("deflate, br"));
	assert_false(http_static_gzip_ok("gzip;q=0"));
	assert_false(http_static_gzip_ok("gzip; q=0.000"));
	assert_false(http_static_gzip_ok("*, gzip;q=0"));
	assert_false(http_static_gzip_ok("*;q=0"));
	assert_false(http_static_gzip_ok("gzipx"));
	assert_false(http_static_gzip_ok("xgzip"));
}

static void
test_cache(void **state)
{
	(void)state;
	assert_string_equal(http_static_cache("index.html"), "no-cache");
	assert_string_equal(http_static_cache("app.js"), "no-cache");
	assert_non_null(strstr(http_static_cache("vendor/uPlot.min.css"),
	    "max-age="));
}

static void
test_embedded_set(void **state)
{
	const struct embed_web	*f;

	(void)state;
	for (f = http_static_files; f->name != NULL; f++) {
		assert_true(f->name[0] != '/' && f->name[0] != '.');
		assert_null(strstr(f->name, ".."));
		assert_null(strstr(f->name, "node_modules"));
		assert_string_not_equal(f->name, "README.md");
		assert_true(strncmp(f->name, "package", 7) != 0);
		if (f->gz != NULL) {
			assert_true(f->gzlen < f->len);
			assert_true(f->gzlen > 18);
			assert_int_equal(f->gz[0], 0x1f);	/* RFC 1952 */
			assert_int_equal(f->gz[1], 0x8b);
			assert_int_equal(f->gz[2], 8);		/* deflate */
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctype),
		cmocka_unit_test(test_etag),
		cmocka_unit_test(test_gzip_ok),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_embedded_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
