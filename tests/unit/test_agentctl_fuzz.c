/*
 * test_agentctl_fuzz: what fuzz_agentctl_decode found in the decoder,
 * kept as unit tests (the inputs are also in
 * tests/fuzz/corpus/agentctl_decode/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "agentctl.h"

/*
 * A line that is not JSON was quoted in the error with "%.60s" although
 * it is not NUL-terminated: the message ran on into the next line, and
 * past the end of the text when nothing followed (a heap overflow under
 * ASan: crash-quote-past-line.jsonl).
 */
static void
test_quote_stays_in_line(void **state)
{
	static const char two[] = "{\"proto\":1,]\nNEXT-LINE-NOT-QUOTED\n";
	static const char one[] = "{\"proto\":1,\"event\":]\n";
	struct agentctl_reply	 r;
	char			 err[512], *buf;

	(void)state;
	assert_int_equal(agentctl_decode("em-a", "facts", AGENTCTL_FACTS, two,
	    sizeof two - 1, 0, 0, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "not one JSON object"));
	assert_null(strstr(err, "NEXT"));
	agentctl_reply_free(&r);

	/* The same line alone, in a buffer of exactly its size (no '\n',
	 * no NUL after it). */
	buf = malloc(sizeof one - 2);
	assert_non_null(buf);
	memcpy(buf, one, sizeof one - 2);
	assert_int_equal(agentctl_decode("em-a", "facts", AGENTCTL_FACTS, buf,
	    sizeof one - 2, 0, 0, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, ": \"{\"proto\":1,\"event\":]\""));
	agentctl_reply_free(&r);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_stays_in_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
