/*
 * test_store_health: link health in the store (store_health.c) on a tmpfs
 * database: a record creates the row and logs a transition only when the
 * state changes (since moves with it, and only then); keep and only leave
 * a link alone in the same transaction that reads it; a check's figure
 * and facts are kept until a later pass replaces them (a failing check
 * never erases them); transitions read back newest first, per link and
 * limited; too long a why is refused, not cut.
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

static int
setup(void **state)
{
	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return fx_store_open(state, dbpath, sizeof dbpath, "store-health");
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}

static struct store_health_rec
rec(const char *link, const char *state, const char *why)
{
	struct store_health_rec	r;

	memset(&r, 0, sizeof r);
	r.link = link;
	r.state = state;
	r.why = why;
	r.who = "tester pid 1";
	return r;
}

static int
record(struct store *st, const struct store_health_rec *r, char *from)
{
	char	buf[64];
	int	rc;

	rc = store_health_record(st, r, from != NULL ? from : buf, 64, err,
	    sizeof err);
	if (rc == -1)
		fail_msg("record: %s", err);
	return rc;
}

static void
test_record_and_transitions(void **state)
{
	struct store		*st = *state;
	struct store_health	 h;
	struct store_health_tr	*t;
	struct store_health_rec	 r;
	char			 from[64];
	int64_t			 since;
	size_t			 n;

	assert_int_equal(store_health_get(st, "em", &h, err, sizeof err), 0);
	r = rec("em", "good", "check passed");
	r.checked = 1;
	r.check_ok = 1;
	r.good_figure = 941e6;
	r.good_facts = "em-a em0 os=linux driver=em chip=-\n";
	assert_int_equal(record(st, &r, from), 1);
	assert_string_equal(from, "unknown");
	assert_int_equal(store_health_get(st, "em", &h, err, sizeof err), 1);
	assert_string_equal(h.state, "good");
	assert_int_equal(h.check_ok, 1);
	assert_true(h.checked_at > 0 && h.since > 0);
	assert_true(h.good_figure == 941e6);
	assert_string_equal(h.good_facts, "em-a em0 os=linux driver=em chip=-\n");
	since = h.since;
	store_health_free(&h);

	/* good again: no transition, since kept */
	usleep(5000);
	r.good_figure = 950e6;
	assert_int_equal(record(st, &r, from), 1);
	assert_string_equal(from, "good");
	assert_int_equal(store_health_get(st, "em", &h, err, sizeof err), 1);
	assert_true(h.since == since);
	assert_true(h.good_figure == 950e6);
	store_health_free(&h);

	/* a failing check: bad, the figure and facts of the last pass kept */
	r = rec("em", "bad", "em-b: connect: Connection refused");
	r.checked = 1;
	r.warnings = "w1; w2";
	assert_int_equal(record(st, &r, from), 1);
	assert_int_equal(store_health_get(st, "em", &h, err, sizeof err), 1);
	assert_string_equal(h.state, "bad");
	assert_int_equal(h.check_ok, 0);
	assert_true(h.since > since);
	assert_string_equal(h.why, "em-b: connect: Connection refused");
	assert_string_equal(h.warnings, "w1; w2");
	assert_true(h.good_figure == 950e6);
	assert_non_null(h.good_facts);
	store_health_free(&h);

	assert_int_equal(store_health_transitions(st, NULL, 0, &t, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 2);		/* unknown -> good, good -> bad */
	assert_string_equal(t[0].from, "good");
	assert_string_equal(t[0].to, "bad");
	assert_string_equal(t[0].who, "tester pid 1");
	assert_string_equal(t[0].why, "em-b: connect: Connection refused");
	assert_string_equal(t[1].from, "unknown");
	assert_string_equal(t[1].to, "good");
	assert_true(t[1].at > 0 && t[0].at >= t[1].at);
	store_health_trs_free(t, n);
}

static void
test_keep_only(void **state)
{
	static const char *const held[] = { "maintenance", "retired", NULL };
	struct store		*st = *state;
	struct store_health	 h;
	struct store_health_tr	*t;
	struct store_health_rec	 r;
	char			 from[64];
	size_t			 n;

	r = rec("bce", "maintenance", "new cable");
	assert_int_equal(record(st, &r, NULL), 1);
	/* a check finishing now leaves it alone, and logs nothing */
	r = rec("bce", "good", "check passed");
	r.keep = held;
	r.checked = 1;
	r.check_ok = 1;
	r.good_figure = 1e9;
	assert_int_equal(record(st, &r, from), 0);
	assert_string_equal(from, "maintenance");
	assert_int_equal(store_health_get(st, "bce", &h, err, sizeof err), 1);
	assert_string_equal(h.state, "maintenance");
	assert_string_equal(h.why, "new cable");
	assert_int_equal(h.check_ok, -1);
	assert_true(h.good_figure == 0);
	assert_null(h.good_facts);
	store_health_free(&h);
	/* only: off works from maintenance only */
	r = rec("bce", "unknown", "cable in");
	r.only = "maintenance";
	assert_int_equal(record(st, &r, NULL), 1);
	assert_int_equal(record(st, &r, from), 0);
	assert_string_equal(from, "unknown");
	/* a link without a row counts as unknown for only, too */
	r.link = "other";
	r.only = "maintenance";
	assert_int_equal(record(st, &r, from), 0);
	assert_string_equal(from, "unknown");
	assert_int_equal(store_health_get(st, "other", &h, err, sizeof err), 0);

	assert_int_equal(store_health_transitions(st, "bce", 1, &t, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(t[0].to, "unknown");
	assert_string_equal(t[0].why, "cable in");
	store_health_trs_free(t, n);
	assert_int_equal(store_health_transitions(st, "bce", 0, &t, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 2);
	store_health_trs_free(t, n);
	assert_int_equal(store_health_transitions(st, "nope", 0, &t, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 0);
	store_health_trs_free(t, n);
}

static void
test_list_and_limits(void **state)
{
	struct store		*st = *state;
	struct store_health	*v;
	struct store_health_rec	 r;
	char			 from[64], *big;
	size_t			 n;

	r = rec("zz", "retired", "sold");
	assert_int_equal(record(st, &r, NULL), 1);
	r = rec("aa", "bad", "down");
	assert_int_equal(record(st, &r, NULL), 1);
	assert_int_equal(store_health_list(st, &v, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].link, "aa");
	assert_string_equal(v[1].link, "zz");
	assert_string_equal(v[1].state, "retired");
	store_healths_free(v, n);

	big = malloc(8192);
	memset(big, 'x', 8191);
	big[8191] = '\0';
	r = rec("aa", "good", big);
	assert_int_equal(store_health_record(st, &r, from, sizeof from, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "why"));
	free(big);
	/* a state the schema does not know is refused by the store */
	r = rec("aa", "sick", "?");
	assert_int_equal(store_health_record(st, &r, from, sizeof from, err,
	    sizeof err), -1);
	r = rec("aa", "good", "fine");
	r.who = NULL;
	assert_int_equal(store_health_record(st, &r, from, sizeof from, err,
	    sizeof err), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_record_and_transitions,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_only, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_list_and_limits, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
