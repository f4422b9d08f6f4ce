/*
 * cmd_run: `labrat run --inventory F --plan F [--resume RUN]`: one call
 * into the run module (create or resume, drive, finish), with the progress
 * lines, SIGINT/SIGTERM as its stop flag and the summary printed here.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "executor.h"
#include "log.h"
#include "report.h"
#include "run.h"
#include "util.h"

/* Whether run_started() caught the signals (cmd_stop_catch()). */
static int	run_sig_set;

/*
 * The run exists: say so, and from now on SIGINT and SIGTERM stop it (an
 * earlier signal still kills the command, leaving nothing to cancel).
 */
static void
run_started(const struct run_result *res, void *arg)
{
	const char	*db = arg;

	fprintf(stderr, "labrat: run %lld %s (db %s)\n",
	    (long long)res->run_id, res->resumed ? "resumed" : "started", db);
	cmd_stop_catch();
	run_sig_set = 1;
}

/* What a run that did not end well leaves to say. */
static void
run_report_end(const struct run_result *res, const char *err)
{
	switch (res->outcome) {
	case RUN_OUTCOME_NOT_STARTED:
		log_warnx("%s", err);
		fprintf(stderr, "labrat: run %lld: no host was changed; fix the "
		    "cause, then `labrat run --resume %lld`\n",
		    (long long)res->run_id, (long long)res->run_id);
		break;
	case RUN_OUTCOME_STORE_FAULT:
		log_warnx("%s", err);
		fprintf(stderr, "labrat: run %lld: %s\n", (long long)res->run_id,
		    res->sum.restore_failures ? "NOT ALL HOSTS RESTORED (see "
		    "above)" : "hosts restored");
		break;
	case RUN_OUTCOME_INTERRUPTED:
		fprintf(stderr, "labrat: run %lld interrupted: %lld jobs "
		    "cancelled (a cancelled job is not resumed), %s\n",
		    (long long)res->run_id, (long long)res->ncancelled,
		    res->sum.restore_failures ?
		    "NOT ALL HOSTS RESTORED (see above)" : "hosts restored");
		break;
	default:
		if (res->sum.restore_failures > 0)
			fprintf(stderr, "labrat: run %lld: %d host interfaces "
			    "could not be restored (see above); the rollback "
			    "timers armed on those hosts will do it\n",
			    (long long)res->run_id, res->sum.restore_failures);
		break;
	}
}

int
cmd_run_drive(struct run_request *rq, int json, int64_t *run_idp)
{
	struct run_result	 res;
	struct config_errors	 errs;
	char			 err[2048];
	int			 tty = isatty(STDERR_FILENO);
	enum run_status		 rc;

	*cmd_stop_flag() = 0;
	rq->drive.stop = cmd_stop_flag();
	rq->drive.progress = cmd_run_progress;
	rq->drive.progress_arg = &tty;
	rq->drive.event = cmd_run_event;
	rq->drive.event_arg = &tty;
	rq->started = run_started;
	rq->started_arg = (void *)rq->db_path;
	config_errors_init(&errs);
	rc = run_execute(rq, &res, &errs, err, sizeof err);
	if (run_sig_set) {
		cmd_stop_release();
		run_sig_set = 0;
	}
	if (run_idp != NULL)
		*run_idp = res.run_id;
	if (res.outcome != RUN_OUTCOME_NONE && tty)
		fprintf(stderr, "\n");
	if (rc == RUN_CONFIG)
		cmd_config_errors(&errs);
	else if (res.outcome == RUN_OUTCOME_NONE && rc != RUN_OK)
		log_warnx("%s", err);
	config_errors_free(&errs);
	run_report_end(&res, err);
	if (res.outcome == RUN_OUTCOME_DONE ||
	    res.outcome == RUN_OUTCOME_JOBS_FAILED)
		if (report_run_summary(rq->db_path, res.run_id, json ?
		    REPORT_JSON : REPORT_TEXT, stdout, err, sizeof err) == -1)
			log_warnx("%s", err);
	return (int)rc;
}

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
	.flags = CMD_DB | CMD_SSH,
	.formats = "text|json",
	.exec = run_exec,
};
