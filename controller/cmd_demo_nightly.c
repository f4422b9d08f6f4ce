/*
 * cmd_demo_nightly: `labrat demo --nightly`, the lab at night in a few
 * minutes.  It brings the simulated lab up with its history's head before
 * the em fault (LAB_NIGHTLY_HEAD), starts a local SMTP sink and webhook
 * receiver, stores a schedule that fires every minute (a "night"), and
 * runs `labrat serve` with a daemon config whose revision source is the
 * ordinary `command` kind running `labrat lab advance --by 3 --print-head`:
 * every night a newer kernel lands, nights 1-2 are clean, night 3 crosses
 * the em fault and the daemon, by itself, detects, confirms, bisects and
 * mails the culprit.  The demo only watches: it echoes the daemon's log,
 * prints the delivered mail and webhook, and tears everything down.
 *
 * Its files (daemon config, database, logs, mail, webhooks) live in a
 * fresh directory /tmp/labrat-nightly.XXXXXX; it and the lab are removed
 * at the end unless --keep (the files also stay when the demo failed).
 * The sinks are the test listeners tests/tools/smtpsink and hooksink,
 * found next to the labrat binary (a build tree) or through
 * $LABRAT_SMTPSINK / $LABRAT_HOOKSINK.  The daemon config, the sinks'
 * start and the removal of the files are lab's (lab_nightly.c).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "lab.h"
#include "util.h"

#define NIGHTLY_BUDGET_S	570	/* the whole demo: under 10 min */
#define NIGHTLY_SCHEDULE	"nightly-demo"

struct nightly {
	const char	*name;		/* the lab */
	char		 dir[64];	/* its files */
	char		 self[4096];	/* this labrat binary */
	char		 smtpsink[4096], hooksink[4096];
	char		*inv;		/* the lab's inventory (heap) */
	char		 db[128], cfg[128], log[128];
	pid_t		 serve, smtp, hook;
	char		 smtp_port[16], hook_port[16];
	long		 log_off;	/* how much of the daemon log is shown */
};

static volatile sig_atomic_t	nightly_stop;

static void
nightly_sig(int sig)
{
	(void)sig;
	nightly_stop = 1;
}

static void
banner(const char *what)
{
	printf("\n==> %s\n", what);
	fflush(stdout);
}

/* Prints what the daemon logged since the last call, indented. */
static void
show_log(struct nightly *n)
{
	FILE	*fp;
	char	 line[2048];

	if ((fp = fopen(n->log, "r")) == NULL)
		return;
	if (fseek(fp, n->log_off, SEEK_SET) == 0) {
		while (fgets(line, sizeof line, fp) != NULL &&
		    strchr(line, '\n') != NULL) {
			printf("  serve: %s", line);
			n->log_off = ftell(fp);
		}
	}
	fclose(fp);
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

static int
exists(const char *dir, const char *file)
{
	char	path[256];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return access(path, F_OK) == 0;
}

/* Watches until the mail has come (and the webhook, a little longer), the
 * daemon died, ^C or the budget ran out.  1 delivered, 0 not. */
static int
watch(struct nightly *n, int64_t deadline)
{
	char	 mail[128], hooks[128], head[64], last[64] = "", err[256];
	int64_t	 mail_at = 0;
	int	 st;

	snprintf(mail, sizeof mail, "%s/mail", n->dir);
	snprintf(hooks, sizeof hooks, "%s/hooks", n->dir);
	while (!nightly_stop && util_now_ms() < deadline) {
		show_log(n);
		if (lab_head(n->name, head, sizeof head, err,
		    sizeof err) == 0 && strcmp(head, last) != 0) {
			if (last[0] != '\0')
				printf("--- the head moved: %s -> %s (a new "
				    "night's kernel has landed)\n", last, head);
			snprintf(last, sizeof last, "%s", head);
		}
		if (mail_at == 0 && exists(mail, "1.eml"))
			mail_at = util_now_ms();
		if (mail_at != 0 && (exists(hooks, "1.body") ||
		    util_now_ms() - mail_at > 15000))
			break;
		if (!lab_child_alive(n->serve, &st)) {
			show_log(n);
			fprintf(stderr, "labrat demo --nightly: labrat serve "
			    "exited (status %d); its log: %s\n",
			    WIFEXITED(st) ? WEXITSTATUS(st) : 128 +
			    WTERMSIG(st), n->log);
			n->serve = 0;
			return 0;
		}
		sleep(1);
	}
	show_log(n);
	return mail_at != 0;
}

/* The store's view at the end, through whichever entries exist. */
static void
show_store(struct cmd_ctx *ctx, struct nightly *n)
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
 * (kept when keep, or when failed: the daemon log says why). */
static void
teardown(struct nightly *n, int keep, int failed)
{
	char	 err[512];
	char	*down[] = { "--name", (char *)n->name };

	banner("teardown: labrat serve (SIGTERM), the sinks, the lab");
	if (n->serve > 0)
		lab_stop(n->serve, SIGTERM, 60000);
	show_log(n);
	if (n->smtp > 0)
		lab_stop(n->smtp, SIGTERM, 2000);
	if (n->hook > 0)
		lab_stop(n->hook, SIGTERM, 2000);
	if (keep) {
		printf("kept (--keep): the lab (labrat lab down --name %s) and "
		    "the files %s (database %s)\n", n->name, n->dir, n->db);
		return;
	}
	if (lab_labctl("down", down, 2, err, sizeof err) != 0)
		fprintf(stderr, "labrat demo --nightly: lab down: %s\n", err);
	if (failed)
		printf("the demo's files are kept for a look: %s\n", n->dir);
	else if (lab_rmtree(n->dir, err, sizeof err) != 0)
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
}

/* Lab up at the nightly head; a lab of that name left over is replaced. */
static int
nightly_lab_up(struct nightly *n, const char *noise)
{
	char	 err[512];
	char	*up[] = { "--name", (char *)n->name, "--noise", (char *)noise,
	    "--head", LAB_NIGHTLY_HEAD, "--boot-seconds", "1" };
	char	*down[] = { "--name", (char *)n->name };
	int	 rc;

	rc = lab_labctl("up", up, 8, err, sizeof err);
	if (rc != 0) {
		printf("(a lab named %s is up already: taking it down)\n",
		    n->name);
		lab_labctl("down", down, 2, err, sizeof err);
		rc = lab_labctl("up", up, 8, err, sizeof err);
	}
	if (rc != 0)
		fprintf(stderr, "labrat demo --nightly: lab up failed%s%s\n",
		    err[0] != '\0' ? ": " : "", err);
	return rc == 0 ? 0 : -1;
}

/* Stores the schedule and starts the daemon. */
static int
nightly_serve(struct cmd_ctx *ctx, struct nightly *n)
{
	struct cmd_ctx	 sub = *ctx;
	char		 plan[5120], data[4096], err[512];
	char		*add[] = { "schedule add", NIGHTLY_SCHEDULE, "--cron",
	    "* * * * *", "--inventory", n->inv, "--plan", plan, "--links",
	    "em,bce", "--revisions", "simlab", NULL };
	char		*serve[] = { n->self, "serve", "--config", n->cfg,
	    "--db", n->db, NULL };

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
	if (lab_spawn(serve, NULL, n->log, &n->serve, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
		return -1;
	}
	return 0;
}

/* Everything between lab up and teardown.  CMD_EXIT_*. */
static int
nightly_steps(struct cmd_ctx *ctx, struct nightly *n, int64_t deadline)
{
	struct lab_nightly	 c = { n->self, n->name, n->inv, n->smtp_port,
	    n->hook_port };
	char			 mail[128], hook[128], err[1024];

	banner("local mail and webhook sinks (tests/tools/smtpsink, hooksink)");
	if (lab_sink_start(n->smtpsink, n->dir, "mail", &n->smtp, n->smtp_port,
	    sizeof n->smtp_port, err, sizeof err) != 0 ||
	    lab_sink_start(n->hooksink, n->dir, "hooks", &n->hook,
	    n->hook_port, sizeof n->hook_port, err, sizeof err) != 0 ||
	    lab_nightly_config(n->cfg, &c, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	printf("SMTP on 127.0.0.1:%s, webhooks on http://127.0.0.1:%s/labrat"
	    "\n", n->smtp_port, n->hook_port);
	if (nightly_serve(ctx, n) != 0)
		return CMD_EXIT_FAIL;
	printf("the first night starts at the next full minute; each night "
	    "the head moves %d revisions on\n", LAB_NIGHTLY_STEP);
	if (!watch(n, deadline)) {
		fprintf(stderr, "labrat demo --nightly: no notification "
		    "arrived%s\n", nightly_stop ? " (interrupted)" :
		    util_now_ms() >= deadline ? " within the time budget" : "");
		return CMD_EXIT_FAIL;
	}
	snprintf(mail, sizeof mail, "%s/mail/1.eml", n->dir);
	snprintf(hook, sizeof hook, "%s/hooks/1.body", n->dir);
	show_file("the mail the daemon sent (as the SMTP sink received it)",
	    mail);
	if (!show_file("the webhook it posted (JSON body)", hook))
		printf("\n(no webhook arrived)\n");
	show_store(ctx, n);
	return CMD_EXIT_OK;
}

int
cmd_demo_nightly(struct cmd_ctx *ctx, const char *name, const char *noise,
    int keep)
{
	struct nightly		 n;
	struct sigaction	 sa, oint, oterm;
	int64_t			 deadline = util_now_ms() +
	    NIGHTLY_BUDGET_S * 1000LL;
	ssize_t			 len;
	char			 err[1024];
	int			 rc;

	memset(&n, 0, sizeof n);
	n.name = name;
	len = readlink("/proc/self/exe", n.self, sizeof n.self - 1);
	if (len <= 0) {
		fprintf(stderr, "labrat demo --nightly: /proc/self/exe: %s\n",
		    strerror(errno));
		return CMD_EXIT_FAIL;
	}
	n.self[len] = '\0';
	if (lab_tool_find(n.self, "smtpsink", "LABRAT_SMTPSINK", n.smtpsink,
	    sizeof n.smtpsink, err, sizeof err) != 0 || lab_tool_find(n.self,
	    "hooksink", "LABRAT_HOOKSINK", n.hooksink, sizeof n.hooksink, err,
	    sizeof err) != 0) {
		fprintf(stderr, "labrat demo --nightly: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	snprintf(n.dir, sizeof n.dir, "/tmp/labrat-nightly.XXXXXX");
	if (mkdtemp(n.dir) == NULL) {
		fprintf(stderr, "labrat demo --nightly: mkdtemp: %s\n",
		    strerror(errno));
		return CMD_EXIT_FAIL;
	}
	snprintf(n.db, sizeof n.db, "%s/labrat.db", n.dir);
	snprintf(n.cfg, sizeof n.cfg, "%s/daemon.json", n.dir);
	snprintf(n.log, sizeof n.log, "%s/serve.log", n.dir);
	printf("labrat demo --nightly: the lab at night, one night a minute: "
	    "the history's head starts at %s, before the em fault (r200140),"
	    " and moves %d revisions each night.\nfiles: %s\n",
	    LAB_NIGHTLY_HEAD, LAB_NIGHTLY_STEP, n.dir);

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = nightly_sig;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGTERM, &sa, &oterm);
	banner("labrat lab up --head " LAB_NIGHTLY_HEAD);
	if (nightly_lab_up(&n, noise) != 0)
		rc = CMD_EXIT_FAIL;
	else {
		n.inv = lab_inventory_path(name);
		rc = nightly_steps(ctx, &n, deadline);
	}
	teardown(&n, keep, rc != CMD_EXIT_OK);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
	free(n.inv);
	return rc;
}
