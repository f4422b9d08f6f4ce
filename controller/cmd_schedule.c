/*
 * labrat schedule add|list|show|rm: the daemon's schedules in the
 * database (store_sched.c); `labrat serve` fires them.  add validates
 * everything it can without the lab: the cron expression and the zone
 * (cron_sched_compile, as the daemon does), the inventory and plan (config
 * loaders, cross-checked) and --links against the plan.  It does not
 * require key files to exist: the daemon's host may hold them.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "config.h"
#include "cron.h"
#include "json.h"
#include "night.h"
#include "run.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

/* Checks every name of the comma list links against the plan's links. */
static int
sched_links_ok(struct cmd_ctx *ctx, const char *links,
    const struct config_plan *plan)
{
	char	*dup = xstrdup(links), *p = dup, *tok;
	size_t	 i;

	while ((tok = strsep(&p, ",")) != NULL) {
		for (i = 0; i < plan->nlinks; i++)
			if (strcmp(plan->links[i], tok) == 0)
				break;
		if (i == plan->nlinks) {
			cmd_usage_error(ctx, "--links: \"%s\" is not a link of "
			    "the plan %s", tok, plan->path);
			free(dup);
			return -1;
		}
	}
	free(dup);
	return 0;
}

/* Loads the inventory and the plan; CMD_EXIT_OK with *planp set. */
static int
sched_configs(const char *inv_path, const char *plan_path,
    struct config_plan **planp)
{
	struct config_inventory	*inv;
	struct config_errors	 errs;

	config_errors_init(&errs);
	*planp = NULL;
	if ((inv = config_inventory_load(inv_path, &errs)) != NULL)
		*planp = config_plan_load(plan_path, inv, &errs);
	if (*planp == NULL)
		cmd_config_errors(&errs);
	config_errors_free(&errs);
	config_inventory_free(inv);
	return *planp != NULL ? CMD_EXIT_OK : CMD_EXIT_USAGE;
}

static int
sched_save(struct cmd_ctx *ctx, struct store_sched *s)
{
	struct store	*st;
	char		 err[512];
	int		 rc;

	if (store_open(ctx->db, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1) {
		fprintf(stderr, "labrat schedule add: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	rc = store_sched_add(st, s, NULL, NULL, err, sizeof err);
	store_close(st);
	if (rc == -1) {
		fprintf(stderr, "labrat schedule add: %s\n", err);
		return CMD_EXIT_FAIL;	/* a duplicate too, as a missing one */
	}
	printf("schedule %s added\n", s->name);
	return CMD_EXIT_OK;
}

static int
sched_add_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "cron", required_argument, NULL, 'c' },
		{ "tz", required_argument, NULL, 'z' },
		{ "inventory", required_argument, NULL, 'i' },
		{ "plan", required_argument, NULL, 'p' },
		{ "links", required_argument, NULL, 'l' },
		{ "revisions", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct store_sched	 s;
	struct cron_sched	 cs;
	struct cron_cache	*cache;
	struct config_plan	*plan;
	char			 err[512];
	int			 ch, rc;

	memset(&s, 0, sizeof s);
	s.tz = "UTC";
	s.links = "";
	s.enabled = 1;
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'c': s.cron = optarg; break;
		case 'z': s.tz = optarg; break;
		case 'i': s.inventory_path = optarg; break;
		case 'p': s.plan_path = optarg; break;
		case 'l': s.links = optarg; break;
		case 'r': s.revisions = optarg; break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 1, 1, "NAME") == -1)
		return CMD_EXIT_USAGE;
	s.name = ctx->argv[optind];
	if (!store_sched_name_ok(s.name))
		return cmd_usage_error(ctx, "NAME \"%s\": must match "
		    "^[A-Za-z0-9._-]{1,64}$", s.name);
	if (s.cron == NULL)
		return cmd_usage_error(ctx, "--cron EXPR missing");
	if (s.inventory_path == NULL)
		return cmd_usage_error(ctx, "--inventory FILE missing");
	if (s.plan_path == NULL)
		return cmd_usage_error(ctx, "--plan FILE missing");
	if ((cache = cron_cache_new(NULL)) == NULL)
		return cmd_usage_error(ctx, "out of memory");
	rc = cron_sched_compile(cache, s.cron, s.tz, s.name, &cs, err,
	    sizeof err);
	cron_cache_free(cache);
	if (rc == -1)
		return cmd_usage_error(ctx, "--%s", err);
	if ((rc = sched_configs(s.inventory_path, s.plan_path, &plan)) != 0)
		return rc;
	if (*s.links != '\0' && sched_links_ok(ctx, s.links, plan) == -1) {
		config_plan_free(plan);
		return CMD_EXIT_USAGE;
	}
	s.plan_text = plan->text;
	rc = sched_save(ctx, &s);
	config_plan_free(plan);
	return rc;
}

/* Next firing after now, -1 if the zone or expression fail now; *zp
 * is the schedule's zone (the cache's), NULL then. */
static time_t
sched_next(struct cron_cache *cache, const struct store_sched *s,
    const struct cron_zone **zp)
{
	struct cron_sched	cs;
	char			err[256];

	*zp = NULL;
	if (cache == NULL || cron_sched_compile(cache, s->cron, s->tz,
	    s->name, &cs, err, sizeof err) == -1)
		return (time_t)-1;
	*zp = cs.zone;
	return cron_sched_next(&cs, time(NULL));
}

static void
sched_json(struct json_writer *w, struct cron_cache *cache,
    const struct store_sched *s, int full)
{
	const struct cron_zone	*z;
	time_t			 next = sched_next(cache, s, &z);
	char			 buf[96];

	json_begin_obj(w);
	json_kv_int(w, "id", s->id);
	json_kv_str(w, "name", s->name);
	json_kv_str(w, "cron", s->cron);
	json_kv_str(w, "tz", s->tz);
	if (next == (time_t)-1) {
		json_kv_null(w, "next_utc");
		json_kv_null(w, "next_local");
	} else {
		json_kv_int(w, "next", (int64_t)next);
		json_kv_str(w, "next_utc", cron_format(cron_zone_utc(), next,
		    buf, sizeof buf));
		json_kv_str(w, "next_local", cron_format(z, next, buf,
		    sizeof buf));
	}
	if (s->last_fired == 0)
		json_kv_null(w, "last_fired");
	else
		json_kv_int(w, "last_fired", s->last_fired);
	json_kv_str(w, "inventory", s->inventory_path);
	json_kv_str(w, "plan", s->plan_path);
	json_kv_str(w, "links", s->links);
	if (s->revisions == NULL)
		json_kv_null(w, "revisions");
	else
		json_kv_str(w, "revisions", s->revisions);
	json_kv_bool(w, "enabled", s->enabled);
	json_kv_int(w, "created", s->created);
	if (full)
		json_kv_str(w, "plan_text", s->plan_text);
	json_end_obj(w);
}

static void
sched_fmt_ms(int64_t ms, char *buf, size_t len)
{
	if (ms == 0)
		snprintf(buf, len, "never");
	else
		cron_format(cron_zone_utc(), (time_t)(ms / 1000), buf, len);
}

static void
sched_text(struct cron_cache *cache, const struct store_sched *v, size_t n,
    int full)
{
	const struct cron_zone	*z;
	char			 utc[96], loc[96], last[96];
	size_t			 i;
	time_t			 next;

	if (!full)
		printf("%-20s %-16s %-16s %-30s %-34s %s\n", "NAME", "CRON",
		    "TZ", "NEXT (UTC)", "NEXT (LOCAL)", "LAST FIRED (UTC)");
	for (i = 0; i < n; i++) {
		next = sched_next(cache, &v[i], &z);
		snprintf(utc, sizeof utc, "-");
		snprintf(loc, sizeof loc, "-");
		if (next != (time_t)-1) {
			cron_format(cron_zone_utc(), next, utc, sizeof utc);
			cron_format(z, next, loc, sizeof loc);
		}
		sched_fmt_ms(v[i].last_fired, last, sizeof last);
		if (!full) {
			printf("%-20s %-16s %-16s %-30s %-34s %s\n", v[i].name,
			    v[i].cron, v[i].tz, utc, loc, last);
			continue;
		}
		printf("name:        %s\ncron:        %s\ntz:          %s\n"
		    "next (UTC):  %s\nnext local:  %s\nlast fired:  %s\n"
		    "inventory:   %s\nplan:        %s\nlinks:       %s\n"
		    "revisions:   %s\nenabled:     %s\n", v[i].name, v[i].cron,
		    v[i].tz, utc, loc, last, v[i].inventory_path,
		    v[i].plan_path, *v[i].links != '\0' ? v[i].links : "(all)",
		    v[i].revisions != NULL ? v[i].revisions : "-",
		    v[i].enabled ? "yes" : "no");
	}
}

static int
sched_print(struct cmd_ctx *ctx, struct store_sched *v, size_t n, int one)
{
	struct json_writer	*w;
	struct cron_cache	*cache = cron_cache_new(NULL);
	char			 err[256];
	size_t			 i;

	if (strcmp(ctx->format, "json") != 0) {
		sched_text(cache, v, n, one);
		cron_cache_free(cache);
		return CMD_EXIT_OK;
	}
	w = json_writer_new(stdout, JSON_PRETTY);
	if (!one)
		json_begin_arr(w);
	for (i = 0; i < n; i++)
		sched_json(w, cache, &v[i], one);
	if (!one)
		json_end_arr(w);
	cron_cache_free(cache);
	if (json_writer_free(w, err, sizeof err) == -1) {
		fprintf(stderr, "labrat schedule: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	printf("\n");
	return CMD_EXIT_OK;
}

/* list, show, rm: which = 'l', 's', 'r'. */
static int
sched_query(struct cmd_ctx *ctx, int which)
{
	struct store		*st;
	struct store_sched	*v = NULL, one;
	size_t			 n = 0;
	char			 err[512];
	int			 rc, exit = CMD_EXIT_OK;

	optind = 1;
	if (cmd_getopt(ctx, (const struct option[]){ { NULL, 0, NULL, 0 } })
	    != -1)
		return CMD_EXIT_USAGE;
	if (cmd_positionals(ctx, optind, which == 'l' ? 0 : 1,
	    which == 'l' ? 0 : 1, which == 'l' ? "" : "NAME") == -1)
		return CMD_EXIT_USAGE;
	if (store_open(ctx->db, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1) {
		fprintf(stderr, "labrat schedule: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	if (which == 'l')
		rc = store_sched_list(st, &v, &n, err, sizeof err);
	else if (which == 's')
		rc = store_sched_get(st, ctx->argv[optind], &one, err,
		    sizeof err);
	else
		rc = store_sched_rm(st, ctx->argv[optind], err, sizeof err);
	store_close(st);
	if (rc == -1) {
		fprintf(stderr, "labrat schedule: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	if (which != 'l' && rc == 0) {
		fprintf(stderr, "labrat schedule %s: no schedule \"%s\"\n",
		    which == 's' ? "show" : "rm", ctx->argv[optind]);
		return CMD_EXIT_FAIL;
	}
	if (which == 'l') {
		exit = sched_print(ctx, v, n, 0);
		store_scheds_free(v, n);
	} else if (which == 's') {
		exit = sched_print(ctx, &one, 1, 1);
		store_sched_free(&one);
	} else
		printf("schedule %s removed\n", ctx->argv[optind]);
	return exit;
}

static int sched_list_exec(struct cmd_ctx *c) { return sched_query(c, 'l'); }
static int sched_show_exec(struct cmd_ctx *c) { return sched_query(c, 's'); }
static int sched_rm_exec(struct cmd_ctx *c) { return sched_query(c, 'r'); }

const struct cmd_entry cmd_schedule_add_entry = {
	.name = "schedule add",
	.args = "NAME --cron EXPR [--tz ZONE] --inventory FILE --plan FILE "
	    "[--links L1,L2] [--revisions SOURCE]",
	.summary = "Stores a schedule for the daemon (`labrat serve`): a cron "
	    "expression read in a time zone (default UTC), the inventory, the "
	    "plan (its text is stored as read), the plan links to run "
	    "(default all) and a revision source.  The expression, the zone, "
	    "the inventory and the plan are checked; key files are not "
	    "(the daemon's host may hold them).",
	.options = (const struct cmd_option[]){
		{ "--cron EXPR", "5-field cron expression or @daily etc." },
		{ "--tz ZONE", "zoneinfo name, e.g. Europe/Berlin (default "
		    "UTC)." },
		{ "--inventory FILE", "The inventory." },
		{ "--plan FILE", "The plan." },
		{ "--links L1,L2", "Only these links of the plan." },
		{ "--revisions SOURCE", "The revision source, as bisect's." },
		{ NULL, NULL } },
	.flags = CMD_DB,
	.exec = sched_add_exec,
};

const struct cmd_entry cmd_schedule_list_entry = {
	.name = "schedule list",
	.args = "",
	.summary = "Lists the schedules: name, cron expression, time zone, "
	    "next firing in UTC and in the zone, last firing.",
	.flags = CMD_DB,
	.formats = "text|json",
	.exec = sched_list_exec,
};

const struct cmd_entry cmd_schedule_show_entry = {
	.name = "schedule show",
	.args = "NAME",
	.summary = "Shows one schedule (JSON includes the stored plan text).",
	.flags = CMD_DB,
	.formats = "text|json",
	.exec = sched_show_exec,
};

const struct cmd_entry cmd_schedule_rm_entry = {
	.name = "schedule rm",
	.args = "NAME",
	.summary = "Removes a schedule.",
	.flags = CMD_DB,
	.exec = sched_rm_exec,
};

/* ---- schedule fire (the night module's night_fire, in the foreground) */

static volatile sig_atomic_t	fire_stop;

static void
fire_on_signal(int sig)
{
	(void)sig;
	fire_stop = 1;
}

static void
fire_say(const char *line, void *arg)
{
	(void)arg;
	fprintf(stderr, "labrat: %s\n", line);
}

/* Loads the daemon config; the schedule by name into *id. */
static int
fire_prepare(struct cmd_ctx *ctx, const char *cfg, const char *name,
    struct config_daemon **d, int64_t *id)
{
	struct config_errors	 errs;
	struct store_sched	 s;
	struct store		*st;
	char			 err[512];
	int			 rc;

	config_errors_init(&errs);
	rc = config_daemon_load(cfg, d, &errs, err, sizeof err);
	if (rc == -1) {
		if (errs.n > 0)
			cmd_config_errors(&errs);
		else
			fprintf(stderr, "labrat schedule fire: %s\n", err);
	}
	config_errors_free(&errs);
	if (rc == -1)
		return CMD_EXIT_USAGE;
	if (store_open(ctx->db, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1) {
		fprintf(stderr, "labrat schedule fire: %s\n", err);
		return CMD_EXIT_FAIL;
	}
	rc = store_sched_get(st, name, &s, err, sizeof err);
	store_close(st);
	if (rc != 1) {
		fprintf(stderr, "labrat schedule fire: %s\n", rc == 0 ?
		    "no such schedule" : err);
		return CMD_EXIT_FAIL;
	}
	*id = s.id;
	store_sched_free(&s);
	return CMD_EXIT_OK;
}

static int
sched_fire_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "slot", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct night_request	 rq;
	struct config_daemon	*d = NULL;
	struct sigaction	 sa;
	char			 err[1024], owner[128];
	const char		*cfg = "/etc/labrat/daemon.json", *es;
	long long		 slot = 0;
	int64_t			 night = 0;
	enum night_status	 ns;
	int			 ch, rc;

	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'c': cfg = optarg; break;
		case 's':
			if (util_strtonum(optarg, 1, INT64_MAX, &slot,
			    &es) == -1)
				return cmd_usage_error(ctx, "--slot %s: %s",
				    optarg, es);
			break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 1, 1, "NAME") == -1)
		return CMD_EXIT_USAGE;
	if ((rc = fire_prepare(ctx, cfg, ctx->argv[optind], &d,
	    &rq.schedule_id)) != CMD_EXIT_OK)
		return rc;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fire_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	run_owner_default(owner, sizeof owner);
	rq.db_path = ctx->db;
	rq.daemon = d;
	if (slot == 0) {
		struct timespec	ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		slot = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	}
	rq.slot = slot;
	rq.owner = owner;
	rq.stop = &fire_stop;
	rq.say = fire_say;
	rq.say_arg = NULL;
	fprintf(stderr, "labrat: schedule %s fires, slot %lld\n",
	    ctx->argv[optind], (long long)rq.slot);
	ns = night_fire_id(&rq, &night, err, sizeof err);
	printf("night %lld of schedule %s (slot %lld): %s%s%s\n",
	    (long long)night, ctx->argv[optind], (long long)rq.slot,
	    night_status_name(ns), ns != NIGHT_DONE ? ": " : "",
	    ns != NIGHT_DONE ? err : "");
	config_daemon_free(d);
	return ns == NIGHT_DONE ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

const struct cmd_entry cmd_schedule_fire_entry = {
	.name = "schedule fire",
	.args = "NAME [--config FILE] [--slot MS]",
	.summary = "Fires a schedule now, in the foreground, exactly as the "
	    "daemon does (night_fire): the newest revision of its source, "
	    "installed on its links' hosts, the plan run, detection against "
	    "the last good night, a confirming re-run, regression records, "
	    "the bisect of a new regression and the notifications of the "
	    "daemon config.  --slot continues a firing that was cut short.",
	.options = (const struct cmd_option[]){
		{ "--config FILE", "The daemon config (default "
		    "/etc/labrat/daemon.json)." },
		{ "--slot MS", "The firing's slot (ms since the epoch; "
		    "default now): the same slot resumes its night." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.exec = sched_fire_exec,
};
