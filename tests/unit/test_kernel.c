/*
 * test_kernel: the kernel providers' exact command sequences against
 * goldens (freebsd-src with svn and git, build failure, fallback kernel;
 * command templates with quoting; the power-cycle path of a host that does
 * not come back; a host that never goes down), driven through a fake
 * struct kernel_io with a virtual clock, and the revision matching rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "kernel.h"
#include "util.h"

struct reply {
	const char	*prefix;	/* command prefix it answers */
	int		 status;
	const char	*out;
};

struct fake {
	const struct reply	*replies;
	struct buf		 log;	/* one line per event */
	int			 alive_left;	/* probes before down */
	int			 down_connects;	/* failing connects */
	int			 power_fixes;	/* up after power */
	int			 powered;
	int64_t			 now;
	const char		*gate;	/* io.reboot_gate */
	/* With up_at > 0, a host on a virtual clock instead: the old
	 * session answers until down_at, SSH refuses (1 ms) until up_at. */
	int64_t			 down_at, up_at;
	int64_t			 seen_down_at, connected_at;
	int			 probes, connects;
};

static int
f_exec(void *arg, const char *cmd, int timeout_ms, struct buf *out,
    int *status, char *err, size_t errlen)
{
	struct fake		*f = arg;
	const struct reply	*r;

	(void)timeout_ms;
	(void)err;
	(void)errlen;
	buf_printf(&f->log, "%s\n", cmd);
	for (r = f->replies; r->prefix != NULL; r++)
		if (strncmp(cmd, r->prefix, strlen(r->prefix)) == 0) {
			*status = r->status;
			buf_printf(out, "%s", r->out);
			return 0;
		}
	*status = 0;
	return 0;
}

static int
f_alive(void *arg, int timeout_ms)
{
	struct fake	*f = arg;

	(void)timeout_ms;
	f->now += 10;
	f->probes++;
	if (f->up_at > 0) {
		if (f->now < f->down_at)
			return 1;
		f->seen_down_at = f->now;
		return 0;
	}
	return f->alive_left-- > 0;
}

static int
f_connect(void *arg, int timeout_ms, char *err, size_t errlen)
{
	struct fake	*f = arg;

	f->connects++;
	if (f->up_at > 0 && f->now < f->up_at) {
		f->now += 1;
		snprintf(err, errlen, "connect: Connection refused");
		return -1;
	}
	if (f->up_at > 0)
		f->connected_at = f->now;
	if (f->down_connects < 0 || (f->down_connects > 0 &&
	    !(f->power_fixes && f->powered))) {
		if (f->down_connects > 0)
			f->down_connects--;
		f->now += timeout_ms;
		snprintf(err, errlen, "timed out");
		return -1;
	}
	buf_printf(&f->log, "CONNECT\n");
	return 0;
}

static int
f_power(void *arg, char *err, size_t errlen)
{
	struct fake	*f = arg;

	(void)err;
	(void)errlen;
	f->powered = 1;
	buf_printf(&f->log, "POWER\n");
	return 0;
}

static void
f_sleep(void *arg, int ms)
{
	((struct fake *)arg)->now += ms;
}

static int64_t
f_now(void *arg)
{
	return ((struct fake *)arg)->now;
}

static const char *inv_json =
"{\"hosts\":["
" {\"name\":\"em-a\",\"os\":\"freebsd\",\"address\":\"192.0.2.11\","
"  \"ssh\":{\"key\":\"/k\",\"known_hosts\":\"/kh\"},"
"  \"nics\":[{\"name\":\"em0\",\"driver\":\"em\",\"role\":\"test\"}],"
"  \"kernel\":{\"type\":\"freebsd-src\",\"src\":\"/usr/src\","
"   \"kernconf\":\"LABRAT\",\"jobs\":8,\"kodir\":\"labrat\"}},"
" {\"name\":\"sim-a\",\"os\":\"linux\",\"address\":\"198.18.0.11\","
"  \"ssh\":{\"key\":\"/k\",\"known_hosts\":\"/kh\"},"
"  \"nics\":[{\"name\":\"em0\",\"driver\":\"em\",\"role\":\"test\"}],"
"  \"kernel\":{\"type\":\"command\","
"   \"install\":[\"/opt/sim lab/host\",\"install\",\"{rev}\"],"
"   \"reboot\":[\"/opt/sim lab/host\",\"reboot\"],"
"   \"verify\":[\"/opt/sim lab/host\",\"revision\",\"--of\",\"{host}\"]},"
"  \"power\":{\"command\":[\"/bin/true\",\"{host}\"]}},"
" {\"name\":\"lin-a\",\"os\":\"linux\",\"address\":\"198.18.0.12\","
"  \"ssh\":{\"key\":\"/k\",\"known_hosts\":\"/kh\"},"
"  \"nics\":[{\"name\":\"em0\",\"driver\":\"em\",\"role\":\"test\"}],"
"  \"kernel\":{\"type\":\"linux\","
"   \"install\":[\"/usr/local/sbin/kinstall\",\"{rev}\"],"
"   \"reboot\":[\"sh\",\"-c\",\"grub-reboot labrat-{rev} && reboot\"]}}"
"],\"links\":[{\"name\":\"t\",\"nat\":null,"
" \"client\":{\"host\":\"sim-a\",\"if\":\"em0\",\"address\":\"198.18.1.1\"},"
" \"server\":{\"host\":\"lin-a\",\"if\":\"em0\",\"address\":\"198.18.1.2\"}}]}";

static struct config_inventory *inv;

static int
setup(void **state)
{
	struct config_errors	e;

	(void)state;
	config_errors_init(&e);
	inv = config_inventory_parse("/t/inv.json", inv_json,
	    strlen(inv_json), &e);
	if (inv == NULL)
		print_error("%s\n", e.n > 0 ? e.msgs[0] : "?");
	config_errors_free(&e);
	return inv == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	config_inventory_free(inv);
	return 0;
}

static int
run_fake(const char *host, const char *rev, struct fake *f,
    struct kernel_outcome *out, char *err, size_t errlen)
{
	struct kernel_io	io;
	struct kernel_opts	o;

	memset(&o, 0, sizeof o);
	o.boot_timeout_s = 30;
	o.down_timeout_s = 20;
	memset(&io, 0, sizeof io);
	io.arg = f;
	io.exec = f_exec;
	io.alive = f_alive;
	io.connect = f_connect;
	io.power = f_power;
	io.sleep_ms = f_sleep;
	io.now_ms = f_now;
	io.reboot_gate = f->gate;
	buf_init(&f->log, 1 << 20);
	return kernel_switch(config_inventory_host(inv, host), rev, &o, &io,
	    out, err, errlen);
}

static void
test_freebsd_svn(void **state)
{
	static const struct reply r[] = {
		{ "test -d", 1, "" },
		{ "sysctl -n kern.bootfile", 0, "/boot/labrat/kernel\n" },
		{ "uname -v", 0, "FreeBSD 8.1-PRERELEASE #0 r209169M: Tue Jun "
		    "15 root@em-a:/usr/obj/usr/src/sys/LABRAT\n" },
		{ NULL, 0, NULL }
	};
	struct fake		f = { .replies = r, .alive_left = 2 };
	struct kernel_outcome	out;
	char			err[512] = "";

	(void)state;
	assert_int_equal(run_fake("em-a", "r209169", &f, &out, err,
	    sizeof err), 0);
	assert_string_equal(f.log.data,
	    "test -d /usr/src/.git\n"
	    "svn update -q -r 209169 /usr/src\n"
	    "make -C /usr/src -j8 buildkernel KERNCONF=LABRAT "
	    ">/var/tmp/labrat-kernel.log 2>&1\n"
	    "make -C /usr/src installkernel KERNCONF=LABRAT "
	    "KODIR=/boot/labrat >>/var/tmp/labrat-kernel.log 2>&1\n"
	    "nextboot -k labrat\n"
	    "shutdown -r now\n"
	    "CONNECT\n"
	    "sysctl -n kern.bootfile\n"
	    "uname -v\n");
	assert_int_equal(out.result, KERNEL_OK);
	assert_int_equal(out.power_cycled, 0);
	buf_free(&f.log);
}

/* The host lease's renew gates the reboot: only its holder reboots. */
static void
test_reboot_gate(void **state)
{
	static const struct reply ok[] = {
		{ "test -d", 1, "" },
		{ "sysctl -n kern.bootfile", 0, "/boot/labrat/kernel\n" },
		{ "uname -v", 0, "FreeBSD 8.1-PRERELEASE #0 r209169\n" },
		{ NULL, 0, NULL }
	};
	static const struct reply refused[] = {
		{ "test -d", 1, "" },
		{ "'/a/labrat-agent' lease renew", 7, "leased by ctl2 pid 4711 "
		    "run 12 since 06:41, expires 06:58\n" },
		{ NULL, 0, NULL }
	};
	const char		*gate = "'/a/labrat-agent' lease renew --extend "
				    "840 --owner 'c:1:2:3'";
	struct fake		f = { .replies = ok, .alive_left = 2,
				    .gate = gate };
	struct kernel_outcome	out;
	char			err[512] = "";

	(void)state;
	assert_int_equal(run_fake("em-a", "r209169", &f, &out, err,
	    sizeof err), 0);
	assert_non_null(strstr(f.log.data, "nextboot -k labrat\n"
	    "'/a/labrat-agent' lease renew --extend 840 --owner 'c:1:2:3' && "
	    "shutdown -r now\nCONNECT\n"));
	assert_int_equal(out.result, KERNEL_OK);
	buf_free(&f.log);

	memset(&f, 0, sizeof f);
	f.replies = refused;
	f.alive_left = 2;
	f.gate = gate;
	assert_int_equal(run_fake("em-a", "r209169", &f, &out, err,
	    sizeof err), -1);
	print_message("gate refused: %s\n", err);
	assert_non_null(strstr(err, "em-a: reboot command failed (exit 7)"));
	assert_non_null(strstr(err, "leased by ctl2"));
	assert_null(strstr(f.log.data, "CONNECT"));
	buf_free(&f.log);
}

static void
test_freebsd_git_build_fails(void **state)
{
	static const struct reply r[] = {
		{ "test -d", 0, "" },
		{ "make -C /usr/src -j8 buildkernel", 2, "" },
		{ "tail -n 25", 0, "if_em.c:12: error: x\n*** Error code 1\n" },
		{ NULL, 0, NULL }
	};
	struct fake		f = { .replies = r, .alive_left = 2 };
	struct kernel_outcome	out;
	char			err[512] = "";

	(void)state;
	assert_int_equal(run_fake("em-a", "1e8a2a8c3b2c", &f, &out, err,
	    sizeof err), 0);
	assert_string_equal(f.log.data,
	    "test -d /usr/src/.git\n"
	    "git -C /usr/src checkout -q --detach 1e8a2a8c3b2c\n"
	    "make -C /usr/src -j8 buildkernel KERNCONF=LABRAT "
	    ">/var/tmp/labrat-kernel.log 2>&1\n"
	    "tail -n 25 /var/tmp/labrat-kernel.log\n");
	assert_int_equal(out.result, KERNEL_UNBUILDABLE);
	assert_non_null(strstr(out.detail, "*** Error code 1"));
	buf_free(&f.log);
}

static void
test_freebsd_fallback_kernel(void **state)
{
	static const struct reply r[] = {
		{ "test -d", 1, "" },
		{ "sysctl -n kern.bootfile", 0, "/boot/kernel/kernel\n" },
		{ "uname -v", 0, "FreeBSD 8.1-PRERELEASE #0 r200000\n" },
		{ NULL, 0, NULL }
	};
	struct fake		f = { .replies = r, .alive_left = 1 };
	struct kernel_outcome	out;
	char			err[512] = "";

	(void)state;
	assert_int_equal(run_fake("em-a", "r209169", &f, &out, err,
	    sizeof err), 0);
	assert_int_equal(out.result, KERNEL_UNBOOTABLE);
	assert_non_null(strstr(out.detail, "/boot/kernel/kernel"));
	buf_free(&f.log);
}

static void
test_command_power_cycle(void **state)
{
	static const struct reply r[] = {
		{ "'/opt/sim lab/host' revision", 0, "r200111\n" },
		{ NULL, 0, NULL }
	};
	struct fake		f = { .replies = r, .alive_left = 0,
				    .down_connects = 1000, .power_fixes = 1 };
	struct kernel_outcome	out;
	char			err[512] = "";

	(void)state;
	assert_int_equal(run_fake("sim-a", "r200117", &f, &out, err,
	    sizeof err), 0);
	assert_string_equal(f.log.data,
	    "'/opt/sim lab/host' install r200117\n"
	    "'/opt/sim lab/host' reboot\n"
	    "POWER\n"
	    "CONNECT\n"
	    "'/opt/sim lab/host' revision --of sim-a\n");
	assert_int_equal(out.result, KERNEL_UNBOOTABLE);
	assert_int_equal(out.power_cycled, 1);
	assert_string_equal(out.running, "r200111");
	buf_free(&f.log);
}

static void
test_command_ok_and_hostile(void **state)
{
	static const struct reply r[] = {
		{ "'/opt/sim lab/host' revision", 0, "r200140\nmore\n" },
		{ NULL, 0, NULL }
	};
	struct fake		f = { .replies = r, .alive_left = 3 };
	struct kernel_outcome	out;
	char			err[512] = "";

	(void)state;
	assert_int_equal(run_fake("sim-a", "r200140", &f, &out, err,
	    sizeof err), 0);
	assert_int_equal(out.result, KERNEL_OK);
	buf_free(&f.log);
	memset(&f, 0, sizeof f);
	f.replies = r;
	assert_int_equal(run_fake("sim-a", "r1;rm -rf /", &f, &out, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "not a revision id"));
	assert_int_equal(f.log.len, 0);
	buf_free(&f.log);
	memset(&f, 0, sizeof f);
	f.replies = r;
	assert_int_equal(run_fake("sim-a", "-rf", &f, &out, err,
	    sizeof err), -1);
	buf_free(&f.log);
}

static void
test_never_down_and_lost(void **state)
{
	static const struct reply r[] = { { NULL, 0, NULL } };
	struct fake		f = { .replies = r, .alive_left = 1 << 30 };
	struct kernel_outcome	out;
	char			err[512] = "";

	(void)state;
	assert_int_equal(run_fake("sim-a", "r200140", &f, &out, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "still up"));
	buf_free(&f.log);
	memset(&f, 0, sizeof f);
	f.replies = r;
	f.down_connects = -1;	/* never again, not even after power */
	assert_int_equal(run_fake("sim-a", "r200140", &f, &out, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "lost"));
	assert_int_equal(f.powered, 1);
	buf_free(&f.log);
}

/*
 * A reboot is noticed as it happens: the old system's end and the new
 * one's sshd within max(10 ms, 2 % of the time waited), and a long boot
 * is not hammered (a fixed 250 ms poll was up to 250 ms late each way).
 */
static void
test_reconnect_poll(void **state)
{
	static const struct reply r[] = {
		{ "'/opt/sim lab/host' revision", 0, "r200140\n" },
		{ NULL, 0, NULL }
	};
	static const struct {
		int64_t	down_at, up_at;
		int64_t	down_late, up_late;	/* at most */
		int	probes, connects;	/* at most */
	} c[] = {
		{ 300, 1800, 10 + 10, 36 + 1, 40, 120 },	/* the simulated lab */
		{ 5000, 25000, 100 + 10, 250 + 1, 180, 260 },	/* a real host */
		{ 0 + 1, 600, 10 + 10, 12 + 1, 2, 65 },	/* gone at once */
	};
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct fake		f = { .replies = r, .down_at =
					    c[i].down_at, .up_at = c[i].up_at };
		struct kernel_outcome	out;
		char			err[512] = "";

		assert_int_equal(run_fake("sim-a", "r200140", &f, &out, err,
		    sizeof err), 0);
		assert_int_equal(out.result, KERNEL_OK);
		assert_int_equal(out.power_cycled, 0);
		assert_true(f.seen_down_at >= c[i].down_at);
		assert_true(f.seen_down_at - c[i].down_at <= c[i].down_late);
		assert_true(f.connected_at >= c[i].up_at);
		assert_true(f.connected_at - c[i].up_at <= c[i].up_late);
		assert_true(f.probes <= c[i].probes);
		assert_true(f.connects <= c[i].connects);
		buf_free(&f.log);
	}
}

static void
test_linux_templates(void **state)
{
	static const struct reply r[] = {
		{ "uname -r", 0, "6.1.0-labrat-r200140\nLinux version "
		    "6.1.0-labrat (r200140) #1 SMP\n" },
		{ NULL, 0, NULL }
	};
	struct fake		f = { .replies = r, .alive_left = 1 };
	struct kernel_outcome	out;
	char			err[512] = "";

	(void)state;
	assert_int_equal(run_fake("lin-a", "r200140", &f, &out, err,
	    sizeof err), 0);
	assert_string_equal(f.log.data,
	    "/usr/local/sbin/kinstall r200140\n"
	    "sh -c 'grub-reboot labrat-r200140 && reboot'\n"
	    "CONNECT\n"
	    "uname -r; cat /proc/version\n");
	assert_int_equal(out.result, KERNEL_OK);
	buf_free(&f.log);
}

static void
test_names_rev(void **state)
{
	(void)state;
	assert_true(kernel_text_names_rev("FreeBSD 8.1 #0 r209169M: x",
	    "r209169"));
	assert_true(kernel_text_names_rev("FreeBSD 8.1 #0 r209169: x",
	    "209169"));
	assert_false(kernel_text_names_rev("FreeBSD #0 r2091690: x",
	    "r209169"));
	assert_false(kernel_text_names_rev("r20916", "r209169"));
	assert_true(kernel_text_names_rev("FreeBSD 14.0 #0 n265380-"
	    "1e8a2a8c3b2c: x", "1e8a2a8c3b2c4d5e6f70112233445566778899aa"));
	assert_false(kernel_text_names_rev("n265380-1e8a2a", "1e8a2a8c3b2c"));
	assert_false(kernel_text_names_rev("", "r1"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_freebsd_svn),
		cmocka_unit_test(test_reboot_gate),
		cmocka_unit_test(test_freebsd_git_build_fails),
		cmocka_unit_test(test_freebsd_fallback_kernel),
		cmocka_unit_test(test_command_power_cycle),
		cmocka_unit_test(test_command_ok_and_hostile),
		cmocka_unit_test(test_never_down_and_lost),
		cmocka_unit_test(test_reconnect_poll),
		cmocka_unit_test(test_linux_templates),
		cmocka_unit_test(test_names_rev),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
