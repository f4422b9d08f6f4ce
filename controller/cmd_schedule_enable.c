/*
 * labrat schedule enable|disable NAME: store_sched_enable(), as POST
 * /api/v1/schedules/{name}/enable|disable.  A disabled schedule keeps its
 * nights and is listed; the daemon does not fire it (serve_sched.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "store.h"
#include "store_daemon.h"

static int
sched_enable(struct cmd_ctx *ctx, int on)
{
	struct store	*st;
	const char	*name, *verb = on ? "enable" : "disable";
	char		 err[512], path[128], *body = NULL;
	size_t		 len;
	int		 rc;

	optind = 1;
	if (cmd_getopt(ctx, (const struct option[]){ { NULL, 0, NULL, 0 } })
	    != -1 || cmd_positionals(ctx, optind, 1, 1, "NAME") == -1)
		return CMD_EXIT_USAGE;
	name = ctx->argv[optind];
	/* A name the store takes needs no encoding; another is no schedule. */
	if (!store_sched_name_ok(name))
		rc = 0;
	else if (ctx->server != NULL) {
		snprintf(path, sizeof path, "/api/v1/schedules/%s/%s", name,
		    verb);
		rc = cmd_remote_send(ctx, "POST", path, NULL, &body, &len);
		free(body);
		if (rc != 0)
			return CMD_EXIT_FAIL;	/* said why (404: no schedule) */
		rc = 1;
	} else if ((rc = store_open(ctx->db, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err)) == 0) {
		rc = store_sched_enable(st, name, on, err, sizeof err);
		store_close(st);
	}
	if (rc == -1)
		fprintf(stderr, "labrat schedule %s: %s\n", verb, err);
	else if (rc == 0)
		fprintf(stderr, "labrat schedule %s: no schedule \"%s\"\n",
		    verb, name);
	else
		printf("schedule %s %sd\n", name, verb);
	return rc == 1 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

static int sched_enable_exec(struct cmd_ctx *c) { return sched_enable(c, 1); }
static int sched_disable_exec(struct cmd_ctx *c) { return sched_enable(c, 0); }

const struct cmd_entry cmd_schedule_enable_entry = {
	.name = "schedule enable",
	.args = "NAME",
	.summary = "Lets the daemon fire a disabled schedule again, from its "
	    "next slot (slots that passed while it was disabled fire once, "
	    "at once, as after a daemon outage).",
	.flags = CMD_DB | CMD_REMOTE,
	.exec = sched_enable_exec,
};

const struct cmd_entry cmd_schedule_disable_entry = {
	.name = "schedule disable",
	.args = "NAME",
	.summary = "Stops the daemon firing a schedule without removing it: "
	    "its nights stay, `schedule list` shows it disabled.",
	.flags = CMD_DB | CMD_REMOTE,
	.exec = sched_disable_exec,
};
