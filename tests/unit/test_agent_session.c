/*
 * test_agent_session: the agent's `session` (agents/cmd_session.c).
 * - The request framing's parsers take what the controller sends and
 *   refuse what is malformed or past the ceilings.
 * - The real agent binary ($LABRAT_AGENT) run as `session` on pipes: its
 *   hello names its hash; commands answer as they would on a channel of
 *   their own (exit status, stdout, stderr; the --version JSON carries the
 *   hello's hash), one after another on the same process; a command's
 *   stdin is /dev/null, not the session's; a malformed request ends the
 *   session with an error line; the end of input ends it with status 0;
 *   once the agent's file is removed or replaced, a command is not run
 *   ("gone") and the session ends.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "agent.h"

static void
test_head(void **state)
{
	static const char *bad[] = {
		"call 0 1", "call 65 100", "call 1 65537", "call 2 1",
		"call 1 10 x", "call -1 5", "CALL 1 10", "call 1", "call",
		"call 1 10\r", "call 1 0x10", "", "call 1 99999999999999999999",
	};
	size_t	n, len, i;

	(void)state;
	assert_int_equal(agent_session_head("call 1 10", &n, &len), 0);
	assert_int_equal(n, 1);
	assert_int_equal(len, 10);
	assert_int_equal(agent_session_head("call 64 65536", &n, &len), 0);
	assert_int_equal(n, 64);
	assert_int_equal(len, 65536);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (agent_session_head(bad[i], &n, &len) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
}

static void
test_args(void **state)
{
	char	*argv[SESSION_ARGS_MAX + 1];

	(void)state;
	assert_int_equal(agent_session_args("facts\0--if\0em0\0", 15, 3,
	    argv), 0);
	assert_string_equal(argv[0], "facts");
	assert_string_equal(argv[1], "--if");
	assert_string_equal(argv[2], "em0");
	assert_null(argv[3]);
	/* An empty argument is an argument. */
	assert_int_equal(agent_session_args("confirm\0\0", 9, 2, argv), 0);
	assert_string_equal(argv[1], "");
	/* Fewer or more strings than announced, or no final NUL. */
	assert_int_equal(agent_session_args("facts\0--if\0", 11, 3, argv), -1);
	assert_int_equal(agent_session_args("facts\0--if\0", 11, 1, argv), -1);
	assert_int_equal(agent_session_args("facts\0--if", 10, 2, argv), -1);
	assert_int_equal(agent_session_args("", 0, 1, argv), -1);
}

/* The agent as `session` on two pipes. */
struct sess {
	pid_t	 pid;
	int	 in;		/* its stdin */
	FILE	*out;		/* its stdout */
};

static void
sess_start_at(struct sess *s, const char *agent)
{
	int		 pi[2], po[2];

	assert_int_equal(pipe(pi), 0);
	assert_int_equal(pipe(po), 0);
	if ((s->pid = fork()) == 0) {
		dup2(pi[0], 0);
		dup2(po[1], 1);
		close(pi[0]); close(pi[1]); close(po[0]); close(po[1]);
		execl(agent, agent, "session", (char *)NULL);
		_exit(127);
	}
	assert_true(s->pid > 0);
	close(pi[0]);
	close(po[1]);
	s->in = pi[1];
	s->out = fdopen(po[0], "r");
	assert_non_null(s->out);
}

static void
sess_start(struct sess *s)
{
	if (getenv("LABRAT_AGENT") == NULL)
		fail_msg("LABRAT_AGENT is not set");
	sess_start_at(s, getenv("LABRAT_AGENT"));
}

static void
sess_send(struct sess *s, const char *raw, size_t len)
{
	assert_int_equal(write(s->in, raw, len), (ssize_t)len);
}

/* Sends argv as a request; reads the answer into out and err (NUL-ended,
 * malloc'd); returns the exit status (-1: killed, sig set). */
static int
sess_call(struct sess *s, const char *const *argv, char **out, char **err)
{
	char	 req[4096], line[256], sig[32];
	size_t	 len = 0, n, i, ol, el;
	int	 ex;

	for (n = 0; argv[n] != NULL; n++) {
		memcpy(req + len, argv[n], strlen(argv[n]) + 1);
		len += strlen(argv[n]) + 1;
	}
	i = (size_t)snprintf(line, sizeof line, "call %zu %zu\n", n, len);
	sess_send(s, line, i);
	sess_send(s, req, len);
	assert_non_null(fgets(line, sizeof line, s->out));
	if (sscanf(line, "done %d %31s %zu %zu", &ex, sig, &ol, &el) != 4)
		fail_msg("answer line \"%s\"", line);
	*out = calloc(1, ol + 1);
	*err = calloc(1, el + 1);
	assert_int_equal(fread(*out, 1, ol, s->out), ol);
	assert_int_equal(fread(*err, 1, el, s->out), el);
	return ex;
}

static int
sess_end(struct sess *s)
{
	int	st;

	if (s->in >= 0)
		close(s->in);
	assert_int_equal(waitpid(s->pid, &st, 0), s->pid);
	fclose(s->out);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static void
test_session(void **state)
{
	static const char *const ver[] = { "--version", NULL };
	static const char *const bad[] = { "facts", "--no-such-flag", NULL };
	static const char *const nosuch[] = { "frobnicate", NULL };
	/* A session inside: its stdin is the command's, /dev/null, so it
	 * says hello and ends at once. */
	static const char *const inner[] = { "session", NULL };
	struct sess	 s;
	char		 hello[128], want[160], *out, *err;
	pid_t		 first;

	(void)state;
	sess_start(&s);
	assert_non_null(fgets(hello, sizeof hello, s.out));
	assert_int_equal(strncmp(hello, "labrat-session 1 ", 17), 0);
	hello[strcspn(hello, "\n")] = '\0';
	snprintf(want, sizeof want, "\"source_hash\":\"%s\"", hello + 17);

	assert_int_equal(sess_call(&s, ver, &out, &err), 0);
	assert_non_null(strstr(out, want));
	assert_string_equal(err, "");
	free(out);
	free(err);

	assert_int_equal(sess_call(&s, bad, &out, &err), AGENT_EXIT_USAGE);
	assert_non_null(strstr(out, "\"event\":\"error\""));
	assert_non_null(strstr(out, "\"class\":\"usage\""));
	free(out);
	free(err);

	assert_int_equal(sess_call(&s, nosuch, &out, &err), AGENT_EXIT_USAGE);
	assert_non_null(strstr(out, "no such command"));
	assert_non_null(strstr(err, "usage: labrat-agent"));
	free(out);
	free(err);

	assert_int_equal(sess_call(&s, inner, &out, &err), 0);
	assert_int_equal(strncmp(out, hello, strlen(hello)), 0);
	free(out);
	free(err);

	/* The same process answered all of them, and still does. */
	first = s.pid;
	assert_int_equal(kill(first, 0), 0);
	assert_int_equal(sess_call(&s, ver, &out, &err), 0);
	free(out);
	free(err);
	assert_int_equal(sess_end(&s), 0);
}

static void
test_session_malformed(void **state)
{
	struct sess	 s;
	char		 line[256];

	(void)state;
	sess_start(&s);
	assert_non_null(fgets(line, sizeof line, s.out));
	sess_send(&s, "call 2 6\nab\0cd", 14);	/* one NUL short */
	sess_send(&s, "x", 1);
	assert_non_null(fgets(line, sizeof line, s.out));
	assert_string_equal(line, "error malformed arguments\n");
	assert_int_equal(sess_end(&s), AGENT_EXIT_USAGE);

	sess_start(&s);
	assert_non_null(fgets(line, sizeof line, s.out));
	sess_send(&s, "rm -rf /\n", 9);
	assert_non_null(fgets(line, sizeof line, s.out));
	assert_string_equal(line, "error malformed request line\n");
	assert_int_equal(sess_end(&s), AGENT_EXIT_USAGE);

	/* Input that ends inside a request. */
	sess_start(&s);
	assert_non_null(fgets(line, sizeof line, s.out));
	sess_send(&s, "call 1 10\nfac", 13);
	close(s.in);
	s.in = -1;
	assert_non_null(fgets(line, sizeof line, s.out));
	assert_string_equal(line, "error input ended inside a request\n");
	assert_int_equal(sess_end(&s), AGENT_EXIT_USAGE);
}

/* The agent's file removed, or replaced (a redeploy), under a session:
 * the next command is not run ("gone") and the session ends. */
static void
test_session_gone(void **state)
{
	static const char *const ver[] = { "--version", NULL };
	struct sess	 s;
	char		 dir[] = "/tmp/lrsess.XXXXXX", path[64], cmd[256];
	char		 line[256], *out, *err;
	int		 replace;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/labrat-agent", dir);
	for (replace = 0; replace < 2; replace++) {
		snprintf(cmd, sizeof cmd, "cp '%s' %s", getenv("LABRAT_AGENT"),
		    path);
		assert_int_equal(system(cmd), 0);
		sess_start_at(&s, path);
		assert_non_null(fgets(line, sizeof line, s.out));
		assert_int_equal(sess_call(&s, ver, &out, &err), 0);
		free(out);
		free(err);
		snprintf(cmd, sizeof cmd, replace ? "cp %s %s.new && mv %s.new "
		    "%s" : "rm %s", path, path, path, path);
		assert_int_equal(system(cmd), 0);
		sess_send(&s, "call 1 10\n--version", 20);
		assert_non_null(fgets(line, sizeof line, s.out));
		assert_string_equal(line, "gone\n");
		assert_int_equal(sess_end(&s), 0);
	}
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_session),
		cmocka_unit_test(test_session_malformed),
		cmocka_unit_test(test_session_gone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
