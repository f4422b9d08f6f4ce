/*
 * json: the controller's one JSON writer and the raw-text pass that every
 * JSON input goes through before json-c parses it.
 *
 * The writer streams onto a FILE* (use open_memstream() for a string).
 * It tracks nesting and commas itself, escapes every string (quote,
 * backslash, control characters, DEL, U+2028/U+2029; invalid UTF-8 --
 * overlongs, UTF-8-encoded surrogates, code points past U+10FFFF,
 * truncated or stray bytes -- becomes \ufffd, one per maximal ill-formed
 * subpart), and prints doubles shortest-round-trip (%.15g, %.16g, %.17g:
 * the first that strtod() reads back exactly, so 0.05 and not
 * 0.050000000000000003; NaN and infinities become null).  Each completed
 * top-level value is followed by a newline, so a writer can also produce
 * JSON lines.  Misuse (a key outside an object, a value without its key,
 * an unbalanced end, nesting deeper than JSON_WRITER_DEPTH) and write
 * failures are sticky: the writer stops writing and json_writer_free()
 * reports the first one.
 *
 * The raw pass (json_check_raw) catches what json-c 0.16 lets through:
 * duplicate keys in one object (json-c keeps the last), \u0000 in a key
 * (json-c cuts the key there), invalid UTF-8 in strings (json-c's
 * VALIDATE_UTF8 accepts overlongs such as C0 AF), lone surrogate escapes
 * (json-c turns them into U+FFFD) and NUL bytes (json-c stops reading
 * there and ignores the rest).
 */
#ifndef LABRAT_JSON_H
#define LABRAT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- writer ------------------------------------------------------------ */

#define JSON_PRETTY		0x1	/* newlines, two-space indent */
#define JSON_WRITER_DEPTH	64	/* deepest nesting of a writer */
#define JSON_NUM_MAX		32	/* bytes json_dtoa() may need */

struct json_writer;

/*
 * A writer on fp (fp stays the caller's: never closed or flushed here).
 * flags: 0 (compact) or JSON_PRETTY.  Returns a heap object the caller
 * releases with json_writer_free().
 */
struct json_writer *json_writer_new(FILE *fp, int flags);
/*
 * Frees w (NULL is fine).  0 if every write succeeded and every container
 * was ended; -1 with the first problem in err otherwise.
 */
int	json_writer_free(struct json_writer *w, char *err, size_t errlen);

void	json_begin_obj(struct json_writer *);
void	json_end_obj(struct json_writer *);
void	json_begin_arr(struct json_writer *);
void	json_end_arr(struct json_writer *);
/* The key of the next member (an object's members alternate key, value). */
void	json_key(struct json_writer *, const char *key);

/* Values.  json_put_str: NULL is written as null. */
void	json_put_str(struct json_writer *, const char *s);
void	json_put_strn(struct json_writer *, const char *s, size_t len);
void	json_put_num(struct json_writer *, double);
void	json_put_int(struct json_writer *, int64_t);
void	json_put_bool(struct json_writer *, int);
void	json_put_null(struct json_writer *);
/* text verbatim when it is one JSON value (json_check_raw), else as a
 * string (NULL: null). */
void	json_put_raw(struct json_writer *, const char *text);

/* A member: json_key() then the value. */
void	json_kv_str(struct json_writer *, const char *key, const char *s);
void	json_kv_num(struct json_writer *, const char *key, double);
void	json_kv_int(struct json_writer *, const char *key, int64_t);
void	json_kv_bool(struct json_writer *, const char *key, int);
void	json_kv_null(struct json_writer *, const char *key);

/*
 * d as JSON writes it (shortest round-trip, "null" when not finite) into
 * buf (len >= JSON_NUM_MAX); returns buf.
 */
char	*json_dtoa(double d, char *buf, size_t len);

/* ---- a writer into memory --------------------------------------------- */

#define JSON_MEM_TRIM	0x100	/* json_mem_end() drops the trailing newline */

/* A writer onto an open_memstream() buffer: the one way a JSON text is
 * built in memory (request bodies, replies, stored documents). */
struct json_mem {
	FILE			*fp;
	char			*buf;
	size_t			 len;
	int			 flags;
	struct json_writer	*w;
};

/*
 * Starts m (flags: JSON_PRETTY, JSON_MEM_TRIM).  Returns its writer, or
 * NULL when out of memory (json_mem_end() then fails too, so a caller may
 * check once, at the end).
 */
struct json_writer *json_mem_begin(struct json_mem *m, int flags);
/*
 * Ends m's writer.  Returns the text (heap, NUL-terminated; the caller
 * frees it) and its length in *len (may be NULL), or NULL with err when a
 * write failed, a container was left open or memory ran out; m holds
 * nothing afterwards either way.
 */
char	*json_mem_end(struct json_mem *m, size_t *len, char *err,
	    size_t errlen);
/*
 * Ends m's writer (as json_mem_end()) and writes the text to path
 * atomically (a temporary file beside it, fsync, rename: a reader sees the
 * old file or the whole new one), mode 0600.  0, or -1 with err naming
 * path; path is left as it was on any failure.
 */
int	json_mem_write_file(struct json_mem *m, const char *path, char *err,
	    size_t errlen);

/* ---- raw-text pass ----------------------------------------------------- */

#define JSON_RAW_MAX_DEPTH	512

/* json_check_raw()'s result. */
enum json_raw {
	JSON_RAW_OK = 0,
	/*
	 * Well-formed as far as read, but holding what json-c would accept
	 * and silently change: a duplicate key, \u0000 in a key, invalid
	 * UTF-8 in a string, a lone surrogate escape, a NUL byte.
	 */
	JSON_RAW_REJECTED = -1,
	/*
	 * Not JSON (RFC 8259) at err's offset, or nested deeper than
	 * JSON_RAW_MAX_DEPTH.  A caller may prefer its parser's own message,
	 * but must reject the text if that parser accepts it.
	 */
	JSON_RAW_SYNTAX = -2,
};

/*
 * Reads text (len bytes, no NUL needed) as one JSON value.  Returns an
 * enum json_raw; on any problem err gets "PATH: what (line L, byte B)",
 * PATH in config style (hosts[2].nics[0].name, omitted at the top level),
 * B the 0-based byte offset and "line L, " only when text has several
 * lines.
 */
int	json_check_raw(const char *text, size_t len, char *err,
	    size_t errlen);

#endif
