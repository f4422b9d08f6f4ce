/*
 * matrix: plan -> ordered jobs, knob keys and their comparisons (see
 * matrix.h).  Pure: no I/O, no global state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "util.h"

size_t
matrix_ncombos(const struct config_knobset *ks)
{
	size_t	n = 1;
	int	k;

	for (k = 0; k < CONFIG_KNOB_COUNT; k++) {
		if (!ks->knob[k].present || ks->knob[k].n == 0)
			continue;
		if (n > MATRIX_COMBOS_MAX)
			return MATRIX_COMBOS_MAX + 1;
		n *= ks->knob[k].n;
	}
	return n > MATRIX_COMBOS_MAX ? MATRIX_COMBOS_MAX + 1 : n;
}

void
matrix_combo_at(const struct config_knobset *ks, size_t i,
    struct matrix_combo *out)
{
	const struct config_knoblist	*kl;
	int				 k;

	memset(out, 0, sizeof *out);
	for (k = CONFIG_KNOB_COUNT - 1; k >= 0; k--) {
		kl = &ks->knob[k];
		if (!kl->present || kl->n == 0)
			continue;
		out->set |= 1u << k;
		out->value[k] = kl->values[i % kl->n];
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
					matrix_combo_at(ks, c, &j->knobs);
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

const char *
matrix_value_str(enum config_knob k, int value, char *buf, size_t len)
{
	switch (k) {
	case CONFIG_KNOB_MTU:
		snprintf(buf, len, "%d", value);
		return buf;
	case CONFIG_KNOB_NAT:
		return config_nat_name(value);
	default:
		return value ? "on" : "off";
	}
}

int
matrix_combo_key(const struct matrix_combo *c, char *buf, size_t len)
{
	char	 v[16];
	size_t	 o = 0;
	int	 k, r;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	for (k = 0; k < CONFIG_KNOB_COUNT; k++) {
		if ((c->set & (1u << k)) == 0)
			continue;
		r = snprintf(buf + o, len - o, "%s%s=%s", o > 0 ? "," : "",
		    config_knob_name(k),
		    matrix_value_str(k, c->value[k], v, sizeof v));
		if (r < 0 || (size_t)r >= len - o)
			return -1;
		o += (size_t)r;
	}
	return 0;
}

static int
parse_value(enum config_knob k, const char *s, int *out)
{
	long long	 n;
	const char	*errstr;

	if (k == CONFIG_KNOB_MTU) {
		if (util_strtonum(s, 576, 65535, &n, &errstr) != 0)
			return -1;
		*out = (int)n;
		return 0;
	}
	if (k == CONFIG_KNOB_NAT)
		return (*out = config_nat_from_name(s)) < 0 ? -1 : 0;
	if (strcmp(s, "on") == 0)
		*out = 1;
	else if (strcmp(s, "off") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

int
matrix_combo_parse(const char *key, struct matrix_combo *out, char *err,
    size_t errlen)
{
	char	*copy, *item, *next, *eq;
	int	 k, rc = -1;

	memset(out, 0, sizeof *out);
	if (strlen(key) >= MATRIX_KEY_MAX) {
		util_seterr(err, errlen, "knob key too long");
		return -1;
	}
	copy = xstrdup(key);
	for (item = copy; item != NULL && *item != '\0'; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if ((eq = strchr(item, '=')) == NULL) {
			util_seterr(err, errlen, "\"%s\": no '='", item);
			goto fail;
		}
		*eq++ = '\0';
		if ((k = config_knob_from_name(item)) < 0) {
			util_seterr(err, errlen, "unknown knob \"%s\"", item);
			goto fail;
		}
		if (out->set & (1u << k)) {
			util_seterr(err, errlen, "knob %s given twice", item);
			goto fail;
		}
		if (parse_value(k, eq, &out->value[k]) != 0) {
			util_seterr(err, errlen, "bad value \"%s\" for knob "
			    "%s", eq, item);
			goto fail;
		}
		out->set |= 1u << k;
	}
	rc = 0;
fail:
	free(copy);
	return rc;
}

int
matrix_combo_ndiff(const struct matrix_combo *a, const struct matrix_combo *b)
{
	int	k, n = 0;

	for (k = 0; k < CONFIG_KNOB_COUNT; k++) {
		unsigned bit = 1u << k;

		if ((a->set & bit) != (b->set & bit))
			n++;
		else if ((a->set & bit) && a->value[k] != b->value[k])
			n++;
	}
	return n;
}

int
matrix_combo_differ_in_one(const struct matrix_combo *a,
    const struct matrix_combo *b, enum config_knob *which)
{
	int	k;

	if (matrix_combo_ndiff(a, b) != 1)
		return 0;
	for (k = 0; k < CONFIG_KNOB_COUNT; k++) {
		unsigned bit = 1u << k;

		if ((a->set & bit) != (b->set & bit) ||
		    ((a->set & bit) && a->value[k] != b->value[k]))
			break;
	}
	if (which != NULL)
		*which = k;
	return 1;
}

int
matrix_key_differ_in_one(const char *ka, const char *kb,
    enum config_knob *which)
{
	struct matrix_combo	a, b;

	if (matrix_combo_parse(ka, &a, NULL, 0) != 0 ||
	    matrix_combo_parse(kb, &b, NULL, 0) != 0)
		return -1;
	return matrix_combo_differ_in_one(&a, &b, which);
}

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
