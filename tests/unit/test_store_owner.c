/*
 * test_store_owner: the owner of a run or a bisect and the one liveness
 * check (a forked child alive, then exited: a zombie and a reaped one; a
 * pid whose start time differs, as when it was reused; another host), the
 * interrupted state (running jobs queued again in the same transaction,
 * then taken over again), and the busy budget: a write lock held by
 * another connection fails a write after the budget, with a fault that
 * says so, and the write succeeds once it is released.
 *
 * sqlite3.h is used only to hold the write lock from a second connection.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store_fixture.h"

static char	dbpath[256];
static char	err[512];

static struct store *
db_open(void)
{
	struct store	*st = NULL;

	fx_db_path(dbpath, sizeof dbpath, "store-owner");
	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		fail_msg("%s", err);
	return st;
}

static void
db_close(struct store *st)
{
	store_close(st);
	fx_db_remove(dbpath);
}

static int64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A child blocked reading fd until its parent closes the other end. */
static pid_t
child_waiting(int *wfd)
{
	int	p[2];
	pid_t	pid;
	char	c;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[1]);
		(void)read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	*wfd = p[1];
	return pid;
}

static void
test_self(void **state)
{
	struct store_owner	o;

	(void)state;
	store_owner_self(&o);
	assert_int_equal(o.pid, getpid());
	assert_true(o.host[0] != '\0');
	assert_true(o.start > 0);	/* /proc is there on Linux */
	assert_true(o.since > 0);
	assert_int_equal(store_owner_state(&o), STORE_OWNER_ALIVE);
}

/* A child that lives, then exits: gone as a zombie already, and reaped. */
static void
test_child_alive_then_gone(void **state)
{
	struct store_owner	o;
	int			wfd, status;
	pid_t			pid;

	(void)state;
	pid = child_waiting(&wfd);
	store_owner_self(&o);
	o.pid = pid;
	assert_int_equal(store_owner_proc_start(pid, &o.start), 0);
	assert_true(o.start > 0);
	assert_int_equal(store_owner_state(&o), STORE_OWNER_ALIVE);
	close(wfd);	/* the child exits */
	/* Not reaped yet: a zombie, which has exited all the same. */
	while (store_owner_state(&o) == STORE_OWNER_ALIVE)
		usleep(1000);
	assert_int_equal(store_owner_state(&o), STORE_OWNER_GONE);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(store_owner_state(&o), STORE_OWNER_GONE);
	assert_int_equal(store_owner_proc_start(pid, &o.start), -1);
}

/* A live pid with another start time is another process: gone. */
static void
test_pid_reused(void **state)
{
	struct store_owner	o;
	int			wfd, status;
	pid_t			pid;

	(void)state;
	pid = child_waiting(&wfd);
	store_owner_self(&o);
	o.pid = pid;
	assert_int_equal(store_owner_proc_start(pid, &o.start), 0);
	o.start -= 1;	/* the owner that had this pid started earlier */
	assert_int_equal(store_owner_state(&o), STORE_OWNER_GONE);
	/* Start unknown (an owner of before schema 7): the pid decides. */
	o.start = 0;
	assert_int_equal(store_owner_state(&o), STORE_OWNER_ALIVE);
	close(wfd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(store_owner_state(&o), STORE_OWNER_GONE);
}

static void
test_elsewhere_unknown_text(void **state)
{
	struct store_owner	o;
	char			text[128];

	(void)state;
	store_owner_self(&o);
	snprintf(o.host, sizeof o.host, "not-%s", "this-host.example");
	assert_int_equal(store_owner_state(&o), STORE_OWNER_ELSEWHERE);
	memset(&o, 0, sizeof o);
	assert_int_equal(store_owner_state(&o), STORE_OWNER_UNKNOWN);

	assert_int_equal(store_owner_parse("ctl1:4711", &o), 0);
	assert_string_equal(o.host, "ctl1");
	assert_int_equal(o.pid, 4711);
	assert_int_equal(o.start, 0);
	assert_int_equal(store_owner_parse("ctl1:4711:bisect", &o), 0);
	assert_int_equal(o.pid, 4711);
	assert_int_equal(store_owner_parse("ctl1", &o), -1);
	assert_int_equal(store_owner_parse("ctl1:x1", &o), -1);
	assert_int_equal(store_owner_parse(":1", &o), -1);
	assert_int_equal(store_owner_parse(NULL, &o), -1);

	memset(&o, 0, sizeof o);
	snprintf(o.host, sizeof o.host, "ctl1");
	o.pid = 4711;
	o.since = (int64_t)1764571260 * 1000;	/* 2025-12-01 06:41 UTC */
	store_owner_text(&o, text, sizeof text);
	assert_string_equal(text, "pid 4711 on ctl1 since 06:41 UTC");
}

static int64_t
new_run(struct store *st, const struct store_owner *who, int njobs)
{
	struct store_run_spec	spec;
	struct store_job_spec	job;
	int64_t			id;
	int			i;

	memset(&spec, 0, sizeof spec);
	spec.kind = "manual";
	spec.owner = "ctl:1";
	spec.who = who;
	assert_int_equal(store_run_create(st, &spec, &id, err, sizeof err), 0);
	for (i = 0; i < njobs; i++) {
		memset(&job, 0, sizeof job);
		job.link = "em";
		job.knobs = kn(i % 2, 0, NULL);
		job.tool = "iperf3";
		job.params = "time=1";
		job.repetition = i / 2;
		assert_int_equal(store_jobs_add(st, id, &job, 1, err,
		    sizeof err), 0);
	}
	return id;
}

/* running -> interrupted (its running jobs queued) -> running again. */
static void
test_interrupt_transitions(void **state)
{
	struct store		*st;
	struct store_owner	 me, other;
	struct store_run	 r;
	struct store_job	 j;
	struct store_counts	 c;
	int64_t			 id, n = -1;

	(void)state;
	st = db_open();
	store_owner_self(&me);
	id = new_run(st, &me, 4);
	assert_int_equal(store_run_get(st, id, &r, err, sizeof err), 1);
	assert_int_equal(r.state, STORE_RUN_RUNNING);
	assert_int_equal(r.who.pid, me.pid);
	assert_int_equal(r.who.start, me.start);
	assert_string_equal(r.who.host, me.host);
	assert_int_equal(r.who.since, me.since);
	store_run_free(&r);

	assert_int_equal(store_job_claim(st, id, NULL, "ctl:1", &j, err,
	    sizeof err), 1);
	assert_int_equal(store_job_claim(st, id, NULL, "ctl:1", &j, err,
	    sizeof err), 1);
	assert_int_equal(store_run_interrupt(st, id, "store error: full", &n,
	    err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(store_job_counts(st, id, NULL, &c, err, sizeof err),
	    0);
	assert_int_equal(c.n[STORE_JOB_QUEUED], 4);
	assert_int_equal(c.n[STORE_JOB_RUNNING], 0);
	assert_int_equal(store_job_get(st, j.id, &j, err, sizeof err), 1);
	assert_int_equal(j.attempt, 1);		/* kept, as a resume does */
	assert_string_equal(j.owner, "");
	assert_int_equal(store_run_get(st, id, &r, err, sizeof err), 1);
	assert_int_equal(r.state, STORE_RUN_INTERRUPTED);
	assert_string_equal(store_run_state_name(r.state), "interrupted");
	assert_string_equal(r.reason, "store error: full");
	assert_true(r.finished_at > 0);
	store_run_free(&r);

	/* Taken over: running again, under its new owner. */
	other = me;
	other.pid = 1;
	other.start = 7;
	assert_int_equal(store_run_set_owner(st, id, "ctl:2", &other, err,
	    sizeof err), 0);
	assert_int_equal(store_run_get(st, id, &r, err, sizeof err), 1);
	assert_int_equal(r.state, STORE_RUN_RUNNING);
	assert_int_equal(r.finished_at, 0);
	assert_int_equal(r.who.pid, 1);
	assert_int_equal(r.who.start, 7);
	assert_string_equal(r.owner, "ctl:2");
	store_run_free(&r);

	/* No such run: nothing changes, an error names it. */
	assert_int_equal(store_run_interrupt(st, id + 100, "x", NULL, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "no run"));
	/* A run created without parts reads them from its owner text. */
	id = new_run(st, NULL, 0);
	assert_int_equal(store_run_get(st, id, &r, err, sizeof err), 1);
	assert_string_equal(r.who.host, "ctl");
	assert_int_equal(r.who.pid, 1);
	store_run_free(&r);
	db_close(st);
}

static void
test_bisect_owner_state(void **state)
{
	struct store			*st;
	struct store_bisect_spec	 sp;
	struct store_bisect		 b;
	struct store_owner		 me;
	int64_t				 id;

	(void)state;
	st = db_open();
	memset(&sp, 0, sizeof sp);
	sp.link = "em";
	sp.knobs = "tso=on";
	sp.tool = "iperf3";
	sp.params = "";
	sp.metric = "throughput_bps";
	sp.good = "r1";
	sp.bad = "r3";
	sp.revisions = "r1\nr2\nr3";
	assert_int_equal(store_bisect_create(st, &sp, &id, err, sizeof err),
	    0);
	assert_int_equal(store_bisect_get(st, id, &b, err, sizeof err), 1);
	assert_string_equal(b.who.host, "");
	store_bisect_free(&b);
	store_owner_self(&me);
	assert_int_equal(store_bisect_set_owner(st, id, &me, err, sizeof err),
	    0);
	assert_int_equal(store_bisect_update(st, id, "interrupted", NULL, 0,
	    "store error", err, sizeof err), 0);
	assert_int_equal(store_bisect_get(st, id, &b, err, sizeof err), 1);
	assert_string_equal(b.state, "interrupted");
	assert_int_equal(b.who.pid, getpid());
	assert_int_equal(b.who.start, me.start);
	assert_int_equal(store_owner_state(&b.who), STORE_OWNER_ALIVE);
	store_bisect_free(&b);
	db_close(st);
}

/* Another connection holds the write lock past the budget, then not. */
static void
test_busy_budget(void **state)
{
	struct store	*st;
	sqlite3		*db;
	int64_t		 t0, ms, id;

	(void)state;
	setenv("LABRAT_DB_BUSY_TIMEOUT", "1", 1);
	st = db_open();
	assert_int_equal(store_busy_budget_ms(err, sizeof err), 1000);
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL,
	    NULL), SQLITE_OK);
	t0 = now_ms();
	assert_int_equal(store_run_interrupt(st, 1, "x", NULL, err,
	    sizeof err), -1);
	ms = now_ms() - t0;
	assert_true(ms >= 900);
	assert_true(ms < 5000);
	assert_int_equal(store_last_fault(st), STORE_FAULT_BUSY);
	assert_non_null(strstr(err, "database is locked"));
	assert_non_null(strstr(err, "for more than 1.0 s"));
	assert_non_null(store_fault_advice(STORE_FAULT_BUSY));
	/* Released: the same connection writes again. */
	assert_int_equal(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL),
	    SQLITE_OK);
	id = new_run(st, NULL, 1);
	assert_true(id > 0);
	sqlite3_close(db);
	db_close(st);

	setenv("LABRAT_DB_BUSY_TIMEOUT", "soon", 1);
	assert_int_equal(store_busy_budget_ms(err, sizeof err), -1);
	assert_non_null(strstr(err, "LABRAT_DB_BUSY_TIMEOUT=soon"));
	assert_int_equal(store_open(dbpath, STORE_OPEN_CREATE, &st, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "LABRAT_DB_BUSY_TIMEOUT"));
	fx_db_remove(dbpath);
	unsetenv("LABRAT_DB_BUSY_TIMEOUT");
	assert_int_equal(store_busy_budget_ms(err, sizeof err), 10000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_child_alive_then_gone),
		cmocka_unit_test(test_pid_reused),
		cmocka_unit_test(test_elsewhere_unknown_text),
		cmocka_unit_test(test_interrupt_transitions),
		cmocka_unit_test(test_bisect_owner_state),
		cmocka_unit_test(test_busy_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
