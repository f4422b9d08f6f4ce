/*
 * test_night_bisect: limits.max_bisects counts the bisects running in the
 * store (night_bisects_busy): "running" ones whose owner lives on this
 * host (a real child process here) or is on another host (not
 * checkable); not those ended, those whose owner is gone (a killed
 * `labrat bisect start`, a pid reused since), nobody's, nor the
 * caller's own.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "night_int.h"
#include "store.h"

static void
bisect(struct store_bisect *b, int64_t id, const char *state,
    const struct store_owner *who)
{
	memset(b, 0, sizeof *b);
	b->id = id;
	snprintf(b->state, sizeof b->state, "%s", state);
	b->who = *who;
}

static void
test_busy(void **state)
{
	struct store_bisect	v[8];
	struct store_owner	me, child, gone, reused, far, nobody;
	char			who[256], want[256], o[STORE_OWNER_MAX];
	pid_t			pid, dead;

	(void)state;
	store_owner_self(&me);
	/* A live other process of this host. */
	if ((pid = fork()) == 0) {
		pause();
		_exit(0);
	}
	assert_true(pid > 0);
	child = me;
	child.pid = pid;
	assert_int_equal(store_owner_proc_start(pid, &child.start), 0);
	/* One that has exited (reaped). */
	if ((dead = fork()) == 0)
		_exit(0);
	assert_true(dead > 0);
	waitpid(dead, NULL, 0);
	gone = me;
	gone.pid = dead;
	gone.start = 0;
	/* The child's pid with another start time: reused since. */
	reused = child;
	reused.start = child.start + 1;
	far = me;
	snprintf(far.host, sizeof far.host, "not-%.40s", me.host);
	far.pid = 1;
	memset(&nobody, 0, sizeof nobody);

	bisect(&v[0], 1, "done", &child);
	bisect(&v[1], 2, "running", &gone);
	bisect(&v[2], 3, "running", &reused);
	bisect(&v[3], 4, "running", &nobody);
	bisect(&v[4], 5, "running", &me);
	bisect(&v[5], 6, "interrupted", &child);
	assert_int_equal(night_bisects_busy(v, 6, me.pid, who, sizeof who), 0);
	assert_string_equal(who, "");

	bisect(&v[6], 7, "running", &child);
	assert_int_equal(night_bisects_busy(v, 7, me.pid, who, sizeof who), 1);
	store_owner_text(&child, o, sizeof o);
	snprintf(want, sizeof want, "bisect 7 by %s", o);
	assert_string_equal(who, want);
	/* The caller's own pid is not counted: with the child as "self",
	 * this process's bisect 5 is the one running. */
	assert_int_equal(night_bisects_busy(v, 7, child.pid, who, sizeof who),
	    1);
	assert_non_null(strstr(who, "bisect 5 by "));

	bisect(&v[7], 8, "running", &far);
	assert_int_equal(night_bisects_busy(v, 8, me.pid, who, sizeof who), 2);
	assert_string_equal(who, want);	/* the first one */
	assert_int_equal(night_bisects_busy(v, 8, me.pid, NULL, 0), 2);
	assert_int_equal(night_bisects_busy(v + 7, 1, me.pid, who,
	    sizeof who), 1);
	assert_non_null(strstr(who, "bisect 8 by pid 1 on not-"));

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* Its owner killed: the bisect no longer counts. */
	assert_int_equal(night_bisects_busy(v + 6, 1, me.pid, who, sizeof who),
	    0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
