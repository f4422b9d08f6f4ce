/*
 * cmd_demo.h: what `labrat demo` and `labrat demo --nightly` share: the
 * dashboard (`labrat serve` with an "http" section on a free 127.0.0.1
 * port, reads open) over the demo's database (cmd_demo_serve.c).
 */
#ifndef LABRAT_CMD_DEMO_H
#define LABRAT_CMD_DEMO_H

#include <sys/types.h>

#include <stddef.h>

/* A dashboard daemon: its port, URL (of /ui/), pid and log. */
struct demo_dash {
	char	port[8];
	char	url[64];	/* http://127.0.0.1:PORT/ui/ */
	char	log[160];
	pid_t	pid;
};

/*
 * Picks a free port on 127.0.0.1 (the kernel's choice for port 0) into
 * d->port and d->url.  0, or -1 with err naming the call that failed.
 */
int	demo_dash_port(struct demo_dash *d, char *err, size_t errlen);

/*
 * Adds "http": {"listen": "http://127.0.0.1:PORT", "reads": "open"} to the
 * daemon config at path (a JSON object the json writer wrote).  0, or -1
 * with err naming path.
 */
int	demo_dash_config_http(const char *path, const struct demo_dash *d,
	    char *err, size_t errlen);

/*
 * Waits up to timeout_ms until the daemon d->pid logs to d->log that it
 * listens on d->port.  0, or -1 with err (it exited, or never said so).
 */
int	demo_dash_wait(const struct demo_dash *d, int timeout_ms, char *err,
	    size_t errlen);

/*
 * `labrat serve --db db` with the dashboard on a free port of 127.0.0.1
 * and inventory inv, its config and log in a new directory
 * /tmp/labrat-dash.XXXXXX (written to dir), left running: d filled.  0,
 * or -1 with err (nothing left running).
 */
int	demo_dash_start(const char *db, const char *inv, struct demo_dash *d,
	    char *dir, size_t dirlen, char *err, size_t errlen);

#endif
