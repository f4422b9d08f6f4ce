/*
 * labrat config check FILE... | --inventory F [--plan F]...
 *
 * Validates inventory and plan files and prints every error at once.  A
 * positional FILE is recognised by its content and checked alone; a plan
 * given with --plan is also checked against the --inventory file (links
 * exist, NAT modes have a NAT host that can do them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "matrix.h"
#include "util.h"

static void
config_usage(void)
{
	fprintf(stderr, "usage: labrat config check [--inventory FILE] "
	    "[--plan FILE]... [FILE...]\n");
}

static void
summary_inventory(const struct config_inventory *inv)
{
	size_t	i, nics = 0;

	for (i = 0; i < inv->nhosts; i++)
		nics += inv->hosts[i].nnics;
	printf("%s: inventory ok: %zu host%s, %zu nic%s, %zu link%s\n",
	    inv->path, inv->nhosts, inv->nhosts == 1 ? "" : "s", nics,
	    nics == 1 ? "" : "s", inv->nlinks, inv->nlinks == 1 ? "" : "s");
}

static void
summary_plan(const struct config_plan *plan,
    const struct config_inventory *inv)
{
	struct matrix_job	*jobs;
	size_t			 njobs;
	char			 err[256];

	if (matrix_expand(plan, inv, &jobs, &njobs, err, sizeof err) != 0) {
		printf("%s: plan ok but not expandable: %s\n", plan->path, err);
		return;
	}
	free(jobs);
	printf("%s: plan ok: %zu link%s, %zu workload%s, %d repetition%s, "
	    "%zu jobs%s%s\n", plan->path, plan->nlinks,
	    plan->nlinks == 1 ? "" : "s", plan->nworkloads,
	    plan->nworkloads == 1 ? "" : "s", plan->repetitions,
	    plan->repetitions == 1 ? "" : "s", njobs,
	    inv != NULL ? ", checked against " : "",
	    inv != NULL ? inv->path : "");
}

/* Checks one positional file of either kind. */
static void
check_file(const char *path, struct config_errors *errs)
{
	struct config_inventory	*inv;
	struct config_plan	*plan;
	char			*text, err[512];
	size_t			 len;

	text = util_read_file(path, CONFIG_FILE_MAX, &len, err, sizeof err);
	if (text == NULL) {
		config_errors_read(errs, path, err);
		return;
	}
	switch (config_detect(path, text, len, errs)) {
	case CONFIG_KIND_INVENTORY:
		inv = config_inventory_parse(path, text, len, errs);
		if (inv != NULL)
			summary_inventory(inv);
		config_inventory_free(inv);
		break;
	case CONFIG_KIND_PLAN:
		plan = config_plan_parse(path, text, len, NULL, errs);
		if (plan != NULL)
			summary_plan(plan, NULL);
		config_plan_free(plan);
		break;
	default:
		break;
	}
	free(text);
}

static int
config_check(int argc, char **argv)
{
	struct config_errors	 errs;
	struct config_inventory	*inv = NULL;
	struct config_plan	*plan;
	const char		*invpath = NULL;
	const char		**plans;
	size_t			 nplans = 0, nfiles = 0, i;
	int			 a, rc;

	plans = xcalloc((size_t)argc, sizeof *plans);
	config_errors_init(&errs);
	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--inventory") == 0 && a + 1 < argc &&
		    invpath == NULL)
			invpath = argv[++a];
		else if (strcmp(argv[a], "--plan") == 0 && a + 1 < argc)
			plans[nplans++] = argv[++a];
		else if (argv[a][0] == '-' && argv[a][1] != '\0') {
			config_usage();
			free(plans);
			return CMD_EXIT_USAGE;
		} else
			nfiles++;
	}
	if (nfiles == 0 && invpath == NULL && nplans == 0) {
		config_usage();
		free(plans);
		return CMD_EXIT_USAGE;
	}
	if (invpath != NULL) {
		inv = config_inventory_load(invpath, &errs);
		if (inv != NULL)
			summary_inventory(inv);
	}
	for (i = 0; i < nplans; i++) {
		/* Without a valid inventory the plan is checked alone. */
		plan = config_plan_load(plans[i], inv, &errs);
		if (plan != NULL)
			summary_plan(plan, inv);
		config_plan_free(plan);
	}
	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--inventory") == 0 ||
		    strcmp(argv[a], "--plan") == 0)
			a++;
		else
			check_file(argv[a], &errs);
	}
	for (i = 0; i < errs.n; i++)
		fprintf(stderr, "%s\n", errs.msgs[i]);
	if (errs.dropped > 0)
		fprintf(stderr, "... and %zu more errors\n", errs.dropped);
	rc = errs.n > 0 ? CMD_EXIT_USAGE : CMD_EXIT_OK;
	config_errors_free(&errs);
	config_inventory_free(inv);
	free(plans);
	return rc;
}

int
cmd_config(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "check") == 0)
		return config_check(argc - 1, argv + 1);
	config_usage();
	return CMD_EXIT_USAGE;
}
