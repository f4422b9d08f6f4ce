/*
 * main: argv -> subcommand, like git.  Global options come before the
 * subcommand; everything else belongs to the subcommand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "util.h"

struct cmd_entry {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*usage;
	const char	*issue;	/* where the missing work is tracked */
};

static const struct cmd_entry cmds[] = {
	{ "demo", cmd_demo, "demo [--db FILE] [--noise PCT] [--keep]", "#5" },
	{ "lab", cmd_lab, "lab up|down|status|power-cycle [--name NAME] ...",
	  "#4" },
	{ "config", cmd_config,
	  "config check FILE... | --inventory F --plan F", "#2" },
	{ "db", cmd_db, "db migrate|check|path [--db FILE]", "#2" },
	{ "hosts", cmd_hosts, "hosts --inventory FILE [--format text|json]",
	  "#5" },
	{ "run", cmd_run, "run --inventory F --plan F | --resume RUN "
	  "[--db FILE] [--format text|json]", "#5" },
	{ "report", cmd_report, "report [RUN] [--format text|json|csv|junit]",
	  "#6" },
	{ "compare", cmd_compare, "compare RUN_A RUN_B [--link L] [--knobs K]",
	  "#6" },
	{ "bisect", cmd_bisect, "bisect start|status|log|resume|reset ...",
	  "#7" },
	{ "serve", cmd_serve, "serve",
	  "nowhere yet: the daemon and dashboard have no issue" },
};

static void
usage(FILE *fp)
{
	size_t	i;

	fprintf(fp, "usage: labrat [-v] [--version] COMMAND [ARGS]\n\n");
	fprintf(fp, "commands:\n");
	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		if (cmds[i].fn != NULL)
			fprintf(fp, "  %s\n", cmds[i].usage);
		else
			fprintf(fp, "  %-50s(not implemented yet)\n",
			    cmds[i].usage);
	}
}

char *
cmd_db_path(const char *opt)
{
	const char	*env, *home;

	if (opt != NULL && *opt != '\0')
		return xstrdup(opt);
	env = getenv("LABRAT_DB");
	if (env != NULL && *env != '\0')
		return xstrdup(env);
	env = getenv("XDG_STATE_HOME");
	if (env != NULL && *env == '/')
		return xasprintf("%s/labrat/labrat.db", env);
	home = getenv("HOME");
	if (home == NULL || *home != '/')
		home = "/tmp";
	return xasprintf("%s/.local/state/labrat/labrat.db", home);
}

int
main(int argc, char **argv)
{
	enum log_level	level = LOG_LEVEL_WARN;
	size_t		i;
	int		argi = 1;

	while (argi < argc && argv[argi][0] == '-') {
		if (strcmp(argv[argi], "-v") == 0) {
			if (level < LOG_LEVEL_DEBUG)
				level++;
		} else if (strcmp(argv[argi], "-vv") == 0) {
			level = LOG_LEVEL_DEBUG;
		} else if (strcmp(argv[argi], "--version") == 0) {
			printf("labrat %s\n", LABRAT_VERSION);
			return CMD_EXIT_OK;
		} else if (strcmp(argv[argi], "-h") == 0 ||
		    strcmp(argv[argi], "--help") == 0) {
			usage(stdout);
			return CMD_EXIT_OK;
		} else {
			fprintf(stderr, "labrat: unknown option %s\n",
			    argv[argi]);
			usage(stderr);
			return CMD_EXIT_USAGE;
		}
		argi++;
	}
	log_init(level, "labrat");
	if (argi >= argc) {
		usage(stderr);
		return CMD_EXIT_USAGE;
	}
	if (strcmp(argv[argi], "help") == 0) {
		usage(stdout);
		return CMD_EXIT_OK;
	}
	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		if (strcmp(argv[argi], cmds[i].name) != 0)
			continue;
		if (argi + 1 < argc && (strcmp(argv[argi + 1], "--help") == 0 ||
		    strcmp(argv[argi + 1], "-h") == 0)) {
			printf("usage: labrat %s\n(see README.md for the "
			    "details)\n", cmds[i].usage);
			return CMD_EXIT_OK;
		}
		if (cmds[i].fn == NULL) {
			fprintf(stderr, "labrat %s: not implemented yet "
			    "(tracked %s%s)\n", cmds[i].name,
			    cmds[i].issue[0] == '#' ? "in issue " : "",
			    cmds[i].issue);
			return CMD_EXIT_FAIL;
		}
		return cmds[i].fn(argc - argi, argv + argi);
	}
	fprintf(stderr, "labrat: unknown command '%s'\n", argv[argi]);
	usage(stderr);
	return CMD_EXIT_USAGE;
}
