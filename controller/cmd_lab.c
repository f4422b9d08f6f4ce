/*
 * labrat lab up|down|status|advance|power-cycle [OPTIONS]: one entry each
 *
 * The simulated lab (DESIGN.md "The simulated lab").  Options are checked
 * for shape here and passed on, as argv, to simlab/labctl, which does the
 * work; `up` prints the path of the inventory it wrote.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "lab.h"

#define LAB_NAME_OPT	{ "--name NAME", "The lab (default: lab); labs " \
	"with different names coexist. ^[a-z][a-z0-9-]{0,31}$." }

/*
 * Checks the options (those in allowed take a value, those in flags take
 * none) and runs labctl with them.
 */
static int
lab_exec_flags(struct cmd_ctx *ctx, const char *sub,
    const char *const *allowed, const char *const *flags)
{
	char	 err[512];
	int	 i, rc;
	size_t	 k;

	for (i = 1; i < ctx->argc; i += 2) {
		for (k = 0; flags != NULL && flags[k] != NULL; k++)
			if (strcmp(flags[k], ctx->argv[i]) == 0)
				break;
		if (flags != NULL && flags[k] != NULL) {
			i--;	/* no value to step over */
			continue;
		}
		for (k = 0; allowed[k] != NULL; k++)
			if (strcmp(allowed[k], ctx->argv[i]) == 0)
				break;
		if (allowed[k] == NULL)
			return cmd_usage_error(ctx, ctx->argv[i][0] == '-' ?
			    "unknown option %s" : "unexpected argument '%s'",
			    ctx->argv[i]);
		if (i + 1 >= ctx->argc)
			return cmd_usage_error(ctx, "%s needs a value",
			    ctx->argv[i]);
		if (strcmp(ctx->argv[i], "--name") == 0 &&
		    !lab_name_valid(ctx->argv[i + 1]))
			return cmd_usage_error(ctx, "bad lab name '%s' (want "
			    "^[a-z][a-z0-9-]{0,31}$)", ctx->argv[i + 1]);
	}
	rc = lab_labctl(sub, ctx->argv + 1, (size_t)(ctx->argc - 1), err,
	    sizeof err);
	if (rc < 0) {
		fprintf(stderr, "labrat: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	return rc > CMD_EXIT_USAGE ? CMD_EXIT_FAIL : rc;
}

static int
lab_exec(struct cmd_ctx *ctx, const char *sub, const char *const *allowed)
{
	return lab_exec_flags(ctx, sub, allowed, NULL);
}

static int
lab_up(struct cmd_ctx *ctx)
{
	static const char *const opts[] = { "--name", "--history", "--noise",
	    "--boot-seconds", "--pairs", "--revision", "--head", "--rate",
	    NULL };

	return lab_exec(ctx, "up", opts);
}

static int
lab_advance(struct cmd_ctx *ctx)
{
	static const char *const opts[] = { "--name", "--to", "--by", NULL };
	static const char *const flags[] = { "--print-head", NULL };

	return lab_exec_flags(ctx, "advance", opts, flags);
}

static int
lab_down(struct cmd_ctx *ctx)
{
	static const char *const opts[] = { "--name", NULL };

	return lab_exec(ctx, "down", opts);
}

static int
lab_status(struct cmd_ctx *ctx)
{
	static const char *const opts[] = { "--name", NULL };

	return lab_exec(ctx, "status", opts);
}

static int
lab_power_cycle(struct cmd_ctx *ctx)
{
	static const char *const opts[] = { "--name", "--host", NULL };

	return lab_exec(ctx, "power-cycle", opts);
}

const struct cmd_entry cmd_lab_up_entry = {
	.name = "lab up",
	.args = "[--name NAME] [--history FILE] [--noise PCT] "
	    "[--boot-seconds S] [--pairs N] [--revision REV] [--head REV] "
	    "[--rate MBIT]",
	.summary = "Brings up a simulated lab: network namespaces as hosts "
	    "with a real sshd each, test links shaped to 1 Gbit/s, and a "
	    "synthetic kernel history whose faults act on real traffic. "
	    "Prints the "
	    "path of the inventory it wrote "
	    "(/run/labrat-lab/NAME/inventory.json). Needs root; fails when "
	    "the lab is up already.",
	.options = (const struct cmd_option[]){
		LAB_NAME_OPT,
		{ "--history FILE", "The revision history with its faults "
		    "(default: configs/simlab/history.json)." },
		{ "--noise PCT", "Random variation of the links' rate, "
		    "0-50 percent (default: 0)." },
		{ "--boot-seconds S", "How long a reboot takes, 0-600 "
		    "(default: 1)." },
		{ "--pairs N", "Host pairs, 2-14 (default: 2: em-a/em-b "
		    "and bce-a/bce-b)." },
		{ "--revision REV", "The revision the hosts run first "
		    "(default: the head)." },
		{ "--head REV", "The history's head: the newest revision "
		    "that has landed upstream; hosts refuse to install later "
		    "ones until `lab advance` moves it (default: the "
		    "history's last revision)." },
		{ "--rate MBIT", "The rate every test link is shaped to, "
		    "10-10000 Mbit/s (default: 1000). Below what the "
		    "machine's CPUs can push, the shaper alone sets a link's "
		    "throughput, so a loaded machine changes it less." },
		{ NULL, NULL } },
	.exec = lab_up,
};

const struct cmd_entry cmd_lab_advance_entry = {
	.name = "lab advance",
	.args = "[--name NAME] [--to REV | --by N] [--print-head]",
	.summary = "Moves the simulated history's head forward: newer "
	    "revisions \"land upstream\" and the hosts may install them. "
	    "The head never moves back; --by stops at the history's last "
	    "revision (and says so on stderr). A nightly revision source "
	    "runs `labrat lab advance --by N --print-head` to see a new "
	    "kernel each night.",
	.options = (const struct cmd_option[]){ LAB_NAME_OPT,
		{ "--to REV", "Move the head to REV (an error if REV is "
		    "before the head or not in the history)." },
		{ "--by N", "Move the head N revisions on (default: 1; 0 "
		    "leaves it where it is)." },
		{ "--print-head", "Print only the new head's id on stdout." },
		{ NULL, NULL } },
	.exec = lab_advance,
};

const struct cmd_entry cmd_lab_down_entry = {
	.name = "lab down",
	.args = "[--name NAME]",
	.summary = "Takes the simulated lab down and removes everything it "
	    "made, also after a crashed or half-finished `lab up`; "
	    "idempotent.",
	.options = (const struct cmd_option[]){ LAB_NAME_OPT,
		{ NULL, NULL } },
	.exec = lab_down,
};

const struct cmd_entry cmd_lab_status_entry = {
	.name = "lab status",
	.args = "[--name NAME]",
	.summary = "Shows the simulated lab's head (the newest revision "
	    "landed upstream) and its hosts: revision, sshd, state and the "
	    "faults live on each.",
	.options = (const struct cmd_option[]){ LAB_NAME_OPT,
		{ NULL, NULL } },
	.exec = lab_status,
};

const struct cmd_entry cmd_lab_power_cycle_entry = {
	.name = "lab power-cycle",
	.args = "[--name NAME] --host HOST",
	.summary = "Hard-resets one host of the simulated lab, as a PDU "
	    "would: it boots the last revision that booted.",
	.options = (const struct cmd_option[]){ LAB_NAME_OPT,
		{ "--host HOST", "The host to reset (em-a, bce-b, ...)." },
		{ NULL, NULL } },
	.exec = lab_power_cycle,
};
