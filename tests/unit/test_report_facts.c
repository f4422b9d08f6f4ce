/*
 * test_report_facts: the hosts lines of `labrat report` (text and JSON)
 * give the driver and chip each host reported, and the inventory's beside
 * them only where they differ; a facts row recorded again unchanged (a
 * second session to the same host) is shown once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "report.h"
#include "store_fixture.h"

static char	dbpath[256];

static void
facts(struct store *st, int64_t run, const char *host, const char *driver,
    const char *chip, const char *ddriver, const char *dchip)
{
	struct store_host_facts	f;
	char			err[512];

	memset(&f, 0, sizeof f);
	f.host = host;
	f.os = "linux";
	f.kernel_version = "Linux 6.1";
	f.revision = "r200399";
	f.ifname = "em0";
	f.driver = driver;
	f.chip = chip;
	f.declared_driver = ddriver;
	f.declared_chip = dchip;
	assert_int_equal(store_host_facts_add(st, run, &f, NULL, err,
	    sizeof err), 0);
}

/* Run 1: a veth declared em (twice), an em declared em, an undeclared one. */
static int
setup(void **state)
{
	struct store		*st = NULL;
	struct store_run_spec	 spec;
	char			 err[512];
	int64_t			 run;

	(void)state;
	(void)kn;	/* the fixture's knob helper: not needed here */
	fx_db_path(dbpath, sizeof dbpath, "repfacts");
	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		return -1;
	memset(&spec, 0, sizeof spec);
	spec.kind = "manual";
	assert_int_equal(store_run_create(st, &spec, &run, err, sizeof err), 0);
	facts(st, run, "em-a", "veth", NULL, "em", "0x10968086");
	facts(st, run, "em-b", "em", "0x10968086", "em", "0x10968086");
	facts(st, run, "em-a", "veth", NULL, "em", "0x10968086");
	facts(st, run, "lo-a", "", NULL, NULL, NULL);
	store_close(st);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_db_remove(dbpath);
	return 0;
}

static char *
render(enum report_format f)
{
	char	*out = NULL, err[512];
	size_t	 len = 0;
	FILE	*fp = open_memstream(&out, &len);

	assert_non_null(fp);
	if (report_run(dbpath, 1, -1, NULL, f, fp, NULL, err, sizeof err) == -1)
		fail_msg("%s", err);
	fclose(fp);
	return out;
}

static size_t
count(const char *s, const char *what)
{
	size_t	n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

static void
test_text(void **state)
{
	char	*s;

	(void)state;
	s = render(REPORT_TEXT);
	assert_non_null(strstr(s, "hosts, as they reported themselves:\n"
	    "  em-a em0: r200399, driver veth (inventory: em), chip - "
	    "(inventory: 0x10968086)\n"
	    "  em-b em0: r200399, driver em, chip 0x10968086\n"
	    "  lo-a em0: r200399, driver -, chip -\n\n"));
	assert_int_equal(count(s, "  em-a em0:"), 1);
	assert_int_equal(count(s, "(inventory:"), 2);
	free(s);
}

static const char *
get_str(struct json_object *o, const char *k)
{
	struct json_object	*v;

	assert_true(json_object_object_get_ex(o, k, &v));
	return json_object_get_string(v);
}

static void
test_json(void **state)
{
	struct json_object	*root, *a, *o, *v;
	char			*s;

	(void)state;
	s = render(REPORT_JSON);
	root = json_tokener_parse(s);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "hosts", &a));
	assert_int_equal(json_object_array_length(a), 3);
	o = json_object_array_get_idx(a, 0);
	assert_string_equal(get_str(o, "host"), "em-a");
	assert_string_equal(get_str(o, "driver"), "veth");
	assert_null(get_str(o, "chip"));
	assert_string_equal(get_str(o, "declared_driver"), "em");
	assert_string_equal(get_str(o, "declared_chip"), "0x10968086");
	assert_string_equal(get_str(o, "revision"), "r200399");
	assert_true(json_object_object_get_ex(o, "mismatch", &v));
	assert_true(json_object_get_boolean(v));
	o = json_object_array_get_idx(a, 1);
	assert_string_equal(get_str(o, "driver"), "em");
	assert_true(json_object_object_get_ex(o, "mismatch", &v));
	assert_false(json_object_get_boolean(v));
	o = json_object_array_get_idx(a, 2);
	assert_null(get_str(o, "driver"));
	assert_null(get_str(o, "declared_driver"));
	assert_true(json_object_object_get_ex(o, "mismatch", &v));
	assert_false(json_object_get_boolean(v));
	json_object_put(root);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
