/*
 * labrat config check [--inventory FILE] [--plan FILE]... [FILE...]
 *
 * Validates inventory, plan, bisect test, lab history and daemon config
 * files (told apart by content: a daemon config has "inventories") and prints
 * every error at once, an inventory's key and known_hosts files included.
 * A positional FILE is recognised by its content and checked alone; a plan
 * given with --plan is also checked against the --inventory file (links
 * exist, NAT modes have a NAT host that can do them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "hunt.h"
#include "matrix.h"
#include "util.h"

/*
 * Checks one positional file of any kind; its summary ("FILE: KIND ok:
 * ...") is the module's that owns the kind (config, matrix, hunt).
 */
static void
check_file(const char *path, struct config_errors *errs)
{
	struct config_inventory	*inv;
	struct config_plan	*plan;
	struct config_bisect_test *t;
	struct config_daemon	*d;
	char			*text, err[512], line[8192] = "";
	size_t			 len;

	text = util_read_file(path, CONFIG_FILE_MAX, &len, err, sizeof err);
	if (text == NULL) {
		config_errors_read(errs, path, err);
		return;
	}
	switch (config_detect(path, text, len, errs)) {
	case CONFIG_KIND_INVENTORY:
		inv = config_inventory_parse(path, text, len, errs);
		if (inv != NULL && config_inventory_check_files(inv,
		    errs) == 0)
			config_inventory_summary(inv, line, sizeof line);
		config_inventory_free(inv);
		break;
	case CONFIG_KIND_PLAN:
		plan = config_plan_parse(path, text, len, NULL, errs);
		if (plan != NULL)
			matrix_plan_summary(plan, NULL, line, sizeof line);
		config_plan_free(plan);
		break;
	case CONFIG_KIND_BISECT_TEST:
		/* The direction is settled first: an unknown one is an error. */
		t = config_bisect_test_parse(path, text, len, errs);
		if (t != NULL && hunt_test_summary(t, line, sizeof line, err,
		    sizeof err) == -1)
			config_errors_add(errs, t->path, NULL, "%s", err);
		config_bisect_test_free(t);
		break;
	case CONFIG_KIND_HISTORY:
		config_history_summary(path, text, len, line, sizeof line,
		    errs);
		break;
	case CONFIG_KIND_DAEMON:
		if (config_daemon_parse(path, text, len, &d, errs) == 0) {
			config_daemon_summary(d, path, line, sizeof line);
			config_daemon_free(d);
		}
		break;
	default:
		break;
	}
	if (line[0] != '\0')
		printf("%s\n", line);
	free(text);
}

/* The options: --inventory once, --plan any number of times. */
static int
config_args(struct cmd_ctx *ctx, const char **invpath, const char **plans,
    size_t *nplans)
{
	char	**argv = ctx->argv;
	size_t	  nfiles = 0;
	int	  a;

	for (a = 1; a < ctx->argc; a++) {
		if (strcmp(argv[a], "--inventory") == 0 ||
		    strcmp(argv[a], "--plan") == 0) {
			if (a + 1 >= ctx->argc)
				return cmd_usage_error(ctx, "%s needs a value",
				    argv[a]);
			if (argv[a][2] == 'p')
				plans[(*nplans)++] = argv[++a];
			else if (*invpath != NULL)
				return cmd_usage_error(ctx, "--inventory "
				    "given twice (one inventory per check)");
			else
				*invpath = argv[++a];
		} else if (argv[a][0] == '-' && argv[a][1] != '\0')
			return cmd_usage_error(ctx, "unknown option %s",
			    argv[a]);
		else
			nfiles++;
	}
	if (nfiles == 0 && *invpath == NULL && *nplans == 0)
		return cmd_usage_error(ctx, "nothing to check: FILE..., or "
		    "--inventory FILE and --plan FILE");
	return CMD_EXIT_OK;
}

static int
config_check(struct cmd_ctx *ctx)
{
	struct config_errors	 errs;
	struct config_inventory	*inv = NULL;
	struct config_plan	*plan;
	const char		*invpath = NULL;
	char			 line[8192];
	const char		**plans;
	char			**argv = ctx->argv;
	size_t			 nplans = 0, i;
	int			 a, rc;

	plans = xcalloc((size_t)ctx->argc, sizeof *plans);
	rc = config_args(ctx, &invpath, plans, &nplans);
	if (rc != CMD_EXIT_OK) {
		free(plans);
		return rc;
	}
	config_errors_init(&errs);
	if (invpath != NULL) {
		inv = config_inventory_load(invpath, &errs);
		if (inv != NULL && config_inventory_check_files(inv,
		    &errs) == 0) {
			config_inventory_summary(inv, line, sizeof line);
			printf("%s\n", line);
		}
	}
	for (i = 0; i < nplans; i++) {
		/* Without a valid inventory the plan is checked alone. */
		plan = config_plan_load(plans[i], inv, &errs);
		if (plan != NULL) {
			matrix_plan_summary(plan, inv, line, sizeof line);
			printf("%s\n", line);
		}
		config_plan_free(plan);
	}
	for (a = 1; a < ctx->argc; a++) {
		if (strcmp(argv[a], "--inventory") == 0 ||
		    strcmp(argv[a], "--plan") == 0)
			a++;
		else
			check_file(argv[a], &errs);
	}
	cmd_config_errors(&errs);
	rc = errs.n > 0 ? CMD_EXIT_USAGE : CMD_EXIT_OK;
	config_errors_free(&errs);
	config_inventory_free(inv);
	free(plans);
	return rc;
}

const struct cmd_entry cmd_config_check_entry = {
	.name = "config check",
	.args = "[--inventory FILE] [--plan FILE]... [FILE...]",
	.summary = "Validates inventory, plan, bisect test, lab history and "
	    "daemon config files and prints every error at once, each with its JSON path; "
	    "exit 2 when there is one. An inventory's ssh.key and "
	    "ssh.known_hosts files must exist and be readable. A FILE is "
	    "recognised by its content (its kind is named in the ok line; a "
	    "daemon config by its \"inventories\") "
	    "and checked alone; a "
	    "plan given with --plan is also checked against the --inventory "
	    "file (its links exist, its NAT modes have a NAT host that can "
	    "do them).",
	.options = (const struct cmd_option[]){
		{ "--inventory FILE", "The inventory the plans are checked "
		    "against." },
		{ "--plan FILE", "A plan to check against the inventory "
		    "(repeatable)." },
		{ NULL, NULL } },
	.exec = config_check,
};
