/*
 * test_hunt: the bisect driver against a fake lab (struct hunt_lab_ops):
 * installing is a table of what each revision does, measuring claims the
 * queued jobs from the real store (tmpfs) and records synthetic samples --
 * TSO on at or after the culprit runs at 0.8x.  Covered: the culprit
 * found, a GOOD endpoint that measures bad, an unbootable revision as a
 * skip (power-cycled), a host lost during an install (interrupted, then
 * resumed), a controller killed in the middle of a step (a real SIGKILL-
 * like _exit in a child) and resumed without redoing a finished step, the
 * stop flag, a resume from the texts stored at the start (the files
 * broken since), a bad request, and the figures of `bisect log` (exact,
 * no exponent).  How a bisect ends is test_hunt_end.c.
 */
#include "hunt_fake.h"

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
	/* A lab error interrupts it, stored with the reason. */
	assert_string_equal(b.state, "interrupted");
	assert_non_null(b.reason);
	assert_non_null(strstr(b.reason, "gone even after a power cycle"));
	assert_int_equal(b.who.pid, getpid());
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
	/* no --revisions and none in the inventory */
	request(x, &rq);
	rq.revisions = NULL;
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_CONFIG);
	assert_int_equal(id, 0);
	assert_non_null(strstr(err, "no revision source: give --revisions "
	    "SOURCE or set \"revisions\" in "));
	assert_non_null(strstr(err, x->inv));
	/* nothing was stored, so there is nothing to resume */
	assert_int_equal(hunt_resume(&x->o, 0, &id, err, sizeof err),
	    HUNT_ERROR);
	assert_int_equal(x->lab.installs, 0);
}

/* No --revisions: the inventory's "revisions", relative to its file. */
static void
t_inventory_revisions(void **state)
{
	struct fx		*x = *state;
	struct hunt_request	 rq;
	struct store_bisect	 b;
	struct store_bisect_step *rows;
	size_t			 n;
	int64_t			 id;
	char			 err[1024] = "", *inv;

	inv = xasprintf("{\"revisions\":\"revs\",%s", inv_json + 1);
	write_file(x->inv, inv);
	free(inv);
	request(x, &rq);
	rq.revisions = NULL;
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.culprit, "r110");
	free(rows);
	store_bisect_free(&b);
}

/* A resume parses the texts stored at the start: the files may have
 * changed since (here: broken) and the bisect still ends as begun. */
static void
t_resume_stored_text(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	size_t				 n;
	int64_t				 id, rid;
	char				 err[1024] = "";

	x->lab.lost = 107;
	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_INTERRUPTED);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.inventory_text, inv_json);
	assert_string_equal(b.test_text, test_json);
	free(rows);
	store_bisect_free(&b);
	write_file(x->inv, "{");
	write_file(x->test, "{");
	x->lab.lost = 0;
	assert_int_equal(hunt_resume(&x->o, id, &rid, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_string_equal(b.culprit, "r110");
	free(rows);
	store_bisect_free(&b);
}

/*
 * `bisect log` prints each step's figures exactly and without an exponent
 * (the table's medians are ~940 Mbit/s: "%.6g" printed 9.4e+08, rounded to
 * 6 digits), so --replay, which reads them back, stores what was measured.
 */
static void
t_log_figures(void **state)
{
	struct fx			*x = *state;
	struct hunt_request		 rq;
	struct store_bisect		 b;
	struct store_bisect_step	*rows;
	size_t				 n, i = 0, len = 0;
	int64_t				 id;
	char				 err[1024] = "", *text = NULL, *line;
	char				*save = NULL;
	double				 med, ref;
	FILE				*fp;
	int				 k;

	request(x, &rq);
	assert_int_equal(hunt_start(&x->o, &rq, &id, err, sizeof err),
	    HUNT_FOUND);
	stored(x, id, &b, &rows, &n);
	assert_non_null(fp = open_memstream(&text, &len));
	assert_int_equal(hunt_show(x->db, id, HUNT_SHOW_LOG, 0, fp, err,
	    sizeof err), 0);
	assert_int_equal(fclose(fp), 0);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "# good: [", 9) != 0 &&
		    strncmp(line, "# bad: [", 8) != 0)
			continue;
		assert_true(i < n);
		assert_null(strstr(line, "e+"));
		assert_non_null(strstr(line, rows[i].revision));
		assert_int_equal(sscanf(strchr(line, ']') + 1, " n=%d "
		    "median=%lf reference=%lf", &k, &med, &ref), 3);
		assert_int_equal(k, rows[i].n);
		assert_true(med == rows[i].median);
		assert_true(ref == rows[i].baseline_median);
		assert_true(med > 1e8);
		i++;
	}
	assert_int_equal(i, n);
	free(text);
	free(rows);
	store_bisect_free(&b);
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
		cmocka_unit_test_setup_teardown(t_resume_stored_text, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_resume_after_kill, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_stop_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(t_bad_request, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_inventory_revisions, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(t_log_figures, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
