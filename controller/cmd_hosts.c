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
 * --force`, host_lease_release_named()).
 *
 * labrat hosts health | maintenance LINK on|off | check: the links' health
 * states (health.h): show them, take a link out of service and back, run
 * the check now.
 *
 * Host-reported strings were validated or neutralised by the decoder
 * (agentctl); errors are neutralised here once more before printing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "health.h"
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

/* The inventory at path, its errors printed; NULL then. */
static struct config_inventory *
hosts_inventory(const char *path)
{
	struct config_inventory	*inv;
	struct config_errors	 errs;

	config_errors_init(&errs);
	if ((inv = config_inventory_load(path, &errs)) == NULL)
		cmd_config_errors(&errs);
	config_errors_free(&errs);
	return inv;
}

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
	inv = hosts_inventory(path);
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

/* ---- link health (health.h) ------------------------------------------- */

#define HOSTS_HEALTH_TRANSITIONS	10

static int
hosts_health_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = { { NULL, 0, NULL, 0 } };
	char	err[1024];

	optind = 1;
	if (cmd_getopt(ctx, longopts) != -1 ||
	    cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (health_show(ctx->db, HOSTS_HEALTH_TRANSITIONS,
	    strcmp(ctx->format, "json") == 0, stdout, err, sizeof err) == -1) {
		log_warnx("hosts health: %s", err);
		return CMD_EXIT_FAIL;
	}
	return CMD_EXIT_OK;
}

const struct cmd_entry cmd_hosts_health_entry = {
	.name = "hosts health",
	.args = "",
	.summary = "Shows the health state of every link (host pair) the "
	    "database knows: unknown, good, bad, maintenance or retired, "
	    "since when and why, its last check and last good throughput, "
	    "warnings, and the last transitions (who, when, why). A link "
	    "never checked is unknown. Jobs run on good and unknown links "
	    "only.",
	.options = NULL,
	.flags = CMD_DB,
	.formats = "text|json",
	.exec = hosts_health_exec,
};

static int
hosts_maintenance_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "why", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	struct health_result	 res;
	const char		*why = NULL, *link, *onoff;
	char			 err[1024];
	int			 ch, on;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch != 'w')
			return CMD_EXIT_USAGE;
		why = optarg;
	}
	if (cmd_positionals(ctx, optind, 2, 2, "LINK on|off") == -1)
		return CMD_EXIT_USAGE;
	link = ctx->argv[optind];
	onoff = ctx->argv[optind + 1];
	if (!config_valid_linkname(link))
		return cmd_usage_error(ctx, "%s: not a link name", link);
	if (strcmp(onoff, "on") != 0 && strcmp(onoff, "off") != 0)
		return cmd_usage_error(ctx, "%s: say on or off", onoff);
	if (why == NULL || *why == '\0')
		return cmd_usage_error(ctx, "--why TEXT missing: every "
		    "transition says why");
	on = strcmp(onoff, "on") == 0;
	if (health_maintenance(ctx->db, link, on, why, NULL, &res, err,
	    sizeof err) == -1) {
		log_warnx("hosts maintenance: %s", err);
		return CMD_EXIT_FAIL;
	}
	printf("%s: %s -> %s\n", link, health_state_name(res.before),
	    health_state_name(res.after));
	return CMD_EXIT_OK;
}

const struct cmd_entry cmd_hosts_maintenance_entry = {
	.name = "hosts maintenance",
	.args = "LINK on|off --why TEXT",
	.summary = "Takes a link (host pair) out of service or puts it back. "
	    "On: the link gets no jobs and no health check touches its hosts "
	    "until it is switched off again. Off: the link goes to unknown, "
	    "so a check must pass before it is trusted again. The transition "
	    "is stored with who, when and why. Exit 1 for off on a link not "
	    "in maintenance, or on for a retired one.",
	.options = (const struct cmd_option[]){
		{ "--why TEXT", "Required: why, stored with the transition." },
		{ NULL, NULL } },
	.flags = CMD_DB,
	.formats = NULL,
	.exec = hosts_maintenance_exec,
};

static volatile sig_atomic_t hosts_stop;

static void
hosts_on_signal(int sig)
{
	(void)sig;
	hosts_stop = 1;
}

/* One line for a check's outcome, then its warnings. */
static void
hosts_check_print(const char *link, const struct health_result *r)
{
	char	safe[1024];

	printf("%s: %s -> %s: %s\n", link, health_state_name(r->before),
	    health_state_name(r->after), util_term_safe(safe, sizeof safe,
	    r->why, (size_t)-1));
	if (r->warnings[0] != '\0')
		printf("  %s: warning: %s\n", link, util_term_safe(safe,
		    sizeof safe, r->warnings, (size_t)-1));
}

static int
hosts_check_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ "link", required_argument, NULL, 'l' },
		{ "jumbo", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	struct config_inventory	*inv;
	struct health_opts	 o;
	struct health_result	 res;
	struct sigaction	 sa;
	const char		*path = NULL, *link = NULL;
	char			 err[1024];
	size_t			 i;
	int			 ch, jumbo = 0, rc = CMD_EXIT_OK;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch == 'i')
			path = optarg;
		else if (ch == 'l')
			link = optarg;
		else if (ch == 'j')
			jumbo = 1;
		else
			return CMD_EXIT_USAGE;
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (path == NULL)
		return cmd_usage_error(ctx, "--inventory FILE missing");
	if ((inv = hosts_inventory(path)) == NULL)
		return CMD_EXIT_USAGE;
	if (link != NULL && config_inventory_link(inv, link) == NULL) {
		log_warnx("hosts check: %s: no link %s", path, link);
		config_inventory_free(inv);
		return CMD_EXIT_USAGE;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = hosts_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	memset(&o, 0, sizeof o);
	o.db_path = ctx->db;
	o.jumbo = jumbo;
	o.stop = &hosts_stop;
	for (i = 0; i < inv->nlinks && !hosts_stop; i++) {
		if (link != NULL && strcmp(inv->links[i].name, link) != 0)
			continue;
		if (health_check(inv, inv->links[i].name, &o, &res, err,
		    sizeof err) == -1) {
			log_warnx("hosts check: %s: not checked: %s",
			    inv->links[i].name, err);
			rc = CMD_EXIT_FAIL;
			continue;
		}
		hosts_check_print(inv->links[i].name, &res);
		if (res.checked && res.after != HEALTH_GOOD)
			rc = CMD_EXIT_FAIL;
	}
	config_inventory_free(inv);
	return hosts_stop ? CMD_EXIT_FAIL : rc;
}

const struct cmd_entry cmd_hosts_check_entry = {
	.name = "hosts check",
	.args = "--inventory FILE [--link LINK] [--jumbo]",
	.summary = "Runs the health check of every link of the inventory (or "
	    "one) now, one link after the other, and stores each transition: "
	    "SSH with strict host keys and the agent's facts (driver and chip "
	    "as at the pair's last passing check; one the inventory declares "
	    "otherwise is a warning), link up at the declared speed, a "
	    "don't-fragment ping through the path, and a 2 s iperf3 at the "
	    "hosts' default knobs within 20 % of the pair's last good figure. "
	    "A failure makes the link bad, a pass good; a link in maintenance "
	    "or retired is not touched. Exit 1 when a link checked is not "
	    "good or could not be checked.",
	.options = (const struct cmd_option[]){
		{ "--inventory FILE", "The lab's hosts and links." },
		{ "--link LINK", "Check this link only." },
		{ "--jumbo", "Also check the path at MTU 9000 (both ends set "
		    "to it, a don't-fragment ping that fills it), as for a "
		    "plan that uses jumbo frames." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.formats = NULL,
	.exec = hosts_check_exec,
};
