/*
 * http_token: the API's bearer tokens (http.h "tokens").  A secret is
 * "lrt_<id>_<43 characters>": the id finds the row, the rest is 32 bytes
 * from getrandom(2) in unpadded base64url.  The store keeps a random
 * 16-byte salt and HMAC-SHA256(key = the salt's 16 bytes, msg = the whole
 * secret), both as hex; the secret is never stored, so it is shown once.
 * Checking recomputes the HMAC and compares it in constant time.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "http.h"
#include "http_int.h"
#include "util.h"

#define TOKEN_PREFIX	"lrt_"
#define TOKEN_RAND	32	/* random bytes of a secret */
#define TOKEN_B64	43	/* their unpadded base64url length */
#define TOKEN_SALT	16
/* last_used is written at most this often per token: one write per
 * request would serialise a busy API on the database's write lock. */
#define TOKEN_USED_EVERY_MS	1000

int
http_random(void *buf, size_t len, char *err, size_t errlen)
{
	uint8_t	*p = buf;
	ssize_t	 n;

	while (len > 0) {
		n = getrandom(p, len, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			util_seterr(err, errlen, "getrandom: %s",
			    n == -1 ? strerror(errno) : "no bytes");
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void
token_hex(const uint8_t *in, size_t n, char *out)
{
	static const char	digits[] = "0123456789abcdef";
	size_t			i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 0xf];
	}
	out[2 * n] = '\0';
}

static int
token_unhex(const char *in, uint8_t *out, size_t n)
{
	size_t	i;
	int	hi, lo;

	for (i = 0; i < n; i++) {
		hi = in[2 * i];
		lo = in[2 * i + 1];
		hi = hi >= '0' && hi <= '9' ? hi - '0' : hi >= 'a' &&
		    hi <= 'f' ? hi - 'a' + 10 : -1;
		lo = lo >= '0' && lo <= '9' ? lo - '0' : lo >= 'a' &&
		    lo <= 'f' ? lo - 'a' + 10 : -1;
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return in[2 * n] == '\0' ? 0 : -1;
}

/* RFC 4648 section 5, without padding: 32 bytes give 43 characters. */
void
http_b64url(const uint8_t *in, size_t n, char *out)
{
	static const char	a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
	    "opqrstuvwxyz0123456789-_";
	uint32_t		v;
	size_t			i, o = 0;

	for (i = 0; i + 3 <= n; i += 3) {
		v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 |
		    in[i + 2];
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
		out[o++] = a[v >> 6 & 63];
		out[o++] = a[v & 63];
	}
	if (n - i == 1) {
		v = (uint32_t)in[i] << 16;
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
	} else if (n - i == 2) {
		v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8;
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
		out[o++] = a[v >> 6 & 63];
	}
	out[o] = '\0';
}

/* hex(HMAC-SHA256(salt's bytes, secret)) into hash (65 bytes). */
static void
token_hash(const uint8_t salt[TOKEN_SALT], const char *secret,
    char hash[65])
{
	uint8_t	mac[32];

	util_hmac_sha256(salt, TOKEN_SALT, secret, strlen(secret), mac);
	token_hex(mac, sizeof mac, hash);
}

int
http_token_add(struct store *st, const char *name, int read_only,
    char *secret, size_t secretlen, char *err, size_t errlen)
{
	uint8_t	rnd[TOKEN_RAND], salt[TOKEN_SALT], filler[32];
	char	b64[TOKEN_B64 + 1], salt_hex[2 * TOKEN_SALT + 1], hash[65];
	char	buf[HTTP_TOKEN_SECRET_MAX];
	int64_t	id;
	int	n;

	if (secretlen > 0)
		secret[0] = '\0';
	if (!store_token_name_ok(name)) {
		util_seterr(err, errlen, "token name \"%s\": must be 1-%d "
		    "characters of A-Z a-z 0-9 . _ -", name != NULL ? name : "",
		    STORE_TOKEN_NAME_MAX);
		return -1;
	}
	if (http_random(rnd, sizeof rnd, err, errlen) == -1 ||
	    http_random(salt, sizeof salt, err, errlen) == -1 ||
	    http_random(filler, sizeof filler, err, errlen) == -1)
		return -1;
	token_hex(salt, sizeof salt, salt_hex);
	/*
	 * The secret names the row's id, which the insert gives: the row
	 * starts with the hash of random bytes nobody holds (no secret
	 * matches it), and gets the secret's hash once the id is known.
	 */
	token_hex(filler, sizeof filler, hash);
	if (store_token_insert(st, name, read_only, salt_hex, hash,
	    util_wall_ms(), &id, err, errlen) == -1)
		return -1;
	http_b64url(rnd, sizeof rnd, b64);
	n = snprintf(buf, sizeof buf, TOKEN_PREFIX "%lld_%s", (long long)id,
	    b64);
	if (n < 0 || (size_t)n >= secretlen) {
		util_seterr(err, errlen, "token \"%s\": secret buffer of %zu "
		    "bytes too small", name, secretlen);
		store_token_revoke(st, name, util_wall_ms(), NULL, 0);
		return -1;
	}
	token_hash(salt, buf, hash);
	if (store_token_set_hash(st, id, hash, err, errlen) == -1) {
		store_token_revoke(st, name, util_wall_ms(), NULL, 0);
		return -1;
	}
	memcpy(secret, buf, (size_t)n + 1);
	memset(buf, 0, sizeof buf);
	memset(rnd, 0, sizeof rnd);
	memset(b64, 0, sizeof b64);
	return 0;
}

/*
 * Splits "lrt_<id>_<43 base64url>" (nothing else, no NUL before its end
 * since it is a C string) and returns the id, or 0 with why set.
 */
static int64_t
token_parse(const char *s, const char **why)
{
	const char	*p, *rest;
	int64_t		 id = 0;
	size_t		 i;

	if (strncmp(s, TOKEN_PREFIX, strlen(TOKEN_PREFIX)) != 0) {
		*why = "no lrt_ prefix";
		return 0;
	}
	p = s + strlen(TOKEN_PREFIX);
	for (i = 0; p[i] >= '0' && p[i] <= '9'; i++) {
		if (i >= 18 || (i == 0 && p[i] == '0')) {
			*why = "bad id";
			return 0;
		}
		id = id * 10 + (p[i] - '0');
	}
	if (i == 0 || p[i] != '_') {
		*why = "bad id";
		return 0;
	}
	rest = p + i + 1;
	for (i = 0; rest[i] != '\0'; i++)
		if (!((rest[i] >= 'A' && rest[i] <= 'Z') || (rest[i] >= 'a' &&
		    rest[i] <= 'z') || (rest[i] >= '0' && rest[i] <= '9') ||
		    rest[i] == '-' || rest[i] == '_')) {
			*why = "not base64url";
			return 0;
		}
	if (i != TOKEN_B64) {
		*why = i < TOKEN_B64 ? "too short" : "too long";
		return 0;
	}
	return id;
}

int
http_token_check(struct store *st, const char *secret, struct http_auth *out,
    char *err, size_t errlen)
{
	struct store_token	 t;
	const char		*why = "";
	uint8_t			 salt[TOKEN_SALT];
	char			 hash[65];
	int64_t			 id, now;
	int			 rc;

	memset(out, 0, sizeof *out);
	if (secret == NULL || (id = token_parse(secret, &why)) == 0) {
		util_seterr(err, errlen, "malformed token: %s",
		    secret == NULL ? "none" : why);
		return 0;
	}
	if ((rc = store_token_get(st, id, &t, err, errlen)) == -1)
		return -1;
	if (rc == 0 || token_unhex(t.salt, salt, sizeof salt) == -1) {
		/* The same HMAC work as a known id, so an unknown one does
		 * not answer faster. */
		memset(salt, 0, sizeof salt);
		token_hash(salt, secret, hash);
		util_seterr(err, errlen, "token id %lld: %s", (long long)id,
		    rc == 0 ? "unknown" : "bad salt in the store");
		return 0;
	}
	token_hash(salt, secret, hash);
	if (!util_ct_equal(hash, t.hash, sizeof hash)) {
		util_seterr(err, errlen, "token id %lld (%s): wrong secret",
		    (long long)id, t.name);
		return 0;
	}
	if (t.revoked_ms != 0) {
		util_seterr(err, errlen, "token id %lld (%s): revoked",
		    (long long)id, t.name);
		return 0;
	}
	now = util_wall_ms();
	if ((t.last_used_ms == 0 || now - t.last_used_ms >=
	    TOKEN_USED_EVERY_MS || now < t.last_used_ms) &&
	    store_token_used(st, id, now, err, errlen) == -1)
		return -1;
	out->token_id = id;
	snprintf(out->name, sizeof out->name, "%s", t.name);
	out->read_only = t.read_only;
	return 1;
}

int
http_token_revoke(struct store *st, const char *name, char *err,
    size_t errlen)
{
	return store_token_revoke(st, name, util_wall_ms(), err, errlen);
}
