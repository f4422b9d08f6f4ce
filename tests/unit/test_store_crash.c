/*
 * test_store_crash: a process killed in the middle of store_job_finish()
 * leaves no half-recorded job.  A child finishes a running job with many
 * samples and a large raw output; the store's test hook stops it half-way
 * through the sample rows (after SQLite has already spilled uncommitted
 * pages to the WAL), the parent SIGKILLs it, reopens the file and finds the
 * job still running with nothing recorded, the database intact, and the job
 * still finishable.  The same is checked for a kill right after the commit.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <signal.h>
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

#define NSAMPLES	60000
#define KILL_AT		40000
#define RAW_LEN		(3 * 1024 * 1024)

static char	tmpdir[256], dbpath[300], walpath[320];
static char	err[1024];
static int	hook_fd = -1;

static int
setup(void **state)
{
	(void)state;
	if (fx_tmpdir(tmpdir, sizeof tmpdir, "crash") == -1)
		return -1;
	snprintf(dbpath, sizeof dbpath, "%s/labrat.db", tmpdir);
	snprintf(walpath, sizeof walpath, "%s-wal", dbpath);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_rmtree(tmpdir);
	return 0;
}

static long long
count(const char *sql)
{
	sqlite3		*db;
	sqlite3_stmt	*stmt;
	long long	 v = -1;

	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL),
	    SQLITE_OK);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return v;
}

/* A run with one job, claimed (running); returns the job id. */
static int64_t
prepare(void)
{
	struct store		*st;
	struct store_run_spec	 rs = { .kind = "manual" };
	struct store_job_spec	 js = { .link = "em", .tool = "iperf2",
				    .params = "-t 30" };
	struct store_job	 j;
	int64_t			 run;

	assert_int_equal(store_open(dbpath, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	assert_int_equal(store_run_create(st, &rs, &run, err, sizeof err), 0);
	knobs_clear(&js.knobs);
	knobs_set(&js.knobs, KNOB_TSO, 1);
	knobs_set(&js.knobs, KNOB_MTU, 9000);
	assert_int_equal(store_jobs_add(st, run, &js, 1, err, sizeof err), 0);
	assert_int_equal(store_job_claim(st, run, "em", "child", &j, err,
	    sizeof err), 1);
	store_close(st);
	return j.id;
}

/* Tells the parent where the child is, then waits to be killed. */
static void
stop_hook(void *arg, const char *where, size_t i)
{
	char	c = 's';

	(void)arg;
	if (strcmp(where, "sample") != 0 || i != KILL_AT)
		return;
	if (write(hook_fd, &c, 1) != 1)
		_exit(5);
	for (;;)
		pause();
}

/* The child: finish job_id with everything; stop where the hook says. */
static void
child_finish(int64_t job_id, int fd, int hooked)
{
	struct store		*st;
	struct store_sample	*s;
	struct store_raw	 raw = { .name = "client.stdout" };
	struct store_job_result	 r = { .state = STORE_JOB_DONE };
	char			*data, c = 'c';
	size_t			 i;

	if (store_open(dbpath, 0, &st, err, sizeof err) != 0)
		_exit(2);
	s = xcalloc(NSAMPLES, sizeof *s);
	for (i = 0; i < NSAMPLES; i++) {
		s[i].metric = "throughput_bps";
		s[i].value = 769e6 + (double)i;
		s[i].unit = "bit/s";
		s[i].interval = (int)(i % 31);
	}
	data = xmalloc(RAW_LEN);
	memset(data, 'x', RAW_LEN);
	raw.data = data;
	raw.len = RAW_LEN;
	r.samples = s;
	r.nsamples = NSAMPLES;
	r.raws = &raw;
	r.nraws = 1;
	hook_fd = fd;
	if (hooked)
		store_set_test_hook(st, stop_hook, NULL);
	if (store_job_finish(st, job_id, &r, err, sizeof err) != 0)
		_exit(3);
	/* Committed: say so, then wait for the kill without closing. */
	if (write(fd, &c, 1) != 1)
		_exit(5);
	for (;;)
		pause();
}

static pid_t
spawn(int64_t job_id, int hooked, char *said)
{
	int	fds[2];
	pid_t	pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		child_finish(job_id, fds[1], hooked);
	}
	close(fds[1]);
	if (read(fds[0], said, 1) != 1)
		*said = '?';
	close(fds[0]);
	return pid;
}

static void
kill_child(pid_t pid)
{
	int	status;

	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

static void
test_kill_mid_transaction(void **state)
{
	struct store		*st;
	struct store_job	 j;
	struct stat		 sb;
	struct store_sample	 s = { "throughput_bps", 933e6, "bit/s", 0 };
	struct store_job_result	 r = { .state = STORE_JOB_DONE,
				    .samples = &s, .nsamples = 1 };
	int64_t			 job;
	char			 said;
	pid_t			 pid;

	(void)state;
	job = prepare();
	pid = spawn(job, 1, &said);
	assert_int_equal(said, 's');
	/* Uncommitted pages already reached the disk: the kill is real. */
	assert_int_equal(stat(walpath, &sb), 0);
	assert_true(sb.st_size > 1024 * 1024);
	print_message("killed with %lld bytes of uncommitted WAL\n",
	    (long long)sb.st_size);
	kill_child(pid);

	assert_int_equal(store_open(dbpath, 0, &st, err, sizeof err), 0);
	assert_int_equal(store_check(st, err, sizeof err), 0);
	assert_int_equal(store_job_get(st, job, &j, err, sizeof err), 1);
	assert_int_equal(j.state, STORE_JOB_RUNNING);
	assert_int_equal(j.attempt, 1);
	assert_int_equal(j.finished_at, 0);
	assert_int_equal(count("SELECT COUNT(*) FROM samples"), 0);
	assert_int_equal(count("SELECT COUNT(*) FROM raw_outputs"), 0);
	/* And the job can still be recorded, once. */
	assert_int_equal(store_job_finish(st, job, &r, err, sizeof err), 0);
	store_close(st);
	assert_int_equal(count("SELECT COUNT(*) FROM samples"), 1);
	assert_int_equal(count("SELECT state = 'done' FROM jobs"), 1);
}

static void
test_kill_after_commit(void **state)
{
	struct store		*st;
	struct store_job	 j;
	int64_t			 job;
	char			 said;
	pid_t			 pid;

	(void)state;
	job = prepare();
	pid = spawn(job, 0, &said);
	assert_int_equal(said, 'c');
	kill_child(pid);

	assert_int_equal(store_open(dbpath, 0, &st, err, sizeof err), 0);
	assert_int_equal(store_check(st, err, sizeof err), 0);
	assert_int_equal(store_job_get(st, job, &j, err, sizeof err), 1);
	assert_int_equal(j.state, STORE_JOB_DONE);
	store_close(st);
	assert_int_equal(count("SELECT COUNT(*) FROM samples"), NSAMPLES);
	assert_int_equal(count("SELECT length(data) FROM raw_outputs"),
	    RAW_LEN);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kill_mid_transaction,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_kill_after_commit,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
