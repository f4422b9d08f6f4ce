/*
 * test_store_queue: the daemon's queue, heartbeat and link leases in the
 * store (store_queue.c) on a real tmpfs SQLite database: claims in
 * priority order and by kind; two forked processes claiming from one
 * queue never take the same item; a firing added twice is one item;
 * store_q_requeue_dead requeues the items of a dead pid (not those of a
 * live one or of another host); the state machine's refusals; the
 * heartbeat: register, a second daemon refused, a stale or dead one taken
 * over, unregister; link leases: take, refuse, renew, expire, release, a
 * dead owner's lease lapsing; store_q_submit refusing a store no live
 * daemon serves; store_q_add_reset: refused without a live daemon, one
 * item per bisect while it waits or runs, a new one after it ended.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "store_fixture.h"

static char	dbpath[256];
static char	err[512];

static int
setup(void **state)
{
	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return fx_store_open(state, dbpath, sizeof dbpath, "store-queue");
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}

#define ALL_KINDS	0x1fu

static int64_t
add(struct store *st, enum store_q_kind kind, int prio)
{
	int64_t	id = 0;
	int	dup = -1;

	if (store_q_add(st, kind, prio, "{\"x\": 1}", "tester", 0, 0, &id,
	    &dup, err, sizeof err) != 0)
		fail_msg("add: %s", err);
	assert_int_equal(dup, 0);
	return id;
}

/* "HOST:PID" of this host and pid into buf. */
static void
owner_of(char *buf, size_t len, long pid)
{
	char	host[64];

	assert_int_equal(gethostname(host, sizeof host), 0);
	host[63] = '\0';
	snprintf(buf, len, "%s:%ld", host, pid);
}

/* A pid that has exited and been reaped. */
static long
dead_pid(void)
{
	pid_t	pid;
	int	status;

	if ((pid = fork()) == 0)
		_exit(0);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return (long)pid;
}

static void
test_priority_order(void **state)
{
	struct store		*st = *state;
	struct store_q_item	 it;
	int64_t			 routine, night, run1, run2, regr, health;

	routine = add(st, STORE_Q_HEALTH, STORE_PRIO_ROUTINE);
	night = add(st, STORE_Q_NIGHT, STORE_PRIO_NIGHTLY);
	run1 = add(st, STORE_Q_RUN, STORE_PRIO_INTERACTIVE);
	regr = add(st, STORE_Q_BISECT, STORE_PRIO_REGRESSION);
	run2 = add(st, STORE_Q_RUN, STORE_PRIO_INTERACTIVE);
	health = add(st, STORE_Q_HEALTH, STORE_PRIO_ROUTINE);

	/* Only health items wanted: the oldest of the two. */
	assert_int_equal(store_q_claim(st, "d:1", 1u << STORE_Q_HEALTH, &it,
	    err, sizeof err), 1);
	assert_int_equal(it.id, routine);
	store_q_item_free(&it);
	/* No kind at all: nothing. */
	assert_int_equal(store_q_claim(st, "d:1", 0, &it, err, sizeof err), 0);

	assert_int_equal(store_q_claim(st, "d:1", ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, regr);
	assert_int_equal(it.kind, STORE_Q_BISECT);
	assert_int_equal(it.priority, STORE_PRIO_REGRESSION);
	assert_int_equal(it.state, STORE_Q_RUNNING);
	assert_string_equal(it.owner, "d:1");
	assert_string_equal(it.payload, "{\"x\": 1}");
	assert_string_equal(it.who, "tester");
	assert_int_equal(it.attempts, 1);
	assert_true(it.started >= it.enqueued && it.enqueued > 0);
	assert_int_equal(it.finished, 0);
	store_q_item_free(&it);
	assert_int_equal(store_q_claim(st, "d:1", ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, run1);
	store_q_item_free(&it);
	assert_int_equal(store_q_claim(st, "d:1", ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, run2);
	store_q_item_free(&it);
	assert_int_equal(store_q_claim(st, "d:1", ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, night);
	store_q_item_free(&it);
	assert_int_equal(store_q_claim(st, "d:1", ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, health);
	store_q_item_free(&it);
	assert_int_equal(store_q_claim(st, "d:1", ALL_KINDS, &it, err,
	    sizeof err), 0);
}

#define NCLAIM	60

/* A child: opens its own connection and claims until the queue is empty,
 * writing each claimed id to fd. */
static void
claimer(int fd, const char *owner)
{
	struct store		*st;
	struct store_q_item	 it;
	char			 e[512];
	int			 rc;

	if (store_open(dbpath, STORE_OPEN_MIGRATE, &st, e, sizeof e) == -1)
		_exit(2);
	while ((rc = store_q_claim(st, owner, ALL_KINDS, &it, e,
	    sizeof e)) == 1) {
		if (write(fd, &it.id, sizeof it.id) != sizeof it.id)
			_exit(3);
		store_q_item_free(&it);
	}
	store_close(st);
	_exit(rc == 0 ? 0 : 4);
}

static void
test_claim_two_processes(void **state)
{
	struct store		*st = *state;
	struct store_q_item	*v;
	int			 fds[2], seen[NCLAIM + 1], status, k, by[2];
	pid_t			 pid[2];
	int64_t			 id;
	size_t			 n, i;

	memset(seen, 0, sizeof seen);
	for (k = 0; k < NCLAIM; k++)
		assert_int_equal(add(st, STORE_Q_RUN, k % 3 * 100), k + 1);
	for (k = 0; k < 2; k++) {
		assert_int_equal(pipe(fds), 0);
		if ((pid[k] = fork()) == 0) {
			close(fds[0]);
			claimer(fds[1], k == 0 ? "a:1" : "b:2");
		}
		close(fds[1]);
		by[k] = fds[0];
	}
	for (k = 0; k < 2; k++) {
		while (read(by[k], &id, sizeof id) == sizeof id) {
			assert_true(id >= 1 && id <= NCLAIM);
			seen[id]++;
		}
		close(by[k]);
		assert_int_equal(waitpid(pid[k], &status, 0), pid[k]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	/* Each item claimed exactly once, by one of the two. */
	for (k = 1; k <= NCLAIM; k++)
		assert_int_equal(seen[k], 1);
	assert_int_equal(store_q_list(st, 1u << STORE_Q_RUNNING, 0, &v, &n,
	    err, sizeof err), 0);
	assert_int_equal(n, NCLAIM);
	for (i = 0; i < n; i++) {
		assert_int_equal(v[i].attempts, 1);
		assert_true(strcmp(v[i].owner, "a:1") == 0 ||
		    strcmp(v[i].owner, "b:2") == 0);
	}
	store_q_items_free(v, n);
}

static void
test_dup_firing(void **state)
{
	struct store		*st = *state;
	struct store_q_item	 it;
	int64_t			 a, b, c, n;
	int			 dup;

	assert_int_equal(store_q_add(st, STORE_Q_NIGHT, STORE_PRIO_NIGHTLY,
	    "{\"schedule\": \"n\"}", "schedule n", 7, 1000, &a, &dup, err,
	    sizeof err), 0);
	assert_int_equal(dup, 0);
	assert_int_equal(store_q_add(st, STORE_Q_NIGHT, STORE_PRIO_NIGHTLY,
	    "{\"schedule\": \"n\"}", "schedule n", 7, 1000, &b, &dup, err,
	    sizeof err), 0);
	assert_int_equal(dup, 1);
	assert_int_equal(b, a);
	/* The next slot, and the same slot of another schedule: new items. */
	assert_int_equal(store_q_add(st, STORE_Q_NIGHT, STORE_PRIO_NIGHTLY,
	    "{}", "schedule n", 7, 2000, &c, &dup, err, sizeof err), 0);
	assert_int_equal(dup, 0);
	assert_true(c != a);
	assert_int_equal(store_q_add(st, STORE_Q_NIGHT, STORE_PRIO_NIGHTLY,
	    "{}", "schedule m", 8, 1000, &b, &dup, err, sizeof err), 0);
	assert_int_equal(dup, 0);
	/* schedule_id 0: no firing, never a duplicate. */
	assert_true(add(st, STORE_Q_RUN, 200) != add(st, STORE_Q_RUN, 200));

	assert_int_equal(store_q_get(st, a, &it, err, sizeof err), 1);
	assert_int_equal(it.schedule_id, 7);
	assert_int_equal(it.slot, 1000);
	store_q_item_free(&it);
	assert_int_equal(store_q_active_for(st, 7, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	/* A firing that ended no longer counts. */
	assert_int_equal(store_q_finish(st, a, STORE_Q_CANCELLED, "skipped",
	    err, sizeof err), 0);
	assert_int_equal(store_q_active_for(st, 7, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(store_q_active_for(st, 99, &n, err, sizeof err), 0);
	assert_int_equal(n, 0);
	/* A finished firing is still the same slot: not added again. */
	assert_int_equal(store_q_add(st, STORE_Q_NIGHT, STORE_PRIO_NIGHTLY,
	    "{}", "schedule n", 7, 1000, &b, &dup, err, sizeof err), 0);
	assert_int_equal(dup, 1);
	assert_int_equal(b, a);
}

static void
test_requeue_dead(void **state)
{
	struct store		*st = *state;
	struct store_q_item	 it;
	char			 dead[96], live[96];
	int64_t			 a, b, c, n;

	owner_of(dead, sizeof dead, dead_pid());
	owner_of(live, sizeof live, (long)getpid());
	a = add(st, STORE_Q_RUN, 300);
	b = add(st, STORE_Q_RUN, 200);
	c = add(st, STORE_Q_RUN, 100);
	assert_int_equal(store_q_claim(st, dead, ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, a);
	store_q_item_free(&it);
	assert_int_equal(store_q_claim(st, live, ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, b);
	store_q_item_free(&it);
	/* Another host's process cannot be checked from here: kept. */
	assert_int_equal(store_q_claim(st, "elsewhere.invalid:1", ALL_KINDS,
	    &it, err, sizeof err), 1);
	assert_int_equal(it.id, c);
	store_q_item_free(&it);

	assert_int_equal(store_q_requeue_dead(st, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(store_q_get(st, a, &it, err, sizeof err), 1);
	assert_int_equal(it.state, STORE_Q_QUEUED);
	assert_null(it.owner);
	assert_int_equal(it.started, 0);
	assert_int_equal(it.attempts, 1);
	assert_non_null(strstr(it.result, "is gone"));
	store_q_item_free(&it);
	assert_int_equal(store_q_get(st, b, &it, err, sizeof err), 1);
	assert_int_equal(it.state, STORE_Q_RUNNING);
	store_q_item_free(&it);
	assert_int_equal(store_q_get(st, c, &it, err, sizeof err), 1);
	assert_int_equal(it.state, STORE_Q_RUNNING);
	store_q_item_free(&it);
	/* Nothing more to do the second time. */
	assert_int_equal(store_q_requeue_dead(st, &n, err, sizeof err), 0);
	assert_int_equal(n, 0);
	/* Claimed again: the second attempt. */
	assert_int_equal(store_q_claim(st, live, ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, a);
	assert_int_equal(it.attempts, 2);
	store_q_item_free(&it);
}

/* Expects a call to fail with a message containing what. */
#define assert_fails(call, what) do {					\
	err[0] = '\0';							\
	assert_int_equal((call), -1);					\
	if (strstr(err, (what)) == NULL)				\
		fail_msg("expected \"%s\" in \"%s\"", (what), err);	\
} while (0)

static void
test_states(void **state)
{
	struct store		*st = *state;
	struct store_run_spec	 spec = { .kind = "manual",
				    .inventory_path = "lab.json",
				    .plan_path = "plan.json",
				    .plan_text = "{}" };
	struct store_q_item	 it, *v;
	int64_t			 a, b, c, run;
	size_t			 n;

	a = add(st, STORE_Q_RUN, 200);
	b = add(st, STORE_Q_BISECT, 200);
	c = add(st, STORE_Q_HEALTH, 0);
	assert_fails(store_q_finish(st, a, STORE_Q_DONE, "x", err, sizeof err),
	    "queue item 1 is queued, not running");
	assert_fails(store_q_requeue(st, a, "x", err, sizeof err),
	    "is queued, not running");
	assert_fails(store_q_finish(st, 99, STORE_Q_DONE, NULL, err,
	    sizeof err), "no queue item 99");
	assert_fails(store_q_finish(st, a, STORE_Q_RUNNING, NULL, err,
	    sizeof err), "not done, failed or cancelled");
	assert_fails(store_q_add(st, STORE_Q_RUN, 1, "[1]", "t", 0, 0, NULL,
	    NULL, err, sizeof err), "not a JSON object");
	assert_fails(store_q_add(st, STORE_Q_RUN, 1, "{}", NULL, 0, 0, NULL,
	    NULL, err, sizeof err), "queue who");

	assert_int_equal(store_q_claim(st, "d:1", ALL_KINDS, &it, err,
	    sizeof err), 1);
	store_q_item_free(&it);
	assert_int_equal(store_run_create(st, &spec, &run, err, sizeof err), 0);
	assert_int_equal(store_q_set_ids(st, a, run, 0, err, sizeof err), 0);
	assert_fails(store_q_set_ids(st, 77, run, 0, err, sizeof err),
	    "no queue item 77");
	assert_int_equal(store_q_requeue(st, a, "SIGTERM", err, sizeof err), 0);
	assert_int_equal(store_q_claim(st, "d:2", ALL_KINDS, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, a);
	assert_int_equal(it.run_id, run);
	assert_string_equal(it.owner, "d:2");
	store_q_item_free(&it);
	assert_int_equal(store_q_finish(st, a, STORE_Q_DONE, "run 1 done",
	    err, sizeof err), 0);
	assert_fails(store_q_finish(st, a, STORE_Q_FAILED, NULL, err,
	    sizeof err), "is done, not running");
	assert_int_equal(store_q_finish(st, b, STORE_Q_CANCELLED, "by hand",
	    err, sizeof err), 0);

	/* Newest first; a states mask; a limit. */
	assert_int_equal(store_q_list(st, 0, 0, &v, &n, err, sizeof err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0].id, c);
	assert_int_equal(v[2].id, a);
	assert_int_equal(v[2].state, STORE_Q_DONE);
	assert_string_equal(v[2].result, "run 1 done");
	assert_true(v[2].finished >= v[2].started);
	assert_int_equal(v[1].state, STORE_Q_CANCELLED);
	store_q_items_free(v, n);
	assert_int_equal(store_q_list(st, 1u << STORE_Q_DONE |
	    1u << STORE_Q_QUEUED, 1, &v, &n, err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].id, c);
	store_q_items_free(v, n);
	/* Pages: older than the cursor (the last id of the page before). */
	assert_int_equal(store_q_page(st, 0, c, 1, &v, &n, err, sizeof err),
	    0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].id, b);
	store_q_items_free(v, n);
	assert_int_equal(store_q_page(st, 0, b, 5, &v, &n, err, sizeof err),
	    0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].id, a);
	store_q_items_free(v, n);
	assert_int_equal(store_q_page(st, 0, a, 5, &v, &n, err, sizeof err),
	    0);
	assert_int_equal(n, 0);
	assert_int_equal(store_q_page(st, 1u << STORE_Q_DONE, c, 0, &v, &n,
	    err, sizeof err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].id, a);
	store_q_items_free(v, n);
	assert_string_equal(store_q_kind_name(STORE_Q_NIGHT), "night");
	assert_string_equal(store_q_state_name(STORE_Q_CANCELLED), "cancelled");
}

static void
test_heartbeat(void **state)
{
	struct store		*st = *state;
	struct store_daemon	 d, other;
	char			 me[96], gone[96];
	int			 live;

	assert_int_equal(store_daemon_get(st, 15000, &d, &live, err,
	    sizeof err), 0);
	owner_of(me, sizeof me, (long)getpid());
	assert_int_equal(store_daemon_register(st, me, 15000, &other, err,
	    sizeof err), 0);
	assert_int_equal(store_daemon_get(st, 15000, &d, &live, err,
	    sizeof err), 1);
	assert_int_equal(live, 1);
	assert_string_equal(d.owner, me);
	assert_true(d.beat > 0 && d.started == d.beat);
	store_daemon_free(&d);

	/* A second daemon is refused while this one lives and beats. */
	assert_int_equal(store_daemon_register(st, "other.invalid:5", 15000,
	    &other, err, sizeof err), 1);
	assert_string_equal(other.owner, me);
	store_daemon_free(&other);
	assert_int_equal(store_daemon_beat(st, me, 1, err, sizeof err), 0);
	assert_int_equal(store_daemon_get(st, 15000, &d, &live, err,
	    sizeof err), 1);
	assert_int_equal(d.stopping, 1);
	store_daemon_free(&d);

	/* Stale (no beat within stale_ms): taken over, and the old one
	 * learns it at its next beat. */
	usleep(30 * 1000);
	assert_int_equal(store_daemon_get(st, 10, &d, &live, err,
	    sizeof err), 1);
	assert_int_equal(live, 0);
	store_daemon_free(&d);
	assert_int_equal(store_daemon_register(st, "other.invalid:5", 10,
	    &other, err, sizeof err), 0);
	assert_fails(store_daemon_beat(st, me, 0, err, sizeof err),
	    "is not the daemon registered");

	/* A fresh beat of a dead pid on this host: taken over at once. */
	owner_of(gone, sizeof gone, dead_pid());
	usleep(30 * 1000);
	assert_int_equal(store_daemon_register(st, gone, 10, &other, err,
	    sizeof err), 0);
	assert_int_equal(store_daemon_get(st, 15000, &d, &live, err,
	    sizeof err), 1);
	assert_int_equal(live, 0);
	store_daemon_free(&d);
	assert_int_equal(store_daemon_register(st, me, 15000, &other, err,
	    sizeof err), 0);

	/* Unregistered: the row stays, not live; a beat is refused. */
	assert_int_equal(store_daemon_unregister(st, me, err, sizeof err), 0);
	assert_int_equal(store_daemon_get(st, 15000, &d, &live, err,
	    sizeof err), 1);
	assert_int_equal(live, 0);
	assert_int_equal(d.stopped, 1);
	store_daemon_free(&d);
	assert_fails(store_daemon_beat(st, me, 0, err, sizeof err),
	    "is not the daemon registered");
	assert_int_equal(store_daemon_register(st, "other.invalid:5", 15000,
	    &other, err, sizeof err), 0);
}

static void
test_submit(void **state)
{
	struct store		*st = *state;
	struct store_daemon	 other;
	struct store_q_item	 it;
	char			 me[96], who[256], want[1200];
	int64_t			 id;

	store_q_who(who, sizeof who);
	assert_non_null(strchr(who, '@'));
	assert_non_null(strstr(who, " pid "));
	snprintf(want, sizeof want, "no daemon serves %s: last heartbeat "
	    "never (labrat serve --db %s)", dbpath, dbpath);
	assert_fails(store_q_submit(st, STORE_Q_RUN, STORE_PRIO_INTERACTIVE,
	    "{}", who, &id, err, sizeof err), want);
	owner_of(me, sizeof me, (long)getpid());
	assert_int_equal(store_daemon_register(st, me, 15000, &other, err,
	    sizeof err), 0);
	assert_int_equal(store_q_submit(st, STORE_Q_RUN,
	    STORE_PRIO_INTERACTIVE, "{}", who, &id, err, sizeof err), 0);
	assert_int_equal(store_q_get(st, id, &it, err, sizeof err), 1);
	assert_string_equal(it.who, who);
	assert_int_equal(it.priority, 200);
	store_q_item_free(&it);
	assert_int_equal(store_daemon_unregister(st, me, err, sizeof err), 0);
	snprintf(want, sizeof want, "no daemon serves %s: last heartbeat 0 s "
	    "ago (labrat serve --db %s)", dbpath, dbpath);
	assert_fails(store_q_submit(st, STORE_Q_RUN, STORE_PRIO_INTERACTIVE,
	    "{}", who, &id, err, sizeof err), want);
}

static void
test_add_reset(void **state)
{
	struct store			*st = *state;
	struct store_bisect_spec	 spec = { .link = "em", .tool = "iperf3",
					    .metric = "throughput_bps",
					    .good = "r1", .bad = "r3" };
	struct store_daemon		 other;
	struct store_q_item		 it;
	char				 me[96];
	int64_t				 bid, bid2, id, id2;

	assert_int_equal(store_bisect_create(st, &spec, &bid, err,
	    sizeof err), 0);
	assert_int_equal(store_bisect_create(st, &spec, &bid2, err,
	    sizeof err), 0);
	assert_fails(store_q_add_reset(st, bid, STORE_PRIO_INTERACTIVE,
	    "API token w", &id, err, sizeof err), "no daemon serves");
	owner_of(me, sizeof me, (long)getpid());
	assert_int_equal(store_daemon_register(st, me, 15000, &other, err,
	    sizeof err), 0);
	assert_int_equal(store_q_add_reset(st, bid, STORE_PRIO_INTERACTIVE,
	    "API token w", &id, err, sizeof err), 0);
	assert_int_equal(store_q_get(st, id, &it, err, sizeof err), 1);
	assert_int_equal(it.kind, STORE_Q_RESET);
	assert_string_equal(store_q_kind_name(it.kind), "reset");
	assert_int_equal(it.bisect_id, bid);
	assert_int_equal(it.priority, STORE_PRIO_INTERACTIVE);
	assert_string_equal(it.who, "API token w");
	assert_non_null(strstr(it.payload, "\"bisect\""));
	store_q_item_free(&it);
	/* Asked again while queued, and while running: the same item. */
	assert_int_equal(store_q_add_reset(st, bid, 0, "again", &id2, err,
	    sizeof err), 1);
	assert_int_equal(id2, id);
	assert_int_equal(store_q_claim(st, me, 1u << STORE_Q_RESET, &it, err,
	    sizeof err), 1);
	assert_int_equal(it.id, id);
	store_q_item_free(&it);
	assert_int_equal(store_q_add_reset(st, bid, 0, "again", &id2, err,
	    sizeof err), 1);
	assert_int_equal(id2, id);
	/* Another bisect's reset is its own item. */
	assert_int_equal(store_q_add_reset(st, bid2, 0, "other", &id2, err,
	    sizeof err), 0);
	assert_true(id2 != id);
	/* Done: a new request is a new item (the route refuses a bisect
	 * reset already before it gets here). */
	assert_int_equal(store_q_finish(st, id, STORE_Q_DONE, "reset", err,
	    sizeof err), 0);
	assert_int_equal(store_q_add_reset(st, bid, 0, "later", &id2, err,
	    sizeof err), 0);
	assert_true(id2 > id);
	assert_int_equal(store_daemon_unregister(st, me, err, sizeof err), 0);
}

static void
test_link_lease(void **state)
{
	struct store	*st = *state;
	char		 holder[STORE_OWNER_MAX], gone[96];

	assert_int_equal(store_link_lease_take(st, "em", "a:1", 60000, holder,
	    sizeof holder, err, sizeof err), 1);
	assert_int_equal(store_link_lease_take(st, "em", "b:2", 60000, holder,
	    sizeof holder, err, sizeof err), 0);
	assert_string_equal(holder, "a:1");
	/* Another link is free. */
	assert_int_equal(store_link_lease_take(st, "bce", "b:2", 60000, holder,
	    sizeof holder, err, sizeof err), 1);
	/* Renewed by its holder, here to a short ttl that then expires. */
	assert_int_equal(store_link_lease_take(st, "em", "a:1", 1, holder,
	    sizeof holder, err, sizeof err), 1);
	usleep(20 * 1000);
	assert_int_equal(store_link_lease_take(st, "em", "b:2", 60000, holder,
	    sizeof holder, err, sizeof err), 1);
	assert_int_equal(store_link_lease_take(st, "em", "a:1", 60000, holder,
	    sizeof holder, err, sizeof err), 0);
	assert_string_equal(holder, "b:2");
	/* Only the holder releases. */
	assert_int_equal(store_link_lease_release(st, "em", "a:1", err,
	    sizeof err), 0);
	assert_int_equal(store_link_lease_take(st, "em", "a:1", 60000, holder,
	    sizeof holder, err, sizeof err), 0);
	assert_int_equal(store_link_lease_release(st, "em", "b:2", err,
	    sizeof err), 0);
	assert_int_equal(store_link_lease_take(st, "em", "a:1", 60000, holder,
	    sizeof holder, err, sizeof err), 1);
	/* A dead process's lease lapses before it expires. */
	owner_of(gone, sizeof gone, dead_pid());
	assert_int_equal(store_link_lease_take(st, "ix", gone, 60000, holder,
	    sizeof holder, err, sizeof err), 1);
	assert_int_equal(store_link_lease_take(st, "ix", "b:2", 60000, holder,
	    sizeof holder, err, sizeof err), 1);
	assert_fails(store_link_lease_take(st, "ix", "b:2", 0, holder,
	    sizeof holder, err, sizeof err), "ttl 0 ms");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_priority_order, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_claim_two_processes, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dup_firing, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_requeue_dead, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_heartbeat, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_submit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_reset, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_link_lease, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
