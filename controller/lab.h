/*
 * lab: the simulated lab's entry point on the controller side.  The lab
 * itself is a set of scripts in simlab/ (labctl, faultd, host); this module
 * finds them and runs labctl with an argv (never a shell string).
 *
 * The data directory (simlab/, configs/, schemas/, agents/, laid out as in
 * the source tree) is, first found: $LABRAT_DATADIR; share/labrat of the
 * install the running binary belongs to (found from /proc/self/exe, so a
 * DESTDIR or relocated install uses its own files); the source tree the
 * binary was built from (the build tree's binary); the compiled-in install
 * path.  The simlab directory is $LABRAT_SIMLAB_DIR when set, else
 * DATADIR/simlab.  A lab NAME keeps its state in
 * /run/labrat-lab/NAME/ and `up` writes its inventory to
 * /run/labrat-lab/NAME/inventory.json (lab_inventory_path()), and its
 * history's head -- the newest revision that has "landed upstream" -- to
 * /run/labrat-lab/NAME/head (lab_head(); `labrat lab advance` moves it).
 *
 * It also starts and stops the helper processes `labrat demo --nightly`
 * runs beside the lab (the daemon, the SMTP and webhook sinks), writes
 * that demo's daemon config and holds its session (struct lab_night: the
 * files, the processes, the watch for the mail; lab_nightly.c).
 */
#ifndef LABRAT_LAB_H
#define LABRAT_LAB_H

#include <sys/types.h>

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LAB_DEFAULT_NAME	"lab"
#define LAB_STATE_ROOT		"/run/labrat-lab"

/* Writes the data directory into buf.  0, or -1 with err set (none of the
 * places exists, or $LABRAT_DATADIR is not a directory). */
int	lab_datadir(char *buf, size_t len, char *err, size_t errlen);

/*
 * The nightly history choice (configs/simlab/history.json; the em fault
 * em-tso-jumbo lands at r200140, the bce fault at r200260): a lab up with
 * --head LAB_NIGHTLY_HEAD whose nights each advance LAB_NIGHTLY_STEP sees
 * r200135 and r200138 (clean), then r200141 (crosses the em fault: a
 * bisect between r200138 and r200141 tests r200139/r200140), r200144, ...
 * No unbuildable or unbootable revision lies on the way and the bce fault
 * never lands.
 */
#define LAB_NIGHTLY_HEAD	"r200132"
#define LAB_NIGHTLY_STEP	3

/*
 * Writes the simlab directory into buf.  0, or -1 with err set (no such
 * directory, or no labctl in it).
 */
int	lab_simlab_dir(char *buf, size_t len, char *err, size_t errlen);

/* True when name is a valid lab name (^[a-z][a-z0-9-]{0,31}$). */
int	lab_name_valid(const char *name);

/* The inventory path of lab name: heap string the caller frees. */
char	*lab_inventory_path(const char *name);

/*
 * Runs `labctl SUBCMD ARGS...` (nargs strings) with the caller's stdio and
 * waits for it.  Returns its exit status (0 ok, 1 failure, 2 usage), or -1
 * with err set when it could not be run or died of a signal.
 */
int	lab_labctl(const char *subcmd, char *const args[], size_t nargs,
	    char *err, size_t errlen);

/*
 * `labctl up ARGS...` (nargs strings, among them --name name); when that
 * fails (a lab of that name left over), prints note on out, takes lab
 * name down and tries once more.  Returns as lab_labctl().
 */
int	lab_up_fresh(const char *name, char *const args[], size_t nargs,
	    const char *note, FILE *out, char *err, size_t errlen);

/*
 * Reads the head of lab name into buf (one revision id).  0, or -1 with
 * err set (no such lab, or a lab without a head).
 */
int	lab_head(const char *name, char *buf, size_t len, char *err,
	    size_t errlen);

/* ---- helper processes ------------------------------------------------ */

/*
 * Starts argv (argv[0] a path, NULL-terminated) with stdin from /dev/null
 * and stdout / stderr appended to out_path / err_path (NULL: /dev/null).
 * 0 with *pid, or -1 with err set.
 */
int	lab_spawn(char *const argv[], const char *out_path,
	    const char *err_path, pid_t *pid, char *err, size_t errlen);

/*
 * Waits up to timeout_ms for the first complete line of path (a sink
 * prints its port there) and copies it, without the newline, to buf.
 * Gives up early when pid (if > 0) exits.  0, or -1 with err set.
 */
int	lab_wait_line(const char *path, pid_t pid, int timeout_ms, char *buf,
	    size_t len, char *err, size_t errlen);

/* 1 if child pid is still running, 0 if it has exited (*status set). */
int	lab_child_alive(pid_t pid, int *status);

/*
 * Sends sig to child pid, waits up to timeout_ms for it to exit, then
 * SIGKILLs it.  Returns its wait status, or -1 if it was not our child.
 */
int	lab_stop(pid_t pid, int sig, int timeout_ms);

/* ---- `labrat demo --nightly` (lab_nightly.c) ------------------------- */

/* What the nightly demo's daemon config names. */
struct lab_nightly {
	const char	*self;		/* the labrat binary (`lab advance`) */
	const char	*name;		/* the lab */
	const char	*inventory;	/* its inventory */
	const char	*smtp_port;	/* the SMTP sink on 127.0.0.1 */
	const char	*hook_port;	/* the webhook sink on 127.0.0.1 */
};

/*
 * Writes the nightly demo's daemon config to path: the inventory, the
 * revision source "simlab" (the lab's history; newest: `SELF lab advance
 * --name NAME --by LAB_NIGHTLY_STEP --print-head`), a webhook and a mail
 * to the sinks, 1 s health iperfs, one confirming re-run.  0 or -1 with
 * err naming path.
 */
int	lab_nightly_config(const char *path, const struct lab_nightly *,
	    char *err, size_t errlen);

/*
 * Starts the sink bin (tests/tools/smtpsink or hooksink) on a free port,
 * storing into dir/sub (created), its port line in dir/sub.port and its
 * stderr in dir/sub.log, and waits up to 5 s for the port.  0 with *pid
 * and port, or -1 with err naming bin.
 */
int	lab_sink_start(const char *bin, const char *dir, const char *sub,
	    pid_t *pid, char *port, size_t portlen, char *err, size_t errlen);

/* A helper binary: $env when set, else tool next to self (the labrat
 * binary, as in a build tree).  0 with buf, or -1 with err (not there or
 * not executable, and how to get it). */
int	lab_tool_find(const char *self, const char *tool, const char *env,
	    char *buf, size_t len, char *err, size_t errlen);

/* Removes dir and everything below it (no symlink followed).  0 or -1. */
int	lab_rmtree(const char *dir, char *err, size_t errlen);

/* ---- the nightly demo's session (lab_nightly.c) ---------------------- */

/*
 * What `labrat demo --nightly` starts beside the lab: its directory
 * /tmp/labrat-nightly.XXXXXX with the daemon config, database, log, mail
 * and webhooks; the labrat binary and the sinks; the daemon's and the
 * sinks' pids.  inv is a heap string lab_night_close() frees.
 */
struct lab_night {
	const char	*name;		/* the lab */
	char		 dir[64];	/* its files */
	char		 self[4096];	/* this labrat binary */
	char		 smtpsink[4096], hooksink[4096];
	char		*inv;		/* the lab's inventory (heap) */
	char		 db[128], cfg[128], log[128];
	char		 mail[256], hook[256];	/* the regression's, or "" */
	pid_t		 serve, smtp, hooks;
	char		 smtp_port[16], hook_port[16];
	long		 log_off;	/* how much of the daemon log is shown */
};

/*
 * Fills n for lab name: finds this binary and the sinks, creates the
 * directory.  0, or -1 with err set (nothing to undo).
 */
int	lab_night_open(struct lab_night *n, const char *name, char *err,
	    size_t errlen);

/*
 * Brings lab n->name up at LAB_NIGHTLY_HEAD with noise; a lab of that
 * name left over is taken down first (a note on out says so).  Sets
 * n->inv.  0, or -1 with err set.
 */
int	lab_night_lab_up(struct lab_night *n, const char *noise, FILE *out,
	    char *err, size_t errlen);

/* Starts the two sinks and writes the daemon config.  0 or -1 with err. */
int	lab_night_sinks(struct lab_night *n, char *err, size_t errlen);

/* Starts `labrat serve` on the config and database, its output in the
 * log.  0 or -1 with err. */
int	lab_night_serve(struct lab_night *n, char *err, size_t errlen);

/* Copies the daemon log's complete lines since the last call to out,
 * each as "  serve: LINE" (and counts its items: struct lab_night). */
void	lab_night_log(struct lab_night *n, FILE *out);

/* 1 when the regression's mail (resp. webhook) has arrived, its file
 * then in n->mail (n->hook); a bad link's (NOTIFY_PAIR_BAD) is not it. */
int	lab_night_mailed(struct lab_night *n);
int	lab_night_hooked(struct lab_night *n);

/*
 * Watches until the regression's mail has come (and its webhook, or 15 s
 * more), the daemon died, *stop or the deadline (util_now_ms()) passed,
 * copying the daemon log to out (lab_night_log) and saying there when the lab's
 * head moves (with LABRAT_TEST_CLOCK=skip, moving this process's clock
 * on as the daemon says it moved its own).  1 delivered; 0 not, *status
 * the daemon's exit status when it died (n->serve then 0), else -1.
 */
int	lab_night_watch(struct lab_night *n, int64_t deadline,
	    const volatile sig_atomic_t *stop, FILE *out, int *status);

/* Stops the daemon (SIGTERM, 60 s) and the sinks. */
void	lab_night_stop(struct lab_night *n);

/* Takes the lab down.  0, or -1 with err set. */
int	lab_night_down(struct lab_night *n, char *err, size_t errlen);

/* Frees n's heap parts (the files stay: lab_rmtree(n->dir)). */
void	lab_night_close(struct lab_night *n);

#endif
