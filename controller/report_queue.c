/*
 * report_queue: `labrat queue`: whether a daemon serves the database (its
 * heartbeat row) and the daemon's queue, newest first, as a table or JSON.
 * See report.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json.h"
#include "report.h"
#include "report_int.h"
#include "store_daemon.h"
#include "util.h"

/* "12 s", "5 min", "3 h", "2 d": an age of s seconds. */
static const char *
ago(int64_t s, char *buf, size_t len)
{
	if (s < 0)
		s = 0;
	if (s < 120)
		snprintf(buf, len, "%lld s", (long long)s);
	else if (s < 2 * 3600)
		snprintf(buf, len, "%lld min", (long long)(s / 60));
	else if (s < 2 * 86400)
		snprintf(buf, len, "%lld h", (long long)(s / 3600));
	else
		snprintf(buf, len, "%lld d", (long long)(s / 86400));
	return buf;
}

void
report_json_when(struct json_writer *w, const char *key, int64_t ms)
{
	time_t		t = (time_t)(ms / 1000);
	struct tm	tm;
	char		buf[32];

	if (ms <= 0) {
		json_kv_null(w, key);
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_kv_str(w, key, buf);
}

static void
json_id(struct json_writer *w, const char *key, int64_t id)
{
	if (id > 0)
		json_kv_int(w, key, id);
	else
		json_kv_null(w, key);
}

void
report_queue_text_daemon(const struct report_q_daemon *d, FILE *fp)
{
	char	age[32];

	if (!d->have)
		fprintf(fp, "daemon: none (no heartbeat yet)\n");
	else if (d->live)
		fprintf(fp, "daemon: %s, last heartbeat %s ago%s\n", d->owner,
		    ago(d->beat_age_s, age, sizeof age), d->stopping ?
		    ", stopping" : "");
	else
		fprintf(fp, "daemon: none (last heartbeat %s ago)\n",
		    ago(d->beat_age_s, age, sizeof age));
}

void
report_queue_text_items(const struct report_q_row *v, size_t n, FILE *fp)
{
	struct report_table	t;
	char			id[24], prio[16], age[32], run[24], bis[24];
	size_t			i;

	if (n == 0) {
		fprintf(fp, "queue empty\n");
		return;
	}
	report_table_init(&t, 9, "rlrlllrrl");
	report_table_row(&t, "id", "kind", "prio", "state", "who", "age",
	    "run", "bisect", "result");
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof id, "%lld", (long long)v[i].id);
		snprintf(prio, sizeof prio, "%d", v[i].priority);
		snprintf(run, sizeof run, v[i].run_id > 0 ? "%lld" : "-",
		    (long long)v[i].run_id);
		snprintf(bis, sizeof bis, v[i].bisect_id > 0 ? "%lld" : "-",
		    (long long)v[i].bisect_id);
		report_table_row(&t, id, v[i].kind, prio, v[i].state, v[i].who,
		    ago(v[i].age_s, age, sizeof age), run, bis,
		    v[i].result != NULL ? v[i].result : "-");
	}
	report_table_print(&t, "", fp);
	report_table_free(&t);
}

/* The text of what the store holds, seen at now (ms). */
static void
text_queue(const struct store_daemon *d, int have, int live,
    const struct store_q_item *v, size_t n, int64_t now, FILE *fp)
{
	struct report_q_daemon	 qd;
	struct report_q_row	*rows;
	size_t			 i;

	memset(&qd, 0, sizeof qd);
	qd.have = have;
	qd.live = live;
	qd.owner = d->owner;
	qd.stopping = d->stopping;
	qd.beat_age_s = (now - d->beat) / 1000;
	report_queue_text_daemon(&qd, fp);
	rows = xcalloc(n > 0 ? n : 1, sizeof *rows);
	for (i = 0; i < n; i++) {
		rows[i].id = v[i].id;
		rows[i].kind = store_q_kind_name(v[i].kind);
		rows[i].priority = v[i].priority;
		rows[i].state = store_q_state_name(v[i].state);
		rows[i].who = v[i].who;
		rows[i].age_s = (now - v[i].enqueued) / 1000;
		rows[i].run_id = v[i].run_id;
		rows[i].bisect_id = v[i].bisect_id;
		rows[i].result = v[i].result;
	}
	report_queue_text_items(rows, n, fp);
	free(rows);
}

static void
json_item(struct json_writer *w, const struct store_q_item *it, int64_t now)
{
	json_begin_obj(w);
	json_kv_int(w, "id", it->id);
	json_kv_str(w, "kind", store_q_kind_name(it->kind));
	json_kv_int(w, "priority", it->priority);
	json_kv_str(w, "state", store_q_state_name(it->state));
	json_kv_str(w, "who", it->who);
	json_kv_str(w, "owner", it->owner);
	report_json_when(w, "enqueued", it->enqueued);
	json_kv_int(w, "age_s", (now - it->enqueued) / 1000);
	report_json_when(w, "started", it->started);
	report_json_when(w, "finished", it->finished);
	json_kv_int(w, "attempts", it->attempts);
	json_id(w, "run", it->run_id);
	json_id(w, "bisect", it->bisect_id);
	json_id(w, "schedule", it->schedule_id);
	if (it->schedule_id > 0)
		report_json_when(w, "slot", it->slot);
	else
		json_kv_null(w, "slot");
	json_kv_str(w, "result", it->result);
	json_key(w, "payload");
	json_put_raw(w, it->payload);
	json_end_obj(w);
}

static int
json_queue(const struct store_daemon *d, int have, int live,
    const struct store_q_item *v, size_t n, int more, int64_t now,
    FILE *fp, char *err, size_t errlen)
{
	struct json_writer	*w = json_writer_new(fp, JSON_PRETTY);
	size_t			 i;

	json_begin_obj(w);
	json_key(w, "daemon");
	if (!have)
		json_put_null(w);
	else {
		json_begin_obj(w);
		json_kv_str(w, "owner", d->owner);
		json_kv_bool(w, "live", live);
		json_kv_bool(w, "stopping", d->stopping);
		json_kv_bool(w, "stopped", d->stopped);
		report_json_when(w, "started", d->started);
		report_json_when(w, "last_heartbeat", d->beat);
		json_kv_int(w, "heartbeat_age_s", (now - d->beat) / 1000);
		json_end_obj(w);
	}
	json_key(w, "items");
	json_begin_arr(w);
	for (i = 0; i < n; i++)
		json_item(w, &v[i], now);
	json_end_arr(w);
	/* The next page's cursor, as GET /bisects and /nights write it. */
	if (more)
		json_kv_int(w, "next_after", v[n - 1].id);
	else
		json_kv_null(w, "next_after");
	json_end_obj(w);
	return json_writer_free(w, err, errlen);
}

int
report_queue(const char *db_path, size_t limit, int64_t after,
    enum report_format f, FILE *fp, char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct store_daemon	 d;
	struct store_q_item	*v = NULL;
	size_t			 n = 0, shown;
	int64_t			 now = store_daemon_now();
	int			 have, live = 0, rc = -1;

	memset(&d, 0, sizeof d);
	if (f != REPORT_TEXT && f != REPORT_JSON) {
		util_seterr(err, errlen, "queue: the formats are text and json");
		return -1;
	}
	if (store_open(db_path, STORE_OPEN_READONLY, &st, err, errlen) == -1)
		return -1;
	if ((have = store_daemon_get(st, STORE_DAEMON_STALE_MS, &d, &live, err,
	    errlen)) == -1 || store_q_page(st, 0, after, limit > 0 ? limit + 1 :
	    0, &v, &n, err, errlen) == -1)
		goto fail;
	/* One more than limit says that a next page follows. */
	shown = limit > 0 && n > limit ? limit : n;
	if (f == REPORT_TEXT)
		text_queue(&d, have, live, v, shown, now, fp);
	else if (json_queue(&d, have, live, v, shown, shown < n, now, fp, err,
	    errlen) == -1)
		goto fail;
	rc = 0;
	if (fflush(fp) == EOF || ferror(fp)) {
		util_seterr(err, errlen, "queue: write failed: %s",
		    strerror(errno));
		rc = -1;
	}
fail:
	store_q_items_free(v, n);
	store_daemon_free(&d);
	store_close(st);
	return rc;
}
