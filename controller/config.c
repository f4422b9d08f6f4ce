/*
 * config: inventory and plan JSON -> typed structs (see config.h).  This
 * file holds the JSON walk shared by config_inventory.c, config_plan.c and
 * config_bisect.c (typed members that report what is wrong with its path),
 * names and patterns, and command templates; config_read.c reads files and
 * collects the errors.
 *
 * The walk is tolerant on purpose: a bad value is reported and the walk goes
 * on with the next one, so one `labrat config check` shows every problem.
 * A config is only returned when no error was added while loading it.
 * Error paths are built as the walk descends ("hosts[2].nics[0].name").
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "config_int.h"
#include "json.h"
#include "log.h"
#include "util.h"

/* ---- paths and values ------------------------------------------------ */

/* Paths longer than CONFIG_PATHLEN (only via long user keys) are cut short. */
void
config_path_key(char *out, const char *path, const char *key)
{
	int	n;

	if (*path == '\0')
		n = snprintf(out, CONFIG_PATHLEN, "%s", key);
	else
		n = snprintf(out, CONFIG_PATHLEN, "%s.%s", path, key);
	if (n >= CONFIG_PATHLEN)
		memcpy(out + CONFIG_PATHLEN - 4, "...", 4);
}

void
config_path_index(char *out, const char *path, size_t i)
{
	if (snprintf(out, CONFIG_PATHLEN, "%s[%zu]", path, i) >= CONFIG_PATHLEN)
		memcpy(out + CONFIG_PATHLEN - 4, "...", 4);
}

/* A value as it appears in a message: JSON text, escaped, truncated. */
void
config_fmtval(struct json_object *v, char *out, size_t outlen)
{
	const char	*s;
	size_t		 o = 0, max = outlen < 60 ? outlen : 60;

	s = json_object_to_json_string_ext(v,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	for (; *s != '\0' && o + 4 < max; s++)
		out[o++] = *s;
	if (*s != '\0') {
		out[o++] = '.';
		out[o++] = '.';
		out[o++] = '.';
	}
	out[o] = '\0';
}

static const char *
typename(enum json_type t)
{
	switch (t) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a number";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "?";
}

/* Reports and returns 0 unless v has type t (an int also passes as double). */
int
config_want(struct config_walk *w, const char *path, struct json_object *v,
    int json_type)
{
	enum json_type	t = (enum json_type)json_type;
	char	val[64];
	double	d;

	if (json_object_is_type(v, t))
		return 1;
	if (t == json_type_double && json_object_is_type(v, json_type_int))
		return 1;
	/* JSON Schema counts 5.0 as an integer; so do we. */
	if (t == json_type_int && json_object_is_type(v, json_type_double)) {
		d = json_object_get_double(v);
		if (d > -9e18 && d < 9e18 && (double)(int64_t)d == d)
			return 1;
	}
	config_fmtval(v, val, sizeof val);
	config_werr(w, path, "%s is not %s", val, typename(t));
	return 0;
}

/* Unknown keys; `what` qualifies the message ("for tool scp"). */
void
config_check_keys(struct config_walk *w, const char *path,
    struct json_object *o, const char *const *keys, const char *what)
{
	struct json_object_iterator	it, end;
	char				p[CONFIG_PATHLEN];
	size_t				i;
	const char			*k;

	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	for (; !json_object_iter_equal(&it, &end);
	    json_object_iter_next(&it)) {
		k = json_object_iter_peek_name(&it);
		for (i = 0; keys[i] != NULL; i++)
			if (strcmp(keys[i], k) == 0)
				break;
		if (keys[i] != NULL)
			continue;
		config_path_key(p, path, k);
		if (what != NULL)
			config_werr(w, p, "unknown key %s", what);
		else
			config_werr(w, p, "unknown key");
	}
}

/*
 * The one member lookup.  json-c's json_object_object_get_ex() returns true
 * with a NULL value for JSON null, which every caller would otherwise take
 * for "absent": null is a type error ("null is not a string") unless
 * json_type is json_type_null, which says the schema allows null (it then
 * reads as absent).  Returns 1 with *vp set, 0 when absent (and not
 * required), -1 when an error was reported (missing required key, null).
 */
static int
member(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, int json_type, struct json_object **vp)
{
	struct json_object	*v = NULL;
	char			 p[CONFIG_PATHLEN];

	*vp = NULL;
	if (o == NULL || !json_object_is_type(o, json_type_object))
		return required ? -1 : 0;
	if (!json_object_object_get_ex(o, key, &v)) {
		if (!required)
			return 0;
		config_path_key(p, path, key);
		config_werr(w, p, "required key is missing");
		return -1;
	}
	if (v == NULL) {
		if ((enum json_type)json_type == json_type_null)
			return 0;
		config_path_key(p, path, key);
		config_werr(w, p, "null is not %s",
		    typename((enum json_type)json_type));
		return -1;
	}
	*vp = v;
	return 1;
}

struct json_object *
config_member(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, int json_type)
{
	struct json_object	*v;

	member(w, path, o, key, required, json_type, &v);
	return v;
}

/*
 * A string member: required or optional (*out left alone when absent).
 * Refuses embedded NULs, control characters and more than max bytes.
 * Returns 1 when *out was set, 0 when absent, -1 on error.
 */
int
config_get_str(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, size_t max, const char **out)
{
	struct json_object	*v;
	char			 p[CONFIG_PATHLEN], val[64];
	const char		*s;
	size_t			 len, i;
	int			 r;

	if ((r = member(w, path, o, key, required, json_type_string,
	    &v)) != 1)
		return r;
	config_path_key(p, path, key);
	if (!config_want(w, p, v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	len = (size_t)json_object_get_string_len(v);
	config_fmtval(v, val, sizeof val);
	if (strlen(s) != len) {
		config_werr(w, p, "%s contains a NUL byte", val);
		return -1;
	}
	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			config_werr(w, p, "%s contains a control character",
			    val);
			return -1;
		}
	}
	if (len == 0) {
		config_werr(w, p, "must not be empty");
		return -1;
	}
	if (len > max) {
		config_werr(w, p, "%s is longer than %zu bytes", val, max);
		return -1;
	}
	*out = s;
	return 1;
}

int
config_get_int(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, long long min, long long max, int *out)
{
	struct json_object	*v;
	char			 p[CONFIG_PATHLEN], val[64];
	int64_t			 n;
	int			 r;

	if ((r = member(w, path, o, key, required, json_type_int,
	    &v)) != 1)
		return r;
	config_path_key(p, path, key);
	if (!config_want(w, p, v, json_type_int))
		return -1;
	n = json_object_get_int64(v);
	if (n < min || n > max) {
		config_fmtval(v, val, sizeof val);
		config_werr(w, p, "%s is out of range %lld-%lld", val, min,
		    max);
		return -1;
	}
	*out = (int)n;
	return 1;
}

/* A number in [min, max], or (min, max] when min_open. */
int
config_get_num(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, double min, int min_open, double max, double *out)
{
	struct json_object	*v;
	char			 p[CONFIG_PATHLEN], val[64];
	double			 d;
	int			 r;

	if ((r = member(w, path, o, key, 0, json_type_double, &v)) != 1)
		return r;
	config_path_key(p, path, key);
	if (!config_want(w, p, v, json_type_double))
		return -1;
	d = json_object_get_double(v);
	if (d < min || (min_open && d == min) || d > max) {
		config_fmtval(v, val, sizeof val);
		config_werr(w, p, "%s is out of range %s%.10g-%.10g]", val,
		    min_open ? "(" : "[", min, max);
		return -1;
	}
	*out = d;
	return 1;
}

int
config_get_bool(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int *out)
{
	struct json_object	*v;
	char			 p[CONFIG_PATHLEN];
	int			 r;

	if ((r = member(w, path, o, key, 0, json_type_boolean, &v)) != 1)
		return r;
	config_path_key(p, path, key);
	if (!config_want(w, p, v, json_type_boolean))
		return -1;
	*out = json_object_get_boolean(v) ? 1 : 0;
	return 1;
}

/* A string that must be one of names[]; returns its index or -1. */
int
config_get_enum(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, const char *const *names, int *out)
{
	const char	*s;
	char		 p[CONFIG_PATHLEN], list[256];
	int		 i, r;

	if ((r = config_get_str(w, path, o, key, required, 64, &s)) <= 0)
		return r;
	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(names[i], s) == 0) {
			*out = i;
			return 1;
		}
	}
	list[0] = '\0';
	for (i = 0; names[i] != NULL; i++) {
		strncat(list, i > 0 ? ", " : "",
		    sizeof list - strlen(list) - 1);
		strncat(list, names[i], sizeof list - strlen(list) - 1);
	}
	config_path_key(p, path, key);
	config_werr(w, p, "\"%s\" is not one of %s", s, list);
	return -1;
}

/* An array member with 1..max elements; NULL (reported) otherwise. */
struct json_object *
config_get_array(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, size_t max)
{
	struct json_object	*v;
	char			 p[CONFIG_PATHLEN];
	size_t			 n;

	if (member(w, path, o, key, required, json_type_array, &v) != 1)
		return NULL;
	config_path_key(p, path, key);
	if (!config_want(w, p, v, json_type_array))
		return NULL;
	n = json_object_array_length(v);
	if (n == 0) {
		config_werr(w, p, "must not be empty");
		return NULL;
	}
	if (n > max) {
		config_werr(w, p, "has %zu entries, more than %zu", n, max);
		return NULL;
	}
	return v;
}

struct json_object *
config_get_object(struct config_walk *w, const char *path,
    struct json_object *o, const char *key, int required)
{
	struct json_object	*v;
	char			 p[CONFIG_PATHLEN];

	if (member(w, path, o, key, required, json_type_object, &v) != 1)
		return NULL;
	config_path_key(p, path, key);
	if (!config_want(w, p, v, json_type_object))
		return NULL;
	return v;
}

/* ---- patterns -------------------------------------------------------- */

int
config_all_in(const char *s, const char *set)
{
	for (; *s != '\0'; s++)
		if (strchr(set, *s) == NULL)
			return 0;
	return 1;
}

int
config_valid_hostname(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= CONFIG_HOSTNAME_MAX &&
	    islower((unsigned char)*s) &&
	    config_all_in(s, CONFIG_LOWER CONFIG_DIGIT "-");
}

int
config_valid_ifname(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= CONFIG_IFNAME_MAX &&
	    islower((unsigned char)*s) &&
	    config_all_in(s, CONFIG_LOWER CONFIG_DIGIT "_.");
}

int
config_valid_linkname(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= CONFIG_LINKNAME_MAX &&
	    strchr(CONFIG_LOWER CONFIG_DIGIT, *s) != NULL && config_all_in(s,
    CONFIG_LOWER CONFIG_DIGIT "_-");
}

int
config_valid_revision(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= CONFIG_REV_MAX &&
	    config_all_in(s, CONFIG_LOWER CONFIG_UPPER CONFIG_DIGIT "._-");
}

/* ---- tables shared with the schema test ----------------------------- */

const char *const config_keys_inventory[] = { "hosts", "links", "revisions",
	NULL };
const char *const config_keys_host[] = { "name", "os", "address", "ssh",
	"nics", "kernel", "power", NULL };
const char *const config_keys_ssh[] = { "user", "port", "key",
	"known_hosts", NULL };
const char *const config_keys_nic[] = { "name", "driver", "chip", "speed_mbps", "role",
	NULL };
const char *const config_keys_kernel_fbsd[] = { "type", "src", "kernconf",
	"jobs", "kodir", NULL };
const char *const config_keys_kernel_linux[] = { "type", "install",
	"reboot", "verify", NULL };
const char *const config_keys_kernel_command[] = { "type", "install",
	"reboot", "verify", "power_cycle", NULL };
const char *const config_keys_power_command[] = { "command", NULL };
const char *const config_keys_power_url[] = { "url", "method", NULL };
const char *const config_keys_link[] = { "name", "client", "server", "nat",
	NULL };
const char *const config_keys_endpoint[] = { "host", "if", "address", NULL };
const char *const config_keys_plan[] = { "links", "knobs", "per_link",
	"tso_on", "workloads", "repetitions", "timeouts", "retries", "stats",
	"metrics", NULL };
const char *const config_keys_per_link_entry[] = { "knobs", NULL };
const char *const config_keys_workload_iperf[] = { "tool", "len", "window",
	"nodelay", "time", "parallel", "port", "links", NULL };
const char *const config_keys_workload_scp[] = { "tool", "size", "links",
	NULL };
const char *const config_keys_timeouts[] = { "connect", "job", "settle_ms",
    NULL };
const char *const config_keys_stats[] = { "alpha", "min_effect",
	"min_samples", "max_samples", "collapse_factor", "adaptive", NULL };
const char *const config_keys_metric[] = { "lower_is_better", NULL };

static const struct {
	const char		*name;
	const char *const	*keys;
} schema_objects[] = {
	{ "inventory", config_keys_inventory },
	{ "host", config_keys_host },
	{ "ssh", config_keys_ssh },
	{ "nic", config_keys_nic },
	{ "kernel_freebsd_src", config_keys_kernel_fbsd },
	{ "kernel_linux", config_keys_kernel_linux },
	{ "kernel_command", config_keys_kernel_command },
	{ "power_command", config_keys_power_command },
	{ "power_url", config_keys_power_url },
	{ "link", config_keys_link },
	{ "endpoint", config_keys_endpoint },
	{ "plan", config_keys_plan },
	{ "knobs", knobs_names },
	{ "per_link_entry", config_keys_per_link_entry },
	{ "workload_iperf", config_keys_workload_iperf },
	{ "workload_scp", config_keys_workload_scp },
	{ "timeouts", config_keys_timeouts },
	{ "stats", config_keys_stats },
	{ "metric", config_keys_metric },
};
#define NSCHEMA_OBJECTS (sizeof schema_objects / sizeof schema_objects[0])

const char *const *
config_schema_keys(const char *name)
{
	size_t	i;

	for (i = 0; i < NSCHEMA_OBJECTS; i++)
		if (strcmp(schema_objects[i].name, name) == 0)
			return schema_objects[i].keys;
	return NULL;
}

const char *const *
config_schema_objects(void)
{
	static const char	*names[NSCHEMA_OBJECTS + 1];
	size_t			 i;

	for (i = 0; i < NSCHEMA_OBJECTS; i++)
		names[i] = schema_objects[i].name;
	names[i] = NULL;
	return names;
}

const char *const config_os_names[] = { "freebsd", "linux", NULL };
const char *const config_role_names[] = { "test", "management", NULL };
const char *const config_kernel_names[] = { "freebsd-src", "linux",
	"command", NULL };
const char *const config_method_names[] = { "POST", "GET", NULL };
const char *const config_tool_names[] = { "iperf2", "iperf3", "scp", NULL };
const char *const config_tso_on_names[] = { "sender", "both", NULL };

int
config_name_index(const char *const *names, const char *s)
{
	int	i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

const char *
config_tool_name(enum config_tool t)
{
	return (unsigned)t <= CONFIG_TOOL_SCP ? config_tool_names[t] : "?";
}

const char *
config_os_name(enum config_os os)
{
	return (unsigned)os <= CONFIG_OS_LINUX ? config_os_names[os] : "?";
}

static void
set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = s != NULL ? xstrdup(s) : NULL;
}

/*
 * A string member that must satisfy valid(); `what` completes
 * "VALUE is not WHAT".  Returns 1 and sets *dst (heap) when valid.
 */
int
config_get_pattern(struct config_walk *w, const char *path,
    struct json_object *o, const char *key, int required, size_t max,
    int (*valid)(const char *), const char *what, char **dst)
{
	const char	*s;
	char		 p[CONFIG_PATHLEN], val[64];
	int		 r;

	if ((r = config_get_str(w, path, o, key, required, max, &s)) <= 0)
		return r;
	if (!valid(s)) {
		config_path_key(p, path, key);
		config_fmtval(json_object_object_get(o, key), val, sizeof val);
		config_werr(w, p, "%s is not %s", val, what);
		return -1;
	}
	set_str(dst, s);
	return 1;
}

/* ---- templates and quoting ------------------------------------------ */

void
config_argv_free(char **argv)
{
	size_t	i;

	if (argv == NULL)
		return;
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

static char *
expand_one(const char *s, const char *rev, const char *host)
{
	struct buf	b;

	buf_init(&b, CONFIG_ARG_MAX * 4);
	while (*s != '\0') {
		if (strncmp(s, "{rev}", 5) == 0) {
			buf_append(&b, rev, strlen(rev));
			s += 5;
		} else if (strncmp(s, "{host}", 6) == 0) {
			buf_append(&b, host, strlen(host));
			s += 6;
		} else
			buf_append(&b, s++, 1);
	}
	return buf_release(&b);
}

char **
config_template_expand(const struct config_argv *tmpl, const char *rev,
    const char *host, char *err, size_t errlen)
{
	char	**argv;
	size_t	  i;
	int	  uses_rev = 0;

	if (tmpl->argv == NULL || tmpl->argc == 0) {
		util_seterr(err, errlen, "empty command template");
		return NULL;
	}
	for (i = 0; i < tmpl->argc; i++)
		if (strstr(tmpl->argv[i], "{rev}") != NULL)
			uses_rev = 1;
	if (uses_rev && (rev == NULL || !config_valid_revision(rev))) {
		util_seterr(err, errlen, "revision \"%.80s\" is not a "
		    "revision id", rev != NULL ? rev : "(none)");
		return NULL;
	}
	if (host == NULL || !config_valid_hostname(host)) {
		util_seterr(err, errlen, "\"%.80s\" is not a host name",
		    host != NULL ? host : "(none)");
		return NULL;
	}
	argv = xcalloc(tmpl->argc + 1, sizeof *argv);
	for (i = 0; i < tmpl->argc; i++)
		argv[i] = expand_one(tmpl->argv[i], uses_rev ? rev : "", host);
	return argv;
}

char *
config_shell_quote_argv(char *const *argv)
{
	struct buf	 b;
	const char	*s;
	size_t		 i;

	buf_init(&b, (size_t)1 << 24);
	for (i = 0; argv[i] != NULL; i++) {
		if (i > 0)
			buf_append(&b, " ", 1);
		s = argv[i];
		if (*s != '\0' && config_all_in(s,
		    CONFIG_LOWER CONFIG_UPPER CONFIG_DIGIT "_-./:=,+@%")) {
			buf_append(&b, s, strlen(s));
			continue;
		}
		util_shell_quote(&b, s);
	}
	return buf_release(&b);
}
