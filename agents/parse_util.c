/*
 * parse_util.c: shared helpers of the agent's output parsers.  All
 * functions take (pointer, length) pairs and never read past them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parse_util.h"

void
parse_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int
parse_check_input(const char *what, const char *text, size_t len, char *err,
    size_t errlen)
{
	if (text == NULL) {
		parse_seterr(err, errlen, "%s: no output", what);
		return -1;
	}
	if (len > PARSE_MAX_INPUT) {
		parse_seterr(err, errlen, "%s: output of %zu bytes exceeds the "
		    "%u byte limit", what, len, (unsigned)PARSE_MAX_INPUT);
		return -1;
	}
	if (len == 0) {
		parse_seterr(err, errlen, "%s: empty output", what);
		return -1;
	}
	return 0;
}

void
parse_lines_init(struct parse_lines *l, const char *text, size_t len)
{
	l->p = text;
	l->end = text + len;
	l->lineno = 0;
}

int
parse_lines_next(struct parse_lines *l, const char **line, size_t *len)
{
	const char *nl;
	size_t n;

	if (l->p >= l->end)
		return 0;
	nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	if (nl == NULL) {
		/* Unterminated: cut off, ignore. */
		l->p = l->end;
		return 0;
	}
	n = (size_t)(nl - l->p);
	while (n > 0 && l->p[n - 1] == '\r')
		n--;
	*line = l->p;
	*len = n;
	l->p = nl + 1;
	l->lineno++;
	return 1;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

size_t
parse_split(const char *s, size_t len, struct parse_tok *toks, size_t max)
{
	size_t i = 0, n = 0, start;

	for (;;) {
		while (i < len && is_blank(s[i]))
			i++;
		if (i >= len)
			break;
		start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		if (n == max)
			return max + 1;
		toks[n].p = s + start;
		toks[n].n = i - start;
		n++;
	}
	return n;
}

int
parse_tok_eq(const struct parse_tok *t, const char *s)
{
	size_t n;

	if (t->n == 0 || t->p[0] != s[0])
		return s[0] == '\0' && t->n == 0;
	n = strlen(s);

	return t->n == n && memcmp(t->p, s, n) == 0;
}

const char *
parse_prefix(const char *line, size_t len, const char *prefix, int skipws)
{
	size_t n = strlen(prefix), i = 0;

	if (skipws)
		while (i < len && is_blank(line[i]))
			i++;
	if (len - i < n || memcmp(line + i, prefix, n) != 0)
		return NULL;
	return line + i + n;
}

/* Validate [-]digits[.digits] and convert. */
static int
num_syntax(const char *s, size_t n, int allow_sign, int allow_frac)
{
	size_t i = 0, digits = 0;

	if (n == 0 || n > 40)
		return -1;
	if (s[0] == '-' && allow_sign)
		i++;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i < n && s[i] == '.' && allow_frac) {
		i++;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	}
	if (i != n || digits == 0)
		return -1;
	return 0;
}

int
parse_num(const char *s, size_t n, double *out)
{
	char buf[48];
	double v;

	if (num_syntax(s, n, 1, 1) == -1)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	v = strtod(buf, NULL);
	/* v != v: NaN; the range test also rejects infinities. */
	if (v != v || v > 1e30 || v < -1e30)
		return -1;
	*out = v;
	return 0;
}

int
parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (num_syntax(s, n, 0, 0) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

int
parse_i64(const char *s, size_t n, int64_t *out)
{
	uint64_t v;
	int neg = 0;

	if (n > 0 && s[0] == '-') {
		neg = 1;
		s++;
		n--;
	}
	if (parse_u64(s, n, &v) == -1 || v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

int
parse_hex32(const char *s, size_t n, uint32_t *out)
{
	uint32_t v = 0;
	size_t i;
	int d;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (n == 0 || n > 8)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else if (s[i] >= 'A' && s[i] <= 'F')
			d = s[i] - 'A' + 10;
		else
			return -1;
		v = (v << 4) | (uint32_t)d;
	}
	*out = v;
	return 0;
}

static double
prefix_mult(char c, double step)
{
	switch (c) {
	case 'K':
	case 'k':
		return step;
	case 'M':
	case 'm':
		return step * step;
	case 'G':
	case 'g':
		return step * step * step;
	case 'T':
	case 't':
		return step * step * step * step;
	}
	return -1;
}

double
parse_byte_unit(const char *s, size_t n)
{
	double m = 1;

	if (n > 0 && s[n - 1] == 's')	/* Bytes / Byte */
		n--;
	if (n == 4 && memcmp(s, "Byte", 4) == 0)
		return 1;
	if (n != 5 || memcmp(s + 1, "Byte", 4) != 0)
		return -1;
	m = prefix_mult(s[0], 1024);
	return m;
}

double
parse_rate_unit(const char *s, size_t n)
{
	double m;

	if (n == 8 && memcmp(s, "bits/sec", 8) == 0)
		return 1;
	if (n == 9 && memcmp(s + 1, "bits/sec", 8) == 0)
		return prefix_mult(s[0], 1000);
	if (n == 9 && memcmp(s, "Bytes/sec", 9) == 0)
		return 8;
	if (n == 10 && memcmp(s + 1, "Bytes/sec", 9) == 0) {
		m = prefix_mult(s[0], 1024);
		return m < 0 ? -1 : m * 8;
	}
	return -1;
}

int
parse_copy(char *dst, size_t dstsz, const char *s, size_t n)
{
	if (dstsz == 0 || n >= dstsz)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}
