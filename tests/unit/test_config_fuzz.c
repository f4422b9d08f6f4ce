/*
 * test_config_fuzz: what the config fuzz targets found, kept as unit tests
 * (the inputs are also in tests/fuzz/corpus/config_*).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"

/*
 * A history whose first revision is refused left a NULL hole in the id
 * list, and the error path freed it as a NULL-terminated list: every id
 * and message after the hole leaked (leak-refused-entry.json; the ASan
 * build's leak check fails this test without the fix).
 */
static void
test_history_refused_entry(void **state)
{
	static const char text[] = "{\"revisions\": ["
	    "{\"id\": \"not a revision!\", \"message\": \"a\"},"
	    "{\"id\": \"r200001\", \"message\": \"b\"},"
	    "{\"id\": \"r200002\", \"message\": \"c\"}]}";
	struct config_errors	  errs;
	char			**ids = NULL, **msgs = NULL;
	size_t			  n = 0;

	(void)state;
	config_errors_init(&errs);
	assert_int_equal(config_history_parse("/x/history.json", text,
	    sizeof text - 1, &ids, &msgs, &n, &errs), -1);
	assert_int_equal(errs.n, 1);
	assert_non_null(strstr(errs.msgs[0], "revisions[0].id"));
	assert_null(ids);
	assert_null(msgs);
	config_errors_free(&errs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_history_refused_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
