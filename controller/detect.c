/*
 * detect: within-run knob comparisons, knob isolation, run over run and
 * the adaptive sampling plan; see detect.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "util.h"

static const char *const knob_labels[KNOB_COUNT] = {
	[KNOB_LRO] = "LRO", [KNOB_MTU] = "MTU", [KNOB_NAT] = "NAT",
	[KNOB_RXCSUM] = "RXCSUM", [KNOB_TSO] = "TSO", [KNOB_TXCSUM] = "TXCSUM",
};

/* The subject of a trigger's sentence: offloads first. */
static const int subject_order[KNOB_COUNT] = {
	KNOB_TSO, KNOB_LRO, KNOB_RXCSUM, KNOB_TXCSUM, KNOB_MTU, KNOB_NAT,
};

const char *
detect_knob_label(int knob)
{
	if (knob < 0 || knob >= KNOB_COUNT)
		return "?";
	return knob_labels[knob];
}

const char *
detect_knob_value(const struct knobs *k, int knob, char *buf, size_t len)
{
	char	v[16];

	if (knobs_get(k, knob) < 0)
		snprintf(buf, len, "as is");
	else
		snprintf(buf, len, "%s", knobs_value_str(knob,
		    knobs_get(k, knob), v, sizeof v));
	return buf;
}

const char *
detect_context_key(const struct knobs *k, int knob, char *buf, size_t len)
{
	struct knobs	c = *k;

	knobs_set(&c, knob, -1);
	if (knobs_key(&c, buf, len) == -1 && len > 0)
		buf[0] = '\0';
	return buf;
}

int
detect_flagged(const struct detect_cmp *c)
{
	return c->v.verdict == STATS_REGRESSION ||
	    c->v.verdict == STATS_IMPROVEMENT;
}

/* The one knob a and b differ in, or -1. */
static int
differ_in_one(const struct knobs *a, const struct knobs *b)
{
	enum knob	which;

	return knobs_differ_in_one(a, b, &which) ? (int)which : -1;
}

void
detect_params_default(struct detect_params *p)
{
	memset(p, 0, sizeof *p);
	stats_params_default(&p->stats);
	p->adaptive = 1;
	p->family = 1;
	snprintf(p->metric, sizeof p->metric, "throughput_bps");
}

int
detect_params_metric(struct detect_params *p, const char *metric,
    int declared, char *err, size_t errlen)
{
	int	lower;

	if (metric[0] == '\0' || strlen(metric) >= sizeof p->metric) {
		util_seterr(err, errlen, "metric \"%.80s\": not a metric name",
		    metric);
		return -1;
	}
	if (stats_metric_direction(metric, declared, &lower, err,
	    errlen) == -1)
		return -1;
	snprintf(p->metric, sizeof p->metric, "%s", metric);
	p->stats.lower_is_better = lower;
	p->metric_declared = declared >= 0;
	return 0;
}

void
detect_params_set(struct detect_params *p, double alpha, double min_effect,
    int min_samples, int max_samples, double collapse_factor, int adaptive)
{
	p->stats.alpha = alpha;
	p->stats.min_effect = min_effect;
	p->stats.min_samples = (size_t)min_samples;
	p->stats.max_samples = (size_t)max_samples;
	p->stats.collapse = collapse_factor;
	if (p->stats.collapse_min_samples > p->stats.min_samples)
		p->stats.collapse_min_samples = p->stats.min_samples;
	p->adaptive = adaptive;
}

/* Same link, workload and revision: one family. */
static int
same_family(const struct store_series *a, const struct store_series *b)
{
	return strcmp(a->link, b->link) == 0 && strcmp(a->tool, b->tool) ==
	    0 && strcmp(a->params, b->params) == 0 && strcmp(a->revision,
	    b->revision) == 0;
}

static void
verdict_empty(struct stats_verdict *v, size_t na, size_t nb, double alpha)
{
	memset(v, 0, sizeof *v);
	v->verdict = STATS_INCONCLUSIVE;
	v->n_a = na;
	v->n_b = nb;
	v->alpha = alpha;
	v->median_a = v->median_b = v->ratio = v->effect = NAN;
	v->ci_low = v->ci_high = v->eq_low = v->eq_high = NAN;
	v->p = v->u = v->z = NAN;
}

/* The verdict of c at the family's (and the looks') share of alpha. */
static int
cmp_decide(const struct detect_params *p, const struct store_series *ser,
    struct detect_cmp *c, int adaptive, char *err, size_t errlen)
{
	const struct store_series *a = &ser[c->sa], *b = &ser[c->sb];
	struct stats_params	q = p->stats;

	if (p->family && c->family_size > 1)
		q.alpha /= (double)c->family_size;
	c->add_a = c->add_b = 0;
	if (adaptive)
		return stats_adaptive(a->values, a->n, b->values, b->n, &q,
		    &c->v, &c->add_a, &c->add_b, err, errlen);
	if (a->n == 0 || b->n == 0) {
		verdict_empty(&c->v, a->n, b->n, q.alpha);
		return 0;
	}
	return stats_verdict(a->values, a->n, b->values, b->n, &q, &c->v, err,
	    errlen);
}

/* Every one-knob pair of every family, baseline the lesser value. */
static void
find_pairs(struct detect_result *res)
{
	struct store_series	*s = res->series;
	size_t			 n = res->nrun_series, i, j, cap = 0;
	int			 k;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++) {
			if (!same_family(&s[i], &s[j]) ||
			    (k = differ_in_one(&s[i].knobs,
			    &s[j].knobs)) == -1)
				continue;
			if (res->ncmps == cap) {
				cap = cap ? cap * 2 : 16;
				res->cmps = xreallocarray(res->cmps, cap,
				    sizeof *res->cmps);
			}
			memset(&res->cmps[res->ncmps], 0, sizeof *res->cmps);
			res->cmps[res->ncmps].knob = k;
			/* knobs_get() orders values, unset (-1) first */
			if (knobs_get(&s[i].knobs, k) <
			    knobs_get(&s[j].knobs, k)) {
				res->cmps[res->ncmps].sa = i;
				res->cmps[res->ncmps].sb = j;
			} else {
				res->cmps[res->ncmps].sa = j;
				res->cmps[res->ncmps].sb = i;
			}
			res->ncmps++;
		}
	}
}

/* Index of the comparison between series x and y (either order). */
static size_t
find_cmp(const struct detect_result *res, size_t x, size_t y)
{
	size_t	i;

	for (i = 0; i < res->ncmps; i++)
		if ((res->cmps[i].sa == x && res->cmps[i].sb == y) ||
		    (res->cmps[i].sa == y && res->cmps[i].sb == x))
			return i;
	return DETECT_NONE;
}

/* The run series in s's family with knobs k. */
static size_t
find_series(const struct detect_result *res, size_t s,
    const struct knobs *k)
{
	size_t	i;

	for (i = 0; i < res->nrun_series; i++)
		if (same_family(&res->series[i], &res->series[s]) &&
		    knobs_ndiff(&res->series[i].knobs, k) == 0)
			return i;
	return DETECT_NONE;
}

struct worse_info {
	unsigned	mask;		/* the trigger's knobs */
	unsigned	seen;		/* knobs with a regression into w */
	int		better[KNOB_COUNT];
	size_t		via[KNOB_COUNT];	/* that regression */
};

static void
trigger_fill(const struct detect_result *res, size_t w,
    const struct worse_info *wi, struct detect_trigger *t)
{
	struct knobs		kk, ctx;
	size_t			i, c0, c1;
	int			k, j, bits = 0;

	memset(t, 0, sizeof *t);
	t->worse = w;
	t->mask = wi->mask;
	t->contexts = 1;
	knobs_clear(&kk);
	for (k = 0; k < KNOB_COUNT; k++) {
		t->alone[k] = DETECT_NONE;
		if (wi->mask & (1u << k)) {
			knobs_set(&kk, k, knobs_get(&res->series[w].knobs, k));
			bits++;
		}
	}
	if (knobs_key(&kk, t->key, sizeof t->key) == -1)
		t->key[0] = '\0';
	t->headline = DETECT_NONE;
	for (i = 0; i < KNOB_COUNT; i++) {
		k = subject_order[i];
		if ((wi->seen & (1u << k)) && t->headline == DETECT_NONE)
			t->headline = wi->via[k];
	}
	for (k = 0; k < KNOB_COUNT; k++) {
		if (!(wi->mask & (1u << k)))
			continue;
		if ((wi->seen & (1u << k)) && res->cmps[wi->via[k]].v.collapse)
			t->collapse = 1;
		if (bits < 2)
			continue;
		/* "TSO alone": k changed, the other trigger knobs good. */
		ctx = res->series[w].knobs;
		for (j = 0; j < KNOB_COUNT; j++)
			if (j != k && (wi->mask & (1u << j)))
				knobs_set(&ctx, j, wi->better[j]);
		c1 = find_series(res, w, &ctx);
		knobs_set(&ctx, k, wi->better[k]);
		c0 = find_series(res, w, &ctx);
		if (c0 != DETECT_NONE && c1 != DETECT_NONE)
			t->alone[k] = find_cmp(res, c0, c1);
	}
}

/*
 * Narrows a trigger: when knob k's regression into w is not a regression
 * in a combination where knob j has another value, the effect needs w's
 * value of j too, so j joins the trigger (TSO regresses at MTU 9000 but
 * not at 1500: the trigger is TSO on + MTU 9000, even when the MTU
 * comparison itself was not conclusive).
 */
static void
widen(const struct detect_result *res, size_t w, struct worse_info *wi)
{
	const struct knobs *kw = &res->series[w].knobs;
	struct knobs		 ky;
	size_t			 x, y, c;
	unsigned		 add = 0;
	int			 k, j, v;

	for (k = 0; k < KNOB_COUNT; k++) {
		if (!(wi->seen & (1u << k)))
			continue;
		for (x = 0; x < res->nrun_series; x++) {
			if (!same_family(&res->series[x], &res->series[w]) ||
			    (j = differ_in_one(kw,
			    &res->series[x].knobs)) == -1 || j == k ||
			    (wi->seen & (1u << j)))
				continue;
			ky = res->series[x].knobs;
			knobs_set(&ky, k, wi->better[k]);
			if ((y = find_series(res, x, &ky)) == DETECT_NONE ||
			    (c = find_cmp(res, y, x)) == DETECT_NONE ||
			    (res->cmps[c].v.verdict == STATS_REGRESSION &&
			    res->cmps[c].sb == x))
				continue;
			v = knobs_get(&res->series[x].knobs, j);
			if (!(add & (1u << j)) || v < wi->better[j])
				wi->better[j] = v;
			add |= 1u << j;
		}
	}
	wi->mask |= add;
}

/* Knob isolation: the combinations worse than a neighbour. */
static void
isolate(struct detect_result *res)
{
	struct worse_info	*wi;
	struct detect_trigger	 t;
	size_t			 i, j, n = res->nrun_series;
	int			 dup;

	wi = xcalloc(n > 0 ? n : 1, sizeof *wi);
	for (i = 0; i < res->ncmps; i++) {
		const struct detect_cmp *c = &res->cmps[i];

		if (c->v.verdict != STATS_REGRESSION)
			continue;
		wi[c->sb].mask |= 1u << c->knob;
		wi[c->sb].seen |= 1u << c->knob;
		wi[c->sb].better[c->knob] = knobs_get(&res->series[c->sa].knobs,
		    c->knob);
		wi[c->sb].via[c->knob] = i;
	}
	for (i = 0; i < n; i++) {
		if (wi[i].mask == 0)
			continue;
		widen(res, i, &wi[i]);
		trigger_fill(res, i, &wi[i], &t);
		dup = 0;
		for (j = 0; j < res->ntriggers; j++) {
			struct detect_trigger *o = &res->triggers[j];

			if (same_family(&res->series[o->worse],
			    &res->series[i]) && strcmp(o->key, t.key) == 0) {
				o->contexts++;
				o->collapse |= t.collapse;
				dup = 1;
			}
		}
		if (dup)
			continue;
		res->triggers = xreallocarray(res->triggers,
		    res->ntriggers + 1, sizeof *res->triggers);
		res->triggers[res->ntriggers++] = t;
	}
	free(wi);
}

int
detect_run(struct store *st, int64_t run_id, const struct detect_params *p,
    struct detect_result *res, char *err, size_t errlen)
{
	size_t	i, j, m;

	memset(res, 0, sizeof *res);
	res->run_id = run_id;
	res->params = *p;
	if (store_samples_query(st, run_id, p->metric, &res->series,
	    &res->nseries, err, errlen) == -1)
		return -1;
	res->nrun_series = res->nseries;
	find_pairs(res);
	for (i = 0; i < res->ncmps; i++) {
		for (m = 0, j = 0; j < res->ncmps; j++)
			if (same_family(&res->series[res->cmps[i].sa],
			    &res->series[res->cmps[j].sa]))
				m++;
		res->cmps[i].family_size = m;
		if (cmp_decide(p, res->series, &res->cmps[i], p->adaptive, err,
		    errlen) == -1) {
			detect_result_free(res);
			return -1;
		}
	}
	isolate(res);
	return 0;
}

void
detect_result_free(struct detect_result *res)
{
	if (res == NULL)
		return;
	store_series_free(res->series, res->nseries);
	free(res->cmps);
	free(res->triggers);
	free(res->rcmps);
	memset(res, 0, sizeof *res);
}

/* ---- run over run -------------------------------------------------------- */

static void
pair_add(struct detect_link **pp, size_t *n, const char *link,
    const char *client, const char *server)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		if (strcmp((*pp)[i].link, link) == 0)
			return;
	*pp = xreallocarray(*pp, *n + 1, sizeof **pp);
	snprintf((*pp)[*n].link, sizeof (*pp)[*n].link, "%s", link);
	snprintf((*pp)[*n].client, sizeof (*pp)[*n].client, "%s", client);
	snprintf((*pp)[*n].server, sizeof (*pp)[*n].server, "%s", server);
	(*n)++;
}

static const char *
facts_host(const struct store_host_facts_row *f, size_t n, int64_t id)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (f[i].id == id)
			return f[i].host;
	return NULL;
}

/*
 * The host pair of each link of a run: from the facts its done jobs
 * recorded, else from the inventory it stored (the caller's
 * p->inventory_links).  Unknown links are absent.
 */
static int
run_pairs(struct store *st, const struct store_run *run,
    const struct detect_params *p, struct detect_link **pp, size_t *np,
    char *err, size_t errlen)
{
	struct store_job		*jobs = NULL;
	struct store_host_facts_row	*facts = NULL;
	const char			*c, *s;
	size_t				 nj = 0, nf = 0, i;

	*pp = NULL;
	*np = 0;
	if (store_job_list(st, run->id, STORE_JOB_DONE, &jobs, &nj, err,
	    errlen) == -1 || store_host_facts_list(st, run->id, &facts, &nf,
	    err, errlen) == -1) {
		free(jobs);
		return -1;
	}
	for (i = 0; i < nj; i++)
		if ((c = facts_host(facts, nf, jobs[i].client_facts_id)) !=
		    NULL && (s = facts_host(facts, nf,
		    jobs[i].server_facts_id)) != NULL)
			pair_add(pp, np, jobs[i].link, c, s);
	free(jobs);
	store_facts_free(facts, nf);
	if (*np > 0 || run->inventory_text == NULL || p == NULL ||
	    p->inventory_links == NULL)
		return 0;
	if (p->inventory_links(run, pp, np, err, errlen) == -1) {
		free(*pp);
		*pp = NULL;
		*np = 0;
		return -1;
	}
	return 0;
}

/* Same with the texts, which store_run_list() leaves out. */
static int
run_pairs_get(struct store *st, const struct store_run *r,
    const struct detect_params *p, struct detect_link **pp, size_t *np,
    char *err, size_t errlen)
{
	struct store_run	run;
	int			rc;

	*pp = NULL;
	*np = 0;
	if ((rc = store_run_get(st, r->id, &run, err, errlen)) != 1)
		return rc == 0 ? 0 : -1;
	rc = run_pairs(st, &run, p, pp, np, err, errlen);
	store_run_free(&run);
	return rc;
}

/*
 * 1 when the runs share a link and no shared link joins other hosts (or
 * when one side's pairs are unknown).
 */
static int
pairs_compatible(const struct detect_link *a, size_t na,
    const struct detect_link *b, size_t nb)
{
	size_t	i, j, common = 0;

	if (na == 0 || nb == 0)
		return 1;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			if (strcmp(a[i].link, b[j].link) != 0)
				continue;
			if (strcmp(a[i].client, b[j].client) != 0 ||
			    strcmp(a[i].server, b[j].server) != 0)
				return 0;
			common++;
		}
	return common > 0;
}

#define DETECT_BASELINE_SCAN	100	/* earlier runs looked at */

int
detect_find_baseline(struct store *st, int64_t run_id,
    const struct detect_params *p, int64_t *baseline, char *err,
    size_t errlen)
{
	struct store_run	*runs = NULL, *me = NULL;
	struct detect_link	*mine = NULL, *theirs;
	size_t			 nruns = 0, nmine = 0, ntheirs, i, seen = 0;
	int			 rc = -1;

	*baseline = 0;
	if (store_run_list(st, 0, &runs, &nruns, err, errlen) == -1)
		return -1;
	for (i = 0; i < nruns; i++)
		if (runs[i].id == run_id)
			me = &runs[i];
	if (me == NULL) {
		util_seterr(err, errlen, "%s: no run %lld", store_path(st),
		    (long long)run_id);
		goto fail;
	}
	/* store_run_list leaves the texts out: read them for the pairs. */
	if (run_pairs_get(st, me, p, &mine, &nmine, err, errlen) == -1)
		goto fail;
	for (i = 0; i < nruns && seen < DETECT_BASELINE_SCAN; i++) {
		/* Bisect steps and health checks are not baselines. */
		if (runs[i].id >= run_id || runs[i].state != STORE_RUN_DONE ||
		    strcmp(runs[i].kind, "bisect") == 0 ||
		    strcmp(runs[i].kind, "health") == 0)
			continue;
		seen++;
		if (run_pairs_get(st, &runs[i], p, &theirs, &ntheirs, err,
		    errlen) == -1)
			goto fail;
		if (pairs_compatible(mine, nmine, theirs, ntheirs)) {
			*baseline = runs[i].id;
			free(theirs);
			break;
		}
		free(theirs);
	}
	rc = 0;
fail:
	free(mine);
	store_runs_free(runs, nruns);
	return rc;
}

/* Appends the baseline run's series to res->series. */
static int
add_baseline_series(struct store *st, int64_t baseline,
    struct detect_result *res, char *err, size_t errlen)
{
	struct store_series	*b = NULL, *all;
	size_t			 nb = 0;

	if (store_samples_query(st, baseline, res->params.metric, &b, &nb,
	    err, errlen) == -1)
		return -1;
	all = xcalloc(res->nseries + nb + 1, sizeof *all);
	if (res->nseries > 0)
		memcpy(all, res->series, res->nseries * sizeof *all);
	if (nb > 0)
		memcpy(all + res->nseries, b, nb * sizeof *all);
	free(res->series);
	free(b);
	res->series = all;
	res->nseries += nb;
	return 0;
}

int
detect_baseline(struct store *st, int64_t baseline_run,
    struct detect_result *res, char *err, size_t errlen)
{
	struct store_series	*s;
	struct detect_cmp	*c;
	size_t			 i, j, best, m;

	if (baseline_run == 0 && detect_find_baseline(st, res->run_id,
	    &res->params, &baseline_run, err, errlen) == -1)
		return -1;
	if (baseline_run == 0)
		return 0;
	if (add_baseline_series(st, baseline_run, res, err, errlen) == -1)
		return -1;
	res->baseline_run = baseline_run;
	s = res->series;
	res->rcmps = xcalloc(res->nrun_series + 1, sizeof *res->rcmps);
	for (i = 0; i < res->nrun_series; i++) {
		best = DETECT_NONE;
		for (j = res->nrun_series; j < res->nseries; j++)
			if (strcmp(s[i].link, s[j].link) == 0 &&
			    strcmp(s[i].knobs_key, s[j].knobs_key) == 0 &&
			    strcmp(s[i].tool, s[j].tool) == 0 &&
			    strcmp(s[i].params, s[j].params) == 0 &&
			    (best == DETECT_NONE || s[j].n > s[best].n))
				best = j;
		if (best == DETECT_NONE)
			continue;
		c = &res->rcmps[res->nrcmps++];
		c->sa = best;
		c->sb = i;
		c->knob = -1;
	}
	for (i = 0; i < res->nrcmps; i++) {
		c = &res->rcmps[i];
		for (m = 0, j = 0; j < res->nrcmps; j++)
			if (strcmp(s[c->sb].link, s[res->rcmps[j].sb].link) ==
			    0 && strcmp(s[c->sb].tool, s[res->rcmps[j].sb].tool)
			    == 0 && strcmp(s[c->sb].params,
			    s[res->rcmps[j].sb].params) == 0)
				m++;
		c->family_size = m;
		if (cmp_decide(&res->params, s, c, 0, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* ---- adaptive sampling ---------------------------------------------------- */

/* The highest repetition number among the run's jobs of series s. */
static int
max_rep(const struct store_job *jobs, size_t nj, const struct store_series *s)
{
	size_t	i;
	int	rep = -1;

	for (i = 0; i < nj; i++)
		if (strcmp(jobs[i].link, s->link) == 0 &&
		    strcmp(jobs[i].knobs_key, s->knobs_key) == 0 &&
		    strcmp(jobs[i].tool, s->tool) == 0 &&
		    strcmp(jobs[i].params, s->params) == 0 &&
		    jobs[i].repetition > rep)
			rep = jobs[i].repetition;
	return rep;
}

int
detect_more_jobs(struct store *st, const struct detect_result *res,
    struct store_job_spec **specs, size_t *n, char *err, size_t errlen)
{
	struct store_job	*jobs = NULL;
	size_t			*need, nj = 0, i, round, rounds = 0, t;
	int			*rep;

	*specs = NULL;
	*n = 0;
	need = xcalloc(res->nrun_series + 1, sizeof *need);
	rep = xcalloc(res->nrun_series + 1, sizeof *rep);
	for (i = 0; i < res->ncmps; i++) {
		const struct detect_cmp *c = &res->cmps[i];

		if (c->add_a > need[c->sa])
			need[c->sa] = c->add_a;
		if (c->add_b > need[c->sb])
			need[c->sb] = c->add_b;
	}
	for (i = 0; i < res->nrun_series; i++) {
		if (need[i] > rounds)
			rounds = need[i];
		*n += need[i];
	}
	if (*n == 0)
		goto out;
	if (store_job_list(st, res->run_id, -1, &jobs, &nj, err,
	    errlen) == -1) {
		free(need);
		free(rep);
		*n = 0;
		return -1;
	}
	for (i = 0; i < res->nrun_series; i++)
		rep[i] = max_rep(jobs, nj, &res->series[i]);
	*specs = xcalloc(*n, sizeof **specs);
	/* Round by round through the combinations: A B A B ... */
	for (t = 0, round = 0; round < rounds; round++)
		for (i = 0; i < res->nrun_series; i++) {
			struct store_job_spec *sp;

			if (need[i] <= round)
				continue;
			sp = &(*specs)[t++];
			sp->link = res->series[i].link;
			sp->knobs = res->series[i].knobs;
			sp->tool = res->series[i].tool;
			sp->params = res->series[i].params;
			sp->repetition = ++rep[i];
		}
out:
	free(jobs);
	free(need);
	free(rep);
	return 0;
}
