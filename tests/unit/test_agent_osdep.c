/*
 * test_agent_osdep.c: the FreeBSD dialect cannot run here, so its plans are
 * checked as exact command lists (goldens) for every knob combination, its
 * read back is driven by a fake runner with canned outputs, and the Linux
 * plans, the NAT classifiers and the kernel revision heuristic are checked
 * the same way.  Transitions: apply --reset-others heads for a whole state
 * (osdep_knobs_target: the knobs asked, every other knob at the saved
 * original), and the plan from the last job's state to it runs only what
 * differs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "agent.h"
#include "osdep.h"

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

#define U	OSDEP_UNSET
/* What a typical em0 shows before labrat touches it. */
#define BASE	knobs(1, 1, 1500, 0, 1, 1, OSDEP_NAT_OFF)
#define LXBASE	knobs(1, U, 1500, 0, 1, 1, OSDEP_NAT_OFF)	/* no tcp_tso */

static void
golden(const struct osdep_dialect *d, const char *ifname,
    struct osdep_knobs cur, struct osdep_knobs req,
    const struct osdep_probe *pr, const char *want, unsigned want_loaded)
{
	struct plan p;
	char	 got[4096], err[256];

	assert_int_equal(d->plan(ifname, &cur, &req, pr, SD, &p, err,
	    sizeof(err)), AGENT_EXIT_OK);
	plan_format(&p, got, sizeof(got));
	assert_string_equal(got, want);
	assert_int_equal(p.loaded, want_loaded);
}

static const struct osdep_probe bare = { 0, 0, 0, 0, -1 };	/* no ipfw */
static const struct osdep_probe fw = { 1, 0, 0, 0, -1 };	/* ipfw only */
static const struct osdep_probe all = { 1, 1, 1, 0, -1 };

static void
test_fbsd_switches(void **state)
{
	(void)state;
	golden(&osdep_freebsd, "em0", BASE, knobs(0, U, U, U, U, U, U), &bare,
	    "ifconfig em0 -tso\n", 0);
	golden(&osdep_freebsd, "em0", knobs(0, 1, 1500, 0, 1, 1, 0),
	    knobs(1, U, U, U, U, U, U), &bare, "ifconfig em0 tso\n", 0);
	/* Already in force: nothing to run. */
	golden(&osdep_freebsd, "em0", BASE, knobs(1, U, U, U, U, U, U), &bare,
	    "", 0);
	golden(&osdep_freebsd, "em0", BASE, knobs(U, 0, U, U, U, U, U), &bare,
	    "sysctl net.inet.tcp.tso=0\n", 0);
	golden(&osdep_freebsd, "em0", knobs(1, 0, 1500, 0, 1, 1, 0),
	    knobs(U, 1, U, U, U, U, U), &bare, "sysctl net.inet.tcp.tso=1\n",
	    0);
	golden(&osdep_freebsd, "em0", BASE, knobs(U, U, 9000, U, U, U, U),
	    &bare, "ifconfig em0 mtu 9000\n", 0);
	golden(&osdep_freebsd, "em0", BASE, knobs(U, U, U, 1, U, U, U), &bare,
	    "ifconfig em0 lro\n", 0);
	golden(&osdep_freebsd, "em0", knobs(1, 1, 1500, 1, 1, 1, 0),
	    knobs(U, U, U, 0, U, U, U), &bare, "ifconfig em0 -lro\n", 0);
	golden(&osdep_freebsd, "em0", BASE, knobs(U, U, U, U, 0, 0, U), &bare,
	    "ifconfig em0 -rxcsum\nifconfig em0 -txcsum\n", 0);
	golden(&osdep_freebsd, "em0", knobs(1, 1, 1500, 0, 0, 0, 0),
	    knobs(U, U, U, U, 1, 1, U), &bare,
	    "ifconfig em0 rxcsum\nifconfig em0 txcsum\n", 0);
	/* The em report's combination: TSO on with MTU 9000. */
	golden(&osdep_freebsd, "em0", knobs(0, 1, 1500, 0, 1, 1, 0),
	    knobs(1, U, 9000, U, U, U, U), &bare,
	    "ifconfig em0 tso\nifconfig em0 mtu 9000\n", 0);
	/* Everything at once, in the dialect's fixed order. */
	golden(&osdep_freebsd, "em0", BASE, knobs(0, 0, 9000, 1, 0, 0, U),
	    &bare, "ifconfig em0 -tso\nsysctl net.inet.tcp.tso=0\n"
	    "ifconfig em0 mtu 9000\nifconfig em0 lro\nifconfig em0 -rxcsum\n"
	    "ifconfig em0 -txcsum\n", 0);
}

static void
test_fbsd_nat(void **state)
{
	struct osdep_knobs req;

	(void)state;
	/* Divert on a host without ipfw: load it accepting by default,
	 * allow-all at once, then ipdivert, natd with a pid file, rule 50. */
	req = knobs(U, U, U, U, U, U, OSDEP_NAT_DIVERT);
	golden(&osdep_freebsd, "bce1", BASE, req, &bare,
	    "kenv net.inet.ip.fw.default_to_accept=1\n"
	    "kldload ipfw\n"
	    "ipfw -q add 65000 allow ip from any to any\n"
	    "kldload ipdivert\n"
	    "natd -n bce1 -P " SD "/natd/bce1.pid\n"
	    "ipfw -q add 50 divert natd ip4 from any to any via bce1\n",
	    OSDEP_LOADED_IPFW | OSDEP_LOADED_IPDIVERT);
	/* ipfw already there (its rules are the admin's): only ours. */
	golden(&osdep_freebsd, "bce1", BASE, req, &fw,
	    "kldload ipdivert\n"
	    "natd -n bce1 -P " SD "/natd/bce1.pid\n"
	    "ipfw -q add 50 divert natd ip4 from any to any via bce1\n",
	    OSDEP_LOADED_IPDIVERT);
	golden(&osdep_freebsd, "bce1", BASE, req, &all,
	    "natd -n bce1 -P " SD "/natd/bce1.pid\n"
	    "ipfw -q add 50 divert natd ip4 from any to any via bce1\n", 0);
	/* In-kernel NAT. */
	req.nat = OSDEP_NAT_KERNEL;
	golden(&osdep_freebsd, "bce1", BASE, req, &bare,
	    "kenv net.inet.ip.fw.default_to_accept=1\n"
	    "kldload ipfw\n"
	    "ipfw -q add 65000 allow ip from any to any\n"
	    "kldload ipfw_nat\n"
	    "ipfw nat 1 config if bce1 same_ports reset\n"
	    "ipfw -q add 50 nat 1 ip4 from any to any via bce1\n",
	    OSDEP_LOADED_IPFW | OSDEP_LOADED_IPFW_NAT);
	golden(&osdep_freebsd, "bce1", BASE, req, &all,
	    "ipfw nat 1 config if bce1 same_ports reset\n"
	    "ipfw -q add 50 nat 1 ip4 from any to any via bce1\n", 0);
	/* NAT on another interface than the knob's. */
	strcpy(req.nat_if, "bce0");
	golden(&osdep_freebsd, "bce1", BASE, req, &all,
	    "ipfw nat 1 config if bce0 same_ports reset\n"
	    "ipfw -q add 50 nat 1 ip4 from any to any via bce0\n", 0);
	/* Off from divert / from kernel; kernel -> divert. */
	golden(&osdep_freebsd, "bce1", knobs(1, 1, 1500, 0, 1, 1,
	    OSDEP_NAT_DIVERT), knobs(U, U, U, U, U, U, OSDEP_NAT_OFF), &all,
	    "ipfw -q delete 50\npkill -F " SD "/natd/bce1.pid natd\n", 0);
	golden(&osdep_freebsd, "bce1", knobs(1, 1, 1500, 0, 1, 1,
	    OSDEP_NAT_KERNEL), knobs(U, U, U, U, U, U, OSDEP_NAT_OFF), &all,
	    "ipfw -q delete 50\nipfw nat 1 delete\n", 0);
	golden(&osdep_freebsd, "bce1", knobs(1, 1, 1500, 0, 1, 1,
	    OSDEP_NAT_KERNEL), knobs(U, U, U, U, U, U, OSDEP_NAT_DIVERT), &all,
	    "ipfw -q delete 50\nipfw nat 1 delete\n"
	    "natd -n bce1 -P " SD "/natd/bce1.pid\n"
	    "ipfw -q add 50 divert natd ip4 from any to any via bce1\n", 0);
	/* The bce report: global TSO off under natd. */
	golden(&osdep_freebsd, "bce1", BASE, knobs(U, 0, U, U, U, U,
	    OSDEP_NAT_DIVERT), &all, "sysctl net.inet.tcp.tso=0\n"
	    "natd -n bce1 -P " SD "/natd/bce1.pid\n"
	    "ipfw -q add 50 divert natd ip4 from any to any via bce1\n", 0);
}

static void
test_fbsd_nat_refuses_foreign_rule(void **state)
{
	struct osdep_probe pr = all;
	struct osdep_knobs cur = BASE, req = knobs(U, U, U, U, U, U,
	    OSDEP_NAT_KERNEL);
	struct plan p;
	char	 err[256];

	(void)state;
	pr.rule_foreign = 1;
	assert_int_equal(osdep_freebsd.plan("bce1", &cur, &req, &pr, SD, &p,
	    err, sizeof(err)), AGENT_EXIT_COMMAND);
	assert_non_null(strstr(err, "rule 50"));
}

static void
test_fbsd_restore(void **state)
{
	struct osdep_knobs cur, saved;
	struct plan p;
	char	 got[2048], err[128];

	(void)state;
	/* After apply tso=off mtu=9000 nat=divert on a bare host. */
	cur = knobs(0, 1, 9000, 0, 1, 1, OSDEP_NAT_DIVERT);
	saved = BASE;
	assert_int_equal(osdep_freebsd.plan("em0", &cur, &saved, &all, SD, &p,
	    err, sizeof(err)), 0);
	osdep_freebsd.plan_unload(OSDEP_LOADED_IPFW | OSDEP_LOADED_IPDIVERT,
	    &p);
	plan_format(&p, got, sizeof(got));
	assert_string_equal(got, "ifconfig em0 tso\nifconfig em0 mtu 1500\n"
	    "ipfw -q delete 50\npkill -F " SD "/natd/em0.pid natd\n"
	    "kldunload ipdivert\nkldunload ipfw\n");
	/* Kernel NAT and global TSO. */
	cur = knobs(1, 0, 1500, 0, 1, 1, OSDEP_NAT_KERNEL);
	assert_int_equal(osdep_freebsd.plan("em0", &cur, &saved, &all, SD, &p,
	    err, sizeof(err)), 0);
	osdep_freebsd.plan_unload(OSDEP_LOADED_IPFW_NAT, &p);
	plan_format(&p, got, sizeof(got));
	assert_string_equal(got, "sysctl net.inet.tcp.tso=1\n"
	    "ipfw -q delete 50\nipfw nat 1 delete\nkldunload ipfw_nat\n");
	/* Nothing changed: nothing to run. */
	assert_int_equal(osdep_freebsd.plan("em0", &saved, &saved, &all, SD,
	    &p, err, sizeof(err)), 0);
	osdep_freebsd.plan_unload(0, &p);
	assert_int_equal(p.n, 0);
}

static void
test_fbsd_rule_classifier(void **state)
{
	int	 nat, foreign;

	(void)state;
	osdep_freebsd_rule("00050 divert 8668 ip4 from any to any via bce1\n",
	    "bce1", &nat, &foreign);
	assert_int_equal(nat, OSDEP_NAT_DIVERT);
	assert_int_equal(foreign, 0);
	osdep_freebsd_rule("00050 nat 1 ip4 from any to any via bce1\n",
	    "bce1", &nat, &foreign);
	assert_int_equal(nat, OSDEP_NAT_KERNEL);
	osdep_freebsd_rule("00050 nat 1 ip4 from any to any via bce0\n",
	    "bce1", &nat, &foreign);
	assert_int_equal(nat, OSDEP_NAT_OFF);
	assert_int_equal(foreign, 1);
	osdep_freebsd_rule("00050 allow ip from any to any\n", "bce1", &nat,
	    &foreign);
	assert_int_equal(foreign, 1);
	osdep_freebsd_rule("", "bce1", &nat, &foreign);
	assert_int_equal(nat, OSDEP_NAT_OFF);
	assert_int_equal(foreign, 0);
}

/* ---- fake runner: FreeBSD read back ------------------------------------ */

struct fake {
	const char *cmd;	/* argv joined by spaces */
	int	    status;
	const char *out;
};

static const struct fake *fakes;
static char calls[4096];

static int
fake_run(void *ctx, char *const argv[], int timeout, struct exec_result *r,
    char *err, size_t errlen)
{
	char	 cmd[512];
	size_t	 i;

	(void)ctx;
	(void)timeout;
	(void)err;
	(void)errlen;
	exec_argv_str(argv, cmd, sizeof(cmd));
	strcat(calls, cmd);
	strcat(calls, "\n");
	memset(r, 0, sizeof(*r));
	r->exited = 1;
	r->status = 1;
	r->out = strdup("");
	r->err = strdup("not faked");
	for (i = 0; fakes[i].cmd != NULL; i++) {
		if (strcmp(fakes[i].cmd, cmd) != 0)
			continue;
		free(r->out);
		r->out = strdup(fakes[i].out);
		r->outlen = strlen(r->out);
		r->status = fakes[i].status;
	}
	return 0;
}

static const struct fake fbsd_em0[] = {
	{ "ifconfig -m em0", 0,
	  "em0: flags=8843<UP,BROADCAST,RUNNING,SIMPLEX,MULTICAST> metric 0 "
	  "mtu 9000\n"
	  "\toptions=9b<RXCSUM,TXCSUM,VLAN_MTU,VLAN_HWTAGGING,VLAN_HWCSUM>\n"
	  "\tcapabilities=19b<RXCSUM,TXCSUM,VLAN_MTU,VLAN_HWTAGGING,"
	  "VLAN_HWCSUM,TSO4>\n"
	  "\tether 00:15:17:0d:04:a8\n"
	  "\tmedia: Ethernet autoselect (1000baseT <full-duplex>)\n"
	  "\tstatus: active\n" },
	{ "sysctl -n net.inet.tcp.tso", 0, "0\n" },
	{ "kldstat -q -m ipfw", 0, "" },
	{ "kldstat -q -m ipdivert", 0, "" },
	{ "kldstat -q -m ipfw_nat", 1, "" },
	{ "ipfw list 50", 0, "00050 divert 8668 ip4 from any to any via em0\n" },
	{ NULL, 0, NULL }
};

static void
test_fbsd_read(void **state)
{
	struct osdep_knobs k;
	struct osdep_probe pr;
	char	 err[256];

	(void)state;
	fakes = fbsd_em0;
	calls[0] = '\0';
	osdep_set_runner(fake_run, NULL);
	assert_int_equal(osdep_freebsd.read("em0", "em0", &k, &pr, err,
	    sizeof(err)), AGENT_EXIT_OK);
	osdep_set_runner(NULL, NULL);
	assert_string_equal(calls, "ifconfig -m em0\n"
	    "sysctl -n net.inet.tcp.tso\nkldstat -q -m ipfw\n"
	    "kldstat -q -m ipdivert\nkldstat -q -m ipfw_nat\nipfw list 50\n");
	assert_int_equal(k.tso, 0);	/* TSO4 capable, not enabled */
	assert_int_equal(k.tcp_tso, 0);
	assert_int_equal(k.mtu, 9000);
	assert_int_equal(k.rxcsum, 1);
	assert_int_equal(k.txcsum, 1);
	assert_int_equal(k.lro, 0);
	assert_int_equal(k.nat, OSDEP_NAT_DIVERT);
	assert_int_equal(pr.ipfw_loaded, 1);
	assert_int_equal(pr.ipdivert_loaded, 1);
	assert_int_equal(pr.ipfw_nat_loaded, 0);
}

static const struct fake fbsd_plan_fail[] = {
	{ "ifconfig em0 -tso", 0, "" },
	{ "ifconfig em0 mtu 9000", 1, "" },	/* refused: soft */
	{ NULL, 0, NULL }
};

static void
test_plan_run_soft_and_hard(void **state)
{
	struct plan p;
	char	 err[256];

	(void)state;
	fakes = fbsd_plan_fail;
	calls[0] = '\0';
	osdep_set_runner(fake_run, NULL);
	plan_init(&p);
	plan_add(&p, PLAN_SOFT, "tso", "ifconfig", "em0", "-tso", (char *)NULL);
	plan_add(&p, PLAN_SOFT, "mtu", "ifconfig", "em0", "mtu", "9000",
	    (char *)NULL);
	assert_int_equal(plan_run(&p, err, sizeof(err)), AGENT_EXIT_OK);
	plan_add(&p, 0, "nat", "kldload", "ipfw", (char *)NULL);
	plan_add(&p, 0, "nat", "never", "reached", (char *)NULL);
	assert_int_equal(plan_run(&p, err, sizeof(err)), AGENT_EXIT_COMMAND);
	osdep_set_runner(NULL, NULL);
	assert_non_null(strstr(err, "kldload ipfw: exited 1"));
	assert_null(strstr(calls, "never"));
}

/* ---- Linux ------------------------------------------------------------- */

static void
test_linux_plans(void **state)
{
	struct osdep_probe none = { 0, 0, 0, 0, -1 }, one = { 0, 0, 0, 0, 1 };
	struct osdep_probe two = { 0, 0, 0, 0, 2 };
	struct osdep_knobs req;
	struct plan p;
	char	 err[256];

	(void)state;
	golden(&osdep_linux, "em0", LXBASE, knobs(0, U, 9000, 1, 0, 0, U), &none,
	    "ethtool -K em0 tso off\nip link set dev em0 mtu 9000\n"
	    "ethtool -K em0 lro on\nethtool -K em0 rx off\n"
	    "ethtool -K em0 tx off\n", 0);
	golden(&osdep_linux, "em0", LXBASE, knobs(U, U, U, U, U, U,
	    OSDEP_NAT_KERNEL), &none, "nft add table ip labrat\n"
	    "nft add chain ip labrat post_em0 { type nat hook postrouting "
	    "priority 100 ; }\n"
	    "nft add rule ip labrat post_em0 oifname \"em0\" masquerade\n", 0);
	/* Removing: the whole table when ours is its only chain. */
	golden(&osdep_linux, "em0", knobs(1, U, 1500, 0, 1, 1,
	    OSDEP_NAT_KERNEL), LXBASE, &one, "nft delete table ip labrat\n", 0);
	golden(&osdep_linux, "em0", knobs(1, U, 1500, 0, 1, 1,
	    OSDEP_NAT_KERNEL), LXBASE, &two,
	    "nft delete chain ip labrat post_em0\n", 0);
	req = knobs(U, 0, U, U, U, U, U);
	assert_int_equal(osdep_linux.plan("em0", &req, &req, &none, SD, &p, err,
	    sizeof(err)), AGENT_EXIT_USAGE);
	req = knobs(U, U, U, U, U, U, OSDEP_NAT_DIVERT);
	assert_int_equal(osdep_linux.plan("em0", &req, &req, &none, SD, &p, err,
	    sizeof(err)), AGENT_EXIT_USAGE);
	assert_non_null(strstr(err, "FreeBSD only"));
}

static void
test_linux_nft_classifier(void **state)
{
	int	 nat, chains;

	(void)state;
	osdep_linux_nft("table ip labrat {\n\tchain post_em0 {\n\t\ttype nat "
	    "hook postrouting priority srcnat; policy accept;\n\t\toifname "
	    "\"em0\" masquerade\n\t}\n}\n", "em0", &nat, &chains);
	assert_int_equal(nat, OSDEP_NAT_KERNEL);
	assert_int_equal(chains, 1);
	osdep_linux_nft("table ip labrat {\n\tchain post_em0 {\n\t}\n"
	    "\tchain post_em1 {\n\t\toifname \"em1\" masquerade\n\t}\n}\n",
	    "em0", &nat, &chains);
	assert_int_equal(nat, OSDEP_NAT_OFF);
	assert_int_equal(chains, 2);
	osdep_linux_nft("table ip labrat {\n}\n", "em0", &nat, &chains);
	assert_int_equal(nat, OSDEP_NAT_OFF);
	assert_int_equal(chains, 0);
}

static void
test_kernel_revision(void **state)
{
	static const struct {
		const char *version, *want;
	} cases[] = {
		{ "FreeBSD 8.1-PRERELEASE #0 r209169: Mon Jun 14 12:41:49 "
		  "PDT 2010 root@:/usr/obj/TAMESHI_STABLE", "r209169" },
		{ "FreeBSD 14.0-CURRENT #0 main-n262658-b347c2284603: Tue",
		  "b347c2284603" },
		{ "Linux version 6.1.0-rc3-g1a2b3c4d5e6f (gcc 12) #1 SMP",
		  "1a2b3c4d5e6f" },
		{ "Linux version 6.1.0-13-amd64 (debian-kernel@lists.debian."
		  "org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP", "" },
		{ "FreeBSD 13.2-RELEASE releng/13.2-n254617-525ecfdad597 "
		  "GENERIC", "525ecfdad597" },
		{ "kernel rev 0123abcd built", "0123abcd" },
		{ "Linux version 5.4.0 (root@r2d2)", "" },
		{ "", "" },
	};
	char	 out[48];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		osdep_kernel_revision(cases[i].version, out, sizeof(out));
		assert_string_equal(out, cases[i].want);
	}
}

/* ---- fake runner: Linux partial TSO ------------------------------------ */

/* The parent line reads "on" because tx-tcp6-segmentation is: an IPv4 test
 * runs without TSO, and that is what the read back must say. */
static const struct fake lx_partial[] = {
	{ "ethtool -k lo", 0,
	  "Features for lo:\n"
	  "rx-checksumming: on\n"
	  "tx-checksumming: on\n"
	  "scatter-gather: on\n"
	  "tcp-segmentation-offload: on\n"
	  "\ttx-tcp-segmentation: off\n"
	  "\ttx-tcp-ecn-segmentation: off [fixed]\n"
	  "\ttx-tcp6-segmentation: on\n"
	  "large-receive-offload: off [fixed]\n" },
	{ "nft list table ip labrat", 1, "" },
	{ NULL, 0, NULL }
};

static void
test_linux_partial_tso(void **state)
{
	struct osdep_knobs k;
	struct osdep_probe pr;
	struct osdep_nic nic;
	char	 err[256];

	(void)state;
	fakes = lx_partial;
	calls[0] = '\0';
	osdep_set_runner(fake_run, NULL);
	assert_int_equal(osdep_linux.read("lo", "lo", &k, &pr, err,
	    sizeof(err)), AGENT_EXIT_OK);
	assert_int_equal(k.tso, 0);
	assert_int_equal(osdep_linux.nic("lo", &nic, err, sizeof(err)),
	    AGENT_EXIT_OK);
	osdep_set_runner(NULL, NULL);
	assert_int_equal(nic.tso, 0);
	assert_int_equal(nic.tso_partial, 1);
}

/* ---- transitions (apply --reset-others) ---------------------------------- */

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
		cmocka_unit_test(test_fbsd_switches),
		cmocka_unit_test(test_fbsd_nat),
		cmocka_unit_test(test_fbsd_nat_refuses_foreign_rule),
		cmocka_unit_test(test_fbsd_restore),
		cmocka_unit_test(test_fbsd_rule_classifier),
		cmocka_unit_test(test_fbsd_read),
		cmocka_unit_test(test_plan_run_soft_and_hard),
		cmocka_unit_test(test_linux_plans),
		cmocka_unit_test(test_linux_nft_classifier),
		cmocka_unit_test(test_kernel_revision),
		cmocka_unit_test(test_linux_partial_tso),
		cmocka_unit_test(test_target_table),
		cmocka_unit_test(test_transition_plans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
