/*
 * cmd_token: `labrat token add|list|revoke`: the bearer tokens of the HTTP
 * API (http_token.c makes and revokes them; report_tokens.c lists them).
 * `add` prints the secret alone on stdout, once (only a salted hash is
 * stored), and says so on stderr, so `labrat token add ci > ci.token`
 * leaves exactly the secret in the file.  Exit 0, 1 on a store error or a
 * taken / unknown name, 2 on bad usage (a bad name included).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "http.h"
#include "report.h"
#include "store.h"
#include "store_daemon.h"

static int
token_name_arg(struct cmd_ctx *ctx, const char **name)
{
	if (cmd_positionals(ctx, optind, 1, 1, "NAME") == -1)
		return -1;
	*name = ctx->argv[optind];
	if (!store_token_name_ok(*name)) {
		cmd_usage_error(ctx, "token name \"%.80s\": must be 1-%d "
		    "characters of A-Z a-z 0-9 . _ -", *name,
		    STORE_TOKEN_NAME_MAX);
		return -1;
	}
	return 0;
}

static int
token_open(struct cmd_ctx *ctx, struct store **st)
{
	char	err[1024];

	if (store_open(ctx->db, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, st,
	    err, sizeof err) == -1) {
		fprintf(stderr, "labrat %s: %s\n", ctx->entry->name, err);
		return -1;
	}
	return 0;
}

static int
token_add_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "read-only", no_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct store	*st;
	const char	*name;
	char		 secret[HTTP_TOKEN_SECRET_MAX], err[1024];
	int		 ch, ro = 0, rc;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch != 'r')
			return CMD_EXIT_USAGE;
		ro = 1;
	}
	if (token_name_arg(ctx, &name) == -1)
		return CMD_EXIT_USAGE;
	if (token_open(ctx, &st) == -1)
		return CMD_EXIT_FAIL;
	rc = http_token_add(st, name, ro, secret, sizeof secret, err,
	    sizeof err);
	store_close(st);
	if (rc == -1) {
		fprintf(stderr, "labrat token add: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	printf("%s\n", secret);
	memset(secret, 0, sizeof secret);
	if (fflush(stdout) != 0) {
		fprintf(stderr, "labrat token add: writing the secret failed: "
		    "revoke token %s and add another\n", name);
		return CMD_EXIT_FAIL;
	}
	fprintf(stderr, "labrat token add: token %s (%s) created; the secret "
	    "above is shown this once and cannot be shown again: keep it "
	    "now (send it as \"Authorization: Bearer SECRET\")\n", name,
	    ro ? "read-only" : "read-write");
	return CMD_EXIT_OK;
}

static int
token_list_exec(struct cmd_ctx *ctx)
{
	enum report_format	 fmt = REPORT_TEXT;
	struct store		*st;
	char			 err[1024];

	optind = 1;
	if (cmd_getopt(ctx, (const struct option[]){ { NULL, 0, NULL, 0 } })
	    != -1)
		return CMD_EXIT_USAGE;
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (report_format_parse(ctx->format, &fmt) == -1)
		return cmd_usage_error(ctx, "--format %s: unknown to the "
		    "report module", ctx->format);
	/* Migrated first, as add does: a fresh database lists no tokens. */
	if (token_open(ctx, &st) == -1)
		return CMD_EXIT_FAIL;
	store_close(st);
	if (report_tokens(ctx->db, fmt, stdout, err, sizeof err) == -1) {
		fprintf(stderr, "labrat token list: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	return fflush(stdout) == 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

static int
token_revoke_exec(struct cmd_ctx *ctx)
{
	struct store	*st;
	const char	*name;
	char		 err[1024];
	int		 rc;

	optind = 1;
	if (cmd_getopt(ctx, (const struct option[]){ { NULL, 0, NULL, 0 } })
	    != -1)
		return CMD_EXIT_USAGE;
	if (token_name_arg(ctx, &name) == -1)
		return CMD_EXIT_USAGE;
	if (token_open(ctx, &st) == -1)
		return CMD_EXIT_FAIL;
	rc = http_token_revoke(st, name, err, sizeof err);
	store_close(st);
	if (rc == -1) {
		fprintf(stderr, "labrat token revoke: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	printf("token %s revoked\n", name);
	return CMD_EXIT_OK;
}

const struct cmd_entry cmd_token_add_entry = {
	.name = "token add",
	.args = "NAME [--read-only]",
	.summary = "Creates a bearer token for the HTTP API (labrat serve) and "
	    "prints its secret, lrt_ID_RANDOM, alone on standard output: it is "
	    "shown this once, since the database keeps only a salted "
	    "HMAC-SHA256 of it.  NAME is 1-63 characters of A-Z a-z 0-9 . _ - "
	    "and stays taken after a revoke.  A read-only token may read but "
	    "not enqueue, start, reset, cancel or change anything.",
	.options = (const struct cmd_option[]){
		{ "--read-only", "The token may only read (GET)." },
		{ NULL, NULL } },
	.flags = CMD_DB,
	.exec = token_add_exec,
};

const struct cmd_entry cmd_token_list_entry = {
	.name = "token list",
	.args = "",
	.summary = "Lists the API's tokens: name, id, access (read-only or "
	    "read-write), when each was created, last used and revoked (UTC). "
	    " Secrets and their hashes are never shown.",
	.flags = CMD_DB,
	.formats = "text|json",
	.exec = token_list_exec,
};

const struct cmd_entry cmd_token_revoke_entry = {
	.name = "token revoke",
	.args = "NAME",
	.summary = "Revokes a token: the API refuses it (401) from the next "
	    "request on.  Its row stays, so list shows when it was revoked.",
	.flags = CMD_DB,
	.exec = token_revoke_exec,
};
