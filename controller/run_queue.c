/*
 * run_queue: `labrat run --enqueue`: the inventory and plan checked as a
 * new run checks them (run_files_load(), matrix_expand()), then queued
 * for the daemon serving the database with absolute paths.  See run.h.
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

/* The run payload of IFACE-13 (heap), or NULL with err. */
static char *
run_payload(const char *ipath, const char *ppath, const char *note, char *err,
    size_t errlen)
{
	struct json_writer	*w;
	char			*text = NULL;
	size_t			 len = 0;
	FILE			*fp;

	if ((fp = open_memstream(&text, &len)) == NULL) {
		util_seterr(err, errlen, "open_memstream: %s", strerror(errno));
		return NULL;
	}
	w = json_writer_new(fp, 0);
	json_begin_obj(w);
	json_kv_str(w, "inventory", ipath);
	json_kv_str(w, "plan", ppath);
	json_kv_str(w, "note", note);
	json_end_obj(w);
	if (json_writer_free(w, err, errlen) == -1 || fclose(fp) == EOF) {
		free(text);
		return NULL;
	}
	return text;
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
	struct store		*st = NULL;
	char			 ipath[PATH_MAX], ppath[PATH_MAX], who[256],
				*text = NULL;
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
	    run_abs(plan, ppath, err, errlen) == -1 ||
	    (text = run_payload(ipath, ppath, note, err, errlen)) == NULL ||
	    store_open(db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st, err,
	    errlen) == -1)
		goto out;
	store_q_who(who, sizeof who);
	if (store_q_submit(st, STORE_Q_RUN, STORE_PRIO_INTERACTIVE, text, who,
	    item, err, errlen) == 0)
		rc = RUN_OK;
out:
	store_close(st);
	free(text);
	free(jobs);
	config_plan_free(pl);
	config_inventory_free(inv);
	return rc;
}
