/*
 * test_executor_reuse: one executor drained again and again keeps its host
 * sessions and deployed agents.  Two hosts of a real sshd
 * (tests/unit/sshd_fixture.h; both 127.0.0.1, a link between their lo)
 * and a store on tmpfs: the first drain connects once per host, the
 * second none, each records its run's facts and runs its iperf3 jobs over
 * lo; after sshd restarted between drains the next drain revives both
 * sessions and still runs; the one-shot executor_run() connects afresh.
 * Both hosts are connected at once, each with its own error (a wrong
 * client host key does not keep the server from being connected, and is
 * the run's error without a second try).  The ssh module's counters say
 * what connected.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sshd_fixture.h"

#include "config.h"
#include "executor.h"
#include "matrix.h"
#include "ssh.h"
#include "store.h"
#include "util.h"

static struct sshd_fixture fx;
static char dbpath[300];
static struct config_inventory *inv;
static struct config_plan *plan;

/* iperf3 on a port of this run's own (fx_free_port()), not 5201, so two
 * test runs at once do not meet on it. */
static char plan_text[256];

static int64_t
handshakes(void)
{
	struct ssh_stats	st;

	ssh_stats_get(&st);
	return st.handshakes;
}

/* A new run with the plan's jobs queued; its id. */
static int64_t
new_run(struct store *st)
{
	struct store_run_spec	 spec;
	struct store_job_spec	*js;
	struct matrix_job	*jobs;
	char			 err[512], (*params)[STORE_PARAMS_MAX];
	size_t			 i, n;
	int64_t			 id;

	memset(&spec, 0, sizeof spec);
	spec.kind = "manual";
	spec.inventory_path = "/tmp/test_executor_reuse.json";
	spec.plan_path = "/tmp/plan.json";
	spec.plan_text = plan_text;
	if (store_run_create(st, &spec, &id, err, sizeof err) != 0)
		fail_msg("run: %s", err);
	if (matrix_expand(plan, inv, &jobs, &n, err, sizeof err) != 0)
		fail_msg("expand: %s", err);
	js = xcalloc(n, sizeof *js);
	params = xcalloc(n, sizeof *params);
	for (i = 0; i < n; i++)
		executor_job_spec(&jobs[i], params[i], sizeof params[i], &js[i]);
	if (store_jobs_add(st, id, js, n, err, sizeof err) != 0)
		fail_msg("jobs: %s", err);
	free(params);
	free(js);
	free(jobs);
	return id;
}

static size_t
nfacts(struct store *st, int64_t run_id)
{
	struct store_host_facts_row	*rows;
	size_t				 n;
	char				 err[512];

	if (store_host_facts_list(st, run_id, &rows, &n, err, sizeof err) != 0)
		fail_msg("facts: %s", err);
	store_facts_free(rows, n);
	return n;
}

static void
drain(struct executor *ex, struct store *st, int64_t *hs)
{
	struct executor_summary	sum;
	char			err[1024];
	int64_t			run = new_run(st), before = handshakes();

	if (executor_drain(ex, run, &sum, err, sizeof err) != 0)
		fail_msg("drain: %s", err);
	*hs = handshakes() - before;
	print_message("run %lld: %lld done, %lld failed, %lld handshakes\n",
	    (long long)run, (long long)sum.done, (long long)sum.failed,
	    (long long)*hs);
	assert_int_equal(sum.done, 2);
	assert_int_equal(sum.failed, 0);
	assert_int_equal(sum.restore_failures, 0);
	assert_int_equal(nfacts(st, run), 2);
}

static void
test_two_drains_connect_once(void **state)
{
	struct executor_opts	 opts;
	struct executor_summary	 sum;
	struct executor		*ex;
	struct store		*st;
	struct ssh_stats	 s0, s1;
	char			 err[1024];
	int64_t			 hs, before;

	(void)state;
	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) != 0)
		fail_msg("store: %s", err);
	memset(&opts, 0, sizeof opts);
	opts.db_path = dbpath;
	opts.owner = "test:1";
	ex = executor_new(inv, plan, &opts, err, sizeof err);
	assert_non_null(ex);
	assert_int_equal(handshakes(), 0);

	drain(ex, st, &hs);
	assert_int_equal(hs, 2);		/* one per host */
	drain(ex, st, &hs);
	assert_int_equal(hs, 0);		/* reused */
	assert_int_equal(executor_restore(ex, err, sizeof err), 0);

	/* sshd restarted between drains (a reboot): revived at first use. */
	fx_sshd_kill(&fx);
	assert_int_equal(fx_sshd_start(&fx), 0);
	ssh_stats_get(&s0);
	drain(ex, st, &hs);
	ssh_stats_get(&s1);
	assert_int_equal(hs, 2);
	assert_int_equal(s1.reconnects - s0.reconnects, 2);
	drain(ex, st, &hs);
	assert_int_equal(hs, 0);
	executor_free(ex);
	executor_free(NULL);

	/* The one-shot wrapper connects for its run alone. */
	before = handshakes();
	assert_int_equal(executor_run(inv, plan, new_run(st), &opts, &sum, err,
	    sizeof err), 0);
	assert_int_equal(sum.done, 2);
	assert_int_equal(handshakes() - before, 2);
	store_close(st);
}

/*
 * Both ends of a link are connected at once, each with its own error: the
 * client's host key is wrong, yet the server is connected beside it (one
 * after the other, the client's failure stopped everything), and the
 * client's error is the run's, reported without a second try.
 */
static void
test_hosts_connected_at_once(void **state)
{
	struct config_inventory	*bad;
	struct config_errors	 e;
	struct executor_opts	 opts;
	struct executor_summary	 sum;
	struct ssh_stats	 s0, s1;
	struct store		*st;
	char			 err[1024], *text;

	(void)state;
	text = fx_inventory_text(&fx, fx.port, fx.kh_wrong,
	    fx.port, fx.known_hosts, "lo");
	assert_non_null(text);
	config_errors_init(&e);
	bad = config_inventory_parse("/tmp/test_executor_reuse.json", text,
	    strlen(text), &e);
	free(text);
	config_errors_free(&e);
	assert_non_null(bad);
	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) != 0)
		fail_msg("store: %s", err);
	memset(&opts, 0, sizeof opts);
	opts.db_path = dbpath;
	opts.owner = "test:1";
	ssh_stats_get(&s0);
	assert_int_equal(executor_run(bad, plan, new_run(st), &opts, &sum, err,
	    sizeof err), -1);
	ssh_stats_get(&s1);
	print_message("wrong client key: %s\n", err);
	assert_non_null(strstr(err, "fx-a"));
	assert_non_null(strstr(err, "MISMATCH"));
	assert_int_equal(s1.connects - s0.connects, 2);	/* each once */
	assert_int_equal(s1.handshakes - s0.handshakes, 1);	/* fx-b */
	store_close(st);
	config_inventory_free(bad);
}

/* A plan link the inventory lacks is refused up front. */
static void
test_unknown_link(void **state)
{
	struct config_plan	*p;
	struct config_errors	 e;
	struct executor_opts	 opts;
	const char		 text[] = "{\"links\":[\"nope\"],\"workloads\":"
				    "[{\"tool\":\"iperf3\"}]}";
	char			 err[512];

	(void)state;
	config_errors_init(&e);
	p = config_plan_parse("/tmp/p.json", text, strlen(text), NULL, &e);
	config_errors_free(&e);
	assert_non_null(p);
	memset(&opts, 0, sizeof opts);
	assert_null(executor_new(inv, p, &opts, err, sizeof err));
	assert_string_equal(err, "plan link nope is not in the inventory");
	/* restore_all skips it, as it always did. */
	assert_int_equal(executor_restore_all(inv, p, 5, err, sizeof err), 0);
	config_plan_free(p);
}

static int
group_setup(void **state)
{
	struct config_errors	 e;
	char			*text;
	size_t			 i;
	int			 port;

	(void)state;
	if (fx_setup(&fx) != 0) {
		fx_teardown(&fx);
		return -1;
	}
	ssh_global_init();
	if ((port = fx_free_port()) == -1) {
		fprintf(stderr, "no free port on 127.0.0.1\n");
		return -1;
	}
	snprintf(plan_text, sizeof plan_text, "{\"links\":[\"l\"],"
	    "\"workloads\":[{\"tool\":\"iperf3\",\"time\":1,\"port\":%d}],"
	    "\"repetitions\":2,\"timeouts\":{\"connect\":5,\"job\":30},"
	    "\"retries\":0}", port);
	snprintf(dbpath, sizeof dbpath, "%s/lr-exreuse-%ld.db",
	    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
	    (long)getpid());
	unlink(dbpath);
	text = fx_inventory_text(&fx, fx.port, fx.known_hosts,
	    fx.port, fx.known_hosts, "lo");
	assert_non_null(text);
	config_errors_init(&e);
	inv = config_inventory_parse("/tmp/test_executor_reuse.json", text,
	    strlen(text), &e);
	free(text);
	plan = inv == NULL ? NULL : config_plan_parse("/tmp/plan.json",
	    plan_text, strlen(plan_text), inv, &e);
	for (i = 0; i < e.n; i++)
		fprintf(stderr, "config: %s\n", e.msgs[i]);
	config_errors_free(&e);
	return inv != NULL && plan != NULL ? 0 : -1;
}

static int
group_teardown(void **state)
{
	(void)state;
	config_inventory_free(inv);
	config_plan_free(plan);
	fx_sh("rm -f %s %s-wal %s-shm", dbpath, dbpath, dbpath);
	fx_teardown(&fx);
	ssh_global_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_drains_connect_once),
		cmocka_unit_test(test_hosts_connected_at_once),
		cmocka_unit_test(test_unknown_link),
	};

	if (access("/usr/sbin/sshd", X_OK) != 0 || geteuid() != 0) {
		fprintf(stderr, "test_executor_reuse: needs root and sshd\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
