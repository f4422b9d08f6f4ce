/*
 * test_agent_parse_ping: the preflight's don't-fragment ping.  Fixtures
 * are written from the documented formats: Linux iputils 20221126 (seen on
 * this machine: reply, loss, local "message too long", a router's "Frag
 * needed", connect errors) and FreeBSD ping(8)/ping6(8) (sbin/ping
 * pr_pack/finish: "packets received", "round-trip min/avg/max/stddev",
 * "frag needed and DF set (MTU %d)", "sendto: Message too long").  Also the
 * verdict on each, the payload sizes and both dialects' argv.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agent.h"
#include "osdep.h"
#include "parse.h"

static char err[256];
static char detail[512];

static int
pp(const char *text, struct parse_ping *p)
{
	return parse_ping(text, strlen(text), p, err, sizeof(err));
}

static const char LX_OK[] =
    "PING 198.18.1.2 (198.18.1.2) 8972(9000) bytes of data.\n"
    "8980 bytes from 198.18.1.2: icmp_seq=1 ttl=64 time=0.061 ms\n"
    "\n"
    "--- 198.18.1.2 ping statistics ---\n"
    "1 packets transmitted, 1 received, 0% packet loss, time 0ms\n"
    "rtt min/avg/max/mdev = 0.061/0.061/0.061/0.000 ms\n";

static const char LX_LOSS[] =
    "PING 198.18.1.2 (198.18.1.2) 8972(9000) bytes of data.\n"
    "\n"
    "--- 198.18.1.2 ping statistics ---\n"
    "10 packets transmitted, 0 received, 100% packet loss, time 920ms\n"
    "\n";

/* stdout, then stderr. */
static const char LX_LOCAL[] =
    "PING 198.18.1.2 (198.18.1.2) from 198.18.0.1 em0: 8972(9000) bytes "
    "of data.\n"
    "\n"
    "--- 198.18.1.2 ping statistics ---\n"
    "1 packets transmitted, 0 received, +1 errors, 100% packet loss, "
    "time 0ms\n"
    "\n"
    "ping: local error: message too long, mtu=1500\n";

static const char LX_FRAG[] =
    "PING 198.18.1.2 (198.18.1.2) 8972(9000) bytes of data.\n"
    "From 198.18.0.254 icmp_seq=1 Frag needed and DF set (mtu = 1500)\n"
    "\n"
    "--- 198.18.1.2 ping statistics ---\n"
    "1 packets transmitted, 0 received, +1 errors, 100% packet loss, "
    "time 0ms\n"
    "\n";

static const char LX_V6[] =
    "PING fd00::2(fd00::2) 8952 data bytes\n"
    "8960 bytes from fd00::2: icmp_seq=1 ttl=64 time=0.065 ms\n"
    "\n"
    "--- fd00::2 ping statistics ---\n"
    "1 packets transmitted, 1 received, 0% packet loss, time 0ms\n"
    "rtt min/avg/max/mdev = 0.065/0.065/0.065/0.000 ms\n";

/* iputils' IPv6 form of the local error (seen here on lo). */
static const char LX_LOCAL6[] =
    "PING ::1(::1) 65527 data bytes\n"
    "\n"
    "--- ::1 ping statistics ---\n"
    "1 packets transmitted, 0 received, +1 errors, 100% packet loss, "
    "time 0ms\n"
    "\n"
    "ping: local error: message too long, mtu: 65536\n";

static const char LX_UNREACH[] = "ping: connect: Network is unreachable\n";

static const char FB_OK[] =
    "PING 198.18.1.2 (198.18.1.2): 8972 data bytes\n"
    "8980 bytes from 198.18.1.2: icmp_seq=0 ttl=64 time=0.123 ms\n"
    "\n"
    "--- 198.18.1.2 ping statistics ---\n"
    "1 packets transmitted, 1 packets received, 0.0% packet loss\n"
    "round-trip min/avg/max/stddev = 0.123/0.123/0.123/0.000 ms\n";

static const char FB_LOCAL[] =
    "PING 198.18.1.2 (198.18.1.2): 8972 data bytes\n"
    "\n"
    "--- 198.18.1.2 ping statistics ---\n"
    "10 packets transmitted, 0 packets received, 100.0% packet loss\n"
    "ping: sendto: Message too long\n";

static const char FB_FRAG[] =
    "PING 198.18.1.2 (198.18.1.2): 8972 data bytes\n"
    "36 bytes from 198.18.0.254: frag needed and DF set (MTU 1500)\n"
    "Vr HL TOS  Len   ID Flg  off TTL Pro  cks      Src      Dst\n"
    " 4  5  00 2344 1b2f   2 0000  40  01 5c1b 198.18.0.1  198.18.1.2\n"
    "\n"
    "--- 198.18.1.2 ping statistics ---\n"
    "1 packets transmitted, 0 packets received, 100.0% packet loss\n";

static void
test_linux(void **state)
{
	struct parse_ping p;

	(void)state;
	assert_int_equal(pp(LX_OK, &p), 0);
	assert_int_equal(p.size, 8972);
	assert_int_equal(p.transmitted, 1);
	assert_int_equal(p.received, 1);
	assert_int_equal(p.replies, 1);
	assert_int_equal(p.reply_bytes, 8980);
	assert_int_equal(p.errors, 0);
	assert_true(p.rtt_avg_ms > 0.06 && p.rtt_avg_ms < 0.062);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "198.18.1.2",
	    detail, sizeof(detail)), 1);

	assert_int_equal(pp(LX_LOSS, &p), 0);
	assert_int_equal(p.transmitted, 10);
	assert_int_equal(p.received, 0);
	assert_int_equal(p.replies, 0);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "198.18.1.2",
	    detail, sizeof(detail)), 0);
	assert_non_null(strstr(detail, "no reply to a DF ping of 8972 bytes"));
	assert_non_null(strstr(detail, "10 sent, 0 received"));

	assert_int_equal(pp(LX_LOCAL, &p), 0);
	assert_int_equal(p.size, 8972);
	assert_int_equal(p.errors, 1);
	assert_int_equal(p.local_too_long, 1);
	assert_int_equal(p.local_mtu, 1500);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "198.18.1.2",
	    detail, sizeof(detail)), 0);
	assert_non_null(strstr(detail, "message too long (route mtu 1500)"));

	assert_int_equal(pp(LX_FRAG, &p), 0);
	assert_int_equal(p.frag_needed, 1);
	assert_int_equal(p.frag_mtu, 1500);
	assert_int_equal(p.replies, 0);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "198.18.1.2",
	    detail, sizeof(detail)), 0);
	assert_non_null(strstr(detail, "needs fragmentation (mtu 1500)"));

	assert_int_equal(pp(LX_V6, &p), 0);
	assert_int_equal(p.size, 8952);
	assert_int_equal(p.reply_bytes, 8960);
	assert_int_equal(agent_preflight_ping_judge(&p, 8952, "fd00::2",
	    detail, sizeof(detail)), 1);

	assert_int_equal(pp(LX_LOCAL6, &p), 0);
	assert_int_equal(p.size, 65527);
	assert_int_equal(p.local_too_long, 1);
	assert_int_equal(p.local_mtu, 65536);

	/* No statistics: an error that keeps ping's own words. */
	assert_int_equal(pp(LX_UNREACH, &p), -1);
	assert_non_null(strstr(err, "Network is unreachable"));
}

static void
test_freebsd(void **state)
{
	struct parse_ping p;

	(void)state;
	assert_int_equal(pp(FB_OK, &p), 0);
	assert_int_equal(p.size, 8972);
	assert_int_equal(p.received, 1);
	assert_int_equal(p.replies, 1);
	assert_int_equal(p.reply_bytes, 8980);
	assert_true(p.rtt_max_ms > 0.12 && p.rtt_max_ms < 0.124);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "198.18.1.2",
	    detail, sizeof(detail)), 1);

	assert_int_equal(pp(FB_LOCAL, &p), 0);
	assert_int_equal(p.transmitted, 10);
	assert_int_equal(p.received, 0);
	assert_int_equal(p.local_too_long, 1);
	assert_int_equal(p.local_mtu, -1);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "198.18.1.2",
	    detail, sizeof(detail)), 0);
	assert_non_null(strstr(detail, "refused here: message too long"));

	/* The router's answer is "N bytes from", but no echo reply. */
	assert_int_equal(pp(FB_FRAG, &p), 0);
	assert_int_equal(p.replies, 0);
	assert_int_equal(p.frag_needed, 1);
	assert_int_equal(p.frag_mtu, 1500);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "198.18.1.2",
	    detail, sizeof(detail)), 0);
}

static void
test_bad(void **state)
{
	struct parse_ping p;
	char	 cut[sizeof(LX_OK)];

	(void)state;
	/* Cut before the statistics line: no verdict from half an output. */
	memcpy(cut, LX_OK, sizeof(LX_OK));
	*strstr(cut, "1 packets transmitted") = '\0';
	assert_int_equal(pp(cut, &p), -1);
	assert_non_null(strstr(err, "packets transmitted"));
	/* The statistics line without its final newline is cut off too. */
	assert_int_equal(pp("1 packets transmitted, 1 received", &p), -1);
	assert_int_equal(pp("x packets transmitted, 1 received\n", &p), -1);
	assert_non_null(strstr(err, "malformed"));
	assert_int_equal(pp("1 packets transmitted, 2 received\n", &p), -1);
	assert_int_equal(pp("1 packets transmitted, 1 received\n"
	    "rtt min/avg/max/mdev = a/b/c/d ms\n", &p), -1);
	assert_int_equal(pp("", &p), -1);
	/* A reply shorter than the DF payload is not a path at that MTU. */
	assert_int_equal(pp("PING a (a) 8972(9000) bytes of data.\n"
	    "1480 bytes from a: icmp_seq=1 ttl=64 time=0.1 ms\n"
	    "1 packets transmitted, 1 received, 0% packet loss, time 0ms\n",
	    &p), 0);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "a", detail,
	    sizeof(detail)), 0);
	assert_non_null(strstr(detail, "has 1480 bytes, not 8980"));
	/* A reply whose size cannot be read (a timestamp before it) is not
	 * a full-size one. */
	assert_int_equal(pp("PING a (a) 8972(9000) bytes of data.\n"
	    "[1764612345.123456] 8980 bytes from a: icmp_seq=1 ttl=64 "
	    "time=0.1 ms\n"
	    "1 packets transmitted, 1 received, 0% packet loss, time 0ms\n",
	    &p), 0);
	assert_int_equal(p.replies, 1);
	assert_int_equal(p.reply_bytes, 0);
	assert_int_equal(agent_preflight_ping_judge(&p, 8972, "a", detail,
	    sizeof(detail)), 0);
	assert_non_null(strstr(detail, "its size could not be read"));
}

static void
test_sizes_argv(void **state)
{
	struct plan p;
	char	 buf[512];

	(void)state;
	assert_int_equal(agent_preflight_ping_size(9000, 0), 8972);
	assert_int_equal(agent_preflight_ping_size(1500, 0), 1472);
	assert_int_equal(agent_preflight_ping_size(9000, 1), 8952);
	assert_int_equal(agent_preflight_ping_size(20, 0), -1);
	/* Loopback's 65536: the largest IPv4 echo; IPv6 still fits. */
	assert_int_equal(agent_preflight_ping_size(65536, 0), 65507);
	assert_int_equal(agent_preflight_ping_size(65536, 1), 65488);
	plan_init(&p);
	osdep_linux.ping("198.18.1.2", 0, 8972, &p);
	osdep_linux.ping("fd00::2", 1, 8952, &p);
	osdep_freebsd.ping("198.18.1.2", 0, 8972, &p);
	osdep_freebsd.ping("fd00::2", 1, 8952, &p);
	plan_format(&p, buf, sizeof(buf));
	assert_string_equal(buf,
	    "ping -n -c 1 -w 1 -i 0.1 -M do -s 8972 198.18.1.2\n"
	    "ping -6 -n -c 1 -w 1 -i 0.1 -M do -s 8952 fd00::2\n"
	    "ping -n -D -o -c 10 -i 0.1 -t 1 -s 8972 198.18.1.2\n"
	    "ping6 -n -m -o -c 10 -i 0.1 -s 8952 fd00::2\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linux),
		cmocka_unit_test(test_freebsd),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_sizes_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
