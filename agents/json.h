/*
 * json.h: a small, strict, bounded JSON reader for labrat-agent (libc
 * only).  It parses a whole document into one heap block of nodes; values
 * are then looked up by key or dotted path.  RFC 8259 syntax, no
 * extensions; \uXXXX escapes (with surrogate pairs) become UTF-8; a
 * document is rejected if larger than JSON_MAX_INPUT, nested deeper than
 * JSON_MAX_DEPTH or holding more than JSON_MAX_NODES values.
 */
#ifndef LABRAT_AGENT_JSON_H
#define LABRAT_AGENT_JSON_H

#include <stddef.h>

#define JSON_MAX_INPUT	(4u * 1024 * 1024)
#define JSON_MAX_DEPTH	64
#define JSON_MAX_NODES	(1u << 20)

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT
};

struct json_doc;
struct json_value;

/*
 * Parse text (len bytes, NUL not needed).  Leading/trailing whitespace is
 * allowed, anything else after the value is an error.  Returns a document
 * the caller frees with json_doc_free(), or NULL with the reason (and byte
 * offset) in err.
 */
struct json_doc	*json_doc_parse(const char *, size_t, char *, size_t);
void		 json_doc_free(struct json_doc *);
const struct json_value *json_doc_root(const struct json_doc *);

enum json_type	 json_type(const struct json_value *);
/* Member of an object by key (first match), or NULL. */
const struct json_value *json_get(const struct json_value *, const char *);
/* Dotted path of object keys, e.g. "end.sum_sent.bytes", or NULL. */
const struct json_value *json_path(const struct json_value *, const char *);
/* Array/object element count, element i (NULL past the end). */
size_t		 json_len(const struct json_value *);
const struct json_value *json_at(const struct json_value *, size_t);
/* Iteration over an array/object: first element, next sibling (NULL at
 * the end); O(1) each, unlike json_at(). */
const struct json_value *json_first(const struct json_value *);
const struct json_value *json_next(const struct json_value *);
/* Member name of an object member, or NULL. */
const char	*json_key(const struct json_value *);
/* 0 and the number, or -1 if v is NULL or not a number. */
int		 json_number(const struct json_value *, double *);
/* The string (NUL-terminated, owned by the document), or NULL. */
const char	*json_string(const struct json_value *);
/* 1 for true, 0 for false, -1 otherwise. */
int		 json_bool(const struct json_value *);

#endif
