/*
 * store_series: the API's reads for a dashboard (store.h "API reads"):
 * the series that exist (link + knobs + workload + metric), one series
 * across runs paged by run id with the marks on its link (nights whose
 * verdicts found a regression there, culprits of bisects there), and a
 * link's health history paged by transition id.  Bound parameters only;
 * every statement is in store_series_sql[] so that test_store_api can
 * EXPLAIN QUERY PLAN each one (no full scan of samples or jobs: jobs go
 * through jobs_combination, samples through samples_job; nights,
 * bisects, bisect_steps and regressions are scanned, being a few rows a
 * night).  Returned arrays are heap, owned by the caller.
 */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "util.h"

enum {
	SQL_LINKS = 0, SQL_COMBOS, SQL_METRICS, SQL_PAGE, SQL_POINTS,
	SQL_NIGHTS, SQL_STEPS, SQL_REGR_MARKS, SQL_CULPRITS, SQL_HISTORY,
	SQL_KNOWN, SQL_REVS
};

#define SERIES_MSG_MAX	512	/* a point's message: its first bytes, at most */

/* The series' job filter: ?1 link, ?2 knobs, ?3 tool, ?4 and ?5 the two
 * params a workload name can stand for, done jobs only. */
#define SERIES_JOBS "jobs.link = ?1 AND jobs.knobs = ?2 AND " \
	"jobs.tool = ?3 AND jobs.params IN (?4, ?5) AND jobs.state = 'done'"

/* The regression record a night's verdict v belongs to (its workload is
 * the job's params; a record's is "TOOL:PARAMS" or the params). */
#define REGR_OF_VERDICT "FROM regressions WHERE regressions.link = ?1 " \
	"AND regressions.knobs = json_extract(v.value, '$.knobs') AND " \
	"regressions.metric = json_extract(v.value, '$.metric') AND " \
	"(regressions.workload = json_extract(v.value, '$.workload') OR " \
	"substr(regressions.workload, instr(regressions.workload, ':') + " \
	"1) = json_extract(v.value, '$.workload')) AND " \
	"regressions.first_night <= nights.id AND regressions.last_night " \
	">= nights.id ORDER BY regressions.id LIMIT 1"

const char *const store_series_sql[] = {
	/* SQL_LINKS: every link with a job, a loose index scan. */
	"WITH RECURSIVE l(link) AS (SELECT MIN(link) FROM jobs UNION ALL "
	"SELECT (SELECT MIN(link) FROM jobs WHERE link > l.link) FROM l "
	"WHERE l.link IS NOT NULL) SELECT link FROM l WHERE link IS NOT NULL",
	/* SQL_COMBOS: ?1 link. */
	"SELECT knobs, tool, params, COUNT(DISTINCT run_id), MAX(run_id), "
	"MAX(id) FROM jobs WHERE link = ?1 AND state = 'done' "
	"GROUP BY knobs, tool, params ORDER BY knobs, tool, params",
	/* SQL_METRICS: ?1 a job. */
	"SELECT metric, MIN(unit) FROM samples WHERE job_id = ?1 AND "
	"interval = 0 GROUP BY metric ORDER BY metric",
	/* SQL_PAGE: the page's runs; ?6 metric, ?7 after, ?8 limit. */
	"SELECT jobs.run_id FROM jobs WHERE " SERIES_JOBS " AND "
	"jobs.run_id < ?7 AND EXISTS (SELECT 1 FROM samples WHERE "
	"samples.job_id = jobs.id AND samples.metric = ?6 AND "
	"samples.interval = 0) GROUP BY jobs.run_id "
	"ORDER BY jobs.run_id DESC LIMIT ?8",
	/* SQL_POINTS: the values of runs ?8..?7; ?6 metric. */
	"SELECT jobs.run_id, jobs.id, jobs.params, samples.value, "
	"samples.unit, COALESCE(host_facts.revision, ''), runs.kind, "
	"runs.created_at, COALESCE(runs.bisect_id, 0) FROM jobs CROSS JOIN "
	"samples ON samples.job_id = jobs.id AND samples.metric = ?6 AND "
	"samples.interval = 0 JOIN runs ON runs.id = jobs.run_id "
	"LEFT JOIN host_facts ON host_facts.id = jobs.client_facts_id "
	"WHERE " SERIES_JOBS " AND jobs.run_id BETWEEN ?8 AND ?7 "
	"ORDER BY jobs.run_id DESC, 6, jobs.seq, samples.id",
	/* SQL_NIGHTS: nights whose run or re-run is in ?1..?2. */
	"SELECT id, COALESCE(run_id, 0), COALESCE(confirm_run_id, 0), "
	"COALESCE(revision, '') FROM nights WHERE run_id BETWEEN ?1 AND ?2 "
	"OR confirm_run_id BETWEEN ?1 AND ?2",
	/* SQL_STEPS: bisect steps' revisions of runs ?1..?2. */
	"SELECT run_id, revision FROM bisect_steps WHERE run_id BETWEEN ?1 "
	"AND ?2",
	/* SQL_REGR_MARKS: ?1 link, nights' runs in ?2..?3; the record the
	 * verdict joined (its id and bisect). */
	"SELECT nights.id, nights.run_id, COALESCE(nights.revision, ''), "
	"json_extract(v.value, '$.knobs'), json_extract(v.value, "
	"'$.workload'), json_extract(v.value, '$.metric'), "
	"COALESCE(json_extract(v.value, '$.change'), 0), "
	"COALESCE((SELECT regressions.id " REGR_OF_VERDICT "), 0), "
	"COALESCE((SELECT regressions.bisect_id " REGR_OF_VERDICT "), 0) "
	"FROM nights, json_each(CASE WHEN "
	"json_valid(nights.verdicts) THEN nights.verdicts ELSE '[]' END) "
	"AS v WHERE nights.run_id BETWEEN ?2 AND ?3 AND "
	"json_extract(v.value, '$.link') = ?1 AND json_extract(v.value, "
	"'$.verdict') = 'regression' ORDER BY nights.run_id DESC, v.key",
	/* SQL_CULPRITS: ?1 link. */
	"SELECT bisects.id, bisects.knobs, bisects.tool, bisects.params, "
	"bisects.metric, bisects.culprit, COALESCE((SELECT "
	"bisect_steps.run_id FROM bisect_steps WHERE bisect_steps.bisect_id "
	"= bisects.id AND bisect_steps.revision = bisects.culprit AND "
	"bisect_steps.run_id IS NOT NULL ORDER BY bisect_steps.seq DESC "
	"LIMIT 1), 0), COALESCE((SELECT regressions.first_night FROM "
	"regressions WHERE regressions.bisect_id = bisects.id ORDER BY "
	"regressions.id LIMIT 1), 0), COALESCE((SELECT regressions.id FROM "
	"regressions WHERE regressions.bisect_id = bisects.id ORDER BY "
	"regressions.id LIMIT 1), 0), (SELECT regressions.workload FROM "
	"regressions WHERE regressions.bisect_id = bisects.id ORDER BY "
	"regressions.id LIMIT 1) FROM bisects WHERE bisects.link = ?1 "
	"AND bisects.culprit IS NOT NULL AND bisects.culprit != '' "
	"ORDER BY bisects.id DESC",
	/* SQL_HISTORY: ?1 link, ?2 after, ?3 limit. */
	"SELECT id, link, from_state, to_state, who, at, why FROM "
	"health_transitions WHERE link = ?1 AND id < ?2 ORDER BY id DESC "
	"LIMIT ?3",
	/* SQL_KNOWN: ?1 link. */
	"SELECT EXISTS (SELECT 1 FROM link_health WHERE link = ?1) OR "
	"EXISTS (SELECT 1 FROM health_transitions WHERE link = ?1) OR "
	"EXISTS (SELECT 1 FROM jobs WHERE link = ?1)",
	/* SQL_REVS: the revisions every bisect measured between ("ID\tmessage"
	 * lines, hunt_revs_text()), the newest bisect first. */
	"SELECT revisions FROM bisects WHERE revisions != '' ORDER BY id DESC",
	NULL
};

void
store_workload_name(const char *tool, const char *params, char *buf,
    size_t len)
{
	if (strncmp(params, tool, strlen(tool)) == 0)
		snprintf(buf, len, "%s", params);
	else
		snprintf(buf, len, "%s:%s", tool, params);
}

/* ---- keys ----------------------------------------------------------------- */

struct combo {
	char	 knobs[STORE_KEY_MAX];
	char	 tool[STORE_TOOL_MAX];
	char	 params[STORE_PARAMS_MAX];
	int64_t	 runs, last_run, job;
};

static void
combo_read(sqlite3_stmt *stmt, void *p)
{
	struct combo	*c = p;

	store_cols(stmt, 0, "sssIII", c->knobs, sizeof c->knobs, c->tool,
	    sizeof c->tool, c->params, sizeof c->params, &c->runs,
	    &c->last_run, &c->job);
}

struct metric_row {
	char	metric[STORE_NAME_MAX];
	char	unit[STORE_NAME_MAX];
};

static void
metric_read(sqlite3_stmt *stmt, void *p)
{
	struct metric_row	*m = p;

	store_cols(stmt, 0, "ss", m->metric, sizeof m->metric, m->unit,
	    sizeof m->unit);
}

static void
link_read(sqlite3_stmt *stmt, void *p)
{
	store_col_copy(stmt, 0, p, STORE_NAME_MAX);
}

/* The keys of one link appended to *v. */
static int
keys_of_link(struct store *st, const char *link, struct store_api_key **v,
    size_t *n, char *err, size_t errlen)
{
	static const struct store_rowtype ct = { sizeof (struct combo),
		combo_read, NULL };
	static const struct store_rowtype mt = { sizeof (struct metric_row),
		metric_read, NULL };
	struct combo		*c = NULL;
	struct metric_row	*m;
	struct store_api_key	*k;
	size_t			 nc = 0, nm, i, j;

	if (store_list(st, &ct, &c, &nc, "list series", err, errlen,
	    store_series_sql[SQL_COMBOS], "t", link) == -1)
		return -1;
	for (i = 0; i < nc; i++) {
		if (store_list(st, &mt, &m, &nm, "list series metrics", err,
		    errlen, store_series_sql[SQL_METRICS], "I",
		    c[i].job) == -1) {
			free(c);
			return -1;
		}
		*v = xreallocarray(*v, *n + nm + 1, sizeof **v);
		for (j = 0; j < nm; j++) {
			k = &(*v)[(*n)++];
			memset(k, 0, sizeof *k);
			snprintf(k->link, sizeof k->link, "%s", link);
			memcpy(k->knobs, c[i].knobs, sizeof k->knobs);
			memcpy(k->tool, c[i].tool, sizeof k->tool);
			memcpy(k->params, c[i].params, sizeof k->params);
			store_workload_name(k->tool, k->params, k->workload,
			    sizeof k->workload);
			memcpy(k->metric, m[j].metric, sizeof k->metric);
			memcpy(k->unit, m[j].unit, sizeof k->unit);
			k->runs = c[i].runs;
			k->last_run = c[i].last_run;
		}
		free(m);
	}
	free(c);
	return 0;
}

static int
key_cmp(const void *a, const void *b)
{
	const struct store_api_key	*x = a, *y = b;
	int				 r;

	if ((r = strcmp(x->link, y->link)) != 0 ||
	    (r = strcmp(x->knobs, y->knobs)) != 0 ||
	    (r = strcmp(x->workload, y->workload)) != 0)
		return r;
	return strcmp(x->metric, y->metric);
}

int
store_api_series_keys(struct store *st, const char *link,
    struct store_api_key **keys, size_t *n, char *err, size_t errlen)
{
	static const struct store_rowtype lt = { STORE_NAME_MAX, link_read,
		NULL };
	char	(*links)[STORE_NAME_MAX] = NULL;
	size_t	 nl = 0, i;
	int	 rc = 0;

	*keys = NULL;
	*n = 0;
	if (link != NULL)
		rc = keys_of_link(st, link, keys, n, err, errlen);
	else if (store_list(st, &lt, &links, &nl, "list links", err, errlen,
	    store_series_sql[SQL_LINKS], "") == -1)
		return -1;
	for (i = 0; rc == 0 && i < nl; i++)
		rc = keys_of_link(st, links[i], keys, n, err, errlen);
	free(links);
	if (rc == -1) {
		free(*keys);
		*keys = NULL;
		*n = 0;
		return -1;
	}
	if (*n > 1)
		qsort(*keys, *n, sizeof **keys, key_cmp);
	return 0;
}

/* ---- one series ------------------------------------------------------------ */

/* tool and the two params a workload name can stand for. */
static void
workload_split(const char *wl, char *tool, size_t tlen, const char **p2)
{
	size_t	n = strcspn(wl, ":");

	snprintf(tool, tlen, "%.*s", (int)n, wl);
	*p2 = wl[n] == ':' ? wl + n + 1 : "";
}

static struct store_api_point *
point_new(struct store_api_series *out, size_t *cap)
{
	struct store_api_point	*p;

	if (out->npoints == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		out->points = xreallocarray(out->points, *cap,
		    sizeof *out->points);
	}
	p = &out->points[out->npoints++];
	memset(p, 0, sizeof *p);
	return p;
}

static void
point_add(struct store_api_point *p, double v, int64_t job, size_t *cap)
{
	if (p->n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		p->values = xreallocarray(p->values, *cap, sizeof *p->values);
		p->jobs = xreallocarray(p->jobs, *cap, sizeof *p->jobs);
	}
	p->values[p->n] = v;
	p->jobs[p->n++] = job;
}

/* The rows of SQL_POINTS (prepared) into out->points. */
static int
points_read(struct store *st, sqlite3_stmt *stmt, const char *tool,
    const char *workload, struct store_api_series *out, char *err,
    size_t errlen)
{
	struct store_api_point	*p = NULL;
	char			 wl[STORE_WORKLOAD_MAX], rev[STORE_NAME_MAX];
	const char		*params;
	size_t			 cap = 0, vcap = 0;
	int64_t			 run;
	int			 rc;

	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		params = (const char *)sqlite3_column_text(stmt, 2);
		store_workload_name(tool, params ? params : "", wl, sizeof wl);
		if (strcmp(wl, workload) != 0)
			continue;
		run = sqlite3_column_int64(stmt, 0);
		store_col_copy(stmt, 5, rev, sizeof rev);
		if (p == NULL || p->run != run || strcmp(p->revision, rev)) {
			p = point_new(out, &cap);
			vcap = 0;
			p->run = run;
			memcpy(p->revision, rev, sizeof rev);
			store_cols(stmt, 4, "s-sII", p->unit, sizeof p->unit,
			    p->kind, sizeof p->kind, &p->started, &p->bisect);
		}
		point_add(p, sqlite3_column_double(stmt, 3),
		    sqlite3_column_int64(stmt, 1), &vcap);
	}
	if (rc != SQLITE_DONE)
		return store_err(st, "read series points", err, errlen);
	return 0;
}

struct night_row {
	int64_t	id, run, confirm;
	char	revision[STORE_NAME_MAX];
};

static void
night_read(sqlite3_stmt *stmt, void *p)
{
	struct night_row	*r = p;

	store_cols(stmt, 0, "IIIs", &r->id, &r->run, &r->confirm,
	    r->revision, sizeof r->revision);
}

struct step_row {
	int64_t	run;
	char	revision[STORE_NAME_MAX];
};

static void
step_read(sqlite3_stmt *stmt, void *p)
{
	struct step_row	*r = p;

	store_cols(stmt, 0, "Is", &r->run, r->revision, sizeof r->revision);
}

/* Each point's night, and its revision where no host fact had one: the
 * night's, else the bisect step's. */
static int
points_nights(struct store *st, int64_t lo, int64_t hi,
    struct store_api_series *out, char *err, size_t errlen)
{
	static const struct store_rowtype nt = { sizeof (struct night_row),
		night_read, NULL };
	static const struct store_rowtype bt = { sizeof (struct step_row),
		step_read, NULL };
	struct night_row	*nv = NULL;
	struct step_row		*bv = NULL;
	struct store_api_point	*p;
	size_t			 nn = 0, nb = 0, i, j;

	if (store_list(st, &nt, &nv, &nn, "read series nights", err, errlen,
	    store_series_sql[SQL_NIGHTS], "II", lo, hi) == -1)
		return -1;
	if (store_list(st, &bt, &bv, &nb, "read series steps", err, errlen,
	    store_series_sql[SQL_STEPS], "II", lo, hi) == -1) {
		free(nv);
		return -1;
	}
	for (i = 0; i < out->npoints; i++) {
		p = &out->points[i];
		for (j = 0; j < nn; j++)
			if (nv[j].run == p->run || nv[j].confirm == p->run) {
				p->night = nv[j].id;
				if (p->revision[0] == '\0')
					memcpy(p->revision, nv[j].revision,
					    sizeof p->revision);
			}
		for (j = 0; p->revision[0] == '\0' && j < nb; j++)
			if (bv[j].run == p->run)
				memcpy(p->revision, bv[j].revision,
				    sizeof p->revision);
	}
	free(nv);
	free(bv);
	return 0;
}

/* The message of revision rev in text ("ID\tmessage" lines): heap, or
 * NULL when text has no line for rev. */
static char *
rev_message(const char *text, const char *rev)
{
	size_t		 len = strlen(rev), n;
	const char	*l, *m;

	for (l = text; *l != '\0'; l += strcspn(l, "\n"), l += *l == '\n') {
		if (strncmp(l, rev, len) != 0 || l[len] != '\t')
			continue;
		m = l + len + 1;
		if ((n = strcspn(m, "\n")) > SERIES_MSG_MAX) {
			/* cut before a character, not inside one */
			n = SERIES_MSG_MAX;
			while (n > 0 && ((unsigned char)m[n] & 0xc0) == 0x80)
				n--;
		}
		return n > 0 ? xstrndup(m, n) : NULL;
	}
	return NULL;
}

/* Each point's message: from the revisions of the bisects (the only
 * revision texts the store keeps), the newest bisect's first. */
static int
points_messages(struct store *st, struct store_api_series *out, char *err,
    size_t errlen)
{
	struct store_api_point	*p;
	sqlite3_stmt		*stmt;
	const char		*text;
	size_t			 i, left = 0;
	int			 rc = SQLITE_DONE;

	for (i = 0; i < out->npoints; i++)
		left += out->points[i].revision[0] != '\0';
	if (left == 0)
		return 0;
	if ((stmt = store_prep(st, "read bisect revisions", err, errlen,
	    store_series_sql[SQL_REVS], "")) == NULL)
		return -1;
	while (left > 0 && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if ((text = (const char *)sqlite3_column_text(stmt, 0)) == NULL)
			continue;
		for (i = 0; i < out->npoints; i++) {
			p = &out->points[i];
			if (p->message != NULL || p->revision[0] == '\0')
				continue;
			if ((p->message = rev_message(text, p->revision)) !=
			    NULL)
				left--;
		}
	}
	if (left > 0 && rc != SQLITE_DONE) {
		sqlite3_finalize(stmt);
		return store_err(st, "read bisect revisions", err, errlen);
	}
	sqlite3_finalize(stmt);
	return 0;
}

static void
regr_mark_read(sqlite3_stmt *stmt, void *p)
{
	struct store_api_mark	*m = p;

	memset(m, 0, sizeof *m);
	snprintf(m->kind, sizeof m->kind, "regression");
	store_cols(stmt, 0, "IIssssdII", &m->night, &m->run, m->revision,
	    sizeof m->revision, m->knobs, sizeof m->knobs, m->workload,
	    sizeof m->workload, m->metric, sizeof m->metric, &m->change,
	    &m->regression, &m->bisect);
}

struct culprit_row {
	struct store_api_mark	m;
	char			tool[STORE_TOOL_MAX];
	char			params[STORE_PARAMS_MAX];
};

static void
culprit_read(sqlite3_stmt *stmt, void *p)
{
	struct culprit_row	*c = p;

	memset(c, 0, sizeof *c);
	snprintf(c->m.kind, sizeof c->m.kind, "culprit");
	store_cols(stmt, 0, "Issss", &c->m.bisect, c->m.knobs,
	    sizeof c->m.knobs, c->tool, sizeof c->tool, c->params,
	    sizeof c->params, c->m.metric, sizeof c->m.metric);
	store_cols(stmt, 5, "sIIIs", c->m.revision, sizeof c->m.revision,
	    &c->m.run, &c->m.night, &c->m.regression, c->m.workload,
	    sizeof c->m.workload);
}

static int
mark_same(const struct store_api_series_q *q, const struct store_api_mark *m)
{
	const char	*wl = q->workload, *colon = strchr(wl, ':');

	return strcmp(m->knobs, q->knobs) == 0 &&
	    strcmp(m->metric, q->metric) == 0 &&
	    (strcmp(m->workload, wl) == 0 ||
	    (colon != NULL && strcmp(m->workload, colon + 1) == 0));
}

/* The marks of runs lo..hi (and those with no run when first). */
static int
series_marks(struct store *st, const struct store_api_series_q *q,
    int64_t lo, int64_t hi, int first, struct store_api_series *out,
    char *err, size_t errlen)
{
	static const struct store_rowtype rt = {
		sizeof (struct store_api_mark), regr_mark_read, NULL };
	static const struct store_rowtype ct = {
		sizeof (struct culprit_row), culprit_read, NULL };
	struct culprit_row	*c = NULL;
	size_t			 nc = 0, i;

	if (store_list(st, &rt, &out->marks, &out->nmarks,
	    "read series regressions", err, errlen,
	    store_series_sql[SQL_REGR_MARKS], "tII", q->link, lo, hi) == -1)
		return -1;
	if (store_list(st, &ct, &c, &nc, "read series culprits", err, errlen,
	    store_series_sql[SQL_CULPRITS], "t", q->link) == -1)
		return -1;
	out->marks = xreallocarray(out->marks, out->nmarks + nc + 1,
	    sizeof *out->marks);
	for (i = 0; i < nc; i++) {
		if (c[i].m.run != 0 ? c[i].m.run < lo || c[i].m.run > hi :
		    !first)
			continue;
		if (c[i].m.workload[0] == '\0')	/* no record: a manual one */
			store_workload_name(c[i].tool, c[i].params,
			    c[i].m.workload, sizeof c[i].m.workload);
		out->marks[out->nmarks++] = c[i].m;
	}
	free(c);
	for (i = 0; i < out->nmarks; i++)
		out->marks[i].same = mark_same(q, &out->marks[i]);
	return 0;
}

static int
mark_cmp(const void *a, const void *b)
{
	const struct store_api_mark	*x = a, *y = b;

	if (x->run != y->run)
		return x->run > y->run ? -1 : 1;
	return strcmp(x->kind, y->kind);
}

int
store_api_series(struct store *st, const struct store_api_series_q *q,
    struct store_api_series *out, char *err, size_t errlen)
{
	char		 tool[STORE_TOOL_MAX];
	const char	*p2;
	int64_t		*runs = NULL, after, lo, hi, limit;
	size_t		 nruns = 0;
	sqlite3_stmt	*stmt;
	int		 rc;

	memset(out, 0, sizeof *out);
	workload_split(q->workload, tool, sizeof tool, &p2);
	after = q->after > 0 ? q->after : INT64_MAX;
	limit = (int64_t)(q->limit > 0 ? q->limit : 50);
	if (store_list(st, &store_id_row, &runs, &nruns, "read series page",
	    err, errlen, store_series_sql[SQL_PAGE], "ttttttII", q->link,
	    q->knobs, tool, q->workload, p2, q->metric, after, limit) == -1)
		return -1;
	hi = after == INT64_MAX ? INT64_MAX : after - 1;
	lo = (int64_t)nruns == limit ? runs[nruns - 1] : 0;
	if (nruns > 0) {
		if ((stmt = store_prep(st, "read series points", err, errlen,
		    store_series_sql[SQL_POINTS], "ttttttII", q->link,
		    q->knobs, tool, q->workload, p2, q->metric, hi,
		    runs[nruns - 1])) == NULL) {
			free(runs);
			return -1;
		}
		rc = points_read(st, stmt, tool, q->workload, out, err,
		    errlen);
		sqlite3_finalize(stmt);
		if (rc == -1 || points_nights(st, runs[nruns - 1], runs[0],
		    out, err, errlen) == -1 || points_messages(st, out, err,
		    errlen) == -1) {
			free(runs);
			store_api_series_free(out);
			return -1;
		}
	}
	if ((int64_t)nruns == limit)
		out->next_after = runs[nruns - 1];
	free(runs);
	if (series_marks(st, q, lo, hi, q->after <= 0, out, err,
	    errlen) == -1) {
		store_api_series_free(out);
		return -1;
	}
	if (out->nmarks > 1)
		qsort(out->marks, out->nmarks, sizeof *out->marks, mark_cmp);
	return 0;
}

void
store_api_series_free(struct store_api_series *s)
{
	size_t	i;

	for (i = 0; i < s->npoints; i++) {
		free(s->points[i].values);
		free(s->points[i].jobs);
		free(s->points[i].message);
	}
	free(s->points);
	free(s->marks);
	memset(s, 0, sizeof *s);
}

/* ---- link health ------------------------------------------------------------ */

static void
tr_read(sqlite3_stmt *stmt, void *p)
{
	struct store_health_tr	*t = p;

	memset(t, 0, sizeof *t);
	store_cols(stmt, 0, "ISSSSIS", &t->id, &t->link, &t->from, &t->to,
	    &t->who, &t->at, &t->why);
}

static void
tr_free(void *p)
{
	struct store_health_tr	*t = p;

	free(t->link);
	free(t->from);
	free(t->to);
	free(t->who);
	free(t->why);
}

int
store_api_health_history(struct store *st, const char *link, int64_t after,
    size_t limit, struct store_health_tr **v, size_t *n, char *err,
    size_t errlen)
{
	static const struct store_rowtype t = {
		sizeof (struct store_health_tr), tr_read, tr_free };

	return store_list(st, &t, v, n, "list health history", err, errlen,
	    store_series_sql[SQL_HISTORY], "tII", link,
	    after > 0 ? after : INT64_MAX,
	    (int64_t)(limit > 0 ? limit : 50));
}

int
store_api_link_known(struct store *st, const char *link, char *err,
    size_t errlen)
{
	int64_t	known = 0;

	if (store_get(st, &store_id_row, &known, "look up link", err, errlen,
	    store_series_sql[SQL_KNOWN], "t", link) == -1)
		return -1;
	return known != 0;
}
