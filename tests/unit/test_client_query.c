/*
 * test_client_query: the remote CLI's query strings (client_api_query()):
 * "?" first then "&", unreserved characters kept, everything else
 * percent-encoded (a knobs key's "=" and ",", blanks, "&", "?", "/",
 * UTF-8 bytes), an empty value, a buf at its ceiling left truncated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "client.h"
#include "util.h"

static void
test_query(void **state)
{
	struct buf	b;
	char		*s;

	(void)state;
	buf_init(&b, 4096);
	buf_printf(&b, "/api/v1/compare");
	client_api_query(&b, "a", "41");
	client_api_query(&b, "knobs", "mtu=9000,tso=on");
	client_api_query(&b, "link", "em-0_1.x~");
	client_api_query(&b, "metric", "a b&c?d/e");
	client_api_query(&b, "note", "\xc3\xa9");
	client_api_query(&b, "empty", "");
	s = buf_release(&b);
	assert_string_equal(s, "/api/v1/compare?a=41&knobs=mtu%3D9000%2Ctso"
	    "%3Don&link=em-0_1.x~&metric=a%20b%26c%3Fd%2Fe&note=%C3%A9&empty=");
	free(s);
	/* A path that holds a query already gets "&". */
	buf_init(&b, 4096);
	buf_printf(&b, "/api/v1/runs?limit=5");
	client_api_query(&b, "format", "json");
	assert_string_equal(b.data, "/api/v1/runs?limit=5&format=json");
	buf_free(&b);
	/* Past the ceiling: truncated, never past max. */
	buf_init(&b, 16);
	buf_printf(&b, "/api/v1/x");
	client_api_query(&b, "k", "0123456789");
	assert_true(b.truncated);
	assert_true(b.len <= 16);
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
