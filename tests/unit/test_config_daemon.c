/*
 * test_config_daemon: the daemon config (config_daemon.c).  The two example
 * configs load with their values and defaults; relative paths resolve
 * against the config file; a table of bad configs, each with the exact
 * error it must produce (file and JSON path); several errors at once are
 * all reported; config_detect tells a daemon config from the others.
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
#include "util.h"

static char *
src_path(const char *rel)
{
	const char	*d = getenv("LABRAT_SOURCE_DIR");

	return xasprintf("%s/%s", d != NULL ? d : ".", rel);
}

static void
test_examples(void **state)
{
	struct config_errors	 e;
	struct config_daemon	*d;
	char			*p, *want, err[256];

	(void)state;
	config_errors_init(&e);
	p = src_path("configs/daemon-simlab.json");
	assert_int_equal(config_daemon_load(p, &d, &e, err, sizeof err), 0);
	assert_int_equal(e.n, 0);
	assert_string_equal(d->inventories[0],
	    "/run/labrat-lab/simlab/inventory.json");
	assert_null(d->inventories[1]);
	assert_int_equal(d->nsources, 1);
	assert_string_equal(d->sources[0].name, "simlab");
	want = src_path("configs/simlab/history.json");
	assert_string_equal(d->sources[0].revisions, want);
	free(want);
	assert_string_equal(d->sources[0].newest_cmd[0], "labrat");
	assert_string_equal(d->sources[0].newest_cmd[3], "--name");
	assert_string_equal(d->sources[0].newest_cmd[4], "simlab");
	assert_string_equal(d->sources[0].newest_cmd[7], "--print-head");
	assert_null(d->sources[0].newest_cmd[8]);
	assert_null(d->sources[0].newest_git);
	assert_ptr_equal(config_daemon_source(d, "simlab"), &d->sources[0]);
	assert_null(config_daemon_source(d, "other"));
	assert_int_equal(d->nwebhooks, 1);
	assert_int_equal(d->webhooks[0].timeout_s, 5);
	assert_non_null(d->mail);
	assert_string_equal(d->mail->smtp_url, "smtp://127.0.0.1:2525");
	assert_null(d->mail->sendmail);
	assert_string_equal(d->mail->to[0], "netdev@localhost");
	assert_int_equal(d->health_interval_s, 86400);
	assert_int_equal(d->health_iperf_s, 1);
	config_daemon_free(d);
	free(p);

	p = src_path("configs/daemon-lab.json");
	assert_int_equal(config_daemon_load(p, &d, &e, err, sizeof err), 0);
	want = src_path("configs/lab-freebsd.json");
	assert_string_equal(d->inventories[0], want);
	free(want);
	assert_string_equal(d->sources[0].newest_git,
	    "/var/lib/labrat/src/freebsd:origin/main");
	assert_string_equal(d->sources[0].revisions,
	    "git:/var/lib/labrat/src/freebsd");
	assert_string_equal(d->mail->sendmail[0], "/usr/sbin/sendmail");
	assert_null(d->mail->smtp_url);
	assert_int_equal(d->max_jobs, 2);
	config_daemon_free(d);
	free(p);
	config_errors_free(&e);
}

/* The smallest config: the defaults. */
static void
test_defaults(void **state)
{
	static const char	 text[] = "{\"inventories\": [\"inv.json\"]}";
	struct config_errors	 e;
	struct config_daemon	*d;

	(void)state;
	config_errors_init(&e);
	assert_int_equal(config_daemon_parse("/etc/labrat/d.json", text,
	    sizeof text - 1, &d, &e), 0);
	assert_string_equal(d->inventories[0], "/etc/labrat/inv.json");
	assert_int_equal(d->nsources, 0);
	assert_int_equal(d->nwebhooks, 0);
	assert_null(d->mail);
	assert_int_equal(d->health_interval_s, 86400);
	assert_int_equal(d->health_iperf_s, 2);
	assert_true(d->health_tolerance == 0.2);
	assert_int_equal(d->max_jobs, 1);
	assert_int_equal(d->max_bisects, 1);
	assert_int_equal(d->confirm, 1);
	assert_string_equal(d->text, text);
	config_daemon_free(d);
	config_errors_free(&e);
}

/* http.static_dir: relative to the config's directory; absent: NULL. */
static void
test_static_dir(void **state)
{
	static const char	 rel[] = "{\"inventories\": [\"i.json\"], "
	    "\"http\": {\"static_dir\": \"web\"}}";
	static const char	 abs[] = "{\"inventories\": [\"i.json\"], "
	    "\"http\": {\"static_dir\": \"/srv/ui\"}}";
	static const char	 none[] = "{\"inventories\": [\"i.json\"], "
	    "\"http\": {}}";
	struct config_errors	 e;
	struct config_daemon	*d;

	(void)state;
	config_errors_init(&e);
	assert_int_equal(config_daemon_parse("/etc/labrat/d.json", rel,
	    sizeof rel - 1, &d, &e), 0);
	assert_string_equal(d->http->static_dir, "/etc/labrat/web");
	config_daemon_free(d);
	assert_int_equal(config_daemon_parse("/etc/labrat/d.json", abs,
	    sizeof abs - 1, &d, &e), 0);
	assert_string_equal(d->http->static_dir, "/srv/ui");
	config_daemon_free(d);
	assert_int_equal(config_daemon_parse("/etc/labrat/d.json", none,
	    sizeof none - 1, &d, &e), 0);
	assert_null(d->http->static_dir);
	config_daemon_free(d);
	config_errors_free(&e);
}

#define INV	"\"inventories\": [\"i.json\"]"
#define SRC(x)	"{" INV ", \"revision_sources\": [" x "]}"
#define NOTIFY(x) "{" INV ", \"notify\": " x "}"
#define MAIL(x)	NOTIFY("{\"mail\": " x "}")

static const struct {
	const char	*text;
	const char	*error;	/* exactly the one error, file included */
} bad[] = {
	{ "{}", "d.json: inventories: required key is missing" },
	{ "{\"inventories\": []}", "d.json: inventories: must not be empty" },
	{ "{\"inventories\": [\"a\", \"a\"]}",
	  "d.json: inventories[1]: \"a\" is listed twice" },
	{ "{\"inventories\": [3]}",
	  "d.json: inventories[0]: 3 is not a string" },
	{ "{" INV ", \"extra\": 1}", "d.json: extra: unknown key" },
	{ SRC("{\"name\": \"a b\", \"newest\": {\"command\": [\"x\"]}}"),
	  "d.json: revision_sources[0].name: \"a b\" is not a source name "
	  "([A-Za-z0-9._-]{1,64})" },
	{ SRC("{\"name\": \"s\"}"),
	  "d.json: revision_sources[0].newest: required key is missing" },
	{ SRC("{\"name\": \"s\", \"newest\": {}}"),
	  "d.json: revision_sources[0].newest: needs exactly one of "
	  "\"command\" and \"git\"" },
	{ SRC("{\"name\": \"s\", \"newest\": {\"command\": []}}"),
	  "d.json: revision_sources[0].newest.command: must not be empty" },
	{ SRC("{\"name\": \"s\", \"newest\": {\"command\": [\"bin/x\"]}}"),
	  "d.json: revision_sources[0].newest.command[0]: \"bin/x\" is not a "
	  "command: an absolute path or a name found in PATH (no shell is "
	  "used)" },
	{ SRC("{\"name\": \"s\", \"newest\": {\"command\": [\"x y\"]}}"),
	  "d.json: revision_sources[0].newest.command[0]: \"x y\" is not a "
	  "command: an absolute path or a name found in PATH (no shell is "
	  "used)" },
	{ SRC("{\"name\": \"s\", \"newest\": {\"command\": [\"x\", \"a\\nb\"]}}"),
	  "d.json: revision_sources[0].newest.command[1]: \"a\\nb\" contains "
	  "a control character" },
	{ SRC("{\"name\": \"s\", \"newest\": {\"git\": {\"path\": \"g\", "
	  "\"ref\": \"-x\"}}}"),
	  "d.json: revision_sources[0].newest.git.ref: \"-x\" is not a git "
	  "ref name" },
	{ SRC("{\"name\": \"s\", \"newest\": {\"git\": {\"ref\": \"main\"}}}"),
	  "d.json: revision_sources[0].newest.git.path: required key is missing" },
	{ SRC("{\"name\": \"s\", \"newest\": {\"git\": {\"path\": \"g\", "
	  "\"ref\": \"main\", \"depth\": 1}}}"),
	  "d.json: revision_sources[0].newest.git.depth: unknown key" },
	{ SRC("{\"name\": \"s\", \"newest\": {\"command\": [\"x\"]}}, "
	  "{\"name\": \"s\", \"newest\": {\"command\": [\"y\"]}}"),
	  "d.json: revision_sources[1].name: duplicate source name \"s\" "
	  "(also revision_sources[0])" },
	{ NOTIFY("{\"webhooks\": [{\"url\": \"ftp://x/\"}]}"),
	  "d.json: notify.webhooks[0].url: \"ftp://x/\" is not an http:// or "
	  "https:// URL" },
	{ NOTIFY("{\"webhooks\": [{\"url\": \"http://\"}]}"),
	  "d.json: notify.webhooks[0].url: \"http://\" is not an http:// or "
	  "https:// URL" },
	{ NOTIFY("{\"webhooks\": [{\"url\": \"http://h/\", "
	  "\"timeout_s\": 0}]}"),
	  "d.json: notify.webhooks[0].timeout_s: 0 is out of range 1-600" },
	{ NOTIFY("{\"pager\": 1}"), "d.json: notify.pager: unknown key" },
	{ MAIL("{\"from\": \"a@b\", \"to\": [\"c@d\"]}"),
	  "d.json: notify.mail: needs exactly one of \"smtp\" (a URL) and "
	  "\"sendmail\" (a command)" },
	{ MAIL("{\"smtp\": \"smtp://h\", \"sendmail\": [\"/s\"], "
	  "\"from\": \"a@b\", \"to\": [\"c@d\"]}"),
	  "d.json: notify.mail: needs exactly one of \"smtp\" (a URL) and "
	  "\"sendmail\" (a command)" },
	{ MAIL("{\"smtp\": \"http://h\", \"from\": \"a@b\", "
	  "\"to\": [\"c@d\"]}"),
	  "d.json: notify.mail.smtp: \"http://h\" is not an smtp:// or "
	  "smtps:// URL" },
	{ MAIL("{\"sendmail\": [\"\"], \"from\": \"a@b\", \"to\": [\"c@d\"]}"),
	  "d.json: notify.mail.sendmail[0]: \"\" is not a command: an "
	  "absolute path or a name found in PATH (no shell is used)" },
	{ MAIL("{\"smtp\": \"smtp://h\", \"from\": \"ab\", \"to\": [\"c@d\"]}"),
	  "d.json: notify.mail.from: \"ab\" is not a mail address "
	  "(local@domain)" },
	{ MAIL("{\"smtp\": \"smtp://h\", \"from\": \"a@b\"}"),
	  "d.json: notify.mail.to: required key is missing" },
	{ MAIL("{\"smtp\": \"smtp://h\", \"from\": \"a@b\", "
	  "\"to\": [\"<c@d>\"]}"),
	  "d.json: notify.mail.to[0]: \"<c@d>\" is not a mail address "
	  "(local@domain)" },
	{ "{" INV ", \"health\": {\"interval_h\": 0}}",
	  "d.json: health.interval_h: 0 is out of range (0-8760]" },
	{ "{" INV ", \"health\": {\"tolerance\": 0}}",
	  "d.json: health.tolerance: 0 is out of range (0-0.99]" },
	{ "{" INV ", \"health\": {\"iperf_seconds\": 61}}",
	  "d.json: health.iperf_seconds: 61 is out of range 1-60" },
	{ "{" INV ", \"limits\": {\"max_jobs\": 0}}",
	  "d.json: limits.max_jobs: 0 is out of range 1-64" },
	{ "{" INV ", \"limits\": {\"max_bisects\": 17}}",
	  "d.json: limits.max_bisects: 17 is out of range 1-16" },
	{ "{" INV ", \"limits\": {\"jobs\": 1}}",
	  "d.json: limits.jobs: unknown key" },
	{ "{" INV ", \"confirm\": true}",
	  "d.json: confirm: true is not an integer" },
	{ "{" INV ", \"confirm\": 2}",
	  "d.json: confirm: 2 confirming re-runs are not supported: 0 "
	  "(bisect at once) or 1 (one re-run that must show the regression "
	  "again)" },
	{ "{" INV ", \"confirm\": -1}",
	  "d.json: confirm: -1 is out of range 0-2147483647" },
	{ "[1]", "d.json: the top level is not a JSON object" },
	{ "{" INV ", \"http\": {\"static_dir\": \"\"}}",
	  "d.json: http.static_dir: must not be empty" },
	{ "{" INV ", \"http\": {\"static_dir\": 1}}",
	  "d.json: http.static_dir: 1 is not a string" },
};

static void
test_bad(void **state)
{
	struct config_errors	 e;
	struct config_daemon	*d;
	size_t			 i, nbad = 0;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		config_errors_init(&e);
		d = (struct config_daemon *)1;
		if (config_daemon_parse("d.json", bad[i].text,
		    strlen(bad[i].text), &d, &e) != -1 || e.n != 1 ||
		    strcmp(e.msgs[0], bad[i].error) != 0) {
			print_error("case %zu: %s\n  want %s\n  got  %s "
			    "(%zu errors)\n", i, bad[i].text, bad[i].error,
			    e.n > 0 ? e.msgs[0] : "(none)", e.n);
			nbad++;
		}
		if (e.n == 0)
			config_daemon_free(d);
		else
			assert_null(d);
		config_errors_free(&e);
	}
	assert_int_equal(nbad, 0);
}

/* Every error at once, not the first one only. */
static void
test_all_errors(void **state)
{
	static const char	 text[] = "{\"inventories\": [], "
	    "\"limits\": {\"max_jobs\": 0}, \"notify\": {\"webhooks\": "
	    "[{\"url\": \"x\"}]}, \"bogus\": 1}";
	struct config_errors	 e;
	struct config_daemon	*d;
	char			 err[128];

	(void)state;
	config_errors_init(&e);
	assert_int_equal(config_daemon_parse("d.json", text, sizeof text - 1,
	    &d, &e), -1);
	assert_int_equal(e.n, 4);
	config_errors_free(&e);
	config_errors_init(&e);
	assert_int_equal(config_daemon_load("/nonexistent/d.json", &d, &e,
	    err, sizeof err), -1);
	assert_int_equal(e.n, 1);
	assert_non_null(strstr(e.msgs[0], "/nonexistent/d.json"));
	config_errors_free(&e);
}

static void
test_detect(void **state)
{
	static const char	 text[] = "{\"inventories\": [\"i\"]}";
	struct config_errors	 e;

	(void)state;
	config_errors_init(&e);
	assert_int_equal(config_detect("d.json", text, sizeof text - 1, &e),
	    CONFIG_KIND_DAEMON);
	assert_string_equal(config_kind_name(CONFIG_KIND_DAEMON),
	    "daemon config");
	config_errors_free(&e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_static_dir),
		cmocka_unit_test(test_all_errors),
		cmocka_unit_test(test_detect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
