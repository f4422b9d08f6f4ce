/*
 * serve_health: the daemon's health checks of its links.
 *
 * When (serve_health_decide, pure and table-tested): every link of every
 * inventory of the daemon config gets a STORE_Q_HEALTH item (priority
 * STORE_PRIO_ROUTINE, payload {"link": L, "inventory": ABS_PATH}) when
 *   - it is not in maintenance and not retired (never checked), and
 *   - no health item of it is queued or running (at most one), and
 *   - an item that ended (a run or a night) failed one of its jobs on it
 *     with failure class "infra", or it was never checked, or its last
 *     check is health_interval_s old (bad links too: that is how they come
 *     back), or a check ran on it before the interval;
 *   - a check that could not run (health_check() -1, e.g. its hosts leased
 *     by another controller) is not retried for SERVE_HEALTH_RETRY_S.
 * The main thread looks every SERVE_HEALTH_TICK_MS; the worker after each
 * run or night item that ended (serve_health_after).  Both go through
 * serve_health_enqueue under hmtx, so they never queue a link twice.
 *
 * The check (serve_health_run, on the worker): health_check() with the
 * daemon's iperf_seconds and tolerance, no jumbo path check (no plan says
 * which MTU; a night's check before its install does that), the
 * transition logged; a link that turns bad is notified once
 * (notify_pair_bad: only on the change to bad, not at every failed check
 * of a link already bad).
 *
 * The guard (serve_links_usable): a run or bisect item whose links include
 * one that is bad, in maintenance or retired is not started: it finishes
 * "failed" naming the link and its state (it does not wait: a queued item
 * would block the queue before the lower-priority check that could clear
 * the link).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "health.h"
#include "log.h"
#include "notify.h"
#include "serve_int.h"
#include "util.h"

const char *
serve_hc_name(enum serve_hc d)
{
	static const char *const names[] = { "not due", "left alone (maintenance or "
	    "retired)", "already queued", "retried later", "infrastructure "
	    "failure", "never checked", "interval passed" };

	return (size_t)d < sizeof names / sizeof names[0] ? names[d] : "?";
}

enum serve_hc
serve_health_decide(const struct serve_health_view *v, int64_t now_ms,
    int interval_s)
{
	int64_t	 iv = (int64_t)interval_s * 1000;
	int64_t	 retry = (int64_t)SERVE_HEALTH_RETRY_S * 1000;

	if (v->state == HEALTH_MAINTENANCE || v->state == HEALTH_RETIRED)
		return SERVE_HC_OFF;
	if (v->active)
		return SERVE_HC_ACTIVE;
	if (v->infra)
		return SERVE_HC_INFRA;
	if (retry > iv)
		retry = iv;
	/* A check that could not run ended without moving checked_at. */
	if (v->last_item_ms != 0 && now_ms - v->last_item_ms < retry &&
	    v->last_item_ms > v->checked_ms)
		return SERVE_HC_RETRY;
	if (v->checked_ms == 0)
		return SERVE_HC_NEVER;
	if (now_ms - v->checked_ms >= iv)
		return SERVE_HC_DUE;
	return SERVE_HC_NOT_DUE;
}

/* The "link" of a health item's payload into buf ("" if none). */
static void
hc_item_link(const struct store_q_item *it, char *buf, size_t len)
{
	struct health_payload	p;
	char			e[64];

	buf[0] = '\0';
	if (health_payload_decode(it->payload, &p, e, sizeof e) == -1)
		return;
	if (p.link != NULL)
		snprintf(buf, len, "%s", p.link);
	health_payload_free(&p);
}

/* Health items of link in states mask: *active (queued/running), *last
 * the newest end of one that failed (a check that ran ends done). */
static int
hc_scan(struct store *st, const char *link, unsigned mask, size_t limit,
    int *active, int64_t *last, char *err, size_t errlen)
{
	struct store_q_item	*v = NULL;
	size_t			 n = 0, i;
	char			 l[STORE_NAME_MAX];

	if (store_q_list(st, mask, limit, &v, &n, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (v[i].kind != STORE_Q_HEALTH)
			continue;
		hc_item_link(&v[i], l, sizeof l);
		if (strcmp(l, link) != 0)
			continue;
		if (v[i].state == STORE_Q_QUEUED ||
		    v[i].state == STORE_Q_RUNNING)
			*active = 1;
		else if (v[i].state == STORE_Q_FAILED && v[i].finished > *last)
			*last = v[i].finished;	/* it could not check */
	}
	store_q_items_free(v, n);
	return 0;
}

static int
hc_items(struct store *st, const char *link, int *active, int64_t *last,
    char *err, size_t errlen)
{
	*active = 0;
	*last = 0;
	if (hc_scan(st, link, 1u << STORE_Q_QUEUED | 1u << STORE_Q_RUNNING, 0,
	    active, last, err, errlen) == -1)
		return -1;
	/* The newest ends only: a retry is a matter of minutes. */
	return hc_scan(st, link, 1u << STORE_Q_FAILED, 100, active, last, err,
	    errlen);
}

int
serve_health_enqueue(struct serve *sv, struct store *st, const char *inv,
    const char *link, int infra, int64_t now_ms, int interval_s, char *err,
    size_t errlen)
{
	struct serve_health_view v;
	struct store_health	 h;
	enum serve_hc		 d;
	char			*payload;
	int64_t			 id;
	int			 dup = 0, r, rc = -1;

	memset(&v, 0, sizeof v);
	v.infra = infra;
	pthread_mutex_lock(&sv->hmtx);
	if ((r = store_health_get(st, link, &h, err, errlen)) == -1)
		goto out;
	if (r == 1) {
		if (health_state_parse(h.state, &v.state) == -1)
			v.state = HEALTH_UNKNOWN;
		v.checked_ms = h.checked_at;
		store_health_free(&h);
	}
	if (hc_items(st, link, &v.active, &v.last_item_ms, err, errlen) == -1)
		goto out;
	d = serve_health_decide(&v, now_ms, interval_s);
	rc = 0;
	if (d < SERVE_HC_INFRA) {
		if (infra)
			log_info("link %s: infrastructure failure: health "
			    "check %s", link, serve_hc_name(d));
		goto out;
	}
	rc = -1;
	if ((payload = health_payload(inv, link, err, errlen)) == NULL)
		goto out;
	rc = store_q_add(st, STORE_Q_HEALTH, STORE_PRIO_ROUTINE, payload,
	    sv->owner, 0, 0, &id, &dup, err, errlen);
	free(payload);
	if (rc == 0)
		log_info("link %s: health check queued as item %lld (%s)",
		    link, (long long)id, serve_hc_name(d));
out:
	pthread_mutex_unlock(&sv->hmtx);
	return rc;
}

/* Every link of inventory path: 0, or -1 with err (not loadable). */
static int
hc_inventory(struct serve *sv, struct store *st, const char *path,
    int64_t now_ms, int interval_s, char *err, size_t errlen)
{
	struct config_errors	 errs;
	struct config_inventory	*inv;
	size_t			 i;
	int			 rc = 0;

	config_errors_init(&errs);
	if ((inv = config_inventory_load(path, &errs)) == NULL) {
		util_seterr(err, errlen, "%s", errs.n > 0 ? errs.msgs[0] :
		    "not readable");
		config_errors_free(&errs);
		return -1;
	}
	config_errors_free(&errs);
	for (i = 0; i < inv->nlinks && rc == 0 && !sv->stop; i++)
		rc = serve_health_enqueue(sv, st, path, inv->links[i].name, 0,
		    now_ms, interval_s, err, errlen);
	config_inventory_free(inv);
	return rc;
}

static char **
hc_argv_dup(char *const *v)
{
	char	**d;
	size_t	  n = 0, i;

	while (v != NULL && v[n] != NULL)
		n++;
	d = xcalloc(n + 1, sizeof *d);
	for (i = 0; i < n; i++)
		d[i] = xstrdup(v[i]);
	return d;
}

void
serve_health_tick(struct serve *sv, struct store *st, int64_t now_ms)
{
	static char	 last_err[512];
	char		**invs, err[512];
	size_t		 i;
	int		 interval_s;

	pthread_mutex_lock(&sv->mtx);
	invs = hc_argv_dup(sv->config->inventories);
	interval_s = sv->config->health_interval_s;
	pthread_mutex_unlock(&sv->mtx);
	for (i = 0; invs != NULL && invs[i] != NULL; i++) {
		if (hc_inventory(sv, st, invs[i], now_ms, interval_s, err,
		    sizeof err) == 0)
			continue;
		/* Once per distinct error, not every tick. */
		if (strcmp(err, last_err) != 0)
			log_warnx("health checks of %s: %s", invs[i], err);
		snprintf(last_err, sizeof last_err, "%s", err);
	}
	config_argv_free(invs);
}

int
serve_health_after(struct serve *sv, struct store *st, const char *inv,
    int64_t run_id, char *err, size_t errlen)
{
	struct store_counts	 c;
	struct store_job	*jobs = NULL;
	size_t			 n = 0, i, j;
	int			 interval_s, rc = 0;

	if (run_id == 0 || inv == NULL)
		return 0;
	pthread_mutex_lock(&sv->mtx);
	interval_s = sv->config->health_interval_s;
	pthread_mutex_unlock(&sv->mtx);
	if (store_job_counts(st, run_id, NULL, &c, err, errlen) == -1)
		return -1;
	if (c.failed_infra == 0)
		return 0;
	if (store_job_list(st, run_id, STORE_JOB_FAILED, &jobs, &n, err,
	    errlen) == -1)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		if (jobs[i].failure_class != STORE_FAIL_INFRA)
			continue;
		for (j = 0; j < i; j++)	/* each link once */
			if (jobs[j].failure_class == STORE_FAIL_INFRA &&
			    strcmp(jobs[j].link, jobs[i].link) == 0)
				break;
		if (j == i)
			rc = serve_health_enqueue(sv, st, inv, jobs[i].link, 1,
			    serve_now_ms(), interval_s, err, errlen);
	}
	free(jobs);
	return rc;
}

int
serve_links_usable(struct serve *sv, char *const *links, size_t n,
    char *why, size_t whylen)
{
	enum health_state	st;
	char			e[512];
	size_t			i;

	for (i = 0; i < n; i++) {
		if (health_get(sv->db_path, links[i], &st, e, sizeof e) == -1) {
			snprintf(why, whylen, "link %s: health: %s", links[i],
			    e);
			return 0;
		}
		if (!health_usable(st)) {
			snprintf(why, whylen, "not started: link %s is %s "
			    "(labrat hosts health)", links[i],
			    health_state_name(st));
			return 0;
		}
	}
	return 1;
}

/* The daemon config as it is now, a copy the caller frees (NULL). */
static struct config_daemon *
hc_config_copy(struct serve *sv)
{
	struct config_daemon	*d = NULL;
	struct config_errors	 errs;

	pthread_mutex_lock(&sv->mtx);
	config_errors_init(&errs);
	if (config_daemon_parse(sv->config->path, sv->config->text,
	    strlen(sv->config->text), &d, &errs) == -1)
		d = NULL;
	config_errors_free(&errs);
	pthread_mutex_unlock(&sv->mtx);
	return d;
}

int
serve_health_run(struct serve *sv, const char *inv_path, const char *link,
    char *result, size_t len)
{
	struct config_errors	 errs;
	struct config_inventory	*inv;
	struct config_daemon	*d;
	const struct config_link *l;
	struct health_opts	 o;
	struct health_result	 r;
	char			 e[1024];
	int			 rc;

	if ((d = hc_config_copy(sv)) == NULL) {
		snprintf(result, len, "the daemon config could not be copied");
		return -1;
	}
	config_errors_init(&errs);
	if ((inv = config_inventory_load(inv_path, &errs)) == NULL) {
		snprintf(result, len, "%s", errs.n > 0 ? errs.msgs[0] :
		    "inventory not readable");
		config_errors_free(&errs);
		config_daemon_free(d);
		return -1;
	}
	config_errors_free(&errs);
	memset(&o, 0, sizeof o);
	o.db_path = sv->db_path;
	o.owner = sv->owner;
	o.iperf_s = d->health_iperf_s;
	o.tolerance = d->health_tolerance;
	o.stop = &sv->stop;
	memset(&r, 0, sizeof r);
	rc = health_check(inv, link, &o, &r, e, sizeof e);
	if (rc == -1) {
		snprintf(result, len, "link %s not checked: %.900s", link, e);
		rc = sv->stop ? 1 : -1;
	} else if (!r.checked) {
		snprintf(result, len, "link %s %s: %.900s", link,
		    health_state_name(r.after), r.why);
	} else {
		snprintf(result, len, "link %s %s -> %s: %.900s", link,
		    health_state_name(r.before), health_state_name(r.after),
		    r.why);
		log_info("health: %s%s%s", result, *r.warnings != '\0' ?
		    "; warnings: " : "", r.warnings);
	}
	if (rc == 0 && r.checked && r.after == HEALTH_BAD &&
	    r.before != HEALTH_BAD) {
		l = config_inventory_link(inv, link);
		if (notify_pair_bad(d, link, l != NULL ? l->client.host : NULL,
		    l != NULL ? l->server.host : NULL, r.why, e,
		    sizeof e) == -1)
			log_warnx("link %s: bad-pair notification not "
			    "delivered: %s", link, e);
		else
			log_info("link %s: bad-pair notification sent", link);
	}
	config_inventory_free(inv);
	config_daemon_free(d);
	return rc;
}
