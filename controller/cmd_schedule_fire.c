/*
 * labrat schedule fire NAME: one firing of a stored schedule in the
 * foreground, exactly as the daemon fires it (night_fire_named()), until
 * it ends or SIGINT/SIGTERM stops it at the next job boundary.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "night.h"
#include "run.h"
#include "util.h"

static volatile sig_atomic_t	fire_stop;

static void
fire_on_signal(int sig)
{
	(void)sig;
	fire_stop = 1;
}

static void
fire_say(const char *line, void *arg)
{
	(void)arg;
	fprintf(stderr, "labrat: %s\n", line);
}

static int
sched_fire_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "slot", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct night_request	 rq;
	struct config_errors	 errs;
	struct sigaction	 sa;
	char			 err[1024], owner[128];
	const char		*cfg = "/etc/labrat/daemon.json", *es;
	long long		 slot = 0;
	int64_t			 night = 0;
	enum night_status	 ns = NIGHT_FAILED;
	enum night_named_rc	 rc;
	int			 ch, exit;

	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'c': cfg = optarg; break;
		case 's':
			if (util_strtonum(optarg, 1, INT64_MAX, &slot,
			    &es) == -1)
				return cmd_usage_error(ctx, "--slot %s: %s",
				    optarg, es);
			break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 1, 1, "NAME") == -1)
		return CMD_EXIT_USAGE;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fire_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	run_owner_default(owner, sizeof owner);
	rq.db_path = ctx->db;
	rq.slot = slot;
	rq.owner = owner;
	rq.stop = &fire_stop;
	rq.say = fire_say;
	config_errors_init(&errs);
	rc = night_fire_named(&rq, cfg, ctx->argv[optind], &errs, &ns, &night,
	    err, sizeof err);
	exit = rc == NIGHT_NAMED_BAD ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
	if (rc == NIGHT_NAMED_BAD && errs.n > 0)
		cmd_config_errors(&errs);
	else if (rc != NIGHT_NAMED_OK)
		fprintf(stderr, "labrat schedule fire: %s\n", err);
	config_errors_free(&errs);
	if (rc != NIGHT_NAMED_OK)
		return exit;
	printf("night %lld of schedule %s (slot %lld): %s%s%s\n",
	    (long long)night, ctx->argv[optind], (long long)rq.slot,
	    night_status_name(ns), ns != NIGHT_DONE ? ": " : "",
	    ns != NIGHT_DONE ? err : "");
	return ns == NIGHT_DONE ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

const struct cmd_entry cmd_schedule_fire_entry = {
	.name = "schedule fire",
	.args = "NAME [--config FILE] [--slot MS]",
	.summary = "Fires a schedule now, in the foreground, exactly as the "
	    "daemon does (night_fire): the newest revision of its source, "
	    "installed on its links' hosts, the plan run, detection against "
	    "the last good night, a confirming re-run, regression records, "
	    "the bisect of a new regression and the notifications of the "
	    "daemon config.  --slot continues a firing that was cut short.",
	.options = (const struct cmd_option[]){
		{ "--config FILE", "The daemon config (default "
		    "/etc/labrat/daemon.json)." },
		{ "--slot MS", "The firing's slot (ms since the epoch; "
		    "default now): the same slot resumes its night." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.exec = sched_fire_exec,
};
