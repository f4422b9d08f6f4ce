/*
 * test_store_token: the API's tokens in the store (store_token.c) on a
 * tmpfs database: insert and read back (no secret column exists to read),
 * a taken name refused (also after revoke), bad names and a malformed
 * salt or hash refused, list in id order, revoke once (unknown and
 * already-revoked names refused, the row kept), last_used recorded, the
 * hash set only on a live token.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "store_fixture.h"

#define SALT	"00112233445566778899aabbccddeeff"
#define HASH	"0123456789abcdef0123456789abcdef" \
		"0123456789abcdef0123456789abcdef"

static char	dbpath[256];
static char	err[512];

static int
setup(void **state)
{
	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return fx_store_open(state, dbpath, sizeof dbpath, "store-token");
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}

static void
test_insert_get(void **state)
{
	struct store		*st = *state;
	struct store_token	 t;
	int64_t			 id = 0, id2 = 0;

	assert_int_equal(store_token_insert(st, "ci-bot", 1, SALT, HASH,
	    1700000000123, &id, err, sizeof err), 0);
	assert_true(id > 0);
	assert_int_equal(store_token_get(st, id, &t, err, sizeof err), 1);
	assert_int_equal(t.id, id);
	assert_string_equal(t.name, "ci-bot");
	assert_int_equal(t.read_only, 1);
	assert_string_equal(t.salt, SALT);
	assert_string_equal(t.hash, HASH);
	assert_int_equal(t.created_ms, 1700000000123);
	assert_int_equal(t.revoked_ms, 0);
	assert_int_equal(t.last_used_ms, 0);

	assert_int_equal(store_token_insert(st, "admin", 0, SALT, HASH,
	    1700000000200, &id2, err, sizeof err), 0);
	assert_true(id2 > id);
	assert_int_equal(store_token_get(st, id2, &t, err, sizeof err), 1);
	assert_int_equal(t.read_only, 0);
	assert_int_equal(store_token_get(st, id2 + 100, &t, err, sizeof err),
	    0);
}

static void
test_name_taken(void **state)
{
	struct store	*st = *state;
	int64_t		 id;

	assert_int_equal(store_token_insert(st, "dash", 0, SALT, HASH, 1, &id,
	    err, sizeof err), 0);
	assert_int_equal(store_token_insert(st, "dash", 1, SALT, HASH, 2, &id,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "token \"dash\" exists"));
	assert_int_equal(store_token_revoke(st, "dash", 3, err, sizeof err),
	    0);
	assert_int_equal(store_token_insert(st, "dash", 1, SALT, HASH, 4, &id,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "exists"));
}

static void
test_bad_input(void **state)
{
	static const char *const bad[] = {
		"", "has space", "semi;colon", "slash/", "quote\"",
		"nul\x01", "caf\xc3\xa9",
		"0123456789012345678901234567890123456789012345678901234567890"
		"123",		/* 64 characters */
	};
	struct store		*st = *state;
	struct store_token	*list;
	size_t			 i, n;
	int64_t			 id;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(store_token_name_ok(bad[i]), 0);
		assert_int_equal(store_token_insert(st, bad[i], 0, SALT, HASH,
		    1, &id, err, sizeof err), -1);
		assert_non_null(strstr(err, "token name"));
	}
	assert_int_equal(store_token_name_ok(NULL), 0);
	assert_int_equal(store_token_name_ok("A-z_0.9"), 1);
	assert_int_equal(store_token_name_ok("012345678901234567890123456789"
	    "012345678901234567890123456789012"), 1);	/* 63 */
	/* A salt or hash that is not what http_token writes. */
	assert_int_equal(store_token_insert(st, "x", 0, "00", HASH, 1, &id,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "hex"));
	assert_int_equal(store_token_insert(st, "x", 0, SALT, SALT, 1, &id,
	    err, sizeof err), -1);
	assert_int_equal(store_token_insert(st, "x", 0, SALT,
	    "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef",
	    1, &id, err, sizeof err), -1);
	assert_int_equal(store_token_list(st, &list, &n, err, sizeof err), 0);
	assert_int_equal(n, 0);
	free(list);
}

static void
test_list_revoke_used(void **state)
{
	struct store		*st = *state;
	struct store_token	*list, t;
	size_t			 n;
	int64_t			 a, b;

	assert_int_equal(store_token_insert(st, "a", 0, SALT, HASH, 10, &a,
	    err, sizeof err), 0);
	assert_int_equal(store_token_insert(st, "b", 1, SALT, HASH, 20, &b,
	    err, sizeof err), 0);
	assert_int_equal(store_token_revoke(st, "a", 30, err, sizeof err), 0);
	assert_int_equal(store_token_revoke(st, "a", 40, err, sizeof err),
	    -1);
	assert_non_null(strstr(err, "token \"a\" is already revoked"));
	assert_int_equal(store_token_revoke(st, "nosuch", 40, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "no token \"nosuch\""));
	assert_int_equal(store_token_used(st, b, 50, err, sizeof err), 0);
	assert_int_equal(store_token_used(st, b + 10, 50, err, sizeof err),
	    -1);

	assert_int_equal(store_token_list(st, &list, &n, err, sizeof err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(list[0].name, "a");
	assert_int_equal(list[0].revoked_ms, 30);	/* the first revoke */
	assert_int_equal(list[0].last_used_ms, 0);
	assert_string_equal(list[1].name, "b");
	assert_int_equal(list[1].read_only, 1);
	assert_int_equal(list[1].revoked_ms, 0);
	assert_int_equal(list[1].last_used_ms, 50);
	assert_int_equal(list[1].created_ms, 20);
	free(list);
	assert_int_equal(store_token_get(st, a, &t, err, sizeof err), 1);
	assert_int_equal(t.revoked_ms, 30);
	/* A hash is set only on a live token, and only as hex. */
	assert_int_equal(store_token_set_hash(st, a, HASH, err, sizeof err),
	    -1);
	assert_int_equal(store_token_set_hash(st, b, "zz", err, sizeof err),
	    -1);
	assert_int_equal(store_token_set_hash(st, b, "ffffffffffffffffffffff"
	    "ffffffffffffffffffffffffffffffffffffffffff", err, sizeof err), 0);
	assert_int_equal(store_token_get(st, b, &t, err, sizeof err), 1);
	assert_string_equal(t.hash, "ffffffffffffffffffffffffffffffffffffffff"
	    "ffffffffffffffffffffffff");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_insert_get, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_name_taken, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_list_revoke_used, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
