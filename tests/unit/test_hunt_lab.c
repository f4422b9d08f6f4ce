/*
 * test_hunt_lab: the real lab ops of a bisect (hunt_lab.c) keep one
 * executor for the whole bisect.  Two hosts of a real sshd
 * (tests/unit/sshd_fixture.h; both 127.0.0.1, a link between their lo), a
 * store on tmpfs, a bisect test of one iperf3 job: the measurement batches
 * of a step are drained on the same sessions, so only the first batch
 * connects (one handshake per host) and the later ones none; after sshd
 * restarted (a reboot) the next batch revives both sessions; a new
 * bisect's state connects afresh.  A step's install (a "command" kernel
 * provider whose reboot this test performs: sshd killed with every
 * session, the installed revision made the running one, sshd started
 * again) runs on the same sessions: one handshake per host, the new
 * system's, and the batch after it none.  The ssh module's counters say
 * what connected.  Between the batches of a step the link stays as its
 * last job left it: the same iperf3 server (its pid) serves every batch,
 * and the step's end (ops->end) stops it; an install ends it too.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sshd_fixture.h"

#include "config.h"
#include "executor.h"
#include "hunt_int.h"
#include "matrix.h"
#include "ssh.h"
#include "store.h"
#include "util.h"

static struct sshd_fixture fx;
static char dbpath[300];
static struct config_inventory *inv;
static struct config_bisect_test *test;
static struct config_plan *plan;
static int iperf_port;

/* %d: an iperf3 port of this test run's own (fx_free_port()). */
static const char test_fmt[] = "{\"compare\":{\"type\":\"baseline\"},"
    "\"workload\":{\"tool\":\"iperf3\",\"time\":1,\"port\":%d},"
    "\"metric\":\"throughput_bps\",\"timeouts\":{\"connect\":5}}";

static int64_t
handshakes(void)
{
	struct ssh_stats	st;

	ssh_stats_get(&st);
	return st.handshakes;
}

/* Commands run over SSH so far (ssh_stats.execs). */
static int64_t
execs(void)
{
	struct ssh_stats	st;

	ssh_stats_get(&st);
	return st.execs;
}

static int64_t	batch_execs;	/* the last batch()'s commands */
static int64_t	reboot_execs;	/* execs() when sshd went down */

/* Queues the plan's jobs (one per repetition) into run. */
static void
queue(struct store *st, int64_t run)
{
	struct store_job_spec	*js;
	struct matrix_job	*jobs;
	char			 err[512], (*params)[STORE_PARAMS_MAX];
	size_t			 i, n;

	if (matrix_expand(plan, inv, &jobs, &n, err, sizeof err) != 0)
		fail_msg("expand: %s", err);
	js = xcalloc(n, sizeof *js);
	params = xcalloc(n, sizeof *params);
	for (i = 0; i < n; i++)
		executor_job_spec(&jobs[i], params[i], sizeof params[i], &js[i]);
	if (store_jobs_add(st, run, js, n, err, sizeof err) != 0)
		fail_msg("jobs: %s", err);
	free(params);
	free(js);
	free(jobs);
}

static int64_t
new_run(struct store *st)
{
	struct store_run_spec	spec;
	char			err[512];
	int64_t			id;

	memset(&spec, 0, sizeof spec);
	spec.kind = "bisect";
	spec.inventory_path = "/tmp/test_hunt_lab.json";
	spec.plan_path = "/tmp/test.json";
	spec.plan_text = "{}";
	if (store_run_create(st, &spec, &id, err, sizeof err) != 0)
		fail_msg("run: %s", err);
	return id;
}

/* One batch of run through the real ops; its handshakes. */
static int64_t
batch(void *arg, const struct hunt_lab *lab, struct store *st, int64_t run)
{
	char	err[1024];
	int	stopped = -1;
	int64_t	before;

	int64_t	e0;

	queue(st, run);
	before = handshakes();
	e0 = execs();
	if (hunt_lab_real.measure(arg, lab, run, &stopped, err,
	    sizeof err) != 0)
		fail_msg("measure: %s", err);
	assert_int_equal(stopped, 0);
	batch_execs = execs() - e0;
	return handshakes() - before;
}

static size_t
nsamples(struct store *st, int64_t run)
{
	struct store_series	*ser = NULL;
	size_t			 nser = 0, i, n = 0;
	char			 err[512];

	if (store_samples_query(st, run, "throughput_bps", &ser, &nser, err,
	    sizeof err) != 0)
		fail_msg("samples: %s", err);
	for (i = 0; i < nser; i++)
		n += ser[i].n;
	store_series_free(ser, nser);
	return n;
}

/* The store, and lab as a bisect of link l gives it to the ops. */
static struct store *
lab_open(struct hunt_lab *lab, volatile sig_atomic_t *stop)
{
	struct store	*st;
	char		 err[1024];

	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) != 0)
		fail_msg("store: %s", err);
	memset(lab, 0, sizeof *lab);
	lab->inv = inv;
	lab->plan = plan;
	lab->link = config_inventory_link(inv, "l");
	lab->test = test;
	lab->db_path = dbpath;
	lab->owner = "test:1:bisect";
	lab->stop = stop;
	return st;
}

static void
test_batches_reuse_sessions(void **state)
{
	struct hunt_lab		 lab;
	volatile sig_atomic_t	 stop = 0;
	struct store		*st;
	void			*ls;
	int64_t			 run;

	(void)state;
	st = lab_open(&lab, &stop);

	ls = hunt_lab_real_new();
	run = new_run(st);
	assert_int_equal(batch(ls, &lab, st, run), 2);	/* one per host */
	assert_int_equal(batch(ls, &lab, st, run), 0);	/* same step */
	assert_int_equal(batch(ls, &lab, st, run), 0);
	assert_int_equal(nsamples(st, run), 3);
	/* The next step's run, on the same sessions. */
	run = new_run(st);
	assert_int_equal(batch(ls, &lab, st, run), 0);

	/* sshd restarted (a reboot): revived once, then reused again. */
	fx_sshd_kill(&fx);
	assert_int_equal(fx_sshd_start(&fx), 0);
	assert_int_equal(batch(ls, &lab, st, run), 2);
	assert_int_equal(batch(ls, &lab, st, run), 0);
	assert_int_equal(nsamples(st, run), 3);
	hunt_lab_real_free(ls);
	hunt_lab_real_free(NULL);

	/* Another bisect: its own executor, its own sessions. */
	ls = hunt_lab_real_new();
	run = new_run(st);
	assert_int_equal(batch(ls, &lab, st, run), 2);
	hunt_lab_real_free(ls);
	store_close(st);
}

/* The pid listening on the test's iperf3 port, 0 when none. */
static long
listener(void)
{
	char	cmd[200], out[64];
	FILE	*p;
	long	pid = 0;

	snprintf(cmd, sizeof cmd, "ss -Hltnp 'sport = :%d' | "
	    "sed -n 's/.*pid=\\([0-9]*\\).*/\\1/p' | head -n 1", iperf_port);
	if ((p = popen(cmd, "r")) == NULL)
		fail_msg("popen: %s", cmd);
	if (fgets(out, sizeof out, p) != NULL)
		pid = strtol(out, NULL, 10);
	pclose(p);
	return pid;
}

static void
test_step_keeps_link(void **state)
{
	struct hunt_lab		 lab;
	volatile sig_atomic_t	 stop = 0;
	struct store		*st;
	void			*ls;
	int64_t			 run;
	long			 pid;

	(void)state;
	st = lab_open(&lab, &stop);
	ls = hunt_lab_real_new();
	hunt_lab_real.end(ls, &lab);		/* nothing to end yet */
	run = new_run(st);
	batch(ls, &lab, st, run);
	pid = listener();
	assert_true(pid > 0);			/* kept for the next batch */
	batch(ls, &lab, st, run);
	assert_int_equal(listener(), pid);	/* the same server */
	assert_int_equal(nsamples(st, run), 2);
	hunt_lab_real.end(ls, &lab);
	assert_int_equal(listener(), 0);	/* the step's end stops it */

	/* The next step's first batch starts a server of its own, and a
	 * drain of another run ends what the last one kept. */
	run = new_run(st);
	batch(ls, &lab, st, run);
	pid = listener();
	assert_true(pid > 0);
	run = new_run(st);
	batch(ls, &lab, st, run);
	assert_true(listener() > 0);
	assert_true(listener() != pid);
	hunt_lab_real_free(ls);			/* and so does the end */
	assert_int_equal(listener(), 0);
	store_close(st);
}

struct install_arg {
	void			*ls;
	const struct hunt_lab	*lab;
	struct hunt_install	 in[2];
	int			 done;
};

static void *
install_main(void *arg)
{
	struct install_arg	*ia = arg;

	hunt_lab_real.install(ia->ls, ia->lab, "r7", ia->in);
	__atomic_store_n(&ia->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * The reboot of both hosts (one sshd): once both asked for it, every
 * session dies with sshd, the installed revision becomes the running one,
 * and sshd comes back 300 ms later.  On this thread: sshd dies with the
 * thread that started it (PR_SET_PDEATHSIG).
 */
static void
reboot_when_asked(struct install_arg *ia)
{
	char	a[300], b[300];
	int	i;

	snprintf(a, sizeof a, "%s/reboot-fx-a", fx.dir);
	snprintf(b, sizeof b, "%s/reboot-fx-b", fx.dir);
	for (i = 0; i < 3000 && !__atomic_load_n(&ia->done,
	    __ATOMIC_SEQ_CST); i++) {
		if (access(a, F_OK) == 0 && access(b, F_OK) == 0)
			break;
		usleep(10000);
	}
	assert_int_equal(access(a, F_OK), 0);
	assert_int_equal(access(b, F_OK), 0);
	usleep(100000);
	fx_sshd_kill(&fx);
	reboot_execs = execs();	/* nothing runs until sshd is back */
	/* The new system comes with a fresh /var: no lease on it. */
	fx_sh("rm -f %s %s %s/lease/lease.json; cp %s/installed-fx-a "
	    "%s/running-fx-a; cp %s/installed-fx-b %s/running-fx-b", a, b,
	    fx.state, fx.dir, fx.dir, fx.dir, fx.dir);
	usleep(300000);
	assert_int_equal(fx_sshd_start(&fx), 0);
}

static void
test_install_reuses_sessions(void **state)
{
	struct install_arg	 ia;
	struct hunt_lab		 lab;
	volatile sig_atomic_t	 stop = 0;
	struct store		*st;
	pthread_t		 tid;
	int64_t			 run, before, e0, first;
	int			 i;
	char			 lease[400], owner[64], *text;

	(void)state;
	st = lab_open(&lab, &stop);
	memset(&ia, 0, sizeof ia);
	ia.ls = hunt_lab_real_new();
	ia.lab = &lab;
	ia.in[0].host = config_inventory_host(inv, "fx-a");
	ia.in[1].host = config_inventory_host(inv, "fx-b");
	run = new_run(st);
	assert_int_equal(batch(ia.ls, &lab, st, run), 2);
	first = batch_execs;

	before = handshakes();
	e0 = execs();
	assert_int_equal(pthread_create(&tid, NULL, install_main, &ia), 0);
	reboot_when_asked(&ia);
	pthread_join(tid, NULL);
	for (i = 0; i < 2; i++) {
		if (ia.in[i].rc != 0)
			fail_msg("install on %s: %s", ia.in[i].host->name,
			    ia.in[i].err);
		assert_int_equal(ia.in[i].out.result, KERNEL_OK);
		assert_string_equal(ia.in[i].out.running, "r7");
	}
	/* The new system's session per host, nothing more. */
	assert_int_equal(handshakes() - before, 2);
	/* Per host after the reboot: verify, with the agent's check, the
	 * lease take and the facts riding on it (`open`), nothing else. */
	print_message("install: %lld commands, %lld after the reboot\n",
	    (long long)(execs() - e0), (long long)(execs() - reboot_execs));
	assert_int_equal(execs() - reboot_execs, 2);
	/* Its first command (verify's) took the lease anew. */
	snprintf(lease, sizeof lease, "%s/lease/lease.json", fx.state);
	snprintf(owner, sizeof owner, ":%ld:bisect:", (long)getpid());
	assert_non_null(text = util_read_file(lease, 1 << 16, NULL, NULL, 0));
	assert_non_null(strstr(text, owner));
	free(text);
	run = new_run(st);
	assert_int_equal(batch(ia.ls, &lab, st, run), 0);
	assert_int_equal(nsamples(st, run), 1);
	/* The first batch opened both hosts (an `open` each, the facts in
	 * it); this one reads no facts of its own: verify's open did. */
	print_message("batches: %lld commands, after the install %lld\n",
	    (long long)first, (long long)batch_execs);
	assert_int_equal(batch_execs, first - 2);
	hunt_lab_real_free(ia.ls);
	store_close(st);
}

/* text with a "command" kernel provider for both hosts, whose files are
 * in fx.dir (heap). */
static char *
with_kernel(const char *text)
{
	struct buf	 b;
	const char	*p;
	char		 k[1200];

	snprintf(k, sizeof k, "\"kernel\":{\"type\":\"command\","
	    "\"install\":[\"sh\",\"-c\",\"echo {rev} > %s/installed-"
	    "{host}\"],\"reboot\":[\"touch\",\"%s/reboot-{host}\"],"
	    "\"verify\":[\"cat\",\"%s/running-{host}\"]},", fx.dir, fx.dir,
	    fx.dir);
	buf_init(&b, 1 << 20);
	while ((p = strstr(text, "\"nics\":")) != NULL) {
		buf_append(&b, text, (size_t)(p - text));
		buf_append(&b, k, strlen(k));
		buf_append(&b, "\"nics\":", 7);
		text = p + 7;
	}
	buf_append(&b, text, strlen(text) + 1);
	return b.data;
}

static int
group_setup(void **state)
{
	struct config_errors	 e;
	char			*text, *kt, test_text[sizeof test_fmt + 16];
	size_t			 i;
	int			 port;

	(void)state;
	if (fx_setup(&fx) != 0) {
		fx_teardown(&fx);
		return -1;
	}
	ssh_global_init();
	snprintf(dbpath, sizeof dbpath, "%s/lr-huntlab-%ld.db",
	    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
	    (long)getpid());
	unlink(dbpath);
	text = fx_inventory_text(&fx, fx.port, fx.known_hosts,
	    fx.port, fx.known_hosts, "lo");
	assert_non_null(text);
	kt = with_kernel(text);
	free(text);
	text = kt;
	fx_sh("echo r1 > %s/running-fx-a; echo r1 > %s/running-fx-b", fx.dir,
	    fx.dir);
	config_errors_init(&e);
	inv = config_inventory_parse("/tmp/test_hunt_lab.json", text,
	    strlen(text), &e);
	free(text);
	if ((port = fx_free_port()) == -1) {
		fprintf(stderr, "no free port on 127.0.0.1\n");
		return -1;
	}
	snprintf(test_text, sizeof test_text, test_fmt, port);
	iperf_port = port;
	test = inv == NULL ? NULL : config_bisect_test_parse("/tmp/test.json",
	    test_text, strlen(test_text), &e);
	plan = test == NULL ? NULL : config_bisect_plan(test, "l", inv, &e);
	for (i = 0; i < e.n; i++)
		fprintf(stderr, "config: %s\n", e.msgs[i]);
	config_errors_free(&e);
	return plan != NULL ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	config_plan_free(plan);
	config_bisect_test_free(test);
	config_inventory_free(inv);
	fx_sh("rm -f %s %s-wal %s-shm", dbpath, dbpath, dbpath);
	fx_teardown(&fx);
	ssh_global_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batches_reuse_sessions),
		cmocka_unit_test(test_install_reuses_sessions),
		cmocka_unit_test(test_step_keeps_link),
	};

	if (access("/usr/sbin/sshd", X_OK) != 0 || geteuid() != 0) {
		fprintf(stderr, "test_hunt_lab: needs root and sshd\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
