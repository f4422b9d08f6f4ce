/*
 * cmd_run_drive: a run driven as `labrat run` (and `labrat demo`) does it:
 * one call into the run module (run_execute(): create or resume, drive,
 * finish) with the progress lines (cmd_progress.c), SIGINT/SIGTERM as its
 * stop flag, what a run that did not end well leaves to say, and the
 * summary (report_run_summary()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
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
