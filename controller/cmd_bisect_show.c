/*
 * cmd_bisect_show: `labrat bisect status|log` and the result of start and
 * resume, written by the hunt module (hunt_show()) from the store alone.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "hunt.h"
#include "log.h"
#include "util.h"

int
bisect_cli_show(const char *db, int64_t id, int what, int json, FILE *fp)
{
	char	err[4096];
	int	rc;

	rc = hunt_show(db, id, (enum hunt_show)what, json, fp, err,
	    sizeof err);
	if (rc != 0)
		log_warnx("%s", err);
	return rc == -1 ? -1 : 0;
}

/* The options of status, log, resume and reset: --bisect ID [--quiet]. */
int
cmd_bisect_opts(struct cmd_ctx *ctx, int64_t *id, int *quiet)
{
	/* longopts + 1 when there is no --quiet. */
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "bisect", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*errstr;
	long long	 v;
	int		 ch;

	*id = 0;
	optind = 1;
	while ((ch = cmd_getopt(ctx, quiet != NULL ? longopts :
	    longopts + 1)) != -1) {
		if (ch == 'q')
			*quiet = 1;
		else if (ch != 'n')
			return -1;
		else if (util_strtonum(optarg, 1, INT64_MAX, &v, &errstr) ==
		    -1) {
			cmd_usage_error(ctx, "--bisect %s: %s", optarg, errstr);
			return -1;
		} else
			*id = v;
	}
	return cmd_positionals(ctx, optind, 0, 0, "");
}

/* GET /api/v1/bisects/{id}[/log] (id 0: the newest the server lists). */
static int
bisect_remote(struct cmd_ctx *ctx, int64_t id, int log)
{
	char	path[96];

	if (id == 0 && cmd_remote_newest(ctx, "/api/v1/bisects", "bisects",
	    NULL, &id, "no bisects yet") == -1)
		return CMD_EXIT_FAIL;
	snprintf(path, sizeof path, "/api/v1/bisects/%lld%s?format=%s",
	    (long long)id, log ? "/log" : "", ctx->format);
	return cmd_remote_print(ctx, path, NULL) == 0 ? CMD_EXIT_OK :
	    CMD_EXIT_FAIL;
}

static int
bisect_status(struct cmd_ctx *ctx)
{
	int64_t	id;
	int	what = strcmp(ctx->entry->name, "bisect log") == 0 ? 2 : 1;

	if (cmd_bisect_opts(ctx, &id, NULL) == -1)
		return CMD_EXIT_USAGE;
	if (ctx->server != NULL)
		return bisect_remote(ctx, id, what == 2);
	return bisect_cli_show(ctx->db, id, what, strcmp(ctx->format,
	    "json") == 0, stdout) == 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

const struct cmd_entry cmd_bisect_status_entry = {
	.name = "bisect status",
	.args = "[--bisect ID]",
	.summary = "Shows a bisect's state, its range and each step so far.",
	.options = (const struct cmd_option[]){ CMD_BISECT_ID_OPT,
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_REMOTE,
	.formats = "text|json",
	.exec = bisect_status,
};

const struct cmd_entry cmd_bisect_log_entry = {
	.name = "bisect log",
	.args = "[--bisect ID]",
	.summary = "Prints a bisect's steps as a log (good|bad|skip REV "
	    "lines with their evidence), which `bisect start --replay` "
	    "takes.",
	.options = (const struct cmd_option[]){ CMD_BISECT_ID_OPT,
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_REMOTE,
	.formats = "text|json",
	.exec = bisect_status,
};
