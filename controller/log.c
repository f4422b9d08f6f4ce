/*
 * log: leveled messages on stderr, serialised so lines from worker threads
 * never interleave.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static enum log_level	 log_level = LOG_LEVEL_WARN;
static const char	*log_prog = "labrat";
static pthread_mutex_t	 log_mtx = PTHREAD_MUTEX_INITIALIZER;
static log_escape_fn	 log_escape;

static void	log_vwrite(const char *, int, const char *, va_list);

void
log_init(enum log_level level, const char *progname)
{
	log_level = level;
	if (progname != NULL)
		log_prog = progname;
}

void
log_set_escape(log_escape_fn fn)
{
	log_escape = fn;
}

enum log_level
log_get_level(void)
{
	return log_level;
}

static void
log_vwrite(const char *prefix, int err, const char *fmt, va_list ap)
{
	char	msg[2048], safe[4 * sizeof msg];
	char	*m = msg;

	vsnprintf(msg, sizeof msg, fmt, ap);
	/* A message may quote a lab host: no raw control byte goes out. */
	if (log_escape != NULL)
		m = log_escape(safe, sizeof safe, msg, (size_t)-1);
	pthread_mutex_lock(&log_mtx);
	if (err != 0)
		fprintf(stderr, "%s: %s%s: %s\n", log_prog, prefix, m,
		    strerror(err));
	else
		fprintf(stderr, "%s: %s%s\n", log_prog, prefix, m);
	pthread_mutex_unlock(&log_mtx);
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;
	int	err = errno;

	va_start(ap, fmt);
	log_vwrite("", err, fmt, ap);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite("", 0, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	if (log_level < LOG_LEVEL_INFO)
		return;
	va_start(ap, fmt);
	log_vwrite("", 0, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (log_level < LOG_LEVEL_DEBUG)
		return;
	va_start(ap, fmt);
	log_vwrite("debug: ", 0, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;
	int	err = errno;

	va_start(ap, fmt);
	log_vwrite("fatal: ", err, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite("fatal: ", 0, fmt, ap);
	va_end(ap);
	exit(1);
}
