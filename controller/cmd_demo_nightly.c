/*
 * cmd_demo_nightly: `labrat demo --nightly`, the lab at night in a few
 * minutes: the simulated lab at its history's head before the em fault
 * (LAB_NIGHTLY_HEAD), a local SMTP sink and webhook receiver, a schedule
 * that fires every minute (a "night") and `labrat serve` with a revision
 * source running `labrat lab advance --by 3 --print-head`: night 3 crosses
 * the em fault and the daemon, by itself, detects, confirms, bisects and
 * mails the culprit.  The demo only watches and prints; its files live in
 * /tmp/labrat-nightly.XXXXXX, removed with the lab unless --keep (or when
 * it failed).  The session (files, daemon, sinks, lab) is lab's (struct
 * lab_night, lab_nightly.c); this file sequences it and prints.  The
 * daemon also serves the dashboard on a free port of 127.0.0.1 (its URL
 * printed as it starts): --keep leaves it running, nights and all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "lab.h"
#include "util.h"

#define NIGHTLY_BUDGET_S	570	/* the whole demo: under 10 min */
#define NIGHTLY_SCHEDULE	"nightly-demo"

static void
banner(const char *what)
{
	printf("\n==> %s\n", what);
	fflush(stdout);
}

/* Prints file (a delivered mail or webhook body) under a title; 1 if it
 * is there. */
static int
show_file(const char *title, const char *path)
{
	char	 err[256], *text;
	size_t	 len;

	if ((text = util_read_file(path, 1024 * 1024, &len, err,
	    sizeof err)) == NULL)
		return 0;
	banner(title);
	fwrite(text, 1, len, stdout);
	if (len > 0 && text[len - 1] != '\n')
		putchar('\n');
	free(text);
	return 1;
}

/* The store's view at the end, through whichever entries exist. */
static void
show_store(struct cmd_ctx *ctx, struct lab_night *n)
{
	static const char *const names[] = { "regressions", "queue",
	    "bisect status", NULL };
	struct cmd_ctx	 sub = *ctx;
	char		*argv[2];
	size_t		 i, k;

	sub.db = n->db;
	for (k = 0; names[k] != NULL; k++) {
		for (i = 0; i < cmd_table_len; i++)
			if (strcmp(cmd_table[i]->name, names[k]) == 0)
				break;
		if (i == cmd_table_len)
			continue;
		argv[0] = (char *)cmd_table[i]->name;
		argv[1] = NULL;
		printf("\n==> labrat %s --db %s\n", names[k], n->db);
		cmd_call(cmd_table[i], &sub, argv);
	}
}

/* Stops whatever was started, takes the lab down, removes the files
 * (kept when keep, or when failed: the daemon log says why).  With keep
 * a daemon still running stays, with the dashboard and the sinks. */
static void
teardown(struct lab_night *n, const struct demo_dash *d, int keep,
    int failed)
{
	char	err[512] = "";
	int	st;

	if (keep && n->serve > 0 && lab_child_alive(n->serve, &st)) {
		banner("kept (--keep): the daemon, its sinks, the lab, the "
		    "files");
		lab_night_log(n, stdout);
		printf("labrat serve (pid %ld) goes on with a night every "
		    "minute; the SMTP sink (pid %ld) and the webhook receiver "
		    "(pid %ld) take its notifications.\nstop them with kill "
		    "%ld %ld %ld (SIGTERM), the lab with labrat lab down "
		    "--name %s; the files: %s (database %s, daemon log %s)\n"
		    "dashboard: %s (no token needed on 127.0.0.1)\n",
		    (long)n->serve, (long)n->smtp, (long)n->hooks,
		    (long)n->serve, (long)n->smtp, (long)n->hooks, n->name,
		    n->dir, n->db, n->log, d->url);
		return;
	}
	banner("teardown: labrat serve (SIGTERM), the sinks, the lab");
	lab_night_stop(n);
	lab_night_log(n, stdout);
	if (keep) {
		printf("kept (--keep): the lab (labrat lab down --name %s) and "
		    "the files %s (database %s)\n", n->name, n->dir, n->db);
		return;
	}
	if (lab_night_down(n, err, sizeof err) != 0)
		fprintf(stderr, "labrat demo --nightly: lab down: %s\n", err);
	if (failed)
		printf("the demo's files are kept for a look: %s\n", n->dir);
	else if (lab_rmtree(n->dir, err, sizeof err) != 0)
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
}

/* Stores the schedule and starts the daemon. */
static int
nightly_serve(struct cmd_ctx *ctx, struct lab_night *n, struct demo_dash *d)
{
	struct cmd_ctx	 sub = *ctx;
	char		 plan[5120], data[4096], err[512];
	char		*add[] = { "schedule add", NIGHTLY_SCHEDULE, "--cron",
	    "* * * * *", "--inventory", n->inv, "--plan", plan, "--links",
	    "em,bce", "--revisions", "simlab", NULL };

	if (lab_datadir(data, sizeof data, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
		return -1;
	}
	snprintf(plan, sizeof plan, "%s/configs/plan-nightly.json", data);
	sub.db = n->db;
	banner("labrat schedule add " NIGHTLY_SCHEDULE " --cron '* * * * *' "
	    "(every minute is a night; configs/plan-nightly.json)");
	if (cmd_call(&cmd_schedule_add_entry, &sub, add) != CMD_EXIT_OK)
		return -1;
	banner("labrat serve: the daemon takes the lab over (its log below)");
	printf("config %s: revision source \"simlab\" runs `labrat lab "
	    "advance --name %s --by %d --print-head`\n", n->cfg, n->name,
	    LAB_NIGHTLY_STEP);
	if (demo_dash_port(d, err, sizeof err) != 0 ||
	    demo_dash_config_http(n->cfg, d, err, sizeof err) != 0 ||
	    lab_night_serve(n, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
		return -1;
	}
	d->pid = n->serve;
	snprintf(d->log, sizeof d->log, "%s", n->log);
	if (demo_dash_wait(d, 15000, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
		return -1;
	}
	printf("dashboard: %s (live: the nights, the regression and the "
	    "bisect appear as the daemon gets to them)\n", d->url);
	return 0;
}

/* Everything between lab up and teardown.  CMD_EXIT_*. */
static int
nightly_steps(struct cmd_ctx *ctx, struct lab_night *n, struct demo_dash *d,
    int64_t deadline)
{
	char	err[1024];
	int	st;

	banner("local mail and webhook sinks (tests/tools/smtpsink, hooksink)");
	if (lab_night_sinks(n, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	printf("SMTP on 127.0.0.1:%s, webhooks on http://127.0.0.1:%s/labrat"
	    "\n", n->smtp_port, n->hook_port);
	if (nightly_serve(ctx, n, d) != 0)
		return CMD_EXIT_FAIL;
	printf("the first night starts at the next full minute; each night "
	    "the head moves %d revisions on\n", LAB_NIGHTLY_STEP);
	if (lab_night_watch(n, deadline, cmd_stop_flag(), stdout,
	    &st) != 1) {
		if (st != -1)
			fprintf(stderr, "labrat demo --nightly: labrat serve "
			    "exited (status %d); its log: %s\n", st, n->log);
		fprintf(stderr, "labrat demo --nightly: no notification "
		    "arrived%s\n", *cmd_stop_flag() ? " (interrupted)" :
		    util_now_ms() >= deadline ? " within the time budget" :
		    "");
		return CMD_EXIT_FAIL;
	}
	show_file("the mail the daemon sent (as the SMTP sink received it)",
	    n->mail);
	if (!show_file("the webhook it posted (JSON body)", n->hook))
		printf("\n(no webhook arrived)\n");
	show_store(ctx, n);
	return CMD_EXIT_OK;
}

int
cmd_demo_nightly(struct cmd_ctx *ctx, const char *name, const char *noise,
    int keep)
{
	struct lab_night	 n;
	struct demo_dash	 d;
	int64_t			 deadline = util_now_ms() +
	    NIGHTLY_BUDGET_S * 1000LL;
	char			 err[1024];
	int			 rc;

	memset(&d, 0, sizeof d);
	if (lab_night_open(&n, name, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	printf("labrat demo --nightly: the lab at night, one night a minute: "
	    "the history's head starts at %s, before the em fault (r200140),"
	    " and moves %d revisions each night.\nfiles: %s\n",
	    LAB_NIGHTLY_HEAD, LAB_NIGHTLY_STEP, n.dir);

	cmd_stop_catch();
	banner("labrat lab up --head " LAB_NIGHTLY_HEAD);
	if (lab_night_lab_up(&n, noise, stdout, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: lab up failed%s%s\n",
		    err[0] != '\0' ? ": " : "", err);
		rc = CMD_EXIT_FAIL;
	} else
		rc = nightly_steps(ctx, &n, &d, deadline);
	teardown(&n, &d, keep, rc != CMD_EXIT_OK);
	cmd_stop_release();
	lab_night_close(&n);
	return rc;
}
