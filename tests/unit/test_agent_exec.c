/*
 * test_agent_exec.c: fork/exec with argv, real exit status, deadline that
 * kills the whole process group, capped capture, a missing program.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "agent.h"
#include "exec.h"

static void
test_status_and_streams(void **state)
{
	struct exec_result r;
	char	*argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	char	 err[256];

	(void)state;
	assert_int_equal(exec_run(argv, 5000, 1024, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exited, 1);
	assert_int_equal(r.status, 3);
	assert_string_equal(r.out, "out\n");
	assert_string_equal(r.err, "err\n");
	assert_int_equal(r.timed_out, 0);
	exec_free(&r);
	assert_int_equal(exec_cmd(argv, 5000, &r, err, sizeof(err)),
	    AGENT_EXIT_COMMAND);
	assert_string_equal(err, "sh -c echo out; echo err >&2; exit 3: "
	    "exited 3: err");
	exec_free(&r);
}

static void
test_argv_not_shell(void **state)
{
	struct exec_result r;
	char	*argv[] = { "echo", "em0; rm -rf /", "$(id)", NULL };
	char	 err[256];

	(void)state;
	assert_int_equal(exec_run(argv, 5000, 1024, &r, err, sizeof(err)), 0);
	assert_string_equal(r.out, "em0; rm -rf / $(id)\n");
	exec_free(&r);
}

static void
test_deadline_kills_group(void **state)
{
	struct exec_result r;
	/* A grandchild holding the pipes must not keep us waiting. */
	char	*argv[] = { "sh", "-c", "sleep 30 & sleep 30; echo never",
	    NULL };
	char	 err[256];

	(void)state;
	assert_int_equal(exec_cmd(argv, 300, &r, err, sizeof(err)),
	    AGENT_EXIT_TIMEOUT);
	assert_int_equal(r.timed_out, 1);
	assert_true(r.elapsed_ms >= 250);
	assert_true(r.elapsed_ms < 3000);
	assert_null(strstr(r.out, "never"));
	assert_non_null(strstr(err, "deadline"));
	exec_free(&r);
}

static void
test_deadline_ignoring_term(void **state)
{
	struct exec_result r;
	char	*argv[] = { "sh", "-c", "trap '' TERM; sleep 30", NULL };
	char	 err[256];

	(void)state;
	assert_int_equal(exec_run(argv, 200, 1024, &r, err, sizeof(err)), 0);
	assert_int_equal(r.timed_out, 1);
	assert_true(r.elapsed_ms < 4000);
	exec_free(&r);
}

static void
test_cap(void **state)
{
	struct exec_result r;
	char	*argv[] = { "sh", "-c", "i=0; while [ $i -lt 2000 ]; do "
	    "echo 0123456789012345678901234567890123456789; i=$((i+1)); done; "
	    "exit 0", NULL };
	char	 err[256];

	(void)state;
	assert_int_equal(exec_run(argv, 10000, 1000, &r, err, sizeof(err)), 0);
	assert_int_equal(r.outlen, 1000);
	assert_int_equal(r.out_truncated, 1);
	assert_int_equal(strlen(r.out), 1000);
	/* The child was drained, not blocked: it exited normally. */
	assert_int_equal(r.exited, 1);
	assert_int_equal(r.status, 0);
	exec_free(&r);
}

static void
test_not_found(void **state)
{
	struct exec_result r;
	char	*argv[] = { "/nonexistent/labrat-no-such-tool", NULL };
	char	 err[256];

	(void)state;
	assert_int_equal(exec_run(argv, 1000, 1024, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot execute"));
	exec_free(&r);
}

static void
test_signal(void **state)
{
	struct exec_result r;
	char	*argv[] = { "sh", "-c", "kill -9 $$", NULL };
	char	 err[256];

	(void)state;
	assert_int_equal(exec_cmd(argv, 5000, &r, err, sizeof(err)),
	    AGENT_EXIT_COMMAND);
	assert_int_equal(r.exited, 0);
	assert_int_equal(r.signo, 9);
	assert_non_null(strstr(err, "signal 9"));
	exec_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_and_streams),
		cmocka_unit_test(test_argv_not_shell),
		cmocka_unit_test(test_deadline_kills_group),
		cmocka_unit_test(test_deadline_ignoring_term),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_not_found),
		cmocka_unit_test(test_signal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
