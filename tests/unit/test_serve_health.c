/*
 * test_serve_health: when the daemon queues a link's health check.  The
 * pure decision (serve_health_decide) over a table: never checked, the
 * interval passed or not, an infra failure, at most one item per link,
 * maintenance and retired never, a check that could not run retried only
 * later.  Then on a real store: one item per link with its payload, none
 * while it is queued (an infra failure neither), none for a link in
 * maintenance, and the guard that keeps run and bisect items off a link
 * that is bad or in maintenance; after a run whose jobs failed for the
 * lab's reasons (class infra) on a link, that link alone gets a check.
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

#include "health.h"
#include "serve_int.h"
#include "store.h"
#include "store_fixture.h"

#define H	3600
#define NOW	1796126400000LL	/* 2026-12-01 12:00:00 UTC, ms */
#define AGO(s)	(NOW - (int64_t)(s) * 1000)

static void
test_decide(void **state)
{
	static const struct {
		const char		*what;
		struct serve_health_view v;
		int			 interval_s;
		enum serve_hc		 want;
	} t[] = {
		{ "never checked", { HEALTH_UNKNOWN, 0, 0, 0, 0 }, 24 * H,
		  SERVE_HC_NEVER },
		{ "checked an hour ago", { HEALTH_GOOD, AGO(H), 0, 0, 0 },
		  24 * H, SERVE_HC_NOT_DUE },
		{ "checked a second short of the interval",
		  { HEALTH_GOOD, AGO(24 * H - 1), 0, 0, 0 }, 24 * H,
		  SERVE_HC_NOT_DUE },
		{ "checked the interval ago", { HEALTH_GOOD, AGO(24 * H), 0, 0,
		  0 }, 24 * H, SERVE_HC_DUE },
		{ "a bad link is checked again when due",
		  { HEALTH_BAD, AGO(25 * H), 0, 0, 0 }, 24 * H, SERVE_HC_DUE },
		{ "infra failure right after a pass",
		  { HEALTH_GOOD, AGO(10), 0, 0, 1 }, 24 * H, SERVE_HC_INFRA },
		{ "due, but an item is queued",
		  { HEALTH_GOOD, AGO(25 * H), 0, 1, 0 }, 24 * H,
		  SERVE_HC_ACTIVE },
		{ "infra failure, an item is queued",
		  { HEALTH_GOOD, AGO(10), 0, 1, 1 }, 24 * H, SERVE_HC_ACTIVE },
		{ "maintenance, never checked", { HEALTH_MAINTENANCE, 0, 0, 0,
		  0 }, 24 * H, SERVE_HC_OFF },
		{ "maintenance, infra failure", { HEALTH_MAINTENANCE, AGO(90 *
		  H), 0, 0, 1 }, 24 * H, SERVE_HC_OFF },
		{ "retired, due", { HEALTH_RETIRED, AGO(90 * H), 0, 0, 0 },
		  24 * H, SERVE_HC_OFF },
		{ "a check that could not run 10 s ago",
		  { HEALTH_UNKNOWN, 0, AGO(10), 0, 0 }, 24 * H,
		  SERVE_HC_RETRY },
		{ "... retried a minute later", { HEALTH_UNKNOWN, 0,
		  AGO(SERVE_HEALTH_RETRY_S), 0, 0 }, 24 * H, SERVE_HC_NEVER },
		{ "... a short interval bounds the retry", { HEALTH_GOOD,
		  AGO(100), AGO(5), 0, 0 }, 5, SERVE_HC_DUE },
		{ "a check that could not run, then one that did",
		  { HEALTH_GOOD, AGO(10), AGO(20), 0, 0 }, 24 * H,
		  SERVE_HC_NOT_DUE },
		{ "tiny interval (a test's)", { HEALTH_GOOD, AGO(3), 0, 0, 0 },
		  3, SERVE_HC_DUE },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		enum serve_hc got = serve_health_decide(&t[i].v, NOW,
		    t[i].interval_s);

		if (got != t[i].want)
			fail_msg("%s: got \"%s\", want \"%s\"", t[i].what,
			    serve_hc_name(got), serve_hc_name(t[i].want));
	}
	/* The ones from INFRA on queue a check. */
	assert_true(SERVE_HC_INFRA > SERVE_HC_RETRY &&
	    SERVE_HC_NEVER > SERVE_HC_INFRA && SERVE_HC_DUE > SERVE_HC_INFRA);
}

static size_t
health_items(struct store *st, struct store_q_item **items)
{
	char	err[256];
	size_t	n;

	assert_int_equal(store_q_list(st, 1u << STORE_Q_QUEUED, 0, items, &n,
	    err, sizeof err), 0);
	return n;
}

static void
test_enqueue_store(void **state)
{
	static char		 dbpath[256];
	struct serve		 sv;
	struct store		*st;
	struct store_q_item	*items, it;
	struct health_result	 res;
	char			 err[512], why[256];
	char			*links[] = { "em", "bce" };
	size_t			 n;
	int64_t			 now = serve_now_ms();

	(void)state;
	fx_db_path(dbpath, sizeof dbpath, "serve-health");
	assert_int_equal(store_open(dbpath, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	memset(&sv, 0, sizeof sv);
	sv.db_path = dbpath;
	snprintf(sv.owner, sizeof sv.owner, "test@host pid 1");
	pthread_mutex_init(&sv.mtx, NULL);
	pthread_mutex_init(&sv.hmtx, NULL);
	/* Never checked: queued, once; an infra failure adds nothing. */
	assert_int_equal(serve_health_enqueue(&sv, st, "/lab/inv.json", "em",
	    0, now, 24 * H, err, sizeof err), 0);
	assert_int_equal(serve_health_enqueue(&sv, st, "/lab/inv.json", "em",
	    0, now + 5000, 24 * H, err, sizeof err), 0);
	assert_int_equal(serve_health_enqueue(&sv, st, "/lab/inv.json", "em",
	    1, now + 6000, 24 * H, err, sizeof err), 0);
	assert_int_equal((n = health_items(st, &items)), 1);
	assert_int_equal(items[0].kind, STORE_Q_HEALTH);
	assert_int_equal(items[0].priority, STORE_PRIO_ROUTINE);
	assert_string_equal(items[0].payload,
	    "{\"link\":\"em\",\"inventory\":\"/lab/inv.json\"}");
	store_q_items_free(items, n);
	/* It could not check (failed): retried only later, but an infra
	 * failure queues the next one at once. */
	assert_int_equal(store_q_claim(st, sv.owner, 1u << STORE_Q_HEALTH,
	    &it, err, sizeof err), 1);
	assert_int_equal(store_q_finish(st, it.id, STORE_Q_FAILED, "test",
	    err, sizeof err), 0);
	store_q_item_free(&it);
	assert_int_equal(serve_health_enqueue(&sv, st, "/lab/inv.json", "em",
	    0, now + 6500, 24 * H, err, sizeof err), 0);
	assert_int_equal((n = health_items(st, &items)), 0);
	store_q_items_free(items, n);
	assert_int_equal(serve_health_enqueue(&sv, st, "/lab/inv.json", "em",
	    1, now + 7000, 24 * H, err, sizeof err), 0);
	assert_int_equal((n = health_items(st, &items)), 1);
	store_q_items_free(items, n);
	/* A link in maintenance: never queued, never driven. */
	assert_int_equal(health_maintenance(dbpath, "bce", 1, "new cable",
	    "test", &res, err, sizeof err), 0);
	assert_int_equal(serve_health_enqueue(&sv, st, "/lab/inv.json", "bce",
	    1, now, 24 * H, err, sizeof err), 0);
	assert_int_equal((n = health_items(st, &items)), 1);
	store_q_items_free(items, n);
	assert_int_equal(serve_links_usable(&sv, links, 1, why, sizeof why),
	    1);
	assert_int_equal(serve_links_usable(&sv, links, 2, why, sizeof why),
	    0);
	assert_string_equal(why, "not started: link bce is maintenance "
	    "(labrat hosts health)");
	pthread_mutex_destroy(&sv.mtx);
	pthread_mutex_destroy(&sv.hmtx);
	store_close(st);
	fx_db_remove(dbpath);
}

/* One job on link, finished failed with class fc. */
static void
job_failed(struct store *st, int64_t run, const char *link, int rep,
    enum store_fail_class fc)
{
	struct store_job_spec	spec;
	struct store_job	job;
	struct store_job_result	r;
	char			err[512];

	memset(&spec, 0, sizeof spec);
	spec.link = link;
	spec.knobs = kn(1, 0, NULL);
	spec.tool = "iperf3";
	spec.params = "iperf3:len=128k,time=1";
	spec.repetition = rep;
	assert_int_equal(store_jobs_add(st, run, &spec, 1, err, sizeof err),
	    0);
	assert_int_equal(store_job_claim(st, run, link, "t", &job, err,
	    sizeof err), 1);
	memset(&r, 0, sizeof r);
	r.state = STORE_JOB_FAILED;
	r.reason = "test";
	r.failure_class = fc;
	assert_int_equal(store_job_finish(st, job.id, &r, err, sizeof err), 0);
}

/* A run item that ended with infra failures on em (twice) and a test
 * failure on bce: one health item, for em; none for a run without. */
static void
test_after_infra(void **state)
{
	static char		 dbpath[256];
	struct serve		 sv;
	struct config_daemon	 cfg;
	struct store_run_spec	 spec;
	struct store		*st;
	struct store_q_item	*items;
	char			 err[512];
	int64_t			 run, clean;
	size_t			 n;

	(void)state;
	fx_db_path(dbpath, sizeof dbpath, "serve-health-infra");
	assert_int_equal(store_open(dbpath, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	memset(&sv, 0, sizeof sv);
	memset(&cfg, 0, sizeof cfg);
	cfg.health_interval_s = 24 * H;
	sv.config = &cfg;
	sv.db_path = dbpath;
	snprintf(sv.owner, sizeof sv.owner, "test@host pid 1");
	pthread_mutex_init(&sv.mtx, NULL);
	pthread_mutex_init(&sv.hmtx, NULL);
	memset(&spec, 0, sizeof spec);
	spec.kind = "queued";
	spec.inventory_path = "/lab/inv.json";
	spec.plan_path = "plan.json";
	spec.plan_text = "{}";
	assert_int_equal(store_run_create(st, &spec, &run, err, sizeof err),
	    0);
	assert_int_equal(store_run_create(st, &spec, &clean, err, sizeof err),
	    0);
	job_failed(st, run, "em", 0, STORE_FAIL_INFRA);
	job_failed(st, run, "em", 1, STORE_FAIL_INFRA);
	job_failed(st, run, "bce", 0, STORE_FAIL_TEST);
	job_failed(st, clean, "bce", 1, STORE_FAIL_TEST);
	/* Neither link was ever checked: only the infra links are queued. */
	assert_int_equal(serve_health_after(&sv, st, "/lab/inv.json", clean,
	    err, sizeof err), 0);
	assert_int_equal((n = health_items(st, &items)), 0);
	store_q_items_free(items, n);
	assert_int_equal(serve_health_after(&sv, st, "/lab/inv.json", run,
	    err, sizeof err), 0);
	assert_int_equal((n = health_items(st, &items)), 1);
	assert_string_equal(items[0].payload,
	    "{\"link\":\"em\",\"inventory\":\"/lab/inv.json\"}");
	store_q_items_free(items, n);
	pthread_mutex_destroy(&sv.mtx);
	pthread_mutex_destroy(&sv.hmtx);
	store_close(st);
	fx_db_remove(dbpath);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_enqueue_store),
		cmocka_unit_test(test_after_infra),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
