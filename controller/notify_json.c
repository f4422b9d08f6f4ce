/*
 * notify_json.c: the webhook's body (schemas/webhook.schema.json), every
 * field of the message through the json module's writer, which escapes
 * each string and turns invalid UTF-8 into U+FFFD.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "notify.h"
#include "notify_int.h"
#include "util.h"

/* "reproduce" as an array of its non-empty lines, each trimmed. */
static void
commands(struct json_writer *w, const char *text)
{
	const char	*p = text, *e, *nl;

	json_key(w, "commands");
	json_begin_arr(w);
	while (p != NULL && *p != '\0') {
		nl = strchr(p, '\n');
		e = nl != NULL ? nl : p + strlen(p);
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e > p)
			json_put_strn(w, p, (size_t)(e - p));
		p = nl != NULL ? nl + 1 : NULL;
	}
	json_end_arr(w);
}

static void
id(struct json_writer *w, const char *key, int64_t v)
{
	if (v > 0)
		json_kv_int(w, key, v);
	else
		json_kv_null(w, key);
}

/* A figure; a bad pair has none (null, as NaN is). */
static void
num(struct json_writer *w, const struct notify_msg *m, const char *key,
    double v)
{
	if (m->kind == NOTIFY_PAIR_BAD)
		json_kv_null(w, key);
	else
		json_kv_num(w, key, v);
}

static void
members(struct json_writer *w, const struct notify_msg *m)
{
	char	subj[NOTIFY_SUBJECT_MAX + 1];

	notify_subject(m, subj, sizeof subj);
	json_kv_int(w, "version", 1);
	json_kv_str(w, "kind", notify_kind_name(m->kind));
	json_kv_str(w, "subject", subj);
	id(w, "regression_id", m->regression_id);
	id(w, "bisect_id", m->bisect_id);
	json_kv_str(w, "link", m->link);
	json_kv_str(w, "client", m->client);
	json_kv_str(w, "server", m->server);
	json_kv_str(w, "driver", m->driver);
	json_kv_str(w, "chip", m->chip);
	json_kv_str(w, "workload", m->workload);
	json_kv_str(w, "metric", m->metric);
	json_kv_str(w, "unit", m->unit);
	json_kv_str(w, "knobs", m->knobs);
	num(w, m, "change", m->change);
	num(w, m, "parent_median", m->parent_median);
	num(w, m, "culprit_median", m->culprit_median);
	json_kv_int(w, "n_parent", m->n_parent);
	json_kv_int(w, "n_culprit", m->n_culprit);
	num(w, m, "p", m->p);
	json_kv_str(w, "culprit", m->culprit);
	json_kv_str(w, "culprit_msg", m->culprit_msg);
	json_kv_str(w, "parent", m->parent);
	json_kv_bool(w, "verified", m->verified != 0);
	json_kv_str(w, "outcome", m->outcome);
	json_kv_str(w, "range_first", m->range_first);
	json_kv_str(w, "range_last", m->range_last);
	json_kv_str(w, "reproduce", m->reproduce);
	commands(w, m->reproduce);
	json_key(w, "bisect_log");
	if (m->bisect_log == NULL)
		json_put_null(w);
	else
		json_put_strn(w, m->bisect_log, strlen(m->bisect_log) >
		    NOTIFY_LOG_MAX ? NOTIFY_LOG_MAX : strlen(m->bisect_log));
	json_kv_str(w, "health_why", m->health_why);
}

char *
notify_webhook_json(const struct notify_msg *m)
{
	struct json_mem		 jm;
	struct json_writer	*w;

	if ((w = json_mem_begin(&jm, JSON_MEM_TRIM)) != NULL) {
		json_begin_obj(w);
		members(w, m);
		json_end_obj(w);
	}
	return json_mem_end(&jm, NULL, NULL, 0);
}
