/*
 * parse_util.h: helpers shared by the parse_*.c files (internal to the
 * agent's parsers): complete-line iteration, whitespace tokens, strict
 * number conversion and iperf unit scaling.  No allocation.
 */
#ifndef LABRAT_AGENT_PARSE_UTIL_H
#define LABRAT_AGENT_PARSE_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Iterates the '\n'-terminated lines of a buffer, '\r' stripped at the end;
 * an unterminated last line is treated as cut off and never returned. */
struct parse_lines {
	const char	*p;
	const char	*end;
	size_t		 lineno;
};

struct parse_tok {
	const char	*p;
	size_t		 n;
};

#define PARSE_MAX_TOKS	48

void	parse_seterr(char *, size_t, const char *, ...)
#ifdef __GNUC__
	    __attribute__((format(printf, 3, 4)))
#endif
	    ;
/* Common input checks: non-NULL, len <= PARSE_MAX_INPUT, non-empty. */
int	parse_check_input(const char *, const char *, size_t, char *, size_t);
void	parse_lines_init(struct parse_lines *, const char *, size_t);
int	parse_lines_next(struct parse_lines *, const char **, size_t *);
/* Split on blanks; returns the count, or PARSE_MAX_TOKS + 1 if more. */
size_t	parse_split(const char *, size_t, struct parse_tok *, size_t);
int	parse_tok_eq(const struct parse_tok *, const char *);
/* Does line start with prefix (after skipping leading blanks if skipws)? */
const char *parse_prefix(const char *, size_t, const char *, int);
/* Strict numbers: plain decimal ("12", "0.17", "-1"); no exponent, no
 * hex, no sign unless signed.  0 or -1 (syntax or range). */
int	parse_num(const char *, size_t, double *);
int	parse_u64(const char *, size_t, uint64_t *);
int	parse_i64(const char *, size_t, int64_t *);
int	parse_hex32(const char *, size_t, uint32_t *);
/* iperf units: "Bytes"/"KBytes"/"MBytes"/"GBytes"/"TBytes" (x1024 steps;
 * also "Byte", "KByte" ...) -> multiplier to bytes; -1 if unknown. */
double	parse_byte_unit(const char *, size_t);
/* "bits/sec" "Kbits/sec" ... (x1000) and "Bytes/sec" ... -> bits/s. */
double	parse_rate_unit(const char *, size_t);
/* Copy a token into a fixed buffer; -1 if it does not fit. */
int	parse_copy(char *, size_t, const char *, size_t);

#endif
