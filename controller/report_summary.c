/*
 * report_summary.c: the summary `labrat run` prints when a run ends --
 * its job counts, then per series (link, knobs, workload) the number of
 * throughput samples, their median, minimum and maximum -- as a table or
 * as one JSON object.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "report_int.h"
#include "stats.h"
#include "store.h"
#include "util.h"

static void
summary_head(struct json_writer *w, int64_t run_id,
    const struct store_counts *cnt, FILE *fp)
{
	if (w == NULL) {
		fprintf(fp, "run %lld: %lld jobs, %lld done, %lld failed, "
		    "%lld cancelled\n\n%-8s %-28s %-7s %4s %10s %10s %10s  "
		    "(Mbit/s)\n", (long long)run_id, (long long)cnt->total,
		    (long long)cnt->n[STORE_JOB_DONE],
		    (long long)cnt->n[STORE_JOB_FAILED],
		    (long long)cnt->n[STORE_JOB_CANCELLED], "link", "knobs",
		    "tool", "n", "median", "min", "max");
		return;
	}
	json_begin_obj(w);
	json_kv_int(w, "run", run_id);
	json_key(w, "jobs");
	json_begin_obj(w);
	json_kv_int(w, "total", cnt->total);
	json_kv_int(w, "done", cnt->n[STORE_JOB_DONE]);
	json_kv_int(w, "failed", cnt->n[STORE_JOB_FAILED]);
	json_kv_int(w, "failed_infra", cnt->failed_infra);
	json_kv_int(w, "cancelled", cnt->n[STORE_JOB_CANCELLED]);
	json_end_obj(w);
	json_key(w, "series");
	json_begin_arr(w);
}

/* One series' row (or array element): s->n > 0. */
static void
summary_series(struct json_writer *w, const struct store_series *s, FILE *fp)
{
	double	 med, lo, hi;
	size_t	 i;

	med = stats_median(s->values, s->n);
	lo = hi = s->values[0];
	for (i = 1; i < s->n; i++) {
		if (s->values[i] < lo)
			lo = s->values[i];
		if (s->values[i] > hi)
			hi = s->values[i];
	}
	if (w != NULL) {
		json_begin_obj(w);
		report_series_keys(w, s);
		json_kv_int(w, "n", (int64_t)s->n);
		json_kv_num(w, "median_bps", round(med));
		json_kv_num(w, "min_bps", round(lo));
		json_kv_num(w, "max_bps", round(hi));
		json_end_obj(w);
	} else
		fprintf(fp, "%-8s %-28s %-7s %4zu %10.1f %10.1f %10.1f\n",
		    s->link, s->knobs_key[0] != '\0' ? s->knobs_key :
		    "(as is)", s->tool, s->n, med / 1e6, lo / 1e6, hi / 1e6);
}

int
report_run_summary(const char *db_path, int64_t run_id,
    enum report_format fmt, FILE *fp, char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct store_series	*ser = NULL;
	struct store_counts	 cnt;
	struct json_writer	*w = NULL;
	size_t			 nser = 0, i;
	char			 e[512];
	int			 rc = 0;

	if (store_open(db_path, STORE_OPEN_READONLY, &st, err,
	    errlen) == -1 || store_samples_query(st, run_id,
	    "throughput_bps", &ser, &nser, err, errlen) == -1 ||
	    store_job_counts(st, run_id, NULL, &cnt, err, errlen) == -1) {
		if (st != NULL)
			store_close(st);
		return -1;
	}
	if (fmt == REPORT_JSON)
		w = json_writer_new(fp, 0);
	summary_head(w, run_id, &cnt, fp);
	for (i = 0; i < nser; i++)
		if (ser[i].n > 0)
			summary_series(w, &ser[i], fp);
	if (w != NULL) {
		json_end_arr(w);
		json_end_obj(w);
		if (json_writer_free(w, e, sizeof e) == -1) {
			snprintf(err, errlen, "run %lld: %s", (long long)run_id,
			    e);
			rc = -1;
		}
	}
	store_series_free(ser, nser);
	store_close(st);
	return rc;
}
