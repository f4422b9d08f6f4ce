/*
 * test_hunt_store: a bisect whose store fails under it.  Another process
 * takes the database's write lock (BEGIN IMMEDIATE) during a step and
 * keeps it past the busy budget (LABRAT_DB_BUSY_TIMEOUT=1): the bisect
 * ends HUNT_INTERRUPTED (exit 1) with a message naming the lock and what
 * to do; the store refused the interrupted mark as well, so it stays
 * "running" under this process as owner.  Released, `bisect resume`
 * continues it to the culprit, with the owner checked (this process: it
 * may).  Then a bisect owned by a live other process is refused, naming
 * it.
 *
 * sqlite3.h is used only to hold the write lock from a child process.
 */
#include <signal.h>
#include <sqlite3.h>

#include "hunt_fake.h"

/* No two steps share a run: nothing measured twice. */
static void
assert_no_repeat(const struct store_bisect_step *rows, size_t n)
{
	size_t	i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_true(rows[i].run_id != rows[j].run_id);
}

static int	lock_at;	/* the measure call after which to lock */
static pid_t	locker;

/* A child holding the write lock of db until it is killed. */
static pid_t
hold_lock(const char *db)
{
	sqlite3	*h;
	int	 p[2];
	pid_t	 pid;
	char	 c = 0;

	assert_int_equal(pipe(p), 0);
	if ((pid = fork()) == 0) {
		close(p[0]);
		if (sqlite3_open(db, &h) != SQLITE_OK ||
		    sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL,
		    NULL) != SQLITE_OK)
			_exit(1);
		(void)write(p[1], "l", 1);
		for (;;)
			pause();
	}
	close(p[1]);
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	return pid;
}

static int
locking_measure(void *arg, const struct hunt_lab *lab, int64_t run_id,
    int *stopped, char *err, size_t errlen)
{
	struct fake	*f = arg;
	int		 rc;

	rc = fake_measure(arg, lab, run_id, stopped, err, errlen);
	if (f->measures == lock_at)
		locker = hold_lock(lab->db_path);
	return rc;
}

static const struct hunt_lab_ops locking_ops = {
	.install = fake_install,
	.measure = locking_measure,
};

static void
t_locked_then_resumed(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	size_t				 n;
	int64_t				 id;
	int				 status;
	char				 err[2048] = "";

	setenv("LABRAT_DB_BUSY_TIMEOUT", "1", 1);
	x->o.lab = &locking_ops;
	lock_at = 3;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_INTERRUPTED);
	assert_true(locker > 0);
	assert_non_null(strstr(err, "database is locked (for more than 1.0 s"));
	assert_non_null(strstr(err, "let the process that holds the "
	    "database lock finish"));
	kill(locker, SIGKILL);
	assert_int_equal(waitpid(locker, &status, 0), locker);
	stored(x, id, &b, &rows, &n);
	/* The lock refused the mark too: "running", owned by this process
	 * (once it is gone it reads as interrupted). */
	assert_string_equal(b.state, "running");
	assert_int_equal(b.who.pid, getpid());
	/* How its steps are judged went in with the row (the test's 0.91,
	 * higher is better): no list has to parse its test. */
	assert_int_equal(b.judged, 1);
	assert_true(b.threshold == 0.91);
	assert_int_equal(b.lower_is_better, 0);
	free(rows);
	store_bisect_free(&b);

	lock_at = 0;
	assert_int_equal(hunt_resume(&x->o, id, NULL, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.state, "done");
	assert_string_equal(b.culprit, "r110");
	assert_no_repeat(rows, n);
	free(rows);
	store_bisect_free(&b);
	unsetenv("LABRAT_DB_BUSY_TIMEOUT");
}

/* A bisect a live process owns is not taken over. */
static void
t_live_owner_refused(void **state)
{
	struct fx		*x = *state;
	struct hunt_request	 rq;
	struct store_owner	 who;
	struct store		*st;
	struct store_bisect	 b;
	struct store_bisect_step *rows;
	size_t			 n;
	int64_t			 id;
	int			 status;
	char			 err[2048] = "", text[160], want[256];
	pid_t			 pid;

	x->lab.lost = 107;	/* ends interrupted: resumable */
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_INTERRUPTED);
	x->lab.lost = 0;
	if ((pid = fork()) == 0) {
		for (;;)
			pause();
	}
	store_owner_self(&who);
	who.pid = pid;
	assert_int_equal(store_owner_proc_start(pid, &who.start), 0);
	assert_int_equal(store_open(x->db, 0, &st, err, sizeof err), 0);
	assert_int_equal(store_bisect_set_owner(st, id, &who, err,
	    sizeof err), 0);
	assert_int_equal(store_bisect_update(st, id, "running", NULL, 0, "",
	    err, sizeof err), 0);
	store_close(st);
	assert_int_equal(hunt_resume(&x->o, id, NULL, err, sizeof err),
	    HUNT_ERROR);
	store_owner_text(&who, text, sizeof text);
	snprintf(want, sizeof want, "bisect %lld is still running: %s",
	    (long long)id, text);
	assert_non_null(strstr(err, want));
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* Its owner gone: resumed to the end. */
	assert_int_equal(hunt_resume(&x->o, id, NULL, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.culprit, "r110");
	free(rows);
	store_bisect_free(&b);
}

/* A bisect row with neither its test's text nor its path (hand-written,
 * or from a store no labrat wrote): shown with a stand-in, resumed with
 * an error naming it, never a crash. */
static void
t_no_test_stored(void **state)
{
	struct fx	*x = *state;
	struct store	*st;
	sqlite3		*h;
	char		 err[2048] = "", *text = NULL;
	size_t		 len = 0;
	FILE		*fp;

	assert_int_equal(store_open(x->db, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	store_close(st);
	assert_int_equal(sqlite3_open(x->db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "INSERT INTO bisects (created_at, "
	    "link, knobs, tool, metric, good, bad, revisions) VALUES "
	    "(1700000000000, 'em', 'tso=on', 'iperf3', 'throughput_bps', "
	    "'r1', 'r3', 'r1\tone\nr2\ttwo\nr3\tthree')", NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(h);
	assert_non_null(fp = open_memstream(&text, &len));
	assert_int_equal(hunt_show(x->db, 0, HUNT_SHOW_STATUS, 0, fp, err,
	    sizeof err), 0);
	fclose(fp);
	assert_non_null(strstr(text, "bisect 1: running; link em, tso=on, "
	    "throughput_bps (no test stored); r1..r3 (3 revisions)"));
	free(text);
	/* Its JSON cannot say how a step is judged. */
	text = NULL;
	assert_non_null(fp = open_memstream(&text, &len));
	assert_int_equal(hunt_show(x->db, 1, HUNT_SHOW_STATUS, 1, fp, err,
	    sizeof err), 0);
	fclose(fp);
	assert_non_null(strstr(text, "\"revisions\":3,\"threshold\":null,"
	    "\"lower_is_better\":null,"));
	free(text);
	assert_int_equal(hunt_resume(&x->o, 1, NULL, err, sizeof err),
	    HUNT_CONFIG);
	assert_non_null(strstr(err, "bisect 1 stores neither its test nor "
	    "the path of its test file"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_locked_then_resumed, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_live_owner_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_no_test_stored, setup,
		    teardown),
	};

	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
