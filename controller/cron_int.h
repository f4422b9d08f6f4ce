/*
 * cron_int.h: what cron.c (expressions), cron_zone.c (TZif), cron_posix.c
 * (POSIX TZ rules) and cron_next.c (firings) share.  Times are int64_t
 * seconds; "wall" seconds are local time counted as if it were UTC.
 */
#ifndef LABRAT_CRON_INT_H
#define LABRAT_CRON_INT_H

#include <stdint.h>

#include "cron.h"

#define CRON_ABBR_MAX	16

/* One local time type of a zone. */
struct cron_ttype {
	int32_t	utoff;
	int	isdst;
	char	abbr[CRON_ABBR_MAX];
};

/* A POSIX TZ rule date: Jn, n or Mm.w.d, plus a time of day. */
enum cron_rule_kind { CRON_RULE_JULIAN1, CRON_RULE_JULIAN0, CRON_RULE_MWD };
struct cron_rule_date {
	enum cron_rule_kind kind;
	int	n;		/* Jn: 1-365; n: 0-365 */
	int	mon, week, wday;	/* Mm.w.d */
	int32_t	secs;		/* local time of day, may be < 0 or > 24 h */
};

/* A parsed POSIX TZ string ("CET-1CEST,M3.5.0,M10.5.0/3"). */
struct cron_posix {
	struct cron_ttype std;
	struct cron_ttype dst;
	int	has_dst;
	struct cron_rule_date start, end;	/* into DST, out of DST */
};

struct cron_zone {
	char	name[CRON_NAME_MAX];
	int	is_static;
	size_t	ntrans;
	int64_t	*trans;		/* ascending */
	unsigned char *idx;	/* type index per transition */
	size_t	ntypes;
	struct cron_ttype *types;
	int	has_posix;
	struct cron_posix posix;
};

/*
 * The offset in force at t and the transitions around it: start is the
 * last offset change <= t (INT64_MIN if none known), prev the offset
 * before it, end the next change > t (INT64_MAX if none).  Transitions
 * that keep the offset are merged away.
 */
struct cron_span {
	int64_t	start, end;
	int32_t	off, prev;
	const struct cron_ttype *type;
};

void	cron_zone_span(const struct cron_zone *, int64_t t, struct cron_span *);

/* Civil calendar (proleptic Gregorian). */
int64_t	cron_days_from_civil(int64_t y, int m, int d);
void	cron_civil_from_days(int64_t days, int64_t *y, int *m, int *d);
int	cron_is_leap(int64_t y);
int	cron_month_days(int64_t y, int m);
/* 0 = Sunday. */
int	cron_weekday(int64_t days);
/* Wall seconds -> broken down (utoff/isdst/abbr left to the caller). */
void	cron_tm_of_wall(int64_t wall, struct cron_tm *);

/* POSIX TZ strings (cron_posix.c). */
int	cron_posix_parse(const char *s, struct cron_posix *, char *err,
	    size_t errlen);
/*
 * The year's two changes in UTC: *in_dst when DST starts, *out_dst when
 * it ends (in_dst > out_dst in the southern hemisphere).
 */
void	cron_posix_year(const struct cron_posix *, int64_t year,
	    int64_t *in_dst, int64_t *out_dst);
/* The rule's last change <= t (INT64_MIN: none), first change > t
 * (INT64_MAX: none), and the type in force at t. */
int64_t	cron_posix_prev(const struct cron_posix *, int64_t t);
int64_t	cron_posix_next(const struct cron_posix *, int64_t t);
const struct cron_ttype *cron_posix_type(const struct cron_posix *,
	    int64_t t);

/* Day rule of cron.c: month, day of month (1-31), weekday (0 = Sun). */
int	cron_match_day(const struct cron *, int mon, int mday, int wday);

#endif
