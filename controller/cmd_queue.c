/*
 * cmd_queue: `labrat queue [--limit N]`: whether a daemon (`labrat serve`)
 * serves the database, and its queue, newest first (report_queue()).
 * Exit 0, 1 when the database cannot be read, 2 on bad usage.  Also what
 * `run --enqueue` and `bisect start --enqueue` print (cmd_queued()).
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "json.h"
#include "log.h"
#include "report.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

int
cmd_queued(const char *kind, int64_t item, const char *db, int json)
{
	struct json_writer	*w;
	char			 err[256];

	if (!json) {
		printf("queued as item %lld (priority %d); labrat queue --db %s "
		    "shows it\n", (long long)item, STORE_PRIO_INTERACTIVE, db);
		return fflush(stdout) == 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
	}
	w = json_writer_new(stdout, JSON_PRETTY);
	json_begin_obj(w);
	json_kv_int(w, "item", item);
	json_kv_str(w, "kind", kind);
	json_kv_int(w, "priority", STORE_PRIO_INTERACTIVE);
	json_kv_str(w, "state", "queued");
	json_kv_str(w, "db", db);
	json_end_obj(w);
	if (json_writer_free(w, err, sizeof err) == -1 || fflush(stdout) != 0) {
		log_warnx("%s", err);
		return CMD_EXIT_FAIL;
	}
	return CMD_EXIT_OK;
}

/* The same from the daemon's API (--server). */
static int
queue_remote(struct cmd_ctx *ctx, long long limit, enum report_format fmt)
{
	char	path[64], err[1024], *body;
	size_t	len;
	int	rc;

	/* The API takes no 0 (= all): a huge limit it cuts to its cap. */
	snprintf(path, sizeof path, "/api/v1/queue?limit=%lld", limit > 0 ?
	    limit : 1000000000LL);
	if (cmd_remote_get(ctx, path, &body, &len) == -1)
		return CMD_EXIT_FAIL;
	rc = report_queue_remote(body, len, fmt, stdout, err, sizeof err);
	free(body);
	if (rc == -1) {
		fprintf(stderr, "labrat queue: %s%s: %s\n", ctx->server, path,
		    err);
		return CMD_EXIT_FAIL;
	}
	return CMD_EXIT_OK;
}

static int
queue_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "limit", required_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	enum report_format	 fmt = REPORT_TEXT;
	const char		*errstr;
	char			 err[1024];
	long long		 limit = 50;
	int			 ch;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch != 'l')
			return CMD_EXIT_USAGE;
		if (util_strtonum(optarg, 0, INT32_MAX, &limit, &errstr) == -1)
			return cmd_usage_error(ctx, "--limit %s: %s", optarg,
			    errstr);
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (report_format_parse(ctx->format, &fmt) == -1)
		return cmd_usage_error(ctx, "--format %s: unknown to the "
		    "report module", ctx->format);
	if (ctx->server != NULL)
		return queue_remote(ctx, limit, fmt);
	if (report_queue(ctx->db, (size_t)limit, fmt, stdout, err,
	    sizeof err) == -1) {
		fprintf(stderr, "labrat queue: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	return CMD_EXIT_OK;
}

const struct cmd_entry cmd_queue_entry = {
	.name = "queue",
	.args = "[--limit N]",
	.summary = "Says whether a daemon (labrat serve) serves the database "
	    "(\"daemon: OWNER, last heartbeat 3 s ago\", or \"daemon: none\" "
	    "with when it last beat) and lists the daemon's queue, newest "
	    "first: id, kind (run, bisect, night, health), priority (300 a "
	    "night's regression bisect, 200 --enqueue, 100 a schedule's "
	    "firing, 0 routine), state (queued, running, done, failed, "
	    "cancelled), who enqueued it, its age, the run and bisect it "
	    "made, and its result.",
	.options = (const struct cmd_option[]){
		{ "--limit N", "The N newest items (default 50, 0 = all)." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_REMOTE,
	.formats = "text|json",
	.exec = queue_exec,
};
