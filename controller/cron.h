/*
 * cron: pure schedule arithmetic for the daemon's schedules.  It owns the
 * 5-field cron expression (parse, match), the time zone rules it is
 * evaluated in (a TZif reader and POSIX TZ rules: no TZ variable, no
 * localtime, so it is thread-safe and table-testable) and the next firing
 * with Debian cron's daylight-saving behaviour.
 *
 * Expressions (Vixie cron, crontab(5)):
 *   minute hour day-of-month month day-of-week, each a list of items
 *   "*", "N", "A-B", "*\/S", "A-B/S", "A/S" (= A-max/S); months JAN-DEC and
 *   days SUN-SAT by name, case-insensitive; day of week 0 and 7 are both
 *   Sunday.  @yearly @annually @monthly @weekly @daily @midnight @hourly.
 *   When both day fields are restricted (do not start with "*") a day
 *   matches if either does (Vixie's rule); otherwise both must.
 *   "H" spreads start times: it stands for one value of the field's range
 *   (or of "H(A-B)"), "H/S" and "H(A-B)/S" for every S-th value from an
 *   offset below S.  The value is lo + h % span (the offset h % S), where
 *   h is the 32-bit FNV-1a hash of the schedule's name followed by one
 *   byte, the field's position (1-5), so fields of one name vary
 *   independently and a name always gets the same times.  An H day of
 *   month ranges over 1-28, so it exists in every month.
 *
 * DST (Debian cron(8), NOTES; see cron_next): a job is "fixed" when
 * neither its minute nor its hour field starts with "*" (so @hourly is not,
 * @daily is).  When the clock jumps forward by less than 3 hours, a fixed
 * job whose time was skipped fires once, right at the jump; when it goes
 * back by less than 3 hours, a fixed job fires only in the first pass of
 * the repeated times.  Wildcard jobs follow wall time: none fires in the
 * skipped times, and in the repeated hour they fire in both passes.
 * Larger jumps are a change of zone, and every job follows wall time.
 *
 * Memory: struct cron is a plain value (no heap).  A struct cron_zone is
 * heap-allocated by cron_zone_parse / cron_zone_load and owned by the
 * caller, who frees it with cron_zone_free; cron_zone_utc() is a static
 * zone that cron_zone_free ignores.  A zone is read-only after loading and
 * may be shared between threads.
 */
#ifndef LABRAT_CRON_H
#define LABRAT_CRON_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define CRON_EXPR_MAX	256	/* longest expression accepted */
#define CRON_NAME_MAX	128	/* longest zone name accepted */

/*
 * A parsed expression: bit v of a field set means value v matches.  Set
 * by cron_parse; callers read it, never build one by hand.
 */
struct cron {
	uint64_t	minute;		/* bits 0-59 */
	uint32_t	hour;		/* bits 0-23 */
	uint32_t	dom;		/* bits 1-31 */
	uint16_t	month;		/* bits 1-12 */
	uint8_t		dow;		/* bits 0-6, 0 = Sunday */
	unsigned	minute_star:1;	/* the field started with "*" */
	unsigned	hour_star:1;
	unsigned	dom_star:1;
	unsigned	dow_star:1;
};

/*
 * Parses expr (one of the @words or 5 fields separated by blanks).  name
 * is the schedule's name, needed only when the expression uses H.  0, or
 * -1 with e.g. "field 2 (hour): 24 is out of range 0-23" in err.  An
 * expression that can never fire ("0 0 30 2 *") is an error too.
 */
int	cron_parse(struct cron *, const char *expr, const char *name,
	    char *err, size_t errlen);

/* Whether a local wall time matches (fields only, no DST rules). */
struct cron_tm;
int	cron_match(const struct cron *, const struct cron_tm *);

/* Whether the job is fixed in the DST sense above. */
int	cron_is_fixed(const struct cron *);

/* ---- time zones ---- */

struct cron_zone;

/* Broken-down local time. */
struct cron_tm {
	int	year;		/* e.g. 2026 */
	int	mon;		/* 1-12 */
	int	mday;		/* 1-31 */
	int	hour;		/* 0-23 */
	int	min;		/* 0-59 */
	int	sec;		/* 0-59 */
	int	wday;		/* 0-6, 0 = Sunday */
	int32_t	utoff;		/* seconds east of UTC */
	int	isdst;
	char	abbr[16];	/* "CEST"; "" when the zone has none */
};

/* A zone with UTC offset 0 and no transitions (static, never freed). */
const struct cron_zone *cron_zone_utc(void);

/*
 * Parses a TZif file's bytes (RFC 8536, versions 1-4; the 64-bit data of
 * version 2+ and its footer TZ string for times past the last
 * transition).  name is kept for messages.  Files with leap seconds
 * ("right/...") are refused.  0 with *out set (caller frees), or -1.
 */
int	cron_zone_parse(const unsigned char *buf, size_t len, const char *name,
	    struct cron_zone **out, char *err, size_t errlen);

/*
 * Reads DIR/NAME (DIR NULL: /usr/share/zoneinfo) and parses it.  NAME
 * must look like "Europe/Berlin": letters, digits, "_+-" and "/" between
 * parts, no "." component, no leading "/".  "UTC" (and NULL or "") gives
 * cron_zone_utc() without reading a file.  0 with *out set, or -1 naming
 * the file and what is wrong.
 */
int	cron_zone_load(const char *dir, const char *name,
	    struct cron_zone **out, char *err, size_t errlen);

void	cron_zone_free(struct cron_zone *);

/* The zone's name as loaded ("UTC" for the static zone). */
const char *cron_zone_name(const struct cron_zone *);

/* UTC -> local time. */
void	cron_zone_local(const struct cron_zone *, time_t, struct cron_tm *);

/*
 * Local wall time (year..sec of tm; the rest ignored) -> UTC.  Returns
 * how many instants show that wall time: 0 (skipped by a forward jump),
 * 1, or 2 (repeated; out[0] < out[1]).  out has room for 2.
 */
int	cron_zone_utc_of(const struct cron_zone *, const struct cron_tm *,
	    time_t out[2]);

/* "2026-03-29 03:00:00 +0200 CEST" into buf; returns buf. */
char	*cron_format(const struct cron_zone *, time_t, char *buf, size_t len);

/* ---- firing ---- */

/*
 * The first firing strictly after `after`, in zone z, with the DST rules
 * above; (time_t)-1 if there is none in the 10 years after it.
 */
time_t	cron_next(const struct cron *, const struct cron_zone *, time_t after);

/*
 * For the daemon: is a schedule whose last firing was last_fired (its
 * creation time if it never fired) due at now?  Firings missed while the
 * daemon was down collapse into one: slot is the latest firing time <=
 * now, the one to run now and to store as the new last_fired, so the
 * next call finds nothing due until `next`.
 */
struct cron_due {
	int	due;		/* 1: fire now */
	time_t	first;		/* first firing after last_fired */
	time_t	slot;		/* due: the latest firing <= now; else -1 */
	time_t	next;		/* the firing after slot (or after now) */
	int	missed;		/* firings skipped besides slot (capped) */
};

#define CRON_MISSED_CAP	1000

void	cron_due(const struct cron *, const struct cron_zone *,
	    time_t last_fired, time_t now, struct cron_due *out);

/* ---- schedules: expression + zone (cron_sched.c) ---- */

/*
 * Zones loaded once by name and kept: what the daemon and `labrat
 * schedule` use to read many schedules.  Not locked: one thread uses a
 * cache (the zones it hands out are read-only and may be shared).  The
 * caller owns the cache (cron_cache_free); the zones belong to it.
 */
struct cron_cache;
struct cron_cache *cron_cache_new(const char *zoneinfo_dir);	/* NULL: the system's */
void	cron_cache_free(struct cron_cache *);
/* The zone called name (loaded on first use); 0, or -1 with err. */
int	cron_cache_zone(struct cron_cache *, const char *name,
	    const struct cron_zone **out, char *err, size_t errlen);

/* A schedule's expression compiled in its zone (the zone is the cache's). */
struct cron_sched {
	struct cron		 cron;
	const struct cron_zone	*zone;
};

/*
 * Parses expr (H hashed on name) and loads tz through the cache: the one
 * validation `schedule add` and the daemon both apply.  0, or -1 with err
 * naming the part: "cron EXPR: ..." or "tz ZONE: ...".
 */
int	cron_sched_compile(struct cron_cache *, const char *expr,
	    const char *tz, const char *name, struct cron_sched *out,
	    char *err, size_t errlen);
/* The next firing strictly after `after` (time_t)-1 if none. */
time_t	cron_sched_next(const struct cron_sched *, time_t after);

#endif
