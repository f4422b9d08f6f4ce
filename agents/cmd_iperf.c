/*
 * cmd_iperf.c: `iperf` -- one iperf2 or iperf3 client run with the flags of
 * the bug reports, parsed, plus host CPU, CPU of watched processes and the
 * interface counters around the run.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "emit.h"
#include "exec.h"
#include "json.h"
#include "osdep.h"
#include "parse.h"
#include "validate.h"

struct iperf_req {
	const char *tool, *server, *port, *len, *window, *time, *parallel;
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

/* 1 if version "A.B.C" is at least 2.0.9 (iperf2 -e). */
static int
iperf2_has_e(const char *v)
{
	int	 a = 0, b = 0, c = 0;

	if (sscanf(v, "%d.%d.%d", &a, &b, &c) < 2)
		return 0;
	return a > 2 || (a == 2 && (b > 0 || c >= 9));
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

/* Builds the client argv into argv (words point into q). */
static void
agent_iperf_argv(const struct iperf_req *q, int enhanced, int cubic,
    char **argv, size_t max)
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
	if (strcmp(q->tool, "iperf3") == 0)
		ADD("-J");
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
emit_i64(struct emit *e, const char *key, int64_t v)
{
	if (v < 0)
		emit_null(e, key);
	else
		emit_int(e, key, (long long)v);
}

static void
emit_ifstats(struct emit *e, const char *key, const struct iperf_sample *s)
{
	if (!s->ifs_ok) {
		emit_null(e, key);
		return;
	}
	emit_obj(e, key);
	emit_i64(e, "rx_bytes", s->ifs.rx_bytes);
	emit_i64(e, "rx_packets", s->ifs.rx_packets);
	emit_i64(e, "rx_errors", s->ifs.rx_errors);
	emit_i64(e, "rx_dropped", s->ifs.rx_dropped);
	emit_i64(e, "tx_bytes", s->ifs.tx_bytes);
	emit_i64(e, "tx_packets", s->ifs.tx_packets);
	emit_i64(e, "tx_errors", s->ifs.tx_errors);
	emit_i64(e, "tx_dropped", s->ifs.tx_dropped);
	emit_end(e);
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
	emit_i64(&e, "window_granted", p->window_granted);
	emit_i64(&e, "retransmits", p->retransmits);
	emit_arr(&e, "intervals");
	for (i = 0; i < p->nintervals; i++) {
		if (p->intervals[i].omitted)
			continue;
		emit_obj(&e, NULL);
		emit_num(&e, "start", p->intervals[i].start);
		emit_num(&e, "end", p->intervals[i].end);
		emit_num(&e, "bytes", p->intervals[i].bytes);
		emit_num(&e, "bps", p->intervals[i].bps);
		emit_i64(&e, "retransmits", p->intervals[i].retransmits);
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

/* 1 when iperf3 -J output is a well-formed report of its own failure (a
 * top-level "error"): the run failed, the output is not garbage.  iperf3
 * 3.12 exits 0 after "unable to connect to server" with -J. */
static int
iperf3_reported_error(const char *out, size_t len)
{
	struct json_doc *doc;
	char	 err[128];
	int	 yes;

	if ((doc = json_doc_parse(out, len, err, sizeof(err))) == NULL)
		return 0;
	yes = json_string(json_get(json_doc_root(doc), "error")) != NULL;
	json_doc_free(doc);
	return yes;
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
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
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
	return 0;
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
	int	 rc, prc, enhanced = 0;

	memset(&r, 0, sizeof(r));
	if (iperf_parse_args(argc, argv, &q, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if (q.ifname[0] == '\0' && (rc = d->route_if(q.server, q.ifname,
	    sizeof(q.ifname), err, sizeof(err))) != AGENT_EXIT_OK)
		return emit_error(rc, err);
	if (strcmp(q.tool, "iperf2") == 0) {
		agent_probe_version("iperf2", vargv, ver, sizeof(ver));
		enhanced = iperf2_has_e(ver);
	}
	agent_iperf_argv(&q, enhanced, cubic_available(), cargv, 40);
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
	if (strcmp(q.tool, "iperf3") == 0)
		prc = parse_iperf3_json(r.out, r.outlen, p, err, sizeof(err));
	else
		prc = parse_iperf2(r.out, r.outlen, p, err, sizeof(err));
	if (r.timed_out) {
		snprintf(err, sizeof(err), "%s: killed after its deadline of "
		    "%s+30 s", cargv[0], q.time);
		rc = AGENT_EXIT_TIMEOUT;
	} else if (!r.exited || r.status != 0) {
		if (prc == 0 || strcmp(q.tool, "iperf3") != 0)
			snprintf(err, sizeof(err), "%s exited %d: %.300s",
			    cargv[0], r.status, r.err[0] ? r.err : r.out);
		rc = AGENT_EXIT_COMMAND;
	} else if (prc == -1 && strcmp(q.tool, "iperf3") == 0 &&
	    iperf3_reported_error(r.out, r.outlen))
		rc = AGENT_EXIT_COMMAND;
	else if (prc == -1 && strcmp(q.tool, "iperf2") == 0 &&
	    strstr(r.err != NULL ? r.err : "", "connect failed") != NULL) {
		/* iperf2 exits 0 when it cannot connect; it only says so on
		 * stderr ("tcp connect failed: Connection refused"). */
		snprintf(err, sizeof(err), "%s: %.300s", cargv[0], r.err);
		rc = AGENT_EXIT_COMMAND;
	}
	else if (prc == -1 || r.out_truncated)
		rc = AGENT_EXIT_PARSE;
	else {
		emit_result(&q, p, &a, &b);
		rc = AGENT_EXIT_OK;
	}
	if (rc == AGENT_EXIT_PARSE && r.out_truncated)
		snprintf(err, sizeof(err), "%s: output larger than %u bytes",
		    cargv[0], PARSE_MAX_INPUT);
	free(p);
	exec_free(&r);
	return rc == AGENT_EXIT_OK ? rc : emit_error(rc, err);
}
