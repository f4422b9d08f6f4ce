/*
 * cmd: the command table.  Each cmd_NAME.c defines constant entries, one
 * per command and per subcommand (`report`, `lab up`, `bisect start`), and
 * main.c lists them all in one table: a missing command is a link error.
 * main parses the common options once (-v/-vv, --db FILE, --format F,
 * --help/-h, before or after the command), prints --help from the entry,
 * works out the database path and initialises libssh2 when the entry's
 * flags ask for them, and calls the entry's exec with what is left of argv.
 * `labrat help` and the man page (`labrat help --man`) come from the same
 * table (cmd_help.c).
 *
 * Exit statuses follow DESIGN.md: 0 success, 1 failure, 2 bad usage or bad
 * config.
 */
#ifndef LABRAT_CMD_H
#define LABRAT_CMD_H

#include <sys/types.h>

#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"	/* enum report_list: cmd_list_exec() */

#define CMD_EXIT_OK	0
#define CMD_EXIT_FAIL	1
#define CMD_EXIT_USAGE	2

/* What an entry needs from main (cmd_entry.flags). */
#define CMD_DB		0x01	/* uses the database: ctx->db is set */
#define CMD_SSH		0x02	/* talks to hosts: libssh2 is initialised */
#define CMD_REMOTE	0x04	/* may talk to a daemon's HTTP API instead of
				 * the database: --server URL */

/* One option of a command, for --help and the man page. */
struct cmd_option {
	const char	*flag;		/* "--name NAME" */
	const char	*help;		/* one sentence */
};

struct cmd_ctx;

struct cmd_entry {
	const char		*name;	  /* "report", "lab up" */
	const char		*args;	  /* synopsis after the name, without
					   * --db and --format (added from
					   * flags and formats) */
	const char		*summary; /* what it does, one paragraph */
	const struct cmd_option	*options; /* { NULL } terminated, or NULL */
	int			 flags;	  /* CMD_DB | CMD_SSH */
	const char		*formats; /* "text|json": what --format takes,
					   * the first the default; NULL when
					   * it prints no results */
	int			(*exec)(struct cmd_ctx *);
};

/* What exec gets: argv after the command's words and the common options. */
struct cmd_ctx {
	const struct cmd_entry	*entry;
	int			 argc;
	char			**argv;	  /* argv[0] is the entry's name, as
					   * getopt_long expects */
	const char		*db;	  /* CMD_DB entries: the database
					   * path; NULL otherwise */
	const char		*format;  /* one of entry->formats (its first
					   * unless --format said), or NULL */
	int			 verbose; /* 0, 1 for -v, 2 for -vv */
	const char		*server;  /* CMD_REMOTE entries: --server URL or
					   * $LABRAT_SERVER (not when --db is
					   * given); NULL = the database */
	const char		*token_file; /* with server: --token-file F or
					   * $LABRAT_TOKEN_FILE; may be NULL */
	const char		*cafile;  /* with server: --cafile F or
					   * $LABRAT_CAFILE; may be NULL */
};

/* The entries, each defined in its cmd_*.c; the table is in main.c. */
extern const struct cmd_entry cmd_demo_entry;
extern const struct cmd_entry cmd_lab_up_entry, cmd_lab_down_entry,
	    cmd_lab_status_entry, cmd_lab_advance_entry,
	    cmd_lab_power_cycle_entry;
extern const struct cmd_entry cmd_config_check_entry;
extern const struct cmd_entry cmd_db_migrate_entry, cmd_db_check_entry,
	    cmd_db_path_entry;
extern const struct cmd_entry cmd_hosts_entry, cmd_hosts_release_entry,
	    cmd_hosts_health_entry, cmd_hosts_maintenance_entry,
	    cmd_hosts_check_entry;
extern const struct cmd_entry cmd_run_entry;
extern const struct cmd_entry cmd_report_entry, cmd_compare_entry;
extern const struct cmd_entry cmd_runs_entry;
extern const struct cmd_entry cmd_queue_entry;
extern const struct cmd_entry cmd_bisect_start_entry,
	    cmd_bisect_status_entry, cmd_bisect_log_entry,
	    cmd_bisect_resume_entry, cmd_bisect_reset_entry;
extern const struct cmd_entry cmd_schedule_add_entry,
	    cmd_schedule_list_entry, cmd_schedule_show_entry,
	    cmd_schedule_rm_entry, cmd_schedule_enable_entry,
	    cmd_schedule_disable_entry;
extern const struct cmd_entry cmd_notify_test_entry;
extern const struct cmd_entry cmd_serve_entry;
extern const struct cmd_entry cmd_token_add_entry, cmd_token_list_entry,
	    cmd_token_revoke_entry;
extern const struct cmd_entry cmd_schedule_fire_entry;
extern const struct cmd_entry cmd_regressions_entry;
extern const struct cmd_entry cmd_help_entry;

/* main.c: the table, in the order `labrat help` lists it. */
extern const struct cmd_entry *const cmd_table[];
extern const size_t cmd_table_len;

/*
 * main.c: helpers for the entries.
 *
 * cmd_getopt: getopt_long over ctx's argv (long options only; set optind =
 * 1 before the first call).  An unknown option or a missing value is
 * reported here, naming the option, with the usage line; it then returns
 * '?' and the caller returns CMD_EXIT_USAGE.
 */
int	cmd_getopt(struct cmd_ctx *, const struct option *);
/* Prints "labrat NAME: MESSAGE" and the usage line to stderr; returns
 * CMD_EXIT_USAGE. */
int	cmd_usage_error(const struct cmd_ctx *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * Checks the positional arguments argv[first..argc-1]: at least min, at
 * most max; names says what they are ("RUN_A RUN_B").  0, or -1 after
 * saying what is wrong (cmd_usage_error).
 */
int	cmd_positionals(const struct cmd_ctx *, int first, int min, int max,
	    const char *names);
/* Prints collected config errors to stderr, the one way every command
 * does. */
struct config_errors;
void	cmd_config_errors(const struct config_errors *);
/*
 * cmd_runs.c: `labrat runs` and `labrat queue`: [--limit N] (default
 * limit, at least min), then report_list(what) in ctx's format.  CMD_EXIT_*.
 */
int	cmd_list_exec(struct cmd_ctx *, enum report_list what,
	    long long limit, long long min);
/*
 * SIGINT and SIGTERM as the stop flag a long command hands its module
 * (run, hunt, night, health): cmd_stop_catch() clears the flag and
 * catches both until the matching cmd_stop_release() puts the old
 * handlers back (nested pairs catch once).  cmd_stop_flag() is never
 * NULL.
 */
volatile sig_atomic_t *cmd_stop_flag(void);
void	cmd_stop_catch(void);
void	cmd_stop_release(void);
/* The inventory at path (config_inventory_load), or NULL after printing
 * its errors (cmd_config_errors). */
struct config_inventory;
struct config_inventory *cmd_inventory(const char *path);
/*
 * Runs entry in-process (for `labrat demo`) with argv (NULL terminated,
 * argv[0] the entry's name), the database and verbosity of parent, and the
 * entry's default format.  Returns exec's status.
 */
int	cmd_call(const struct cmd_entry *, const struct cmd_ctx *parent,
	    char **argv);
/* Writes entry's usage line ("labrat report [RUN] ... [--format F]"). */
void	cmd_usage_line(const struct cmd_entry *, char *buf, size_t len);

/* cmd_help.c: entry's full help (usage, summary, options) to fp. */
void	cmd_help_print(const struct cmd_entry *, FILE *fp);
/* The full help of every subcommand of group ("lab"). */
void	cmd_help_group(const char *group, FILE *fp);
/* The usage lines of group's subcommands, or of every entry (NULL). */
void	cmd_help_usages(const char *group, FILE *fp);
/* --db FILE, then the options every command takes; { NULL } ends it. */
extern const struct cmd_option cmd_common_options[];
/* --server URL and --token-file F, for CMD_REMOTE entries. */
extern const struct cmd_option cmd_remote_options[];

/* cmd_man.c: the man page labrat(1), roff, from the table. */
void	cmd_man_print(FILE *fp);

/*
 * cmd_bisect_show.c: the options of bisect status, log, resume and reset
 * (--bisect ID, and --quiet when quiet is not NULL); 0 or -1 after saying
 * what is wrong.
 */
int	cmd_bisect_opts(struct cmd_ctx *, int64_t *id, int *quiet);
#define CMD_BISECT_ID_OPT	{ "--bisect ID", "The bisect (default: the " \
	"newest)." }

/*
 * cmd_progress.c: a run's progress lines and events on stderr (run.h's
 * struct run_drive hooks); arg points at an int, nonzero when stderr is a
 * terminal (one live line redrawn in place).
 */
struct run_progress;
struct run_event;
void	cmd_run_progress(const struct run_progress *, void *arg);
void	cmd_run_event(const struct run_event *, void *arg);

/*
 * cmd_run_drive.c: drives rq (run.h: a new run or a resume) as `labrat run` does:
 * SIGINT/SIGTERM stop it, progress lines and messages on stderr, then the
 * summary (JSON if json) on stdout.  Sets rq's drive and started hooks.
 * CMD_EXIT_*; *run_id (may be NULL) gets the run's id, 0 if none.
 */
struct run_request;
int	cmd_run_drive(struct run_request *rq, int json, int64_t *run_id);

/*
 * cmd_demo_nightly.c: `labrat demo --nightly` on lab name (noise: its
 * --noise); keep leaves its files.  CMD_EXIT_*.
 */
int	cmd_demo_nightly(struct cmd_ctx *, const char *name, const char *noise,
	    int keep);

/*
 * cmd_bisect.c: hunt_start() as `labrat bisect start` (and `labrat demo`)
 * runs it: progress on stderr unless quiet, SIGINT / SIGTERM stop it, the
 * result printed; CMD_EXIT_* (0 culprit or range found, 1 failed or
 * interrupted, 2 usage/config).
 */
struct hunt_request;
int	bisect_cli_start(const char *db_path, const struct hunt_request *,
	    int json, int quiet);
/* The same for hunt_resume() of bisect id (0: the newest), as `labrat
 * bisect resume` (cmd_bisect_resume.c) runs it. */
int	bisect_cli_resume(const char *db_path, int64_t bisect_id, int json,
	    int quiet, int force);
/* cmd_bisect_show.c: prints bisect id's result (what 0), status (1) or
 * log (2) from the store. */
int	bisect_cli_show(const char *db_path, int64_t bisect_id, int what,
	    int json, FILE *);

/* cmd_queue.c: "queued as item N (priority 200); labrat queue --db DB
 * shows it", or json {item, kind, priority, state, db}; CMD_EXIT_*. */
int	cmd_queued(const char *kind, int64_t item, const char *db, int json);

/* The --db FILE / LABRAT_DB / per-user default rule; heap string. */
char	*cmd_db_path(const char *opt);

/*
 * cmd_remote.c, the remote CLI (ctx->server).  cmd_remote_get: GET path
 * ("/api/v1/queue?limit=5") with the token of ctx->token_file.
 * cmd_remote_send: method ("GET", "POST" with json, "DELETE") likewise.
 * Both: 0 with *body (heap, NUL-terminated, the caller frees) when the
 * reply is 2xx; else after saying on stderr, as "labrat NAME: ...", what
 * failed (the URL and the transport error, or the HTTP status and the
 * server's problem text): -1 (cmd_remote_get: any failure; send: a
 * transport error) or the HTTP status (cmd_remote_send, cmd_remote_post).
 */
int	cmd_remote_get(const struct cmd_ctx *, const char *path, char **body,
	    size_t *len);
int	cmd_remote_send(const struct cmd_ctx *, const char *method,
	    const char *path, const char *json, char **body, size_t *len);
/*
 * GETs path and writes the reply to stdout as received (after
 * json_check_raw() when ctx->format is json).  regressions (may be NULL)
 * gets the reply's X-Labrat-Regressions count (a reply without one is an
 * error).  0, or -1 after saying why.
 */
int	cmd_remote_print(const struct cmd_ctx *, const char *path,
	    int *regressions);
/* path with kv's pairs ({key, value, ..., NULL}; a NULL value is left
 * out) as its query, encoded; heap. */
char	*cmd_remote_path(const char *path, const char *const *kv);
/* A path option for the controller: 0 when path is NULL or absolute, -1
 * after saying a relative one cannot be sent. */
int	cmd_remote_abs(const struct cmd_ctx *, const char *opt,
	    const char *path);
/*
 * The newest id of the list GET path replies (its array key, newest
 * first; objects whose "kind" is one of skip passed over): 0 with *id, -1
 * after saying so (none: "labrat NAME: SERVER: NONE").
 */
int	cmd_remote_newest(const struct cmd_ctx *, const char *path,
	    const char *key, const char *const *skip, int64_t *id,
	    const char *none);
/*
 * A mutation's JSON body, begun with json_mem_begin(): cmd_remote_post()
 * ends it and POSTs it (cmd_remote_send()), freeing it.
 */
struct json_mem;
int	cmd_remote_post(const struct cmd_ctx *, const char *path,
	    struct json_mem *, char **reply, size_t *len);
/* What cmd_queued() prints, for the item the reply (POST /queue or
 * /bisects) names, "labrat --server URL queue" / "server" instead of
 * the database; CMD_EXIT_*. */
int	cmd_queued_remote(const struct cmd_ctx *, const char *kind,
	    const char *reply, size_t len);
/* "labrat NAME: WHAT does not work with --server"; CMD_EXIT_USAGE. */
int	cmd_remote_refuse(const struct cmd_ctx *, const char *what);

/*
 * What `labrat demo` and `labrat demo --nightly` share (cmd_demo_serve.c):
 * the dashboard (`labrat serve` with an "http" section on a free 127.0.0.1
 * port, reads open) over the demo's database.
 */
/* A dashboard daemon: its port, URL (of /ui/), pid and log. */
struct demo_dash {
	char	port[8];
	char	url[64];	/* http://127.0.0.1:PORT/ui/ */
	char	log[160];
	pid_t	pid;
};

/*
 * Picks a free port on 127.0.0.1 (the kernel's choice for port 0) into
 * d->port and d->url.  0, or -1 with err naming the call that failed.
 */
int	demo_dash_port(struct demo_dash *d, char *err, size_t errlen);

/*
 * Adds "http": {"listen": "http://127.0.0.1:PORT", "reads": "open"} to the
 * daemon config at path (a JSON object the json writer wrote).  0, or -1
 * with err naming path.
 */
int	demo_dash_config_http(const char *path, const struct demo_dash *d,
	    char *err, size_t errlen);

/*
 * Waits up to timeout_ms until the daemon d->pid logs to d->log that it
 * listens on d->port.  0, or -1 with err (it exited, or never said so).
 */
int	demo_dash_wait(const struct demo_dash *d, int timeout_ms, char *err,
	    size_t errlen);

/*
 * `labrat serve --db db` with the dashboard on a free port of 127.0.0.1
 * and inventory inv, its config and log in a new directory
 * /tmp/labrat-dash.XXXXXX (written to dir), left running: d filled.  0,
 * or -1 with err (nothing left running).
 */
int	demo_dash_start(const char *db, const char *inv, struct demo_dash *d,
	    char *dir, size_t dirlen, char *err, size_t errlen);


#endif
