/*
 * test_store_runs: a run's note (given at creation, set, cleared, length
 * checked) and the overview of runs that `labrat runs` lists: distinct
 * revisions of the facts rows, the links of the jobs and the job counts
 * per state, newest first, limited like store_run_list().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store_fixture.h"

static char	dbpath[256];
static char	err[512];

static struct store *
db_open(void)
{
	struct store	*st = NULL;

	fx_db_path(dbpath, sizeof dbpath, "store-runs");
	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		fail_msg("%s", err);
	return st;
}

static void
facts(struct store *st, int64_t run, const char *host, const char *rev)
{
	struct store_host_facts	f;

	memset(&f, 0, sizeof f);
	f.host = host;
	f.os = "freebsd";
	f.revision = rev;
	assert_int_equal(store_host_facts_add(st, run, &f, NULL, err,
	    sizeof err), 0);
}

static void
jobs(struct store *st, int64_t run, const char *link, int n)
{
	struct store_job_spec	spec;
	int			i;

	for (i = 0; i < n; i++) {
		memset(&spec, 0, sizeof spec);
		spec.link = link;
		spec.knobs = kn(i % 2, 0, NULL);
		spec.tool = "iperf3";
		spec.params = "time=2";
		spec.repetition = i / 2;
		assert_int_equal(store_jobs_add(st, run, &spec, 1, err,
		    sizeof err), 0);
	}
}

static void
test_note(void **state)
{
	struct store		*st = db_open();
	struct store_run_spec	 spec;
	struct store_run	 r;
	char			 big[STORE_NOTE_MAX + 1];
	int64_t			 a, b;

	(void)state;
	memset(&spec, 0, sizeof spec);
	spec.note = "TSO off on em-b: does the drift follow it?";
	assert_int_equal(store_run_create(st, &spec, &a, err, sizeof err), 0);
	spec.note = NULL;
	assert_int_equal(store_run_create(st, &spec, &b, err, sizeof err), 0);
	assert_int_equal(store_run_get(st, a, &r, err, sizeof err), 1);
	assert_string_equal(r.note, "TSO off on em-b: does the drift follow "
	    "it?");
	store_run_free(&r);
	assert_int_equal(store_run_get(st, b, &r, err, sizeof err), 1);
	assert_null(r.note);
	store_run_free(&r);
	assert_int_equal(store_run_set_note(st, b, "later", err, sizeof err),
	    0);
	assert_int_equal(store_run_set_note(st, a, NULL, err, sizeof err), 0);
	assert_int_equal(store_run_get(st, b, &r, err, sizeof err), 1);
	assert_string_equal(r.note, "later");
	store_run_free(&r);
	assert_int_equal(store_run_get(st, a, &r, err, sizeof err), 1);
	assert_null(r.note);
	store_run_free(&r);
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(store_run_set_note(st, a, big, err, sizeof err), -1);
	assert_non_null(strstr(err, "run note"));
	assert_int_equal(store_run_set_note(st, 99, "x", err, sizeof err), -1);
	store_close(st);
	fx_db_remove(dbpath);
}

static void
test_infos(void **state)
{
	struct store		*st = db_open();
	struct store_run_spec	 spec;
	struct store_run_info	*v = NULL;
	struct store_job	 j;
	size_t			 n = 0;
	int64_t			 r1, r2, r3;

	(void)state;
	memset(&spec, 0, sizeof spec);
	assert_int_equal(store_run_create(st, &spec, &r1, err, sizeof err), 0);
	assert_int_equal(store_run_create(st, &spec, &r2, err, sizeof err), 0);
	assert_int_equal(store_run_create(st, &spec, &r3, err, sizeof err), 0);
	facts(st, r1, "em-a", "r200140");
	facts(st, r1, "em-b", "r200140");
	facts(st, r1, "em-a", "r200199");
	facts(st, r1, "bce-a", "");
	jobs(st, r1, "em", 4);
	jobs(st, r1, "bce", 2);
	assert_int_equal(store_job_claim(st, r1, "em", "t", &j, err,
	    sizeof err), 1);
	assert_int_equal(store_job_finish(st, j.id, &(struct
	    store_job_result){ .state = STORE_JOB_DONE }, err, sizeof err), 0);
	assert_int_equal(store_job_claim(st, r1, "em", "t", &j, err,
	    sizeof err), 1);
	assert_int_equal(store_run_infos(st, 0, &v, &n, err, sizeof err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0].run_id, r3);
	assert_int_equal(v[2].run_id, r1);
	assert_string_equal(v[0].revisions, "");
	assert_string_equal(v[0].links, "");
	assert_int_equal(v[0].jobs.total, 0);
	assert_true(strcmp(v[2].revisions, "r200140,r200199") == 0 ||
	    strcmp(v[2].revisions, "r200199,r200140") == 0);
	assert_true(strcmp(v[2].links, "em,bce") == 0 ||
	    strcmp(v[2].links, "bce,em") == 0);
	assert_int_equal(v[2].jobs.total, 6);
	assert_int_equal(v[2].jobs.n[STORE_JOB_DONE], 1);
	assert_int_equal(v[2].jobs.n[STORE_JOB_RUNNING], 1);
	assert_int_equal(v[2].jobs.n[STORE_JOB_QUEUED], 4);
	store_run_infos_free(v, n);
	assert_int_equal(store_run_infos(st, 2, &v, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[1].run_id, r2);
	store_run_infos_free(v, n);
	store_close(st);
	fx_db_remove(dbpath);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_note),
		cmocka_unit_test(test_infos),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
