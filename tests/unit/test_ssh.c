/*
 * test_ssh: the SSH transport against a real sshd (tests/unit/sshd_fixture.h):
 * exit status and output, deadlines, output ceilings, host-key refusal with
 * the fingerprint, RSA keys, connect timeout to a black hole, sshd killed
 * mid-command, reconnect after an sshd restart, SFTP upload, quoting.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sshd_fixture.h"

#include "ssh.h"
#include "util.h"

static struct sshd_fixture fx;

/*
 * libssh2 1.10 leaks two BIGNUMs per authentication with an ECDSA key
 * (BN_new inside libssh2_userauth_publickey_fromfile_ex, not ours; the
 * fast unwinder only sees CRYPTO_zalloc).  A leaked session would still
 * show: libssh2 allocates its own structures with plain malloc.
 * LeakSanitizer reads this hook in the ASan build.
 */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:CRYPTO_zalloc\n";
}

static int
group_setup(void **state)
{
	(void)state;
	if (fx_setup(&fx) != 0) {
		fx_teardown(&fx);
		return -1;
	}
	ssh_global_init();
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	fx_teardown(&fx);
	ssh_global_cleanup();
	return 0;
}

static void
target(struct ssh_target *t, const char *key, const char *kh)
{
	memset(t, 0, sizeof *t);
	t->name = "test-host";
	t->address = "127.0.0.1";
	t->port = fx.port;
	t->key = key;
	t->known_hosts = kh;
	t->connect_timeout_ms = 3000;
}

static struct ssh_conn *
conn(void)
{
	struct ssh_target	 t;
	struct ssh_conn		*c;
	char			 err[512];

	target(&t, fx.key, fx.known_hosts);
	c = ssh_open(&t, err, sizeof err);
	if (c == NULL)
		fail_msg("ssh_open: %s", err);
	return c;
}

/* Runs cmd with 64 KiB ceilings; returns the ssh status. */
static int
run(struct ssh_conn *c, const char *cmd, int ms, struct buf *out,
    struct buf *eb, struct ssh_result *res, char *err, size_t errlen)
{
	buf_init(out, 65536);
	buf_init(eb, 65536);
	return ssh_exec(c, cmd, ms, out, eb, res, err, errlen);
}

static void
test_exec_status(void **state)
{
	struct ssh_conn		*c = conn();
	struct ssh_result	 res;
	struct buf		 out, eb;
	char			 err[512];
	int64_t			 t0;
	int			 i;

	(void)state;
	assert_int_equal(run(c, "echo hello; echo oops >&2; exit 3", 5000,
	    &out, &eb, &res, err, sizeof err), SSH_OK);
	assert_int_equal(res.exit_status, 3);
	assert_string_equal(out.data, "hello\n");
	assert_string_equal(eb.data, "oops\n");
	buf_free(&out);
	buf_free(&eb);
	/* The session is reused: many commands, one connection. */
	t0 = util_now_ms();
	for (i = 0; i < 20; i++) {
		assert_int_equal(run(c, "true", 5000, &out, &eb, &res, err,
		    sizeof err), SSH_OK);
		assert_int_equal(res.exit_status, 0);
		buf_free(&out);
		buf_free(&eb);
	}
	print_message("exec round trip: %.1f ms per command\n",
	    (double)(util_now_ms() - t0) / 20);
	assert_int_equal(run(c, "kill -9 $$", 5000, &out, &eb, &res, err,
	    sizeof err), SSH_OK);
	assert_int_equal(res.exit_status, -1);
	assert_string_equal(res.exit_signal, "KILL");
	buf_free(&out);
	buf_free(&eb);
	assert_int_equal(ssh_reconnects(c), 0);
	assert_string_equal(ssh_fingerprint(c), fx.fingerprint);
	ssh_close(c);
}

static void
test_deadline(void **state)
{
	struct ssh_conn		*c = conn();
	struct ssh_result	 res;
	struct buf		 out, eb;
	char			 err[512];
	int64_t			 t0, dt;

	(void)state;
	t0 = util_now_ms();
	assert_int_equal(run(c, "sleep 30", 1000, &out, &eb, &res, err,
	    sizeof err), SSH_ETIMEOUT);
	dt = util_now_ms() - t0;
	print_message("sleep 30 with a 1 s deadline returned after %lld ms: "
	    "%s\n", (long long)dt, err);
	assert_true(dt >= 1000 && dt < 1500);
	assert_non_null(strstr(err, "timed out"));
	buf_free(&out);
	buf_free(&eb);
	/* The next command reconnects transparently. */
	assert_int_equal(run(c, "echo again", 5000, &out, &eb, &res, err,
	    sizeof err), SSH_OK);
	assert_string_equal(out.data, "again\n");
	assert_int_equal(ssh_reconnects(c), 1);
	buf_free(&out);
	buf_free(&eb);
	ssh_close(c);
}

/* ssh_kept_call()'s done(): a complete line. */
static int
one_line(const struct buf *in, void *arg)
{
	(void)arg;
	return memchr(in->data, '\n', in->len) != NULL ? 1 : 0;
}

/*
 * A kept command: `cat` echoes each request, on the same channel, while
 * other commands run beside it; one that says nothing in time costs the
 * deadline and the session (the next command reconnects); one that ended
 * is no longer live.
 */
static void
test_kept(void **state)
{
	struct ssh_conn		*c = conn();
	struct ssh_result	 res;
	struct buf		 in, out, eb;
	char			 err[512];
	int64_t			 t0, dt;
	int			 i;

	(void)state;
	assert_int_equal(ssh_kept_live(c), 0);
	assert_int_equal(ssh_kept_start(c, "cat", 5000, err, sizeof err),
	    SSH_OK);
	for (i = 0; i < 3; i++) {
		assert_true(ssh_kept_live(c));
		buf_init(&in, 1024);
		assert_int_equal(ssh_kept_call(c, "ping\n", 5, 5000, &in,
		    one_line, NULL, err, sizeof err), SSH_OK);
		assert_string_equal(in.data, "ping\n");
		buf_free(&in);
		assert_int_equal(run(c, "echo beside", 5000, &out, &eb, &res,
		    err, sizeof err), SSH_OK);
		assert_string_equal(out.data, "beside\n");
		buf_free(&out);
		buf_free(&eb);
	}
	/* An answer past the ceiling stops it. */
	buf_init(&in, 4);
	assert_int_equal(ssh_kept_call(c, "0123456789\n", 11, 5000, &in,
	    one_line, NULL, err, sizeof err), SSH_EOUTPUT);
	buf_free(&in);
	assert_false(ssh_kept_live(c));

	assert_int_equal(ssh_kept_start(c, "sleep 30", 5000, err, sizeof err),
	    SSH_OK);
	buf_init(&in, 1024);
	t0 = util_now_ms();
	assert_int_equal(ssh_kept_call(c, "x\n", 2, 1000, &in, one_line,
	    NULL, err, sizeof err), SSH_ETIMEOUT);
	dt = util_now_ms() - t0;
	buf_free(&in);
	print_message("kept sleep with a 1 s deadline: %lld ms: %s\n",
	    (long long)dt, err);
	assert_true(dt >= 1000 && dt < 1500);
	assert_false(ssh_kept_live(c));
	assert_int_equal(run(c, "echo again", 5000, &out, &eb, &res, err,
	    sizeof err), SSH_OK);
	assert_string_equal(out.data, "again\n");
	buf_free(&out);
	buf_free(&eb);

	/* It ends by itself: not live once its end is in. */
	assert_int_equal(ssh_kept_start(c, "true", 5000, err, sizeof err),
	    SSH_OK);
	for (i = 0; i < 50 && ssh_kept_live(c); i++)
		usleep(20 * 1000);
	assert_false(ssh_kept_live(c));
	buf_init(&in, 1024);
	assert_int_equal(ssh_kept_call(c, "x\n", 2, 1000, &in, one_line,
	    NULL, err, sizeof err), SSH_EFAIL);
	buf_free(&in);
	ssh_close(c);
}

static void
test_output_cap(void **state)
{
	struct ssh_conn		*c = conn();
	struct ssh_result	 res;
	struct buf		 out, eb;
	char			 err[512];
	int64_t			 t0, dt;

	(void)state;
	t0 = util_now_ms();
	assert_int_equal(run(c, "head -c 10485760 /dev/zero", 10000, &out,
	    &eb, &res, err, sizeof err), SSH_EOUTPUT);
	dt = util_now_ms() - t0;
	print_message("10 MiB into a 64 KiB ceiling stopped after %lld ms: "
	    "%s\n", (long long)dt, err);
	assert_int_equal(out.len, 65536);
	assert_true(out.truncated);
	assert_non_null(strstr(err, "exceeds 65536 bytes"));
	buf_free(&out);
	buf_free(&eb);
	/* stderr past its ceiling is dropped, the command still completes. */
	assert_int_equal(run(c, "head -c 1048576 /dev/zero >&2; echo done",
	    10000, &out, &eb, &res, err, sizeof err), SSH_OK);
	assert_string_equal(out.data, "done\n");
	assert_int_equal(eb.len, 65536);
	assert_true(res.err_truncated);
	assert_int_equal(res.exit_status, 0);
	buf_free(&out);
	buf_free(&eb);
	ssh_close(c);
}

static void
test_hostkey_refused(void **state)
{
	struct ssh_target	 t;
	char			 err[1024];

	(void)state;
	target(&t, fx.key, fx.kh_unknown);
	assert_null(ssh_open(&t, err, sizeof err));
	print_message("unknown: %s\n", err);
	assert_non_null(strstr(err, "test-host"));
	assert_non_null(strstr(err, "unknown host"));
	assert_non_null(strstr(err, fx.fingerprint));

	target(&t, fx.key, fx.kh_wrong);
	assert_null(ssh_open(&t, err, sizeof err));
	print_message("wrong: %s\n", err);
	assert_non_null(strstr(err, "MISMATCH"));
	assert_non_null(strstr(err, fx.fingerprint));

	target(&t, fx.key, "/nonexistent/known_hosts");
	assert_null(ssh_open(&t, err, sizeof err));
	assert_non_null(strstr(err, "/nonexistent/known_hosts"));
}

static void
test_rsa_key(void **state)
{
	struct ssh_target	 t;
	char			 err[1024];

	(void)state;
	target(&t, fx.rsakey, fx.known_hosts);
	assert_null(ssh_open(&t, err, sizeof err));
	print_message("rsa: %s\n", err);
	assert_non_null(strstr(err, "RSA"));
	assert_non_null(strstr(err, "ed25519"));
	assert_non_null(strstr(err, "libssh2 1.10"));
}

/*
 * The server offers ed25519 and ECDSA host keys; a known_hosts holding only
 * the ECDSA one must still verify (the method asked for is the one
 * known_hosts holds), and an ECDSA client key authenticates.
 */
static void
test_ecdsa(void **state)
{
	struct ssh_target	 t;
	struct ssh_conn		*c;
	struct ssh_result	 res;
	struct buf		 out, eb;
	char			 err[1024];

	(void)state;
	target(&t, fx.eckey, fx.kh_ecdsa);
	if ((c = ssh_open(&t, err, sizeof err)) == NULL)
		fail_msg("ecdsa: %s", err);
	assert_string_equal(ssh_fingerprint(c), fx.fp_ecdsa);
	assert_int_equal(run(c, "echo ec", 5000, &out, &eb, &res, err,
	    sizeof err), SSH_OK);
	assert_string_equal(out.data, "ec\n");
	buf_free(&out);
	buf_free(&eb);
	ssh_close(c);
}

static void
test_connect_timeout(void **state)
{
	struct ssh_target	 t;
	char			 ifname[16], ns[32], addr[32], err[512];
	int64_t			 t0, dt;
	int			 a, b;

	(void)state;
	if (geteuid() != 0 || system("command -v ip >/dev/null") != 0)
		skip();
	/*
	 * A veth pair whose far end sits, up but without an address, in a
	 * namespace of its own: SYNs to the /30 peer go out and nothing
	 * answers (not even ARP).
	 */
	a = 200 + rand() % 8;
	b = (rand() % 64) * 4;
	snprintf(ifname, sizeof ifname, "lr%da", (int)getpid() % 100000);
	snprintf(ns, sizeof ns, "lr%dbh", (int)getpid() % 100000);
	snprintf(addr, sizeof addr, "198.18.%d.%d", a, b + 2);
	if (fx_sh("ip netns add %s && ip link add %s type veth peer name "
	    "%.*sb netns %s && ip -n %s link set %.*sb up && "
	    "ip addr add 198.18.%d.%d/30 dev %s && ip link set %s up",
	    ns, ifname, (int)strlen(ifname) - 1, ifname, ns, ns,
	    (int)strlen(ifname) - 1, ifname, a, b + 1, ifname, ifname) != 0) {
		fx_sh("ip link del %s 2>/dev/null; ip netns del %s 2>/dev/null",
		    ifname, ns);
		fail_msg("cannot create veth %s / netns %s", ifname, ns);
	}
	target(&t, fx.key, fx.known_hosts);
	t.address = addr;
	t.port = 22;
	t.connect_timeout_ms = 700;
	t0 = util_now_ms();
	assert_null(ssh_open(&t, err, sizeof err));
	dt = util_now_ms() - t0;
	fx_sh("ip link del %s; ip netns del %s", ifname, ns);
	print_message("black hole: %lld ms: %s\n", (long long)dt, err);
	assert_true(dt >= 650 && dt < 1200);
	assert_non_null(strstr(err, "timed out"));
	assert_non_null(strstr(err, addr));
}


static void
test_sshd_killed_and_restarted(void **state)
{
	struct ssh_conn		*c = conn();
	struct ssh_result	 res;
	struct buf		 out, eb;
	char			 err[512];
	int64_t			 t0, dt;
	pid_t			 k;

	(void)state;
	k = fork();
	if (k == 0) {
		usleep(300000);
		fx_kill_tree(fx.pid);
		_exit(0);
	}
	t0 = util_now_ms();
	assert_int_equal(run(c, "sleep 5", 10000, &out, &eb, &res, err,
	    sizeof err), SSH_EDROPPED);
	dt = util_now_ms() - t0;
	waitpid(k, NULL, 0);
	waitpid(fx.pid, NULL, 0);
	fx.pid = -1;
	print_message("sshd killed mid-exec: %lld ms: %s\n", (long long)dt,
	    err);
	assert_true(dt < 2000);
	buf_free(&out);
	buf_free(&eb);

	/* sshd is gone: the next command fails fast, naming the cause. */
	t0 = util_now_ms();
	assert_int_equal(run(c, "true", 5000, &out, &eb, &res, err,
	    sizeof err), SSH_ECONNECT);
	assert_non_null(strstr(err, "refused"));
	assert_true(util_now_ms() - t0 < 1000);
	buf_free(&out);
	buf_free(&eb);

	/* After a restart the same connection object works again. */
	assert_int_equal(fx_sshd_start(&fx), 0);
	assert_int_equal(run(c, "echo back", 5000, &out, &eb, &res, err,
	    sizeof err), SSH_OK);
	assert_string_equal(out.data, "back\n");
	assert_int_equal(ssh_reconnects(c), 1);
	buf_free(&out);
	buf_free(&eb);

	/* Killed while idle: detected at the next command, reconnected. */
	fx_sshd_kill(&fx);
	assert_int_equal(fx_sshd_start(&fx), 0);
	assert_int_equal(run(c, "echo idle", 5000, &out, &eb, &res, err,
	    sizeof err), SSH_OK);
	assert_string_equal(out.data, "idle\n");
	assert_int_equal(ssh_reconnects(c), 2);
	buf_free(&out);
	buf_free(&eb);
	ssh_close(c);
}

/*
 * A host that hangs (its sshd stopped, TCP still up): the keepalives get no
 * answer and the session is declared dead after three intervals, well
 * before the command's own deadline.
 */
static void
test_hung_host(void **state)
{
	struct ssh_target	 t;
	struct ssh_conn		*c;
	struct ssh_result	 res;
	struct buf		 out, eb;
	char			 err[512];
	int64_t			 t0, dt;
	pid_t			 k;

	(void)state;
	target(&t, fx.key, fx.known_hosts);
	t.keepalive_s = 1;
	if ((c = ssh_open(&t, err, sizeof err)) == NULL)
		fail_msg("ssh_open: %s", err);
	k = fork();
	if (k == 0) {
		usleep(300000);
		fx_signal_children(fx.pid, SIGSTOP);
		_exit(0);
	}
	t0 = util_now_ms();
	assert_int_equal(run(c, "sleep 20", 15000, &out, &eb, &res, err,
	    sizeof err), SSH_EDROPPED);
	dt = util_now_ms() - t0;
	waitpid(k, NULL, 0);
	fx_signal_children(fx.pid, SIGKILL);
	fx_signal_children(fx.pid, SIGCONT);
	print_message("hung host detected after %lld ms: %s\n",
	    (long long)dt, err);
	assert_true(dt >= 3000 && dt < 5500);
	assert_non_null(strstr(err, "no answer to keepalives"));
	buf_free(&out);
	buf_free(&eb);
	/* The listener was not stopped: the next command reconnects. */
	assert_int_equal(ssh_check(c, 5000, err, sizeof err), SSH_OK);
	assert_int_equal(ssh_reconnects(c), 1);
	ssh_close(c);
}

static void
test_upload(void **state)
{
	struct ssh_conn		*c = conn();
	struct ssh_file		 f[2];
	char			 p1[400], p2[400], err[512], *big, *got;
	size_t			 i, n = 300000, len;

	(void)state;
	big = malloc(n);
	for (i = 0; i < n; i++)
		big[i] = (char)(i * 7 + i / 251);
	snprintf(p1, sizeof p1, "%s/up-small.txt", fx.dir);
	snprintf(p2, sizeof p2, "%s/up-big.bin", fx.dir);
	f[0] = (struct ssh_file){ p1, "hello, host\n", 12, 0600 };
	f[1] = (struct ssh_file){ p2, big, n, 0755 };
	assert_int_equal(ssh_upload(c, f, 2, 5000, err, sizeof err), SSH_OK);
	got = util_read_file(p1, 1000, &len, err, sizeof err);
	assert_non_null(got);
	assert_string_equal(got, "hello, host\n");
	free(got);
	got = util_read_file(p2, n + 1, &len, err, sizeof err);
	assert_non_null(got);
	assert_int_equal(len, n);
	assert_memory_equal(got, big, n);
	free(got);
	free(big);

	/* A bad path is an error naming it; the session stays usable. */
	f[0].path = "/nonexistent-dir/x";
	assert_int_equal(ssh_upload(c, f, 1, 5000, err, sizeof err),
	    SSH_EFAIL);
	assert_non_null(strstr(err, "/nonexistent-dir/x"));
	assert_int_equal(ssh_check(c, 1000, err, sizeof err), SSH_OK);
	assert_int_equal(ssh_reconnects(c), 0);
	ssh_close(c);
}

/* argv joined as util_shell_quote() words, as agentctl builds commands. */
static char *
quote_argv(const char *const *argv)
{
	struct buf	b;
	size_t		i;

	buf_init(&b, 1024 * 1024);
	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			buf_append(&b, " ", 1);
		util_shell_quote(&b, argv[i]);
	}
	return buf_release(&b);
}

static void
test_quote(void **state)
{
	static const char *argv[] = { "printf", "%s|", "a b", "it's",
	    "$HOME `id`", "", "x\"y\\z", NULL };
	struct ssh_conn		*c = conn();
	struct ssh_result	 res;
	struct buf		 out, eb;
	char			 err[512], *cmd;

	(void)state;
	cmd = quote_argv(argv);
	assert_string_equal(cmd, "'printf' '%s|' 'a b' 'it'\\''s' "
	    "'$HOME `id`' '' 'x\"y\\z'");
	assert_int_equal(run(c, cmd, 5000, &out, &eb, &res, err, sizeof err),
	    SSH_OK);
	assert_string_equal(out.data, "a b|it's|$HOME `id`||x\"y\\z|");
	free(cmd);
	buf_free(&out);
	buf_free(&eb);
	ssh_close(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec_status),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_output_cap),
		cmocka_unit_test(test_hostkey_refused),
		cmocka_unit_test(test_rsa_key),
		cmocka_unit_test(test_ecdsa),
		cmocka_unit_test(test_connect_timeout),
		cmocka_unit_test(test_upload),
		cmocka_unit_test(test_hung_host),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_sshd_killed_and_restarted),
	};

	if (access("/usr/sbin/sshd", X_OK) != 0) {
		fprintf(stderr, "test_ssh: no /usr/sbin/sshd\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
