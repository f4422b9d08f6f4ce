/*
 * night_named: the schedules of the nightly loop by name, below the
 * command line.  `labrat schedule add`: a schedule checked as the daemon
 * will read it (cron expression and zone compiled, inventory and plan
 * loaded, --links against the plan) and stored.  `labrat schedule fire
 * NAME`: the daemon config read, the schedule looked up by name, the slot
 * defaulted to now, then the same night_fire_id() the daemon calls.  Kept
 * apart from night.c so the nightly loop itself stays one file's business.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "cron.h"
#include "night.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

/* The id of the schedule called name: 0, or -1 with err. */
static int
named_schedule(const char *db_path, const char *name, int64_t *id,
    char *err, size_t errlen)
{
	struct store_sched	 s;
	struct store		*st;
	int			 rc;

	if (store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen) == -1)
		return -1;
	rc = store_sched_get(st, name, &s, err, errlen);
	store_close(st);
	if (rc != 1) {
		if (rc == 0)
			util_seterr(err, errlen, "no such schedule");
		return -1;
	}
	*id = s.id;
	store_sched_free(&s);
	return 0;
}

enum night_named_rc
night_fire_named(struct night_request *rq, const char *config_path,
    const char *name, struct config_errors *errs, enum night_status *ns,
    int64_t *night_id, char *err, size_t errlen)
{
	struct config_daemon	*d = NULL;
	char			 line[256];

	if (config_daemon_load(config_path, &d, errs, err, errlen) == -1)
		return NIGHT_NAMED_BAD;
	if (named_schedule(rq->db_path, name, &rq->schedule_id, err,
	    errlen) == -1) {
		config_daemon_free(d);
		return NIGHT_NAMED_FAIL;
	}
	if (rq->slot == 0)
		rq->slot = util_wall_ms();
	if (rq->say != NULL) {
		snprintf(line, sizeof line, "schedule %s fires, slot %lld",
		    name, (long long)rq->slot);
		rq->say(line, rq->say_arg);
	}
	rq->daemon = d;
	*ns = night_fire_id(rq, night_id, err, errlen);
	rq->daemon = NULL;
	config_daemon_free(d);
	return NIGHT_NAMED_OK;
}

/* The cron expression in its zone, as the daemon compiles it; its next
 * firing after now into *next. */
static int
named_cron_ok(const struct store_sched *s, time_t *next,
    struct night_sched_added *out, char *err, size_t errlen)
{
	struct cron_sched	 cs;
	struct cron_cache	*cache;
	char			 why[512];
	int			 rc;

	if ((cache = cron_cache_new(NULL)) == NULL) {
		util_seterr(err, errlen, "out of memory");
		return -1;
	}
	rc = cron_sched_compile(cache, s->cron, s->tz, s->name, &cs, why,
	    sizeof why);
	if (rc == 0)
		*next = cron_sched_next(&cs, util_time());
	cron_cache_free(cache);
	if (rc == -1) {
		/* "cron EXPR: ..." or "tz ZONE: ..." */
		out->field = strncmp(why, "tz ", 3) == 0 ? "tz" : "cron";
		util_seterr(err, errlen, "--%s", why);
	}
	return rc;
}

/* The inventory and the plan, cross-checked; the plan or NULL (errs). */
static struct config_plan *
named_plan(const struct store_sched *s, struct night_sched_added *out,
    struct config_errors *errs)
{
	struct config_inventory	*inv;
	struct config_plan	*plan = NULL;

	out->field = "inventory";
	if ((inv = config_inventory_load(s->inventory_path, errs)) != NULL) {
		out->field = "plan";
		plan = config_plan_load(s->plan_path, inv, errs);
	}
	config_inventory_free(inv);
	if (plan != NULL)
		out->field = NULL;
	return plan;
}

/* What must be given, and the name. */
static int
named_given(const struct store_sched *s, struct night_sched_added *out,
    char *err, size_t errlen)
{
	if (s->name == NULL || !store_sched_name_ok(s->name)) {
		out->field = "name";
		util_seterr(err, errlen, "NAME \"%s\": must match "
		    "^[A-Za-z0-9._-]{1,64}$", s->name != NULL ? s->name : "");
	} else if (s->cron == NULL || s->inventory_path == NULL ||
	    s->plan_path == NULL) {
		out->field = s->cron == NULL ? "cron" : s->inventory_path ==
		    NULL ? "inventory" : "plan";
		util_seterr(err, errlen, "%s", s->cron == NULL ?
		    "--cron EXPR missing" : s->inventory_path == NULL ?
		    "--inventory FILE missing" : "--plan FILE missing");
	} else
		return 0;
	return -1;
}

int
night_schedule_given(const struct store_sched *s, char *err, size_t errlen)
{
	struct night_sched_added	out;

	memset(&out, 0, sizeof out);
	return named_given(s, &out, err, errlen);
}

enum night_named_rc
night_schedule_add(const char *db_path, struct store_sched *s,
    struct night_sched_added *outp, struct config_errors *errs, char *err,
    size_t errlen)
{
	struct night_sched_added	 dummy, *out = outp != NULL ? outp :
					    &dummy;
	struct config_plan		*plan;
	struct store			*st;
	char				 why[512], *tz = s->tz, *links =
					    s->links;
	int				 rc;

	memset(out, 0, sizeof *out);
	out->next = (time_t)-1;
	if (named_given(s, out, err, errlen) == -1)
		return NIGHT_NAMED_BAD;
	if (s->tz == NULL || *s->tz == '\0')
		s->tz = "UTC";
	if (s->links == NULL)
		s->links = "";
	rc = NIGHT_NAMED_BAD;
	if (named_cron_ok(s, &out->next, out, err, errlen) == -1)
		goto out;
	if ((plan = named_plan(s, out, errs)) == NULL) {
		util_seterr(err, errlen, "%zu errors", errs->n);
		goto out;
	}
	/* The one link-membership check, the night's own (night.c restricts
	 * the plan the same way when the schedule fires). */
	if (*s->links != '\0' && config_plan_restrict(plan, s->links, why,
	    sizeof why) == -1) {
		out->field = "links";
		util_seterr(err, errlen, "--links: %s", why);
		config_plan_free(plan);
		goto out;
	}
	s->plan_text = plan->text;
	rc = store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen);
	if (rc == 0) {
		rc = store_sched_add(st, s, &out->id, &out->dup, err, errlen);
		store_close(st);
	}
	s->plan_text = NULL;
	config_plan_free(plan);
	rc = rc == 0 ? NIGHT_NAMED_OK : NIGHT_NAMED_FAIL;
out:
	s->tz = tz;
	s->links = links;
	return rc;
}
