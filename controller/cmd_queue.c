/*
 * cmd_queue: `labrat queue [--limit N]`: whether a daemon (`labrat serve`)
 * serves the database, and its queue, newest first (report_queue()).
 * Exit 0, 1 when the database cannot be read, 2 on bad usage.  Also what
 * `run --enqueue` and `bisect start --enqueue` print (cmd_queued()).
 */
#include <stdint.h>
#include <stdio.h>

#include "cmd.h"
#include "json.h"
#include "log.h"
#include "store.h"
#include "store_daemon.h"

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

/* The 50 newest items unless --limit N (0 = all). */
static int
queue_exec(struct cmd_ctx *ctx)
{
	return cmd_list_exec(ctx, REPORT_LIST_QUEUE, 50, 0);
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
