/*
 * test_lab_nightly: what `labrat demo --nightly` leaves to module lab: the
 * daemon config it writes names the inventory, the advancing revision
 * source and both sinks (and a path it cannot write is an error naming
 * it); the real smtpsink (LABRAT_SMTPSINK) started on a free port through
 * lab_tool_find() and lab_sink_start(); a missing tool is an error that
 * says how to get it; lab_rmtree() removes a tree.
 */
#include <sys/stat.h>

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
test_config(void **state)
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
test_sink(void **state)
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
test_tool_missing(void **state)
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
test_rmtree(void **state)
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
	return fx_tmpdir(dir, sizeof dir, "labn");
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
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_sink),
		cmocka_unit_test(test_tool_missing),
		cmocka_unit_test(test_rmtree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
