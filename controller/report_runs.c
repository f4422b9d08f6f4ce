/*
 * report_runs: how a run's state is shown (a controller that died leaves
 * its run "running" in the store: shown as "interrupted") and the list of
 * runs of `labrat runs`.  See report.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "report.h"
#include "report_int.h"
#include "util.h"

/*
 * 1 when owner ("hostname:pid", run_owner_default()) names a process on
 * this host that is gone (store_owner_state(), the liveness check runs
 * and bisects share).  An owner on another host, or one that is not of
 * that form, cannot be checked from here: 0.
 */
int
report_owner_gone(const char *owner)
{
	struct store_owner	o;

	if (store_owner_parse(owner, &o) == -1)
		return 0;
	return store_owner_state(&o) == STORE_OWNER_GONE;
}

const char *
report_run_state(const struct store_run *r)
{
	if (r->state == STORE_RUN_RUNNING &&
	    store_owner_state(&r->who) == STORE_OWNER_GONE)
		return "interrupted";
	return store_run_state_name(r->state);
}

const char *
report_when(int64_t ms, int iso, char *buf, size_t len)
{
	time_t		t = (time_t)(ms / 1000);
	struct tm	tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, iso ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M",
	    &tm);
	return buf;
}

/* A comma list as a JSON array of strings ("" = []). */
static void
json_list(struct json_writer *w, const char *key, const char *list)
{
	const char	*p = list, *c;

	json_key(w, key);
	json_begin_arr(w);
	while (*p != '\0') {
		c = strchr(p, ',');
		json_put_strn(w, p, c != NULL ? (size_t)(c - p) : strlen(p));
		if (c == NULL)
			break;
		p = c + 1;
	}
	json_end_arr(w);
}

static void
json_run(struct json_writer *w, const struct store_run *r,
    const struct store_run_info *in)
{
	char	buf[32];
	int	k;

	json_begin_obj(w);
	json_kv_int(w, "id", r->id);
	json_kv_str(w, "kind", r->kind);
	json_kv_str(w, "state", report_run_state(r));
	json_kv_str(w, "started", report_when(r->created_at, 1, buf,
	    sizeof buf));
	if (r->finished_at > 0)
		json_kv_str(w, "finished", report_when(r->finished_at, 1, buf,
		    sizeof buf));
	else
		json_kv_null(w, "finished");
	json_kv_int(w, "created_ms", r->created_at);
	if (r->finished_at > 0)
		json_kv_int(w, "finished_ms", r->finished_at);
	else
		json_kv_null(w, "finished_ms");
	json_list(w, "revisions", in != NULL ? in->revisions : "");
	json_list(w, "links", in != NULL ? in->links : "");
	json_key(w, "jobs");
	json_begin_obj(w);
	json_kv_int(w, "total", in != NULL ? in->jobs.total : 0);
	for (k = 0; k < STORE_JOB_NSTATES; k++)
		json_kv_int(w, store_job_state_name(k), in != NULL ?
		    in->jobs.n[k] : 0);
	json_kv_int(w, "failed_infra", in != NULL ? in->jobs.failed_infra : 0);
	json_end_obj(w);
	json_kv_str(w, "plan", r->plan_path);
	json_kv_str(w, "inventory", r->inventory_path);
	json_kv_str(w, "note", r->note);
	json_kv_str(w, "owner", r->owner);
	json_kv_str(w, "reason", r->reason);
	if (r->bisect_id > 0)
		json_kv_int(w, "bisect", r->bisect_id);
	else
		json_kv_null(w, "bisect");
	if (r->schedule_id > 0)
		json_kv_int(w, "schedule", r->schedule_id);
	else
		json_kv_null(w, "schedule");
	json_end_obj(w);
}

/* "46/48" done of all, ", 2 failed" when some failed, " (1 infra)" when
 * some of those were the lab's (preflight, infrastructure). */
static const char *
jobs_cell(const struct store_run_info *in, char *buf, size_t len)
{
	if (in == NULL)
		return "-";
	snprintf(buf, len, "%lld/%lld", (long long)in->jobs.n[STORE_JOB_DONE],
	    (long long)in->jobs.total);
	if (in->jobs.n[STORE_JOB_FAILED] > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), ", %lld failed",
		    (long long)in->jobs.n[STORE_JOB_FAILED]);
	if (in->jobs.failed_infra > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), " (%lld infra)",
		    (long long)in->jobs.failed_infra);
	return buf;
}

/* The two lists hold the same runs unless one was added between them. */
static const struct store_run_info *
info_of(const struct store_run_info *infos, size_t n, int64_t id)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (infos[i].run_id == id)
			return &infos[i];
	return NULL;
}

static void
text_runs(const struct store_run *runs, size_t n,
    const struct store_run_info *infos, size_t ni, FILE *fp)
{
	struct report_table	 t;
	const struct store_run_info *in;
	char			 id[24], started[32], jobs[64];
	size_t			 i;

	if (n == 0) {
		fprintf(fp, "no runs yet\n");
		return;
	}
	report_table_init(&t, 8, "rlllllrl");
	report_table_row(&t, "id", "kind", "state", "started (UTC)",
	    "revision", "links", "jobs", "plan");
	for (i = 0; i < n; i++) {
		in = info_of(infos, ni, runs[i].id);
		snprintf(id, sizeof id, "%lld", (long long)runs[i].id);
		report_table_row(&t, id, runs[i].kind,
		    report_run_state(&runs[i]), report_when(runs[i].created_at,
		    0, started, sizeof started), in != NULL &&
		    in->revisions[0] ?
		    in->revisions : "-", in != NULL && in->links[0] ?
		    in->links : "-", jobs_cell(in, jobs, sizeof jobs),
		    runs[i].plan_path != NULL ? runs[i].plan_path : "-");
	}
	report_table_print(&t, "", fp);
	report_table_free(&t);
	for (i = 0; i < n; i++)
		if (runs[i].note != NULL)
			fprintf(fp, "%s%lld: %s\n", i == 0 ||
			    runs[i - 1].note == NULL ? "\nnotes:\n  " : "  ",
			    (long long)runs[i].id, runs[i].note);
}

/* The JSON of a page: {"runs": [...], "next_after": ID | null}. */
static int
json_runs(const struct store_run *runs, size_t n,
    const struct store_run_info *infos, size_t ni, size_t limit, FILE *fp,
    char *err, size_t errlen)
{
	struct json_writer	*w;
	size_t			 i;

	w = json_writer_new(fp, JSON_PRETTY);
	json_begin_obj(w);
	json_key(w, "runs");
	json_begin_arr(w);
	for (i = 0; i < n; i++)
		json_run(w, &runs[i], info_of(infos, ni, runs[i].id));
	json_end_arr(w);
	if (n > 0 && n == limit)
		json_kv_int(w, "next_after", runs[n - 1].id);
	else
		json_kv_null(w, "next_after");
	json_end_obj(w);
	return json_writer_free(w, err, errlen);
}

int
report_runs_page(struct store *st, const struct store_api_runs_q *q,
    enum report_format f, FILE *fp, char *err, size_t errlen)
{
	struct store_run	*runs = NULL;
	struct store_run_info	*infos = NULL;
	size_t			 n = 0, ni = 0;
	int			 rc = -1;

	if (f != REPORT_TEXT && f != REPORT_JSON) {
		util_seterr(err, errlen, "runs: the formats are text and json");
		return -1;
	}
	if (store_api_runs(st, q, &runs, &n, err, errlen) == -1 ||
	    store_api_run_infos(st, q, &infos, &ni, err, errlen) == -1)
		goto fail;
	if (f == REPORT_TEXT)
		text_runs(runs, n, infos, ni, fp);
	else if (json_runs(runs, n, infos, ni, q->limit > 0 ? q->limit : 50,
	    fp, err, errlen) == -1)
		goto fail;
	rc = 0;
	if (fflush(fp) == EOF || ferror(fp)) {
		util_seterr(err, errlen, "runs: write failed: %s",
		    strerror(errno));
		rc = -1;
	}
fail:
	store_run_infos_free(infos, ni);
	store_runs_free(runs, n);
	return rc;
}

int
report_runs(const char *db_path, size_t limit, enum report_format f,
    FILE *fp, char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct store_api_runs_q	 q;
	int			 rc;

	if (f != REPORT_TEXT && f != REPORT_JSON) {
		util_seterr(err, errlen, "runs: the formats are text and json");
		return -1;
	}
	if (store_open(db_path, STORE_OPEN_READONLY, &st, err, errlen) == -1)
		return -1;
	memset(&q, 0, sizeof q);
	q.state = -1;
	q.limit = limit > 0 ? limit : (size_t)INT64_MAX;	/* 0 = all */
	rc = report_runs_page(st, &q, f, fp, err, errlen);
	store_close(st);
	return rc;
}

int
report_list(const char *db_path, enum report_list what, size_t limit,
    const char *format, FILE *fp, char *err, size_t errlen)
{
	enum report_format	f;

	if (report_format_parse(format, &f) == -1)
		return -2;
	if (what == REPORT_LIST_QUEUE)
		return report_queue(db_path, limit, 0, f, fp, err, errlen);
	return report_runs(db_path, limit, f, fp, err, errlen);
}
