/*
 * health: link states, the operator's maintenance switch and the check's
 * bookkeeping (health.h).  The measurement is health_check.c's, the
 * judging health_judge.c's; this file reads the state before, decides
 * the state after and stores it with its transition.  A check never
 * overwrites maintenance or retired: the store's record leaves those
 * alone in the same transaction that reads them, so an operator who
 * takes a link out while its check runs keeps it out.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "health_int.h"
#include "json.h"
#include "run.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

static const char *const health_names[] = {
	"unknown", "good", "bad", "maintenance", "retired"
};
#define HEALTH_NSTATES	(sizeof health_names / sizeof health_names[0])

/* What a check leaves as it is. */
static const char *const health_held[] = { "maintenance", "retired", NULL };

const char *
health_state_name(enum health_state s)
{
	return (size_t)s < HEALTH_NSTATES ? health_names[s] : "unknown";
}

int
health_state_parse(const char *name, enum health_state *out)
{
	size_t	i;

	for (i = 0; name != NULL && i < HEALTH_NSTATES; i++)
		if (strcmp(name, health_names[i]) == 0) {
			*out = (enum health_state)i;
			return 0;
		}
	return -1;
}

int
health_usable(enum health_state s)
{
	return s == HEALTH_GOOD || s == HEALTH_UNKNOWN;
}

void
health_who(char *buf, size_t len)
{
	struct passwd	*pw = getpwuid(getuid());
	char		 host[64];

	if (gethostname(host, sizeof host) == -1)
		snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	snprintf(buf, len, "%s@%s pid %ld", pw != NULL ? pw->pw_name : "?",
	    host, (long)getpid());
}

static enum health_state
health_of(const char *name)
{
	enum health_state	s = HEALTH_UNKNOWN;

	health_state_parse(name, &s);
	return s;
}

int
health_get(const char *db_path, const char *link, enum health_state *out,
    char *err, size_t errlen)
{
	struct store		*st;
	struct store_health	 h;
	int			 rc;

	*out = HEALTH_UNKNOWN;
	if (store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen) == -1)
		return -1;
	rc = store_health_get(st, link, &h, err, errlen);
	if (rc == 1)
		*out = health_of(h.state);
	store_health_free(&h);
	store_close(st);
	return rc == -1 ? -1 : 0;
}

int
health_maintenance(const char *db_path, const char *link, int on,
    const char *why, const char *who, struct health_result *res, char *err,
    size_t errlen)
{
	static const char *const retired[] = { "retired", NULL };
	struct store_health_rec	 r;
	struct store		*st;
	char			 from[STORE_NAME_MAX], me[160];
	int			 rc;

	memset(res, 0, sizeof *res);
	if (why == NULL || *why == '\0') {
		util_seterr(err, errlen, "maintenance %s: a why is required",
		    on ? "on" : "off");
		return -1;
	}
	if (who == NULL) {
		health_who(me, sizeof me);
		who = me;
	}
	memset(&r, 0, sizeof r);
	r.link = link;
	r.state = on ? "maintenance" : "unknown";
	r.why = why;
	r.who = who;
	r.keep = on ? retired : NULL;
	r.only = on ? NULL : "maintenance";
	if (store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen) == -1)
		return -1;
	rc = store_health_record(st, &r, from, sizeof from, err, errlen);
	store_close(st);
	if (rc == -1)
		return -1;
	res->before = health_of(from);
	if (rc == 0) {
		util_seterr(err, errlen, "link %s is %s: %s", link, from, on ?
		    "a retired link stays retired" : "not in maintenance");
		return -1;
	}
	res->after = on ? HEALTH_MAINTENANCE : HEALTH_UNKNOWN;
	snprintf(res->why, sizeof res->why, "%s", why);
	return 0;
}

/* The check's verdict from what the probe saw and the last pass. */
static void
health_judge(const struct config_link *l, const struct health_probe *p,
    const struct store_health *last, double tolerance,
    struct health_result *res)
{
	char	why[512];

	res->figure = p->figure;
	res->last_good = last->good_figure;
	snprintf(res->warnings, sizeof res->warnings, "%s", p->warnings);
	res->after = HEALTH_BAD;
	if (!p->ok && strstr(p->why, l->client.host) == NULL &&
	    strstr(p->why, l->server.host) == NULL)	/* say which pair */
		util_seterr(res->why, sizeof res->why, "%s -> %s: %s",
		    l->client.host, l->server.host, p->why);
	else if (!p->ok)
		snprintf(res->why, sizeof res->why, "%s", p->why);
	else if (!health_facts_same(last->good_facts, p->facts, why,
	    sizeof why))
		util_seterr(res->why, sizeof res->why, "facts changed: %s", why);
	else if (!health_figure_ok(p->figure, last->good_figure, tolerance,
	    why, sizeof why))
		snprintf(res->why, sizeof res->why, "%s", why);
	else {
		res->after = HEALTH_GOOD;
		snprintf(res->why, sizeof res->why, "check passed: %.0f Mbit/s "
		    "at the default knobs", p->figure / 1e6);
	}
}

/* Stores the verdict (unless an operator took the link out meanwhile). */
static int
health_store(const char *db_path, const char *link, const char *who,
    const struct health_probe *p, struct health_result *res, char *err,
    size_t errlen)
{
	struct store_health_rec	 r;
	struct store		*st;
	char			 from[STORE_NAME_MAX];
	int			 rc;

	memset(&r, 0, sizeof r);
	r.link = link;
	r.state = health_state_name(res->after);
	r.why = res->why;
	r.who = who;
	r.keep = health_held;
	r.checked = 1;
	r.check_ok = res->after == HEALTH_GOOD;
	r.warnings = res->warnings;
	r.run_id = p->run_id;
	if (res->after == HEALTH_GOOD) {
		r.good_figure = p->figure;
		r.good_facts = p->facts;
	}
	if (store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen) == -1)
		return -1;
	rc = store_health_record(st, &r, from, sizeof from, err, errlen);
	store_close(st);
	if (rc == 0) {	/* taken out while it was checked */
		res->after = health_of(from);
		res->checked = 0;
		snprintf(res->why, sizeof res->why, "put in %s during the "
		    "check: left as it is", from);
	}
	return rc == -1 ? -1 : 0;
}

int
health_check(const struct config_inventory *inv, const char *link,
    const struct health_opts *o, struct health_result *res, char *err,
    size_t errlen)
{
	const struct config_link *l = config_inventory_link(inv, link);
	struct store_health	 last;
	struct health_probe	 p;
	struct store		*st;
	char			 me[160], since[40];
	const char		*who = o->owner;
	int			 rc;

	memset(res, 0, sizeof *res);
	if (l == NULL) {
		util_seterr(err, errlen, "%s: no link %s", inv->path, link);
		return -1;
	}
	if (who == NULL) {
		health_who(me, sizeof me);
		who = me;
	}
	if (store_open(o->db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen) == -1)
		return -1;
	rc = store_health_get(st, link, &last, err, errlen);
	store_close(st);
	if (rc == -1)
		return -1;
	res->before = rc == 1 ? health_of(last.state) : HEALTH_UNKNOWN;
	res->after = res->before;
	if (res->before == HEALTH_MAINTENANCE || res->before == HEALTH_RETIRED) {
		health_time(last.since, 0, since, sizeof since);
		snprintf(res->why, sizeof res->why, "%s since %s UTC: not "
		    "checked (%s)", last.state, since, last.why);
		store_health_free(&last);
		return 0;
	}
	rc = health_probe(inv, l, o, &p, err, errlen);
	if (rc == 0) {
		res->checked = 1;
		res->run_id = p.run_id;
		health_judge(l, &p, &last, o->tolerance > 0 ? o->tolerance :
		    HEALTH_TOLERANCE, res);
		rc = health_store(o->db_path, link, who, &p, res, err, errlen);
	}
	store_health_free(&last);
	return rc;
}

int
health_maintenance_words(const char *db_path, const char *link,
    const char *onoff, const char *why, struct health_result *res, int *bad,
    char *err, size_t errlen)
{
	*bad = 1;
	if (!config_valid_linkname(link)) {
		util_seterr(err, errlen, "%s: not a link name", link);
		return -1;
	}
	if (strcmp(onoff, "on") != 0 && strcmp(onoff, "off") != 0) {
		util_seterr(err, errlen, "%s: say on or off", onoff);
		return -1;
	}
	if (why == NULL || *why == '\0') {
		util_seterr(err, errlen, "--why TEXT missing: every "
		    "transition says why");
		return -1;
	}
	*bad = 0;
	return health_maintenance(db_path, link, strcmp(onoff, "on") == 0,
	    why, NULL, res, err, errlen);
}

/* ---- the daemon's health item payload --------------------------------- */

static void
payload_write(struct json_writer *w, const void *arg)
{
	const struct health_payload	*p = arg;

	json_kv_str(w, "link", p->link);
	json_kv_str(w, "inventory", p->inventory);
}

char *
health_payload(const char *inventory, const char *link, char *err,
    size_t errlen)
{
	struct health_payload	 p = { (char *)link, (char *)inventory };
	char			*text;
	size_t			 len;

	if ((text = run_queue_payload(payload_write, &p, err, errlen)) == NULL)
		return NULL;
	/* One line in the queue's table, as ever: no newline at its end. */
	len = strlen(text);
	if (len > 0 && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

int
health_payload_decode(const char *text, struct health_payload *p, char *err,
    size_t errlen)
{
	const struct config_flat	fields[] = {
		{ "link", CONFIG_FLAT_STR, &p->link },
		{ "inventory", CONFIG_FLAT_STR, &p->inventory },
		{ NULL, 0, NULL } };

	return config_flat_parse(text, fields, err, errlen);
}

void
health_payload_free(struct health_payload *p)
{
	free(p->link);
	free(p->inventory);
	memset(p, 0, sizeof *p);
}
