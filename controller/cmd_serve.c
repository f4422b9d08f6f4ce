/*
 * labrat serve: the daemon in the foreground (serve.h).  Argument checks
 * and the log set-up only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "serve.h"

static int
serve_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "log-level", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	struct serve_opts	 o;
	enum log_level		 lvl = LOG_LEVEL_INFO;
	char			 err[1024];
	int			 ch, rc;

	memset(&o, 0, sizeof o);
	o.db_path = ctx->db;
	if (ctx->verbose > 0)
		lvl = LOG_LEVEL_DEBUG;
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'c': o.config_path = optarg; break;
		case 'l':
			if (log_level_parse(optarg, &lvl) == -1)
				return cmd_usage_error(ctx, "--log-level %s: "
				    "not one of error, warn, info, debug",
				    optarg);
			break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	log_init(lvl, "labrat serve");
	/* Under systemd, journald dates the lines and reads "<N>" levels. */
	if (getenv("JOURNAL_STREAM") != NULL)
		log_set_style(1, 0);
	else
		log_set_style(0, 1);
	rc = serve_run(&o, err, sizeof err);
	if (rc != 0)
		log_error("%s", err);
	return rc == 0 ? CMD_EXIT_OK : rc == 2 ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
}

const struct cmd_entry cmd_serve_entry = {
	.name = "serve",
	.args = "[--config FILE] [--log-level error|warn|info|debug]",
	.summary = "Runs the lab daemon in the foreground: fires the stored "
	    "schedules, runs the queue (labrat run|bisect start --enqueue, "
	    "the nights), writes a heartbeat every 5 s (a second daemon on "
	    "the same database is refused), logs to stderr. systemd "
	    "Type=notify: READY=1 once the database is open and the daemon "
	    "registered, STOPPING=1 on the way out. SIGHUP reloads the "
	    "config (a bad one is logged and the old one kept); SIGTERM or "
	    "SIGINT stop it: the running job ends at its boundary with its "
	    "hosts restored, its item goes back to the queue and resumes "
	    "where it stopped when a daemon starts again; exit 0.",
	.options = (const struct cmd_option[]){
		{ "--config FILE", "The daemon config (schemas/"
		    "daemon.schema.json); default: no revision sources, no "
		    "notifications." },
		{ "--log-level L", "error, warn, info (default) or debug." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.exec = serve_exec,
};
