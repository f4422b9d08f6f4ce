/*
 * cron_fixture.h: helpers for the cron tests.  tzif_build writes a TZif
 * blob by hand (RFC 8536 layout) so edge cases need no system file;
 * edge_zone is the hand-built zone "Test/Edge" the tests share; at()
 * reads "2026-03-29 03:00 +0200" (or "... Z") and wall() prints a time
 * the same way, in a zone.
 */
#ifndef LABRAT_CRON_FIXTURE_H
#define LABRAT_CRON_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cron.h"

struct tzb {
	unsigned char	buf[16384];
	size_t		n;
};

struct tz_type {
	int32_t		off;
	int		dst;
	unsigned	abbr;	/* index into chars */
};

static void
tzb_put(struct tzb *b, uint64_t v, int bytes)
{
	int	i;

	for (i = bytes - 1; i >= 0; i--)
		b->buf[b->n++] = (unsigned char)(v >> (8 * i));
}

static void
tzb_block(struct tzb *b, int version, int tsize, const int64_t *trans,
    const unsigned char *idx, size_t nt, const struct tz_type *types,
    size_t ntypes, const char *chars, size_t nchars, size_t leaps)
{
	size_t	i;

	memcpy(b->buf + b->n, "TZif", 4);
	b->n += 4;
	b->buf[b->n++] = version == 1 ? 0 : (unsigned char)('0' + version);
	memset(b->buf + b->n, 0, 15);
	b->n += 15;
	tzb_put(b, 0, 4);		/* isutcnt */
	tzb_put(b, 0, 4);		/* isstdcnt */
	tzb_put(b, leaps, 4);
	tzb_put(b, nt, 4);
	tzb_put(b, ntypes, 4);
	tzb_put(b, nchars, 4);
	for (i = 0; i < nt; i++)
		tzb_put(b, (uint64_t)trans[i], tsize);
	for (i = 0; i < nt; i++)
		b->buf[b->n++] = idx[i];
	for (i = 0; i < ntypes; i++) {
		tzb_put(b, (uint32_t)types[i].off, 4);
		b->buf[b->n++] = (unsigned char)types[i].dst;
		b->buf[b->n++] = (unsigned char)types[i].abbr;
	}
	memcpy(b->buf + b->n, chars, nchars);
	b->n += nchars;
	for (i = 0; i < leaps; i++) {
		tzb_put(b, 78796800, tsize);
		tzb_put(b, 1, 4);
	}
}

/*
 * A whole file: version 1 gets one 32-bit block; 2-4 a 32-bit block,
 * the 64-bit block and the footer (NULL: none at all, to test that).
 */
static size_t
tzif_build(struct tzb *b, int version, const int64_t *trans,
    const unsigned char *idx, size_t nt, const struct tz_type *types,
    size_t ntypes, const char *chars, size_t nchars, size_t leaps,
    const char *footer)
{
	b->n = 0;
	tzb_block(b, version, 4, trans, idx, nt, types, ntypes, chars,
	    nchars, leaps);
	if (version == 1)
		return b->n;
	tzb_block(b, version, 8, trans, idx, nt, types, ntypes, chars,
	    nchars, leaps);
	if (footer != NULL) {
		b->buf[b->n++] = '\n';
		memcpy(b->buf + b->n, footer, strlen(footer));
		b->n += strlen(footer);
		b->buf[b->n++] = '\n';
	}
	return b->n;
}

/*
 * "Test/Edge": LMT +00:34:08 before 2020; STD +01:00 from 2020; a
 * 30-minute DST (HLF +01:30) from 2020-04-05 01:00Z (wall 02:00 ->
 * 02:30) to 2020-10-04 00:30Z (wall 02:00 -> 01:30); a 4-hour jump to
 * BIG +05:00 at 2021-01-01 00:00Z (wall 01:00 -> 05:00) and back to STD
 * at 2021-06-01 00:00Z (wall 05:00 -> 01:00); then the footer's
 * southern rule: HLF from the first Sunday of October 02:00 to the first
 * Sunday of April 03:00.
 */
#define EDGE_T1	1577836800	/* 2020-01-01 00:00Z */
#define EDGE_T2	1586048400	/* 2020-04-05 01:00Z */
#define EDGE_T3	1601771400	/* 2020-10-04 00:30Z */
#define EDGE_T4	1609459200	/* 2021-01-01 00:00Z */
#define EDGE_T5	1622505600	/* 2021-06-01 00:00Z */

static struct cron_zone *
edge_zone(int version)
{
	static const int64_t trans[] = { EDGE_T1, EDGE_T2, EDGE_T3, EDGE_T4,
	    EDGE_T5 };
	static const unsigned char idx[] = { 1, 2, 1, 3, 1 };
	static const struct tz_type types[] = {
		{ 2048, 0, 0 }, { 3600, 0, 4 }, { 5400, 1, 8 }, { 18000, 0, 12 }
	};
	static const char chars[] = "LMT\0STD\0HLF\0BIG";
	struct tzb	*b = malloc(sizeof(*b));
	struct cron_zone *z = NULL;
	char		 err[256];

	tzif_build(b, version, trans, idx, 5, types, 4, chars, sizeof(chars),
	    0, "STD-1HLF-1:30,M10.1.0,M4.1.0/3");
	if (cron_zone_parse(b->buf, b->n, "Test/Edge", &z, err,
	    sizeof(err)) != 0) {
		fprintf(stderr, "edge zone: %s\n", err);
		abort();
	}
	free(b);
	return z;
}

/* "YYYY-MM-DD HH:MM[:SS] +HHMM" or "... Z" -> UTC. */
static time_t
at(const char *s)
{
	struct tm	tm;
	int		y, mo, d, h, mi, sec = 0, n = 0, off = 0;
	char		sign = 'Z';
	const char	*p;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%d-%d-%d %d:%d%n", &y, &mo, &d, &h, &mi, &n) != 5)
		abort();
	p = s + n;
	if (*p == ':') {
		sec = atoi(p + 1);
		p += 3;
	}
	while (*p == ' ')
		p++;
	if (*p == '+' || *p == '-') {
		sign = *p;
		off = atoi(p + 1);
		off = (off / 100) * 3600 + (off % 100) * 60;
	}
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	return timegm(&tm) - (sign == '-' ? -off : off);
}

/* t in z as "YYYY-MM-DD HH:MM +HHMM" (":SS" when not 0). */
static const char *
wall(const struct cron_zone *z, time_t t)
{
	static char	buf[8][64];
	static int	k;
	struct cron_tm	tm;
	int32_t		o;
	char		*b = buf[k++ % 8];

	if (t == (time_t)-1)
		return "never";
	cron_zone_local(z, t, &tm);
	o = tm.utoff < 0 ? -tm.utoff : tm.utoff;
	if (tm.sec != 0)
		snprintf(b, 64, "%04d-%02d-%02d %02d:%02d:%02d %c%02d%02d",
		    tm.year, tm.mon, tm.mday, tm.hour, tm.min, tm.sec,
		    tm.utoff < 0 ? '-' : '+', o / 3600, o / 60 % 60);
	else
		snprintf(b, 64, "%04d-%02d-%02d %02d:%02d %c%02d%02d",
		    tm.year, tm.mon, tm.mday, tm.hour, tm.min,
		    tm.utoff < 0 ? '-' : '+', o / 3600, o / 60 % 60);
	return b;
}

static int
have_zoneinfo(void)
{
	struct stat	st;

	return stat("/usr/share/zoneinfo/Europe/Berlin", &st) == 0 &&
	    stat("/usr/share/zoneinfo/America/New_York", &st) == 0;
}

#endif
