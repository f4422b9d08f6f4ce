/*
 * test_executor_link.c: the pure parts of a link's state between its jobs
 * (executor_link.c): every apply is a transition (--reset-others), re-arms
 * the rollback timer and waits for the link only up to the plan's
 * settle_ms; the workload server is asked again only when the link has no
 * counters of its own or the server may have changed hands.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_args),
		cmocka_unit_test(test_serve_due),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
