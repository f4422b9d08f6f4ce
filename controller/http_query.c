/*
 * http_query: the pure parser of a request target (http_int.h): path
 * segments and the query string, percent-decoded into the caller's
 * struct http_uri, with every refusal named; and the typed getters the
 * resources read their parameters with.  No I/O, no allocation: the fuzz
 * target tests/fuzz/fuzz_http_query.c drives it.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "http_int.h"
#include "util.h"

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t		need, i;
	uint32_t	cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		cp = s[0] & 0x07;
	} else
		return 0;
	if (n < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need;
}

/*
 * Decodes in[0..len) into out (room for len + 1), NUL-terminated; plus
 * says whether "+" is a blank (query only).  0, or -1 with why in err.
 */
static int
decode(const char *in, size_t len, int plus, char *out, size_t *outlen,
    const char *what, char *err, size_t errlen)
{
	const unsigned char	*u;
	size_t			 i, o = 0, k;
	int			 hi, lo;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];

		if (c == '%') {
			if (i + 2 >= len) {
				util_seterr(err, errlen, "%s: a %% not "
				    "followed by two hex digits", what);
				return -1;
			}
			hi = hexval((unsigned char)in[i + 1]);
			lo = hexval((unsigned char)in[i + 2]);
			if (hi < 0 || lo < 0) {
				util_seterr(err, errlen, "%s: a %% not "
				    "followed by two hex digits", what);
				return -1;
			}
			c = (unsigned char)(hi * 16 + lo);
			i += 2;
		} else if (c == '+' && plus)
			c = ' ';
		if (c < 0x20 || c == 0x7f) {
			util_seterr(err, errlen, "%s: holds a control "
			    "character (0x%02x)", what, c);
			return -1;
		}
		out[o++] = (char)c;
	}
	out[o] = '\0';
	u = (const unsigned char *)out;
	for (i = 0; i < o; i += k) {
		if ((k = utf8_len(u + i, o - i)) == 0) {
			util_seterr(err, errlen, "%s: not valid UTF-8", what);
			return -1;
		}
	}
	*outlen = o;
	return 0;
}

static int
parse_path(const char *p, size_t len, struct http_uri *u, size_t *used,
    char *err, size_t errlen)
{
	size_t	 i = 1, j, n, pos = *used;
	char	*seg;

	if (len == 0 || p[0] != '/') {
		util_seterr(err, errlen, "the path does not start with /");
		return -1;
	}
	if (len == 1)
		return 0;
	while (i <= len) {
		for (j = i; j < len && p[j] != '/'; j++)
			;
		if (j == i) {
			util_seterr(err, errlen, "the path has an empty "
			    "segment");
			return -1;
		}
		if (u->nseg == HTTP_SEGS_MAX) {
			util_seterr(err, errlen, "the path has more than %d "
			    "segments", HTTP_SEGS_MAX);
			return -1;
		}
		seg = u->buf + pos;
		if (decode(p + i, j - i, 0, seg, &n, "a path segment", err,
		    errlen) == -1)
			return -1;
		if (strchr(seg, '/') != NULL || strcmp(seg, ".") == 0 ||
		    strcmp(seg, "..") == 0) {
			util_seterr(err, errlen, "the path has a \".\", "
			    "\"..\" or encoded \"/\" segment");
			return -1;
		}
		if (n > HTTP_SEG_MAX) {
			util_seterr(err, errlen, "a path segment is over %d "
			    "bytes", HTTP_SEG_MAX);
			return -1;
		}
		u->seg[u->nseg++] = seg;
		pos += n + 1;
		i = j + 1;
	}
	*used = pos;
	return 0;
}

static int
valid_key(const char *k)
{
	return *k != '\0' && strspn(k, "abcdefghijklmnopqrstuvwxyz"
	    "0123456789_") == strlen(k);
}

static int
parse_pair(const char *s, size_t len, struct http_uri *u, size_t *used,
    char *err, size_t errlen)
{
	const char	*eq = memchr(s, '=', len);
	size_t		 klen = eq != NULL ? (size_t)(eq - s) : len, n;
	char		*key = u->buf + *used, what[HTTP_KEY_MAX + 16];
	const char	*val;

	if (u->nparam == HTTP_PARAMS_MAX) {
		util_seterr(err, errlen, "more than %d query parameters",
		    HTTP_PARAMS_MAX);
		return -1;
	}
	if (decode(s, klen, 1, key, &n, "a parameter name", err,
	    errlen) == -1)
		return -1;
	if (n > HTTP_KEY_MAX || !valid_key(key)) {
		util_seterr(err, errlen, "a parameter name is not "
		    "[a-z0-9_]{1,%d}", HTTP_KEY_MAX);
		return -1;
	}
	*used += n + 1;
	val = u->buf + *used;
	if (eq == NULL) {
		val = "";	/* no room taken: keeps buf within the target */
		n = 0;
	} else {
		snprintf(what, sizeof what, "parameter %.32s", key);
		if (decode(eq + 1, len - klen - 1, 1, u->buf + *used, &n, what,
		    err, errlen) == -1)
			return -1;
	}
	if (n > HTTP_VAL_MAX) {
		util_seterr(err, errlen, "parameter %s: over %d bytes", key,
		    HTTP_VAL_MAX);
		return -1;
	}
	if (eq != NULL)
		*used += n + 1;
	u->param[u->nparam].key = key;
	u->param[u->nparam].val = val;
	u->nparam++;
	return 0;
}

int
http_uri_parse(const char *raw, size_t len, struct http_uri *u, char *err,
    size_t errlen)
{
	const char	*q, *s, *amp;
	size_t		 plen, used = 0, n;

	u->nseg = 0;
	u->nparam = 0;
	u->buf[0] = '\0';
	if (len > HTTP_URI_MAX) {
		util_seterr(err, errlen, "the request target is over %d "
		    "bytes", HTTP_URI_MAX);
		return -1;
	}
	if (memchr(raw, '\0', len) != NULL) {
		util_seterr(err, errlen, "the request target holds a NUL");
		return -1;
	}
	q = memchr(raw, '?', len);
	plen = q != NULL ? (size_t)(q - raw) : len;
	if (memchr(raw, '#', len) != NULL) {
		util_seterr(err, errlen, "the request target holds a "
		    "fragment (#)");
		return -1;
	}
	if (parse_path(raw, plen, u, &used, err, errlen) == -1)
		return -1;
	if (q == NULL)
		return 0;
	for (s = q + 1; s < raw + len; s = amp + 1) {
		amp = memchr(s, '&', (size_t)(raw + len - s));
		if (amp == NULL)
			amp = raw + len;
		n = (size_t)(amp - s);
		if (n > 0 && parse_pair(s, n, u, &used, err, errlen) == -1)
			return -1;
	}
	return 0;
}

const char *
http_query_get(const struct http_uri *u, const char *key)
{
	size_t	i;

	for (i = 0; i < u->nparam; i++)
		if (strcmp(u->param[i].key, key) == 0)
			return u->param[i].val;
	return NULL;
}

size_t
http_query_count(const struct http_uri *u, const char *key)
{
	size_t	i, n = 0;

	for (i = 0; i < u->nparam; i++)
		n += strcmp(u->param[i].key, key) == 0;
	return n;
}

int
http_parse_id(const char *s, int64_t *out)
{
	int64_t	v = 0;

	if (*s < '1' || *s > '9')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || v > (INT64_MAX - (*s - '0')) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return 0;
}

/* The value of key for a getter: 1, 0 absent, -1 twice (err). */
static int
one_value(const struct http_uri *u, const char *key, const char **v,
    char *err, size_t errlen)
{
	if (http_query_count(u, key) > 1) {
		util_seterr(err, errlen, "parameter %s: given more than once",
		    key);
		return -1;
	}
	*v = http_query_get(u, key);
	return *v != NULL;
}

int
http_query_id(const struct http_uri *u, const char *key, int64_t *out,
    char *err, size_t errlen)
{
	const char	*v;
	int		 r;

	if ((r = one_value(u, key, &v, err, errlen)) != 1)
		return r;
	if (http_parse_id(v, out) == -1) {
		util_seterr(err, errlen, "parameter %s: \"%.40s\" is not a "
		    "positive integer", key, v);
		return -1;
	}
	return 1;
}

int
http_query_limit(const struct http_uri *u, size_t *out, char *err,
    size_t errlen)
{
	const char	*v;
	int64_t		 n;
	size_t		 i;
	int		 r;

	*out = HTTP_LIMIT_DEFAULT;
	if ((r = one_value(u, "limit", &v, err, errlen)) != 1)
		return r;
	/* Digits past int64 are a huge limit, not an error: cut it. */
	for (i = 0; v[i] >= '0' && v[i] <= '9'; i++)
		;
	if (v[0] < '1' || v[0] > '9' || v[i] != '\0') {
		util_seterr(err, errlen, "parameter limit: \"%.40s\" is not a "
		    "positive integer", v);
		return -1;
	}
	if (http_parse_id(v, &n) == -1 || n > HTTP_LIMIT_MAX)
		n = HTTP_LIMIT_MAX;
	*out = (size_t)n;
	return 1;
}

int
http_query_str(const struct http_uri *u, const char *key, size_t max,
    const char **out, char *err, size_t errlen)
{
	const char	*v;
	int		 r;

	if ((r = one_value(u, key, &v, err, errlen)) != 1)
		return r;
	if (strlen(v) > max) {
		util_seterr(err, errlen, "parameter %s: over %zu bytes", key,
		    max);
		return -1;
	}
	*out = v;
	return 1;
}

int
http_query_only(const struct http_uri *u, const char *const *allowed,
    char *err, size_t errlen)
{
	size_t	i, j;

	for (i = 0; i < u->nparam; i++) {
		for (j = 0; allowed[j] != NULL; j++)
			if (strcmp(allowed[j], u->param[i].key) == 0)
				break;
		if (allowed[j] == NULL) {
			util_seterr(err, errlen, "parameter %s: unknown here",
			    u->param[i].key);
			return -1;
		}
	}
	return 0;
}
