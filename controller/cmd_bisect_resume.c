/*
 * cmd_bisect_resume: `labrat bisect resume` (hunt_resume() through
 * bisect_cli_resume() of cmd_bisect.c, which prints its progress and
 * result) and `labrat bisect reset` (hunt_reset(); with --server the
 * server's daemon queues it and its worker calls hunt_reset()).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "hunt.h"
#include "log.h"
#include "report.h"
#include "util.h"

static int
cli_reset(const char *db, int64_t id)
{
	struct hunt_opts o = { .db_path = db };
	char	err[1024], was[16], done[2048];
	int64_t	rid;
	int	r;

	if ((r = hunt_reset(&o, id, &rid, was, sizeof was, done, sizeof done,
	    err, sizeof err)) == -1)
		log_warnx("%s", err);
	else if (r == 0)
		log_warnx("%s: no bisect %lld", db, (long long)id);
	else
		fprintf(stderr, "labrat: bisect %lld reset (was %s)%s%s\n",
		    (long long)rid, was, done[0] != '\0' ? "; " : "", done);
	return r == 1 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

/* POST /api/v1/bisects/{id}/reset (id 0: the newest the server lists):
 * the server's daemon queues the reset; this says which item does it. */
static int
reset_remote(struct cmd_ctx *ctx, int64_t id)
{
	char	path[80], rid[32], item[32], state[32], *reply;
	char	safe[3][64];
	size_t	len;

	if (id == 0 && cmd_remote_newest(ctx, "/api/v1/bisects", "bisects",
	    NULL, &id, "no bisects yet") == -1)
		return CMD_EXIT_FAIL;
	snprintf(path, sizeof path, "/api/v1/bisects/%lld/reset",
	    (long long)id);
	if (cmd_remote_send(ctx, "POST", path, "{}", &reply, &len) != 0)
		return CMD_EXIT_FAIL;
	if (report_remote_member(reply, len, "bisect", rid, sizeof rid) != 1)
		snprintf(rid, sizeof rid, "%lld", (long long)id);
	if (report_remote_member(reply, len, "queue", item, sizeof item) != 1)
		snprintf(item, sizeof item, "?");
	if (report_remote_member(reply, len, "state", state, sizeof state) !=
	    1)
		snprintf(state, sizeof state, "?");
	free(reply);
	fprintf(stderr, "labrat: bisect %s reset: queue item %s (%s; `labrat "
	    "queue` shows how it ends)\n", util_term_safe(safe[0],
	    sizeof safe[0], rid, (size_t)-1), util_term_safe(safe[1],
	    sizeof safe[1], item, (size_t)-1), util_term_safe(safe[2],
	    sizeof safe[2], state, (size_t)-1));
	return CMD_EXIT_OK;
}

static int
bisect_resume(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "bisect", required_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*errstr;
	long long	 v;
	int64_t		 id = 0;
	int		 ch, quiet = 0, force = 0;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch == 'q')
			quiet = 1;
		else if (ch == 'f')
			force = 1;
		else if (ch != 'n')
			return CMD_EXIT_USAGE;
		else if (util_strtonum(optarg, 1, INT64_MAX, &v, &errstr) ==
		    -1)
			return cmd_usage_error(ctx, "--bisect %s: %s", optarg,
			    errstr);
		else
			id = v;
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	return bisect_cli_resume(ctx->db, id, strcmp(ctx->format, "json") ==
	    0, quiet, force);
}

static int
bisect_reset_exec(struct cmd_ctx *ctx)
{
	int64_t	id;

	if (cmd_bisect_opts(ctx, &id, NULL) == -1)
		return CMD_EXIT_USAGE;
	if (ctx->server != NULL)
		return reset_remote(ctx, id);
	return cli_reset(ctx->db, id);
}

const struct cmd_entry cmd_bisect_resume_entry = {
	.name = "bisect resume",
	.args = "[--bisect ID] [--quiet] [--force]",
	.summary = "Continues a bisect whose controller died or stopped "
	    "(interrupted), from its stored steps; a step cut short is "
	    "measured again. Refuses a bisect whose controller still runs.",
	.options = (const struct cmd_option[]){ CMD_BISECT_ID_OPT,
		{ "--quiet", "No progress lines." },
		{ "--force", "Take the bisect over when this host cannot tell "
		    "whether its controller still runs (it is on another host, "
		    "or was recorded without its start time)." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.formats = "text|json",
	.exec = bisect_resume,
};

const struct cmd_entry cmd_bisect_reset_entry = {
	.name = "bisect reset",
	.args = "[--bisect ID]",
	.summary = "Ends a bisect: puts the hosts of a running one back on "
	    "the revision they ran before it, and marks it reset.",
	.options = (const struct cmd_option[]){ CMD_BISECT_ID_OPT,
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH | CMD_REMOTE,
	.exec = bisect_reset_exec,
};
