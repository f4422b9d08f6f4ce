/*
 * cmd_runs: `labrat runs [--limit N]`: the runs of the database, newest
 * first (id, kind, state, started, revision, links, jobs, plan, notes);
 * --format json for {"runs": [objects], "next_after"}.  Exit 0, 1 when the database
 * cannot be read, 2 on bad usage.  cmd_list_exec() is also `labrat
 * queue`'s: both are report_list().
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "report.h"
#include "util.h"

/* The same listing from the daemon's API (--server), in ctx's format. */
static int
list_remote(struct cmd_ctx *ctx, enum report_list what, long long limit)
{
	char	path[96];

	/* The API takes no 0 (= all): a huge limit it cuts to its cap. */
	snprintf(path, sizeof path, "/api/v1/%s?limit=%lld&format=%s",
	    what == REPORT_LIST_QUEUE ? "queue" : "runs", limit > 0 ? limit :
	    1000000000LL, ctx->format);
	return cmd_remote_print(ctx, path, NULL) == 0 ? CMD_EXIT_OK :
	    CMD_EXIT_FAIL;
}

int
cmd_list_exec(struct cmd_ctx *ctx, enum report_list what, long long limit,
    long long min)
{
	static const struct option longopts[] = {
		{ "limit", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*errstr;
	char		 err[1024];
	int		 ch, rc;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch != 'l')
			return CMD_EXIT_USAGE;
		if (util_strtonum(optarg, min, INT32_MAX, &limit, &errstr) ==
		    -1)
			return cmd_usage_error(ctx, "--limit %s: %s", optarg,
			    errstr);
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (ctx->server != NULL)
		return list_remote(ctx, what, limit);
	rc = report_list(ctx->db, what, (size_t)limit, ctx->format, stdout,
	    err, sizeof err);
	if (rc == -2)
		return cmd_usage_error(ctx, "--format %s: unknown to the "
		    "report module", ctx->format);
	if (rc == -1) {
		fprintf(stderr, "labrat %s: %s\n", ctx->entry->name, err);
		return CMD_EXIT_FAIL;
	}
	return CMD_EXIT_OK;
}

/* All runs unless --limit N (N >= 1). */
static int
runs_exec(struct cmd_ctx *ctx)
{
	return cmd_list_exec(ctx, REPORT_LIST_RUNS, 0, 1);
}

const struct cmd_entry cmd_runs_entry = {
	.name = "runs",
	.args = "[--limit N]",
	.summary = "Lists the runs of the database, newest first: id, kind "
	    "(manual, nightly, demo, bisect), state (running, done, failed, "
	    "cancelled, or interrupted when the controller that ran it is "
	    "gone), when it started, the kernel revisions its hosts ran, its "
	    "links, jobs done of all, its plan, and the notes given with "
	    "`labrat run --note`.",
	.options = (const struct cmd_option[]){
		{ "--limit N", "Only the N newest runs." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_REMOTE,
	.formats = "text|json",
	.exec = runs_exec,
};
