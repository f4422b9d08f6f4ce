/*
 * test_agentctl_session: how the controller reads the agent's `session`
 * (controller/agentctl_session.c): a hello, then answers, arriving in any
 * pieces; what is not an answer, or says more than one, or a stdout past
 * the ceiling, is refused.  (The session against a real sshd and the real
 * agent: test_agentctl.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "agentctl.h"
#include "agentctl_int.h"
#include "util.h"

/* Feeds text in pieces of step bytes; the parse's last word. */
static int
feed(struct agentctl_sess_parse *p, const char *text, size_t len,
    size_t step, int hello, struct buf *in)
{
	size_t	i, n;
	int	r = 0;

	memset(p, 0, sizeof *p);
	p->hash = "0123456789abcdef";
	p->want_hello = hello;
	p->out_max = 1000;
	p->err_max = 100;
	buf_init(in, 4096);
	for (i = 0; i < len; i += n) {
		n = len - i < step ? len - i : step;
		buf_append(in, text + i, n);
		if ((r = agentctl_sess_parse(in, p)) != 0)
			break;
	}
	return r;
}

static void
test_answers(void **state)
{
	static const char ok[] = "labrat-session 1 0123456789abcdef\n"
	    "done 3 - 5 4\nhello" "oops";
	struct agentctl_sess_parse	p;
	struct buf			in;
	size_t				step;

	(void)state;
	for (step = 1; step <= sizeof ok; step++) {
		assert_int_equal(feed(&p, ok, sizeof ok - 1, step, 1, &in), 1);
		assert_true(p.hello_seen);
		assert_int_equal(p.exit_status, 3);
		assert_string_equal(p.sig, "");
		assert_int_equal(p.outlen, 5);
		assert_int_equal(p.errlen, 4);
		assert_memory_equal(in.data + p.body, "hellooops", 9);
		buf_free(&in);
	}
	/* Without a hello (a session already going); killed by a signal;
	 * nothing said at all. */
	assert_int_equal(feed(&p, "done -1 KILL 0 0\n", 17, 3, 0, &in), 1);
	assert_int_equal(p.exit_status, -1);
	assert_string_equal(p.sig, "KILL");
	buf_free(&in);
	assert_int_equal(feed(&p, "done 0 - 0 0\n", 13, 100, 0, &in), 1);
	buf_free(&in);
	/* Short: not yet. */
	assert_int_equal(feed(&p, "done 0 - 10 0\nabc", 17, 100, 0, &in), 0);
	buf_free(&in);
}

static void
test_refused(void **state)
{
	static const struct {
		const char	*text;
		int		 hello;
		const char	*why;		/* NULL: overflow */
	} cases[] = {
		{ "{\"proto\":1,\"event\":\"error\"}\n", 1, "no session hello" },
		{ "labrat-session 1 ffffffffffffffff\n", 1, "no session hello" },
		{ "labrat-session 2 0123456789abcdef\n", 1, "no session hello" },
		{ "done 0 - 2 0\nabX", 0, "more than the answer" },
		{ "done 256 - 0 0\n", 0, "malformed answer line" },
		{ "done -1 - 0 0\n", 0, "malformed answer line" },
		{ "done 0 KILL 0 0\n", 0, "malformed answer line" },
		{ "done 0 \x1b[2J 0 0\n", 0, "malformed answer line" },
		{ "done 0 - 0 101\n", 0, "malformed answer line" },
		{ "done 0 - -1 0\n", 0, "malformed answer line" },
		{ "done 0 - 0 0 extra\n", 0, "malformed answer line" },
		{ "error malformed request line\n", 0, "malformed answer line" },
		{ "gone\n", 0, "the agent's file changed" },
		{ "done 0 - 1001 0\n", 0, NULL },
		{ "overflow 8388608\n", 0, NULL },
	};
	struct agentctl_sess_parse	p;
	struct buf			in;
	char				 big[400];
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (feed(&p, cases[i].text, strlen(cases[i].text),
		    strlen(cases[i].text), cases[i].hello, &in) != -1)
			fail_msg("accepted \"%s\"", cases[i].text);
		if (cases[i].why == NULL)
			assert_true(p.overflow);
		else
			assert_string_equal(p.why, cases[i].why);
		buf_free(&in);
	}
	/* A line without its end that is already too long. */
	memset(big, 'x', sizeof big);
	assert_int_equal(feed(&p, big, sizeof big, 50, 1, &in), -1);
	assert_string_equal(p.why, "no session hello");
	buf_free(&in);
	assert_int_equal(feed(&p, big, sizeof big, 50, 0, &in), -1);
	assert_string_equal(p.why, "answer line too long");
	buf_free(&in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
