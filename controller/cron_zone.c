/*
 * cron_zone.c: time zones from TZif files (RFC 8536) and UTC <-> local
 * conversion on them, with no TZ variable and no localtime(3).  Version
 * 1 files are read from their 32-bit data; version 2-4 files from the
 * 64-bit data and the footer's POSIX TZ string (cron_posix.c), which
 * gives the offset after the last transition.  Before the first
 * transition time type 0 applies (RFC 8536 section 3.2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cron.h"
#include "cron_int.h"

#define TZIF_MAX_FILE	(1 << 20)
#define TZIF_MAX_TRANS	100000
#define TZIF_MAX_TYPES	256
#define TZIF_MAX_CHARS	4096
#define ZONEINFO_DIR	"/usr/share/zoneinfo"

static struct cron_ttype utc_type = { 0, 0, "UTC" };
static struct cron_zone utc_zone = {
	.name = "UTC", .is_static = 1, .ntypes = 1, .types = &utc_type
};

const struct cron_zone *
cron_zone_utc(void)
{
	return &utc_zone;
}

const char *
cron_zone_name(const struct cron_zone *z)
{
	return z->name;
}

void
cron_zone_free(struct cron_zone *z)
{
	if (z == NULL || z->is_static)
		return;
	free(z->trans);
	free(z->idx);
	free(z->types);
	free(z);
}

/* ---- TZif ---- */

struct tzhdr {
	int		version;	/* 1, 2, 3, 4 */
	uint32_t	isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt;
};

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static int64_t
be64(const unsigned char *p)
{
	return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

static int
zerr(char *err, size_t errlen, const char *name, const char *what)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "time zone \"%s\": %s", name, what);
	return -1;
}

static int
read_hdr(const unsigned char *p, size_t len, struct tzhdr *h)
{
	if (len < 44 || memcmp(p, "TZif", 4) != 0)
		return -1;
	if (p[4] == 0)
		h->version = 1;
	else if (p[4] >= '2' && p[4] <= '4')
		h->version = p[4] - '0';
	else
		return -1;
	h->isutcnt = be32(p + 20);
	h->isstdcnt = be32(p + 24);
	h->leapcnt = be32(p + 28);
	h->timecnt = be32(p + 32);
	h->typecnt = be32(p + 36);
	h->charcnt = be32(p + 40);
	return 0;
}

/* Bytes of the data block after a header, for time size ts (4 or 8). */
static size_t
block_len(const struct tzhdr *h, size_t ts)
{
	return (size_t)h->timecnt * (ts + 1) + (size_t)h->typecnt * 6 +
	    h->charcnt + (size_t)h->leapcnt * (ts + 4) + h->isstdcnt +
	    h->isutcnt;
}

static const char *
check_hdr(const struct tzhdr *h)
{
	if (h->typecnt == 0 || h->typecnt > TZIF_MAX_TYPES)
		return "bad count of local time types";
	if (h->charcnt == 0 || h->charcnt > TZIF_MAX_CHARS)
		return "bad count of abbreviation characters";
	if (h->timecnt > TZIF_MAX_TRANS)
		return "too many transitions";
	if ((h->isstdcnt != 0 && h->isstdcnt != h->typecnt) ||
	    (h->isutcnt != 0 && h->isutcnt != h->typecnt))
		return "bad standard/UT indicator counts";
	if (h->leapcnt != 0)
		return "leap-second zones (\"right/...\") are not supported";
	return NULL;
}

/* Fills z's table from one data block at p; NULL or what is wrong. */
static const char *
read_block(struct cron_zone *z, const struct tzhdr *h,
    const unsigned char *p, size_t ts)
{
	const unsigned char *tp = p, *ip, *ttp, *cp;
	size_t	i;

	ip = tp + (size_t)h->timecnt * ts;
	ttp = ip + h->timecnt;
	cp = ttp + (size_t)h->typecnt * 6;
	z->ntrans = h->timecnt;
	z->ntypes = h->typecnt;
	z->trans = calloc(h->timecnt ? h->timecnt : 1, sizeof(*z->trans));
	z->idx = calloc(h->timecnt ? h->timecnt : 1, 1);
	z->types = calloc(h->typecnt, sizeof(*z->types));
	if (z->trans == NULL || z->idx == NULL || z->types == NULL)
		return "out of memory";
	for (i = 0; i < h->timecnt; i++) {
		z->trans[i] = ts == 8 ? be64(tp + i * 8) :
		    (int64_t)(int32_t)be32(tp + i * 4);
		if (i > 0 && z->trans[i] <= z->trans[i - 1])
			return "transition times are not ascending";
		if ((z->idx[i] = ip[i]) >= h->typecnt)
			return "transition names a type that does not exist";
	}
	for (i = 0; i < h->typecnt; i++) {
		const unsigned char *t = ttp + i * 6;
		struct cron_ttype *ty = &z->types[i];
		int32_t	off = (int32_t)be32(t);
		size_t	 d = t[5], n;

		if (off < -26 * 3600 || off > 26 * 3600)
			return "UT offset out of range";
		if (t[4] > 1 || d >= h->charcnt)
			return "bad local time type";
		ty->utoff = off;
		ty->isdst = t[4];
		for (n = 0; d + n < h->charcnt && cp[d + n] != '\0'; n++)
			if (n + 1 < CRON_ABBR_MAX)
				ty->abbr[n] = (char)cp[d + n];
		if (d + n == h->charcnt)
			return "unterminated abbreviation";
	}
	return NULL;
}

/* The footer "\nTZ\n" at p[0..len). */
static const char *
read_footer(struct cron_zone *z, const unsigned char *p, size_t len,
    char *err, size_t errlen)
{
	char	tz[256];
	size_t	n;

	if (len < 2 || p[0] != '\n')
		return "missing footer";
	for (n = 1; n < len && p[n] != '\n'; n++)
		;
	if (n == len)
		return "unterminated footer";
	if (n == 1)
		return NULL;		/* empty: the last type stays */
	if (n - 1 >= sizeof(tz))
		return "footer TZ string too long";
	memcpy(tz, p + 1, n - 1);
	tz[n - 1] = '\0';
	if (cron_posix_parse(tz, &z->posix, err, errlen) == -1)
		return "";
	z->has_posix = 1;
	return NULL;
}

int
cron_zone_parse(const unsigned char *buf, size_t len, const char *name,
    struct cron_zone **out, char *err, size_t errlen)
{
	struct cron_zone *z;
	struct tzhdr	h;
	const char	*why;
	size_t		 off;
	char		 perr[200] = "";

	*out = NULL;
	if (read_hdr(buf, len, &h) == -1)
		return zerr(err, errlen, name, "not a TZif file");
	if ((why = check_hdr(&h)) != NULL)
		return zerr(err, errlen, name, why);
	off = 44 + block_len(&h, 4);
	if (off > len)
		return zerr(err, errlen, name, "truncated");
	if ((z = calloc(1, sizeof(*z))) == NULL)
		return zerr(err, errlen, name, "out of memory");
	snprintf(z->name, sizeof(z->name), "%s", name);
	if (h.version == 1) {
		why = read_block(z, &h, buf + 44, 4);
	} else {
		const unsigned char *h2 = buf + off;

		if (read_hdr(h2, len - off, &h) == -1) {
			why = "bad second header";
		} else if ((why = check_hdr(&h)) == NULL) {
			if (off + 44 + block_len(&h, 8) > len)
				why = "truncated";
			else if ((why = read_block(z, &h, h2 + 44, 8)) == NULL)
				why = read_footer(z, h2 + 44 +
				    block_len(&h, 8), len - off - 44 -
				    block_len(&h, 8), perr, sizeof(perr));
		}
	}
	if (why != NULL) {
		zerr(err, errlen, name, why[0] != '\0' ? why : perr);
		cron_zone_free(z);
		return -1;
	}
	*out = z;
	return 0;
}

static int
valid_name(const char *name)
{
	const char	*p;
	int		 start = 1;

	if (strlen(name) >= CRON_NAME_MAX || strstr(name, "..") != NULL)
		return 0;
	for (p = name; *p != '\0'; p++) {
		if (*p == '/') {
			if (start)
				return 0;	/* leading "/" or "//" */
			start = 1;
			continue;
		}
		if (start && *p == '.')
			return 0;		/* ".", "..", hidden files */
		if (!(*p >= 'A' && *p <= 'Z') && !(*p >= 'a' && *p <= 'z') &&
		    !(*p >= '0' && *p <= '9') && *p != '_' && *p != '-' &&
		    *p != '+' && *p != '.')
			return 0;
		start = 0;
	}
	return !start;
}

int
cron_zone_load(const char *dir, const char *name, struct cron_zone **out,
    char *err, size_t errlen)
{
	char		 path[512], why[600];
	unsigned char	*buf = NULL;
	struct stat	 st;
	ssize_t		 n;
	size_t		 got = 0;
	int		 fd = -1, rc = -1;

	*out = NULL;
	if (name == NULL || name[0] == '\0' || strcmp(name, "UTC") == 0) {
		*out = &utc_zone;
		return 0;
	}
	if (!valid_name(name))
		return zerr(err, errlen, name, "not a zone name (like "
		    "Europe/Berlin)");
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ZONEINFO_DIR, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
		snprintf(why, sizeof(why), "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > TZIF_MAX_FILE) {
		snprintf(why, sizeof(why), "%s: not a regular file of at most "
		    "%d bytes", path, TZIF_MAX_FILE);
		goto fail;
	}
	if ((buf = malloc((size_t)st.st_size + 1)) == NULL) {
		snprintf(why, sizeof(why), "%s: out of memory", path);
		goto fail;
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(why, sizeof(why), "read %s: %s", path,
			    n == 0 ? "short file" : strerror(errno));
			goto fail;
		}
		got += (size_t)n;
	}
	rc = cron_zone_parse(buf, got, name, out, err, errlen);
	free(buf);
	close(fd);
	return rc;
fail:
	free(buf);
	if (fd != -1)
		close(fd);
	return zerr(err, errlen, name, why);
}

/* ---- conversion ---- */

/* Last raw change <= t (table, then the footer rule), or INT64_MIN. */
static int64_t
prev_raw(const struct cron_zone *z, int64_t t)
{
	size_t	lo = 0, hi = z->ntrans;
	int64_t	p;

	if (z->has_posix && (z->ntrans == 0 || t > z->trans[z->ntrans - 1])) {
		p = cron_posix_prev(&z->posix, t);
		if (z->ntrans == 0 || p > z->trans[z->ntrans - 1])
			return p;
		return z->trans[z->ntrans - 1];
	}
	while (lo < hi) {		/* first index with trans > t */
		size_t mid = lo + (hi - lo) / 2;

		if (z->trans[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? INT64_MIN : z->trans[lo - 1];
}

static int64_t
next_raw(const struct cron_zone *z, int64_t t)
{
	size_t	lo = 0, hi = z->ntrans;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->trans[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < z->ntrans)
		return z->trans[lo];
	return z->has_posix ? cron_posix_next(&z->posix, t) : INT64_MAX;
}

static const struct cron_ttype *
type_at(const struct cron_zone *z, int64_t t)
{
	size_t	lo = 0, hi = z->ntrans;

	if (z->ntrans == 0)
		return z->has_posix ? cron_posix_type(&z->posix, t) :
		    &z->types[0];
	if (t < z->trans[0])
		return &z->types[0];
	if (z->has_posix && t > z->trans[z->ntrans - 1])
		return cron_posix_type(&z->posix, t);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->trans[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return &z->types[z->idx[lo - 1]];
}

void
cron_zone_span(const struct cron_zone *z, int64_t t, struct cron_span *s)
{
	int64_t	r, at;
	int	k;

	s->type = type_at(z, t);
	s->off = s->prev = s->type->utoff;
	s->start = INT64_MIN;
	s->end = INT64_MAX;
	for (at = t, k = 0; k < 64; k++) {
		if ((r = prev_raw(z, at)) == INT64_MIN)
			break;
		if (type_at(z, r - 1)->utoff != s->off) {
			s->start = r;
			s->prev = type_at(z, r - 1)->utoff;
			break;
		}
		at = r - 1;
	}
	for (at = t, k = 0; k < 64; k++) {
		if ((r = next_raw(z, at)) == INT64_MAX)
			break;
		if (type_at(z, r)->utoff != s->off) {
			s->end = r;
			break;
		}
		at = r;
	}
}

void
cron_zone_local(const struct cron_zone *z, time_t t, struct cron_tm *tm)
{
	const struct cron_ttype *ty = type_at(z, (int64_t)t);

	memset(tm, 0, sizeof(*tm));
	cron_tm_of_wall((int64_t)t + ty->utoff, tm);
	tm->utoff = ty->utoff;
	tm->isdst = ty->isdst;
	snprintf(tm->abbr, sizeof(tm->abbr), "%s", ty->abbr);
}

int
cron_zone_utc_of(const struct cron_zone *z, const struct cron_tm *tm,
    time_t out[2])
{
	int64_t		 wall, t;
	struct cron_span sp;
	int		 n = 0, k;

	wall = cron_days_from_civil(tm->year, tm->mon, tm->mday) * 86400 +
	    tm->hour * 3600 + tm->min * 60 + tm->sec;
	/* Every span that may hold an instant showing this wall time. */
	t = wall - 27 * 3600;
	for (k = 0; k < 16; k++) {
		cron_zone_span(z, t, &sp);
		if ((sp.start == INT64_MIN || wall - sp.off >= sp.start) &&
		    wall - sp.off < sp.end && n < 2)
			out[n++] = (time_t)(wall - sp.off);
		if (sp.end == INT64_MAX || sp.end > wall + 27 * 3600)
			break;
		t = sp.end;
	}
	return n;
}

char *
cron_format(const struct cron_zone *z, time_t t, char *buf, size_t len)
{
	struct cron_tm	tm;
	int32_t		off;

	cron_zone_local(z, t, &tm);
	off = tm.utoff < 0 ? -tm.utoff : tm.utoff;
	snprintf(buf, len, "%04d-%02d-%02d %02d:%02d:%02d %c%02d%02d%s%s",
	    tm.year, tm.mon, tm.mday, tm.hour, tm.min, tm.sec,
	    tm.utoff < 0 ? '-' : '+', off / 3600, off / 60 % 60,
	    tm.abbr[0] != '\0' ? " " : "", tm.abbr);
	return buf;
}
