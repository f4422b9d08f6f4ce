/*
 * cmd_compare: `labrat compare RUN_A RUN_B [--link LINK] [--knobs KEY]
 * [--metric METRIC] [--width N] [--format text|json]`: ministat-style
 * (report_compare()), RUN_A the baseline.  Exit 0
 * when no series regressed, 1 when at least one did, 2 on bad usage or
 * when the runs cannot be read or have nothing in common.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include "util.h"

/* GET /api/v1/compare with the same options; printed as received. */
static int
compare_remote(struct cmd_ctx *ctx, long long a, long long b,
    const struct report_compare_opts *o, int *nreg)
{
	char	sa[24], sb[24], sw[24], *p;
	int	rc;

	snprintf(sa, sizeof sa, "%lld", a);
	snprintf(sb, sizeof sb, "%lld", b);
	snprintf(sw, sizeof sw, "%d", o->width);
	p = cmd_remote_path("/api/v1/compare", (const char *const[]){
	    "a", sa, "b", sb, "link", o->link, "knobs", o->knobs,
	    "metric", o->metric, "width", o->width > 0 ? sw : NULL,
	    "format", ctx->format, NULL });
	rc = cmd_remote_print(ctx, p, nreg);
	free(p);
	return rc;
}

static int
compare_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "link", required_argument, NULL, 'l' },
		{ "knobs", required_argument, NULL, 'k' },
		{ "metric", required_argument, NULL, 'm' },
		{ "width", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_compare_opts	 o;
	const char			*errstr;
	char				 err[1024], **argv = ctx->argv;
	long long			 a, b, w;
	int				 ch, nreg = 0, rc;

	memset(&o, 0, sizeof o);
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'l':
			o.link = optarg;
			break;
		case 'k':
			o.knobs = optarg;
			break;
		case 'm':
			o.metric = optarg;
			break;
		case 'w':
			if (util_strtonum(optarg, 20, 400, &w, &errstr) == -1)
				return cmd_usage_error(ctx, "--width %s: %s",
				    optarg, errstr);
			o.width = (int)w;
			break;
		default:
			return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 2, 2, "RUN_A RUN_B") == -1)
		return CMD_EXIT_USAGE;
	if (strcmp(ctx->format, "json") == 0)
		o.format = REPORT_JSON;
	if (util_strtonum(argv[optind], 1, INT64_MAX, &a, &errstr) == -1)
		return cmd_usage_error(ctx, "RUN_A %s: run id is %s",
		    argv[optind], errstr);
	if (util_strtonum(argv[optind + 1], 1, INT64_MAX, &b, &errstr) == -1)
		return cmd_usage_error(ctx, "RUN_B %s: run id is %s",
		    argv[optind + 1], errstr);
	if (ctx->server != NULL)
		rc = compare_remote(ctx, a, b, &o, &nreg);
	else if ((rc = report_compare(ctx->db, a, b, &o, stdout, &nreg, err,
	    sizeof err)) == -1)
		fprintf(stderr, "labrat compare: %s\n", err);
	if (rc == -1)
		return CMD_EXIT_USAGE;
	return nreg > 0 ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.args = "RUN_A RUN_B [--link LINK] [--knobs KEY] [--metric METRIC] "
	    "[--width N]",
	.summary = "Puts RUN_B against RUN_A (the baseline), ministat-style, "
	    "series by series. Exit 0 when no series regressed, 1 when one "
	    "did, 2 when the runs cannot be read or have nothing in common.",
	.options = (const struct cmd_option[]){
		{ "--link LINK", "Only the series of this link." },
		{ "--knobs KEY", "Only the series of this knob combination "
		    "(its key, as the report prints it)." },
		{ "--metric METRIC", "The metric to compare (default: "
		    "throughput_bps), in its direction: a drop of cpu_sender "
		    "or retransmits is an improvement." },
		{ "--width N", "Width of the plot, 20-400 columns (default: "
		    "74)." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_REMOTE,
	.formats = "text|json",
	.exec = compare_exec,
};
