/*
 * report_fmt: the machine formats of a report: JSON (json-c), CSV and
 * JUnit XML.  See report.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#define REPORT_INTERNAL
#include "report.h"
#include "util.h"

/* ---- JSON ----------------------------------------------------------------- */

/* A number, or null when it is NaN or infinite (JSON has neither). */
static struct json_object *
jnum(double d)
{
	return isfinite(d) ? json_object_new_double(d) : NULL;
}

static void
jset(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *
json_series(const struct store_series *s)
{
	struct json_object	*o = json_object_new_object();
	struct stats_summary	 sum;
	char			 err[128];

	jset(o, "link", json_object_new_string(s->link));
	jset(o, "knobs", json_object_new_string(s->knobs_key));
	jset(o, "tool", json_object_new_string(s->tool));
	jset(o, "params", json_object_new_string(s->params));
	jset(o, "revision", json_object_new_string(s->revision));
	jset(o, "metric", json_object_new_string(s->metric));
	jset(o, "unit", json_object_new_string(s->unit));
	jset(o, "n", json_object_new_int64((int64_t)s->n));
	if (s->n > 0 && stats_summarize(s->values, s->n, &sum, err,
	    sizeof err) == 0) {
		jset(o, "median", jnum(sum.median));
		jset(o, "q1", jnum(sum.q1));
		jset(o, "q3", jnum(sum.q3));
		jset(o, "iqr", jnum(sum.iqr));
		jset(o, "min", jnum(sum.min));
		jset(o, "max", jnum(sum.max));
	}
	return o;
}

static struct json_object *
json_cmp(const struct detect_result *res, const struct detect_cmp *c)
{
	const struct stats_verdict *v = &c->v;
	struct json_object	*o = json_object_new_object(), *ci;
	char			 name[256], val[16], ctx[STORE_KEY_MAX];

	jset(o, "name", json_object_new_string(report_cmp_name(res, c, name,
	    sizeof name)));
	jset(o, "link", json_object_new_string(res->series[c->sb].link));
	jset(o, "tool", json_object_new_string(res->series[c->sb].tool));
	jset(o, "params", json_object_new_string(res->series[c->sb].params));
	if (c->knob >= 0) {
		jset(o, "knob", json_object_new_string(knobs_name(c->knob)));
		jset(o, "baseline_value", json_object_new_string(
		    detect_knob_value(&res->series[c->sa].knobs, c->knob, val,
		    sizeof val)));
		jset(o, "candidate_value", json_object_new_string(
		    detect_knob_value(&res->series[c->sb].knobs, c->knob, val,
		    sizeof val)));
		jset(o, "context", json_object_new_string(detect_context_key(
		    &res->series[c->sa].knobs, c->knob, ctx, sizeof ctx)));
	}
	jset(o, "baseline", json_object_new_string(
	    res->series[c->sa].knobs_key));
	jset(o, "candidate", json_object_new_string(
	    res->series[c->sb].knobs_key));
	jset(o, "revision_baseline", json_object_new_string(
	    res->series[c->sa].revision));
	jset(o, "revision_candidate", json_object_new_string(
	    res->series[c->sb].revision));
	jset(o, "verdict", json_object_new_string(
	    stats_verdict_name(v->verdict)));
	jset(o, "collapse", json_object_new_boolean(v->collapse));
	jset(o, "n_baseline", json_object_new_int64((int64_t)v->n_a));
	jset(o, "n_candidate", json_object_new_int64((int64_t)v->n_b));
	jset(o, "median_baseline", jnum(v->median_a));
	jset(o, "median_candidate", jnum(v->median_b));
	jset(o, "ratio", jnum(v->ratio));
	jset(o, "effect", jnum(v->effect));
	ci = json_object_new_array();
	json_object_array_add(ci, jnum(v->ci_low));
	json_object_array_add(ci, jnum(v->ci_high));
	jset(o, "ratio_ci", ci);
	jset(o, "p", jnum(v->p));
	jset(o, "alpha", jnum(v->alpha));
	jset(o, "family_size", json_object_new_int64((int64_t)c->family_size));
	return o;
}

static struct json_object *
json_trigger(const struct detect_result *res, const struct detect_trigger *t)
{
	const struct store_series *w = &res->series[t->worse];
	struct json_object	*o = json_object_new_object(), *al;
	char			 text[2048];
	int			 k;

	report_trigger_text(res, t, text, sizeof text);
	jset(o, "link", json_object_new_string(w->link));
	jset(o, "tool", json_object_new_string(w->tool));
	jset(o, "params", json_object_new_string(w->params));
	jset(o, "knobs", json_object_new_string(t->key));
	jset(o, "text", json_object_new_string(text));
	jset(o, "collapse", json_object_new_boolean(t->collapse));
	jset(o, "effect", jnum(res->cmps[t->headline].v.effect));
	jset(o, "ratio", jnum(res->cmps[t->headline].v.ratio));
	jset(o, "p", jnum(res->cmps[t->headline].v.p));
	jset(o, "contexts", json_object_new_int64((int64_t)t->contexts));
	al = json_object_new_object();
	for (k = 0; k < KNOB_COUNT; k++)
		if (t->mask & (1u << k))
			jset(al, knobs_name(k),
			    t->alone[k] == DETECT_NONE ? NULL :
			    json_object_new_string(stats_verdict_name(
			    res->cmps[t->alone[k]].v.verdict)));
	jset(o, "alone", al);
	return o;
}

int
report_json(const struct detect_result *res, FILE *fp, char *err,
    size_t errlen)
{
	const struct detect_params *p = &res->params;
	struct json_object	*root, *o, *a;
	size_t			 i;

	root = json_object_new_object();
	jset(root, "run", json_object_new_int64(res->run_id));
	jset(root, "metric", json_object_new_string(p->metric));
	o = json_object_new_object();
	jset(o, "alpha", jnum(p->stats.alpha));
	jset(o, "min_effect", jnum(p->stats.min_effect));
	jset(o, "min_samples", json_object_new_int64(
	    (int64_t)p->stats.min_samples));
	jset(o, "max_samples", json_object_new_int64(
	    (int64_t)p->stats.max_samples));
	jset(o, "collapse_factor", jnum(p->stats.collapse));
	jset(o, "adaptive", json_object_new_boolean(p->adaptive));
	jset(root, "stats", o);
	a = json_object_new_array();
	for (i = 0; i < res->ntriggers; i++)
		json_object_array_add(a, json_trigger(res, &res->triggers[i]));
	jset(root, "triggers", a);
	a = json_object_new_array();
	for (i = 0; i < res->nrun_series; i++)
		json_object_array_add(a, json_series(&res->series[i]));
	jset(root, "series", a);
	a = json_object_new_array();
	for (i = 0; i < res->ncmps; i++)
		json_object_array_add(a, json_cmp(res, &res->cmps[i]));
	jset(root, "comparisons", a);
	o = json_object_new_object();
	jset(o, "run", res->baseline_run > 0 ?
	    json_object_new_int64(res->baseline_run) : NULL);
	a = json_object_new_array();
	for (i = 0; i < res->nrcmps; i++)
		json_object_array_add(a, json_cmp(res, &res->rcmps[i]));
	jset(o, "comparisons", a);
	jset(root, "baseline", o);
	if (fprintf(fp, "%s\n", json_object_to_json_string_ext(root,
	    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)) < 0) {
		util_seterr(err, errlen, "report: write failed: %s",
		    strerror(errno));
		json_object_put(root);
		return -1;
	}
	json_object_put(root);
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
csv_cmp(const struct detect_result *res, const struct detect_cmp *c,
    const char *section, const char *knob, FILE *fp)
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
	csv_str(fp, v->collapse ? "1" : "0", 1);
}

int
report_csv(const struct detect_result *res, FILE *fp)
{
	struct stats_summary	sum;
	char			err[128], n[32];
	size_t			i;

	fputs("section,link,tool,params,revision_a,revision_b,knobs_a,"
	    "knobs_b,knob,n_a,n_b,median_a,median_b,iqr_a,effect,ci_low,"
	    "ci_high,p,alpha,verdict,collapse\n", fp);
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
		fputs(",,,,,,\n", fp);
	}
	for (i = 0; i < res->ncmps; i++)
		csv_cmp(res, &res->cmps[i], "knob", NULL, fp);
	for (i = 0; i < res->nrcmps; i++)
		csv_cmp(res, &res->rcmps[i], "baseline", NULL, fp);
	/* A trigger row: its headline comparison, knob = the trigger. */
	for (i = 0; i < res->ntriggers; i++)
		csv_cmp(res, &res->cmps[res->triggers[i].headline], "trigger",
		    res->triggers[i].key, fp);
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
	char	name[256], msg[256], eff[64], p[32];

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
	char	name[128];
	size_t	i, fail = 0;

	for (i = 0; i < res->ncmps; i++)
		fail += res->cmps[i].v.verdict == STATS_REGRESSION;
	for (i = 0; i < res->nrcmps; i++)
		fail += res->rcmps[i].v.verdict == STATS_REGRESSION;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<testsuites name=\"labrat run %lld\" tests=\"%zu\" "
	    "failures=\"%zu\">\n", (long long)res->run_id,
	    res->ncmps + res->nrcmps, fail);
	snprintf(name, sizeof name, "run %lld: knob comparisons",
	    (long long)res->run_id);
	junit_suite(res, name, res->cmps, res->ncmps, fp);
	if (res->baseline_run > 0) {
		snprintf(name, sizeof name, "run %lld against run %lld",
		    (long long)res->run_id, (long long)res->baseline_run);
		junit_suite(res, name, res->rcmps, res->nrcmps, fp);
	}
	fputs("</testsuites>\n", fp);
	return 0;
}
