/*
 * cmd_runs: `labrat runs [--limit N]`: the runs of the database, newest
 * first (id, kind, state, started, revision, links, jobs, plan, notes);
 * --format json for an array of objects.  Exit 0, 1 when the database
 * cannot be read, 2 on bad usage.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd.h"
#include "report.h"
#include "util.h"

static int
runs_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "limit", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	enum report_format	 fmt = REPORT_TEXT;
	const char		*errstr;
	char			 err[1024];
	long long		 limit = 0;
	int			 ch;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'l':
			if (util_strtonum(optarg, 1, INT32_MAX, &limit,
			    &errstr) == -1)
				return cmd_usage_error(ctx, "--limit %s: %s",
				    optarg, errstr);
			break;
		default:
			return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (report_format_parse(ctx->format, &fmt) == -1)
		return cmd_usage_error(ctx, "--format %s: unknown to the "
		    "report module", ctx->format);
	if (report_runs(ctx->db, (size_t)limit, fmt, stdout, err,
	    sizeof err) == -1) {
		fprintf(stderr, "labrat runs: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	return CMD_EXIT_OK;
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
	.flags = CMD_DB,
	.formats = "text|json",
	.exec = runs_exec,
};
