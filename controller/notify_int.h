/*
 * notify_int.h: what notify.c, notify_text.c, notify_json.c and
 * notify_send.c share.
 */
#ifndef LABRAT_NOTIFY_INT_H
#define LABRAT_NOTIFY_INT_H

#include <stddef.h>

#include "notify.h"
#include "util.h"

#define NOTIFY_LINE_MAX		900	/* body lines are cut here (RFC: 998) */
#define NOTIFY_MAIL_MAX		(1024 * 1024)	/* a whole message */

/* s, or "-" for NULL / empty. */
const char *notify_str(const char *s);

/*
 * Appends the plain-text body of msg to b, every line ending in CRLF.
 * Returns buf_append's result (-1 once b's ceiling is hit).
 */
int	notify_body(struct buf *b, const struct notify_msg *);

/*
 * Appends text (any bytes, NULL = nothing) line by line: each line
 * prefixed with indent, control characters escaped (tabs expanded),
 * cut into pieces of at most NOTIFY_LINE_MAX bytes, ended with CRLF; at
 * most max bytes of text are used (a note says what was left out).
 */
int	notify_block(struct buf *b, const char *indent, const char *text,
	    size_t max);

#endif
