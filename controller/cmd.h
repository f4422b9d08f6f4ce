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
 * cmd_bisect.c / cmd_bisect_step.c: `labrat bisect`, and what `labrat demo`
 * calls to bisect a simulated fault.  revisions: a source as for
 * --revisions (NULL = the lab's history.json next to the inventory).
 */
struct bisect_cli_request {
	const char	*db_path;
	const char	*inventory;
	const char	*link;
	const char	*good;
	const char	*bad;
	const char	*test;
	const char	*revisions;
	const char	*replay;	/* `bisect log` output to replay first */
	int		 json;
	int		 quiet;		/* no progress lines */
};

/* Starts a bisect and drives it to its end; prints the result; CMD_EXIT_*
 * (0 culprit or range found, 1 failed/interrupted, 2 usage/config). */
int	bisect_cli_run(const struct bisect_cli_request *,
	    int64_t *bisect_id);
/* Continues bisect id (0 = the newest running one) from its stored steps. */
int	bisect_cli_resume(const char *db_path, int64_t bisect_id, int json,
	    int quiet);
/* cmd_bisect_step.c: prints bisect id's result (what 0), status (1) or
 * log (2) from the store. */
int	bisect_cli_show(const char *db_path, int64_t bisect_id, int what,
	    int json, FILE *);

#ifdef CMD_BISECT_INTERNAL
/*
 * Internal to cmd_bisect*.c (like config.h's CONFIG_INTERNAL): a stored
 * bisect loaded with its inventory, test, plan, revisions and job specs.
 */
#include "bisect.h"
#include "config.h"
#include "store.h"

#define BISECT_SESS_REF		0
#define BISECT_SESS_CAND	1

struct bisect_sess {
	const char		*db;
	struct store		*st;
	int			 json, quiet;
	struct store_bisect	 row;
	struct config_inventory	*inv;
	struct config_bisect_test *test;
	struct config_plan	*plan;
	char			*plan_text;
	const struct config_link *link;
	char			**ids, **msgs;
	size_t			 n;
	struct bisect		*m;
	struct bisect_test	 bt;
	struct store_job_spec	 spec[2];
	char			 params[2][STORE_PARAMS_MAX];
	char			 key[2][STORE_KEY_MAX];
	int			 have_spec[2];
	double			*base;	/* GOOD's samples */
	size_t			 nbase;
	char			 owner[128];
	int			 reps;	/* repetitions so far */
	int			 test_missing;	/* showing without it */
};

/* Loads bisect id (readonly: no inventory).  0, -1 failure, -2 config. */
int	bisect_sess_open(struct bisect_sess *, const char *db, int64_t id,
	    int readonly);
/* Rebuilds the machine from the stored steps; *pending = the row a kill
 * cut short or -1.  *rows: heap, free(). */
int	bisect_sess_replay(struct bisect_sess *,
	    struct store_bisect_step **rows, size_t *nrows, long *pending,
	    char *err, size_t errlen);
void	bisect_sess_free(struct bisect_sess *);
#endif /* CMD_BISECT_INTERNAL */

/* The --db FILE / LABRAT_DB / per-user default rule; heap string. */
char	*cmd_db_path(const char *opt);
/* Writes s (NULL = "") as a JSON string: quotes, backslashes and control
 * characters escaped, the rest (UTF-8 included) as is. */
void	cmd_json_str(FILE *, const char *s);

#endif
