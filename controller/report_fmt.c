/*
 * report_fmt: the machine formats of a report: JSON (the json module's
 * writer), CSV and JUnit XML.  See report.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "report_int.h"
#include "util.h"

/* ---- JSON ----------------------------------------------------------------- */

void
report_series_keys(struct json_writer *w, const struct store_series *s)
{
	json_kv_str(w, "link", s->link);
	json_kv_str(w, "knobs", s->knobs_key);
	json_kv_str(w, "tool", s->tool);
	json_kv_str(w, "params", s->params);
	json_kv_str(w, "revision", s->revision);
}

static void
json_series(struct json_writer *w, const struct store_series *s)
{
	struct stats_summary	 sum;
	char			 err[128];

	json_begin_obj(w);
	report_series_keys(w, s);
	json_kv_str(w, "metric", s->metric);
	json_kv_str(w, "unit", s->unit);
	json_kv_int(w, "n", (int64_t)s->n);
	if (s->n > 0 && stats_summarize(s->values, s->n, &sum, err,
	    sizeof err) == 0) {
		json_kv_num(w, "median", sum.median);
		json_kv_num(w, "q1", sum.q1);
		json_kv_num(w, "q3", sum.q3);
		json_kv_num(w, "iqr", sum.iqr);
		json_kv_num(w, "min", sum.min);
		json_kv_num(w, "max", sum.max);
	}
	json_end_obj(w);
}

void
report_json_cmp_keys(struct json_writer *w, const struct detect_result *res,
    const struct detect_cmp *c)
{
	const struct stats_verdict *v = &c->v;
	const struct store_series *a = &res->series[c->sa];
	const struct store_series *b = &res->series[c->sb];
	char	name[256], val[16], ctx[STORE_KEY_MAX];

	json_kv_str(w, "name", report_cmp_name(res, c, name, sizeof name));
	json_kv_str(w, "link", b->link);
	json_kv_str(w, "tool", b->tool);
	json_kv_str(w, "params", b->params);
	if (c->knob >= 0) {
		json_kv_str(w, "knob", knobs_name(c->knob));
		json_kv_str(w, "baseline_value", detect_knob_value(&a->knobs,
		    c->knob, val, sizeof val));
		json_kv_str(w, "candidate_value", detect_knob_value(&b->knobs,
		    c->knob, val, sizeof val));
		json_kv_str(w, "context", detect_context_key(&a->knobs,
		    c->knob, ctx, sizeof ctx));
	}
	json_kv_str(w, "baseline", a->knobs_key);
	json_kv_str(w, "candidate", b->knobs_key);
	json_kv_str(w, "revision_baseline", a->revision);
	json_kv_str(w, "revision_candidate", b->revision);
	json_kv_str(w, "verdict", stats_verdict_name(v->verdict));
	json_kv_bool(w, "collapse", v->collapse);
	json_kv_int(w, "n_baseline", (int64_t)v->n_a);
	json_kv_int(w, "n_candidate", (int64_t)v->n_b);
	json_kv_num(w, "median_baseline", v->median_a);
	json_kv_num(w, "median_candidate", v->median_b);
	json_kv_num(w, "ratio", v->ratio);
	json_kv_num(w, "effect", v->effect);
	json_key(w, "ratio_ci");
	json_begin_arr(w);
	json_put_num(w, v->ci_low);
	json_put_num(w, v->ci_high);
	json_end_arr(w);
	json_kv_num(w, "p", v->p);
	json_kv_num(w, "alpha", v->alpha);
	json_kv_int(w, "family_size", (int64_t)c->family_size);
}

static void
json_cmp(struct json_writer *w, const struct detect_result *res,
    const struct detect_cmp *c)
{
	json_begin_obj(w);
	report_json_cmp_keys(w, res, c);
	json_end_obj(w);
}

static void
json_trigger(struct json_writer *w, const struct detect_result *res,
    const struct detect_trigger *t)
{
	const struct store_series *s = &res->series[t->worse];
	const struct stats_verdict *hv = &res->cmps[t->headline].v;
	char	text[2048];
	int	k;

	report_trigger_text(res, t, text, sizeof text);
	json_begin_obj(w);
	json_kv_str(w, "link", s->link);
	json_kv_str(w, "tool", s->tool);
	json_kv_str(w, "params", s->params);
	json_kv_str(w, "knobs", t->key);
	json_kv_str(w, "text", text);
	json_kv_bool(w, "collapse", t->collapse);
	json_kv_num(w, "effect", hv->effect);
	json_kv_num(w, "ratio", hv->ratio);
	json_kv_num(w, "p", hv->p);
	json_kv_int(w, "contexts", (int64_t)t->contexts);
	json_key(w, "alone");
	json_begin_obj(w);
	for (k = 0; k < KNOB_COUNT; k++) {
		if (!(t->mask & (1u << k)))
			continue;
		json_kv_str(w, knobs_name(k),
		    t->alone[k] == DETECT_NONE ? NULL :
		    stats_verdict_name(res->cmps[t->alone[k]].v.verdict));
	}
	json_end_obj(w);
	json_end_obj(w);
}

int
report_json(struct store *st, const struct detect_result *res, FILE *fp,
    char *err, size_t errlen)
{
	const struct detect_params *p = &res->params;
	struct json_writer	*w = json_writer_new(fp, JSON_PRETTY);
	char			 e[256];
	size_t			 i;

	json_begin_obj(w);
	json_kv_int(w, "run", res->run_id);
	json_kv_str(w, "metric", p->metric);
	json_kv_bool(w, "lower_is_better", p->stats.lower_is_better);
	json_kv_str(w, "metric_host", stats_metric_find(p->metric) != NULL &&
	    !p->metric_declared ? stats_metric_find(p->metric)->host : NULL);
	json_key(w, "stats");
	json_begin_obj(w);
	json_kv_num(w, "alpha", p->stats.alpha);
	json_kv_num(w, "min_effect", p->stats.min_effect);
	json_kv_int(w, "min_samples", (int64_t)p->stats.min_samples);
	json_kv_int(w, "max_samples", (int64_t)p->stats.max_samples);
	json_kv_num(w, "collapse_factor", p->stats.collapse);
	json_kv_bool(w, "adaptive", p->adaptive);
	json_end_obj(w);
	if (report_facts_json(w, st, res->run_id, err, errlen) == -1) {
		json_writer_free(w, e, sizeof e);
		return -1;
	}
	json_key(w, "triggers");
	json_begin_arr(w);
	for (i = 0; i < res->ntriggers; i++)
		json_trigger(w, res, &res->triggers[i]);
	json_end_arr(w);
	json_key(w, "series");
	json_begin_arr(w);
	for (i = 0; i < res->nrun_series; i++)
		json_series(w, &res->series[i]);
	json_end_arr(w);
	json_key(w, "comparisons");
	json_begin_arr(w);
	for (i = 0; i < res->ncmps; i++)
		json_cmp(w, res, &res->cmps[i]);
	json_end_arr(w);
	json_key(w, "baseline");
	json_begin_obj(w);
	if (res->baseline_run > 0)
		json_kv_int(w, "run", res->baseline_run);
	else
		json_kv_null(w, "run");
	json_key(w, "comparisons");
	json_begin_arr(w);
	for (i = 0; i < res->nrcmps; i++)
		json_cmp(w, res, &res->rcmps[i]);
	json_end_arr(w);
	json_end_obj(w);
	json_end_obj(w);
	if (json_writer_free(w, e, sizeof e) == -1) {
		util_seterr(err, errlen, "report: %s", e);
		return -1;
	}
	return 0;
}

/* ---- CSV (RFC 4180) --------------------------------------------------------- */

static void
csv_str(FILE *fp, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n") != NULL) {
		fputc('"', fp);
		for (; *s != '\0'; s++) {
			if (*s == '"')
				fputc('"', fp);
			fputc(*s, fp);
		}
		fputc('"', fp);
	} else
		fputs(s, fp);
	fputc(last ? '\n' : ',', fp);
}

static void
csv_num(FILE *fp, double d, int last)
{
	if (isfinite(d))
		fprintf(fp, "%.10g", d);
	fputc(last ? '\n' : ',', fp);
}

static void
csv_run(FILE *fp, int64_t run, int last)
{
	if (run > 0)
		fprintf(fp, "%lld", (long long)run);
	fputc(last ? '\n' : ',', fp);
}

/* run_a: the run of the baseline side (the report's, or its baseline's). */
static void
csv_cmp(const struct detect_result *res, const struct detect_cmp *c,
    const char *section, const char *knob, int64_t run_a, FILE *fp)
{
	const struct store_series *a = &res->series[c->sa];
	const struct store_series *b = &res->series[c->sb];
	const struct stats_verdict *v = &c->v;
	char	n[32];

	csv_str(fp, section, 0);
	csv_str(fp, b->link, 0);
	csv_str(fp, b->tool, 0);
	csv_str(fp, b->params, 0);
	csv_str(fp, a->revision, 0);
	csv_str(fp, b->revision, 0);
	csv_str(fp, a->knobs_key, 0);
	csv_str(fp, b->knobs_key, 0);
	if (knob == NULL)
		knob = c->knob >= 0 ? knobs_name(c->knob) : "";
	csv_str(fp, knob, 0);
	snprintf(n, sizeof n, "%zu", v->n_a);
	csv_str(fp, n, 0);
	snprintf(n, sizeof n, "%zu", v->n_b);
	csv_str(fp, n, 0);
	csv_num(fp, v->median_a, 0);
	csv_num(fp, v->median_b, 0);
	csv_num(fp, NAN, 0);
	csv_num(fp, v->effect, 0);
	csv_num(fp, v->ci_low, 0);
	csv_num(fp, v->ci_high, 0);
	csv_num(fp, v->p, 0);
	csv_num(fp, v->alpha, 0);
	csv_str(fp, stats_verdict_name(v->verdict), 0);
	csv_str(fp, v->collapse ? "1" : "0", 0);
	csv_str(fp, b->unit, 0);
	csv_run(fp, run_a, 0);
	csv_run(fp, res->run_id, 1);
}

int
report_csv(const struct detect_result *res, FILE *fp)
{
	struct stats_summary	sum;
	char			err[128], n[32];
	size_t			i;

	fputs("section,link,tool,params,revision_a,revision_b,knobs_a,"
	    "knobs_b,knob,n_a,n_b,median_a,median_b,iqr_a,effect,ci_low,"
	    "ci_high,p,alpha,verdict,collapse,unit,run_a,run_b\n", fp);
	for (i = 0; i < res->nrun_series; i++) {
		const struct store_series *s = &res->series[i];

		if (s->n == 0 || stats_summarize(s->values, s->n, &sum, err,
		    sizeof err) == -1)
			continue;
		csv_str(fp, "series", 0);
		csv_str(fp, s->link, 0);
		csv_str(fp, s->tool, 0);
		csv_str(fp, s->params, 0);
		csv_str(fp, s->revision, 0);
		csv_str(fp, "", 0);
		csv_str(fp, s->knobs_key, 0);
		csv_str(fp, "", 0);
		csv_str(fp, "", 0);
		snprintf(n, sizeof n, "%zu", s->n);
		csv_str(fp, n, 0);
		csv_str(fp, "", 0);
		csv_num(fp, sum.median, 0);
		csv_num(fp, NAN, 0);
		csv_num(fp, sum.iqr, 0);
		fputs(",,,,,,,", fp);
		csv_str(fp, s->unit, 0);
		csv_run(fp, res->run_id, 0);
		csv_run(fp, 0, 1);
	}
	for (i = 0; i < res->ncmps; i++)
		csv_cmp(res, &res->cmps[i], "knob", NULL, res->run_id, fp);
	for (i = 0; i < res->nrcmps; i++)
		csv_cmp(res, &res->rcmps[i], "baseline", NULL,
		    res->baseline_run, fp);
	/* A trigger row: its headline comparison, knob = the trigger. */
	for (i = 0; i < res->ntriggers; i++)
		csv_cmp(res, &res->cmps[res->triggers[i].headline], "trigger",
		    res->triggers[i].key, res->run_id, fp);
	return 0;
}

/* ---- JUnit XML ---------------------------------------------------------------- */

static void
xml_str(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '&':
			fputs("&amp;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\n')
				fputc(*s, fp);
		}
}

static void
junit_case(const struct detect_result *res, const struct detect_cmp *c,
    FILE *fp)
{
	const struct store_series *b = &res->series[c->sb];
	char	name[256], msg[256], eff[128], p[32];

	fputs("    <testcase classname=\"labrat.", fp);
	xml_str(fp, b->link);
	fputc('.', fp);
	xml_str(fp, b->tool);
	fputs("\" name=\"", fp);
	xml_str(fp, report_cmp_name(res, c, name, sizeof name));
	fputs("\" time=\"0\">\n", fp);
	snprintf(msg, sizeof msg, "%s: %s (%s, n = %zu/%zu)",
	    stats_verdict_name(c->v.verdict), report_effect(c, b, eff,
	    sizeof eff), report_p(c->v.p, p, sizeof p), c->v.n_a, c->v.n_b);
	if (c->v.verdict == STATS_REGRESSION) {
		fputs("      <failure type=\"regression\" message=\"", fp);
		xml_str(fp, msg);
		fputs("\"/>\n", fp);
	} else if (c->v.verdict == STATS_INCONCLUSIVE) {
		fputs("      <skipped message=\"", fp);
		xml_str(fp, msg);
		fputs("\"/>\n", fp);
	}
	fputs("      <system-out>", fp);
	xml_str(fp, msg);
	fputs("</system-out>\n    </testcase>\n", fp);
}

static void
junit_suite(const struct detect_result *res, const char *name,
    const struct detect_cmp *cmps, size_t n, FILE *fp)
{
	size_t	i, fail = 0, skip = 0;

	for (i = 0; i < n; i++) {
		fail += cmps[i].v.verdict == STATS_REGRESSION;
		skip += cmps[i].v.verdict == STATS_INCONCLUSIVE;
	}
	fputs("  <testsuite name=\"", fp);
	xml_str(fp, name);
	fprintf(fp, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
	    "skipped=\"%zu\">\n", n, fail, skip);
	for (i = 0; i < n; i++)
		junit_case(res, &cmps[i], fp);
	fputs("  </testsuite>\n", fp);
}

int
report_junit(const struct detect_result *res, FILE *fp)
{
	char	name[256];
	size_t	i, fail = 0;

	for (i = 0; i < res->ncmps; i++)
		fail += res->cmps[i].v.verdict == STATS_REGRESSION;
	for (i = 0; i < res->nrcmps; i++)
		fail += res->rcmps[i].v.verdict == STATS_REGRESSION;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"labrat run %lld\" tests=\"%zu\" "
	    "failures=\"%zu\">\n", (long long)res->run_id,
	    res->ncmps + res->nrcmps, fail);
	/* The metric and its direction name each suite: which way is a
	 * failure is not the same for CPU as for throughput. */
	snprintf(name, sizeof name, "run %lld: knob comparisons of %s (%s)",
	    (long long)res->run_id, res->params.metric,
	    stats_direction_name(res->params.stats.lower_is_better));
	junit_suite(res, name, res->cmps, res->ncmps, fp);
	if (res->baseline_run > 0) {
		snprintf(name, sizeof name, "run %lld against run %lld: %s "
		    "(%s)", (long long)res->run_id,
		    (long long)res->baseline_run, res->params.metric,
		    stats_direction_name(res->params.stats.lower_is_better));
		junit_suite(res, name, res->rcmps, res->nrcmps, fp);
	}
	fputs("</testsuites>\n", fp);
	return 0;
}
