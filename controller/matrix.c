/*
 * matrix: plan -> ordered jobs (see matrix.h).  Pure: no I/O, no global
 * state.
 */
#include <stdio.h>
#include <stdlib.h>

#include "matrix.h"
#include "util.h"

size_t
matrix_ncombos(const struct config_knobset *ks)
{
	size_t	n = 1;
	int	k;

	for (k = 0; k < KNOB_COUNT; k++) {
		if (!ks->knob[k].present || ks->knob[k].n == 0)
			continue;
		if (n > MATRIX_COMBOS_MAX)
			return MATRIX_COMBOS_MAX + 1;
		n *= ks->knob[k].n;
	}
	return n > MATRIX_COMBOS_MAX ? MATRIX_COMBOS_MAX + 1 : n;
}

void
matrix_knobs_at(const struct config_knobset *ks, size_t i,
    struct knobs *out)
{
	const struct config_knoblist	*kl;
	int				 k;

	knobs_clear(out);
	for (k = KNOB_COUNT - 1; k >= 0; k--) {
		kl = &ks->knob[k];
		if (!kl->present || kl->n == 0)
			continue;
		knobs_set(out, k, kl->values[i % kl->n]);
		i /= kl->n;
	}
}

int
matrix_expand(const struct config_plan *plan,
    const struct config_inventory *inv, struct matrix_job **jobsp,
    size_t *njobsp, char *err, size_t errlen)
{
	const struct config_knobset	*ks;
	const struct config_link	*il;
	struct matrix_job		*jobs, *j;
	size_t				 total = 0, n = 0, l, w, c, nc;
	int				 rep;

	*jobsp = NULL;
	*njobsp = 0;
	for (l = 0; l < plan->nlinks; l++) {
		nc = matrix_ncombos(config_plan_knobs(plan, plan->links[l]));
		if (nc > MATRIX_COMBOS_MAX) {
			util_seterr(err, errlen, "link %s: more than %d knob "
			    "combinations", plan->links[l], MATRIX_COMBOS_MAX);
			return -1;
		}
		if (inv != NULL &&
		    config_inventory_link(inv, plan->links[l]) == NULL) {
			util_seterr(err, errlen, "link %s is not in the "
			    "inventory", plan->links[l]);
			return -1;
		}
		for (w = 0; w < plan->nworkloads; w++)
			if (config_workload_on_link(&plan->workloads[w],
			    plan->links[l]))
				total += nc;
	}
	/* Each factor is bounded (links 64, combos 4096, workloads 32,
	 * reps 1000), so the product cannot overflow a size_t. */
	total *= (size_t)plan->repetitions;
	if (total > MATRIX_JOBS_MAX) {
		util_seterr(err, errlen, "%zu jobs, more than %d", total,
		    MATRIX_JOBS_MAX);
		return -1;
	}
	if (total == 0)
		return 0;
	jobs = xcalloc(total, sizeof *jobs);
	for (rep = 1; rep <= plan->repetitions; rep++) {
		for (l = 0; l < plan->nlinks; l++) {
			ks = config_plan_knobs(plan, plan->links[l]);
			nc = matrix_ncombos(ks);
			il = inv != NULL ? config_inventory_link(inv,
			    plan->links[l]) : NULL;
			for (w = 0; w < plan->nworkloads; w++) {
				if (!config_workload_on_link(
				    &plan->workloads[w], plan->links[l]))
					continue;
				for (c = 0; c < nc; c++) {
					j = &jobs[n];
					j->seq = n++;
					j->link = l;
					j->link_name = plan->links[l];
					j->ilink = il;
					j->combo = c;
					matrix_knobs_at(ks, c, &j->knobs);
					j->workload = w;
					j->wl = &plan->workloads[w];
					j->rep = rep;
				}
			}
		}
	}
	*jobsp = jobs;
	*njobsp = n;
	return 0;
}

/*
 * The port (wl->port) is left out on purpose: it only says where the
 * server listens, not what is measured, so a plan that moves iperf3 off
 * 5201 still adds to the same series (stats group by this key) as one that
 * does not.
 */
int
matrix_workload_key(const struct config_workload *w, char *buf, size_t len)
{
	int	r;

	if (w->tool == CONFIG_TOOL_SCP)
		r = snprintf(buf, len, "scp:size=%s", w->size);
	else
		r = snprintf(buf, len, "%s:%s%s%snodelay=%s,parallel=%d,"
		    "time=%d%s%s", config_tool_name(w->tool),
		    w->len != NULL ? "len=" : "", w->len != NULL ? w->len : "",
		    w->len != NULL ? "," : "", w->nodelay ? "on" : "off",
		    w->parallel, w->time, w->window != NULL ? ",window=" : "",
		    w->window != NULL ? w->window : "");
	return r < 0 || (size_t)r >= len ? -1 : 0;
}

void
matrix_plan_summary(const struct config_plan *plan,
    const struct config_inventory *inv, char *buf, size_t len)
{
	struct matrix_job	*jobs;
	size_t			 njobs;
	char			 err[256];

	if (matrix_expand(plan, inv, &jobs, &njobs, err, sizeof err) != 0) {
		snprintf(buf, len, "%s: plan ok but not expandable: %s",
		    plan->path, err);
		return;
	}
	free(jobs);
	snprintf(buf, len, "%s: plan ok: %zu link%s, %zu workload%s, %d "
	    "repetition%s, %zu jobs%s%s", plan->path, plan->nlinks,
	    plan->nlinks == 1 ? "" : "s", plan->nworkloads,
	    plan->nworkloads == 1 ? "" : "s", plan->repetitions,
	    plan->repetitions == 1 ? "" : "s", njobs,
	    inv != NULL ? ", checked against " : "",
	    inv != NULL ? inv->path : "");
}
