/*
 * serve: the daemon's lifecycle (see serve.h).  The main thread owns the
 * signals, the heartbeat, the scheduler tick and the config; one worker
 * thread (serve_queue.c) runs queue items.  A stop: STOPPING=1, the stop
 * flag the running item's run or hunt watches, the worker requeues what
 * it was doing and leaves, the daemon row is unregistered, exit 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "http.h"
#include "log.h"
#include "serve.h"
#include "serve_int.h"
#include "util.h"

static struct serve	*serve_self;	/* for the signal handlers */

int64_t
serve_now_ms(void)
{
	return util_wall_ms();
}

static void
serve_on_signal(int sig)
{
	if (serve_self == NULL)
		return;
	if (sig == SIGHUP)
		serve_self->hup = 1;
	else
		serve_self->stop = 1;
}

/*
 * systemd's notify protocol by hand: one datagram to $NOTIFY_SOCKET, a
 * path or an abstract name ("@..."); nothing when it is unset.
 */
static void
serve_notify(const char *msg)
{
	struct sockaddr_un	 sa;
	const char		*path = getenv("NOTIFY_SOCKET");
	socklen_t		 len;
	size_t			 n;
	int			 fd;

	if (path == NULL || *path == '\0')
		return;
	n = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || n >= sizeof sa.sun_path) {
		log_warnx("NOTIFY_SOCKET %s: not a socket path or @name",
		    path);
		return;
	}
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, n);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';	/* abstract: no NUL at the end */
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
	    (path[0] == '@' ? 0 : 1));
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		log_warn("notify: socket");
		return;
	}
	if (sendto(fd, msg, strlen(msg), MSG_NOSIGNAL,
	    (struct sockaddr *)&sa, len) == -1)
		log_warn("notify %s: sendto %s", msg, path);
	else
		log_debug("notify: %s", msg);
	close(fd);
}

/* The config file, or the built-in defaults (no sources, no targets). */
static int
serve_load_config(const char *path, struct config_daemon **out, char *err,
    size_t errlen)
{
	static const char	 deflt[] = "{\"inventories\": [\"-\"]}";
	struct config_errors	 errs;
	size_t			 i;
	int			 rc;

	config_errors_init(&errs);
	if (path == NULL)
		rc = config_daemon_parse("(defaults)", deflt, sizeof deflt - 1,
		    out, &errs);
	else
		rc = config_daemon_load(path, out, &errs, err, errlen);
	for (i = 0; rc == -1 && i < errs.n; i++)
		log_error("%s", errs.msgs[i]);
	config_errors_free(&errs);
	return rc;
}

static void
serve_reload(struct serve *sv)
{
	struct config_daemon	*d, *old;
	char			 err[512];

	sv->hup = 0;
	if (sv->config_path == NULL) {
		log_info("SIGHUP: no --config, nothing to reload");
		return;
	}
	if (serve_load_config(sv->config_path, &d, err, sizeof err) == -1) {
		log_error("SIGHUP: %s: keeping the config loaded before",
		    err);
		return;
	}
	pthread_mutex_lock(&sv->mtx);
	old = sv->config;
	sv->config = d;
	pthread_mutex_unlock(&sv->mtx);
	/* The worker copies what it needs under mtx at each item's start;
	 * the one running keeps its copy, so the old config can go. */
	config_daemon_free(old);
	log_info("SIGHUP: %s reloaded: %zu revision sources, max_jobs %d",
	    sv->config_path, d->nsources, d->max_jobs);
}

static void
serve_signals(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = serve_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* Store open, migrated, the daemon registered: 0, or 1 with err. */
static int
serve_start(struct serve *sv, struct store **stp, char *err, size_t errlen)
{
	struct store_daemon	 other;
	struct store_owner	 me;
	char			 e[512];
	int64_t			 n = 0;
	int			 r;

	if (store_open(sv->db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, stp,
	    e, sizeof e) == -1) {
		util_seterr(err, errlen, "%s", e);
		return 1;
	}
	store_owner_self(&me);
	store_owner_text(&me, sv->owner, sizeof sv->owner);
	r = store_daemon_register(*stp, sv->owner, STORE_DAEMON_STALE_MS,
	    &other, e, sizeof e);
	if (r != 0) {
		if (r == 1) {
			util_seterr(err, errlen, "%s is served by another "
			    "daemon: %s (last heartbeat %lld s ago); stop it "
			    "first", sv->db_path, other.owner,
			    (long long)((serve_now_ms() - other.beat) / 1000));
			store_daemon_free(&other);
		} else
			util_seterr(err, errlen, "%s", e);
		store_close(*stp);
		*stp = NULL;
		return 1;
	}
	if (store_q_requeue_dead(*stp, &n, e, sizeof e) == -1)
		log_warnx("requeue the work of dead daemons: %s", e);
	else if (n > 0)
		log_info("%lld queue items of a daemon that died queued "
		    "again: they resume where it left off", (long long)n);
	return 0;
}

/*
 * Test only (LABRAT_TEST_CLOCK=skip): nothing queued or running at two
 * ticks in a row, the clock moves on to the next full minute, the next
 * slot any schedule can have (cron fires on whole minutes), instead of
 * waiting for it; at most a tick before it, it is left to come.  1 when
 * it moved.
 */
static int
serve_clock_skip(struct store *st, int *idle)
{
	struct store_q_item	*v = NULL;
	size_t			 n = 0;
	int64_t			 now, next;
	char			 err[512];

	if (!util_clock_skips())
		return 0;
	if (store_q_list(st, 1u << STORE_Q_QUEUED | 1u << STORE_Q_RUNNING, 1,
	    &v, &n, err, sizeof err) == -1 || n > 0) {
		store_q_items_free(v, n);
		*idle = 0;
		return 0;
	}
	now = util_wall_ms();
	next = now - now % 60000 + 60000;
	if ((*idle)++ == 0 || next - now <= SERVE_TICK_MS)
		return 0;
	util_clock_skip(next - now);
	log_info("test clock: idle: moved on %lld ms to the next minute",
	    (long long)(next - now));
	*idle = 0;
	return 1;
}

/* The main loop: ticks, beats, reloads, until a stop.  The intervals are
 * measured on the monotonic clock: the wall clock may stand still or
 * skip (LABRAT_TEST_CLOCK). */
static void
serve_loop(struct serve *sv, struct store *st)
{
	struct cron_cache	*cache = cron_cache_new(NULL);
	/* tv_nsec must stay below 1 s, or nanosleep fails at once. */
	struct timespec		 ts = { SERVE_TICK_MS / 1000,
				    (SERVE_TICK_MS % 1000) * 1000000L };
	int64_t			 last_beat = util_now_ms();
	int64_t			 last_health = last_beat - SERVE_HEALTH_TICK_MS;
	char			 err[512], status[256];
	int			 fired, recover = 1, idle = 0;

	while (!sv->stop) {
		if (sv->hup)
			serve_reload(sv);
		if (serve_sched_tick(sv, st, cache, serve_now_ms(), recover,
		    &fired, err, sizeof err) == -1)
			log_warnx("scheduler: %s", err);
		else
			recover = 0;
		if (util_now_ms() - last_health >= SERVE_HEALTH_TICK_MS) {
			serve_health_tick(sv, st, serve_now_ms());
			last_health = util_now_ms();
		}
		/* A skip beats at once: the heartbeat's age stays true. */
		if (serve_clock_skip(st, &idle) ||
		    util_now_ms() - last_beat >= SERVE_BEAT_MS) {
			last_beat = util_now_ms();
			if (store_daemon_beat(st, sv->owner, 0, err,
			    sizeof err) == -1)
				log_warnx("heartbeat: %s", err);
			serve_leases_renew(sv, st);
			snprintf(status, sizeof status, "WATCHDOG=1\nSTATUS="
			    "serving %s", sv->db_path);
			serve_notify(status);
		}
		if (nanosleep(&ts, NULL) == -1 && errno != EINTR)
			fatal("nanosleep");	/* a broken invariant: a spin */
	}
	cron_cache_free(cache);
}

/* The HTTP API when the config has "http" (not reloaded by SIGHUP). */
static int
serve_http(struct serve *sv, struct http_server **hs, char *err,
    size_t errlen)
{
	struct http_conf	c;

	*hs = NULL;
	if (sv->config->http == NULL)
		return 0;
	http_conf_from_config(&c, sv->config->http);
	c.version = LABRAT_VERSION;
	c.inventory = sv->config->inventories[0];
	return http_start(&c, sv->db_path, hs, err, errlen);
}

int
serve_run(const struct serve_opts *o, char *err, size_t errlen)
{
	struct serve	 sv;
	struct store	*st = NULL;
	struct http_server *hs = NULL;
	pthread_t	 worker;
	char		 e[512], status[512];
	int		 rc;

	memset(&sv, 0, sizeof sv);
	sv.db_path = o->db_path;
	sv.config_path = o->config_path;
	pthread_mutex_init(&sv.mtx, NULL);
	pthread_mutex_init(&sv.hmtx, NULL);
	if (serve_load_config(o->config_path, &sv.config, e, sizeof e) == -1) {
		util_seterr(err, errlen, "%s", e);
		return 2;
	}
	serve_self = &sv;
	serve_signals();
	if ((rc = serve_start(&sv, &st, err, errlen)) != 0) {
		config_daemon_free(sv.config);
		serve_self = NULL;
		return rc;
	}
	log_info("serving %s as %s%s%s", sv.db_path, sv.owner,
	    sv.config_path != NULL ? ", config " : "",
	    sv.config_path != NULL ? sv.config_path : "");
	rc = serve_http(&sv, &hs, e, sizeof e);
	if (rc == -1 || pthread_create(&worker, NULL, serve_worker,
	    &sv) != 0) {
		if (rc == -1)
			util_seterr(err, errlen, "http: %s", e);
		else
			util_seterr(err, errlen, "pthread_create: %s",
			    strerror(errno));
		http_stop(hs);
		store_daemon_unregister(st, sv.owner, e, sizeof e);
		store_close(st);
		config_daemon_free(sv.config);
		return 1;
	}
	snprintf(status, sizeof status, "READY=1\nSTATUS=serving %s",
	    sv.db_path);
	serve_notify(status);
	serve_loop(&sv, st);
	log_info("stopping: the running item ends at its next boundary and "
	    "goes back to the queue");
	serve_notify("STOPPING=1");
	http_drain(hs);
	if (store_daemon_beat(st, sv.owner, 1, e, sizeof e) == -1)
		log_warnx("heartbeat: %s", e);
	pthread_join(worker, NULL);
	/* The requests in flight get their reply (a 503) before the
	 * listener goes. */
	if (http_drain_wait(hs, 5000) > 0)
		log_warnx("http: requests still in flight after 5 s, cut");
	http_stop(hs);
	if (store_daemon_unregister(st, sv.owner, e, sizeof e) == -1)
		log_warnx("unregister: %s", e);
	store_close(st);
	config_daemon_free(sv.config);
	serve_self = NULL;
	pthread_mutex_destroy(&sv.mtx);
	pthread_mutex_destroy(&sv.hmtx);
	log_info("stopped");
	return 0;
}
