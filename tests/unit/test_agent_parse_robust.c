/*
 * test_agent_parse_robust: every parser against damaged input.
 *  - truncation: each fixture cut at every byte offset (in files over
 *    4 KiB: the first 512 and last 256, then every 29th) into an exact-size heap buffer, so ASan sees
 *    any over-read; a cut output must give an error or values consistent
 *    with the whole output (equal, or "unknown" for what was cut away);
 *  - mutation: single bytes (every one in files up to 2 KiB, 120 spread
 *    over larger ones) replaced by '\n', '9', NUL and 0xff: no crash,
 *    and any success stays within the documented ranges;
 *  - every fixture fed to every parser, and random bytes: no crash, and
 *    every failure explains itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "agent_parse_fx.h"
#include "parse.h"

enum kind {
	K_I2, K_I2CSV, K_I3J, K_I3T, K_IFC, K_PCI, K_EK, K_EI, K_NETDEV,
	K_NETSTAT, K_STAT, K_PIDSTAT, K_PSTIME, K_I3S, K_NKINDS
};

#define IS_IPERF(k)	((k) <= K_I3T || (k) == K_I3S)

struct fx {
	const char	*file;
	enum kind	 kind;
	const char	*arg;		/* interface name */
	int		 ok;		/* whole output parses */
	int		 section;	/* >= 0: nth "iperf -c" run of a seed */
};

#define RO	"real-outputs/"
#define HM	"hand-made/"
#define FM	"formats/"

static const struct fx fxs[] = {
	{ "em-tso-9k-mtu.txt", K_I2, NULL, 1, 0 },
	{ "em-tso-9k-mtu.txt", K_I2, NULL, 1, 2 },
	{ "em-tso-9k-mtu.txt", K_IFC, "em0", 1, -1 },
	{ "em-tso-9k-mtu.txt", K_PCI, NULL, 1, -1 },
	{ "bce-tso-natd.txt", K_PCI, NULL, 1, -1 },
	{ RO "iperf205_tcp_client_P20_sum_moler.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf205_tcp_client_interval_moler.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf205_udp_dualtest_kbits_moler.txt", K_I2, NULL, 0, -1 },
	{ RO "iperf20x_tcp_P2_stalled_no_final_sum_oldape.txt", K_I2, NULL, 1,
	    -1 },
	{ RO "iperf20x_tcp_P4_kbytes_oldape.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf20x_tcp_P8_interval_sum_oldape.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf20x_udp_P2_kbits_sum_moler.txt", K_I2, NULL, 0, -1 },
	{ RO "iperf2013_e_tcp_P2_pkb.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf2013_e_tcp_P3_interval_pkb.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf2013_e_tcp_single_interval_pkb.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf2013_e_tcp_single_pkb.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf2013_e_udp_P2_pkb.txt", K_I2, NULL, 0, -1 },
	{ RO "iperf2013_e_udp_single_pkb.txt", K_I2, NULL, 0, -1 },
	{ RO "iperf21_e_tcp_P2_formatb_perfsonar.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf21_e_tcp_P4_uneven_final_perfsonar.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf21_e_tcp_single_formatb_perfsonar.txt", K_I2, NULL, 1, -1 },
	{ RO "iperf21_e_udp_P2_formatb_perfsonar.txt", K_I2, NULL, 0, -1 },
	{ RO "iperf21_e_udp_single_formatb_perfsonar.txt", K_I2, NULL, 0, -1 },
	{ RO "iperf20x_csv_P2_stalled_oldape.csv", K_I2CSV, NULL, 1, -1 },
	{ RO "iperf20x_csv_P4_interval_oldape.csv", K_I2CSV, NULL, 1, -1 },
	{ RO "iperf3_json_3.1.3_tcp_pscheduler.json", K_I3J, NULL, 1, -1 },
	{ RO "iperf3_json_3.1.3_udp_pscheduler.json", K_I3J, NULL, 0, -1 },
	{ RO "iperf3_json_3.1.6_tcp_a_pscheduler.json", K_I3J, NULL, 1, -1 },
	{ RO "iperf3_json_3.1.6_tcp_b_pscheduler.json", K_I3J, NULL, 1, -1 },
	{ RO "iperf3_json_3.6_error_control_socket_cloudpilot.json", K_I3J,
	    NULL, 0, -1 },
	{ RO "iperf3_json_3.6_interrupted_crlf_cloudpilot.json", K_I3J, NULL,
	    0, -1 },
	{ RO "iperf3_json_3.9_empty_no_error_key_cloudpilot.json", K_I3J, NULL,
	    0, -1 },
	{ RO "iperf3_json_3.9_tcp_omit3_cloudpilot.json", K_I3J, NULL, 1, -1 },
	{ RO "iperf3_text_tcp_client_retr_cwnd_moler.txt", K_I3T, NULL, 1, -1 },
	{ RO "iperf3_text_tcp_omit3_crlf_cloudpilot.txt", K_I3T, NULL, 1, -1 },
	{ RO "iperf3_text_udp_client_kbits_moler.txt", K_I3T, NULL, 0, -1 },
	{ RO "freebsd12_ifconfig_ix0_mtu9000_sfp_jc.txt", K_IFC, NULL, 1, -1 },
	{ RO "freebsd14_ifconfig_vtnet0_cidr_lowerup_cloudinit.txt", K_IFC,
	    "vtnet0", 1, -1 },
	{ RO "freebsd14_ifconfig_vtnet0_cidr_lowerup_cloudinit.txt", K_IFC,
	    "lo0", 1, -1 },
	{ RO "freebsd13.1_pciconf_lv_ix_X550T_intelmfd.txt", K_PCI, NULL, 1,
	    -1 },
	{ RO "linux_ethtool_k_igb_intelmfd.txt", K_EK, NULL, 1, -1 },
	{ RO "linux_ethtool_i_igb_intelmfd.txt", K_EI, NULL, 1, -1 },
	{ HM "freebsd_ifconfig_m_em0_em1.txt", K_IFC, "em1", 1, -1 },
	{ HM "freebsd_ifconfig_bce1_fixed_media.txt", K_IFC, NULL, 1, -1 },
	{ HM "freebsd_pciconf_lv_em0_none0.txt", K_PCI, NULL, 1, -1 },
	{ HM "freebsd_netstat_I_em0_bdnW.txt", K_NETSTAT, "em0", 1, -1 },
	{ HM "freebsd7_netstat_I_lo0_bnW_no_idrop.txt", K_NETSTAT, "lo0", 1,
	    -1 },
	{ HM "freebsd_ps_o_time_natd.txt", K_PSTIME, NULL, 1, -1 },
	{ HM "linux_ethtool_k_tab_requested.txt", K_EK, NULL, 1, -1 },
	{ FM "iperf2_2.1.8_csv_e_single.csv", K_I2CSV, NULL, 1, -1 },
	{ FM "iperf2_2.1.8_csv_e_P2_no_sum_rows.csv", K_I2CSV, NULL, 1, -1 },
	{ FM "iperf2_2.1.9_csv_e_15f_single.csv", K_I2CSV, NULL, 1, -1 },
	{ FM "iperf2_2.1.9_csv_e_15f_P2_sum.csv", K_I2CSV, NULL, 1, -1 },
	{ FM "iperf2_2.2_csv_e_header_single.csv", K_I2CSV, NULL, 1, -1 },
	{ FM "iperf3_3.17_json_stream_tcp.jsonl", K_I3S, NULL, 1, -1 },
	{ FM "iperf3_3.17_json_stream_killed.jsonl", K_I3S, NULL, 0, -1 },
	{ FM "iperf3_3.17_json_stream_busy.jsonl", K_I3S, NULL, 0, -1 },
	{ FM "iperf3_3.0_text_retransmits.txt", K_I3T, NULL, 1, -1 },
	{ FM "freebsd_ifconfig_wrapped_header.txt", K_IFC, "em0", 1, -1 },
	{ FM "freebsd_ifconfig_wrapped_header.txt", K_IFC, "em1", 1, -1 },
	{ FM "freebsd_ifconfig_options_no_tab.txt", K_IFC, NULL, 1, -1 },
	{ FM "freebsd_ifconfig_mtu_no_value.txt", K_IFC, NULL, 0, -1 },
	{ FM "linux_ethtool_k_old_offload_spaces.txt", K_EK, NULL, 1, -1 },
	{ FM "linux_ethtool_k_old_offload_dashes.txt", K_EK, NULL, 1, -1 },
	{ FM "linux_ethtool_k_partial_tso.txt", K_EK, NULL, 1, -1 },
	/* Not here: iperf2_2.1.8_csv_e_killed.csv (its first row alone reads
	 * as a complete 1 s run, which parse_iperf_check refuses) and
	 * linux_ethtool_i_concatenated.txt (its first half is a whole
	 * output): a prefix of them rightly parses. */
	{ HM "linux_ethtool_i_e1000e.txt", K_EI, NULL, 1, -1 },
	{ HM "linux_proc_net_dev.txt", K_NETDEV, "eth0", 1, -1 },
	{ HM "linux_proc_stat.txt", K_STAT, NULL, 1, -1 },
	{ HM "linux_proc_pid_stat_natd.txt", K_PIDSTAT, NULL, 1, -1 },
};

/* Results of one parse, whatever the kind. */
struct res {
	int	rc;
	char	err[256];
	struct parse_iperf ip;
	struct parse_ifconfig ifc;
	struct parse_pciconf pci;
	struct parse_ethtool_k ek;
	struct parse_ethtool_i ei;
	struct parse_ifstats st;
	struct parse_cpu cpu;
	struct parse_pidstat pid;
	double	secs;
};

static struct res full, part;

static void
run(enum kind k, const char *arg, const char *t, size_t n, struct res *r)
{
	r->err[0] = '\0';
	switch (k) {
	case K_I2:
		r->rc = parse_iperf2(t, n, &r->ip, r->err, sizeof(r->err));
		break;
	case K_I2CSV:
		r->rc = parse_iperf2_csv(t, n, &r->ip, r->err, sizeof(r->err));
		break;
	case K_I3J:
		r->rc = parse_iperf3_json(t, n, &r->ip, r->err, sizeof(r->err));
		break;
	case K_I3T:
		r->rc = parse_iperf3_text(t, n, &r->ip, r->err, sizeof(r->err));
		break;
	case K_IFC:
		r->rc = parse_ifconfig(t, n, arg, &r->ifc, r->err,
		    sizeof(r->err));
		break;
	case K_PCI:
		r->rc = parse_pciconf(t, n, &r->pci, r->err, sizeof(r->err));
		break;
	case K_EK:
		r->rc = parse_ethtool_k(t, n, &r->ek, r->err, sizeof(r->err));
		break;
	case K_EI:
		r->rc = parse_ethtool_i(t, n, &r->ei, r->err, sizeof(r->err));
		break;
	case K_NETDEV:
		r->rc = parse_proc_net_dev(t, n, arg != NULL ? arg : "eth0",
		    &r->st, r->err, sizeof(r->err));
		break;
	case K_NETSTAT:
		r->rc = parse_netstat_if(t, n, arg != NULL ? arg : "em0",
		    &r->st, r->err, sizeof(r->err));
		break;
	case K_STAT:
		r->rc = parse_proc_stat(t, n, &r->cpu, r->err, sizeof(r->err));
		break;
	case K_PIDSTAT:
		r->rc = parse_proc_pid_stat(t, n, &r->pid, r->err,
		    sizeof(r->err));
		break;
	case K_PSTIME:
		r->rc = parse_ps_time(t, n, &r->secs, r->err, sizeof(r->err));
		break;
	case K_I3S:
		r->rc = parse_iperf3_stream(t, n, &r->ip, r->err,
		    sizeof(r->err));
		break;
	default:
		fail();
	}
	/* A failure always says why. */
	if (r->rc != 0 && (r->rc != -1 || r->err[0] == '\0')) {
		print_error("kind %d: rc %d with error \"%s\"\n", k, r->rc,
		    r->err);
		fail();
	}
}

static char *
load(const struct fx *f, size_t *n)
{
	char *t, *s;

	t = fx_read(f->file, n);
	if (f->section < 0)
		return t;
	s = fx_section(t, "iperf -c", f->section, "# ", n);
	free(t);
	return s;
}

static void
iperf_sane(const struct parse_iperf *p)
{
	size_t i;

	assert_true(p->bytes >= 0 && p->bytes <= PARSE_MAX_BYTES);
	assert_true(p->bps >= 0 && p->bps <= PARSE_MAX_BPS);
	assert_true(p->seconds > 0 && p->seconds <= PARSE_MAX_SECONDS);
	assert_true(p->nintervals <= PARSE_MAX_INTERVALS);
	assert_true(p->nstreams >= 0 && p->nstreams <= PARSE_MAX_STREAMS);
	assert_true(p->retransmits >= -1);
	for (i = 0; i < p->nintervals; i++) {
		assert_true(p->intervals[i].bytes >= 0);
		assert_true(p->intervals[i].end >= p->intervals[i].start);
	}
}

#define SAME(a, b, unknown)	assert_true((a) == (b) || (a) == (unknown))
#define SAMESTR(a, b)		assert_true((a)[0] == '\0' || strcmp(a, b) == 0)

/* A successful parse of a prefix against the whole output's result. */
static void
consistent(enum kind k, const struct res *p, const struct res *f)
{
	size_t i;

	switch (k) {
	case K_I2:
	case K_I2CSV:
	case K_I3J:
	case K_I3T:
	case K_I3S:
		iperf_sane(&p->ip);
		/* Shorter than the run asked: the caller's check refuses. */
		if (parse_iperf_check(&p->ip, (double)(long)f->ip.seconds, 0,
		    part.err, sizeof(part.err)) == -1)
			return;
		if (p->ip.sum_from_streams != f->ip.sum_from_streams) {
			fx_near(p->ip.bytes, f->ip.bytes, 0.03, "bytes");
			fx_near(p->ip.bps, f->ip.bps, 0.03, "bps");
			fx_near(p->ip.seconds, f->ip.seconds, 0.03, "secs");
			return;
		}
		fx_eq(p->ip.bytes, f->ip.bytes, "bytes");
		fx_eq(p->ip.bps, f->ip.bps, "bps");
		fx_eq(p->ip.seconds, f->ip.seconds, "seconds");
		assert_int_equal(p->ip.retransmits, f->ip.retransmits);
		assert_int_equal(p->ip.window_granted, f->ip.window_granted);
		break;
	case K_IFC:
		assert_string_equal(p->ifc.name, f->ifc.name);
		assert_int_equal(p->ifc.flags, f->ifc.flags);
		assert_int_equal(p->ifc.mtu, f->ifc.mtu);
		assert_int_equal(p->ifc.options, f->ifc.options);
		assert_int_equal(p->ifc.tso, f->ifc.tso);
		assert_true(!p->ifc.has_capabilities ||
		    p->ifc.capabilities == f->ifc.capabilities);
		SAME(p->ifc.speed_mbps, f->ifc.speed_mbps, PARSE_UNKNOWN);
		SAME(p->ifc.duplex, f->ifc.duplex, PARSE_DUPLEX_UNKNOWN);
		SAME(p->ifc.active, f->ifc.active, -1);
		SAMESTR(p->ifc.media, f->ifc.media);
		SAMESTR(p->ifc.ether, f->ifc.ether);
		break;
	case K_PCI:
		assert_true(p->pci.ndevs <= f->pci.ndevs);
		for (i = 0; i < p->pci.ndevs; i++) {
			const struct parse_pcidev *a = &p->pci.devs[i];
			const struct parse_pcidev *b = &f->pci.devs[i];

			assert_string_equal(a->name, b->name);
			assert_string_equal(a->selector, b->selector);
			assert_int_equal(a->chip, b->chip);
			assert_int_equal(a->card, b->card);
			assert_int_equal(a->class_code, b->class_code);
			SAME(a->rev, b->rev, PARSE_UNKNOWN);
			SAMESTR(a->vendor, b->vendor);
			SAMESTR(a->device, b->device);
			SAMESTR(a->class_name, b->class_name);
		}
		break;
	case K_EK:
		assert_true(p->ek.nfeatures <= f->ek.nfeatures);
		for (i = 0; i < p->ek.nfeatures; i++)
			assert_memory_equal(&p->ek.features[i],
			    &f->ek.features[i], sizeof(p->ek.features[i]));
		SAME(p->ek.tso, f->ek.tso, -1);
		SAME(p->ek.lro, f->ek.lro, -1);
		SAME(p->ek.rxcsum, f->ek.rxcsum, -1);
		SAME(p->ek.txcsum, f->ek.txcsum, -1);
		break;
	case K_EI:
		assert_string_equal(p->ei.driver, f->ei.driver);
		SAMESTR(p->ei.version, f->ei.version);
		SAMESTR(p->ei.firmware, f->ei.firmware);
		SAMESTR(p->ei.bus_info, f->ei.bus_info);
		break;
	case K_NETDEV:
	case K_NETSTAT:
		assert_memory_equal(&p->st, &f->st, sizeof(p->st));
		break;
	case K_STAT:
		assert_memory_equal(&p->cpu, &f->cpu, sizeof(p->cpu));
		break;
	case K_PIDSTAT:
		assert_memory_equal(&p->pid, &f->pid, sizeof(p->pid));
		break;
	case K_PSTIME:
		fx_eq(p->secs, f->secs, "ps time");
		break;
	default:
		fail();
	}
}

static void
test_truncation(void **state)
{
	size_t i, n, cut, step;
	char *t, *b;
	long ok = 0, errs = 0;

	(void)state;
	for (i = 0; i < N(fxs); i++) {
		t = load(&fxs[i], &n);
		run(fxs[i].kind, fxs[i].arg, t, n, &full);
		if (full.rc != (fxs[i].ok ? 0 : -1)) {
			print_error("%s: whole output rc %d (%s)\n",
			    fxs[i].file, full.rc, full.err);
			fail();
		}
		for (cut = 0; cut < n; cut += step) {
			step = (n > 4096 && cut > 512 && cut + 256 < n) ? 29 : 1;
			b = malloc(cut + 1);	/* malloc(0) may be NULL */
			assert_non_null(b);
			memcpy(b, t, cut);
			run(fxs[i].kind, fxs[i].arg, b, cut, &part);
			if (part.rc == 0) {
				if (full.rc != 0) {
					print_error("%s: prefix of %zu bytes "
					    "parses, whole fails\n",
					    fxs[i].file, cut);
					fail();
				}
				consistent(fxs[i].kind, &part, &full);
				ok++;
			} else
				errs++;
			free(b);
		}
		free(t);
	}
	print_message("truncation: %ld prefixes parsed consistently, %ld "
	    "gave errors\n", ok, errs);
}

static void
test_mutation(void **state)
{
	static const char repl[] = { '\n', '9', '\0', (char)0xff };
	size_t i, n, at, j, step;
	char *t, *b;

	(void)state;
	for (i = 0; i < N(fxs); i++) {
		t = load(&fxs[i], &n);
		step = n > 2048 ? n / 120 + 1 : 1;
		b = malloc(n);
		assert_non_null(b);
		for (at = 0; at < n; at += step)
			for (j = 0; j < sizeof(repl); j++) {
				memcpy(b, t, n);
				b[at] = repl[j];
				run(fxs[i].kind, fxs[i].arg, b, n, &part);
				if (part.rc == 0 && IS_IPERF(fxs[i].kind))
					iperf_sane(&part.ip);
			}
		free(b);
		free(t);
	}
}

static void
test_cross_feed(void **state)
{
	size_t i, n;
	int k;
	char *t;

	(void)state;
	for (i = 0; i < N(fxs); i++) {
		t = load(&fxs[i], &n);
		for (k = 0; k < K_NKINDS; k++) {
			run((enum kind)k, fxs[i].arg, t, n, &part);
			if (part.rc == 0 && IS_IPERF(k))
				iperf_sane(&part.ip);
		}
		free(t);
	}
}

static void
test_random(void **state)
{
	uint32_t x = 12345;
	size_t round, n, i;
	char *b;
	int k;

	(void)state;
	for (round = 0; round < 300; round++) {
		x = x * 1103515245u + 12345u;
		n = (x >> 8) % 3000;
		b = malloc(n + 1);
		assert_non_null(b);
		for (i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			/* Mostly printable with newlines, some binary. */
			b[i] = (round % 3 == 0) ? (char)(x >> 24) :
			    "0123456789.- \n[]:=/%KMGBbitsec{}\",SUM"[(x >> 16) %
			    38];
		}
		for (k = 0; k < K_NKINDS; k++) {
			run((enum kind)k, "em0", b, n, &part);
			if (part.rc == 0 && IS_IPERF(k))
				iperf_sane(&part.ip);
		}
		free(b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_mutation),
		cmocka_unit_test(test_cross_feed),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
