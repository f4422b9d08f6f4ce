/*
 * json.c: small, strict, bounded JSON reader (see json.h).  Recursive
 * descent over (pointer, length) with a depth limit; values live in one
 * growable node array (capped at JSON_MAX_NODES) and decoded strings in
 * one arena no larger than the input.  Nodes are linked by index while
 * parsing (the array may move) and by pointer once it is done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

#define JSON_NONE	((size_t)-1)
#define JSON_MAX_NUMLEN	64

struct json_value {
	enum json_type		 type;
	const char		*key;	/* member name inside an object */
	const char		*str;
	double			 num;
	size_t			 len;	/* children */
	size_t			 child_i, next_i;
	const struct json_value	*child, *next;
};

struct json_doc {
	struct json_value	*nodes;
	size_t			 nnodes, cap;
	char			*arena;
	size_t			 arena_used;
};

struct json_parser {
	struct json_doc	*doc;
	const char	*s;
	size_t		 len, pos;
	char		*err;
	size_t		 errlen;
};

static int	json_value_parse(struct json_parser *, int, size_t *);

static int
json_fail(struct json_parser *p, const char *why)
{
	if (p->err != NULL && p->errlen > 0)
		snprintf(p->err, p->errlen, "json: %s at byte %zu", why, p->pos);
	return -1;
}

static void
json_ws(struct json_parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' ||
	    p->s[p->pos] == '\t' || p->s[p->pos] == '\n' ||
	    p->s[p->pos] == '\r'))
		p->pos++;
}

static int
json_node(struct json_parser *p, enum json_type type, size_t *idx)
{
	struct json_doc *d = p->doc;
	struct json_value *nn;
	size_t ncap;

	if (d->nnodes == d->cap) {
		if (d->cap >= JSON_MAX_NODES)
			return json_fail(p, "too many values");
		ncap = d->cap == 0 ? 64 : d->cap * 2;
		if (ncap > JSON_MAX_NODES)
			ncap = JSON_MAX_NODES;
		nn = realloc(d->nodes, ncap * sizeof(*nn));
		if (nn == NULL)
			return json_fail(p, "out of memory");
		d->nodes = nn;
		d->cap = ncap;
	}
	*idx = d->nnodes++;
	memset(&d->nodes[*idx], 0, sizeof(d->nodes[*idx]));
	d->nodes[*idx].type = type;
	d->nodes[*idx].child_i = JSON_NONE;
	d->nodes[*idx].next_i = JSON_NONE;
	return 0;
}

static int
json_hex4(struct json_parser *p, unsigned *out)
{
	unsigned v = 0, i;
	char c;

	if (p->len - p->pos < 4)
		return json_fail(p, "truncated \\u escape");
	for (i = 0; i < 4; i++) {
		c = p->s[p->pos + i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return json_fail(p, "bad \\u escape");
	}
	p->pos += 4;
	*out = v;
	return 0;
}

static size_t
json_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* \uXXXX (and a following low surrogate) at p->pos, after the 'u'. */
static int
json_escape_u(struct json_parser *p, char *o, size_t *w)
{
	unsigned cp, lo;

	if (json_hex4(p, &cp) == -1)
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return json_fail(p, "lone low surrogate");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->len - p->pos < 2 || p->s[p->pos] != '\\' ||
		    p->s[p->pos + 1] != 'u')
			return json_fail(p, "lone high surrogate");
		p->pos += 2;
		if (json_hex4(p, &lo) == -1)
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return json_fail(p, "bad surrogate pair");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return json_fail(p, "\\u0000 in string");
	*w += json_utf8(o + *w, cp);
	return 0;
}

/* A string at p->pos (on the opening quote) into the arena. */
static int
json_string_parse(struct json_parser *p, const char **out)
{
	char *o = p->doc->arena + p->doc->arena_used;
	size_t w = 0;
	unsigned char c;

	p->pos++;
	for (;;) {
		if (p->pos >= p->len)
			return json_fail(p, "unterminated string");
		c = (unsigned char)p->s[p->pos++];
		if (c == '"')
			break;
		if (c < 0x20)
			return json_fail(p, "control character in string");
		if (c != '\\') {
			o[w++] = (char)c;
			continue;
		}
		if (p->pos >= p->len)
			return json_fail(p, "unterminated string");
		c = (unsigned char)p->s[p->pos++];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			o[w++] = (char)c;
			break;
		case 'b':
			o[w++] = '\b';
			break;
		case 'f':
			o[w++] = '\f';
			break;
		case 'n':
			o[w++] = '\n';
			break;
		case 'r':
			o[w++] = '\r';
			break;
		case 't':
			o[w++] = '\t';
			break;
		case 'u':
			if (json_escape_u(p, o, &w) == -1)
				return -1;
			break;
		default:
			return json_fail(p, "bad escape");
		}
	}
	/* Decoded text plus NUL never exceeds the quoted source span. */
	o[w] = '\0';
	p->doc->arena_used += w + 1;
	*out = o;
	return 0;
}

static int
json_number_parse(struct json_parser *p, double *out)
{
	char buf[JSON_MAX_NUMLEN + 1];
	size_t i = p->pos, n;
	double v;

	if (i < p->len && p->s[i] == '-')
		i++;
	if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
		return json_fail(p, "bad number");
	if (p->s[i] == '0')
		i++;
	else
		while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
			i++;
	if (i < p->len && p->s[i] == '.') {
		i++;
		if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
			return json_fail(p, "bad number fraction");
		while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
			return json_fail(p, "bad number exponent");
		while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
			i++;
	}
	n = i - p->pos;
	if (n > JSON_MAX_NUMLEN)
		return json_fail(p, "number too long");
	memcpy(buf, p->s + p->pos, n);
	buf[n] = '\0';
	v = strtod(buf, NULL);
	/* Overflow gives +-HUGE_VAL; reject rather than report infinity. */
	if (v > 1.7e308 || v < -1.7e308)
		return json_fail(p, "number out of range");
	p->pos = i;
	*out = v;
	return 0;
}

static int
json_literal(struct json_parser *p, const char *word, enum json_type type,
    size_t *idx)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
		return json_fail(p, "unexpected character");
	p->pos += n;
	return json_node(p, type, idx);
}

/* Members or elements up to the closing bracket; p->pos after the opener. */
static int
json_container(struct json_parser *p, int depth, size_t idx, int object)
{
	size_t prev = JSON_NONE, child;
	const char *key = NULL;
	char close = object ? '}' : ']';

	json_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		json_ws(p);
		if (object) {
			if (p->pos >= p->len || p->s[p->pos] != '"')
				return json_fail(p, "expected member name");
			if (json_string_parse(p, &key) == -1)
				return -1;
			json_ws(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return json_fail(p, "expected ':'");
			p->pos++;
		}
		if (json_value_parse(p, depth + 1, &child) == -1)
			return -1;
		p->doc->nodes[child].key = key;
		if (prev == JSON_NONE)
			p->doc->nodes[idx].child_i = child;
		else
			p->doc->nodes[prev].next_i = child;
		prev = child;
		p->doc->nodes[idx].len++;
		json_ws(p);
		if (p->pos >= p->len)
			return json_fail(p, "unterminated container");
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] == close) {
			p->pos++;
			return 0;
		}
		return json_fail(p, "expected ',' or closing bracket");
	}
}

static int
json_value_parse(struct json_parser *p, int depth, size_t *idx)
{
	const char *str;
	double num;
	char c;

	if (depth > JSON_MAX_DEPTH)
		return json_fail(p, "nested too deep");
	json_ws(p);
	if (p->pos >= p->len)
		return json_fail(p, "unexpected end of input");
	c = p->s[p->pos];
	switch (c) {
	case '{':
	case '[':
		p->pos++;
		if (json_node(p, c == '{' ? JSON_OBJECT : JSON_ARRAY, idx) == -1)
			return -1;
		return json_container(p, depth, *idx, c == '{');
	case '"':
		if (json_string_parse(p, &str) == -1 ||
		    json_node(p, JSON_STRING, idx) == -1)
			return -1;
		p->doc->nodes[*idx].str = str;
		return 0;
	case 't':
		return json_literal(p, "true", JSON_TRUE, idx);
	case 'f':
		return json_literal(p, "false", JSON_FALSE, idx);
	case 'n':
		return json_literal(p, "null", JSON_NULL, idx);
	default:
		if (c != '-' && (c < '0' || c > '9'))
			return json_fail(p, "unexpected character");
		if (json_number_parse(p, &num) == -1 ||
		    json_node(p, JSON_NUMBER, idx) == -1)
			return -1;
		p->doc->nodes[*idx].num = num;
		return 0;
	}
}

struct json_doc *
json_doc_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct json_parser p;
	struct json_doc *d;
	size_t root, i;

	if (text == NULL || len > JSON_MAX_INPUT) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "json: input %s", text == NULL ?
			    "missing" : "exceeds the size limit");
		return NULL;
	}
	if ((d = calloc(1, sizeof(*d))) == NULL ||
	    (d->arena = malloc(len + 1)) == NULL) {
		free(d);
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "json: out of memory");
		return NULL;
	}
	memset(&p, 0, sizeof(p));
	p.doc = d;
	p.s = text;
	p.len = len;
	p.err = err;
	p.errlen = errlen;
	if (json_value_parse(&p, 0, &root) == -1)
		goto fail;
	json_ws(&p);
	if (p.pos != len) {
		json_fail(&p, "trailing characters after the value");
		goto fail;
	}
	for (i = 0; i < d->nnodes; i++) {
		d->nodes[i].child = d->nodes[i].child_i == JSON_NONE ? NULL :
		    &d->nodes[d->nodes[i].child_i];
		d->nodes[i].next = d->nodes[i].next_i == JSON_NONE ? NULL :
		    &d->nodes[d->nodes[i].next_i];
	}
	return d;
fail:
	json_doc_free(d);
	return NULL;
}

void
json_doc_free(struct json_doc *d)
{
	if (d == NULL)
		return;
	free(d->nodes);
	free(d->arena);
	free(d);
}

const struct json_value *
json_doc_root(const struct json_doc *d)
{
	return d == NULL || d->nnodes == 0 ? NULL : &d->nodes[0];
}

enum json_type
json_type(const struct json_value *v)
{
	return v == NULL ? JSON_NULL : v->type;
}

const struct json_value *
json_get(const struct json_value *v, const char *key)
{
	const struct json_value *c;

	if (v == NULL || v->type != JSON_OBJECT || key == NULL)
		return NULL;
	for (c = v->child; c != NULL; c = c->next)
		if (strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

const struct json_value *
json_path(const struct json_value *v, const char *path)
{
	char key[128];
	const char *dot;
	size_t n;

	while (v != NULL && path != NULL && *path != '\0') {
		dot = strchr(path, '.');
		n = dot == NULL ? strlen(path) : (size_t)(dot - path);
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		v = json_get(v, key);
		path = dot == NULL ? NULL : dot + 1;
	}
	return v;
}

size_t
json_len(const struct json_value *v)
{
	if (v == NULL || (v->type != JSON_ARRAY && v->type != JSON_OBJECT))
		return 0;
	return v->len;
}

const struct json_value *
json_at(const struct json_value *v, size_t i)
{
	const struct json_value *c;

	if (i >= json_len(v))
		return NULL;
	for (c = v->child; c != NULL && i > 0; c = c->next)
		i--;
	return c;
}

const struct json_value *
json_first(const struct json_value *v)
{
	return json_len(v) == 0 ? NULL : v->child;
}

const struct json_value *
json_next(const struct json_value *v)
{
	return v == NULL ? NULL : v->next;
}

const char *
json_key(const struct json_value *v)
{
	return v == NULL ? NULL : v->key;
}

int
json_number(const struct json_value *v, double *out)
{
	if (v == NULL || v->type != JSON_NUMBER)
		return -1;
	*out = v->num;
	return 0;
}

const char *
json_string(const struct json_value *v)
{
	return v == NULL || v->type != JSON_STRING ? NULL : v->str;
}

int
json_bool(const struct json_value *v)
{
	if (v == NULL)
		return -1;
	if (v->type == JSON_TRUE)
		return 1;
	if (v->type == JSON_FALSE)
		return 0;
	return -1;
}
