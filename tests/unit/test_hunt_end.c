/*
 * test_hunt_end: how a bisect ends, against the fake lab of hunt_fake.h:
 * stopped by its stop flag (shown interrupted, its reason naming only
 * checked endpoints), endpoints inconclusive at max_samples (more samples,
 * then a failure that says why and what to do, with the p of the test
 * that decided), an unbootable endpoint, and the hosts put back on the
 * revision they ran before (or left on the culprit) -- by the end of a
 * resumed bisect and by a reset too, from what the start stored.
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

static int
fake_cannot_tell(void *arg, const struct hunt_lab *lab,
    const struct config_host *h, char *rev, size_t revlen, char *err,
    size_t errlen)
{
	(void)arg;
	(void)lab;
	(void)rev;
	(void)revlen;
	snprintf(err, errlen, "%s: the provider cannot tell", h->name);
	return -1;
}

/* A lab whose provider cannot say what its hosts run. */
static const struct hunt_lab_ops fake_ops_cannot_tell = {
	.install = fake_install,
	.measure = fake_measure,
	.running = fake_cannot_tell,
};

/* The last "hosts stay" line the driver said. */
static char	stay_said[1024];

static void
on_event_stay(const struct hunt_event *ev, void *arg)
{
	on_event(ev, arg);
	if (ev->kind == HUNT_EV_INSTALLED && strstr(ev->text,
	    "the hosts stay") != NULL)
		snprintf(stay_said, sizeof stay_said, "%s", ev->text);
}

/* Started on a lab whose hosts run r99, stopped after GOOD was checked
 * (the 3rd measure call): what they ran is in the store. */
static void
start_stopped(struct fx *x, volatile sig_atomic_t *stop, int64_t *id)
{
	struct hunt_request	 rq;
	struct store_bisect	 b;
	struct store_bisect_step *rows;
	size_t			 n;
	char			 err[1024] = "";

	x->o.lab = &fake_ops_running;
	x->o.stop = stop;
	x->lab.installed = 99;
	x->lab.stop_at_measure = 3;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, id, err, sizeof err),
	    HUNT_INTERRUPTED);
	stored(x, *id, &b, &rows, &n);
	assert_string_equal(b.client_before, "r99");
	assert_string_equal(b.server_before, "r99");
	assert_int_not_equal(x->lab.installed, 99);
	free(rows);
	store_bisect_free(&b);
	*stop = 0;
	x->lab.stop_at_measure = 0;
	x->lab.measures = 0;
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

/* Resumed by a controller that never asked the hosts (its lab cannot
 * tell): the end puts them back on what the start stored. */
static void
t_resume_puts_back(void **state)
{
	struct fx		*x = *state;
	volatile sig_atomic_t	 stop = 0;
	int64_t			 id;
	char			 err[1024] = "";

	start_stopped(x, &stop, &id);
	x->o.lab = &fake_ops;
	x->lab.installs = 0;
	assert_int_equal(hunt_resume(&x->o, id, NULL, err, sizeof err),
	    HUNT_FOUND);
	assert_int_equal(x->lab.installed, 99);
}

/* A reset of the running bisect puts its hosts back, on the inventory it
 * stored at the start (the file is gone), and says so. */
static void
t_reset_puts_back(void **state)
{
	struct fx		*x = *state;
	struct store_bisect	 b;
	struct store_bisect_step *rows;
	volatile sig_atomic_t	 stop = 0;
	size_t			 n;
	int64_t			 id, rid;
	char			 err[1024] = "", was[16], done[1024];

	start_stopped(x, &stop, &id);
	assert_int_equal(unlink(x->inv), 0);
	x->lab.installs = 0;
	assert_int_equal(hunt_reset(&x->o, 0, &rid, was, sizeof was, done,
	    sizeof done, err, sizeof err), 1);
	assert_int_equal(rid, id);
	assert_string_equal(was, "running");
	assert_string_equal(done, "em-a, em-b back on r99");
	assert_int_equal(x->lab.installs, 1);
	assert_int_equal(x->lab.installed, 99);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.state, "reset");
	free(rows);
	store_bisect_free(&b);

	/* An ended bisect's reset drives no host. */
	assert_int_equal(hunt_reset(&x->o, id, &rid, was, sizeof was, done,
	    sizeof done, err, sizeof err), 1);
	assert_string_equal(was, "reset");
	assert_string_equal(done, "");
	assert_int_equal(x->lab.installs, 1);
}

/* The provider could not tell: NULL stored, the hosts stay where the
 * bisect leaves them at its end and at a reset, and both say so. */
static void
t_before_unknown(void **state)
{
	struct fx		*x = *state;
	struct hunt_request	 rq;
	struct store_bisect	 b;
	struct store_bisect_step *rows;
	volatile sig_atomic_t	 stop = 0;
	size_t			 n;
	int64_t			 id, rid;
	int			 installs;
	char			 err[1024] = "", was[16], done[1024];

	x->o.lab = &fake_ops_cannot_tell;
	x->o.event = on_event_stay;
	x->o.stop = &stop;
	x->lab.installed = 99;
	stay_said[0] = '\0';
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_null(b.client_before);
	assert_null(b.server_before);
	assert_int_equal(x->lab.installs, (int)n);	/* not put back */
	assert_int_not_equal(x->lab.installed, 99);
	assert_non_null(strstr(stay_said, "what em-a ran before the bisect "
	    "is not known: the hosts stay"));
	free(rows);
	store_bisect_free(&b);

	/* Reset of one stopped midway: nothing installed, said why. */
	x->lab.installed = 99;
	x->lab.stop_at_measure = 3;
	x->lab.measures = 0;
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_INTERRUPTED);
	installs = x->lab.installs;
	assert_int_equal(hunt_reset(&x->o, id, &rid, was, sizeof was, done,
	    sizeof done, err, sizeof err), 1);
	assert_string_equal(done, "em-a, em-b stay where the bisect left "
	    "them: what em-a ran before the bisect is not known");
	assert_int_equal(x->lab.installs, installs);
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
		cmocka_unit_test_setup_teardown(t_resume_puts_back, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_reset_puts_back, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_before_unknown, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
