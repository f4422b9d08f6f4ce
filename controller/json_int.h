/*
 * json_int: what json.c (the writer) and json_raw.c (the raw-text pass)
 * share: the one UTF-8 validator, so both agree on what is valid.
 */
#ifndef LABRAT_JSON_INT_H
#define LABRAT_JSON_INT_H

#include <stddef.h>

/*
 * The well-formed UTF-8 sequence at s (n > 0 bytes available), as
 * Unicode's table 3-7 defines it: returns its length (1-4) and its code
 * point in *cp, or 0 when s starts an ill-formed sequence, with *bad = the
 * length of its maximal subpart (>= 1, the bytes one U+FFFD replaces) and
 * *why the reason ("overlong UTF-8", "UTF-8-encoded surrogate", ...).
 */
size_t	json_utf8_seq(const unsigned char *s, size_t n, unsigned *cp,
	    size_t *bad, const char **why);

#endif
