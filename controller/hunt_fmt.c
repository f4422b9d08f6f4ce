/*
 * hunt_fmt.c: a stored bisect written out -- `labrat bisect status`, the
 * result of start and resume (the culprit or the smallest provable range,
 * the confidence and the evidence table, as text or JSON) and the `bisect
 * log` format, whose reader for --replay is hunt_revs.c.  From the store
 * alone: the lab may be gone.  Also the `config check` line of a bisect
 * test (hunt_test_summary()).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "config.h"
#include "hunt_int.h"
#include "json.h"
#include "store.h"
#include "util.h"

/* ---- showing ------------------------------------------------------------ */

static const char *
bs_msg(const struct hunt_view *s, size_t rev)
{
	return rev < s->n ? s->msgs[rev] : "";
}

/* Values for humans: Mbit/s for throughput. */
static double
bs_human(const struct hunt_view *s, double v)
{
	return strcmp(s->test->metric, "throughput_bps") == 0 ? v / 1e6 : v;
}

static const char *
fmt_ref(const struct hunt_view *s, double v, char *buf, size_t len)
{
	if (!(v > 0.0))
		return "-";
	snprintf(buf, len, "%.1f", bs_human(s, v));
	return buf;
}

/* The evidence table, or its JSON array's elements when w != NULL. */
static void
bs_show_steps(const struct hunt_view *s, const struct store_bisect_step *rows,
    size_t nrows, struct json_writer *w, FILE *fp)
{
	const struct bisect_step	*ms;
	size_t				 nms = 0, i, k = 0;
	const char			*why;
	char				 ref[32];

	ms = bisect_steps(s->m, &nms);
	if (w == NULL)
		fprintf(fp, "\n%4s %-12s %-11s %-8s %4s %10s %10s %7s %9s\n",
		    "step", "revision", "why", "verdict", "n", "reference",
		    "median", "ratio", "p");
	for (i = 0; i < nrows; i++) {
		const struct store_bisect_step *r = &rows[i];

		why = r->verdict[0] != '\0' && k < nms ?
		    bisect_why_name(ms[k++].why) : "running";
		if (w != NULL) {
			json_begin_obj(w);
			json_kv_int(w, "seq", r->seq);
			json_kv_str(w, "revision", r->revision);
			json_kv_str(w, "why", why);
			json_kv_str(w, "verdict", r->verdict);
			json_kv_int(w, "run", r->run_id);
			json_kv_int(w, "n", r->n);
			json_kv_num(w, "median", r->median);
			json_kv_num(w, "reference_median", r->baseline_median);
			json_kv_num(w, "ratio", r->ratio);
			json_kv_num(w, "p", r->p);
			json_end_obj(w);
		} else if (r->n == 0)
			fprintf(fp, "%4d %-12s %-11s %-8s %4s %10s %10s %7s "
			    "%9s\n", r->seq, r->revision, why,
			    r->verdict[0] != '\0' ? r->verdict : "-", "-", "-",
			    "-", "-", "-");
		else
			fprintf(fp, "%4d %-12s %-11s %-8s %4d %10s %10.1f "
			    "%7.3f %9.3g\n", r->seq, r->revision, why,
			    r->verdict[0] != '\0' ? r->verdict : "-", r->n,
			    fmt_ref(s, r->baseline_median, ref, sizeof ref),
			    bs_human(s, r->median), r->ratio, r->p);
	}
}

/* Jobs done over every run of the bisect's steps. */
static int64_t
bs_samples(const struct hunt_view *s, const struct store_bisect_step *rows,
    size_t nrows)
{
	struct store_counts	c;
	char			e[256];
	int64_t			t = 0;
	size_t			i;

	for (i = 0; i < nrows; i++)
		if (rows[i].run_id > 0 && store_job_counts(s->st,
		    rows[i].run_id, NULL, &c, e, sizeof e) == 0)
			t += c.n[STORE_JOB_DONE];
	return t;
}

static void
bs_show_result_text(const struct hunt_view *s,
    const struct bisect_result *res, FILE *fp)
{
	size_t	i;

	switch (res->status) {
	case BISECT_FOUND:
		fprintf(fp, "culprit: %s %s\n", bisect_id(s->m, res->culprit),
		    bs_msg(s, res->culprit));
		fprintf(fp, "confidence: %.4f (%s)\n", res->confidence,
		    res->verified ? "verified: the culprit and its "
		    "predecessor each measured twice" : "not verified");
		break;
	case BISECT_RANGE:
		fprintf(fp, "culprit: one of %zu revisions (skipped ones "
		    "surround it); smallest provable range: after %s (good) "
		    "up to %s (bad):\n", res->nskipped + 1,
		    bisect_id(s->m, res->last_good),
		    bisect_id(s->m, res->first_bad));
		for (i = res->last_good + 1; i <= res->first_bad; i++)
			fprintf(fp, "  %s %s\n", bisect_id(s->m, i),
			    bs_msg(s, i));
		fprintf(fp, "confidence: %.4f\n", res->confidence);
		break;
	case BISECT_FAILED:
		fprintf(fp, "FAILED: %s\n", res->reason);
		break;
	case BISECT_RUNNING:
		break;
	}
}

static void
bs_show_result_json(const struct hunt_view *s,
    const struct bisect_result *res, struct json_writer *w)
{
	size_t	i;

	json_kv_str(w, "status", bisect_status_name(res->status));
	json_key(w, "culprit");
	if (res->status == BISECT_FOUND) {
		json_begin_obj(w);
		json_kv_str(w, "id", bisect_id(s->m, res->culprit));
		json_kv_str(w, "message", bs_msg(s, res->culprit));
		json_end_obj(w);
	} else
		json_put_null(w);
	json_key(w, "range");
	if (res->status == BISECT_RANGE || res->status == BISECT_FOUND) {
		json_begin_obj(w);
		json_kv_str(w, "last_good", bisect_id(s->m, res->last_good));
		json_kv_str(w, "first_bad", bisect_id(s->m, res->first_bad));
		json_key(w, "candidates");
		json_begin_arr(w);
		for (i = res->last_good + 1; i <= res->first_bad; i++)
			json_put_str(w, bisect_id(s->m, i));
		json_end_arr(w);
		json_end_obj(w);
	} else
		json_put_null(w);
	json_kv_num(w, "confidence", res->confidence);
	json_kv_bool(w, "verified", res->verified);
	json_kv_str(w, "reason", res->reason);
}

/* "# skip: [REV] why" with the reason its run recorded (first line). */
static void
bs_log_skip(const struct hunt_view *s, const struct store_bisect_step *r,
    FILE *fp)
{
	struct store_run	run;
	char			e[256];
	const char		*why = "", *last, *end;
	size_t			 n;
	int			got;

	memset(&run, 0, sizeof run);
	got = r->run_id > 0 && store_run_get(s->st, r->run_id, &run, e,
	    sizeof e) == 1;
	if (got && run.reason != NULL)
		why = run.reason;
	n = strcspn(why, "\n");
	last = why + strlen(why);
	while (last > why + n && (last[-1] == '\n' || last[-1] == ' '))
		last--;
	end = last;
	while (last > why + n && last[-1] != '\n')
		last--;
	fprintf(fp, "# skip: [%s] %.*s%s%.*s (run %lld)\n", r->revision,
	    (int)n, why, last > why + n ? " ... " : "",
	    last > why + n ? (int)(end - last) : 0, last,
	    (long long)r->run_id);
	if (got)
		store_run_free(&run);
}

static void
bs_show_log(const struct hunt_view *s, const struct store_bisect_step *rows,
    size_t nrows, FILE *fp)
{
	char	med[JSON_NUM_MAX], ref[JSON_NUM_MAX];
	size_t	i;

	fprintf(fp, "# labrat bisect %lld: link %s, %s\n", (long long)s->row.id,
	    s->row.link, s->row.state);
	fprintf(fp, "# labrat bisect start --inventory %s --link %s --good %s "
	    "--bad %s --test %s\n", s->row.inventory_path, s->row.link,
	    s->row.good, s->row.bad, s->row.plan_path);
	for (i = 0; i < nrows; i++) {
		if (rows[i].verdict[0] == '\0') {
			fprintf(fp, "# testing %s (run %lld)\n",
			    rows[i].revision, (long long)rows[i].run_id);
			continue;
		}
		if (strcmp(rows[i].verdict, "skip") == 0)
			bs_log_skip(s, &rows[i], fp);
		else	/* figures exact and without an exponent (not
			 * 9.94838e+08), as --replay reads them back */
			fprintf(fp, "# %s: [%s] n=%d median=%s "
			    "reference=%s ratio=%.4f p=%.4g run=%lld\n",
			    rows[i].verdict, rows[i].revision, rows[i].n,
			    json_dtoa(rows[i].median, med, sizeof med),
			    json_dtoa(rows[i].baseline_median, ref,
			    sizeof ref), rows[i].ratio, rows[i].p,
			    (long long)rows[i].run_id);
		fprintf(fp, "%s %s\n", rows[i].verdict, rows[i].revision);
	}
	if (s->row.culprit[0] != '\0')
		fprintf(fp, "# first bad commit: [%s] %s\n", s->row.culprit,
		    bs_msg(s, (size_t)bisect_index(s->m, s->row.culprit)));
	else if (s->row.reason != NULL && s->row.reason[0] != '\0')
		fprintf(fp, "# %s\n", s->row.reason);
}

/* The header lines, or the JSON object's first members when w != NULL. */
static void
bs_show_head(const struct hunt_view *s, const struct store_bisect_step *rows,
    size_t nrows, struct json_writer *w, FILE *fp)
{
	struct bisect_request	req;
	int64_t			wall = (s->row.finished_at > 0 ?
				    s->row.finished_at : util_time() * 1000) -
				    s->row.created_at;
	int			more = bisect_next(s->m, &req);

	if (w != NULL) {
		json_kv_int(w, "bisect", s->row.id);
		json_kv_str(w, "state", s->row.state);
		json_kv_str(w, "link", s->row.link);
		json_kv_str(w, "good", s->row.good);
		json_kv_str(w, "bad", s->row.bad);
		json_kv_int(w, "revisions", (int64_t)s->n);
		/* How a step is judged (the text's first line says it):
		 * unknown for a stand-in test. */
		if (s->test_missing) {
			json_kv_null(w, "threshold");
			json_kv_null(w, "lower_is_better");
		} else {
			json_kv_num(w, "threshold", s->test->threshold);
			json_kv_bool(w, "lower_is_better",
			    s->test->lower_is_better);
		}
		json_kv_int(w, "steps", (int64_t)nrows);
		json_kv_int(w, "samples", bs_samples(s, rows, nrows));
		json_kv_num(w, "wall_s", round(wall / 100.0) / 10.0);
		json_kv_str(w, "next", more ? req.id : NULL);
		return;
	}
	if (s->test_missing && s->row.plan_path == NULL)
		fprintf(fp, "bisect %lld: %s; link %s, %s, %s (no test "
		    "stored); %s..%s (%zu revisions)\n", (long long)s->row.id,
		    s->row.state, s->row.link, s->row.knobs, s->row.metric,
		    s->row.good, s->row.bad, s->n);
	else if (s->test_missing)
		fprintf(fp, "bisect %lld: %s; link %s, %s, %s (test file %s "
		    "is gone); %s..%s (%zu revisions)\n", (long long)s->row.id,
		    s->row.state, s->row.link, s->row.knobs, s->row.metric,
		    s->row.plan_path, s->row.good, s->row.bad, s->n);
	else
		fprintf(fp, "bisect %lld: %s; link %s, %s, %s %s, good while "
		    "ratio %s %.3g; %s..%s (%zu revisions)\n",
		    (long long)s->row.id, s->row.state, s->row.link,
		    s->row.knobs, s->test->compare == CONFIG_BISECT_AB ?
		    "A/B" : "vs GOOD", s->test->metric,
		    s->test->lower_is_better ? "<=" : ">=",
		    s->test->threshold, s->row.good, s->row.bad, s->n);
	fprintf(fp, "steps: %zu, samples: %lld, wall: %lldm%02llds%s%s\n",
	    nrows, (long long)bs_samples(s, rows, nrows),
	    (long long)(wall / 60000), (long long)(wall / 1000 % 60),
	    more ? "; next: " : "", more ? req.id : "");
}

int
hunt_show(const char *db, int64_t id, enum hunt_show what, int json,
    FILE *fp, char *err, size_t errlen)
{
	struct hunt_view		 s;
	struct store_bisect_step	*rows;
	struct bisect_result		 res;
	struct json_writer		*w;
	size_t				 nrows;
	char				 e[1024];
	int				 rc = 0;

	if (hunt_view_open(&s, db, id, err, errlen) == -1)
		return -1;
	rows = s.steps;
	nrows = s.nsteps;
	if (what == HUNT_SHOW_LOG && !json)
		bs_show_log(&s, rows, nrows, fp);
	else {
		bisect_result(s.m, &res);
		if (json) {
			w = json_writer_new(fp, 0);
			json_begin_obj(w);
			bs_show_head(&s, rows, nrows, w, fp);
			bs_show_result_json(&s, &res, w);
			json_key(w, "evidence");
			json_begin_arr(w);
			bs_show_steps(&s, rows, nrows, w, fp);
			json_end_arr(w);
			json_end_obj(w);
			if (json_writer_free(w, e, sizeof e) == -1) {
				snprintf(err, errlen, "bisect %lld: %s",
				    (long long)id, e);
				rc = 1;
			}
		} else {
			bs_show_head(&s, rows, nrows, NULL, fp);
			bs_show_result_text(&s, &res, fp);
			bs_show_steps(&s, rows, nrows, NULL, fp);
		}
	}
	hunt_view_free(&s);
	return rc;
}

int
hunt_test_summary(struct config_bisect_test *t, char *buf, size_t len,
    char *err, size_t errlen)
{
	const char	*dir;

	if (hunt_test_judging(t, err, errlen) == -1)
		return -1;
	dir = t->lower_is_better ? " (lower is better)" : "";
	if (t->compare == CONFIG_BISECT_BASELINE)
		snprintf(buf, len, "%s: bisect test ok: against the good "
		    "revision, metric %s%s, threshold %g", t->path, t->metric,
		    dir, t->threshold);
	else
		snprintf(buf, len, "%s: bisect test ok: %s A/B, metric %s%s, "
		    "threshold %g", t->path, knobs_names[t->ab_knob],
		    t->metric, dir, t->threshold);
	return 0;
}
