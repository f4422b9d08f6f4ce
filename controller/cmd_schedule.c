/*
 * labrat schedule add|list|show|rm: the daemon's schedules in the
 * database; `labrat serve` fires them (cmd_schedule_fire.c: in the
 * foreground).  add checks (the name and the options given too) and
 * stores through night_schedule_add(), as POST /api/v1/schedules does;
 * list and show print through report_schedules(), rm is store_sched_rm()
 * as DELETE /api/v1/schedules/{name}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "night.h"
#include "report.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

/* --server: POST /api/v1/schedules; the paths as given (absolute). */
static int
sched_add_remote(struct cmd_ctx *ctx, const struct store_sched *s)
{
	char	*json, *reply = NULL, err[256];
	size_t	 len;
	int	 rc;

	if (cmd_remote_abs(ctx, "--inventory", s->inventory_path) == -1 ||
	    cmd_remote_abs(ctx, "--plan", s->plan_path) == -1)
		return CMD_EXIT_USAGE;
	if ((json = report_schedule_body(s, err, sizeof err)) == NULL) {
		fprintf(stderr, "labrat schedule add: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	rc = cmd_remote_send(ctx, "POST", "/api/v1/schedules", json, &reply,
	    &len);
	free(json);
	free(reply);
	if (rc != 0)
		return rc == 400 ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
	printf("schedule %s added\n", s->name);
	return CMD_EXIT_OK;
}

static int
sched_add_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "cron", required_argument, NULL, 'c' },
		{ "tz", required_argument, NULL, 'z' },
		{ "inventory", required_argument, NULL, 'i' },
		{ "plan", required_argument, NULL, 'p' },
		{ "links", required_argument, NULL, 'l' },
		{ "revisions", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct store_sched	 s;
	struct config_errors	 errs;
	enum night_named_rc	 rc;
	char			 err[1024];
	int			 ch, exit;

	memset(&s, 0, sizeof s);
	s.tz = "UTC";
	s.links = "";
	s.enabled = 1;
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'c': s.cron = optarg; break;
		case 'z': s.tz = optarg; break;
		case 'i': s.inventory_path = optarg; break;
		case 'p': s.plan_path = optarg; break;
		case 'l': s.links = optarg; break;
		case 'r': s.revisions = optarg; break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 1, 1, "NAME") == -1)
		return CMD_EXIT_USAGE;
	s.name = ctx->argv[optind];
	if (ctx->server != NULL) {
		/* The usage errors night_schedule_add() gives locally. */
		if (night_schedule_given(&s, err, sizeof err) == -1)
			return cmd_usage_error(ctx, "%s", err);
		return sched_add_remote(ctx, &s);
	}
	config_errors_init(&errs);
	rc = night_schedule_add(ctx->db, &s, NULL, &errs, err, sizeof err);
	exit = CMD_EXIT_OK;
	if (rc == NIGHT_NAMED_BAD && errs.n > 0) {
		cmd_config_errors(&errs);
		exit = CMD_EXIT_USAGE;
	} else if (rc == NIGHT_NAMED_BAD)
		exit = cmd_usage_error(ctx, "%s", err);
	else if (rc == NIGHT_NAMED_FAIL) {
		fprintf(stderr, "labrat schedule add: %s\n", err);
		exit = CMD_EXIT_FAIL;	/* a duplicate too, as a missing one */
	} else
		printf("schedule %s added\n", s.name);
	config_errors_free(&errs);
	return exit;
}

/* list, show (GET) and rm (DELETE) from the daemon's API. */
static int
sched_remote(struct cmd_ctx *ctx, int which, const char *name)
{
	char	 seg[96], *path, *body = NULL;
	size_t	 len;
	int	 rc;

	/* A name the store takes needs no encoding; another is no schedule. */
	if (name != NULL && !store_sched_name_ok(name)) {
		fprintf(stderr, "labrat schedule %s: no schedule \"%s\"\n",
		    which == 's' ? "show" : "rm", name);
		return CMD_EXIT_FAIL;
	}
	snprintf(seg, sizeof seg, "/api/v1/schedules%s%s", name != NULL ?
	    "/" : "", name != NULL ? name : "");
	path = cmd_remote_path(seg, (const char *const[]){ "format",
	    which != 'r' ? ctx->format : NULL, NULL });
	if (which != 'r')
		rc = cmd_remote_print(ctx, path, NULL);
	else if ((rc = cmd_remote_send(ctx, "DELETE", path, NULL, &body,
	    &len)) == 0)
		printf("schedule %s removed\n", name);
	free(body);
	free(path);
	return rc == 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

/* list, show, rm: which = 'l', 's', 'r'. */
static int
sched_query(struct cmd_ctx *ctx, int which)
{
	struct store		*st;
	enum report_format	 f = REPORT_TEXT;
	const char		*name;
	char			 err[512];
	int			 rc;

	optind = 1;
	if (cmd_getopt(ctx, (const struct option[]){ { NULL, 0, NULL, 0 } })
	    != -1)
		return CMD_EXIT_USAGE;
	if (cmd_positionals(ctx, optind, which == 'l' ? 0 : 1,
	    which == 'l' ? 0 : 1, which == 'l' ? "" : "NAME") == -1)
		return CMD_EXIT_USAGE;
	name = which == 'l' ? NULL : ctx->argv[optind];
	if (ctx->server != NULL)
		return sched_remote(ctx, which, name);
	if (which != 'r') {
		if (strcmp(ctx->format, "json") == 0)
			f = REPORT_JSON;
		rc = report_schedules(ctx->db, name, f, stdout, err,
		    sizeof err);
	} else if ((rc = store_open(ctx->db, STORE_OPEN_CREATE |
	    STORE_OPEN_MIGRATE, &st, err, sizeof err)) == 0) {
		rc = store_sched_rm(st, name, err, sizeof err);
		store_close(st);
		rc = rc == 1 ? 0 : rc == 0 ? 1 : -1;
	}
	if (rc == -1) {
		fprintf(stderr, "labrat schedule: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	if (rc == 1) {
		fprintf(stderr, "labrat schedule %s: no schedule \"%s\"\n",
		    which == 's' ? "show" : "rm", name);
		return CMD_EXIT_FAIL;
	}
	if (which == 'r')
		printf("schedule %s removed\n", name);
	return CMD_EXIT_OK;
}

static int sched_list_exec(struct cmd_ctx *c) { return sched_query(c, 'l'); }
static int sched_show_exec(struct cmd_ctx *c) { return sched_query(c, 's'); }
static int sched_rm_exec(struct cmd_ctx *c) { return sched_query(c, 'r'); }

const struct cmd_entry cmd_schedule_add_entry = {
	.name = "schedule add",
	.args = "NAME --cron EXPR [--tz ZONE] --inventory FILE --plan FILE "
	    "[--links L1,L2] [--revisions SOURCE]",
	.summary = "Stores a schedule for the daemon (`labrat serve`): a cron "
	    "expression read in a time zone (default UTC), the inventory, the "
	    "plan (its text is stored as read), the plan links to run "
	    "(default all) and a revision source.  The expression, the zone, "
	    "the inventory and the plan are checked; key files are not "
	    "(the daemon's host may hold them).",
	.options = (const struct cmd_option[]){
		{ "--cron EXPR", "5-field cron expression or @daily etc." },
		{ "--tz ZONE", "zoneinfo name, e.g. Europe/Berlin (default "
		    "UTC)." },
		{ "--inventory FILE", "The inventory." },
		{ "--plan FILE", "The plan." },
		{ "--links L1,L2", "Only these links of the plan." },
		{ "--revisions SOURCE", "The revision source, as bisect's." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_REMOTE,
	.exec = sched_add_exec,
};

const struct cmd_entry cmd_schedule_list_entry = {
	.name = "schedule list",
	.args = "",
	.summary = "Lists the schedules: name, cron expression, time zone, "
	    "next firing in UTC and in the zone, last firing.",
	.flags = CMD_DB | CMD_REMOTE,
	.formats = "text|json",
	.exec = sched_list_exec,
};

const struct cmd_entry cmd_schedule_show_entry = {
	.name = "schedule show",
	.args = "NAME",
	.summary = "Shows one schedule (JSON includes the stored plan text).",
	.flags = CMD_DB | CMD_REMOTE,
	.formats = "text|json",
	.exec = sched_show_exec,
};

const struct cmd_entry cmd_schedule_rm_entry = {
	.name = "schedule rm",
	.args = "NAME",
	.summary = "Removes a schedule.",
	.flags = CMD_DB | CMD_REMOTE,
	.exec = sched_rm_exec,
};
