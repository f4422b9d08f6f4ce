/*
 * health_show: `labrat hosts health`, every stored link and the newest
 * transitions, as a table or as JSON:
 *
 *   {"links": [{"link": "em", "state": "good",
 *               "since": "2026-12-01T14:30:05Z", "why": "check passed: ...",
 *               "warnings": ["em-a em0: the host reports driver veth, ..."],
 *               "last_check": ISO | null, "last_check_ok": bool | null,
 *               "last_run": RUN | null,
 *               "last_good_bps": 941000000 | null, "last_good_at": ISO | null,
 *               "usable": true}],
 *    "transitions": [{"id": 3, "link": "em", "from": "unknown",
 *                     "to": "good", "who": "root@ctl1 pid 4711",
 *                     "at": ISO, "why": "..."}]}
 *
 * Transitions are newest first.  Text a link shows came from the hosts
 * and the operators: it is neutralised before it reaches a terminal.
 *
 * Also `labrat hosts check`: the checks one after the other, each
 * outcome as a line ("em: unknown -> good: passed ...") and its warnings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "health_int.h"
#include "json.h"
#include "log.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

static const char *
show_safe(char *buf, size_t len, const char *s)
{
	return util_term_safe(buf, len, s != NULL ? s : "", (size_t)-1);
}

static void
show_time(struct json_writer *w, const char *key, int64_t ms)
{
	char	buf[40];

	if (ms <= 0) {
		json_kv_null(w, key);
		return;
	}
	health_time(ms, 1, buf, sizeof buf);
	json_kv_str(w, key, buf);
}

/* "a; b" as ["a", "b"]. */
static void
show_list(struct json_writer *w, const char *key, const char *s)
{
	const char	*p, *q;

	json_key(w, key);
	json_begin_arr(w);
	for (p = s; p != NULL && *p != '\0'; p = q != NULL ? q + 2 : NULL) {
		q = strstr(p, "; ");
		json_put_strn(w, p, q != NULL ? (size_t)(q - p) : strlen(p));
	}
	json_end_arr(w);
}

static void
show_json_link(struct json_writer *w, const struct store_health *h)
{
	enum health_state	s = HEALTH_UNKNOWN;

	health_state_parse(h->state, &s);
	json_begin_obj(w);
	json_kv_str(w, "link", h->link);
	json_kv_str(w, "state", h->state);
	show_time(w, "since", h->since);
	json_kv_str(w, "why", h->why);
	show_list(w, "warnings", h->warnings);
	show_time(w, "last_check", h->checked_at);
	if (h->check_ok < 0)
		json_kv_null(w, "last_check_ok");
	else
		json_kv_bool(w, "last_check_ok", h->check_ok);
	if (h->run_id > 0)
		json_kv_int(w, "last_run", h->run_id);
	else
		json_kv_null(w, "last_run");
	if (h->good_figure > 0)
		json_kv_num(w, "last_good_bps", h->good_figure);
	else
		json_kv_null(w, "last_good_bps");
	show_time(w, "last_good_at", h->good_at);
	json_kv_bool(w, "usable", health_usable(s));
	json_end_obj(w);
}

static int
show_json(FILE *fp, const struct store_health *v, size_t n,
    const struct store_health_tr *t, size_t nt, char *err, size_t errlen)
{
	struct json_writer	*w = json_writer_new(fp, JSON_PRETTY);
	size_t			 i;

	json_begin_obj(w);
	json_key(w, "links");
	json_begin_arr(w);
	for (i = 0; i < n; i++)
		show_json_link(w, &v[i]);
	json_end_arr(w);
	json_key(w, "transitions");
	json_begin_arr(w);
	for (i = 0; i < nt; i++) {
		json_begin_obj(w);
		json_kv_int(w, "id", t[i].id);
		json_kv_str(w, "link", t[i].link);
		json_kv_str(w, "from", t[i].from);
		json_kv_str(w, "to", t[i].to);
		json_kv_str(w, "who", t[i].who);
		show_time(w, "at", t[i].at);
		json_kv_str(w, "why", t[i].why);
		json_end_obj(w);
	}
	json_end_arr(w);
	json_end_obj(w);
	return json_writer_free(w, err, errlen);
}

static void
show_text(FILE *fp, const struct store_health *v, size_t n,
    const struct store_health_tr *t, size_t nt)
{
	char	since[40], chk[40], fig[32], safe[1024];
	size_t	i;

	if (n == 0)
		fprintf(fp, "no link has a health state yet (a link never "
		    "checked is unknown: `labrat hosts check`)\n");
	else
		fprintf(fp, "%-12s %-11s %-19s %-19s %-12s %s\n", "LINK",
		    "STATE", "SINCE (UTC)", "LAST CHECK", "LAST GOOD", "WHY");
	for (i = 0; i < n; i++) {
		health_time(v[i].since, 0, since, sizeof since);
		health_time(v[i].checked_at, 0, chk, sizeof chk);
		if (v[i].good_figure > 0)
			snprintf(fig, sizeof fig, "%.0f Mbit/s",
			    v[i].good_figure / 1e6);
		else
			snprintf(fig, sizeof fig, "-");
		fprintf(fp, "%-12s %-11s %-19s %-19s %-12s %s\n", v[i].link,
		    v[i].state, since, chk, fig, show_safe(safe, sizeof safe,
		    v[i].why));
		if (v[i].warnings != NULL && *v[i].warnings != '\0')
			fprintf(fp, "  %s: warning: %s\n", v[i].link,
			    show_safe(safe, sizeof safe, v[i].warnings));
	}
	if (nt > 0)
		fprintf(fp, "\nlast transitions (newest first):\n");
	for (i = 0; i < nt; i++) {
		health_time(t[i].at, 0, since, sizeof since);
		fprintf(fp, "  %s  %-12s %s -> %s  by %s: ", since, t[i].link,
		    t[i].from, t[i].to, show_safe(safe, sizeof safe,
		    t[i].who));
		fprintf(fp, "%s\n", show_safe(safe, sizeof safe, t[i].why));
	}
}

int
health_show(const char *db_path, size_t ntrans, int json, FILE *fp,
    char *err, size_t errlen)
{
	struct store		*st;
	struct store_health	*v = NULL;
	struct store_health_tr	*t = NULL;
	size_t			 n = 0, nt = 0;
	int			 rc = -1;

	if (store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen) == -1)
		return -1;
	if (store_health_list(st, &v, &n, err, errlen) == -1 ||
	    store_health_transitions(st, NULL, ntrans, &t, &nt, err,
	    errlen) == -1)
		goto out;
	if (json)
		rc = show_json(fp, v, n, t, nt, err, errlen);
	else {
		show_text(fp, v, n, t, nt);
		rc = 0;
	}
out:
	store_healths_free(v, n);
	store_health_trs_free(t, nt);
	store_close(st);
	return rc;
}

/* One line for a check's outcome, then its warnings. */
static void
show_check(const char *link, const struct health_result *r, FILE *fp)
{
	char	safe[1024];

	fprintf(fp, "%s: %s -> %s: %s\n", link, health_state_name(r->before),
	    health_state_name(r->after), show_safe(safe, sizeof safe,
	    r->why));
	if (r->warnings[0] != '\0')
		fprintf(fp, "  %s: warning: %s\n", link, show_safe(safe,
		    sizeof safe, r->warnings));
}

int
health_check_each(const struct config_inventory *inv, const char *link,
    const struct health_opts *o, FILE *fp)
{
	struct health_result	 res;
	const char		*name;
	char			 err[1024];
	size_t			 i;
	int			 bad = 0;

	for (i = 0; i < inv->nlinks; i++) {
		if (o->stop != NULL && *o->stop)
			return 1;
		name = inv->links[i].name;
		if (link != NULL && strcmp(name, link) != 0)
			continue;
		if (health_check(inv, name, o, &res, err, sizeof err) == -1) {
			log_warnx("hosts check: %s: not checked: %s", name,
			    err);
			bad = 1;
			continue;
		}
		show_check(name, &res, fp);
		if (res.checked && res.after != HEALTH_GOOD)
			bad = 1;
	}
	return o->stop != NULL && *o->stop ? 1 : bad;
}
