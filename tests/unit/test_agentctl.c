/*
 * test_agentctl: the agent-protocol decoder fed good and bad output (wrong
 * proto, malformed and truncated lines, missing and mistyped fields, error
 * events, oversized output), then deployment over a real sshd
 * (tests/unit/sshd_fixture.h): the real agent sources build on the first
 * deploy, the second is a cache hit, another hash redeploys; and a stub
 * agent that misbehaves on purpose over the real transport.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "sshd_fixture.h"

#include "agentctl.h"
#include "embed.h"
#include "ssh.h"
#include "util.h"

static struct sshd_fixture fx;
static int have_sshd;

static int
dec(enum agentctl_cmd cmd, const char *text, int exit_status,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	return agentctl_decode("em-a", agentctl_cmd_name(cmd), cmd, text,
	    strlen(text), 0, exit_status, r, err, errlen);
}

static const char facts_ok[] =
    "{\"proto\":1,\"event\":\"progress\",\"message\":\"reading ifconfig\"}\n"
    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"facts\",\"os\":\"freebsd\","
    "\"hostname\":\"em-a\",\"kernel\":{\"release\":\"8.1-PRERELEASE\","
    "\"version\":\"FreeBSD 8.1-PRERELEASE r209169\",\"revision\":\"r209169\","
    "\"osreldate\":801000},\"nics\":[{\"name\":\"em0\",\"driver\":\"em\","
    "\"pci_vendor\":\"0x8086\",\"pci_device\":\"0x1096\",\"chip\":"
    "\"0x10968086\",\"speed_mbps\":1000,\"duplex\":\"full\",\"mtu\":9000,"
    "\"tso\":true,\"lro\":false,\"rxcsum\":true,\"txcsum\":null}],"
    "\"tools\":{\"iperf2\":\"2.0.5\",\"iperf3\":null,\"scp\":\"OpenSSH_5.4\"}}"
    "\n";

/* A host with many interfaces: as many NICs as the agent lists (64) are
 * taken; one more than that is a hostile reply, named. */
static void
test_decode_many_nics(void **state)
{
	struct agentctl_reply	r;
	char			err[512], *text, *p;
	size_t			cap = 128 * 200 + 1024;
	int			i, n;

	(void)state;
	for (n = AGENTCTL_NICS_MAX; n <= AGENTCTL_NICS_MAX + 1; n++) {
		p = text = malloc(cap);
		assert_non_null(text);
		p += sprintf(p, "{\"proto\":1,\"event\":\"result\",\"cmd\":"
		    "\"facts\",\"os\":\"linux\",\"hostname\":\"h\","
		    "\"kernel\":{\"release\":\"6.1\",\"version\":\"v\","
		    "\"revision\":null,\"osreldate\":null},\"nics\":[");
		for (i = 0; i < n; i++)
			p += sprintf(p, "%s{\"name\":\"veth%d\",\"driver\":"
			    "\"veth\",\"pci_vendor\":null,\"pci_device\":null,"
			    "\"chip\":null,\"speed_mbps\":10000,\"duplex\":"
			    "\"full\",\"mtu\":1500,\"tso\":true,\"lro\":false,"
			    "\"rxcsum\":true,\"txcsum\":true}", i ? "," : "", i);
		sprintf(p, "],\"tools\":{}}\n");
		if (n == AGENTCTL_NICS_MAX) {
			assert_int_equal(dec(AGENTCTL_FACTS, text, 0, &r, err,
			    sizeof err), 0);
			assert_int_equal(r.u.facts.nnics, 64);
			assert_string_equal(r.u.facts.nics[63].name, "veth63");
		} else {
			assert_int_equal(dec(AGENTCTL_FACTS, text, 0, &r, err,
			    sizeof err), -1);
			assert_non_null(strstr(err, "nics"));
		}
		agentctl_reply_free(&r);
		free(text);
	}
}

static void
test_decode_facts(void **state)
{
	struct agentctl_reply	r;
	char			err[512];

	(void)state;
	assert_int_equal(dec(AGENTCTL_FACTS, facts_ok, 0, &r, err,
	    sizeof err), 0);
	assert_true(r.has_result);
	assert_string_equal(r.u.facts.os, "freebsd");
	assert_string_equal(r.u.facts.kernel_revision, "r209169");
	assert_int_equal(r.u.facts.osreldate, 801000);
	assert_int_equal(r.u.facts.nnics, 1);
	assert_string_equal(r.u.facts.nics[0].chip, "0x10968086");
	assert_int_equal(r.u.facts.nics[0].mtu, 9000);
	assert_int_equal(r.u.facts.nics[0].tso, 1);
	assert_int_equal(r.u.facts.nics[0].lro, 0);
	assert_int_equal(r.u.facts.nics[0].txcsum, AGENTCTL_NONE);
	assert_string_equal(r.u.facts.iperf2, "2.0.5");
	assert_string_equal(r.u.facts.iperf3, "");
	agentctl_reply_free(&r);
}

/* Each bad input must fail with a message holding every fragment. */
struct bad_case {
	enum agentctl_cmd	 cmd;
	const char		*text;
	int			 exit_status;
	const char		*frag1;
	const char		*frag2;
};

static const struct bad_case bad_cases[] = {
	{ AGENTCTL_VERSION, "{\"proto\":2,\"event\":\"result\",\"cmd\":"
	  "\"version\",\"version\":\"9\",\"source_hash\":\"x\"}\n", 0,
	  "unknown protocol version 2", "line 1.proto" },
	{ AGENTCTL_VERSION, "{\"event\":\"result\",\"cmd\":\"version\"}\n", 0,
	  "proto: missing", "version" },
	{ AGENTCTL_FACTS, "{\"proto\":1,\"event\":\"result\",\"cmd\":\"fa",
	  0, "not one JSON object", "line 1" },
	{ AGENTCTL_FACTS, "{\"proto\":1,\"event\":\"progress\"} trailing\n",
	  0, "not one JSON object", "trailing" },
	{ AGENTCTL_FACTS, "[1,2]\n", 0, "not one JSON object", "facts" },
	{ AGENTCTL_FACTS, "{\"proto\":1,\"event\":\"progress\",\"event\":"
	  "\"result\"}\n", 0, "line 1: event: duplicate key, first at byte 11",
	  "(byte 30)" },
	{ AGENTCTL_FACTS, "{\"proto\":1,\"event\":\"error\",\"class\":\"x\","
	  "\"message\":\"caf\xe9\"}\n", 0, "message: truncated UTF-8", "em-a" },
	{ AGENTCTL_FACTS, "{\"proto\":1,\"event\":\"progress\",\"m\":"
	  "\"\\ud800\"}\n", 0, "m: lone high surrogate \\uD800", "line 1" },
	{ AGENTCTL_FACTS, "Segmentation fault\n", 0, "not one JSON object",
	  "Segmentation" },
	{ AGENTCTL_FACTS, "{\"proto\":1,\"event\":\"result\",\"cmd\":\"facts\","
	  "\"os\":\"linux\",\"kernel\":{},\"nics\":[],\"tools\":{}}\n", 0,
	  "result.hostname: missing", "em-a: labrat-agent facts" },
	{ AGENTCTL_FACTS, "{\"proto\":1,\"event\":\"result\",\"cmd\":\"facts\","
	  "\"os\":\"linux\",\"hostname\":\"h\",\"kernel\":{\"release\":\"6\","
	  "\"version\":\"v\",\"revision\":null,\"osreldate\":null},\"nics\":"
	  "[{\"name\":\"em0\",\"driver\":\"e1000\",\"pci_vendor\":null,"
	  "\"pci_device\":null,\"chip\":null,\"speed_mbps\":null,\"duplex\":"
	  "null,\"mtu\":\"1500\",\"tso\":true,\"lro\":null,\"rxcsum\":null,"
	  "\"txcsum\":null}],\"tools\":{}}\n", 0, "nics[0].mtu: not a number",
	  "facts" },
	{ AGENTCTL_APPLY, "{\"proto\":1,\"event\":\"result\",\"cmd\":"
	  "\"restore\",\"if\":\"em0\",\"was_saved\":true,\"changed\":[]}\n", 0,
	  "\"restore\", expected \"apply\"", "result.cmd" },
	{ AGENTCTL_CONFIRM, "{\"proto\":1,\"event\":\"error\",\"class\":"
	  "\"command\",\"message\":\"ifconfig exited 1: SIOCSIFCAP\"}\n", 3,
	  "command error (exit 3)", "SIOCSIFCAP" },
	{ AGENTCTL_CONFIRM, "{\"proto\":1,\"event\":\"progress\","
	  "\"message\":\"x\"}\n", 0, "no result line", "confirm" },
	{ AGENTCTL_CONFIRM, "", 1, "exited 1 without an error event",
	  "confirm" },
	{ AGENTCTL_CONFIRM, "{\"proto\":1,\"event\":\"result\",\"cmd\":"
	  "\"confirm\",\"if\":\"em0\",\"cancelled\":true}\n{\"proto\":1,"
	  "\"event\":\"result\",\"cmd\":\"confirm\",\"if\":\"em0\","
	  "\"cancelled\":true}\n", 0, "a second result", "line 2" },
	{ AGENTCTL_CONFIRM, "{\"proto\":1,\"event\":\"cheer\"}\n", 0,
	  "unknown event \"cheer\"", "confirm" },
	{ AGENTCTL_CONFIRM, "{\"proto\":1.5,\"event\":\"progress\"}\n", 0,
	  "proto: not an integer", "confirm" },
	{ AGENTCTL_SERVE, "{\"proto\":1,\"event\":\"result\",\"cmd\":\"serve\","
	  "\"tool\":\"iperf3\",\"pid\":null,\"bind\":\"198.18.1.2\","
	  "\"port\":5201}\n", 0, "result.pid: is null", "serve" },
};

static void
test_decode_bad(void **state)
{
	struct agentctl_reply	r;
	char			err[1024];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		err[0] = '\0';
		if (dec(bad_cases[i].cmd, bad_cases[i].text,
		    bad_cases[i].exit_status, &r, err, sizeof err) != -1)
			fail_msg("case %zu decoded", i);
		if (strstr(err, "em-a: labrat-agent ") == NULL ||
		    strstr(err, bad_cases[i].frag1) == NULL ||
		    strstr(err, bad_cases[i].frag2) == NULL)
			fail_msg("case %zu: \"%s\"", i, err);
		agentctl_reply_free(&r);
	}
}

static void
test_decode_oversized(void **state)
{
	struct agentctl_reply	r;
	char			err[512];

	(void)state;
	assert_int_equal(agentctl_decode("em-a", "iperf --tool iperf3",
	    AGENTCTL_IPERF, "{\"proto\":1", 10, 1, 0, &r, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "em-a: labrat-agent iperf --tool iperf3"));
	assert_non_null(strstr(err, "larger than"));
	agentctl_reply_free(&r);
}

static void
test_decode_apply_mismatch(void **state)
{
	static const char text[] =
	    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"apply\",\"if\":\"em0\","
	    "\"saved\":true,\"requested\":{\"tso\":true,\"mtu\":9000,\"nat\":"
	    "\"kernel\"},\"in_force\":{\"tso\":false,\"mtu\":9000,\"nat\":"
	    "\"kernel\",\"lro\":false,\"rxcsum\":true,\"txcsum\":true},"
	    "\"mismatch\":[\"tso\"],\"rollback_pid\":1234,\"rollback_at\":"
	    "1760000000}\n{\"proto\":1,\"event\":\"error\",\"class\":"
	    "\"mismatch\",\"message\":\"driver refused tso\"}\n";
	struct agentctl_reply	r;
	char			err[512];

	(void)state;
	assert_int_equal(dec(AGENTCTL_APPLY, text, 5, &r, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "driver refused tso"));
	assert_true(r.has_result);
	assert_int_equal(r.u.apply.requested.tso, 1);
	assert_int_equal(r.u.apply.in_force.tso, 0);
	assert_int_equal(r.u.apply.requested.lro, AGENTCTL_NONE);
	assert_int_equal(r.u.apply.in_force.mtu, 9000);
	assert_string_equal(r.u.apply.in_force.nat, "kernel");
	assert_int_equal(r.u.apply.nmismatch, 1);
	assert_string_equal(r.u.apply.mismatch[0], "tso");
	assert_int_equal(r.u.apply.rollback_pid, 1234);
	assert_string_equal(r.error_class, "mismatch");
	agentctl_reply_free(&r);
}

/* apply --serve: the server in apply's result, or why it did not start;
 * restore --serve-stop --release: the pids stopped, the lease gone. */
static void
test_decode_apply_serve_restore(void **state)
{
	static const char ok[] =
	    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"apply\",\"if\":\"em0\","
	    "\"saved\":false,\"requested\":{},\"in_force\":{\"tso\":true},"
	    "\"mismatch\":[],\"rollback_pid\":null,\"rollback_at\":null,"
	    "\"serve\":{\"tool\":\"iperf3\",\"pid\":77,\"bind\":\"198.18.1.2\","
	    "\"port\":5201,\"kept\":false,\"state\":\"stands\",\"ifstats\":"
	    "{\"if\":\"em0\",\"counters\":{\"rx_bytes\":10,\"rx_packets\":1,"
	    "\"rx_errors\":0,\"rx_dropped\":0,\"tx_bytes\":5,\"tx_packets\":1,"
	    "\"tx_errors\":0,\"tx_dropped\":0}}}}\n";
	static const char failed[] =
	    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"apply\",\"if\":\"em0\","
	    "\"saved\":false,\"requested\":{},\"in_force\":{\"tso\":true},"
	    "\"mismatch\":[],\"rollback_pid\":null,\"rollback_at\":null,"
	    "\"serve\":{\"error\":\"serve: port 5201 is already in use\"}}\n";
	static const char bad[] =
	    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"apply\",\"if\":\"em0\","
	    "\"saved\":false,\"requested\":{},\"in_force\":{\"tso\":true},"
	    "\"mismatch\":[],\"rollback_pid\":null,\"rollback_at\":null,"
	    "\"serve\":{\"tool\":\"iperf3\",\"pid\":\"x\",\"bind\":\"b\","
	    "\"port\":1}}\n";
	static const char rs[] =
	    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"restore\",\"if\":"
	    "\"em0\",\"was_saved\":true,\"stopped\":[77,78],\"released\":true,"
	    "\"changed\":[\"tso\"]}\n";
	struct agentctl_reply	r;
	char			err[512];

	(void)state;
	assert_int_equal(dec(AGENTCTL_APPLY, ok, 0, &r, err, sizeof err), 0);
	assert_true(r.u.apply.has_serve);
	assert_int_equal(r.u.apply.serve.pid, 77);
	assert_int_equal(r.u.apply.serve.port, 5201);
	assert_true(r.u.apply.serve.stands);
	assert_int_equal(r.u.apply.serve.ifstats.c.rx_bytes, 10);
	assert_string_equal(r.u.apply.serve_err, "");
	agentctl_reply_free(&r);
	assert_int_equal(dec(AGENTCTL_APPLY, failed, 0, &r, err, sizeof err),
	    0);
	assert_false(r.u.apply.has_serve);
	assert_non_null(strstr(r.u.apply.serve_err, "already in use"));
	agentctl_reply_free(&r);
	assert_int_equal(dec(AGENTCTL_APPLY, bad, 0, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "serve.pid"));
	agentctl_reply_free(&r);
	assert_int_equal(dec(AGENTCTL_RESTORE, rs, 0, &r, err, sizeof err), 0);
	assert_true(r.u.restore.has_stopped);
	assert_int_equal(r.u.restore.nstopped, 2);
	assert_int_equal(r.u.restore.stopped[1], 78);
	assert_int_equal(r.u.restore.released, 1);
	agentctl_reply_free(&r);
}

static void
test_decode_iperf(void **state)
{
	static const char text[] =
	    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"iperf\",\"tool\":"
	    "\"iperf2\",\"bytes\":2888000000,\"seconds\":30.0,\"bps\":769000000,"
	    "\"window_requested\":1048576,\"window_granted\":32768,"
	    "\"retransmits\":null,\"intervals\":[{\"start\":0.0,\"end\":1.0,"
	    "\"bytes\":96000000,\"bps\":768000000},{\"start\":1.0,\"end\":2.0,"
	    "\"bytes\":96250000,\"bps\":770000000}],\"cpu\":{\"user\":1.5,"
	    "\"sys\":20.1,\"idle\":78.4},\"procs\":[{\"name\":\"natd\","
	    "\"cpu_seconds\":21.9,\"cpu_percent\":73.0}],\"ifstats\":{\"if\":"
	    "\"em0\",\"before\":{\"rx_bytes\":1,\"rx_packets\":2,\"rx_errors\":0,"
	    "\"rx_dropped\":null,\"tx_bytes\":3,\"tx_packets\":4,\"tx_errors\":0,"
	    "\"tx_dropped\":null},\"after\":{\"rx_bytes\":10,\"rx_packets\":20,"
	    "\"rx_errors\":0,\"rx_dropped\":null,\"tx_bytes\":30,\"tx_packets\":"
	    "40,\"tx_errors\":0,\"tx_dropped\":null}}}\n";
	struct agentctl_reply	r;
	char			err[512];

	(void)state;
	assert_int_equal(dec(AGENTCTL_IPERF, text, 0, &r, err, sizeof err), 0);
	assert_true(r.u.iperf.bps == 769000000.0);
	assert_int_equal(r.u.iperf.window_granted, 32768);
	assert_int_equal(r.u.iperf.retransmits, AGENTCTL_NONE);
	assert_int_equal(r.u.iperf.nintervals, 2);
	assert_true(r.u.iperf.intervals[1].bps == 770000000.0);
	assert_true(fabs(r.u.iperf.cpu_sys - 20.1) < 1e-9);
	assert_int_equal(r.u.iperf.nprocs, 1);
	assert_string_equal(r.u.iperf.procs[0].name, "natd");
	assert_int_equal(r.u.iperf.if_after.tx_packets, 40);
	assert_int_equal(r.u.iperf.if_before.rx_dropped, AGENTCTL_NONE);
	agentctl_reply_free(&r);
}

static void
test_cmd_of(void **state)
{
	static const char *stop[] = { "serve", "stop", NULL };
	static const char *serve[] = { "serve", "--tool", "iperf3", NULL };
	static const char *ver[] = { "--version", NULL };
	static const char *bad[] = { "rm", NULL };

	(void)state;
	assert_int_equal(agentctl_cmd_of(stop), AGENTCTL_SERVE_STOP);
	assert_int_equal(agentctl_cmd_of(serve), AGENTCTL_SERVE);
	assert_int_equal(agentctl_cmd_of(ver), AGENTCTL_VERSION);
	assert_int_equal(agentctl_cmd_of(bad), -1);
}

/* ---- open: the version, lease take and facts lines of one process ---- */

static const char open_ver[] =
    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"version\",\"version\":"
    "\"0.6.0\",\"source_hash\":\"0123456789abcdef\"}\n";
static const char open_take[] =
    "{\"proto\":1,\"event\":\"result\",\"cmd\":\"lease\",\"action\":\"take\","
    "\"now\":1760000000,\"lease\":{\"owner\":\"ctl:1:r:2\",\"host\":\"ctl\","
    "\"pid\":1,\"run\":\"r\",\"since\":1760000000,\"renewed\":1760000000,"
    "\"ttl\":300,\"expires\":1760000300,\"hold_until\":null,\"until\":"
    "1760000300,\"live\":true,\"message\":\"leased by ctl pid 1 run r\"},"
    "\"renewed\":false,\"previous\":null,\"restored\":[\"em0\"]}\n";
static const char open_refused[] =
    "{\"proto\":1,\"event\":\"error\",\"class\":\"leased\",\"message\":"
    "\"leased by ctl2 pid 4711 run 12 since 06:41, expires 06:58\","
    "\"lease\":null}\n";

static int
dec_open(const char *a, const char *b, const char *c, int lease, int facts,
    struct agentctl_open *o)
{
	char	text[4096];

	snprintf(text, sizeof text, "%s%s%s", a, b, c);
	return agentctl_open_decode("em-a", text, strlen(text), lease, facts,
	    o);
}

static void
test_decode_open(void **state)
{
	struct agentctl_open	o;
	char			hostile[2048], *p;

	(void)state;
	/* Every part: version, the take (its progress line before it is
	 * part of it), the facts with their raw line for the store. */
	assert_int_equal(dec_open(open_ver, open_take, facts_ok, 1, 1, &o), 0);
	assert_true(o.answered);
	assert_string_equal(o.version.source_hash, "0123456789abcdef");
	assert_true(o.has_lease);
	assert_int_equal(o.lease_rc, 0);
	assert_string_equal(o.lease.u.lease.action, "take");
	assert_string_equal(o.lease.u.lease.restored[0], "em0");
	assert_true(o.has_facts);
	assert_int_equal(o.facts_rc, 0);
	assert_string_equal(o.facts.u.facts.nics[0].name, "em0");
	assert_non_null(o.facts.raw);
	assert_non_null(strstr(o.facts.raw, "\"cmd\":\"facts\""));
	assert_null(strstr(o.facts.raw, "\"cmd\":\"lease\""));
	agentctl_open_free(&o);

	/* Just the version (no lease, no facts asked). */
	assert_int_equal(dec_open(open_ver, "", "", 0, 0, &o), 0);
	assert_true(o.answered);
	assert_false(o.has_lease);
	agentctl_open_free(&o);

	/* A refusal is a part too: the caller takes the usual way. */
	assert_int_equal(dec_open(open_ver, open_refused, facts_ok, 1, 1, &o),
	    0);
	assert_int_equal(o.lease_rc, -1);
	assert_string_equal(o.lease.error_class, "leased");
	assert_non_null(strstr(o.lease.error_message, "ctl2 pid 4711"));
	assert_int_equal(o.facts_rc, 0);
	agentctl_open_free(&o);

	/* An agent without `open` (usage error), nothing, a missing part,
	 * one part too many, a version that does not fit its pattern. */
	assert_int_equal(dec_open("{\"proto\":1,\"event\":\"error\",\"class\":"
	    "\"usage\",\"message\":\"no such command\"}\n", "", "", 1, 1, &o),
	    -1);
	assert_false(o.answered);
	agentctl_open_free(&o);
	assert_int_equal(dec_open("", "", "", 0, 0, &o), -1);
	assert_false(o.answered);
	agentctl_open_free(&o);
	assert_int_equal(dec_open(open_ver, open_take, "", 1, 1, &o), -1);
	assert_true(o.answered);
	assert_non_null(strstr(o.err, "facts part is missing"));
	agentctl_open_free(&o);
	assert_int_equal(dec_open(open_ver, open_take, open_take, 1, 0, &o),
	    -1);
	assert_non_null(strstr(o.err, "more output"));
	agentctl_open_free(&o);
	assert_int_equal(dec_open("{\"proto\":1,\"event\":\"result\",\"cmd\":"
	    "\"version\",\"version\":\"0.6\",\"source_hash\":\"$(reboot)\"}\n",
	    open_take, facts_ok, 1, 1, &o), -1);
	assert_false(o.answered);
	agentctl_open_free(&o);

	/* A host-reported string past its pattern in the facts part is
	 * refused as in `facts` itself. */
	snprintf(hostile, sizeof hostile, "%s", facts_ok);
	p = strstr(hostile, "\"driver\":\"em\"");
	assert_non_null(p);
	memcpy(p, "\"driver\":\"e;\"", 13);
	assert_int_equal(dec_open(open_ver, open_take, hostile, 1, 1, &o), 0);
	assert_int_equal(o.lease_rc, 0);
	assert_int_equal(o.facts_rc, -1);
	assert_non_null(strstr(o.err, "driver"));
	agentctl_open_free(&o);
}

/* ---- over a real sshd ---------------------------------------------- */

static struct ssh_conn *
conn(void)
{
	struct ssh_target	 t;
	struct ssh_conn		*c;
	char			 err[512];

	memset(&t, 0, sizeof t);
	t.name = "lab-h1";
	t.address = "127.0.0.1";
	t.port = fx.port;
	t.key = fx.key;
	t.known_hosts = fx.known_hosts;
	t.connect_timeout_ms = 3000;
	if ((c = ssh_open(&t, err, sizeof err)) == NULL)
		fail_msg("ssh_open: %s", err);
	return c;
}

/* The pid of the one `AGENT session` process into pid (fails unless
 * exactly one runs). */
static void
session_pid(const char *agent, char *pid, size_t len)
{
	char	 cmd[700], line[32];
	FILE	*f;
	int	 n = 0;

	snprintf(cmd, sizeof cmd, "pgrep -f -x '%s session'", agent);
	assert_non_null(f = popen(cmd, "r"));
	pid[0] = '\0';
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(pid, len, "%s", line);
		n++;
	}
	pclose(f);
	if (n != 1)
		fail_msg("%d `%s session` processes", n, agent);
}

static void
test_deploy_real_agent(void **state)
{
	const struct agentctl_bundle	*real = agentctl_builtin();
	struct agentctl_deploy_info	 info;
	struct agentctl_reply		 r;
	struct ssh_conn			*c;
	struct agentctl			*a;
	char				 err[1024], want[600];
	static const char		*ver[] = { "--version", NULL };

	(void)state;
	if (!have_sshd)
		skip();
	c = conn();
	a = agentctl_new(c);
	if (agentctl_deploy(a, NULL, 120000, &info, err, sizeof err) != 0)
		fail_msg("deploy: %s", err);
	print_message("first deploy (upload + cc): %lld ms\n",
	    (long long)info.ms);
	assert_int_equal(info.built, 1);
	snprintf(want, sizeof want, "%s/agent/%s/labrat-agent", fx.state,
	    real->hash);
	assert_string_equal(info.path, want);
	assert_int_equal(access(want, X_OK), 0);

	assert_int_equal(agentctl_deploy(a, NULL, 30000, &info, err,
	    sizeof err), 0);
	print_message("second deploy (cache hit): %lld ms\n",
	    (long long)info.ms);
	assert_int_equal(info.built, 0);

	/* The check of an installed agent as one `open`: version and the
	 * facts of an interface the host has in the same round trip. */
	{
		struct agentctl_open_req	req = { NULL, "lo" };
		struct agentctl_open		o;

		assert_int_equal(agentctl_deploy_open(a, NULL, 30000, &req,
		    &info, &o, err, sizeof err), 0);
		assert_int_equal(info.built, 0);
		assert_true(o.answered);
		assert_string_equal(o.version.source_hash, real->hash);
		assert_false(o.has_lease);
		assert_true(o.has_facts);
		if (o.facts_rc == 0)
			assert_string_equal(o.facts.u.facts.nics[0].name, "lo");
		agentctl_open_free(&o);
	}

	assert_int_equal(agentctl_call(a, ver, 5000, &r, err, sizeof err), 0);
	assert_string_equal(r.u.version.source_hash, real->hash);
	assert_non_null(strstr(r.raw, "\"source_hash\""));
	agentctl_reply_free(&r);

	/* That call started the agent's `session` on the connection; the
	 * next ones go through it: one process answers all (a fork each, no
	 * new channel), each still counted as a command.  A session that
	 * dies while idle is started again by the next call, which works. */
	{
		struct ssh_stats	s0, s1;
		char			pid1[32], pid2[32];
		int			i;

		session_pid(want, pid1, sizeof pid1);
		ssh_stats_get(&s0);
		for (i = 0; i < 3; i++) {
			assert_int_equal(agentctl_call(a, ver, 5000, &r, err,
			    sizeof err), 0);
			assert_string_equal(r.u.version.source_hash,
			    real->hash);
			agentctl_reply_free(&r);
		}
		ssh_stats_get(&s1);
		assert_int_equal(s1.execs - s0.execs, 3);
		assert_int_equal(s1.handshakes, s0.handshakes);
		session_pid(want, pid2, sizeof pid2);
		assert_string_equal(pid1, pid2);
		assert_int_equal(fx_sh("kill -9 %s", pid1), 0);
		usleep(500 * 1000);	/* its end reaches the controller */
		if (agentctl_call(a, ver, 5000, &r, err, sizeof err) != 0)
			fail_msg("after the session died: %s", err);
		agentctl_reply_free(&r);
		session_pid(want, pid2, sizeof pid2);
		assert_string_not_equal(pid1, pid2);
	}

	/* facts: decoded when the agent has it, else its error event. */
	if (agentctl_facts(a, NULL, 10000, &r, err, sizeof err) == 0) {
		assert_string_equal(r.u.facts.os, "linux");
		assert_true(r.u.facts.hostname[0] != '\0');
	} else {
		print_message("facts: %s\n", err);
		assert_non_null(strstr(err, "lab-h1: labrat-agent facts"));
		assert_string_equal(r.error_class, "usage");
	}
	agentctl_reply_free(&r);

	/* No build directory is left behind. */
	assert_int_equal(fx_sh("test -z \"$(ls -A %s/agent | grep build)\"",
	    fx.state), 0);
	agentctl_free(a);
	ssh_close(c);
}

/* A stub agent that misbehaves per subcommand. */
static const char stub_c[] =
    "#include <stdio.h>\n#include <string.h>\n#include <unistd.h>\n"
    "int main(int argc, char **argv) {\n"
    "  long i;\n"
    "  if (argc < 2) return 2;\n"
    "  if (!strcmp(argv[1], \"--version\")) {\n"
    "    printf(\"{\\\"proto\\\":1,\\\"event\\\":\\\"result\\\",\\\"cmd\\\":"
    "\\\"version\\\",\\\"version\\\":\\\"0\\\",\\\"source_hash\\\":\\\"%s\\\"}"
    "\\n\", LABRAT_AGENT_HASH);\n    return 0;\n  }\n"
    "  if (!strcmp(argv[1], \"facts\")) {\n"
    "    for (i = 0; i < 200000; i++)\n"
    "      puts(\"{\\\"proto\\\":1,\\\"event\\\":\\\"progress\\\",\\\"message\\\""
    ":\\\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\\"}\");\n"
    "    return 0;\n  }\n"
    "  if (!strcmp(argv[1], \"iperf\")) { sleep(4); return 0; }\n"
    "  if (!strcmp(argv[1], \"restore\")) {\n"
    "    puts(\"{\\\"proto\\\":2,\\\"event\\\":\\\"result\\\",\\\"cmd\\\":"
    "\\\"restore\\\"}\");\n    return 0;\n  }\n"
    "  if (!strcmp(argv[1], \"confirm\")) {\n"
    "    fputs(\"it's: \", stdout); puts(argv[3]); return 0;\n  }\n"
    "  fputs(\"no such command\\n\", stderr);\n  return 2;\n}\n";

static void
test_stub_agent(void **state)
{
	static const char	*iperf[] = { "iperf", "--tool", "iperf3", NULL };
	static const char	*restore[] = { "restore", "--if", "em0", NULL };
	static const char	*confirm[] = { "confirm", "--if", "a'b; rm -rf /",
	    NULL };
	static const char	*serve[] = { "serve", "stop", NULL };
	static const char	*ver[] = { "--version", NULL };
	struct embed_file	 files[2];
	struct agentctl_bundle	 b;
	struct agentctl_deploy_info info;
	struct agentctl_reply	 r;
	struct ssh_conn		*c;
	struct agentctl		*a;
	char			 err[1024];
	int64_t			 t0;

	(void)state;
	if (!have_sshd)
		skip();
	files[0] = (struct embed_file){ "stub.c",
	    (const unsigned char *)stub_c, sizeof stub_c - 1 };
	files[1] = (struct embed_file){ NULL, NULL, 0 };
	b.hash = "5106000000000000";
	b.files = files;
	c = conn();
	a = agentctl_new(c);
	if (agentctl_deploy(a, &b, 60000, &info, err, sizeof err) != 0)
		fail_msg("deploy stub: %s", err);
	assert_int_equal(info.built, 1);
	assert_int_equal(agentctl_deploy(a, &b, 60000, &info, err, sizeof err),
	    0);
	assert_int_equal(info.built, 0);
	/* Another hash: built next to the first, which stays. */
	b.hash = "5106000000000001";
	assert_int_equal(agentctl_deploy(a, &b, 60000, &info, err, sizeof err),
	    0);
	assert_int_equal(info.built, 1);
	assert_non_null(strstr(info.path, "/5106000000000001/labrat-agent"));
	assert_int_equal(agentctl_call(a, ver, 5000, &r, err, sizeof err), 0);
	assert_string_equal(r.u.version.source_hash, "5106000000000001");
	agentctl_reply_free(&r);
	assert_int_equal(fx_sh("test -x %s/agent/5106000000000000/labrat-agent",
	    fx.state), 0);

	assert_int_equal(agentctl_facts(a, NULL, 10000, &r, err, sizeof err),
	    -1);
	print_message("oversized: %s\n", err);
	assert_non_null(strstr(err, "lab-h1: labrat-agent facts: output "
	    "larger than"));
	agentctl_reply_free(&r);

	t0 = util_now_ms();
	assert_int_equal(agentctl_call(a, iperf, 1000, &r, err, sizeof err),
	    -1);
	print_message("hung agent: %lld ms: %s\n",
	    (long long)(util_now_ms() - t0), err);
	assert_true(util_now_ms() - t0 < 1500);
	assert_non_null(strstr(err, "lab-h1: labrat-agent iperf --tool iperf3: "
	    "timed out"));
	agentctl_reply_free(&r);

	assert_int_equal(agentctl_call(a, restore, 5000, &r, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "lab-h1: labrat-agent restore --if em0"));
	assert_non_null(strstr(err, "unknown protocol version 2"));
	agentctl_reply_free(&r);

	/* Arguments reach the agent intact (quoting), and garbage fails. */
	assert_int_equal(agentctl_call(a, confirm, 5000, &r, err, sizeof err),
	    -1);
	assert_non_null(r.raw);
	assert_string_equal(r.raw, "it's: a'b; rm -rf /\n");
	assert_non_null(strstr(err, "not one JSON object"));
	agentctl_reply_free(&r);

	assert_int_equal(agentctl_call(a, serve, 5000, &r, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "exited 2 without an error event"));
	assert_non_null(strstr(err, "no such command"));
	agentctl_reply_free(&r);
	agentctl_free(a);
	ssh_close(c);
}

static int
group_setup(void **state)
{
	(void)state;
	ssh_global_init();
	have_sshd = fx_setup(&fx) == 0;
	if (!have_sshd)
		fx_teardown(&fx);
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	if (have_sshd)
		fx_teardown(&fx);
	ssh_global_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_facts),
		cmocka_unit_test(test_decode_many_nics),
		cmocka_unit_test(test_decode_bad),
		cmocka_unit_test(test_decode_oversized),
		cmocka_unit_test(test_decode_apply_mismatch),
		cmocka_unit_test(test_decode_apply_serve_restore),
		cmocka_unit_test(test_decode_iperf),
		cmocka_unit_test(test_cmd_of),
		cmocka_unit_test(test_decode_open),
		cmocka_unit_test(test_deploy_real_agent),
		cmocka_unit_test(test_stub_agent),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
