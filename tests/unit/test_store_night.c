/*
 * test_store_night: the nightly loop's rows (store_night.c) on a tmpfs
 * database: a night per (schedule, slot) that a second begin finds again
 * instead of making a second; its update and the last good night on the
 * same links; the regression record's state machine (every pair of
 * states: only the transitions), the join of a later night into
 * the active record (never a second record, so never a second bisect), a
 * new record once the old one is fixed, the notified mark, and dropping
 * an open record its confirming run did not show.
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

#include "store_fixture.h"

static char	dbpath[256];
static char	err[512];
static int64_t	sched_id;

static int
setup(void **state)
{
	struct store_sched	s = fx_sched("nightly", "0 3 * * *");
	char			why[512];

	(void)kn;
	if (fx_store_open(state, dbpath, sizeof dbpath, "store-night") == -1)
		return -1;
	s.plan_text = "{}";
	s.links = "em,bce";
	if (store_sched_add(*state, &s, &sched_id, NULL, why,
	    sizeof why) == -1) {
		fprintf(stderr, "sched: %s\n", why);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}

static void
test_night_rows(void **state)
{
	struct store		*st = *state;
	struct store_night	 n, m, g;
	struct store_sched	 s;

	assert_int_equal(store_sched_get_id(st, sched_id, &s, err,
	    sizeof err), 1);
	assert_string_equal(s.name, "nightly");
	store_sched_free(&s);
	assert_int_equal(store_sched_get_id(st, 999, &s, err, sizeof err), 0);

	assert_int_equal(store_night_begin(st, sched_id, 1000, "em,bce", &n,
	    err, sizeof err), 1);
	assert_string_equal(n.state, "started");
	assert_null(n.revision);
	/* The same firing again (a resume): the same row. */
	assert_int_equal(store_night_begin(st, sched_id, 1000, "em,bce", &m,
	    err, sizeof err), 0);
	assert_int_equal(m.id, n.id);
	store_night_free(&m);
	assert_int_equal(store_night_last_good(st, "em,bce", 0, &g, err,
	    sizeof err), 0);

	free(n.state);
	n.state = strdup("done");
	n.revision = strdup("r200120");
	n.good = 1;
	n.verdicts = strdup("[]");
	assert_int_equal(store_night_update(st, &n, err, sizeof err), 0);
	assert_int_equal(store_night_get(st, n.id, &m, err, sizeof err), 1);
	assert_string_equal(m.revision, "r200120");
	assert_true(m.finished > 0);
	store_night_free(&m);

	/* A second night: its last good night is the first; not on other
	 * links, and not before the first. */
	assert_int_equal(store_night_begin(st, sched_id, 2000, "em,bce", &m,
	    err, sizeof err), 1);
	assert_int_equal(store_night_last_good(st, "em,bce", m.id, &g, err,
	    sizeof err), 1);
	assert_int_equal(g.id, n.id);
	store_night_free(&g);
	assert_int_equal(store_night_last_good(st, "em", m.id, &g, err,
	    sizeof err), 0);
	assert_int_equal(store_night_last_good(st, "em,bce", n.id, &g, err,
	    sizeof err), 0);
	/* A bad state is refused by the schema. */
	free(m.state);
	m.state = strdup("dreaming");
	assert_int_equal(store_night_update(st, &m, err, sizeof err), -1);
	store_night_free(&m);
	store_night_free(&n);
}

static void
test_transitions(void **state)
{
	static const char *const ok[] = {
		"open>confirmed", "confirmed>bisecting", "bisecting>culprit",
		"bisecting>range", "bisecting>failed", "confirmed>fixed",
		"culprit>fixed", "range>fixed", "failed>fixed", NULL
	};
	char	pair[64];
	int	a, b, i, want;
	enum store_regr_state s;

	(void)state;
	for (a = 0; a < STORE_REGR_NSTATES; a++) {
		assert_int_equal(store_regr_state_parse(
		    store_regr_state_name(a), &s), 0);
		assert_int_equal(s, a);
		for (b = 0; b < STORE_REGR_NSTATES; b++) {
			snprintf(pair, sizeof pair, "%s>%s",
			    store_regr_state_name(a), store_regr_state_name(b));
			for (want = 0, i = 0; ok[i] != NULL; i++)
				want |= strcmp(ok[i], pair) == 0;
			if (store_regr_can(a, b) != want)
				fail_msg("%s: %d, want %d", pair,
				    store_regr_can(a, b), want);
		}
	}
	assert_int_equal(store_regr_state_parse("nope", &s), -1);
}

static struct store_regr
key(const char *link, const char *knobs)
{
	struct store_regr	r;

	memset(&r, 0, sizeof r);
	r.link = (char *)link;
	r.knobs = (char *)knobs;
	r.workload = "iperf3 len=128k";
	r.metric = "throughput_bps";
	r.direction = "down";
	r.good_rev = "r200120";
	r.bad_rev = "r200150";
	r.change = -0.18;
	return r;
}

static void
test_join(void **state)
{
	struct store		*st = *state;
	struct store_night	 n1, n2, n3;
	struct store_regr	 k = key("em", "mtu=9000,tso=on"), r, *v;
	int64_t			 id, id2;
	int			 opened;
	size_t			 n;

	assert_int_equal(store_night_begin(st, sched_id, 10, "em", &n1, err,
	    sizeof err), 1);
	assert_int_equal(store_night_begin(st, sched_id, 20, "em", &n2, err,
	    sizeof err), 1);
	assert_int_equal(store_night_begin(st, sched_id, 30, "em", &n3, err,
	    sizeof err), 1);
	k.schedule_id = sched_id;
	assert_int_equal(store_regr_join(st, &k, n1.id, &id, &opened, err,
	    sizeof err), 0);
	assert_int_equal(opened, 1);
	/* Bad transitions are refused, the state kept. */
	assert_int_equal(store_regr_set(st, id, STORE_REGR_CULPRIT, 0, NULL,
	    NULL, NULL, NULL, err, sizeof err), -1);
	assert_non_null(strstr(err, "open -> culprit"));
	assert_int_equal(store_regr_set(st, id, STORE_REGR_CONFIRMED, 0,
	    NULL, NULL, NULL, NULL, err, sizeof err), 0);
	assert_int_equal(store_regr_set(st, id, STORE_REGR_BISECTING, 0,
	    NULL, NULL, NULL, NULL, err, sizeof err), 0);
	/* The next night joins it: same record, last_night moves. */
	assert_int_equal(store_regr_join(st, &k, n2.id, &id2, &opened, err,
	    sizeof err), 0);
	assert_int_equal(opened, 0);
	assert_int_equal(id2, id);
	/* Another key is another record. */
	k.knobs = "mtu=1500,tso=on";
	assert_int_equal(store_regr_join(st, &k, n2.id, &id2, &opened, err,
	    sizeof err), 0);
	assert_int_equal(opened, 1);
	assert_int_not_equal(id2, id);
	assert_int_equal(store_regr_drop(st, id2, err, sizeof err), 0);
	assert_int_equal(store_regr_drop(st, id, err, sizeof err), -1);
	k.knobs = "mtu=9000,tso=on";

	assert_int_equal(store_regr_set(st, id, STORE_REGR_CULPRIT, 0,
	    "r200140", NULL, NULL, NULL, err, sizeof err), 0);
	assert_int_equal(store_regr_get(st, id, &r, err, sizeof err), 1);
	assert_int_equal(r.state, STORE_REGR_CULPRIT);
	assert_string_equal(r.culprit, "r200140");
	assert_int_equal(r.first_night, n1.id);
	assert_int_equal(r.last_night, n2.id);
	assert_int_equal(r.notified, -1);
	assert_true(r.change < -0.17 && r.change > -0.19);
	store_regr_free(&r);
	assert_int_equal(store_regr_notified(st, id, STORE_REGR_CULPRIT, err,
	    sizeof err), 0);
	assert_int_equal(store_regr_set(st, id, STORE_REGR_FIXED, 0, NULL,
	    NULL, NULL, "back within the threshold", err, sizeof err), 0);
	assert_int_equal(store_regr_get(st, id, &r, err, sizeof err), 1);
	assert_int_equal(r.notified, STORE_REGR_CULPRIT);
	assert_string_equal(r.culprit, "r200140");	/* kept */
	store_regr_free(&r);
	/* Once fixed, the same regression again is a new record. */
	assert_int_equal(store_regr_join(st, &k, n3.id, &id2, &opened, err,
	    sizeof err), 0);
	assert_int_equal(opened, 1);
	assert_int_not_equal(id2, id);

	assert_int_equal(store_regr_list(st, 1u << STORE_REGR_FIXED, &v, &n,
	    err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].id, id);
	store_regrs_free(v, n);
	assert_int_equal(store_regr_list(st, 0, &v, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	store_regrs_free(v, n);
	store_night_free(&n1);
	store_night_free(&n2);
	store_night_free(&n3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_night_rows, setup,
		    teardown),
		cmocka_unit_test(test_transitions),
		cmocka_unit_test_setup_teardown(test_join, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
