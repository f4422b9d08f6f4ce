/*
 * test_run_drive: runs driven on a host by the run module, with the store
 * on tmpfs: the fixture sshd is both hosts of a one-link lab whose test NIC
 * is lo, and the plans set no knob (nothing on the machine is changed), one
 * iperf3 second a job.  created -> running -> done with its sample;
 * stopped after its first job -> cancelled "interrupted by a signal", the
 * other job cancelled, and a resume that finds nothing left and finishes
 * the run done.  The lab's own behaviour (knobs, NAT, faults, SIGKILL) is
 * for the integration tests (run_matrix, run_interrupt, run_faults).
 */
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "run.h"
#include "store.h"
#include "ssh.h"
#include "sshd_fixture.h"
#include "store_fixture.h"
#include "tmpdir_fixture.h"
#include "util.h"

static char	dbpath[256], tmp[256], loinv[512], loplan1[512], loplan2[512];
static struct sshd_fixture	fx;
static int	have_sshd;

static void
write_text(const char *path, const char *text)
{
	char	err[512];

	if (util_write_file_atomic(path, text, strlen(text), 0644, err,
	    sizeof err) == -1)
		fail_msg("%s", err);
}

/*
 * A one-link lab on the fixture sshd: both hosts are 127.0.0.1 and their
 * test NIC is lo, and the plans set no knob (nothing on the machine is
 * changed), one iperf3 second a job; reps 1 and 2.
 */
static void
write_lo_lab(void)
{
	struct passwd	*pw = getpwuid(geteuid());
	char		 text[4096], host[2][1024];
	int		 i, port;

	for (i = 0; i < 2; i++)
		snprintf(host[i], sizeof host[i], "{ \"name\": \"lo-%c\", "
		    "\"os\": \"linux\", \"address\": \"127.0.0.1\", "
		    "\"ssh\": { \"user\": \"%s\", \"port\": %d, "
		    "\"key\": \"%s\", \"known_hosts\": \"%s\" }, "
		    "\"nics\": [ { \"name\": \"lo\", \"driver\": \"lo\", "
		    "\"role\": \"test\" } ] }", "ab"[i],
		    pw != NULL ? pw->pw_name : "root", fx.port, fx.key,
		    fx.known_hosts);
	snprintf(text, sizeof text, "{ \"hosts\": [ %s, %s ], \"links\": [ "
	    "{ \"name\": \"lo\", \"client\": { \"host\": \"lo-a\", "
	    "\"if\": \"lo\", \"address\": \"127.0.0.1\" }, \"server\": "
	    "{ \"host\": \"lo-b\", \"if\": \"lo\", \"address\": "
	    "\"127.0.0.1\" }, \"nat\": null } ] }\n", host[0], host[1]);
	snprintf(loinv, sizeof loinv, "%s/lo-lab.json", tmp);
	write_text(loinv, text);
	/* iperf3 on a port of this run's own, not 5201: two test runs at
	 * once must not meet on it. */
	if ((port = fx_free_port()) == -1)
		fail_msg("no free port on 127.0.0.1");
	for (i = 1; i <= 2; i++) {
		snprintf(text, sizeof text, "{ \"links\": [\"lo\"], "
		    "\"workloads\": [ { \"tool\": \"iperf3\", \"len\": "
		    "\"128k\", \"time\": 1, \"port\": %d } ], "
		    "\"repetitions\": %d, "
		    "\"timeouts\": { \"connect\": 5, \"job\": 30, "
		    "\"settle_ms\": 0 }, \"retries\": 0, "
		    "\"stats\": { \"adaptive\": false } }\n", port, i);
		snprintf(i == 1 ? loplan1 : loplan2, sizeof loplan1,
		    "%s/lo-plan%d.json", tmp, i);
		write_text(i == 1 ? loplan1 : loplan2, text);
	}
}

static int
setup(void **state)
{
	(void)state;
	fx_db_path(dbpath, sizeof dbpath, "run-drive");
	if (fx_tmpdir(tmp, sizeof tmp, "run-drive") == -1)
		return -1;
	ssh_global_init();
	have_sshd = fx_setup(&fx) == 0;
	if (have_sshd)
		write_lo_lab();
	else
		fx_teardown(&fx);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_db_remove(dbpath);
	fx_rmtree(tmp);
	if (have_sshd)
		fx_teardown(&fx);
	ssh_global_cleanup();
	return 0;
}

static struct store *
db_open(void)
{
	struct store	*st = NULL;
	char		 err[512];

	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		fail_msg("%s", err);
	return st;
}


/* The run's row; store_run_free() it. */
static struct store_run
row(struct store *st, int64_t id)
{
	struct store_run	r;
	char			err[512];

	memset(&r, 0, sizeof r);
	assert_int_equal(store_run_get(st, id, &r, err, sizeof err), 1);
	return r;
}

static struct store_counts
counts(struct store *st, int64_t id)
{
	struct store_counts	c;
	char			err[512];

	assert_int_equal(store_job_counts(st, id, NULL, &c, err, sizeof err),
	    0);
	return c;
}


static int	nprogress;

/* The reasons of the run's failed jobs, for a failure message. */
static const char *
why_failed(int64_t id)
{
	static char		 why[2048];
	struct store		*st = db_open();
	struct store_job	*jobs = NULL;
	size_t			 n = 0, i, o = 0;
	char			 err[512];

	why[0] = '\0';
	if (store_job_list(st, id, STORE_JOB_FAILED, &jobs, &n, err,
	    sizeof err) == 0)
		for (i = 0; i < n && o < sizeof why - 1; i++)
			o += (size_t)snprintf(why + o, sizeof why - o,
			    "job %lld: %s; ", (long long)jobs[i].id,
			    jobs[i].reason);
	free(jobs);
	store_close(st);
	return why;
}

/* Stops the run after its first job, as SIGINT does. */
static void
stop_after_first(const struct run_progress *p, void *arg)
{
	volatile sig_atomic_t	*stop = arg;

	(void)p;
	nprogress++;
	*stop = 1;
}

static struct run_event	planned_ev;
static int		nevents;

static void
count_progress(const struct run_progress *p, void *arg)
{
	(void)arg;
	assert_true(p->job.done <= p->job.total);
	assert_int_equal(p->worst, p->job.total);	/* not adaptive */
	nprogress++;
}

static void
count_event(const struct run_event *ev, void *arg)
{
	(void)arg;
	if (nevents++ == 0)
		planned_ev = *ev;
}

/* Driven on a host: created -> running -> done, its sample stored. */
static void
test_drive_done(void **state)
{
	struct config_errors	 errs;
	struct run_request	 rq;
	struct run_result	 res;
	struct store		*st;
	struct store_run	 rr;
	struct store_counts	 c;
	struct store_series	*ser = NULL;
	size_t			 nser = 0;
	char			 err[1024];

	(void)state;
	if (!have_sshd)
		skip();
	memset(&rq, 0, sizeof rq);
	rq.db_path = dbpath;
	rq.inventory = loinv;
	rq.plan = loplan1;
	rq.drive.progress = count_progress;
	rq.drive.event = count_event;
	nprogress = nevents = 0;
	config_errors_init(&errs);
	if (run_execute(&rq, &res, &errs, err, sizeof err) != RUN_OK)
		fail_msg("run_execute: outcome %d: %s; %s", res.outcome, err,
		    why_failed(res.run_id));
	config_errors_free(&errs);
	assert_int_equal(res.outcome, RUN_OUTCOME_DONE);
	assert_int_equal(res.sum.done, 1);
	assert_int_equal(res.sum.failed, 0);
	assert_int_equal(res.sum.restore_failures, 0);
	assert_int_equal(nprogress, 1);
	/* Said up front, once: one job, no adaptive rounds. */
	assert_int_equal(nevents, 1);
	assert_int_equal(planned_ev.kind, RUN_EVENT_PLANNED);
	assert_int_equal(planned_ev.planned, 1);
	assert_int_equal(planned_ev.worst, 1);
	assert_int_equal(planned_ev.adaptive, 0);
	/* iperf3 1 s, settle 0, and a second's overhead */
	assert_int_equal(planned_ev.eta_ms, 2000);
	assert_int_equal(planned_ev.eta_estimated, 1);
	st = db_open();
	rr = row(st, res.run_id);
	assert_int_equal(rr.state, STORE_RUN_DONE);
	store_run_free(&rr);
	c = counts(st, res.run_id);
	assert_int_equal(c.n[STORE_JOB_DONE], 1);
	assert_int_equal(store_samples_query(st, res.run_id, "throughput_bps",
	    &ser, &nser, err, sizeof err), 0);
	assert_int_equal(nser, 1);
	assert_int_equal(ser[0].n, 1);
	assert_true(ser[0].values[0] > 0);
	store_series_free(ser, nser);
	store_close(st);
}

/*
 * The stop flag set after the first of two jobs: running -> cancelled
 * "interrupted by a signal", the other job cancelled; a resume has nothing
 * left to run (a cancelled job is not resumed) and finishes it done.
 */
static void
test_drive_interrupted(void **state)
{
	struct config_errors	 errs;
	struct run_request	 rq;
	struct run_result	 res;
	struct store		*st;
	struct store_run	 rr;
	struct store_counts	 c;
	volatile sig_atomic_t	 stop = 0;
	char			 err[1024];

	(void)state;
	if (!have_sshd)
		skip();
	memset(&rq, 0, sizeof rq);
	rq.db_path = dbpath;
	rq.inventory = loinv;
	rq.plan = loplan2;
	rq.drive.stop = &stop;
	rq.drive.progress = stop_after_first;
	rq.drive.progress_arg = (void *)&stop;
	nprogress = 0;
	config_errors_init(&errs);
	if (run_execute(&rq, &res, &errs, err, sizeof err) != RUN_FAIL ||
	    res.outcome != RUN_OUTCOME_INTERRUPTED || res.sum.done != 1)
		fail_msg("run_execute: outcome %d, %lld done: %s; %s",
		    res.outcome, (long long)res.sum.done, err,
		    why_failed(res.run_id));
	assert_true(res.sum.stopped);
	assert_int_equal(res.sum.done, 1);
	assert_int_equal(res.ncancelled, 1);
	assert_int_equal(res.sum.restore_failures, 0);
	assert_int_equal(nprogress, 1);
	st = db_open();
	rr = row(st, res.run_id);
	assert_int_equal(rr.state, STORE_RUN_CANCELLED);
	assert_string_equal(rr.reason, "interrupted by a signal");
	store_run_free(&rr);
	c = counts(st, res.run_id);
	assert_int_equal(c.n[STORE_JOB_DONE], 1);
	assert_int_equal(c.n[STORE_JOB_CANCELLED], 1);

	memset(&rq, 0, sizeof rq);
	rq.db_path = dbpath;
	rq.resume = res.run_id;
	if (run_execute(&rq, &res, &errs, err, sizeof err) != RUN_OK)
		fail_msg("resume: outcome %d: %s", res.outcome, err);
	assert_int_equal(res.outcome, RUN_OUTCOME_DONE);
	/* The executor's counts are the run's: its one done job. */
	assert_int_equal(res.sum.done, 1);
	rr = row(st, res.run_id);
	assert_int_equal(rr.state, STORE_RUN_DONE);
	store_run_free(&rr);
	c = counts(st, res.run_id);
	assert_int_equal(c.n[STORE_JOB_CANCELLED], 1);
	config_errors_free(&errs);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drive_done),
		cmocka_unit_test(test_drive_interrupted),
	};

	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return cmocka_run_group_tests(tests, setup, teardown);
}
