/*
 * test_notify_send: delivery for real.  A webhook to hooksink, SMTP to
 * smtpsink (both real listeners on 127.0.0.1, tests/tools/), a sendmail
 * command that records its stdin: every target gets the message and each
 * is checked for its content (the JSON byte for byte, the envelope, the
 * mail's body, LF lines for sendmail); dot-stuffing survives the SMTP
 * round trip; failures are named by target: HTTP 500, a refused
 * connection, RCPT refused with 550, sendmail's exit status and output, a
 * sendmail that hangs (killed at the deadline), one that exits unread,
 * an address that tries to smuggle an SMTP command, an SMTP server and a
 * webhook receiver that never answer (each costs its timeout), no file of
 * ours leaking into the sendmail program.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "client.h"
#include "notify.h"
#include "tmpdir_fixture.h"
#include "util.h"

static char	top[256];
static const char *const to2[] = { "Dev One <dev1@lab.invalid>",
    "dev2@lab.invalid", NULL };

static pid_t	sinks[16];	/* started, for teardown after a failure */
static int	nsinks;

struct sink {
	pid_t	pid;
	int	port;
	char	dir[512];
};

/* Starts tool (env var name) with args, reads its port. */
static void
sink_start(struct sink *s, const char *envvar, const char *name,
    const char *opt, const char *val)
{
	const char	*path = getenv(envvar);
	char		 line[32];
	int		 p[2];
	ssize_t		 n, k = 0;

	if (path == NULL)
		skip();
	snprintf(s->dir, sizeof s->dir, "%s/%s%d", top, name, rand());
	assert_int_equal(mkdir(s->dir, 0700), 0);
	assert_int_equal(pipe(p), 0);
	if ((s->pid = fork()) == 0) {
		dup2(p[1], 1);
		close(p[0]);
		if (opt != NULL)
			execl(path, path, "--dir", s->dir, "--lifetime", "120",
			    opt, val, (char *)NULL);
		else
			execl(path, path, "--dir", s->dir, "--lifetime", "120",
			    (char *)NULL);
		_exit(127);
	}
	if (nsinks < 16)
		sinks[nsinks++] = s->pid;
	close(p[1]);
	while (k < (ssize_t)sizeof line - 1 &&
	    (n = read(p[0], line + k, 1)) == 1 && line[k] != '\n')
		k++;
	line[k] = '\0';
	close(p[0]);
	s->port = atoi(line);
	assert_true(s->port > 0);
}

static void
sink_stop(struct sink *s)
{
	int	i;

	kill(s->pid, SIGTERM);
	waitpid(s->pid, NULL, 0);
	for (i = 0; i < nsinks; i++)
		if (sinks[i] == s->pid)
			sinks[i] = 0;
}

/* dir/name's contents (heap), or NULL. */
static char *
slurp(const char *dir, const char *name)
{
	char	path[1024];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return util_read_file(path, 8 * 1024 * 1024, NULL, NULL, 0);
}

static int
free_port(void)
{
	struct sockaddr_in	sin;
	socklen_t		sl = sizeof sin;
	int			s = socket(AF_INET, SOCK_STREAM, 0);

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(s, (struct sockaddr *)&sin, sizeof sin);
	getsockname(s, (struct sockaddr *)&sin, &sl);
	close(s);
	return ntohs(sin.sin_port);
}

/* An executable script in top (path in out). */
static void
script(char *out, size_t len, const char *name, const char *body)
{
	FILE	*fp;

	snprintf(out, len, "%s/%s", top, name);
	fp = fopen(out, "w");
	assert_non_null(fp);
	fprintf(fp, "#!/bin/sh\n%s\n", body);
	fclose(fp);
	chmod(out, 0755);
}

static struct notify_msg
sample(void)
{
	struct notify_msg	m;

	memset(&m, 0, sizeof m);
	m.kind = NOTIFY_REGRESSION;
	m.regression_id = 7;
	m.bisect_id = 2;
	m.link = "em-ab";
	m.client = "em-a";
	m.server = "em-b";
	m.driver = "em";
	m.chip = "0x10968086";
	m.workload = "iperf3";
	m.metric = "throughput";
	m.unit = "Mbit/s";
	m.knobs = "TSO on, MTU 9000";
	m.change = -0.177;
	m.parent_median = 933.1;
	m.culprit_median = 768.0;
	m.n_parent = m.n_culprit = 8;
	m.p = 0.0003;
	m.culprit = "r200140";
	m.culprit_msg = "em(4): use TSO with jumbo frames \"fast\" \xe2\x9c\x93";
	m.parent = "r200139";
	m.verified = 1;
	m.outcome = "culprit";
	m.reproduce = "labrat bisect start --good r200139 --bad r200140\n";
	m.bisect_log = "good r200100\n.\nbad r200140\n";
	return m;
}

static void
test_send_all(void **state)
{
	struct sink		 hs, ss;
	struct notify_msg	 m = sample();
	struct notify_target	 t[3];
	const char		*smargv[] = { NULL, "-i", "-t", NULL };
	char			 hook[128], smtp[128], sm[512], body[1024], err[2048];
	char			*got, *want, *env, *eml, *ref;

	(void)state;
	sink_start(&hs, "LABRAT_HOOKSINK", "hook", NULL, NULL);
	sink_start(&ss, "LABRAT_SMTPSINK", "smtp", NULL, NULL);
	snprintf(hook, sizeof hook, "http://127.0.0.1:%d/hook", hs.port);
	snprintf(smtp, sizeof smtp, "smtp://127.0.0.1:%d", ss.port);
	snprintf(body, sizeof body, "cat > %s/sendmail.in; echo \"$@\" > "
	    "%s/sendmail.args", top, top);
	script(sm, sizeof sm, "sendmail-ok", body);
	memset(t, 0, sizeof t);
	t[0].kind = NOTIFY_WEBHOOK;
	t[0].url = hook;
	t[1].kind = NOTIFY_SMTP;
	t[1].url = smtp;
	t[1].from = "labrat <labrat@lab.invalid>";
	t[1].to = to2;
	t[2].kind = NOTIFY_SENDMAIL;
	smargv[0] = sm;
	t[2].argv = smargv;
	t[2].from = "labrat@lab.invalid";
	t[2].to = to2;
	t[0].timeout_s = t[1].timeout_s = t[2].timeout_s = 10;
	if (notify_send(t, 3, &m, err, sizeof err) != 0)
		fail_msg("notify_send: %s", err);

	/* webhook: the JSON byte for byte, as application/json */
	got = slurp(hs.dir, "1.body");
	want = notify_webhook_json(&m);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
	free(want);
	got = slurp(hs.dir, "1.head");
	assert_non_null(strstr(got, "POST /hook HTTP/1.1\r\n"));
	assert_non_null(strstr(got, "\r\nContent-Type: application/json\r\n"));
	free(got);

	/* smtp: the envelope, the headers, the body as generated */
	env = slurp(ss.dir, "1.env");
	assert_non_null(env);
	assert_true(strncmp(env, "MAIL FROM:<labrat@lab.invalid>", 30) == 0);
	assert_non_null(strstr(env, "\nRCPT TO:<dev1@lab.invalid>\n"
	    "RCPT TO:<dev2@lab.invalid>\n"));
	eml = slurp(ss.dir, "1.eml");
	assert_non_null(eml);
	assert_true(strncmp(eml, "Date: ", 6) == 0);
	assert_non_null(strstr(eml, "\r\nSubject: [labrat] r200140: em iperf3 "
	    "throughput -17.7% regression (TSO on,\r\n MTU 9000)\r\n"));
	assert_non_null(strstr(eml, "\r\nTo: Dev One <dev1@lab.invalid>, "
	    "dev2@lab.invalid\r\n"));
	ref = notify_mail_text_at(&m, t[1].from, to2, 0, NULL);
	assert_string_equal(strstr(eml, "\r\n\r\n"), strstr(ref, "\r\n\r\n"));
	free(env);
	free(eml);

	/* sendmail: the same message with LF lines, argv as configured */
	got = slurp(top, "sendmail.in");
	assert_non_null(got);
	assert_null(strchr(got, '\r'));
	assert_non_null(strstr(got, "\nSubject: [labrat] r200140: em iperf3 "));
	assert_non_null(strstr(got, "\n\nGreeting,\n"));
	assert_non_null(strstr(got, "\n  bad r200140\n"));
	free(got);
	got = slurp(top, "sendmail.args");
	assert_string_equal(got, "-i -t\n");
	free(got);
	free(ref);
	sink_stop(&hs);
	sink_stop(&ss);
}

static void
test_smtp_dots(void **state)
{
	struct sink		 ss;
	struct client_mail	 cm;
	const char		*msg = "Subject: dots\r\n\r\n.\r\n..\r\n.x\r\n"
	    "end\r\n.\r\n";
	char			 url[128], err[512], *eml;

	(void)state;
	sink_start(&ss, "LABRAT_SMTPSINK", "dots", NULL, NULL);
	snprintf(url, sizeof url, "smtp://127.0.0.1:%d", ss.port);
	memset(&cm, 0, sizeof cm);
	cm.url = url;
	cm.from = "a@lab.invalid";
	cm.to = to2;
	cm.message = msg;
	cm.timeout_ms = 10000;
	if (client_smtp_send(&cm, err, sizeof err) != 0)
		fail_msg("client_smtp_send: %s", err);
	/* libcurl stuffed the dots, smtpsink took them out again */
	eml = slurp(ss.dir, "1.eml");
	assert_non_null(eml);
	assert_string_equal(eml, msg);
	free(eml);

	/* an address smuggling a command is refused before connecting */
	cm.from = "a@b>\r\nRCPT TO:<evil@x";
	assert_int_equal(client_smtp_send(&cm, err, sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, ": from: mail address a@b>"));
	cm.from = "a@b\r\nRCPT TO:evil@x";
	assert_int_equal(client_smtp_send(&cm, err, sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, "character 0x0d not allowed"));
	assert_null(strpbrk(err, "\r\n"));
	cm.from = "a@lab.invalid";
	cm.to = (const char *const[]){ "b@x, evil@y", NULL };
	assert_int_equal(client_smtp_send(&cm, err, sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, "to[0]"));
	eml = slurp(ss.dir, "2.eml");
	assert_null(eml);
	sink_stop(&ss);
}

static int
send1(enum notify_target_kind k, const char *url, const char *const *argv,
    int tmo, char *err, size_t errlen)
{
	struct notify_msg	m = sample();
	struct notify_target	t;

	memset(&t, 0, sizeof t);
	t.kind = k;
	t.url = url;
	t.argv = argv;
	t.from = "labrat@lab.invalid";
	t.to = to2;
	t.timeout_s = tmo;
	return notify_send(&t, 1, &m, err, errlen);
}

static void
test_failures(void **state)
{
	struct sink		 hs, ss;
	struct notify_msg	 m = sample();
	struct notify_target	 t[2];
	char			 url[128], url2[128], err[2048];
	char			*eml;

	(void)state;
	sink_start(&hs, "LABRAT_HOOKSINK", "h500", "--status", "500");
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", hs.port);
	assert_int_equal(send1(NOTIFY_WEBHOOK, url, NULL, 5, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "1 of 1 notification targets failed: "));
	assert_non_null(strstr(err, url));
	assert_non_null(strstr(err, "HTTP 500: hooksink was told to fail"));
	assert_null(strstr(err, "\\x0a"));
	print_message("  error: %s\n", err);
	sink_stop(&hs);

	snprintf(url, sizeof url, "smtp://127.0.0.1:%d", free_port());
	assert_int_equal(send1(NOTIFY_SMTP, url, NULL, 5, err, sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, "smtp smtp://127.0.0.1:"));
	assert_non_null(strstr(err, url));
	snprintf(url, sizeof url, "http://127.0.0.1:%d/x", free_port());
	assert_int_equal(send1(NOTIFY_WEBHOOK, url, NULL, 5, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, url));

	sink_start(&ss, "LABRAT_SMTPSINK", "s550", "--rcpt-code", "550");
	snprintf(url, sizeof url, "smtp://127.0.0.1:%d", ss.port);
	assert_int_equal(send1(NOTIFY_SMTP, url, NULL, 5, err, sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, url));
	assert_non_null(strstr(err, "550"));
	sink_stop(&ss);

	/* one bad target does not stop the other, and only it is named */
	sink_start(&ss, "LABRAT_SMTPSINK", "sok", NULL, NULL);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/gone", free_port());
	snprintf(url2, sizeof url2, "smtp://127.0.0.1:%d", ss.port);
	memset(t, 0, sizeof t);
	t[0].kind = NOTIFY_WEBHOOK;
	t[0].url = url;
	t[1].kind = NOTIFY_SMTP;
	t[1].url = url2;
	t[1].from = "labrat@lab.invalid";
	t[1].to = to2;
	assert_int_equal(notify_send(t, 2, &m, err, sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, "1 of 2 notification targets failed: "
	    "webhook http://127.0.0.1:"));
	assert_null(strstr(err, url2));
	eml = slurp(ss.dir, "1.eml");
	assert_non_null(eml);
	free(eml);
	sink_stop(&ss);
}

static void
test_sendmail_failures(void **state)
{
	const char	*argv[] = { NULL, NULL };
	char		 sm[512], err[2048];
	int64_t		 t0;

	(void)state;
	script(sm, sizeof sm, "sendmail-75", "cat >/dev/null; echo 'queue "
	    "full' >&2; exit 75");
	argv[0] = sm;
	assert_int_equal(send1(NOTIFY_SENDMAIL, NULL, argv, 5, err,
	    sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, "sendmail "));
	assert_non_null(strstr(err, "sendmail-75: exited 75: queue full"));

	/* exits without reading a large message: an error, no SIGPIPE */
	script(sm, sizeof sm, "sendmail-3", "exit 3");
	assert_int_equal(client_sendmail(argv, "x", 5000, err, sizeof err), -1);
	print_message("  error: %s\n", err);
	{
		char	*big = malloc(4 * 1024 * 1024 + 1);

		memset(big, 'y', 4 * 1024 * 1024);
		big[4 * 1024 * 1024] = '\0';
		assert_int_equal(client_sendmail(argv, big, 5000, err,
		    sizeof err), -1);
	print_message("  error: %s\n", err);
		assert_non_null(strstr(err, "exited 3"));
		free(big);
	}

	script(sm, sizeof sm, "sendmail-hang", "exec sleep 30");
	t0 = util_now_ms();
	assert_int_equal(send1(NOTIFY_SENDMAIL, NULL, argv, 1, err,
	    sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, "sendmail-hang: timed out after 1000 ms"));
	assert_true(util_now_ms() - t0 < 4000);

	argv[0] = "labrat-no-such-sendmail";
	assert_int_equal(send1(NOTIFY_SENDMAIL, NULL, argv, 1, err,
	    sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, "sendmail labrat-no-such-sendmail: not "
	    "found"));
}

/* A listener that never accepts: the kernel completes the handshake,
 * nobody ever speaks.  Returns the socket (port in *port). */
static int
mute_listener(int *port)
{
	struct sockaddr_in	sin;
	socklen_t		sl = sizeof sin;
	int			s = socket(AF_INET, SOCK_STREAM, 0);

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(listen(s, 4), 0);
	getsockname(s, (struct sockaddr *)&sin, &sl);
	*port = ntohs(sin.sin_port);
	return s;
}

/* A server that never answers costs the target's timeout, no more. */
static void
test_timeouts(void **state)
{
	char	url[128], err[1024];
	int	s, port;
	int64_t	t0;

	(void)state;
	s = mute_listener(&port);
	snprintf(url, sizeof url, "smtp://127.0.0.1:%d", port);
	t0 = util_now_ms();
	assert_int_equal(send1(NOTIFY_SMTP, url, NULL, 1, err, sizeof err), -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, url));
	assert_non_null(strstr(err, "timed out"));
	assert_true(util_now_ms() - t0 < 4000);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", port);
	t0 = util_now_ms();
	assert_int_equal(send1(NOTIFY_WEBHOOK, url, NULL, 1, err, sizeof err),
	    -1);
	print_message("  error: %s\n", err);
	assert_non_null(strstr(err, url));
	assert_non_null(strstr(err, "timed out"));
	assert_true(util_now_ms() - t0 < 4000);
	close(s);
}

/* The program inherits stdin/stdout/stderr only, not our other files. */
static void
test_sendmail_fds(void **state)
{
	const char	*argv[] = { NULL, NULL };
	char		 sm[512], body[256], err[1024];
	int		 fd;

	(void)state;
	fd = open("/dev/null", O_RDONLY);	/* no O_CLOEXEC */
	assert_true(fd > 2);
	snprintf(body, sizeof body, "cat >/dev/null; [ -e /proc/$$/fd/%d ] "
	    "&& { echo leaked fd %d; exit 9; }; exit 0", fd, fd);
	script(sm, sizeof sm, "sendmail-fds", body);
	argv[0] = sm;
	if (client_sendmail(argv, "Subject: x\r\n\r\nbody\r\n", 5000, err,
	    sizeof err) != 0)
		fail_msg("%s", err);
	close(fd);
}

static int
setup(void **state)
{
	(void)state;
	srand((unsigned)getpid());
	if (fx_tmpdir(top, sizeof top, "notify") == -1)
		return -1;
	return client_global_init();
}

static int
teardown(void **state)
{
	int	i;

	(void)state;
	for (i = 0; i < nsinks; i++)
		if (sinks[i] > 0) {
			kill(sinks[i], SIGKILL);
			waitpid(sinks[i], NULL, 0);
		}
	fx_rmtree(top);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_send_all),
		cmocka_unit_test(test_smtp_dots),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_sendmail_failures),
		cmocka_unit_test(test_sendmail_fds),
		cmocka_unit_test(test_timeouts),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
