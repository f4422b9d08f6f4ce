/*
 * test_serve_sched: the daemon's scheduling decisions.  The pure decision
 * (serve_sched_decide) over a table: not yet due, due, never twice after a
 * restart, a downtime's missed firings collapsed into one, held while the
 * previous firing is queued or running and fired once after; a minute
 * schedule driven through restarts fires each slot exactly once.  Then the
 * tick on a real store: last_fired stored, one night item per slot, the
 * start-up pass queues a stored slot whose item a kill prevented.
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

#include "cron.h"
#include "serve_int.h"
#include "store.h"
#include "store_fixture.h"

#define T_1201_1200	1796126400LL	/* 2026-12-01 12:00:00 UTC */
#define T_1202_0300	1796180400LL
#define T_1205_0300	1796439600LL
#define T_1205_1000	1796464800LL
#define MS(s)		((s) * 1000LL)

static struct cron_sched daily3, minutely;

static void
compile(struct cron_sched *cs, const char *expr)
{
	static struct cron_cache	*cache;
	char				 err[256];

	if (cache == NULL)
		cache = cron_cache_new(NULL);
	assert_int_equal(cron_sched_compile(cache, expr, "UTC", "t", cs, err,
	    sizeof err), 0);
}

static const struct {
	int		 minute;	/* "* * * * *" instead of "0 3 * * *" */
	int		 nocs, disabled;
	int64_t		 created, last, now, active;
	int		 fire, held;
	int64_t		 slot;		/* s */
	int		 missed;
	int64_t		 next;		/* s */
} cases[] = {
	/* Created at noon: nothing before 03:00 the next day. */
	{ 0, 0, 0, T_1201_1200, 0, T_1201_1200 + 3600, 0, 0, 0, 0, 0,
	  T_1202_0300 },
	/* Its first firing, on the second. */
	{ 0, 0, 0, T_1201_1200, 0, T_1202_0300, 0, 1, 0, T_1202_0300, 0,
	  T_1202_0300 + 86400 },
	/* A restart 30 s later: fired already. */
	{ 0, 0, 0, T_1201_1200, T_1202_0300, T_1202_0300 + 30, 0, 0, 0, 0, 0,
	  T_1202_0300 + 86400 },
	/* Down three nights: one firing, the latest; two missed. */
	{ 0, 0, 0, T_1201_1200, T_1202_0300, T_1205_1000, 0, 1, 0,
	  T_1205_0300, 2, T_1205_0300 + 86400 },
	/* The same while last night's firing still runs: held. */
	{ 0, 0, 0, T_1201_1200, T_1202_0300, T_1205_1000, 1, 0, 1,
	  T_1205_0300, 2, T_1205_0300 + 86400 },
	/* After the catch-up fired: nothing until the next night. */
	{ 0, 0, 0, T_1201_1200, T_1205_0300, T_1205_1000, 0, 0, 0, 0, 0,
	  T_1205_0300 + 86400 },
	/* Disabled, or an expression that no longer compiles: never. */
	{ 0, 0, 1, T_1201_1200, 0, T_1205_1000, 0, 0, 0, 0, 0, -1 },
	{ 0, 1, 0, T_1201_1200, 0, T_1205_1000, 0, 0, 0, 0, 0, -1 },
	/* Every minute: 59 s after a firing nothing, at the minute one. */
	{ 1, 0, 0, T_1201_1200, T_1201_1200, T_1201_1200 + 59, 0, 0, 0, 0, 0,
	  T_1201_1200 + 60 },
	{ 1, 0, 0, T_1201_1200, T_1201_1200, T_1201_1200 + 60, 0, 1, 0,
	  T_1201_1200 + 60, 0, T_1201_1200 + 120 },
};

static void
test_decide(void **state)
{
	struct serve_sched_view	v;
	struct serve_fire	f;
	size_t			i;

	(void)state;
	compile(&daily3, "0 3 * * *");
	compile(&minutely, "* * * * *");
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&v, 0, sizeof v);
		v.cs = cases[i].nocs ? NULL : cases[i].minute ? &minutely :
		    &daily3;
		v.enabled = !cases[i].disabled;
		v.created_ms = MS(cases[i].created);
		v.last_fired_ms = MS(cases[i].last);
		v.active = cases[i].active;
		serve_sched_decide(&v, MS(cases[i].now), &f);
		print_message("case %zu\n", i);
		assert_int_equal(f.fire, cases[i].fire);
		assert_int_equal(f.held, cases[i].held);
		if (cases[i].fire || cases[i].held) {
			assert_int_equal(f.slot_ms, MS(cases[i].slot));
			assert_int_equal(f.missed, cases[i].missed);
		}
		assert_int_equal((int64_t)f.next, cases[i].next);
	}
}

/*
 * A minute schedule over 30 minutes ticked every 7 s, the daemon
 * "restarted" (state kept: only last_fired) every 50 s, down for 5
 * minutes once, its firing running for 100 s each time: each slot fires
 * at most once, the downtime's slots collapse into one, and a firing is
 * never started while the previous one runs.
 */
static void
test_sequence(void **state)
{
	struct serve_sched_view	v;
	struct serve_fire	f;
	int64_t			t, fired_slots[64], busy_until = 0;
	size_t			nf = 0, i;

	(void)state;
	compile(&minutely, "* * * * *");
	memset(&v, 0, sizeof v);
	v.cs = &minutely;
	v.enabled = 1;
	v.created_ms = MS(T_1201_1200);
	for (t = T_1201_1200; t < T_1201_1200 + 1800; t += 7) {
		if (t > T_1201_1200 + 600 && t < T_1201_1200 + 900)
			continue;	/* the daemon is down */
		v.active = t < busy_until;
		serve_sched_decide(&v, MS(t), &f);
		if (!f.fire)
			continue;
		assert_true(nf < 64);
		for (i = 0; i < nf; i++)
			assert_true(fired_slots[i] != f.slot_ms);
		assert_true(f.slot_ms <= MS(t));
		assert_true(f.slot_ms > v.last_fired_ms);
		fired_slots[nf++] = f.slot_ms;
		v.last_fired_ms = f.slot_ms;
		busy_until = t + 100;
	}
	/* 100 s busy, ticks of 7 s: a firing about every 2 minutes. */
	assert_true(nf >= 10 && nf <= 16);
}

static char	dbpath[256];

static void
test_tick_store(void **state)
{
	struct store		*st;
	struct store_sched	 s, got;
	struct store_q_item	*items;
	struct cron_cache	*cache = cron_cache_new(NULL);
	char			 err[512];
	int64_t			 id, now, active;
	size_t			 n;
	int			 fired;

	(void)state;
	fx_db_path(dbpath, sizeof dbpath, "serve-sched");
	assert_int_equal(store_open(dbpath, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err), 0);
	memset(&s, 0, sizeof s);
	s.name = "minute";
	s.cron = "* * * * *";
	s.tz = "UTC";
	s.inventory_path = "lab.json";
	s.plan_path = "plan.json";
	s.plan_text = "{}";
	s.links = "";
	s.enabled = 1;
	assert_int_equal(store_sched_add(st, &s, &id, NULL, err, sizeof err),
	    0);
	assert_int_equal(store_sched_get(st, "minute", &got, err, sizeof err),
	    1);
	now = got.created + 61000;	/* one slot is past */
	/* Disabled (labrat schedule disable): no firing, nothing queued. */
	assert_int_equal(store_sched_enable(st, "minute", 0, err, sizeof err),
	    1);
	assert_int_equal(store_sched_enable(st, "nosuch", 0, err, sizeof err),
	    0);
	assert_int_equal(serve_sched_tick(NULL, st, cache, now, 1, &fired, err,
	    sizeof err), 0);
	assert_int_equal(fired, 0);
	assert_int_equal(store_q_list(st, 0, 0, &items, &n, err, sizeof err),
	    0);
	assert_int_equal(n, 0);
	/* Enabled again: the slot that passed fires. */
	assert_int_equal(store_sched_enable(st, "minute", 1, err, sizeof err),
	    1);
	assert_int_equal(serve_sched_tick(NULL, st, cache, now, 1, &fired, err,
	    sizeof err), 0);
	assert_int_equal(fired, 1);
	/* Again, and as a restarted daemon: nothing more. */
	assert_int_equal(serve_sched_tick(NULL, st, cache, now + 5000, 0,
	    &fired, err, sizeof err), 0);
	assert_int_equal(fired, 0);
	assert_int_equal(serve_sched_tick(NULL, st, cache, now + 5000, 1,
	    &fired, err, sizeof err), 0);
	assert_int_equal(fired, 0);
	assert_int_equal(store_q_list(st, 1u << STORE_Q_QUEUED, 0, &items, &n,
	    err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(items[0].kind, STORE_Q_NIGHT);
	assert_int_equal(items[0].priority, STORE_PRIO_NIGHTLY);
	assert_int_equal(items[0].schedule_id, id);
	assert_int_equal(items[0].slot % 60000, 0);
	assert_string_equal(items[0].payload, "{\"schedule\":\"minute\"}");
	assert_string_equal(items[0].who, "schedule minute");
	store_q_items_free(items, n);
	store_sched_free(&got);
	assert_int_equal(store_sched_get(st, "minute", &got, err, sizeof err),
	    1);
	assert_true(got.last_fired > 0 && got.last_fired <= now);
	/* Three minutes on, the firing still queued: held. */
	assert_int_equal(serve_sched_tick(NULL, st, cache, now + 180000, 0,
	    &fired, err, sizeof err), 0);
	assert_int_equal(fired, 0);
	assert_int_equal(store_q_active_for(st, id, &active, err, sizeof err),
	    0);
	assert_int_equal(active, 1);
	/* It ends: the next tick fires once, for the latest slot. */
	assert_int_equal(store_q_list(st, 1u << STORE_Q_QUEUED, 0, &items, &n,
	    err, sizeof err), 0);
	assert_int_equal(store_q_finish(st, items[0].id, STORE_Q_CANCELLED,
	    "test", err, sizeof err), 0);
	store_q_items_free(items, n);
	assert_int_equal(serve_sched_tick(NULL, st, cache, now + 181000, 0,
	    &fired, err, sizeof err), 0);
	assert_int_equal(fired, 1);
	/* A daemon killed between last_fired and the item: the start-up
	 * pass queues that slot, once. */
	assert_int_equal(store_sched_fired(st, id, got.last_fired + 600000,
	    err, sizeof err), 1);
	assert_int_equal(serve_sched_tick(NULL, st, cache, got.last_fired +
	    600500, 1, &fired, err, sizeof err), 0);
	assert_int_equal(fired, 1);
	assert_int_equal(serve_sched_tick(NULL, st, cache, got.last_fired +
	    600500, 1, &fired, err, sizeof err), 0);
	assert_int_equal(fired, 0);
	store_sched_free(&got);
	store_close(st);
	cron_cache_free(cache);
	fx_db_remove(dbpath);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_tick_store),
	};

	(void)kn;	/* store_fixture.h's, unused here */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
