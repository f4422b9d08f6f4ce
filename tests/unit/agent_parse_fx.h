/*
 * agent_parse_fx.h: fixture helpers shared by the test_agent_parse_*
 * programs (static functions; include once per test program after
 * <cmocka.h>).  Fixtures live in $LABRAT_FIXTURES.
 */
#ifndef AGENT_PARSE_FX_H
#define AGENT_PARSE_FX_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(x)	(sizeof(x) / sizeof((x)[0]))
#define MiB	(1024.0 * 1024.0)
#define GiB	(1024.0 * 1024.0 * 1024.0)
#define KiB	1024.0

#if defined(__GNUC__)
#define FX_UNUSED	__attribute__((unused))
#else
#define FX_UNUSED
#endif

/* Whole fixture file (relative to $LABRAT_FIXTURES), NUL-terminated;
 * the caller frees it.  Fails the test if it cannot be read. */
FX_UNUSED static char *
fx_read(const char *rel, size_t *lenp)
{
	const char *dir = getenv("LABRAT_FIXTURES");
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	if (dir == NULL)
		dir = "tests/fixtures";
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if ((f = fopen(path, "rb")) == NULL) {
		print_error("cannot open fixture %s\n", path);
		fail();
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*lenp = (size_t)n;
	return buf;
}

/*
 * The lines after the nth (0-based) line containing `after`, up to (not
 * including) the next line containing `stop` (or the end), as a new
 * NUL-terminated buffer.  Used to cut one transcript out of a seed report.
 */
FX_UNUSED static char *
fx_section(const char *text, const char *after, int nth, const char *stop,
    size_t *lenp)
{
	const char *p = text, *nl, *start = NULL, *end;
	char *out;

	for (;;) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			break;
		if (start == NULL) {
			if (strstr(p, after) != NULL && strstr(p, after) < nl &&
			    nth-- == 0)
				start = nl + 1;
		} else if (stop != NULL && strstr(p, stop) != NULL &&
		    strstr(p, stop) < nl)
			break;
		p = nl + 1;
	}
	if (start == NULL) {
		print_error("no section after \"%s\"\n", after);
		fail();
	}
	end = p;
	out = malloc((size_t)(end - start) + 1);
	assert_non_null(out);
	memcpy(out, start, (size_t)(end - start));
	out[end - start] = '\0';
	*lenp = (size_t)(end - start);
	return out;
}

/* The single line containing both a and b (nth match), with '\n'. */
FX_UNUSED static char *
fx_line(const char *text, const char *a, const char *b, int nth,
    size_t *lenp)
{
	const char *p = text, *nl;
	char *out;

	while ((nl = strchr(p, '\n')) != NULL) {
		const char *x = strstr(p, a), *y = strstr(p, b);

		if (x != NULL && x < nl && y != NULL && y < nl && nth-- == 0) {
			out = malloc((size_t)(nl - p) + 2);
			assert_non_null(out);
			memcpy(out, p, (size_t)(nl - p) + 1);
			out[nl - p + 1] = '\0';
			*lenp = (size_t)(nl - p) + 1;
			return out;
		}
		p = nl + 1;
	}
	print_error("no line with \"%s\" and \"%s\"\n", a, b);
	fail();
	return NULL;
}

/* Exact comparisons of doubles computed the same way as the parser. */
FX_UNUSED static void
fx_eq(double got, double want, const char *what)
{
	if (got != want) {
		print_error("%s: got %.17g, want %.17g\n", what, got, want);
		fail();
	}
}

FX_UNUSED static void
fx_near(double got, double want, double rel, const char *what)
{
	double d = got - want, w = want < 0 ? -want : want;

	if (!((d < 0 ? -d : d) <= rel * w)) {
		print_error("%s: got %.17g, want %.17g (+/- %g%%)\n", what, got,
		    want, rel * 100);
		fail();
	}
}

FX_UNUSED static void
fx_err_has(const char *err, const char *needle)
{
	if (strstr(err, needle) == NULL) {
		print_error("error \"%s\" lacks \"%s\"\n", err, needle);
		fail();
	}
}

#endif
