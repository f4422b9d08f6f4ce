/*
 * json_raw: the raw-text pass (json_check_raw, see json.h).  One
 * iterative scan over the text with an explicit stack (no recursion, so
 * no input can exhaust the C stack); keys are decoded into one arena and
 * looked up in one open-addressing table keyed by (object, key), so
 * duplicate detection stays linear however many keys an object has.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_int.h"
#include "util.h"

/* Longest path end an error message shows. */
#define RAW_PATH_MAX	96

struct raw_frame {
	int		obj;
	uint64_t	id;		/* object: its table number */
	size_t		index;		/* array: current element */
	int		haskey;		/* object: koff, klen set */
	size_t		koff, klen;	/* current key, in the arena */
};

struct raw_ent {
	uint64_t	obj;		/* 0 = empty slot */
	uint64_t	hash;
	size_t		koff, klen;	/* the key, in the arena */
	size_t		at;		/* offset of its quote */
};

struct raw {
	const unsigned char	*s;
	size_t			 len, pos;
	struct raw_frame	*st;
	size_t			 depth, stcap;
	struct buf		 keys;
	struct raw_ent		*tab;
	size_t			 tcap, tn;
	uint64_t		 nobj;
	char			*err;
	size_t			 errlen;
};

/* Appends the path of the current position to b, config style. */
static void
raw_path(const struct raw *r, struct buf *b)
{
	const struct raw_frame	*f;
	size_t			 i, k;
	unsigned char		 c;

	for (i = 0; i < r->depth; i++) {
		f = &r->st[i];
		if (!f->obj) {
			buf_printf(b, "[%zu]", f->index);
			continue;
		}
		if (!f->haskey)
			break;
		if (b->len > 0)
			buf_append(b, ".", 1);
		for (k = 0; k < f->klen; k++) {
			c = (unsigned char)r->keys.data[f->koff + k];
			buf_append(b, c < 0x20 || c == 0x7f ? "?" :
			    (const char *)&c, 1);
		}
	}
}

static int raw_fail(struct raw *, int, size_t, const char *, ...)
	    __attribute__((format(printf, 4, 5)));

/* Writes "PATH: what (line L, byte B)" into r->err; returns rc. */
static int
raw_fail(struct raw *r, int rc, size_t at, const char *fmt, ...)
{
	struct buf	 b;
	va_list		 ap;
	const char	*path;
	char		 what[160], line[32] = "";
	size_t		 i, n = 1;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (memchr(r->s, '\n', r->len) != NULL) {
		for (i = 0; i < at && i < r->len; i++)
			n += r->s[i] == '\n';
		snprintf(line, sizeof line, "line %zu, ", n);
	}
	buf_init(&b, 4096);
	raw_path(r, &b);
	/* A deep path keeps its informative end. */
	path = b.len > RAW_PATH_MAX ? b.data + b.len - RAW_PATH_MAX :
	    b.len > 0 ? b.data : "";
	util_seterr(r->err, r->errlen, "%s%s%s%s (%sbyte %zu)",
	    b.len > RAW_PATH_MAX ? "..." : "", path, b.len > 0 ? ": " : "",
	    what, line, at);
	buf_free(&b);
	return rc;
}

/* An unexpected byte at r->pos: a NUL is rejected, the rest is syntax. */
static int
raw_unexpected(struct raw *r, const char *expected)
{
	unsigned char	c;

	if (r->pos >= r->len)
		return raw_fail(r, JSON_RAW_SYNTAX, r->pos, "unexpected end "
		    "of input, expected %s", expected);
	c = r->s[r->pos];
	if (c == '\0')
		return raw_fail(r, JSON_RAW_REJECTED, r->pos, "NUL byte");
	if (c >= 0x21 && c < 0x7f)
		return raw_fail(r, JSON_RAW_SYNTAX, r->pos, "unexpected '%c', "
		    "expected %s", c, expected);
	return raw_fail(r, JSON_RAW_SYNTAX, r->pos, "unexpected byte 0x%02x, "
	    "expected %s", c, expected);
}

static void
raw_ws(struct raw *r)
{
	while (r->pos < r->len && (r->s[r->pos] == ' ' ||
	    r->s[r->pos] == '\t' || r->s[r->pos] == '\n' ||
	    r->s[r->pos] == '\r'))
		r->pos++;
}

static int
raw_hex4(struct raw *r, size_t at, unsigned *out)
{
	unsigned	v = 0, c;
	size_t		i;

	if (r->len - at < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		c = r->s[at + i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Appends code point cp as UTF-8 to the key arena. */
static void
raw_key_cp(struct raw *r, unsigned cp)
{
	unsigned char	o[4];
	size_t		n;

	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		n = 1;
	} else if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		o[0] = (unsigned char)(0xf0 | cp >> 18);
		o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[3] = (unsigned char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	buf_append(&r->keys, o, n);
}

/* \uXXXX at r->pos (on the backslash), with its low half if a high one. */
static int
raw_escape_u(struct raw *r, int key)
{
	size_t		at = r->pos;
	unsigned	cp, lo;

	if (raw_hex4(r, at + 2, &cp) == -1)
		return raw_fail(r, JSON_RAW_SYNTAX, at, "bad \\u escape");
	r->pos += 6;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return raw_fail(r, JSON_RAW_REJECTED, at, "lone low surrogate "
		    "\\u%04X", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (r->len - r->pos < 6 || r->s[r->pos] != '\\' ||
		    r->s[r->pos + 1] != 'u' ||
		    raw_hex4(r, r->pos + 2, &lo) == -1 ||
		    lo < 0xdc00 || lo > 0xdfff)
			return raw_fail(r, JSON_RAW_REJECTED, at, "lone high "
			    "surrogate \\u%04X", cp);
		r->pos += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0 && key)
		return raw_fail(r, JSON_RAW_REJECTED, at, "NUL (\\u0000) in "
		    "a key");
	if (key)
		raw_key_cp(r, cp);
	return 0;
}

/* One escape at r->pos (on the backslash). */
static int
raw_escape(struct raw *r, int key)
{
	static const char	 from[] = "\"\\/bfnrt";
	static const char	 to[] = "\"\\/\b\f\n\r\t";
	const char		*p;

	if (r->pos + 1 >= r->len)
		return raw_unexpected(r, "an escape");
	if (r->s[r->pos + 1] == 'u')
		return raw_escape_u(r, key);
	if (r->s[r->pos + 1] == '\0' ||
	    (p = strchr(from, r->s[r->pos + 1])) == NULL)
		return raw_fail(r, JSON_RAW_SYNTAX, r->pos, "bad escape");
	if (key)
		buf_append(&r->keys, &to[p - from], 1);
	r->pos += 2;
	return 0;
}

/*
 * A string at r->pos (on its opening quote).  A key is decoded into the
 * arena and ends NUL-terminated there.
 */
static int
raw_string(struct raw *r, int key)
{
	const char	*why;
	unsigned	 cp;
	size_t		 n, bad, start;
	unsigned char	 c;
	int		 rc;

	r->pos++;
	for (;;) {
		if (r->pos >= r->len)
			return raw_fail(r, JSON_RAW_SYNTAX, r->pos,
			    "unterminated string");
		c = r->s[r->pos];
		if (c == '"')
			break;
		if (c == '\\') {
			if ((rc = raw_escape(r, key)) != 0)
				return rc;
			continue;
		}
		if (c < 0x20)
			return c == 0 ? raw_unexpected(r, "") :
			    raw_fail(r, JSON_RAW_SYNTAX, r->pos, "control "
			    "character 0x%02x in a string", c);
		start = r->pos;
		n = json_utf8_seq(r->s + r->pos, r->len - r->pos, &cp, &bad,
		    &why);
		if (n == 0)
			return raw_fail(r, JSON_RAW_REJECTED, r->pos, "%s",
			    why);
		r->pos += n;
		if (key)
			buf_append(&r->keys, r->s + start, n);
	}
	r->pos++;
	if (key)
		buf_append(&r->keys, "", 1);
	return 0;
}

static uint64_t
raw_hash(uint64_t obj, const char *k, size_t n)
{
	return util_fnv1a64(k, n, obj * 0x9e3779b97f4a7c15ull);
}

static void
raw_tab_grow(struct raw *r)
{
	struct raw_ent	*old = r->tab;
	size_t		 ocap = r->tcap, i, j;

	r->tcap = ocap == 0 ? 64 : 2 * ocap;
	r->tab = xcalloc(r->tcap, sizeof *r->tab);
	for (i = 0; i < ocap; i++) {
		if (old[i].obj == 0)
			continue;
		j = old[i].hash & (r->tcap - 1);
		while (r->tab[j].obj != 0)
			j = (j + 1) & (r->tcap - 1);
		r->tab[j] = old[i];
	}
	free(old);
}

/* Records key (koff, klen) of object obj, or finds its first occurrence. */
static const struct raw_ent *
raw_tab_add(struct raw *r, uint64_t obj, size_t koff, size_t klen, size_t at)
{
	const char	*k = r->keys.data + koff;
	uint64_t	 h = raw_hash(obj, k, klen);
	struct raw_ent	*e;
	size_t		 j;

	if (2 * (r->tn + 1) > r->tcap)
		raw_tab_grow(r);
	for (j = h & (r->tcap - 1); r->tab[j].obj != 0;
	    j = (j + 1) & (r->tcap - 1)) {
		e = &r->tab[j];
		if (e->obj == obj && e->hash == h && e->klen == klen &&
		    memcmp(r->keys.data + e->koff, k, klen) == 0)
			return e;
	}
	e = &r->tab[j];
	e->obj = obj;
	e->hash = h;
	e->koff = koff;
	e->klen = klen;
	e->at = at;
	r->tn++;
	return NULL;
}

/* A member's key and its colon, at r->pos (after whitespace). */
static int
raw_key(struct raw *r)
{
	struct raw_frame	*f = &r->st[r->depth - 1];
	const struct raw_ent	*dup;
	size_t			 at = r->pos, koff = r->keys.len;
	int			 rc;

	f->haskey = 0;
	if (at >= r->len || r->s[at] != '"')
		return raw_unexpected(r, "a member name");
	if ((rc = raw_string(r, 1)) != 0)
		return rc;
	if (r->keys.truncated)
		return raw_fail(r, JSON_RAW_SYNTAX, at, "keys too long");
	f->koff = koff;
	f->klen = r->keys.len - koff - 1;
	f->haskey = 1;
	dup = raw_tab_add(r, f->id, f->koff, f->klen, at);
	if (dup != NULL)
		return raw_fail(r, JSON_RAW_REJECTED, at, "duplicate key, "
		    "first at byte %zu", dup->at);
	raw_ws(r);
	if (r->pos >= r->len || r->s[r->pos] != ':')
		return raw_unexpected(r, "':'");
	r->pos++;
	return 0;
}

static int
raw_push(struct raw *r, int obj)
{
	struct raw_frame	*f;

	if (r->depth == JSON_RAW_MAX_DEPTH)
		return raw_fail(r, JSON_RAW_SYNTAX, r->pos, "nested deeper "
		    "than %d", JSON_RAW_MAX_DEPTH);
	if (r->depth == r->stcap) {
		r->stcap = r->stcap == 0 ? 16 : 2 * r->stcap;
		r->st = xreallocarray(r->st, r->stcap, sizeof *r->st);
	}
	f = &r->st[r->depth++];
	memset(f, 0, sizeof *f);
	f->obj = obj;
	if (obj)
		f->id = ++r->nobj;
	r->pos++;
	return 0;
}

static int
raw_number(struct raw *r)
{
	size_t	at = r->pos, d;

	if (r->pos < r->len && r->s[r->pos] == '-')
		r->pos++;
	for (d = 0; r->pos < r->len && r->s[r->pos] >= '0' &&
	    r->s[r->pos] <= '9'; d++)
		r->pos++;
	if (d == 0 || (d > 1 && r->s[r->pos - d] == '0'))
		return raw_fail(r, JSON_RAW_SYNTAX, at, "bad number");
	if (r->pos < r->len && r->s[r->pos] == '.') {
		r->pos++;
		for (d = 0; r->pos < r->len && r->s[r->pos] >= '0' &&
		    r->s[r->pos] <= '9'; d++)
			r->pos++;
		if (d == 0)
			return raw_fail(r, JSON_RAW_SYNTAX, at, "bad number");
	}
	if (r->pos < r->len && (r->s[r->pos] == 'e' || r->s[r->pos] == 'E')) {
		r->pos++;
		if (r->pos < r->len && (r->s[r->pos] == '+' ||
		    r->s[r->pos] == '-'))
			r->pos++;
		for (d = 0; r->pos < r->len && r->s[r->pos] >= '0' &&
		    r->s[r->pos] <= '9'; d++)
			r->pos++;
		if (d == 0)
			return raw_fail(r, JSON_RAW_SYNTAX, at, "bad number");
	}
	return 0;
}

/* A string, number or literal at r->pos. */
static int
raw_scalar(struct raw *r)
{
	static const char *const lits[] = { "true", "false", "null" };
	size_t		i, n;
	unsigned char	c;

	if (r->pos >= r->len)
		return raw_unexpected(r, "a value");
	c = r->s[r->pos];
	if (c == '"')
		return raw_string(r, 0);
	if (c == '-' || (c >= '0' && c <= '9'))
		return raw_number(r);
	for (i = 0; i < sizeof lits / sizeof lits[0]; i++) {
		n = strlen(lits[i]);
		if (r->len - r->pos >= n &&
		    memcmp(r->s + r->pos, lits[i], n) == 0) {
			r->pos += n;
			return 0;
		}
	}
	return raw_unexpected(r, "a value");
}

/* After a value: ',' and the next member or element, or the close. */
static int
raw_after(struct raw *r, int *want_value)
{
	struct raw_frame	*f = &r->st[r->depth - 1];
	unsigned char		 close = f->obj ? '}' : ']';

	*want_value = 0;
	if (r->pos < r->len && r->s[r->pos] == ',') {
		r->pos++;
		*want_value = 1;
		if (!f->obj) {
			f->index++;
			return 0;
		}
		raw_ws(r);
		return raw_key(r);
	}
	if (r->pos < r->len && r->s[r->pos] == close) {
		r->pos++;
		r->depth--;
		return 0;
	}
	return raw_unexpected(r, f->obj ? "',' or '}'" : "',' or ']'");
}

/* A value, or an opening bracket with its first key or closing bracket. */
static int
raw_value(struct raw *r, int *want_value)
{
	unsigned char	c = r->pos < r->len ? r->s[r->pos] : 0;
	int		rc;

	*want_value = 0;
	if (c != '{' && c != '[')
		return raw_scalar(r);
	if ((rc = raw_push(r, c == '{')) != 0)
		return rc;
	raw_ws(r);
	if (r->pos < r->len && r->s[r->pos] == (c == '{' ? '}' : ']')) {
		r->pos++;
		r->depth--;
		return 0;
	}
	*want_value = 1;
	return c == '{' ? raw_key(r) : 0;
}

int
json_check_raw(const char *text, size_t len, char *err, size_t errlen)
{
	struct raw	r;
	int		rc = JSON_RAW_OK, want_value = 1;

	memset(&r, 0, sizeof r);
	r.s = (const unsigned char *)text;
	r.len = len;
	r.err = err;
	r.errlen = errlen;
	/* Decoded keys are never longer than the text they came from. */
	buf_init(&r.keys, len + 1);
	for (;;) {
		raw_ws(&r);
		if (want_value)
			rc = raw_value(&r, &want_value);
		else if (r.depth > 0)
			rc = raw_after(&r, &want_value);
		else {
			if (r.pos < r.len)
				rc = r.s[r.pos] == '\0' ?
				    raw_unexpected(&r, "") :
				    raw_fail(&r, JSON_RAW_SYNTAX, r.pos,
				    "data after the value");
			break;
		}
		if (rc != JSON_RAW_OK)
			break;
	}
	buf_free(&r.keys);
	free(r.st);
	free(r.tab);
	return rc;
}
