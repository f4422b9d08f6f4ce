/*
 * test_report_verdict: a run's stored verdicts (schema 14).  What
 * report_verdict_save() stores is byte for byte what `labrat report RUN
 * --format json` prints; report_run_json() serves the stored bytes, and
 * computes when there are none or they are of another format; finishing
 * an earlier run drops the stored verdicts of the later runs on its links
 * (their default baseline changed) and of no others.
 *
 *   run 1 manual  em, ix   failed (later: done)
 *   run 2 nightly em       done
 *   run 3 nightly bce      done
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report.h"
#include "store_fixture.h"

static char	dbpath[256];

static void
series(struct store *st, struct stats_rng *rng, int64_t run, const char *link,
    struct knobs k, double base, int n)
{
	struct store_job_spec	spec;
	struct store_job	job;
	struct store_job_result	r;
	struct store_sample	s = { "throughput_bps", 0, "bit/s", 0 };
	char			err[512];
	int			i;

	for (i = 0; i < n; i++) {
		memset(&spec, 0, sizeof spec);
		spec.link = link;
		spec.knobs = k;
		spec.tool = "iperf3";
		spec.params = "iperf3:time=2";
		spec.repetition = i;
		assert_int_equal(store_jobs_add(st, run, &spec, 1, err,
		    sizeof err), 0);
		assert_int_equal(store_job_claim(st, run, link, "t", &job, err,
		    sizeof err), 1);
		memset(&r, 0, sizeof r);
		s.value = base * (1 + 0.01 * stats_rng_normal(rng));
		r.state = STORE_JOB_DONE;
		r.samples = &s;
		r.nsamples = 1;
		assert_int_equal(store_job_finish(st, job.id, &r, err,
		    sizeof err), 0);
	}
}

static int64_t
new_run(struct store *st, const char *kind)
{
	struct store_run_spec	spec;
	char			err[512];
	int64_t			run;

	memset(&spec, 0, sizeof spec);
	spec.kind = kind;
	assert_int_equal(store_run_create(st, &spec, &run, err, sizeof err),
	    0);
	return run;
}

static void
finish(struct store *st, int64_t run, enum store_run_state s)
{
	char	err[512];

	assert_int_equal(store_run_finish(st, run, s, NULL, err, sizeof err),
	    0);
}

static int
setup(void **state)
{
	struct store		*st;
	struct stats_rng	 rng;
	int64_t			 run;

	if (fx_store_open(state, dbpath, sizeof dbpath, "verdict") == -1)
		return -1;
	st = *state;
	stats_rng_seed(&rng, 7);
	run = new_run(st, "manual");
	series(st, &rng, run, "em", kn(0, 0, NULL), 1e9, 8);
	series(st, &rng, run, "em", kn(1, 0, NULL), 1e9, 8);
	series(st, &rng, run, "ix", kn(0, 0, NULL), 1e9, 4);
	finish(st, run, STORE_RUN_FAILED);
	run = new_run(st, "nightly");
	series(st, &rng, run, "em", kn(0, 0, NULL), 1e9, 8);
	series(st, &rng, run, "em", kn(1, 0, NULL), 0.8e9, 8);
	finish(st, run, STORE_RUN_DONE);
	run = new_run(st, "nightly");
	series(st, &rng, run, "bce", kn(0, 0, NULL), 1e9, 6);
	series(st, &rng, run, "bce", kn(1, 0, NULL), 0.01e9, 6);
	finish(st, run, STORE_RUN_DONE);
	return 0;
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}

/* `labrat report RUN --format json` (report_run()) as a string. */
static char *
cli_json(int64_t run)
{
	char	*out = NULL, err[512];
	size_t	 len = 0;
	FILE	*fp = open_memstream(&out, &len);

	assert_non_null(fp);
	if (report_run(dbpath, run, 0, NULL, REPORT_JSON, fp, NULL, err,
	    sizeof err) == -1)
		fail_msg("report_run %lld: %s", (long long)run, err);
	assert_int_equal(fclose(fp), 0);
	return out;
}

/* report_run_json() (the API's GET /runs/{id}/report); *stored. */
static int	api_nreg;

static char *
api_json(struct store *st, int64_t run, int *stored)
{
	char	*json, err[512];
	size_t	 len;

	api_nreg = -1;
	if (report_run_json(st, dbpath, run, &json, &len, stored, &api_nreg,
	    err, sizeof err) == -1)
		fail_msg("report_run_json %lld: %s", (long long)run, err);
	assert_int_equal(strlen(json), len);
	return json;
}

static void
save(struct store *st, int64_t run)
{
	char	err[512];

	if (report_verdict_save(st, run, err, sizeof err) == -1)
		fail_msg("report_verdict_save %lld: %s", (long long)run, err);
}

/* Stored, then served: the CLI's bytes; none stored: computed, the same. */
static void
test_stored_is_cli(void **state)
{
	struct store	*st = *state;
	char		*api, *cli;
	int		 stored;

	api = api_json(st, 2, &stored);
	assert_int_equal(stored, 0);
	assert_int_equal(api_nreg, 1);
	cli = cli_json(2);
	assert_string_equal(api, cli);
	free(api);
	save(st, 2);
	api = api_json(st, 2, &stored);
	assert_int_equal(stored, 1);
	assert_int_equal(api_nreg, 1);	/* TSO on, stored with the bytes */
	assert_string_equal(api, cli);
	/* The regression of TSO on is in it; run 1 failed: no baseline. */
	assert_non_null(strstr(api, "\"verdict\":\"regression\""));
	assert_non_null(strstr(api, "\"baseline\":{\n    \"run\":null"));
	free(api);
	free(cli);
}

/* Run 1 finishes done after run 2 was stored: run 2's default baseline
 * is run 1 now, so its row goes; run 3 (bce only) keeps its row. */
static void
test_earlier_run_finishes(void **state)
{
	struct store	*st = *state;
	char		*api, *cli, err[512];
	int		 stored;
	int64_t		 n;

	save(st, 2);
	save(st, 3);
	finish(st, 1, STORE_RUN_DONE);
	save(st, 1);		/* what run_finish() does */
	api = api_json(st, 2, &stored);
	assert_int_equal(stored, 0);
	cli = cli_json(2);
	assert_string_equal(api, cli);
	assert_non_null(strstr(cli, "\"baseline\":{\n    \"run\":1,"));
	free(api);
	free(cli);
	api = api_json(st, 3, &stored);
	assert_int_equal(stored, 1);
	free(api);
	/* A resume of run 1 drops its own row and run 2's (none left). */
	assert_int_equal(store_verdict_drop_from(st, 1, &n, err, sizeof err),
	    0);
	assert_int_equal(n, 1);
	free(api_json(st, 1, &stored));
	assert_int_equal(stored, 0);
	free(api_json(st, 3, &stored));
	assert_int_equal(stored, 1);
}

/* The stored bytes are what is served; another format is recomputed. */
static void
test_format(void **state)
{
	struct store	*st = *state;
	char		*api, *cli, err[512];
	int		 stored;

	assert_int_equal(store_verdict_put(st, 3, REPORT_VERDICT_FORMAT, 0,
	    7, "{\"x\": 1}\n", 9, err, sizeof err), 0);
	api = api_json(st, 3, &stored);
	assert_int_equal(stored, 1);
	assert_string_equal(api, "{\"x\": 1}\n");
	assert_int_equal(api_nreg, 7);
	free(api);
	assert_int_equal(store_verdict_put(st, 3, REPORT_VERDICT_FORMAT + 1,
	    0, 7, "{\"x\": 1}\n", 9, err, sizeof err), 0);
	api = api_json(st, 3, &stored);
	assert_int_equal(stored, 0);
	cli = cli_json(3);
	assert_string_equal(api, cli);
	free(api);
	free(cli);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stored_is_cli, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_earlier_run_finishes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_format, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
