/*
 * hunt_queue: a new bisect checked the one way (hunt_new_check(): the
 * inventory, test, link and revisions, as hunt_start() stores them), and
 * `labrat bisect start --enqueue` (hunt_enqueue()), which checks the same
 * and queues the request for the daemon with absolute paths; the bisect
 * payload is written and decoded (hunt_payload_decode()) here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "config.h"
#include "hunt_int.h"
#include "json.h"
#include "run.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

void
hunt_new_free(struct hunt_new *n)
{
	bisect_free(n->m);
	hunt_revs_free(&n->r);
	free(n->good);
	free(n->bad);
	config_plan_free(n->plan);
	config_bisect_test_free(n->t);
	config_inventory_free(n->inv);
	memset(n, 0, sizeof *n);
}

int
hunt_new_check(const struct hunt_request *rq, struct hunt_new *n, char *err,
    size_t errlen)
{
	struct config_errors	 errs;
	const char		*src;
	char			 e[1024];

	memset(n, 0, sizeof *n);
	n->good = xstrdup(rq->good);
	n->bad = xstrdup(rq->bad);
	config_errors_init(&errs);
	/* Every error at once: the test is checked even if inv is not. */
	n->inv = config_inventory_load(rq->inventory, &errs);
	n->t = config_bisect_test_load(rq->test, &errs);
	if (n->inv == NULL || n->t == NULL || (n->plan =
	    config_bisect_plan(n->t, rq->link, n->inv, &errs)) == NULL) {
		hunt_errs(&errs, err, errlen);
		return -2;
	}
	config_errors_free(&errs);
	if (hunt_test_judging(n->t, e, sizeof e) == -1) {
		util_seterr(err, errlen, "%s: %s", rq->test, e);
		return -2;
	}
	if (config_inventory_link(n->inv, rq->link) == NULL)
		util_seterr(err, errlen, "%s: no link %s", rq->inventory,
		    rq->link);
	else if (realpath(rq->inventory, n->ipath) == NULL ||
	    realpath(rq->test, n->tpath) == NULL)
		util_seterr(err, errlen, "realpath: %s", strerror(errno));
	else if ((src = rq->revisions != NULL ? rq->revisions :
	    n->inv->revisions) == NULL)
		util_seterr(err, errlen, "no revision source: give --revisions "
		    "SOURCE or set \"revisions\" in %s", rq->inventory);
	else if (hunt_revs_load(&n->r, src, &n->good, &n->bad, e,
	    sizeof e) == -1)
		util_seterr(err, errlen, "revisions: %s", e);
	else if (hunt_revs_endpoints(&n->r, n->good, n->bad, &n->gi, &n->bi,
	    err, errlen) == 0 && (n->m = bisect_new((const char *const *)
	    n->r.ids + n->gi, (size_t)(n->bi - n->gi + 1), 0,
	    (size_t)(n->bi - n->gi), e, sizeof e)) == NULL)
		util_seterr(err, errlen, "revisions: %s", e);
	return n->m != NULL ? 0 : -2;
}

/* --revisions as the daemon can read it from any directory: a file or
 * git:PATH[:SUB,...] with PATH absolute.  0 or -1 with err. */
static int
abs_revisions(const char *src, char *buf, size_t len, char *err,
    size_t errlen)
{
	char		 path[PATH_MAX], abs[PATH_MAX];
	const char	*p = src, *rest = "";
	size_t		 n;

	if (strncmp(src, "git:", 4) == 0) {
		p = src + 4;
		if ((rest = strchr(p, ':')) == NULL)
			rest = "";
	}
	n = strlen(p) - strlen(rest);
	if (n >= sizeof path) {
		util_seterr(err, errlen, "--revisions %s: path too long", src);
		return -1;
	}
	memcpy(path, p, n);
	path[n] = '\0';
	if (realpath(path, abs) == NULL) {
		util_seterr(err, errlen, "--revisions %s: %s: %s", src, path,
		    strerror(errno));
		return -1;
	}
	if ((size_t)snprintf(buf, len, "%s%s%s", p != src ? "git:" : "", abs,
	    rest) >= len) {
		util_seterr(err, errlen, "--revisions %s: path too long", src);
		return -1;
	}
	return 0;
}

/* What the bisect payload is written from. */
struct payload_src {
	const struct hunt_request	*rq;
	const struct hunt_new		*n;
	const char			*revs;
};

/* The bisect payload of IFACE-13 (run_queue_submit()'s writer). */
static void
payload_write(struct json_writer *w, const void *arg)
{
	const struct payload_src	*p = arg;

	json_kv_str(w, "inventory", p->n->ipath);
	json_kv_str(w, "link", p->rq->link);
	json_kv_str(w, "good", p->n->good);
	json_kv_str(w, "bad", p->n->bad);
	json_kv_str(w, "test", p->n->tpath);
	json_kv_str(w, "revisions", p->revs);
	json_kv_bool(w, "leave_on_culprit", p->rq->leave_on_culprit);
	if (p->rq->note != NULL)
		json_kv_str(w, "note", p->rq->note);
}

int
hunt_payload_decode(const char *text, struct hunt_payload *p, char *err,
    size_t errlen)
{
	const struct config_flat	fields[] = {
		{ "inventory", CONFIG_FLAT_STR, &p->inventory },
		{ "link", CONFIG_FLAT_STR, &p->link },
		{ "good", CONFIG_FLAT_STR, &p->good },
		{ "bad", CONFIG_FLAT_STR, &p->bad },
		{ "test", CONFIG_FLAT_STR, &p->test },
		{ "revisions", CONFIG_FLAT_STR, &p->revisions },
		{ "leave_on_culprit", CONFIG_FLAT_BOOL, &p->leave_on_culprit },
		{ NULL, 0, NULL } };

	p->leave_on_culprit = 0;
	return config_flat_parse(text, fields, err, errlen);
}

void
hunt_payload_free(struct hunt_payload *p)
{
	free(p->inventory);
	free(p->link);
	free(p->good);
	free(p->bad);
	free(p->test);
	free(p->revisions);
	memset(p, 0, sizeof *p);
}

int
hunt_enqueue(const char *db_path, const struct hunt_request *rq,
    int64_t *item, char *err, size_t errlen)
{
	struct payload_src	 p;
	struct hunt_new		 n;
	char			 revs[PATH_MAX + 256];
	int			 rc;

	*item = 0;
	if (rq->replay != NULL) {
		util_seterr(err, errlen, "--replay LOG cannot be queued: run "
		    "it without --enqueue");
		return -1;
	}
	if ((rc = hunt_new_check(rq, &n, err, errlen)) == 0) {
		rc = -1;
		p.rq = rq;
		p.n = &n;
		p.revs = rq->revisions != NULL ? revs : NULL;
		if (rq->revisions == NULL || abs_revisions(rq->revisions,
		    revs, sizeof revs, err, errlen) == 0)
			rc = run_queue_submit(db_path, STORE_Q_BISECT,
			    payload_write, &p, item, err, errlen);
	}
	hunt_new_free(&n);
	return rc;
}
