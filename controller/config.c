/*
 * config: inventory and plan JSON -> typed structs (see config.h).
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

#include "config.h"
#include "log.h"
#include "util.h"

#define PATHLEN		256

struct walk {
	const char		*file;
	struct config_errors	*errs;
	const char		*dir;	/* inventory directory, for paths */
};

static void	 werr(struct walk *, const char *, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
static void	 fmtval(struct json_object *, char *, size_t);
static void	 sub(char *, const char *, const char *);
static void	 idx(char *, const char *, size_t);

/* ---- errors ---------------------------------------------------------- */

void
config_errors_init(struct config_errors *e)
{
	memset(e, 0, sizeof *e);
}

void
config_errors_free(struct config_errors *e)
{
	size_t	i;

	for (i = 0; i < e->n; i++)
		free(e->msgs[i]);
	free(e->msgs);
	memset(e, 0, sizeof *e);
}

static void
errors_vadd(struct config_errors *e, const char *file, const char *path,
    const char *fmt, va_list ap)
{
	char	msg[1024];

	if (e->n >= CONFIG_ERRORS_MAX) {
		e->dropped++;
		return;
	}
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (e->n == e->cap) {
		e->cap = e->cap == 0 ? 16 : e->cap * 2;
		e->msgs = xreallocarray(e->msgs, e->cap, sizeof *e->msgs);
	}
	if (path != NULL && *path != '\0')
		e->msgs[e->n++] = xasprintf("%s: %s: %s", file, path, msg);
	else
		e->msgs[e->n++] = xasprintf("%s: %s", file, msg);
}

void
config_errors_add(struct config_errors *e, const char *file, const char *path,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	errors_vadd(e, file, path, fmt, ap);
	va_end(ap);
}

void
config_errors_read(struct config_errors *e, const char *path,
    const char *err)
{
	size_t	plen = strlen(path);

	/* util_read_file() already names the file. */
	if (strncmp(err, path, plen) == 0 && strncmp(err + plen, ": ", 2) == 0)
		err += plen + 2;
	config_errors_add(e, path, NULL, "%s", err);
}

static void
werr(struct walk *w, const char *path, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	errors_vadd(w->errs, w->file, path, fmt, ap);
	va_end(ap);
}

static size_t
nerrors(struct walk *w)
{
	return w->errs->n + w->errs->dropped;
}

/* ---- paths and values ------------------------------------------------ */

/* Paths longer than PATHLEN (only via long user keys) are cut short. */
static void
sub(char *out, const char *path, const char *key)
{
	int	n;

	if (*path == '\0')
		n = snprintf(out, PATHLEN, "%s", key);
	else
		n = snprintf(out, PATHLEN, "%s.%s", path, key);
	if (n >= PATHLEN)
		memcpy(out + PATHLEN - 4, "...", 4);
}

static void
idx(char *out, const char *path, size_t i)
{
	if (snprintf(out, PATHLEN, "%s[%zu]", path, i) >= PATHLEN)
		memcpy(out + PATHLEN - 4, "...", 4);
}

/* A value as it appears in a message: JSON text, escaped, truncated. */
static void
fmtval(struct json_object *v, char *out, size_t outlen)
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
static int
want(struct walk *w, const char *path, struct json_object *v,
    enum json_type t)
{
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
	fmtval(v, val, sizeof val);
	werr(w, path, "%s is not %s", val, typename(t));
	return 0;
}

/* Unknown keys; `what` qualifies the message ("for tool scp"). */
static void
check_keys(struct walk *w, const char *path, struct json_object *o,
    const char *const *keys, const char *what)
{
	struct json_object_iterator	it, end;
	char				p[PATHLEN];
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
		sub(p, path, k);
		if (what != NULL)
			werr(w, p, "unknown key %s", what);
		else
			werr(w, p, "unknown key");
	}
}

/*
 * Fetches o[key]; reports a missing required key.  JSON null counts as
 * absent only where a caller says so (links[].nat).
 */
static struct json_object *
member(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required)
{
	struct json_object	*v;
	char			 p[PATHLEN];

	if (json_object_object_get_ex(o, key, &v))
		return v;
	if (required) {
		sub(p, path, key);
		werr(w, p, "required key is missing");
	}
	return NULL;
}

/*
 * A string member: required or optional (*out left alone when absent).
 * Refuses embedded NULs, control characters and more than max bytes.
 * Returns 1 when *out was set, 0 when absent, -1 on error.
 */
static int
get_str(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required, size_t max, const char **out)
{
	struct json_object	*v;
	char			 p[PATHLEN], val[64];
	const char		*s;
	size_t			 len, i;

	if ((v = member(w, path, o, key, required)) == NULL)
		return required ? -1 : 0;
	sub(p, path, key);
	if (!want(w, p, v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	len = (size_t)json_object_get_string_len(v);
	fmtval(v, val, sizeof val);
	if (strlen(s) != len) {
		werr(w, p, "%s contains a NUL byte", val);
		return -1;
	}
	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			werr(w, p, "%s contains a control character", val);
			return -1;
		}
	}
	if (len == 0) {
		werr(w, p, "must not be empty");
		return -1;
	}
	if (len > max) {
		werr(w, p, "%s is longer than %zu bytes", val, max);
		return -1;
	}
	*out = s;
	return 1;
}

static int
get_int(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required, long long min, long long max, int *out)
{
	struct json_object	*v;
	char			 p[PATHLEN], val[64];
	int64_t			 n;

	if ((v = member(w, path, o, key, required)) == NULL)
		return required ? -1 : 0;
	sub(p, path, key);
	if (!want(w, p, v, json_type_int))
		return -1;
	n = json_object_get_int64(v);
	if (n < min || n > max) {
		fmtval(v, val, sizeof val);
		werr(w, p, "%s is out of range %lld-%lld", val, min, max);
		return -1;
	}
	*out = (int)n;
	return 1;
}

/* A number in [min, max], or (min, max] when min_open. */
static int
get_num(struct walk *w, const char *path, struct json_object *o,
    const char *key, double min, int min_open, double max, double *out)
{
	struct json_object	*v;
	char			 p[PATHLEN], val[64];
	double			 d;

	if ((v = member(w, path, o, key, 0)) == NULL)
		return 0;
	sub(p, path, key);
	if (!want(w, p, v, json_type_double))
		return -1;
	d = json_object_get_double(v);
	if (d < min || (min_open && d == min) || d > max) {
		fmtval(v, val, sizeof val);
		werr(w, p, "%s is out of range %s%.10g-%.10g]", val,
		    min_open ? "(" : "[", min, max);
		return -1;
	}
	*out = d;
	return 1;
}

static int
get_bool(struct walk *w, const char *path, struct json_object *o,
    const char *key, int *out)
{
	struct json_object	*v;
	char			 p[PATHLEN];

	if ((v = member(w, path, o, key, 0)) == NULL)
		return 0;
	sub(p, path, key);
	if (!want(w, p, v, json_type_boolean))
		return -1;
	*out = json_object_get_boolean(v) ? 1 : 0;
	return 1;
}

/* A string that must be one of names[]; returns its index or -1. */
static int
get_enum(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required, const char *const *names, int *out)
{
	const char	*s;
	char		 p[PATHLEN], list[256];
	int		 i, r;

	if ((r = get_str(w, path, o, key, required, 64, &s)) <= 0)
		return r;
	for (i = 0; names[i] != NULL; i++) {
		if (strcmp(names[i], s) == 0) {
			*out = i;
			return 1;
		}
	}
	list[0] = '\0';
	for (i = 0; names[i] != NULL; i++) {
		strncat(list, i > 0 ? ", " : "", sizeof list - strlen(list) - 1);
		strncat(list, names[i], sizeof list - strlen(list) - 1);
	}
	sub(p, path, key);
	werr(w, p, "\"%s\" is not one of %s", s, list);
	return -1;
}

/* An array member with 1..max elements; NULL (reported) otherwise. */
static struct json_object *
get_array(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required, size_t max)
{
	struct json_object	*v;
	char			 p[PATHLEN];
	size_t			 n;

	if ((v = member(w, path, o, key, required)) == NULL)
		return NULL;
	sub(p, path, key);
	if (!want(w, p, v, json_type_array))
		return NULL;
	n = json_object_array_length(v);
	if (n == 0) {
		werr(w, p, "must not be empty");
		return NULL;
	}
	if (n > max) {
		werr(w, p, "has %zu entries, more than %zu", n, max);
		return NULL;
	}
	return v;
}

static struct json_object *
get_object(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required)
{
	struct json_object	*v;
	char			 p[PATHLEN];

	if ((v = member(w, path, o, key, required)) == NULL)
		return NULL;
	sub(p, path, key);
	if (!want(w, p, v, json_type_object))
		return NULL;
	return v;
}

/* ---- patterns -------------------------------------------------------- */

static int
all_in(const char *s, const char *set)
{
	for (; *s != '\0'; s++)
		if (strchr(set, *s) == NULL)
			return 0;
	return 1;
}

#define LOWER	"abcdefghijklmnopqrstuvwxyz"
#define UPPER	"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define DIGIT	"0123456789"

int
config_valid_hostname(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= CONFIG_HOSTNAME_MAX && islower((unsigned char)*s) &&
	    all_in(s, LOWER DIGIT "-");
}

int
config_valid_ifname(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= CONFIG_IFNAME_MAX && islower((unsigned char)*s) &&
	    all_in(s, LOWER DIGIT "_.");
}

int
config_valid_linkname(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= CONFIG_LINKNAME_MAX &&
	    strchr(LOWER DIGIT, *s) != NULL && all_in(s, LOWER DIGIT "_-");
}

int
config_valid_revision(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= CONFIG_REV_MAX &&
	    all_in(s, LOWER UPPER DIGIT "._-");
}

static int
valid_driver(const char *s)
{
	return islower((unsigned char)*s) && strlen(s) <= 32 &&
	    all_in(s, LOWER DIGIT "_");
}

static int
valid_chip(const char *s)
{
	return strlen(s) == 10 && s[0] == '0' && s[1] == 'x' &&
	    all_in(s + 2, DIGIT "abcdef");
}

static int
valid_user(const char *s)
{
	return (islower((unsigned char)*s) || *s == '_') && strlen(s) <= 32 &&
	    all_in(s, LOWER DIGIT "_-");
}

/* kernconf, kodir: a plain file name. */
static int
valid_filename(const char *s)
{
	return strlen(s) <= 64 && *s != '.' && *s != '-' &&
	    all_in(s, LOWER UPPER DIGIT "_.-");
}

static int
valid_ipaddr(const char *s)
{
	unsigned char	buf[16];

	return inet_pton(AF_INET, s, buf) == 1 ||
	    inet_pton(AF_INET6, s, buf) == 1;
}

/* RFC 1123 names; an all-numeric last label is a mistyped IPv4 address. */
static int
valid_dnsname(const char *s)
{
	const char	*label = s, *p;
	size_t		 len;

	if (strlen(s) > 253)
		return 0;
	for (;;) {
		p = strchr(label, '.');
		len = p != NULL ? (size_t)(p - label) : strlen(label);
		if (len == 0 || len > 63 || label[0] == '-' ||
		    label[len - 1] == '-')
			return 0;
		for (size_t i = 0; i < len; i++)
			if (!isalnum((unsigned char)label[i]) &&
			    label[i] != '-')
				return 0;
		if (p == NULL)
			break;
		label = p + 1;
	}
	return strspn(label, DIGIT) != strlen(label);
}

static int
valid_address(const char *s)
{
	return valid_ipaddr(s) || valid_dnsname(s);
}

/* Checks a template element's placeholders against the allowed ones. */
static const char *
bad_placeholder(const char *s, int allow_rev)
{
	for (; *s != '\0'; s++) {
		if (*s == '{') {
			if (strncmp(s, "{host}", 6) == 0)
				s += 5;
			else if (allow_rev && strncmp(s, "{rev}", 5) == 0)
				s += 4;
			else
				return s;
		} else if (*s == '}')
			return s;
	}
	return NULL;
}

/* ---- tables shared with the schema test ----------------------------- */

static const char *const keys_inventory[] = { "hosts", "links", NULL };
static const char *const keys_host[] = { "name", "os", "address", "ssh",
	"nics", "kernel", "power", NULL };
static const char *const keys_ssh[] = { "user", "port", "key",
	"known_hosts", NULL };
static const char *const keys_nic[] = { "name", "driver", "chip", "role",
	NULL };
static const char *const keys_kernel_fbsd[] = { "type", "src", "kernconf",
	"jobs", "kodir", NULL };
static const char *const keys_kernel_linux[] = { "type", "install",
	"reboot", "verify", NULL };
static const char *const keys_kernel_command[] = { "type", "install",
	"reboot", "verify", "power_cycle", NULL };
static const char *const keys_power_command[] = { "command", NULL };
static const char *const keys_power_url[] = { "url", "method", NULL };
static const char *const keys_link[] = { "name", "client", "server", "nat",
	NULL };
static const char *const keys_endpoint[] = { "host", "if", "address", NULL };
static const char *const keys_plan[] = { "links", "knobs", "per_link",
	"tso_on", "workloads", "repetitions", "timeouts", "retries", "stats",
	NULL };
static const char *const keys_knobs[] = { "lro", "mtu", "nat", "rxcsum",
	"tso", "txcsum", NULL };
static const char *const keys_per_link_entry[] = { "knobs", NULL };
static const char *const keys_workload_iperf[] = { "tool", "len", "window",
	"nodelay", "time", "parallel", "links", NULL };
static const char *const keys_workload_scp[] = { "tool", "size", "links",
	NULL };
static const char *const keys_timeouts[] = { "connect", "job", NULL };
static const char *const keys_stats[] = { "alpha", "min_effect",
	"min_samples", "max_samples", "collapse_factor", "adaptive", NULL };

static const struct {
	const char		*name;
	const char *const	*keys;
} schema_objects[] = {
	{ "inventory", keys_inventory },
	{ "host", keys_host },
	{ "ssh", keys_ssh },
	{ "nic", keys_nic },
	{ "kernel_freebsd_src", keys_kernel_fbsd },
	{ "kernel_linux", keys_kernel_linux },
	{ "kernel_command", keys_kernel_command },
	{ "power_command", keys_power_command },
	{ "power_url", keys_power_url },
	{ "link", keys_link },
	{ "endpoint", keys_endpoint },
	{ "plan", keys_plan },
	{ "knobs", keys_knobs },
	{ "per_link_entry", keys_per_link_entry },
	{ "workload_iperf", keys_workload_iperf },
	{ "workload_scp", keys_workload_scp },
	{ "timeouts", keys_timeouts },
	{ "stats", keys_stats },
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

static const char *const os_names[] = { "freebsd", "linux", NULL };
static const char *const role_names[] = { "test", "management", NULL };
static const char *const kernel_names[] = { "freebsd-src", "linux",
	"command", NULL };
static const char *const method_names[] = { "POST", "GET", NULL };
static const char *const knob_names[] = { "lro", "mtu", "nat", "rxcsum",
	"tso", "txcsum", NULL };
static const char *const nat_names[] = { "off", "divert", "kernel", NULL };
static const char *const tool_names[] = { "iperf2", "iperf3", "scp", NULL };
static const char *const tso_on_names[] = { "sender", "both", NULL };

static int
name_index(const char *const *names, const char *s)
{
	int	i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

const char *
config_knob_name(enum config_knob k)
{
	return (unsigned)k < CONFIG_KNOB_COUNT ? knob_names[k] : "?";
}

int
config_knob_from_name(const char *s)
{
	return name_index(knob_names, s);
}

const char *
config_nat_name(enum config_nat n)
{
	return (unsigned)n <= CONFIG_NAT_KERNEL ? nat_names[n] : "?";
}

int
config_nat_from_name(const char *s)
{
	return name_index(nat_names, s);
}

const char *
config_tool_name(enum config_tool t)
{
	return (unsigned)t <= CONFIG_TOOL_SCP ? tool_names[t] : "?";
}

const char *
config_os_name(enum config_os os)
{
	return (unsigned)os <= CONFIG_OS_LINUX ? os_names[os] : "?";
}

/* ---- JSON text ------------------------------------------------------- */

/* Parses text into a JSON object; NULL with a "file: ..." error. */
static struct json_object *
parse_text(const char *file, const char *text, size_t len,
    struct config_errors *errs)
{
	struct json_tokener	*tok;
	struct json_object	*root;
	enum json_tokener_error	 jerr;
	size_t			 end, i, line = 1;

	if (len > CONFIG_FILE_MAX) {
		config_errors_add(errs, file, NULL, "larger than %d bytes",
		    CONFIG_FILE_MAX);
		return NULL;
	}
	if ((tok = json_tokener_new_ex(32)) == NULL)
		fatalx("json_tokener_new_ex: out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
	    JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	for (i = 0; i < end && i < len; i++)
		if (text[i] == '\n')
			line++;
	if (root == NULL) {
		if (jerr == json_tokener_continue)
			config_errors_add(errs, file, NULL, "invalid JSON: "
			    "unexpected end of file");
		else
			config_errors_add(errs, file, NULL, "invalid JSON at "
			    "line %zu: %s", line, json_tokener_error_desc(jerr));
		return NULL;
	}
	if (!json_object_is_type(root, json_type_object)) {
		config_errors_add(errs, file, NULL, "the top level is not a "
		    "JSON object");
		json_object_put(root);
		return NULL;
	}
	return root;
}

enum config_kind
config_detect(const char *path, const char *text, size_t len,
    struct config_errors *errs)
{
	struct json_object	*root;
	enum config_kind	 kind = CONFIG_KIND_UNKNOWN;

	if ((root = parse_text(path, text, len, errs)) == NULL)
		return kind;
	if (json_object_object_get_ex(root, "hosts", NULL))
		kind = CONFIG_KIND_INVENTORY;
	else if (json_object_object_get_ex(root, "workloads", NULL) ||
	    json_object_object_get_ex(root, "knobs", NULL))
		kind = CONFIG_KIND_PLAN;
	else
		config_errors_add(errs, path, NULL, "neither an inventory (no "
		    "\"hosts\") nor a plan (no \"workloads\")");
	json_object_put(root);
	return kind;
}

static char *
read_config(const char *path, size_t *lenp, struct config_errors *errs)
{
	char	 err[512], *text;

	text = util_read_file(path, CONFIG_FILE_MAX, lenp, err, sizeof err);
	if (text == NULL)
		config_errors_read(errs, path, err);
	return text;
}


/* ---- inventory ------------------------------------------------------- */

/* Relative paths are relative to the inventory's directory. */
static char *
resolve_path(struct walk *w, const char *s)
{
	if (s[0] == '/' || w->dir == NULL)
		return xstrdup(s);
	return xasprintf("%s/%s", w->dir, s);
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
static int
get_pattern(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required, size_t max, int (*valid)(const char *),
    const char *what, char **dst)
{
	const char	*s;
	char		 p[PATHLEN], val[64];
	int		 r;

	if ((r = get_str(w, path, o, key, required, max, &s)) <= 0)
		return r;
	if (!valid(s)) {
		sub(p, path, key);
		fmtval(json_object_object_get(o, key), val, sizeof val);
		werr(w, p, "%s is not %s", val, what);
		return -1;
	}
	set_str(dst, s);
	return 1;
}

static int
valid_abspath(const char *s)
{
	return s[0] == '/';
}

static int
valid_any(const char *s)
{
	(void)s;
	return 1;
}

static int
valid_url(const char *s)
{
	size_t	i;

	if (strncmp(s, "http://", 7) != 0 && strncmp(s, "https://", 8) != 0)
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (s[i] == ' ' || (unsigned char)s[i] > 0x7e)
			return 0;
	return strlen(s) > 8;
}

static void
argv_clear(struct config_argv *a)
{
	size_t	i;

	for (i = 0; i < a->argc; i++)
		free(a->argv[i]);
	free(a->argv);
	a->argv = NULL;
	a->argc = 0;
}

/*
 * A command template: an array of strings whose placeholders are {host}
 * (and {rev} when allow_rev).  need_rev: the template must use {rev}, as an
 * install command that ignores the revision would install something else.
 */
static void
get_template(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required, int allow_rev, int need_rev,
    struct config_argv *out)
{
	struct json_object	*arr, *v;
	char			 p[PATHLEN], ep[PATHLEN], val[64];
	const char		*s, *bad;
	size_t			 i, n, len, before = nerrors(w);
	int			 has_rev = 0;

	if ((arr = get_array(w, path, o, key, required, CONFIG_ARGV_MAX)) ==
	    NULL)
		return;
	sub(p, path, key);
	n = json_object_array_length(arr);
	out->argv = xcalloc(n + 1, sizeof *out->argv);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		idx(ep, p, i);
		if (!want(w, ep, v, json_type_string))
			continue;
		s = json_object_get_string(v);
		fmtval(v, val, sizeof val);
		if (strlen(s) != (size_t)json_object_get_string_len(v) ||
		    strpbrk(s, "\n\r") != NULL) {
			werr(w, ep, "%s contains a control character", val);
			continue;
		}
		if (strlen(s) > CONFIG_ARG_MAX || (i == 0 && *s == '\0')) {
			werr(w, ep, "%s: bad length", val);
			continue;
		}
		if ((bad = bad_placeholder(s, allow_rev)) != NULL) {
			len = strcspn(bad + 1, "{}") + 2;
			if (*bad == '}' || bad[len - 1] != '}' || len > 20)
				werr(w, ep, "%s has an unmatched brace", val);
			else
				werr(w, ep, "%s uses %.*s; only %s allowed",
				    val, (int)len, bad, allow_rev ?
				    "{rev} and {host} are" : "{host} is");
			continue;
		}
		if (strstr(s, "{rev}") != NULL)
			has_rev = 1;
		out->argv[out->argc++] = xstrdup(s);
	}
	if (nerrors(w) == before && need_rev && !has_rev)
		werr(w, p, "does not use {rev}");
	if (nerrors(w) != before)
		argv_clear(out);
}

static void
parse_ssh(struct walk *w, const char *path, struct json_object *o,
    struct config_ssh *ssh)
{
	char	*tmp = NULL;

	ssh->user = xstrdup("root");
	ssh->port = 22;
	check_keys(w, path, o, keys_ssh, NULL);
	get_pattern(w, path, o, "user", 0, 32, valid_user, "a user name",
	    &ssh->user);
	get_int(w, path, o, "port", 0, 1, 65535, &ssh->port);
	if (get_pattern(w, path, o, "key", 1, CONFIG_PATH_MAX, valid_any,
	    "a path", &tmp) == 1)
		ssh->key = resolve_path(w, tmp);
	free(tmp);
	tmp = NULL;
	if (get_pattern(w, path, o, "known_hosts", 1, CONFIG_PATH_MAX,
	    valid_any, "a path", &tmp) == 1)
		ssh->known_hosts = resolve_path(w, tmp);
	free(tmp);
}

static void
parse_nic(struct walk *w, const char *path, struct json_object *o,
    struct config_nic *nic)
{
	int	role = CONFIG_ROLE_TEST;

	check_keys(w, path, o, keys_nic, NULL);
	get_pattern(w, path, o, "name", 1, CONFIG_IFNAME_MAX,
	    config_valid_ifname, "an interface name", &nic->name);
	get_pattern(w, path, o, "driver", 1, 32, valid_driver,
	    "a driver name", &nic->driver);
	get_pattern(w, path, o, "chip", 0, 10, valid_chip,
	    "a PCI chip id like 0x10968086", &nic->chip);
	get_enum(w, path, o, "role", 1, role_names, &role);
	nic->role = role;
}

static void
parse_kernel(struct walk *w, const char *path, struct json_object *o,
    struct config_kernel *k)
{
	int	type;

	if (get_enum(w, path, o, "type", 1, kernel_names, &type) != 1)
		return;
	k->type = (enum config_kernel_type)(type + 1);
	switch (k->type) {
	case CONFIG_KERNEL_FREEBSD_SRC:
		check_keys(w, path, o, keys_kernel_fbsd,
		    "for type freebsd-src");
		k->src = xstrdup("/usr/src");
		k->kernconf = xstrdup("GENERIC");
		k->kodir = xstrdup("labrat");
		k->jobs = 4;
		get_pattern(w, path, o, "src", 0, CONFIG_PATH_MAX,
		    valid_abspath, "an absolute path", &k->src);
		get_pattern(w, path, o, "kernconf", 0, 64, valid_filename,
		    "a kernel config name", &k->kernconf);
		get_int(w, path, o, "jobs", 0, 1, 256, &k->jobs);
		get_pattern(w, path, o, "kodir", 0, 64, valid_filename,
		    "a directory name", &k->kodir);
		break;
	case CONFIG_KERNEL_LINUX:
		check_keys(w, path, o, keys_kernel_linux, "for type linux");
		get_template(w, path, o, "install", 0, 1, 1, &k->install);
		get_template(w, path, o, "reboot", 0, 1, 0, &k->reboot);
		get_template(w, path, o, "verify", 0, 1, 0, &k->verify);
		break;
	default:
		check_keys(w, path, o, keys_kernel_command,
		    "for type command");
		get_template(w, path, o, "install", 1, 1, 1, &k->install);
		get_template(w, path, o, "reboot", 1, 1, 0, &k->reboot);
		get_template(w, path, o, "verify", 1, 1, 0, &k->verify);
		get_template(w, path, o, "power_cycle", 0, 0, 0,
		    &k->power_cycle);
		break;
	}
}

static void
parse_power(struct walk *w, const char *path, struct json_object *o,
    struct config_power *pw)
{
	int	has_cmd, has_url, method = 0;

	has_cmd = json_object_object_get_ex(o, "command", NULL);
	has_url = json_object_object_get_ex(o, "url", NULL);
	if (has_cmd && has_url) {
		werr(w, path, "has both \"command\" and \"url\"");
		return;
	}
	if (has_cmd) {
		pw->type = CONFIG_POWER_COMMAND;
		check_keys(w, path, o, keys_power_command,
		    "for a power command");
		get_template(w, path, o, "command", 1, 0, 0, &pw->command);
	} else if (has_url) {
		pw->type = CONFIG_POWER_URL;
		check_keys(w, path, o, keys_power_url, "for a power URL");
		get_pattern(w, path, o, "url", 1, CONFIG_PATH_MAX, valid_url,
		    "an http:// or https:// URL", &pw->url);
		get_enum(w, path, o, "method", 0, method_names, &method);
		pw->method = xstrdup(method_names[method]);
	} else
		werr(w, path, "needs \"command\" or \"url\"");
}

static void
parse_host(struct walk *w, const char *path, struct json_object *o,
    struct config_host *h)
{
	struct json_object	*v, *arr;
	char			 p[PATHLEN], np[PATHLEN], q[PATHLEN];
	size_t			 i, j, n;
	int			 os = 0;

	check_keys(w, path, o, keys_host, NULL);
	get_pattern(w, path, o, "name", 1, CONFIG_HOSTNAME_MAX,
	    config_valid_hostname, "a host name", &h->name);
	if (get_enum(w, path, o, "os", 1, os_names, &os) == 1)
		h->os = os;
	get_pattern(w, path, o, "address", 1, 253, valid_address,
	    "an IP address or DNS name", &h->address);
	if ((v = get_object(w, path, o, "ssh", 1)) != NULL) {
		sub(p, path, "ssh");
		parse_ssh(w, p, v, &h->ssh);
	}
	if ((arr = get_array(w, path, o, "nics", 1, CONFIG_NICS_MAX)) !=
	    NULL) {
		sub(p, path, "nics");
		n = json_object_array_length(arr);
		h->nics = xcalloc(n, sizeof *h->nics);
		h->nnics = n;
		for (i = 0; i < n; i++) {
			v = json_object_array_get_idx(arr, i);
			idx(np, p, i);
			if (want(w, np, v, json_type_object))
				parse_nic(w, np, v, &h->nics[i]);
			for (j = 0; j < i && h->nics[i].name != NULL; j++) {
				if (h->nics[j].name == NULL ||
				    strcmp(h->nics[j].name, h->nics[i].name))
					continue;
				sub(q, np, "name");
				werr(w, q, "duplicate nic \"%s\" (also "
				    "%s[%zu])", h->nics[i].name, p, j);
				break;
			}
		}
	}
	if ((v = get_object(w, path, o, "kernel", 0)) != NULL) {
		sub(p, path, "kernel");
		parse_kernel(w, p, v, &h->kernel);
	}
	if ((v = get_object(w, path, o, "power", 0)) != NULL) {
		sub(p, path, "power");
		parse_power(w, p, v, &h->power);
	}
}

static size_t
host_index(const struct config_inventory *inv, const char *name)
{
	size_t	i;

	for (i = 0; i < inv->nhosts; i++)
		if (inv->hosts[i].name != NULL &&
		    strcmp(inv->hosts[i].name, name) == 0)
			return i;
	return (size_t)-1;
}

static void
parse_endpoint(struct walk *w, const char *path, struct json_object *o,
    const struct config_inventory *inv, struct config_endpoint *ep)
{
	const struct config_host	*h;
	char				 p[PATHLEN];

	check_keys(w, path, o, keys_endpoint, NULL);
	get_pattern(w, path, o, "address", 1, 64, valid_ipaddr,
	    "an IPv4 or IPv6 address", &ep->address);
	if (get_pattern(w, path, o, "host", 1, CONFIG_HOSTNAME_MAX,
	    config_valid_hostname, "a host name", &ep->host) == 1) {
		ep->host_index = host_index(inv, ep->host);
		if (ep->host_index == (size_t)-1) {
			sub(p, path, "host");
			werr(w, p, "no host named \"%s\"", ep->host);
		}
	}
	if (get_pattern(w, path, o, "if", 1, CONFIG_IFNAME_MAX,
	    config_valid_ifname, "an interface name", &ep->ifname) != 1 ||
	    ep->host_index == (size_t)-1)
		return;
	h = &inv->hosts[ep->host_index];
	if (config_host_nic(h, ep->ifname) == NULL) {
		sub(p, path, "if");
		werr(w, p, "host \"%s\" has no nic \"%s\"", h->name,
		    ep->ifname);
	}
}

static void
parse_link(struct walk *w, const char *path, struct json_object *o,
    const struct config_inventory *inv, struct config_link *l)
{
	struct json_object	*v;
	char			 p[PATHLEN], val[64];

	check_keys(w, path, o, keys_link, NULL);
	get_pattern(w, path, o, "name", 1, CONFIG_LINKNAME_MAX,
	    config_valid_linkname, "a link name", &l->name);
	l->client.host_index = l->server.host_index = (size_t)-1;
	if ((v = get_object(w, path, o, "client", 1)) != NULL) {
		sub(p, path, "client");
		parse_endpoint(w, p, v, inv, &l->client);
	}
	if ((v = get_object(w, path, o, "server", 1)) != NULL) {
		sub(p, path, "server");
		parse_endpoint(w, p, v, inv, &l->server);
	}
	if (l->client.host != NULL && l->server.host != NULL &&
	    strcmp(l->client.host, l->server.host) == 0) {
		sub(p, path, "server.host");
		werr(w, p, "\"%s\" is also the client", l->server.host);
	}
	sub(p, path, "nat");
	v = member(w, path, o, "nat", 0);
	if (v == NULL || json_object_is_type(v, json_type_null))
		return;
	if (!json_object_is_type(v, json_type_string)) {
		fmtval(v, val, sizeof val);
		werr(w, p, "%s is neither null nor a host name", val);
		return;
	}
	if (get_pattern(w, path, o, "nat", 1, CONFIG_HOSTNAME_MAX,
	    config_valid_hostname, "a host name", &l->nat) != 1)
		return;
	if (l->client.host != NULL && strcmp(l->nat, l->client.host) == 0)
		l->nat_side = CONFIG_NAT_SIDE_CLIENT;
	else if (l->server.host != NULL && strcmp(l->nat, l->server.host) == 0)
		l->nat_side = CONFIG_NAT_SIDE_SERVER;
	else
		werr(w, p, "\"%s\" is not a host of link \"%s\"", l->nat,
		    l->name != NULL ? l->name : "?");
}

/* Duplicate names among the first n entries of an array of structs. */
static void
check_dups(struct walk *w, const char *arrpath, const char *what,
    char **names, size_t n)
{
	char	p[PATHLEN];
	size_t	i, j;

	for (i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		for (j = 0; j < i; j++) {
			if (names[j] == NULL || strcmp(names[i], names[j]))
				continue;
			snprintf(p, sizeof p, "%s[%zu].name", arrpath, i);
			werr(w, p, "duplicate %s \"%s\" (also %s[%zu])", what,
			    names[i], arrpath, j);
			break;
		}
	}
}

static void
parse_inventory(struct walk *w, struct json_object *root,
    struct config_inventory *inv)
{
	struct json_object	*hosts, *links, *v;
	char			 p[PATHLEN];
	char			**names;
	size_t			 i, n;

	check_keys(w, "", root, keys_inventory, NULL);
	if ((hosts = get_array(w, "", root, "hosts", 1, CONFIG_HOSTS_MAX)) !=
	    NULL) {
		n = json_object_array_length(hosts);
		inv->hosts = xcalloc(n, sizeof *inv->hosts);
		inv->nhosts = n;
		names = xcalloc(n, sizeof *names);
		for (i = 0; i < n; i++) {
			v = json_object_array_get_idx(hosts, i);
			idx(p, "hosts", i);
			if (want(w, p, v, json_type_object))
				parse_host(w, p, v, &inv->hosts[i]);
			names[i] = inv->hosts[i].name;
		}
		check_dups(w, "hosts", "host name", names, n);
		free(names);
	}
	if ((links = get_array(w, "", root, "links", 1, CONFIG_LINKS_MAX)) ==
	    NULL)
		return;
	n = json_object_array_length(links);
	inv->links = xcalloc(n, sizeof *inv->links);
	inv->nlinks = n;
	names = xcalloc(n, sizeof *names);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(links, i);
		idx(p, "links", i);
		if (want(w, p, v, json_type_object))
			parse_link(w, p, v, inv, &inv->links[i]);
		names[i] = inv->links[i].name;
	}
	check_dups(w, "links", "link name", names, n);
	free(names);
}

/* The directory of path, absolute (relative to the working directory). */
static char *
dir_of(const char *path)
{
	char	 cwd[4096], *d, *slash;

	d = xstrdup(path);
	slash = strrchr(d, '/');
	if (slash == d)
		d[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
	else {
		free(d);
		d = xstrdup(".");
	}
	if (d[0] == '/')
		return d;
	if (getcwd(cwd, sizeof cwd) == NULL) {
		log_warn("getcwd");
		return d;
	}
	slash = strcmp(d, ".") == 0 ? xstrdup(cwd) :
	    xasprintf("%s/%s", cwd, d);
	free(d);
	return slash;
}

struct config_inventory *
config_inventory_parse(const char *path, const char *text, size_t len,
    struct config_errors *errs)
{
	struct config_inventory	*inv;
	struct json_object	*root;
	struct walk		 w;
	size_t			 before = errs->n + errs->dropped;

	if ((root = parse_text(path, text, len, errs)) == NULL)
		return NULL;
	inv = xcalloc(1, sizeof *inv);
	inv->path = xstrdup(path);
	inv->dir = dir_of(path);
	w.file = path;
	w.errs = errs;
	w.dir = inv->dir;
	parse_inventory(&w, root, inv);
	json_object_put(root);
	if (errs->n + errs->dropped != before) {
		config_inventory_free(inv);
		return NULL;
	}
	return inv;
}

struct config_inventory *
config_inventory_load(const char *path, struct config_errors *errs)
{
	struct config_inventory	*inv;
	char			*text;
	size_t			 len;

	if ((text = read_config(path, &len, errs)) == NULL)
		return NULL;
	inv = config_inventory_parse(path, text, len, errs);
	free(text);
	return inv;
}

static void
host_free(struct config_host *h)
{
	size_t	i;

	free(h->name);
	free(h->address);
	free(h->ssh.user);
	free(h->ssh.key);
	free(h->ssh.known_hosts);
	for (i = 0; i < h->nnics; i++) {
		free(h->nics[i].name);
		free(h->nics[i].driver);
		free(h->nics[i].chip);
	}
	free(h->nics);
	free(h->kernel.src);
	free(h->kernel.kernconf);
	free(h->kernel.kodir);
	argv_clear(&h->kernel.install);
	argv_clear(&h->kernel.reboot);
	argv_clear(&h->kernel.verify);
	argv_clear(&h->kernel.power_cycle);
	argv_clear(&h->power.command);
	free(h->power.url);
	free(h->power.method);
}

static void
endpoint_free(struct config_endpoint *ep)
{
	free(ep->host);
	free(ep->ifname);
	free(ep->address);
}

void
config_inventory_free(struct config_inventory *inv)
{
	size_t	i;

	if (inv == NULL)
		return;
	for (i = 0; i < inv->nhosts; i++)
		host_free(&inv->hosts[i]);
	free(inv->hosts);
	for (i = 0; i < inv->nlinks; i++) {
		free(inv->links[i].name);
		endpoint_free(&inv->links[i].client);
		endpoint_free(&inv->links[i].server);
		free(inv->links[i].nat);
	}
	free(inv->links);
	free(inv->path);
	free(inv->dir);
	free(inv);
}

const struct config_host *
config_inventory_host(const struct config_inventory *inv, const char *name)
{
	size_t	i = host_index(inv, name);

	return i == (size_t)-1 ? NULL : &inv->hosts[i];
}

const struct config_link *
config_inventory_link(const struct config_inventory *inv, const char *name)
{
	size_t	i;

	for (i = 0; i < inv->nlinks; i++)
		if (inv->links[i].name != NULL &&
		    strcmp(inv->links[i].name, name) == 0)
			return &inv->links[i];
	return NULL;
}

const struct config_nic *
config_host_nic(const struct config_host *h, const char *ifname)
{
	size_t	i;

	for (i = 0; i < h->nnics; i++)
		if (h->nics[i].name != NULL &&
		    strcmp(h->nics[i].name, ifname) == 0)
			return &h->nics[i];
	return NULL;
}

/* ---- plan ------------------------------------------------------------ */

static int
valid_size(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= 20 && isdigit((unsigned char)s[0]) &&
	    strspn(s, DIGIT) >= len - 1 &&
	    (isdigit((unsigned char)s[len - 1]) ||
	    strchr("kKmMgG", s[len - 1]) != NULL);
}

/* "512k" -> 524288; 0 when out of range (1 .. 64G). */
static uint64_t
size_bytes(const char *s)
{
	unsigned long long	 n;
	char			*end;
	uint64_t		 mult = 1;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno != 0)
		return 0;
	if (*end == 'k' || *end == 'K')
		mult = 1024;
	else if (*end == 'm' || *end == 'M')
		mult = 1024 * 1024;
	else if (*end == 'g' || *end == 'G')
		mult = 1024 * 1024 * 1024;
	if (n == 0 || n > (UINT64_C(64) << 30) / mult)
		return 0;
	return n * mult;
}

static int
get_size(struct walk *w, const char *path, struct json_object *o,
    const char *key, int required, char **str, uint64_t *bytes)
{
	char	p[PATHLEN];

	if (get_pattern(w, path, o, key, required, 20, valid_size,
	    "a size like 512k, 1M or 1048576", str) != 1)
		return -1;
	if ((*bytes = size_bytes(*str)) == 0) {
		sub(p, path, key);
		werr(w, p, "\"%s\" is out of range 1-64G", *str);
		return -1;
	}
	return 1;
}

/* One knob list: booleans, MTUs or NAT modes, no duplicates. */
static void
parse_knoblist(struct walk *w, const char *path, struct json_object *o,
    enum config_knob k, struct config_knoblist *kl)
{
	struct json_object	*arr, *v;
	char			 p[PATHLEN], ep[PATHLEN], val[64];
	size_t			 i, j, n;
	int			 x;

	if ((arr = get_array(w, path, o, knob_names[k], 0,
	    CONFIG_KNOB_VALUES_MAX)) == NULL)
		return;
	sub(p, path, knob_names[k]);
	n = json_object_array_length(arr);
	kl->present = 1;
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		idx(ep, p, i);
		fmtval(v, val, sizeof val);
		if (k == CONFIG_KNOB_MTU) {
			if (!want(w, ep, v, json_type_int))
				continue;
			if (json_object_get_int64(v) < 576 ||
			    json_object_get_int64(v) > 65535) {
				werr(w, ep, "%s is out of range 576-65535",
				    val);
				continue;
			}
			x = (int)json_object_get_int64(v);
		} else if (k == CONFIG_KNOB_NAT) {
			if (!want(w, ep, v, json_type_string))
				continue;
			x = name_index(nat_names, json_object_get_string(v));
			if (x < 0) {
				werr(w, ep, "%s is not one of off, divert, "
				    "kernel", val);
				continue;
			}
		} else {
			if (!want(w, ep, v, json_type_boolean))
				continue;
			x = json_object_get_boolean(v) ? 1 : 0;
		}
		for (j = 0; j < kl->n; j++)
			if (kl->values[j] == x)
				break;
		if (j < kl->n) {
			werr(w, ep, "%s is listed twice", val);
			continue;
		}
		kl->values[kl->n++] = x;
	}
	if (kl->n == 0)
		kl->present = 0;
}

static void
parse_knobs(struct walk *w, const char *path, struct json_object *o,
    struct config_knobset *ks)
{
	int	k;

	check_keys(w, path, o, keys_knobs, NULL);
	for (k = 0; k < CONFIG_KNOB_COUNT; k++)
		parse_knoblist(w, path, o, k, &ks->knob[k]);
}

static int	plan_has_link(const struct config_plan *, const char *);

/* A workload's "links": names from the plan's links, no duplicates. */
static void
parse_workload_links(struct walk *w, const char *path, struct json_object *o,
    const struct config_plan *plan, struct config_workload *wl)
{
	struct json_object	*arr, *v;
	char			 p[PATHLEN], ep[PATHLEN], val[64];
	const char		*s;
	size_t			 i, j, n;

	if ((arr = get_array(w, path, o, "links", 0, CONFIG_LINKS_MAX)) ==
	    NULL)
		return;
	sub(p, path, "links");
	n = json_object_array_length(arr);
	wl->links = xcalloc(n, sizeof *wl->links);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		idx(ep, p, i);
		if (!want(w, ep, v, json_type_string))
			continue;
		s = json_object_get_string(v);
		fmtval(v, val, sizeof val);
		if (!plan_has_link(plan, s)) {
			werr(w, ep, "%s is not in links", val);
			continue;
		}
		for (j = 0; j < wl->nlinks; j++)
			if (strcmp(wl->links[j], s) == 0)
				break;
		if (j < wl->nlinks)
			werr(w, ep, "%s is listed twice", val);
		else
			wl->links[wl->nlinks++] = xstrdup(s);
	}
}

int
config_workload_on_link(const struct config_workload *wl, const char *link)
{
	size_t	i;

	if (wl->links == NULL)
		return 1;
	for (i = 0; i < wl->nlinks; i++)
		if (strcmp(wl->links[i], link) == 0)
			return 1;
	return 0;
}

static void
parse_workload(struct walk *w, const char *path, struct json_object *o,
    const struct config_plan *plan, struct config_workload *wl)
{
	int	tool;

	wl->time = 10;
	wl->parallel = 1;
	if (get_enum(w, path, o, "tool", 1, tool_names, &tool) != 1)
		return;
	wl->tool = tool;
	parse_workload_links(w, path, o, plan, wl);
	if (wl->tool == CONFIG_TOOL_SCP) {
		check_keys(w, path, o, keys_workload_scp, "for tool scp");
		get_size(w, path, o, "size", 1, &wl->size, &wl->size_bytes);
		return;
	}
	check_keys(w, path, o, keys_workload_iperf, wl->tool ==
	    CONFIG_TOOL_IPERF2 ? "for tool iperf2" : "for tool iperf3");
	if (json_object_object_get_ex(o, "len", NULL))
		get_size(w, path, o, "len", 1, &wl->len, &wl->len_bytes);
	if (json_object_object_get_ex(o, "window", NULL))
		get_size(w, path, o, "window", 1, &wl->window,
		    &wl->window_bytes);
	get_bool(w, path, o, "nodelay", &wl->nodelay);
	get_int(w, path, o, "time", 0, 1, 3600, &wl->time);
	get_int(w, path, o, "parallel", 0, 1, 128, &wl->parallel);
}

static void
parse_stats(struct walk *w, const char *path, struct json_object *o,
    struct config_stats *st)
{
	char	p[PATHLEN];

	check_keys(w, path, o, keys_stats, NULL);
	get_num(w, path, o, "alpha", 0, 1, 0.5, &st->alpha);
	get_num(w, path, o, "min_effect", 0, 0, 1, &st->min_effect);
	get_int(w, path, o, "min_samples", 0, 2, 1000, &st->min_samples);
	get_int(w, path, o, "max_samples", 0, 2, 10000, &st->max_samples);
	get_num(w, path, o, "collapse_factor", 1, 1, 1e6,
	    &st->collapse_factor);
	get_bool(w, path, o, "adaptive", &st->adaptive);
	if (st->max_samples < st->min_samples) {
		sub(p, path, "max_samples");
		werr(w, p, "%d is less than min_samples (%d)",
		    st->max_samples, st->min_samples);
	}
}

static int
plan_has_link(const struct config_plan *plan, const char *name)
{
	size_t	i;

	for (i = 0; i < plan->nlinks; i++)
		if (plan->links[i] != NULL && strcmp(plan->links[i], name) == 0)
			return 1;
	return 0;
}

static void
parse_per_link(struct walk *w, struct json_object *o,
    struct config_plan *plan)
{
	struct json_object_iterator	 it, end;
	struct json_object		*v, *k;
	struct config_link_knobs	*lk;
	char				 p[PATHLEN], kp[PATHLEN];
	const char			*name;

	plan->per_link = xcalloc(CONFIG_LINKS_MAX, sizeof *plan->per_link);
	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	for (; !json_object_iter_equal(&it, &end);
	    json_object_iter_next(&it)) {
		name = json_object_iter_peek_name(&it);
		v = json_object_iter_peek_value(&it);
		sub(p, "per_link", name);
		if (!plan_has_link(plan, name)) {
			werr(w, p, "link \"%s\" is not in links", name);
			continue;
		}
		if (!want(w, p, v, json_type_object) ||
		    plan->nper_link == CONFIG_LINKS_MAX)
			continue;
		check_keys(w, p, v, keys_per_link_entry, NULL);
		if ((k = get_object(w, p, v, "knobs", 1)) == NULL)
			continue;
		lk = &plan->per_link[plan->nper_link++];
		lk->link = xstrdup(name);
		sub(kp, p, "knobs");
		parse_knobs(w, kp, k, &lk->knobs);
	}
}

static void
parse_plan_links(struct walk *w, struct json_object *root,
    struct config_plan *plan)
{
	struct json_object	*arr, *v;
	char			 p[PATHLEN], val[64];
	size_t			 i, n;

	if ((arr = get_array(w, "", root, "links", 1, CONFIG_LINKS_MAX)) ==
	    NULL)
		return;
	n = json_object_array_length(arr);
	plan->links = xcalloc(n, sizeof *plan->links);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		idx(p, "links", i);
		if (!want(w, p, v, json_type_string))
			continue;
		fmtval(v, val, sizeof val);
		if (!config_valid_linkname(json_object_get_string(v)))
			werr(w, p, "%s is not a link name", val);
		else if (plan_has_link(plan, json_object_get_string(v)))
			werr(w, p, "%s is listed twice", val);
		else
			plan->links[plan->nlinks++] =
			    xstrdup(json_object_get_string(v));
	}
}

/* Every link needs a workload (workloads[].links may leave one without). */
static void
check_link_workloads(struct walk *w, const struct config_plan *plan)
{
	char	p[PATHLEN];
	size_t	i, j;

	for (i = 0; i < plan->nlinks; i++) {
		for (j = 0; j < plan->nworkloads; j++)
			if (config_workload_on_link(&plan->workloads[j],
			    plan->links[i]))
				break;
		if (j == plan->nworkloads) {
			idx(p, "links", i);
			werr(w, p, "no workload runs on link \"%s\"",
			    plan->links[i]);
		}
	}
}

static void
parse_plan(struct walk *w, struct json_object *root, struct config_plan *plan)
{
	struct json_object	*v, *arr;
	char			 p[PATHLEN];
	size_t			 i, n;
	int			 tso_on = 0;

	check_keys(w, "", root, keys_plan, NULL);
	parse_plan_links(w, root, plan);
	if ((v = get_object(w, "", root, "knobs", 0)) != NULL)
		parse_knobs(w, "knobs", v, &plan->knobs);
	if ((v = get_object(w, "", root, "per_link", 0)) != NULL)
		parse_per_link(w, v, plan);
	if (get_enum(w, "", root, "tso_on", 0, tso_on_names, &tso_on) == 1)
		plan->tso_on = tso_on;
	if ((arr = get_array(w, "", root, "workloads", 1,
	    CONFIG_WORKLOADS_MAX)) != NULL) {
		n = json_object_array_length(arr);
		plan->workloads = xcalloc(n, sizeof *plan->workloads);
		plan->nworkloads = n;
		for (i = 0; i < n; i++) {
			v = json_object_array_get_idx(arr, i);
			idx(p, "workloads", i);
			if (want(w, p, v, json_type_object))
				parse_workload(w, p, v, plan,
				    &plan->workloads[i]);
		}
		check_link_workloads(w, plan);
	}
	get_int(w, "", root, "repetitions", 0, 1, 1000, &plan->repetitions);
	if ((v = get_object(w, "", root, "timeouts", 0)) != NULL) {
		check_keys(w, "timeouts", v, keys_timeouts, NULL);
		get_int(w, "timeouts", v, "connect", 0, 1, 600,
		    &plan->connect_timeout);
		get_int(w, "timeouts", v, "job", 0, 1, 86400,
		    &plan->job_timeout);
	}
	get_int(w, "", root, "retries", 0, 0, 10, &plan->retries);
	if ((v = get_object(w, "", root, "stats", 0)) != NULL)
		parse_stats(w, "stats", v, &plan->stats);
}

static void
plan_defaults(struct config_plan *plan)
{
	plan->tso_on = CONFIG_TSO_ON_SENDER;
	plan->repetitions = 1;
	plan->connect_timeout = 10;
	plan->job_timeout = 120;
	plan->retries = 2;
	plan->stats.alpha = 0.05;
	plan->stats.min_effect = 0.03;
	plan->stats.min_samples = 5;
	plan->stats.max_samples = 20;
	plan->stats.collapse_factor = 5;
	plan->stats.adaptive = 1;
}

const struct config_knobset *
config_plan_knobs(const struct config_plan *plan, const char *link)
{
	size_t	i;

	for (i = 0; i < plan->nper_link; i++)
		if (strcmp(plan->per_link[i].link, link) == 0)
			return &plan->per_link[i].knobs;
	return &plan->knobs;
}

/* NAT values other than "off" need a NAT host; divert needs FreeBSD. */
static void
check_link_nat(struct config_errors *errs, const struct config_plan *plan,
    const struct config_inventory *inv, const struct config_link *l)
{
	const struct config_knobset	*ks = config_plan_knobs(plan, l->name);
	const struct config_knoblist	*kl = &ks->knob[CONFIG_KNOB_NAT];
	const struct config_host	*nat;
	char				 p[PATHLEN];
	size_t				 i;

	if (ks == &plan->knobs)
		snprintf(p, sizeof p, "knobs.nat");
	else
		snprintf(p, sizeof p, "per_link.%s.knobs.nat", l->name);
	for (i = 0; i < kl->n; i++) {
		if (kl->values[i] == CONFIG_NAT_OFF)
			continue;
		if (l->nat == NULL) {
			config_errors_add(errs, plan->path, p, "\"%s\" on link "
			    "\"%s\", which has no NAT host in %s",
			    nat_names[kl->values[i]], l->name, inv->path);
			continue;
		}
		nat = config_inventory_host(inv, l->nat);
		if (kl->values[i] == CONFIG_NAT_DIVERT && nat != NULL &&
		    nat->os != CONFIG_OS_FREEBSD)
			config_errors_add(errs, plan->path, p, "\"divert\" on "
			    "link \"%s\" needs FreeBSD, but NAT host \"%s\" "
			    "runs %s", l->name, nat->name,
			    os_names[nat->os]);
	}
}

int
config_plan_check(const struct config_plan *plan,
    const struct config_inventory *inv, struct config_errors *errs)
{
	const struct config_link	*l;
	char				 p[PATHLEN];
	size_t				 i, before = errs->n + errs->dropped;

	for (i = 0; i < plan->nlinks; i++) {
		idx(p, "links", i);
		if ((l = config_inventory_link(inv, plan->links[i])) == NULL) {
			config_errors_add(errs, plan->path, p, "link \"%s\" is "
			    "not in %s", plan->links[i], inv->path);
			continue;
		}
		check_link_nat(errs, plan, inv, l);
	}
	return errs->n + errs->dropped == before ? 0 : -1;
}

struct config_plan *
config_plan_parse(const char *path, const char *text, size_t len,
    const struct config_inventory *inv, struct config_errors *errs)
{
	struct config_plan	*plan;
	struct json_object	*root;
	struct walk		 w;
	size_t			 before = errs->n + errs->dropped;

	if ((root = parse_text(path, text, len, errs)) == NULL)
		return NULL;
	plan = xcalloc(1, sizeof *plan);
	plan->path = xstrdup(path);
	plan_defaults(plan);
	w.file = path;
	w.errs = errs;
	w.dir = NULL;
	parse_plan(&w, root, plan);
	json_object_put(root);
	if (inv != NULL)
		config_plan_check(plan, inv, errs);
	if (errs->n + errs->dropped != before) {
		config_plan_free(plan);
		return NULL;
	}
	return plan;
}

struct config_plan *
config_plan_load(const char *path, const struct config_inventory *inv,
    struct config_errors *errs)
{
	struct config_plan	*plan;
	char			*text;
	size_t			 len;

	if ((text = read_config(path, &len, errs)) == NULL)
		return NULL;
	plan = config_plan_parse(path, text, len, inv, errs);
	free(text);
	return plan;
}

void
config_plan_free(struct config_plan *plan)
{
	size_t	i, j;

	if (plan == NULL)
		return;
	for (i = 0; i < plan->nlinks; i++)
		free(plan->links[i]);
	free(plan->links);
	for (i = 0; i < plan->nper_link; i++)
		free(plan->per_link[i].link);
	free(plan->per_link);
	for (i = 0; i < plan->nworkloads; i++) {
		free(plan->workloads[i].len);
		free(plan->workloads[i].window);
		free(plan->workloads[i].size);
		for (j = 0; j < plan->workloads[i].nlinks; j++)
			free(plan->workloads[i].links[j]);
		free(plan->workloads[i].links);
	}
	free(plan->workloads);
	free(plan->path);
	free(plan);
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
		if (*s != '\0' && all_in(s, LOWER UPPER DIGIT "_-./:=,+@%")) {
			buf_append(&b, s, strlen(s));
			continue;
		}
		/* 'it'\''s': close, escaped quote, reopen. */
		buf_append(&b, "'", 1);
		for (; *s != '\0'; s++) {
			if (*s == '\'')
				buf_append(&b, "'\\''", 4);
			else
				buf_append(&b, s, 1);
		}
		buf_append(&b, "'", 1);
	}
	return buf_release(&b);
}
