/*
 * test_http_token: the API's bearer tokens (http_token.c) on a tmpfs
 * store: a created token has the documented shape and checks (name, id,
 * read-only flag, last_used written); the store holds neither the secret
 * nor its random part; refused: every single changed character, another
 * token's id with this secret, a revoked token, and malformed secrets (no
 * prefix, short, long, non-base64url, an embedded NUL, a bad id).
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

#include "http.h"
#include "store_fixture.h"

static char	dbpath[256];
static char	err[512];

static int
setup(void **state)
{
	(void)kn;	/* store_fixture.h's knob helper: not needed here */
	return fx_store_open(state, dbpath, sizeof dbpath, "http-token");
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}

/* A secret's shape: lrt_<id>_<43 of A-Z a-z 0-9 - _>. */
static int64_t
shape_id(const char *s)
{
	const char	*p = s + 4, *u;
	size_t		 i;

	assert_memory_equal(s, "lrt_", 4);
	u = strchr(p, '_');
	assert_non_null(u);
	assert_int_equal(strlen(u + 1), 43);
	for (i = 0; u[1 + i] != '\0'; i++)
		assert_non_null(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm"
		    "nopqrstuvwxyz0123456789-_", u[1 + i]));
	return strtoll(p, NULL, 10);
}

static int
check(struct store *st, const char *secret, struct http_auth *a)
{
	return http_token_check(st, secret, a, err, sizeof err);
}

static void
test_add_check(void **state)
{
	struct store		*st = *state;
	struct http_auth	 a;
	struct store_token	 t;
	char			 s1[HTTP_TOKEN_SECRET_MAX], s2[HTTP_TOKEN_SECRET_MAX];
	int64_t			 id;

	assert_int_equal(http_token_add(st, "ci", 1, s1, sizeof s1, err,
	    sizeof err), 0);
	assert_int_equal(http_token_add(st, "admin", 0, s2, sizeof s2, err,
	    sizeof err), 0);
	assert_string_not_equal(s1, s2);
	id = shape_id(s1);
	assert_int_equal(store_token_get(st, id, &t, err, sizeof err), 1);
	assert_int_equal(t.last_used_ms, 0);
	/* Neither the secret nor its random part is in the row. */
	assert_null(strstr(t.hash, s1 + 8));
	assert_null(strstr(t.salt, s1 + 8));
	assert_int_equal(strlen(t.salt), 32);
	assert_int_equal(strlen(t.hash), 64);

	assert_int_equal(check(st, s1, &a), 1);
	assert_int_equal(a.token_id, id);
	assert_string_equal(a.name, "ci");
	assert_int_equal(a.read_only, 1);
	assert_int_equal(store_token_get(st, id, &t, err, sizeof err), 1);
	assert_true(t.last_used_ms > 1600000000000LL);	/* wall clock, ms */
	assert_int_equal(check(st, s2, &a), 1);
	assert_string_equal(a.name, "admin");
	assert_int_equal(a.read_only, 0);

	/* A taken or bad name makes nothing. */
	assert_int_equal(http_token_add(st, "ci", 0, s1, sizeof s1, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "exists"));
	assert_string_equal(s1, "");
	assert_int_equal(http_token_add(st, "bad name", 0, s1, sizeof s1, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "token name"));
	/* A buffer too small for the secret: no usable token is left. */
	assert_int_equal(http_token_add(st, "small", 0, s1, 20, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "too small"));
}

static void
test_changed_char(void **state)
{
	struct store		*st = *state;
	struct http_auth	 a;
	char			 s[HTTP_TOKEN_SECRET_MAX], m[HTTP_TOKEN_SECRET_MAX];
	size_t			 i, n;
	int			 rc;

	assert_int_equal(http_token_add(st, "t", 0, s, sizeof s, err,
	    sizeof err), 0);
	n = strlen(s);
	for (i = 0; i < n; i++) {
		memcpy(m, s, n + 1);
		/* Another character of the same class, so the shape stays. */
		m[i] = m[i] == 'A' ? 'B' : m[i] == '1' ? '2' : m[i] == '_' ?
		    '-' : m[i] == '-' ? '_' : 'A';
		if (i < 4)
			m[i] = m[i] == 'x' ? 'y' : 'x';
		rc = check(st, m, &a);
		if (rc != 0)
			fail_msg("secret with character %zu changed: %d", i, rc);
		assert_int_equal(a.token_id, 0);
	}
	memcpy(m, s, n + 1);
	m[n - 1] = m[n - 1] == 'A' ? 'B' : 'A';
	assert_int_equal(check(st, m, &a), 0);
	assert_non_null(strstr(err, "wrong secret"));
	assert_int_equal(check(st, s, &a), 1);
}

static void
test_other_id(void **state)
{
	struct store		*st = *state;
	struct http_auth	 a;
	char			 s1[HTTP_TOKEN_SECRET_MAX], s2[HTTP_TOKEN_SECRET_MAX];
	char			 m[HTTP_TOKEN_SECRET_MAX];
	int64_t			 id1, id2;

	assert_int_equal(http_token_add(st, "one", 0, s1, sizeof s1, err,
	    sizeof err), 0);
	assert_int_equal(http_token_add(st, "two", 0, s2, sizeof s2, err,
	    sizeof err), 0);
	id1 = shape_id(s1);
	id2 = shape_id(s2);
	/* two's id with one's random part, and one's id with two's. */
	snprintf(m, sizeof m, "lrt_%lld_%s", (long long)id2,
	    strchr(s1 + 4, '_') + 1);
	assert_int_equal(check(st, m, &a), 0);
	assert_non_null(strstr(err, "wrong secret"));
	snprintf(m, sizeof m, "lrt_%lld_%s", (long long)id1,
	    strchr(s2 + 4, '_') + 1);
	assert_int_equal(check(st, m, &a), 0);
	/* An id no token has. */
	snprintf(m, sizeof m, "lrt_%lld_%s", (long long)id2 + 7,
	    strchr(s2 + 4, '_') + 1);
	assert_int_equal(check(st, m, &a), 0);
	assert_non_null(strstr(err, "unknown"));
}

static void
test_revoked(void **state)
{
	struct store		*st = *state;
	struct http_auth	 a;
	char			 s[HTTP_TOKEN_SECRET_MAX];

	assert_int_equal(http_token_add(st, "gone", 0, s, sizeof s, err,
	    sizeof err), 0);
	assert_int_equal(check(st, s, &a), 1);
	assert_int_equal(http_token_revoke(st, "gone", err, sizeof err), 0);
	assert_int_equal(check(st, s, &a), 0);
	assert_non_null(strstr(err, "revoked"));
	assert_int_equal(a.token_id, 0);
	assert_int_equal(http_token_revoke(st, "gone", err, sizeof err), -1);
	assert_int_equal(http_token_revoke(st, "never", err, sizeof err), -1);
}

static void
test_malformed(void **state)
{
	struct store		*st = *state;
	struct http_auth	 a;
	char			 s[HTTP_TOKEN_SECRET_MAX], m[HTTP_TOKEN_SECRET_MAX];
	const char		*rnd;
	size_t			 i;

	assert_int_equal(http_token_add(st, "m", 0, s, sizeof s, err,
	    sizeof err), 0);
	rnd = strchr(s + 4, '_') + 1;
	const struct { const char *fmt; const char *why; } cases[] = {
		{ "%.0s", "prefix" },			/* empty */
		{ "%s", "prefix" },			/* no prefix */
		{ "Bearer lrt_1_%s", "prefix" },
		{ "LRT_1_%s", "prefix" },
		{ "lrt_1_%.42s", "too short" },
		{ "lrt_1_%sA", "too long" },
		{ "lrt__%s", "bad id" },
		{ "lrt_01_%s", "bad id" },
		{ "lrt_-1_%s", "bad id" },
		{ "lrt_x_%s", "bad id" },
		{ "lrt_1234567890123456789_%s", "bad id" },
		{ "lrt_1%s", "bad id" },
		{ "lrt_1_%.42s=", "base64url" },
		{ "lrt_1_%.42s+", "base64url" },
		{ "lrt_1_%.42s/", "base64url" },
		{ "lrt_1_%.42s\xc3", "base64url" },
		{ "lrt_1_%.41s \n", "base64url" },
	};
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(m, sizeof m, cases[i].fmt, rnd);
		if (check(st, m, &a) != 0)
			fail_msg("case %zu \"%s\" accepted", i, m);
		if (strstr(err, cases[i].why) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err,
			    cases[i].why);
	}
	/* An embedded NUL: what arrives is cut there, so it is short. */
	memcpy(m, s, strlen(s) + 1);
	m[strlen(m) - 5] = '\0';
	assert_int_equal(check(st, m, &a), 0);
	assert_non_null(strstr(err, "too short"));
	assert_int_equal(check(st, NULL, &a), 0);
	assert_int_equal(check(st, s, &a), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_add_check, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_changed_char, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_other_id, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_revoked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
