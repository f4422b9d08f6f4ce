/*
 * agentctl_jget: the typed getters of agentctl_int.h, over json-c.  Each
 * checks a member's type, range, length and pattern and records the first
 * problem with its JSON path; strings a host sent are neutralised before
 * they are quoted (util_term_safe).
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "agentctl.h"
#include "agentctl_int.h"
#include "util.h"

void
adec_fail(struct adec *j, const char *path, const char *key, const char *fmt,
    ...)
{
	char	msg[512], safe[1024];
	va_list	ap;

	if (j->failed)
		return;
	j->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* msg may quote the host (values, keys): neutralised, once more. */
	util_seterr(j->err, j->errlen, "%s: labrat-agent %s: %s%s%s: %s",
	    j->host, j->what, path, key != NULL ? "." : "",
	    key != NULL ? key : "", util_term_safe(safe, sizeof safe, msg,
	    (size_t)-1));
}

/*
 * The member key of o.  *isnull is set when it is null, or absent and
 * flags allow that; a missing required key fails.
 */
struct json_object *
adec_get(struct adec *j, struct json_object *o, const char *path, const char *key,
    int flags, int *isnull)
{
	struct json_object	*v;

	*isnull = 0;
	if (j->failed)
		return NULL;
	if (!json_object_object_get_ex(o, key, &v)) {
		if ((flags & J_OPT) == J_OPT)
			*isnull = 1;
		else
			adec_fail(j, path, key, "missing");
		return NULL;
	}
	if (v == NULL)
		*isnull = 1;
	return v;
}

/*
 * A scalar of type t (json_type_double: any number); NULL when it is a
 * null that flags allow, or after a failure.
 */
struct json_object *
adec_scalar(struct adec *j, struct json_object *o, const char *path,
    const char *key, int flags, enum json_type t)
{
	struct json_object	*v;
	int			 isnull;

	v = adec_get(j, o, path, key, flags, &isnull);
	if (isnull && (flags & J_NULL))
		return NULL;
	if (v == NULL || j->failed) {
		if (isnull)
			adec_fail(j, path, key, "is null");
		return NULL;
	}
	if (!json_object_is_type(v, t) && !(t == json_type_double &&
	    json_object_is_type(v, json_type_int))) {
		adec_fail(j, path, key, "not %s", t == json_type_string ?
		    "a string" : t == json_type_boolean ? "a boolean" :
		    "a number");
		return NULL;
	}
	return v;
}

/*
 * A string the host chose: patterned ones (valid != NULL: revisions,
 * versions, drivers, ids) are refused unless they match; free text is
 * neutralised for terminals (util_term_safe(), cut to n).  The raw
 * output keeps the bytes.
 */
void
adec_str_pat(struct adec *j, struct json_object *o, const char *path,
    const char *key, int flags, char *dst, size_t n,
    int (*valid)(const char *), const char *what)
{
	struct json_object	*v;
	const char		*s;
	char			 safe[128];
	size_t			 len;

	dst[0] = '\0';
	if ((v = adec_scalar(j, o, path, key, flags, json_type_string)) == NULL)
		return;
	s = json_object_get_string(v);
	len = (size_t)json_object_get_string_len(v);
	if (len >= n || strlen(s) != len) {
		adec_fail(j, path, key, "string too long or has NUL bytes");
		return;
	}
	if (valid != NULL && !valid(s)) {
		adec_fail(j, path, key, "\"%s\" is not %s", util_term_safe(safe,
		    sizeof safe, s, len < 60 ? len : 60), what);
		return;
	}
	util_term_safe(dst, n, s, len);
}

void
adec_str(struct adec *j, struct json_object *o, const char *path, const char *key,
    int flags, char *dst, size_t n)
{
	adec_str_pat(j, o, path, key, flags, dst, n, NULL, NULL);
}

/* Numbers: integers or doubles; int-ness checked by adec_int. */
void
adec_dbl(struct adec *j, struct json_object *o, const char *path, const char *key,
    int flags, double *dst)
{
	struct json_object	*v;

	v = adec_scalar(j, o, path, key, flags, json_type_double);
	*dst = v != NULL ? json_object_get_double(v) : NAN;
	if (v != NULL && !isfinite(*dst))
		adec_fail(j, path, key, "not a finite number");
}

void
adec_int(struct adec *j, struct json_object *o, const char *path, const char *key,
    int flags, long long *dst)
{
	double	d;

	*dst = AGENTCTL_NONE;
	adec_dbl(j, o, path, key, flags, &d);
	if (j->failed || isnan(d))
		return;
	if (d < -9.0e18 || d > 9.0e18 || (double)(long long)d != d) {
		adec_fail(j, path, key, "not an integer");
		return;
	}
	*dst = (long long)d;
}

void
adec_bool(struct adec *j, struct json_object *o, const char *path, const char *key,
    int flags, int *dst)
{
	struct json_object	*v;

	v = adec_scalar(j, o, path, key, flags, json_type_boolean);
	*dst = v == NULL ? AGENTCTL_NONE : json_object_get_boolean(v) ? 1 : 0;
}

struct json_object *
adec_typed(struct adec *j, struct json_object *o, const char *path,
    const char *key, enum json_type t, int flags)
{
	struct json_object	*v;
	int			 isnull;

	v = adec_get(j, o, path, key, flags, &isnull);
	if ((isnull && (flags & J_NULL)) || j->failed)
		return NULL;
	if (v == NULL || !json_object_is_type(v, t)) {
		adec_fail(j, path, key, "not %s", t == json_type_array ?
		    "an array" : "an object");
		return NULL;
	}
	return v;
}

/* An array of at most max elements; *n gets its length. */
struct json_object *
adec_array(struct adec *j, struct json_object *o, const char *path,
    const char *key, int flags, size_t max, const char *what, size_t *n)
{
	struct json_object	*a;

	*n = 0;
	if ((a = adec_typed(j, o, path, key, json_type_array, flags)) == NULL)
		return NULL;
	if (json_object_array_length(a) > max) {
		adec_fail(j, path, key, "more than %zu %s", max, what);
		return NULL;
	}
	*n = json_object_array_length(a);
	return a;
}

/* Element i of an array of objects; p gets its path ("key[i]"). */
struct json_object *
adec_elem(struct adec *j, struct json_object *a, const char *key, size_t i,
    char *p, size_t plen)
{
	struct json_object	*e = json_object_array_get_idx(a, i);

	snprintf(p, plen, "%s[%zu]", key, i);
	if (!json_object_is_type(e, json_type_object)) {
		adec_fail(j, p, NULL, "not an object");
		return NULL;
	}
	return e;
}

/* A list of strings, each shorter than width, stored width apart. */
void
adec_strlist(struct adec *j, struct json_object *o, const char *key, char *dst,
    size_t width, size_t max, const char *what, size_t *n)
{
	struct json_object	*a, *e;
	size_t			 i, len;

	*n = 0;
	if ((a = adec_array(j, o, "result", key, 0, max, "entries", &len)) ==
	    NULL)
		return;
	for (i = 0; i < len; i++) {
		e = json_object_array_get_idx(a, i);
		if (!json_object_is_type(e, json_type_string) ||
		    (size_t)json_object_get_string_len(e) >= width ||
		    strlen(json_object_get_string(e)) !=
		    (size_t)json_object_get_string_len(e) ||
		    !agentctl_printable_ok(json_object_get_string(e))) {
			adec_fail(j, "result", key, "[%zu] not %s", i, what);
			return;
		}
		snprintf(dst + i * width, width, "%s",
		    json_object_get_string(e));
	}
	*n = len;
}
