/*
 * report: text report, trigger sentences, run lookup and `compare`; the
 * machine formats (JSON, CSV, JUnit) are in report_fmt.c.  See report.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPORT_INTERNAL

#include "report.h"
#include "util.h"

int
report_format_parse(const char *s, enum report_format *f)
{
	static const char *const names[] = { "text", "json", "csv", "junit" };
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i]) == 0) {
			*f = (enum report_format)i;
			return 0;
		}
	return -1;
}

/* Display scale of a series: Mbit/s for bit/s, else as stored. */
double
report_scale(const struct store_series *s, const char **unit)
{
	if (strcmp(s->unit, "bit/s") == 0 ||
	    strcmp(s->metric, "throughput_bps") == 0) {
		*unit = "Mbit/s";
		return 1e6;
	}
	*unit = s->unit;
	return 1.0;
}

/* "p < 0.001", "p = 0.012", "p = n/a". */
const char *
report_p(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "p = n/a");
	else if (p < 0.001)
		snprintf(buf, len, "p < 0.001");
	else
		snprintf(buf, len, "p = %.3f", p);
	return buf;
}

/* "TSO off -> on @ mtu=1500": what a within-run comparison changes. */
const char *
report_cmp_name(const struct detect_result *res, const struct detect_cmp *c,
    char *buf, size_t len)
{
	const struct store_series *a = &res->series[c->sa];
	const struct store_series *b = &res->series[c->sb];
	char	va[16], vb[16], ctx[STORE_KEY_MAX];

	if (c->knob < 0) {
		snprintf(buf, len, "%s: run %lld -> run %lld",
		    b->knobs_key[0] != '\0' ? b->knobs_key : "(as is)",
		    (long long)res->baseline_run, (long long)res->run_id);
		return buf;
	}
	detect_context_key(&a->knobs, c->knob, ctx, sizeof ctx);
	snprintf(buf, len, "%s %s -> %s%s%s", detect_knob_label(c->knob),
	    detect_knob_value(&a->knobs, c->knob, va, sizeof va),
	    detect_knob_value(&b->knobs, c->knob, vb, sizeof vb),
	    ctx[0] != '\0' ? " @ " : "", ctx);
	return buf;
}

/* "17.9 % slower", "~95x slower", "no change", "inconclusive". */
const char *
report_effect(const struct detect_cmp *c, const struct store_series *s,
    char *buf, size_t len)
{
	const struct stats_verdict *v = &c->v;
	const char	*down, *up, *unit;
	int		 tp = report_scale(s, &unit) > 1.0;

	down = tp ? "slower" : "lower";
	up = tp ? "faster" : "higher";
	if (!detect_flagged(c))
		snprintf(buf, len, "%s", stats_verdict_name(v->verdict));
	else if (v->collapse && v->ratio > 0 && v->ratio < 1)
		snprintf(buf, len, "~%.0fx %s", 1.0 / v->ratio, down);
	else if (v->collapse)
		snprintf(buf, len, "~%.0fx %s", v->ratio, up);
	else
		snprintf(buf, len, "%.1f %% %s", fabs(v->effect) * 100.0,
		    v->effect < 0 ? down : up);
	return buf;
}

/* The evidence in parentheses of a flagged comparison. */
static const char *
evidence(const struct detect_result *res, const struct detect_cmp *c,
    char *buf, size_t len)
{
	const char	*unit;
	double		 sc = report_scale(&res->series[c->sb], &unit);
	char		 p[32];

	if (c->v.collapse)
		snprintf(buf, len, "collapse: median %.1f vs %.1f %s, "
		    "n = %zu/%zu", c->v.median_b / sc, c->v.median_a / sc, unit,
		    c->v.n_b, c->v.n_a);
	else
		snprintf(buf, len, "%s, n = %zu/%zu", report_p(c->v.p, p,
		    sizeof p), c->v.n_b, c->v.n_a);
	return buf;
}

/* The order knobs are named in: offloads, then MTU, then NAT. */
static const int report_subject_order[KNOB_COUNT] = {
	KNOB_TSO, KNOB_LRO, KNOB_RXCSUM, KNOB_TXCSUM, KNOB_MTU, KNOB_NAT,
};

int
report_trigger_text(const struct detect_result *res,
    const struct detect_trigger *t, char *out, size_t len)
{
	const struct detect_cmp		*h = &res->cmps[t->headline];
	const struct store_series	*w = &res->series[t->worse];
	const struct store_series	*a = &res->series[h->sa];
	struct buf	 b;
	char		 v[16], eff[64], ev[160];
	int		 k, with = 0, n;
	size_t		 i;

	buf_init(&b, 4096);
	buf_printf(&b, "%s %s: %s %s", w->link, w->tool,
	    detect_knob_label(h->knob), detect_knob_value(&w->knobs, h->knob,
	    v, sizeof v));
	for (k = 0; k < KNOB_COUNT; k++) {
		if (k == h->knob || !(t->mask & (1u << k)))
			continue;
		buf_printf(&b, " %s %s %s", with++ ? "and" : "with",
		    detect_knob_label(k), detect_knob_value(&w->knobs, k, v,
		    sizeof v));
	}
	buf_printf(&b, " is %s than %s %s (%s)", report_effect(h, w, eff,
	    sizeof eff), detect_knob_label(h->knob), detect_knob_value(
	    &a->knobs, h->knob, v, sizeof v), evidence(res, h, ev, sizeof ev));
	if (with == 0 && t->contexts > 1)
		buf_printf(&b, "; the same in %zu combinations", t->contexts);
	for (i = 0; with > 0 && i < KNOB_COUNT; i++) {
		k = report_subject_order[i];
		if (!(t->mask & (1u << k)))
			continue;
		detect_knob_value(&w->knobs, k, v, sizeof v);
		buf_printf(&b, "; %s%s%s alone: ", detect_knob_label(k),
		    strcmp(v, "on") == 0 ? "" : " ", strcmp(v, "on") == 0 ?
		    "" : v);
		if (t->alone[k] == DETECT_NONE)
			buf_printf(&b, "not measured");
		else if (detect_flagged(&res->cmps[t->alone[k]]))
			buf_printf(&b, "%s (%s)", report_effect(
			    &res->cmps[t->alone[k]], w, eff, sizeof eff),
			    evidence(res, &res->cmps[t->alone[k]], ev,
			    sizeof ev));
		else
			buf_printf(&b, "%s", stats_verdict_name(
			    res->cmps[t->alone[k]].v.verdict));
	}
	n = snprintf(out, len, "%s", b.data != NULL ? b.data : "");
	buf_free(&b);
	return n;
}

/* "rev r200140" or "revision unknown". */
static const char *
rev_str(const char *rev)
{
	return rev[0] != '\0' ? rev : "unknown revision";
}

static void
text_header(struct store *st, const struct detect_result *res, FILE *fp)
{
	const struct detect_params *p = &res->params;
	struct store_run	run;
	char			when[32], err[256];
	time_t			t;
	struct tm		tm;

	fprintf(fp, "labrat report: run %lld", (long long)res->run_id);
	if (st != NULL && store_run_get(st, res->run_id, &run, err,
	    sizeof err) == 1) {
		t = (time_t)(run.created_at / 1000);
		gmtime_r(&t, &tm);
		strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
		fprintf(fp, " (%s, %s, %s)", run.kind,
		    store_run_state_name(run.state), when);
		store_run_free(&run);
	}
	fprintf(fp, ", metric %s\nverdicts: alpha %.3g split over each "
	    "link's comparisons%s, minimum effect %.1f %%, collapse %.0fx, "
	    "%zu-%zu samples per side\n\n", p->metric, p->stats.alpha,
	    p->adaptive ? " and looks (adaptive)" : "",
	    p->stats.min_effect * 100.0, p->stats.collapse,
	    p->stats.min_samples, p->stats.max_samples);
}

static void
text_findings(const struct detect_result *res, FILE *fp)
{
	char	line[2048];
	size_t	i, n = 0;

	fprintf(fp, "Findings\n");
	for (i = 0; i < res->ntriggers; i++) {
		report_trigger_text(res, &res->triggers[i], line, sizeof line);
		fprintf(fp, "  %s\n", line);
	}
	for (i = 0; i < res->ncmps; i++)
		if (res->cmps[i].v.verdict == STATS_INCONCLUSIVE)
			n++;
	if (res->ntriggers == 0)
		fprintf(fp, "  no regression between knob combinations\n");
	if (n > 0)
		fprintf(fp, "  %zu of %zu comparisons inconclusive (more "
		    "repetitions would decide them)\n", n, res->ncmps);
	fprintf(fp, "\n");
}

static void
text_cmp_row(const struct detect_result *res, const struct detect_cmp *c,
    FILE *fp)
{
	const struct stats_verdict *v = &c->v;
	char	name[256], p[32], ci[64], eff[32];

	if (isfinite(v->ci_low) && isfinite(v->ci_high))
		snprintf(ci, sizeof ci, "[%+.1f, %+.1f] %%",
		    (v->ci_low - 1) * 100, (v->ci_high - 1) * 100);
	else
		snprintf(ci, sizeof ci, "-");
	if (isfinite(v->effect))
		snprintf(eff, sizeof eff, "%+.1f %%", v->effect * 100);
	else
		snprintf(eff, sizeof eff, "-");
	if (!isfinite(v->p))
		snprintf(p, sizeof p, "-");
	else if (v->p < 0.001)
		snprintf(p, sizeof p, "<0.001");
	else
		snprintf(p, sizeof p, "%.3f", v->p);
	fprintf(fp, "  %-36s %-12s %8s  %-20s %-11s %zu/%zu%s\n",
	    report_cmp_name(res, c, name, sizeof name),
	    stats_verdict_name(v->verdict), eff, ci, p, v->n_a, v->n_b,
	    v->collapse ? " collapse" : "");
}

static void
text_baseline(const struct detect_result *res, FILE *fp)
{
	const struct store_series *a, *b;
	char	eff[64], p[32];
	size_t	i, nflag = 0;

	if (res->baseline_run == 0) {
		fprintf(fp, "Run over run: no earlier done run on the same "
		    "host pairs\n\n");
		return;
	}
	fprintf(fp, "Run over run: against run %lld\n",
	    (long long)res->baseline_run);
	for (i = 0; i < res->nrcmps; i++) {
		const struct detect_cmp *c = &res->rcmps[i];

		if (!detect_flagged(c))
			continue;
		nflag++;
		a = &res->series[c->sa];
		b = &res->series[c->sb];
		fprintf(fp, "  %s %s %s: %s in run %lld (%s) than in run %lld "
		    "(%s) (%s, n = %zu/%zu)\n", b->link, b->knobs_key, b->tool,
		    report_effect(c, b, eff, sizeof eff), (long long)res->run_id,
		    rev_str(b->revision), (long long)res->baseline_run,
		    rev_str(a->revision), report_p(c->v.p, p, sizeof p),
		    c->v.n_b, c->v.n_a);
	}
	fprintf(fp, "  %zu series compared, %zu changed\n\n", res->nrcmps,
	    nflag);
}

/* The knob matrix and comparisons of the family of series f. */
static void
text_family(const struct detect_result *res, size_t f, FILE *fp)
{
	const struct store_series *s0 = &res->series[f], *s;
	struct stats_summary	 sum;
	const char		*unit;
	double			 sc = report_scale(s0, &unit);
	char			 err[128];
	size_t			 i;

	fprintf(fp, "Link %s, %s (%s)\n  %-28s %5s %10s %10s  (%s)\n",
	    s0->link, s0->params, rev_str(s0->revision), "knobs",
	    "n", "median", "IQR", unit);
	for (i = f; i < res->nrun_series; i++) {
		s = &res->series[i];
		if (strcmp(s->link, s0->link) != 0 || strcmp(s->tool,
		    s0->tool) != 0 || strcmp(s->params, s0->params) != 0 ||
		    strcmp(s->revision, s0->revision) != 0)
			continue;
		if (s->n == 0 || stats_summarize(s->values, s->n, &sum, err,
		    sizeof err) == -1)
			continue;
		fprintf(fp, "  %-28s %5zu %10.1f %10.1f\n", s->knobs_key[0] ?
		    s->knobs_key : "(as is)", s->n, sum.median / sc,
		    sum.iqr / sc);
	}
	fprintf(fp, "  %-36s %-12s %8s  %-20s %-11s %s\n", "comparison",
	    "verdict", "effect", "CI of ratio", "p", "n (a/b)");
	for (i = 0; i < res->ncmps; i++) {
		s = &res->series[res->cmps[i].sa];
		if (strcmp(s->link, s0->link) == 0 && strcmp(s->tool,
		    s0->tool) == 0 && strcmp(s->params, s0->params) == 0 &&
		    strcmp(s->revision, s0->revision) == 0)
			text_cmp_row(res, &res->cmps[i], fp);
	}
	fprintf(fp, "\n");
}

static int
report_text(struct store *st, const struct detect_result *res, FILE *fp,
    char *err, size_t errlen)
{
	size_t	i, j;
	int	first;

	text_header(st, res, fp);
	if (report_facts_text(st, res->run_id, fp, err, errlen) == -1)
		return -1;
	text_findings(res, fp);
	text_baseline(res, fp);
	for (i = 0; i < res->nrun_series; i++) {
		first = 1;
		for (j = 0; j < i && first; j++)
			if (strcmp(res->series[i].link, res->series[j].link) ==
			    0 && strcmp(res->series[i].tool,
			    res->series[j].tool) == 0 && strcmp(
			    res->series[i].params, res->series[j].params) == 0 &&
			    strcmp(res->series[i].revision,
			    res->series[j].revision) == 0)
				first = 0;
		if (first)
			text_family(res, i, fp);
	}
	if (res->nrun_series == 0)
		fprintf(fp, "no samples of %s in run %lld\n", res->params.metric,
		    (long long)res->run_id);
	return 0;
}

int
report_write(struct store *st, const struct detect_result *res,
    enum report_format f, FILE *fp, char *err, size_t errlen)
{
	int	rc = 0;

	switch (f) {
	case REPORT_TEXT:
		rc = report_text(st, res, fp, err, errlen);
		break;
	case REPORT_JSON:
		rc = report_json(st, res, fp, err, errlen);
		break;
	case REPORT_CSV:
		rc = report_csv(res, fp);
		break;
	case REPORT_JUNIT:
		rc = report_junit(res, fp);
		break;
	}
	if (rc == 0 && (fflush(fp) == EOF || ferror(fp))) {
		util_seterr(err, errlen, "report: write failed: %s",
		    strerror(errno));
		rc = -1;
	}
	return rc;
}

/* run_id 0: the newest run. */
static int
resolve_run(struct store *st, int64_t *run_id, char *err, size_t errlen)
{
	struct store_run	*runs = NULL, run;
	size_t			 n = 0;
	int			 rc;

	if (*run_id == 0) {
		if (store_run_list(st, 1, &runs, &n, err, errlen) == -1)
			return -1;
		if (n == 0) {
			util_seterr(err, errlen, "%s: no runs yet",
			    store_path(st));
			return -1;
		}
		*run_id = runs[0].id;
		store_runs_free(runs, n);
		return 0;
	}
	if ((rc = store_run_get(st, *run_id, &run, err, errlen)) == -1)
		return -1;
	if (rc == 0) {
		util_seterr(err, errlen, "%s: no run %lld", store_path(st),
		    (long long)*run_id);
		return -1;
	}
	store_run_free(&run);
	return 0;
}

static int
count_regressions(const struct detect_result *res)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < res->ncmps; i++)
		n += res->cmps[i].v.verdict == STATS_REGRESSION;
	for (i = 0; i < res->nrcmps; i++)
		n += res->rcmps[i].v.verdict == STATS_REGRESSION;
	return n;
}

int
report_run(const char *db_path, int64_t run_id, int64_t baseline_run,
    enum report_format f, FILE *fp, int *regressions, char *err,
    size_t errlen)
{
	struct store		*st = NULL;
	struct detect_params	 p;
	struct detect_result	 res;
	int			 rc = -1;

	memset(&res, 0, sizeof res);
	if (store_open(db_path, STORE_OPEN_READONLY, &st, err, errlen) == -1)
		return -1;
	if (resolve_run(st, &run_id, err, errlen) == -1 ||
	    report_params_run(st, run_id, &p, err, errlen) == -1 ||
	    detect_run(st, run_id, &p, &res, err, errlen) == -1)
		goto fail;
	if (baseline_run >= 0 && detect_baseline(st, baseline_run, &res, err,
	    errlen) == -1)
		goto fail;
	if (regressions != NULL)
		*regressions = count_regressions(&res);
	rc = report_write(st, &res, f, fp, err, errlen);
fail:
	detect_result_free(&res);
	store_close(st);
	return rc;
}

#define COMPARE_OUT_MAX	(64 * 1024)

static void
compare_one(const struct detect_result *res, const struct detect_cmp *c,
    int width, FILE *fp)
{
	const struct store_series *a = &res->series[c->sa];
	const struct store_series *b = &res->series[c->sb];
	const char	*unit;
	double		 sc = report_scale(b, &unit), *va, *vb;
	char		*out, err[256], eff[64], p[32];
	size_t		 i;

	fprintf(fp, "== %s %s %s (%s) ==\nx run %lld (%s)\n+ run %lld "
	    "(%s)\n", b->link, b->knobs_key[0] ? b->knobs_key : "(as is)",
	    b->params, unit, (long long)res->baseline_run,
	    rev_str(a->revision), (long long)res->run_id,
	    rev_str(b->revision));
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

int
report_compare(const char *db_path, int64_t run_a, int64_t run_b,
    const struct report_compare_opts *o, FILE *fp, int *regressions,
    char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct detect_params	 p;
	struct detect_result	 res;
	size_t			 i, n = 0, k[4] = { 0, 0, 0, 0 };
	char			 eff[64], pv[32];
	int			 rc = -1;

	*regressions = 0;
	memset(&res, 0, sizeof res);
	if (store_open(db_path, STORE_OPEN_READONLY, &st, err, errlen) == -1)
		return -1;
	if (resolve_run(st, &run_a, err, errlen) == -1 ||
	    resolve_run(st, &run_b, err, errlen) == -1 ||
	    report_params_run(st, run_b, &p, err, errlen) == -1)
		goto fail;
	if (o->metric != NULL)
		snprintf(p.metric, sizeof p.metric, "%s", o->metric);
	if (detect_run(st, run_b, &p, &res, err, errlen) == -1 ||
	    detect_baseline(st, run_a, &res, err, errlen) == -1)
		goto fail;
	for (i = 0; i < res.nrcmps; i++)
		if (compare_selected(&res, &res.rcmps[i], o)) {
			compare_one(&res, &res.rcmps[i], o->width > 0 ?
			    o->width : 74, fp);
			n++;
			k[res.rcmps[i].v.verdict]++;
		}
	if (n == 0) {
		util_seterr(err, errlen, "runs %lld and %lld have no %s series "
		    "in common%s", (long long)run_a, (long long)run_b, p.metric,
		    o->link != NULL || o->knobs != NULL ? " that match" : "");
		goto fail;
	}
	fprintf(fp, "Summary: run %lld -> run %lld, %zu series: %zu "
	    "regressions, %zu improvements, %zu no change, %zu inconclusive\n",
	    (long long)run_a, (long long)run_b, n, k[STATS_REGRESSION],
	    k[STATS_IMPROVEMENT], k[STATS_NO_CHANGE], k[STATS_INCONCLUSIVE]);
	for (i = 0; i < res.nrcmps; i++) {
		const struct detect_cmp *c = &res.rcmps[i];
		const struct store_series *b = &res.series[c->sb];

		if (!compare_selected(&res, c, o))
			continue;
		eff[0] = pv[0] = '\0';
		if (detect_flagged(c)) {
			report_effect(c, b, eff, sizeof eff);
			report_p(c->v.p, pv, sizeof pv);
		}
		fprintf(fp, "  %-6s %-28s %-7s %s%s%s%s%s%s\n", b->link,
		    b->knobs_key[0] ? b->knobs_key : "(as is)", b->tool,
		    stats_verdict_name(c->v.verdict), eff[0] ? ", " : "", eff,
		    pv[0] ? " (" : "", pv, pv[0] ? ")" : "");
	}
	*regressions = (int)k[STATS_REGRESSION];
	rc = 0;
fail:
	detect_result_free(&res);
	store_close(st);
	return rc;
}
