/*
 * report_int.h: what report.c and its private files (report_fmt.c,
 * report_facts.c, report_table.c, report_runs.c, ...) share; not part of
 * the module's interface.
 */
#ifndef LABRAT_REPORT_INT_H
#define LABRAT_REPORT_INT_H

#include <stdio.h>

#include "detect.h"
#include "report.h"
#include "store.h"

double	 report_scale(const struct store_series *, const char **unit);
const char *report_p(double p, char *buf, size_t len);
const char *report_cmp_name(const struct detect_result *,
	    const struct detect_cmp *, char *buf, size_t len);
const char *report_effect(const struct detect_cmp *,
	    const struct store_series *, char *buf, size_t len);
/* "cpu_sender: busy CPU (user + system), %, measured on the sender; lower
 * is better": what the report judges and which way. */
const char *report_metric_desc(const struct detect_params *, char *buf,
	    size_t len);
/* 1 when the metric is throughput (shown in Mbit/s, "slower"). */
int	 report_is_throughput(const struct store_series *);
/* A series' revision, or "unknown revision". */
const char *report_rev_str(const char *rev);
/*
 * *run_id as given when that run exists, 0 the newest run that is not a
 * bisect step or a health check; 0, or -1 with err (no such run).
 */
int	report_resolve_run(struct store *, int64_t *run_id, char *err,
	    size_t errlen);
/* A comparison's members as the run report's JSON writes them (name,
 * link, ..., verdict, medians, ratio, p): within an open object. */
struct json_writer;
void	report_json_cmp_keys(struct json_writer *,
	    const struct detect_result *, const struct detect_cmp *);
/* The regressions of a result: within the run and run over run. */
int	report_count_regressions(const struct detect_result *);
int	report_json(struct store *, const struct detect_result *, FILE *,
	    char *err, size_t errlen);
/* report_facts.c: the run's host facts, reported and declared (st may be
 * NULL: nothing is written, or an empty "hosts" array).  0 or -1 + err. */
int	report_facts_text(struct store *, int64_t run_id, FILE *, char *err,
	    size_t errlen);
int	report_facts_json(struct json_writer *, struct store *,
	    int64_t run_id, char *err, size_t errlen);
/* A series' identity as JSON members (link, knobs, tool, params,
 * revision): the run report's series and the run summary alike. */
void	report_series_keys(struct json_writer *, const struct store_series *);
int	report_csv(const struct detect_result *, FILE *);
int	report_junit(const struct detect_result *, FILE *);

/*
 * A text table (report_table.c): each column as wide as its widest cell,
 * two blanks between columns, align[i] 'r' right-aligns column i.  The
 * table owns copies of its cells: report_table_free().
 */
#define REPORT_TABLE_COLS	10
struct report_table {
	size_t	  ncols;
	char	  align[REPORT_TABLE_COLS + 1];
	char	**cells;	/* nrows * ncols, heap */
	size_t	  nrows;
};
void	report_table_init(struct report_table *, size_t ncols,
	    const char *align);
/* Appends a row: ncols const char * (NULL = empty), copied. */
void	report_table_row(struct report_table *, ...);
void	report_table_print(const struct report_table *, const char *indent,
	    FILE *);
void	report_table_free(struct report_table *);

/*
 * The queue's text (report_queue.c), from the store (`labrat queue`) or
 * from the API's JSON (report_remote.c): the same lines either way.  Ages
 * are in seconds at the moment the rows were read; strings are borrowed.
 */
struct report_q_daemon { int have, live, stopping; const char *owner;
	int64_t beat_age_s; };
struct report_q_row { int64_t id, age_s, run_id, bisect_id; int priority;
	const char *kind, *state, *who, *result; /* result may be NULL */ };
void	report_queue_text_daemon(const struct report_q_daemon *, FILE *);
void	report_queue_text_items(const struct report_q_row *, size_t n,
	    FILE *);

/* "2026-12-01 08:46" (UTC) or, iso, "2026-12-01T08:46:07Z" of ms into
 * buf; returns buf (report_runs.c). */
const char *report_when(int64_t ms, int iso, char *buf, size_t len);
/* key: the ISO 8601 UTC time of ms, or null for 0 (report_queue.c). */
struct json_writer;
void	report_json_when(struct json_writer *, const char *key, int64_t ms);

#endif
