/*
 * config_read: the config module's way in (see config.h): a file read once
 * (with its ceiling), its text checked raw and parsed by json-c, the kind of
 * a file told from its content, the error list every loader appends to
 * ("FILE: JSON.PATH: what is wrong"), and the one-line "ok" summary `config
 * check` prints of a valid inventory, lab history or daemon config (a
 * plan's is matrix_plan_summary(), a bisect test's hunt_test_summary()).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "config_int.h"
#include "json.h"
#include "log.h"
#include "util.h"

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

void
config_werr(struct config_walk *w, const char *path, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	errors_vadd(w->errs, w->file, path, fmt, ap);
	va_end(ap);
}

size_t
config_nerrors(struct config_walk *w)
{
	return w->errs->n + w->errs->dropped;
}

/* ---- JSON text ------------------------------------------------------- */

/* Parses text into a JSON object; NULL with a "file: ..." error. */
struct json_object *
config_parse_text(const char *file, const char *text, size_t len,
    struct config_errors *errs)
{
	struct json_tokener	*tok;
	struct json_object	*root;
	enum json_tokener_error	 jerr;
	size_t			 end, i, line = 1;
	char			 raw[256];
	int			 rawrc;

	if (len > CONFIG_FILE_MAX) {
		config_errors_add(errs, file, NULL, "larger than %d bytes",
		    CONFIG_FILE_MAX);
		return NULL;
	}
	/* What json-c would accept and change (duplicate keys...). */
	rawrc = json_check_raw(text, len, raw, sizeof raw);
	if (rawrc == JSON_RAW_REJECTED) {
		config_errors_add(errs, file, NULL, "%s", raw);
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
			    "line %zu: %s", line,
    json_tokener_error_desc(jerr));
		return NULL;
	}
	if (rawrc != JSON_RAW_OK) {
		/* json-c stopped early (trailing data) and took the rest. */
		config_errors_add(errs, file, NULL, "invalid JSON: %s", raw);
		json_object_put(root);
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

/* Top-level keys that tell a kind, first match wins. */
static const struct {
	const char		*key;
	enum config_kind	 kind;
} detect_keys[] = {
	{ "hosts", CONFIG_KIND_INVENTORY },
	{ "workloads", CONFIG_KIND_PLAN },
	{ "revisions", CONFIG_KIND_HISTORY },
	{ "workload", CONFIG_KIND_BISECT_TEST },
	{ "compare", CONFIG_KIND_BISECT_TEST },
	{ "metric", CONFIG_KIND_BISECT_TEST },
	{ "threshold", CONFIG_KIND_BISECT_TEST },
	{ "knobs", CONFIG_KIND_PLAN },
	{ "inventories", CONFIG_KIND_DAEMON },
	{ "revision_sources", CONFIG_KIND_DAEMON },
};

enum config_kind
config_detect(const char *path, const char *text, size_t len,
    struct config_errors *errs)
{
	struct json_object	*root;
	enum config_kind	 kind = CONFIG_KIND_UNKNOWN;
	size_t			 i;

	if ((root = config_parse_text(path, text, len, errs)) == NULL)
		return kind;
	for (i = 0; i < sizeof detect_keys / sizeof detect_keys[0]; i++)
		if (json_object_object_get_ex(root, detect_keys[i].key,
		    NULL)) {
			kind = detect_keys[i].kind;
			break;
		}
	if (kind == CONFIG_KIND_UNKNOWN)
		config_errors_add(errs, path, NULL, "neither an inventory (no "
		    "\"hosts\"), a plan (no \"workloads\"), a bisect test (no "
		    "\"workload\"), a lab history (no \"revisions\") nor a daemon "
		    "config (no \"inventories\")");
	json_object_put(root);
	return kind;
}

const char *
config_kind_name(enum config_kind kind)
{
	switch (kind) {
	case CONFIG_KIND_INVENTORY:
		return "inventory";
	case CONFIG_KIND_PLAN:
		return "plan";
	case CONFIG_KIND_BISECT_TEST:
		return "bisect test";
	case CONFIG_KIND_HISTORY:
		return "lab history";
	case CONFIG_KIND_DAEMON:
		return "daemon config";
	default:
		return "unknown";
	}
}

char *
config_read_text(const char *path, size_t *lenp, struct config_errors *errs)
{
	char	 err[512], *text;

	text = util_read_file(path, CONFIG_FILE_MAX, lenp, err, sizeof err);
	if (text == NULL)
		config_errors_read(errs, path, err);
	return text;
}

/* ---- flat objects: the daemon's queue payloads ------------------------ */

int
config_flat_parse(const char *text, const struct config_flat *fields,
    char *err, size_t errlen)
{
	const struct config_flat	*f;
	struct json_object		*o, *v;

	for (f = fields; f != NULL && f->key != NULL; f++)
		if (f->type == CONFIG_FLAT_STR)
			*(char **)f->out = NULL;
	o = text != NULL ? json_tokener_parse(text) : NULL;
	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		util_seterr(err, errlen, "payload is not a JSON object");
		return -1;
	}
	for (f = fields; f != NULL && f->key != NULL; f++) {
		if (!json_object_object_get_ex(o, f->key, &v))
			continue;
		if (f->type == CONFIG_FLAT_BOOL)
			*(int *)f->out = json_object_get_boolean(v);
		else if (json_object_is_type(v, json_type_string))
			*(char **)f->out = xstrdup(json_object_get_string(v));
	}
	json_object_put(o);
	return 0;
}

/* ---- summaries ------------------------------------------------------- */

void
config_inventory_summary(const struct config_inventory *inv, char *buf,
    size_t len)
{
	size_t	i, nics = 0;

	for (i = 0; i < inv->nhosts; i++)
		nics += inv->hosts[i].nnics;
	snprintf(buf, len, "%s: inventory ok: %zu host%s, %zu nic%s, %zu "
	    "link%s", inv->path, inv->nhosts, inv->nhosts == 1 ? "" : "s",
	    nics, nics == 1 ? "" : "s", inv->nlinks,
	    inv->nlinks == 1 ? "" : "s");
}

int
config_history_summary(const char *path, const char *text, size_t len,
    char *buf, size_t buflen, struct config_errors *errs)
{
	char	**ids, **msgs;
	size_t	  n;

	if (config_history_parse(path, text, len, &ids, &msgs, &n, errs) != 0)
		return -1;
	snprintf(buf, buflen, "%s: lab history ok: %zu revision%s%s%s%s%s",
	    path, n, n == 1 ? "" : "s", n > 0 ? ", " : "", n > 0 ? ids[0] : "",
	    n > 0 ? " .. " : "", n > 0 ? ids[n - 1] : "");
	config_argv_free(ids);
	config_argv_free(msgs);
	return 0;
}

void
config_daemon_summary(const struct config_daemon *d, const char *path,
    char *buf, size_t len)
{
	size_t	n;

	for (n = 0; d->inventories[n] != NULL; n++)
		;
	snprintf(buf, len, "%s: daemon config ok: %zu inventor%s, %zu "
	    "revision source%s, %zu webhook%s, mail %s, max_jobs %d, "
	    "max_bisects %d", path, n, n == 1 ? "y" : "ies", d->nsources,
	    d->nsources == 1 ? "" : "s", d->nwebhooks,
	    d->nwebhooks == 1 ? "" : "s", d->mail == NULL ? "none" :
	    d->mail->smtp_url != NULL ? "by smtp" : "by sendmail",
	    d->max_jobs, d->max_bisects);
}
