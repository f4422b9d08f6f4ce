/*
 * test_config: the loader against a table of bad configs with their exact
 * expected messages (tests/fixtures/config/bad/NAME.json + NAME.expected,
 * cross/ for plan-vs-inventory checks), the example configs, defaults,
 * relative paths, templates and shell quoting.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "util.h"

static char *
env_path(const char *var, const char *rel)
{
	const char	*v = getenv(var);

	if (v == NULL) {
		print_error("%s is not set\n", var);
		fail();
	}
	return xasprintf("%s/%s", v, rel);
}

static char *
slurp(const char *path, size_t *lenp)
{
	char	 err[256], *t;
	size_t	 len;

	t = util_read_file(path, CONFIG_FILE_MAX, &len, err, sizeof err);
	if (t == NULL) {
		print_error("%s\n", err);
		fail();
	}
	if (lenp != NULL)
		*lenp = len;
	return t;
}

/* All messages, one per line, as `labrat config check` prints them. */
static char *
joined(const struct config_errors *e)
{
	struct buf	b;
	size_t		i;

	buf_init(&b, 1 << 20);
	for (i = 0; i < e->n; i++)
		buf_printf(&b, "%s\n", e->msgs[i]);
	return buf_release(&b);
}

static void
expect_messages(const char *name, const struct config_errors *e,
    const char *expfile)
{
	char	*got = joined(e), *want = slurp(expfile, NULL);

	if (strcmp(got, want) != 0) {
		print_error("%s: messages differ\n--- want\n%s--- got\n%s",
		    name, want, got);
		fail();
	}
	assert_true(e->n > 0);
	free(got);
	free(want);
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t	a = strlen(s), b = strlen(suf);

	return a > b && strcmp(s + a - b, suf) == 0;
}

/* Checks one file the way `labrat config check FILE` does. */
static void
check_standalone(const char *name, struct config_errors *e)
{
	struct config_inventory	*inv;
	struct config_plan	*plan;
	char			*text, **ids, **msgs;
	size_t			 len, n;

	text = slurp(name, &len);
	switch (config_detect(name, text, len, e)) {
	case CONFIG_KIND_INVENTORY:
		inv = config_inventory_parse(name, text, len, e);
		assert_null(inv);
		break;
	case CONFIG_KIND_PLAN:
		plan = config_plan_parse(name, text, len, NULL, e);
		assert_null(plan);
		break;
	case CONFIG_KIND_BISECT_TEST:
		assert_null(config_bisect_test_parse(name, text, len, e));
		break;
	case CONFIG_KIND_HISTORY:
		assert_int_equal(config_history_parse(name, text, len, &ids,
		    &msgs, &n, e), -1);
		break;
	default:
		break;
	}
	free(text);
}

static void
test_bad_table(void **state)
{
	struct config_errors	 e;
	DIR			*d;
	struct dirent		*de;
	char			*dir, exp[512];
	int			 n = 0;

	(void)state;
	dir = env_path("LABRAT_FIXTURES", "config/bad");
	assert_int_equal(chdir(dir), 0);
	assert_non_null(d = opendir("."));
	while ((de = readdir(d)) != NULL) {
		if (!has_suffix(de->d_name, ".json"))
			continue;
		snprintf(exp, sizeof exp, "%.*s.expected",
		    (int)(strlen(de->d_name) - 5), de->d_name);
		config_errors_init(&e);
		check_standalone(de->d_name, &e);
		expect_messages(de->d_name, &e, exp);
		config_errors_free(&e);
		n++;
	}
	closedir(d);
	/* The table must not silently shrink. */
	assert_true(n >= 15);
	free(dir);
}

static void
test_cross_table(void **state)
{
	struct config_errors	 e;
	struct config_inventory	*inv;
	struct config_plan	*plan;
	const char		*plans[] = { "plan-nat.json",
				    "plan-unknown-link.json" };
	char			*dir, exp[512];
	size_t			 i;

	(void)state;
	dir = env_path("LABRAT_FIXTURES", "config/cross");
	assert_int_equal(chdir(dir), 0);
	config_errors_init(&e);
	inv = config_inventory_load("lab.json", &e);
	assert_non_null(inv);
	for (i = 0; i < sizeof plans / sizeof plans[0]; i++) {
		/* Alone, each plan is valid; only the inventory refutes it. */
		plan = config_plan_load(plans[i], NULL, &e);
		assert_non_null(plan);
		assert_int_equal(e.n, 0);
		assert_int_equal(config_plan_check(plan, inv, &e), -1);
		config_plan_free(plan);
		config_errors_free(&e);
		config_errors_init(&e);

		assert_null(config_plan_load(plans[i], inv, &e));
		snprintf(exp, sizeof exp, "%.*s.expected",
		    (int)(strlen(plans[i]) - 5), plans[i]);
		expect_messages(plans[i], &e, exp);
		config_errors_free(&e);
		config_errors_init(&e);
	}
	config_inventory_free(inv);
	free(dir);
}

static void
test_examples(void **state)
{
	struct config_errors		 e;
	struct config_inventory		*inv;
	struct config_plan		*rep, *demo;
	const struct config_host	*h;
	const struct config_link	*l;
	const struct config_knobset	*ks;
	char				*p;

	(void)state;
	config_errors_init(&e);
	p = env_path("LABRAT_SOURCE_DIR", "configs/lab-freebsd.json");
	inv = config_inventory_load(p, &e);
	free(p);
	if (e.n > 0)
		print_error("%s\n", e.msgs[0]);
	assert_non_null(inv);
	assert_int_equal(inv->nhosts, 6);
	assert_int_equal(inv->nlinks, 3);
	h = config_inventory_host(inv, "em-esb2-a");
	assert_non_null(h);
	assert_string_equal(h->nics[0].chip, "0x10968086");
	assert_int_equal(h->nics[0].speed_mbps, 1000);
	assert_int_equal(h->nics[1].speed_mbps, 0);	/* not declared */
	assert_int_equal(h->kernel.type, CONFIG_KERNEL_FREEBSD_SRC);
	assert_int_equal(h->power.type, CONFIG_POWER_URL);
	assert_string_equal(config_inventory_host(inv,
	    "em-82546-b")->nics[0].chip, "0x10108086");
	l = config_inventory_link(inv, "bce");
	assert_non_null(l);
	assert_string_equal(l->nat, "bce-a");
	assert_int_equal(l->nat_side, CONFIG_NAT_SIDE_CLIENT);
	assert_string_equal(inv->hosts[l->client.host_index].name, "bce-a");
	assert_string_equal(config_host_nic(&inv->hosts[l->client.host_index],
	    "bce1")->chip, "0x164c14e4");

	p = env_path("LABRAT_SOURCE_DIR", "configs/plan-reports.json");
	rep = config_plan_load(p, inv, &e);
	free(p);
	assert_non_null(rep);
	/* iperf -l 512k -w 1024k -N -t 30, as both reports ran it. */
	assert_int_equal(rep->workloads[0].tool, CONFIG_TOOL_IPERF2);
	assert_int_equal(rep->workloads[0].len_bytes, 512 * 1024);
	assert_int_equal(rep->workloads[0].window_bytes, 1024 * 1024);
	assert_string_equal(rep->workloads[0].len, "512k");
	assert_true(rep->workloads[0].nodelay);
	assert_int_equal(rep->workloads[0].time, 30);
	assert_int_equal(rep->workloads[1].tool, CONFIG_TOOL_SCP);
	assert_int_equal(rep->workloads[1].size_bytes, 1440 * 1024);
	assert_false(config_workload_on_link(&rep->workloads[1], "em"));
	assert_true(config_workload_on_link(&rep->workloads[1], "bce"));
	ks = config_plan_knobs(rep, "bce");
	assert_int_equal(ks->knob[KNOB_NAT].n, 2);
	assert_int_equal(ks->knob[KNOB_NAT].values[1],
	    KNOB_NAT_DIVERT);
	assert_false(ks->knob[KNOB_MTU].present);
	ks = config_plan_knobs(rep, "em");
	assert_int_equal(ks->knob[KNOB_MTU].values[1], 9000);
	assert_false(ks->knob[KNOB_NAT].present);

	p = env_path("LABRAT_SOURCE_DIR", "configs/plan-demo.json");
	demo = config_plan_load(p, inv, &e);
	free(p);
	assert_non_null(demo);
	assert_int_equal(demo->workloads[0].tool, CONFIG_TOOL_IPERF3);
	assert_int_equal(demo->workloads[0].time, 2);
	assert_int_equal(e.n, 0);
	config_plan_free(rep);
	config_plan_free(demo);
	config_inventory_free(inv);
	config_errors_free(&e);
}

#define MINI_INV \
	"{\"hosts\":[{\"name\":\"a\",\"os\":\"linux\",\"address\":\"::1\"," \
	"\"ssh\":{\"key\":\"%s\",\"known_hosts\":\"/abs/kh\"}," \
	"\"nics\":[{\"name\":\"eth0\",\"driver\":\"virtio_net\"," \
	"\"role\":\"test\"}]}],\"links\":[]}"

static void
test_defaults_and_paths(void **state)
{
	struct config_errors	 e;
	struct config_inventory	*inv;
	struct config_plan	*plan;
	char			*text, cwd[1024], *want;
	const char		*plantext = "{\"links\":[\"x\"],"
				    "\"workloads\":[{\"tool\":\"iperf3\"}]}";

	(void)state;
	config_errors_init(&e);
	/* An inventory needs links. */
	text = xasprintf(MINI_INV, "keys/id");
	inv = config_inventory_parse("/etc/labrat/lab.json", text, strlen(text),
	    &e);
	assert_null(inv);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msgs[0],
	    "/etc/labrat/lab.json: links: must not be empty");
	config_errors_free(&e);
	free(text);

	text = xasprintf("{\"hosts\":[{\"name\":\"a\",\"os\":\"linux\","
	    "\"address\":\"::1\",\"ssh\":{\"key\":\"keys/id\","
	    "\"known_hosts\":\"/abs/kh\"},\"nics\":[{\"name\":\"eth0\","
	    "\"driver\":\"virtio_net\",\"role\":\"test\"}]},"
	    "{\"name\":\"b\",\"os\":\"linux\",\"address\":\"b.example\","
	    "\"ssh\":{\"key\":\"k\",\"known_hosts\":\"kh\"},\"nics\":"
	    "[{\"name\":\"eth0\",\"driver\":\"virtio_net\",\"role\":\"test\"}]}"
	    "],\"links\":[{\"name\":\"x\",\"client\":{\"host\":\"a\","
	    "\"if\":\"eth0\",\"address\":\"fd00::1\"},\"server\":{\"host\":"
	    "\"b\",\"if\":\"eth0\",\"address\":\"198.18.0.2\"}}]}");
	config_errors_init(&e);
	inv = config_inventory_parse("/etc/labrat/lab.json", text, strlen(text),
	    &e);
	assert_non_null(inv);
	assert_string_equal(inv->hosts[0].ssh.key, "/etc/labrat/keys/id");
	assert_string_equal(inv->hosts[0].ssh.known_hosts, "/abs/kh");
	assert_string_equal(inv->hosts[0].ssh.user, "root");
	assert_int_equal(inv->hosts[0].ssh.port, 22);
	assert_null(inv->hosts[0].nics[0].chip);
	assert_int_equal(inv->hosts[0].nics[0].speed_mbps, 0);
	assert_int_equal(inv->hosts[0].kernel.type, CONFIG_KERNEL_NONE);
	assert_int_equal(inv->hosts[0].power.type, CONFIG_POWER_NONE);
	assert_null(inv->links[0].nat);
	assert_int_equal(inv->links[0].nat_side, CONFIG_NAT_SIDE_NONE);
	config_inventory_free(inv);

	/* A relative inventory path resolves against the working dir. */
	inv = config_inventory_parse("sub/lab.json", text, strlen(text), &e);
	assert_non_null(inv);
	assert_non_null(getcwd(cwd, sizeof cwd));
	want = xasprintf("%s/sub/k", cwd);
	assert_string_equal(inv->hosts[1].ssh.key, want);
	free(want);

	plan = config_plan_parse("p.json", plantext, strlen(plantext), inv, &e);
	assert_non_null(plan);
	assert_int_equal(plan->repetitions, 1);
	assert_int_equal(plan->retries, 2);
	assert_int_equal(plan->connect_timeout, 10);
	assert_int_equal(plan->job_timeout, 120);
	assert_int_equal(plan->tso_on, CONFIG_TSO_ON_SENDER);
	assert_int_equal(plan->workloads[0].time, 10);
	assert_int_equal(plan->workloads[0].parallel, 1);
	assert_int_equal(plan->workloads[0].port, 0);	/* the tool's own */
	assert_null(plan->workloads[0].len);
	assert_int_equal(plan->stats.min_samples, 5);
	assert_int_equal(plan->stats.max_samples, 20);
	assert_true(plan->stats.adaptive);
	assert_int_equal(e.n, 0);
	config_plan_free(plan);
	config_inventory_free(inv);
	free(text);
	config_errors_free(&e);
}

static void
test_json_errors(void **state)
{
	struct config_errors	 e;
	const char		*t;

	(void)state;
	config_errors_init(&e);
	t = "[1, 2]";
	assert_int_equal(config_detect("a.json", t, strlen(t), &e),
	    CONFIG_KIND_UNKNOWN);
	t = "{\"hosts\": [] /* comment */}";
	assert_int_equal(config_detect("b.json", t, strlen(t), &e),
	    CONFIG_KIND_UNKNOWN);
	t = "{\"knobs\": {}}";
	assert_int_equal(config_detect("c.json", t, strlen(t), &e),
	    CONFIG_KIND_PLAN);
	/* A bisect test has "knobs" too: its own keys win. */
	t = "{\"knobs\": {}, \"workload\": {}}";
	assert_int_equal(config_detect("c.json", t, strlen(t), &e),
	    CONFIG_KIND_BISECT_TEST);
	t = "{\"description\": \"h\", \"revisions\": []}";
	assert_int_equal(config_detect("c.json", t, strlen(t), &e),
	    CONFIG_KIND_HISTORY);
	t = "\n\n{\"hosts\": []} {}";
	assert_null(config_inventory_parse("d.json", t, strlen(t), &e));
	assert_int_equal(e.n, 3);
	assert_string_equal(e.msgs[0], "a.json: the top level is not a JSON "
	    "object");
	/* Comments are not JSON (json-c would accept them unless strict). */
	assert_string_equal(e.msgs[1], "b.json: invalid JSON at line 1: "
	    "object value separator ',' expected");
	assert_string_equal(e.msgs[2], "d.json: invalid JSON at line 3: "
	    "unexpected character");
	config_errors_free(&e);
}

/* The raw-text pass: what json-c would accept and silently change. */
static void
test_json_raw(void **state)
{
	struct config_errors	 e;
	const char		*t;
	const char		 nul[] = "{\"knobs\": {}}\0{\"hosts\": []}";

	(void)state;
	config_errors_init(&e);
	t = "{\n  \"hosts\": [{\"name\": \"a\", \"name\": \"b\"}],\n"
	    "  \"links\": []\n}\n";
	assert_null(config_inventory_parse("inv.json", t, strlen(t), &e));
	t = "{\"links\": [\"x\"], \"workloads\": [{\"tool\": \"\\udc00\"}]}";
	assert_null(config_plan_parse("plan.json", t, strlen(t), NULL, &e));
	t = "{\"knobs\": {\"tso\\u0000x\": []}}";
	assert_int_equal(config_detect("k.json", t, strlen(t), &e),
	    CONFIG_KIND_UNKNOWN);
	assert_int_equal(config_detect("n.json", nul, sizeof nul - 1, &e),
	    CONFIG_KIND_UNKNOWN);
	t = "{\"knobs\": {}} x";
	assert_int_equal(config_detect("t.json", t, strlen(t), &e),
	    CONFIG_KIND_UNKNOWN);
	assert_int_equal(e.n, 5);
	assert_string_equal(e.msgs[0], "inv.json: hosts[0].name: duplicate "
	    "key, first at byte 15 (line 2, byte 28)");
	assert_string_equal(e.msgs[1], "plan.json: workloads[0].tool: lone "
	    "low surrogate \\uDC00 (byte 41)");
	assert_string_equal(e.msgs[2], "k.json: knobs: NUL (\\u0000) in a "
	    "key (byte 15)");
	assert_string_equal(e.msgs[3], "n.json: NUL byte (byte 13)");
	assert_string_equal(e.msgs[4], "t.json: invalid JSON at line 1: "
	    "unexpected character");
	config_errors_free(&e);
}

static void
test_error_cap(void **state)
{
	struct config_errors	 e;
	struct buf		 b;
	int			 i;

	(void)state;
	buf_init(&b, 1 << 20);
	buf_printf(&b, "{\"links\":[\"x\"],\"workloads\":[{\"tool\":\"scp\","
	    "\"size\":\"1k\"}],\"knobs\":{\"mtu\":[1]}");
	for (i = 0; i < 300; i++)
		buf_printf(&b, ",\"k%d\":1", i);
	buf_printf(&b, "}");
	config_errors_init(&e);
	assert_null(config_plan_parse("p.json", b.data, b.len, NULL, &e));
	assert_int_equal(e.n, CONFIG_ERRORS_MAX);
	assert_int_equal(e.n + e.dropped, 301);
	config_errors_free(&e);
	buf_free(&b);
}

static void
test_patterns(void **state)
{
	(void)state;
	assert_true(config_valid_hostname("em-a"));
	assert_true(config_valid_hostname("a"));
	assert_false(config_valid_hostname("1em"));
	assert_false(config_valid_hostname("em_a"));
	assert_false(config_valid_hostname(""));
	assert_true(config_valid_hostname("a23456789012345678901234567890"
	    "123456789012345678901234567890123"));
	assert_false(config_valid_hostname("a23456789012345678901234567890"
	    "1234567890123456789012345678901234"));
	assert_true(config_valid_ifname("em0"));
	assert_true(config_valid_ifname("enp3s0"));
	assert_true(config_valid_ifname("vlan.100"));
	assert_true(config_valid_ifname("lr123_em_a0"));
	assert_false(config_valid_ifname("em0 "));
	assert_false(config_valid_ifname("em0;id"));
	assert_false(config_valid_ifname("0em"));
	assert_false(config_valid_ifname("abcdefghijklmnop"));
	assert_true(config_valid_linkname("em"));
	assert_true(config_valid_linkname("0-link_a"));
	assert_false(config_valid_linkname("-em"));
	assert_true(config_valid_revision("r209169"));
	assert_true(config_valid_revision("main-n262000-abc1234"));
	assert_true(config_valid_revision("v6.1.0"));
	assert_false(config_valid_revision("r1;reboot"));
	assert_false(config_valid_revision("$(id)"));
	assert_false(config_valid_revision(""));
}

static void
test_template_expand(void **state)
{
	char			*tv[] = { "/simlab/host", "install", "{rev}",
				    "--name={host}-{rev}", NULL };
	struct config_argv	 t = { tv, 4 };
	char			**argv, err[256];

	(void)state;
	argv = config_template_expand(&t, "r209169", "sim-a", err, sizeof err);
	assert_non_null(argv);
	assert_string_equal(argv[0], "/simlab/host");
	assert_string_equal(argv[2], "r209169");
	assert_string_equal(argv[3], "--name=sim-a-r209169");
	assert_null(argv[4]);
	config_argv_free(argv);

	assert_null(config_template_expand(&t, "r1; reboot", "sim-a", err,
	    sizeof err));
	assert_string_equal(err, "revision \"r1; reboot\" is not a revision "
	    "id");
	assert_null(config_template_expand(&t, NULL, "sim-a", err,
	    sizeof err));
	assert_null(config_template_expand(&t, "r1", "sim a", err,
	    sizeof err));
	assert_string_equal(err, "\"sim a\" is not a host name");

	/* A template without {rev} needs no revision. */
	t.argc = 2;
	tv[2] = NULL;
	argv = config_template_expand(&t, NULL, "sim-a", err, sizeof err);
	assert_non_null(argv);
	assert_null(argv[2]);
	config_argv_free(argv);
}

static void
test_shell_quote(void **state)
{
	static const struct {
		const char	*argv[5];
		const char	*want;
	} cases[] = {
		{ { "ifconfig", "em0", "mtu", "9000", NULL },
		  "ifconfig em0 mtu 9000" },
		{ { "echo", "a b", "", NULL }, "echo 'a b' ''" },
		{ { "echo", "it's", NULL }, "echo 'it'\\''s'" },
		{ { "sh", "-c", "rm -rf /; $(id) `x` \"q\"", NULL },
		  "sh -c 'rm -rf /; $(id) `x` \"q\"'" },
		{ { "/usr/bin/x", "--opt=a,b:c@d+e%f", NULL },
		  "/usr/bin/x --opt=a,b:c@d+e%f" },
		{ { "a*", "~", "x\\y", NULL }, "'a*' '~' 'x\\y'" },
	};
	size_t	i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = config_shell_quote_argv((char *const *)cases[i].argv);
		assert_string_equal(s, cases[i].want);
		free(s);
	}
}

static void
test_names(void **state)
{
	int	k;

	(void)state;
	for (k = 0; k < KNOB_COUNT; k++) {
		assert_int_equal(knobs_from_name(knobs_name(k)), k);
		/* Enum order is key order. */
		if (k > 0)
			assert_true(strcmp(knobs_name(k - 1),
			    knobs_name(k)) < 0);
	}
	assert_int_equal(knobs_from_name("jumbo"), -1);
	assert_int_equal(knobs_nat_from_name("divert"), KNOB_NAT_DIVERT);
	assert_string_equal(config_tool_name(CONFIG_TOOL_SCP), "scp");
	assert_string_equal(config_os_name(CONFIG_OS_LINUX), "linux");
}

/*
 * Mutated examples (byte flips, deletions, truncations; a fixed seed) must
 * never crash the loader (run it under ASan), and every outcome must be a
 * config or at least one message naming the file.
 */
static void
test_mutations(void **state)
{
	const char		*names[] = { "lab-freebsd.json",
				    "plan-reports.json", "plan-demo.json" };
	struct config_errors	 e;
	struct config_inventory	*inv;
	struct config_plan	*plan;
	uint64_t		 rng = 0x9e3779b97f4a7c15ULL;
	char			*p, *orig, *text;
	size_t			 f, len, m, i, pos, n, ok = 0;

	(void)state;
	for (f = 0; f < 3; f++) {
		p = env_path("LABRAT_SOURCE_DIR", "configs/");
		text = xasprintf("%s%s", p, names[f]);
		free(p);
		orig = slurp(text, &len);
		free(text);
		text = xmalloc(len + 1);
		for (m = 0; m < 800; m++) {
			memcpy(text, orig, len + 1);
			n = len;
			for (i = 0; i < 1 + m % 4 && n > 1; i++) {
				rng = rng * 6364136223846793005ULL + 1;
				pos = (size_t)(rng >> 33) % n;
				switch ((rng >> 20) % 4) {
				case 0:		/* flip a byte */
					text[pos] = (char)(rng >> 8);
					break;
				case 1:		/* delete a byte */
					memmove(text + pos, text + pos + 1,
					    n - pos);
					n--;
					break;
				case 2:		/* truncate */
					n = pos + 1;
					text[n] = '\0';
					break;
				default:	/* a digit where text was */
					text[pos] = "0123456789"[rng % 10];
					break;
				}
			}
			config_errors_init(&e);
			if (f == 0) {
				inv = config_inventory_parse("m.json", text, n,
				    &e);
				ok += inv != NULL;
				config_inventory_free(inv);
			} else {
				plan = config_plan_parse("m.json", text, n,
				    NULL, &e);
				ok += plan != NULL;
				config_plan_free(plan);
			}
			for (i = 0; i < e.n; i++)
				assert_memory_equal(e.msgs[i], "m.json: ", 8);
			config_errors_free(&e);
		}
		free(text);
		free(orig);
	}
	/* Some mutations (inside a path, say) are still valid configs. */
	assert_true(ok > 0 && ok < 3 * 800);
}

/*
 * Every error at once: a field whose error used to end the check of its
 * object (a workload's tool, a bisect comparison's type) leaves the other
 * fields checked, each error with its file and path.
 */
static void
test_every_error(void **state)
{
	struct config_errors	 e;
	const char		*t;

	(void)state;
	config_errors_init(&e);
	t = "{\"links\": [\"em\"], \"workloads\": [{\"tool\": \"iperf4\", "
	    "\"time\": 0}]}";
	assert_null(config_plan_parse("p.json", t, strlen(t), NULL, &e));
	assert_int_equal(e.n, 2);
	assert_string_equal(e.msgs[0], "p.json: workloads[0].tool: "
	    "\"iperf4\" is not one of iperf2, iperf3, scp");
	assert_string_equal(e.msgs[1], "p.json: workloads[0].time: 0 is out "
	    "of range 1-3600");
	config_errors_free(&e);
	config_errors_init(&e);
	t = "{\"compare\": {\"type\": \"abc\", \"knob\": \"speed\"}, "
	    "\"workload\": {\"tool\": \"iperf3\"}}";
	assert_null(config_bisect_test_parse("t.json", t, strlen(t), &e));
	assert_int_equal(e.n, 2);
	assert_string_equal(e.msgs[0], "t.json: compare.type: \"abc\" is "
	    "not one of ab, baseline");
	assert_string_equal(e.msgs[1], "t.json: compare.knob: \"speed\" is "
	    "not one of lro, mtu, nat, rxcsum, tso, txcsum");
	config_errors_free(&e);
}

/* Key files: resolved against the inventory's directory, each distinct
 * file checked once, the error naming path, file and strerror. */
static void
test_key_files(void **state)
{
	struct config_errors	 e;
	struct config_inventory	*inv;
	char			 dir[] = "/tmp/labrat-keysXXXXXX", path[512],
				 want[1024];
	const char		*t;
	FILE			*f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	t = "{\"hosts\": [{\"name\": \"a\", \"os\": \"linux\", \"address\": "
	    "\"192.0.2.1\", \"ssh\": {\"key\": \"k\", \"known_hosts\": "
	    "\"kh\"}, \"nics\": [{\"name\": \"eth0\", \"driver\": \"em\", "
	    "\"role\": \"test\"}]}, {\"name\": \"b\", \"os\": \"linux\", "
	    "\"address\": \"192.0.2.2\", \"ssh\": {\"key\": \"k\", "
	    "\"known_hosts\": \"kh\"}, \"nics\": [{\"name\": \"eth0\", "
	    "\"driver\": \"em\", \"role\": \"test\"}]}], \"links\": [{\"name\": "
	    "\"l\", \"client\": {\"host\": \"a\", \"if\": \"eth0\", \"address\": "
	    "\"198.18.1.1\"}, \"server\": {\"host\": \"b\", \"if\": \"eth0\", "
	    "\"address\": \"198.18.1.2\"}}]}";
	snprintf(path, sizeof path, "%s/lab.json", dir);
	config_errors_init(&e);
	inv = config_inventory_parse(path, t, strlen(t), &e);
	if (inv == NULL)
		print_error("%s\n", e.n > 0 ? e.msgs[0] : "?");
	assert_non_null(inv);
	snprintf(path, sizeof path, "%s/kh", dir);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(config_inventory_check_files(inv, &e), -1);
	assert_int_equal(e.n, 1);
	snprintf(want, sizeof want, "%s/lab.json: hosts[0].ssh.key: %s/k: "
	    "No such file or directory", dir, dir);
	assert_string_equal(e.msgs[0], want);
	config_errors_free(&e);
	config_errors_init(&e);
	snprintf(path, sizeof path, "%s/k", dir);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(config_inventory_check_files(inv, &e), 0);
	assert_int_equal(e.n, 0);
	config_errors_free(&e);
	config_inventory_free(inv);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof path, "%s/kh", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_template_expand),
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_json_raw),
		cmocka_unit_test(test_error_cap),
		cmocka_unit_test(test_defaults_and_paths),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_bad_table),
		cmocka_unit_test(test_cross_table),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_every_error),
		cmocka_unit_test(test_key_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
