/*
 * report_compare: `labrat compare RUN_A RUN_B`: run B's series against
 * the same series of run A (detect_baseline()), those of one link or knob
 * combination if asked.  Text: per series a ministat plot and table and
 * the verdict, then a summary; JSON: the same comparisons with the keys
 * of `labrat report --format json`'s, each with both runs' samples, and
 * the summary's counts.  See report.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "report_int.h"
#include "util.h"

#define COMPARE_OUT_MAX	(64 * 1024)

static void
compare_one(const struct detect_result *res, const struct detect_cmp *c,
    int width, FILE *fp)
{
	const struct store_series *a = &res->series[c->sa];
	const struct store_series *b = &res->series[c->sb];
	const char	*unit;
	double		 sc = report_scale(b, &unit), *va, *vb;
	char		*out, err[256], eff[128], p[32];
	size_t		 i;

	fprintf(fp, "== %s %s %s (%s) ==\nx run %lld (%s)\n+ run %lld "
	    "(%s)\n", b->link, b->knobs_key[0] ? b->knobs_key : "(as is)",
	    b->params, unit, (long long)res->baseline_run,
	    report_rev_str(a->revision), (long long)res->run_id,
	    report_rev_str(b->revision));
	va = xcalloc(a->n, sizeof *va);
	vb = xcalloc(b->n, sizeof *vb);
	for (i = 0; i < a->n; i++)
		va[i] = a->values[i] / sc;
	for (i = 0; i < b->n; i++)
		vb[i] = b->values[i] / sc;
	out = xcalloc(1, COMPARE_OUT_MAX);
	if (stats_ministat_plot(va, a->n, vb, b->n, width, out,
	    COMPARE_OUT_MAX, err, sizeof err) >= 0)
		fputs(out, fp);
	if (stats_ministat_format(va, a->n, NULL, vb, b->n, NULL, 95.0, out,
	    COMPARE_OUT_MAX, err, sizeof err) >= 0)
		fputs(out, fp);
	else
		fprintf(fp, "(%s)\n", err);
	fprintf(fp, "verdict: %s", stats_verdict_name(c->v.verdict));
	if (detect_flagged(c))
		fprintf(fp, ", %s", report_effect(c, b, eff, sizeof eff));
	fprintf(fp, " (%s, n = %zu/%zu, alpha %.3g", report_p(c->v.p, p,
	    sizeof p), c->v.n_a, c->v.n_b, c->v.alpha);
	if (isfinite(c->v.ci_low))
		fprintf(fp, ", ratio %.3f in [%.3f, %.3f]", c->v.ratio,
		    c->v.ci_low, c->v.ci_high);
	fprintf(fp, ")\n\n");
	free(out);
	free(va);
	free(vb);
}

static int
compare_selected(const struct detect_result *res, const struct detect_cmp *c,
    const struct report_compare_opts *o)
{
	const struct store_series *b = &res->series[c->sb];

	return (o->link == NULL || strcmp(o->link, b->link) == 0) &&
	    (o->knobs == NULL || strcmp(o->knobs, b->knobs_key) == 0);
}

static void
compare_text(const struct detect_result *res,
    const struct report_compare_opts *o, const size_t *k, size_t n,
    FILE *fp)
{
	struct report_table	 t;
	size_t			 i;
	char			 eff[128], pv[32], line[256];

	fprintf(fp, "metric %s\n\n", report_metric_desc(&res->params, line,
	    sizeof line));
	for (i = 0; i < res->nrcmps; i++)
		if (compare_selected(res, &res->rcmps[i], o))
			compare_one(res, &res->rcmps[i], o->width > 0 ?
			    o->width : 74, fp);
	fprintf(fp, "Summary: run %lld -> run %lld, %zu series: %zu "
	    "regressions, %zu improvements, %zu no change, %zu inconclusive\n",
	    (long long)res->baseline_run, (long long)res->run_id, n,
	    k[STATS_REGRESSION], k[STATS_IMPROVEMENT], k[STATS_NO_CHANGE],
	    k[STATS_INCONCLUSIVE]);
	report_table_init(&t, 4, "llll");
	for (i = 0; i < res->nrcmps; i++) {
		const struct detect_cmp *c = &res->rcmps[i];
		const struct store_series *b = &res->series[c->sb];

		if (!compare_selected(res, c, o))
			continue;
		line[0] = '\0';
		if (detect_flagged(c))
			snprintf(line, sizeof line, "%s, %s (%s)",
			    stats_verdict_name(c->v.verdict), report_effect(c,
			    b, eff, sizeof eff), report_p(c->v.p, pv,
			    sizeof pv));
		report_table_row(&t, b->link, b->knobs_key[0] ? b->knobs_key :
		    "(as is)", b->tool, line[0] != '\0' ? line :
		    stats_verdict_name(c->v.verdict));
	}
	report_table_print(&t, "  ", fp);
	report_table_free(&t);
}

static void
json_samples(struct json_writer *w, const char *key,
    const struct store_series *s)
{
	size_t	i;

	json_key(w, key);
	json_begin_arr(w);
	for (i = 0; i < s->n; i++)
		json_put_num(w, s->values[i]);
	json_end_arr(w);
}

static int
compare_json(const struct detect_result *res,
    const struct report_compare_opts *o, const size_t *k, size_t n,
    FILE *fp, char *err, size_t errlen)
{
	const struct detect_params *p = &res->params;
	struct json_writer	*w = json_writer_new(fp, JSON_PRETTY);
	char			 e[256];
	size_t			 i;

	json_begin_obj(w);
	json_kv_int(w, "run", res->run_id);
	json_kv_int(w, "baseline_run", res->baseline_run);
	json_kv_str(w, "metric", p->metric);
	json_kv_bool(w, "lower_is_better", p->stats.lower_is_better);
	json_kv_str(w, "link", o->link);
	json_kv_str(w, "knobs", o->knobs);
	json_key(w, "summary");
	json_begin_obj(w);
	json_kv_int(w, "series", (int64_t)n);
	json_kv_int(w, "regressions", (int64_t)k[STATS_REGRESSION]);
	json_kv_int(w, "improvements", (int64_t)k[STATS_IMPROVEMENT]);
	json_kv_int(w, "no_change", (int64_t)k[STATS_NO_CHANGE]);
	json_kv_int(w, "inconclusive", (int64_t)k[STATS_INCONCLUSIVE]);
	json_end_obj(w);
	json_key(w, "comparisons");
	json_begin_arr(w);
	for (i = 0; i < res->nrcmps; i++) {
		const struct detect_cmp *c = &res->rcmps[i];

		if (!compare_selected(res, c, o))
			continue;
		json_begin_obj(w);
		report_json_cmp_keys(w, res, c);
		json_kv_str(w, "unit", res->series[c->sb].unit);
		json_samples(w, "values_baseline", &res->series[c->sa]);
		json_samples(w, "values_candidate", &res->series[c->sb]);
		json_end_obj(w);
	}
	json_end_arr(w);
	json_end_obj(w);
	if (json_writer_free(w, e, sizeof e) == -1) {
		util_seterr(err, errlen, "compare: %s", e);
		return -1;
	}
	return 0;
}

int
report_compare(const char *db_path, int64_t run_a, int64_t run_b,
    const struct report_compare_opts *o, FILE *fp, int *regressions,
    char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct detect_params	 p;
	struct detect_result	 res;
	size_t			 i, n = 0, k[4] = { 0, 0, 0, 0 };
	int			 rc = -1;

	*regressions = 0;
	memset(&res, 0, sizeof res);
	if (o->format != REPORT_TEXT && o->format != REPORT_JSON) {
		util_seterr(err, errlen, "compare: the formats are text and "
		    "json");
		return -1;
	}
	if (store_open(db_path, STORE_OPEN_READONLY, &st, err, errlen) == -1)
		return -1;
	if (report_resolve_run(st, &run_a, err, errlen) == -1 ||
	    report_resolve_run(st, &run_b, err, errlen) == -1 ||
	    report_params_run(st, run_b, o->metric, &p, err, errlen) == -1)
		goto fail;
	if (detect_run(st, run_b, &p, &res, err, errlen) == -1 ||
	    detect_baseline(st, run_a, &res, err, errlen) == -1)
		goto fail;
	for (i = 0; i < res.nrcmps; i++)
		if (compare_selected(&res, &res.rcmps[i], o)) {
			n++;
			k[res.rcmps[i].v.verdict]++;
		}
	/* Nothing is written then: JSON is one object or nothing. */
	if (n == 0) {
		util_seterr(err, errlen, "runs %lld and %lld have no %s series "
		    "in common%s", (long long)run_a, (long long)run_b, p.metric,
		    o->link != NULL || o->knobs != NULL ? " that match" : "");
		goto fail;
	}
	if (o->format == REPORT_JSON) {
		if (compare_json(&res, o, k, n, fp, err, errlen) == -1)
			goto fail;
	} else
		compare_text(&res, o, k, n, fp);
	*regressions = (int)k[STATS_REGRESSION];
	rc = 0;
fail:
	detect_result_free(&res);
	store_close(st);
	return rc;
}
