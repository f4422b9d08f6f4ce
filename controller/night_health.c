/*
 * night_health.c: the health check of each link of tonight's plan on
 * last night's revision, before anything is installed (health module,
 * one thread per link: the links' hosts are distinct).  A link that is not
 * usable afterwards is left out of tonight (the plan file is rewritten
 * without it, so a resumed night keeps it out and detection never sees
 * it); a link that turned bad is notified (NOTIFY_PAIR_BAD).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "health.h"
#include "log.h"
#include "night_int.h"
#include "notify.h"
#include "util.h"

struct night_hc {
	const struct config_inventory	*inv;
	const char			*link;
	struct health_opts		 o;
	struct health_result		 res;
	int				 rc, threaded;
	char				 err[512];
};

static void *
night_hc_main(void *arg)
{
	struct night_hc	*h = arg;

	h->rc = health_check(h->inv, h->link, &h->o, &h->res, h->err,
	    sizeof h->err);
	return NULL;
}

/* MTU > 1500 anywhere in the link's knob lists: the path check uses it. */
static int
night_jumbo(const struct config_plan *plan, const char *link)
{
	const struct config_knoblist *m =
	    &config_plan_knobs(plan, link)->knob[KNOB_MTU];
	int	 max = 0;
	size_t	 i;

	for (i = 0; m->present && i < m->n; i++)
		if (m->values[i] > max)
			max = m->values[i];
	return max > 1500 ? max : 0;
}

static void
night_pair_bad(struct night_ctx *c, const struct night_hc *h)
{
	const struct config_link *l = config_inventory_link(c->inv, h->link);
	char			  err[512];

	if (notify_pair_bad(c->rq->daemon, h->link, l != NULL ?
	    l->client.host : NULL, l != NULL ? l->server.host : NULL,
	    h->res.why, err, sizeof err) == -1)
		night_say(c, "%s: bad-pair notification not delivered: %s",
		    h->link, err);
}

int
night_health(struct night_ctx *c, char *err, size_t errlen)
{
	struct night_hc	*h;
	pthread_t	*th;
	size_t		 i, n = c->plan->nlinks, nok = 0;
	char		 links[1024] = "";
	int		 rc = 0;

	h = xcalloc(n, sizeof *h);
	th = xcalloc(n, sizeof *th);
	for (i = 0; i < n; i++) {
		h[i].inv = c->inv;
		h[i].link = c->plan->links[i];
		h[i].o.db_path = c->rq->db_path;
		h[i].o.owner = c->rq->owner;
		h[i].o.iperf_s = c->rq->daemon->health_iperf_s;
		h[i].o.tolerance = c->rq->daemon->health_tolerance;
		h[i].o.jumbo = night_jumbo(c->plan, h[i].link);
		h[i].o.stop = c->rq->stop;
		h[i].threaded = pthread_create(&th[i], NULL, night_hc_main,
		    &h[i]) == 0;
		if (!h[i].threaded)
			night_hc_main(&h[i]);
	}
	for (i = 0; i < n; i++) {
		if (h[i].threaded)
			pthread_join(th[i], NULL);
		if (h[i].rc == 0 && health_usable(h[i].res.after)) {
			snprintf(links + strlen(links), sizeof links -
			    strlen(links), "%s%s", nok++ > 0 ? "," : "",
			    h[i].link);
			night_say(c, "%s health %s", h[i].link,
			    health_state_name(h[i].res.after));
			continue;
		}
		night_say(c, "%s skipped tonight: %s", h[i].link,
		    h[i].rc == -1 ? h[i].err : h[i].res.why);
		if (h[i].rc == 0 && h[i].res.after == HEALTH_BAD &&
		    h[i].res.before != HEALTH_BAD)
			night_pair_bad(c, &h[i]);
	}
	if (*c->rq->stop) {
		util_seterr(err, errlen, "stopped during the health checks");
		rc = 1;
	} else if (nok == 0) {
		util_seterr(err, errlen, "no link of the plan is healthy");
		rc = -1;
	} else if (nok < n) {
		config_plan_free(c->plan);
		c->plan = NULL;
		rc = night_plan_file(c, links, c->plan_path, err, errlen);
	}
	free(h);
	free(th);
	return rc;
}
