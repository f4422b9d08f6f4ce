/*
 * test_executor_plaus: the plausibility check on a workload's result
 * (executor_plaus.c) over a table of cases: a good iperf and scp result
 * pass; each way a figure cannot be a measurement (not exact, no bytes,
 * bps that is not bytes x 8 / seconds, a duration far from the time asked,
 * above the link speed from either end or the inventory, more bytes than
 * the receiver took in, counters unread or reset, an scp copy of another
 * size) is refused with a reason naming the link, the figures and the
 * source of the bound.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "executor_int.h"

#define GB	1000000000.0

/* A clean 10 s iperf3 run at 940 Mbit/s on em-a em0 -> em-b em0, both
 * reporting 10000 (veth), the inventory declaring 1000. */
static struct exec_plaus
good_iperf(void)
{
	struct exec_plaus	p;

	memset(&p, 0, sizeof p);
	p.link = "em";
	p.tool = "iperf3";
	p.exact = 1;
	p.bytes = 1175000000.0;
	p.seconds = 10.000213;
	p.bps = p.bytes * 8.0 / p.seconds;
	p.time = 10;
	p.ends[0].host = "em-a";
	p.ends[0].ifname = "em0";
	p.ends[0].reported_mbps = 10000;
	p.ends[0].declared_mbps = 1000;
	p.ends[1].host = "em-b";
	p.ends[1].ifname = "em0";
	p.ends[1].reported_mbps = 10000;
	p.ends[1].declared_mbps = 1000;
	p.rx_host = "em-b";
	p.rx_if = "em0";
	p.check_rx = 1;
	p.rx_ok = 1;
	p.rx_before = 5000;
	p.rx_after = 5000 + 1190000000LL;	/* payload + headers */
	p.rx_slack = EXEC_PLAUS_INFLIGHT_READ;
	return p;
}

static struct exec_plaus
good_scp(void)
{
	struct exec_plaus	p = good_iperf();

	p.tool = "scp";
	p.bytes = 1474560;
	p.seconds = 0.182345;
	p.bps = p.bytes * 8.0 / p.seconds;
	p.time = 0;
	p.size = 1474560;
	p.check_rx = 0;
	p.check_remote = 1;
	p.remote_bytes = 1474560;
	return p;
}

enum tweak {
	T_NONE,
	T_NOT_EXACT,
	T_EXACT_UNSAID,
	T_ZERO_BYTES,
	T_ZERO_SECONDS,
	T_NAN_BPS,
	T_BPS_INCONSISTENT,
	T_BPS_ROUNDED,		/* 3 significant digits: within 0.5 % */
	T_CUT_SHORT,
	T_TOO_LONG,
	T_SLIGHTLY_LONG,
	T_LYING_23X,
	T_AT_SPEED_PLUS_1PCT,
	T_AT_SPEED_PLUS_3PCT,
	T_NO_INVENTORY,		/* bound by the ends' 10000 only */
	T_NO_INVENTORY_23X,
	T_CLIENT_100,		/* one end negotiated 100 Mbit/s */
	T_INV_DIFFER,
	T_NO_SPEED_AT_ALL,	/* nobody knows: no bound */
	T_RX_SHORT,
	T_RX_SLIGHTLY_SHORT,	/* inside the allowance */
	T_RX_IPERF2_INFLIGHT,	/* iperf2 -P 4: 4 send buffers in flight */
	T_RX_IPERF2_SHORT,
	T_RX_UNREAD,
	T_RX_BACKWARDS,
	T_RX_DOUBLE_BYTES,	/* a tool doubling both bytes and bps */
	T_SCP_SIZE,
	T_SCP_REMOTE_SHORT,
	T_SCP_REMOTE_UNREAD,
};

static void
apply_tweak(struct exec_plaus *p, enum tweak t)
{
	switch (t) {
	case T_NONE:
		break;
	case T_NOT_EXACT:
		p->exact = 0;
		break;
	case T_EXACT_UNSAID:
		p->exact = -1;
		break;
	case T_ZERO_BYTES:
		p->bytes = 0;
		p->bps = 0;
		break;
	case T_ZERO_SECONDS:
		p->seconds = 0;
		break;
	case T_NAN_BPS:
		p->bps = NAN;
		break;
	case T_BPS_INCONSISTENT:
		p->bps *= 1.02;
		break;
	case T_BPS_ROUNDED:
		p->bps = 940000000.0;
		break;
	case T_CUT_SHORT:
		p->seconds = 1.0;
		p->bytes = 117500000.0;
		p->bps = p->bytes * 8.0 / p->seconds;
		break;
	case T_TOO_LONG:
		p->seconds = 15.0;
		p->bps = p->bytes * 8.0 / p->seconds;
		break;
	case T_SLIGHTLY_LONG:
		p->seconds = 10.4;
		p->bps = p->bytes * 8.0 / p->seconds;
		break;
	case T_LYING_23X:
		p->bytes = 23.0 * 1.25 * GB;
		p->seconds = 10.0;
		p->bps = 23000.0e6;
		break;
	case T_AT_SPEED_PLUS_1PCT:
	case T_AT_SPEED_PLUS_3PCT:
		p->seconds = 10.0;
		p->bps = t == T_AT_SPEED_PLUS_1PCT ? 1010e6 : 1030e6;
		p->bytes = p->bps * p->seconds / 8.0;
		p->rx_after = p->rx_before + (long long)(p->bytes * 1.02);
		break;
	case T_NO_INVENTORY_23X:
		apply_tweak(p, T_LYING_23X);
		/* FALLTHROUGH */
	case T_NO_INVENTORY:
		p->ends[0].declared_mbps = p->ends[1].declared_mbps = 0;
		break;
	case T_CLIENT_100:
		p->ends[0].reported_mbps = 100;
		break;
	case T_INV_DIFFER:
		p->ends[1].declared_mbps = 100;
		break;
	case T_NO_SPEED_AT_ALL:
		p->ends[0].declared_mbps = p->ends[1].declared_mbps = 0;
		p->ends[0].reported_mbps = p->ends[1].reported_mbps = -1;
		p->seconds = 10.0;
		p->bps = 23000.0e6;
		p->bytes = p->bps * p->seconds / 8.0;
		p->rx_after = p->rx_before + (long long)p->bytes;
		break;
	case T_RX_SHORT:
		p->rx_after = p->rx_before + 600000000LL;
		break;
	case T_RX_SLIGHTLY_SHORT:
		p->rx_after = p->rx_before + (long long)(p->bytes - 4e6);
		break;
	case T_RX_IPERF2_INFLIGHT:
	case T_RX_IPERF2_SHORT:
		p->tool = "iperf2";
		p->rx_slack = 4 * EXEC_PLAUS_INFLIGHT_STREAM;
		p->rx_after = p->rx_before + (long long)(p->bytes -
		    (t == T_RX_IPERF2_INFLIGHT ? 40e6 : 60e6));
		break;
	case T_RX_UNREAD:
		p->rx_ok = 0;
		break;
	case T_RX_BACKWARDS:
		p->rx_after = 100;
		break;
	case T_RX_DOUBLE_BYTES:
		p->bytes *= 2;
		p->bps *= 2;
		p->ends[0].reported_mbps = p->ends[1].reported_mbps = -1;
		p->ends[0].declared_mbps = p->ends[1].declared_mbps = 0;
		break;
	case T_SCP_SIZE:
		p->bytes = 1474000;
		p->bps = p->bytes * 8.0 / p->seconds;
		break;
	case T_SCP_REMOTE_SHORT:
		p->remote_bytes = 65536;
		break;
	case T_SCP_REMOTE_UNREAD:
		p->remote_bytes = -1;
		break;
	}
}

static const struct {
	int		 scp;
	enum tweak	 tweak;
	const char	*frag1, *frag2;	/* NULL frag1: passes */
} cases[] = {
	{ 0, T_NONE, NULL, NULL },
	{ 1, T_NONE, NULL, NULL },
	{ 0, T_NOT_EXACT, "em: iperf3's report is not exact", "3 significant" },
	{ 0, T_EXACT_UNSAID, "em: iperf3's result does not say", "exact" },
	{ 0, T_ZERO_BYTES, "em: iperf3 reported 0 bytes", "no measurement" },
	{ 0, T_ZERO_SECONDS, "in 0 s", "no measurement" },
	{ 0, T_NAN_BPS, "em: iperf3 reported", "no measurement" },
	{ 0, T_BPS_INCONSISTENT, "Mbit/s, but its 1175000000 bytes in "
	  "10.000213 s are 940.0 Mbit/s", NULL },
	{ 0, T_BPS_ROUNDED, NULL, NULL },
	{ 0, T_CUT_SHORT, "em: iperf3 measured 1.000 s of the 10 s asked",
	  NULL },
	{ 0, T_TOO_LONG, "measured 15.000 s of the 10 s asked", NULL },
	{ 0, T_SLIGHTLY_LONG, NULL, NULL },
	{ 0, T_LYING_23X, "em: iperf3 reported 23000.0 Mbit/s, above the link "
	  "speed 1000 Mbit/s (lowest of em-a em0 10000, em-b em0 10000, "
	  "inventory 1000)", NULL },
	{ 0, T_AT_SPEED_PLUS_1PCT, NULL, NULL },
	{ 0, T_AT_SPEED_PLUS_3PCT, "reported 1030.0 Mbit/s, above the link "
	  "speed 1000 Mbit/s", NULL },
	{ 0, T_NO_INVENTORY, NULL, NULL },
	{ 0, T_NO_INVENTORY_23X, "above the link speed 10000 Mbit/s (lowest "
	  "of em-a em0 10000, em-b em0 10000)", NULL },
	{ 0, T_CLIENT_100, "above the link speed 100 Mbit/s (lowest of em-a "
	  "em0 100, em-b em0 10000, inventory 1000)", NULL },
	{ 0, T_INV_DIFFER, "link speed 100 Mbit/s (lowest of em-a em0 10000, "
	  "em-b em0 10000, inventory em-a em0 1000, inventory em-b em0 100)",
	  NULL },
	{ 0, T_NO_SPEED_AT_ALL, NULL, NULL },
	{ 0, T_RX_SHORT, "em: iperf3 reported 1175000000 bytes, but em-b em0 "
	  "received only 600000000 bytes", "rx counters" },
	{ 0, T_RX_SLIGHTLY_SHORT, NULL, NULL },
	{ 0, T_RX_IPERF2_INFLIGHT, NULL, NULL },
	{ 0, T_RX_IPERF2_SHORT, "em: iperf2 reported 1175000000 bytes, but em-b "
	  "em0 received only 1115000000 bytes", NULL },
	{ 0, T_RX_UNREAD, "em-b's receive counters of em0 could not be read",
	  "cannot be confirmed" },
	{ 0, T_RX_BACKWARDS, "em-b em0 rx bytes went backwards", NULL },
	{ 0, T_RX_DOUBLE_BYTES, "reported 2350000000 bytes, but em-b em0 "
	  "received only 1190000000", NULL },
	{ 1, T_SCP_SIZE, "em: scp reported 1474000 bytes of a 1474560-byte "
	  "file", NULL },
	{ 1, T_SCP_REMOTE_SHORT, "em: scp: em-b holds 65536 of the 1474560 "
	  "bytes sent", NULL },
	{ 1, T_SCP_REMOTE_UNREAD, "the size of the copy on em-b could not be "
	  "read", NULL },
	{ 1, T_LYING_23X, "em: scp reported 23000.0 Mbit/s, above the link "
	  "speed 1000", NULL },
};

static void
test_cases(void **state)
{
	struct exec_plaus	p;
	char			reason[512];
	size_t			i;
	int			rc;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		p = cases[i].scp ? good_scp() : good_iperf();
		apply_tweak(&p, cases[i].tweak);
		if (cases[i].scp && cases[i].tweak == T_LYING_23X) {
			p.size = p.bytes;
			p.remote_bytes = (long long)p.bytes;
		}
		reason[0] = '\0';
		rc = exec_plaus_check(&p, reason, sizeof reason);
		if (cases[i].frag1 == NULL) {
			if (rc != 0)
				fail_msg("case %zu (tweak %d) refused: %s", i,
				    (int)cases[i].tweak, reason);
			continue;
		}
		if (rc != -1)
			fail_msg("case %zu (tweak %d) passed", i,
			    (int)cases[i].tweak);
		if (strstr(reason, cases[i].frag1) == NULL ||
		    (cases[i].frag2 != NULL &&
		    strstr(reason, cases[i].frag2) == NULL))
			fail_msg("case %zu (tweak %d): \"%s\"", i,
			    (int)cases[i].tweak, reason);
	}
}

/* The speed a host's facts give for an interface. */
static void
test_nic_speed(void **state)
{
	struct agentctl_facts	f;

	(void)state;
	memset(&f, 0, sizeof f);
	f.nnics = 2;
	strcpy(f.nics[0].name, "lo0");
	f.nics[0].speed_mbps = AGENTCTL_NONE;
	strcpy(f.nics[1].name, "em0");
	f.nics[1].speed_mbps = 1000;
	assert_int_equal(exec_plaus_nic_speed(&f, "em0"), 1000);
	assert_int_equal(exec_plaus_nic_speed(&f, "lo0"), AGENTCTL_NONE);
	assert_int_equal(exec_plaus_nic_speed(&f, "bce1"), AGENTCTL_NONE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_nic_speed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
