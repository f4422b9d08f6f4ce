/*
 * test_store_failclass: a failed job keeps whose failure it was (schema 7):
 * infra (the lab could not measure) or test (the system under test
 * answered), read back by store_job_get/list; a done job has none, and a
 * class on a done job is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store.h"
#include "store_fixture.h"

static char	err[1024];

static void
test_classes(void **state)
{
	struct store		*st;
	struct store_run_spec	 rs = { .kind = "manual" };
	struct store_job_spec	 spec[3];
	struct store_job	 j, *jobs;
	struct store_job_result	 res;
	char			 path[256];
	int64_t			 run, ids[3];
	size_t			 i, n;

	(void)state;
	fx_db_path(path, sizeof path, "failclass");
	assert_int_equal(store_open(path, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	assert_int_equal(store_run_create(st, &rs, &run, err, sizeof err), 0);
	for (i = 0; i < 3; i++) {
		memset(&spec[i], 0, sizeof spec[i]);
		spec[i].link = "em";
		spec[i].knobs = kn(1, 9000, NULL);
		spec[i].tool = "iperf3";
		spec[i].params = "t=1";
		spec[i].repetition = (int)i;
	}
	assert_int_equal(store_jobs_add(st, run, spec, 3, err, sizeof err), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(store_job_claim(st, run, "em", "t", &j, err,
		    sizeof err), 1);
		ids[i] = j.id;
	}
	memset(&res, 0, sizeof res);
	/* A class on a done job is refused, changing nothing. */
	res.state = STORE_JOB_DONE;
	res.failure_class = STORE_FAIL_INFRA;
	assert_int_equal(store_job_finish(st, ids[0], &res, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "failure class"));
	res.failure_class = STORE_FAIL_NONE;
	assert_int_equal(store_job_finish(st, ids[0], &res, err, sizeof err),
	    0);
	res.state = STORE_JOB_FAILED;
	res.reason = "preflight failed on em-b em0: link: em0 has no carrier";
	res.failure_class = STORE_FAIL_INFRA;
	assert_int_equal(store_job_finish(st, ids[1], &res, err, sizeof err),
	    0);
	res.reason = "em-a: driver refused tso";
	res.failure_class = STORE_FAIL_TEST;
	assert_int_equal(store_job_finish(st, ids[2], &res, err, sizeof err),
	    0);

	assert_int_equal(store_job_get(st, ids[1], &j, err, sizeof err), 1);
	assert_int_equal(j.failure_class, STORE_FAIL_INFRA);
	assert_string_equal(store_fail_class_name(j.failure_class), "infra");
	assert_int_equal(store_job_list(st, run, -1, &jobs, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(jobs[0].failure_class, STORE_FAIL_NONE);
	assert_null(store_fail_class_name(jobs[0].failure_class));
	assert_int_equal(jobs[1].failure_class, STORE_FAIL_INFRA);
	assert_int_equal(jobs[2].failure_class, STORE_FAIL_TEST);
	assert_string_equal(store_fail_class_name(STORE_FAIL_TEST), "test");
	free(jobs);
	store_close(st);
	fx_db_remove(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
