/*
 * test_store_api: the API's reads (store_api.c).  Every statement in
 * store_api_sql[] gets EXPLAIN QUERY PLAN on a migrated store and may not
 * scan samples or jobs whole (each read must use an index there); then
 * store_api_runs() on real rows: newest first, the id cursor, the state,
 * kind and link filters, bound (SQL metacharacters are plain text).
 * store_series_sql[] (store_series.c) gets the same plan check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store_fixture.h"
#include "store_int.h"
#include "util.h"

static char	db[256];

static struct store *
open_db(void)
{
	struct store	*st;
	char		 err[512];

	fx_db_path(db, sizeof db, "api");
	if (store_open(db, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st, err,
	    sizeof err) == -1)
		fail_msg("%s", err);
	return st;
}

/* EXPLAIN QUERY PLAN of each of sql[]: no full scan of samples or jobs.
 * The statements name jobs and samples unaliased, so the plan names them. */
static void
check_plans(struct store *st, const char *const *sql, const char *what)
{
	sqlite3_stmt	*stmt;
	const char	*d;
	char		*q;
	size_t		 i;

	assert_non_null(sql[0]);
	for (i = 0; sql[i] != NULL; i++) {
		q = xasprintf("EXPLAIN QUERY PLAN %s", sql[i]);
		if (sqlite3_prepare_v2(st->db, q, -1, &stmt, NULL) !=
		    SQLITE_OK) {
			print_error("%s[%zu]: %s\n%s\n", what, i,
			    sqlite3_errmsg(st->db), sql[i]);
			fail();
		}
		while (sqlite3_step(stmt) == SQLITE_ROW) {
			d = (const char *)sqlite3_column_text(stmt, 3);
			if (strstr(d, "SCAN samples") != NULL ||
			    strstr(d, "SCAN jobs") != NULL) {
				print_error("%s[%zu]: %s\n%s\n", what, i, d,
				    sql[i]);
				fail();
			}
		}
		sqlite3_finalize(stmt);
		free(q);
	}
}

static void
test_plans(void **state)
{
	struct store	*st = open_db();

	(void)state;
	check_plans(st, store_api_sql, "store_api_sql");
	check_plans(st, store_series_sql, "store_series_sql");
	store_close(st);
	fx_db_remove(db);
}

static int64_t
add_run(struct store *st, const char *kind, const char *link)
{
	struct store_run_spec	 spec;
	struct store_job_spec	 js;
	char			 err[512];
	int64_t			 id;

	memset(&spec, 0, sizeof spec);
	spec.kind = kind;
	spec.inventory_path = "/i.json";
	spec.plan_path = "/p.json";
	assert_int_equal(store_run_create(st, &spec, &id, err, sizeof err), 0);
	memset(&js, 0, sizeof js);
	js.link = link;
	js.knobs = kn(1, 0, NULL);
	js.tool = "iperf3";
	js.params = "len=128k";
	assert_int_equal(store_jobs_add(st, id, &js, 1, err, sizeof err), 0);
	return id;
}

static size_t
list(struct store *st, struct store_api_runs_q *q, int64_t *ids)
{
	struct store_run	*r;
	char			 err[512];
	size_t			 i, n;

	assert_int_equal(store_api_runs(st, q, &r, &n, err, sizeof err), 0);
	for (i = 0; i < n; i++)
		ids[i] = r[i].id;
	store_runs_free(r, n);
	return n;
}

static void
test_runs(void **state)
{
	struct store		*st = open_db();
	struct store_api_runs_q	 q;
	int64_t			 a, b, c, ids[8];
	char			 err[512];

	(void)state;
	a = add_run(st, "manual", "em");
	b = add_run(st, "nightly", "bce");
	c = add_run(st, "manual", "em");
	assert_int_equal(store_run_finish(st, b, STORE_RUN_DONE, NULL, err,
	    sizeof err), 0);
	memset(&q, 0, sizeof q);
	q.state = -1;
	q.limit = 2;
	assert_int_equal(list(st, &q, ids), 2);
	assert_true(ids[0] == c && ids[1] == b);
	q.after = b;
	assert_int_equal(list(st, &q, ids), 1);
	assert_true(ids[0] == a);
	q.after = 0;
	q.limit = 50;
	q.state = STORE_RUN_DONE;
	assert_int_equal(list(st, &q, ids), 1);
	assert_true(ids[0] == b);
	q.state = -1;
	q.kind = "manual";
	assert_int_equal(list(st, &q, ids), 2);
	assert_true(ids[0] == c && ids[1] == a);
	q.kind = NULL;
	q.link = "bce";
	assert_int_equal(list(st, &q, ids), 1);
	assert_true(ids[0] == b);
	q.link = "em' OR '1'='1";
	assert_int_equal(list(st, &q, ids), 0);
	q.link = NULL;
	q.kind = "manual\" OR 1=1 --";
	assert_int_equal(list(st, &q, ids), 0);
	store_close(st);
	fx_db_remove(db);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plans),
		cmocka_unit_test(test_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
