/*
 * cron.c: the expression parser and matcher (see cron.h for the grammar,
 * the H hash and the rules).  Every error names the field by position
 * and name and says what is wrong with which part of it.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cron.h"
#include "cron_int.h"

struct field_def {
	const char	*what;
	int		 lo, hi;	/* accepted numbers */
	int		 hlo, hhi;	/* the range of a bare H */
	const char	*const *names;	/* names[i] is value lo + i */
	const char	*names_hint;
};

static const char *const month_names[] = {
	"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
	"JUL", "AUG", "SEP", "OCT", "NOV", "DEC", NULL
};
static const char *const day_names[] = {
	"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT", NULL
};

static const struct field_def fields[5] = {
	{ "minute", 0, 59, 0, 59, NULL, NULL },
	{ "hour", 0, 23, 0, 23, NULL, NULL },
	{ "day of month", 1, 31, 1, 28, NULL, NULL },
	{ "month", 1, 12, 1, 12, month_names, "1-12 or JAN-DEC" },
	{ "day of week", 0, 7, 0, 6, day_names, "0-7 or SUN-SAT" },
};

static const struct {
	const char	*word;
	const char	*fields;
} macros[] = {
	{ "@yearly", "0 0 1 1 *" },
	{ "@annually", "0 0 1 1 *" },
	{ "@monthly", "0 0 1 * *" },
	{ "@weekly", "0 0 * * 0" },
	{ "@daily", "0 0 * * *" },
	{ "@midnight", "0 0 * * *" },
	{ "@hourly", "0 * * * *" },
};

/* Parsing state of one field. */
struct fparse {
	int		 fi;		/* 0-4 */
	const struct field_def *def;
	const char	*name;		/* schedule name, for H */
	uint64_t	 bits;
	char		*err;
	size_t		 errlen;
};

static int	ferr(struct fparse *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

static int
ferr(struct fparse *f, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (f->err == NULL || f->errlen == 0)
		return -1;
	n = snprintf(f->err, f->errlen, "field %d (%s): ", f->fi + 1,
	    f->def->what);
	if (n < 0 || (size_t)n >= f->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(f->err + n, f->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* FNV-1a (32 bit) of name, then of the field's position byte. */
static uint32_t
hash_name(const char *name, int position)
{
	uint32_t	h = 2166136261u;
	const unsigned char *p;

	for (p = (const unsigned char *)name; *p != '\0'; p++) {
		h ^= *p;
		h *= 16777619u;
	}
	h ^= (unsigned char)position;
	h *= 16777619u;
	return h;
}

/*
 * One value: digits, or a name where the field has names.  s[0..len).
 */
static int
parse_value(struct fparse *f, const char *s, size_t len, int *out)
{
	const struct field_def *d = f->def;
	size_t	i;
	long	v = 0;

	if (len == 0)
		return ferr(f, "a number is missing");
	if (isdigit((unsigned char)s[0])) {
		for (i = 0; i < len; i++) {
			if (!isdigit((unsigned char)s[i]))
				return ferr(f, "\"%.*s\" is not a number",
				    (int)len, s);
			if (v < 100000)
				v = v * 10 + (s[i] - '0');
		}
		if (v < d->lo || v > d->hi)
			return ferr(f, "%.*s is out of range %d-%d", (int)len,
			    s, d->lo, d->hi);
		*out = (int)v;
		return 0;
	}
	if (d->names != NULL && len == 3) {
		for (i = 0; d->names[i] != NULL; i++) {
			if (strncasecmp(s, d->names[i], 3) == 0) {
				*out = d->lo + (int)i;
				return 0;
			}
		}
	}
	if (d->names != NULL)
		return ferr(f, "\"%.*s\" is not a %s (%s)", (int)len, s,
		    d->what, d->names_hint);
	return ferr(f, "\"%.*s\" is not a number", (int)len, s);
}

static void
set_range(struct fparse *f, int lo, int hi, int step)
{
	int	v;

	for (v = lo; v <= hi; v += step)
		f->bits |= (uint64_t)1 << v;
}

/* "A-B" or "A" in s[0..len): *lo, *hi; *single when there was no "-". */
static int
parse_range(struct fparse *f, const char *s, size_t len, int *lo, int *hi,
    int *single)
{
	const char *dash = memchr(s, '-', len);

	*single = dash == NULL;
	if (dash == NULL) {
		if (parse_value(f, s, len, lo) == -1)
			return -1;
		*hi = *lo;
		return 0;
	}
	if (parse_value(f, s, (size_t)(dash - s), lo) == -1 ||
	    parse_value(f, dash + 1, len - (size_t)(dash - s) - 1, hi) == -1)
		return -1;
	if (*lo > *hi)
		return ferr(f, "range %.*s runs backwards", (int)len, s);
	return 0;
}

/* "H", "H(A-B)", with an optional step already split off (0: none). */
static int
parse_h(struct fparse *f, const char *s, size_t len, int step)
{
	int		lo = f->def->hlo, hi = f->def->hhi, single;
	uint32_t	h;

	if (f->name == NULL || f->name[0] == '\0')
		return ferr(f, "H needs the schedule's name to hash");
	if (len > 1) {
		if (s[1] != '(' || s[len - 1] != ')')
			return ferr(f, "\"%.*s\": H takes a range as "
			    "H(A-B)", (int)len, s);
		if (parse_range(f, s + 2, len - 3, &lo, &hi, &single) == -1)
			return -1;
		if (single)
			return ferr(f, "\"%.*s\": H takes a range as "
			    "H(A-B)", (int)len, s);
	}
	h = hash_name(f->name, f->fi + 1);
	if (step == 0) {
		set_range(f, lo + (int)(h % (uint32_t)(hi - lo + 1)),
		    lo + (int)(h % (uint32_t)(hi - lo + 1)), 1);
		return 0;
	}
	if (step > hi - lo + 1)
		step = hi - lo + 1;
	set_range(f, lo + (int)(h % (uint32_t)step), hi, step);
	return 0;
}

static int
parse_item(struct fparse *f, const char *s, size_t len)
{
	const struct field_def *d = f->def;
	const char *slash = memchr(s, '/', len);
	size_t	blen = slash != NULL ? (size_t)(slash - s) : len;
	int	step = 0, lo, hi, single, span = d->hi - d->lo + 1;
	size_t	i;

	if (len == 0)
		return ferr(f, "an empty list item");
	if (f->fi == 4)
		span = 7;
	if (slash != NULL) {
		const char *p = slash + 1;
		size_t	 plen = len - blen - 1;

		if (plen == 0)
			return ferr(f, "\"%.*s\": the step is missing",
			    (int)len, s);
		for (i = 0; i < plen; i++) {
			if (!isdigit((unsigned char)p[i]))
				return ferr(f, "step \"%.*s\" is not a "
				    "number", (int)plen, p);
			if (step < 100000)
				step = step * 10 + (p[i] - '0');
		}
		if (step < 1 || step > span)
			return ferr(f, "step %.*s is out of range 1-%d",
			    (int)plen, p, span);
	}
	if (blen == 1 && s[0] == '*') {
		set_range(f, d->lo, d->hi, step ? step : 1);
		return 0;
	}
	if (blen >= 1 && s[0] == 'H')
		return parse_h(f, s, blen, step);
	if (parse_range(f, s, blen, &lo, &hi, &single) == -1)
		return -1;
	if (single && step != 0)
		hi = d->hi;		/* "A/S" = "A-max/S" */
	set_range(f, lo, hi, step ? step : 1);
	return 0;
}

static int
parse_field(struct fparse *f, const char *s, size_t len)
{
	size_t	i = 0, j;

	while (i <= len) {
		for (j = i; j < len && s[j] != ','; j++)
			;
		if (parse_item(f, s + i, j - i) == -1)
			return -1;
		i = j + 1;
	}
	if (f->fi == 4 && (f->bits & (1u << 7))) {
		f->bits &= ~((uint64_t)1 << 7);
		f->bits |= 1;
	}
	return 0;
}

/* With the day of week unrestricted, some listed day must exist. */
static int
check_feasible(const struct cron *c, char *err, size_t errlen)
{
	static const int maxdays[13] =
	    { 0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int	m, d;

	if (c->dom_star || !c->dow_star)
		return 0;
	for (m = 1; m <= 12; m++) {
		if (!(c->month & (1u << m)))
			continue;
		for (d = 1; d <= maxdays[m]; d++)
			if (c->dom & (1u << d))
				return 0;
	}
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "fields 3 and 4 (day of month, month): "
		    "no listed month has a listed day, so it never fires");
	return -1;
}

static const char *
expand_macro(const char *s, size_t len, char *err, size_t errlen)
{
	size_t	i;

	for (i = 0; i < sizeof(macros) / sizeof(macros[0]); i++)
		if (strlen(macros[i].word) == len &&
		    strncasecmp(s, macros[i].word, len) == 0)
			return macros[i].fields;
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "\"%.*s\" is not one of @yearly, "
		    "@annually, @monthly, @weekly, @daily, @midnight, "
		    "@hourly", (int)len, s);
	return NULL;
}

/* Splits s into at most 6 blank-separated words. */
static int
split_fields(const char *s, const char *w[6], size_t wl[6])
{
	int	n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return n;
		if (n == 6)
			return n + 1;
		w[n] = s;
		while (*s != '\0' && *s != ' ' && *s != '\t')
			s++;
		wl[n] = (size_t)(s - w[n]);
		n++;
	}
}

int
cron_parse(struct cron *c, const char *expr, const char *name, char *err,
    size_t errlen)
{
	const char	*w[6];
	size_t		 wl[6], len;
	struct fparse	 f;
	int		 n, i;

	memset(c, 0, sizeof(*c));
	if (expr == NULL || (len = strlen(expr)) == 0) {
		snprintf(err, errlen, "empty cron expression");
		return -1;
	}
	if (len > CRON_EXPR_MAX) {
		snprintf(err, errlen, "cron expression longer than %d "
		    "characters", CRON_EXPR_MAX);
		return -1;
	}
	n = split_fields(expr, w, wl);
	if (n == 1 && w[0][0] == '@') {
		if ((expr = expand_macro(w[0], wl[0], err, errlen)) == NULL)
			return -1;
		n = split_fields(expr, w, wl);
	}
	if (n != 5) {
		snprintf(err, errlen, "expected 5 fields (minute hour "
		    "day-of-month month day-of-week), got %s%d", n > 5 ?
		    "more than " : "", n > 5 ? 5 : n);
		return -1;
	}
	for (i = 0; i < 5; i++) {
		memset(&f, 0, sizeof(f));
		f.fi = i;
		f.def = &fields[i];
		f.name = name;
		f.err = err;
		f.errlen = errlen;
		if (parse_field(&f, w[i], wl[i]) == -1)
			return -1;
		switch (i) {
		case 0: c->minute = f.bits; c->minute_star = w[i][0] == '*';
			break;
		case 1: c->hour = (uint32_t)f.bits;
			c->hour_star = w[i][0] == '*'; break;
		case 2: c->dom = (uint32_t)f.bits;
			c->dom_star = w[i][0] == '*'; break;
		case 3: c->month = (uint16_t)f.bits; break;
		case 4: c->dow = (uint8_t)f.bits;
			c->dow_star = w[i][0] == '*'; break;
		}
	}
	return check_feasible(c, err, errlen);
}

int
cron_match_day(const struct cron *c, int mon, int mday, int wday)
{
	int	dom_ok, dow_ok;

	if (!(c->month & (1u << mon)))
		return 0;
	dom_ok = (c->dom >> mday) & 1;
	dow_ok = (c->dow >> wday) & 1;
	if (c->dom_star || c->dow_star)
		return dom_ok && dow_ok;
	return dom_ok || dow_ok;	/* Vixie: either restricted day field */
}

int
cron_match(const struct cron *c, const struct cron_tm *tm)
{
	return ((c->minute >> tm->min) & 1) && ((c->hour >> tm->hour) & 1) &&
	    cron_match_day(c, tm->mon, tm->mday, tm->wday);
}

int
cron_is_fixed(const struct cron *c)
{
	return !c->minute_star && !c->hour_star;
}
