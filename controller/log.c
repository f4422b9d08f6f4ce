/*
 * log: leveled messages on stderr, serialised so lines from worker threads
 * never interleave.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"

static enum log_level	 log_level = LOG_LEVEL_WARN;
static const char	*log_prog = "labrat";
static pthread_mutex_t	 log_mtx = PTHREAD_MUTEX_INITIALIZER;
static log_escape_fn	 log_escape;
static int		 log_syslog_prefix, log_timestamps;

static void	log_vwrite(int, const char *, int, const char *, va_list);

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

int
log_level_parse(const char *s, enum log_level *out)
{
	static const char *const names[] = { "error", "warn", "info",
		"debug" };
	int	i;

	for (i = 0; i < 4; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = (enum log_level)(i - 1);
			return 0;
		}
	}
	return -1;
}

void
log_set_style(int syslog_prefix, int timestamps)
{
	log_syslog_prefix = syslog_prefix;
	log_timestamps = timestamps;
}

/* pri: the syslog priority (3 error, 4 warning, 6 info, 7 debug). */
static void
log_vwrite(int pri, const char *prefix, int err, const char *fmt, va_list ap)
{
	char		msg[2048], safe[4 * sizeof msg], lead[48];
	char		*m = msg;
	struct tm	tm;
	time_t		now;
	size_t		n = 0;

	vsnprintf(msg, sizeof msg, fmt, ap);
	/* A message may quote a lab host: no raw control byte goes out. */
	if (log_escape != NULL)
		m = log_escape(safe, sizeof safe, msg, (size_t)-1);
	lead[0] = '\0';
	if (log_syslog_prefix)
		n = (size_t)snprintf(lead, sizeof lead, "<%d>", pri);
	if (log_timestamps) {
		now = time(NULL);
		gmtime_r(&now, &tm);
		strftime(lead + n, sizeof lead - n, "%Y-%m-%dT%H:%M:%SZ ",
		    &tm);
	}
	pthread_mutex_lock(&log_mtx);
	if (err != 0)
		fprintf(stderr, "%s%s: %s%s: %s\n", lead, log_prog, prefix, m,
		    strerror(err));
	else
		fprintf(stderr, "%s%s: %s%s\n", lead, log_prog, prefix, m);
	pthread_mutex_unlock(&log_mtx);
}

void
log_error(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(3, "error: ", 0, fmt, ap);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list	ap;
	int	err = errno;

	if (log_level < LOG_LEVEL_WARN)
		return;
	va_start(ap, fmt);
	log_vwrite(4, "", err, fmt, ap);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	if (log_level < LOG_LEVEL_WARN)
		return;
	va_start(ap, fmt);
	log_vwrite(4, "", 0, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	if (log_level < LOG_LEVEL_INFO)
		return;
	va_start(ap, fmt);
	log_vwrite(6, "", 0, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (log_level < LOG_LEVEL_DEBUG)
		return;
	va_start(ap, fmt);
	log_vwrite(7, "debug: ", 0, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;
	int	err = errno;

	va_start(ap, fmt);
	log_vwrite(2, "fatal: ", err, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	log_vwrite(2, "fatal: ", 0, fmt, ap);
	va_end(ap);
	exit(1);
}
