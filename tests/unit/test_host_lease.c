/*
 * test_host_lease: the controller's side of the agent's host lease,
 * against a real sshd and agent (tests/unit/sshd_fixture.h): a host opened
 * by one owner cannot be opened by another, whose error names the host
 * and the holder exactly as the agent words it; a read-only open still
 * works and shows the holder; the holder's changes pass --owner and
 * another's are refused; renew, --extend, the reboot gate, release, a
 * forced release and a lease lost to it, expiry; owner liveness; the
 * token and LABRAT_LEASE_TTL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sshd_fixture.h"

#include <sys/wait.h>
#include <time.h>

#include "agentctl.h"
#include "config.h"
#include "host.h"
#include "ssh.h"
#include "util.h"

static struct sshd_fixture fx;

const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:CRYPTO_zalloc\n";
}

static struct config_inventory *
inventory(void)
{
	struct config_inventory	*inv;
	struct config_errors	 e;
	char			*text;
	size_t			 i;

	text = fx_inventory_text(&fx, fx.port, fx.known_hosts,
	    fx.port, fx.known_hosts, "lo");
	assert_non_null(text);
	config_errors_init(&e);
	inv = config_inventory_parse("/tmp/test_host_lease.json", text,
	    strlen(text), &e);
	for (i = 0; i < e.n; i++)
		print_message("inventory: %s\n", e.msgs[i]);
	config_errors_free(&e);
	free(text);
	assert_non_null(inv);
	return inv;
}

static struct host *
open_as(const struct config_host *cfg, const struct host_lease_id *id)
{
	struct host_opts	 o;
	struct host		*h;
	char			 err[1024];

	memset(&o, 0, sizeof o);
	o.connect_timeout_ms = 3000;
	o.lease = id;
	if (host_open(cfg, &o, &h, err, sizeof err) != 0)
		fail_msg("host_open: %s", err);
	return h;
}

/* `restore --if lo` through h's agent handle: 0, or -1 with r's class. */
static int
restore_lo(struct host *h, char *cls, size_t len)
{
	struct agentctl_reply	 r;
	const char		*args[] = { "restore", "--if", "lo", NULL };
	char			 err[1024];
	int			 rc;

	rc = agentctl_call(host_agent(h), args, 30000, &r, err, sizeof err);
	snprintf(cls, len, "%s", r.error_class);
	if (rc == -1)
		print_message("restore: %s\n", err);
	agentctl_reply_free(&r);
	return rc;
}

static void
test_second_owner_refused(void **state)
{
	struct config_inventory	*inv = inventory();
	struct host_lease_id	 a, b;
	struct host_opts	 o;
	struct agentctl_lease	 l;
	struct host		*ha, *hr, *hb = (struct host *)&hb;
	char			 err[1024], want[128], cls[16];

	(void)state;
	assert_int_equal(host_lease_id_init(&a, "11", 60, err, sizeof err), 0);
	assert_int_equal(host_lease_id_init(&b, "12", 60, err, sizeof err), 0);
	ha = open_as(&inv->hosts[0], &a);
	assert_true(host_lease_held(ha));
	assert_string_equal(agentctl_owner(host_agent(ha)), a.token);

	/* Another owner: refused, the host and the holder named. */
	memset(&o, 0, sizeof o);
	o.connect_timeout_ms = 3000;
	o.lease = &b;
	assert_int_equal(host_open(&inv->hosts[0], &o, &hb, err, sizeof err),
	    -1);
	print_message("second owner: %s\n", err);
	assert_null(hb);
	snprintf(want, sizeof want, "fx-a: leased by %s pid %ld run 11 since ",
	    a.host, a.pid);
	assert_true(strncmp(err, want, strlen(want)) == 0);
	assert_non_null(strstr(err, ", expires "));

	/* Read-only use needs no lease and sees the holder. */
	hr = open_as(&inv->hosts[0], NULL);
	assert_false(host_lease_held(hr));
	assert_int_equal(host_lease_show(hr, &l, err, sizeof err), 0);
	assert_true(l.has_lease);
	assert_true(l.held);
	assert_string_equal(l.lease.owner, a.token);
	assert_int_equal(l.lease.pid, (long long)getpid());
	assert_string_equal(l.lease.run, "11");
	assert_true(l.lease.live);
	assert_int_equal(host_lease_owner(&l), HOST_LEASE_LIVE);

	/* Changes: the holder's pass --owner, anyone else's are refused. */
	assert_int_equal(restore_lo(ha, cls, sizeof cls), 0);
	assert_int_equal(restore_lo(hr, cls, sizeof cls), -1);
	assert_string_equal(cls, "leased");

	/* Released: the other owner gets it, the first is refused now. */
	assert_int_equal(host_lease_release(ha, err, sizeof err), 0);
	assert_false(host_lease_held(ha));
	assert_int_equal(host_lease_show(hr, &l, err, sizeof err), 0);
	assert_false(l.has_lease);
	assert_int_equal(host_lease_owner(&l), HOST_LEASE_FREE);
	hb = open_as(&inv->hosts[0], &b);
	assert_true(host_lease_held(hb));
	assert_int_equal(restore_lo(ha, cls, sizeof cls), -1);
	assert_string_equal(cls, "leased");
	assert_int_equal(host_lease_release(hb, err, sizeof err), 0);
	host_close(ha);
	host_close(hb);
	host_close(hr);
	config_inventory_free(inv);
}

static void
test_renew_extend_gate(void **state)
{
	struct config_inventory	*inv = inventory();
	struct host_lease_id	 a;
	struct agentctl_lease	 l;
	struct ssh_result	 res;
	struct host		*ha;
	struct buf		 out, eb;
	char			 err[1024], gate[1024], want[160];

	(void)state;
	assert_int_equal(host_lease_id_init(&a, "bisect", 60, err,
	    sizeof err), 0);
	ha = open_as(&inv->hosts[0], &a);
	assert_int_equal(host_lease_renew(ha, 3600, err, sizeof err), 0);
	assert_int_equal(host_lease_show(ha, &l, err, sizeof err), 0);
	assert_true(l.lease.expires >= l.now + 3599);
	/* Not due (an hour left): keep is a no-op that says so by not
	 * bringing the expiry back to the ttl. */
	assert_int_equal(host_lease_keep(ha, 10, err, sizeof err), 0);
	assert_int_equal(host_lease_show(ha, &l, err, sizeof err), 0);
	assert_true(l.lease.expires >= l.now + 3599);
	/* A plain renew returns to the ttl. */
	assert_int_equal(host_lease_renew(ha, 0, err, sizeof err), 0);
	assert_int_equal(host_lease_show(ha, &l, err, sizeof err), 0);
	assert_true(l.lease.expires <= l.now + 60);
	/* A step longer than the ttl: keep extends over it. */
	assert_int_equal(host_lease_keep(ha, 600, err, sizeof err), 0);
	assert_int_equal(host_lease_show(ha, &l, err, sizeof err), 0);
	assert_true(l.lease.expires >= l.now + 600);

	/* The reboot gate: a shell command that renews for the holder. */
	assert_int_equal(host_lease_gate_command(ha, 900, gate, sizeof gate,
	    err, sizeof err), 0);
	snprintf(want, sizeof want, " lease renew --extend 900 --owner '%s'",
	    a.token);
	assert_non_null(strstr(gate, want));
	buf_init(&out, 65536);
	buf_init(&eb, 65536);
	assert_int_equal(ssh_exec(host_ssh(ha), gate, 10000, &out, &eb, &res,
	    err, sizeof err), SSH_OK);
	assert_int_equal(res.exit_status, 0);
	buf_free(&out);
	buf_free(&eb);
	assert_int_equal(host_lease_show(ha, &l, err, sizeof err), 0);
	assert_true(l.lease.expires >= l.now + 899);
	assert_int_equal(host_lease_release(ha, err, sizeof err), 0);
	host_close(ha);
	config_inventory_free(inv);
}

static void
test_force_release_and_expiry(void **state)
{
	struct config_inventory	*inv = inventory();
	struct host_lease_id	 a, b;
	struct agentctl_lease	 l;
	struct host		*ha, *hb;
	char			 err[1024];

	(void)state;
	assert_int_equal(host_lease_id_init(&a, "21", 60, err, sizeof err), 0);
	ha = open_as(&inv->hosts[0], &a);
	assert_int_equal(host_lease_force_release(&inv->hosts[0], NULL, &l,
	    err, sizeof err), 0);
	assert_true(l.released);
	assert_true(l.forced);
	assert_true(l.has_previous);
	assert_string_equal(l.previous.owner, a.token);
	/* Forced away: the next renew finds out, keep takes it back. */
	assert_int_equal(host_lease_renew(ha, 0, err, sizeof err), -1);
	print_message("lost: %s\n", err);
	assert_non_null(strstr(err, "fx-a: "));
	assert_false(host_lease_held(ha));
	assert_int_equal(host_lease_keep(ha, 0, err, sizeof err), 0);
	assert_true(host_lease_held(ha));
	assert_int_equal(host_lease_release(ha, err, sizeof err), 0);
	host_close(ha);
	/* Nothing to release: a no-op that says so. */
	assert_int_equal(host_lease_force_release(&inv->hosts[0], NULL, &l,
	    err, sizeof err), 0);
	assert_false(l.released);

	/* A dead owner's short lease expires; then another takes it. */
	assert_int_equal(host_lease_id_init(&a, "22", 1, err, sizeof err), 0);
	assert_int_equal(host_lease_id_init(&b, "23", 60, err, sizeof err), 0);
	ha = open_as(&inv->hosts[0], &a);
	sleep(2);
	assert_int_equal(host_lease_show(ha, &l, err, sizeof err), 0);
	assert_true(l.has_lease);
	assert_false(l.lease.live);
	assert_int_equal(host_lease_owner(&l), HOST_LEASE_EXPIRED);
	hb = open_as(&inv->hosts[0], &b);
	assert_true(host_lease_held(hb));
	assert_int_equal(host_lease_release(hb, err, sizeof err), 0);
	host_close(hb);
	host_close(ha);
	config_inventory_free(inv);
}

/* Plants a lease for host/pid straight through the agent on h's session. */
static void
plant(struct host *h, const char *host, long pid)
{
	struct ssh_result	 res;
	struct buf		 out, eb, cmd;
	char			 err[1024], line[256];

	snprintf(line, sizeof line, " lease take --owner planted:%ld --host %s "
	    "--pid %ld --run 9 --ttl 600", pid, host, pid);
	buf_init(&cmd, 4096);
	util_shell_quote(&cmd, host_deploy_info(h)->path);
	buf_append(&cmd, line, strlen(line) + 1);
	buf_init(&out, 65536);
	buf_init(&eb, 65536);
	assert_int_equal(ssh_exec(host_ssh(h), cmd.data, 10000, &out, &eb,
	    &res, err, sizeof err), SSH_OK);
	assert_int_equal(res.exit_status, 0);
	buf_free(&cmd);
	buf_free(&out);
	buf_free(&eb);
}

static void
test_dead_owner_taken_over(void **state)
{
	struct config_inventory	*inv = inventory();
	struct host_lease_id	 b;
	struct host_opts	 o;
	struct agentctl_lease	 l;
	struct host		*hr, *hb;
	char			 err[1024];
	pid_t			 pid;

	(void)state;
	assert_int_equal(host_lease_id_init(&b, "31", 60, err, sizeof err), 0);
	if ((pid = fork()) == 0)
		_exit(0);
	assert_true(pid > 0);
	waitpid(pid, NULL, 0);
	hr = open_as(&inv->hosts[0], NULL);
	/* Its owner elsewhere: live until it expires, refused. */
	plant(hr, "elsewhere", (long)pid);
	memset(&o, 0, sizeof o);
	o.connect_timeout_ms = 3000;
	o.lease = &b;
	assert_int_equal(host_open(&inv->hosts[0], &o, &hb, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "fx-a: leased by elsewhere pid "));
	/* Its owner on this machine, its process gone: taken over. */
	assert_int_equal(host_lease_force_release(&inv->hosts[0], NULL, &l,
	    err, sizeof err), 0);
	plant(hr, b.host, (long)pid);
	assert_int_equal(host_lease_show(hr, &l, err, sizeof err), 0);
	assert_int_equal(host_lease_owner(&l), HOST_LEASE_DEAD);
	hb = open_as(&inv->hosts[0], &b);
	assert_true(host_lease_held(hb));
	assert_int_equal(host_lease_show(hr, &l, err, sizeof err), 0);
	assert_string_equal(l.lease.owner, b.token);
	assert_int_equal(host_lease_release(hb, err, sizeof err), 0);
	host_close(hb);
	host_close(hr);
	config_inventory_free(inv);
}

/* host_open() of leased h with facts_if: the commands it cost, and the
 * lease and facts it came back with. */
static struct host *
open_counted(const struct config_host *cfg, const struct host_lease_id *id,
    int64_t *execs)
{
	struct host_opts	 o;
	struct ssh_stats	 s0, s1;
	struct host		*h;
	char			 err[1024];

	memset(&o, 0, sizeof o);
	o.connect_timeout_ms = 3000;
	o.lease = id;
	o.facts_if = "lo";
	ssh_stats_get(&s0);
	if (host_open(cfg, &o, &h, err, sizeof err) != 0)
		fail_msg("host_open: %s", err);
	ssh_stats_get(&s1);
	*execs = s1.execs - s0.execs;
	assert_true(host_lease_held(h));
	return h;
}

/* host_facts(h, ifname) into r: the commands it sent (facts it could not
 * read fail the test only when it sent none). */
static int64_t
facts_counted(struct host *h, const char *ifname, struct agentctl_reply *r)
{
	struct ssh_stats	 s0, s1;
	char			 err[1024];
	int			 rc;

	ssh_stats_get(&s0);
	rc = host_facts(h, ifname, 5000, r, err, sizeof err);
	ssh_stats_get(&s1);
	if (rc != 0 && s1.execs == s0.execs)
		fail_msg("host_facts %s: %s", ifname, err);
	return s1.execs - s0.execs;
}

/*
 * Opening a host whose agent is in place is one command: the agent's
 * `open` checks the agent, takes the lease and reads the facts of
 * facts_if.  An agent that answers garbage is rebuilt and the lease taken
 * and the facts read the usual way.
 */
static void
test_open_one_round_trip(void **state)
{
	struct config_inventory	*inv = inventory();
	struct host_lease_id	 a;
	struct agentctl_reply	 r;
	struct host		*h;
	char			 err[1024];
	int64_t			 execs;

	(void)state;
	assert_int_equal(host_lease_id_init(&a, "41", 60, err, sizeof err), 0);
	h = open_as(&inv->hosts[0], &a);	/* the agent in place */
	host_close(h);
	h = open_counted(&inv->hosts[0], &a, &execs);
	print_message("open with the agent in place: %lld command(s)\n",
	    (long long)execs);
	assert_int_equal(execs, 1);
	/* The open's facts answer the first host_facts() of its interface
	 * with no command; another interface, or a second ask, is one. */
	assert_int_equal(facts_counted(h, "eth9", &r), 1);
	agentctl_reply_free(&r);
	assert_int_equal(facts_counted(h, "lo", &r), 0);
	assert_string_equal(r.u.facts.nics[0].name, "lo");
	assert_non_null(strstr(r.raw, "\"cmd\":\"facts\""));
	agentctl_reply_free(&r);
	assert_int_equal(facts_counted(h, "lo", &r), 1);	/* once */
	assert_string_equal(r.u.facts.nics[0].name, "lo");
	agentctl_reply_free(&r);
	host_close(h);

	/* A stale agent that answers garbage: rebuilt, leased as usual. */
	/* (Replaced, not overwritten: the last session's agent may still be
	 * on its way out, and a running binary cannot be written.) */
	assert_int_equal(fx_sh("for f in %s/agent/*/labrat-agent; do "
	    "printf '#!/bin/sh\\necho garbage\\n' > $f.new && "
	    "chmod 755 $f.new && mv -f $f.new $f; done", fx.state), 0);
	h = open_counted(&inv->hosts[0], &a, &execs);
	print_message("open with a garbage agent: %lld command(s)\n",
	    (long long)execs);
	assert_true(execs > 1);
	assert_int_equal(host_deploy_info(h)->built, 1);
	assert_int_equal(facts_counted(h, "lo", &r), 1);
	agentctl_reply_free(&r);
	assert_int_equal(host_lease_release(h, err, sizeof err), 0);
	host_close(h);
	config_inventory_free(inv);
}

static void
test_owner_and_token(void **state)
{
	struct host_lease_id	 id;
	struct agentctl_lease	 l;
	char			 err[256];
	size_t			 i;
	pid_t			 pid;

	(void)state;
	/* The token: the agent's alphabet, at most 64 bytes, this run. */
	assert_int_equal(host_lease_id_init(&id, "run 7;rm -rf /", 0, err,
	    sizeof err), 0);
	assert_true(strlen(id.token) <= 64);
	for (i = 0; id.token[i] != '\0'; i++)
		assert_non_null(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL"
		    "MNOPQRSTUVWXYZ0123456789_.:@-", id.token[i]));
	assert_non_null(strstr(id.token, ":run_7_rm_-rf__:"));
	assert_int_equal(id.pid, (long)getpid());
	assert_int_equal(id.ttl_s, HOST_LEASE_TTL_S);
	setenv("LABRAT_LEASE_TTL", "7", 1);
	assert_int_equal(host_lease_id_init(&id, "1", 0, err, sizeof err), 0);
	assert_int_equal(id.ttl_s, 7);
	assert_int_equal(host_lease_id_init(&id, "1", 30, err, sizeof err), 0);
	assert_int_equal(id.ttl_s, 30);
	setenv("LABRAT_LEASE_TTL", "7s", 1);
	assert_int_equal(host_lease_id_init(&id, "1", 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "LABRAT_LEASE_TTL"));
	unsetenv("LABRAT_LEASE_TTL");

	/* A live lease of a process of this machine that is gone: dead. */
	assert_int_equal(host_lease_id_init(&id, "1", 0, err, sizeof err), 0);
	if ((pid = fork()) == 0)
		_exit(0);
	assert_true(pid > 0);
	waitpid(pid, NULL, 0);
	memset(&l, 0, sizeof l);
	l.has_lease = 1;
	l.lease.live = 1;
	snprintf(l.lease.host, sizeof l.lease.host, "%s", id.host);
	l.lease.pid = pid;
	assert_int_equal(host_lease_owner(&l), HOST_LEASE_DEAD);
	l.lease.pid = getpid();
	assert_int_equal(host_lease_owner(&l), HOST_LEASE_LIVE);
	/* Elsewhere: only its expiry can tell. */
	snprintf(l.lease.host, sizeof l.lease.host, "not-%s", id.host);
	l.lease.pid = pid;
	assert_int_equal(host_lease_owner(&l), HOST_LEASE_LIVE);
	l.lease.live = 0;
	assert_int_equal(host_lease_owner(&l), HOST_LEASE_EXPIRED);
	assert_string_equal(host_lease_owner_name(HOST_LEASE_DEAD),
	    "owner dead");
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
		cmocka_unit_test(test_second_owner_refused),
		cmocka_unit_test(test_renew_extend_gate),
		cmocka_unit_test(test_force_release_and_expiry),
		cmocka_unit_test(test_dead_owner_taken_over),
		cmocka_unit_test(test_open_one_round_trip),
		cmocka_unit_test(test_owner_and_token),
	};

	if (access("/usr/sbin/sshd", X_OK) != 0) {
		fprintf(stderr, "test_host_lease: no /usr/sbin/sshd\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
