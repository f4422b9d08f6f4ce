/*
 * cmd_lease.c: `lease take|renew|release|show` and the lease gate of the
 * changing subcommands (PROTOCOL.md "Host lease").  The lease itself is
 * lease.c; this file parses arguments and prints events.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agent.h"
#include "emit.h"
#include "lease.h"
#include "validate.h"

static void
emit_lease(struct emit *e, const char *key, const struct lease *l,
    long long now)
{
	char	 msg[256];

	if (l == NULL) {
		emit_null(e, key);
		return;
	}
	lease_describe(l, msg, sizeof(msg));
	emit_obj(e, key);
	emit_str(e, "owner", l->owner);
	emit_str(e, "host", l->host);
	emit_int(e, "pid", l->pid);
	emit_str(e, "run", l->run);
	emit_int(e, "since", l->since);
	emit_int(e, "renewed", l->renewed);
	emit_int(e, "ttl", l->ttl);
	emit_int(e, "expires", l->expires);
	if (l->hold_until > 0)
		emit_int(e, "hold_until", l->hold_until);
	else
		emit_null(e, "hold_until");
	emit_int(e, "until", lease_until(l));
	emit_bool(e, "live", lease_live(l, now));
	emit_str(e, "message", msg);
	emit_end(e);
}

/* The error event; a refusal carries the lease that refused. */
static int
lease_error(int rc, const char *msg, const struct lease *cur, int found)
{
	struct emit e;

	if (rc != AGENT_EXIT_LEASED && rc != AGENT_EXIT_UNLEASED)
		return emit_error(rc, msg);
	fprintf(stderr, "labrat-agent: %s: %s\n", emit_class(rc), msg);
	emit_begin(&e, "error");
	emit_str(&e, "class", emit_class(rc));
	emit_str(&e, "message", msg);
	emit_lease(&e, "lease", found ? cur : NULL, (long long)time(NULL));
	emit_flush(&e);
	return rc;
}

int
agent_lease_gate(const char *cmd, const char *owner, int *keep)
{
	struct lease cur;
	char	 err[512], msg[640];
	int	 found, rc;

	rc = lease_guard(owner, keep, &cur, &found, err, sizeof(err));
	if (rc == AGENT_EXIT_OK)
		return rc;
	if (rc != AGENT_EXIT_UNLEASED)	/* LEASED: exactly "leased by ..." */
		return lease_error(rc, err, &cur, found);
	snprintf(msg, sizeof(msg), "%s refused: %s", cmd, err);
	return lease_error(rc, msg, &cur, found);
}

static void
result_begin(struct emit *e, const char *action, long long now)
{
	emit_begin(e, "result");
	emit_str(e, "cmd", "lease");
	emit_str(e, "action", action);
	emit_int(e, "now", now);
}

static int
cmd_take(int argc, char **argv, long long now)
{
	struct validate_opt opts[] = {
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ "--host", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ "--pid", VALIDATE_PID, 0, 0, NULL, { NULL } },
		{ "--run", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ "--ttl", VALIDATE_SECONDS, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct lease want, out, prev;
	struct lease_restored r;
	struct emit e;
	char	 err[1024];
	int	 i, had, renewed, rc, ttl = LEASE_DEFAULT_TTL;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	for (i = 0; i < 4; i++)
		if (opts[i].val == NULL)
			return emit_error(AGENT_EXIT_USAGE, "lease take: --owner, "
			    "--host, --pid and --run are required");
	memset(&want, 0, sizeof(want));
	snprintf(want.owner, sizeof(want.owner), "%s", opts[0].val);
	snprintf(want.host, sizeof(want.host), "%s", opts[1].val);
	want.pid = validate_number(opts[2].val);
	snprintf(want.run, sizeof(want.run), "%s", opts[3].val);
	if (opts[4].val != NULL)
		ttl = (int)validate_number(opts[4].val);
	rc = lease_take(&want, ttl, now, &out, &prev, &had, &renewed, &r, err,
	    sizeof(err));
	if (rc != AGENT_EXIT_OK)
		return lease_error(rc, err, &prev, had);
	result_begin(&e, "take", now);
	emit_lease(&e, "lease", &out, now);
	emit_bool(&e, "renewed", renewed);
	emit_lease(&e, "previous", had && !renewed ? &prev : NULL, now);
	emit_arr(&e, "restored");
	for (i = 0; i < r.n; i++)
		emit_str(&e, NULL, r.ifs[i]);
	emit_end(&e);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}

static int
cmd_renew(int argc, char **argv, long long now)
{
	struct validate_opt opts[] = {
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ "--ttl", VALIDATE_SECONDS, 0, 0, NULL, { NULL } },
		{ "--extend", VALIDATE_SECONDS, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct lease out;
	struct emit e;
	char	 err[1024];
	int	 rc;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if (opts[0].val == NULL)
		return emit_error(AGENT_EXIT_USAGE,
		    "lease renew: --owner is required");
	rc = lease_renew(opts[0].val, opts[1].val ?
	    (int)validate_number(opts[1].val) : 0, opts[2].val ?
	    (int)validate_number(opts[2].val) : 0, now, &out, err,
	    sizeof(err));
	if (rc != AGENT_EXIT_OK)
		return lease_error(rc, err, &out, out.owner[0] != '\0');
	result_begin(&e, "renew", now);
	emit_lease(&e, "lease", &out, now);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}

static int
cmd_release(int argc, char **argv, long long now)
{
	struct validate_opt opts[] = {
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ "--force", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct lease prev;
	struct emit e;
	char	 err[1024];
	int	 had, rc;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if (opts[0].val == NULL && !opts[1].seen)
		return emit_error(AGENT_EXIT_USAGE,
		    "lease release: --owner or --force is required");
	rc = lease_release(opts[0].val, opts[1].seen, now, &prev, &had, err,
	    sizeof(err));
	if (rc != AGENT_EXIT_OK)
		return lease_error(rc, err, &prev, 1);
	result_begin(&e, "release", now);
	emit_bool(&e, "released", had);
	emit_bool(&e, "forced", opts[1].seen);
	emit_lease(&e, "previous", had ? &prev : NULL, now);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}

static int
cmd_show(int argc, char **argv, long long now)
{
	struct validate_opt opts[] = {
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct lease cur;
	struct emit e;
	char	 err[1024];
	int	 found;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if (lease_load(&cur, &found, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_INTERNAL, err);
	result_begin(&e, "show", now);
	emit_bool(&e, "held", found && lease_live(&cur, now));
	emit_lease(&e, "lease", found ? &cur : NULL, now);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}

int
agent_cmd_lease(int argc, char **argv)
{
	long long now = (long long)time(NULL);

	if (argc >= 2 && strcmp(argv[1], "take") == 0)
		return cmd_take(argc - 1, argv + 1, now);
	if (argc >= 2 && strcmp(argv[1], "renew") == 0)
		return cmd_renew(argc - 1, argv + 1, now);
	if (argc >= 2 && strcmp(argv[1], "release") == 0)
		return cmd_release(argc - 1, argv + 1, now);
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return cmd_show(argc - 1, argv + 1, now);
	return emit_error(AGENT_EXIT_USAGE,
	    "lease: take | renew | release | show");
}
