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

/*
 * agentctl_session.c: one agent command (argv: the subcommand and its
 * arguments) through the agent's `session` kept on connection c, started
 * from path on first use (its hello must name hash; NULL: any).  Fills
 * out, eb and res as ssh_exec() does and returns an ssh_status.  When the
 * command certainly did not run and should go the usual way, *fallback is
 * 1, or 2 when the agent there has no session at all (ask no more).  A
 * session that ends or garbles its answer mid-command is SSH_EDROPPED.
 * The framing's ceilings are the agent's (agents/agent.h).
 */
#define AGENTCTL_SESS_ARGS	64
/* A call's own arguments (with --owner and its value, the session's). */
#define AGENTCTL_ARGS_MAX	(AGENTCTL_SESS_ARGS - 2)
#define AGENTCTL_SESS_REQ	(64 * 1024)
struct buf;
struct ssh_conn;
struct ssh_result;
int	agentctl_sess_call(struct ssh_conn *c, const char *path,
	    const char *hash, const char *const *argv, int timeout_ms,
	    struct buf *out, struct buf *eb, struct ssh_result *res,
	    int *fallback, char *err, size_t errlen);
/* The framing's lines are short; more before a newline is not ours. */
#define AGENTCTL_SESS_LINE	160
/* What the bytes of a session read so far say (agentctl_sess_parse()).
 * The caller sets hash, want_hello and the two ceilings, zeroes the rest. */
struct agentctl_sess_parse {
	const char	*hash;		/* the hello's, NULL: any */
	int		 want_hello;	/* a hello line comes first */
	int		 hello_seen;
	size_t		 start;		/* the answer's first byte */
	size_t		 body;		/* its output's first byte (0: yet
					 * to come) */
	int		 exit_status;
	char		 sig[32];	/* "" when not killed */
	size_t		 outlen, errlen, out_max, err_max;
	int		 overflow;	/* stdout past out_max */
	int		 gone;		/* not run: the agent's file changed */
	char		 why[160];	/* what was wrong, when -1 */
};
/* ssh_kept_call()'s done() with arg a struct agentctl_sess_parse: 1 when
 * in holds the whole answer (and nothing more), 0 while it is short, -1
 * when it is not one (why set), its stdout is too long (overflow), or the
 * session did not run it because its file changed (gone). */
int	agentctl_sess_parse(const struct buf *in, void *arg);

#endif /* LABRAT_AGENTCTL_INT_H */
