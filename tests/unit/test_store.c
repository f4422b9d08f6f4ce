/*
 * test_store: the SQLite store on real files in a temporary directory:
 * creation, migrations from every older version's fixture (also by several
 * processes at once), refusal of a newer schema, and `db check` on a damaged
 * or corrupt file.  The job state machine, claims, resume, validation,
 * runs, samples, facts, raw output and bisects are test_store_jobs.c;
 * schedules test_store_sched.c.
 *
 * sqlite3.h is used here only to build fixture files and to look behind
 * the store's back; the code under test is store.c.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <unistd.h>

#include "store_daemon.h"
#include "store_file_fixture.h"

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

/*
 * v14.sql's stored test and queue item through 0015: a bisect without a
 * stored test is settled (it cannot be told), one with it is not yet
 * (the list settles it); the rebuilt queue keeps its item and takes the
 * new kind.
 */
static void
check_fixture_v14(struct store *st)
{
	struct store_bisect	*bs;
	struct store_q_item	 it;
	size_t			 n;

	assert_int_equal(store_bisect_page(st, 0, 0, &bs, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(bs[0].id, 2);
	assert_int_equal(bs[0].judged, -1);
	assert_non_null(strstr(bs[0].test_text, "\"threshold\": 0.91"));
	assert_int_equal(bs[1].id, 1);
	assert_int_equal(bs[1].judged, 0);
	store_bisects_free(bs, n);
	assert_int_equal(store_q_get(st, 1, &it, err, sizeof err), 1);
	assert_int_equal(it.kind, STORE_Q_BISECT);
	assert_int_equal(it.state, STORE_Q_DONE);
	assert_int_equal(it.bisect_id, 1);
	assert_string_equal(it.result, "bisect 1: found");
	store_q_item_free(&it);
	assert_int_equal(store_q_add(st, STORE_Q_RESET, 0, "{\"bisect\": 2}",
	    "test", 0, 0, NULL, NULL, err, sizeof err), 0);
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
		if (v >= 14)
			check_fixture_v14(st);
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
		T(test_migrate_concurrent),
		T(test_check_damage),
		T(test_check_corrupt),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
