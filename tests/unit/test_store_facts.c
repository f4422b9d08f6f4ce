/*
 * test_store_facts: a facts row keeps what the host reported (driver, chip)
 * and what the inventory declared (declared_driver, declared_chip) side by
 * side, each read back as written; the mismatch tests compare the two;
 * the declared columns are length-checked like the reported ones.  The
 * migration of older databases (the declared columns NULL in old rows) is
 * in test_store's fixtures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store_fixture.h"

static char	dbpath[256];
static char	err[512];

static struct store *
db_open(void)
{
	struct store	*st = NULL;

	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		fail_msg("%s", err);
	return st;
}

static int64_t
run_new(struct store *st)
{
	struct store_run_spec	spec;
	int64_t			id;

	memset(&spec, 0, sizeof spec);
	spec.kind = "manual";
	assert_int_equal(store_run_create(st, &spec, &id, err, sizeof err), 0);
	return id;
}

static int64_t
add(struct store *st, int64_t run, const char *host, const char *driver,
    const char *chip, const char *ddriver, const char *dchip)
{
	struct store_host_facts	f;
	int64_t			id;

	memset(&f, 0, sizeof f);
	f.host = host;
	f.os = "linux";
	f.revision = "r200399";
	f.ifname = "em0";
	f.driver = driver;
	f.chip = chip;
	f.declared_driver = ddriver;
	f.declared_chip = dchip;
	f.knobs = "";
	if (store_host_facts_add(st, run, &f, &id, err, sizeof err) == -1)
		fail_msg("%s", err);
	return id;
}

static int
setup(void **state)
{
	(void)state;
	(void)kn;	/* the fixture's knob helper: not needed here */
	fx_db_path(dbpath, sizeof dbpath, "facts");
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_db_remove(dbpath);
	return 0;
}

/* A veth declared as em: both read back, neither replaces the other. */
static void
test_round_trip(void **state)
{
	struct store			*st = db_open();
	struct store_host_facts_row	*r;
	size_t				 n;
	int64_t				 run = run_new(st), id;

	(void)state;
	id = add(st, run, "em-a", "veth", NULL, "em", "0x10968086");
	add(st, run, "em-b", "em", "0x10968086", NULL, NULL);
	add(st, run, "bce-a", "bce", "0x164C14E4", "bce", "0x164c14e4");
	add(st, run, "bce-b", "", NULL, "bce", NULL);
	assert_int_equal(store_host_facts_list(st, run, &r, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 4);
	assert_int_equal(r[0].id, id);
	assert_string_equal(r[0].host, "em-a");
	assert_string_equal(r[0].driver, "veth");
	assert_null(r[0].chip);
	assert_string_equal(r[0].declared_driver, "em");
	assert_string_equal(r[0].declared_chip, "0x10968086");
	assert_string_equal(r[0].revision, "r200399");
	assert_string_equal(r[1].driver, "em");
	assert_string_equal(r[1].chip, "0x10968086");
	assert_null(r[1].declared_driver);
	assert_null(r[1].declared_chip);
	assert_string_equal(r[2].chip, "0x164C14E4");
	assert_string_equal(r[2].declared_chip, "0x164c14e4");
	assert_string_equal(r[3].driver, "");
	assert_string_equal(r[3].declared_driver, "bce");
	store_facts_free(r, n);
	store_close(st);
}

/* What counts as a mismatch. */
static void
test_differs(void **state)
{
	struct store			*st = db_open();
	struct store_host_facts_row	*r;
	size_t				 n;
	int64_t				 run = run_new(st);

	(void)state;
	add(st, run, "em-a", "veth", NULL, "em", "0x10968086");
	add(st, run, "em-b", "em", "0x10968086", NULL, NULL);
	add(st, run, "bce-a", "bce", "0x164C14E4", "bce", "0x164c14e4");
	add(st, run, "bce-b", "", NULL, "bce", NULL);
	add(st, run, "igb-a", "igb", "0x10c98086", "igb", "0x150e8086");
	assert_int_equal(store_host_facts_list(st, run, &r, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 5);
	/* veth reported, em declared; no chip reported, one declared. */
	assert_int_equal(store_facts_driver_differs(&r[0]), 1);
	assert_int_equal(store_facts_chip_differs(&r[0]), 1);
	/* Nothing declared: nothing to differ from. */
	assert_int_equal(store_facts_driver_differs(&r[1]), 0);
	assert_int_equal(store_facts_chip_differs(&r[1]), 0);
	/* The same chip id in another case is the same chip. */
	assert_int_equal(store_facts_driver_differs(&r[2]), 0);
	assert_int_equal(store_facts_chip_differs(&r[2]), 0);
	/* The host reported no driver at all. */
	assert_int_equal(store_facts_driver_differs(&r[3]), 1);
	assert_int_equal(store_facts_chip_differs(&r[3]), 0);
	/* The right driver on another chip. */
	assert_int_equal(store_facts_driver_differs(&r[4]), 0);
	assert_int_equal(store_facts_chip_differs(&r[4]), 1);
	store_facts_free(r, n);
	store_close(st);
}

/* A declared value too long is refused and nothing is recorded. */
static void
test_declared_too_long(void **state)
{
	struct store			*st = db_open();
	struct store_host_facts		 f;
	struct store_host_facts_row	*r;
	char				 big[STORE_NAME_MAX + 8];
	size_t				 n;
	int64_t				 run = run_new(st), id;

	(void)state;
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memset(&f, 0, sizeof f);
	f.host = "em-a";
	f.driver = "veth";
	f.declared_driver = big;
	assert_int_equal(store_host_facts_add(st, run, &f, &id, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "declared driver"));
	f.declared_driver = "em";
	f.declared_chip = big;
	assert_int_equal(store_host_facts_add(st, run, &f, &id, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "declared chip"));
	assert_int_equal(store_host_facts_list(st, run, &r, &n, err,
	    sizeof err), 0);
	assert_int_equal(n, 0);
	store_facts_free(r, n);
	store_close(st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_round_trip),
		T(test_differs),
		T(test_declared_too_long),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
