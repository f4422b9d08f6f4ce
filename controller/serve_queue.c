/*
 * serve_queue: the worker.  It claims the best queued item, takes the
 * store leases on the links it drives (renewed by the main thread's
 * beat), runs it through the module that owns that kind of work and
 * records the outcome.  A run item that already made its run (run_id set:
 * a daemon died or stopped mid-run) resumes that run; a bisect item with
 * its bisect_id resumes that bisect: nothing done twice.  A stop leaves
 * the item's run or bisect resumable and the item queued again.
 *
 * Reset items reset a bisect (q_do_reset), once however often the daemon
 * dies on it.  Health items run health_check() (serve_health.c).  A run or bisect item
 * one of whose links is bad, in maintenance or retired is not started: it
 * fails with a result naming the link and its state (serve_links_usable).
 * After a run or night item ended, each link on which one of its runs
 * failed a job of class infra gets a health check (serve_health_after).
 *
 * One worker thread: limits.max_jobs above 1 is not used yet (a night runs
 * its bisect inside night_fire, on this thread, and waits there while
 * limits.max_bisects bisects run elsewhere).  Each
 * payload is decoded by the module that writes it (run_payload_decode(),
 * hunt_payload_decode(), health_payload_decode()): serve parses no JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "health.h"
#include "hunt.h"
#include "log.h"
#include "night.h"
#include "run.h"
#include "serve_int.h"
#include "util.h"

#define Q_KINDS	((1u << STORE_Q_RUN) | (1u << STORE_Q_BISECT) | \
		 (1u << STORE_Q_NIGHT) | (1u << STORE_Q_HEALTH) | \
		 (1u << STORE_Q_RESET))

/* What a worker has at hand for one item. */
struct q_ctx {
	struct serve		*sv;
	struct store		*st;
	struct store_q_item	*it;
	/* The payload, decoded by the module that wrote it (one of these,
	 * by the item's kind; a night's is only checked). */
	struct run_payload	 run;
	struct hunt_payload	 hunt;
	struct health_payload	 health;
	int64_t			 run_id;	/* the run it drove, 0 none */
	char			 result[1024];
};

/* Decodes the item's payload by its kind: 0, or -1 (not an object). */
static int
q_decode(struct q_ctx *q)
{
	char	e[64];

	switch (q->it->kind) {
	case STORE_Q_RUN:
		return run_payload_decode(q->it->payload, &q->run, e,
		    sizeof e);
	case STORE_Q_BISECT:
		return hunt_payload_decode(q->it->payload, &q->hunt, e,
		    sizeof e);
	case STORE_Q_HEALTH:
		return health_payload_decode(q->it->payload, &q->health, e,
		    sizeof e);
	default:
		return config_flat_parse(q->it->payload, NULL, e, sizeof e);
	}
}

static void
q_leases_drop(struct serve *sv, struct store *st)
{
	char	e[256];
	size_t	i;

	pthread_mutex_lock(&sv->mtx);
	for (i = 0; i < sv->nleased; i++) {
		if (store_link_lease_release(st, sv->leased[i], sv->owner, e,
		    sizeof e) == -1)
			log_warnx("link %s: release lease: %s", sv->leased[i],
			    e);
		free(sv->leased[i]);
	}
	sv->nleased = 0;
	pthread_mutex_unlock(&sv->mtx);
}

/* Takes every link's lease: 1 all, 0 one is held (why), -1 error. */
static int
q_leases_take(struct q_ctx *q, char *const *links, size_t n, char *why,
    size_t whylen)
{
	struct serve	*sv = q->sv;
	char		 holder[STORE_OWNER_MAX], e[256];
	size_t		 i;
	int		 r;

	for (i = 0; i < n && i < SERVE_LINKS_MAX; i++) {
		r = store_link_lease_take(q->st, links[i], sv->owner,
		    SERVE_LEASE_TTL_MS, holder, sizeof holder, e, sizeof e);
		if (r != 1) {
			if (r == 0)
				snprintf(why, whylen, "link %s is leased by %s",
				    links[i], holder);
			else
				snprintf(why, whylen, "link %s: %s", links[i],
				    e);
			q_leases_drop(sv, q->st);
			return r;
		}
		pthread_mutex_lock(&sv->mtx);
		sv->leased[sv->nleased++] = xstrdup(links[i]);
		pthread_mutex_unlock(&sv->mtx);
	}
	return 1;
}

void
serve_leases_renew(struct serve *sv, struct store *st)
{
	char	holder[STORE_OWNER_MAX], e[256];
	size_t	i;

	pthread_mutex_lock(&sv->mtx);
	for (i = 0; i < sv->nleased; i++)
		if (store_link_lease_take(st, sv->leased[i], sv->owner,
		    SERVE_LEASE_TTL_MS, holder, sizeof holder, e,
		    sizeof e) != 1)
			log_warnx("link %s: lease renewal failed: %s%s",
			    sv->leased[i], e, holder);
	pthread_mutex_unlock(&sv->mtx);
}

static void
q_run_started(const struct run_result *res, void *arg)
{
	struct q_ctx	*q = arg;
	char		 e[256];

	if (store_q_set_ids(q->st, q->it->id, res->run_id, 0, e,
	    sizeof e) == -1)
		log_warnx("item %lld: record run %lld: %s",
		    (long long)q->it->id, (long long)res->run_id, e);
	log_info("item %lld: run %lld %s", (long long)q->it->id,
	    (long long)res->run_id, res->resumed ? "resumed" : "started");
}

/* The plan's links, for the leases (heap argv in *links). */
static int
q_plan_links(const char *plan_path, char ***links, size_t *n, char *err,
    size_t errlen)
{
	struct config_errors	 errs;
	struct config_plan	*plan;
	size_t			 i;

	config_errors_init(&errs);
	plan = config_plan_load(plan_path, NULL, &errs);
	if (plan == NULL) {
		util_seterr(err, errlen, "%s", errs.n > 0 ? errs.msgs[0] :
		    "plan not readable");
		config_errors_free(&errs);
		return -1;
	}
	config_errors_free(&errs);
	*links = xcalloc(plan->nlinks + 1, sizeof **links);
	for (i = 0; i < plan->nlinks; i++)
		(*links)[i] = xstrdup(plan->links[i]);
	*n = plan->nlinks;
	config_plan_free(plan);
	return 0;
}

/* 0 finished (state in *st), 1 requeue (stopped or link busy). */
static int
q_do_run(struct q_ctx *q, enum store_q_state *state)
{
	struct run_request	 rq;
	struct run_result	 res;
	struct config_errors	 errs;
	char			**links = NULL, e[1024];
	size_t			 nl = 0;
	enum run_status		 rs;
	int			 r;

	memset(&rq, 0, sizeof rq);
	rq.db_path = q->sv->db_path;
	rq.inventory = q->run.inventory;
	rq.plan = q->run.plan;
	rq.note = q->run.note;
	rq.kind = "queued";
	rq.resume = q->it->run_id;
	rq.drive.stop = &q->sv->stop;
	rq.drive.pause_on_stop = 1;
	rq.started = q_run_started;
	rq.started_arg = q;
	if (rq.resume == 0 && (rq.inventory == NULL || rq.plan == NULL)) {
		snprintf(q->result, sizeof q->result, "payload: inventory and "
		    "plan are required");
		*state = STORE_Q_FAILED;
		return 0;
	}
	if (rq.plan != NULL && q_plan_links(rq.plan, &links, &nl, e,
	    sizeof e) == -1 && rq.resume == 0) {
		snprintf(q->result, sizeof q->result, "%s", e);
		*state = STORE_Q_FAILED;
		return 0;
	}
	if (!serve_links_usable(q->sv, links, nl, q->result,
	    sizeof q->result)) {
		config_argv_free(links);
		*state = STORE_Q_FAILED;
		return 0;
	}
	r = q_leases_take(q, links, nl, q->result, sizeof q->result);
	config_argv_free(links);
	if (r != 1)
		return 1;
	config_errors_init(&errs);
	memset(&res, 0, sizeof res);
	rs = run_execute(&rq, &res, &errs, e, sizeof e);
	q_leases_drop(q->sv, q->st);
	q->run_id = res.run_id;
	*state = STORE_Q_FAILED;
	if (res.outcome == RUN_OUTCOME_INTERRUPTED && q->sv->stop) {
		config_errors_free(&errs);
		snprintf(q->result, sizeof q->result, "run %lld stopped with "
		    "the daemon: resumed on its restart", (long long)res.run_id);
		return 1;
	}
	if (rs == RUN_CONFIG)
		snprintf(q->result, sizeof q->result, "%s", errs.n > 0 ?
		    errs.msgs[0] : "bad config");
	else if (res.outcome == RUN_OUTCOME_DONE) {
		*state = STORE_Q_DONE;
		snprintf(q->result, sizeof q->result, "run %lld done: %lld "
		    "jobs", (long long)res.run_id, (long long)res.sum.done);
	} else if (res.outcome == RUN_OUTCOME_JOBS_FAILED)
		snprintf(q->result, sizeof q->result, "run %lld: %lld jobs "
		    "failed", (long long)res.run_id, (long long)res.sum.failed);
	else
		snprintf(q->result, sizeof q->result, "run %lld: %.900s",
		    (long long)res.run_id, *e != '\0' ? e : "failed");
	config_errors_free(&errs);
	return 0;
}

static void
q_hunt_event(const struct hunt_event *ev, void *arg)
{
	struct q_ctx	*q = arg;
	char		 e[256];

	if (ev->kind == HUNT_EV_STARTED && store_q_set_ids(q->st, q->it->id,
	    0, ev->bisect_id, e, sizeof e) == -1)
		log_warnx("item %lld: record bisect %lld: %s",
		    (long long)q->it->id, (long long)ev->bisect_id, e);
	log_info("bisect %lld: %s", (long long)ev->bisect_id, ev->text);
}

static int
q_do_bisect(struct q_ctx *q, enum store_q_state *state)
{
	struct hunt_opts	 ho;
	struct hunt_request	 hr;
	enum hunt_status	 hs;
	char			*links[2] = { NULL, NULL }, e[1024];
	int64_t			 id = q->it->bisect_id;

	memset(&ho, 0, sizeof ho);
	memset(&hr, 0, sizeof hr);
	ho.db_path = q->sv->db_path;
	ho.stop = &q->sv->stop;
	ho.event = q_hunt_event;
	ho.event_arg = q;
	hr.inventory = q->hunt.inventory;
	hr.link = q->hunt.link;
	hr.good = q->hunt.good;
	hr.bad = q->hunt.bad;
	hr.test = q->hunt.test;
	hr.revisions = q->hunt.revisions;
	hr.leave_on_culprit = q->hunt.leave_on_culprit;
	*state = STORE_Q_FAILED;
	if (hr.link == NULL) {
		snprintf(q->result, sizeof q->result, "payload: link is "
		    "required");
		return 0;
	}
	links[0] = (char *)hr.link;
	if (!serve_links_usable(q->sv, links, 1, q->result, sizeof q->result))
		return 0;
	if (q_leases_take(q, links, 1, q->result, sizeof q->result) != 1)
		return 1;
	e[0] = '\0';
	if (id != 0)
		hs = hunt_resume(&ho, id, &id, e, sizeof e);
	else
		hs = hunt_start(&ho, &hr, &id, e, sizeof e);
	q_leases_drop(q->sv, q->st);
	if (hs == HUNT_INTERRUPTED && q->sv->stop) {
		snprintf(q->result, sizeof q->result, "bisect %lld stopped "
		    "with the daemon: resumed on its restart", (long long)id);
		return 1;
	}
	if (hs == HUNT_FOUND || hs == HUNT_RANGE || hs == HUNT_ENDED)
		*state = STORE_Q_DONE;
	snprintf(q->result, sizeof q->result, "bisect %lld: %s%s%.900s",
	    (long long)id, hunt_status_name(hs), *e != '\0' ? ": " : "", e);
	return 0;
}

/*
 * A bisect's reset (POST bisects/{id}/reset): hunt_reset() under the
 * link's lease, the hosts of a running one put back.  A daemon killed
 * during it claims the item again: a bisect still not reset is reset again
 * (its hosts put back again, the install being what may have been cut
 * short); one an earlier attempt marked reset is left alone, so the reset
 * is done once.
 */
static int
q_do_reset(struct q_ctx *q, enum store_q_state *state)
{
	struct hunt_opts	 ho;
	struct store_bisect	 b;
	enum store_owner_state	 os;
	char			*links[2] = { NULL, NULL }, e[1024];
	char			 who[160], was[16], done[2048];
	int64_t			 id = q->it->bisect_id, rid;
	int			 r;

	*state = STORE_Q_FAILED;
	if ((r = store_bisect_get(q->st, id, &b, e, sizeof e)) != 1) {
		snprintf(q->result, sizeof q->result, "bisect %lld: %.900s",
		    (long long)id, r == 0 ? "no such bisect" : e);
		return 0;
	}
	os = store_owner_state(&b.who);
	store_owner_text(&b.who, who, sizeof who);
	links[0] = b.link;
	if (strcmp(b.state, "reset") == 0) {
		*state = STORE_Q_DONE;
		snprintf(q->result, sizeof q->result, "bisect %lld was reset "
		    "already%s", (long long)id, q->it->attempts > 1 ?
		    " (by an earlier attempt of this item)" : "");
	} else if (strcmp(b.state, "running") == 0 &&
	    (os == STORE_OWNER_ALIVE || os == STORE_OWNER_ELSEWHERE))
		snprintf(q->result, sizeof q->result, "bisect %lld is driven "
		    "by %s: stop it first", (long long)id, who);
	else if (strcmp(b.state, "done") != 0 && strcmp(b.state, "failed") !=
	    0 && !serve_links_usable(q->sv, links, 1, q->result,
	    sizeof q->result))
		;	/* its hosts would be reinstalled: not on such a link */
	else if ((r = q_leases_take(q, links, 1, q->result,
	    sizeof q->result)) != 1) {
		store_bisect_free(&b);
		return 1;
	} else {
		memset(&ho, 0, sizeof ho);
		ho.db_path = q->sv->db_path;
		r = hunt_reset(&ho, id, &rid, was, sizeof was, done,
		    sizeof done, e, sizeof e);
		q_leases_drop(q->sv, q->st);
		if (r == 1)
			*state = STORE_Q_DONE;
		if (r == 1)
			snprintf(q->result, sizeof q->result, "bisect %lld "
			    "reset (was %s)%s%.900s", (long long)id, was,
			    done[0] != '\0' ? "; " : "", done);
		else
			snprintf(q->result, sizeof q->result, "bisect %lld: "
			    "%.900s", (long long)id, r == 0 ? "no such bisect" :
			    e);
	}
	store_bisect_free(&b);
	return 0;
}

/*
 * A schedule's firing: night_fire() from where a killed one left off (its
 * night row is keyed by schedule and slot).  The daemon config is the one
 * at the item's start: a SIGHUP does not change a night half-way.
 */
static int
q_do_night(struct q_ctx *q, enum store_q_state *state)
{
	struct night_request	 nr;
	struct config_daemon	*d = NULL;
	struct config_errors	 errs;
	enum night_status	 ns;
	char			 e[1024];

	*state = STORE_Q_FAILED;
	pthread_mutex_lock(&q->sv->mtx);
	config_errors_init(&errs);
	if (config_daemon_parse(q->sv->config->path, q->sv->config->text,
	    strlen(q->sv->config->text), &d, &errs) == -1)
		d = NULL;
	config_errors_free(&errs);
	pthread_mutex_unlock(&q->sv->mtx);
	if (d == NULL) {
		snprintf(q->result, sizeof q->result, "the daemon config "
		    "could not be copied");
		return 0;
	}
	memset(&nr, 0, sizeof nr);
	nr.db_path = q->sv->db_path;
	nr.daemon = d;
	nr.schedule_id = q->it->schedule_id;
	nr.slot = q->it->slot;
	nr.owner = q->sv->owner;
	nr.stop = &q->sv->stop;
	/* night_say() logs each line itself ("night N: ..."). */
	nr.say = NULL;
	e[0] = '\0';
	ns = night_fire(&nr, e, sizeof e);
	config_daemon_free(d);
	if (ns == NIGHT_INTERRUPTED && q->sv->stop) {
		snprintf(q->result, sizeof q->result, "night stopped with the "
		    "daemon: resumed on its restart");
		return 1;
	}
	if (ns == NIGHT_DONE)
		*state = STORE_Q_DONE;
	snprintf(q->result, sizeof q->result, "night %s%s%.900s",
	    night_status_name(ns), *e != '\0' ? ": " : "", e);
	return 0;
}

/* A health check of one link (serve_health.c), under its link lease. */
static int
q_do_health(struct q_ctx *q, enum store_q_state *state)
{
	const char	*inv = q->health.inventory, *link = q->health.link;
	char		*links[2] = { NULL, NULL };
	int		 r;

	*state = STORE_Q_FAILED;
	if (inv == NULL || link == NULL) {
		snprintf(q->result, sizeof q->result, "payload: link and "
		    "inventory are required");
		return 0;
	}
	links[0] = (char *)link;
	if (q_leases_take(q, links, 1, q->result, sizeof q->result) != 1)
		return 1;
	r = serve_health_run(q->sv, inv, link, q->result, sizeof q->result);
	q_leases_drop(q->sv, q->st);
	if (r == 1)
		return 1;
	if (r == 0)
		*state = STORE_Q_DONE;
	return 0;
}

/* After a run or night item ended: health checks of its links that
 * failed a job for the lab's reasons (class infra). */
static void
q_after(struct q_ctx *q)
{
	struct store_sched	 s;
	struct store_night	*v = NULL;
	size_t			 n = 0, i;
	char			 e[512];
	int			 rc = 0;

	if (q->it->kind == STORE_Q_RUN)
		rc = serve_health_after(q->sv, q->st, q->run.inventory,
		    q->run_id, e, sizeof e);
	else if (q->it->kind == STORE_Q_NIGHT &&
	    store_sched_get_id(q->st, q->it->schedule_id, &s, e,
	    sizeof e) == 1) {
		/* The night of this firing: its run and confirming run. */
		if (store_night_list(q->st, 20, &v, &n, e, sizeof e) == -1)
			n = 0;
		for (i = 0; i < n && rc == 0; i++) {
			if (v[i].schedule_id != q->it->schedule_id ||
			    v[i].slot != q->it->slot)
				continue;
			rc = serve_health_after(q->sv, q->st, s.inventory_path,
			    v[i].run_id, e, sizeof e);
			if (rc == 0)
				rc = serve_health_after(q->sv, q->st,
				    s.inventory_path, v[i].confirm_run_id, e,
				    sizeof e);
		}
		store_nights_free(v, n);
		store_sched_free(&s);
	}
	if (rc == -1)
		log_warnx("item %lld: health checks after infrastructure "
		    "failures: %s", (long long)q->it->id, e);
}

/* Runs one claimed item and records how it ended. */
static void
q_item(struct serve *sv, struct store *st, struct store_q_item *it)
{
	struct q_ctx		 q;
	enum store_q_state	 state = STORE_Q_FAILED;
	char			 e[512];
	int			 again = 0, payload_ok;

	memset(&q, 0, sizeof q);
	q.sv = sv;
	q.st = st;
	q.it = it;
	payload_ok = q_decode(&q) == 0;
	log_info("item %lld (%s, priority %d, by %s) claimed, attempt %d",
	    (long long)it->id, store_q_kind_name(it->kind), it->priority,
	    it->who, it->attempts);
	if (!payload_ok)
		snprintf(q.result, sizeof q.result, "payload is not a JSON "
		    "object");
	else if (it->kind == STORE_Q_RUN)
		again = q_do_run(&q, &state);
	else if (it->kind == STORE_Q_BISECT)
		again = q_do_bisect(&q, &state);
	else if (it->kind == STORE_Q_HEALTH)
		again = q_do_health(&q, &state);
	else if (it->kind == STORE_Q_RESET)
		again = q_do_reset(&q, &state);
	else
		again = q_do_night(&q, &state);
	if (!again && payload_ok)
		q_after(&q);
	run_payload_free(&q.run);
	hunt_payload_free(&q.hunt);
	health_payload_free(&q.health);
	if (again) {
		log_info("item %lld queued again: %s", (long long)it->id,
		    q.result);
		if (store_q_requeue(st, it->id, q.result, e, sizeof e) == -1)
			log_warnx("item %lld: requeue: %s", (long long)it->id,
			    e);
		return;
	}
	log_info("item %lld %s: %s", (long long)it->id,
	    store_q_state_name(state), q.result);
	if (store_q_finish(st, it->id, state, q.result, e, sizeof e) == -1)
		log_warnx("item %lld: finish: %s", (long long)it->id, e);
}

/* Sleeps up to ms, waking early on a stop. */
static void
q_nap(struct serve *sv, int ms)
{
	struct timespec	ts = { 0, 100 * 1000000L };
	int		i;

	for (i = 0; i < ms / 100 && !sv->stop; i++)
		nanosleep(&ts, NULL);
}

void *
serve_worker(void *arg)
{
	struct serve		*sv = arg;
	struct store		*st;
	struct store_q_item	 it;
	char			 e[512];
	int			 r;

	if (store_open(sv->db_path, 0, &st, e, sizeof e) == -1) {
		log_error("worker: %s: no item will run", e);
		return NULL;
	}
	while (!sv->stop) {
		memset(&it, 0, sizeof it);
		r = store_q_claim(st, sv->owner, Q_KINDS, &it, e, sizeof e);
		if (r == -1)
			log_warnx("worker: claim: %s", e);
		if (r != 1) {
			q_nap(sv, 1000);
			continue;
		}
		q_item(sv, st, &it);
		/* A link busy elsewhere: do not spin on the same item. */
		if (it.state == STORE_Q_RUNNING && !sv->stop)
			q_nap(sv, 200);
		store_q_item_free(&it);
	}
	store_close(st);
	return NULL;
}
