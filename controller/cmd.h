/*
 * cmd: the subcommands of labrat.  Each lives in its own cmd_NAME.c and gets
 * argv with argv[0] set to the subcommand's name.  Exit statuses follow
 * DESIGN.md: 0 success, 1 failure, 2 bad usage or bad config.
 */
#ifndef LABRAT_CMD_H
#define LABRAT_CMD_H

#include <stdint.h>
#include <stdio.h>

#define CMD_EXIT_OK	0
#define CMD_EXIT_FAIL	1
#define CMD_EXIT_USAGE	2

/*
 * Declared weak so the command table can list every planned subcommand while
 * a file may not exist yet: main() reports such a command plainly as not
 * implemented instead of pretending.
 */
#define CMD_DECL(name) \
	int cmd_##name(int, char **) __attribute__((weak))

CMD_DECL(demo);
CMD_DECL(lab);
CMD_DECL(config);
CMD_DECL(db);
CMD_DECL(hosts);
CMD_DECL(run);
CMD_DECL(report);
CMD_DECL(compare);
CMD_DECL(bisect);
CMD_DECL(serve);

/*
 * cmd_run.c: drives rq (run.h: a new run or a resume) as `labrat run` does:
 * SIGINT/SIGTERM stop it, progress lines and messages on stderr, then the
 * summary (JSON if json) on stdout.  Sets rq's drive and started hooks.
 * CMD_EXIT_*; *run_id (may be NULL) gets the run's id, 0 if none.
 */
struct run_request;
int	cmd_run_drive(struct run_request *rq, int json, int64_t *run_id);
/* Prints the per-link, per-knobs throughput summary of a run. */
int	run_print_summary(const char *db_path, int64_t run_id, int json,
	    FILE *);

/*
 * cmd_bisect.c: hunt_start() as `labrat bisect start` (and `labrat demo`)
 * runs it: progress on stderr unless quiet, SIGINT / SIGTERM stop it, the
 * result printed; CMD_EXIT_* (0 culprit or range found, 1 failed or
 * interrupted, 2 usage/config).
 */
struct hunt_request;
int	bisect_cli_start(const char *db_path, const struct hunt_request *,
	    int json, int quiet);
/* cmd_bisect_show.c: prints bisect id's result (what 0), status (1) or
 * log (2) from the store. */
int	bisect_cli_show(const char *db_path, int64_t bisect_id, int what,
	    int json, FILE *);

/* The --db FILE / LABRAT_DB / per-user default rule; heap string. */
char	*cmd_db_path(const char *opt);

#endif
