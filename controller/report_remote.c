/*
 * report_remote: what the remote CLI prints from the daemon's HTTP API
 * (`labrat --server URL queue`): the API serves the bytes the local JSON
 * formatter writes, so JSON passes through after a check, and text is
 * decoded (json-c, after json_check_raw) into the rows the local text
 * formatter prints.  Also the text of an API error reply.  See report.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "report.h"
#include "report_int.h"
#include "util.h"

/* The reply as a JSON object (caller json_object_put()s), or NULL + err. */
static struct json_object *
remote_parse(const char *body, size_t len, char *err, size_t errlen)
{
	struct json_tokener	*tok;
	struct json_object	*root;
	char			 raw[256];

	if (body == NULL || json_check_raw(body, len, raw, sizeof raw) !=
	    JSON_RAW_OK) {
		util_seterr(err, errlen, "the reply is not JSON: %s",
		    body == NULL ? "empty" : raw);
		return NULL;
	}
	if ((tok = json_tokener_new_ex(JSON_RAW_MAX_DEPTH)) == NULL) {
		util_seterr(err, errlen, "json_tokener_new_ex: out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
	    JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, body, (int)len);
	json_tokener_free(tok);
	if (root == NULL || !json_object_is_type(root, json_type_object)) {
		util_seterr(err, errlen, "the reply is not a JSON object");
		json_object_put(root);
		return NULL;
	}
	return root;
}

void
report_api_error(const char *body, size_t len, char *out, size_t outlen)
{
	struct json_object	*root, *e;
	char			 err[64];

	root = len > 0 ? remote_parse(body, len, err, sizeof err) : NULL;
	if (root != NULL && json_object_object_get_ex(root, "error", &e) &&
	    json_object_is_type(e, json_type_string))
		snprintf(out, outlen, "%s", json_object_get_string(e));
	else if (body != NULL && len > 0)
		snprintf(out, outlen, "%.200s", body);
	else
		snprintf(out, outlen, "(no reply body)");
	json_object_put(root);
}

/* Member key of o as a string (NULL when absent or null), int, bool. */
static const char *
jstr(struct json_object *o, const char *key)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int64_t
jint(struct json_object *o, const char *key)
{
	struct json_object	*v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return 0;
	return json_object_get_int64(v);
}

static int
jbool(struct json_object *o, const char *key)
{
	struct json_object	*v;

	return json_object_object_get_ex(o, key, &v) &&
	    json_object_is_type(v, json_type_boolean) &&
	    json_object_get_boolean(v);
}

/* The queue's text from the API's JSON (report_queue()'s json). */
static int
remote_queue_text(struct json_object *root, FILE *fp, char *err,
    size_t errlen)
{
	struct report_q_daemon	 d;
	struct report_q_row	*rows;
	struct json_object	*dm, *items, *it;
	size_t			 i, n;

	memset(&d, 0, sizeof d);
	if (!json_object_object_get_ex(root, "items", &items) ||
	    !json_object_is_type(items, json_type_array)) {
		util_seterr(err, errlen, "the reply has no \"items\" array");
		return -1;
	}
	if (json_object_object_get_ex(root, "daemon", &dm) &&
	    json_object_is_type(dm, json_type_object)) {
		d.have = 1;
		d.live = jbool(dm, "live");
		d.stopping = jbool(dm, "stopping");
		d.owner = jstr(dm, "owner");
		d.beat_age_s = jint(dm, "heartbeat_age_s");
	}
	report_queue_text_daemon(&d, fp);
	n = json_object_array_length(items);
	rows = xcalloc(n > 0 ? n : 1, sizeof *rows);
	for (i = 0; i < n; i++) {
		it = json_object_array_get_idx(items, i);
		rows[i].id = jint(it, "id");
		rows[i].kind = jstr(it, "kind");
		rows[i].priority = (int)jint(it, "priority");
		rows[i].state = jstr(it, "state");
		rows[i].who = jstr(it, "who");
		rows[i].age_s = jint(it, "age_s");
		rows[i].run_id = jint(it, "run");
		rows[i].bisect_id = jint(it, "bisect");
		rows[i].result = jstr(it, "result");
	}
	report_queue_text_items(rows, n, fp);
	free(rows);
	return 0;
}

int
report_queue_remote(const char *body, size_t len, enum report_format f,
    FILE *fp, char *err, size_t errlen)
{
	struct json_object	*root;
	int			 rc = 0;

	if (f != REPORT_TEXT && f != REPORT_JSON) {
		util_seterr(err, errlen, "queue: the formats are text and "
		    "json");
		return -1;
	}
	if ((root = remote_parse(body, len, err, errlen)) == NULL)
		return -1;
	if (f == REPORT_JSON) {
		if (fwrite(body, 1, len, fp) != len)
			rc = -1;
	} else
		rc = remote_queue_text(root, fp, err, errlen);
	json_object_put(root);
	if (rc == 0 && (fflush(fp) == EOF || ferror(fp))) {
		util_seterr(err, errlen, "queue: write failed: %s",
		    strerror(errno));
		rc = -1;
	}
	return rc;
}

int
report_list_remote(enum report_list what, const char *body, size_t len,
    const char *format, FILE *fp, char *err, size_t errlen)
{
	enum report_format	f;

	if (report_format_parse(format, &f) == -1)
		return -2;
	if (what != REPORT_LIST_QUEUE) {
		util_seterr(err, errlen, "runs: not available from a server "
		    "yet");
		return -1;
	}
	return report_queue_remote(body, len, f, fp, err, errlen);
}
