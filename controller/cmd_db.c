/*
 * labrat db migrate|check|path [--db FILE]
 *
 * migrate creates the database (and its directory) if needed and brings its
 * schema up to date; check runs SQLite's integrity and foreign key checks
 * and compares the schema version with this binary's, without writing;
 * path prints which file the --db / LABRAT_DB / per-user default rule picks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "store.h"
#include "util.h"

/* None of them takes an argument of its own. */
static int
db_noargs(struct cmd_ctx *ctx)
{
	static const struct option none[] = { { NULL, 0, NULL, 0 } };

	optind = 1;
	if (cmd_getopt(ctx, none) != -1 ||
	    cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return -1;
	return 0;
}

static int
db_migrate(struct cmd_ctx *ctx)
{
	struct store	*st;
	const char	*path = ctx->db;
	char		 err[1024];
	int		 from, to;

	if (db_noargs(ctx) == -1)
		return CMD_EXIT_USAGE;
	if (store_open(path, STORE_OPEN_CREATE, &st, err, sizeof err) == -1) {
		fprintf(stderr, "labrat db migrate: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	if (store_migrate(st, &from, &to, err, sizeof err) == -1) {
		fprintf(stderr, "labrat db migrate: %s\n", err);
		store_close(st);
		return CMD_EXIT_FAIL;
	}
	if (from == to)
		printf("%s: schema version %d is up to date\n", path, to);
	else
		printf("%s: migrated schema version %d -> %d\n", path, from,
		    to);
	store_close(st);
	return CMD_EXIT_OK;
}

static int
db_check(struct cmd_ctx *ctx)
{
	struct store	*st;
	const char	*path = ctx->db;
	char		 err[1024];
	int		 version, latest = store_schema_latest(), rc;

	if (db_noargs(ctx) == -1)
		return CMD_EXIT_USAGE;
	if (store_open(path, STORE_OPEN_READONLY, &st, err, sizeof err) ==
	    -1) {
		fprintf(stderr, "labrat db check: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	if (store_schema_version(st, &version, err, sizeof err) == -1 ||
	    (rc = store_check(st, err, sizeof err)) == -1) {
		fprintf(stderr, "labrat db check: %s\n", err);
		store_close(st);
		return CMD_EXIT_FAIL;
	}
	store_close(st);
	if (rc == 1) {
		fprintf(stderr, "labrat db check: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	if (version < latest) {
		fprintf(stderr, "labrat db check: %s: integrity ok, but schema "
		    "version %d is older than this labrat (%d); run `labrat db "
		    "migrate`\n", path, version, latest);
		return CMD_EXIT_FAIL;
	}
	printf("%s: integrity ok, schema version %d (current)\n", path,
	    version);
	return CMD_EXIT_OK;
}

static int
db_path(struct cmd_ctx *ctx)
{
	if (db_noargs(ctx) == -1)
		return CMD_EXIT_USAGE;
	printf("%s\n", ctx->db);
	return CMD_EXIT_OK;
}

const struct cmd_entry cmd_db_migrate_entry = {
	.name = "db migrate",
	.args = "",
	.summary = "Creates the database (and its directory) if needed and "
	    "brings its schema up to date. A database written by a newer "
	    "labrat is refused and left unchanged.",
	.flags = CMD_DB,
	.exec = db_migrate,
};

const struct cmd_entry cmd_db_check_entry = {
	.name = "db check",
	.args = "",
	.summary = "Runs SQLite's integrity and foreign key checks and "
	    "compares the schema version with this labrat's, without "
	    "writing; exit 1 when something is wrong or the schema is old.",
	.flags = CMD_DB,
	.exec = db_check,
};

const struct cmd_entry cmd_db_path_entry = {
	.name = "db path",
	.args = "",
	.summary = "Prints which database file the --db, LABRAT_DB or "
	    "per-user default rule picks.",
	.flags = CMD_DB,
	.exec = db_path,
};
