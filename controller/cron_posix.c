/*
 * cron_posix.c: POSIX TZ strings as found in a TZif footer (RFC 8536
 * section 3.3, POSIX.1 "TZ"): "std offset [dst [offset] ,start[/time],
 * end[/time]]" with dates Jn, n and Mm.w.d, quoted names "<+03>", and
 * version 3's hours of -167..167 in rule times.  The calendar helpers
 * every cron file uses live here too.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cron.h"
#include "cron_int.h"

/* Days since 1970-01-01 of a proleptic Gregorian date (era arithmetic). */
int64_t
cron_days_from_civil(int64_t y, int m, int d)
{
	int64_t	era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void
cron_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t	era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

int
cron_is_leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int
cron_month_days(int64_t y, int m)
{
	static const int days[13] =
	    { 0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return m == 2 && cron_is_leap(y) ? 29 : days[m];
}

int
cron_weekday(int64_t days)
{
	int64_t	w = (days + 4) % 7;	/* 1970-01-01 was a Thursday */

	return (int)(w < 0 ? w + 7 : w);
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

void
cron_tm_of_wall(int64_t wall, struct cron_tm *tm)
{
	int64_t	days = floor_div(wall, 86400), y, secs = wall - days * 86400;

	cron_civil_from_days(days, &y, &tm->mon, &tm->mday);
	tm->year = (int)y;
	tm->wday = cron_weekday(days);
	tm->hour = (int)(secs / 3600);
	tm->min = (int)(secs / 60 % 60);
	tm->sec = (int)(secs % 60);
}

/* ---- parsing ---- */

struct pp {
	const char	*s;
	const char	*p;
	char		*err;
	size_t		 errlen;
};

static int
perr(struct pp *pp, const char *what)
{
	if (pp->err != NULL && pp->errlen > 0)
		snprintf(pp->err, pp->errlen, "TZ string \"%s\": %s at "
		    "offset %d", pp->s, what, (int)(pp->p - pp->s));
	return -1;
}

static int
parse_name(struct pp *pp, char *out)
{
	size_t	n = 0;

	if (*pp->p == '<') {
		pp->p++;
		while (isalnum((unsigned char)*pp->p) || *pp->p == '+' ||
		    *pp->p == '-') {
			if (n + 1 < CRON_ABBR_MAX)
				out[n++] = *pp->p;
			pp->p++;
		}
		if (*pp->p != '>')
			return perr(pp, "unterminated <name>");
		pp->p++;
	} else {
		while (isalpha((unsigned char)*pp->p)) {
			if (n + 1 < CRON_ABBR_MAX)
				out[n++] = *pp->p;
			pp->p++;
		}
	}
	out[n] = '\0';
	if (n < 3)
		return perr(pp, "zone name shorter than 3 characters");
	return 0;
}

/* [+-]hh[:mm[:ss]], hours up to maxh; the sign applied. */
static int
parse_hms(struct pp *pp, int maxh, int32_t *out)
{
	int	sign = 1, part[3] = { 0, 0, 0 }, i, digits;

	if (*pp->p == '+' || *pp->p == '-')
		sign = *pp->p++ == '-' ? -1 : 1;
	for (i = 0; i < 3; i++) {
		if (i > 0) {
			if (*pp->p != ':')
				break;
			pp->p++;
		}
		for (digits = 0; isdigit((unsigned char)*pp->p); digits++)
			part[i] = part[i] * 10 + (*pp->p++ - '0');
		if (digits == 0 || digits > 3)
			return perr(pp, "bad time");
	}
	if (part[0] > maxh || part[1] > 59 || part[2] > 59)
		return perr(pp, "time out of range");
	*out = sign * (part[0] * 3600 + part[1] * 60 + part[2]);
	return 0;
}

/* Consumes c if it is next (never steps over the terminating NUL). */
static int
expect(struct pp *pp, char c)
{
	if (*pp->p != c)
		return 0;
	pp->p++;
	return 1;
}

static int
parse_num(struct pp *pp, int lo, int hi, int *out)
{
	int	v = 0, digits = 0;

	while (isdigit((unsigned char)*pp->p) && digits < 4) {
		v = v * 10 + (*pp->p++ - '0');
		digits++;
	}
	if (digits == 0 || v < lo || v > hi)
		return perr(pp, "bad rule date");
	*out = v;
	return 0;
}

static int
parse_date(struct pp *pp, struct cron_rule_date *d)
{
	memset(d, 0, sizeof(*d));
	d->secs = 7200;		/* 02:00:00 unless given */
	if (*pp->p == 'J') {
		pp->p++;
		d->kind = CRON_RULE_JULIAN1;
		if (parse_num(pp, 1, 365, &d->n) == -1)
			return -1;
	} else if (*pp->p == 'M') {
		pp->p++;
		d->kind = CRON_RULE_MWD;
		if (parse_num(pp, 1, 12, &d->mon) == -1)
			return -1;
		if (!expect(pp, '.'))
			return perr(pp, "bad Mm.w.d date");
		if (parse_num(pp, 1, 5, &d->week) == -1)
			return -1;
		if (!expect(pp, '.'))
			return perr(pp, "bad Mm.w.d date");
		if (parse_num(pp, 0, 6, &d->wday) == -1)
			return -1;
	} else {
		d->kind = CRON_RULE_JULIAN0;
		if (parse_num(pp, 0, 365, &d->n) == -1)
			return -1;
	}
	if (*pp->p == '/') {
		pp->p++;
		return parse_hms(pp, 167, &d->secs);
	}
	return 0;
}

int
cron_posix_parse(const char *s, struct cron_posix *z, char *err,
    size_t errlen)
{
	struct pp	pp = { s, s, err, errlen };
	int32_t		off;

	memset(z, 0, sizeof(*z));
	if (parse_name(&pp, z->std.abbr) == -1 ||
	    parse_hms(&pp, 24, &off) == -1)
		return -1;
	z->std.utoff = -off;		/* POSIX counts west as positive */
	if (*pp.p == '\0')
		return 0;
	z->has_dst = 1;
	z->dst.isdst = 1;
	if (parse_name(&pp, z->dst.abbr) == -1)
		return -1;
	z->dst.utoff = z->std.utoff + 3600;
	if (*pp.p != ',' && *pp.p != '\0') {
		if (parse_hms(&pp, 24, &off) == -1)
			return -1;
		z->dst.utoff = -off;
	}
	if (*pp.p != ',')
		return perr(&pp, "DST without a rule");
	pp.p++;
	if (parse_date(&pp, &z->start) == -1)
		return -1;
	if (!expect(&pp, ','))
		return perr(&pp, "expected \",end\"");
	if (parse_date(&pp, &z->end) == -1)
		return -1;
	if (*pp.p != '\0')
		return perr(&pp, "trailing characters");
	return 0;
}

/* ---- rules ---- */

/* Days since the epoch of the rule's date in year y. */
static int64_t
rule_day(const struct cron_rule_date *d, int64_t y)
{
	int64_t	jan1 = cron_days_from_civil(y, 1, 1), first;
	int	day, mdays;

	switch (d->kind) {
	case CRON_RULE_JULIAN1:		/* Feb 29 is never counted */
		return jan1 + d->n - 1 + (cron_is_leap(y) && d->n >= 60);
	case CRON_RULE_JULIAN0:
		return jan1 + d->n;
	case CRON_RULE_MWD:
		break;
	}
	first = cron_days_from_civil(y, d->mon, 1);
	mdays = cron_month_days(y, d->mon);
	day = (d->wday - cron_weekday(first) + 7) % 7 + (d->week - 1) * 7;
	while (day >= mdays)
		day -= 7;		/* week 5 = the last one */
	return first + day;
}

void
cron_posix_year(const struct cron_posix *z, int64_t y, int64_t *in_dst,
    int64_t *out_dst)
{
	*in_dst = rule_day(&z->start, y) * 86400 + z->start.secs -
	    z->std.utoff;
	*out_dst = rule_day(&z->end, y) * 86400 + z->end.secs - z->dst.utoff;
}

/* The changes of the years around t, sorted; 1 in isdst[i]: into DST. */
static int
events(const struct cron_posix *z, int64_t t, int64_t ev[6], int dst[6])
{
	int64_t	y, a, b, tv;
	int	m, d, i, j, n = 0, tb;

	cron_civil_from_days(floor_div(t, 86400), &y, &m, &d);
	for (i = -1; i <= 1; i++) {
		cron_posix_year(z, y + i, &a, &b);
		ev[n] = a;
		dst[n++] = 1;
		ev[n] = b;
		dst[n++] = 0;
	}
	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && ev[j - 1] > ev[j]; j--) {
			tv = ev[j]; ev[j] = ev[j - 1]; ev[j - 1] = tv;
			tb = dst[j]; dst[j] = dst[j - 1]; dst[j - 1] = tb;
		}
	}
	return n;
}

int64_t
cron_posix_prev(const struct cron_posix *z, int64_t t)
{
	int64_t	ev[6];
	int	dst[6], n, i;

	if (!z->has_dst)
		return INT64_MIN;
	n = events(z, t, ev, dst);
	for (i = n - 1; i >= 0; i--)
		if (ev[i] <= t)
			return ev[i];
	return INT64_MIN;
}

int64_t
cron_posix_next(const struct cron_posix *z, int64_t t)
{
	int64_t	ev[6];
	int	dst[6], n, i;

	if (!z->has_dst)
		return INT64_MAX;
	n = events(z, t, ev, dst);
	for (i = 0; i < n; i++)
		if (ev[i] > t)
			return ev[i];
	return INT64_MAX;
}

const struct cron_ttype *
cron_posix_type(const struct cron_posix *z, int64_t t)
{
	int64_t	ev[6];
	int	dst[6], n, i;

	if (!z->has_dst)
		return &z->std;
	n = events(z, t, ev, dst);
	for (i = n - 1; i >= 0; i--)
		if (ev[i] <= t)
			return dst[i] ? &z->dst : &z->std;
	return &z->std;
}
