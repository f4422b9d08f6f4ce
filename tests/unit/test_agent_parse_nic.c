/*
 * test_agent_parse_nic: FreeBSD ifconfig and pciconf -lv, Linux ethtool -k
 * and -i, on the real fixtures (INDEX.md values), the two seed reports
 * (em0 options=19b, em0/bce pciconf entries) and the hand-made fixtures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "agent_parse_fx.h"
#include "parse.h"

static char err[256];

#define RO	"real-outputs/"
#define HM	"hand-made/"

static int
ifc(const char *rel, const char *ifname, struct parse_ifconfig *o)
{
	size_t len;
	char *t = fx_read(rel, &len);
	int rc = parse_ifconfig(t, len, ifname, o, err, sizeof(err));

	free(t);
	return rc;
}

static void
test_ifconfig_seed_em(void **state)
{
	struct parse_ifconfig o;

	(void)state;
	assert_int_equal(ifc("em-tso-9k-mtu.txt", "em0", &o), 0);
	assert_string_equal(o.name, "em0");
	assert_int_equal(o.flags, 0x8843);
	assert_int_equal(o.up, 1);
	assert_int_equal(o.mtu, 9000);
	assert_int_equal(o.options, 0x19b);
	assert_int_equal(o.tso4, 1);
	assert_int_equal(o.tso6, 0);
	assert_int_equal(o.tso, 1);
	assert_int_equal(o.lro, 0);
	assert_int_equal(o.rxcsum, 1);
	assert_int_equal(o.txcsum, 1);
	assert_int_equal(o.has_capabilities, 0);
	assert_int_equal(o.speed_mbps, 1000);
	assert_int_equal(o.duplex, PARSE_DUPLEX_FULL);
	assert_int_equal(o.active, 1);
	assert_string_equal(o.ether, "00:30:48:33:43:4e");
	assert_string_equal(o.media,
	    "Ethernet autoselect (1000baseTX <full-duplex>)");
}

static void
test_ifconfig_real(void **state)
{
	struct parse_ifconfig o;

	(void)state;
	assert_int_equal(ifc(RO "freebsd12_ifconfig_ix0_mtu9000_sfp_jc.txt",
	    NULL, &o), 0);
	assert_string_equal(o.name, "ix0");
	assert_int_equal(o.mtu, 9000);
	assert_int_equal(o.options, 0xe53fbb);
	assert_int_equal(o.tso4, 1);
	assert_int_equal(o.tso6, 1);
	assert_int_equal(o.lro, 1);
	assert_int_equal(o.rxcsum, 1);
	assert_int_equal(o.speed_mbps, 10000);	/* 10Gbase-SR */
	assert_int_equal(o.duplex, PARSE_DUPLEX_FULL);
	assert_int_equal(o.active, 1);

	assert_int_equal(ifc(RO
	    "freebsd14_ifconfig_vtnet0_cidr_lowerup_cloudinit.txt", "vtnet0",
	    &o), 0);
	assert_int_equal(o.flags, 0x1008843);
	assert_int_equal(o.mtu, 1500);
	assert_int_equal(o.options, 0xc00b8);
	assert_int_equal(o.tso, 0);		/* no TSO4 */
	assert_int_equal(o.rxcsum, 0);
	assert_int_equal(o.txcsum, 0);
	assert_int_equal(o.speed_mbps, 10000);

	/* The second block; its nd6 options= must not count. */
	assert_int_equal(ifc(RO
	    "freebsd14_ifconfig_vtnet0_cidr_lowerup_cloudinit.txt", "lo0",
	    &o), 0);
	assert_int_equal(o.mtu, 16384);
	assert_int_equal(o.options, 0x680003);
	assert_int_equal(o.rxcsum, 1);
	assert_int_equal(o.speed_mbps, PARSE_UNKNOWN);
	assert_int_equal(o.active, -1);

	assert_int_equal(ifc(RO
	    "freebsd14_ifconfig_vtnet0_cidr_lowerup_cloudinit.txt", "em9",
	    &o), -1);
	fx_err_has(err, "no interface em9");
}

static void
test_ifconfig_hand_made(void **state)
{
	struct parse_ifconfig o;

	(void)state;
	assert_int_equal(ifc(HM "freebsd_ifconfig_m_em0_em1.txt", "em0", &o),
	    0);
	assert_int_equal(o.has_capabilities, 1);
	assert_int_equal(o.capabilities, 0x5bb);
	assert_int_equal(o.options, 0x19b);
	assert_int_equal(o.speed_mbps, 1000);
	assert_int_equal(ifc(HM "freebsd_ifconfig_m_em0_em1.txt", "em1", &o),
	    0);
	assert_int_equal(o.up, 0);
	assert_int_equal(o.active, 0);		/* no carrier */
	assert_int_equal(o.speed_mbps, PARSE_UNKNOWN);
	assert_int_equal(o.duplex, PARSE_DUPLEX_UNKNOWN);
	assert_int_equal(o.tso, 0);
	assert_int_equal(ifc(HM "freebsd_ifconfig_bce1_fixed_media.txt", NULL,
	    &o), 0);
	assert_int_equal(o.speed_mbps, 100);
	assert_int_equal(o.duplex, PARSE_DUPLEX_HALF);
	assert_int_equal(o.tso4, 1);
}

static void
test_ifconfig_errors(void **state)
{
	static const char *bad[] = {
		"",
		"garbage\n",
		"em0: flags=8843<UP> metric 0 mtu 9000\n",	/* header only */
		"em0: flags=zz<UP> metric 0 mtu 9000\n\tether 1\n",
		"em0: flags=8843<UP> mtu 99999999999\n\tether 1\n",
		"em0: flags=8843<UP> mtu 1500\n\toptions=fffffffff<X>\n",
		"em0: flags=8843<UP> mtu 1500\n\toptions=<X>\n",
	};
	struct parse_ifconfig o;
	size_t i;

	(void)state;
	for (i = 0; i < N(bad); i++)
		if (parse_ifconfig(bad[i], strlen(bad[i]), "em0", &o, err,
		    sizeof(err)) != -1) {
			print_error("case %zu parsed\n", i);
			fail();
		}
}

static void
test_pciconf_real(void **state)
{
	static struct parse_pciconf pc;
	const struct parse_pcidev *d;
	size_t len;
	char *t;
	int i;

	(void)state;
	t = fx_read(RO "freebsd13.1_pciconf_lv_ix_X550T_intelmfd.txt", &len);
	assert_int_equal(parse_pciconf(t, len, &pc, err, sizeof(err)), 0);
	assert_int_equal(pc.ndevs, 2);
	for (i = 0; i < 2; i++) {
		d = &pc.devs[i];
		assert_string_equal(d->name, i == 0 ? "ix0" : "ix1");
		assert_string_equal(d->driver, "ix");
		assert_int_equal(d->unit, i);
		assert_string_equal(d->selector, i == 0 ? "pci0:24:0:0" :
		    "pci0:24:0:1");
		assert_int_equal(d->vendor_id, 0x8086);
		assert_int_equal(d->device_id, 0x1563);
		assert_int_equal(d->subvendor_id, 0x8086);
		assert_int_equal(d->subdevice_id, 0x35d4);
		assert_int_equal(d->chip, 0x15638086);
		assert_int_equal(d->card, 0x35d48086);
		assert_int_equal(d->rev, 0x01);
		assert_int_equal(d->class_code, 0x020000);
		assert_string_equal(d->vendor, "Intel Corporation");
		assert_string_equal(d->device, "Ethernet Controller 10G X550T");
		assert_string_equal(d->class_name, "network");
		assert_string_equal(d->subclass, "ethernet");
	}
	assert_ptr_equal(parse_pciconf_find(&pc, "ix1"), &pc.devs[1]);
	assert_null(parse_pciconf_find(&pc, "ix2"));
	free(t);
}

static void
test_pciconf_seeds(void **state)
{
	static struct parse_pciconf pc;
	const struct parse_pcidev *d;
	size_t len;
	char *t;
	int i;

	(void)state;
	/* Mail-munged " at ", wrapped "rev=0x12 hdr=0x00", grep's "--". */
	t = fx_read("bce-tso-natd.txt", &len);
	assert_int_equal(parse_pciconf(t, len, &pc, err, sizeof(err)), 0);
	assert_int_equal(pc.ndevs, 2);
	for (i = 0; i < 2; i++) {
		d = &pc.devs[i];
		assert_string_equal(d->name, i == 0 ? "bce1" : "bce0");
		assert_string_equal(d->driver, "bce");
		assert_string_equal(d->selector, i == 0 ? "pci0:7:0:0" :
		    "pci0:3:0:0");
		assert_int_equal(d->chip, 0x164c14e4);
		assert_int_equal(d->vendor_id, 0x14e4);
		assert_int_equal(d->device_id, 0x164c);
		assert_int_equal(d->card, 0x01b21028);
		assert_int_equal(d->subvendor_id, 0x1028);
		assert_int_equal(d->rev, 0x12);
		assert_string_equal(d->vendor, "Broadcom Corporation");
		assert_string_equal(d->device, "Broadcom NetXtreme II Gigabit "
		    "Ethernet Adapter (BCM5708)");
	}
	free(t);

	t = fx_read("em-tso-9k-mtu.txt", &len);
	assert_int_equal(parse_pciconf(t, len, &pc, err, sizeof(err)), 0);
	assert_int_equal(pc.ndevs, 1);
	d = parse_pciconf_find(&pc, "em0");
	assert_non_null(d);
	assert_int_equal(d->chip, 0x10968086);	/* 8086:1096 80003ES2LAN */
	assert_int_equal(d->card, 0x000015d9);
	assert_int_equal(d->rev, 1);
	assert_string_equal(d->device, "PRO/1000 EB Network Connection");
	free(t);

	t = fx_read(HM "freebsd_pciconf_lv_em0_none0.txt", &len);
	assert_int_equal(parse_pciconf(t, len, &pc, err, sizeof(err)), 0);
	assert_int_equal(pc.ndevs, 2);
	assert_string_equal(pc.devs[1].name, "none0");
	assert_string_equal(pc.devs[1].driver, "");
	assert_string_equal(pc.devs[1].device, "");
	assert_string_equal(pc.devs[1].class_name, "serial bus");
	assert_int_equal(pc.devs[0].chip, 0x10968086);
	free(t);

	/* All fields wrapped onto the next line; prose with '=' ignored. */
	t = strdup("em0 at pci0:4:0:0:\n"
	    "class=0x020000 card=0x000015d9 chip=0x10968086 rev=0x01\n"
	    "em1@pci0:5:0:0:\tclass=0x020000 chip=0x10968086 rev=0x02\n"
	    "so x=1 here\n");
	assert_non_null(t);
	assert_int_equal(parse_pciconf(t, strlen(t), &pc, err, sizeof(err)),
	    0);
	assert_int_equal(pc.ndevs, 2);
	assert_int_equal(pc.devs[0].chip, 0x10968086);
	assert_int_equal(pc.devs[0].rev, 1);
	assert_int_equal(pc.devs[1].rev, 2);
	free(t);
	/* An entry whose ids never came is an error, not chip 0. */
	assert_int_equal(parse_pciconf("em0@pci0:4:0:0:\n", 16, &pc, err,
	    sizeof(err)), -1);
	fx_err_has(err, "em0 has no chip");
}

static void
test_pciconf_errors(void **state)
{
	static struct parse_pciconf pc;
	static const char *bad[] = {
		"", "nothing here\n",
		"em0@pci0:4:0:0:\tclass=0x020000 card=0x0 chip=0xzz rev=0x01\n",
		"em0@pci0:4:0:0:\tclass=0x020000 card=0x0 chip=0x123456789\n",
		"em0@pci0:4:0:0:\tclass=0x020000 card=0x0 bogus=0x1 chip=0x1\n",
		"em0@pci0:4:0:0:\tclass=0x020000\n",		/* no ids */
	};
	size_t i;

	(void)state;
	for (i = 0; i < N(bad); i++)
		if (parse_pciconf(bad[i], strlen(bad[i]), &pc, err,
		    sizeof(err)) != -1) {
			print_error("case %zu parsed\n", i);
			fail();
		}
}

static void
test_ethtool_k(void **state)
{
	static struct parse_ethtool_k k;
	size_t len;
	char *t;

	(void)state;
	t = fx_read(RO "linux_ethtool_k_igb_intelmfd.txt", &len);
	assert_int_equal(parse_ethtool_k(t, len, &k, err, sizeof(err)), 0);
	assert_string_equal(k.ifname, "enp2s0");
	assert_int_equal(k.tso, 1);
	assert_int_equal(k.rxcsum, 1);
	assert_int_equal(k.txcsum, 1);
	assert_int_equal(k.sg, 1);
	assert_int_equal(k.gso, 1);
	assert_int_equal(k.gro, 1);
	assert_int_equal(k.lro, 0);
	assert_int_equal(parse_ethtool_feature(&k, "tx-tcp-segmentation"), 1);
	assert_int_equal(parse_ethtool_feature(&k, "tx-tcp6-segmentation"), 1);
	assert_int_equal(parse_ethtool_feature(&k, "tx-tcp-ecn-segmentation"),
	    0);
	assert_int_equal(parse_ethtool_feature(&k,
	    "tx-tcp-mangleid-segmentation"), 0);
	assert_int_equal(parse_ethtool_feature(&k,
	    "udp-fragmentation-offload"), 0);
	assert_int_equal(parse_ethtool_feature(&k, "rx-vlan-offload"), 1);
	assert_int_equal(parse_ethtool_feature(&k, "ntuple-filters"), 0);
	assert_int_equal(parse_ethtool_feature(&k, "hw-tc-offload"), 0);
	assert_int_equal(parse_ethtool_feature(&k, "no-such-feature"), -1);
	assert_int_equal(k.nfeatures, 52);
	assert_string_equal(k.features[10].name, "tcp-segmentation-offload");
	assert_int_equal(k.features[12].fixed, 1);	/* ecn [fixed] */
	assert_int_equal(k.features[12].on, 0);
	free(t);

	t = fx_read(HM "linux_ethtool_k_tab_requested.txt", &len);
	assert_int_equal(parse_ethtool_k(t, len, &k, err, sizeof(err)), 0);
	assert_int_equal(k.tso, 0);
	assert_int_equal(k.txcsum, 0);
	assert_int_equal(k.lro, 1);
	assert_int_equal(k.features[1].requested, 1);	/* tx-checksumming */
	assert_int_equal(k.features[3].fixed, 1);
	assert_int_equal(k.features[3].requested, -1);
	assert_int_equal(parse_ethtool_feature(&k, "tx-tcp-segmentation"), 0);
	free(t);

	assert_int_equal(parse_ethtool_k("Features for x:\n", 16, &k, err,
	    sizeof(err)), -1);
	fx_err_has(err, "no feature lines");
}

static void
test_ethtool_i(void **state)
{
	struct parse_ethtool_i i;
	size_t len;
	char *t;

	(void)state;
	t = fx_read(RO "linux_ethtool_i_igb_intelmfd.txt", &len);
	assert_int_equal(parse_ethtool_i(t, len, &i, err, sizeof(err)), 0);
	assert_string_equal(i.driver, "igb");
	assert_string_equal(i.version, "5.4.0-k");
	assert_string_equal(i.firmware, "3.16.0");
	assert_string_equal(i.bus_info, "0000:02:00.0");
	free(t);
	t = fx_read(HM "linux_ethtool_i_e1000e.txt", &len);
	assert_int_equal(parse_ethtool_i(t, len, &i, err, sizeof(err)), 0);
	assert_string_equal(i.driver, "e1000e");
	assert_string_equal(i.bus_info, "0000:00:19.0");
	free(t);
	assert_int_equal(parse_ethtool_i("version: 1\n", 11, &i, err,
	    sizeof(err)), -1);
	fx_err_has(err, "no driver");
	t = malloc(200);
	assert_non_null(t);
	memcpy(t, "driver: ", 8);
	memset(t + 8, 'a', 100);
	t[108] = '\n';
	assert_int_equal(parse_ethtool_i(t, 109, &i, err, sizeof(err)), -1);
	fx_err_has(err, "too long");
	free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifconfig_seed_em),
		cmocka_unit_test(test_ifconfig_real),
		cmocka_unit_test(test_ifconfig_hand_made),
		cmocka_unit_test(test_ifconfig_errors),
		cmocka_unit_test(test_pciconf_real),
		cmocka_unit_test(test_pciconf_seeds),
		cmocka_unit_test(test_pciconf_errors),
		cmocka_unit_test(test_ethtool_k),
		cmocka_unit_test(test_ethtool_i),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
