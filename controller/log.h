/*
 * log: the controller's diagnostics on stderr.  log_warn() appends
 * strerror(errno), log_warnx() does not; fatal()/fatalx() are for start-up
 * failures and broken invariants only, never for a misbehaving lab host.
 */
#ifndef LABRAT_LOG_H
#define LABRAT_LOG_H

#include <stdarg.h>

enum log_level {
	LOG_LEVEL_WARN = 0,
	LOG_LEVEL_INFO = 1,
	LOG_LEVEL_DEBUG = 2,
};

void	log_init(enum log_level level, const char *progname);
enum log_level log_get_level(void);
void	log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
