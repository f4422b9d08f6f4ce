/*
 * emit.h: the agent's stdout protocol (PROTOCOL.md).  Every line is one JSON
 * object {"proto":1,"event":...}; struct emit builds one such line in memory
 * with correct string escaping, so a half-written object never reaches the
 * controller.
 */
#ifndef LABRAT_AGENT_EMIT_H
#define LABRAT_AGENT_EMIT_H

#include <stddef.h>

#include "parse.h"

#define EMIT_MAXDEPTH	16
#define EMIT_MAXLINE	(8u * 1024 * 1024)	/* ceiling of one event line */

struct emit {
	char	*buf;		/* heap, owned; freed by emit_flush/emit_free */
	size_t	 len;
	size_t	 cap;
	int	 depth;
	int	 nitems[EMIT_MAXDEPTH];	/* members written at each level */
	char	 kind[EMIT_MAXDEPTH];	/* '{' or '[' */
	int	 failed;	/* out of memory or ceiling: line is dropped */
};

/* Starts {"proto":1,"event":EVENT. */
void	emit_begin(struct emit *, const char *event);
/* Members; key is NULL inside an array.  A NULL string is JSON null. */
void	emit_str(struct emit *, const char *key, const char *);
void	emit_int(struct emit *, const char *key, long long);
/* A finite double with up to 6 decimals (trailing zeros cut); NaN -> null. */
void	emit_num(struct emit *, const char *key, double);
void	emit_bool(struct emit *, const char *key, int);
void	emit_null(struct emit *, const char *key);
/* A count: a negative one (unknown) is null. */
void	emit_count(struct emit *, const char *key, long long);
/* An interface's counters as an object {"rx_bytes":...} under key. */
void	emit_ifcounters(struct emit *, const char *key,
	    const struct parse_ifstats *);
void	emit_obj(struct emit *, const char *key);
void	emit_arr(struct emit *, const char *key);
void	emit_end(struct emit *);	/* closes the innermost obj/arr */
/* Closes every open level and returns the line (no newline; owned by e). */
const char *emit_text(struct emit *);
/* emit_text() + '\n' to stdout, then emit_free().  0, or -1 if dropped. */
int	emit_flush(struct emit *);
void	emit_free(struct emit *);
/* Appends s as a JSON string literal (quotes included), invalid UTF-8 bytes
 * replaced by U+FFFD. */
void	emit_quote(struct emit *, const char *s);

/* One-line events. */
void	emit_progress(const char *fmt, ...)
#if defined(__GNUC__)
	    __attribute__((format(printf, 1, 2)))
#endif
	    ;
/* Prints the error event of exit class code (AGENT_EXIT_*) and returns
 * code, so callers can `return emit_error(rc, err);`. */
int	emit_error(int code, const char *msg);
/* "internal", "usage", ... for an AGENT_EXIT_* code. */
const char *emit_class(int code);

#endif
