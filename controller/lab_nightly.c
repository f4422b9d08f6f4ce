/*
 * lab_nightly: the files and helpers of `labrat demo --nightly` beside the
 * lab: its daemon config (the lab's inventory, a revision source that
 * advances the lab's head, the two sinks as notification targets), the
 * SMTP and webhook sinks started on free ports, the helper binaries
 * found, the demo's directory removed; the demo's session (struct
 * lab_night: open, lab up, sinks, serve, watch, stop, down).  See lab.h.
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
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
	struct json_mem		 m;
	struct json_writer	*w;

	/* Out of memory: json_mem_write_file() says so. */
	if ((w = json_mem_begin(&m, JSON_PRETTY)) != NULL) {
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
	}
	return json_mem_write_file(&m, path, err, errlen);
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

/* ---- the nightly demo's session -------------------------------------- */

int
lab_night_open(struct lab_night *n, const char *name, char *err,
    size_t errlen)
{
	ssize_t	len;

	memset(n, 0, sizeof *n);
	n->name = name;
	len = readlink("/proc/self/exe", n->self, sizeof n->self - 1);
	if (len <= 0) {
		util_seterr(err, errlen, "/proc/self/exe: %s",
		    strerror(errno));
		return -1;
	}
	n->self[len] = '\0';
	if (lab_tool_find(n->self, "smtpsink", "LABRAT_SMTPSINK",
	    n->smtpsink, sizeof n->smtpsink, err, errlen) != 0 ||
	    lab_tool_find(n->self, "hooksink", "LABRAT_HOOKSINK",
	    n->hooksink, sizeof n->hooksink, err, errlen) != 0)
		return -1;
	snprintf(n->dir, sizeof n->dir, "/tmp/labrat-nightly.XXXXXX");
	if (mkdtemp(n->dir) == NULL) {
		util_seterr(err, errlen, "mkdtemp: %s", strerror(errno));
		return -1;
	}
	snprintf(n->db, sizeof n->db, "%s/labrat.db", n->dir);
	snprintf(n->cfg, sizeof n->cfg, "%s/daemon.json", n->dir);
	snprintf(n->log, sizeof n->log, "%s/serve.log", n->dir);
	return 0;
}

int
lab_night_lab_up(struct lab_night *n, const char *noise, FILE *out,
    char *err, size_t errlen)
{
	char	*up[] = { "--name", (char *)n->name, "--noise", (char *)noise,
	    "--head", LAB_NIGHTLY_HEAD, "--boot-seconds", "1" };
	char	 note[128];

	err[0] = '\0';
	snprintf(note, sizeof note, "(a lab named %s is up already: taking "
	    "it down)", n->name);
	if (lab_up_fresh(n->name, up, 8, note, out, err, errlen) != 0)
		return -1;
	n->inv = lab_inventory_path(n->name);
	return 0;
}

int
lab_night_sinks(struct lab_night *n, char *err, size_t errlen)
{
	struct lab_nightly	c = { n->self, n->name, n->inv, n->smtp_port,
	    n->hook_port };

	if (lab_sink_start(n->smtpsink, n->dir, "mail", &n->smtp,
	    n->smtp_port, sizeof n->smtp_port, err, errlen) != 0 ||
	    lab_sink_start(n->hooksink, n->dir, "hooks", &n->hooks,
	    n->hook_port, sizeof n->hook_port, err, errlen) != 0)
		return -1;
	return lab_nightly_config(n->cfg, &c, err, errlen);
}

int
lab_night_serve(struct lab_night *n, char *err, size_t errlen)
{
	char	*serve[] = { n->self, "serve", "--config", n->cfg, "--db",
	    n->db, NULL };

	return lab_spawn(serve, NULL, n->log, &n->serve, err, errlen);
}

/*
 * Test only (LABRAT_TEST_CLOCK=skip): the daemon's clock moved on while it
 * was idle ("test clock: idle: moved on N ms ..."), this process's moves
 * on as far, so that the store read at the end shows true ages.
 */
static void
log_clock(const char *line)
{
	static const char	 tag[] = "labrat serve: test clock: idle: moved "
	    "on ";
	const char		*p = strstr(line, tag);
	long long		 ms;

	if (p != NULL && sscanf(p + sizeof tag - 1, "%lld ms", &ms) == 1)
		util_clock_skip(ms);
}

void
lab_night_log(struct lab_night *n, FILE *out)
{
	FILE	*fp;
	char	 line[2048];

	if ((fp = fopen(n->log, "r")) == NULL)
		return;
	if (fseek(fp, n->log_off, SEEK_SET) == 0) {
		while (fgets(line, sizeof line, fp) != NULL &&
		    strchr(line, '\n') != NULL) {
			fprintf(out, "  serve: %s", line);
			log_clock(line);
			n->log_off = ftell(fp);
		}
	}
	fclose(fp);
	fflush(out);
}

/*
 * The first of the sink's files DIR/SUB/1.EXT, 2.EXT, ... that holds tag
 * (the regression's notification: a bad link's comes too, and the nights
 * go on after it): its path into path (when path is empty), 1; 0 none
 * yet.  The sinks write each file whole before its name appears.
 */
static int
night_notified(const char *dir, const char *sub, const char *ext,
    const char *tag, char *path, size_t len)
{
	char	 p[256], err[256], *text;
	size_t	 n;
	int	 i, found;

	if (path[0] != '\0')
		return 1;
	for (i = 1; i < 10000; i++) {
		snprintf(p, sizeof p, "%s/%s/%d.%s", dir, sub, i, ext);
		if ((text = util_read_file(p, 1024 * 1024, &n, err,
		    sizeof err)) == NULL)
			return 0;
		found = strstr(text, tag) != NULL;
		free(text);
		if (found) {
			snprintf(path, len, "%s", p);
			return 1;
		}
	}
	return 0;
}

int
lab_night_mailed(struct lab_night *n)
{
	return night_notified(n->dir, "mail", "eml", "\nX-Labrat-Kind: "
	    "regression", n->mail, sizeof n->mail);
}

int
lab_night_hooked(struct lab_night *n)
{
	return night_notified(n->dir, "hooks", "body", "\"kind\":"
	    "\"regression\"", n->hook, sizeof n->hook);
}

int
lab_night_watch(struct lab_night *n, int64_t deadline,
    const volatile sig_atomic_t *stop, FILE *out, int *status)
{
	char	 head[64], last[64] = "", err[256];
	int64_t	 mail_at = 0;
	int	 st;

	*status = -1;
	while (!*stop && util_now_ms() < deadline) {
		lab_night_log(n, out);
		if (lab_head(n->name, head, sizeof head, err,
		    sizeof err) == 0 && strcmp(head, last) != 0) {
			if (last[0] != '\0')
				fprintf(out, "--- the head moved: %s -> %s (a "
				    "new night's kernel has landed)\n", last,
				    head);
			snprintf(last, sizeof last, "%s", head);
		}
		if (mail_at == 0 && lab_night_mailed(n))
			mail_at = util_now_ms();
		if (mail_at != 0 && (lab_night_hooked(n) ||
		    util_now_ms() - mail_at > 15000))
			break;
		if (!lab_child_alive(n->serve, &st)) {
			lab_night_log(n, out);
			*status = WIFEXITED(st) ? WEXITSTATUS(st) :
			    128 + WTERMSIG(st);
			n->serve = 0;
			return 0;
		}
		sleep(1);
	}
	lab_night_log(n, out);
	return mail_at != 0;
}

void
lab_night_stop(struct lab_night *n)
{
	if (n->serve > 0)
		lab_stop(n->serve, SIGTERM, 60000);
	n->serve = 0;
	if (n->smtp > 0)
		lab_stop(n->smtp, SIGTERM, 2000);
	n->smtp = 0;
	if (n->hooks > 0)
		lab_stop(n->hooks, SIGTERM, 2000);
	n->hooks = 0;
}

int
lab_night_down(struct lab_night *n, char *err, size_t errlen)
{
	char	*down[] = { "--name", (char *)n->name };

	return lab_labctl("down", down, 2, err, errlen) == 0 ? 0 : -1;
}

void
lab_night_close(struct lab_night *n)
{
	free(n->inv);
	n->inv = NULL;
}
