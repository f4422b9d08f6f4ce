/*
 * cron_next.c: the next firing of an expression in a zone, with Debian
 * cron's DST rules (cron.h), and the daemon's "is it due" question with
 * missed firings collapsed into one.
 *
 * The search walks the zone's spans of constant UTC offset from `after`
 * on.  Within a span, wall time = UTC + offset is monotonic, so the first
 * matching wall minute of the span is its first firing.  A span that
 * begins with a small forward jump first offers its start instant to
 * fixed jobs whose time fell into the skipped wall times; a span that
 * begins with a small backward jump hides its repeated wall times from
 * fixed jobs, which fired in the first pass.
 */
#include <string.h>

#include "cron.h"
#include "cron_int.h"

#define SEARCH_SECS	((int64_t)10 * 366 * 86400)
#define SMALL_JUMP	(3 * 3600)	/* Debian: "less than 3 hours" */

static int64_t
ceil_minute(int64_t w)
{
	int64_t	r = w % 60;

	if (r < 0)
		r += 60;
	return r == 0 ? w : w + 60 - r;
}

/* The first set bit >= v of a 64-bit mask, or -1. */
static int
next_bit(uint64_t mask, int v)
{
	mask >>= v;
	if (mask == 0)
		return -1;
	return v + __builtin_ctzll(mask);
}

/* The first matching wall minute in [from, to), or INT64_MAX. */
static int64_t
wall_match(const struct cron *c, int64_t from, int64_t to)
{
	struct cron_tm	tm;
	int64_t		w = ceil_minute(from), day;
	int		m;

	while (w < to) {
		cron_tm_of_wall(w, &tm);
		day = cron_days_from_civil(tm.year, tm.mon, tm.mday);
		if (!(c->month & (1u << tm.mon))) {
			w = tm.mon == 12 ?
			    cron_days_from_civil(tm.year + 1, 1, 1) * 86400 :
			    cron_days_from_civil(tm.year, tm.mon + 1, 1) * 86400;
			continue;
		}
		if (!cron_match_day(c, tm.mon, tm.mday, tm.wday)) {
			w = (day + 1) * 86400;
			continue;
		}
		if (!((c->hour >> tm.hour) & 1)) {
			w = day * 86400 + (int64_t)(tm.hour + 1) * 3600;
			continue;
		}
		if ((m = next_bit(c->minute, tm.min)) == -1) {
			w = day * 86400 + (int64_t)(tm.hour + 1) * 3600;
			continue;
		}
		w = day * 86400 + (int64_t)tm.hour * 3600 + m * 60;
		return w < to ? w : INT64_MAX;
	}
	return INT64_MAX;
}

time_t
cron_next(const struct cron *c, const struct cron_zone *z, time_t after)
{
	struct cron_span sp;
	int64_t	t = (int64_t)after + 1, limit = (int64_t)after + SEARCH_SECS;
	int64_t	from, to, w, jump;
	int	fixed = cron_is_fixed(c), small;

	while (t < limit) {
		cron_zone_span(z, t, &sp);
		jump = (int64_t)sp.off - sp.prev;
		small = sp.start != INT64_MIN && jump != 0 &&
		    jump < SMALL_JUMP && jump > -SMALL_JUMP;
		from = t + sp.off;
		if (fixed && small && jump > 0 && sp.start >= t &&
		    wall_match(c, sp.start + sp.prev, sp.start + sp.off) !=
		    INT64_MAX)
			return (time_t)sp.start;	/* skipped: run now */
		if (fixed && small && jump < 0 && from < sp.start + sp.prev)
			from = sp.start + sp.prev;	/* ran in pass one */
		to = (sp.end < limit ? sp.end : limit) + sp.off;
		if ((w = wall_match(c, from, to)) != INT64_MAX)
			return (time_t)(w - sp.off);
		if (sp.end >= limit)
			break;
		t = sp.end;
	}
	return (time_t)-1;
}

void
cron_due(const struct cron *c, const struct cron_zone *z, time_t last,
    time_t now, struct cron_due *out)
{
	time_t	s, n, from;
	int64_t	win;

	memset(out, 0, sizeof(*out));
	out->slot = -1;
	out->first = cron_next(c, z, last);
	if (out->first == (time_t)-1 || out->first > now) {
		out->next = out->first;
		return;
	}
	out->due = 1;
	/* The latest firing <= now: the smallest window back from now
	 * that holds one, then forward through that window. */
	s = out->first;
	for (win = 60; (int64_t)now - win > (int64_t)out->first; win *= 2) {
		from = (time_t)((int64_t)now - win);
		n = cron_next(c, z, from);
		if (n != (time_t)-1 && n <= now) {
			s = n;
			break;
		}
	}
	while ((n = cron_next(c, z, s)) != (time_t)-1 && n <= now)
		s = n;
	out->slot = s;
	out->next = cron_next(c, z, s);
	/* Count what is skipped, up to a cap. */
	for (n = out->first; n != s && n != (time_t)-1 &&
	    out->missed < CRON_MISSED_CAP; n = cron_next(c, z, n))
		out->missed++;
}
