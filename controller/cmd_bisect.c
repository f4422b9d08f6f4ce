/*
 * cmd_bisect: `labrat bisect start`.  The driver is the hunt module; this
 * file parses the arguments, turns SIGINT / SIGTERM into hunt's stop flag,
 * prints its progress on stderr and the result (cmd_bisect_show.c, which
 * also has `status` and `log`; `resume` and `reset` are
 * cmd_bisect_resume.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "hunt.h"
#include "json.h"
#include "log.h"
#include "util.h"

/* arg: int *quiet.  A replay is said even when quiet. */
static void
cli_event(const struct hunt_event *ev, void *arg)
{
	const int	*quiet = arg;
	char		 safe[4096];

	if (*quiet && ev->kind != HUNT_EV_REPLAYED)
		return;
	/* An event may quote a host (a revision it reported, its error). */
	fprintf(stderr, "labrat: %s\n", util_term_safe(safe, sizeof safe,
	    ev->text, (size_t)-1));
}

/* hunt_start() (rq) or hunt_resume() (id) with the signals caught; the
 * outcome printed; CMD_EXIT_*. */
static int
cli_hunt(const char *db, const struct hunt_request *rq, int64_t id,
    int json, int quiet, int force)
{
	struct hunt_opts	o;
	enum hunt_status	st;
	char			err[4096];

	memset(&o, 0, sizeof o);
	o.db_path = db;
	o.force = force;
	o.stop = cmd_stop_flag();
	o.event = cli_event;
	o.event_arg = &quiet;
	cmd_stop_catch();
	err[0] = '\0';
	st = rq != NULL ? hunt_start(&o, rq, &id, err, sizeof err) :
	    hunt_resume(&o, id, &id, err, sizeof err);
	cmd_stop_release();
	switch (st) {
	case HUNT_CONFIG:
		/* one error per line, "FILE: PATH: what", as config check */
		fprintf(stderr, "%s\n", err);
		return CMD_EXIT_USAGE;
	case HUNT_ERROR:
		log_warnx("%s", err);
		return CMD_EXIT_FAIL;
	case HUNT_INTERRUPTED:
		log_warnx("bisect %lld: %s; `labrat bisect resume` continues "
		    "where it stopped", (long long)id, err);
		return CMD_EXIT_FAIL;
	default:
		break;
	}
	if (bisect_cli_show(db, id, 0, json, stdout) == -1)
		return CMD_EXIT_FAIL;
	return st == HUNT_FAILED ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}

int
bisect_cli_start(const char *db, const struct hunt_request *rq, int json,
    int quiet)
{
	return cli_hunt(db, rq, 0, json, quiet, 0);
}

int
bisect_cli_resume(const char *db, int64_t id, int json, int quiet,
    int force)
{
	return cli_hunt(db, NULL, id, json, quiet, force);
}

/* --enqueue: checked as bisect start checks it, then queued. */
static int
cli_enqueue(const char *db, const struct hunt_request *rq, int json)
{
	char	err[4096];
	int64_t	item;
	int	rc;

	if ((rc = hunt_enqueue(db, rq, &item, err, sizeof err)) == -2) {
		fprintf(stderr, "%s\n", err);
		return CMD_EXIT_USAGE;
	}
	if (rc == -1) {
		log_warnx("%s", err);
		return CMD_EXIT_FAIL;
	}
	return cmd_queued("bisect", item, db, json);
}

/* --server: POST /api/v1/bisects, queued for the daemon (--enqueue). */
static int
bisect_remote(struct cmd_ctx *ctx, const struct hunt_request *rq,
    int enqueue)
{
	struct json_mem		 b;
	struct json_writer	*w;
	char			*reply;
	size_t			 len;
	int			 rc;

	if (!enqueue)
		return cmd_remote_refuse(ctx, "a bisect without --enqueue "
		    "(add --enqueue: the daemon runs it)");
	if (rq->link == NULL || rq->good == NULL || rq->bad == NULL ||
	    rq->test == NULL)
		return cmd_usage_error(ctx, "%s missing", rq->link == NULL ?
		    "--link LINK" : rq->good == NULL ? "--good REV" :
		    rq->bad == NULL ? "--bad REV" : "--test FILE");
	if (rq->replay != NULL)
		return cmd_usage_error(ctx, "--replay is not queued: run it "
		    "without --enqueue");
	if (cmd_remote_abs(ctx, "--inventory", rq->inventory) == -1 ||
	    cmd_remote_abs(ctx, "--test", rq->test) == -1)
		return CMD_EXIT_USAGE;
	if ((w = json_mem_begin(&b, 0)) != NULL) {
		json_begin_obj(w);
		json_kv_str(w, "link", rq->link);
		json_kv_str(w, "good", rq->good);
		json_kv_str(w, "bad", rq->bad);
		json_kv_str(w, "test", rq->test);
		if (rq->inventory != NULL)
			json_kv_str(w, "inventory", rq->inventory);
		if (rq->revisions != NULL)
			json_kv_str(w, "revisions", rq->revisions);
		if (rq->leave_on_culprit)
			json_kv_bool(w, "leave_on_culprit", 1);
		json_end_obj(w);
	}
	if ((rc = cmd_remote_post(ctx, "/api/v1/bisects", &b, &reply,
	    &len)) != 0)
		return rc == 400 ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
	rc = cmd_queued_remote(ctx, "bisect", reply, len);
	free(reply);
	return rc;
}

static int
bisect_start(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ "link", required_argument, NULL, 'l' },
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'b' },
		{ "test", required_argument, NULL, 't' },
		{ "revisions", required_argument, NULL, 'r' },
		{ "replay", required_argument, NULL, 'R' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "leave-on-culprit", no_argument, NULL, 'L' },
		{ "enqueue", no_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 }
	};
	struct hunt_request	rq;
	int			ch, quiet = 0, enqueue = 0;

	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'i': rq.inventory = optarg; break;
		case 'l': rq.link = optarg; break;
		case 'g': rq.good = optarg; break;
		case 'b': rq.bad = optarg; break;
		case 't': rq.test = optarg; break;
		case 'r': rq.revisions = optarg; break;
		case 'R': rq.replay = optarg; break;
		case 'q': quiet = 1; break;
		case 'L': rq.leave_on_culprit = 1; break;
		case 'e': enqueue = 1; break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (ctx->server != NULL)
		return bisect_remote(ctx, &rq, enqueue);
	if (rq.inventory == NULL || rq.link == NULL || rq.good == NULL ||
	    rq.bad == NULL || rq.test == NULL)
		return cmd_usage_error(ctx, "%s missing", rq.inventory == NULL ?
		    "--inventory FILE" : rq.link == NULL ? "--link LINK" :
		    rq.good == NULL ? "--good REV" : rq.bad == NULL ?
		    "--bad REV" : "--test FILE");
	if (enqueue && rq.replay != NULL)
		return cmd_usage_error(ctx, "--replay is not queued: run it "
		    "without --enqueue");
	if (enqueue)
		return cli_enqueue(ctx->db, &rq, strcmp(ctx->format, "json") ==
		    0);
	return cli_hunt(ctx->db, &rq, 0, strcmp(ctx->format, "json") == 0,
	    quiet, 0);
}

const struct cmd_entry cmd_bisect_start_entry = {
	.name = "bisect start",
	.args = "--inventory FILE --link LINK --good REV --bad REV --test FILE "
	    "[--revisions SOURCE] [--replay LOG] [--quiet] "
	    "[--leave-on-culprit] [--enqueue]",
	.summary = "Finds the revision between GOOD and BAD that made the "
	    "test's comparison regress on LINK: installs each revision on "
	    "both hosts of the link, reboots them, checks they run it, "
	    "measures and decides. Exit 0 when the culprit (or a range of "
	    "untestable revisions) was found, 1 when the bisect failed or "
	    "was interrupted.",
	.options = (const struct cmd_option[]){
		{ "--inventory FILE", "The lab; its hosts' kernel provider "
		    "installs the revisions." },
		{ "--link LINK", "The link whose two hosts are measured." },
		{ "--good REV", "A revision without the regression." },
		{ "--bad REV", "A revision with it." },
		{ "--test FILE", "What to measure and the threshold (schema "
		    "schemas/bisect-test.schema.json)." },
		{ "--revisions SOURCE", "git:PATH[:SUBDIR,...] (first-parent "
		    "history GOOD..BAD), a plain file (ID [message] per line) "
		    "or a simulated lab's history file (default: the "
		    "inventory's \"revisions\", same forms, relative to "
		    "the inventory)." },
		{ "--replay LOG", "Take the steps of an earlier `bisect log` "
		    "first instead of measuring them again." },
		{ "--quiet", "No progress lines." },
		{ "--leave-on-culprit", "At the end leave the hosts on the "
		    "culprit instead of the revision they ran before." },
		{ "--enqueue", "Check the inventory, test, link and "
		    "revisions, then queue the bisect (priority 200) for the "
		    "daemon serving the database (labrat serve) instead of "
		    "running it here; refused when no live daemon serves it "
		    "(and with --replay). Prints the queue item." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH | CMD_REMOTE,
	.formats = "text|json",
	.exec = bisect_start,
};
