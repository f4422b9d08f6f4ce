/*
 * report_remote: what the remote CLI reads out of the daemon's JSON (the
 * API serves every format the commands print, written by the same
 * formatter, so the output itself passes through): the text of an API
 * error reply, the newest id of a list.  Parsed with json-c after
 * json_check_raw.  See report.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "report.h"
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

/* Is o's "kind" one of skip (NULL-terminated, may be NULL)? */
static int
kind_skipped(struct json_object *o, const char *const *skip)
{
	struct json_object	*v;
	size_t			 i;

	if (skip == NULL || !json_object_object_get_ex(o, "kind", &v) ||
	    !json_object_is_type(v, json_type_string))
		return 0;
	for (i = 0; skip[i] != NULL; i++)
		if (strcmp(json_object_get_string(v), skip[i]) == 0)
			return 1;
	return 0;
}

int
report_remote_first_id(const char *body, size_t len, const char *key,
    const char *const *skip, int64_t *id, char *err, size_t errlen)
{
	struct json_object	*root, *arr, *it, *v;
	size_t			 i, n;
	int			 rc = 0;

	*id = 0;
	if ((root = remote_parse(body, len, err, errlen)) == NULL)
		return -1;
	if (!json_object_object_get_ex(root, key, &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		util_seterr(err, errlen, "the reply has no \"%s\" array", key);
		json_object_put(root);
		return -1;
	}
	n = json_object_array_length(arr);
	for (i = 0; i < n && rc == 0; i++) {
		it = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(it, json_type_object) ||
		    !json_object_object_get_ex(it, "id", &v) ||
		    !json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) <= 0) {
			util_seterr(err, errlen, "%s[%zu].id: not a positive "
			    "integer", key, i);
			rc = -1;
		} else if (!kind_skipped(it, skip)) {
			*id = json_object_get_int64(v);
			rc = 1;
		}
	}
	json_object_put(root);
	return rc;
}

int
report_remote_member(const char *body, size_t len, const char *key,
    char *out, size_t outlen)
{
	struct json_object	*root, *v;
	char			 err[64];
	int			 rc = 0;

	out[0] = '\0';
	if ((root = remote_parse(body, len, err, sizeof err)) == NULL)
		return -1;
	if (json_object_object_get_ex(root, key, &v) &&
	    (json_object_is_type(v, json_type_string) ||
	    json_object_is_type(v, json_type_int))) {
		snprintf(out, outlen, "%s", json_object_get_string(v));
		rc = 1;
	}
	json_object_put(root);
	return rc;
}
