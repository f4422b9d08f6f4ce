/*
 * main: argv -> an entry of the command table (cmd.h), like git.  The
 * common options (-v/-vv, --db FILE, --format F, --help/-h) are taken out
 * of argv here, before or after the command's words, so that every command
 * treats them the same; the entry's own options are left for its exec.
 */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "log.h"
#include "ssh.h"
#include "util.h"

const struct cmd_entry *const cmd_table[] = {
	&cmd_demo_entry,
	&cmd_lab_up_entry,
	&cmd_lab_down_entry,
	&cmd_lab_status_entry,
	&cmd_lab_advance_entry,
	&cmd_lab_power_cycle_entry,
	&cmd_config_check_entry,
	&cmd_db_migrate_entry,
	&cmd_db_check_entry,
	&cmd_db_path_entry,
	&cmd_hosts_release_entry,	/* before "hosts": matched first */
	&cmd_hosts_health_entry,
	&cmd_hosts_maintenance_entry,
	&cmd_hosts_check_entry,
	&cmd_hosts_entry,
	&cmd_run_entry,
	&cmd_report_entry,
	&cmd_compare_entry,
	&cmd_runs_entry,
	&cmd_bisect_start_entry,
	&cmd_bisect_status_entry,
	&cmd_bisect_log_entry,
	&cmd_bisect_resume_entry,
	&cmd_bisect_reset_entry,
	&cmd_schedule_add_entry,
	&cmd_schedule_list_entry,
	&cmd_schedule_show_entry,
	&cmd_schedule_rm_entry,
	&cmd_schedule_enable_entry,
	&cmd_schedule_disable_entry,
	&cmd_queue_entry,
	&cmd_notify_test_entry,
	&cmd_schedule_fire_entry,
	&cmd_regressions_entry,
	&cmd_serve_entry,
	&cmd_token_add_entry,
	&cmd_token_list_entry,
	&cmd_token_revoke_entry,
	&cmd_help_entry,
};
const size_t cmd_table_len = sizeof cmd_table / sizeof cmd_table[0];

/* The common options, wherever they stood. */
struct common {
	const char	*db;
	const char	*format;
	const char	*server;
	const char	*token_file;
	const char	*cafile;
	int		 verbose;
	int		 help;
};

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

void
cmd_usage_line(const struct cmd_entry *e, char *buf, size_t len)
{
	char	fmt[128] = "";

	if (e->formats != NULL)
		snprintf(fmt, sizeof fmt, " [--format %s]", e->formats);
	snprintf(buf, len, "labrat %s%s%s%s%s", e->name,
	    e->args[0] != '\0' ? " " : "", e->args,
	    (e->flags & CMD_DB) ? " [--db FILE]" : "", fmt);
}

static void
usage_to(const struct cmd_entry *e, FILE *fp)
{
	char	line[1024];

	cmd_usage_line(e, line, sizeof line);
	fprintf(fp, "usage: %s\n", line);
}

int
cmd_usage_error(const struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list	ap;

	fprintf(stderr, "labrat %s: ", ctx->entry->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_to(ctx->entry, stderr);
	return CMD_EXIT_USAGE;
}

int
cmd_getopt(struct cmd_ctx *ctx, const struct option *longopts)
{
	int	ch, idx = -1;

	opterr = 0;
	ch = getopt_long(ctx->argc, ctx->argv, ":", longopts, &idx);
	if (ch == '?') {
		cmd_usage_error(ctx, "unknown option %s",
		    ctx->argv[optind - 1]);
	} else if (ch == ':') {
		cmd_usage_error(ctx, "%s needs a value",
		    ctx->argv[optind - 1]);
		ch = '?';
	}
	return ch;
}

int
cmd_positionals(const struct cmd_ctx *ctx, int first, int min, int max,
    const char *names)
{
	const char	*p = names;
	int		 n = ctx->argc - first, k;

	if (n < min) {
		/* Name the missing ones: the words of names from the n-th. */
		for (k = 0; k < n && strchr(p, ' ') != NULL; k++)
			p = strchr(p, ' ') + 1;
		cmd_usage_error(ctx, "%s missing", p);
		return -1;
	}
	if (n > max) {
		if (max == 0)
			cmd_usage_error(ctx, "unexpected argument '%s'",
			    ctx->argv[first]);
		else
			cmd_usage_error(ctx, "unexpected argument '%s' after "
			    "%s", ctx->argv[first + max], names);
		return -1;
	}
	return 0;
}

void
cmd_config_errors(const struct config_errors *errs)
{
	size_t	i;
	char	safe[4096];

	for (i = 0; i < errs->n; i++)
		fprintf(stderr, "%s\n", util_term_safe(safe, sizeof safe,
		    errs->msgs[i], (size_t)-1));
	if (errs->dropped > 0)
		fprintf(stderr, "... and %zu more errors\n", errs->dropped);
}

static volatile sig_atomic_t	cmd_stop;
static struct sigaction		cmd_old_int, cmd_old_term;
static int			cmd_stop_depth;

static void
cmd_on_stop(int sig)
{
	(void)sig;
	cmd_stop = 1;
}

volatile sig_atomic_t *
cmd_stop_flag(void)
{
	return &cmd_stop;
}

void
cmd_stop_catch(void)
{
	struct sigaction	sa;

	if (cmd_stop_depth++ > 0)
		return;
	cmd_stop = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = cmd_on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &cmd_old_int);
	sigaction(SIGTERM, &sa, &cmd_old_term);
}

void
cmd_stop_release(void)
{
	if (cmd_stop_depth == 0 || --cmd_stop_depth > 0)
		return;
	sigaction(SIGINT, &cmd_old_int, NULL);
	sigaction(SIGTERM, &cmd_old_term, NULL);
}

struct config_inventory *
cmd_inventory(const char *path)
{
	struct config_inventory	*inv;
	struct config_errors	 errs;

	config_errors_init(&errs);
	if ((inv = config_inventory_load(path, &errs)) == NULL)
		cmd_config_errors(&errs);
	config_errors_free(&errs);
	return inv;
}

static const char *
format_default(const struct cmd_entry *e, char *buf, size_t len)
{
	if (e->formats == NULL)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(e->formats, "|"),
	    e->formats);
	return buf;
}

int
cmd_call(const struct cmd_entry *e, const struct cmd_ctx *parent,
    char **argv)
{
	struct cmd_ctx	ctx;
	char		fmt[32];

	memset(&ctx, 0, sizeof ctx);
	ctx.entry = e;
	ctx.argv = argv;
	while (argv[ctx.argc] != NULL)
		ctx.argc++;
	ctx.db = (e->flags & CMD_DB) ? parent->db : NULL;
	ctx.format = format_default(e, fmt, sizeof fmt);
	ctx.verbose = parent->verbose;
	fflush(stdout);
	return e->exec(&ctx);
}

/* Is value one of the |-separated words of list? */
static int
format_listed(const char *list, const char *value)
{
	size_t	n = strlen(value);
	const char *p;

	for (p = list; p != NULL; p = strchr(p, '|')) {
		if (*p == '|')
			p++;
		if (strncmp(p, value, n) == 0 && (p[n] == '|' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/* The common options with a value, and where each goes in struct common. */
static const char **
common_valued(const char *a, struct common *c, const char **value)
{
	static const struct { const char *name; size_t off; } v[] = {
		{ "--db", offsetof(struct common, db) },
		{ "--format", offsetof(struct common, format) },
		{ "--server", offsetof(struct common, server) },
		{ "--token-file", offsetof(struct common, token_file) },
		{ "--cafile", offsetof(struct common, cafile) },
	};
	size_t	i, n;

	*value = NULL;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		n = strlen(v[i].name);
		if (strncmp(a, v[i].name, n) != 0 || (a[n] != '\0' &&
		    a[n] != '='))
			continue;
		if (a[n] == '=')
			*value = a + n + 1;
		return (const char **)(void *)((char *)c + v[i].off);
	}
	return NULL;
}

/*
 * Takes a common option at args[i] into c; returns how many arguments it
 * used (1 or 2), 0 when args[i] is not one, -1 when its value is missing.
 */
static int
common_one(char **args, int i, int n, struct common *c)
{
	const char	*a = args[i], *value, **slot;

	if (strcmp(a, "-v") == 0) {
		if (c->verbose < 2)
			c->verbose++;
	} else if (strcmp(a, "-vv") == 0)
		c->verbose = 2;
	else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
		c->help = 1;
	else if ((slot = common_valued(a, c, &value)) != NULL) {
		if (value != NULL) {
			*slot = value;
			return 1;
		}
		if (i + 1 >= n)
			return -1;
		*slot = args[i + 1];
		return 2;
	} else
		return 0;
	return 1;
}

/*
 * Moves the common options out of args[0..n-1] into c and the others, in
 * order, to out (room for n + 1).  Returns how many went to out, or -1
 * after an error message.  Nothing after "--" is an option.
 */
static int
common_take(const char *who, char **args, int n, struct common *c,
    char **out)
{
	int	i, k, nout = 0, dashdash = 0;

	for (i = 0; i < n; i += k) {
		k = 1;
		if (!dashdash && strcmp(args[i], "--") == 0)
			dashdash = 1;
		else if (!dashdash && (k = common_one(args, i, n, c)) != 0) {
			if (k == -1) {
				fprintf(stderr, "labrat%s%s: %s needs a value\n",
				    who[0] != '\0' ? " " : "", who, args[i]);
				return -1;
			}
			continue;
		}
		k = 1;
		out[nout++] = args[i];
	}
	out[nout] = NULL;
	return nout;
}

/* The entry named by args[0] (and args[1]); *nwords: how many it used. */
static const struct cmd_entry *
entry_find(char **args, int n, int *nwords)
{
	const struct cmd_entry	*e;
	size_t			 i, l;

	for (i = 0; i < cmd_table_len; i++) {
		e = cmd_table[i];
		l = strcspn(e->name, " ");
		if (strncmp(e->name, args[0], l) != 0 || args[0][l] != '\0')
			continue;
		if (e->name[l] == '\0') {
			*nwords = 1;
			return e;
		}
		if (n > 1 && strcmp(e->name + l + 1, args[1]) == 0) {
			*nwords = 2;
			return e;
		}
	}
	return NULL;
}

/* Is word a command with subcommands ("lab", "bisect")? */
static int
entry_group(const char *word)
{
	size_t	i, l = strlen(word);

	for (i = 0; i < cmd_table_len; i++)
		if (strncmp(cmd_table[i]->name, word, l) == 0 &&
		    cmd_table[i]->name[l] == ' ')
			return 1;
	return 0;
}

/* `labrat GROUP` with a missing or unknown subcommand. */
static int
group_error(const char *word, char **rest, int nrest, int help)
{
	if (help) {
		cmd_help_group(word, stdout);
		return CMD_EXIT_OK;
	}
	if (nrest == 0 || rest[0][0] == '-')
		fprintf(stderr, "labrat %s: missing subcommand\n", word);
	else
		fprintf(stderr, "labrat %s: unknown subcommand '%s'\n", word,
		    rest[0]);
	cmd_help_usages(word, stderr);
	return CMD_EXIT_USAGE;
}

/* Checks --format against the entry's list; sets ctx->format. */
static int
format_check(struct cmd_ctx *ctx, const char *given, char *buf, size_t len)
{
	const struct cmd_entry	*e = ctx->entry;

	ctx->format = format_default(e, buf, len);
	if (given == NULL)
		return 0;
	if (e->formats == NULL) {
		cmd_usage_error(ctx, "--format %s: this command prints no "
		    "results to format", given);
		return -1;
	}
	if (!format_listed(e->formats, given)) {
		cmd_usage_error(ctx, "--format %s: not one of %s", given,
		    e->formats);
		return -1;
	}
	ctx->format = given;
	return 0;
}

/* An environment variable's value, NULL when unset or empty. */
static const char *
env_or_null(const char *name)
{
	const char	*v = getenv(name);

	return v != NULL && *v != '\0' ? v : NULL;
}

/*
 * Where a CMD_REMOTE entry reads: --server, else $LABRAT_SERVER unless
 * --db was given; the token and CA files likewise.  The remote options
 * on any other entry, --db with --server, or a token or CA file without
 * a server are usage errors.  0 or -1 after saying so.
 */
static int
remote_check(struct cmd_ctx *ctx, const struct common *c)
{
	if (!(ctx->entry->flags & CMD_REMOTE)) {
		if (c->server == NULL && c->token_file == NULL &&
		    c->cafile == NULL)
			return 0;
		cmd_usage_error(ctx, "%s: this command works on the local "
		    "database only", c->server != NULL ? "--server" :
		    c->token_file != NULL ? "--token-file" : "--cafile");
		return -1;
	}
	if (c->server != NULL && c->db != NULL) {
		cmd_usage_error(ctx, "--db and --server: one or the other");
		return -1;
	}
	ctx->server = c->server != NULL ? c->server : c->db != NULL ? NULL :
	    env_or_null("LABRAT_SERVER");
	ctx->token_file = c->token_file != NULL ? c->token_file :
	    env_or_null("LABRAT_TOKEN_FILE");
	ctx->cafile = c->cafile != NULL ? c->cafile :
	    env_or_null("LABRAT_CAFILE");
	if (ctx->server == NULL && (c->token_file != NULL ||
	    c->cafile != NULL)) {
		cmd_usage_error(ctx, "%s needs --server URL (or "
		    "$LABRAT_SERVER)", c->token_file != NULL ? "--token-file" :
		    "--cafile");
		return -1;
	}
	if (ctx->server == NULL) {
		ctx->token_file = NULL;
		ctx->cafile = NULL;
	}
	return 0;
}

/* Runs entry e with args (the words after its name) and c so far. */
static int
entry_run(const struct cmd_entry *e, char **args, int n, struct common *c)
{
	struct cmd_ctx	 ctx;
	char		**av, fmt[32], *db = NULL;
	int		 rc;

	av = xcalloc((size_t)n + 2, sizeof *av);
	av[0] = (char *)e->name;
	memset(&ctx, 0, sizeof ctx);
	ctx.entry = e;
	ctx.argv = av;
	rc = common_take(e->name, args, n, c, av + 1);
	if (rc == -1) {
		free(av);
		return CMD_EXIT_USAGE;
	}
	ctx.argc = rc + 1;
	if (c->help) {
		cmd_help_print(e, stdout);
		free(av);
		return CMD_EXIT_OK;
	}
	if (format_check(&ctx, c->format, fmt, sizeof fmt) == -1 ||
	    remote_check(&ctx, c) == -1) {
		free(av);
		return CMD_EXIT_USAGE;
	}
	log_init(LOG_LEVEL_WARN + c->verbose, "labrat");
	log_set_escape(util_term_safe);
	ctx.verbose = c->verbose;
	if ((e->flags & CMD_DB) && ctx.server == NULL)
		ctx.db = db = cmd_db_path(c->db);
	if ((e->flags & CMD_SSH) && ssh_global_init() == -1) {
		fprintf(stderr, "labrat %s: libssh2 cannot be initialised\n",
		    e->name);
		rc = CMD_EXIT_FAIL;
	} else {
		rc = e->exec(&ctx);
		if (e->flags & CMD_SSH)
			ssh_global_cleanup();
	}
	free(db);
	free(av);
	return rc;
}

int
main(int argc, char **argv)
{
	const struct cmd_entry	*e;
	struct common		 c;
	char			 err[256];
	int			 argi = 1, k, nwords;

	memset(&c, 0, sizeof c);
	if (util_clock_init(err, sizeof err) == -1) {
		fprintf(stderr, "labrat: %s\n", err);
		return CMD_EXIT_USAGE;
	}
	for (; argi < argc && argv[argi][0] == '-'; argi += k) {
		if (strcmp(argv[argi], "--version") == 0) {
			printf("labrat %s\n", LABRAT_VERSION);
			return CMD_EXIT_OK;
		}
		k = common_one(argv, argi, argc, &c);
		if (k <= 0) {
			fprintf(stderr, "labrat: %s %s\n", argv[argi], k == 0 ?
			    "is not an option of labrat" : "needs a value");
			cmd_help_usages(NULL, stderr);
			return CMD_EXIT_USAGE;
		}
	}
	log_init(LOG_LEVEL_WARN + c.verbose, "labrat");
	log_set_escape(util_term_safe);
	if (argi >= argc) {
		if (c.help) {
			cmd_help_usages(NULL, stdout);
			return CMD_EXIT_OK;
		}
		cmd_help_usages(NULL, stderr);
		return CMD_EXIT_USAGE;
	}
	e = entry_find(argv + argi, argc - argi, &nwords);
	if (e == NULL && entry_group(argv[argi])) {
		char	**rest = xcalloc((size_t)(argc - argi) + 1, sizeof *rest);
		int	  n, rc;

		n = common_take(argv[argi], argv + argi + 1, argc - argi - 1,
		    &c, rest);
		rc = n == -1 ? CMD_EXIT_USAGE :
		    group_error(argv[argi], rest, n, c.help);
		free(rest);
		return rc;
	}
	if (e == NULL) {
		fprintf(stderr, "labrat: unknown command '%s'\n", argv[argi]);
		cmd_help_usages(NULL, stderr);
		return CMD_EXIT_USAGE;
	}
	return entry_run(e, argv + argi + nwords, argc - argi - nwords, &c);
}
