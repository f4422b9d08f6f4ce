/*
 * labrat hosts --inventory F [--format text|json]
 *
 * host_survey() reaches every host of the inventory in parallel (SSH with
 * strict host-key checking), deploys the agent when its hash differs and
 * reads the host's facts; this prints them as a table (one row per
 * inventory NIC, host_survey_text()) or as JSON (host_survey_json()).  Driver and chip are
 * the host's; where the inventory declares others, both are shown (a line
 * under the row, or declared_driver / declared_chip / mismatch in JSON).
 * A host that fails is shown with its error; then the exit status is 1.
 * A host another controller holds (the agent's host lease) still shows its
 * facts, read-only, with a line naming the holder: `labrat hosts` never
 * takes the lease.
 *
 * labrat hosts release HOST --force [--inventory F]: the operator's way
 * out of a lease whose controller is gone for good (agent `lease release
 * --force`, host_lease_release_named()).
 *
 * labrat hosts health | maintenance | check: cmd_hosts_health.c.
 *
 * Host-reported strings were validated or neutralised by the decoder
 * (agentctl); host_survey_text() neutralises errors once more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "host.h"
#include "lab.h"
#include "log.h"

static int
hosts_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 }
	};
	struct config_inventory	*inv;
	struct host_survey	*jobs;
	const char		*path = NULL;
	char			 err[256];
	size_t			 i;
	int			 ch, failed, json = strcmp(ctx->format,
				    "json") == 0;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch != 'i')
			return CMD_EXIT_USAGE;
		path = optarg;
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (path == NULL)
		return cmd_usage_error(ctx, "--inventory FILE missing");
	if ((inv = cmd_inventory(path)) == NULL)
		return CMD_EXIT_USAGE;
	failed = host_survey(inv, NULL, &jobs) > 0;
	for (i = 0; i < inv->nhosts && json; i++)
		if (!jobs[i].ok)
			log_warnx("%s", jobs[i].err);
	if (json && host_survey_json(jobs, inv->nhosts, stdout, err,
	    sizeof err) == -1)
		log_warnx("hosts: %s", err);
	else if (!json)
		host_survey_text(jobs, inv->nhosts, stdout);
	host_survey_free(jobs, inv->nhosts);
	config_inventory_free(inv);
	return failed ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}

const struct cmd_entry cmd_hosts_entry = {
	.name = "hosts",
	.args = "--inventory FILE",
	.summary = "Reaches every host of the inventory in parallel over SSH "
	    "(strict host-key check), deploys the agent where its hash "
	    "differs, and shows each host's facts: OS, kernel revision, "
	    "driver, chip, link, MTU, offloads. Exit 1 when a host failed.",
	.options = (const struct cmd_option[]){
		{ "--inventory FILE", "The hosts to reach." },
		{ NULL, NULL } },
	.flags = CMD_SSH,
	.formats = "text|json",
	.exec = hosts_exec,
};

static int
hosts_release_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 }
	};
	struct config_inventory		*inv;
	const char			*path = NULL;
	char				*deflt = NULL, err[1024], msg[512];
	int				 ch, force = 0, unknown, rc;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch == 'i')
			path = optarg;
		else if (ch == 'f')
			force = 1;
		else
			return CMD_EXIT_USAGE;
	}
	if (cmd_positionals(ctx, optind, 1, 1, "HOST") == -1)
		return CMD_EXIT_USAGE;
	if (!force)
		return cmd_usage_error(ctx, "--force missing: this removes "
		    "another controller's lease");
	if (path == NULL)	/* what `labrat lab up` wrote */
		path = deflt = lab_inventory_path("lab");
	inv = cmd_inventory(path);
	free(deflt);
	if (inv == NULL)
		return CMD_EXIT_USAGE;
	rc = host_lease_release_named(inv, ctx->argv[optind], NULL, msg,
	    sizeof msg, &unknown, err, sizeof err);
	config_inventory_free(inv);
	if (rc == -1) {
		log_warnx("hosts release: %s", err);
		return unknown ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
	}
	printf("%s\n", msg);
	return CMD_EXIT_OK;
}

const struct cmd_entry cmd_hosts_release_entry = {
	.name = "hosts release",
	.args = "HOST --force [--inventory FILE]",
	.summary = "Removes the host lease of HOST whoever holds it (the agent's "
	    "`lease release --force`), for an operator whose controller died "
	    "for good and left a lease it cannot wait out. It does not restore "
	    "the host: the next controller to take the lease restores what the "
	    "old one left applied.",
	.options = (const struct cmd_option[]){
		{ "--force", "Required: this takes a lease away from another "
		    "controller." },
		{ "--inventory FILE", "The inventory HOST is in (default: the "
		    "simulated lab's, /run/labrat-lab/lab/inventory.json)." },
		{ NULL, NULL } },
	.flags = CMD_SSH,
	.formats = NULL,
	.exec = hosts_release_exec,
};
