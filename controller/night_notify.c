/*
 * night_notify.c: the notifications of the regression records -- when a
 * bisect ends (culprit, range, failed) and when a record is fixed -- to
 * the daemon config's webhooks and mail (struct notify_target).  A record
 * is marked notified only after every target took the message, so one
 * that could not be delivered (a target down, a SIGKILL before the mark)
 * is sent again by the next night_fire() of any schedule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hunt.h"
#include "knobs.h"
#include "log.h"
#include "night_int.h"
#include "notify.h"
#include "util.h"

#define NIGHT_TARGETS_MAX	64

/* The daemon's targets into t (pointing into the config); how many. */
static size_t
night_targets(const struct config_daemon *d, struct notify_target *t,
    size_t max)
{
	size_t	i, n = 0;

	for (i = 0; i < d->nwebhooks && n < max; i++, n++) {
		memset(&t[n], 0, sizeof t[n]);
		t[n].kind = NOTIFY_WEBHOOK;
		t[n].url = d->webhooks[i].url;
		t[n].timeout_s = d->webhooks[i].timeout_s;
	}
	if (d->mail != NULL && n < max) {
		memset(&t[n], 0, sizeof t[n]);
		t[n].kind = d->mail->sendmail != NULL ? NOTIFY_SENDMAIL :
		    NOTIFY_SMTP;
		t[n].url = d->mail->smtp_url;
		t[n].argv = (const char *const *)d->mail->sendmail;
		t[n].from = d->mail->from;
		t[n].to = (const char *const *)d->mail->to;
		t[n].timeout_s = d->mail->timeout_s;
		n++;
	}
	return n;
}

int
night_notify_send(struct night_ctx *c, const struct notify_msg *m,
    char *err, size_t errlen)
{
	struct notify_target	t[NIGHT_TARGETS_MAX];
	size_t			nt;

	nt = night_targets(c->rq->daemon, t, NIGHT_TARGETS_MAX);
	return nt > 0 ? notify_send(t, nt, m, err, errlen) : 0;
}

void
night_knobs_text(const char *key, int first, char *buf, size_t len)
{
	struct knobs	k;
	char		e[128], v[32];
	int		i, j;

	buf[0] = '\0';
	if (knobs_parse(key, &k, e, sizeof e) == -1) {
		snprintf(buf, len, "%s", key);
		return;
	}
	/* j == -1: the trigger; then every other knob in key order. */
	for (j = -1; j < KNOB_COUNT; j++) {
		i = j == -1 ? first : j;
		if ((j >= 0 && i == first) || i < 0 || i >= KNOB_COUNT ||
		    !knobs_isset(&k, i))
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s %s",
		    *buf != '\0' ? ", " : "", detect_knob_label(i),
		    detect_knob_value(&k, i, v, sizeof v));
	}
}

/* The knob record r's bisect flips A/B (its trigger), or -1. */
static int
night_trigger_knob(struct night_ctx *c, const struct store_regr *r)
{
	struct hunt_view	v;
	char			err[256];
	int			knob = -1;

	if (r->bisect_id == 0 || hunt_view_open(&v, c->rq->db_path,
	    r->bisect_id, err, sizeof err) == -1)
		return -1;
	if (v.test != NULL && v.test->compare == CONFIG_BISECT_AB)
		knob = (int)v.test->ab_knob;
	hunt_view_free(&v);
	return knob;
}

/* The bisect's evidence into m (medians of culprit and parent, log). */
static void
night_msg_bisect(struct night_ctx *c, const struct store_regr *r,
    struct notify_msg *m, struct hunt_view *v, char **log)
{
	size_t	i, len = 0;
	char	err[256];
	FILE	*fp;

	*log = NULL;
	if (r->bisect_id == 0 || hunt_view_open(v, c->rq->db_path,
	    r->bisect_id, err, sizeof err) == -1) {
		memset(v, 0, sizeof *v);
		return;
	}
	for (i = 0; i < v->n; i++) {
		if (r->culprit != NULL && strcmp(v->ids[i], r->culprit) == 0) {
			m->culprit_msg = v->msgs[i];
			if (i > 0)
				m->parent = v->ids[i - 1];
		}
	}
	for (i = 0; i < v->nsteps; i++) {
		const struct store_bisect_step *s = &v->steps[i];

		if (m->culprit != NULL && strcmp(s->revision, m->culprit) == 0) {
			m->culprit_median = s->median;
			m->n_culprit = s->n;
			m->p = s->p;
			m->verified |= strcmp(s->verdict, "bad") == 0;
		}
		if (m->parent != NULL && strcmp(s->revision, m->parent) == 0) {
			m->parent_median = s->median;
			m->n_parent = s->n;
		}
	}
	if (m->parent_median > 0 && m->culprit_median > 0)
		m->change = m->culprit_median / m->parent_median - 1;
	if ((fp = open_memstream(log, &len)) != NULL) {
		if (hunt_show(c->rq->db_path, r->bisect_id, HUNT_SHOW_LOG, 0,
		    fp, err, sizeof err) != 0)
			fprintf(fp, "(no bisect log: %s)\n", err);
		fclose(fp);
	}
}

/* Sends record r's notification of its state; 0 delivered, -1. */
static int
night_notify_one(struct night_ctx *c, const struct store_regr *r,
    const struct notify_target *t, size_t nt, char *err, size_t errlen)
{
	const struct config_link	*l = config_inventory_link(c->inv,
	    r->link);
	const struct config_nic		*nic = NULL;
	struct notify_msg		 m;
	struct hunt_view		 v;
	char				 knobs[256], tool[32], *repro;
	char				*log = NULL;
	int				 rc;

	memset(&m, 0, sizeof m);
	memset(&v, 0, sizeof v);
	night_knobs_text(r->knobs, night_trigger_knob(c, r), knobs,
	    sizeof knobs);
	m.kind = r->state == STORE_REGR_FIXED ? NOTIFY_FIXED :
	    NOTIFY_REGRESSION;
	m.regression_id = r->id;
	m.bisect_id = r->bisect_id;
	m.link = r->link;
	if (l != NULL) {
		m.client = l->client.host;
		m.server = l->server.host;
		nic = config_host_nic(&c->inv->hosts[l->client.host_index],
		    l->client.ifname);
	}
	m.driver = nic != NULL ? nic->driver : NULL;
	m.chip = nic != NULL ? nic->chip : NULL;
	snprintf(tool, sizeof tool, "%.*s", (int)strcspn(r->workload, ":"),
	    r->workload);
	m.workload = tool;
	m.metric = strcmp(r->metric, "throughput_bps") == 0 ? "throughput" :
	    r->metric;
	m.unit = "Mbit/s";
	m.knobs = knobs;
	m.change = r->change;
	m.outcome = store_regr_state_name(r->state);
	m.culprit = r->state == STORE_REGR_FIXED ? r->bad_rev : r->culprit;
	m.range_first = r->range_first;
	m.range_last = r->range_last;
	if (m.kind == NOTIFY_REGRESSION)
		night_msg_bisect(c, r, &m, &v, &log);
	m.parent_median /= 1e6;
	m.culprit_median /= 1e6;
	repro = xasprintf("labrat bisect start --inventory %s "
	    "--link %s --good %s --bad %s --test %s/regression-%lld-test.json\n"
	    "labrat bisect log --db %s\n", c->sched.inventory_path, r->link,
	    r->good_rev != NULL ? r->good_rev : "GOOD",
	    r->bad_rev != NULL ? r->bad_rev : "BAD", c->dir, (long long)r->id,
	    c->rq->db_path);
	m.reproduce = repro;
	m.bisect_log = log;
	rc = notify_send(t, nt, &m, err, errlen);
	free(repro);
	free(log);
	if (v.st != NULL)
		hunt_view_free(&v);
	return rc;
}

void
night_notify_pending(struct night_ctx *c)
{
	struct notify_target	 t[NIGHT_TARGETS_MAX];
	struct store_regr	*v = NULL;
	size_t			 n = 0, i, nt;
	unsigned		 mask = 1u << STORE_REGR_CULPRIT |
	    1u << STORE_REGR_RANGE | 1u << STORE_REGR_FAILED |
	    1u << STORE_REGR_FIXED;
	char			 err[1024];

	nt = night_targets(c->rq->daemon, t, NIGHT_TARGETS_MAX);
	if (c->inv == NULL || store_regr_list(c->st, mask, &v, &n, err,
	    sizeof err) == -1) {
		if (c->inv != NULL)
			log_warn("notifications: %s", err);
		return;
	}
	for (i = 0; i < n; i++) {
		if (v[i].notified == (int)v[i].state)
			continue;
		/* A record fixed before its notification went out: only
		 * "fixed" is still news. */
		if (nt > 0 && night_notify_one(c, &v[i], t, nt, err,
		    sizeof err) == -1) {
			night_say(c, "regression %lld: %s notification not "
			    "delivered (sent again next time): %s",
			    (long long)v[i].id,
			    store_regr_state_name(v[i].state), err);
			continue;
		}
		if (store_regr_notified(c->st, v[i].id, v[i].state, err,
		    sizeof err) == -1)
			log_warn("regression %lld: %s", (long long)v[i].id,
			    err);
		else if (nt > 0)
			night_say(c, "regression %lld: %s notified to %zu "
			    "target(s)", (long long)v[i].id,
			    store_regr_state_name(v[i].state), nt);
	}
	store_regrs_free(v, n);
}
