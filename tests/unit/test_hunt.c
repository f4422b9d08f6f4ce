/*
 * test_hunt: the bisect driver against a fake lab (struct hunt_lab_ops):
 * installing is a table of what each revision does, measuring claims the
 * queued jobs from the real store (tmpfs) and records synthetic samples --
 * TSO on at or after the culprit runs at 0.8x.  Covered: the culprit
 * found, a GOOD endpoint that measures bad, an unbootable revision as a
 * skip (power-cycled), a host lost during an install (interrupted, then
 * resumed), a controller killed in the middle of a step (a real SIGKILL-
 * like _exit in a child) and resumed without redoing a finished step, the
 * stop flag (shown interrupted), endpoints inconclusive at max_samples
 * (more samples, then a failure that says why), the hosts put back on
 * their revision at the end (or left on the culprit), and a bad request.
 */
#include <sys/wait.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "hunt.h"
#include "store.h"
#include "store_fixture.h"
#include "tmpdir_fixture.h"

#define NREVS	16	/* r100 .. r115 */















static const char *inv_json =
"{\"hosts\":["
" {\"name\":\"em-a\",\"os\":\"linux\",\"address\":\"198.18.0.11\","
"  \"ssh\":{\"key\":\"/k\",\"known_hosts\":\"/kh\"},"
"  \"nics\":[{\"name\":\"em0\",\"driver\":\"em\",\"role\":\"test\"}],"
"  \"kernel\":{\"type\":\"command\","
"   \"install\":[\"/opt/lab\",\"install\",\"{rev}\"],"
"   \"reboot\":[\"/opt/lab\",\"reboot\"],"
"   \"verify\":[\"/opt/lab\",\"revision\",\"--of\",\"{host}\"]}},"
" {\"name\":\"em-b\",\"os\":\"linux\",\"address\":\"198.18.0.12\","
"  \"ssh\":{\"key\":\"/k\",\"known_hosts\":\"/kh\"},"
"  \"nics\":[{\"name\":\"em0\",\"driver\":\"em\",\"role\":\"test\"}],"
"  \"kernel\":{\"type\":\"command\","
"   \"install\":[\"/opt/lab\",\"install\",\"{rev}\"],"
"   \"reboot\":[\"/opt/lab\",\"reboot\"],"
"   \"verify\":[\"/opt/lab\",\"revision\",\"--of\",\"{host}\"]}}"
"],\"links\":[{\"name\":\"em\",\"nat\":null,"
" \"client\":{\"host\":\"em-a\",\"if\":\"em0\",\"address\":\"198.18.1.1\"},"
" \"server\":{\"host\":\"em-b\",\"if\":\"em0\",\"address\":\"198.18.1.2\"}}]}";

static const char *test_json =
"{\"knobs\":{\"mtu\":9000},"
" \"compare\":{\"type\":\"ab\",\"knob\":\"tso\",\"reference\":false,"
"  \"candidate\":true},"
" \"workload\":{\"tool\":\"iperf3\",\"time\":1},"
" \"metric\":\"throughput_bps\",\"threshold\":0.91,"
" \"sampling\":{\"min_samples\":5,\"max_samples\":10}}";

/* What the fake lab does. */
struct fake {
	int	culprit;	/* first revision (100..) where TSO costs */
	int	unbootable;	/* revision that needs the power hook, 0 none */
	int	lost;		/* revision whose install loses a host */
	int	die_at_measure;	/* _exit() inside this measure call, 0 never */
	int	stop_at_measure; /* set *stop in this measure call */
	int	installed;	/* revision on the hosts */
	double	factor;		/* what the fault costs: 0.8 */
	double	noise;		/* +- this fraction: 0.01 */
	int	installs, measures, jobs;
	unsigned	 rnd;
};

struct fx {
	char		 dir[256], db[300], inv[300], test[300], revs[300];
	struct fake	 lab;
	struct hunt_opts o;
	int		 events[HUNT_EV_VERDICT + 1];
	int		 power_cycled;
	char		 verdict[512];	/* the last verdict line */
};

static int
rev_num(const char *rev)
{
	return atoi(rev + 1);
}

static void
fake_install(void *arg, const struct hunt_lab *lab, const char *rev,
    struct hunt_install in[2])
{
	struct fake	*f = arg;
	int		 r = rev_num(rev), i;

	assert_non_null(lab->link);
	f->installs++;
	for (i = 0; i < 2; i++) {
		in[i].rc = 0;
		in[i].out.result = KERNEL_OK;
		in[i].out.install_ms = 1000;
		in[i].out.boot_ms = 2000;
		snprintf(in[i].out.running, sizeof in[i].out.running, "%s",
		    rev);
	}
	if (r == f->unbootable) {
		in[1].out.result = KERNEL_UNBOOTABLE;
		in[1].out.power_cycled = 1;
		snprintf(in[1].out.detail, sizeof in[1].out.detail,
		    "did not come back by itself");
	}
	if (r == f->lost) {
		in[0].rc = -1;
		snprintf(in[0].err, sizeof in[0].err, "%s: gone even after a "
		    "power cycle", in[0].host->name);
	}
	f->installed = r;
}

/* A throughput around 940 Mbit/s (+-noise), factor x with TSO on from
 * the culprit on. */
static double
fake_value(struct fake *f, int tso_on)
{
	double	v = 940e6;

	f->rnd = f->rnd * 1103515245u + 12345u;
	v *= 1.0 - f->noise + 2.0 * f->noise *
	    (double)((f->rnd >> 8) % 1000) / 1000.0;
	if (tso_on && f->installed >= f->culprit)
		v *= f->factor;
	return v;
}

static int
fake_measure(void *arg, const struct hunt_lab *lab, int64_t run_id,
    int *stopped, char *err, size_t errlen)
{
	struct fake		*f = arg;
	struct store		*st = NULL;
	struct store_job	 job;
	struct store_sample	 smp;
	struct store_job_result	 res;
	int			 r;

	f->measures++;
	*stopped = 0;
	if (store_open(lab->db_path, STORE_OPEN_MIGRATE, &st, err,
	    errlen) == -1)
		return -1;
	while ((r = store_job_claim(st, run_id, NULL, lab->owner, &job, err,
	    errlen)) == 1) {
		if (f->measures == f->die_at_measure)
			_exit(9);	/* the job stays running, as after a kill */
		if (f->measures == f->stop_at_measure)
			*lab->stop = 1;
		memset(&smp, 0, sizeof smp);
		smp.metric = "throughput_bps";
		smp.unit = "bit/s";
		smp.value = fake_value(f, strstr(job.knobs_key, "tso=on") !=
		    NULL);
		memset(&res, 0, sizeof res);
		res.state = STORE_JOB_DONE;
		res.samples = &smp;
		res.nsamples = 1;
		if (store_job_finish(st, job.id, &res, err, errlen) == -1) {
			r = -1;
			break;
		}
		f->jobs++;
		if (*lab->stop) {
			*stopped = 1;
			break;
		}
	}
	store_close(st);
	return r == -1 ? -1 : 0;
}

static int
fake_running(void *arg, const struct hunt_lab *lab,
    const struct config_host *h, char *rev, size_t revlen, char *err,
    size_t errlen)
{
	struct fake	*f = arg;

	(void)lab;
	(void)h;
	(void)err;
	(void)errlen;
	snprintf(rev, revlen, "r%d", f->installed);
	return 0;
}

static const struct hunt_lab_ops fake_ops = {
	.install = fake_install,
	.measure = fake_measure,
};

/* A lab that says what its hosts run: a bisect's end puts them back. */
static const struct hunt_lab_ops fake_ops_running = {
	.install = fake_install,
	.measure = fake_measure,
	.running = fake_running,
};

static void
on_event(const struct hunt_event *ev, void *arg)
{
	struct fx	*x = arg;

	assert_non_null(ev->text);
	assert_null(strchr(ev->text, '\n'));
	x->events[ev->kind]++;
	if (ev->kind == HUNT_EV_VERDICT)
		snprintf(x->verdict, sizeof x->verdict, "%s", ev->text);
	if (ev->kind == HUNT_EV_INSTALLED && strstr(ev->text,
	    "power-cycled") != NULL)
		x->power_cycled++;
}

static void
write_file(const char *path, const char *text)
{
	FILE	*fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static int
setup(void **state)
{
	struct fx	*x = calloc(1, sizeof *x);
	FILE		*fp;
	int		 i;

	assert_non_null(x);
	assert_int_equal(fx_tmpdir(x->dir, sizeof x->dir, "hunt"), 0);
	fx_db_path(x->db, sizeof x->db, "hunt");
	snprintf(x->inv, sizeof x->inv, "%s/inv.json", x->dir);
	snprintf(x->test, sizeof x->test, "%s/em.json", x->dir);
	snprintf(x->revs, sizeof x->revs, "%s/revs", x->dir);
	write_file(x->inv, inv_json);
	write_file(x->test, test_json);
	assert_non_null(fp = fopen(x->revs, "w"));
	fprintf(fp, "# r100..r115\n");
	for (i = 0; i < NREVS; i++)
		fprintf(fp, "r%d change %d\n", 100 + i, i);
	fclose(fp);
	x->lab.culprit = 110;
	x->lab.factor = 0.8;
	x->lab.noise = 0.01;
	x->lab.rnd = 7;
	x->o.db_path = x->db;
	x->o.event = on_event;
	x->o.event_arg = x;
	x->o.lab = &fake_ops;
	x->o.lab_arg = &x->lab;
	*state = x;
	return 0;
}

static int
teardown(void **state)
{
	struct fx	*x = *state;

	fx_db_remove(x->db);
	fx_rmtree(x->dir);
	free(x);
	return 0;
}

static void
request(const struct fx *x, struct hunt_request *rq)
{
	memset(rq, 0, sizeof *rq);
	rq->inventory = x->inv;
	rq->link = "em";
	rq->good = "r100";
	rq->bad = "r115";
	rq->test = x->test;
	rq->revisions = x->revs;
}

/* The stored bisect and its steps (rows: free()). */
static void
stored(const struct fx *x, int64_t id, struct store_bisect *b,
    struct store_bisect_step **rows, size_t *n)
{
	struct store	*st;
	char		 err[512];

	assert_int_equal(store_open(x->db, STORE_OPEN_READONLY, &st, err,
	    sizeof err), 0);
	assert_int_equal(store_bisect_get(st, id, b, err, sizeof err), 1);
	assert_int_equal(store_bisect_steps(st, id, rows, n, err, sizeof err),
	    0);
	store_close(st);
}

/* The state of run_id. */
static enum store_run_state
run_state(const struct fx *x, int64_t run_id, char *reason, size_t len)
{
	struct store		*st;
	struct store_run	 run;
	char			 err[512];
	enum store_run_state	 s;

	assert_int_equal(store_open(x->db, STORE_OPEN_READONLY, &st, err,
	    sizeof err), 0);
	assert_int_equal(store_run_get(st, run_id, &run, err, sizeof err), 1);
	s = run.state;
	snprintf(reason, len, "%s", run.reason != NULL ? run.reason : "");
	store_run_free(&run);
	store_close(st);
	return s;
}

/* No (revision, verdict-carrying) step repeats a finished one's run. */
static void
assert_no_repeat(const struct store_bisect_step *rows, size_t n)
{
	size_t	i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			assert_true(rows[i].run_id != rows[j].run_id);
}

static void
t_found(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	struct hunt_view		 v;
	struct knobs			 k = kn(1, 9000, NULL);
	size_t				 n, i;
	int64_t				 id;
	char				 err[1024] = "", key[STORE_KEY_MAX];

	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FOUND);
	assert_true(id > 0);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.state, "done");
	assert_string_equal(b.culprit, "r110");
	assert_true(b.confidence > 0.9);
	assert_true(knobs_key(&k, key, sizeof key) == 0 && strlen(key) > 0);
	assert_string_equal(b.knobs, key);	/* the candidate side */
	/* 2 endpoint checks, <= 4 search steps, 2 verifications */
	assert_true(n >= 6 && n <= 8);
	assert_string_equal(rows[0].revision, "r100");
	assert_string_equal(rows[0].verdict, "good");
	assert_string_equal(rows[1].revision, "r115");
	assert_string_equal(rows[1].verdict, "bad");
	for (i = 0; i < n; i++) {
		assert_true(rows[i].run_id > 0);
		assert_true(rows[i].n >= 5);
		assert_true(strcmp(rows[i].verdict, rev_num(rows[i].revision) >=
		    110 ? "bad" : "good") == 0);
	}
	assert_no_repeat(rows, n);
	assert_int_equal(x->events[HUNT_EV_STARTED], 1);
	assert_int_equal(x->events[HUNT_EV_TESTING], (int)n);
	assert_int_equal(x->events[HUNT_EV_VERDICT], (int)n);
	assert_int_equal(x->events[HUNT_EV_INSTALLED], 2 * (int)n);
	assert_int_equal(x->lab.installs, (int)n);
	/* the last verdict (a verification) says which test decided it */
	assert_non_null(strstr(x->verdict, "(Mann-Whitney U, alpha "));
	free(rows);
	store_bisect_free(&b);
	/* read back as `bisect status` does */
	assert_int_equal(hunt_view_open(&v, x->db, id, err, sizeof err), 0);
	assert_int_equal(v.nsteps, n);
	assert_int_equal(v.n, NREVS);
	assert_string_equal(v.msgs[10], "change 10");
	hunt_view_free(&v);
	/* resuming an ended bisect does nothing */
	assert_int_equal(hunt_resume(&x->o, id, NULL, err, sizeof err),
	    HUNT_ENDED);
	assert_int_equal(x->lab.installs, (int)n);
}

static void
t_endpoint_bad(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	size_t				 n;
	int64_t				 id;
	char				 err[1024] = "";

	x->lab.culprit = 100;	/* GOOD already has the fault */
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FAILED);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.state, "failed");
	assert_string_equal(b.culprit, "");
	assert_non_null(strstr(b.reason, "good endpoint r100 tested bad"));
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].verdict, "bad");
	free(rows);
	store_bisect_free(&b);
}

static void
t_skip_unbootable(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	size_t				 n, i, nskip = 0;
	int64_t				 id;
	char				 err[1024] = "", reason[1024];

	x->lab.unbootable = 107;	/* the first midpoint of r100..r115 */
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.culprit, "r110");
	for (i = 0; i < n; i++) {
		if (strcmp(rows[i].revision, "r107") != 0)
			continue;
		nskip++;
		assert_string_equal(rows[i].verdict, "skip");
		assert_int_equal(rows[i].n, 0);
		assert_int_equal(run_state(x, rows[i].run_id, reason,
		    sizeof reason), STORE_RUN_FAILED);
		assert_non_null(strstr(reason, "em-b: unbootable"));
	}
	assert_int_equal(nskip, 1);
	assert_int_equal(x->events[HUNT_EV_SKIPPED], 1);
	assert_int_equal(x->power_cycled, 1);
	free(rows);
	store_bisect_free(&b);
}

static void
t_install_lost(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	size_t				 n, i;
	int64_t				 id, cut_id, cut_run, rid;
	char				 err[1024] = "", reason[1024];

	x->lab.lost = 107;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_INTERRUPTED);
	assert_non_null(strstr(err, "em-a: gone even after a power cycle"));
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.state, "running");
	assert_int_equal(n, 3);
	assert_string_equal(rows[2].revision, "r107");
	assert_string_equal(rows[2].verdict, "");
	cut_id = rows[2].id;
	cut_run = rows[2].run_id;
	assert_int_equal(run_state(x, cut_run, reason, sizeof reason),
	    STORE_RUN_FAILED);
	assert_non_null(strstr(reason, "gone even after a power cycle"));
	free(rows);
	store_bisect_free(&b);

	/* the host is back: resume (id 0 = the newest running bisect) */
	x->lab.lost = 0;
	assert_int_equal(hunt_resume(&x->o, 0, &rid, err, sizeof err),
	    HUNT_FOUND);
	assert_int_equal(rid, id);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.culprit, "r110");
	assert_int_equal(rows[2].id, cut_id);
	assert_string_equal(rows[2].verdict, "good");
	assert_true(rows[2].run_id != cut_run);
	for (i = 0; i < n; i++)
		assert_true(rows[i].verdict[0] != '\0');
	free(rows);
	store_bisect_free(&b);
}

static void
t_resume_after_kill(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*before, *after;
	size_t				 nb, na, i, nfinished = 0;
	int64_t				 id = 1;	/* the child's, first in the db */
	char				 err[1024] = "", reason[256];
	pid_t				 pid;
	int				 status;

	request(x, &rq);
	/* measure calls: 2 per endpoint and per step at least; die in the
	 * 7th, well into the search */
	x->lab.die_at_measure = 7;
	if ((pid = fork()) == 0) {
		hunt_start(&x->o, &rq, &id, err, sizeof err);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 9);
	stored(x, id, &b, &before, &nb);
	assert_string_equal(b.state, "running");
	store_bisect_free(&b);
	assert_true(nb >= 2);
	for (i = 0; i < nb - 1; i++)
		if (before[i].verdict[0] != '\0')
			nfinished++;
	assert_int_equal(nfinished, nb - 1);
	assert_string_equal(before[nb - 1].verdict, "");	/* the cut step */
	assert_int_equal(run_state(x, before[nb - 1].run_id, reason,
	    sizeof reason), STORE_RUN_RUNNING);

	x->lab.die_at_measure = 0;
	x->lab.installs = 0;
	assert_int_equal(hunt_resume(&x->o, id, NULL, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &after, &na);
	assert_string_equal(b.culprit, "r110");
	assert_true(na >= nb);
	/* finished steps unchanged, the cut one redone in its own row */
	for (i = 0; i < nb - 1; i++) {
		assert_int_equal(after[i].id, before[i].id);
		assert_int_equal(after[i].run_id, before[i].run_id);
		assert_string_equal(after[i].verdict, before[i].verdict);
		assert_int_equal(after[i].n, before[i].n);
	}
	assert_int_equal(after[nb - 1].id, before[nb - 1].id);
	assert_true(after[nb - 1].verdict[0] != '\0');
	assert_int_equal(run_state(x, before[nb - 1].run_id, reason,
	    sizeof reason), STORE_RUN_CANCELLED);
	assert_string_equal(reason, "controller died");
	/* only the cut step and the ones after it were installed again */
	assert_int_equal(x->lab.installs, (int)(na - nb + 1));
	assert_no_repeat(after, na);
	free(before);
	free(after);
	store_bisect_free(&b);
}

static void
t_stop_flag(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	volatile sig_atomic_t		 stop = 0;
	size_t				 n;
	int64_t				 id;
	char				 err[1024] = "", reason[256];

	x->o.stop = &stop;
	x->lab.stop_at_measure = 3;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_INTERRUPTED);
	assert_string_equal(err, "interrupted");
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.state, "running");
	assert_string_equal(rows[n - 1].verdict, "");
	assert_int_equal(run_state(x, rows[n - 1].run_id, reason,
	    sizeof reason), STORE_RUN_CANCELLED);
	free(rows);
	store_bisect_free(&b);
	stop = 0;
	x->lab.stop_at_measure = 0;
	assert_int_equal(hunt_resume(&x->o, id, NULL, err, sizeof err),
	    HUNT_FOUND);
}

/* Stopped in its first batch: status says interrupted, and its reason
 * names no endpoint, none having been checked; resumed, it is running. */
static void
t_interrupted(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct hunt_view		 v;
	struct bisect_result		 res;
	volatile sig_atomic_t		 stop = 0;
	int64_t				 id;
	char				 err[1024] = "";

	x->o.stop = &stop;
	x->lab.stop_at_measure = 1;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_INTERRUPTED);
	assert_int_equal(hunt_view_open(&v, x->db, id, err, sizeof err), 0);
	assert_string_equal(v.row.state, "interrupted");
	assert_string_equal(v.row.reason, "interrupted by a signal");
	bisect_result(v.m, &res);
	assert_int_equal(res.status, BISECT_RUNNING);
	assert_null(strstr(res.reason, "r100"));
	assert_null(strstr(res.reason, "r115"));
	hunt_view_free(&v);

	/* Stopped again after GOOD was checked: only GOOD is named. */
	stop = 0;
	x->lab.measures = 0;
	x->lab.stop_at_measure = 3;
	assert_int_equal(hunt_resume(&x->o, id, NULL, err, sizeof err),
	    HUNT_INTERRUPTED);
	assert_int_equal(hunt_view_open(&v, x->db, id, err, sizeof err), 0);
	assert_string_equal(v.row.state, "interrupted");
	assert_string_equal(v.steps[0].verdict, "good");
	assert_string_equal(v.steps[1].verdict, "");
	bisect_result(v.m, &res);
	assert_non_null(strstr(res.reason, "last good r100"));
	assert_null(strstr(res.reason, "r115"));
	hunt_view_free(&v);

	stop = 0;
	x->lab.stop_at_measure = 0;
	assert_int_equal(hunt_resume(&x->o, 0, &id, err, sizeof err),
	    HUNT_FOUND);
	assert_int_equal(hunt_view_open(&v, x->db, id, err, sizeof err), 0);
	assert_string_equal(v.row.state, "done");
	hunt_view_free(&v);
}

/* A BAD endpoint right on the threshold: still inconclusive at 4x
 * max_samples (10), and the failure says so and what to do. */
static void
t_endpoint_inconclusive(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	struct hunt_view		 v;
	struct bisect_result		 res;
	size_t				 n;
	int64_t				 id;
	char				 err[1024] = "", p[256];

	x->lab.factor = 0.91;
	request(x, &rq);
	memset(p, 0, sizeof p);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FAILED);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.state, "failed");
	assert_int_equal(n, 2);
	assert_string_equal(rows[1].revision, "r115");
	assert_string_equal(rows[1].verdict, "skip");
	assert_int_equal(rows[1].n, 40);
	/* The p shown is the decisive test's, not a made-up 1. */
	assert_true(rows[1].p > 0.0 && rows[1].p < 1.0);
	snprintf(p, sizeof p, "skip, n=40, ratio %.3f, p=%.4g (Mann-Whitney "
	    "U, alpha ", rows[1].ratio, rows[1].p);
	assert_non_null(strstr(x->verdict, p));
	assert_non_null(strstr(b.reason, "bad endpoint r115 inconclusive: "
	    "ratio 0.9"));
	assert_non_null(strstr(b.reason, " vs threshold 0.91 at n=40 per "
	    "side; raise sampling.max_samples or move the threshold"));
	assert_null(strstr(b.reason, "unbuildable"));
	assert_int_equal(hunt_view_open(&v, x->db, id, err, sizeof err), 0);
	bisect_result(v.m, &res);
	assert_int_equal(res.status, BISECT_FAILED);
	assert_string_equal(res.reason, b.reason);
	hunt_view_free(&v);
	free(rows);
	store_bisect_free(&b);
}

/* An unbootable BAD endpoint: the failure names the host and the cause. */
static void
t_endpoint_unbootable(void **state)
{
	struct fx		*x = *state;
	struct hunt_request	 rq;
	struct store_bisect	 b;
	struct store_bisect_step *rows;
	size_t			 n;
	int64_t			 id;
	char			 err[1024] = "";

	x->lab.unbootable = 115;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FAILED);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.reason, "bad endpoint r115 could not be put on "
	    "the hosts: em-b: unbootable: did not come back by itself");
	free(rows);
	store_bisect_free(&b);
}

/* A BAD endpoint inconclusive at max_samples (10) but decided with the
 * endpoint's extra samples: the bisect goes on to the culprit. */
static void
t_endpoint_extended(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	size_t				 n;
	int64_t				 id;
	char				 err[1024] = "";

	x->lab.factor = 0.865;	/* 5 % past the threshold */
	x->lab.noise = 0.12;
	x->lab.culprit = 115;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(rows[1].revision, "r115");
	assert_string_equal(rows[1].verdict, "bad");
	assert_true(rows[1].n > 10);
	assert_string_equal(b.culprit, "r115");
	assert_true(x->events[HUNT_EV_TESTING] > (int)n);	/* said so */
	free(rows);
	store_bisect_free(&b);
}

/* The hosts ran r99 before: found, failed and left-on-culprit ends. */
static void
t_put_back(void **state)
{
	struct fx		*x = *state;
	struct hunt_request	 rq;
	struct store_bisect	 b;
	struct store_bisect_step *rows;
	size_t			 n;
	int64_t			 id;
	char			 err[1024] = "";

	x->o.lab = &fake_ops_running;
	x->lab.installed = 99;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_int_equal(x->lab.installs, (int)n + 1);	/* and back */
	assert_int_equal(x->lab.installed, 99);
	free(rows);
	store_bisect_free(&b);

	/* A failed bisect (GOOD is bad) puts them back too. */
	x->lab.culprit = 100;
	x->lab.installs = 0;
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FAILED);
	assert_int_equal(x->lab.installs, 2);
	assert_int_equal(x->lab.installed, 99);

	/* --leave-on-culprit: they stay on r110, installed again if the
	 * last step tested another revision. */
	x->lab.culprit = 110;
	x->lab.installs = 0;
	rq.leave_on_culprit = 1;
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FOUND);
	assert_int_equal(x->lab.installed, 110);
}

static void
t_bad_request(void **state)
{
	struct fx		*x = *state;
	struct hunt_request	 rq;
	int64_t			 id = 5;
	char			 err[1024] = "";

	request(x, &rq);
	rq.link = "bce";
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_CONFIG);
	assert_int_equal(id, 0);
	assert_true(err[0] != '\0');
	request(x, &rq);
	rq.good = "r115";
	rq.bad = "r100";
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_CONFIG);
	assert_non_null(strstr(err, "GOOD must come before BAD"));
	/* nothing was stored, so there is nothing to resume */
	assert_int_equal(hunt_resume(&x->o, 0, &id, err, sizeof err),
	    HUNT_ERROR);
	assert_int_equal(x->lab.installs, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_found, setup, teardown),
		cmocka_unit_test_setup_teardown(t_endpoint_bad, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_skip_unbootable, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_install_lost, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_resume_after_kill, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_stop_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(t_interrupted, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_endpoint_inconclusive, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_endpoint_unbootable, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_endpoint_extended, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_put_back, setup, teardown),
		cmocka_unit_test_setup_teardown(t_bad_request, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
