/*
 * labrat hosts health | maintenance LINK on|off | check: the links' health
 * states (health.h): show them (health_show()), take a link out of
 * service and back (health_maintenance_words()), run the check now
 * (health_check_each()).
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "health.h"
#include "log.h"

#define HOSTS_HEALTH_TRANSITIONS	10

/* GET /api/v1/hosts with the same number of transitions. */
static int
hosts_health_remote(struct cmd_ctx *ctx)
{
	char	path[80];

	snprintf(path, sizeof path, "/api/v1/hosts?limit=%d&format=%s",
	    HOSTS_HEALTH_TRANSITIONS, ctx->format);
	return cmd_remote_print(ctx, path, NULL) == 0 ? CMD_EXIT_OK :
	    CMD_EXIT_FAIL;
}

static int
hosts_health_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = { { NULL, 0, NULL, 0 } };
	char	err[1024];

	optind = 1;
	if (cmd_getopt(ctx, longopts) != -1 ||
	    cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (ctx->server != NULL)
		return hosts_health_remote(ctx);
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
	.flags = CMD_DB | CMD_REMOTE,
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
	const char		*why = NULL, *link;
	char			 err[1024];
	int			 ch, bad;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch != 'w')
			return CMD_EXIT_USAGE;
		why = optarg;
	}
	if (cmd_positionals(ctx, optind, 2, 2, "LINK on|off") == -1)
		return CMD_EXIT_USAGE;
	link = ctx->argv[optind];
	if (health_maintenance_words(ctx->db, link, ctx->argv[optind + 1], why,
	    &res, &bad, err, sizeof err) == -1) {
		if (bad)
			return cmd_usage_error(ctx, "%s", err);
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
	const char		*path = NULL, *link = NULL;
	int			 ch, jumbo = 0, rc;

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
	if ((inv = cmd_inventory(path)) == NULL)
		return CMD_EXIT_USAGE;
	if (link != NULL && config_inventory_link(inv, link) == NULL) {
		log_warnx("hosts check: %s: no link %s", path, link);
		config_inventory_free(inv);
		return CMD_EXIT_USAGE;
	}
	cmd_stop_catch();
	memset(&o, 0, sizeof o);
	o.db_path = ctx->db;
	o.jumbo = jumbo;
	o.stop = cmd_stop_flag();
	rc = health_check_each(inv, link, &o, stdout) != 0 ? CMD_EXIT_FAIL :
	    CMD_EXIT_OK;
	cmd_stop_release();
	config_inventory_free(inv);
	return rc;
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
