/*
 * util: see util.h.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "util.h"

void *
xmalloc(size_t n)
{
	void	*p;

	if (n == 0)
		n = 1;
	if ((p = malloc(n)) == NULL)
		fatal("malloc(%zu)", n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		fatal("calloc(%zu, %zu)", nmemb, size);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	void	*p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		fatalx("xreallocarray: %zu * %zu overflows", nmemb, size);
	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = realloc(ptr, nmemb * size)) == NULL)
		fatal("realloc(%zu)", nmemb * size);
	return p;
}

char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		fatal("strdup");
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;

	if ((p = strndup(s, n)) == NULL)
		fatal("strndup");
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		fatal("vasprintf");
	return s;
}

void
buf_init(struct buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
	b->truncated = 0;
}

int
buf_append(struct buf *b, const void *p, size_t n)
{
	size_t	 want, ncap;

	if (n > b->max || b->len > b->max - n) {
		/* Keep what fits so the caller can still show the start. */
		n = b->max - b->len;
		b->truncated = 1;
	}
	want = b->len + n + 1;
	if (want > b->cap) {
		ncap = b->cap == 0 ? 256 : b->cap;
		while (ncap < want)
			ncap *= 2;
		if (ncap > b->max + 1)
			ncap = b->max + 1;
		b->data = xreallocarray(b->data, ncap, 1);
		b->cap = ncap;
	}
	if (n > 0)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return b->truncated ? -1 : 0;
}

int
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		fatal("vasprintf");
	r = buf_append(b, s, (size_t)r);
	free(s);
	return r;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	b->truncated = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

void
buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b, b->max);
}

char *
buf_release(struct buf *b)
{
	char	*p;

	if (b->data == NULL)
		return xstrdup("");
	p = b->data;
	b->data = NULL;
	b->len = b->cap = 0;
	b->truncated = 0;
	return p;
}

int
util_shell_quote(struct buf *b, const char *s)
{
	const char	*q;
	int		 r;

	r = buf_append(b, "'", 1);
	while ((q = strchr(s, '\'')) != NULL) {
		r |= buf_append(b, s, (size_t)(q - s));
		r |= buf_append(b, "'\\''", 4);
		s = q + 1;
	}
	r |= buf_append(b, s, strlen(s));
	r |= buf_append(b, "'", 1);
	return r;
}

int
util_strtonum(const char *s, long long min, long long max, long long *out,
    const char **errstr)
{
	char		*end;
	long long	 v;

	*errstr = NULL;
	if (s == NULL || *s == '\0' || (*s != '-' && (*s < '0' || *s > '9'))) {
		*errstr = "invalid";
		return -1;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0') {
		*errstr = "invalid";
		return -1;
	}
	if ((errno == ERANGE && v == LLONG_MIN) || v < min) {
		*errstr = "too small";
		return -1;
	}
	if ((errno == ERANGE && v == LLONG_MAX) || v > max) {
		*errstr = "too large";
		return -1;
	}
	*out = v;
	return 0;
}

int
util_strtod(const char *s, double *out)
{
	char	*end;
	double	 v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

void
util_seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * Length of the UTF-8 sequence at s (at most n bytes) and its code point,
 * or 0 when it is not a valid, shortest-form sequence of a scalar value.
 */
static size_t
utf8_seq(const unsigned char *s, size_t n, unsigned *cpp)
{
	unsigned	cp, min;
	size_t		len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*cpp = cp;
	return len;
}

/* Code points a terminal acts on or that reorder text (C1, bidi). */
static int
cp_unsafe(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	    (cp >= 0x200e && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

char *
util_term_safe(char *out, size_t outlen, const char *in, size_t len)
{
	const unsigned char	*s = (const unsigned char *)in;
	char			 esc[16];
	size_t			 o = 0, i = 0, n, k;
	unsigned		 cp;

	if (outlen == 0)
		return out;
	if (len == (size_t)-1)
		len = strlen(in);
	while (i < len) {
		n = 1;
		if (s[i] < 0x20 || s[i] == 0x7f)
			snprintf(esc, sizeof esc, "\\x%02x", s[i]);
		else if (s[i] < 0x80) {
			esc[0] = (char)s[i];
			esc[1] = '\0';
		} else if ((n = utf8_seq(s + i, len - i, &cp)) == 0) {
			n = 1;
			snprintf(esc, sizeof esc, "\\x%02x", s[i]);
		} else if (cp_unsafe(cp))
			snprintf(esc, sizeof esc, "\\u%04x", cp);
		else {
			memcpy(esc, s + i, n);
			esc[n] = '\0';
		}
		k = strlen(esc);
		if (o + k >= outlen)
			break;		/* never half an escape or character */
		memcpy(out + o, esc, k);
		o += k;
		i += n;
	}
	out[o] = '\0';
	return out;
}

int64_t
util_now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the clock (LABRAT_TEST_CLOCK) ---- */

enum { CLOCK_UNREAD, CLOCK_REAL, CLOCK_SHIFTED, CLOCK_STOPPED, CLOCK_SKIPS };
#define CLOCK_MS_MAX	1000000000000000LL	/* ~31,700 years */

/* Written once by util_clock_set() (a test may set it again), read by
 * every thread: relaxed atomics, a skip adds to clock_ms. */
static _Atomic int	clock_mode;
static _Atomic int64_t	clock_ms;	/* shift or skipped; stopped: the time */

static int64_t
clock_real_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
util_clock_set(const char *v, char *err, size_t errlen)
{
	const char	*errstr;
	long long	 n = 0;
	int		 mode = CLOCK_REAL;

	if (v != NULL && strcmp(v, "skip") == 0)
		mode = CLOCK_SKIPS;
	else if (v != NULL && *v != '\0') {
		if ((*v != '@' && *v != '+' && *v != '-') ||
		    util_strtonum(v + 1, 0, CLOCK_MS_MAX, &n, &errstr) == -1 ||
		    !isdigit((unsigned char)v[1])) {
			util_seterr(err, errlen, "LABRAT_TEST_CLOCK=\"%.64s\": "
			    "not @MS (a clock that stands still at MS ms since "
			    "the epoch), +MS or -MS (one that runs MS ms ahead "
			    "or behind) or skip (test only)", v);
			return -1;
		}
		mode = *v == '@' ? CLOCK_STOPPED : CLOCK_SHIFTED;
		if (*v == '-')
			n = -n;
	}
	atomic_store_explicit(&clock_ms, (int64_t)n, memory_order_relaxed);
	atomic_store_explicit(&clock_mode, mode, memory_order_release);
	return 0;
}

int
util_clock_init(char *err, size_t errlen)
{
	return util_clock_set(getenv("LABRAT_TEST_CLOCK"), err, errlen);
}

int64_t
util_wall_ms(void)
{
	char	err[256];
	int	mode;

	mode = atomic_load_explicit(&clock_mode, memory_order_acquire);
	if (mode == CLOCK_UNREAD) {
		if (util_clock_init(err, sizeof err) == -1)
			fatalx("%s", err);
		mode = atomic_load_explicit(&clock_mode, memory_order_acquire);
	}
	if (mode == CLOCK_STOPPED)
		return atomic_load_explicit(&clock_ms, memory_order_relaxed);
	return clock_real_ms() + atomic_load_explicit(&clock_ms,
	    memory_order_relaxed);
}

int64_t
util_time(void)
{
	return util_wall_ms() / 1000;
}

int
util_clock_skips(void)
{
	if (atomic_load_explicit(&clock_mode, memory_order_acquire) ==
	    CLOCK_UNREAD)
		(void)util_wall_ms();
	return atomic_load_explicit(&clock_mode, memory_order_acquire) ==
	    CLOCK_SKIPS;
}

int
util_clock_skip(int64_t ms)
{
	if (ms <= 0 || !util_clock_skips())
		return 0;
	atomic_fetch_add_explicit(&clock_ms, ms, memory_order_relaxed);
	return 1;
}

int
util_mkdirs(const char *dir, int mode)
{
	char	 path[PATH_MAX];
	char	*p;

	if (strlen(dir) >= sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(path, dir);
	for (p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, (mode_t)mode) == -1 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(path, (mode_t)mode) == -1 && errno != EEXIST)
		return -1;
	return 0;
}

char *
util_read_file(const char *path, size_t max, size_t *lenp, char *err,
    size_t errlen)
{
	struct buf	 b;
	char		 chunk[8192];
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		util_seterr(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf_init(&b, max);
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			util_seterr(err, errlen, "%s: read: %s", path,
			    strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		if (buf_append(&b, chunk, (size_t)n) == -1) {
			util_seterr(err, errlen, "%s: larger than %zu bytes",
			    path, max);
			goto fail;
		}
	}
	close(fd);
	if (lenp != NULL)
		*lenp = b.len;
	return buf_release(&b);
fail:
	close(fd);
	buf_free(&b);
	return NULL;
}

int
util_write_file_atomic(const char *path, const void *data, size_t len,
    int mode, char *err, size_t errlen)
{
	char		*tmp;
	const char	*p = data;
	ssize_t		 n;
	int		 fd;

	tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, (mode_t)mode);
	if (fd == -1) {
		util_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			util_seterr(err, errlen, "%s: write: %s", tmp,
			    strerror(errno));
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) == -1 || close(fd) == -1) {
		util_seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) == -1) {
		util_seterr(err, errlen, "rename(%s, %s): %s", tmp, path,
		    strerror(errno));
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

uint64_t
util_fnv1a64(const void *data, size_t len, uint64_t seed)
{
	const unsigned char	*p = data;
	uint64_t		 h = seed ^ 0xcbf29ce484222325ULL;
	size_t			 i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

int
util_driver_differs(const char *declared, const char *reported)
{
	return declared != NULL && strcmp(declared,
	    reported != NULL ? reported : "") != 0;
}

int
util_chip_differs(const char *declared, const char *reported)
{
	return declared != NULL && strcasecmp(declared,
	    reported != NULL ? reported : "") != 0;
}

void
util_wrap(FILE *fp, const char *text, int width, int indent, int col)
{
	const char	*p = text;
	int		 w, first = 1;

	while (*p != '\0') {
		w = (int)strcspn(p, " ");
		if (!first && col + 1 + w > width) {
			fprintf(fp, "\n%*s", indent, "");
			col = indent;
			first = 1;
		}
		if (col < indent) {
			fprintf(fp, "%*s", indent - col, "");
			col = indent;
		}
		fprintf(fp, "%s%.*s", first ? "" : " ", w, p);
		col += w + (first ? 0 : 1);
		first = 0;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', fp);
}
