/*
 * test_run_owner: `--resume` of a run whose owner lives is refused naming
 * it, before anything is touched (a forked child as the owner); an owner
 * on another host is refused unless forced; once the owner has exited the
 * resume goes ahead and this process owns the run.
 */
#include <sys/wait.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_fixture.h"

static void
test_resume_live_owner(void **state)
{
	struct config_errors	 errs;
	struct run		*r;
	struct store		*st;
	struct store_run	 rr;
	struct store_owner	 who;
	char			 err[1024], want[256], text[160], c;
	int			 p[2], status;
	int64_t			 id;
	pid_t			 pid;

	(void)state;
	st = db_open();
	r = create(deadinv, NULL);
	id = run_id(r);
	run_free(r);
	assert_int_equal(pipe(p), 0);
	if ((pid = fork()) == 0) {
		close(p[1]);
		(void)read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	store_owner_self(&who);
	who.pid = pid;
	assert_int_equal(store_owner_proc_start(pid, &who.start), 0);
	assert_int_equal(store_run_set_owner(st, id, "ctl:x", &who, err,
	    sizeof err), 0);
	config_errors_init(&errs);
	/* Alive on this host: force does not help. */
	r = (struct run *)1;
	assert_int_equal(run_resume(dbpath, id, NULL, 1, &r, &errs, err,
	    sizeof err), RUN_FAIL);
	assert_null(r);
	store_owner_text(&who, text, sizeof text);
	snprintf(want, sizeof want, "run %lld is still running: %s",
	    (long long)id, text);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, " since "));
	rr = row(st, id);
	assert_string_equal(rr.owner, "ctl:x");	/* not taken over */
	assert_int_equal(rr.who.pid, pid);
	store_run_free(&rr);

	/* On another host: refused unless forced. */
	snprintf(who.host, sizeof who.host, "elsewhere.example");
	assert_int_equal(store_run_set_owner(st, id, "ctl:y", &who, err,
	    sizeof err), 0);
	assert_int_equal(run_resume(dbpath, id, NULL, 0, &r, &errs, err,
	    sizeof err), RUN_FAIL);
	assert_non_null(strstr(err, "another host"));
	assert_non_null(strstr(err, "--force"));
	assert_int_equal(run_resume(dbpath, id, NULL, 1, &r, &errs, err,
	    sizeof err), RUN_OK);
	run_free(r);

	/* This host, start time unknown (an owner of before schema 7): a
	 * live pid may be a reused one, so only --force takes it over. */
	store_owner_self(&who);
	who.pid = pid;
	who.start = 0;
	assert_int_equal(store_run_set_owner(st, id, "ctl:w", &who, err,
	    sizeof err), 0);
	assert_int_equal(run_resume(dbpath, id, NULL, 0, &r, &errs, err,
	    sizeof err), RUN_FAIL);
	assert_non_null(strstr(err, "may still be running"));
	assert_non_null(strstr(err, "--force"));
	assert_int_equal(run_resume(dbpath, id, NULL, 1, &r, &errs, err,
	    sizeof err), RUN_OK);
	run_free(r);

	/* This host again, and the owner exits: resumed, owned by us. */
	store_owner_self(&who);
	who.pid = pid;
	assert_int_equal(store_owner_proc_start(pid, &who.start), 0);
	assert_int_equal(store_run_set_owner(st, id, "ctl:z", &who, err,
	    sizeof err), 0);
	close(p[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(run_resume(dbpath, id, NULL, 0, &r, &errs, err,
	    sizeof err), RUN_OK);
	run_free(r);
	rr = row(st, id);
	assert_int_equal(rr.who.pid, getpid());
	assert_int_equal(rr.state, STORE_RUN_RUNNING);
	store_run_free(&rr);
	config_errors_free(&errs);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resume_live_owner),
	};

	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return cmocka_run_group_tests(tests, setup, teardown);
}
