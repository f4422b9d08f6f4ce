/*
 * labrat help [COMMAND [SUBCOMMAND]] | --man
 *
 * Everything a user reads about the command line comes from the command
 * table: a command's --help (cmd_help_print), the list of usage lines,
 * and the man page (labrat.1, roff, cmd_man.c).
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "util.h"

#define HELP_WIDTH	78
#define HELP_FLAGCOL	24

/* The common options, as --help and the man page describe them: --db
 * first (for CMD_DB entries only), then those of every command. */
const struct cmd_option cmd_common_options[] = {
	{ "--db FILE", "The database (SQLite). Default: $LABRAT_DB, else "
	    "$XDG_STATE_HOME/labrat/labrat.db, else "
	    "~/.local/state/labrat/labrat.db." },
	{ "-v, -vv", "More log output on stderr: progress (-v), debugging "
	    "(-vv). Before or after the command." },
	{ "-h, --help", "Print the command's usage and options, and exit 0." },
	{ NULL, NULL }
};

const struct cmd_option cmd_remote_options[] = {
	{ "--server URL", "Ask the daemon's HTTP API at URL "
	    "(http://HOST:PORT or https://HOST:PORT) instead of opening the "
	    "database; the output is the same.  Default: $LABRAT_SERVER "
	    "unless --db is given." },
	{ "--token-file F", "The API token (labrat token add), alone on the "
	    "first line of F.  Default: $LABRAT_TOKEN_FILE." },
	{ "--cafile F", "PEM CA certificates to verify an https:// server "
	    "with.  Default: $LABRAT_CAFILE, else the system's." },
	{ NULL, NULL }
};

static void
help_option(FILE *fp, const char *flag, const char *text)
{
	int	col = fprintf(fp, "  %s", flag);

	if (col + 2 > HELP_FLAGCOL) {
		fputc('\n', fp);
		col = 0;
	}
	util_wrap(fp, text, HELP_WIDTH, HELP_FLAGCOL, col);
}

void
cmd_help_print(const struct cmd_entry *e, FILE *fp)
{
	const struct cmd_option	*o;
	char			 line[1024], fmt[256];

	cmd_usage_line(e, line, sizeof line);
	fprintf(fp, "usage: %s\n\n", line);
	util_wrap(fp, e->summary, HELP_WIDTH, 0, 0);
	fprintf(fp, "\noptions:\n");
	for (o = e->options; o != NULL && o->flag != NULL; o++)
		help_option(fp, o->flag, o->help);
	if (e->flags & CMD_DB)
		help_option(fp, cmd_common_options[0].flag,
		    cmd_common_options[0].help);
	if (e->formats != NULL) {
		snprintf(fmt, sizeof fmt, "Output format, one of %s (default: "
		    "%.*s).", e->formats, (int)strcspn(e->formats, "|"),
		    e->formats);
		help_option(fp, "--format F", fmt);
	}
	if (e->flags & CMD_REMOTE)
		for (o = cmd_remote_options; o->flag != NULL; o++)
			help_option(fp, o->flag, o->help);
	for (o = cmd_common_options + 1; o->flag != NULL; o++)
		help_option(fp, o->flag, o->help);
}

/* Is e a subcommand of group (NULL: every entry is)? */
static int
help_in(const struct cmd_entry *e, const char *group)
{
	size_t	l;

	if (group == NULL)
		return 1;
	l = strlen(group);
	return strncmp(e->name, group, l) == 0 && e->name[l] == ' ';
}

void
cmd_help_group(const char *group, FILE *fp)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < cmd_table_len; i++) {
		if (!help_in(cmd_table[i], group))
			continue;
		if (n++ > 0)
			fputc('\n', fp);
		cmd_help_print(cmd_table[i], fp);
	}
}

void
cmd_help_usages(const char *group, FILE *fp)
{
	char	line[1024];
	size_t	i;
	int	n = 0;

	if (group == NULL)
		fprintf(fp, "usage: labrat [-v|-vv] [--version] COMMAND "
		    "[ARGS]\n\ncommands:\n");
	for (i = 0; i < cmd_table_len; i++) {
		if (!help_in(cmd_table[i], group))
			continue;
		cmd_usage_line(cmd_table[i], line, sizeof line);
		if (group == NULL)
			fprintf(fp, "  %s\n", line);
		else
			fprintf(fp, "%s%s\n", n++ == 0 ? "usage: " :
			    "       ", line);
	}
	if (group == NULL)
		fprintf(fp, "\n`labrat help COMMAND` or `labrat COMMAND "
		    "--help` tells more of one.\n");
}

static int
help_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "man", no_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd_entry	*e;
	size_t			 i;
	int			 ch, man = 0, a;
	char			 want[128];

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch != 'm')
			return CMD_EXIT_USAGE;
		man = 1;
	}
	a = optind;
	if (cmd_positionals(ctx, a, 0, man ? 0 : 2, "COMMAND SUBCOMMAND") ==
	    -1)
		return CMD_EXIT_USAGE;
	if (man) {
		cmd_man_print(stdout);
		return CMD_EXIT_OK;
	}
	if (a == ctx->argc) {
		cmd_help_usages(NULL, stdout);
		return CMD_EXIT_OK;
	}
	snprintf(want, sizeof want, "%s%s%s", ctx->argv[a],
	    a + 1 < ctx->argc ? " " : "", a + 1 < ctx->argc ?
	    ctx->argv[a + 1] : "");
	/* A command first ("hosts"), then a group ("lab"): a command may
	 * have subcommands too ("hosts release"). */
	for (i = 0; i < cmd_table_len; i++) {
		if (strcmp(cmd_table[i]->name, want) == 0) {
			cmd_help_print(cmd_table[i], stdout);
			return CMD_EXIT_OK;
		}
	}
	for (i = 0; i < cmd_table_len; i++) {
		e = cmd_table[i];
		if (a + 1 == ctx->argc && help_in(e, want)) {
			cmd_help_group(want, stdout);
			return CMD_EXIT_OK;
		}
	}
	return cmd_usage_error(ctx, "no command '%s'", want);
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.args = "[COMMAND [SUBCOMMAND] | --man]",
	.summary = "Prints the usage of every command, the full usage and "
	    "options of one, or (--man) this manual as roff.",
	.options = (const struct cmd_option[]){
		{ "--man", "Write the man page labrat(1), generated from the "
		    "command table, to stdout." },
		{ NULL, NULL } },
	.exec = help_exec,
};
