/*
 * fuzz_http_query: the HTTP request-target parser (controller/http_query.c)
 * on any bytes: accepted or refused with a reason, and what it accepts
 * keeps its promises: at most HTTP_SEGS_MAX segments and HTTP_PARAMS_MAX
 * parameters, every segment non-empty, not "." or "..", without "/",
 * control characters or invalid UTF-8, every key [a-z0-9_]+, and every
 * string inside the struct's own buffer.  The getters run on the result.
 */
#include "fuzz.h"
#include "http_int.h"

static int
valid_utf8(const unsigned char *s)
{
	while (*s != '\0') {
		size_t		n, i;
		uint32_t	cp;

		if (*s < 0x80) {
			s++;
			continue;
		}
		if (*s >= 0xc2 && *s <= 0xdf)
			n = 2, cp = *s & 0x1f;
		else if (*s >= 0xe0 && *s <= 0xef)
			n = 3, cp = *s & 0x0f;
		else if (*s >= 0xf0 && *s <= 0xf4)
			n = 4, cp = *s & 0x07;
		else
			return 0;
		for (i = 1; i < n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		s += n;
	}
	return 1;
}

static int
clean(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static int
inside(const struct http_uri *u, const char *s)
{
	return s >= u->buf && s + strlen(s) < u->buf + sizeof u->buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct http_uri	 u;
	char			 err[256];
	const char		*s;
	size_t			 i, lim;
	int64_t			 id;
	int			 rc;

	err[0] = '\0';
	rc = http_uri_parse((const char *)data, size, &u, err, sizeof err);
	if (rc != 0) {
		FUZZ_CHECK(rc == -1, "rc %d", rc);
		FUZZ_CHECK(err[0] != '\0', "refused without a reason");
		return 0;
	}
	FUZZ_CHECK(size > 0 && data[0] == '/', "accepted without a /");
	FUZZ_CHECK(u.nseg <= HTTP_SEGS_MAX && u.nparam <= HTTP_PARAMS_MAX,
	    "%zu segments, %zu parameters", u.nseg, u.nparam);
	for (i = 0; i < u.nseg; i++) {
		s = u.seg[i];
		FUZZ_CHECK(inside(&u, s), "segment %zu outside buf", i);
		FUZZ_CHECK(*s != '\0' && strcmp(s, ".") != 0 &&
		    strcmp(s, "..") != 0 && strchr(s, '/') == NULL,
		    "segment %zu \"%s\"", i, s);
		FUZZ_CHECK(strlen(s) <= HTTP_SEG_MAX, "segment %zu long", i);
		FUZZ_CHECK(clean(s) && valid_utf8((const unsigned char *)s),
		    "segment %zu not clean", i);
	}
	for (i = 0; i < u.nparam; i++) {
		s = u.param[i].key;
		FUZZ_CHECK(inside(&u, s), "key %zu outside buf", i);
		FUZZ_CHECK(*s != '\0' && strlen(s) <= HTTP_KEY_MAX &&
		    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
		    strlen(s), "key %zu \"%s\"", i, s);
		s = u.param[i].val;
		FUZZ_CHECK(*s == '\0' || inside(&u, s), "value %zu outside",
		    i);
		FUZZ_CHECK(strlen(s) <= HTTP_VAL_MAX && clean(s) &&
		    valid_utf8((const unsigned char *)s), "value %zu", i);
	}
	rc = http_query_limit(&u, &lim, err, sizeof err);
	FUZZ_CHECK(rc == -1 || (lim >= 1 && lim <= HTTP_LIMIT_MAX),
	    "limit %zu", lim);
	rc = http_query_id(&u, "after", &id, err, sizeof err);
	FUZZ_CHECK(rc != 1 || id > 0, "after %lld", (long long)id);
	return 0;
}
