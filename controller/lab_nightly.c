/*
 * lab_nightly: the files and helpers of `labrat demo --nightly` beside the
 * lab: its daemon config (the lab's inventory, a revision source that
 * advances the lab's head, the two sinks as notification targets), the
 * SMTP and webhook sinks started on free ports, the helper binaries
 * found, the demo's directory removed.  See lab.h.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "lab.h"
#include "util.h"

int
lab_tool_find(const char *self, const char *tool, const char *env,
    char *buf, size_t len, char *err, size_t errlen)
{
	const char	*e = getenv(env);
	char		 dir[4096];

	if (e != NULL && *e != '\0')
		snprintf(buf, len, "%s", e);
	else {
		snprintf(dir, sizeof dir, "%s", self);
		snprintf(buf, len, "%s/%s", dirname(dir), tool);
	}
	if (access(buf, X_OK) != 0) {
		util_seterr(err, errlen, "no %s at %s (%s); build it (cmake "
		    "--build build --target %s) or set %s", tool, buf,
		    strerror(errno), tool, env);
		return -1;
	}
	return 0;
}

int
lab_sink_start(const char *bin, const char *dir, const char *sub,
    pid_t *pid, char *port, size_t portlen, char *err, size_t errlen)
{
	char	 d[128], out[128], errf[128], why[512] = "";
	char	*argv[] = { (char *)bin, "--dir", d, "--port", "0",
	    "--lifetime", "900", NULL };

	snprintf(d, sizeof d, "%s/%s", dir, sub);
	snprintf(out, sizeof out, "%s/%s.port", dir, sub);
	snprintf(errf, sizeof errf, "%s/%s.log", dir, sub);
	if (mkdir(d, 0700) != 0 ||
	    lab_spawn(argv, out, errf, pid, why, sizeof why) != 0 ||
	    lab_wait_line(out, *pid, 5000, port, portlen, why,
	    sizeof why) != 0) {
		util_seterr(err, errlen, "%s: %s", bin, why[0] != '\0' ? why :
		    strerror(errno));
		return -1;
	}
	return 0;
}

/* "revision_sources": the lab's history, newest = `lab advance`. */
static void
put_source(struct json_writer *w, const struct lab_nightly *n)
{
	char	step[16], hist[256];

	snprintf(step, sizeof step, "%d", LAB_NIGHTLY_STEP);
	snprintf(hist, sizeof hist, "%s/%s/history.json", LAB_STATE_ROOT,
	    n->name);
	json_key(w, "revision_sources");
	json_begin_arr(w);
	json_begin_obj(w);
	json_kv_str(w, "name", "simlab");
	json_kv_str(w, "revisions", hist);
	json_key(w, "newest");
	json_begin_obj(w);
	json_key(w, "command");
	json_begin_arr(w);
	json_put_str(w, n->self);
	json_put_str(w, "lab");
	json_put_str(w, "advance");
	json_put_str(w, "--name");
	json_put_str(w, n->name);
	json_put_str(w, "--by");
	json_put_str(w, step);
	json_put_str(w, "--print-head");
	json_end_arr(w);
	json_end_obj(w);
	json_end_obj(w);
	json_end_arr(w);
}

/* "notify": the webhook and the mail, to the two sinks. */
static void
put_notify(struct json_writer *w, const struct lab_nightly *n)
{
	char	url[128];

	json_key(w, "notify");
	json_begin_obj(w);
	json_key(w, "webhooks");
	json_begin_arr(w);
	json_begin_obj(w);
	snprintf(url, sizeof url, "http://127.0.0.1:%s/labrat", n->hook_port);
	json_kv_str(w, "url", url);
	json_end_obj(w);
	json_end_arr(w);
	json_key(w, "mail");
	json_begin_obj(w);
	snprintf(url, sizeof url, "smtp://127.0.0.1:%s", n->smtp_port);
	json_kv_str(w, "smtp", url);
	json_kv_str(w, "from", "labrat@localhost");
	json_key(w, "to");
	json_begin_arr(w);
	json_put_str(w, "netdev@localhost");
	json_end_arr(w);
	json_end_obj(w);
	json_end_obj(w);
}

int
lab_nightly_config(const char *path, const struct lab_nightly *n,
    char *err, size_t errlen)
{
	struct json_writer	*w;
	FILE			*fp;
	char			 why[256];
	int			 rc;

	if ((fp = fopen(path, "w")) == NULL) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	w = json_writer_new(fp, JSON_PRETTY);
	json_begin_obj(w);
	json_key(w, "inventories");
	json_begin_arr(w);
	json_put_str(w, n->inventory);
	json_end_arr(w);
	put_source(w, n);
	put_notify(w, n);
	json_key(w, "health");
	json_begin_obj(w);
	json_kv_int(w, "iperf_seconds", 1);
	json_end_obj(w);
	json_kv_int(w, "confirm", 1);
	json_end_obj(w);
	rc = json_writer_free(w, why, sizeof why);
	if (fclose(fp) != 0 || rc != 0) {
		util_seterr(err, errlen, "%s: %s", path, rc != 0 ? why :
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
rm_one(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(path);
}

int
lab_rmtree(const char *dir, char *err, size_t errlen)
{
	if (nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0) {
		util_seterr(err, errlen, "removing %s: %s", dir,
		    strerror(errno));
		return -1;
	}
	return 0;
}
