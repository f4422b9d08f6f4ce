/*
 * emit.c: JSON event lines on stdout (see emit.h and PROTOCOL.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "emit.h"

static void	emit_raw(struct emit *, const char *, size_t);
static void	emit_key(struct emit *, const char *);

static void
emit_raw(struct emit *e, const char *s, size_t n)
{
	char	*nb;
	size_t	 ncap;

	if (e->failed)
		return;
	if (e->len + n + 1 > e->cap) {
		ncap = e->cap ? e->cap : 256;
		while (ncap < e->len + n + 1)
			ncap *= 2;
		if (ncap > EMIT_MAXLINE ||
		    (nb = realloc(e->buf, ncap)) == NULL) {
			e->failed = 1;
			return;
		}
		e->buf = nb;
		e->cap = ncap;
	}
	memcpy(e->buf + e->len, s, n);
	e->len += n;
	e->buf[e->len] = '\0';
}

void
emit_begin(struct emit *e, const char *event)
{
	char	tmp[32];

	memset(e, 0, sizeof(*e));
	snprintf(tmp, sizeof(tmp), "{\"proto\":%d", AGENT_PROTO);
	emit_raw(e, tmp, strlen(tmp));
	e->depth = 1;
	e->nitems[0] = 1;
	emit_str(e, "event", event);
}

/* Length of the valid UTF-8 sequence at s, or 0 if invalid. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t	n, i;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

void
emit_quote(struct emit *e, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char	 tmp[8];
	size_t	 n;

	emit_raw(e, "\"", 1);
	while (*p != '\0') {
		if (*p == '"' || *p == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)*p;
			emit_raw(e, tmp, 2);
			p++;
		} else if (*p == '\n') {
			emit_raw(e, "\\n", 2);
			p++;
		} else if (*p == '\t') {
			emit_raw(e, "\\t", 2);
			p++;
		} else if (*p == '\r') {
			emit_raw(e, "\\r", 2);
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			snprintf(tmp, sizeof(tmp), "\\u%04x", *p);
			emit_raw(e, tmp, 6);
			p++;
		} else if ((n = utf8_len(p)) == 0) {
			emit_raw(e, "\\ufffd", 6);
			p++;
		} else {
			emit_raw(e, (const char *)p, n);
			p += n;
		}
	}
	emit_raw(e, "\"", 1);
}

static void
emit_key(struct emit *e, const char *key)
{
	if (e->depth < 1 || e->depth > EMIT_MAXDEPTH) {
		e->failed = 1;
		return;
	}
	if (e->nitems[e->depth - 1]++ > 0)
		emit_raw(e, ",", 1);
	if (key != NULL) {
		emit_quote(e, key);
		emit_raw(e, ":", 1);
	}
}

void
emit_str(struct emit *e, const char *key, const char *s)
{
	emit_key(e, key);
	if (s == NULL)
		emit_raw(e, "null", 4);
	else
		emit_quote(e, s);
}

void
emit_int(struct emit *e, const char *key, long long v)
{
	char	tmp[32];

	emit_key(e, key);
	snprintf(tmp, sizeof(tmp), "%lld", v);
	emit_raw(e, tmp, strlen(tmp));
}

void
emit_num(struct emit *e, const char *key, double v)
{
	char	tmp[64];
	size_t	n;

	emit_key(e, key);
	if (isnan(v) || isinf(v) || v > 1e18 || v < -1e18) {
		emit_raw(e, "null", 4);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.6f", v);
	n = strlen(tmp);
	while (n > 1 && tmp[n - 1] == '0')
		n--;
	if (n > 1 && tmp[n - 1] == '.')
		n--;
	tmp[n] = '\0';
	if (strcmp(tmp, "-0") == 0)
		strcpy(tmp, "0");
	emit_raw(e, tmp, strlen(tmp));
}

void
emit_bool(struct emit *e, const char *key, int v)
{
	emit_key(e, key);
	emit_raw(e, v ? "true" : "false", v ? 4 : 5);
}

void
emit_null(struct emit *e, const char *key)
{
	emit_key(e, key);
	emit_raw(e, "null", 4);
}

static void
emit_open(struct emit *e, const char *key, char c)
{
	emit_key(e, key);
	if (e->depth >= EMIT_MAXDEPTH) {
		e->failed = 1;
		return;
	}
	emit_raw(e, &c, 1);
	e->kind[e->depth] = c;
	e->nitems[e->depth++] = 0;
}

void
emit_obj(struct emit *e, const char *key)
{
	emit_open(e, key, '{');
}

void
emit_arr(struct emit *e, const char *key)
{
	emit_open(e, key, '[');
}

void
emit_end(struct emit *e)
{
	if (e->failed || e->depth <= 1) {
		e->failed = 1;
		return;
	}
	e->depth--;
	emit_raw(e, e->kind[e->depth] == '[' ? "]" : "}", 1);
}

const char *
emit_text(struct emit *e)
{
	while (!e->failed && e->depth > 1)
		emit_end(e);
	if (!e->failed && e->depth == 1) {
		emit_raw(e, "}", 1);
		e->depth = 0;
	}
	if (e->failed)
		return NULL;
	return e->buf;
}

void
emit_free(struct emit *e)
{
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

int
emit_flush(struct emit *e)
{
	const char *s;
	int	 rc = 0;

	s = emit_text(e);
	if (s == NULL) {
		fprintf(stderr, "labrat-agent: event line dropped (too large "
		    "or out of memory)\n");
		printf("{\"proto\":%d,\"event\":\"error\",\"class\":"
		    "\"internal\",\"message\":\"event too large\"}\n",
		    AGENT_PROTO);
		rc = -1;
	} else
		printf("%s\n", s);
	fflush(stdout);
	emit_free(e);
	return rc;
}

void
emit_progress(const char *fmt, ...)
{
	struct emit e;
	char	 msg[2048];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "labrat-agent: %s\n", msg);
	emit_begin(&e, "progress");
	emit_str(&e, "message", msg);
	emit_flush(&e);
}

const char *
emit_class(int code)
{
	switch (code) {
	case AGENT_EXIT_USAGE:
		return "usage";
	case AGENT_EXIT_COMMAND:
		return "command";
	case AGENT_EXIT_TIMEOUT:
		return "timeout";
	case AGENT_EXIT_MISMATCH:
		return "mismatch";
	case AGENT_EXIT_PARSE:
		return "parse";
	case AGENT_EXIT_LEASED:
		return "leased";
	case AGENT_EXIT_UNLEASED:
		return "unleased";
	case AGENT_EXIT_PREFLIGHT:
		return "preflight";
	default:
		return "internal";
	}
}

int
emit_error(int code, const char *msg)
{
	struct emit e;

	if (code == AGENT_EXIT_OK)
		code = AGENT_EXIT_INTERNAL;
	fprintf(stderr, "labrat-agent: %s: %s\n", emit_class(code), msg);
	emit_begin(&e, "error");
	emit_str(&e, "class", emit_class(code));
	emit_str(&e, "message", msg);
	emit_flush(&e);
	if (code < AGENT_EXIT_INTERNAL || code > AGENT_EXIT_PREFLIGHT)
		code = AGENT_EXIT_INTERNAL;
	return code;
}

void
emit_count(struct emit *e, const char *key, long long v)
{
	if (v < 0)
		emit_null(e, key);
	else
		emit_int(e, key, v);
}

void
emit_ifcounters(struct emit *e, const char *key,
    const struct parse_ifstats *s)
{
	emit_obj(e, key);
	emit_count(e, "rx_bytes", s->rx_bytes);
	emit_count(e, "rx_packets", s->rx_packets);
	emit_count(e, "rx_errors", s->rx_errors);
	emit_count(e, "rx_dropped", s->rx_dropped);
	emit_count(e, "tx_bytes", s->tx_bytes);
	emit_count(e, "tx_packets", s->tx_packets);
	emit_count(e, "tx_errors", s->tx_errors);
	emit_count(e, "tx_dropped", s->tx_dropped);
	emit_end(e);
}
