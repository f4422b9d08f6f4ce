/*
 * test_agent_validate.c: every controller-supplied argument pattern, with
 * good values and hostile ones (shell metacharacters, option injection,
 * overlong, wrong family), and the option parser's refusals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "validate.h"

struct vcase {
	enum validate_kind kind;
	const char *val;
	int	    ok;
};

static const struct vcase cases[] = {
	{ VALIDATE_IFNAME, "em0", 1 },
	{ VALIDATE_IFNAME, "bce1", 1 },
	{ VALIDATE_IFNAME, "vlan0.5", 1 },
	{ VALIDATE_IFNAME, "enp0s31f6", 1 },
	{ VALIDATE_IFNAME, "lr1234_em-b0", 1 },
	{ VALIDATE_IFNAME, "em0; rm -rf /", 0 },
	{ VALIDATE_IFNAME, "-tso", 0 },
	{ VALIDATE_IFNAME, "em0 mtu 9000", 0 },
	{ VALIDATE_IFNAME, "../../etc", 0 },
	{ VALIDATE_IFNAME, "em0/x", 0 },
	{ VALIDATE_IFNAME, "0em", 0 },
	{ VALIDATE_IFNAME, "", 0 },
	{ VALIDATE_IFNAME, "abcdefghijklmnop", 0 },	/* 16 chars */
	{ VALIDATE_IFNAME, "em0$(reboot)", 0 },
	{ VALIDATE_IFNAME, "em0\n", 0 },
	{ VALIDATE_IPV4, "198.18.0.1", 1 },
	{ VALIDATE_IPV4, "0.0.0.0", 1 },
	{ VALIDATE_IPV4, "255.255.255.255", 1 },
	{ VALIDATE_IPV4, "256.1.1.1", 0 },
	{ VALIDATE_IPV4, "198.18.0", 0 },
	{ VALIDATE_IPV4, "198.18.0.1.5", 0 },
	{ VALIDATE_IPV4, "010.1.1.1", 0 },		/* octal ambiguity */
	{ VALIDATE_IPV4, "198.18.0.1 ", 0 },
	{ VALIDATE_IPV4, "-c", 0 },
	{ VALIDATE_IPV4, "1.2.3.4;id", 0 },
	{ VALIDATE_IPV4, "::1", 0 },
	{ VALIDATE_IPV6, "::1", 1 },
	{ VALIDATE_IPV6, "2001:db8::2", 1 },
	{ VALIDATE_IPV6, "::ffff:198.18.0.1", 1 },
	{ VALIDATE_IPV6, "fe80::1%em0", 0 },
	{ VALIDATE_IPV6, "[::1]", 0 },
	{ VALIDATE_IPV6, "2001:db8:::2", 0 },
	{ VALIDATE_IPV6, "198.18.0.1", 0 },
	{ VALIDATE_ADDR, "198.18.1.2", 1 },
	{ VALIDATE_ADDR, "2001:db8::1", 1 },
	{ VALIDATE_ADDR, "example.com", 0 },
	{ VALIDATE_ADDR, "--help", 0 },
	{ VALIDATE_SIZE, "512k", 1 },
	{ VALIDATE_SIZE, "1M", 1 },
	{ VALIDATE_SIZE, "1474560", 1 },
	{ VALIDATE_SIZE, "2g", 1 },
	{ VALIDATE_SIZE, "0", 0 },
	{ VALIDATE_SIZE, "-1", 0 },
	{ VALIDATE_SIZE, "1.5M", 0 },
	{ VALIDATE_SIZE, "k", 0 },
	{ VALIDATE_SIZE, "512kk", 0 },
	{ VALIDATE_SIZE, "512 k", 0 },
	{ VALIDATE_SIZE, "1T", 0 },
	{ VALIDATE_SIZE, "99999999999999", 0 },
	{ VALIDATE_SIZE, "100g", 0 },			/* > 64 GiB */
	{ VALIDATE_SECONDS, "30", 1 },
	{ VALIDATE_SECONDS, "30s", 1 },
	{ VALIDATE_SECONDS, "86400", 1 },
	{ VALIDATE_SECONDS, "0", 0 },
	{ VALIDATE_SECONDS, "86401", 0 },
	{ VALIDATE_SECONDS, "1m", 0 },
	{ VALIDATE_SECONDS, "-5", 0 },
	{ VALIDATE_SECONDS, "5;", 0 },
	{ VALIDATE_ONOFF, "on", 1 },
	{ VALIDATE_ONOFF, "off", 1 },
	{ VALIDATE_ONOFF, "ON", 0 },
	{ VALIDATE_ONOFF, "1", 0 },
	{ VALIDATE_ONOFF, "yes", 0 },
	{ VALIDATE_TOOL, "iperf2", 1 },
	{ VALIDATE_TOOL, "iperf3", 1 },
	{ VALIDATE_TOOL, "iperf", 0 },
	{ VALIDATE_TOOL, "/bin/sh", 0 },
	{ VALIDATE_NAT, "off", 1 },
	{ VALIDATE_NAT, "divert", 1 },
	{ VALIDATE_NAT, "kernel", 1 },
	{ VALIDATE_NAT, "pf", 0 },
	{ VALIDATE_TAG, "run42-em", 1 },
	{ VALIDATE_TAG, "a_b", 1 },
	{ VALIDATE_TAG, "-x", 0 },
	{ VALIDATE_TAG, "a b", 0 },
	{ VALIDATE_TAG, "../x", 0 },
	{ VALIDATE_TAG, "abcdefghijabcdefghijabcdefghijabc", 0 },	/* 33 */
	{ VALIDATE_PUBKEY, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKg7", 1 },
	{ VALIDATE_PUBKEY, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKg7 "
	    "root@em-a", 1 },
	{ VALIDATE_PUBKEY, "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHA=",
	    1 },
	{ VALIDATE_PUBKEY, "ssh-ed25519", 0 },
	{ VALIDATE_PUBKEY, "ssh-ed25519 AAAA", 0 },
	{ VALIDATE_PUBKEY, "evil AAAAC3NzaC1lZDI1NTE5AAAAIKg7", 0 },
	{ VALIDATE_PUBKEY, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKg7\n"
	    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQAB attacker", 0 },
	{ VALIDATE_PUBKEY, "command=\"sh\" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5", 0 },
	{ VALIDATE_PUBKEY, "ssh-ed25519 AAAAC3Nza$C1lZDI1NTE5AAAAIKg7", 0 },
	{ VALIDATE_USERADDR, "root@198.18.1.2", 1 },
	{ VALIDATE_USERADDR, "labrat@2001:db8::2", 1 },
	{ VALIDATE_USERADDR, "_lab.user-1@198.18.0.1", 1 },
	{ VALIDATE_USERADDR, "root@host.example", 0 },
	{ VALIDATE_USERADDR, "198.18.1.2", 0 },
	{ VALIDATE_USERADDR, "-oProxyCommand=sh@198.18.1.2", 0 },
	{ VALIDATE_USERADDR, "root@198.18.1.2:/etc", 0 },
	{ VALIDATE_USERADDR, "ro ot@198.18.1.2", 0 },
	{ VALIDATE_USERADDR, "@198.18.1.2", 0 },
	{ VALIDATE_MTU, "1500", 1 },
	{ VALIDATE_MTU, "9000", 1 },
	{ VALIDATE_MTU, "67", 0 },
	{ VALIDATE_MTU, "65536", 0 },
	{ VALIDATE_MTU, "9000;", 0 },
	{ VALIDATE_MTU, "09000", 0 },
	{ VALIDATE_PORT, "5201", 1 },
	{ VALIDATE_PORT, "0", 0 },
	{ VALIDATE_PORT, "65536", 0 },
	{ VALIDATE_PARALLEL, "8", 1 },
	{ VALIDATE_PARALLEL, "129", 0 },
	{ VALIDATE_PATH, "/var/lib/labrat/keys/run42", 1 },
	{ VALIDATE_PATH, "relative/key", 0 },
	{ VALIDATE_PATH, "/var/lib/../../etc/shadow", 0 },
	{ VALIDATE_PATH, "/tmp/-oProxyCommand", 0 },
	{ VALIDATE_PATH, "/tmp/a b", 0 },
	{ VALIDATE_PATH, "/tmp/$(id)", 0 },
	{ VALIDATE_PROC, "natd", 1 },
	{ VALIDATE_PROC, "iperf3", 1 },
	{ VALIDATE_PROC, "-x", 0 },
	{ VALIDATE_PROC, "na td", 0 },
	{ VALIDATE_PROC, "a/b", 0 },
};

static void
test_table(void **state)
{
	char	 err[256];
	size_t	 i;
	int	 rc;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		rc = validate_value(cases[i].kind, "--arg", cases[i].val, err,
		    sizeof(err));
		if ((rc == 0) != cases[i].ok) {
			print_error("case %zu \"%s\": got %d (%s)\n", i,
			    cases[i].val, rc, err);
			fail();
		}
		if (!cases[i].ok) {
			/* The message names the argument and says why. */
			assert_true(strncmp(err, "--arg: \"", 8) == 0);
			assert_true(strlen(err) > 12);
			/* Hostile bytes never reach the message raw. */
			assert_null(strchr(err, '\n'));
		}
	}
}

static void
test_sizes(void **state)
{
	(void)state;
	assert_true(validate_size_bytes("512k") == 524288ULL);
	assert_true(validate_size_bytes("1M") == 1048576ULL);
	assert_true(validate_size_bytes("1474560") == 1474560ULL);
	assert_true(validate_size_bytes("2g") == 2147483648ULL);
	assert_int_equal(validate_number("30s"), 30);
}

static void
test_message(void **state)
{
	char	 err[256];

	(void)state;
	assert_int_equal(validate_value(VALIDATE_IFNAME, "--if",
	    "em0; rm -rf /", err, sizeof(err)), -1);
	assert_string_equal(err, "--if: \"em0; rm -rf /\" may only hold "
	    "letters, digits, '_', '.', '-'");
	assert_int_equal(validate_value(VALIDATE_MTU, "--mtu", "99999", err,
	    sizeof(err)), -1);
	assert_string_equal(err, "--mtu: \"99999\" is out of range");
}

static void
test_args(void **state)
{
	struct validate_opt opts[] = {
		{ "--if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ "--nodelay", VALIDATE_FLAG, 0, 0, NULL, { NULL } },
		{ "--watch", VALIDATE_PROC, 1, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	char	*good[] = { "cmd", "--if", "em0", "--nodelay", "--watch",
	    "natd", "--watch", "iperf", NULL };
	char	*unknown[] = { "cmd", "--if", "em0", "--evil", NULL };
	char	*missing[] = { "cmd", "--if", NULL };
	char	*dup[] = { "cmd", "--if", "em0", "--if", "em1", NULL };
	char	*bad[] = { "cmd", "--if", "em0;reboot", NULL };
	char	*positional[] = { "cmd", "em0", NULL };
	char	 err[256];

	(void)state;
	assert_int_equal(validate_args(opts, 8, good, err, sizeof(err)), 0);
	assert_string_equal(opts[0].val, "em0");
	assert_int_equal(opts[1].seen, 1);
	assert_int_equal(opts[2].seen, 2);
	assert_string_equal(opts[2].vals[1], "iperf");
	assert_int_equal(validate_args(opts, 4, unknown, err, sizeof(err)), -1);
	assert_string_equal(err, "cmd: unknown option \"--evil\"");
	assert_int_equal(validate_args(opts, 2, missing, err, sizeof(err)), -1);
	assert_string_equal(err, "--if: missing value");
	assert_int_equal(validate_args(opts, 5, dup, err, sizeof(err)), -1);
	assert_string_equal(err, "--if: given too often");
	assert_int_equal(validate_args(opts, 3, bad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--if: \"em0;reboot\""));
	assert_int_equal(validate_args(opts, 2, positional, err, sizeof(err)),
	    -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
