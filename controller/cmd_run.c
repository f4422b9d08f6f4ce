/*
 * cmd_run: `labrat run --inventory F --plan F [--resume RUN]`: its
 * arguments, then one call into the run module (create or resume, drive,
 * finish) through cmd_run_drive() (cmd_run_drive.c: the progress lines,
 * SIGINT/SIGTERM as its stop flag, the summary), or run_enqueue().
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "json.h"
#include "log.h"
#include "run.h"
#include "util.h"

/* --enqueue: checked as a new run, then queued for the daemon. */
static int
run_enqueue_cli(const struct run_request *rq, int json)
{
	struct config_errors	errs;
	char			err[2048];
	int64_t			item;
	enum run_status		rc;

	config_errors_init(&errs);
	rc = run_enqueue(rq->db_path, rq->inventory, rq->plan, rq->note, &item,
	    &errs, err, sizeof err);
	if (rc == RUN_CONFIG)
		cmd_config_errors(&errs);
	else if (rc != RUN_OK)
		log_warnx("%s", err);
	config_errors_free(&errs);
	if (rc != RUN_OK)
		return rc == RUN_CONFIG ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
	return cmd_queued("run", item, rq->db_path, json);
}

/* --server: POST /api/v1/queue (the daemon runs it); paths as given. */
static int
run_remote(struct cmd_ctx *ctx, const struct run_request *rq, int enqueue)
{
	struct json_mem		 b;
	struct json_writer	*w;
	char			*reply;
	size_t			 len;
	int			 rc;

	if (!enqueue || rq->resume > 0)
		return cmd_remote_refuse(ctx, rq->resume > 0 ? "--resume" :
		    "a run without --enqueue (add --enqueue: the daemon runs "
		    "it)");
	if (cmd_remote_abs(ctx, "--inventory", rq->inventory) == -1 ||
	    cmd_remote_abs(ctx, "--plan", rq->plan) == -1)
		return CMD_EXIT_USAGE;
	if ((w = json_mem_begin(&b, 0)) != NULL) {
		json_begin_obj(w);
		json_kv_str(w, "inventory", rq->inventory);
		json_kv_str(w, "plan", rq->plan);
		if (rq->note != NULL)
			json_kv_str(w, "note", rq->note);
		json_end_obj(w);
	}
	if ((rc = cmd_remote_post(ctx, "/api/v1/queue", &b, &reply,
	    &len)) != 0)
		return rc == 400 ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
	rc = cmd_queued_remote(ctx, "run", reply, len);
	free(reply);
	return rc;
}

static int
run_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ "plan", required_argument, NULL, 'p' },
		{ "resume", required_argument, NULL, 'r' },
		{ "note", required_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'f' },
		{ "enqueue", no_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	struct run_request	 rq;
	const char		*errstr;
	long long		 v;
	int			 ch, enqueue = 0;

	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'i':
			rq.inventory = optarg;
			break;
		case 'p':
			rq.plan = optarg;
			break;
		case 'r':
			if (util_strtonum(optarg, 1, INT64_MAX, &v,
			    &errstr) == -1)
				return cmd_usage_error(ctx, "--resume %s: run "
				    "id is %s", optarg, errstr);
			rq.resume = v;
			break;
		case 'n':
			rq.note = optarg;
			break;
		case 'f':
			rq.force = 1;
			break;
		case 'e':
			enqueue = 1;
			break;
		default:
			return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (rq.resume > 0 && (rq.inventory != NULL || rq.plan != NULL))
		return cmd_usage_error(ctx, "--resume takes the inventory and "
		    "plan the run stored: no --inventory or --plan with it");
	if (rq.force && rq.resume == 0)
		return cmd_usage_error(ctx, "--force goes with --resume");
	if (enqueue && rq.resume > 0)
		return cmd_usage_error(ctx, "--enqueue queues a new run: not "
		    "with --resume");
	if (ctx->server != NULL)
		return run_remote(ctx, &rq, enqueue);
	if (rq.resume == 0 && (rq.inventory == NULL || rq.plan == NULL))
		return cmd_usage_error(ctx, "%s missing", rq.inventory == NULL ?
		    "--inventory FILE" : "--plan FILE");
	rq.db_path = ctx->db;
	if (enqueue)
		return run_enqueue_cli(&rq, strcmp(ctx->format, "json") == 0);
	return cmd_run_drive(&rq, strcmp(ctx->format, "json") == 0, NULL);
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.args = "(--inventory FILE --plan FILE [--enqueue] | --resume RUN "
	    "[--force]) [--note TEXT]",
	.summary = "Expands the plan into jobs in the store (links x knob "
	    "combinations x workloads x repetitions, interleaved), runs them "
	    "on the inventory's hosts and prints a summary; with "
	    "stats.adaptive, adds repetitions to comparisons still "
	    "inconclusive. --resume finishes a run whose controller died, "
	    "with the inventory and plan it stored; it refuses a run whose "
	    "controller still runs. A store error (disk full, the database "
	    "locked past LABRAT_DB_BUSY_TIMEOUT seconds, default 10, I/O) "
	    "stops the run interrupted, hosts restored, to be resumed. Exit 1 "
	    "when a job failed or the run was interrupted.",
	.options = (const struct cmd_option[]){
		{ "--inventory FILE", "The lab's hosts and links." },
		{ "--plan FILE", "What to measure." },
		{ "--resume RUN", "Finish run RUN (queued and interrupted "
		    "jobs)." },
		{ "--force", "With --resume: take the run over when this host cannot tell "
		    "whether its controller still runs (it is on another host, "
		    "or was recorded without its start time)." },
		{ "--enqueue", "Check the inventory and plan, then queue the "
		    "run (priority 200) for the daemon serving the database "
		    "(labrat serve) instead of running it here; refused when "
		    "no live daemon serves it. Prints the queue item." },
		{ "--note TEXT", "Keep TEXT with the run (what was tried), "
		    "shown by labrat runs and report; with --resume it "
		    "replaces the note." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH | CMD_REMOTE,
	.formats = "text|json",
	.exec = run_exec,
};
