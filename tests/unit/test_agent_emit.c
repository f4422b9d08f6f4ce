/*
 * test_agent_emit.c: event lines are valid JSON whatever the strings hold
 * (quotes, backslashes, control bytes, invalid UTF-8), numbers are plain,
 * nesting closes correctly, error classes map to exit codes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "agent.h"
#include "emit.h"

static void
test_escaping(void **state)
{
	struct emit e;

	(void)state;
	emit_begin(&e, "progress");
	emit_str(&e, "q", "a\"b\\c/d");
	emit_str(&e, "ws", "l1\nl2\tx\r");
	emit_str(&e, "ctl", "\x01\x1f\x7f");
	emit_str(&e, "utf8", "caf\xc3\xa9 \xe2\x82\xac");
	emit_str(&e, "bad", "x\xff\xc3(\xed\xa0\x80y");
	emit_str(&e, "overlong", "\xc0\xaf");
	emit_str(&e, "null", NULL);
	assert_string_equal(emit_text(&e),
	    "{\"proto\":1,\"event\":\"progress\",\"q\":\"a\\\"b\\\\c/d\","
	    "\"ws\":\"l1\\nl2\\tx\\r\",\"ctl\":\"\\u0001\\u001f\\u007f\","
	    "\"utf8\":\"caf\xc3\xa9 \xe2\x82\xac\","
	    "\"bad\":\"x\\ufffd\\ufffd(\\ufffd\\ufffd\\ufffdy\","
	    "\"overlong\":\"\\ufffd\\ufffd\",\"null\":null}");
	emit_free(&e);
}

static void
test_nesting_and_numbers(void **state)
{
	struct emit e;

	(void)state;
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "iperf");
	emit_num(&e, "seconds", 30.0);
	emit_num(&e, "cpu", 20.1);
	emit_num(&e, "neg", -0.0000001);
	emit_num(&e, "nan", NAN);
	emit_num(&e, "inf", INFINITY);
	emit_int(&e, "bytes", 2888000000LL);
	emit_bool(&e, "t", 1);
	emit_bool(&e, "f", 0);
	emit_arr(&e, "intervals");
	emit_obj(&e, NULL);
	emit_num(&e, "start", 0);
	emit_end(&e);
	emit_obj(&e, NULL);
	emit_null(&e, "x");
	emit_end(&e);
	emit_end(&e);
	emit_arr(&e, "empty");
	emit_end(&e);
	emit_obj(&e, "open");		/* closed by emit_text */
	emit_arr(&e, "deep");
	emit_int(&e, NULL, 1);
	emit_int(&e, NULL, 2);
	assert_string_equal(emit_text(&e),
	    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"iperf\","
	    "\"seconds\":30,\"cpu\":20.1,\"neg\":0,\"nan\":null,"
	    "\"inf\":null,\"bytes\":2888000000,\"t\":true,\"f\":false,"
	    "\"intervals\":[{\"start\":0},{\"x\":null}],\"empty\":[],"
	    "\"open\":{\"deep\":[1,2]}}");
	emit_free(&e);
}

static void
test_unbalanced(void **state)
{
	struct emit e;

	(void)state;
	emit_begin(&e, "result");
	emit_end(&e);		/* nothing open: the line is refused */
	assert_null(emit_text(&e));
	emit_free(&e);
}

static void
test_classes(void **state)
{
	(void)state;
	assert_string_equal(emit_class(AGENT_EXIT_INTERNAL), "internal");
	assert_string_equal(emit_class(AGENT_EXIT_USAGE), "usage");
	assert_string_equal(emit_class(AGENT_EXIT_COMMAND), "command");
	assert_string_equal(emit_class(AGENT_EXIT_TIMEOUT), "timeout");
	assert_string_equal(emit_class(AGENT_EXIT_MISMATCH), "mismatch");
	assert_string_equal(emit_class(AGENT_EXIT_PARSE), "parse");
	assert_int_equal(emit_error(AGENT_EXIT_TIMEOUT, "x"), 4);
	assert_int_equal(emit_error(AGENT_EXIT_OK, "x"), AGENT_EXIT_INTERNAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_nesting_and_numbers),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
