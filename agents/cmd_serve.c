/*
 * cmd_serve.c: `serve --tool iperf2|iperf3 --bind ADDR [--port N]` starts a
 * workload server detached from the SSH session and returns once it
 * listens (with --keep, the one labrat started earlier on the same tool
 * and port serves on when it is alive and listens on ADDR, so a batch of
 * jobs uses one server); `serve stop` stops every server labrat started.  Each server
 * holds the lock of serve/TOOL-PORT.pid for its lifetime (across exec), so
 * stop never signals a reused pid.  With `--if IF` both also report IF's
 * interface counters (at start: once the server listens; at stop: once the
 * servers are gone), so the controller can check that what the tool says it
 * received crossed the receiver's interface.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "emit.h"
#include "osdep.h"
#include "proc.h"
#include "state.h"
#include "validate.h"
#include "verified.h"

#define SERVE_WAIT_MS	10000

struct serve_arg {
	const char *tool;
	const char *bind;
	char	    port[8];
	char	    pidfile[512];
};

static int
serve_main(void *argp, int notify_fd)
{
	struct serve_arg *a = argp;
	char	*argv[10];
	int	 fd, i = 0;

	if ((fd = proc_pidfile_take(a->pidfile)) == -1)
		return 1;
	proc_notify(notify_fd);
	if (strcmp(a->tool, "iperf3") == 0) {
		argv[i++] = "iperf3";
		argv[i++] = "-s";
	} else {
		argv[i++] = "iperf";
		argv[i++] = "-s";
	}
	argv[i++] = "-B";
	argv[i++] = (char *)a->bind;
	argv[i++] = "-p";
	argv[i++] = a->port;
	argv[i] = NULL;
	/* fd stays open (no FD_CLOEXEC): the lock names the server. */
	(void)fd;
	execvp(argv[0], argv);
	fprintf(stderr, "labrat-agent: %s: %s\n", argv[0], strerror(errno));
	return 127;
}

/*
 * 1 when something listens on addr:port.  Binding the same address without
 * SO_REUSEPORT fails with EADDRINUSE once the server has its socket; unlike
 * a probe connection this does not start a bogus test on the server.
 */
static int
serve_listening(const char *addr, int port)
{
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	int	 s, rc, one = 1;

	memset(&sin, 0, sizeof(sin));
	memset(&sin6, 0, sizeof(sin6));
	if (inet_pton(AF_INET, addr, &sin.sin_addr) == 1) {
		sin.sin_family = AF_INET;
		sin.sin_port = htons((unsigned short)port);
		if ((s = socket(AF_INET, SOCK_STREAM, 0)) == -1)
			return 0;
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		rc = bind(s, (struct sockaddr *)&sin, sizeof(sin));
	} else {
		if (inet_pton(AF_INET6, addr, &sin6.sin6_addr) != 1)
			return 0;
		sin6.sin6_family = AF_INET6;
		sin6.sin6_port = htons((unsigned short)port);
		if ((s = socket(AF_INET6, SOCK_STREAM, 0)) == -1)
			return 0;
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		rc = bind(s, (struct sockaddr *)&sin6, sizeof(sin6));
	}
	if (rc == -1 && errno == EADDRINUSE) {
		close(s);
		return 1;
	}
	close(s);
	return 0;
}

/* "ifstats":{"if":IF,"counters":{...} or null}; nothing without IF. */
static void
serve_emit_ifstats(struct emit *e, const char *ifname)
{
	struct parse_ifstats s;
	char	 err[256];

	if (ifname == NULL)
		return;
	emit_obj(e, "ifstats");
	emit_str(e, "if", ifname);
	if (osdep_host()->ifstats(ifname, &s, err, sizeof(err)) !=
	    AGENT_EXIT_OK) {
		emit_progress("counters of %s: %s", ifname, err);
		emit_null(e, "counters");
	} else
		emit_ifcounters(e, "counters", &s);
	emit_end(e);
}

/* Stops every server labrat started; their pids go to e (NULL: none) and
 * to out (up to max of them); how many were stopped. */
static size_t
serve_stop_each(struct emit *e, long *out, size_t max)
{
	size_t	 k = 0;
	struct dirent *de;
	DIR	*d;
	char	 dir[512], path[800];
	pid_t	 pid;
	size_t	 n;

	if (state_path(dir, sizeof(dir), "serve", NULL) == -1 ||
	    (d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 4, ".pid") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if ((pid = proc_pidfile_stop(path, 2000)) <= 0)
			continue;
		if (e != NULL)
			emit_int(e, NULL, (long long)pid);
		if (k < max)
			out[k] = (long)pid;
		k++;
	}
	closedir(d);
	return k < max ? k : max;
}

size_t
agent_serve_stop(long *out, size_t max)
{
	return serve_stop_each(NULL, out, max);
}

static int
serve_stop_all(const char *ifname)
{
	struct emit e;

	emit_begin(&e, "result");
	emit_str(&e, "cmd", "serve-stop");
	emit_arr(&e, "stopped");
	serve_stop_each(&e, NULL, 0);
	emit_end(&e);
	serve_emit_ifstats(&e, ifname);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}

int
agent_serve_start(const char *tool, const char *bind, int port, int keep,
    struct agent_served *out, char *err, size_t errlen)
{
	struct serve_arg a;
	char	 name[64], log[512];
	pid_t	 pid;
	int	 waited = 0, step;

	memset(&a, 0, sizeof(a));
	memset(out, 0, sizeof(*out));
	a.tool = tool;
	a.bind = bind;
	if (port == 0)
		port = strcmp(a.tool, "iperf3") == 0 ? 5201 : 5001;
	snprintf(a.port, sizeof(a.port), "%d", port);
	snprintf(out->tool, sizeof(out->tool), "%s", tool);
	snprintf(out->bind, sizeof(out->bind), "%s", bind);
	out->port = port;
	snprintf(name, sizeof(name), "%s-%d.pid", a.tool, port);
	if (state_mkdir("serve", err, errlen) == -1 ||
	    state_path(a.pidfile, sizeof(a.pidfile), "serve", name) == -1)
		return AGENT_EXIT_INTERNAL;
	snprintf(name, sizeof(name), "%s-%d.log", a.tool, port);
	if (state_path(log, sizeof(log), "serve", name) == -1) {
		snprintf(err, errlen, "serve: path too long");
		return AGENT_EXIT_INTERNAL;
	}
	/* keep: the server labrat started earlier on this tool and port
	 * serves on if it is alive and listens on the address. */
	if (keep && (pid = proc_pidfile_holder(a.pidfile)) > 0 &&
	    serve_listening(a.bind, port)) {
		out->pid = (long)pid;
		out->kept = 1;
		return AGENT_EXIT_OK;
	}
	if ((pid = proc_pidfile_stop(a.pidfile, 2000)) > 0)
		emit_progress("stopped the previous %s server %ld", a.tool,
		    (long)pid);
	if (serve_listening(a.bind, port)) {
		snprintf(err, errlen, "serve: %s port %d is already in use "
		    "by another process", a.bind, port);
		return AGENT_EXIT_COMMAND;
	}
	if ((pid = proc_detach(log, serve_main, &a, err, errlen)) == -1)
		return AGENT_EXIT_COMMAND;
	while (!serve_listening(a.bind, port)) {
		if (kill(pid, 0) == -1 || waited >= SERVE_WAIT_MS) {
			proc_pidfile_stop(a.pidfile, 1000);
			snprintf(err, errlen, "serve: %s did not listen on "
			    "%s port %d within %d ms (see %s)", a.tool, a.bind,
			    port, waited, log);
			return waited >= SERVE_WAIT_MS ? AGENT_EXIT_TIMEOUT :
			    AGENT_EXIT_COMMAND;
		}
		step = proc_backoff_ms(waited, 10);
		proc_sleep_ms(step);
		waited += step;
	}
	out->pid = (long)pid;
	return AGENT_EXIT_OK;
}

void
agent_serve_emit(struct emit *e, const struct agent_served *s,
    const char *ifname)
{
	emit_str(e, "tool", s->tool);
	emit_int(e, "pid", (long long)s->pid);
	emit_str(e, "bind", s->bind);
	emit_int(e, "port", s->port);
	emit_bool(e, "kept", s->kept);
	/* The receiver checked as its last apply verified it (no process),
	 * so that the controller may go on skipping that apply. */
	if (ifname != NULL)
		emit_str(e, "state", verified_check(ifname));
	serve_emit_ifstats(e, ifname);
}

int
agent_cmd_serve(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--tool", VALIDATE_TOOL, 0, 0, NULL, { NULL } },
		{ "--bind", VALIDATE_ADDR, 0, 0, NULL, { NULL } },
		{ "--port", VALIDATE_PORT, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ "--if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ "--keep", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct agent_served sv;
	struct emit e;
	char	 err[1024];
	int	 rc;

	if (argc >= 2 && strcmp(argv[1], "stop") == 0) {
		/* serve stop [--owner TOKEN] [--if IF] */
		if (validate_args(opts + 3, argc - 1, argv + 1, err,
		    sizeof(err)) == -1)
			return emit_error(AGENT_EXIT_USAGE, err);
		if ((rc = agent_lease_gate("serve stop", opts[3].val,
		    NULL)) != 0)
			return rc;
		return serve_stop_all(opts[4].val);
	}
	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if ((rc = agent_lease_gate("serve", opts[3].val, NULL)) != 0)
		return rc;
	if (opts[0].val == NULL || opts[1].val == NULL)
		return emit_error(AGENT_EXIT_USAGE,
		    "serve: --tool and --bind are required (or: serve stop)");
	if ((rc = agent_serve_start(opts[0].val, opts[1].val, opts[2].val ?
	    (int)validate_number(opts[2].val) : 0, opts[5].seen, &sv, err,
	    sizeof(err))) != AGENT_EXIT_OK)
		return emit_error(rc, err);
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "serve");
	agent_serve_emit(&e, &sv, opts[4].val);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}
