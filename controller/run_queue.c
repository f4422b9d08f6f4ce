/*
 * run_queue: `labrat run --enqueue`: the inventory and plan checked as a
 * new run checks them (run_files_load(), matrix_expand()), then queued
 * for the daemon serving the database with absolute paths.  The run
 * payload is written and decoded here, and run_queue_submit() is the one
 * way every --enqueue (hunt's too) builds and queues its payload.  See
 * run.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "matrix.h"
#include "run_int.h"
#include "store_daemon.h"
#include "util.h"

char *
run_queue_payload(void (*write)(struct json_writer *, const void *),
    const void *arg, char *err, size_t errlen)
{
	struct json_mem		 m;
	struct json_writer	*w;

	if ((w = json_mem_begin(&m, 0)) != NULL) {
		json_begin_obj(w);
		write(w, arg);
		json_end_obj(w);
	}
	return json_mem_end(&m, NULL, err, errlen);
}

int
run_queue_submit(const char *db_path, enum store_q_kind kind,
    void (*write)(struct json_writer *, const void *arg), const void *arg,
    int64_t *item, char *err, size_t errlen)
{
	struct store	*st = NULL;
	char		 who[256], *text;
	int		 rc = -1;

	*item = 0;
	if ((text = run_queue_payload(write, arg, err, errlen)) == NULL)
		return -1;
	if (store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, errlen) == 0) {
		store_q_who(who, sizeof who);
		rc = store_q_submit(st, kind,
		    STORE_PRIO_INTERACTIVE, text, who, item, err, errlen);
	}
	store_close(st);
	free(text);
	return rc;
}

/* The run payload of IFACE-13: {"inventory", "plan", "note"}. */
static void
run_payload_write(struct json_writer *w, const void *arg)
{
	const struct run_payload	*p = arg;

	json_kv_str(w, "inventory", p->inventory);
	json_kv_str(w, "plan", p->plan);
	json_kv_str(w, "note", p->note);
}

int
run_payload_decode(const char *text, struct run_payload *p, char *err,
    size_t errlen)
{
	const struct config_flat	fields[] = {
		{ "inventory", CONFIG_FLAT_STR, &p->inventory },
		{ "plan", CONFIG_FLAT_STR, &p->plan },
		{ "note", CONFIG_FLAT_STR, &p->note },
		{ NULL, 0, NULL } };

	return config_flat_parse(text, fields, err, errlen);
}

void
run_payload_free(struct run_payload *p)
{
	free(p->inventory);
	free(p->plan);
	free(p->note);
	memset(p, 0, sizeof *p);
}

/* The daemon reads the files from its own directory: absolute paths. */
static int
run_abs(const char *path, char *abs, char *err, size_t errlen)
{
	if (realpath(path, abs) != NULL)
		return 0;
	util_seterr(err, errlen, "%s: %s", path, strerror(errno));
	return -1;
}

enum run_status
run_enqueue(const char *db_path, const char *inventory, const char *plan,
    const char *note, int64_t *item, struct config_errors *errs, char *err,
    size_t errlen)
{
	struct config_inventory	*inv = NULL;
	struct config_plan	*pl = NULL;
	struct matrix_job	*jobs = NULL;
	struct run_payload	 p;
	char			 ipath[PATH_MAX], ppath[PATH_MAX];
	size_t			 njobs = 0;
	enum run_status		 rc = RUN_FAIL;

	*item = 0;
	util_seterr(err, errlen, "%s", "");
	if (run_files_load(inventory, plan, &inv, &pl, errs) == -1) {
		rc = RUN_CONFIG;
		goto out;
	}
	if (note != NULL && strlen(note) >= STORE_NOTE_MAX) {
		util_seterr(err, errlen, "note \"%.32s...\" is longer than %d "
		    "bytes", note, STORE_NOTE_MAX - 1);
		goto out;
	}
	if (matrix_expand(pl, inv, &jobs, &njobs, err, errlen) == -1 ||
	    run_abs(inventory, ipath, err, errlen) == -1 ||
	    run_abs(plan, ppath, err, errlen) == -1)
		goto out;
	p.inventory = ipath;
	p.plan = ppath;
	p.note = (char *)note;
	if (run_queue_submit(db_path, STORE_Q_RUN, run_payload_write, &p, item,
	    err, errlen) == 0)
		rc = RUN_OK;
out:
	free(jobs);
	config_plan_free(pl);
	config_inventory_free(inv);
	return rc;
}
