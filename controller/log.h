/*
 * log: the controller's diagnostics on stderr.  log_warn() appends
 * strerror(errno), log_warnx() does not; log_error() is shown at every
 * level, warnings from LOG_LEVEL_WARN up; fatal()/fatalx() are for start-up
 * failures and broken invariants only, never for a misbehaving lab host.
 */
#ifndef LABRAT_LOG_H
#define LABRAT_LOG_H

#include <stdarg.h>
#include <stddef.h>

enum log_level {
	LOG_LEVEL_ERROR = -1,	/* log_error() only (`serve --log-level error`) */
	LOG_LEVEL_WARN = 0,
	LOG_LEVEL_INFO = 1,
	LOG_LEVEL_DEBUG = 2,
};

void	log_init(enum log_level level, const char *progname);
/*
 * Every message passes through fn (util_term_safe(), set by main: log
 * sits below util) before it is written, so that text quoted from a lab
 * host never reaches the terminal raw.  NULL: written as is.
 */
typedef char	*(*log_escape_fn)(char *out, size_t outlen, const char *in,
		    size_t len);
void	log_set_escape(log_escape_fn);
enum log_level log_get_level(void);
/* "error", "warn", "info", "debug" -> *out; 0, or -1 for another word. */
int	log_level_parse(const char *, enum log_level *out);
/*
 * For a daemon: prefix every line with its syslog priority as journald
 * reads it from a service's stderr ("<3>" error .. "<7>" debug), and/or
 * with the UTC time ("2026-12-01T14:00:00Z") when no journal adds one.
 */
void	log_set_style(int syslog_prefix, int timestamps);
void	log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
