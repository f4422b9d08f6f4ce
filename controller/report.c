/*
 * report: text report, trigger sentences and run lookup; the machine
 * formats (JSON, CSV, JUnit) are in report_fmt.c, `compare` in
 * report_compare.c.  See report.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include "report.h"
#include "report_int.h"
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

int
report_is_throughput(const struct store_series *s)
{
	return strcmp(s->unit, "bit/s") == 0 ||
	    strcmp(s->metric, "throughput_bps") == 0;
}

const char *
report_metric_desc(const struct detect_params *p, char *buf, size_t len)
{
	const struct stats_metric	*m = stats_metric_find(p->metric);

	if (m == NULL || p->metric_declared)
		snprintf(buf, len, "%s: %s as the run's plan declares",
		    p->metric, stats_direction_name(p->stats.lower_is_better));
	else
		snprintf(buf, len, "%s: %s%s%s; %s", p->metric, m->what,
		    m->host != NULL ? ", measured on the " : "",
		    m->host != NULL ? m->host : "",
		    stats_direction_name(p->stats.lower_is_better));
	return buf;
}

/* Display scale of a series: Mbit/s for bit/s, else as stored. */
double
report_scale(const struct store_series *s, const char **unit)
{
	if (report_is_throughput(s)) {
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

/*
 * "17.9 % slower", "~95x slower", "55.0 % lower cpu_sender" (a metric
 * other than throughput is named: "lower" alone would not say of what),
 * "no change", "inconclusive".  Whether that is the regression is the
 * verdict's business, by the metric's direction.
 */
const char *
report_effect(const struct detect_cmp *c, const struct store_series *s,
    char *buf, size_t len)
{
	const struct stats_verdict *v = &c->v;
	const char	*down, *up, *sp;
	int		 tp = report_is_throughput(s);

	down = tp ? "slower" : "lower";
	up = tp ? "faster" : "higher";
	sp = tp ? "" : " ";
	if (!detect_flagged(c))
		snprintf(buf, len, "%s", stats_verdict_name(v->verdict));
	else if (v->collapse && v->ratio > 0 && v->ratio < 1)
		snprintf(buf, len, "~%.0fx %s%s%s", 1.0 / v->ratio, down, sp,
		    tp ? "" : s->metric);
	else if (v->collapse)
		snprintf(buf, len, "~%.0fx %s%s%s", v->ratio, up, sp,
		    tp ? "" : s->metric);
	else
		snprintf(buf, len, "%.1f %% %s%s%s", fabs(v->effect) * 100.0,
		    v->effect < 0 ? down : up, sp, tp ? "" : s->metric);
	return buf;
}

/*
 * The evidence in parentheses of a flagged comparison.  n is a/b
 * (baseline/candidate) here as in every table, JSON and CSV field.
 */
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
		    c->v.n_a, c->v.n_b);
	else
		snprintf(buf, len, "%s, n = %zu/%zu", report_p(c->v.p, p,
		    sizeof p), c->v.n_a, c->v.n_b);
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
	char		 v[16], eff[128], ev[160];
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
	/* "is 17.9 % slower than", "has 55.0 % higher cpu_sender than" */
	buf_printf(&b, " %s %s than %s %s (%s)", report_is_throughput(w) ?
	    "is" : "has", report_effect(h, w, eff, sizeof eff),
	    detect_knob_label(h->knob), detect_knob_value(&a->knobs, h->knob,
	    v, sizeof v), evidence(res, h, ev, sizeof ev));
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

const char *
report_rev_str(const char *rev)
{
	return rev[0] != '\0' ? rev : "unknown revision";
}

/* "46 of 48 jobs done, 2 failed (1 by the lab: ...), 1 cancelled". */
static void
jobs_text(const struct store_counts *c, FILE *fp)
{
	fprintf(fp, "%lld of %lld jobs done", (long long)c->n[STORE_JOB_DONE],
	    (long long)c->total);
	if (c->n[STORE_JOB_FAILED] > 0)
		fprintf(fp, ", %lld failed", (long long)c->n[STORE_JOB_FAILED]);
	if (c->failed_infra > 0)
		fprintf(fp, " (%lld by the lab: preflight or infrastructure)",
		    (long long)c->failed_infra);
	if (c->n[STORE_JOB_CANCELLED] > 0)
		fprintf(fp, ", %lld cancelled",
		    (long long)c->n[STORE_JOB_CANCELLED]);
}

/* A "jobs:" line when some jobs did not end done (the tables below hold
 * only what was measured). */
static void
text_jobs_line(struct store *st, int64_t run_id, FILE *fp)
{
	struct store_counts	c;
	char			err[256];

	if (st == NULL || store_job_counts(st, run_id, NULL, &c, err,
	    sizeof err) == -1 || c.n[STORE_JOB_DONE] == c.total)
		return;
	fprintf(fp, "jobs: ");
	jobs_text(&c, fp);
	fprintf(fp, "\n");
}

static void
text_header(struct store *st, const struct detect_result *res, FILE *fp)
{
	const struct detect_params *p = &res->params;
	struct store_run	run;
	char			when[32], err[256], desc[256], *note = NULL;
	time_t			t;
	struct tm		tm;

	fprintf(fp, "labrat report: run %lld", (long long)res->run_id);
	if (st != NULL && store_run_get(st, res->run_id, &run, err,
	    sizeof err) == 1) {
		t = (time_t)(run.created_at / 1000);
		gmtime_r(&t, &tm);
		strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
		fprintf(fp, " (%s, %s, %s)", run.kind, report_run_state(&run),
		    when);
		note = run.note;
		run.note = NULL;
		store_run_free(&run);
	}
	fprintf(fp, ", metric %s\n", report_metric_desc(p, desc,
	    sizeof desc));
	if (note != NULL)
		fprintf(fp, "note: %s\n", note);
	free(note);
	text_jobs_line(st, res->run_id, fp);
	fprintf(fp, "verdicts: alpha %.3g split over each "
	    "link's comparisons%s, minimum effect %.1f %%, collapse %.0fx, "
	    "%zu-%zu samples per side\n\n", p->stats.alpha,
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

/* A comparison as a row of the family's comparison table. */
static void
text_cmp_row(const struct detect_result *res, const struct detect_cmp *c,
    struct report_table *t)
{
	const struct stats_verdict *v = &c->v;
	char	name[256], p[32], ci[64], eff[32], n[48];

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
	snprintf(n, sizeof n, "%zu/%zu", v->n_a, v->n_b);
	report_table_row(t, report_cmp_name(res, c, name, sizeof name),
	    stats_verdict_name(v->verdict), eff, ci, p, n,
	    v->collapse ? "collapse" : "");
}

/* The distinct revisions of series [from, to): "r3", "r3, r4". */
static const char *
revs_of(const struct detect_result *res, size_t from, size_t to, char *buf,
    size_t len)
{
	size_t	i, j, off = 0;

	buf[0] = '\0';
	for (i = from; i < to && off < len; i++) {
		for (j = from; j < i; j++)
			if (strcmp(res->series[i].revision,
			    res->series[j].revision) == 0)
				break;
		if (j == i)
			off += (size_t)snprintf(buf + off, len - off, "%s%s",
			    off > 0 ? ", " : "",
			    report_rev_str(res->series[i].revision));
	}
	if (buf[0] == '\0')
		snprintf(buf, len, "%s", report_rev_str(""));
	return buf;
}

/*
 * 1 when a run-over-run series is worth a line: a verdict of change, or
 * an undecided move of at least the minimum effect (+20 % on 2 samples).
 */
static int
moved(const struct detect_result *res, const struct detect_cmp *c)
{
	return detect_flagged(c) || (c->v.verdict == STATS_INCONCLUSIVE &&
	    isfinite(c->v.effect) && fabs(c->v.effect) >=
	    res->params.stats.min_effect);
}

static void
text_baseline(const struct detect_result *res, FILE *fp)
{
	const struct detect_cmp	*c;
	const struct store_series *b;
	struct report_table	 t;
	char			 ra[256], rb[256], eff[128], p[32], r[32];
	char			 ev[96];
	size_t			 i, nflag = 0, nmove = 0;

	if (res->baseline_run < 0) {
		fprintf(fp, "Run over run: baseline off\n\n");
		return;
	}
	if (res->baseline_run == 0) {
		fprintf(fp, "Run over run: no earlier done run on the same "
		    "host pairs\n\n");
		return;
	}
	fprintf(fp, "Run over run: run %lld (%s) against run %lld (%s)\n",
	    (long long)res->run_id, revs_of(res, 0, res->nrun_series, rb,
	    sizeof rb), (long long)res->baseline_run, revs_of(res,
	    res->nrun_series, res->nseries, ra, sizeof ra));
	report_table_init(&t, 7, "llllrll");
	for (i = 0; i < res->nrcmps; i++) {
		c = &res->rcmps[i];
		if (!moved(res, c))
			continue;
		b = &res->series[c->sb];
		if (detect_flagged(c)) {
			nflag++;
			report_effect(c, b, eff, sizeof eff);
		} else {
			nmove++;
			snprintf(eff, sizeof eff, "%+.1f %%", c->v.effect * 100);
		}
		snprintf(r, sizeof r, "ratio %.3f", c->v.ratio);
		snprintf(ev, sizeof ev, "(%s, n = %zu/%zu)", report_p(c->v.p,
		    p, sizeof p), c->v.n_a, c->v.n_b);
		report_table_row(&t, b->link, b->knobs_key[0] ? b->knobs_key :
		    "(as is)", b->tool, stats_verdict_name(c->v.verdict), r,
		    eff, ev);
	}
	report_table_print(&t, "  ", fp);
	report_table_free(&t);
	fprintf(fp, "  %zu series compared, %zu changed", res->nrcmps, nflag);
	if (nmove > 0)
		fprintf(fp, ", %zu moved %.0f %% or more but inconclusive "
		    "(more repetitions would decide them)",
		    nmove, res->params.stats.min_effect * 100);
	fprintf(fp, "\n\n");
}

static int
same_series_family(const struct store_series *a, const struct store_series *b)
{
	return strcmp(a->link, b->link) == 0 && strcmp(a->tool, b->tool) ==
	    0 && strcmp(a->params, b->params) == 0 && strcmp(a->revision,
	    b->revision) == 0;
}

/* The knob matrix and comparisons of the family of series f. */
static void
text_family(const struct detect_result *res, size_t f, FILE *fp)
{
	const struct store_series *s0 = &res->series[f], *s;
	struct stats_summary	 sum;
	struct report_table	 t;
	const char		*unit;
	double			 sc = report_scale(s0, &unit);
	char			 err[128], n[24], med[32], iqr[32], u[72];
	size_t			 i;

	fprintf(fp, "Link %s, %s (%s)\n", s0->link, s0->params,
	    report_rev_str(s0->revision));
	snprintf(u, sizeof u, "(%s)", unit);
	report_table_init(&t, 5, "lrrrl");
	report_table_row(&t, "knobs", "n", "median", "IQR", u);
	for (i = f; i < res->nrun_series; i++) {
		s = &res->series[i];
		if (!same_series_family(s, s0) || s->n == 0 ||
		    stats_summarize(s->values, s->n, &sum, err,
		    sizeof err) == -1)
			continue;
		snprintf(n, sizeof n, "%zu", s->n);
		snprintf(med, sizeof med, "%.1f", sum.median / sc);
		snprintf(iqr, sizeof iqr, "%.1f", sum.iqr / sc);
		report_table_row(&t, s->knobs_key[0] ? s->knobs_key :
		    "(as is)", n, med, iqr, NULL);
	}
	report_table_print(&t, "  ", fp);
	report_table_free(&t);
	report_table_init(&t, 7, "llrllrl");
	report_table_row(&t, "comparison", "verdict", "effect",
	    "CI of ratio", "p", "n (a/b)", NULL);
	for (i = 0; i < res->ncmps; i++)
		if (same_series_family(&res->series[res->cmps[i].sa], s0))
			text_cmp_row(res, &res->cmps[i], &t);
	report_table_print(&t, "  ", fp);
	report_table_free(&t);
	fprintf(fp, "\n");
}

/* Instead of empty tables: "run 7: no samples (0 of 48 jobs done)". */
static void
text_no_samples(struct store *st, const struct detect_result *res, FILE *fp)
{
	struct store_counts	c;
	char			err[256];

	fprintf(fp, "run %lld: no samples", (long long)res->run_id);
	if (st == NULL || store_job_counts(st, res->run_id, NULL, &c, err,
	    sizeof err) == -1) {
		fprintf(fp, " of %s\n", res->params.metric);
		return;
	}
	if (c.n[STORE_JOB_DONE] > 0)
		fprintf(fp, " of %s", res->params.metric);
	fprintf(fp, " (");
	jobs_text(&c, fp);
	fprintf(fp, ")\n");
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
	if (res->nrun_series == 0) {
		text_no_samples(st, res, fp);
		return 0;
	}
	text_findings(res, fp);
	text_baseline(res, fp);
	for (i = 0; i < res->nrun_series; i++) {
		first = 1;
		for (j = 0; j < i && first; j++)
			if (same_series_family(&res->series[i],
			    &res->series[j]))
				first = 0;
		if (first)
			text_family(res, i, fp);
	}
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

/*
 * run_id 0: the newest run that is not a bisect step (a step measures one
 * combination at one revision for the bisect; `report` is about a matrix).
 */
int
report_resolve_run(struct store *st, int64_t *run_id, char *err,
    size_t errlen)
{
	struct store_run	*runs = NULL, run;
	size_t			 n = 0, i;
	int			 rc;

	if (*run_id == 0) {
		if (store_run_list(st, 0, &runs, &n, err, errlen) == -1)
			return -1;
		for (i = 0; i < n && *run_id == 0; i++)
			if (strcmp(runs[i].kind, "bisect") != 0 &&
			    strcmp(runs[i].kind, "health") != 0)
				*run_id = runs[i].id;
		if (*run_id == 0 && n == 0)
			util_seterr(err, errlen, "%s: no runs yet",
			    store_path(st));
		else if (*run_id == 0)
			util_seterr(err, errlen, "%s: no matrix run yet, only "
			    "%zu bisect steps and health checks (name one: "
			    "labrat report %lld)",
			    store_path(st), n, (long long)runs[0].id);
		store_runs_free(runs, n);
		return *run_id == 0 ? -1 : 0;
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

int
report_count_regressions(const struct detect_result *res)
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
    const char *metric, enum report_format f, FILE *fp, int *regressions,
    char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct detect_params	 p;
	struct detect_result	 res;
	int			 rc = -1;

	memset(&res, 0, sizeof res);
	if (store_open(db_path, STORE_OPEN_READONLY, &st, err, errlen) == -1)
		return -1;
	if (report_resolve_run(st, &run_id, err, errlen) == -1 ||
	    report_params_run(st, run_id, metric, &p, err, errlen) == -1 ||
	    detect_run(st, run_id, &p, &res, err, errlen) == -1)
		goto fail;
	if (baseline_run >= 0 && detect_baseline(st, baseline_run, &res, err,
	    errlen) == -1)
		goto fail;
	if (baseline_run < 0)
		res.baseline_run = -1;	/* off, not "none found" */
	if (regressions != NULL)
		*regressions = report_count_regressions(&res);
	rc = report_write(st, &res, f, fp, err, errlen);
fail:
	detect_result_free(&res);
	store_close(st);
	return rc;
}
