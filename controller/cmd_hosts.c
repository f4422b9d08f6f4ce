/*
 * labrat hosts --inventory F [--format text|json]
 *
 * host_survey() reaches every host of the inventory in parallel (SSH with
 * strict host-key checking), deploys the agent when its hash differs and
 * reads the host's facts; this prints them as a table (one row per
 * inventory NIC) or as JSON (host_survey_json()).  Driver and chip are
 * the host's; where the inventory declares others, both are shown (a line
 * under the row, or declared_driver / declared_chip / mismatch in JSON).
 * A host that fails is shown with its error; then the exit status is 1.
 * A host another controller holds (the agent's host lease) still shows its
 * facts, read-only, with a line naming the holder: `labrat hosts` never
 * takes the lease.
 *
 * labrat hosts release HOST --force [--inventory F]: the operator's way
 * out of a lease whose controller is gone for good (agent `lease release
 * --force`).
 *
 * Host-reported strings were validated or neutralised by the decoder
 * (agentctl); errors are neutralised here once more before printing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "host.h"
#include "lab.h"
#include "log.h"
#include "util.h"

static const char *
tri(int v)
{
	return v < 0 ? "-" : v ? "on" : "off";
}

static const char *
dash(const char *s)
{
	return s != NULL && *s != '\0' ? s : "-";
}

/*
 * Under a NIC's row, what the inventory declares when the host says
 * otherwise: "  em-a em0: driver veth (inventory: em), chip - (inventory:
 * 0x10968086)".
 */
static void
hosts_print_mismatch(const struct config_host *h, const struct config_nic *cn,
    const struct agentctl_nic *nic)
{
	int	d = host_nic_driver_differs(cn, nic), c = host_nic_chip_differs(cn,
		    nic);

	if (!d && !c)
		return;
	printf("  %s %s:", h->name, nic->name);
	if (d)
		printf(" driver %s (inventory: %s)%s", dash(nic->driver),
		    cn->driver, c ? "," : "");
	if (c)
		printf(" chip %s (inventory: %s)", dash(nic->chip), cn->chip);
	printf("\n");
}

static void
hosts_print_text(const struct host_survey *jobs, size_t n)
{
	const struct agentctl_facts	*f;
	const struct agentctl_nic	*nic;
	const struct config_host	*h;
	char				 tools[256], mtu[16], safe[2048];
	size_t				 i, k;

	printf("%-12s %-8s %-16s %-10s %-8s %-8s %-10s %-6s %-4s %s\n",
	    "HOST", "OS", "KERNEL", "REVISION", "NIC", "DRIVER", "CHIP",
	    "MTU", "TSO", "TOOLS");
	for (i = 0; i < n; i++) {
		h = jobs[i].host;
		if (!jobs[i].ok) {
			/* An error may quote the host's output. */
			printf("%-12s ERROR: %s\n", h->name, util_term_safe(safe,
			    sizeof safe, jobs[i].err, (size_t)-1));
			continue;
		}
		f = &jobs[i].facts.u.facts;
		snprintf(tools, sizeof tools, "iperf2 %s, iperf3 %s, scp %s",
		    dash(f->iperf2), dash(f->iperf3), dash(f->scp));
		for (k = 0; k < h->nnics; k++) {
			nic = host_survey_nic(f, h->nics[k].name);
			if (nic == NULL) {
				printf("%-12s %-8s %-16.16s %-10s %-8s (not on "
				    "the host)\n", h->name, f->os,
				    f->kernel_release, dash(f->kernel_revision),
				    h->nics[k].name);
				continue;
			}
			snprintf(mtu, sizeof mtu, "%lld", nic->mtu);
			printf("%-12s %-8s %-16.16s %-10s %-8s %-8s %-10s %-6s "
			    "%-4s %s\n", h->name, f->os, f->kernel_release,
			    dash(f->kernel_revision), nic->name,
			    dash(nic->driver), dash(nic->chip),
			    nic->mtu < 0 ? "-" : mtu, tri(nic->tso), tools);
			hosts_print_mismatch(h, &h->nics[k], nic);
		}
		if (!jobs[i].lease_ok)
			printf("  %s: lease unknown: %s\n", h->name,
			    jobs[i].lease_err);
		else if (jobs[i].lease.has_lease)
			printf("  %s: %s%s\n", h->name,
			    jobs[i].lease.lease.message,
			    jobs[i].lease.lease.live ? "" : " (expired)");
	}
}

static int
hosts_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 }
	};
	struct config_inventory	*inv;
	struct config_errors	 errs;
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
	config_errors_init(&errs);
	if ((inv = config_inventory_load(path, &errs)) == NULL) {
		cmd_config_errors(&errs);
		config_errors_free(&errs);
		return CMD_EXIT_USAGE;
	}
	config_errors_free(&errs);
	failed = host_survey(inv, NULL, &jobs) > 0;
	for (i = 0; i < inv->nhosts && json; i++)
		if (!jobs[i].ok)
			log_warnx("%s", jobs[i].err);
	if (json && host_survey_json(jobs, inv->nhosts, stdout, err,
	    sizeof err) == -1)
		log_warnx("hosts: %s", err);
	else if (!json)
		hosts_print_text(jobs, inv->nhosts);
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
	struct config_errors		 errs;
	const struct config_host	*h = NULL;
	struct agentctl_lease		 l;
	const char			*path = NULL, *name;
	char				*deflt = NULL, err[1024];
	size_t				 i;
	int				 ch, force = 0;

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
	name = ctx->argv[optind];
	if (!force)
		return cmd_usage_error(ctx, "--force missing: this removes "
		    "another controller's lease");
	if (path == NULL)	/* what `labrat lab up` wrote */
		path = deflt = lab_inventory_path("lab");
	config_errors_init(&errs);
	inv = config_inventory_load(path, &errs);
	if (inv == NULL)
		cmd_config_errors(&errs);
	config_errors_free(&errs);
	if (inv == NULL) {
		free(deflt);
		return CMD_EXIT_USAGE;
	}
	for (i = 0; i < inv->nhosts && h == NULL; i++)
		if (strcmp(inv->hosts[i].name, name) == 0)
			h = &inv->hosts[i];
	if (h == NULL) {
		log_warnx("hosts release: %s: not a host of %s", name, path);
		config_inventory_free(inv);
		free(deflt);
		return CMD_EXIT_USAGE;
	}
	free(deflt);
	if (host_lease_force_release(h, NULL, &l, err, sizeof err) == -1) {
		log_warnx("hosts release: %s", err);
		config_inventory_free(inv);
		return CMD_EXIT_FAIL;
	}
	if (l.released && l.has_previous)
		printf("%s: released (was %s%s)\n", h->name,
		    l.previous.message, l.previous.live ? "" : ", expired");
	else
		printf("%s: no lease held\n", h->name);
	config_inventory_free(inv);
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
