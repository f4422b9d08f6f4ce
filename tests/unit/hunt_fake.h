/*
 * hunt_fake.h: the fake lab of test_hunt*.c -- installing is a table of
 * what each revision does, measuring claims the queued jobs from the real
 * store (tmpfs) and records synthetic samples (TSO on at or after the
 * culprit runs at factor x) -- with the fixture (a tmpdir with inventory,
 * test and revision files) and the store readers the tests share.  Each
 * test program includes it once.
 */
#ifndef LABRAT_TEST_HUNT_FAKE_H
#define LABRAT_TEST_HUNT_FAKE_H

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

static const struct hunt_lab_ops fake_ops = {
	.install = fake_install,
	.measure = fake_measure,
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

#endif
