/*
 * test_agentctl_hostile: a lab host that lies or vanishes.
 * - The decoder refuses a host string that has a pattern (the issue's
 *   kernel revision with a newline, clear-screen and title sequences, a
 *   driver or version with escapes) naming its JSON path, neutralises
 *   free text (kernel version, error messages), rejects what json-c would
 *   accept and change (NUL in a key, overlong UTF-8, a lone surrogate) and
 *   100,000 levels of nesting, and no message carries a raw control byte.
 * - Over a real sshd (sshd_fixture.h), with small stub agents: the
 *   deployed binary deleted between two commands is redeployed once and
 *   the second command succeeds; one replaced by another version is
 *   redeployed; a host where the redeploy keeps failing gives a clear
 *   error per call, in bounded time, never a loop.
 */
#include <sys/stat.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sshd_fixture.h"

#include "agentctl.h"
#include "embed.h"
#include "ssh.h"
#include "util.h"

static struct sshd_fixture fx;
static int have_sshd;

static int
dec(enum agentctl_cmd cmd, const char *text, size_t len,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	return agentctl_decode("em-a", agentctl_cmd_name(cmd), cmd, text,
	    len, 0, 0, r, err, errlen);
}

/* No byte a terminal would act on. */
static void
assert_no_controls(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fail_msg("control byte 0x%02x in \"%s\"",
			    (unsigned char)*s, s);
}

/* A facts line with one field replaced: FIELD is the JSON text after it. */
static char *
facts(const char *rev, const char *version, const char *driver,
    const char *tool)
{
	return xasprintf("{\"proto\":1,\"event\":\"result\",\"cmd\":\"facts\","
	    "\"os\":\"freebsd\",\"hostname\":\"em-a\",\"kernel\":{\"release\":"
	    "\"8.1-PRERELEASE\",\"version\":%s,\"revision\":%s,\"osreldate\":"
	    "801000},\"nics\":[{\"name\":\"em0\",\"driver\":%s,\"pci_vendor\":"
	    "null,\"pci_device\":null,\"chip\":null,\"speed_mbps\":1000,"
	    "\"duplex\":\"full\",\"mtu\":1500,\"tso\":true,\"lro\":false,"
	    "\"rxcsum\":true,\"txcsum\":true}],\"tools\":{\"iperf2\":%s,"
	    "\"iperf3\":null,\"scp\":null}}\n", version, rev, driver, tool);
}

#define EVIL	"\"r200399\\\"\\n\\u001b[2J\\u001b[31mEVIL\\u001b]0;PWNED\\u0007\""

static const struct {
	const char	*rev, *version, *driver, *tool;
	const char	*frag;		/* NULL: decodes */
} facts_cases[] = {
	{ "\"r200399\"", "\"FreeBSD 8.1\"", "\"em\"", "\"2.0.5\"", NULL },
	{ EVIL, "\"v\"", "\"em\"", "\"2.0.5\"",
	  "kernel.revision: \"r200399\"\\x0a\\x1b[2J\\x1b[31mEVIL\\x1b]0;"
	  "PWNED\\x07\" is not a revision (^[A-Za-z0-9._-]{1,64}$)" },
	{ "\"r1 r2\"", "\"v\"", "\"em\"", "\"2.0.5\"",
	  "kernel.revision: \"r1 r2\" is not a revision" },
	{ "null", "\"v\"", "\"em\\u001b[2J\"", "\"2.0.5\"",
	  "nics[0].driver: \"em\\x1b[2J\" is not a driver name" },
	{ "null", "\"v\"", "\"em\"", "\"2.0.5\\r\\n\"",
	  "tools.iperf2: \"2.0.5\\x0d\\x0a\" is not a version" },
	/* Free text is kept, neutralised. */
	{ "null", "\"FreeBSD \\u001b]0;PWNED\\u0007 r1\"", "\"em\"", "null",
	  NULL },
};

static void
test_decode_hostile_facts(void **state)
{
	struct agentctl_reply	r;
	char			err[1024], *t;
	size_t			i;
	int			rc;

	(void)state;
	for (i = 0; i < sizeof facts_cases / sizeof facts_cases[0]; i++) {
		t = facts(facts_cases[i].rev, facts_cases[i].version,
		    facts_cases[i].driver, facts_cases[i].tool);
		err[0] = '\0';
		rc = dec(AGENTCTL_FACTS, t, strlen(t), &r, err, sizeof err);
		if (facts_cases[i].frag == NULL) {
			if (rc != 0)
				fail_msg("case %zu: %s", i, err);
			assert_no_controls(r.u.facts.kernel_version);
		} else {
			if (rc != -1 || strstr(err, facts_cases[i].frag) ==
			    NULL)
				fail_msg("case %zu: rc %d \"%s\"", i, rc, err);
			assert_non_null(strstr(err, "em-a: labrat-agent facts: "
			    "kernel") != NULL || strstr(err, "em-a: labrat-"
			    "agent facts: nics") != NULL || strstr(err,
			    "tools.") != NULL ? err : NULL);
			assert_no_controls(err);
		}
		if (i == 5)
			assert_string_equal(r.u.facts.kernel_version,
			    "FreeBSD \\x1b]0;PWNED\\x07 r1");
		agentctl_reply_free(&r);
		free(t);
	}
}

/* Every string field of facts with an escape in it: refused naming the
 * field where it has a pattern, neutralised where it is free text. */
static void
test_decode_every_string(void **state)
{
	static const struct {
		const char	*field;	/* "KEY":"VALUE" in the good line */
		const char	*path;	/* NULL: free text, decodes */
	} fields[] = {
		{ "\"os\":\"freebsd\"", "result.os" },
		{ "\"hostname\":\"em-a\"", NULL },
		{ "\"release\":\"8.1-PRERELEASE\"", "kernel.release" },
		{ "\"version\":\"FreeBSD 8.1\"", NULL },
		{ "\"revision\":\"r200399\"", "kernel.revision" },
		{ "\"name\":\"em0\"", "nics[0].name" },
		{ "\"driver\":\"em\"", "nics[0].driver" },
		{ "\"duplex\":\"full\"", NULL },
		{ "\"iperf2\":\"2.0.5\"", "tools.iperf2" },
	};
	struct agentctl_reply	 r;
	const struct agentctl_facts *f = &r.u.facts;
	char			 err[1024], *good, *t, *at, frag[64];
	size_t			 i, k, flen;

	(void)state;
	good = facts("\"r200399\"", "\"FreeBSD 8.1\"", "\"em\"", "\"2.0.5\"");
	for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		at = strstr(good, fields[i].field);
		assert_non_null(at);
		flen = strlen(fields[i].field);
		/* "KEY":"VAL" -> "KEY":"VAL\u001b[2J" */
		t = xasprintf("%.*s\\u001b[2J\\u0007%s", (int)(at - good +
		    flen - 1), good, at + flen - 1);
		err[0] = '\0';
		if (fields[i].path != NULL) {
			snprintf(frag, sizeof frag, "%s: \"", fields[i].path);
			if (dec(AGENTCTL_FACTS, t, strlen(t), &r, err,
			    sizeof err) != -1 || strstr(err, frag) == NULL ||
			    strstr(err, "\\x1b[2J\\x07\" is not ") == NULL)
				fail_msg("%s: \"%s\"", fields[i].field, err);
			assert_no_controls(err);
		} else {
			if (dec(AGENTCTL_FACTS, t, strlen(t), &r, err,
			    sizeof err) != 0)
				fail_msg("%s: %s", fields[i].field, err);
			assert_no_controls(f->hostname);
			assert_no_controls(f->kernel_version);
			for (k = 0; k < f->nnics; k++)
				assert_no_controls(f->nics[k].duplex);
			assert_true(strstr(f->hostname, "\\x1b[2J") != NULL ||
			    strstr(f->kernel_version, "\\x1b[2J") != NULL ||
			    strstr(f->nics[0].duplex, "\\x1b[2J") != NULL);
		}
		agentctl_reply_free(&r);
		free(t);
	}
	free(good);
}

/* Raw lines a hostile agent may print: each fails, no control in err. */
static void
test_decode_hostile_lines(void **state)
{
	static const struct {
		const char	*text;
		size_t		 len;
		const char	*frag;
	} lines[] = {
		{ "{\"proto\":1,\"event\":\"error\",\"class\":\"command\","
		  "\"message\":\"\\u001b[2Jgone\"}\n", 0,
		  "command error (exit 0): \\x1b[2Jgone" },
		{ "\033[2J\033]0;PWNED\a not json\n", 0,
		  "not one JSON object" },
		{ "{\"proto\":1,\"event\":\"progress\",\"m\\u0000x\":1}\n", 0,
		  "NUL (\\u0000) in a key" },
		{ "{\"proto\":1,\"event\":\"progress\",\"m\":\"\xc0\xaf\"}\n", 0,
		  "m: overlong UTF-8" },
		{ "{\"proto\":1,\"event\":\"progress\",\"m\":\"\\ud800x\"}\n", 0,
		  "m: lone high surrogate" },
		{ "{\"proto\":1,\"event\":\"progress\",\"event\":\"result\"}\n",
		  0, "event: duplicate key" },
		{ "{\"proto\":1,\"event\":\"result\",\"cmd\":\"version\","
		  "\"version\":\"1\\u001b\",\"source_hash\":\"ab\"}\n", 0,
		  "version: \"1\\x1b\" is not a version" },
	};
	struct agentctl_reply	r;
	char			err[1024];
	size_t			i;
	enum agentctl_cmd	cmd;

	(void)state;
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		cmd = strstr(lines[i].text, "version\"") != NULL ?
		    AGENTCTL_VERSION : AGENTCTL_FACTS;
		err[0] = '\0';
		if (dec(cmd, lines[i].text, strlen(lines[i].text), &r, err,
		    sizeof err) != -1 || strstr(err, lines[i].frag) == NULL)
			fail_msg("line %zu: \"%s\"", i, err);
		assert_no_controls(err);
		agentctl_reply_free(&r);
	}
}

/* 100,000 levels of nesting: refused at once, no deep recursion. */
static void
test_decode_deep(void **state)
{
	struct agentctl_reply	r;
	struct buf		b;
	char			err[1024];
	size_t			i;
	int64_t			t0;

	(void)state;
	buf_init(&b, 1 << 20);
	buf_printf(&b, "{\"proto\":1,\"event\":\"progress\",\"x\":");
	for (i = 0; i < 100000; i++)
		buf_append(&b, "[", 1);
	for (i = 0; i < 100000; i++)
		buf_append(&b, "]", 1);
	buf_append(&b, "}\n", 2);
	t0 = util_now_ms();
	assert_int_equal(dec(AGENTCTL_FACTS, b.data, b.len, &r, err,
	    sizeof err), -1);
	print_message("100,000 levels: %s\n", err);
	assert_true(util_now_ms() - t0 < 1000);
	assert_non_null(strstr(err, "em-a: labrat-agent facts: line 1: not "
	    "one JSON object (nesting too deep)"));
	agentctl_reply_free(&r);
	buf_free(&b);
}

/* ---- over a real sshd ---------------------------------------------- */

static struct ssh_conn *
conn(void)
{
	struct ssh_target	 t;
	struct ssh_conn		*c;
	char			 err[512];

	memset(&t, 0, sizeof t);
	t.name = "lab-h1";
	t.address = "127.0.0.1";
	t.port = fx.port;
	t.key = fx.key;
	t.known_hosts = fx.known_hosts;
	t.connect_timeout_ms = 3000;
	if ((c = ssh_open(&t, err, sizeof err)) == NULL)
		fail_msg("ssh_open: %s", err);
	return c;
}

/* A stub: --version says its hash, confirm answers (but not in the
 * "other version", hash ...1); others are a usage error, exit 2. */
static const char stub_c[] =
    "#include <stdio.h>\n#include <string.h>\n"
    "int main(int argc, char **argv) {\n"
    "  if (argc < 2) return 2;\n"
    "  if (!strcmp(argv[1], \"--version\")) {\n"
    "    printf(\"{\\\"proto\\\":1,\\\"event\\\":\\\"result\\\",\\\"cmd\\\":"
    "\\\"version\\\",\\\"version\\\":\\\"0\\\",\\\"source_hash\\\":\\\"%s\\\"}"
    "\\n\", LABRAT_AGENT_HASH);\n    return 0;\n  }\n"
    "  if (!strcmp(argv[1], \"confirm\") && argc > 3 &&\n"
    "      strcmp(LABRAT_AGENT_HASH, \"4ede000000000001\")) {\n"
    "    printf(\"{\\\"proto\\\":1,\\\"event\\\":\\\"result\\\",\\\"cmd\\\":"
    "\\\"confirm\\\",\\\"if\\\":\\\"%s\\\",\\\"cancelled\\\":true}\\n\", "
    "argv[3]);\n    return 0;\n  }\n"
    "  printf(\"{\\\"proto\\\":1,\\\"event\\\":\\\"error\\\",\\\"class\\\":"
    "\\\"usage\\\",\\\"message\\\":\\\"unknown subcommand\\\"}\\n\");\n"
    "  return 2;\n}\n";

static const char *const confirm[] = { "confirm", "--if", "em0", NULL };

static void
bundle(struct agentctl_bundle *b, struct embed_file *files, const char *h)
{
	files[0] = (struct embed_file){ "stub.c",
	    (const unsigned char *)stub_c, sizeof stub_c - 1 };
	files[1] = (struct embed_file){ NULL, NULL, 0 };
	b->hash = h;
	b->files = files;
}

static void
call_ok(struct agentctl *a, const char *what)
{
	struct agentctl_reply	r;
	char			err[2048];

	if (agentctl_call(a, confirm, 60000, &r, err, sizeof err) != 0)
		fail_msg("%s: %s", what, err);
	assert_string_equal(r.u.confirm.ifname, "em0");
	agentctl_reply_free(&r);
}

static void
test_redeploy(void **state)
{
	struct embed_file		 fa[2], fb[2];
	struct agentctl_bundle		 a_b, b_b;
	struct agentctl_deploy_info	 info, infob;
	struct ssh_conn			*c;
	struct agentctl			*a, *b;
	struct stat			 st;
	ino_t				 ino;

	(void)state;
	if (!have_sshd)
		skip();
	bundle(&a_b, fa, "4ede000000000000");
	bundle(&b_b, fb, "4ede000000000001");
	c = conn();
	a = agentctl_new(c);
	b = agentctl_new(c);
	if (agentctl_deploy(a, &a_b, 60000, &info, NULL, 0) != 0 ||
	    agentctl_deploy(b, &b_b, 60000, &infob, NULL, 0) != 0)
		fail_msg("deploy the stubs");
	call_ok(a, "deployed");

	/* Deleted between two commands: exit 127, redeployed, run again. */
	assert_int_equal(fx_sh("rm -f %s", info.path), 0);
	call_ok(a, "after rm");
	assert_int_equal(stat(info.path, &st), 0);
	ino = st.st_ino;
	call_ok(a, "redeployed");
	assert_int_equal(stat(info.path, &st), 0);
	assert_true(st.st_ino == ino);		/* one redeploy, not one a call */

	/* Not executable any more: exit 126, same. */
	assert_int_equal(fx_sh("chmod a-x %s", info.path), 0);
	call_ok(a, "after chmod");

	/* Another version in its place: a usage error, then --version
	 * says so, and it is redeployed. */
	assert_int_equal(fx_sh("cp %s %s", infob.path, info.path), 0);
	call_ok(a, "other version");
	assert_int_equal(fx_sh("%s --version | grep -q 4ede000000000000",
	    info.path), 0);
	agentctl_free(a);
	agentctl_free(b);
	ssh_close(c);
}

static void
test_redeploy_fails(void **state)
{
	struct embed_file		 fa[2];
	struct agentctl_bundle		 a_b;
	struct agentctl_deploy_info	 info;
	struct agentctl_reply		 r;
	struct ssh_conn			*c;
	struct agentctl			*a;
	char				 err[2048], dir[600];
	int64_t				 t0;
	int				 i;

	(void)state;
	if (!have_sshd)
		skip();
	bundle(&a_b, fa, "4ede000000000002");
	c = conn();
	a = agentctl_new(c);
	if (agentctl_deploy(a, &a_b, 60000, &info, err, sizeof err) != 0)
		fail_msg("deploy: %s", err);
	call_ok(a, "deployed");
	/* The agent's directory becomes a file: no binary, and no build
	 * can put one there. */
	snprintf(dir, sizeof dir, "%s/agent/4ede000000000002", fx.state);
	assert_int_equal(fx_sh("rm -rf %s && touch %s", dir, dir), 0);
	for (i = 0; i < 2; i++) {
		t0 = util_now_ms();
		assert_int_equal(agentctl_call(a, confirm, 60000, &r, err,
		    sizeof err), -1);
		print_message("redeploy fails: %lld ms: %s\n",
		    (long long)(util_now_ms() - t0), err);
		assert_true(util_now_ms() - t0 < 30000);
		assert_non_null(strstr(err, "lab-h1: labrat-agent confirm "
		    "--if em0: exited 12"));
		assert_non_null(strstr(err, "redeploying the agent failed: "
		    "lab-h1: build labrat-agent"));
		agentctl_reply_free(&r);
	}
	assert_int_equal(fx_sh("rm -f %s", dir), 0);
	call_ok(a, "fixed");
	agentctl_free(a);
	ssh_close(c);
}

static int
group_setup(void **state)
{
	(void)state;
	ssh_global_init();
	have_sshd = fx_setup(&fx) == 0;
	if (!have_sshd)
		fx_teardown(&fx);
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	if (have_sshd)
		fx_teardown(&fx);
	ssh_global_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_hostile_facts),
		cmocka_unit_test(test_decode_every_string),
		cmocka_unit_test(test_decode_hostile_lines),
		cmocka_unit_test(test_decode_deep),
		cmocka_unit_test(test_redeploy),
		cmocka_unit_test(test_redeploy_fails),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
