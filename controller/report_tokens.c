/*
 * report_tokens: `labrat token list`: the API's tokens as a table or JSON
 * (name, id, read-only, created, last used, revoked), never their salt or
 * hash.  See report.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "report_int.h"
#include "store_daemon.h"
#include "util.h"

static void
text_tokens(const struct store_token *v, size_t n, FILE *fp)
{
	struct report_table	t;
	char			id[24], c[32], u[32], r[32];
	size_t			i;

	if (n == 0) {
		fprintf(fp, "no tokens (labrat token add NAME makes one)\n");
		return;
	}
	report_table_init(&t, 6, "lrllll");
	report_table_row(&t, "name", "id", "access", "created", "last used",
	    "revoked");
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof id, "%lld", (long long)v[i].id);
		report_table_row(&t, v[i].name, id, v[i].read_only ?
		    "read-only" : "read-write",
		    report_when(v[i].created_ms, 0, c, sizeof c),
		    v[i].last_used_ms > 0 ? report_when(v[i].last_used_ms, 0,
		    u, sizeof u) : "never",
		    v[i].revoked_ms > 0 ? report_when(v[i].revoked_ms, 0, r,
		    sizeof r) : "-");
	}
	report_table_print(&t, "", fp);
	report_table_free(&t);
}

static int
json_tokens(const struct store_token *v, size_t n, FILE *fp, char *err,
    size_t errlen)
{
	struct json_writer	*w = json_writer_new(fp, JSON_PRETTY);
	size_t			 i;

	json_begin_obj(w);
	json_key(w, "tokens");
	json_begin_arr(w);
	for (i = 0; i < n; i++) {
		json_begin_obj(w);
		json_kv_str(w, "name", v[i].name);
		json_kv_int(w, "id", v[i].id);
		json_kv_bool(w, "read_only", v[i].read_only);
		report_json_when(w, "created", v[i].created_ms);
		report_json_when(w, "last_used", v[i].last_used_ms);
		report_json_when(w, "revoked", v[i].revoked_ms);
		json_end_obj(w);
	}
	json_end_arr(w);
	json_end_obj(w);
	return json_writer_free(w, err, errlen);
}

int
report_tokens(const char *db_path, enum report_format f, FILE *fp,
    char *err, size_t errlen)
{
	struct store		*st = NULL;
	struct store_token	*v = NULL;
	size_t			 n = 0;
	int			 rc;

	if (f != REPORT_TEXT && f != REPORT_JSON) {
		util_seterr(err, errlen, "tokens: the formats are text and "
		    "json");
		return -1;
	}
	if (store_open(db_path, STORE_OPEN_READONLY, &st, err, errlen) == -1)
		return -1;
	rc = store_token_list(st, &v, &n, err, errlen);
	store_close(st);
	if (rc == -1)
		return -1;
	if (f == REPORT_JSON)
		rc = json_tokens(v, n, fp, err, errlen);
	else
		text_tokens(v, n, fp);
	free(v);
	return rc;
}
