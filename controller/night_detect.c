/*
 * night_detect.c: tonight's run against the last good night on the same
 * links (detect's run over run, the plan's statistics), the verdicts
 * stored with the night, the regression records it opens or joins, the
 * records it finds fixed, and the confirming re-run that a new record
 * must survive before it is bisected.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "night_int.h"
#include "util.h"

int
night_params(struct night_ctx *c, struct detect_params *p, char *err,
    size_t errlen)
{
	const struct config_stats	*s = &c->plan->stats;

	detect_params_default(p);
	detect_params_set(p, s->alpha, s->min_effect, s->min_samples,
	    s->max_samples, s->collapse_factor, s->adaptive);
	return detect_params_metric(p, "throughput_bps",
	    config_plan_lower_is_better(c->plan, "throughput_bps"), err,
	    errlen);
}

/* The record key of a series (strings point into s and wl). */
static void
night_key(const struct store_series *s, const struct detect_params *p,
    char *wl, size_t wllen, struct store_regr *k)
{
	memset(k, 0, sizeof *k);
	if (strncmp(s->params, s->tool, strlen(s->tool)) == 0)
		snprintf(wl, wllen, "%s", s->params);
	else
		snprintf(wl, wllen, "%s:%s", s->tool, s->params);
	k->link = (char *)s->link;
	k->knobs = (char *)s->knobs_key;
	k->workload = wl;
	k->metric = (char *)p->metric;
	k->direction = p->stats.lower_is_better ? "up" : "down";
}

static int
night_same(const struct store_regr *a, const struct store_regr *b)
{
	return strcmp(a->link, b->link) == 0 &&
	    strcmp(a->knobs, b->knobs) == 0 &&
	    strcmp(a->workload, b->workload) == 0 &&
	    strcmp(a->metric, b->metric) == 0 &&
	    strcmp(a->direction, b->direction) == 0;
}

/* Detection of run_id against the baseline night's run; *res filled. */
static int
night_compare(struct night_ctx *c, int64_t run_id, struct detect_result *res,
    char *err, size_t errlen)
{
	struct detect_params	p;

	memset(res, 0, sizeof *res);
	if (night_params(c, &p, err, errlen) == -1)
		return -1;
	if (detect_run(c->st, run_id, &p, res, err, errlen) == -1)
		return -1;
	if (c->good.id != 0 && detect_baseline(c->st, c->good.run_id, res,
	    err, errlen) == -1)
		return -1;
	return 0;
}

static const char *
night_verdict_name(enum stats_verdict_kind v)
{
	switch (v) {
	case STATS_NO_CHANGE:	return "no change";
	case STATS_REGRESSION:	return "regression";
	case STATS_IMPROVEMENT:	return "improvement";
	default:		return "inconclusive";
	}
}

/* The run-over-run verdicts as a JSON array (heap). */
static char *
night_verdicts_json(const struct detect_result *res)
{
	struct json_mem		 jm;
	struct json_writer	*w;
	char			*text;
	size_t			 i;

	if ((w = json_mem_begin(&jm, 0)) == NULL)
		return xstrdup("[]");
	json_begin_arr(w);
	for (i = 0; i < res->nrcmps; i++) {
		const struct detect_cmp		*m = &res->rcmps[i];
		const struct store_series	*b = &res->series[m->sb];

		json_begin_obj(w);
		json_kv_str(w, "link", b->link);
		json_kv_str(w, "knobs", b->knobs_key);
		json_kv_str(w, "workload", b->params);
		json_kv_str(w, "metric", b->metric);
		json_kv_str(w, "baseline_revision",
		    res->series[m->sa].revision);
		json_kv_str(w, "revision", b->revision);
		json_kv_str(w, "verdict", night_verdict_name(m->v.verdict));
		json_kv_num(w, "change", m->v.effect);
		json_kv_num(w, "p", m->v.p);
		json_kv_int(w, "n_baseline", (int64_t)m->v.n_a);
		json_kv_int(w, "n", (int64_t)m->v.n_b);
		json_end_obj(w);
	}
	json_end_arr(w);
	if ((text = json_mem_end(&jm, NULL, NULL, 0)) == NULL)
		return xstrdup("[]");
	return text;
}

/* A regression of tonight: opens or joins its record. */
static int
night_regressed(struct night_ctx *c, const struct detect_result *res,
    const struct detect_cmp *m, char *err, size_t errlen)
{
	struct store_regr	k;
	char			wl[STORE_PARAMS_MAX + STORE_TOOL_MAX];
	int64_t			id;
	int			opened;

	night_key(&res->series[m->sb], &res->params, wl, sizeof wl, &k);
	k.schedule_id = c->sched.id;
	k.good_rev = (char *)res->series[m->sa].revision;
	k.bad_rev = c->n.revision;
	k.change = m->v.effect;
	if (store_regr_join(c->st, &k, c->n.id, &id, &opened, err,
	    errlen) == -1)
		return -1;
	night_say(c, "%s %s %s: %+.1f%% against %s (p %.3g): %s record %lld",
	    k.link, k.knobs, k.workload, 100 * m->v.effect, k.good_rev,
	    m->v.p, opened ? "new" : "joins", (long long)id);
	return 0;
}

/* A comparison back within the threshold fixes an active record. */
static int
night_fixed(struct night_ctx *c, const struct detect_result *res,
    const struct detect_cmp *m, struct store_regr *act, size_t nact,
    char *err, size_t errlen)
{
	struct store_regr	k;
	char			wl[STORE_PARAMS_MAX + STORE_TOOL_MAX], why[256];
	size_t			i;

	night_key(&res->series[m->sb], &res->params, wl, sizeof wl, &k);
	for (i = 0; i < nact; i++) {
		if (!night_same(&act[i], &k) ||
		    !store_regr_can(act[i].state, STORE_REGR_FIXED))
			continue;
		snprintf(why, sizeof why, "night %lld on %s: %+.1f%% against "
		    "%s, back within the threshold", (long long)c->n.id,
		    c->n.revision, 100 * m->v.effect,
		    res->series[m->sa].revision);
		if (store_regr_set(c->st, act[i].id, STORE_REGR_FIXED, 0, NULL,
		    NULL, NULL, why, err, errlen) == -1)
			return -1;
		act[i].state = STORE_REGR_FIXED;
		night_say(c, "regression %lld fixed: %s", (long long)act[i].id,
		    why);
	}
	return 0;
}

int
night_detect(struct night_ctx *c, char *err, size_t errlen)
{
	struct detect_result	 res;
	struct store_regr	*act = NULL;
	size_t			 nact = 0, i, nreg = 0;
	int			 rc = -1;

	store_night_free(&c->good);
	if (store_night_last_good(c->st, c->n.links, c->n.id, &c->good, err,
	    errlen) == -1)
		return -1;
	c->n.good_night = c->good.id;
	if (night_compare(c, c->n.run_id, &res, err, errlen) == -1)
		goto out;
	if (store_regr_list(c->st, ~(1u << STORE_REGR_FIXED), &act, &nact,
	    err, errlen) == -1)
		goto out;
	for (i = 0; i < res.nrcmps; i++) {
		const struct detect_cmp *m = &res.rcmps[i];

		if (m->v.verdict == STATS_REGRESSION) {
			nreg++;
			if (night_regressed(c, &res, m, err, errlen) == -1)
				goto out;
		} else if ((m->v.verdict == STATS_NO_CHANGE ||
		    m->v.verdict == STATS_IMPROVEMENT) &&
		    night_fixed(c, &res, m, act, nact, err, errlen) == -1)
			goto out;
	}
	if (c->good.id == 0)
		night_say(c, "no good night on %s yet: this one is the "
		    "baseline", *c->n.links != '\0' ? c->n.links : "its links");
	else
		night_say(c, "against night %lld (%s, run %lld): %zu "
		    "comparisons, %zu regressions", (long long)c->good.id,
		    c->good.revision, (long long)c->good.run_id, res.nrcmps,
		    nreg);
	free(c->n.verdicts);
	c->n.verdicts = night_verdicts_json(&res);
	c->n.good = nreg == 0;
	rc = night_save(c, "detected", err, errlen);
out:
	store_regrs_free(act, nact);
	detect_result_free(&res);
	return rc;
}

/* Tonight's own open records (first_night tonight). */
static int
night_ours(struct night_ctx *c, unsigned mask, struct store_regr **v,
    size_t *n, char *err, size_t errlen)
{
	size_t	i, j;

	if (store_regr_list(c->st, mask, v, n, err, errlen) == -1)
		return -1;
	for (i = j = 0; i < *n; i++) {
		if ((*v)[i].first_night == c->n.id) {
			if (i != j) {
				(*v)[j] = (*v)[i];
				memset(&(*v)[i], 0, sizeof (*v)[i]);
			}
			j++;
		} else
			store_regr_free(&(*v)[i]);
	}
	*n = j;
	return 0;
}

/* Comma list of the distinct links of v into buf. */
static void
night_links_of(const struct store_regr *v, size_t n, char *buf, size_t len)
{
	size_t	i, j;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(v[j].link, v[i].link) != 0; j++)
			;
		if (j == i)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			    *buf != '\0' ? "," : "", v[i].link);
	}
}

/* Confirms or drops each open record of tonight against run_id. */
static int
night_judge(struct night_ctx *c, struct store_regr *ours, size_t n,
    int64_t run_id, char *err, size_t errlen)
{
	struct detect_result	res;
	struct store_regr	k;
	char			wl[STORE_PARAMS_MAX + STORE_TOOL_MAX];
	size_t			i, j;
	int			held;

	if (run_id != 0 && night_compare(c, run_id, &res, err, errlen) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		held = run_id == 0;
		for (j = 0; run_id != 0 && j < res.nrcmps; j++) {
			if (res.rcmps[j].v.verdict != STATS_REGRESSION)
				continue;
			night_key(&res.series[res.rcmps[j].sb], &res.params,
			    wl, sizeof wl, &k);
			held |= night_same(&ours[i], &k);
		}
		if ((held ? store_regr_set(c->st, ours[i].id,
		    STORE_REGR_CONFIRMED, 0, NULL, NULL, NULL, NULL, err,
		    errlen) : store_regr_drop(c->st, ours[i].id, err,
		    errlen)) == -1)
			break;
		night_say(c, "regression %lld %s", (long long)ours[i].id,
		    held ? "confirmed" : "not confirmed: dropped");
	}
	if (run_id != 0)
		detect_result_free(&res);
	return i == n ? 0 : -1;
}

int
night_confirm(struct night_ctx *c, char *err, size_t errlen)
{
	struct store_regr	*ours = NULL, *act = NULL;
	size_t			 n = 0, nact = 0, i;
	char			 links[1024], path[PATH_MAX + 32];
	int			 rc = -1;

	if (night_ours(c, 1u << STORE_REGR_OPEN, &ours, &n, err,
	    errlen) == -1)
		return -1;
	if (n > 0 && c->rq->daemon->confirm > 0) {
		night_links_of(ours, n, links, sizeof links);
		snprintf(path, sizeof path, "%s/night-%lld-confirm.json",
		    c->dir, (long long)c->n.id);
		night_say(c, "confirming on %s", links);
		if (night_plan_file(c, links, path, err, errlen) == -1)
			goto out;
		rc = night_run(c, path, &c->n.confirm_run_id, 1, err, errlen);
		if (c->n.confirm_run_id != 0 && store_night_update(c->st,
		    &c->n, err, errlen) == -1)
			rc = -1;
		if (rc != 0)
			goto out;
		rc = -1;
		store_night_free(&c->good);
		if (c->n.good_night != 0 && store_night_get(c->st,
		    c->n.good_night, &c->good, err, errlen) == -1)
			goto out;
	}
	if (n > 0 && night_judge(c, ours, n, c->rq->daemon->confirm > 0 ?
	    c->n.confirm_run_id : 0, err, errlen) == -1)
		goto out;
	/* Good again when no record of tonight is left (noise dropped). */
	if (store_regr_list(c->st, ~(1u << STORE_REGR_FIXED), &act, &nact,
	    err, errlen) == -1)
		goto out;
	for (i = 0; i < nact && act[i].last_night != c->n.id; i++)
		;
	c->n.good = i == nact;
	rc = night_save(c, "confirmed", err, errlen);
out:
	store_regrs_free(act, nact);
	store_regrs_free(ours, n);
	return rc;
}
