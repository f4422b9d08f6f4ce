/*
 * report_sched: `labrat schedule list|show`: the daemon's stored schedules
 * with their next firing (cron, in UTC and in the schedule's zone) and
 * last firing, as a table, one schedule's fields, or JSON; and the body of
 * POST /api/v1/schedules that `labrat --server schedule add` sends.  See
 * report.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cron.h"
#include "json.h"
#include "report.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

/* Next firing after now, -1 if the schedule is disabled or its zone or
 * expression fail now; *zp is the schedule's zone (the cache's), NULL
 * then. */
static time_t
sched_next(struct cron_cache *cache, const struct store_sched *s,
    const struct cron_zone **zp)
{
	struct cron_sched	cs;
	char			err[256];

	*zp = NULL;
	if (!s->enabled || cache == NULL || cron_sched_compile(cache, s->cron, s->tz,
	    s->name, &cs, err, sizeof err) == -1)
		return (time_t)-1;
	*zp = cs.zone;
	return cron_sched_next(&cs, util_time());
}

static void
sched_json(struct json_writer *w, struct cron_cache *cache,
    const struct store_sched *s, int full)
{
	const struct cron_zone	*z;
	time_t			 next = sched_next(cache, s, &z);
	char			 buf[96];

	json_begin_obj(w);
	json_kv_int(w, "id", s->id);
	json_kv_str(w, "name", s->name);
	json_kv_str(w, "cron", s->cron);
	json_kv_str(w, "tz", s->tz);
	if (next == (time_t)-1) {
		json_kv_null(w, "next_utc");
		json_kv_null(w, "next_local");
	} else {
		json_kv_int(w, "next", (int64_t)next);
		json_kv_str(w, "next_utc", cron_format(cron_zone_utc(), next,
		    buf, sizeof buf));
		json_kv_str(w, "next_local", cron_format(z, next, buf,
		    sizeof buf));
	}
	if (s->last_fired == 0)
		json_kv_null(w, "last_fired");
	else
		json_kv_int(w, "last_fired", s->last_fired);
	json_kv_str(w, "inventory", s->inventory_path);
	json_kv_str(w, "plan", s->plan_path);
	json_kv_str(w, "links", s->links);
	if (s->revisions == NULL)
		json_kv_null(w, "revisions");
	else
		json_kv_str(w, "revisions", s->revisions);
	json_kv_bool(w, "enabled", s->enabled);
	json_kv_int(w, "created", s->created);
	if (full)
		json_kv_str(w, "plan_text", s->plan_text);
	json_end_obj(w);
}

static void
sched_fmt_ms(int64_t ms, char *buf, size_t len)
{
	if (ms == 0)
		snprintf(buf, len, "never");
	else
		cron_format(cron_zone_utc(), (time_t)(ms / 1000), buf, len);
}

static void
sched_text(struct cron_cache *cache, const struct store_sched *v, size_t n,
    int full, FILE *fp)
{
	const struct cron_zone	*z;
	char			 utc[96], loc[96], last[96];
	size_t			 i;
	time_t			 next;

	if (!full)
		fprintf(fp, "%-20s %-16s %-16s %-30s %-34s %s\n", "NAME",
		    "CRON", "TZ", "NEXT (UTC)", "NEXT (LOCAL)",
		    "LAST FIRED (UTC)");
	for (i = 0; i < n; i++) {
		next = sched_next(cache, &v[i], &z);
		snprintf(utc, sizeof utc, v[i].enabled ? "-" : "(disabled)");
		snprintf(loc, sizeof loc, "-");
		if (next != (time_t)-1) {
			cron_format(cron_zone_utc(), next, utc, sizeof utc);
			cron_format(z, next, loc, sizeof loc);
		}
		sched_fmt_ms(v[i].last_fired, last, sizeof last);
		if (!full) {
			fprintf(fp, "%-20s %-16s %-16s %-30s %-34s %s\n",
			    v[i].name, v[i].cron, v[i].tz, utc, loc, last);
			continue;
		}
		fprintf(fp, "name:        %s\ncron:        %s\n"
		    "tz:          %s\nnext (UTC):  %s\nnext local:  %s\n"
		    "last fired:  %s\ninventory:   %s\nplan:        %s\n"
		    "links:       %s\nrevisions:   %s\nenabled:     %s\n",
		    v[i].name, v[i].cron, v[i].tz, utc, loc, last,
		    v[i].inventory_path, v[i].plan_path,
		    *v[i].links != '\0' ? v[i].links : "(all)",
		    v[i].revisions != NULL ? v[i].revisions : "-",
		    v[i].enabled ? "yes" : "no");
	}
}

static int
sched_print(const struct store_sched *v, size_t n, int one,
    enum report_format f, FILE *fp, char *err, size_t errlen)
{
	struct json_writer	*w;
	struct cron_cache	*cache = cron_cache_new(NULL);
	size_t			 i;

	if (f == REPORT_TEXT) {
		sched_text(cache, v, n, one, fp);
		cron_cache_free(cache);
		return 0;
	}
	w = json_writer_new(fp, JSON_PRETTY);
	if (!one)
		json_begin_arr(w);
	for (i = 0; i < n; i++)
		sched_json(w, cache, &v[i], one);
	if (!one)
		json_end_arr(w);
	cron_cache_free(cache);
	if (json_writer_free(w, err, errlen) == -1)
		return -1;
	fputc('\n', fp);
	return 0;
}

int
report_schedules(const char *db_path, const char *name,
    enum report_format f, FILE *fp, char *err, size_t errlen)
{
	struct store		*st;
	struct store_sched	*v = NULL, one;
	size_t			 n = 0;
	int			 rc;

	if (f != REPORT_TEXT && f != REPORT_JSON) {
		util_seterr(err, errlen, "schedules: the formats are text "
		    "and json");
		return -1;
	}
	if (store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen) == -1)
		return -1;
	if (name == NULL)
		rc = store_sched_list(st, &v, &n, err, errlen);
	else
		rc = store_sched_get(st, name, &one, err, errlen);
	store_close(st);
	if (rc == -1)
		return -1;
	if (name != NULL && rc == 0)
		return 1;
	if (name == NULL) {
		rc = sched_print(v, n, 0, f, fp, err, errlen);
		store_scheds_free(v, n);
	} else {
		rc = sched_print(&one, 1, 1, f, fp, err, errlen);
		store_sched_free(&one);
	}
	if (rc == 0 && (fflush(fp) == EOF || ferror(fp))) {
		util_seterr(err, errlen, "schedules: write failed: %s",
		    strerror(errno));
		rc = -1;
	}
	return rc;
}

char *
report_schedule_body(const struct store_sched *s, char *err, size_t errlen)
{
	struct json_mem		 b;
	struct json_writer	*w;
	const char		*p, *c;

	if ((w = json_mem_begin(&b, 0)) != NULL) {
		json_begin_obj(w);
		json_kv_str(w, "name", s->name);
		json_kv_str(w, "cron", s->cron);
		json_kv_str(w, "tz", s->tz);
		json_kv_str(w, "inventory", s->inventory_path);
		json_kv_str(w, "plan", s->plan_path);
		if (s->links != NULL && s->links[0] != '\0') {
			json_key(w, "links");
			json_begin_arr(w);
			for (p = s->links; p != NULL; p = c != NULL ? c + 1 :
			    NULL) {
				c = strchr(p, ',');
				json_put_strn(w, p, c != NULL ? (size_t)(c - p) :
				    strlen(p));
			}
			json_end_arr(w);
		}
		if (s->revisions != NULL)
			json_kv_str(w, "revisions", s->revisions);
		json_end_obj(w);
	}
	return json_mem_end(&b, NULL, err, errlen);
}
