/*
 * test_host: an inventory host to a connected, verified, agent-deployed
 * host, against a real sshd (tests/unit/sshd_fixture.h): open, facts and
 * close with one SSH handshake; a wrong host key refused; an unreachable
 * host's error naming the host and the cause; host_reconnect() and a
 * session revived after sshd restarted, each a new generation with the
 * agent still there.  The ssh module's counters prove what connected.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sshd_fixture.h"

#include "agentctl.h"
#include "config.h"
#include "host.h"
#include "ssh.h"
#include "util.h"

static struct sshd_fixture fx;

/* libssh2 1.10's ECDSA leak, see test_ssh.c; not hit here, kept alike. */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:CRYPTO_zalloc\n";
}

/* Hosts fx-a and fx-b, both the fixture's sshd at 127.0.0.1:port with
 * known_hosts kh, and a link l between their lo. */
static struct config_inventory *
inventory(int port, const char *kh)
{
	struct config_inventory	*inv;
	struct config_errors	 e;
	char			*text;
	size_t			 i;

	text = fx_inventory_text(&fx, port, kh, port, kh, "lo");
	assert_non_null(text);
	config_errors_init(&e);
	inv = config_inventory_parse("/tmp/test_host.json", text, strlen(text),
	    &e);
	for (i = 0; i < e.n; i++)
		print_message("inventory: %s\n", e.msgs[i]);
	config_errors_free(&e);
	free(text);
	assert_non_null(inv);
	return inv;
}

static int64_t
handshakes(void)
{
	struct ssh_stats	st;

	ssh_stats_get(&st);
	return st.handshakes;
}

static void
test_open_facts_close(void **state)
{
	struct config_inventory	*inv = inventory(fx.port, fx.known_hosts);
	struct host_opts	 o;
	struct host		*h;
	struct agentctl_reply	 r;
	char			 err[1024], want[600];
	int64_t			 hs = handshakes();
	size_t			 i;
	int			 lo = 0;

	(void)state;
	memset(&o, 0, sizeof o);
	o.connect_timeout_ms = 3000;
	if (host_open(&inv->hosts[0], &o, &h, err, sizeof err) != 0)
		fail_msg("host_open: %s", err);
	assert_int_equal(handshakes() - hs, 1);
	assert_string_equal(host_name(h), "fx-a");
	assert_ptr_equal(host_config(h), &inv->hosts[0]);
	assert_int_equal(host_generation(h), 1);
	assert_non_null(host_ssh(h));
	assert_non_null(host_agent(h));
	assert_string_equal(ssh_fingerprint(host_ssh(h)), fx.fingerprint);
	snprintf(want, sizeof want, "%s/agent/%s/labrat-agent", fx.state,
	    agentctl_builtin()->hash);
	assert_string_equal(host_deploy_info(h)->path, want);

	/* All NICs, then one by name (lo is no physical NIC). */
	assert_int_equal(host_facts(h, NULL, 30000, &r, err, sizeof err), 0);
	assert_string_equal(r.u.facts.os, "linux");
	assert_true(r.u.facts.kernel_release[0] != '\0');
	agentctl_reply_free(&r);
	if (host_facts(h, "lo", 30000, &r, err, sizeof err) != 0)
		fail_msg("facts lo: %s", err);
	for (i = 0; i < r.u.facts.nnics; i++)
		lo |= strcmp(r.u.facts.nics[i].name, "lo") == 0;
	assert_true(lo);
	agentctl_reply_free(&r);

	/* Nothing changed: a sync is free, even with a probe. */
	assert_int_equal(host_sync(h, 0, err, sizeof err), 0);
	assert_int_equal(host_sync(h, 2000, err, sizeof err), 0);
	assert_int_equal(host_check(h, 2000, err, sizeof err), 0);
	assert_int_equal(host_generation(h), 1);
	assert_int_equal(handshakes() - hs, 1);
	host_close(h);
	host_close(NULL);

	/* A second open finds the agent in place (no build). */
	if (host_open(&inv->hosts[0], &o, &h, err, sizeof err) != 0)
		fail_msg("host_open again: %s", err);
	assert_int_equal(host_deploy_info(h)->built, 0);
	host_close(h);
	config_inventory_free(inv);
}

static void
test_wrong_hostkey(void **state)
{
	struct config_inventory	*inv = inventory(fx.port, fx.kh_wrong);
	struct host		*h = (struct host *)&h;
	char			 err[1024];
	int64_t			 hs = handshakes();

	(void)state;
	assert_int_equal(host_open(&inv->hosts[0], NULL, &h, err, sizeof err),
	    -1);
	print_message("wrong key: %s\n", err);
	assert_null(h);
	assert_non_null(strstr(err, "fx-a"));
	assert_non_null(strstr(err, "MISMATCH"));
	assert_non_null(strstr(err, fx.fingerprint));
	assert_int_equal(handshakes(), hs);
	config_inventory_free(inv);
}

static void
test_unreachable(void **state)
{
	struct config_inventory	*inv;
	struct host		*h;
	char			 err[1024], want[64];
	int			 port;

	(void)state;
	for (port = fx.port + 1; !fx_port_free(port); port++)
		;
	inv = inventory(port, fx.known_hosts);
	assert_int_equal(host_open(&inv->hosts[0], NULL, &h, err, sizeof err),
	    -1);
	print_message("unreachable: %s\n", err);
	assert_null(h);
	snprintf(want, sizeof want, "connect(127.0.0.1:%d)", port);
	assert_true(strncmp(err, "fx-a: ", 6) == 0);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "refused"));
	config_inventory_free(inv);
}

static void
test_reconnect(void **state)
{
	struct config_inventory	*inv = inventory(fx.port, fx.known_hosts);
	struct host_opts	 o;
	struct host		*h;
	struct agentctl_reply	 r;
	char			 err[1024];
	int64_t			 hs;

	(void)state;
	memset(&o, 0, sizeof o);
	o.connect_timeout_ms = 3000;
	if (host_open(&inv->hosts[0], &o, &h, err, sizeof err) != 0)
		fail_msg("host_open: %s", err);
	hs = handshakes();

	/* On purpose, as after a reboot: a new session, agent checked. */
	if (host_reconnect(h, 3000, err, sizeof err) != 0)
		fail_msg("host_reconnect: %s", err);
	assert_int_equal(handshakes() - hs, 1);
	assert_int_equal(host_generation(h), 2);
	assert_int_equal(host_facts(h, "lo", 30000, &r, err, sizeof err), 0);
	agentctl_reply_free(&r);

	/* sshd restarted under an idle session: the probe revives it. */
	fx_sshd_kill(&fx);
	assert_int_equal(fx_sshd_start(&fx), 0);
	assert_int_equal(host_sync(h, 3000, err, sizeof err), 1);
	assert_int_equal(host_generation(h), 3);
	assert_int_equal(handshakes() - hs, 2);
	assert_int_equal(host_facts(h, "lo", 30000, &r, err, sizeof err), 0);
	agentctl_reply_free(&r);
	assert_int_equal(host_sync(h, 0, err, sizeof err), 0);

	/* sshd gone: a reconnect fails naming host and cause, then the
	 * host has no session until one succeeds. */
	fx_sshd_kill(&fx);
	assert_int_equal(host_reconnect(h, 1000, err, sizeof err), -1);
	print_message("reconnect to nothing: %s\n", err);
	assert_non_null(strstr(err, "fx-a"));
	assert_non_null(strstr(err, "refused"));
	assert_null(host_ssh(h));
	assert_int_equal(host_facts(h, NULL, 1000, &r, err, sizeof err), -1);
	assert_non_null(strstr(err, "not connected"));
	agentctl_reply_free(&r);
	assert_int_equal(fx_sshd_start(&fx), 0);
	assert_int_equal(host_sync(h, 0, err, sizeof err), 1);
	assert_non_null(host_ssh(h));
	assert_int_equal(host_facts(h, "lo", 30000, &r, err, sizeof err), 0);
	agentctl_reply_free(&r);
	host_close(h);
	config_inventory_free(inv);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_facts_close),
		cmocka_unit_test(test_wrong_hostkey),
		cmocka_unit_test(test_unreachable),
		cmocka_unit_test(test_reconnect),
	};

	if (access("/usr/sbin/sshd", X_OK) != 0) {
		fprintf(stderr, "test_host: no /usr/sbin/sshd\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
