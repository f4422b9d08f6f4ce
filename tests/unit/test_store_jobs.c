/*
 * test_store_jobs: the store's runs and jobs on real SQLite files in a
 * temporary directory: the job state machine, failure and cancellation,
 * claim order, claims by several processes at once, resume of a run whose
 * controller died, validation of what is stored, runs, sample queries, host
 * facts and raw output, and bisects.  Creation and migrations are
 * test_store.c.
 */
#include <sys/wait.h>

#include <unistd.h>

#include "store_file_fixture.h"

/* ---- tests ---------------------------------------------------------------- */


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

/*
 * A page of the bisect list by cursor (newest first, limit, after) without
 * the long texts, the stored test only until how it judges is settled.
 */
static void
test_bisect_page(void **state)
{
	struct store_bisect_spec	 spec = { .link = "em", .tool = "iperf3",
					    .metric = "throughput_bps",
					    .good = "r1", .bad = "r3",
					    .revisions = "r1\nr2\nr3\n",
					    .inventory_text = "{}",
					    .test_text = "{\"metric\": 1}" };
	struct store			*st;
	struct store_bisect		*bs, b;
	size_t				 n, i, seen = 0;
	int64_t				 id, after = 0;

	(void)state;
	st = open_new("bisect-page.db");
	for (i = 0; i < 7; i++)
		assert_int_equal(store_bisect_create(st, &spec, &id, err,
		    sizeof err), 0);
	/* Pages of 3: 7 6 5, 4 3 2, 1. */
	do {
		assert_int_equal(store_bisect_page(st, after, 3, &bs, &n, err,
		    sizeof err), 0);
		assert_true(n <= 3);
		for (i = 0; i < n; i++) {
			assert_int_equal(bs[i].id, 7 - (int64_t)seen);
			assert_null(bs[i].revisions);
			assert_null(bs[i].inventory_text);
			assert_string_equal(bs[i].test_text, "{\"metric\": 1}");
			assert_int_equal(bs[i].judged, -1);
			seen++;
		}
		after = n > 0 ? bs[n - 1].id : 0;
		store_bisects_free(bs, n);
	} while (n == 3);
	assert_int_equal(seen, 7);
	assert_int_equal(store_bisect_page(st, 0, 0, &bs, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 7);
	store_bisects_free(bs, n);
	assert_int_equal(store_bisect_page(st, 1, 10, &bs, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 0);

	/* Settled: known (values, no test read) or not (nulls); a row
	 * still -1 is passed over, one settled already is not rewritten. */
	assert_int_equal(store_bisect_page(st, 0, 3, &bs, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 3);
	bs[0].judged = 1;
	bs[0].threshold = 1.1;
	bs[0].lower_is_better = 1;
	bs[1].judged = 0;
	bs[1].threshold = 0.9;
	assert_int_equal(store_bisect_set_judging(st, bs, n, err, sizeof err),
	    0);
	bs[0].threshold = 0.5;
	assert_int_equal(store_bisect_set_judging(st, bs, 1, err, sizeof err),
	    0);
	store_bisects_free(bs, n);
	assert_int_equal(store_bisect_page(st, 0, 3, &bs, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(bs[0].judged, 1);
	assert_true(bs[0].threshold == 1.1);
	assert_int_equal(bs[0].lower_is_better, 1);
	assert_null(bs[0].test_text);
	assert_int_equal(bs[1].judged, 0);
	assert_null(bs[1].test_text);
	assert_int_equal(bs[2].judged, -1);
	assert_non_null(bs[2].test_text);
	store_bisects_free(bs, n);
	/* The whole row still has its texts. */
	assert_int_equal(store_bisect_get(st, 7, &b, err, sizeof err), 1);
	assert_int_equal(b.judged, 1);
	assert_string_equal(b.test_text, "{\"metric\": 1}");
	assert_string_equal(b.revisions, "r1\nr2\nr3\n");
	store_bisect_free(&b);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_state_machine),
		T(test_fail_and_cancel),
		T(test_claim_order),
		T(test_claim_concurrent),
		T(test_resume_reset),
		T(test_validation),
		T(test_runs),
		T(test_samples_query),
		T(test_samples_facts_raw),
		T(test_bisect),
		T(test_bisect_page),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
