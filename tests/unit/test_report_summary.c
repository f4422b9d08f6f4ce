/*
 * test_report_summary: report_run_summary(), the summary `labrat run`
 * prints at its end, on a store holding one run of three throughput
 * samples (1, 3 and 2 Gbit/s) and a queued job: the counts, the median,
 * minimum and maximum as a table and as JSON; a store that cannot be
 * opened an error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "report.h"
#include "store_fixture.h"

static char	dbpath[256];
static int64_t	run;

static int
setup(void **state)
{
	static const double	 v[] = { 1e9, 3e9, 2e9 };
	struct store		*st = NULL;
	struct store_run_spec	 rs;
	struct store_job_spec	 spec;
	struct store_job	 job;
	struct store_job_result	 r;
	struct store_sample	 s = { "throughput_bps", 0, "bit/s", 0 };
	char			 err[512];
	int			 i;

	(void)state;
	fx_db_path(dbpath, sizeof dbpath, "report_summary");
	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		return -1;
	memset(&rs, 0, sizeof rs);
	rs.kind = "nightly";
	assert_int_equal(store_run_create(st, &rs, &run, err, sizeof err), 0);
	for (i = 0; i < 4; i++) {
		memset(&spec, 0, sizeof spec);
		spec.link = "em";
		spec.knobs = kn(1, 9000, NULL);
		spec.tool = "iperf3";
		spec.params = "iperf3:time=2";
		spec.repetition = i;
		assert_int_equal(store_jobs_add(st, run, &spec, 1, err,
		    sizeof err), 0);
		if (i == 3)
			break;	/* stays queued */
		assert_int_equal(store_job_claim(st, run, "em", "t", &job, err,
		    sizeof err), 1);
		memset(&r, 0, sizeof r);
		s.value = v[i];
		r.state = STORE_JOB_DONE;
		r.samples = &s;
		r.nsamples = 1;
		assert_int_equal(store_job_finish(st, job.id, &r, err,
		    sizeof err), 0);
	}
	store_close(st);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_db_remove(dbpath);
	return 0;
}

static char *
render(enum report_format f)
{
	char	*out = NULL, err[512];
	size_t	 len = 0;
	FILE	*fp = open_memstream(&out, &len);

	assert_non_null(fp);
	if (report_run_summary(dbpath, run, f, fp, err, sizeof err) == -1)
		fail_msg("%s", err);
	fclose(fp);
	return out;
}

static void
test_text(void **state)
{
	char	*out = render(REPORT_TEXT), want[128];

	(void)state;
	snprintf(want, sizeof want, "run %lld: 4 jobs, 3 done, 0 failed, "
	    "0 cancelled\n\n", (long long)run);
	assert_true(strncmp(out, want, strlen(want)) == 0);
	assert_non_null(strstr(out, "median        min        max  "
	    "(Mbit/s)\n"));
	assert_non_null(strstr(out, "\nem       "));
	assert_non_null(strstr(out, "iperf3     3     2000.0     1000.0     "
	    "3000.0\n"));
	free(out);
}

static void
test_json(void **state)
{
	char			*out = render(REPORT_JSON);
	struct json_object	*o = json_tokener_parse(out), *jobs, *ser, *s,
				*x;

	(void)state;
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "run", &x));
	assert_int_equal(json_object_get_int64(x), run);
	assert_true(json_object_object_get_ex(o, "jobs", &jobs));
	assert_true(json_object_object_get_ex(jobs, "total", &x));
	assert_int_equal(json_object_get_int(x), 4);
	assert_true(json_object_object_get_ex(jobs, "done", &x));
	assert_int_equal(json_object_get_int(x), 3);
	assert_true(json_object_object_get_ex(o, "series", &ser));
	assert_int_equal(json_object_array_length(ser), 1);
	s = json_object_array_get_idx(ser, 0);
	assert_true(json_object_object_get_ex(s, "link", &x));
	assert_string_equal(json_object_get_string(x), "em");
	assert_true(json_object_object_get_ex(s, "n", &x));
	assert_int_equal(json_object_get_int(x), 3);
	assert_true(json_object_object_get_ex(s, "median_bps", &x));
	assert_true(json_object_get_double(x) == 2e9);
	assert_true(json_object_object_get_ex(s, "min_bps", &x));
	assert_true(json_object_get_double(x) == 1e9);
	assert_true(json_object_object_get_ex(s, "max_bps", &x));
	assert_true(json_object_get_double(x) == 3e9);
	json_object_put(o);
	free(out);
}

static void
test_no_store(void **state)
{
	char	err[512];

	(void)state;
	err[0] = '\0';
	assert_int_equal(report_run_summary("/nonexistent/labrat.db", 1,
	    REPORT_TEXT, stdout, err, sizeof err), -1);
	assert_true(err[0] != '\0');
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_no_store),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
