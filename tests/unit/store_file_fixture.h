/*
 * store_file_fixture.h: what test_store.c and test_store_jobs.c share -- a
 * private temporary directory per test (setup/teardown), paths in it, a new
 * store there, raw SQL behind the store's back, knob sets, a run with jobs
 * and finishing a job.  Header-only (static functions, static buffers), so
 * each test program carries its own copy; sqlite3.h is used only to look
 * behind the store's back.
 */
#ifndef LABRAT_STORE_FILE_FIXTURE_H
#define LABRAT_STORE_FILE_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store.h"
#include "util.h"

#include "tmpdir_fixture.h"

static char	tmpdir[256];
static char	err[1024];

static inline int
setup(void **state)
{
	(void)state;
	if (fx_tmpdir(tmpdir, sizeof tmpdir, "store") == -1)
		return -1;
	err[0] = '\0';
	return 0;
}

static inline int
teardown(void **state)
{
	(void)state;
	fx_rmtree(tmpdir);
	return 0;
}

/* A path in the temporary directory (static buffer, one at a time). */
static inline const char *
tpath(const char *name)
{
	static char	p[2][512];
	static int	i;

	i = !i;
	snprintf(p[i], sizeof p[i], "%s/%s", tmpdir, name);
	return p[i];
}

static inline struct store *
open_new(const char *name)
{
	struct store	*st;
	int		 rc;

	rc = store_open(tpath(name), STORE_OPEN_CREATE | STORE_OPEN_MIGRATE,
	    &st, err, sizeof err);
	if (rc != 0)
		fail_msg("open %s: %s", name, err);
	return st;
}

/* Runs SQL on a file directly; returns the first column of the first row
 * as an integer (or 0). */
static inline long long
raw_sql(const char *path, const char *sql)
{
	sqlite3		*db;
	sqlite3_stmt	*stmt;
	long long	 v = 0;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(db));
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return v;
}

/* tso, mtu (0 = not set) and nat (NULL = not set), the rest unset; the
 * values are not checked (the store must refuse bad ones). */
static inline void
knobs(struct knobs *k, int tso, int mtu, const char *nat)
{
	knobs_clear(k);
	knobs_set(k, KNOB_TSO, tso);
	knobs_set(k, KNOB_MTU, mtu > 0 ? mtu : -1);
	if (nat != NULL)
		knobs_set(k, KNOB_NAT, knobs_nat_from_name(nat));
}

static inline int64_t
new_run(struct store *st)
{
	struct store_run_spec	spec = { .kind = "manual",
				    .inventory_path = "lab.json",
				    .inventory_text = "{}",
				    .plan_path = "plan.json",
				    .plan_text = "{\"links\": [\"em\"]}",
				    .owner = "test:1" };
	int64_t			id = 0;

	if (store_run_create(st, &spec, &id, err, sizeof err) != 0)
		fail_msg("run create: %s", err);
	return id;
}

/* Adds n jobs alternating between links "em" and "bce", tso on/off. */
static inline void
add_jobs(struct store *st, int64_t run, size_t n)
{
	struct store_job_spec	*specs;
	size_t			 i;

	specs = xcalloc(n, sizeof *specs);
	for (i = 0; i < n; i++) {
		specs[i].link = i % 2 ? "bce" : "em";
		knobs(&specs[i].knobs, (int)(i / 2 % 2), 9000, NULL);
		specs[i].tool = "iperf2";
		specs[i].params = "-l 512k -w 1024k -N -t 30";
		specs[i].repetition = (int)(i / 4);
	}
	if (store_jobs_add(st, run, specs, n, err, sizeof err) != 0)
		fail_msg("jobs add: %s", err);
	free(specs);
}

static inline void
finish(struct store *st, int64_t job, enum store_job_state state,
    double value)
{
	struct store_sample	s[3] = {
		{ "throughput_bps", value, "bit/s", 0 },
		{ "retransmits", 3, "", 0 },
		{ "throughput_bps", value + 1, "bit/s", 1 },
	};
	struct store_job_result	r = { .state = state, .samples = s,
				    .nsamples = 3 };

	if (state == STORE_JOB_FAILED)
		r.reason = "driver refused tso";
	if (store_job_finish(st, job, &r, err, sizeof err) != 0)
		fail_msg("finish %lld: %s", (long long)job, err);
}

/* Expects a call to fail with a message containing what. */
#define assert_fails(call, what) do {					\
	err[0] = '\0';							\
	assert_int_equal((call), -1);					\
	if (strstr(err, (what)) == NULL)				\
		fail_msg("expected \"%s\" in \"%s\"", (what), err);	\
} while (0)

#endif
