/*
 * test_http_session: the dashboard's session table (http_session.c): a
 * session is found by its id until it expires (then it is gone), ids and
 * CSRF secrets are 43 characters of base64url and differ, a full table
 * evicts its oldest session (and expired ones before that), a revoked
 * token's sessions all go, and the table stays consistent under threads.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "http_int.h"

#define T0	1700000000000LL

static int
b64url(const char *s)
{
	return strlen(s) == HTTP_B64_32 && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVW"
	    "XYZabcdefghijklmnopqrstuvwxyz0123456789-_") == HTTP_B64_32;
}

static void
test_find_and_expire(void **state)
{
	struct http_sessions	*t = http_sessions_new(8);
	struct http_session	 a, b, got;
	char			 err[128], bad[HTTP_B64_32 + 1];

	(void)state;
	assert_int_equal(http_session_new(t, 7, T0, 1000, &a, err,
	    sizeof err), 0);
	assert_int_equal(http_session_new(t, 7, T0, 5000, &b, err,
	    sizeof err), 0);
	assert_true(b64url(a.id));
	assert_true(b64url(a.csrf));
	assert_string_not_equal(a.id, a.csrf);
	assert_string_not_equal(a.id, b.id);
	assert_int_equal(a.expires_ms, T0 + 1000);
	assert_int_equal(http_session_find(t, a.id, T0 + 999, &got), 1);
	assert_int_equal(got.token_id, 7);
	assert_string_equal(got.csrf, a.csrf);
	/* one character off, a prefix, empty: unknown */
	memcpy(bad, a.id, sizeof bad);
	bad[10] = bad[10] == 'A' ? 'B' : 'A';
	assert_int_equal(http_session_find(t, bad, T0, &got), 0);
	bad[10] = '\0';
	assert_int_equal(http_session_find(t, bad, T0, &got), 0);
	assert_int_equal(http_session_find(t, "", T0, &got), 0);
	/* expired: not found, and removed */
	assert_int_equal(http_session_find(t, a.id, T0 + 1000, &got), 0);
	assert_int_equal(http_session_count(t), 1);
	assert_int_equal(http_session_find(t, a.id, T0, &got), 0);
	assert_int_equal(http_session_find(t, b.id, T0 + 4999, &got), 1);
	/* logout */
	assert_int_equal(http_session_remove(t, b.id), 1);
	assert_int_equal(http_session_remove(t, b.id), 0);
	assert_int_equal(http_session_find(t, b.id, T0, &got), 0);
	assert_int_equal(http_session_count(t), 0);
	http_sessions_free(t);
}

static void
test_eviction(void **state)
{
	struct http_sessions	*t = http_sessions_new(4);
	struct http_session	 s[6], got;
	char			 err[128];
	int			 i;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(http_session_new(t, i + 1, T0 + i, 100000,
		    &s[i], err, sizeof err), 0);
	assert_int_equal(http_session_count(t), 4);
	/* full: the oldest (s[0]) goes */
	assert_int_equal(http_session_new(t, 5, T0 + 10, 100000, &s[4], err,
	    sizeof err), 0);
	assert_int_equal(http_session_count(t), 4);
	assert_int_equal(http_session_find(t, s[0].id, T0 + 10, &got), 0);
	for (i = 1; i < 5; i++)
		assert_int_equal(http_session_find(t, s[i].id, T0 + 10, &got),
		    1);
	/* an expired session goes before the oldest live one */
	http_session_remove(t, s[3].id);
	assert_int_equal(http_session_new(t, 9, T0 + 20, 5, &s[3], err,
	    sizeof err), 0);	/* expires at T0 + 25 */
	assert_int_equal(http_session_new(t, 6, T0 + 30, 100000, &s[5], err,
	    sizeof err), 0);
	assert_int_equal(http_session_find(t, s[1].id, T0 + 30, &got), 1);
	assert_int_equal(http_session_find(t, s[5].id, T0 + 30, &got), 1);
	assert_int_equal(http_session_find(t, s[3].id, T0 + 21, &got), 0);
	http_sessions_free(t);
}

static void
test_revocation(void **state)
{
	struct http_sessions	*t = http_sessions_new(0);
	struct http_session	 s[5], got;
	char			 err[128];
	int			 i;

	(void)state;
	for (i = 0; i < 5; i++)
		assert_int_equal(http_session_new(t, i % 2 ? 42 : 43, T0,
		    HTTP_SESSION_TTL_MS, &s[i], err, sizeof err), 0);
	assert_int_equal(http_session_drop_token(t, 42), 2);
	assert_int_equal(http_session_drop_token(t, 42), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(http_session_find(t, s[i].id, T0 +
		    HTTP_SESSION_TTL_MS - 1, &got), i % 2 ? 0 : 1);
	assert_int_equal(http_session_count(t), 3);
	/* 12 h */
	assert_int_equal(http_session_find(t, s[0].id, T0 +
	    12LL * 3600 * 1000, &got), 0);
	http_sessions_free(t);
	http_sessions_free(NULL);
}

struct worker {
	struct http_sessions	*t;
	int			 found;
};

static void *
hammer(void *arg)
{
	struct worker		*w = arg;
	struct http_session	 s, got;
	char			 err[128];
	int			 i;

	for (i = 0; i < 2000; i++) {
		if (http_session_new(w->t, i, T0 + i, 1000000, &s, err,
		    sizeof err) == -1)
			return NULL;
		w->found += http_session_find(w->t, s.id, T0 + i, &got) &&
		    got.token_id == i;
		if (i % 3 == 0)
			http_session_remove(w->t, s.id);
	}
	return NULL;
}

static void
test_threads(void **state)
{
	/* Room for every session: an eviction by another thread between
	 * a new and its find would be right, and fail the count. */
	struct http_sessions	*t = http_sessions_new(4 * 2000);
	struct worker		 w[4];
	pthread_t		 th[4];
	int			 i;

	(void)state;
	for (i = 0; i < 4; i++) {
		w[i].t = t;
		w[i].found = 0;
		assert_int_equal(pthread_create(&th[i], NULL, hammer, &w[i]),
		    0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(w[i].found, 2000);
	}
	assert_int_equal(http_session_count(t), 4 * (2000 - 667));
	http_sessions_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_and_expire),
		cmocka_unit_test(test_eviction),
		cmocka_unit_test(test_revocation),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
