/*
 * test_agent_state.c: the saved original survives a round trip (unknown
 * values included) and a corrupt file is refused; pid files name their
 * live holder only (a stale pid is never signalled), and stop ends it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "osdep.h"
#include "proc.h"
#include "state.h"

static char dir[] = "/tmp/labrat-agent-state.XXXXXX";

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(dir) == NULL)
		return -1;
	return setenv("LABRAT_AGENT_STATE", dir, 1);
}

static int
teardown(void **state)
{
	char	cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_roundtrip(void **state)
{
	struct state_saved s, t;
	char	 err[256];
	int	 found;

	(void)state;
	assert_string_equal(state_dir(), dir);
	assert_int_equal(state_load("em0", &t, &found, err, sizeof(err)), 0);
	assert_int_equal(found, 0);
	memset(&s, 0, sizeof(s));
	strcpy(s.ifname, "em0");
	strcpy(s.os, "freebsd");
	s.saved_at = 1760000000;
	osdep_knobs_unset(&s.knobs);
	s.knobs.tso = 1;
	s.knobs.tcp_tso = 0;
	s.knobs.mtu = 9000;
	s.knobs.rxcsum = 1;		/* lro, txcsum unknown */
	s.knobs.nat = OSDEP_NAT_DIVERT;
	strcpy(s.knobs.nat_if, "bce1");
	s.loaded = OSDEP_LOADED_IPFW | OSDEP_LOADED_IPDIVERT;
	assert_int_equal(state_save(&s, err, sizeof(err)), 0);
	assert_int_equal(state_load("em0", &t, &found, err, sizeof(err)), 0);
	assert_int_equal(found, 1);
	assert_int_equal(t.knobs.tso, 1);
	assert_int_equal(t.knobs.tcp_tso, 0);
	assert_int_equal(t.knobs.mtu, 9000);
	assert_int_equal(t.knobs.lro, OSDEP_UNSET);
	assert_int_equal(t.knobs.rxcsum, 1);
	assert_int_equal(t.knobs.txcsum, OSDEP_UNSET);
	assert_int_equal(t.knobs.nat, OSDEP_NAT_DIVERT);
	assert_string_equal(t.knobs.nat_if, "bce1");
	assert_string_equal(t.os, "freebsd");
	assert_true(t.saved_at == 1760000000);
	assert_int_equal(t.loaded, OSDEP_LOADED_IPFW | OSDEP_LOADED_IPDIVERT);
	assert_int_equal(state_remove("em0", err, sizeof(err)), 0);
	assert_int_equal(state_remove("em0", err, sizeof(err)), 0);
	assert_int_equal(state_load("em0", &t, &found, err, sizeof(err)), 0);
	assert_int_equal(found, 0);
}

static void
test_corrupt(void **state)
{
	struct state_saved t;
	char	 path[512], err[256];
	int	 found;
	FILE	*f;

	(void)state;
	snprintf(path, sizeof(path), "%s/state/em1.json", dir);
	assert_int_equal(state_mkdir("state", err, sizeof(err)), 0);
	assert_non_null(f = fopen(path, "w"));
	fputs("{\"tso\":1,\"mtu\":", f);	/* cut off */
	fclose(f);
	assert_int_equal(state_load("em1", &t, &found, err, sizeof(err)), -1);
	assert_int_equal(found, 0);
	assert_non_null(f = fopen(path, "w"));
	fputs("{\"tso\":\"yes\",\"mtu\":1500}", f);	/* wrong type */
	fclose(f);
	assert_int_equal(state_load("em1", &t, &found, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "corrupt"));
}

static void
test_pidfile(void **state)
{
	char	 path[512];
	int	 p[2], fd, st;
	pid_t	 child;
	char	 c;
	FILE	*f;

	(void)state;
	snprintf(path, sizeof(path), "%s/x.pid", dir);
	/* A stale file with some pid in it: nobody holds it. */
	assert_non_null(f = fopen(path, "w"));
	fputs("1\n", f);
	fclose(f);
	assert_int_equal(proc_pidfile_holder(path), 0);
	assert_int_equal(pipe(p), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		fd = proc_pidfile_take(path);
		(void)write(p[1], fd >= 0 ? "y" : "n", 1);
		pause();
		_exit(0);
	}
	assert_int_equal(read(p[0], &c, 1), 1);
	assert_int_equal(c, 'y');
	assert_int_equal(proc_pidfile_holder(path), child);
	/* A second taker is refused while the first lives. */
	assert_int_equal(proc_pidfile_take(path), -1);
	assert_int_equal(proc_pidfile_stop(path, 2000), child);
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(proc_pidfile_stop(path, 100), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_pidfile),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
