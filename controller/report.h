/*
 * report: what detect found, written for people and for machines.
 *
 * `labrat report`: what each host reported it ran (revision, driver,
 * chip; the inventory's driver and chip beside them where they differ:
 * "driver veth (inventory: em)"), then the isolated triggers, in the words
 * of a mailing-list post ("em iperf3: TSO on with MTU 9000 is 17.9 %
 * slower than TSO off (p < 0.001, n = 10/10); TSO alone: no change; MTU
 * 9000 alone: no change"), then run over run against the baseline, then
 * per link and workload the knob matrix (n, median, IQR) and every
 * one-knob comparison with its verdict, effect, confidence interval, p
 * and n.
 * Formats: text, JSON (one object), CSV (one row per series, comparison
 * and trigger, with a "section" column, the unit of its values and the
 * run ids of both sides), JUnit XML (one testcase per
 * comparison; a regression is a failure, an inconclusive comparison is
 * skipped).
 *
 * `labrat compare`: two runs side by side, ministat-style, per matching
 * series (link + knobs + workload): the ASCII distribution plot, ministat's
 * table and Student's t line, then the verdict, and summary lines.
 */
#ifndef LABRAT_REPORT_H
#define LABRAT_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "detect.h"

enum report_format {
	REPORT_TEXT = 0,
	REPORT_JSON,
	REPORT_CSV,
	REPORT_JUNIT,
};

/* "text", "json", "csv", "junit" -> *f; 0 or -1 when unknown. */
int	report_format_parse(const char *, enum report_format *);

/*
 * Writes the report of res (detect_run(), optionally detect_baseline())
 * to fp.  st is used for the run's header (may be NULL).  0 or -1 + err.
 */
int	report_write(struct store *st, const struct detect_result *res,
	    enum report_format, FILE *fp, char *err, size_t errlen);

/*
 * The whole `labrat report` of one metric (NULL = throughput_bps; its
 * direction decides which change is a regression): opens db_path
 * read-only, run_id 0 = the
 * newest run that is not a bisect step, baseline_run 0 = the newest
 * earlier done run on the same host pairs that is not a bisect step
 * either, -1 = no run over run; detects and writes.  *regressions
 * (may be NULL) gets the number of regressions found (within the run and
 * run over run).  0 or -1 with err.
 */
int	report_run(const char *db_path, int64_t run_id, int64_t baseline_run,
	    const char *metric, enum report_format, FILE *fp,
	    int *regressions, char *err, size_t errlen);

/*
 * Stored verdicts (report_verdict.c, schema 14).  REPORT_VERDICT_FORMAT
 * is the version of report_json()'s output: bump it whenever the report
 * JSON changes, so that rows written by an older labrat are recomputed
 * rather than served.
 *
 * report_verdict_save: what report_run(db, run_id, 0, NULL, REPORT_JSON)
 * prints (the default baseline as of now), stored as run_id's verdicts
 * after dropping run_id's row and those of later runs on its links
 * (store_verdict_drop_from()).  The run module calls it when a run
 * finishes.  0 or -1 with err.
 *
 * report_run_json: the JSON `labrat report RUN --format json` prints: the
 * stored bytes when run_id has a row of this format (*stored = 1), else
 * computed by report_run() over db_path (*stored = 0).  *json is heap
 * (the caller frees it), *len its length, *regressions how many it found
 * (report_run()'s count).  0 or -1 with err.
 */
#define REPORT_VERDICT_FORMAT	1
int	report_verdict_save(struct store *, int64_t run_id, char *err,
	    size_t errlen);
int	report_run_json(struct store *, const char *db_path, int64_t run_id,
	    char **json, size_t *len, int *stored, int *regressions, char *err,
	    size_t errlen);

/*
 * The detect parameters run_id was measured with (report_params.c): the
 * stats section of the plan text it stored, or the defaults when it
 * stored none or one that no longer parses (logged), metric (NULL =
 * throughput_bps) with the direction the plan declares for it in
 * "metrics", else its built-in one (detect_params_metric()), and a
 * p->inventory_links that reads the links of the inventory it stored.
 * 0 or -1 with err (no such run, store error, a metric whose direction
 * nobody knows).
 */
int	report_params_run(struct store *, int64_t run_id, const char *metric,
	    struct detect_params *p, char *err, size_t errlen);

/*
 * A trigger as one sentence (no trailing newline) into buf; returns the
 * length it needed like snprintf.
 */
int	report_trigger_text(const struct detect_result *,
	    const struct detect_trigger *, char *buf, size_t len);

/*
 * How a run's state is shown: its store state, or "interrupted" for a run
 * left "running" by a controller that died (report_owner_gone()).
 */
const char	*report_run_state(const struct store_run *);
/*
 * 1 when owner, "hostname:pid" as run_owner_default() writes it, names
 * this host and a pid that no longer exists; 0 when it is alive, on
 * another host, or not of that form (NULL too).
 */
int		 report_owner_gone(const char *owner);

/*
 * `labrat runs`: the newest limit runs (0 = all) of db_path, newest first:
 * id, kind, state (report_run_state()), started, the revisions its hosts
 * ran, its links, jobs done/total, plan, and notes; text (a table) or
 * json ({"runs": [objects], "next_after"}, see report_runs_page();
 * objects: id, kind, state, started, finished, created_ms, finished_ms,
 * revisions [], links [], jobs {total, queued, running, done, failed,
 * cancelled, failed_infra}, plan, inventory, note, owner, reason, bisect,
 * schedule).  0 or -1 + err (another format, the store cannot be read).
 */
int	report_runs(const char *db_path, size_t limit, enum report_format,
	    FILE *fp, char *err, size_t errlen);
/*
 * The same for the page q of st (store_api_runs(): GET /api/v1/runs
 * serves this): text, or json {"runs": [the objects above, with
 * created_ms and finished_ms too], "next_after": the last id when the
 * page is full (the next page's ?after=), else null}.  0 or -1 + err.
 */
struct store_api_runs_q;
int	report_runs_page(struct store *, const struct store_api_runs_q *q,
	    enum report_format, FILE *fp, char *err, size_t errlen);

/*
 * `labrat queue`: the daemon serving db_path ("daemon: OWNER, last
 * heartbeat 3 s ago" or "daemon: none (...)") and the newest limit queue
 * items (0 = all) older than after (an id; 0 = from the newest), newest
 * first: id, kind, prio, state, who, age, run, bisect, result; or json:
 * {"daemon": {owner, live, stopping, stopped, started, last_heartbeat,
 * heartbeat_age_s} | null, "items": [{id, kind, priority, state, who,
 * owner, enqueued, age_s, started, finished, attempts, run, bisect,
 * schedule, slot, result, payload}], "next_after": the last item's id
 * when older items follow (the next page's after), else null}.  0 or -1.
 */
int	report_queue(const char *db_path, size_t limit, int64_t after,
	    enum report_format,
	    FILE *fp, char *err, size_t errlen);

/*
 * `labrat schedule list` (name NULL) and `labrat schedule show NAME`: the
 * stored schedules, by name, with the next firing after now in UTC and in
 * each one's zone and the last firing; text (a table, or one schedule's
 * fields) or json (an array, or one object that includes plan_text).
 * Opens db_path creating and migrating it.  0; 1 when there is no
 * schedule called name; -1 with err.
 */
int	report_schedules(const char *db_path, const char *name,
	    enum report_format, FILE *fp, char *err, size_t errlen);
/*
 * The body of POST /api/v1/schedules for s, as http_res_sched.c reads it:
 * name, cron, tz, inventory, plan (the paths as given), links (s->links
 * split at commas, absent when empty) and revisions when set.  Heap,
 * caller frees; NULL with err when it cannot be written.
 */
struct store_sched;
char	*report_schedule_body(const struct store_sched *, char *err,
	    size_t errlen);

/* What report_list() lists. */
enum report_list { REPORT_LIST_RUNS, REPORT_LIST_QUEUE };

/*
 * `labrat runs` (report_runs()) or `labrat queue` (report_queue()) in the
 * format called format ("text", "json", ...).  0; -2 when format is not a
 * report format; -1 with err (that listing's own refusal of a format
 * included).
 */
int	report_list(const char *db_path, enum report_list, size_t limit,
	    const char *format, FILE *fp, char *err, size_t errlen);

/*
 * `labrat token list` (report_tokens.c): the API's tokens in id order as a
 * table (name, id, access, created, last used, revoked; times UTC) or json
 * {"tokens": [{name, id, read_only, created, last_used, revoked}]} (times
 * ISO 8601 UTC or null); never a salt or hash.  0 or -1 + err.
 */
int	report_tokens(const char *db_path, enum report_format, FILE *fp,
	    char *err, size_t errlen);

/*
 * The remote CLI (report_remote.c).  report_api_error: the "error" of an
 * API problem reply into out, else the start of the body.
 * report_remote_first_id: the "id" of the first object of the reply's
 * array key (a list, newest first) whose "kind" is not one of skip
 * (NULL-terminated; NULL = none): 1 with *id, 0 when there is none, -1 +
 * err (not JSON, not that shape).
 */
void	report_api_error(const char *body, size_t len, char *out,
	    size_t outlen);
int	report_remote_first_id(const char *body, size_t len, const char *key,
	    const char *const *skip, int64_t *id, char *err, size_t errlen);
/* The reply object's member key (a string, or an integer as digits) into
 * out: 1, 0 when absent or of another type, -1 when not a JSON object. */
int	report_remote_member(const char *body, size_t len, const char *key,
	    char *out, size_t outlen);

struct report_compare_opts {
	const char	*link;		/* NULL = every link */
	const char	*knobs;		/* canonical key, NULL = all */
	const char	*metric;	/* NULL = throughput_bps */
	int		 width;		/* plot width, 0 = 74 */
	enum report_format format;	/* REPORT_TEXT or REPORT_JSON */
};

/*
 * `labrat compare RUN_A RUN_B` (report_compare.c): run_a is the baseline.
 * Text: per series a ministat plot, table and verdict, then a summary.
 * JSON: one object: run, baseline_run, metric, lower_is_better, link and
 * knobs (the filters, null when not given), summary {series, regressions,
 * improvements, no_change, inconclusive} and comparisons, each with the
 * members of the run report's comparisons plus unit, values_baseline and
 * values_candidate (the samples).  *regressions gets how many series
 * regressed.  0, or -1 with err (a run does not exist, no series
 * matches; nothing written then).
 */
int	report_compare(const char *db_path, int64_t run_a, int64_t run_b,
	    const struct report_compare_opts *, FILE *fp, int *regressions,
	    char *err, size_t errlen);

/*
 * The summary `labrat run` prints when a run ends (report_summary.c): job
 * counts, then per series the throughput samples' n, median, min and max
 * in Mbit/s; REPORT_JSON writes one object, any other format the table.
 * Opens db_path read-only.  0, or -1 with err (store error; a JSON writer
 * error after the output began).
 */
int	report_run_summary(const char *db_path, int64_t run_id,
	    enum report_format, FILE *fp, char *err, size_t errlen);

#endif
