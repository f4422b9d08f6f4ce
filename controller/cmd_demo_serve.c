/*
 * cmd_demo_serve: the dashboard a demo shows its results on -- `labrat
 * serve` listening on a free port of 127.0.0.1 with reads open (the
 * default on loopback, said outright), over the demo's database.  The
 * nightly demo adds it to its own daemon's config; `labrat demo --keep`
 * starts one at the end and leaves it running.
 */
#include <sys/socket.h>
#include <sys/types.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "json.h"
#include "lab.h"
#include "util.h"

#define DASH_CFG_MAX	(64 * 1024)	/* the daemon config we amend */

int
demo_dash_port(struct demo_dash *d, char *err, size_t errlen)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof sin;
	int			fd;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1) {
		util_seterr(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof sin) == -1 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) == -1) {
		util_seterr(err, errlen, "bind(127.0.0.1:0): %s",
		    strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	snprintf(d->port, sizeof d->port, "%u", ntohs(sin.sin_port));
	snprintf(d->url, sizeof d->url, "http://127.0.0.1:%s/ui/", d->port);
	return 0;
}

int
demo_dash_config_http(const char *path, const struct demo_dash *d,
    char *err, size_t errlen)
{
	char	*text, *end, *out;
	size_t	 len;
	int	 rc;

	if ((text = util_read_file(path, DASH_CFG_MAX, &len, err,
	    errlen)) == NULL)
		return -1;
	/* The writer's object ends in its last '}': the member goes there. */
	if ((end = strrchr(text, '}')) == NULL) {
		util_seterr(err, errlen, "%s: not a JSON object", path);
		free(text);
		return -1;
	}
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	out = xasprintf("%.*s%s\n  \"http\": {\"listen\": "
	    "\"http://127.0.0.1:%s\", \"reads\": \"open\"}\n}\n",
	    (int)(end - text), text, end > text && end[-1] != '{' ? "," : "",
	    d->port);
	free(text);
	rc = util_write_file_atomic(path, out, strlen(out), 0600, err, errlen);
	free(out);
	return rc;
}

int
demo_dash_wait(const struct demo_dash *d, int timeout_ms, char *err,
    size_t errlen)
{
	int64_t	 end = util_now_ms() + timeout_ms;
	char	 want[64], e[256], *text;
	int	 st, found;

	snprintf(want, sizeof want, "http: listening on http://127.0.0.1:%s",
	    d->port);
	for (;;) {
		text = util_read_file(d->log, 1024 * 1024, NULL, e, sizeof e);
		found = text != NULL && strstr(text, want) != NULL;
		free(text);
		if (found)
			return 0;
		if (!lab_child_alive(d->pid, &st)) {
			util_seterr(err, errlen, "labrat serve exited before "
			    "it listened on 127.0.0.1:%s (its log: %s)",
			    d->port, d->log);
			return -1;
		}
		if (util_now_ms() >= end) {
			util_seterr(err, errlen, "labrat serve did not listen "
			    "on 127.0.0.1:%s within %d s (its log: %s)",
			    d->port, timeout_ms / 1000, d->log);
			return -1;
		}
		usleep(100 * 1000);
	}
}

/* The dashboard daemon's config: the lab's inventory, nothing else. */
static int
dash_config(const char *path, const char *inv, char *err, size_t errlen)
{
	struct json_mem		 m;
	struct json_writer	*w;

	/* Out of memory: json_mem_write_file() says so. */
	if ((w = json_mem_begin(&m, JSON_PRETTY)) != NULL) {
		json_begin_obj(w);
		json_key(w, "inventories");
		json_begin_arr(w);
		json_put_str(w, inv);
		json_end_arr(w);
		json_end_obj(w);
	}
	return json_mem_write_file(&m, path, err, errlen);
}

int
demo_dash_start(const char *db, const char *inv, struct demo_dash *d,
    char *dir, size_t dirlen, char *err, size_t errlen)
{
	char	 self[4096], cfg[160];
	char	*argv[] = { self, "serve", "--config", cfg, "--db",
	    (char *)db, NULL };
	ssize_t	 len;

	memset(d, 0, sizeof *d);
	if ((len = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0) {
		util_seterr(err, errlen, "/proc/self/exe: %s",
		    strerror(errno));
		return -1;
	}
	self[len] = '\0';
	snprintf(dir, dirlen, "/tmp/labrat-dash.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		util_seterr(err, errlen, "mkdtemp: %s", strerror(errno));
		return -1;
	}
	snprintf(cfg, sizeof cfg, "%s/daemon.json", dir);
	snprintf(d->log, sizeof d->log, "%s/serve.log", dir);
	if (dash_config(cfg, inv, err, errlen) != 0 ||
	    demo_dash_port(d, err, errlen) != 0 ||
	    demo_dash_config_http(cfg, d, err, errlen) != 0 ||
	    lab_spawn(argv, NULL, d->log, &d->pid, err, errlen) != 0)
		return -1;
	if (demo_dash_wait(d, 15000, err, errlen) != 0) {
		lab_stop(d->pid, SIGTERM, 10000);
		d->pid = 0;
		return -1;
	}
	return 0;
}
