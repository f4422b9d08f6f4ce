/*
 * test_agent_lease.c: the host lease on real files in a temporary state
 * directory.  Take and renew (ttl, --extend) and release; another owner is
 * refused with the exact "leased by ..." message by lease and by every
 * changing subcommand, while a caller without an owner still works when
 * no lease is held; a lease expires, but never before its holder's
 * rollback deadline; taking an expired lease first restores the saved
 * original (driven by a fake runner, as in test_agent_osdep.c) and a
 * failed restore leaves the lease alone (a vanished interface does not
 * block it); two forked takers: one wins; a corrupt lease fails closed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "agent.h"
#include "lease.h"
#include "osdep.h"
#include "state.h"

static char dir[] = "/tmp/labrat-agent-lease.XXXXXX";
static char out[16384];

static int
setup(void **state)
{
	(void)state;
	if (mkdtemp(dir) == NULL)
		return -1;
	setenv("TZ", "UTC", 1);
	tzset();
	return setenv("LABRAT_AGENT_STATE", dir, 1);
}

static int
teardown(void **state)
{
	char	cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Runs fn on the NULL-terminated words with stdout captured in out. */
static int
run(int (*fn)(int, char **), ...)
{
	char	*argv[32], path[512];
	va_list	 ap;
	int	 argc = 0, fd, saved, rc;
	ssize_t	 n;

	va_start(ap, fn);
	while (argc < 31 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	snprintf(path, sizeof(path), "%s/stdout", dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 1);
	rc = fn(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	n = pread(fd, out, sizeof(out) - 1, 0);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	return rc;
}

static void
put_lease(const char *owner, const char *host, long pid, const char *runid,
    long long since, long long expires, long long hold_until)
{
	struct lease l;
	char	 err[256];

	memset(&l, 0, sizeof(l));
	snprintf(l.owner, sizeof(l.owner), "%s", owner);
	snprintf(l.host, sizeof(l.host), "%s", host);
	snprintf(l.run, sizeof(l.run), "%s", runid);
	l.pid = pid;
	l.since = l.renewed = since;
	l.ttl = 300;
	l.expires = expires;
	l.hold_until = hold_until;
	assert_int_equal(lease_save(&l, err, sizeof(err)), 0);
}

static void
get_lease(struct lease *l)
{
	char	 err[256];
	int	 found;

	assert_int_equal(lease_load(l, &found, err, sizeof(err)), 0);
	assert_int_equal(found, 1);
}

static void
clear_lease(void)
{
	assert_int_equal(run(agent_cmd_lease, "lease", "release", "--force",
	    (char *)NULL), 0);
}

static void
test_take_renew_release(void **state)
{
	struct lease l;
	long long now;

	(void)state;
	assert_int_equal(run(agent_cmd_lease, "lease", "show", (char *)NULL),
	    0);
	assert_non_null(strstr(out, "\"held\":false,\"lease\":null"));
	now = (long long)time(NULL);
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    "--ttl", "60", (char *)NULL), 0);
	assert_non_null(strstr(out, "\"proto\":1,\"event\":\"result\","
	    "\"cmd\":\"lease\",\"action\":\"take\""));
	assert_non_null(strstr(out, "\"renewed\":false,\"previous\":null,"
	    "\"restored\":[]"));
	get_lease(&l);
	assert_string_equal(l.owner, "ctl1:42:7");
	assert_string_equal(l.host, "ctl1");
	assert_string_equal(l.run, "7");
	assert_int_equal(l.pid, 42);
	assert_int_equal(l.ttl, 60);
	assert_true(l.since >= now && l.since <= now + 2);
	assert_true(l.expires == l.renewed + 60);
	/* The same owner taking again renews and keeps its start time. */
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    (char *)NULL), 0);
	assert_non_null(strstr(out, "\"renewed\":true"));
	/* --extend covers a reboot; a plain renew returns to the ttl. */
	assert_int_equal(run(agent_cmd_lease, "lease", "renew", "--owner",
	    "ctl1:42:7", "--extend", "7800", (char *)NULL), 0);
	get_lease(&l);
	assert_true(l.expires >= now + 7800 && l.expires <= now + 7802);
	assert_int_equal(run(agent_cmd_lease, "lease", "renew", "--owner",
	    "ctl1:42:7", "--ttl", "120", (char *)NULL), 0);
	get_lease(&l);
	assert_int_equal(l.ttl, 120);
	assert_true(l.expires == l.renewed + 120);
	assert_int_equal(run(agent_cmd_lease, "lease", "show", (char *)NULL),
	    0);
	assert_non_null(strstr(out, "\"held\":true"));
	assert_int_equal(run(agent_cmd_lease, "lease", "release", "--owner",
	    "ctl1:42:7", (char *)NULL), 0);
	assert_non_null(strstr(out, "\"released\":true,\"forced\":false"));
	assert_int_equal(run(agent_cmd_lease, "lease", "release", "--owner",
	    "ctl1:42:7", (char *)NULL), 0);
	assert_non_null(strstr(out, "\"released\":false"));
	/* Renewing a lease one does not hold. */
	assert_int_equal(run(agent_cmd_lease, "lease", "renew", "--owner",
	    "ctl1:42:7", (char *)NULL), AGENT_EXIT_UNLEASED);
	assert_non_null(strstr(out, "\"class\":\"unleased\""));
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "-x", "--host", "h", "--pid", "1", "--run", "1", (char *)NULL),
	    AGENT_EXIT_USAGE);
}

#define MSG "leased by ctl2 pid 4711 run 12 since 06:41, expires 06:58"

static void
test_refuse_other_owner(void **state)
{
	struct lease l;
	char	 msg[256];
	long long midnight = (long long)time(NULL) / 86400 * 86400;

	(void)state;
	/* Live until tomorrow 06:58 (the message shows the time of day). */
	put_lease("ctl2:4711:12", "ctl2", 4711, "12", midnight + 6 * 3600 +
	    41 * 60, midnight + 86400 + 6 * 3600 + 58 * 60, 0);
	get_lease(&l);
	lease_describe(&l, msg, sizeof(msg));
	assert_string_equal(msg, MSG);
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    (char *)NULL), AGENT_EXIT_LEASED);
	assert_non_null(strstr(out, "{\"proto\":1,\"event\":\"error\","
	    "\"class\":\"leased\",\"message\":\"" MSG "\",\"lease\":{"
	    "\"owner\":\"ctl2:4711:12\",\"host\":\"ctl2\",\"pid\":4711,"
	    "\"run\":\"12\""));
	assert_int_equal(run(agent_cmd_lease, "lease", "renew", "--owner",
	    "ctl1:42:7", (char *)NULL), AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_lease, "lease", "release", "--owner",
	    "ctl1:42:7", (char *)NULL), AGENT_EXIT_LEASED);
	/* Every changing subcommand, with another owner or none. */
	assert_int_equal(run(agent_cmd_apply, "apply", "--if", "lo", "--tso",
	    "off", "--owner", "ctl1:42:7", (char *)NULL), AGENT_EXIT_LEASED);
	assert_non_null(strstr(out, "\"message\":\"" MSG "\""));
	assert_int_equal(run(agent_cmd_apply, "apply", "--if", "lo", "--tso",
	    "off", (char *)NULL), AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_restore, "restore", "--if", "lo",
	    (char *)NULL), AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_confirm, "confirm", "--if", "lo",
	    (char *)NULL), AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_serve, "serve", "--tool", "iperf3",
	    "--bind", "127.0.0.1", (char *)NULL), AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_serve, "serve", "stop", (char *)NULL),
	    AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_iperf, "iperf", "--tool", "iperf3",
	    "--server", "127.0.0.1", "--owner", "ctl1:42:7", (char *)NULL),
	    AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_scp, "scp", "--to", "root@127.0.0.1",
	    "--size", "1k", (char *)NULL), AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_keygen, "keygen", "--tag", "t",
	    (char *)NULL), AGENT_EXIT_LEASED);
	assert_int_equal(run(agent_cmd_deauthorize, "deauthorize", "--tag",
	    "t", (char *)NULL), AGENT_EXIT_LEASED);
	/* Its owner gets through the gate (serve stop has nothing to do). */
	assert_int_equal(run(agent_cmd_serve, "serve", "stop", "--owner",
	    "ctl2:4711:12", (char *)NULL), 0);
	/* Read-only needs no lease. */
	assert_int_equal(run(agent_cmd_version, "version", (char *)NULL), 0);
	assert_int_equal(run(agent_cmd_lease, "lease", "show", (char *)NULL),
	    0);
	assert_non_null(strstr(out, "\"held\":true"));
	/* Its owner releases; then no owner at all works again, and an
	 * owner that holds no lease is told to take it. */
	assert_int_equal(run(agent_cmd_lease, "lease", "release", "--owner",
	    "ctl2:4711:12", (char *)NULL), 0);
	assert_int_equal(run(agent_cmd_serve, "serve", "stop", (char *)NULL),
	    0);
	assert_int_equal(run(agent_cmd_serve, "serve", "stop", "--owner",
	    "ctl1:42:7", (char *)NULL), AGENT_EXIT_UNLEASED);
	assert_non_null(strstr(out, "serve stop refused: owner ctl1:42:7 "
	    "does not hold the lease (no lease): take it first"));
}

static void
test_expiry_and_rollback_hold(void **state)
{
	struct lease l;
	long long now = (long long)time(NULL);

	(void)state;
	/* Expired, but its rollback deadline is still ahead: live. */
	put_lease("ctl2:4711:12", "ctl2", 4711, "12", now - 600, now - 10,
	    now + 120);
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    (char *)NULL), AGENT_EXIT_LEASED);
	get_lease(&l);
	assert_true(lease_until(&l) == now + 120);
	/* Both past: an expired lease is free to take (and to use without an
	 * owner), its holder named as the previous one. */
	put_lease("ctl2:4711:12", "ctl2", 4711, "12", now - 600, now - 10,
	    now - 5);
	assert_int_equal(run(agent_cmd_serve, "serve", "stop", (char *)NULL),
	    0);
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    (char *)NULL), 0);
	assert_non_null(strstr(out, "\"previous\":{\"owner\":\"ctl2:4711:12\""));
	get_lease(&l);
	assert_string_equal(l.owner, "ctl1:42:7");
	assert_int_equal(l.hold_until, 0);
	clear_lease();
}

/* ---- fake runner: lo with TSO on until `ethtool -K lo tso off` --------- */

static char calls[8192];
static char owner_at_restore[LEASE_TOKENSZ];
static int tso_on, tso_sticks;

static int
fake_run(void *ctx, char *const argv[], int timeout, struct exec_result *r,
    char *err, size_t errlen)
{
	struct lease l;
	char	 cmd[512], e[256];
	int	 found;

	(void)ctx;
	(void)timeout;
	(void)err;
	(void)errlen;
	exec_argv_str(argv, cmd, sizeof(cmd));
	strcat(calls, cmd);
	strcat(calls, "\n");
	memset(r, 0, sizeof(*r));
	r->exited = 1;
	r->status = 0;
	r->err = strdup("");
	if (strcmp(cmd, "ethtool -k lo") == 0) {
		r->out = strdup(tso_on ?
		    "Features for lo:\ntcp-segmentation-offload: on\n"
		    "\ttx-tcp-segmentation: on\n" :
		    "Features for lo:\ntcp-segmentation-offload: off\n"
		    "\ttx-tcp-segmentation: off\n");
	} else if (strcmp(cmd, "ethtool -K lo tso off") == 0) {
		if (!tso_sticks)
			tso_on = 0;
		if (lease_load(&l, &found, e, sizeof(e)) == 0 && found)
			snprintf(owner_at_restore, sizeof(owner_at_restore),
			    "%s", l.owner);
		r->out = strdup("");
	} else if (strcmp(cmd, "ethtool -K lo tso on") == 0) {
		tso_on = 1;
		r->out = strdup("");
	} else {
		r->out = strdup("");
		r->status = 1;		/* nft: no table ip labrat */
	}
	r->outlen = strlen(r->out);
	return 0;
}

static void
save_lo_original(void)
{
	struct state_saved s;
	char	 err[256];

	memset(&s, 0, sizeof(s));
	strcpy(s.ifname, "lo");
	strcpy(s.os, "linux");
	s.saved_at = (long long)time(NULL) - 700;
	osdep_knobs_unset(&s.knobs);
	s.knobs.tso = 0;
	assert_int_equal(state_save(&s, err, sizeof(err)), 0);
}

static void
test_expired_lease_restores_first(void **state)
{
	struct state_saved s;
	struct lease l;
	char	 err[256];
	long long now = (long long)time(NULL);
	int	 found;

	(void)state;
	/* A dead controller applied tso on (its original: off) and died. */
	save_lo_original();
	tso_on = 1;
	tso_sticks = 1;		/* first: the knob does not come back */
	calls[0] = owner_at_restore[0] = '\0';
	put_lease("ctl2:4711:12", "ctl2", 4711, "12", now - 900, now - 60, 0);
	osdep_set_runner(fake_run, NULL);
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    (char *)NULL), AGENT_EXIT_MISMATCH);
	assert_non_null(strstr(out, "lease not taken: the pending restore "
	    "failed: restore lo"));
	get_lease(&l);
	assert_string_equal(l.owner, "ctl2:4711:12");	/* left alone */
	assert_int_equal(state_load("lo", &s, &found, err, sizeof(err)), 0);
	assert_int_equal(found, 1);			/* original kept */
	/* The knob comes back: restored first, then the lease written. */
	tso_sticks = 0;
	calls[0] = owner_at_restore[0] = '\0';
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    (char *)NULL), 0);
	osdep_set_runner(NULL, NULL);
	assert_non_null(strstr(out, "\"restored\":[\"lo\"]"));
	assert_non_null(strstr(calls, "ethtool -K lo tso off\n"));
	assert_string_equal(owner_at_restore, "ctl2:4711:12");
	assert_int_equal(tso_on, 0);
	assert_int_equal(state_load("lo", &s, &found, err, sizeof(err)), 0);
	assert_int_equal(found, 0);
	get_lease(&l);
	assert_string_equal(l.owner, "ctl1:42:7");
	clear_lease();
	/* The original of an interface that is gone does not block a take
	 * (and is kept for when it returns). */
	memset(&s, 0, sizeof(s));
	strcpy(s.ifname, "gone9");
	strcpy(s.os, "linux");
	osdep_knobs_unset(&s.knobs);
	s.knobs.mtu = 1500;
	assert_int_equal(state_save(&s, err, sizeof(err)), 0);
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    (char *)NULL), 0);
	assert_non_null(strstr(out, "gone9: saved original kept, the "
	    "interface is gone"));
	assert_non_null(strstr(out, "\"restored\":[]"));
	assert_int_equal(state_load("gone9", &s, &found, err, sizeof(err)), 0);
	assert_int_equal(found, 1);
	assert_int_equal(state_remove("gone9", err, sizeof(err)), 0);
	clear_lease();
}

static void
test_apply_holds_lease_past_rollback(void **state)
{
	struct lease l;
	long long now = (long long)time(NULL);

	(void)state;
	tso_on = 1;
	tso_sticks = 0;
	calls[0] = '\0';
	osdep_set_runner(fake_run, NULL);
	/* No lease held, no owner: works as before leases existed. */
	assert_int_equal(run(agent_cmd_apply, "apply", "--if", "lo", "--tso",
	    "off", (char *)NULL), 0);
	assert_int_equal(run(agent_cmd_restore, "restore", "--if", "lo",
	    (char *)NULL), 0);
	tso_on = 1;
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1:42:7", "--host", "ctl1", "--pid", "42", "--run", "7",
	    "--ttl", "60", (char *)NULL), 0);
	assert_int_equal(run(agent_cmd_apply, "apply", "--if", "lo", "--tso",
	    "off", "--rollback-after", "600", "--owner", "ctl1:42:7",
	    (char *)NULL), 0);
	assert_non_null(strstr(out, "\"mismatch\":[]"));
	get_lease(&l);
	assert_true(l.hold_until >= now + 600 + LEASE_ROLLBACK_GRACE);
	assert_true(lease_until(&l) == l.hold_until);
	/* A plain renew never shortens the rollback hold. */
	assert_int_equal(run(agent_cmd_lease, "lease", "renew", "--owner",
	    "ctl1:42:7", (char *)NULL), 0);
	get_lease(&l);
	assert_true(lease_until(&l) >= now + 600 + LEASE_ROLLBACK_GRACE);
	assert_int_equal(run(agent_cmd_confirm, "confirm", "--if", "lo",
	    "--owner", "ctl1:42:7", (char *)NULL), 0);
	assert_non_null(strstr(out, "\"cancelled\":true"));
	assert_int_equal(run(agent_cmd_restore, "restore", "--if", "lo",
	    "--owner", "ctl1:42:7", (char *)NULL), 0);
	osdep_set_runner(NULL, NULL);
	assert_non_null(strstr(out, "\"was_saved\":true"));
	clear_lease();
}

static void
test_concurrent_takers(void **state)
{
	struct lease want, got, prev;
	struct lease_restored r;
	char	 err[512];
	int	 round, i, go[2], st, wins, refused, had, renewed, rc;
	pid_t	 kid[2];

	(void)state;
	for (round = 0; round < 20; round++) {
		assert_int_equal(pipe(go), 0);
		for (i = 0; i < 2; i++) {
			kid[i] = fork();
			assert_true(kid[i] >= 0);
			if (kid[i] != 0)
				continue;
			close(go[1]);
			memset(&want, 0, sizeof(want));
			snprintf(want.owner, sizeof(want.owner), "ctl%d", i);
			snprintf(want.host, sizeof(want.host), "ctl%d", i);
			snprintf(want.run, sizeof(want.run), "%d", round);
			want.pid = (long)getpid();
			(void)read(go[0], err, 1);	/* both start at once */
			rc = lease_take(&want, 60, (long long)time(NULL), &got,
			    &prev, &had, &renewed, &r, err, sizeof(err));
			_exit(rc);
		}
		close(go[0]);
		close(go[1]);		/* EOF: go */
		wins = refused = 0;
		for (i = 0; i < 2; i++) {
			assert_int_equal(waitpid(kid[i], &st, 0), kid[i]);
			assert_true(WIFEXITED(st));
			if (WEXITSTATUS(st) == 0)
				wins++;
			else if (WEXITSTATUS(st) == AGENT_EXIT_LEASED)
				refused++;
		}
		assert_int_equal(wins, 1);
		assert_int_equal(refused, 1);
		get_lease(&got);
		assert_true(strcmp(got.owner, "ctl0") == 0 ||
		    strcmp(got.owner, "ctl1") == 0);
		clear_lease();
	}
}

static void
test_corrupt_lease(void **state)
{
	char	 path[512];
	FILE	*f;

	(void)state;
	snprintf(path, sizeof(path), "%s/lease/lease.json", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("{\"owner\":\"x\",\"host\":", f);
	fclose(f);
	/* Fails closed: nobody acts until an operator clears it. */
	assert_int_equal(run(agent_cmd_serve, "serve", "stop", (char *)NULL),
	    AGENT_EXIT_INTERNAL);
	assert_int_equal(run(agent_cmd_lease, "lease", "take", "--owner",
	    "ctl1", "--host", "ctl1", "--pid", "42", "--run", "7",
	    (char *)NULL), AGENT_EXIT_INTERNAL);
	clear_lease();
	assert_non_null(strstr(out, "\"released\":false,\"forced\":true"));
	assert_int_equal(access(path, F_OK), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take_renew_release),
		cmocka_unit_test(test_refuse_other_owner),
		cmocka_unit_test(test_expiry_and_rollback_hold),
		cmocka_unit_test(test_expired_lease_restores_first),
		cmocka_unit_test(test_apply_holds_lease_past_rollback),
		cmocka_unit_test(test_concurrent_takers),
		cmocka_unit_test(test_corrupt_lease),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
