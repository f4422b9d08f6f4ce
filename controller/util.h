/*
 * util: allocation that cannot fail silently, bounded growable buffers for
 * anything read from a remote host, strict number parsing and small string
 * helpers shared by every module.
 */
#ifndef LABRAT_UTIL_H
#define LABRAT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* x-allocators: abort through fatal() when memory is exhausted. */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
/* Returns a heap string the caller frees. */
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));

/*
 * A growable byte buffer with a hard ceiling.  buf_append() refuses to grow
 * past max and returns -1 (setting b->truncated), so a chatty or hostile peer
 * can never make the controller allocate without bound.  The data is always
 * NUL-terminated.
 */
struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
	size_t	 max;
	int	 truncated;
};

void	buf_init(struct buf *, size_t max);
int	buf_append(struct buf *, const void *, size_t);
int	buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	buf_reset(struct buf *);
void	buf_free(struct buf *);
/* Hands the data to the caller (who frees it) and empties the buffer. */
char	*buf_release(struct buf *);

/*
 * Shell quoting: appends s to b in single quotes (' becomes '\''), so any
 * string reaches a (remote) shell's program as one argument.  Returns
 * buf_append's result (-1 once the ceiling is hit).
 */
int	util_shell_quote(struct buf *, const char *s);

/*
 * Parses a whole string as an integer in [min, max].  Returns 0, or -1 with
 * *errstr set to "invalid", "too small" or "too large".
 */
int	util_strtonum(const char *, long long min, long long max,
	    long long *out, const char **errstr);
/* Parses a whole string as a finite double.  Returns 0 or -1. */
int	util_strtod(const char *, double *out);

/* snprintf into err, tolerating err == NULL. */
void	util_seterr(char *err, size_t errlen, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/*
 * For a terminal: in (len bytes, or up to its NUL when len is (size_t)-1)
 * into out (outlen bytes, always NUL-terminated, cut at a character or
 * escape boundary) with every byte a terminal could act on shown as an
 * escape: C0 controls and DEL as "\x1b", bytes that are not valid UTF-8
 * as "\xc0", and C1 controls and bidirectional overrides as "\u009b".
 * Printable ASCII and other valid UTF-8 pass unchanged.  Used for every
 * string that came from a lab host before it reaches a terminal, a
 * message or the store's typed columns (the raw-output store keeps the
 * bytes).  Returns out; out must not overlap in.
 */
char	*util_term_safe(char *out, size_t outlen, const char *in, size_t len);

/*
 * Writes text's words to fp wrapped at width, continuation lines at
 * column indent; the first line starts at column col (already written;
 * spaces up to indent are added).  Ends with a newline.
 */
void	util_wrap(FILE *fp, const char *text, int width, int indent, int col);

/* Monotonic time in milliseconds: for durations and timeouts. */
int64_t	util_now_ms(void);

/*
 * The clock: wall-clock time in milliseconds since the epoch, the one
 * every module reads for "when" (the store's stamps and the ages read
 * against them, the daemon's heartbeat, schedules and nights, sessions
 * and tokens).  Test only, LABRAT_TEST_CLOCK, read once (main calls
 * util_clock_init() at start-up; a program that does not reads it at its
 * first util_wall_ms()):
 *   "@MS"	the clock stands still at MS;
 *   "+MS", "-MS"	it runs, MS ahead or behind;
 *   "skip"	it runs, and util_clock_skip() moves it on (the daemon does
 *		when it is idle: `labrat demo --nightly` in minutes).
 * Unset or empty: the real clock.  A child process inherits the
 * variable, so its clock is the same (a skip is its process's only).
 */
int64_t	util_wall_ms(void);
/* util_wall_ms() in seconds. */
int64_t	util_time(void);
/* Reads LABRAT_TEST_CLOCK: 0, or -1 with err naming it and its value. */
int	util_clock_init(char *err, size_t errlen);
/* Sets the clock from value as if LABRAT_TEST_CLOCK held it (NULL: the
 * real clock); for util_clock_init() and the unit tests.  0 or -1 with
 * err (the clock left as it was). */
int	util_clock_set(const char *value, char *err, size_t errlen);
/* 1 when the clock skips ("skip"). */
int	util_clock_skips(void);
/* A skipping clock moves on by ms (> 0): 1; any other clock: 0. */
int	util_clock_skip(int64_t ms);

/* Creates dir and its parents with mode (like mkdir -p).  0 or -1 + errno. */
int	util_mkdirs(const char *dir, int mode);
/* Reads a whole file of at most max bytes; heap result the caller frees. */
char	*util_read_file(const char *path, size_t max, size_t *lenp,
	    char *err, size_t errlen);
/* Writes a file atomically (temp file + fsync + rename).  0 or -1. */
int	util_write_file_atomic(const char *path, const void *, size_t,
	    int mode, char *err, size_t errlen);

/*
 * The inventory's word against the host's: 1 when a declared driver (or
 * chip) is set and the reported one (NULL = nothing reported) differs.
 * Chips are hex ids and compare ignoring case.  The one rule behind
 * `labrat hosts` (live facts) and `labrat report` (stored facts).
 */
int	util_driver_differs(const char *declared, const char *reported);
int	util_chip_differs(const char *declared, const char *reported);

/* FNV-1a 64: a cheap non-cryptographic hash for keys and seeds. */
uint64_t util_fnv1a64(const void *, size_t, uint64_t seed);

/*
 * util_sha256.c: SHA-256 (FIPS 180-4) of len bytes, HMAC-SHA256 (RFC 2104)
 * of msg under key, and a comparison of n bytes that takes the same time
 * wherever they differ (1 equal, 0 not): for the API's tokens.
 */
void	util_sha256(const void *data, size_t len, uint8_t out[32]);
void	util_hmac_sha256(const void *key, size_t klen, const void *msg,
	    size_t mlen, uint8_t out[32]);
int	util_ct_equal(const void *a, const void *b, size_t n);

#endif
