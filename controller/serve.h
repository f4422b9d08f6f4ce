/*
 * serve: the lab daemon, `labrat serve`.  It owns the daemon's life: the
 * store opened and migrated, the heartbeat row (a second daemon on the
 * same store is refused), systemd's notify protocol written by hand
 * (READY=1, STATUS=, WATCHDOG=1, STOPPING=1 to $NOTIFY_SOCKET), signals
 * (SIGHUP reloads the daemon config, SIGTERM / SIGINT stop it: running
 * work ends at its next boundary with hosts restored and goes back to the
 * queue), the scheduler that turns stored schedules into queued night
 * items (serve_sched.c), the health checks of the config's links
 * (serve_health.c: queued when due or after an infrastructure failure,
 * a link turning bad notified), and the worker that claims queue items
 * and runs them through the run, hunt, night and health modules
 * (serve_queue.c), never on a link that is bad, in maintenance or
 * retired.
 *
 * It installs process-wide signal handlers: one daemon per process.
 */
#ifndef LABRAT_SERVE_H
#define LABRAT_SERVE_H

#include <stddef.h>

struct serve_opts {
	const char	*db_path;	/* required */
	const char	*config_path;	/* NULL: built-in defaults, no sources */
};

/*
 * Runs the daemon in the foreground until SIGTERM or SIGINT.  Returns 0
 * after a clean stop, 1 when it could not start (err says why: the
 * config, the store, another live daemon), 2 for a bad config at start.
 */
int	serve_run(const struct serve_opts *, char *err, size_t errlen);

#endif
