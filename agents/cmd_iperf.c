/*
 * cmd_iperf.c: `iperf` -- one iperf2 or iperf3 client run with the flags of
 * the bug reports, parsed, plus host CPU, CPU of watched processes and the
 * interface counters around the run.  A result is printed only when the
 * tool's report is exact (iperf2 -y C, iperf3 JSON; text only on request)
 * and complete (parse_iperf_check): anything else is a failed command with
 * its reason, never a number.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "emit.h"
#include "exec.h"
#include "osdep.h"
#include "parse.h"
#include "validate.h"

struct iperf_req {
	const char *tool, *server, *port, *len, *window, *time, *parallel;
	const char *format;	/* csv | text | json | json-stream */
	const char *owner;	/* --owner, NULL if none */
	int	 nodelay;
	const char *watch[VALIDATE_MAXMULTI];
	int	 nwatch;
	char	 ifname[OSDEP_IFNAMSIZ];
};

struct iperf_sample {
	struct osdep_cpu cpu;
	int	 cpu_ok;
	double	 procs[VALIDATE_MAXMULTI];
	struct parse_ifstats ifs;
	int	 ifs_ok;
	long long ms;
};

/* 1 if version "A.B[.C]" is at least ma.mi.pa. */
static int
version_at_least(const char *v, int ma, int mi, int pa)
{
	int	 a = 0, b = 0, c = 0;

	if (sscanf(v, "%d.%d.%d", &a, &b, &c) < 2)
		return 0;
	return a != ma ? a > ma : b != mi ? b > mi : c >= pa;
}

/*
 * The send buffer the kernel grants a fresh TCP socket for the window
 * asked (0: none asked): iperf2 -y C does not print its "TCP window size"
 * line, and this is the same setsockopt/getsockopt(SO_SNDBUF) pair iperf2
 * itself reports (a refused request keeps the default, like iperf2).
 * -1 if the socket calls fail.
 */
static long long
probe_sndbuf(const char *server, unsigned long long want)
{
	socklen_t sl;
	int	 fd, v;

	fd = socket(strchr(server, ':') != NULL ? AF_INET6 : AF_INET,
	    SOCK_STREAM, 0);
	if (fd == -1)
		return -1;
	if (want > 0 && want <= 0x7fffffff) {
		v = (int)want;
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	}
	sl = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &sl) == -1 || v <= 0) {
		close(fd);
		return -1;
	}
	close(fd);
	return v;
}

static int
cubic_available(void)
{
	char	 buf[256];

#if defined(__linux__)
	if (osdep_read_small("/proc/sys/net/ipv4/"
	    "tcp_available_congestion_control", buf, sizeof(buf)) == 0)
		return strstr(buf, "cubic") != NULL;
#else
	(void)buf;
#endif
	return 0;
}

/* Builds the client argv into argv (words point into q); enhanced: iperf2
 * -e, stream: iperf3 --json-stream. */
static void
agent_iperf_argv(const struct iperf_req *q, int enhanced, int stream,
    int cubic, char **argv, size_t max)
{
	size_t	 i = 0;

#define ADD(w)	do { if (i + 1 < max) argv[i++] = (char *)(w); } while (0)
	ADD(strcmp(q->tool, "iperf3") == 0 ? "iperf3" : "iperf");
	ADD("-c");
	ADD(q->server);
	if (q->port != NULL) {
		ADD("-p");
		ADD(q->port);
	}
	if (strcmp(q->format, "json") == 0 ||
	    strcmp(q->format, "json-stream") == 0)
		ADD("-J");
	if (stream)
		ADD("--json-stream");
	if (q->len != NULL) {
		ADD("-l");
		ADD(q->len);
	}
	if (q->window != NULL) {
		ADD("-w");
		ADD(q->window);
	}
	if (q->nodelay)
		ADD("-N");
	ADD("-t");
	ADD(q->time);
	ADD("-P");
	ADD(q->parallel);
	ADD("-i");
	ADD("1");
	if (strcmp(q->tool, "iperf3") == 0 && cubic) {
		ADD("-C");
		ADD("cubic");
	}
	if (strcmp(q->tool, "iperf2") == 0 && cubic) {
		ADD("-Z");
		ADD("cubic");
	}
	if (strcmp(q->tool, "iperf2") == 0 && enhanced)
		ADD("-e");
	if (strcmp(q->format, "csv") == 0) {
		ADD("-y");
		ADD("C");
	}
	argv[i] = NULL;
#undef ADD
}

static void
sample(const struct osdep_dialect *d, const struct iperf_req *q,
    struct iperf_sample *s)
{
	char	 err[256];
	int	 i;

	s->cpu_ok = d->cpu(&s->cpu, err, sizeof(err)) == AGENT_EXIT_OK;
	for (i = 0; i < q->nwatch; i++)
		s->procs[i] = d->proc_cpu(q->watch[i]);
	s->ifs_ok = d->ifstats(q->ifname, &s->ifs, err, sizeof(err)) ==
	    AGENT_EXIT_OK;
	if (!s->ifs_ok)
		emit_progress("counters of %s: %s", q->ifname, err);
	s->ms = exec_now_ms();
}

static void
emit_ifstats(struct emit *e, const char *key, const struct iperf_sample *s)
{
	if (!s->ifs_ok)
		emit_null(e, key);
	else
		emit_ifcounters(e, key, &s->ifs);
}

static void
emit_cpu(struct emit *e, const struct iperf_sample *a,
    const struct iperf_sample *b)
{
	double	 u, s, i, t;

	if (!a->cpu_ok || !b->cpu_ok) {
		emit_null(e, "cpu");
		return;
	}
	u = b->cpu.user - a->cpu.user;
	s = b->cpu.sys - a->cpu.sys;
	i = b->cpu.idle - a->cpu.idle;
	t = u + s + i;
	if (t <= 0) {
		emit_null(e, "cpu");
		return;
	}
	emit_obj(e, "cpu");
	emit_num(e, "user", 100.0 * u / t);
	emit_num(e, "sys", 100.0 * s / t);
	emit_num(e, "idle", 100.0 * i / t);
	emit_end(e);
}

static void
emit_result(const struct iperf_req *q, const struct parse_iperf *p,
    const struct iperf_sample *a, const struct iperf_sample *b)
{
	struct emit e;
	double	 wall = (double)(b->ms - a->ms) / 1000.0, cs;
	size_t	 i;

	emit_begin(&e, "result");
	emit_str(&e, "cmd", "iperf");
	emit_str(&e, "tool", q->tool);
	emit_str(&e, "format", q->format);
	emit_bool(&e, "exact", p->exact);
	emit_num(&e, "bytes", p->bytes);
	emit_num(&e, "seconds", p->seconds);
	emit_num(&e, "bps", p->bps);
	if (p->window_requested >= 0)
		emit_int(&e, "window_requested", p->window_requested);
	else if (q->window != NULL)
		emit_int(&e, "window_requested",
		    (long long)validate_size_bytes(q->window));
	else
		emit_null(&e, "window_requested");
	emit_count(&e, "window_granted", p->window_granted);
	emit_count(&e, "retransmits", p->retransmits);
	emit_arr(&e, "intervals");
	for (i = 0; i < p->nintervals; i++) {
		if (p->intervals[i].omitted)
			continue;
		emit_obj(&e, NULL);
		emit_num(&e, "start", p->intervals[i].start);
		emit_num(&e, "end", p->intervals[i].end);
		emit_num(&e, "bytes", p->intervals[i].bytes);
		emit_num(&e, "bps", p->intervals[i].bps);
		emit_count(&e, "retransmits", p->intervals[i].retransmits);
		emit_end(&e);
	}
	emit_end(&e);
	emit_cpu(&e, a, b);
	emit_arr(&e, "procs");
	for (i = 0; i < (size_t)q->nwatch; i++) {
		emit_obj(&e, NULL);
		emit_str(&e, "name", q->watch[i]);
		if (b->procs[i] < 0) {
			emit_null(&e, "cpu_seconds");
			emit_null(&e, "cpu_percent");
		} else {
			cs = b->procs[i] - (a->procs[i] < 0 ? 0 : a->procs[i]);
			emit_num(&e, "cpu_seconds", cs);
			emit_num(&e, "cpu_percent", wall > 0 ?
			    100.0 * cs / wall : 0);
		}
		emit_end(&e);
	}
	emit_end(&e);
	emit_obj(&e, "ifstats");
	emit_str(&e, "if", q->ifname);
	emit_ifstats(&e, "before", a);
	emit_ifstats(&e, "after", b);
	emit_end(&e);
	emit_flush(&e);
}

static int
iperf_parse_args(int argc, char **argv, struct iperf_req *q, char *err,
    size_t errlen)
{
	struct validate_opt opts[] = {
		{ "--tool", VALIDATE_TOOL, 0, 0, NULL, { NULL } },
		{ "--server", VALIDATE_ADDR, 0, 0, NULL, { NULL } },
		{ "--port", VALIDATE_PORT, 0, 0, NULL, { NULL } },
		{ "--len", VALIDATE_SIZE, 0, 0, NULL, { NULL } },
		{ "--window", VALIDATE_SIZE, 0, 0, NULL, { NULL } },
		{ "--nodelay", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ "--time", VALIDATE_SECONDS, 0, 0, NULL, { NULL } },
		{ "--parallel", VALIDATE_PARALLEL, 0, 0, NULL, { NULL } },
		{ "--watch", VALIDATE_PROC, 1, 0, NULL, { NULL } },
		{ "--if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ "--format", VALIDATE_FORMAT, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	int	 three;
	int	 i;

	memset(q, 0, sizeof(*q));
	if (validate_args(opts, argc, argv, err, errlen) == -1)
		return -1;
	if (opts[0].val == NULL || opts[1].val == NULL) {
		snprintf(err, errlen, "iperf: --tool and --server are required");
		return -1;
	}
	q->tool = opts[0].val;
	q->server = opts[1].val;
	q->port = opts[2].val;
	q->len = opts[3].val;
	q->window = opts[4].val;
	q->nodelay = opts[5].seen;
	/* Keep "30s" out of the tools' argv: digits only. */
	q->time = opts[6].val ? opts[6].val : "10";
	if (strchr(q->time, 's') != NULL) {
		snprintf(err, errlen, "--time: give plain seconds");
		return -1;
	}
	q->parallel = opts[7].val ? opts[7].val : "1";
	q->nwatch = opts[8].seen;
	for (i = 0; i < q->nwatch; i++)
		q->watch[i] = opts[8].vals[i];
	if (opts[9].val != NULL)
		snprintf(q->ifname, sizeof(q->ifname), "%s", opts[9].val);
	q->owner = opts[11].val;
	three = strcmp(q->tool, "iperf3") == 0;
	q->format = opts[10].val ? opts[10].val : three ? "json" : "csv";
	if (three ? strcmp(q->format, "csv") == 0 :
	    strcmp(q->format, "csv") != 0 && strcmp(q->format, "text") != 0) {
		snprintf(err, errlen, "--format: %s for %s", three ?
		    "json, json-stream or text" : "csv or text", q->tool);
		return -1;
	}
	return 0;
}

/* Parses the output in the form the run was asked for. */
static int
iperf_parse(const struct iperf_req *q, int stream, const struct exec_result *r,
    struct parse_iperf *p, char *err, size_t errlen)
{
	if (strcmp(q->tool, "iperf2") == 0)
		return strcmp(q->format, "text") == 0 ?
		    parse_iperf2(r->out, r->outlen, p, err, errlen) :
		    parse_iperf2_csv(r->out, r->outlen, p, err, errlen);
	if (strcmp(q->format, "text") == 0)
		return parse_iperf3_text(r->out, r->outlen, p, err, errlen);
	if (stream)
		return parse_iperf3_stream(r->out, r->outlen, p, err, errlen);
	return parse_iperf3_json(r->out, r->outlen, p, err, errlen);
}

/*
 * The verdict on a finished run: AGENT_EXIT_OK when p may be reported,
 * else the failure class with its reason in err (which holds the parser's
 * message on entry when prc is -1).
 */
static int
iperf_judge(const struct iperf_req *q, const char *cmd,
    const struct exec_result *r, int prc, const struct parse_iperf *p,
    char *err, size_t errlen)
{
	if (r->timed_out) {
		snprintf(err, errlen, "%s: killed after its deadline of %s+30 s",
		    cmd, q->time);
		return AGENT_EXIT_TIMEOUT;
	}
	if (!r->exited || r->status != 0) {
		/* iperf3 -J's own "error" says more than its exit status. */
		if (prc == 0 || !p->tool_error) {
			if (!r->exited)
				snprintf(err, errlen, "%s killed by signal %d: "
				    "%.300s", cmd, r->signo, r->err[0] ?
				    r->err : r->out);
			else
				snprintf(err, errlen, "%s exited %d: %.300s",
				    cmd, r->status, r->err[0] ? r->err : r->out);
		}
		return AGENT_EXIT_COMMAND;
	}
	if (r->out_truncated) {
		snprintf(err, errlen, "%s: output larger than %u bytes", cmd,
		    PARSE_MAX_INPUT);
		return AGENT_EXIT_PARSE;
	}
	if (prc == -1 && p->tool_error)
		return AGENT_EXIT_COMMAND;
	if (prc == -1 && strcmp(q->tool, "iperf2") == 0 &&
	    strstr(r->err != NULL ? r->err : "", "connect failed") != NULL) {
		/* iperf2 exits 0 when it cannot connect; it only says so on
		 * stderr ("tcp connect failed: Connection refused"). */
		snprintf(err, errlen, "%s: %.300s", cmd, r->err);
		return AGENT_EXIT_COMMAND;
	}
	if (prc == -1)
		return AGENT_EXIT_PARSE;
	if (p->udp) {
		snprintf(err, errlen, "%s: %s", cmd, PARSE_ERR_UDP);
		return AGENT_EXIT_PARSE;
	}
	/* A cut-off run parses as a shorter one: never a sample. */
	if (parse_iperf_check(p, (double)validate_number(q->time),
	    (int)validate_number(q->parallel), err, errlen) == -1)
		return AGENT_EXIT_COMMAND;
	return AGENT_EXIT_OK;
}

int
agent_cmd_iperf(int argc, char **argv)
{
	const struct osdep_dialect *d = osdep_host();
	struct iperf_req q;
	struct iperf_sample a, b;
	struct parse_iperf *p = NULL;
	struct exec_result r;
	char	 err[1024], ver[64], *cargv[40], *vargv[] = { "iperf", "-v",
	    NULL };
	int	 rc, prc, enhanced = 0, stream = 0;
	long long granted;

	memset(&r, 0, sizeof(r));
	if (iperf_parse_args(argc, argv, &q, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if ((rc = agent_lease_gate("iperf", q.owner, NULL)) != 0)
		return rc;
	if (q.ifname[0] == '\0' && (rc = d->route_if(q.server, q.ifname,
	    sizeof(q.ifname), err, sizeof(err))) != AGENT_EXIT_OK)
		return emit_error(rc, err);
	if (strcmp(q.tool, "iperf2") == 0) {
		agent_probe_version_cached("iperf2", vargv, ver, sizeof(ver));
		enhanced = version_at_least(ver, 2, 0, 9);
	} else if (strcmp(q.format, "json-stream") == 0)
		stream = 1;
	else if (strcmp(q.format, "json") == 0) {
		/* 3.17+ streams its JSON: a killed run still says what it
		 * saw, and an error is an event of its own. */
		vargv[0] = "iperf3";
		agent_probe_version_cached("iperf3", vargv, ver, sizeof(ver));
		stream = version_at_least(ver, 3, 17, 0);
	}
	agent_iperf_argv(&q, enhanced, stream, cubic_available(), cargv, 40);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	sample(d, &q, &a);
	exec_argv_str(cargv, err, sizeof(err));
	emit_progress("run: %s", err);
	if (exec_run(cargv, (int)(validate_number(q.time) + 30) * 1000,
	    PARSE_MAX_INPUT, &r, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_COMMAND, err);
	sample(d, &q, &b);
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		exec_free(&r);
		return emit_error(AGENT_EXIT_INTERNAL, "out of memory");
	}
	prc = iperf_parse(&q, stream, &r, p, err, sizeof(err));
	rc = iperf_judge(&q, cargv[0], &r, prc, p, err, sizeof(err));
	if (rc == AGENT_EXIT_OK) {
		if (strcmp(q.tool, "iperf2") == 0 && p->window_granted < 0 &&
		    (granted = probe_sndbuf(q.server, q.window != NULL ?
		    validate_size_bytes(q.window) : 0)) > 0)
			p->window_granted = granted;
		emit_result(&q, p, &a, &b);
	}
	free(p);
	exec_free(&r);
	return rc == AGENT_EXIT_OK ? rc : emit_error(rc, err);
}
