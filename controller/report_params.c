/*
 * report_params: the detect parameters of a stored run, typed for detect
 * (which parses no configs): the stats section of the plan text the run
 * stored at its start, and the links of the inventory text it stored (the
 * host pairs for run over run when its jobs recorded no facts).  The texts
 * are parsed by config once per report; their errors are logged, not
 * dropped, and the run is then reported with the defaults, as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "detect.h"
#include "log.h"
#include "report.h"
#include "store.h"
#include "util.h"

static void
log_errs(const struct store_run *run, const char *what,
    const struct config_errors *errs)
{
	size_t	i;

	for (i = 0; i < errs->n; i++)
		log_warnx("run %lld: stored %s: %s", (long long)run->id, what,
		    errs->msgs[i]);
}

/* detect_links_fn: the links of the inventory the run stored. */
static int
inventory_links(const struct store_run *run, struct detect_link **links,
    size_t *n, char *err, size_t errlen)
{
	struct config_errors	 errs;
	struct config_inventory	*inv;
	struct detect_link	*l;
	size_t			 i;

	(void)err;
	(void)errlen;
	*links = NULL;
	*n = 0;
	if (run->inventory_text == NULL)
		return 0;
	config_errors_init(&errs);
	inv = config_inventory_parse(run->inventory_path != NULL ?
	    run->inventory_path : "inventory", run->inventory_text,
	    strlen(run->inventory_text), &errs);
	if (inv == NULL)
		log_errs(run, "inventory", &errs);
	config_errors_free(&errs);
	if (inv == NULL || inv->nlinks == 0) {
		config_inventory_free(inv);
		return 0;
	}
	*links = xcalloc(inv->nlinks, sizeof **links);
	for (i = 0; i < inv->nlinks; i++) {
		l = &(*links)[i];
		snprintf(l->link, sizeof l->link, "%s", inv->links[i].name);
		snprintf(l->client, sizeof l->client, "%s",
		    inv->links[i].client.host);
		snprintf(l->server, sizeof l->server, "%s",
		    inv->links[i].server.host);
	}
	*n = inv->nlinks;
	config_inventory_free(inv);
	return 0;
}

int
report_params_run(struct store *st, int64_t run_id, const char *metric,
    struct detect_params *p, char *err, size_t errlen)
{
	const struct config_stats	*s;
	struct store_run		 run;
	struct config_errors		 errs;
	struct config_plan		*plan = NULL;
	char				 e[512];
	int				 rc;

	detect_params_default(p);
	p->inventory_links = inventory_links;
	if ((rc = store_run_get(st, run_id, &run, err, errlen)) != 1) {
		if (rc == 0)
			util_seterr(err, errlen, "%s: no run %lld",
			    store_path(st), (long long)run_id);
		return -1;
	}
	if (run.plan_text != NULL) {
		config_errors_init(&errs);
		plan = config_plan_parse(run.plan_path != NULL ?
		    run.plan_path : "plan", run.plan_text,
		    strlen(run.plan_text), NULL, &errs);
		if (plan != NULL) {
			s = &plan->stats;
			detect_params_set(p, s->alpha, s->min_effect,
			    s->min_samples, s->max_samples,
			    s->collapse_factor, s->adaptive);
		} else
			log_errs(&run, "plan", &errs);
		config_errors_free(&errs);
	}
	rc = detect_params_metric(p, metric != NULL ? metric :
	    "throughput_bps", config_plan_lower_is_better(plan, metric != NULL ?
	    metric : "throughput_bps"), e, sizeof e);
	if (rc == -1)
		util_seterr(err, errlen, "run %lld: %s%s", (long long)run_id, e,
		    plan != NULL ? " (in the plan's \"metrics\")" : "");
	config_plan_free(plan);
	store_run_free(&run);
	return rc;
}
