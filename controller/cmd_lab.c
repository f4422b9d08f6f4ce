/*
 * labrat lab up|down|status|power-cycle [OPTIONS]
 *
 * The simulated lab (DESIGN.md "The simulated lab").  Options are checked
 * for shape here and passed on, as argv, to simlab/labctl, which does the
 * work; `up` prints the path of the inventory it wrote.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "lab.h"

static int
lab_usage(void)
{
	fprintf(stderr,
	    "usage: labrat lab up [--name NAME] [--history FILE] [--noise PCT]\n"
	    "                     [--boot-seconds S] [--pairs N] "
	    "[--revision REV]\n"
	    "       labrat lab down [--name NAME]\n"
	    "       labrat lab status [--name NAME]\n"
	    "       labrat lab power-cycle [--name NAME] --host HOST\n");
	return CMD_EXIT_USAGE;
}

/* Which options each subcommand takes (all of them take a value). */
static int
lab_option_ok(const char *sub, const char *opt)
{
	static const char *const up[] = { "--name", "--history", "--noise",
	    "--boot-seconds", "--pairs", "--revision", NULL };
	static const char *const pc[] = { "--name", "--host", NULL };
	const char *const	*list;
	size_t			 i;

	if (strcmp(sub, "up") == 0)
		list = up;
	else if (strcmp(sub, "power-cycle") == 0)
		list = pc;
	else
		return strcmp(opt, "--name") == 0;
	for (i = 0; list[i] != NULL; i++)
		if (strcmp(list[i], opt) == 0)
			return 1;
	return 0;
}

int
cmd_lab(int argc, char **argv)
{
	const char	*sub;
	char		 err[512];
	int		 i, rc;

	if (argc < 2)
		return lab_usage();
	sub = argv[1];
	if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
		lab_usage();
		return CMD_EXIT_OK;
	}
	if (strcmp(sub, "up") != 0 && strcmp(sub, "down") != 0 &&
	    strcmp(sub, "status") != 0 && strcmp(sub, "power-cycle") != 0) {
		fprintf(stderr, "labrat lab: unknown subcommand '%s'\n", sub);
		return lab_usage();
	}
	for (i = 2; i < argc; i += 2) {
		if (!lab_option_ok(sub, argv[i])) {
			fprintf(stderr, "labrat lab %s: unknown option '%s'\n",
			    sub, argv[i]);
			return lab_usage();
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "labrat lab %s: %s needs a value\n",
			    sub, argv[i]);
			return lab_usage();
		}
		if (strcmp(argv[i], "--name") == 0 &&
		    !lab_name_valid(argv[i + 1])) {
			fprintf(stderr, "labrat lab %s: bad lab name '%s' "
			    "(want ^[a-z][a-z0-9-]{0,31}$)\n", sub,
			    argv[i + 1]);
			return CMD_EXIT_USAGE;
		}
	}
	rc = lab_labctl(sub, argv + 2, (size_t)(argc - 2), err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "labrat: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	return rc > CMD_EXIT_USAGE ? CMD_EXIT_FAIL : rc;
}
