/*
 * cmd_report: `labrat report [RUN] [--baseline RUN | --no-baseline]
 * [--metric METRIC] [--fail-on-regression]`.  Exit 0 when the report was written
 * (regressions or not: the report is the product; CI reads the JUnit
 * failures or the JSON), 1 when the database or the run cannot be read,
 * 2 on bad usage.  --fail-on-regression makes a regression exit 1 too.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include "util.h"

/*
 * GET /api/v1/runs/{run}/report (run 0: the newest run the server lists
 * that is not a bisect step, as report_run() picks it) with the options
 * as parameters; the reply printed as received.  0 or -1 after saying.
 */
static int
report_remote(struct cmd_ctx *ctx, long long run, long long base,
    const char *metric, int *nreg)
{
	char	 b[24], path[64], *p;
	int64_t	 id = run;
	int	 rc;

	if (id == 0 && cmd_remote_newest(ctx, "/api/v1/runs?limit=500",
	    "runs", (const char *const[]){ "bisect", "health", NULL }, &id,
	    "no matrix run yet (only bisect steps and health checks, or "
	    "none)") == -1)
		return -1;
	snprintf(b, sizeof b, "%lld", base);
	snprintf(path, sizeof path, "/api/v1/runs/%lld/report", (long long)id);
	p = cmd_remote_path(path, (const char *const[]){
	    "baseline", base > 0 ? b : NULL,
	    "no_baseline", base == -1 ? "1" : NULL,
	    "metric", metric, "format", ctx->format, NULL });
	rc = cmd_remote_print(ctx, p, nreg);
	free(p);
	return rc;
}

static int
report_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "no-baseline", no_argument, NULL, 'n' },
		{ "fail-on-regression", no_argument, NULL, 'F' },
		{ "metric", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	enum report_format	 fmt = REPORT_TEXT;
	const char		*errstr, *metric = NULL;
	char			 err[1024];
	long long		 run = 0, base = 0;
	int			 ch, failreg = 0, nreg = 0, rc;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'b':
			if (util_strtonum(optarg, 1, INT64_MAX, &base,
			    &errstr) == -1)
				return cmd_usage_error(ctx, "--baseline %s: "
				    "run id is %s", optarg, errstr);
			break;
		case 'n':
			base = -1;
			break;
		case 'F':
			failreg = 1;
			break;
		case 'm':
			metric = optarg;
			break;
		default:
			return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 1, "RUN") == -1)
		return CMD_EXIT_USAGE;
	if (optind < ctx->argc && util_strtonum(ctx->argv[optind], 1,
	    INT64_MAX, &run, &errstr) == -1)
		return cmd_usage_error(ctx, "%s: run id is %s",
		    ctx->argv[optind], errstr);
	if (report_format_parse(ctx->format, &fmt) == -1)
		return cmd_usage_error(ctx, "--format %s: unknown to the "
		    "report module", ctx->format);
	if (ctx->server != NULL)
		rc = report_remote(ctx, run, base, metric, &nreg);
	else if ((rc = report_run(ctx->db, run, base, metric, fmt, stdout,
	    &nreg, err, sizeof err)) == -1)
		fprintf(stderr, "labrat report: %s\n", err);
	if (rc == -1)
		return CMD_EXIT_FAIL;
	return failreg && nreg > 0 ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.args = "[RUN] [--baseline RUN | --no-baseline] [--metric METRIC] "
	    "[--fail-on-regression]",
	.summary = "Judges one run (default: the newest that is not a "
	    "bisect step): regressions between knob combinations that "
	    "differ in one knob, and run over run against the newest earlier "
	    "done run on the same host pairs, never a bisect step. Exit 0 "
	    "when the report was written, regressions or not; 1 when the "
	    "database or the run cannot be read.",
	.options = (const struct cmd_option[]){
		{ "--baseline RUN", "Compare run over run against RUN." },
		{ "--no-baseline", "No run-over-run comparison." },
		{ "--metric METRIC", "The metric to judge (default: "
		    "throughput_bps), in its direction: a drop of cpu_sender "
		    "or retransmits is an improvement." },
		{ "--fail-on-regression", "Exit 1 when a regression was "
		    "found." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_REMOTE,
	.formats = "text|json|csv|junit",
	.exec = report_exec,
};
