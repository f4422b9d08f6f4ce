/*
 * The man page, labrat(1) in roff (man macros), written by `labrat help
 * --man` from the command table: a section per entry with its usage line,
 * summary and options, then the common options, exit status and
 * environment.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* Writes s for roff: backslashes and hyphens escaped, no request at the
 * start of a line. */
static void
roff(FILE *fp, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", fp);
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\e", fp);
		else if (*s == '-')
			fputs("\\-", fp);
		else
			fputc(*s, fp);
	}
}

static void
man_option(FILE *fp, const char *flag, const char *text)
{
	fputs(".TP\n.B ", fp);
	roff(fp, flag);
	fputc('\n', fp);
	roff(fp, text);
	fputc('\n', fp);
}

static void
man_entry(FILE *fp, const struct cmd_entry *e)
{
	const struct cmd_option	*o;
	char			 line[1024], fmt[256];

	cmd_usage_line(e, line, sizeof line);
	fputs(".SS ", fp);
	roff(fp, e->name);
	fputs("\n.B ", fp);
	roff(fp, line);
	fputs("\n.PP\n", fp);
	roff(fp, e->summary);
	fputc('\n', fp);
	for (o = e->options; o != NULL && o->flag != NULL; o++)
		man_option(fp, o->flag, o->help);
	if (e->formats != NULL) {
		snprintf(fmt, sizeof fmt, "Output format, one of %s (default: "
		    "%.*s).", e->formats, (int)strcspn(e->formats, "|"),
		    e->formats);
		man_option(fp, "--format F", fmt);
	}
}

void
cmd_man_print(FILE *fp)
{
	const struct cmd_option	*o;
	size_t			 i, n;

	fprintf(fp, ".\\\" labrat.1, written by `labrat help --man` from "
	    "the command table\n.TH LABRAT 1 \"\" \"labrat %s\" \"labrat "
	    "manual\"\n.SH NAME\nlabrat \\- hunt network\\-driver regressions "
	    "in a lab of real or simulated hosts\n.SH SYNOPSIS\n.B labrat\n"
	    ".RB [ \\-v | \\-vv ]\n.I command\n.RI [ arguments ]\n"
	    ".SH DESCRIPTION\nlabrat drives pairs of lab hosts, flips NIC and "
	    "stack settings, measures throughput, keeps every sample in a "
	    "database, tells a regression from noise and bisects kernel "
	    "revisions to the one that caused it.\n.SH COMMON OPTIONS\n",
	    LABRAT_VERSION);
	for (o = cmd_common_options; o->flag != NULL; o++)
		man_option(fp, o->flag, o->help);
	man_option(fp, "--version", "Print labrat's version and exit 0.");
	fputs(".SH REMOTE OPTIONS\nThese commands take the options below to "
	    "ask a daemon's HTTP API (labrat serve) instead of the database, "
	    "and print the same:", fp);
	for (i = 0, n = 0; i < cmd_table_len; i++)
		if (cmd_table[i]->flags & CMD_REMOTE) {
			fputs(n++ > 0 ? ", " : " ", fp);
			roff(fp, cmd_table[i]->name);
		}
	fputs(".  Remotely, run and bisect start only queue (\\-\\-enqueue: "
	    "the daemon runs them), and their file options must be absolute "
	    "paths on the daemon's host.  Any other command refuses \\-\\-server "
	    "(\"works on the local database only\", exit 2).\n", fp);
	for (o = cmd_remote_options; o->flag != NULL; o++)
		man_option(fp, o->flag, o->help);
	fputs(".SH COMMANDS\n", fp);
	for (i = 0; i < cmd_table_len; i++)
		man_entry(fp, cmd_table[i]);
	fputs(".SH EXIT STATUS\n0 on success, 1 on failure, 2 on bad usage "
	    "or bad config.\n.SH ENVIRONMENT\n.TP\n.B LABRAT_DB\nThe database "
	    "when \\-\\-db is not given.\n.TP\n.B LABRAT_SERVER\nThe "
	    "daemon's API URL for the commands that take \\-\\-server, "
	    "when neither \\-\\-server nor \\-\\-db is given.\n.TP\n"
	    ".B LABRAT_TOKEN_FILE\nThe API token file when "
	    "\\-\\-token\\-file is not given.\n.TP\n.B LABRAT_CAFILE\n"
	    "The CA file when \\-\\-cafile is not given.\n.TP\n"
	    ".B XDG_STATE_HOME\nWhere the "
	    "default database lives (labrat/labrat.db under it).\n.TP\n"
	    ".B LABRAT_DATADIR\nlabrat's data directory: simlab/, configs/, "
	    "schemas/, agents/ (default: share/labrat of the install the "
	    "binary belongs to, else the source tree it was built from).\n"
	    ".TP\n.B LABRAT_SIMLAB_DIR\nThe simulated lab's scripts "
	    "(default: simlab/ of the data directory).\n"
	    ".SH FILES\n.TP\n.I /var/lib/labrat/labrat.db\nThe database of "
	    "the labrat.service daemon.\n"
	    ".SH SEE ALSO\nREADME.md in labrat's source tree.\n", fp);
}

