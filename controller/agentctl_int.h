/*
 * agentctl_int.h: internals shared by the agentctl module's files: the
 * typed JSON getters the decoder (agentctl_decode.c) reads the agent's
 * lines with (agentctl_jget.c).  Each records the first problem as
 * "HOST: labrat-agent CMD: PATH: what" in the context and is a no-op
 * after it.  Nothing outside the agentctl module includes it.
 */
#ifndef LABRAT_AGENTCTL_INT_H
#define LABRAT_AGENTCTL_INT_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* Decoding context: the first error wins, later getters are no-ops. */
struct adec {
	const char	*host;
	const char	*what;
	char		*err;
	size_t		 errlen;
	int		 failed;
};

/* What a getter accepts besides a value of its type. */
#define J_NULL	0x1	/* null: the destination keeps "unknown" */
#define J_OPT	0x3	/* null, or no such key at all */

void	adec_fail(struct adec *, const char *path, const char *key,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The member key of o; *isnull when it is null (or absent and flags
 * allow that); a missing required key fails. */
struct json_object *adec_get(struct adec *, struct json_object *o,
	    const char *path, const char *key, int flags, int *isnull);
/* A scalar of type t (json_type_double: any number); NULL when it is a
 * null that flags allow, or after a failure. */
struct json_object *adec_scalar(struct adec *, struct json_object *o,
	    const char *path, const char *key, int flags, enum json_type t);
/* Strings into dst (n bytes), refused unless valid() (or printable). */
void	adec_str_pat(struct adec *, struct json_object *o, const char *path,
	    const char *key, int flags, char *dst, size_t n,
	    int (*valid)(const char *), const char *what);
void	adec_str(struct adec *, struct json_object *o, const char *path,
	    const char *key, int flags, char *dst, size_t n);
void	adec_dbl(struct adec *, struct json_object *o, const char *path,
	    const char *key, int flags, double *dst);
void	adec_int(struct adec *, struct json_object *o, const char *path,
	    const char *key, int flags, long long *dst);
void	adec_bool(struct adec *, struct json_object *o, const char *path,
	    const char *key, int flags, int *dst);
struct json_object *adec_typed(struct adec *, struct json_object *o,
	    const char *path, const char *key, enum json_type t, int flags);
/* An array of at most max entries (*n set). */
struct json_object *adec_array(struct adec *, struct json_object *o,
	    const char *path, const char *key, int flags, size_t max,
	    const char *what, size_t *n);
/* Element i of a, an object; its path "key[i]" written to p. */
struct json_object *adec_elem(struct adec *, struct json_object *a,
	    const char *key, size_t i, char *p, size_t plen);
/* A list of strings, each shorter than width, stored width apart. */
void	adec_strlist(struct adec *, struct json_object *o, const char *key,
	    char *dst, size_t width, size_t max, const char *what, size_t *n);

#endif /* LABRAT_AGENTCTL_INT_H */
