/*
 * test_run: a run's lifecycle through the run module, with the store on
 * tmpfs: create from the real demo plan and a fixture inventory, finish,
 * cancel, resume (of a dead run, of a finished one, of none), a run whose
 * hosts cannot be reached (not started, jobs kept queued, resumable), and
 * the adaptive look (run_int.h) on samples with a known answer.  Here
 * every host address is a closed port on 127.0.0.1, so the executor fails
 * before changing anything, as it must; test_run_drive.c drives jobs on
 * the fixture sshd.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_int.h"

#include "run_fixture.h"

static struct store_counts
counts(struct store *st, int64_t id)
{
	struct store_counts	c;
	char			err[512];

	assert_int_equal(store_job_counts(st, id, NULL, &c, err, sizeof err),
	    0);
	return c;
}

/* A new run is running at once, holds the texts it was made from and
 * every job of the plan, queued. */
static void
test_create(void **state)
{
	struct run		*r;
	struct store		*st;
	struct store_run	 rr;
	struct store_counts	 c;
	char			*text, err[512];

	(void)state;
	r = create(inv, "test:1");
	assert_true(run_id(r) > 0);
	assert_non_null(run_plan(r));
	assert_true(run_plan(r)->stats.adaptive);
	st = db_open();
	rr = row(st, run_id(r));
	assert_int_equal(rr.state, STORE_RUN_RUNNING);
	assert_string_equal(rr.kind, "manual");
	assert_string_equal(rr.owner, "test:1");
	assert_int_equal(rr.finished_at, 0);
	assert_string_equal(rr.plan_path, plan);
	text = util_read_file(plan, CONFIG_FILE_MAX, NULL, err, sizeof err);
	assert_non_null(text);
	assert_string_equal(rr.plan_text, text);
	/* What is stored is the very text that was parsed. */
	assert_string_equal(run_plan(r)->text, rr.plan_text);
	free(text);
	text = util_read_file(inv, CONFIG_FILE_MAX, NULL, err, sizeof err);
	assert_non_null(text);
	assert_string_equal(rr.inventory_text, text);
	free(text);
	c = counts(st, run_id(r));
	assert_int_equal(c.total, DEMO_JOBS);
	assert_int_equal(c.n[STORE_JOB_QUEUED], DEMO_JOBS);
	store_run_free(&rr);
	store_close(st);
	run_free(r);
}

/* A bad plan or a missing file: RUN_CONFIG with every error, no run. */
static void
test_create_bad_config(void **state)
{
	struct config_errors	 errs;
	struct run		*r = (struct run *)1;
	struct store		*st;
	struct store_run	*runs = NULL;
	char			 err[1024], bad[600];
	size_t			 n0, n1;

	(void)state;
	st = db_open();
	assert_int_equal(store_run_list(st, 0, &runs, &n0, err, sizeof err),
	    0);
	store_runs_free(runs, n0);
	snprintf(bad, sizeof bad, "%s/config/bad/plan-values.json",
	    getenv("LABRAT_FIXTURES"));
	config_errors_init(&errs);
	assert_int_equal(run_create(dbpath, inv, bad, NULL, NULL, &r, &errs,
	    err, sizeof err), RUN_CONFIG);
	assert_null(r);
	assert_true(errs.n >= 10);	/* all of them, not the first */
	config_errors_free(&errs);
	config_errors_init(&errs);
	assert_int_equal(run_create(dbpath, "/nonexistent/inv.json", plan,
	    NULL, NULL, &r, &errs, err, sizeof err), RUN_CONFIG);
	assert_int_equal(errs.n, 1);
	assert_non_null(strstr(errs.msgs[0], "/nonexistent/inv.json"));
	config_errors_free(&errs);
	assert_int_equal(store_run_list(st, 0, &runs, &n1, err, sizeof err),
	    0);
	store_runs_free(runs, n1);
	assert_int_equal(n1, n0);
	store_close(st);
}

/* running -> done, running -> failed when a job failed. */
static void
test_finish(void **state)
{
	struct executor_summary	 sum;
	struct run		*r;
	struct store		*st;
	struct store_run	 rr;
	char			 err[512];

	(void)state;
	st = db_open();
	r = create(inv, NULL);
	memset(&sum, 0, sizeof sum);
	sum.done = DEMO_JOBS;
	assert_int_equal(run_finish(r, &sum, err, sizeof err), 0);
	rr = row(st, run_id(r));
	assert_int_equal(rr.state, STORE_RUN_DONE);
	assert_true(rr.finished_at > 0);
	assert_null(rr.reason);
	store_run_free(&rr);
	run_free(r);

	r = create(inv, NULL);
	sum.done = DEMO_JOBS - 1;
	sum.failed = 1;
	assert_int_equal(run_finish(r, &sum, err, sizeof err), 0);
	rr = row(st, run_id(r));
	assert_int_equal(rr.state, STORE_RUN_FAILED);
	assert_string_equal(rr.reason, "some jobs failed");
	store_run_free(&rr);
	run_free(r);
	store_close(st);
}

/* running -> cancelled: queued and running jobs cancelled, done kept. */
static void
test_cancel(void **state)
{
	struct run		*r;
	struct store		*st;
	struct store_run	 rr;
	struct store_job	 job;
	struct store_job_result	 res;
	struct store_counts	 c;
	char			 err[512];
	int64_t			 n = -1;

	(void)state;
	st = db_open();
	r = create(inv, NULL);
	assert_int_equal(store_job_claim(st, run_id(r), NULL, "w", &job, err,
	    sizeof err), 1);
	memset(&res, 0, sizeof res);
	res.state = STORE_JOB_DONE;
	assert_int_equal(store_job_finish(st, job.id, &res, err, sizeof err),
	    0);
	assert_int_equal(store_job_claim(st, run_id(r), NULL, "w", &job, err,
	    sizeof err), 1);
	assert_int_equal(run_cancel(r, "cancelled by the test", &n, err,
	    sizeof err), 0);
	assert_int_equal(n, DEMO_JOBS - 1);
	rr = row(st, run_id(r));
	assert_int_equal(rr.state, STORE_RUN_CANCELLED);
	assert_string_equal(rr.reason, "cancelled by the test");
	assert_true(rr.finished_at > 0);
	c = counts(st, run_id(r));
	assert_int_equal(c.n[STORE_JOB_DONE], 1);
	assert_int_equal(c.n[STORE_JOB_CANCELLED], DEMO_JOBS - 1);
	assert_int_equal(store_job_get(st, job.id, &job, err, sizeof err), 1);
	assert_int_equal(job.state, STORE_JOB_CANCELLED);
	store_run_free(&rr);
	run_free(r);
	store_close(st);
}

/* The plan copied into the temporary directory, so a test may break it. */
static void
copy_plan(void)
{
	char	*text, err[512];
	size_t	 len;

	text = util_read_file(plan, CONFIG_FILE_MAX, &len, err, sizeof err);
	if (text == NULL)
		fail_msg("%s", err);
	snprintf(plan, sizeof plan, "%s/plan.json", tmp);
	assert_int_equal(util_write_file_atomic(plan, text, len, 0644, err,
	    sizeof err), 0);
	free(text);
}

/* The inventory and the plan copy no longer parse. */
static void
break_files(void)
{
	char	err[512];

	assert_int_equal(util_write_file_atomic(deadinv, "{", 1, 0644, err,
	    sizeof err), 0);
	assert_int_equal(util_write_file_atomic(plan, "{", 1, 0644, err,
	    sizeof err), 0);
}

/*
 * A controller died with two jobs running: resume restores (the hosts
 * cannot be reached: logged only), requeues them with their attempt kept
 * and takes the run over, from the inventory and plan texts stored at the
 * start (both files are broken by then); the executor then cannot start,
 * so the run is failed "not started" with every job still queued, and it
 * resumes again.
 */
static void
test_resume_dead(void **state)
{
	struct config_errors	 errs;
	struct run		*r, *r2;
	struct store		*st;
	struct store_run	 rr;
	struct store_job	 j1, j2;
	struct store_counts	 c;
	struct run_result	 res;
	struct run_drive	 drive;
	volatile sig_atomic_t	 stop = 0;
	char			 err[1024], src_plan[sizeof plan];
	int64_t			 id;

	(void)state;
	st = db_open();
	snprintf(src_plan, sizeof src_plan, "%s", plan);
	copy_plan();
	r = create(deadinv, "dead:1");
	id = run_id(r);
	assert_int_equal(store_job_claim(st, id, NULL, "dead:1", &j1, err,
	    sizeof err), 1);
	assert_int_equal(store_job_claim(st, id, NULL, "dead:1", &j2, err,
	    sizeof err), 1);
	run_free(r);	/* the controller dies: no finish */
	/* Resume reads the texts stored at the start, not the files. */
	break_files();
	rr = row(st, id);
	assert_int_equal(rr.state, STORE_RUN_RUNNING);
	store_run_free(&rr);

	config_errors_init(&errs);
	assert_int_equal(run_resume(dbpath, id, "alive:2", 0, &r2, &errs, err,
	    sizeof err), RUN_OK);
	assert_int_equal(errs.n, 0);
	assert_int_equal(run_id(r2), id);
	c = counts(st, id);
	assert_int_equal(c.n[STORE_JOB_QUEUED], DEMO_JOBS);
	assert_int_equal(c.n[STORE_JOB_RUNNING], 0);
	assert_int_equal(store_job_get(st, j1.id, &j1, err, sizeof err), 1);
	assert_int_equal(j1.state, STORE_JOB_QUEUED);
	assert_int_equal(j1.attempt, 1);
	rr = row(st, id);
	assert_int_equal(rr.state, STORE_RUN_RUNNING);
	assert_string_equal(rr.owner, "alive:2");
	store_run_free(&rr);

	memset(&drive, 0, sizeof drive);
	drive.stop = &stop;
	assert_int_equal(run_start(r2, &drive, &res, err, sizeof err),
	    RUN_FAIL);
	assert_int_equal(res.outcome, RUN_OUTCOME_NOT_STARTED);
	assert_int_equal(res.run_id, id);
	assert_non_null(strstr(err, "not started"));
	assert_non_null(strstr(err, "127.0.0.1"));
	assert_non_null(strstr(err, "Connection refused"));
	rr = row(st, id);
	assert_int_equal(rr.state, STORE_RUN_FAILED);
	assert_non_null(rr.reason);
	assert_int_equal(strncmp(rr.reason, "not started: ", 13), 0);
	store_run_free(&rr);
	c = counts(st, id);
	assert_int_equal(c.n[STORE_JOB_QUEUED], DEMO_JOBS);
	assert_int_equal(store_job_get(st, j2.id, &j2, err, sizeof err), 1);
	assert_int_equal(j2.attempt, 1);	/* not claimed again */
	run_free(r2);

	/* A run that did not start resumes: running again, jobs queued. */
	assert_int_equal(run_resume(dbpath, id, NULL, 0, &r2, &errs, err,
	    sizeof err), RUN_OK);
	rr = row(st, id);
	assert_int_equal(rr.state, STORE_RUN_RUNNING);
	store_run_free(&rr);
	run_free(r2);
	config_errors_free(&errs);
	store_close(st);
	/* The other tests share the fixture's files: put them back. */
	snprintf(plan, sizeof plan, "%s", src_plan);
	write_dead_inventory();
}

/*
 * A finished run is resumed as before (`labrat run --resume` of a done run
 * prints its summary again, run_matrix asserts it): nothing is requeued,
 * its done jobs stay done.  No such run: RUN_FAIL naming it.
 */
static void
test_resume_finished(void **state)
{
	struct config_errors	 errs;
	struct executor_summary	 sum;
	struct run		*r;
	struct store		*st;
	struct store_counts	 c;
	char			 err[1024];
	int64_t			 id;

	(void)state;
	st = db_open();
	r = create(deadinv, NULL);
	id = run_id(r);
	run_cancel(r, "stopped", NULL, err, sizeof err);
	memset(&sum, 0, sizeof sum);
	assert_int_equal(run_finish(r, &sum, err, sizeof err), 0);
	run_free(r);
	config_errors_init(&errs);
	assert_int_equal(run_resume(dbpath, id, NULL, 0, &r, &errs, err,
	    sizeof err), RUN_OK);
	c = counts(st, id);
	assert_int_equal(c.n[STORE_JOB_CANCELLED], DEMO_JOBS);
	assert_int_equal(c.n[STORE_JOB_QUEUED], 0);
	run_free(r);

	r = (struct run *)1;
	assert_int_equal(run_resume(dbpath, 999999, NULL, 0, &r, &errs, err,
	    sizeof err), RUN_FAIL);
	assert_null(r);
	assert_string_equal(err, "run 999999: no such run");
	config_errors_free(&errs);
	store_close(st);
}

static int	nstarted;
static int64_t	started_id;
static int	started_resumed;

static void
on_started(const struct run_result *res, void *arg)
{
	assert_ptr_equal(arg, &nstarted);
	nstarted++;
	started_id = res->run_id;
	started_resumed = res->resumed;
}

/* The whole run in one call: started once the run exists, then the
 * outcome; a resume of it the same way. */
static void
test_execute(void **state)
{
	struct config_errors	errs;
	struct run_request	rq;
	struct run_result	res;
	struct store		*st;
	struct store_run	row;
	char			err[1024];

	(void)state;
	memset(&rq, 0, sizeof rq);
	rq.db_path = dbpath;
	rq.inventory = deadinv;
	rq.plan = plan;
	rq.kind = "demo";
	rq.note = "hosts are down";
	rq.started = on_started;
	rq.started_arg = &nstarted;
	nstarted = 0;
	config_errors_init(&errs);
	assert_int_equal(run_execute(&rq, &res, &errs, err, sizeof err),
	    RUN_FAIL);
	assert_int_equal(nstarted, 1);
	assert_true(res.run_id > 0);
	st = db_open();
	assert_int_equal(store_run_get(st, res.run_id, &row, err, sizeof err),
	    1);
	assert_string_equal(row.note, "hosts are down");
	store_run_free(&row);
	store_close(st);
	assert_int_equal(started_id, res.run_id);
	assert_int_equal(started_resumed, 0);
	assert_int_equal(res.outcome, RUN_OUTCOME_NOT_STARTED);
	assert_int_equal(res.sum.done, 0);
	assert_non_null(strstr(err, "not started"));

	memset(&rq, 0, sizeof rq);
	rq.db_path = dbpath;
	rq.resume = res.run_id;
	rq.started = on_started;
	rq.started_arg = &nstarted;
	assert_int_equal(run_execute(&rq, &res, &errs, err, sizeof err),
	    RUN_FAIL);
	assert_int_equal(nstarted, 2);
	assert_int_equal(started_resumed, 1);
	assert_int_equal(res.outcome, RUN_OUTCOME_NOT_STARTED);

	/* Nothing to create: no started, no outcome. */
	memset(&rq, 0, sizeof rq);
	rq.db_path = dbpath;
	rq.resume = 999999;
	rq.started = on_started;
	rq.started_arg = &nstarted;
	assert_int_equal(run_execute(&rq, &res, &errs, err, sizeof err),
	    RUN_FAIL);
	assert_int_equal(nstarted, 2);
	assert_int_equal(res.run_id, 0);
	assert_int_equal(res.outcome, RUN_OUTCOME_NONE);
	config_errors_free(&errs);
}

/* Finishes every queued job of link with throughput f(rep) (bit/s). */
static void
measure(struct store *st, int64_t id, const char *link, int noisy)
{
	struct store_job	job;
	struct store_job_result	res;
	struct store_sample	s = { "throughput_bps", 0, "bit/s", 0 };
	char			err[512];

	while (store_job_claim(st, id, link, "w", &job, err,
	    sizeof err) == 1) {
		memset(&res, 0, sizeof res);
		res.state = STORE_JOB_DONE;
		/* noisy: 500 or 1000 Mbit/s by turns, on every combination
		 * alike, so no comparison can ever be decided; else exact. */
		s.value = noisy ? (job.seq % 2 ? 5e8 : 1e9) : 9.4e8;
		res.samples = &s;
		res.nsamples = 1;
		assert_int_equal(store_job_finish(st, job.id, &res, err,
		    sizeof err), 0);
	}
}

/*
 * The adaptive look: noisy comparisons get more jobs, look after look,
 * until max_samples (8 in the demo plan) per side; then nothing more.
 */
static void
test_adaptive_queue(void **state)
{
	struct run		*r;
	struct store		*st;
	struct store_counts	 c;
	char			 err[512];
	size_t			 added, total = 0;
	int			 looks;

	(void)state;
	st = db_open();
	r = create(deadinv, NULL);
	/* bce cannot be decided: two looks more at most (4 -> 8). */
	measure(st, run_id(r), "em", 0);
	measure(st, run_id(r), "bce", 1);
	for (looks = 0; looks < RUN_ADAPTIVE_ROUNDS; looks++) {
		assert_int_equal(run_adaptive_queue(st, run_plan(r),
		    run_id(r), &added, NULL, NULL, err, sizeof err), 0);
		if (added == 0)
			break;
		c = counts(st, run_id(r));
		assert_int_equal(c.n[STORE_JOB_QUEUED], (int64_t)added);
		total += added;
		measure(st, run_id(r), "em", 0);
		measure(st, run_id(r), "bce", 1);
	}
	assert_true(looks >= 1);
	assert_true(looks <= 4);
	assert_true(total > 0);
	c = counts(st, run_id(r));
	assert_int_equal(c.total, DEMO_JOBS + (int64_t)total);
	/* No series beyond max_samples. */
	assert_true(c.total <= DEMO_JOBS * 2);
	run_free(r);
	store_close(st);
}

/* What the stand-in drive saw. */
static struct run_event	evs[32];
static size_t		nevs;
static int64_t		nprog, prog_bad, first_done, last_done, last_total;

static void
on_event(const struct run_event *ev, void *arg)
{
	(void)arg;
	if (nevs < sizeof evs / sizeof evs[0])
		evs[nevs++] = *ev;
}

static void
on_progress(const struct run_progress *rp, void *arg)
{
	(void)arg;
	if (rp->job.done <= last_done || rp->job.done > rp->job.total ||
	    rp->worst < rp->job.total || rp->round != (int)nevs)
		prog_bad++;
	if (nprog++ == 0)
		first_done = rp->job.done;
	last_done = rp->job.done;
	last_total = rp->job.total;
}

struct fake_drain {
	struct run_track	*t;
	struct store		*st;
	int			 ndrains;
};

/*
 * A stand-in for executor_drain(): every queued job finished (em exact,
 * bce noisy), its progress reported as the executor reports it (counted
 * from 0 in each drain, its total the jobs queued at the drain's start),
 * and the whole run's counts in the summary, as the executor gives them.
 */
static int
fake_drain(void *arg, int64_t id, struct executor_summary *sum, char *err,
    size_t errlen)
{
	struct fake_drain		*fd = arg;
	struct executor_progress	 p;
	struct store_counts		 c;
	int64_t				 k;

	(void)err;
	(void)errlen;
	c = counts(fd->st, id);
	memset(&p, 0, sizeof p);
	p.total = c.n[STORE_JOB_QUEUED];
	measure(fd->st, id, "em", 0);
	measure(fd->st, id, "bce", 1);
	p.link = "em";
	p.knobs = "";
	p.tool = "iperf3";
	p.state = "done";
	p.throughput_bps = 9.4e8;
	p.attempt = 1;
	for (k = 1; k <= p.total; k++) {
		p.done = k;
		p.elapsed_ms = k * 10;
		run_track_progress(&p, fd->t);
	}
	c = counts(fd->st, id);
	memset(sum, 0, sizeof *sum);
	sum->done = c.n[STORE_JOB_DONE];
	sum->failed = c.n[STORE_JOB_FAILED];
	sum->cancelled = c.n[STORE_JOB_CANCELLED];
	fd->ndrains++;
	return 0;
}

/*
 * Adaptive rounds through the run's counter, on a stand-in drain: the
 * worst case and the plan's ETA up front, each round announced with its
 * jobs and comparisons, one job counter from the jobs done before (as a
 * resume finds them) to the run's last job, and a summary that counts
 * each job once.
 */
static void
test_adaptive_rounds(void **state)
{
	struct run_drive	 drive;
	struct run_track	 t;
	struct executor_summary	 sum;
	struct fake_drain	 fd;
	struct store_counts	 c;
	struct run		*r;
	struct store		*st;
	char			 err[512];
	int64_t			 total;
	size_t			 i;

	(void)state;
	st = db_open();
	r = create(deadinv, NULL);
	measure(st, run_id(r), "em", 0);	/* 16 jobs done before */
	memset(&drive, 0, sizeof drive);
	drive.progress = on_progress;
	drive.event = on_event;
	nevs = 0;
	nprog = prog_bad = last_done = 0;
	assert_int_equal(run_track_init(&t, r, &drive, err, sizeof err), 0);
	memset(&fd, 0, sizeof fd);
	fd.t = &t;
	fd.st = st;
	memset(&sum, 0, sizeof sum);
	assert_int_equal(run_track_drain(&t, fake_drain, &fd, &sum, err,
	    sizeof err), 0);
	assert_int_equal(run_adaptive(r, &t, fake_drain, &fd, &sum, err,
	    sizeof err), 0);

	/* Up front: 48 planned, 12 series x max_samples 8 at worst; the
	 * plan's ETA: bce's 16 iperf3 (2 s + 0.2 + 1) and 16 scp (10 s +
	 * 0.2 + 1) jobs are the longest link, 230.4 s over 48 jobs. */
	assert_true(nevs >= 3);
	assert_int_equal(evs[0].kind, RUN_EVENT_PLANNED);
	assert_int_equal(evs[0].adaptive, 1);
	assert_int_equal(evs[0].planned, DEMO_JOBS);
	assert_int_equal(evs[0].total, DEMO_JOBS);
	assert_int_equal(evs[0].worst, 96);
	assert_int_equal(evs[0].done, 16);
	assert_int_equal(evs[0].eta_estimated, 1);
	assert_int_equal(evs[0].eta_ms, 4800 * (DEMO_JOBS - 16));
	assert_int_equal(evs[0].eta_worst_ms, 4800 * (96 - 16));
	/* Every round announced, numbered from 2, its jobs counted. */
	total = DEMO_JOBS;
	for (i = 1; i + 1 < nevs; i++) {
		assert_int_equal(evs[i].kind, RUN_EVENT_ROUND);
		assert_int_equal(evs[i].round, (int)i + 1);
		assert_true(evs[i].added > 0);
		/* some of bce's 8 one-knob comparisons (4 per workload);
		 * em's are decided */
		assert_true(evs[i].inconclusive > 0);
		assert_true(evs[i].inconclusive <= 8);
		total += evs[i].added;
		assert_int_equal(evs[i].total, total);
		assert_int_equal(evs[i].done, total - evs[i].added);
		assert_int_equal(evs[i].worst, 96);
		assert_int_equal(evs[i].eta_estimated, 0);
		assert_true(evs[i].eta_worst_ms >= evs[i].eta_ms);
	}
	/* Then settled: bce's comparisons left inconclusive at max. */
	assert_int_equal(evs[nevs - 1].kind, RUN_EVENT_SETTLED);
	assert_int_equal(evs[nevs - 1].round, (int)nevs - 1);
	assert_true(evs[nevs - 1].inconclusive > 0);
	assert_true(evs[nevs - 1].inconclusive <= 8);
	assert_int_equal(evs[nevs - 1].total, total);
	c = counts(st, run_id(r));
	assert_int_equal(c.total, total);
	assert_int_equal(c.n[STORE_JOB_DONE], total);
	assert_true(total <= 96);
	assert_int_equal(fd.ndrains, (int)nevs - 1);
	/* One counter: from the jobs done before to the last, never back. */
	assert_int_equal(prog_bad, 0);
	assert_int_equal(first_done, 17);
	assert_int_equal(last_done, total);
	assert_int_equal(last_total, total);
	assert_int_equal(nprog, total - 16);
	/* The summary counts each job once, not once per round. */
	assert_int_equal(sum.done, total);
	assert_int_equal(sum.failed, 0);
	run_free(r);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_create_bad_config),
		cmocka_unit_test(test_finish),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_resume_dead),
		cmocka_unit_test(test_resume_finished),
		cmocka_unit_test(test_execute),
		cmocka_unit_test(test_adaptive_queue),
		cmocka_unit_test(test_adaptive_rounds),
	};

	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return cmocka_run_group_tests(tests, setup, teardown);
}
