/*
 * test_agent_transition.c: apply --reset-others heads for a whole state
 * (osdep_knobs_target): the knobs asked, every other knob at the saved
 * original; and the plan from the last job's state to it runs only what
 * differs (both dialects, as exact command lists).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "agent.h"
#include "osdep.h"

#define U	OSDEP_UNSET
#define SD	"/var/db/labrat"

static struct osdep_knobs
knobs(int tso, int tcp_tso, int mtu, int lro, int rx, int tx, int nat)
{
	struct osdep_knobs k;

	osdep_knobs_unset(&k);
	k.tso = tso;
	k.tcp_tso = tcp_tso;
	k.mtu = mtu;
	k.lro = lro;
	k.rxcsum = rx;
	k.txcsum = tx;
	k.nat = nat;
	return k;
}

static void
same(const struct osdep_knobs *a, const struct osdep_knobs *b)
{
	assert_int_equal(a->tso, b->tso);
	assert_int_equal(a->tcp_tso, b->tcp_tso);
	assert_int_equal(a->mtu, b->mtu);
	assert_int_equal(a->lro, b->lro);
	assert_int_equal(a->rxcsum, b->rxcsum);
	assert_int_equal(a->txcsum, b->txcsum);
	assert_int_equal(a->nat, b->nat);
	assert_string_equal(a->nat_if, b->nat_if);
}

/* A table: request, saved original (or none), the state apply heads for. */
static void
test_target_table(void **state)
{
	static const struct {
		struct osdep_knobs req, saved, want;
		int has_saved;
	} t[] = {
		/* No original saved yet: the request alone. */
		{ { 0, U, 9000, U, U, U, U, "" }, { 1, U, 1500, 0, 1, 1,
		    OSDEP_NAT_OFF, "" }, { 0, U, 9000, U, U, U, U, "" }, 0 },
		/* The last job's MTU and NAT go back when not asked. */
		{ { 0, U, U, U, U, U, U, "" }, { 1, U, 1500, 0, 1, 1,
		    OSDEP_NAT_OFF, "" }, { 0, U, 1500, 0, 1, 1, OSDEP_NAT_OFF,
		    "" }, 1 },
		/* Everything asked: the original changes nothing. */
		{ { 1, 0, 9000, 1, 0, 0, OSDEP_NAT_KERNEL, "" }, { 0, 1, 1500,
		    0, 1, 1, OSDEP_NAT_OFF, "" }, { 1, 0, 9000, 1, 0, 0,
		    OSDEP_NAT_KERNEL, "" }, 1 },
		/* FreeBSD's global tcp_tso comes back too. */
		{ { 1, U, U, U, U, U, U, "" }, { 1, 1, 1500, 0, 1, 1,
		    OSDEP_NAT_OFF, "" }, { 1, 1, 1500, 0, 1, 1, OSDEP_NAT_OFF,
		    "" }, 1 },
		/* An original the OS did not give stays unknown. */
		{ { U, U, U, U, U, U, U, "" }, { 1, U, 1500, U, U, U, U, "" },
		    { 1, U, 1500, U, U, U, U, "" }, 1 },
		/* NAT goes back on the interface its original was read on. */
		{ { 0, U, U, U, U, U, U, "" }, { 1, U, 1500, 0, 1, 1,
		    OSDEP_NAT_OFF, "em1" }, { 0, U, 1500, 0, 1, 1,
		    OSDEP_NAT_OFF, "em1" }, 1 },
		/* NAT asked keeps its own interface. */
		{ { U, U, U, U, U, U, OSDEP_NAT_DIVERT, "em2" }, { 1, U, 1500,
		    0, 1, 1, OSDEP_NAT_OFF, "em1" }, { 1, U, 1500, 0, 1, 1,
		    OSDEP_NAT_DIVERT, "em2" }, 1 },
	};
	struct osdep_knobs out;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		osdep_knobs_target(&t[i].req, t[i].has_saved ? &t[i].saved :
		    NULL, &out);
		same(&out, &t[i].want);
	}
}

static void
plan_of(const struct osdep_dialect *d, struct osdep_knobs cur,
    struct osdep_knobs req, struct osdep_knobs saved, const char *want)
{
	struct osdep_knobs target;
	struct osdep_probe pr;
	struct plan p;
	char	 got[4096], err[256];

	memset(&pr, 0, sizeof pr);
	pr.ipfw_loaded = pr.ipdivert_loaded = 1;
	osdep_knobs_target(&req, &saved, &target);
	assert_int_equal(d->plan("em0", &cur, &target, &pr, SD, &p, err,
	    sizeof err), AGENT_EXIT_OK);
	plan_format(&p, got, sizeof got);
	assert_string_equal(got, want);
}

/* ABAB: from the last job's state (TSO off at MTU 9000) to the next one's
 * (TSO on at MTU 9000) only TSO changes; from a job with MTU 9000 to one
 * that does not set the MTU, the MTU goes back to the original; from a
 * job to the same job nothing runs. */
static void
test_transition_plans(void **state)
{
	struct osdep_knobs orig = knobs(1, U, 1500, 0, 1, 1, OSDEP_NAT_OFF);

	(void)state;
	plan_of(&osdep_linux, knobs(0, U, 9000, 0, 1, 1, OSDEP_NAT_OFF),
	    knobs(1, U, 9000, U, U, U, U), orig,
	    "ethtool -K em0 tso on\n");
	plan_of(&osdep_linux, knobs(1, U, 9000, 0, 1, 1, OSDEP_NAT_OFF),
	    knobs(1, U, U, U, U, U, U), orig,
	    "ip link set dev em0 mtu 1500\n");
	plan_of(&osdep_linux, knobs(1, U, 9000, 0, 1, 1, OSDEP_NAT_OFF),
	    knobs(1, U, 9000, U, U, U, U), orig, "");
	plan_of(&osdep_freebsd, knobs(0, 1, 9000, 0, 1, 1, OSDEP_NAT_OFF),
	    knobs(1, U, 9000, U, U, U, U), knobs(1, 1, 1500, 0, 1, 1,
	    OSDEP_NAT_OFF), "ifconfig em0 tso\n");
	plan_of(&osdep_freebsd, knobs(1, 1, 9000, 0, 1, 1, OSDEP_NAT_OFF),
	    knobs(1, U, 9000, U, U, U, U), knobs(1, 1, 1500, 0, 1, 1,
	    OSDEP_NAT_OFF), "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_table),
		cmocka_unit_test(test_transition_plans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
