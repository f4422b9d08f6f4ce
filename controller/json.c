/*
 * json: the writer and the UTF-8 validator it shares with json_raw.c.
 * See json.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "json_int.h"
#include "util.h"

struct json_frame {
	int	obj;		/* 1 object, 0 array */
	int	keyed;		/* object: a key waits for its value */
	size_t	n;		/* members (or elements) so far */
};

struct json_writer {
	FILE			*fp;
	int			 flags;
	size_t			 depth;
	struct json_frame	 st[JSON_WRITER_DEPTH];
	int			 failed;
	char			 err[160];
};

/* ---- UTF-8 --------------------------------------------------------------- */

size_t
json_utf8_seq(const unsigned char *s, size_t n, unsigned *cp, size_t *bad,
    const char **why)
{
	unsigned char	c = s[0], lo = 0x80, hi = 0xbf;
	size_t		need, i;
	unsigned	v;

	*bad = 1;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c < 0xc0 || c >= 0xf8) {
		*why = c < 0xc0 ? "stray UTF-8 continuation byte" :
		    "invalid UTF-8 byte";
		return 0;
	}
	if (c < 0xc2 || c >= 0xf5) {
		*why = c < 0xc2 ? "overlong UTF-8" : "UTF-8 beyond U+10FFFF";
		return 0;
	}
	if (c < 0xe0) {
		need = 1;
		v = c & 0x1f;
	} else if (c < 0xf0) {
		need = 2;
		v = c & 0x0f;
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
	} else {
		need = 3;
		v = c & 0x07;
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
	}
	for (i = 1; i <= need; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*bad = i;
			if (i == 1 && i < n && s[i] >= 0x80 && s[i] <= 0xbf)
				*why = c == 0xed ? "UTF-8-encoded surrogate" :
				    c == 0xf4 ? "UTF-8 beyond U+10FFFF" :
				    "overlong UTF-8";
			else
				*why = "truncated UTF-8 sequence";
			return 0;
		}
		v = v << 6 | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return need + 1;
}

/* ---- numbers ------------------------------------------------------------- */

char *
json_dtoa(double d, char *buf, size_t len)
{
	int	prec;

	if (!isfinite(d)) {
		snprintf(buf, len, "null");
		return buf;
	}
	/*
	 * %.15g first: every double with 15 or fewer significant digits
	 * comes back exactly, and whole numbers below 1e15 print without an
	 * exponent (994838000, not 9.94838e+08).
	 */
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return buf;
	}
	snprintf(buf, len, "%.17g", d);
	return buf;
}

/* ---- writer -------------------------------------------------------------- */

static void jw_fail(struct json_writer *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

static void
jw_fail(struct json_writer *w, const char *fmt, ...)
{
	va_list	ap;

	if (w->failed)
		return;
	w->failed = 1;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof w->err, fmt, ap);
	va_end(ap);
}

static void
jw_write(struct json_writer *w, const char *p, size_t n)
{
	if (w->failed || n == 0)
		return;
	if (fwrite(p, 1, n, w->fp) != n)
		jw_fail(w, "json: write failed: %s", strerror(errno));
}

static void
jw_puts(struct json_writer *w, const char *s)
{
	jw_write(w, s, strlen(s));
}

static void
jw_indent(struct json_writer *w)
{
	static const char spaces[] = "                                ";
	size_t	n = 2 * w->depth, k;

	jw_write(w, "\n", 1);
	for (; n > 0; n -= k) {
		k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
		jw_write(w, spaces, k);
	}
}

/* Before any value: its comma and indent, or the key it belongs to. */
static int
jw_value_begin(struct json_writer *w)
{
	struct json_frame	*f;

	if (w->failed)
		return -1;
	if (w->depth == 0)
		return 0;
	f = &w->st[w->depth - 1];
	if (f->obj) {
		if (!f->keyed) {
			jw_fail(w, "json: a value in an object without a key");
			return -1;
		}
		f->keyed = 0;
		return 0;
	}
	if (f->n++ > 0)
		jw_write(w, ",", 1);
	if (w->flags & JSON_PRETTY)
		jw_indent(w);
	return w->failed ? -1 : 0;
}

/* After any value: a finished top-level value ends its line. */
static void
jw_value_end(struct json_writer *w)
{
	if (w->depth == 0)
		jw_write(w, "\n", 1);
}

static void
jw_string(struct json_writer *w, const unsigned char *s, size_t n)
{
	size_t		 i = 0, start = 0, len, bad;
	unsigned	 cp;
	const char	*why, *esc;
	char		 u[8];

	jw_write(w, "\"", 1);
	while (i < n) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' &&
		    s[i] != '\\') {
			i++;
			continue;
		}
		len = 1;
		if (s[i] >= 0x80) {
			len = json_utf8_seq(s + i, n - i, &cp, &bad, &why);
			/* U+2028/9 are JSON but end a line in JavaScript. */
			if (len > 0 && cp != 0x2028 && cp != 0x2029) {
				i += len;
				continue;
			}
		} else
			cp = s[i];
		jw_write(w, (const char *)s + start, i - start);
		switch (len == 0 ? -1 : (int)cp) {
		case -1:	esc = "\\ufffd"; len = bad; break;
		case '"':	esc = "\\\""; break;
		case '\\':	esc = "\\\\"; break;
		case '\b':	esc = "\\b"; break;
		case '\f':	esc = "\\f"; break;
		case '\n':	esc = "\\n"; break;
		case '\r':	esc = "\\r"; break;
		case '\t':	esc = "\\t"; break;
		default:
			snprintf(u, sizeof u, "\\u%04x", cp);
			esc = u;
		}
		jw_puts(w, esc);
		i += len;
		start = i;
	}
	jw_write(w, (const char *)s + start, n - start);
	jw_write(w, "\"", 1);
}

struct json_writer *
json_writer_new(FILE *fp, int flags)
{
	struct json_writer	*w = xcalloc(1, sizeof *w);

	w->fp = fp;
	w->flags = flags;
	return w;
}

int
json_writer_free(struct json_writer *w, char *err, size_t errlen)
{
	int	rc;

	if (w == NULL)
		return 0;
	if (!w->failed && w->depth > 0)
		jw_fail(w, "json: %zu container%s not ended", w->depth,
		    w->depth > 1 ? "s" : "");
	rc = w->failed ? -1 : 0;
	if (rc == -1)
		util_seterr(err, errlen, "%s", w->err);
	free(w);
	return rc;
}

struct json_writer *
json_mem_begin(struct json_mem *m, int flags)
{
	memset(m, 0, sizeof *m);
	m->flags = flags;
	if ((m->fp = open_memstream(&m->buf, &m->len)) == NULL)
		return NULL;
	m->w = json_writer_new(m->fp, flags & JSON_PRETTY);
	return m->w;
}

char *
json_mem_end(struct json_mem *m, size_t *len, char *err, size_t errlen)
{
	char	*text;
	int	 rc;

	if (len != NULL)
		*len = 0;
	if (m->fp == NULL) {
		util_seterr(err, errlen, "json: out of memory");
		return NULL;
	}
	rc = json_writer_free(m->w, err, errlen);
	if (fclose(m->fp) != 0 && rc == 0) {
		util_seterr(err, errlen, "json: out of memory");
		rc = -1;
	}
	text = m->buf;
	if (rc == -1) {
		free(text);
		text = NULL;
	} else if ((m->flags & JSON_MEM_TRIM) != 0)
		while (m->len > 0 && text[m->len - 1] == '\n')
			text[--m->len] = '\0';
	if (text != NULL && len != NULL)
		*len = m->len;
	memset(m, 0, sizeof *m);
	return text;
}

int
json_mem_write_file(struct json_mem *m, const char *path, char *err,
    size_t errlen)
{
	char	*text, why[256];
	size_t	 len;
	int	 rc;

	if ((text = json_mem_end(m, &len, why, sizeof why)) == NULL) {
		util_seterr(err, errlen, "%s: %s", path, why);
		return -1;
	}
	rc = util_write_file_atomic(path, text, len, 0600, err, errlen);
	free(text);
	return rc;
}

static void
jw_begin(struct json_writer *w, int obj)
{
	if (jw_value_begin(w) == -1)
		return;
	if (w->depth == JSON_WRITER_DEPTH) {
		jw_fail(w, "json: nested deeper than %d", JSON_WRITER_DEPTH);
		return;
	}
	jw_write(w, obj ? "{" : "[", 1);
	w->st[w->depth].obj = obj;
	w->st[w->depth].keyed = 0;
	w->st[w->depth].n = 0;
	w->depth++;
}

static void
jw_end(struct json_writer *w, int obj)
{
	struct json_frame	*f;

	if (w->failed)
		return;
	f = w->depth > 0 ? &w->st[w->depth - 1] : NULL;
	if (f == NULL || f->obj != obj || f->keyed) {
		jw_fail(w, "json: %s end of %s", f != NULL && f->keyed ?
		    "a key without a value before the" : "unbalanced",
		    obj ? "an object" : "an array");
		return;
	}
	w->depth--;
	if ((w->flags & JSON_PRETTY) && f->n > 0)
		jw_indent(w);
	jw_write(w, obj ? "}" : "]", 1);
	jw_value_end(w);
}

void
json_begin_obj(struct json_writer *w)
{
	jw_begin(w, 1);
}

void
json_end_obj(struct json_writer *w)
{
	jw_end(w, 1);
}

void
json_begin_arr(struct json_writer *w)
{
	jw_begin(w, 0);
}

void
json_end_arr(struct json_writer *w)
{
	jw_end(w, 0);
}

void
json_key(struct json_writer *w, const char *key)
{
	struct json_frame	*f;

	if (w->failed)
		return;
	f = w->depth > 0 ? &w->st[w->depth - 1] : NULL;
	if (f == NULL || !f->obj || f->keyed || key == NULL) {
		jw_fail(w, "json: key \"%.40s\" %s", key != NULL ? key : "",
		    key == NULL ? "is NULL" : f == NULL || !f->obj ?
		    "outside an object" : "after a key without a value");
		return;
	}
	if (f->n++ > 0)
		jw_write(w, ",", 1);
	if (w->flags & JSON_PRETTY)
		jw_indent(w);
	jw_string(w, (const unsigned char *)key, strlen(key));
	jw_write(w, ":", 1);
	f->keyed = 1;
}

void
json_put_strn(struct json_writer *w, const char *s, size_t len)
{
	if (jw_value_begin(w) == -1)
		return;
	jw_string(w, (const unsigned char *)s, len);
	jw_value_end(w);
}

void
json_put_str(struct json_writer *w, const char *s)
{
	if (s == NULL)
		json_put_null(w);
	else
		json_put_strn(w, s, strlen(s));
}

void
json_put_num(struct json_writer *w, double d)
{
	char	buf[JSON_NUM_MAX];

	if (jw_value_begin(w) == -1)
		return;
	jw_puts(w, json_dtoa(d, buf, sizeof buf));
	jw_value_end(w);
}

void
json_put_int(struct json_writer *w, int64_t v)
{
	char	buf[JSON_NUM_MAX];

	if (jw_value_begin(w) == -1)
		return;
	snprintf(buf, sizeof buf, "%" PRId64, v);
	jw_puts(w, buf);
	jw_value_end(w);
}

void
json_put_bool(struct json_writer *w, int v)
{
	if (jw_value_begin(w) == -1)
		return;
	jw_puts(w, v ? "true" : "false");
	jw_value_end(w);
}

void
json_put_null(struct json_writer *w)
{
	if (jw_value_begin(w) == -1)
		return;
	jw_puts(w, "null");
	jw_value_end(w);
}

void
json_put_raw(struct json_writer *w, const char *text)
{
	char	e[8];

	if (text == NULL || json_check_raw(text, strlen(text), e,
	    sizeof e) != JSON_RAW_OK) {
		json_put_str(w, text);
		return;
	}
	if (jw_value_begin(w) == -1)
		return;
	jw_puts(w, text);
	jw_value_end(w);
}

void
json_kv_str(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_put_str(w, s);
}

void
json_kv_num(struct json_writer *w, const char *key, double d)
{
	json_key(w, key);
	json_put_num(w, d);
}

void
json_kv_int(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	json_put_int(w, v);
}

void
json_kv_bool(struct json_writer *w, const char *key, int v)
{
	json_key(w, key);
	json_put_bool(w, v);
}

void
json_kv_null(struct json_writer *w, const char *key)
{
	json_key(w, key);
	json_put_null(w);
}
