/*
 * test_store_bulk: store_run_bulk_finish() records what a claim and
 * store_job_finish() per job would (states, facts ids, samples, attempt,
 * the report's series), in one transaction: a count that does not match
 * the queued jobs, or an invalid sample, changes nothing.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store_fixture.h"

static char	dbpath[256];

static int
setup(void **state)
{
	return fx_store_open(state, dbpath, sizeof dbpath, "bulk");
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}

static int64_t
run_with_jobs(struct store *st, size_t n)
{
	struct store_run_spec	rs;
	struct store_job_spec	js[4];
	char			err[512];
	int64_t			run;
	size_t			i;

	memset(&rs, 0, sizeof rs);
	rs.kind = "nightly";
	assert_int_equal(store_run_create(st, &rs, &run, err, sizeof err), 0);
	memset(js, 0, sizeof js);
	for (i = 0; i < n; i++) {
		js[i].link = "em";
		js[i].knobs = kn((int)(i & 1), 0, NULL);
		js[i].tool = "iperf3";
		js[i].params = "iperf3:time=1";
		js[i].repetition = (int)(i / 2);
	}
	assert_int_equal(store_jobs_add(st, run, js, n, err, sizeof err), 0);
	return run;
}

static void
test_bulk(void **state)
{
	struct store		*st = *state;
	struct store_sample	 s[4][2];
	struct store_job_result	 r[4];
	struct store_job	*jobs = NULL;
	struct store_series	*ser = NULL;
	struct store_counts	 c;
	char			 err[512];
	size_t			 nj = 0, ns = 0, i;
	int64_t			 run = run_with_jobs(st, 4);

	memset(r, 0, sizeof r);
	for (i = 0; i < 4; i++) {
		s[i][0] = (struct store_sample){ "throughput_bps",
		    1e9 + (double)i, "bit/s", 0 };
		s[i][1] = (struct store_sample){ "throughput_bps", 5e8,
		    "bit/s", 1 };
		r[i].state = STORE_JOB_DONE;
		r[i].samples = s[i];
		r[i].nsamples = 2;
	}
	/* 3 results for 4 queued jobs: refused, nothing changed. */
	assert_int_equal(store_run_bulk_finish(st, run, r, 3, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "4 queued jobs, not 3"));
	/* A NaN sample: refused before anything is written. */
	s[3][1].value = NAN;
	assert_int_equal(store_run_bulk_finish(st, run, r, 4, err,
	    sizeof err), -1);
	s[3][1].value = 5e8;
	assert_int_equal(store_job_counts(st, run, NULL, &c, err, sizeof err),
	    0);
	assert_int_equal(c.n[STORE_JOB_QUEUED], 4);
	r[2].state = STORE_JOB_FAILED;
	r[2].reason = "iperf3 exited 1";
	r[2].failure_class = STORE_FAIL_TEST;
	assert_int_equal(store_run_bulk_finish(st, run, r, 4, err,
	    sizeof err), 0);
	assert_int_equal(store_job_counts(st, run, NULL, &c, err, sizeof err),
	    0);
	assert_int_equal(c.n[STORE_JOB_DONE], 3);
	assert_int_equal(c.n[STORE_JOB_FAILED], 1);
	assert_int_equal(store_job_list(st, run, -1, &jobs, &nj, err,
	    sizeof err), 0);
	assert_int_equal(nj, 4);
	for (i = 0; i < nj; i++) {
		assert_int_equal(jobs[i].attempt, 1);
		assert_true(jobs[i].finished_at >= jobs[i].started_at);
	}
	assert_string_equal(jobs[2].reason, "iperf3 exited 1");
	free(jobs);
	/* Whole-transfer samples, in job order: what detect reads. */
	assert_int_equal(store_samples_query(st, run, "throughput_bps", &ser,
	    &ns, err, sizeof err), 0);
	assert_int_equal(ns, 2);
	assert_int_equal(ser[0].n + ser[1].n, 3);
	store_series_free(ser, ns);
	/* Nothing queued any more: a second load is refused. */
	assert_int_equal(store_run_bulk_finish(st, run, r, 4, err,
	    sizeof err), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bulk),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
