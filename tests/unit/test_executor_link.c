/*
 * test_executor_link.c: the pure parts of a link's state between its jobs
 * (executor_link.c): every apply is a transition (--reset-others), re-arms
 * the rollback timer and waits for the link only up to the plan's
 * settle_ms; the workload server is asked again only when the link has no
 * counters of its own or the server may have changed hands.  The
 * preflight folded into the apply (executor_preflight.c): the options each
 * end gets, and when the checks it ran stand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "agentctl.h"
#include "config.h"
#include "executor_int.h"
#include "knobs.h"

/* The argv joined by spaces. */
static void
joined(const char **args, char *buf, size_t len)
{
	size_t	i, off = 0;

	buf[0] = '\0';
	for (i = 0; args[i] != NULL && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
		    i > 0 ? " " : "", args[i]);
}

static void
test_apply_args(void **state)
{
	struct knobs	 k;
	const char	*args[32];
	char		 buf[4][16], got[512];

	(void)state;
	knobs_clear(&k);
	knobs_set(&k, KNOB_TSO, 0);
	knobs_set(&k, KNOB_MTU, 9000);
	knobs_set(&k, KNOB_NAT, KNOB_NAT_KERNEL);
	/* The sender, NAT host, with a settle bound. */
	exec_link_apply_args(&k, "em0", 1, "kernel", 125, 200, args, buf);
	joined(args, got, sizeof got);
	assert_string_equal(got, "apply --if em0 --mtu 9000 --tso off --nat "
	    "kernel --rollback-after 125 --reset-others --settle-max 200");
	/* The receiver: no TSO (sender only), no NAT, no settle. */
	exec_link_apply_args(&k, "bce1", 0, NULL, 65, 0, args, buf);
	joined(args, got, sizeof got);
	assert_string_equal(got, "apply --if bce1 --mtu 9000 --rollback-after "
	    "65 --reset-others");
	/* No knob at all still re-arms the timer and resets the rest. */
	knobs_clear(&k);
	exec_link_apply_args(&k, "em0", 1, NULL, 61, 50, args, buf);
	joined(args, got, sizeof got);
	assert_string_equal(got, "apply --if em0 --rollback-after 61 "
	    "--reset-others --settle-max 50");
	knobs_set(&k, KNOB_LRO, 1);
	knobs_set(&k, KNOB_RXCSUM, 0);
	knobs_set(&k, KNOB_TXCSUM, 1);
	exec_link_apply_args(&k, "em0", 1, NULL, 61, 0, args, buf);
	joined(args, got, sizeof got);
	assert_string_equal(got, "apply --if em0 --lro on --rxcsum off "
	    "--txcsum on --rollback-after 61 --reset-others");
}

static void
test_serve_due(void **state)
{
	struct exec_linkstate	ls;

	(void)state;
	memset(&ls, 0, sizeof ls);
	/* A link's first job. */
	assert_int_equal(exec_link_serve_due(&ls, 0, 0, CONFIG_TOOL_IPERF3,
	    0), 1);
	ls.have_rx = 1;
	ls.tool = CONFIG_TOOL_IPERF3;
	ls.serve_gen = 3;
	ls.host_gen = 2;
	/* Its own counters from the last job's end. */
	assert_int_equal(exec_link_serve_due(&ls, 3, 2, CONFIG_TOOL_IPERF3,
	    0), 0);
	/* Another link started or stopped a server on the host. */
	assert_int_equal(exec_link_serve_due(&ls, 4, 2, CONFIG_TOOL_IPERF3,
	    0), 1);
	/* A new session (the host rebooted). */
	assert_int_equal(exec_link_serve_due(&ls, 3, 5, CONFIG_TOOL_IPERF3,
	    0), 1);
	/* Another tool or port. */
	assert_int_equal(exec_link_serve_due(&ls, 3, 2, CONFIG_TOOL_IPERF2,
	    0), 1);
	assert_int_equal(exec_link_serve_due(&ls, 3, 2, CONFIG_TOOL_IPERF3,
	    5301), 1);
	/* The last serve failed. */
	ls.have_rx = 0;
	assert_int_equal(exec_link_serve_due(&ls, 3, 2, CONFIG_TOOL_IPERF3,
	    0), 1);
}

/* A link em: em-a (client, NAT host) -> em-b (server, 1000 Mb/s). */
static struct config_nic	nic_b = { "em0", "em", NULL, 1000, 0 };
static struct config_host	hosts[2];
static struct config_inventory	inv;
static struct config_link	lnk;

static void
pf_setup(struct executor *ex)
{
	memset(hosts, 0, sizeof hosts);
	memset(&inv, 0, sizeof inv);
	memset(&lnk, 0, sizeof lnk);
	memset(ex, 0, sizeof *ex);
	hosts[0].name = "em-a";
	hosts[1].name = "em-b";
	hosts[1].nics = &nic_b;
	hosts[1].nnics = 1;
	inv.hosts = hosts;
	inv.nhosts = 2;
	lnk.name = "em";
	lnk.client.host = "em-a";
	lnk.client.ifname = "em0";
	lnk.client.address = "198.18.1.1";
	lnk.client.host_index = 0;
	lnk.server.host = "em-b";
	lnk.server.ifname = "em0";
	lnk.server.address = "198.18.1.2";
	lnk.server.host_index = 1;
	lnk.nat = "em-a";
	ex->inv = &inv;
}

/* What apply --preflight gets for end i of job, joined into got. */
static const char *
pf_args_of(struct executor *ex, const struct store_job *job,
    const struct config_workload *wl, int i, char *got, size_t len)
{
	const char	*args[32];
	char		 spd[16];
	size_t		 n = 1;

	args[0] = "apply";
	exec_pf_apply_args(ex, &lnk, job, wl, i, args, &n, spd, sizeof spd);
	joined(args, got, len);
	return got;
}

static void
test_pf_apply_args(void **state)
{
	struct executor		 ex;
	struct store_job	 job;
	struct config_workload	 wl;
	char			 got[512];

	(void)state;
	pf_setup(&ex);
	memset(&job, 0, sizeof job);
	memset(&wl, 0, sizeof wl);
	wl.tool = CONFIG_TOOL_IPERF3;
	knobs_clear(&job.knobs);
	knobs_set(&job.knobs, KNOB_TSO, 1);
	/* The client pings the server; both check the declared speed. */
	assert_string_equal(pf_args_of(&ex, &job, &wl, 1, got, sizeof got),
	    "apply --preflight --peer 198.18.1.2 --speed 1000");
	assert_string_equal(pf_args_of(&ex, &job, &wl, 0, got, sizeof got),
	    "apply --preflight --speed 1000");
	/* NAT asked: the end that is not the NAT host must have none; scp
	 * checks the server's sshd. */
	knobs_set(&job.knobs, KNOB_NAT, KNOB_NAT_KERNEL);
	wl.tool = CONFIG_TOOL_SCP;
	assert_string_equal(pf_args_of(&ex, &job, &wl, 0, got, sizeof got),
	    "apply --preflight --speed 1000 --expect-nat off");
	assert_string_equal(pf_args_of(&ex, &job, &wl, 1, got, sizeof got),
	    "apply --preflight --peer 198.18.1.2 --port 22 --speed 1000");
}

/* An apply reply with its folded checks (ok, or the path check failed). */
static void
pf_reply(struct agentctl_reply *r, int has_pf, int ok, size_t nchanged)
{
	memset(r, 0, sizeof *r);
	r->cmd = AGENTCTL_APPLY;
	r->has_result = 1;
	snprintf(r->u.apply.ifname, sizeof r->u.apply.ifname, "em0");
	r->u.apply.nchanged = nchanged;
	r->u.apply.has_preflight = has_pf;
	r->u.apply.preflight.ok = ok;
	r->u.apply.preflight.nchecks = 1;
	snprintf(r->u.apply.preflight.checks[0].name,
	    sizeof r->u.apply.preflight.checks[0].name, "path");
	r->u.apply.preflight.checks[0].ok = ok;
	snprintf(r->u.apply.preflight.checks[0].detail,
	    sizeof r->u.apply.preflight.checks[0].detail, "no reply");
}

static void
test_pf_folded(void **state)
{
	struct exec_host	 h[2];
	struct exec_host	*ends[2] = { &h[0], &h[1] };
	struct agentctl_reply	*ar;
	char			 reason[256];

	(void)state;
	ar = calloc(2, sizeof *ar);
	assert_non_null(ar);
	memset(h, 0, sizeof h);
	h[0].cfg = &hosts[1];
	h[1].cfg = &hosts[0];
	/* Both passed, the server changed nothing: they stand. */
	pf_reply(&ar[0], 1, 1, 0);
	pf_reply(&ar[1], 1, 1, 1);
	assert_int_equal(exec_pf_folded(ends, ar, reason, sizeof reason),
	    EXEC_OK);
	/* The client's path failed: the job's reason names it. */
	pf_reply(&ar[1], 1, 0, 1);
	assert_int_equal(exec_pf_folded(ends, ar, reason, sizeof reason),
	    EXEC_PREFLIGHT);
	assert_string_equal(reason, "preflight failed on em-a em0: path: "
	    "no reply");
	/* The server changed a knob while the client's checks ran: asked
	 * again, whatever they said. */
	pf_reply(&ar[0], 1, 1, 1);
	assert_int_equal(exec_pf_folded(ends, ar, reason, sizeof reason),
	    -1);
	/* An end without the checks (an older agent). */
	pf_reply(&ar[0], 0, 1, 0);
	pf_reply(&ar[1], 1, 1, 0);
	assert_int_equal(exec_pf_folded(ends, ar, reason, sizeof reason),
	    -1);
	free(ar);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_args),
		cmocka_unit_test(test_serve_due),
		cmocka_unit_test(test_pf_apply_args),
		cmocka_unit_test(test_pf_folded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
