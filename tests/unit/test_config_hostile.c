/*
 * test_config_hostile: what a config file can hide from json-c.
 * - JSON null in every kind of key (string, integer, number, boolean,
 *   enum, array, object) of an inventory, a plan, a bisect test and a lab
 *   history is a type error with its JSON path, except where the schema
 *   allows null (links[].nat), and no config comes back.  json-c reads
 *   null as a present key with a NULL value; before the fix in config.c's
 *   member lookup, every case below passed `config check`.
 * - The raw-text cases in real files: a duplicate "name" (the
 *   last would win), "workloads\u0000" (read as "workloads"), an overlong
 *   "\xc0\xaf" and a lone surrogate "\ud800" in a path string: each
 *   refused with its JSON path by the raw pass before json-c.
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

enum kind { INV, PLAN, BISECT, HIST };

struct nullcase {
	enum kind	 kind;
	const char	*from;	/* first occurrence replaced by "to" */
	const char	*to;
	const char	*want;	/* the one message, after "FILE: " */
};

static const struct nullcase cases[] = {
	/* inventory: string, enum, integer, array, object, nested keys */
	{ INV, "\"name\": \"em-esb2-a\"", "\"name\": null",
	  "hosts[0].name: null is not a string" },
	{ INV, "\"os\": \"freebsd\"", "\"os\": null",
	  "hosts[0].os: null is not a string" },
	{ INV, "\"address\": \"192.0.2.11\"", "\"address\": null",
	  "hosts[0].address: null is not a string" },
	{ INV, "\"port\": 22", "\"port\": null",
	  "hosts[0].ssh.port: null is not an integer" },
	{ INV, "\"speed_mbps\": 1000", "\"speed_mbps\": null",
	  "hosts[0].nics[0].speed_mbps: null is not an integer" },
	{ INV, "\"role\": \"test\"", "\"role\": null",
	  "hosts[0].nics[0].role: null is not a string" },
	{ INV, "\"chip\": \"0x10968086\"", "\"chip\": null",
	  "hosts[0].nics[0].chip: null is not a string" },
	{ INV, "\"jobs\": 8", "\"jobs\": null",
	  "hosts[0].kernel.jobs: null is not an integer" },
	{ INV, "\"method\": \"POST\"", "\"method\": null",
	  "hosts[0].power.method: null is not a string" },
	{ INV, "\"ssh\": {", "\"ssh\": null, \"x\": {",
	  NULL },	/* unknown key x too: see inv_ssh_null */
	{ INV, "\"host\": \"em-esb2-a\"", "\"host\": null",
	  "links[0].client.host: null is not a string" },
	{ INV, "\"if\": \"em0\"", "\"if\": null",
	  "links[0].client.if: null is not a string" },
	{ INV, "\"links\": [\n", "\"links\": null, \"x\": [\n", NULL },
	/* plan */
	{ PLAN, "\"links\": [\"em\", \"em-82546\", \"bce\"]", "\"links\": null",
	  "links: null is not an array" },
	{ PLAN, "\"tool\": \"iperf2\"", "\"tool\": null",
	  "workloads[0].tool: null is not a string" },
	{ PLAN, "\"len\": \"512k\"", "\"len\": null",
	  "workloads[0].len: null is not a string" },
	{ PLAN, "\"nodelay\": true", "\"nodelay\": null",
	  "workloads[0].nodelay: null is not a boolean" },
	{ PLAN, "\"time\": 30", "\"time\": null",
	  "workloads[0].time: null is not an integer" },
	{ PLAN, "\"repetitions\": 5", "\"repetitions\": null",
	  "repetitions: null is not an integer" },
	{ PLAN, "\"tso_on\": \"sender\"", "\"tso_on\": null",
	  "tso_on: null is not a string" },
	{ PLAN, "\"alpha\": 0.05", "\"alpha\": null",
	  "stats.alpha: null is not a number" },
	{ PLAN, "\"adaptive\": true", "\"adaptive\": null",
	  "stats.adaptive: null is not a boolean" },
	{ PLAN, "\"timeouts\": { \"connect\": 10, \"job\": 300 }",
	  "\"timeouts\": null", "timeouts: null is not an object" },
	{ PLAN, "\"tso\": [true, false], \"mtu\"", "\"tso\": null, \"mtu\"",
	  "knobs.tso: null is not an array" },
	{ PLAN, "\"per_link\": {", "\"per_link\": null, \"x\": {", NULL },
	/* bisect test */
	{ BISECT, "\"metric\": \"throughput_bps\"", "\"metric\": null",
	  "metric: null is not a string" },
	{ BISECT, "\"threshold\": 0.91", "\"threshold\": null",
	  "threshold: null is not a number" },
	{ BISECT, "\"reference\": false", "\"reference\": null",
	  "compare.reference: null is not a boolean" },
	{ BISECT, "\"type\": \"ab\"", "\"type\": null",
	  "compare.type: null is not a string" },
	{ BISECT, "\"knobs\": { \"mtu\": 9000 }", "\"knobs\": { \"mtu\": null }",
	  "knobs.mtu: null is not an integer" },
	{ BISECT, "\"tool\": \"iperf3\"", "\"tool\": null",
	  "workload.tool: null is not a string" },
	{ BISECT, "\"min_samples\": 5", "\"min_samples\": null",
	  "sampling.min_samples: null is not an integer" },
	{ BISECT, "\"boot\": 60", "\"boot\": null",
	  "timeouts.boot: null is not an integer" },
	/* history */
	{ HIST, "\"id\": \"r1\"", "\"id\": null",
	  "revisions[0].id: null is not a string" },
	{ HIST, "\"message\": \"one\"", "\"message\": null",
	  "revisions[0].message: null is not a string" },
	{ HIST, "\"revisions\": [", "\"revisions\": null, \"x\": [", NULL },
};

static const char history[] = "{\"revisions\": [{\"id\": \"r1\", "
    "\"message\": \"one\"}, {\"id\": \"r2\", \"message\": \"two\"}]}";

static char *
slurp(const char *rel, size_t *lenp)
{
	const char	*dir = getenv("LABRAT_SOURCE_DIR");
	char		 err[256], *path, *t;

	assert_non_null(dir);
	path = xasprintf("%s/%s", dir, rel);
	t = util_read_file(path, CONFIG_FILE_MAX, lenp, err, sizeof err);
	free(path);
	if (t == NULL) {
		print_error("%s\n", err);
		fail();
	}
	return t;
}

/* text with the first "from" replaced by "to" (heap). */
static char *
replaced(const char *text, const char *from, const char *to)
{
	const char	*at = strstr(text, from);

	if (at == NULL) {
		print_error("fixture has no %s\n", from);
		fail();
	}
	return xasprintf("%.*s%s%s", (int)(at - text), text, to,
	    at + strlen(from));
}

/* Loads text as kind; 1 when a config came back. */
static int
load(enum kind kind, const char *text, const struct config_inventory *inv,
    struct config_errors *e)
{
	struct config_inventory		*i;
	struct config_plan		*p;
	struct config_bisect_test	*b;
	char				**ids, **msgs;
	size_t				 n;
	int				 ok = 0;

	switch (kind) {
	case INV:
		i = config_inventory_parse("f.json", text, strlen(text), e);
		ok = i != NULL;
		config_inventory_free(i);
		break;
	case PLAN:
		p = config_plan_parse("f.json", text, strlen(text), inv, e);
		ok = p != NULL;
		config_plan_free(p);
		break;
	case BISECT:
		b = config_bisect_test_parse("f.json", text, strlen(text), e);
		ok = b != NULL;
		config_bisect_test_free(b);
		break;
	case HIST:
		if (config_history_parse("f.json", text, strlen(text), &ids,
		    &msgs, &n, e) == 0) {
			ok = 1;
			config_argv_free(ids);
			config_argv_free(msgs);
		}
		break;
	}
	return ok;
}

static const char *
base_text(enum kind kind, char *const *texts)
{
	return kind == HIST ? history : texts[kind];
}

static void
test_null_table(void **state)
{
	struct config_errors	 e;
	struct config_inventory	*inv;
	char			*texts[3], *t, want[256];
	size_t			 i, len;
	int			 k;

	(void)state;
	texts[INV] = slurp("configs/lab-freebsd.json", &len);
	texts[PLAN] = slurp("configs/plan-reports.json", &len);
	texts[BISECT] = slurp("configs/bisect/em.json", &len);
	config_errors_init(&e);
	inv = config_inventory_parse("f.json", texts[INV], strlen(texts[INV]),
	    &e);
	assert_non_null(inv);
	/* The unmodified files load (links[].nat: null is allowed). */
	for (k = INV; k <= HIST; k++)
		assert_int_equal(load(k, base_text(k, texts), inv, &e), 1);
	assert_int_equal(e.n, 0);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t = replaced(base_text(cases[i].kind, texts), cases[i].from,
		    cases[i].to);
		config_errors_init(&e);
		assert_int_equal(load(cases[i].kind, t, inv, &e), 0);
		if (cases[i].want != NULL) {
			snprintf(want, sizeof want, "f.json: %s",
			    cases[i].want);
			/* The first message: what follows from it (a
			 * host without a name is an unknown link host)
			 * may follow. */
			if (e.n < 1 || strcmp(e.msgs[0], want) != 0) {
				print_error("case %zu (%s): want \"%s\", got "
				    "%zu:\n", i, cases[i].to, want, e.n);
				for (k = 0; k < (int)e.n; k++)
					print_error("  %s\n", e.msgs[k]);
				fail();
			}
		} else
			assert_true(e.n >= 1);
		config_errors_free(&e);
		free(t);
	}
	config_inventory_free(inv);
	for (k = INV; k <= BISECT; k++)
		free(texts[k]);
}

/* A null object or array member is reported once, with its type. */
static void
test_null_containers(void **state)
{
	struct config_errors	 e;
	char			*inv, *t;
	size_t			 len;

	(void)state;
	inv = slurp("configs/lab-freebsd.json", &len);
	t = replaced(inv, "\"links\": [\n", "\"links\": null, \"x\": [\n");
	config_errors_init(&e);
	assert_int_equal(load(INV, t, NULL, &e), 0);
	assert_int_equal(e.n, 2);
	assert_string_equal(e.msgs[0], "f.json: x: unknown key");
	assert_string_equal(e.msgs[1], "f.json: links: null is not an array");
	config_errors_free(&e);
	free(t);
	t = replaced(inv, "\"power\": { \"url\": \"http://192.0.2.50/outlet/1"
	    "/cycle\", \"method\": \"POST\" }", "\"power\": null");
	config_errors_init(&e);
	assert_int_equal(load(INV, t, NULL, &e), 0);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msgs[0], "f.json: hosts[0].power: null is not "
	    "an object");
	config_errors_free(&e);
	free(t);
	t = replaced(history, "\"revisions\": [{\"id\": \"r1\", \"message\": "
	    "\"one\"}, ", "\"revisions\": [null, ");
	config_errors_init(&e);
	assert_int_equal(load(HIST, t, NULL, &e), 0);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msgs[0], "f.json: revisions[0]: null is not an "
	    "object");
	config_errors_free(&e);
	free(t);
	free(inv);
}

static const struct nullcase raw_cases[] = {
	{ INV, "\"name\": \"em-esb2-a\"",
	  "\"name\": \"evil-host\", \"name\": \"em-esb2-a\"",
	  "hosts[0].name: duplicate key, first at byte 27 (line 4, byte 48)" },
	{ PLAN, "\"workloads\": [", "\"workloads\\u0000\": [",
	  "NUL (\\u0000) in a key (line 8, byte 228)" },
	{ INV, "\"key\": \"/root/.ssh/labrat_ed25519\"",
	  "\"key\": \"/root/.ssh/\xc0\xaf/labrat_ed25519\"",
	  "hosts[0].ssh.key: overlong UTF-8 (line 7, byte 164)" },
	{ INV, "\"key\": \"/root/.ssh/labrat_ed25519\"",
	  "\"key\": \"/root/.ssh/\\ud800/labrat_ed25519\"",
	  "hosts[0].ssh.key: lone high surrogate \\uD800 (line 7, byte "
	  "164)" },
	{ BISECT, "\"metric\": \"throughput_bps\"",
	  "\"metric\": \"throughput_bps\", \"metric\": \"x\"",
	  "metric: duplicate key, first at byte 395 (line 6, byte 423)" },
	{ HIST, "\"id\": \"r2\"", "\"id\": \"r2\\udc00\"",
	  "revisions[1].id: lone low surrogate \\uDC00 (byte 57)" },
};

static void
test_raw_table(void **state)
{
	struct config_errors	 e;
	char			*texts[3], *t, want[256];
	size_t			 i, len;
	int			 k;

	(void)state;
	texts[INV] = slurp("configs/lab-freebsd.json", &len);
	texts[PLAN] = slurp("configs/plan-reports.json", &len);
	texts[BISECT] = slurp("configs/bisect/em.json", &len);
	for (i = 0; i < sizeof raw_cases / sizeof raw_cases[0]; i++) {
		t = replaced(base_text(raw_cases[i].kind, texts),
		    raw_cases[i].from, raw_cases[i].to);
		config_errors_init(&e);
		assert_int_equal(load(raw_cases[i].kind, t, NULL, &e), 0);
		snprintf(want, sizeof want, "f.json: %s", raw_cases[i].want);
		if (e.n != 1 || strcmp(e.msgs[0], want) != 0)
			fail_msg("raw case %zu: want \"%s\", got %zu: \"%s\"",
			    i, want, e.n, e.n > 0 ? e.msgs[0] : "");
		config_errors_free(&e);
		free(t);
	}
	for (k = INV; k <= BISECT; k++)
		free(texts[k]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_table),
		cmocka_unit_test(test_null_containers),
		cmocka_unit_test(test_raw_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
