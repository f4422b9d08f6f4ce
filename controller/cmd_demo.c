/*
 * cmd_demo: `labrat demo`, the README's first command.  It brings up the
 * simulated lab, shows its hosts, runs the demo plan on the em and bce pairs,
 * reports what was found, bisects both faults to their culprit revisions,
 * then takes the lab down again (--keep: leaves it up, and the dashboard
 * over the demo's database running, cmd_demo_serve.c).  Every step is
 * an ordinary labrat command driving the lab exactly as it would drive a
 * real one: the demo only strings them together.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "hunt.h"
#include "lab.h"
#include "log.h"
#include "run.h"
#include "util.h"

#define DEMO_LAB	"demo"	/* the lab's name without --name */

static void
demo_banner(const char *what)
{
	printf("\n==> %s\n", what);
	fflush(stdout);
}

/* --keep: the dashboard over the demo's database, left running. */
static void
demo_dashboard(const char *db, const char *inv)
{
	struct demo_dash	d;
	char			dir[64], err[1024];

	demo_banner("labrat serve: the dashboard over this demo's database "
	    "(--keep)");
	if (demo_dash_start(db, inv, &d, dir, sizeof dir, err,
	    sizeof err) != 0) {
		fprintf(stderr, "labrat demo: no dashboard: %s\n", err);
		return;
	}
	printf("the daemon keeps running (--keep): stop it with kill %ld "
	    "(SIGTERM); its config and log are in %s\n"
	    "dashboard: %s (no token needed on 127.0.0.1)\n", (long)d.pid,
	    dir, d.url);
}

/* Bisects one simulated fault with the demo's quicker test settings. */
static int
demo_bisect(const char *db, const char *data, const char *inv,
    const char *link, const char *good, const char *bad,
    const char *testname)
{
	struct hunt_request	rq;
	char			test[5120];

	snprintf(test, sizeof test, "%s/configs/bisect/%s", data, testname);
	memset(&rq, 0, sizeof rq);
	rq.inventory = inv;
	rq.link = link;
	rq.good = good;
	rq.bad = bad;
	rq.test = test;
	return bisect_cli_start(db, &rq, 0, 0);
}

/* The demo's commands on lab inventory inv, in order; stops at the first
 * that fails.  CMD_EXIT_*. */
static int
demo_steps(struct cmd_ctx *ctx, const char *db, char *inv, const char *plan,
    const char *data)
{
	struct run_request	 rq;
	char			 runid[32];
	int64_t			 run_id = 0;
	int			 rc;

	demo_banner("labrat hosts: deploy the agent, read each host's facts");
	{
		char *a[] = { "hosts", "--inventory", inv, NULL };

		if (cmd_call(&cmd_hosts_entry, ctx, a) != 0)
			return CMD_EXIT_FAIL;
	}

	demo_banner("labrat run: TSO x MTU on em, TSO x NAT on bce "
	    "(configs/plan-demo.json)");
	memset(&rq, 0, sizeof rq);
	rq.db_path = db;
	rq.inventory = inv;
	rq.plan = plan;
	rq.kind = "demo";
	rc = cmd_run_drive(&rq, 0, &run_id);
	if (rc != CMD_EXIT_OK || run_id == 0)
		return rc;
	snprintf(runid, sizeof runid, "%lld", (long long)run_id);

	demo_banner("labrat report: regressions told from noise, knobs "
	    "isolated");
	{
		char *a[] = { "report", runid, NULL };

		rc = cmd_call(&cmd_report_entry, ctx, a);
	}
	if (rc != CMD_EXIT_OK)
		return rc;

	demo_banner("labrat bisect: which revision made TSO at MTU 9000 "
	    "slow on em? (r200100..r200199, A/B within each boot)");
	rc = demo_bisect(db, data, inv, "em", "r200100", "r200199", "em-demo.json");
	if (rc != CMD_EXIT_OK)
		return rc;
	demo_banner("labrat bisect: which revision made TSO with NAT crawl "
	    "on bce? (r200200..r200299, against the good revision)");
	rc = demo_bisect(db, data, inv, "bce", "r200200", "r200299",
	    "bce-demo.json");
	return rc;
}

static int
demo_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'N' },
		{ "noise", required_argument, NULL, 'n' },
		{ "keep", no_argument, NULL, 'k' },
		{ "nightly", no_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 }
	};
	const char		*db = ctx->db, *noise = "2", *name = DEMO_LAB;
	char			 err[1024], plan[5120], data[4096];
	char			*inv = NULL;
	char			*down[] = { "--name", NULL };
	char			*up[] = { "--name", NULL, "--noise", NULL };
	int			 ch, keep = 0, nightly = 0;
	int			 rc = CMD_EXIT_FAIL;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'N':
			if (!lab_name_valid(optarg))
				return cmd_usage_error(ctx, "bad lab name '%s' "
				    "(want ^[a-z][a-z0-9-]{0,31}$)", optarg);
			name = optarg;
			break;
		case 'n': noise = optarg; break;
		case 'k': keep = 1; break;
		case 'g': nightly = 1; break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	down[1] = up[1] = (char *)name;
	up[3] = (char *)noise;
	if (geteuid() != 0) {
		fprintf(stderr, "labrat demo: the simulated lab needs root "
		    "(network namespaces)\n");
		return CMD_EXIT_FAIL;
	}
	if (nightly)
		return cmd_demo_nightly(ctx, name, noise, keep);
	if (lab_datadir(data, sizeof data, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	snprintf(plan, sizeof plan, "%s/configs/plan-demo.json", data);
	printf("labrat demo: a simulated lab with an em pair and a bce pair "
	    "whose synthetic kernel carries the two reports' bugs.\n"
	    "database: %s\n", db);

	demo_banner("labrat lab up: network namespaces, real sshd, "
	    "1 Gbit/s links");
	err[0] = '\0';
	if (lab_up_fresh(name, up, 4, "(an earlier demo lab is still up: "
	    "taking it down)", stdout, err, sizeof err) != 0) {
		fprintf(stderr, "labrat demo: lab up failed%s%s\n",
		    err[0] != '\0' ? ": " : "", err);
		goto out;
	}
	inv = lab_inventory_path(name);

	rc = demo_steps(ctx, db, inv, plan, data);
	if (!keep) {
		demo_banner("labrat lab down");
		if (lab_labctl("down", down, 2, err, sizeof err) != 0)
			fprintf(stderr, "labrat demo: lab down: %s\n", err);
	} else {
		printf("\nthe lab is still up (--keep): labrat lab down "
		    "--name %s\n", name);
		demo_dashboard(db, inv);
	}
out:
	free(inv);
	return rc;
}

const struct cmd_entry cmd_demo_entry = {
	.name = "demo",
	.args = "[--name NAME] [--noise PCT] [--keep] [--nightly]",
	.summary = "Brings up a simulated lab (named demo unless --name) "
	    "with an em pair and a bce pair whose synthetic kernel carries "
	    "the two reports' bugs, "
	    "shows its hosts, runs configs/plan-demo.json, reports what it "
	    "found, bisects both faults to their culprit revisions and takes "
	    "the lab down again. Needs root.",
	.options = (const struct cmd_option[]){
		{ "--name NAME", "The lab's name, ^[a-z][a-z0-9-]{0,31}$ "
		    "(default: demo)." },
		{ "--noise PCT", "Random variation of the lab's links, 0-50 "
		    "percent (default: 2)." },
		{ "--keep", "Leave the lab up afterwards (labrat lab down "
		    "--name NAME takes it down) and `labrat serve` running "
		    "over the demo's database with the dashboard on a free "
		    "port of 127.0.0.1 (its URL printed last, no token "
		    "needed); with --nightly the demo's own daemon (a night "
		    "every minute), its sinks and its files (database, daemon "
		    "log, mail)." },
		{ "--nightly", "The lab at night instead: `labrat serve` with "
		    "a schedule firing every minute and the history's head "
		    "advancing 3 revisions a night; night 3 crosses the em "
		    "fault, the daemon detects and bisects it by itself and "
		    "mails the culprit to a local SMTP sink (printed). Under "
		    "10 minutes." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.exec = demo_exec,
};
