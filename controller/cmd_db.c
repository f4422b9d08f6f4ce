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

static int
db_usage(void)
{
	fprintf(stderr, "usage: labrat db migrate|check|path [--db FILE]\n");
	return CMD_EXIT_USAGE;
}

static int
db_migrate(const char *path)
{
	struct store	*st;
	char		 err[1024];
	int		 from, to;

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
db_check(const char *path)
{
	struct store	*st;
	char		 err[1024];
	int		 version, latest = store_schema_latest(), rc;

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

int
cmd_db(int argc, char **argv)
{
	const char	*verb = NULL, *opt = NULL;
	char		*path;
	int		 i, rc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
			opt = argv[++i];
		else if (strncmp(argv[i], "--db=", 5) == 0)
			opt = argv[i] + 5;
		else if (argv[i][0] != '-' && verb == NULL)
			verb = argv[i];
		else
			return db_usage();
	}
	if (verb == NULL)
		return db_usage();
	path = cmd_db_path(opt);
	if (strcmp(verb, "migrate") == 0)
		rc = db_migrate(path);
	else if (strcmp(verb, "check") == 0)
		rc = db_check(path);
	else if (strcmp(verb, "path") == 0) {
		printf("%s\n", path);
		rc = CMD_EXIT_OK;
	} else
		rc = db_usage();
	free(path);
	return rc;
}
