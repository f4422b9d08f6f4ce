/*
 * labrat regressions: the regression records of the nightly loop
 * (store.h "nights and regressions"), oldest first: the key (link, knobs,
 * workload, metric, direction), the state, the nights that showed it,
 * the change, the bisect and its culprit or range, whether the last
 * state was notified.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "json.h"
#include "store.h"
#include "store_daemon.h"

static void
regr_text(const struct store_regr *v, size_t n)
{
	size_t	i;

	if (n == 0) {
		printf("no regressions\n");
		return;
	}
	printf("%-4s %-9s %-8s %-18s %-6s %8s %-9s %-7s %s\n", "ID", "STATE",
	    "LINK", "KNOBS", "DIR", "CHANGE", "NIGHTS", "BISECT", "RESULT");
	for (i = 0; i < n; i++) {
		const struct store_regr	*r = &v[i];
		char			 nights[48], res[160], bis[24];

		snprintf(nights, sizeof nights, "%lld-%lld",
		    (long long)r->first_night, (long long)r->last_night);
		snprintf(bis, sizeof bis, r->bisect_id != 0 ? "%lld" : "-",
		    (long long)r->bisect_id);
		if (r->culprit != NULL)
			snprintf(res, sizeof res, "culprit %s", r->culprit);
		else if (r->range_first != NULL)
			snprintf(res, sizeof res, "range %s..%s",
			    r->range_first, r->range_last);
		else
			snprintf(res, sizeof res, "%s..%s",
			    r->good_rev != NULL ? r->good_rev : "?",
			    r->bad_rev != NULL ? r->bad_rev : "?");
		printf("%-4lld %-9s %-8s %-18s %-6s %+7.1f%% %-9s %-7s %s%s\n",
		    (long long)r->id, store_regr_state_name(r->state), r->link,
		    r->knobs, r->direction, 100 * r->change, nights, bis, res,
		    r->notified == (int)r->state ? " (notified)" : "");
		printf("     %s %s\n", r->workload, r->metric);
	}
}

static void
regr_kv(struct json_writer *w, const char *k, const char *s)
{
	if (s != NULL)
		json_kv_str(w, k, s);
	else
		json_kv_null(w, k);
}

static int
regr_json(const struct store_regr *v, size_t n)
{
	struct json_writer	*w = json_writer_new(stdout, JSON_PRETTY);
	char			 err[256];
	size_t			 i;

	json_begin_arr(w);
	for (i = 0; i < n; i++) {
		const struct store_regr *r = &v[i];

		json_begin_obj(w);
		json_kv_int(w, "id", r->id);
		json_kv_str(w, "state", store_regr_state_name(r->state));
		json_kv_str(w, "link", r->link);
		json_kv_str(w, "knobs", r->knobs);
		json_kv_str(w, "workload", r->workload);
		json_kv_str(w, "metric", r->metric);
		json_kv_str(w, "direction", r->direction);
		json_kv_num(w, "change", r->change);
		json_kv_int(w, "schedule_id", r->schedule_id);
		json_kv_int(w, "first_night", r->first_night);
		json_kv_int(w, "last_night", r->last_night);
		regr_kv(w, "good_revision", r->good_rev);
		regr_kv(w, "bad_revision", r->bad_rev);
		if (r->bisect_id != 0)
			json_kv_int(w, "bisect_id", r->bisect_id);
		else
			json_kv_null(w, "bisect_id");
		regr_kv(w, "culprit", r->culprit);
		regr_kv(w, "range_first", r->range_first);
		regr_kv(w, "range_last", r->range_last);
		regr_kv(w, "reason", r->reason);
		regr_kv(w, "notified", r->notified >= 0 ?
		    store_regr_state_name(r->notified) : NULL);
		json_end_obj(w);
	}
	json_end_arr(w);
	fputc('\n', stdout);
	if (json_writer_free(w, err, sizeof err) == -1) {
		fprintf(stderr, "labrat regressions: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	return CMD_EXIT_OK;
}

static int
regressions_exec(struct cmd_ctx *ctx)
{
	struct store		*st;
	struct store_regr	*v = NULL;
	size_t			 n = 0;
	char			 err[512];
	int			 rc;

	optind = 1;
	if (cmd_getopt(ctx, (const struct option[]){ { NULL, 0, NULL, 0 } })
	    != -1)
		return CMD_EXIT_USAGE;
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (store_open(ctx->db, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1) {
		fprintf(stderr, "labrat regressions: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	rc = store_regr_list(st, 0, &v, &n, err, sizeof err);
	store_close(st);
	if (rc == -1) {
		fprintf(stderr, "labrat regressions: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	if (strcmp(ctx->format, "json") == 0)
		rc = regr_json(v, n);
	else {
		regr_text(v, n);
		rc = CMD_EXIT_OK;
	}
	store_regrs_free(v, n);
	return rc;
}

const struct cmd_entry cmd_regressions_entry = {
	.name = "regressions",
	.args = "",
	.summary = "Lists the regression records of the nightly loop, oldest "
	    "first: link, knobs, workload, metric and direction, the state "
	    "(open, confirmed, bisecting, culprit, range, failed, fixed), "
	    "the nights that showed it, the change against the last good "
	    "night, the bisect and its culprit or range, and whether its "
	    "state was notified.",
	.flags = CMD_DB,
	.formats = "text|json",
	.exec = regressions_exec,
};
