/*
 * store_token: the HTTP API's bearer tokens (schema 13, table tokens; see
 * the store header's "tokens" section).  Only a salt and a keyed hash are
 * stored, never the secret: http_token.c makes and checks them.  A revoked
 * token keeps its row, so its name stays taken and its history shows.
 */
#include <string.h>

#include "store_int.h"
#include "util.h"

#define TOKEN_COLS	"id, name, read_only, salt, hash, created_ms, " \
	"coalesce(revoked_ms, 0), coalesce(last_used_ms, 0)"

int
store_token_name_ok(const char *name)
{
	return store_name_ok(name, STORE_TOKEN_NAME_MAX);
}

/* Is s exactly n lower-case hex digits? */
static int
token_hex_ok(const char *s, size_t n)
{
	size_t	i;

	if (s == NULL || strlen(s) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return 0;
	return 1;
}

static void
token_read(sqlite3_stmt *stmt, void *v)
{
	struct store_token	*t = v;

	memset(t, 0, sizeof *t);
	store_cols(stmt, 0, "IsissIII", &t->id, t->name, sizeof t->name,
	    &t->read_only, t->salt, sizeof t->salt, t->hash, sizeof t->hash,
	    &t->created_ms, &t->revoked_ms, &t->last_used_ms);
}

static const struct store_rowtype token_row = {
	sizeof (struct store_token), token_read, NULL
};

static int
token_name_taken(struct store *st, const char *name, char *err,
    size_t errlen)
{
	int64_t	id;

	return store_get(st, &store_id_row, &id, "find token", err, errlen,
	    "SELECT id FROM tokens WHERE name = ?", "t", name);
}

int
store_token_insert(struct store *st, const char *name, int read_only,
    const char *salt_hex, const char *hash_hex, int64_t now_ms, int64_t *id,
    char *err, size_t errlen)
{
	int64_t	rowid;

	if (!store_token_name_ok(name)) {
		util_seterr(err, errlen, "token name \"%s\": must be 1-%d of "
		    "A-Z a-z 0-9 . _ -", name != NULL ? name : "",
		    STORE_TOKEN_NAME_MAX);
		return -1;
	}
	if (!token_hex_ok(salt_hex, 32) || !token_hex_ok(hash_hex, 64)) {
		util_seterr(err, errlen, "token \"%s\": salt must be 32 and "
		    "hash 64 lower-case hex digits", name);
		return -1;
	}
	if (store_begin(st, "add token", err, errlen) == -1)
		return -1;
	switch (token_name_taken(st, name, err, errlen)) {
	case 0:
		break;
	case 1:
		util_seterr(err, errlen, "token \"%s\" exists (names stay "
		    "taken after revoke)", name);
		/* FALLTHROUGH */
	default:
		store_rollback(st);
		return -1;
	}
	if (store_do(st, &rowid, "add token", err, errlen,
	    "INSERT INTO tokens (name, read_only, salt, hash, created_ms) "
	    "VALUES (?, ?, ?, ?, ?)", "tittI", name, read_only ? 1 : 0,
	    salt_hex, hash_hex, now_ms) == -1) {
		store_rollback(st);
		return -1;
	}
	if (store_commit(st, "add token", err, errlen) == -1)
		return -1;
	if (id != NULL)
		*id = rowid;
	return 0;
}

int
store_token_get(struct store *st, int64_t id, struct store_token *t,
    char *err, size_t errlen)
{
	return store_get(st, &token_row, t, "read token", err, errlen,
	    "SELECT " TOKEN_COLS " FROM tokens WHERE id = ?", "I", id);
}

int
store_token_list(struct store *st, struct store_token **out, size_t *n,
    char *err, size_t errlen)
{
	return store_list(st, &token_row, out, n, "list tokens", err, errlen,
	    "SELECT " TOKEN_COLS " FROM tokens ORDER BY id", "");
}

int
store_token_revoke(struct store *st, const char *name, int64_t now_ms,
    char *err, size_t errlen)
{
	if (store_do(st, NULL, "revoke token", err, errlen,
	    "UPDATE tokens SET revoked_ms = ? WHERE name = ? AND revoked_ms "
	    "IS NULL", "It", now_ms, name) == -1)
		return -1;
	if (sqlite3_changes(st->db) > 0)
		return 0;
	switch (token_name_taken(st, name, err, errlen)) {
	case 0:
		util_seterr(err, errlen, "no token \"%s\"", name);
		break;
	case 1:
		util_seterr(err, errlen, "token \"%s\" is already revoked",
		    name);
		break;
	}
	return -1;
}

int
store_token_used(struct store *st, int64_t id, int64_t now_ms, char *err,
    size_t errlen)
{
	if (store_do(st, NULL, "mark token used", err, errlen,
	    "UPDATE tokens SET last_used_ms = ? WHERE id = ?", "II", now_ms,
	    id) == -1)
		return -1;
	return store_changed(st, "mark token used", "token", id, err, errlen);
}

int
store_token_set_hash(struct store *st, int64_t id, const char *hash_hex,
    char *err, size_t errlen)
{
	if (!token_hex_ok(hash_hex, 64)) {
		util_seterr(err, errlen, "token %lld: hash must be 64 "
		    "lower-case hex digits", (long long)id);
		return -1;
	}
	if (store_do(st, NULL, "set token hash", err, errlen,
	    "UPDATE tokens SET hash = ? WHERE id = ? AND revoked_ms IS NULL",
	    "tI", hash_hex, id) == -1)
		return -1;
	return store_changed(st, "set token hash", "live token", id, err,
	    errlen);
}
