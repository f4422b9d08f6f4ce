/*
 * test_store: the SQLite store on real files in a temporary directory:
 * creation, migrations from every older version's fixture, refusal of a
 * newer schema, the job state machine, claim order, resume, cancellation,
 * sample queries, host facts, raw output and bisects (schedules:
 * test_store_sched.c).
 *
 * sqlite3.h is used here only to build fixture files and to look behind
 * the store's back; the code under test is store.c.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "store.h"
#include "util.h"

#include "tmpdir_fixture.h"

static char	tmpdir[256];
static char	err[1024];

static int
setup(void **state)
{
	(void)state;
	if (fx_tmpdir(tmpdir, sizeof tmpdir, "store") == -1)
		return -1;
	err[0] = '\0';
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_rmtree(tmpdir);
	return 0;
}

/* A path in the temporary directory (static buffer, one at a time). */
static const char *
tpath(const char *name)
{
	static char	p[2][512];
	static int	i;

	i = !i;
	snprintf(p[i], sizeof p[i], "%s/%s", tmpdir, name);
	return p[i];
}

static struct store *
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
static long long
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
static void
knobs(struct knobs *k, int tso, int mtu, const char *nat)
{
	knobs_clear(k);
	knobs_set(k, KNOB_TSO, tso);
	knobs_set(k, KNOB_MTU, mtu > 0 ? mtu : -1);
	if (nat != NULL)
		knobs_set(k, KNOB_NAT, knobs_nat_from_name(nat));
}

static int64_t
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
static void
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

static void
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

/* ---- tests ---------------------------------------------------------------- */

static void
test_knobs_key(void **state)
{
	struct knobs	k;
	char		key[STORE_KEY_MAX], small[8];

	(void)state;
	knobs_clear(&k);
	assert_int_equal(knobs_key(&k, key, sizeof key), 0);
	assert_string_equal(key, "");
	knobs(&k, 1, 9000, "off");
	assert_int_equal(knobs_key(&k, key, sizeof key), 0);
	assert_int_equal(strlen(key), 23);
	assert_string_equal(key, "mtu=9000,nat=off,tso=on");
	knobs_set(&k, KNOB_LRO, 0);
	knobs_set(&k, KNOB_RXCSUM, 1);
	knobs_set(&k, KNOB_TXCSUM, 0);
	knobs_key(&k, key, sizeof key);
	assert_string_equal(key,
	    "lro=off,mtu=9000,nat=off,rxcsum=on,tso=on,txcsum=off");
	assert_int_equal(knobs_key(&k, small, sizeof small), -1);
}

static void
test_open_creates_dirs(void **state)
{
	struct store	*st;
	int		 v = -1;

	(void)state;
	assert_int_equal(store_open(tpath("missing.db"), 0, &st, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "no such database"));
	assert_int_equal(access(tpath("missing.db"), F_OK), -1);

	st = open_new("a/b/c/labrat.db");
	assert_int_equal(store_schema_version(st, &v, err, sizeof err), 0);
	assert_int_equal(v, store_schema_latest());
	assert_true(store_schema_latest() >= 2);
	assert_int_equal(store_check(st, err, sizeof err), 0);
	store_close(st);
	assert_int_equal(raw_sql(tpath("a/b/c/labrat.db"),
	    "SELECT journal_mode = 'wal' FROM pragma_journal_mode"), 1);

	/* A read-only handle refuses to write. */
	assert_int_equal(store_open(tpath("a/b/c/labrat.db"),
	    STORE_OPEN_READONLY, &st, err, sizeof err), 0);
	assert_int_equal(store_migrate(st, NULL, NULL, err, sizeof err), -1);
	store_close(st);
}

/* The user_version in a file's header, as the next labrat would see it. */
static int
header_version_of(const char *path)
{
	unsigned char	 h[100];
	FILE		*fp;

	assert_non_null(fp = fopen(path, "rb"));
	assert_int_equal(fread(h, 1, sizeof h, fp), sizeof h);
	fclose(fp);
	return h[60] << 24 | h[61] << 16 | h[62] << 8 | h[63];
}

static void
test_future_version_refused(void **state)
{
	struct store	*st;
	struct stat	 before, after;
	const char	*path = tpath("future.db");
	char		*a, *b, want[256];
	size_t		 alen, blen;
	int		 flags[] = { STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, 0,
			    STORE_OPEN_READONLY };
	size_t		 i;

	(void)state;
	st = open_new("future.db");
	new_run(st);
	store_close(st);
	snprintf(want, sizeof want, "PRAGMA user_version = %d",
	    store_schema_latest() + 1);
	raw_sql(path, want);
	assert_int_equal(stat(path, &before), 0);
	a = util_read_file(path, 1 << 24, &alen, err, sizeof err);
	assert_non_null(a);
	usleep(20000);

	snprintf(want, sizeof want, "%s: schema version %d is newer than "
	    "this labrat (%d); upgrade labrat", path, store_schema_latest() + 1,
	    store_schema_latest());
	for (i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		st = NULL;
		assert_int_equal(store_open(path, flags[i], &st, err,
		    sizeof err), -1);
		assert_null(st);
		assert_string_equal(err, want);
	}
	assert_int_equal(stat(path, &after), 0);
	b = util_read_file(path, 1 << 24, &blen, err, sizeof err);
	assert_non_null(b);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	assert_int_equal(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
	assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	assert_int_equal(access(tpath("future.db-wal"), F_OK), -1);
	assert_int_equal(access(tpath("future.db-shm"), F_OK), -1);
	free(a);
	free(b);
}

/* A newer labrat's migration still in the WAL (not yet checkpointed) is
 * seen too, and the main file is left alone. */
static void
test_future_version_in_wal(void **state)
{
	struct store	*st;
	struct stat	 before, after;
	sqlite3		*db;
	const char	*path = tpath("walfuture.db");
	char		 sql[128], want[64];

	(void)state;
	st = open_new("walfuture.db");
	store_close(st);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	snprintf(sql, sizeof sql, "PRAGMA wal_autocheckpoint = 0; PRAGMA "
	    "user_version = %d", store_schema_latest() + 1);
	snprintf(want, sizeof want, "schema version %d is newer",
	    store_schema_latest() + 1);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(stat(path, &before), 0);
	assert_int_equal(header_version_of(path), store_schema_latest());
	assert_int_equal(store_open(path, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), -1);
	assert_non_null(strstr(err, want));
	assert_int_equal(stat(path, &after), 0);
	assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	assert_int_equal(header_version_of(path), store_schema_latest());
	sqlite3_close(db);
}

/* The schema as text, to compare a migrated database with a fresh one. */
static char *
schema_text(const char *path)
{
	sqlite3		*db;
	sqlite3_stmt	*stmt;
	struct buf	 b;

	buf_init(&b, 1 << 20);
	buf_append(&b, "", 0);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT type, name, sql FROM "
	    "sqlite_master ORDER BY type, name", -1, &stmt, NULL), SQLITE_OK);
	while (sqlite3_step(stmt) == SQLITE_ROW)
		buf_printf(&b, "%s %s %s\n", sqlite3_column_text(stmt, 0),
		    sqlite3_column_text(stmt, 1),
		    sqlite3_column_text(stmt, 2));
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return buf_release(&b);
}

static void
load_fixture(int version, const char *path)
{
	char	 fx[512], *sql;
	sqlite3	*db;
	size_t	 len;

	snprintf(fx, sizeof fx, "%s/db/v%d.sql", getenv("LABRAT_FIXTURES"),
	    version);
	sql = util_read_file(fx, 1 << 20, &len, err, sizeof err);
	if (sql == NULL)
		fail_msg("every older schema version needs a fixture: %s", err);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("%s: %s", fx, sqlite3_errmsg(db));
	sqlite3_close(db);
	free(sql);
	assert_int_equal(raw_sql(path, "PRAGMA user_version"), version);
}

/* What every fixture holds (see tests/fixtures/db/v1.sql). */
static void
check_fixture_data(struct store *st)
{
	struct store_run		 run;
	struct store_job		*jobs;
	struct store_series		*ser;
	struct store_host_facts_row	*facts;
	size_t				 n, nser, nfacts;
	char				*raw;
	size_t				 rawlen;

	assert_int_equal(store_run_get(st, 1, &run, err, sizeof err), 1);
	assert_int_equal(run.state, STORE_RUN_DONE);
	assert_string_equal(run.plan_text, "{\"links\": [\"em\"]}");
	assert_int_equal(run.schedule_id, 0);
	store_run_free(&run);

	assert_int_equal(store_job_list(st, 1, -1, &jobs, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 4);
	assert_int_equal(jobs[1].attempt, 2);
	assert_string_equal(jobs[1].reason, "em-b: ssh: connection reset");
	assert_int_equal(jobs[3].state, STORE_JOB_FAILED);
	assert_int_equal(knobs_get(&jobs[0].knobs, KNOB_TSO), 1);
	assert_int_equal(knobs_get(&jobs[0].knobs, KNOB_MTU), 9000);
	assert_int_equal(knobs_get(&jobs[0].knobs, KNOB_LRO), -1);
	free(jobs);

	assert_int_equal(store_samples_query(st, 1, "throughput_bps", &ser,
	    &nser, err, sizeof err), 0);
	assert_int_equal(nser, 2);
	assert_string_equal(ser[0].knobs_key, "mtu=9000,tso=off");
	assert_int_equal(ser[0].n, 1);
	assert_true(ser[0].values[0] == 933e6);
	assert_string_equal(ser[1].knobs_key, "mtu=9000,tso=on");
	assert_string_equal(ser[1].revision, "r191000");
	assert_int_equal(ser[1].n, 2);
	assert_true(ser[1].values[0] == 769e6 && ser[1].values[1] == 771e6);
	store_series_free(ser, nser);

	assert_int_equal(store_host_facts_list(st, 1, &facts, &nfacts, err,
	    sizeof err), 0);
	assert_int_equal(nfacts, 2);
	assert_string_equal(facts[1].host, "em-b");
	assert_string_equal(facts[0].chip, "0x10968086");
	/* Rows from before version 3 declare nothing. */
	assert_null(facts[0].declared_driver);
	assert_null(facts[1].declared_chip);
	store_facts_free(facts, nfacts);
	/* and a migrated database keeps both for new rows. */
	assert_int_equal(store_host_facts_add(st, 2, &(struct store_host_facts){
	    .host = "em-a", .driver = "veth", .declared_driver = "em",
	    .declared_chip = "0x10968086" }, NULL, err, sizeof err), 0);
	assert_int_equal(store_host_facts_list(st, 2, &facts, &nfacts, err,
	    sizeof err), 0);
	assert_int_equal(nfacts, 1);
	assert_string_equal(facts[0].driver, "veth");
	assert_null(facts[0].chip);
	assert_string_equal(facts[0].declared_driver, "em");
	assert_string_equal(facts[0].declared_chip, "0x10968086");
	store_facts_free(facts, nfacts);

	assert_int_equal(store_raw_get(st, 1, "client.stdout", &raw, &rawlen,
	    err, sizeof err), 1);
	assert_non_null(strstr(raw, "769 Mbits/sec"));
	free(raw);

	/* The interrupted run resumes: its running job goes back first. */
	assert_int_equal(store_run_reset_running(st, 2, NULL, err,
	    sizeof err), 0);
}

/*
 * v6.sql's bisect, its step and the run it measured: 0007 rebuilds runs
 * and bisects, and nothing may cascade away or lose its link.
 */
static void
check_fixture_bisect(struct store *st)
{
	struct store_bisect		 b;
	struct store_bisect_step	*steps;
	struct store_run		 run;
	size_t				 n;

	assert_int_equal(store_bisect_get(st, 1, &b, err, sizeof err), 1);
	assert_string_equal(b.state, "running");
	assert_string_equal(b.client_before, "r1");
	assert_string_equal(b.revisions, "r1\nr2\nr3");
	assert_string_equal(b.who.host, "");	/* owned before schema 7 */
	store_bisect_free(&b);
	assert_int_equal(store_bisect_steps(st, 1, &steps, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(steps[0].run_id, 2);
	free(steps);
	assert_int_equal(store_run_get(st, 2, &run, err, sizeof err), 1);
	assert_int_equal(run.bisect_id, 1);
	assert_string_equal(run.who.host, "ctl");	/* from "ctl:200" */
	assert_int_equal(run.who.pid, 200);
	store_run_free(&run);
	/* The new state is accepted by both tables now. */
	assert_int_equal(store_run_interrupt(st, 2, "store error", NULL, err,
	    sizeof err), 0);
	assert_int_equal(store_bisect_update(st, 1, "interrupted", NULL, 0,
	    NULL, err, sizeof err), 0);
}

static void
test_migrate_fixtures(void **state)
{
	struct store	*st;
	char		*fresh, *migrated, name[32];
	int		 v, from, to;

	(void)state;
	st = open_new("fresh.db");
	store_close(st);
	fresh = schema_text(tpath("fresh.db"));

	for (v = 1; v < store_schema_latest(); v++) {
		snprintf(name, sizeof name, "v%d.db", v);
		load_fixture(v, tpath(name));
		assert_int_equal(store_open(tpath(name), 0, &st, err,
		    sizeof err), 0);
		assert_int_equal(store_migrate(st, &from, &to, err,
		    sizeof err), 0);
		assert_int_equal(from, v);
		assert_int_equal(to, store_schema_latest());
		assert_int_equal(store_check(st, err, sizeof err), 0);
		check_fixture_data(st);
		if (v >= 6)
			check_fixture_bisect(st);
		store_close(st);
		/* Exactly the schema a fresh database gets. */
		migrated = schema_text(tpath(name));
		assert_string_equal(migrated, fresh);
		free(migrated);
		assert_int_equal(raw_sql(tpath(name), "SELECT COUNT(*) FROM "
		    "samples"), 6);
	}
	free(fresh);
}

/* Expects a call to fail with a message containing what. */
#define assert_fails(call, what) do {					\
	err[0] = '\0';							\
	assert_int_equal((call), -1);					\
	if (strstr(err, (what)) == NULL)				\
		fail_msg("expected \"%s\" in \"%s\"", (what), err);	\
} while (0)

static void
test_state_machine(void **state)
{
	struct store		*st;
	struct store_job	 j;
	struct store_job_result	 r = { .state = STORE_JOB_DONE };
	int64_t			 run;

	(void)state;
	st = open_new("sm.db");
	run = new_run(st);
	add_jobs(st, run, 4);

	/* Queued: cannot finish or requeue. */
	assert_fails(store_job_finish(st, 1, &r, err, sizeof err),
	    "job 1 is queued, not running");
	assert_fails(store_job_requeue(st, 1, "x", err, sizeof err),
	    "job 1 is queued, not running");
	assert_fails(store_job_finish(st, 99, &r, err, sizeof err),
	    "no job 99");

	assert_int_equal(store_job_claim(st, run, "em", "w1", &j, err,
	    sizeof err), 1);
	assert_int_equal(j.id, 1);
	assert_int_equal(j.state, STORE_JOB_RUNNING);
	assert_int_equal(j.attempt, 1);
	assert_string_equal(j.owner, "w1");
	assert_string_equal(j.knobs_key, "mtu=9000,tso=off");
	assert_true(j.started_at > 0);

	/* Only done or failed are final states for finish. */
	r.state = STORE_JOB_QUEUED;
	assert_fails(store_job_finish(st, 1, &r, err, sizeof err),
	    "not done or failed");
	r.state = STORE_JOB_CANCELLED;
	assert_fails(store_job_finish(st, 1, &r, err, sizeof err),
	    "not done or failed");

	/* An infrastructure failure requeues it; the attempt is kept. */
	assert_int_equal(store_job_requeue(st, 1, "em-a: ssh: timeout", err,
	    sizeof err), 0);
	assert_int_equal(store_job_get(st, 1, &j, err, sizeof err), 1);
	assert_int_equal(j.state, STORE_JOB_QUEUED);
	assert_string_equal(j.owner, "");
	assert_string_equal(j.reason, "em-a: ssh: timeout");
	assert_int_equal(store_job_claim(st, run, "em", "w1", &j, err,
	    sizeof err), 1);
	assert_int_equal(j.id, 1);
	assert_int_equal(j.attempt, 2);

	finish(st, 1, STORE_JOB_DONE, 933e6);
	assert_int_equal(store_job_get(st, 1, &j, err, sizeof err), 1);
	assert_int_equal(j.state, STORE_JOB_DONE);
	assert_true(j.finished_at >= j.started_at);
	assert_string_equal(j.owner, "");
	/* Final: no second finish, no requeue, samples not duplicated. */
	r.state = STORE_JOB_DONE;
	assert_fails(store_job_finish(st, 1, &r, err, sizeof err),
	    "job 1 is done, not running");
	assert_fails(store_job_requeue(st, 1, NULL, err, sizeof err),
	    "is done");
	assert_int_equal(raw_sql(tpath("sm.db"), "SELECT COUNT(*) FROM "
	    "samples WHERE job_id = 1"), 3);

	/* The SQL trigger enforces the same rules below the C code. */
	assert_int_equal(raw_sql(tpath("sm.db"), "SELECT state FROM jobs "
	    "WHERE id = 1"), 0);
	{
		sqlite3	*db;

		assert_int_equal(sqlite3_open(tpath("sm.db"), &db), SQLITE_OK);
		assert_int_not_equal(sqlite3_exec(db, "UPDATE jobs SET state = "
		    "'queued' WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
		assert_non_null(strstr(sqlite3_errmsg(db),
		    "illegal job state transition"));
		sqlite3_close(db);
	}

	store_close(st);
}

static void
test_fail_and_cancel(void **state)
{
	struct store		*st;
	struct store_job	 j, j2;
	struct store_job_result	 r = { .state = STORE_JOB_DONE };
	struct store_counts	 c;
	int64_t			 run, n;

	(void)state;
	st = open_new("cancel.db");
	run = new_run(st);
	add_jobs(st, run, 4);
	assert_int_equal(store_job_claim(st, run, NULL, "w1", &j, err,
	    sizeof err), 1);
	finish(st, j.id, STORE_JOB_DONE, 933e6);

	/* A failed job keeps its reason. */
	assert_int_equal(store_job_claim(st, run, NULL, "w2", &j2, err,
	    sizeof err), 1);
	assert_int_equal(j2.id, 2);
	finish(st, 2, STORE_JOB_FAILED, 1);
	assert_int_equal(store_job_get(st, 2, &j2, err, sizeof err), 1);
	assert_string_equal(j2.reason, "driver refused tso");

	/* Cancel the rest: one running, one queued. */
	assert_int_equal(store_job_claim(st, run, "em", "w1", &j, err,
	    sizeof err), 1);
	assert_int_equal(store_run_cancel_jobs(st, run, "interrupted",
	    &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(store_job_claim(st, run, NULL, "w1", &j, err,
	    sizeof err), 0);
	assert_fails(store_job_finish(st, j.id, &r, err, sizeof err),
	    "is cancelled, not running");
	assert_int_equal(store_job_counts(st, run, NULL, &c, err, sizeof err),
	    0);
	assert_int_equal(c.total, 4);
	assert_int_equal(c.n[STORE_JOB_DONE], 1);
	assert_int_equal(c.n[STORE_JOB_FAILED], 1);
	assert_int_equal(c.n[STORE_JOB_CANCELLED], 2);
	assert_int_equal(store_job_counts(st, run, "bce", &c, err, sizeof err),
	    0);
	assert_int_equal(c.total, 2);
	store_close(st);
}

static void
test_claim_order(void **state)
{
	struct store		*st;
	struct store_job	 j;
	int64_t			 run, other, seen[8];
	int			 i;

	(void)state;
	st = open_new("order.db");
	run = new_run(st);
	other = new_run(st);
	add_jobs(st, run, 8);
	add_jobs(st, other, 2);
	/* A second batch continues the sequence. */
	add_jobs(st, run, 2);

	/* Per link: that link's jobs in seq order (ABAB as inserted). */
	for (i = 0; i < 5; i++) {
		assert_int_equal(store_job_claim(st, run, "bce", "w", &j, err,
		    sizeof err), 1);
		assert_string_equal(j.link, "bce");
		assert_int_equal(j.run_id, run);
		assert_int_equal(j.seq, 2 * i + 1);
		seen[i] = knobs_get(&j.knobs, KNOB_TSO);
	}
	assert_int_equal(store_job_claim(st, run, "bce", "w", &j, err,
	    sizeof err), 0);
	assert_true(seen[0] == 0 && seen[1] == 1 && seen[2] == 0 &&
	    seen[3] == 1);
	/* Any link: lowest seq first, never another run's jobs. */
	for (i = 0; i < 5; i++) {
		assert_int_equal(store_job_claim(st, run, NULL, "w", &j, err,
		    sizeof err), 1);
		assert_int_equal(j.seq, 2 * i);
	}
	assert_int_equal(store_job_claim(st, run, NULL, "w", &j, err,
	    sizeof err), 0);
	assert_int_equal(store_job_claim(st, other, NULL, "w", &j, err,
	    sizeof err), 1);
	assert_int_equal(j.seq, 0);
	store_close(st);
}

/* Several processes claim from one run at once: no job twice, none lost. */
static void
test_claim_concurrent(void **state)
{
	struct store		*st;
	struct store_job	 j;
	int64_t			 run, id;
	int			 fds[2], k, status;
	pid_t			 pids[3];
	char			 count[64 + 1];
	ssize_t			 r;

	(void)state;
	st = open_new("conc.db");
	run = new_run(st);
	add_jobs(st, run, 60);
	store_close(st);
	memset(count, 0, sizeof count);
	assert_int_equal(pipe(fds), 0);
	for (k = 0; k < 3; k++) {
		pids[k] = fork();
		assert_true(pids[k] >= 0);
		if (pids[k] > 0)
			continue;
		close(fds[0]);
		if (store_open(tpath("conc.db"), 0, &st, err, sizeof err) != 0)
			_exit(2);
		while (store_job_claim(st, run, NULL, "child", &j, err,
		    sizeof err) == 1) {
			id = j.id;
			if (write(fds[1], &id, sizeof id) != sizeof id)
				_exit(3);
		}
		store_close(st);
		_exit(err[0] == '\0' ? 0 : 4);
	}
	close(fds[1]);
	while ((r = read(fds[0], &id, sizeof id)) == sizeof id) {
		assert_true(id >= 1 && id <= 60);
		count[id]++;
	}
	close(fds[0]);
	for (k = 0; k < 3; k++) {
		assert_int_equal(waitpid(pids[k], &status, 0), pids[k]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	for (k = 1; k <= 60; k++)
		assert_int_equal(count[k], 1);
	assert_int_equal(raw_sql(tpath("conc.db"), "SELECT COUNT(*) FROM jobs "
	    "WHERE state = 'running' AND attempt = 1"), 60);
}

/* Worker threads or processes opening a new database at once: each
 * migration is applied exactly once and every open succeeds. */
static void
test_migrate_concurrent(void **state)
{
	struct store	*st;
	pid_t		 pids[4];
	int		 k, status, v;

	(void)state;
	for (k = 0; k < 4; k++) {
		pids[k] = fork();
		assert_true(pids[k] >= 0);
		if (pids[k] > 0)
			continue;
		if (store_open(tpath("race/new.db"), STORE_OPEN_CREATE |
		    STORE_OPEN_MIGRATE, &st, err, sizeof err) != 0) {
			fprintf(stderr, "child %d: %s\n", k, err);
			_exit(1);
		}
		store_close(st);
		_exit(0);
	}
	for (k = 0; k < 4; k++) {
		assert_int_equal(waitpid(pids[k], &status, 0), pids[k]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	st = open_new("race/new.db");
	assert_int_equal(store_schema_version(st, &v, err, sizeof err), 0);
	assert_int_equal(v, store_schema_latest());
	assert_int_equal(store_check(st, err, sizeof err), 0);
	store_close(st);
}

/* A controller dies with jobs running: --resume puts them back. */
static void
test_resume_reset(void **state)
{
	struct store		*st;
	struct store_job	 j, *list;
	int64_t			 run, n;
	size_t			 nlist;

	(void)state;
	st = open_new("resume.db");
	run = new_run(st);
	add_jobs(st, run, 4);
	assert_int_equal(store_job_claim(st, run, "em", "dead:1", &j, err,
	    sizeof err), 1);
	finish(st, j.id, STORE_JOB_DONE, 5);
	assert_int_equal(store_job_claim(st, run, "em", "dead:1", &j, err,
	    sizeof err), 1);
	assert_int_equal(store_job_claim(st, run, "bce", "dead:1", &j, err,
	    sizeof err), 1);
	store_close(st);	/* the crash */

	assert_int_equal(store_open(tpath("resume.db"), STORE_OPEN_MIGRATE,
	    &st, err, sizeof err), 0);
	assert_int_equal(store_job_list(st, run, STORE_JOB_RUNNING, &list,
	    &nlist, err, sizeof err), 0);
	assert_int_equal(nlist, 2);	/* the hosts to restore */
	assert_string_equal(list[0].owner, "dead:1");
	free(list);
	assert_int_equal(store_run_set_owner(st, run, "new:2", NULL, err,
	    sizeof err), 0);
	assert_int_equal(store_run_reset_running(st, run, &n, err, sizeof err),
	    0);
	assert_int_equal(n, 2);
	assert_int_equal(store_job_list(st, run, STORE_JOB_RUNNING, &list,
	    &nlist, err, sizeof err), 0);
	assert_int_equal(nlist, 0);
	free(list);
	/* Claimed again in order, attempt counted, the done job untouched. */
	assert_int_equal(store_job_claim(st, run, NULL, "new:2", &j, err,
	    sizeof err), 1);
	assert_int_equal(j.seq, 1);
	assert_int_equal(j.attempt, 2);
	assert_non_null(strstr(j.reason, "interrupted"));
	assert_int_equal(store_job_get(st, 1, &j, err, sizeof err), 1);
	assert_int_equal(j.state, STORE_JOB_DONE);
	assert_int_equal(raw_sql(tpath("resume.db"), "SELECT COUNT(*) FROM "
	    "samples"), 3);
	store_close(st);
}

static void
test_validation(void **state)
{
	struct store		*st;
	struct store_job_spec	 s[2];
	struct store_job	 j;
	struct store_sample	 smp = { "throughput_bps", 0, "bit/s", 0 };
	struct store_job_result	 r = { .state = STORE_JOB_DONE,
				    .samples = &smp, .nsamples = 1 };
	char			 longname[STORE_NAME_MAX + 8];
	int64_t			 run;

	(void)state;
	st = open_new("valid.db");
	run = new_run(st);
	memset(s, 0, sizeof s);
	s[0].link = s[1].link = "em";
	s[0].tool = s[1].tool = "iperf3";
	knobs(&s[0].knobs, 1, 1500, "off");
	knobs(&s[1].knobs, 1, 100, NULL);
	assert_fails(store_jobs_add(st, run, s, 2, err, sizeof err),
	    "job 1: mtu 100 is not in 576-65535");
	knobs(&s[1].knobs, 2, 1500, NULL);
	assert_fails(store_jobs_add(st, run, s, 2, err, sizeof err),
	    "knob value 2");
	knobs(&s[1].knobs, 1, 1500, NULL);
	s[1].knobs.set |= 1u << KNOB_NAT;	/* no NAT mode has number 7 */
	s[1].knobs.value[KNOB_NAT] = 7;
	assert_fails(store_jobs_add(st, run, s, 2, err, sizeof err),
	    "nat 7");
	knobs(&s[1].knobs, 1, 1500, NULL);
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	s[1].link = longname;
	assert_fails(store_jobs_add(st, run, s, 2, err, sizeof err),
	    "is longer than 63 bytes");
	/* Refused by SQL after the first row went in: all or nothing. */
	s[1].link = "em";
	s[1].tool = "netperf";
	assert_fails(store_jobs_add(st, run, s, 2, err, sizeof err),
	    "CHECK constraint failed");
	assert_int_equal(raw_sql(tpath("valid.db"), "SELECT COUNT(*) FROM "
	    "jobs"), 0);

	s[1].tool = "scp";
	assert_int_equal(store_jobs_add(st, run, s, 2, err, sizeof err), 0);
	assert_int_equal(store_job_claim(st, run, NULL, "w", &j, err,
	    sizeof err), 1);
	assert_string_equal(j.knobs_key, "mtu=1500,nat=off,tso=on");
	smp.value = 0.0 / 0.0;
	assert_fails(store_job_finish(st, j.id, &r, err, sizeof err),
	    "sample throughput_bps");
	smp.value = 1;
	smp.metric = "";
	assert_fails(store_job_finish(st, j.id, &r, err, sizeof err),
	    "metric is missing");
	assert_int_equal(store_job_get(st, j.id, &j, err, sizeof err), 1);
	assert_int_equal(j.state, STORE_JOB_RUNNING);
	assert_int_equal(raw_sql(tpath("valid.db"), "SELECT COUNT(*) FROM "
	    "samples"), 0);
	store_close(st);
}

static void
test_runs(void **state)
{
	struct store		*st;
	struct store_run	 run, *runs;
	size_t			 n;
	int64_t			 a, b;

	(void)state;
	st = open_new("runs.db");
	a = new_run(st);
	b = new_run(st);
	assert_int_equal(store_run_get(st, a, &run, err, sizeof err), 1);
	assert_int_equal(run.state, STORE_RUN_RUNNING);
	assert_string_equal(run.kind, "manual");
	assert_string_equal(run.owner, "test:1");
	assert_string_equal(run.inventory_text, "{}");
	assert_int_equal(run.finished_at, 0);
	store_run_free(&run);
	assert_int_equal(store_run_get(st, 42, &run, err, sizeof err), 0);
	assert_int_equal(store_run_finish(st, a, STORE_RUN_FAILED,
	    "2 jobs failed", err, sizeof err), 0);
	assert_fails(store_run_finish(st, 42, STORE_RUN_DONE, NULL, err,
	    sizeof err), "no run 42");
	assert_int_equal(store_run_list(st, 0, &runs, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(runs[0].id, b);
	assert_int_equal(runs[1].state, STORE_RUN_FAILED);
	assert_string_equal(runs[1].reason, "2 jobs failed");
	assert_true(runs[1].finished_at >= runs[1].created_at);
	assert_null(runs[1].plan_text);
	store_runs_free(runs, n);
	assert_int_equal(store_run_list(st, 1, &runs, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	store_runs_free(runs, n);
	assert_string_equal(store_run_state_name(STORE_RUN_CANCELLED),
	    "cancelled");
	assert_string_equal(store_job_state_name(STORE_JOB_RUNNING),
	    "running");
	store_close(st);
}

/*
 * A run of 8 jobs (em/bce x tso off/on x 2 repetitions), job 1 failed, the
 * others done with one throughput sample each (100 + their index) and a
 * raw output; em jobs ran under the facts *fidp.
 */
static struct store *
samples_run(int64_t *runp, int64_t *fidp)
{
	struct store			*st;
	struct store_job		 j;
	struct store_host_facts		 f = { .host = "em-a", .os = "freebsd",
					    .revision = "r200", .driver = "em",
					    .chip = "0x10968086",
					    .knobs = "mtu=1500,tso=on",
					    .facts_json = "{}" };
	struct store_raw		 raw = { "client.stdout", "a\0b", 3, 1 };
	struct store_sample		 smp = { "throughput_bps", 0, "bit/s",
					    0 };
	struct store_job_result		 r = { .state = STORE_JOB_DONE,
					    .samples = &smp, .nsamples = 1,
					    .raws = &raw, .nraws = 1 };
	int64_t				 hid, hid2;
	int				 k;

	st = open_new("samples.db");
	*runp = new_run(st);
	assert_int_equal(store_host_facts_add(st, *runp, &f, fidp, err,
	    sizeof err), 0);
	assert_int_equal(store_host_upsert(st, "em-a", NULL, "192.0.2.11",
	    &hid, err, sizeof err), 0);
	assert_int_equal(store_host_upsert(st, "em-a", "freebsd", NULL,
	    &hid2, err, sizeof err), 0);
	assert_int_equal(hid, hid2);
	add_jobs(st, *runp, 8);
	for (k = 0; k < 8; k++) {
		assert_int_equal(store_job_claim(st, *runp, NULL, "w", &j, err,
		    sizeof err), 1);
		if (k == 0) {
			finish(st, j.id, STORE_JOB_FAILED, 1);
			continue;
		}
		smp.value = 100 + k;
		r.client_facts_id = j.link[0] == 'e' ? *fidp : 0;
		r.knobs_in_force = j.knobs_key;
		if (store_job_finish(st, j.id, &r, err, sizeof err) != 0)
			fail_msg("%s", err);
	}
	return st;
}

static void
test_samples_query(void **state)
{
	struct store		*st;
	struct store_series	*ser;
	size_t			 nser;
	int64_t			 run, fid;

	(void)state;
	st = samples_run(&run, &fid);
	assert_int_equal(store_samples_query(st, run, "throughput_bps", &ser,
	    &nser, err, sizeof err), 0);
	/* bce tso off/on, em tso off/on; the failed job 1 is left out. */
	assert_int_equal(nser, 4);
	assert_string_equal(ser[0].link, "bce");
	assert_string_equal(ser[0].revision, "");
	assert_int_equal(ser[0].n, 2);
	assert_true(ser[0].values[0] == 101 && ser[0].values[1] == 105);
	assert_int_equal(ser[0].job_ids[1], 6);
	assert_string_equal(ser[1].knobs_key, "mtu=9000,tso=on");
	assert_int_equal(knobs_get(&ser[1].knobs, KNOB_TSO), 1);
	assert_true(ser[1].values[0] == 103 && ser[1].values[1] == 107);
	assert_string_equal(ser[2].link, "em");
	assert_string_equal(ser[2].revision, "r200");
	assert_string_equal(ser[2].unit, "bit/s");
	assert_int_equal(ser[2].n, 1);		/* job 1 failed */
	assert_true(ser[2].values[0] == 104);
	assert_int_equal(ser[3].n, 2);
	store_series_free(ser, nser);

	store_close(st);
}

static void
test_samples_facts_raw(void **state)
{
	struct store			*st;
	struct store_job		 j;
	struct store_series		*ser;
	char				*data, **metrics;
	size_t				 nser, len, nm, i;
	int64_t				 run, fid;

	(void)state;
	st = samples_run(&run, &fid);
	/* All metrics: retransmits of the failed job only, so 4 groups. */
	assert_int_equal(store_samples_query(st, run, NULL, &ser, &nser, err,
	    sizeof err), 0);
	assert_int_equal(nser, 4);
	for (i = 0; i < nser; i++)
		assert_string_equal(ser[i].metric, "throughput_bps");
	store_series_free(ser, nser);
	assert_int_equal(store_run_metrics(st, run, &metrics, &nm, err,
	    sizeof err), 0);
	assert_int_equal(nm, 2);
	assert_string_equal(metrics[0], "retransmits");
	for (i = 0; i < nm; i++)
		free(metrics[i]);
	free(metrics);

	assert_int_equal(store_raw_get(st, 2, "client.stdout", &data, &len,
	    err, sizeof err), 1);
	assert_int_equal(len, 3);
	assert_memory_equal(data, "a\0b", 3);
	free(data);
	assert_int_equal(store_raw_get(st, 2, "nope", &data, &len, err,
	    sizeof err), 0);
	assert_int_equal(raw_sql(tpath("samples.db"), "SELECT truncated FROM "
	    "raw_outputs WHERE job_id = 2"), 1);
	assert_int_equal(raw_sql(tpath("samples.db"), "SELECT COUNT(*) FROM "
	    "jobs WHERE knobs_in_force = knobs"), 7);
	assert_int_equal(store_job_get(st, 3, &j, err, sizeof err), 1);
	assert_string_equal(j.knobs_in_force, "mtu=9000,tso=on");
	assert_int_equal(j.client_facts_id, fid);
	assert_int_equal(j.server_facts_id, 0);
	{
		struct store_sample_row	*rows;
		size_t			 nrows;

		/* The failed job 1: its three samples, per-second one too. */
		assert_int_equal(store_job_samples(st, 1, &rows, &nrows, err,
		    sizeof err), 0);
		assert_int_equal(nrows, 3);
		assert_string_equal(rows[0].metric, "retransmits");
		assert_string_equal(rows[2].unit, "bit/s");
		assert_int_equal(rows[2].interval, 1);
		assert_true(rows[2].value == 2);
		free(rows);
	}
	store_close(st);
}

static void
test_bisect(void **state)
{
	struct store			*st;
	struct store_bisect_spec	 spec = { .link = "em",
					    .knobs = "mtu=9000,tso=on",
					    .tool = "iperf2", .params = "-t 30",
					    .metric = "throughput_bps",
					    .good = "r100", .bad = "r200",
					    .revisions = "r100\nr150\nr200\n" };
	struct store_bisect		 b, *bs;
	struct store_bisect_step	 step, *steps;
	size_t				 n;
	int64_t				 bid, run;

	(void)state;
	st = open_new("bisect.db");
	assert_int_equal(store_bisect_create(st, &spec, &bid, err, sizeof err),
	    0);
	/* Nothing known of the hosts until the driver asked them. */
	assert_int_equal(store_bisect_get(st, bid, &b, err, sizeof err), 1);
	assert_null(b.client_before);
	assert_null(b.server_before);
	store_bisect_free(&b);
	assert_int_equal(store_bisect_set_before(st, bid, "r100", NULL, err,
	    sizeof err), 0);
	assert_int_equal(store_bisect_get(st, bid, &b, err, sizeof err), 1);
	assert_string_equal(b.client_before, "r100");
	assert_null(b.server_before);
	store_bisect_free(&b);
	assert_int_equal(store_bisect_set_before(st, 77, "r1", "r1", err,
	    sizeof err), -1);
	memset(&step, 0, sizeof step);
	snprintf(step.revision, sizeof step.revision, "r150");
	assert_int_equal(store_bisect_step_add(st, bid, &step, &step.id, err,
	    sizeof err), 0);
	run = new_run(st);
	step.run_id = run;
	snprintf(step.verdict, sizeof step.verdict, "bad");
	step.n = 5;
	step.median = 769e6;
	step.baseline_median = 933e6;
	step.ratio = 769.0 / 933.0;
	step.p = 0.008;
	assert_int_equal(store_bisect_step_update(st, &step, err, sizeof err),
	    0);
	snprintf(step.verdict, sizeof step.verdict, "maybe");
	assert_fails(store_bisect_step_update(st, &step, err, sizeof err),
	    "bad verdict");
	snprintf(step.revision, sizeof step.revision, "r125");
	step.verdict[0] = '\0';
	step.run_id = 0;
	assert_int_equal(store_bisect_step_add(st, bid, &step, NULL, err,
	    sizeof err), 0);
	assert_int_equal(store_bisect_steps(st, bid, &steps, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(steps[0].revision, "r150");
	assert_string_equal(steps[0].verdict, "bad");
	assert_int_equal(steps[0].run_id, run);
	assert_true(steps[0].p == 0.008);
	assert_int_equal(steps[1].seq, 1);
	assert_string_equal(steps[1].verdict, "");
	free(steps);

	assert_int_equal(store_bisect_update(st, bid, "done", "r150", 0.99,
	    NULL, err, sizeof err), 0);
	assert_fails(store_bisect_update(st, bid, "paused", NULL, 0, NULL, err,
	    sizeof err), "bad state");
	assert_int_equal(store_bisect_get(st, 0, &b, err, sizeof err), 1);
	assert_int_equal(b.id, bid);
	assert_string_equal(b.state, "done");
	assert_string_equal(b.culprit, "r150");
	assert_string_equal(b.revisions, "r100\nr150\nr200\n");
	assert_true(b.finished_at > 0);
	store_bisect_free(&b);
	assert_int_equal(store_bisect_list(st, &bs, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	store_bisects_free(bs, n);
	assert_int_equal(store_bisect_get(st, 77, &b, err, sizeof err), 0);

	store_close(st);
}

/* store_check finds what integrity_check and foreign_key_check find. */
static void
test_check_damage(void **state)
{
	struct store	*st;
	sqlite3		*db;

	(void)state;
	st = open_new("damage.db");
	store_close(st);
	assert_int_equal(sqlite3_open(tpath("damage.db"), &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_keys = OFF; "
	    "INSERT INTO samples (job_id, metric, value) VALUES (42, 'x', 1)",
	    NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(tpath("damage.db"), STORE_OPEN_READONLY,
	    &st, err, sizeof err), 0);
	assert_int_equal(store_check(st, err, sizeof err), 1);
	assert_non_null(strstr(err, "foreign_key_check"));
	store_close(st);
}

/* Garbage over a b-tree page: integrity_check says so. */
static void
test_check_corrupt(void **state)
{
	struct store	*st;
	struct stat	 sb;
	FILE		*fp;
	char		 junk[200];
	int64_t		 run;

	(void)state;
	st = open_new("corrupt.db");
	run = new_run(st);
	add_jobs(st, run, 3000);
	store_close(st);	/* checkpoints the WAL into the file */
	assert_int_equal(stat(tpath("corrupt.db"), &sb), 0);
	assert_true(sb.st_size > 100 * 4096);
	memset(junk, 0xff, sizeof junk);
	assert_non_null(fp = fopen(tpath("corrupt.db"), "r+b"));
	assert_int_equal(fseek(fp, (long)sb.st_size - 3 * 4096 + 100,
	    SEEK_SET), 0);
	assert_int_equal(fwrite(junk, 1, sizeof junk, fp), sizeof junk);
	fclose(fp);
	assert_int_equal(store_open(tpath("corrupt.db"), STORE_OPEN_READONLY,
	    &st, err, sizeof err), 0);
	assert_int_equal(store_check(st, err, sizeof err), 1);
	assert_non_null(strstr(err, "PRAGMA integrity_check: "));
	assert_null(strchr(err, '\n'));
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knobs_key),
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_open_creates_dirs),
		T(test_future_version_refused),
		T(test_future_version_in_wal),
		T(test_migrate_fixtures),
		T(test_state_machine),
		T(test_fail_and_cancel),
		T(test_claim_order),
		T(test_claim_concurrent),
		T(test_migrate_concurrent),
		T(test_resume_reset),
		T(test_validation),
		T(test_runs),
		T(test_samples_query),
		T(test_samples_facts_raw),
		T(test_bisect),
		T(test_check_damage),
		T(test_check_corrupt),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
