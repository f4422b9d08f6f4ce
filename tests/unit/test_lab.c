/*
 * test_lab: the helper-process functions `labrat demo --nightly` uses,
 * against real processes: a child's stdout and stderr land in their
 * files, lab_wait_line() reads a first line written late and gives up on
 * a child that exits without one or on its timeout, lab_child_alive()
 * tells running from exited, lab_stop() ends a child by its signal and
 * SIGKILLs one that ignores it; lab_name_valid()'s table.  And what the
 * demo leaves to lab_nightly.c: the daemon config it writes names the
 * inventory, the advancing revision source and both sinks (a path it
 * cannot write is an error naming it); the real smtpsink
 * (LABRAT_SMTPSINK) started on a free port through lab_tool_find() and
 * lab_sink_start(); a missing tool is an error that says how to get it;
 * lab_rmtree() removes a tree.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lab.h"
#include "util.h"
#include "tmpdir_fixture.h"

static char	dir[256];

static void
path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void
test_spawn_and_line(void **state)
{
	char	 out[300], errp[300], line[64], err[256], *text;
	char	*argv[] = { "/bin/sh", "-c",
	    "echo oops >&2; sleep 0.3; echo 4242; echo more; exec sleep 30",
	    NULL };
	pid_t	 pid;
	size_t	 n;
	int	 st;

	(void)state;
	path(out, sizeof out, "a.out");
	path(errp, sizeof errp, "a.err");
	assert_int_equal(lab_spawn(argv, out, errp, &pid, err, sizeof err), 0);
	assert_int_equal(lab_wait_line(out, pid, 5000, line, sizeof line,
	    err, sizeof err), 0);
	assert_string_equal(line, "4242");
	assert_int_equal(lab_child_alive(pid, &st), 1);
	st = lab_stop(pid, SIGTERM, 5000);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
	text = util_read_file(errp, 1024, &n, err, sizeof err);
	assert_non_null(text);
	assert_string_equal(text, "oops\n");
	free(text);
}

static void
test_line_gives_up(void **state)
{
	char	 out[300], line[64], err[256];
	char	*quiet[] = { "/bin/sh", "-c", "printf 'no newline'; exit 3",
	    NULL };
	char	*slow[] = { "/bin/sleep", "30", NULL };
	pid_t	 pid;
	int	 st;

	(void)state;
	path(out, sizeof out, "b.out");
	assert_int_equal(lab_spawn(quiet, out, NULL, &pid, err, sizeof err), 0);
	assert_int_equal(lab_wait_line(out, pid, 5000, line, sizeof line,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "exited before writing a line"));

	path(out, sizeof out, "c.out");
	assert_int_equal(lab_spawn(slow, out, NULL, &pid, err, sizeof err), 0);
	assert_int_equal(lab_wait_line(out, pid, 200, line, sizeof line,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "no line within 200 ms"));
	assert_int_equal(lab_child_alive(pid, &st), 1);
	st = lab_stop(pid, SIGTERM, 5000);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(lab_child_alive(pid, &st), 0);
}

static void
test_stop_kills_the_stubborn(void **state)
{
	char	 out[300], line[64], err[256];
	char	*argv[] = { "/bin/sh", "-c",
	    "trap '' TERM; echo ready; while :; do sleep 0.05; done", NULL };
	pid_t	 pid;
	int64_t	 t0;
	int	 st;

	(void)state;
	path(out, sizeof out, "d.out");
	assert_int_equal(lab_spawn(argv, out, NULL, &pid, err, sizeof err), 0);
	assert_int_equal(lab_wait_line(out, pid, 5000, line, sizeof line,
	    err, sizeof err), 0);
	t0 = util_now_ms();
	st = lab_stop(pid, SIGTERM, 300);
	assert_true(util_now_ms() - t0 >= 300);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGKILL);
}

static void
test_spawn_bad_exec(void **state)
{
	char	 out[300], line[256], err[256];
	char	*argv[] = { "/nonexistent/labrat-tool", NULL };
	pid_t	 pid;
	int	 st;

	(void)state;
	path(out, sizeof out, "e.err");
	assert_int_equal(lab_spawn(argv, NULL, out, &pid, err, sizeof err), 0);
	while (lab_child_alive(pid, &st))
		usleep(10000);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 127);
	if (lab_wait_line(out, 0, 1000, line, sizeof line, err,
	    sizeof err) != 0)
		fail_msg("%s", err);
	assert_non_null(strstr(line, "exec /nonexistent/labrat-tool"));
}

static void
test_name_valid(void **state)
{
	(void)state;
	assert_true(lab_name_valid("lab"));
	assert_true(lab_name_valid("demo-2"));
	assert_true(lab_name_valid("a234567890123456789012345678901b"));
	assert_false(lab_name_valid("a2345678901234567890123456789012c"));
	assert_false(lab_name_valid(""));
	assert_false(lab_name_valid("2lab"));
	assert_false(lab_name_valid("Lab"));
	assert_false(lab_name_valid("lab_x"));
	assert_false(lab_name_valid("lab;id"));
}

static void
test_nightly_config(void **state)
{
	const struct lab_nightly n = { "/opt/labrat/bin/labrat", "night1",
	    "/run/labrat-lab/night1/inventory.json", "2525", "8088" };
	char	 path[300], err[512], *text;
	size_t	 len;

	(void)state;
	snprintf(path, sizeof path, "%s/daemon.json", dir);
	assert_int_equal(lab_nightly_config(path, &n, err, sizeof err), 0);
	text = util_read_file(path, 1 << 20, &len, err, sizeof err);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"inventories\":[\n    "
	    "\"/run/labrat-lab/night1/inventory.json\""));
	assert_non_null(strstr(text, "\"revisions\":"
	    "\"/run/labrat-lab/night1/history.json\""));
	assert_non_null(strstr(text, "\"/opt/labrat/bin/labrat\","));
	assert_non_null(strstr(text, "\"night1\",\n"));
	assert_non_null(strstr(text, "\"--print-head\""));
	assert_non_null(strstr(text, "\"url\":"
	    "\"http://127.0.0.1:8088/labrat\""));
	assert_non_null(strstr(text, "\"smtp\":\"smtp://127.0.0.1:2525\""));
	assert_non_null(strstr(text, "\"iperf_seconds\":1"));
	assert_non_null(strstr(text, "\"confirm\":1"));
	free(text);

	snprintf(path, sizeof path, "%s/no/such/dir/daemon.json", dir);
	assert_int_equal(lab_nightly_config(path, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "No such file or directory"));
}

static void
test_nightly_sink(void **state)
{
	char	 bin[4096], port[16], err[1024], portf[300];
	pid_t	 pid;
	long	 p;

	(void)state;
	if (getenv("LABRAT_SMTPSINK") == NULL)
		skip();
	assert_int_equal(lab_tool_find("/nonexistent/labrat", "smtpsink",
	    "LABRAT_SMTPSINK", bin, sizeof bin, err, sizeof err), 0);
	assert_string_equal(bin, getenv("LABRAT_SMTPSINK"));
	assert_int_equal(lab_sink_start(bin, dir, "mail", &pid, port,
	    sizeof port, err, sizeof err), 0);
	p = strtol(port, NULL, 10);
	assert_true(p > 0 && p < 65536);
	snprintf(portf, sizeof portf, "%s/mail.port", dir);
	assert_int_equal(access(portf, F_OK), 0);
	assert_true(lab_child_alive(pid, &(int){ 0 }));
	assert_true(lab_stop(pid, SIGTERM, 2000) != -1);

	/* The same sub again: its directory exists, so no second sink. */
	assert_int_equal(lab_sink_start(bin, dir, "mail", &pid, port,
	    sizeof port, err, sizeof err), -1);
	assert_non_null(strstr(err, bin));
}

static void
test_nightly_tool_missing(void **state)
{
	char	 bin[4096], err[1024];

	(void)state;
	unsetenv("LABRAT_NOSUCHTOOL");
	assert_int_equal(lab_tool_find("/nonexistent/dir/labrat", "hooksink",
	    "LABRAT_NOSUCHTOOL", bin, sizeof bin, err, sizeof err), -1);
	assert_string_equal(bin, "/nonexistent/dir/hooksink");
	assert_non_null(strstr(err, "no hooksink at /nonexistent/dir/hooksink"));
	assert_non_null(strstr(err, "--target hooksink"));
	assert_non_null(strstr(err, "LABRAT_NOSUCHTOOL"));
}

static void
test_nightly_rmtree(void **state)
{
	char	 top[300], sub[320], f[340], err[512];
	FILE	*fp;

	(void)state;
	snprintf(top, sizeof top, "%s/tree", dir);
	snprintf(sub, sizeof sub, "%s/a", top);
	snprintf(f, sizeof f, "%s/file", sub);
	assert_int_equal(mkdir(top, 0700), 0);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_non_null(fp = fopen(f, "w"));
	fclose(fp);
	assert_int_equal(lab_rmtree(top, err, sizeof err), 0);
	assert_int_equal(access(top, F_OK), -1);
	assert_int_equal(lab_rmtree(top, err, sizeof err), -1);
	assert_non_null(strstr(err, top));
}

static int
setup(void **state)
{
	(void)state;
	return fx_tmpdir(dir, sizeof dir, "lab");
}

static int
teardown(void **state)
{
	(void)state;
	fx_rmtree(dir);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spawn_and_line),
		cmocka_unit_test(test_line_gives_up),
		cmocka_unit_test(test_stop_kills_the_stubborn),
		cmocka_unit_test(test_spawn_bad_exec),
		cmocka_unit_test(test_name_valid),
		cmocka_unit_test(test_nightly_config),
		cmocka_unit_test(test_nightly_sink),
		cmocka_unit_test(test_nightly_tool_missing),
		cmocka_unit_test(test_nightly_rmtree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
