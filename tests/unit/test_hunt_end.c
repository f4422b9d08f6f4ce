/*
 * test_hunt_end: how a bisect ends, against the fake lab of hunt_fake.h:
 * stopped by its stop flag (shown interrupted, its reason naming only
 * checked endpoints), endpoints inconclusive at max_samples (more samples,
 * then a failure that says why and what to do, with the p of the test
 * that decided), an unbootable endpoint, and the hosts put back on the
 * revision they ran before (or left on the culprit).
 */
#include "hunt_fake.h"

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

/* A lab that says what its hosts run: a bisect's end puts them back. */
static const struct hunt_lab_ops fake_ops_running = {
	.install = fake_install,
	.measure = fake_measure,
	.running = fake_running,
};

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
	struct knobs		 k = kn(1, 9000, NULL);
	size_t			 n;
	int64_t			 id;
	char			 err[1024] = "", key[STORE_KEY_MAX];

	x->lab.unbootable = 115;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FAILED);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.reason, "bad endpoint r115 could not be put on "
	    "the hosts: em-b: unbootable: did not come back by itself");
	assert_true(knobs_key(&k, key, sizeof key) == 0);
	assert_string_equal(b.knobs, key);	/* the candidate side */
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_interrupted, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_endpoint_inconclusive, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_endpoint_unbootable, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_endpoint_extended, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_put_back, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
