/*
 * config_daemon: the daemon's config file (schemas/daemon.schema.json):
 * the inventories it serves, the revision sources its schedules name (and
 * how each learns its newest revision), where notifications go, the health
 * check settings and the limits.  Part of the config module (json-c stays
 * here).  Every error is collected with its JSON path; relative paths
 * resolve against the config file's directory; commands are argv arrays,
 * run without a shell, whose first word is an absolute path or a plain
 * name looked up in PATH.
 */
#include <arpa/inet.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "config_int.h"
#include "util.h"

#define DAEMON_INVENTORIES_MAX	16
#define DAEMON_SOURCES_MAX	32
#define DAEMON_WEBHOOKS_MAX	16
#define DAEMON_RECIPIENTS_MAX	32
#define DAEMON_NAME_MAX		64
#define DAEMON_ADDR_MAX		254

static const char *const dm_keys[] = { "inventories", "revision_sources",
	"notify", "health", "limits", "confirm", "http", NULL };
static const char *const dm_keys_source[] = { "name", "revisions", "newest",
	NULL };
static const char *const dm_keys_newest[] = { "command", "git", NULL };
static const char *const dm_keys_git[] = { "path", "ref", NULL };
static const char *const dm_keys_notify[] = { "webhooks", "mail", NULL };
static const char *const dm_keys_webhook[] = { "url", "timeout_s", NULL };
static const char *const dm_keys_mail[] = { "smtp", "sendmail", "from", "to",
	"timeout_s", NULL };
static const char *const dm_keys_health[] = { "interval_h", "iperf_seconds",
	"tolerance", NULL };
static const char *const dm_keys_limits[] = { "max_jobs", "max_bisects",
	NULL };
static const char *const dm_keys_http[] = { "listen", "cert", "key",
	"reads", "allow_remote_plain", "max_connections", "per_address",
	"timeout_s", "max_body", "rate_per_min", "static_dir", NULL };
static const char *const dm_http_reads[] = { "token", "open", NULL };

static char *
dm_resolve(struct config_walk *w, const char *s)
{
	if (s[0] == '/' || w->dir == NULL)
		return xstrdup(s);
	return xasprintf("%s/%s", w->dir, s);
}

static int
valid_any(const char *s)
{
	(void)s;
	return 1;
}

static int
valid_source_name(const char *s)
{
	size_t	n = strlen(s);

	return n >= 1 && n <= DAEMON_NAME_MAX && config_all_in(s,
	    CONFIG_LOWER CONFIG_UPPER CONFIG_DIGIT "._-");
}

/* A URL of one of the schemes (each "name://"), a host, no blanks. */
static int
valid_url_of(const char *s, const char *const *schemes)
{
	size_t	i, n;

	for (i = 0; schemes[i] != NULL; i++) {
		n = strlen(schemes[i]);
		if (strncmp(s, schemes[i], n) == 0)
			break;
	}
	if (schemes[i] == NULL || s[n] == '\0' || s[n] == '/')
		return 0;
	for (; *s != '\0'; s++)
		if (*s == ' ' || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

static int
valid_http_url(const char *s)
{
	static const char *const sc[] = { "http://", "https://", NULL };

	return valid_url_of(s, sc);
}

static int
valid_smtp_url(const char *s)
{
	static const char *const sc[] = { "smtp://", "smtps://", NULL };

	return valid_url_of(s, sc);
}

/* local@domain, printable, no blanks or <>, "," or quotes. */
static int
valid_address(const char *s)
{
	const char	*at = strchr(s, '@');

	if (at == NULL || at == s || at[1] == '\0' || strchr(at + 1, '@'))
		return 0;
	for (; *s != '\0'; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s > 0x7e ||
		    strchr("<>,;\"'()\\", *s) != NULL)
			return 0;
	return 1;
}

/* A git ref: no leading "-", no "..", safe characters only. */
static int
valid_ref(const char *s)
{
	return s[0] != '-' && strstr(s, "..") == NULL && config_all_in(s,
	    CONFIG_LOWER CONFIG_UPPER CONFIG_DIGIT "._/-");
}

/*
 * An argv run without a shell: 1..CONFIG_ARGV_MAX strings, argv[0] an
 * absolute path or a PATH word (no "/", no blanks), no control characters.
 * Heap, NULL-terminated; NULL after reporting.
 */
static char **
dm_argv(struct config_walk *w, const char *path, struct json_object *o,
    const char *key)
{
	struct json_object	*arr, *v;
	char			 p[CONFIG_PATHLEN], ep[CONFIG_PATHLEN], val[64];
	char			**argv;
	const char		*s;
	size_t			 i, n, before = config_nerrors(w);

	if ((arr = config_get_array(w, path, o, key, 1, CONFIG_ARGV_MAX)) ==
	    NULL)
		return NULL;
	config_path_key(p, path, key);
	n = json_object_array_length(arr);
	argv = xcalloc(n + 1, sizeof *argv);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		config_path_index(ep, p, i);
		if (!config_want(w, ep, v, json_type_string))
			continue;
		s = json_object_get_string(v);
		config_fmtval(v, val, sizeof val);
		if (strlen(s) != (size_t)json_object_get_string_len(v) ||
		    strpbrk(s, "\n\r\t") != NULL) {
			config_werr(w, ep, "%s contains a control character",
			    val);
			continue;
		}
		if (strlen(s) > CONFIG_ARG_MAX) {
			config_werr(w, ep, "%s is longer than %d bytes", val,
			    CONFIG_ARG_MAX);
			continue;
		}
		if (i == 0 && (*s == '\0' || strchr(s, ' ') != NULL ||
		    (*s != '/' && strchr(s, '/') != NULL))) {
			config_werr(w, ep, "%s is not a command: an absolute "
			    "path or a name found in PATH (no shell is used)",
			    val);
			continue;
		}
		argv[i] = xstrdup(s);
	}
	if (config_nerrors(w) != before) {
		for (i = 0; i < n; i++)
			free(argv[i]);
		free(argv);
		return NULL;
	}
	return argv;
}

/* Array of 1..max strings each valid(); heap NULL-terminated, or NULL. */
static char **
dm_strings(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, size_t max, int (*valid)(const char *),
    const char *what)
{
	struct json_object	*arr, *v;
	char			 p[CONFIG_PATHLEN], ep[CONFIG_PATHLEN], val[64];
	char			**out;
	const char		*s;
	size_t			 i, j, n, before = config_nerrors(w);

	if ((arr = config_get_array(w, path, o, key, required, max)) == NULL)
		return NULL;
	config_path_key(p, path, key);
	n = json_object_array_length(arr);
	out = xcalloc(n + 1, sizeof *out);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		config_path_index(ep, p, i);
		config_fmtval(v, val, sizeof val);
		if (!config_want(w, ep, v, json_type_string))
			continue;
		s = json_object_get_string(v);
		if (*s == '\0' || strlen(s) > CONFIG_PATH_MAX ||
		    strlen(s) != (size_t)json_object_get_string_len(v) ||
		    !valid(s)) {
			config_werr(w, ep, "%s is not %s", val, what);
			continue;
		}
		for (j = 0; j < i; j++)
			if (out[j] != NULL && strcmp(out[j], s) == 0)
				config_werr(w, ep, "%s is listed twice", val);
		out[i] = xstrdup(s);
	}
	if (config_nerrors(w) != before) {
		for (i = 0; i < n; i++)
			free(out[i]);
		free(out);
		return NULL;
	}
	return out;
}

static void
dm_newest(struct config_walk *w, const char *path, struct json_object *o,
    struct config_revsource *src)
{
	struct json_object	*g;
	char			 p[CONFIG_PATHLEN], gp[CONFIG_PATHLEN];
	const char		*gpath, *ref;
	char			*abs;
	int			 hc, hg;

	config_check_keys(w, path, o, dm_keys_newest, NULL);
	hc = json_object_object_get_ex(o, "command", NULL);
	hg = json_object_object_get_ex(o, "git", NULL);
	if (hc == hg) {
		config_werr(w, path, "needs exactly one of \"command\" and "
		    "\"git\"");
		return;
	}
	if (hc) {
		src->newest_cmd = dm_argv(w, path, o, "command");
		return;
	}
	config_path_key(gp, path, "git");
	if ((g = config_get_object(w, path, o, "git", 1)) == NULL)
		return;
	config_check_keys(w, gp, g, dm_keys_git, NULL);
	if (config_get_str(w, gp, g, "path", 1, CONFIG_PATH_MAX, &gpath) != 1)
		gpath = NULL;
	if (config_get_str(w, gp, g, "ref", 1, 256, &ref) == 1 &&
	    !valid_ref(ref)) {
		config_path_key(p, gp, "ref");
		config_werr(w, p, "\"%.80s\" is not a git ref name", ref);
		ref = NULL;
	}
	if (gpath == NULL || ref == NULL)
		return;
	abs = dm_resolve(w, gpath);
	src->newest_git = xasprintf("%s:%s", abs, ref);
	free(abs);
}

/* "revisions": as the inventory's, "git:PATH[:SUB,...]" or a path. */
static void
dm_revisions(struct config_walk *w, const char *path, struct json_object *o,
    struct config_revsource *src)
{
	const char	*s;
	char		*rel, *abs;
	size_t		 len;

	if (config_get_str(w, path, o, "revisions", 0, CONFIG_PATH_MAX,
	    &s) != 1)
		return;
	if (strncmp(s, "git:", 4) == 0) {
		len = strcspn(s + 4, ":");
		rel = xstrndup(s + 4, len);
		abs = dm_resolve(w, rel);
		src->revisions = xasprintf("git:%s%s", abs, s + 4 + len);
		free(abs);
		free(rel);
	} else
		src->revisions = dm_resolve(w, s);
}

static void
dm_sources(struct config_walk *w, struct json_object *root,
    struct config_daemon *d)
{
	struct json_object	*arr, *e, *nw;
	struct config_revsource	*src;
	char			 p[CONFIG_PATHLEN], np[CONFIG_PATHLEN];
	size_t			 i, j, n;

	if ((arr = config_get_array(w, "", root, "revision_sources", 0,
	    DAEMON_SOURCES_MAX)) == NULL)
		return;
	n = json_object_array_length(arr);
	d->sources = xcalloc(n, sizeof *d->sources);
	d->nsources = n;
	for (i = 0; i < n; i++) {
		src = &d->sources[i];
		e = json_object_array_get_idx(arr, i);
		config_path_index(p, "revision_sources", i);
		if (!config_want(w, p, e, json_type_object))
			continue;
		config_check_keys(w, p, e, dm_keys_source, NULL);
		if (config_get_pattern(w, p, e, "name", 1, DAEMON_NAME_MAX,
		    valid_source_name, "a source name ([A-Za-z0-9._-]{1,64})",
		    &src->name) == 1) {
			config_path_key(np, p, "name");
			for (j = 0; j < i; j++)
				if (d->sources[j].name != NULL &&
				    strcmp(d->sources[j].name, src->name) == 0)
					config_werr(w, np, "duplicate source "
					    "name \"%s\" (also "
					    "revision_sources[%zu])",
					    src->name, j);
		}
		dm_revisions(w, p, e, src);
		config_path_key(np, p, "newest");
		if ((nw = config_get_object(w, p, e, "newest", 1)) != NULL)
			dm_newest(w, np, nw, src);
	}
}

static void
dm_mail(struct config_walk *w, struct json_object *o, struct config_mail *m)
{
	const char	*path = "notify.mail";
	int		 hs, hm;

	config_check_keys(w, path, o, dm_keys_mail, NULL);
	hs = json_object_object_get_ex(o, "smtp", NULL);
	hm = json_object_object_get_ex(o, "sendmail", NULL);
	if (hs == hm)
		config_werr(w, path, "needs exactly one of \"smtp\" (a URL) "
		    "and \"sendmail\" (a command)");
	else if (hs)
		config_get_pattern(w, path, o, "smtp", 1, CONFIG_PATH_MAX,
		    valid_smtp_url, "an smtp:// or smtps:// URL", &m->smtp_url);
	else
		m->sendmail = dm_argv(w, path, o, "sendmail");
	config_get_pattern(w, path, o, "from", 1, DAEMON_ADDR_MAX,
	    valid_address, "a mail address (local@domain)", &m->from);
	m->to = dm_strings(w, path, o, "to", 1, DAEMON_RECIPIENTS_MAX,
	    valid_address, "a mail address (local@domain)");
	m->timeout_s = 30;
	config_get_int(w, path, o, "timeout_s", 0, 1, 600, &m->timeout_s);
}

static void
dm_notify(struct config_walk *w, struct json_object *root,
    struct config_daemon *d)
{
	struct json_object	*o, *arr, *e, *m;
	char			 p[CONFIG_PATHLEN];
	size_t			 i, n;

	if ((o = config_get_object(w, "", root, "notify", 0)) == NULL)
		return;
	config_check_keys(w, "notify", o, dm_keys_notify, NULL);
	if ((arr = config_get_array(w, "notify", o, "webhooks", 0,
	    DAEMON_WEBHOOKS_MAX)) != NULL) {
		n = json_object_array_length(arr);
		d->webhooks = xcalloc(n, sizeof *d->webhooks);
		d->nwebhooks = n;
		for (i = 0; i < n; i++) {
			e = json_object_array_get_idx(arr, i);
			config_path_index(p, "notify.webhooks", i);
			d->webhooks[i].timeout_s = 10;
			if (!config_want(w, p, e, json_type_object))
				continue;
			config_check_keys(w, p, e, dm_keys_webhook, NULL);
			config_get_pattern(w, p, e, "url", 1, CONFIG_PATH_MAX,
			    valid_http_url, "an http:// or https:// URL",
			    &d->webhooks[i].url);
			config_get_int(w, p, e, "timeout_s", 0, 1, 600,
			    &d->webhooks[i].timeout_s);
		}
	}
	if ((m = config_get_object(w, "notify", o, "mail", 0)) != NULL) {
		d->mail = xcalloc(1, sizeof *d->mail);
		dm_mail(w, m, d->mail);
	}
}

static void
dm_settings(struct config_walk *w, struct json_object *root,
    struct config_daemon *d)
{
	struct json_object	*o;
	double			 hours = 24;

	d->health_interval_s = 86400;
	d->health_iperf_s = 2;
	d->health_tolerance = 0.2;
	d->max_jobs = 1;
	d->max_bisects = 1;
	d->confirm = 1;
	if ((o = config_get_object(w, "", root, "health", 0)) != NULL) {
		config_check_keys(w, "health", o, dm_keys_health, NULL);
		/* Hours, fractions allowed (a test checks every few s). */
		if (config_get_num(w, "health", o, "interval_h", 0, 1, 8760,
		    &hours) == 1)
			d->health_interval_s = hours * 3600 < 1 ? 1 :
			    (int)(hours * 3600 + 0.5);
		config_get_int(w, "health", o, "iperf_seconds", 0, 1, 60,
		    &d->health_iperf_s);
		config_get_num(w, "health", o, "tolerance", 0, 1, 0.99,
		    &d->health_tolerance);
	}
	if ((o = config_get_object(w, "", root, "limits", 0)) != NULL) {
		config_check_keys(w, "limits", o, dm_keys_limits, NULL);
		config_get_int(w, "limits", o, "max_jobs", 0, 1, 64,
		    &d->max_jobs);
		config_get_int(w, "limits", o, "max_bisects", 0, 1, 16,
		    &d->max_bisects);
	}
	/* A night stores one confirming run (nights.confirm_run_id): more
	 * than one would be counted as one, so it is refused. */
	if (config_get_int(w, "", root, "confirm", 0, 0, INT_MAX,
	    &d->confirm) == 1 && d->confirm > 1) {
		config_werr(w, "confirm", "%d confirming re-runs are not "
		    "supported: 0 (bisect at once) or 1 (one re-run that "
		    "must show the regression again)", d->confirm);
		d->confirm = 1;
	}
}

int
config_http_listen(const char *listen, int *tls, char *addr, size_t addrlen,
    int *port, int *loopback)
{
	unsigned char	 buf[16];
	const char	*p, *colon, *end;
	char		 a[64];
	long		 n;
	size_t		 len;
	int		 v6;

	if (strncmp(listen, "https://", 8) == 0) {
		*tls = 1;
		p = listen + 8;
	} else if (strncmp(listen, "http://", 7) == 0) {
		*tls = 0;
		p = listen + 7;
	} else
		return -1;
	if ((v6 = *p == '[')) {
		if ((end = strchr(p, ']')) == NULL || end[1] != ':')
			return -1;
		p++;
		colon = end + 1;
	} else {
		if ((colon = strrchr(p, ':')) == NULL)
			return -1;
		end = colon;
	}
	len = (size_t)(end - p);
	if (len == 0 || len >= sizeof a || len >= addrlen)
		return -1;
	memcpy(a, p, len);
	a[len] = '\0';
	if (inet_pton(v6 ? AF_INET6 : AF_INET, a, buf) != 1)
		return -1;
	if (colon[1] < '1' || colon[1] > '9' || strlen(colon + 1) > 5 ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return -1;
	n = strtol(colon + 1, NULL, 10);
	if (n < 1 || n > 65535)
		return -1;
	*port = (int)n;
	*loopback = v6 ? strcmp(a, "::1") == 0 : buf[0] == 127;
	memcpy(addr, a, len + 1);
	return 0;
}

static void
dm_http_tls(struct config_walk *w, struct json_object *o,
    struct config_http *h, int tls)
{
	const char	*cert = NULL, *key = NULL;

	if (config_get_str(w, "http", o, "cert", 0, CONFIG_PATH_MAX,
	    &cert) != 1)
		cert = NULL;
	if (config_get_str(w, "http", o, "key", 0, CONFIG_PATH_MAX,
	    &key) != 1)
		key = NULL;
	if (tls && (cert == NULL || key == NULL))
		config_werr(w, "http", "an https:// listen needs \"cert\" and "
		    "\"key\" (PEM files)");
	if (!tls && (cert != NULL || key != NULL))
		config_werr(w, "http", "\"cert\" and \"key\" need an "
		    "https:// listen");
	if (tls && cert != NULL && *cert != '\0')
		h->cert = dm_resolve(w, cert);
	if (tls && key != NULL && *key != '\0')
		h->key = dm_resolve(w, key);
}

/* "static_dir": /ui/ from this directory (development), relative to the
 * config's; http_start() opens it. */
static void
dm_http_static(struct config_walk *w, struct json_object *o,
    struct config_http *h)
{
	const char	*dir = NULL;

	if (config_get_str(w, "http", o, "static_dir", 0, CONFIG_PATH_MAX,
	    &dir) != 1 || dir == NULL || *dir == '\0')
		return;	/* config_get_str() said what is wrong */
	h->static_dir = dm_resolve(w, dir);
}

static void
dm_http(struct config_walk *w, struct json_object *root,
    struct config_daemon *d)
{
	struct json_object	*o;
	struct config_http	*h;
	const char		*listen = "http://127.0.0.1:8080";
	char			 addr[64];
	int			 tls = 0, port, loop = 1, reads = -1;

	if ((o = config_get_object(w, "", root, "http", 0)) == NULL)
		return;
	config_check_keys(w, "http", o, dm_keys_http, NULL);
	h = d->http = xcalloc(1, sizeof *h);
	if (config_get_str(w, "http", o, "listen", 0, 128, &listen) == -1)
		listen = "http://127.0.0.1:8080";
	else if (config_http_listen(listen, &tls, addr, sizeof addr, &port,
	    &loop) == -1)
		config_werr(w, "http.listen", "\"%.80s\" is not "
		    "http://ADDR:PORT or https://ADDR:PORT (ADDR an IPv4 "
		    "address or [IPv6])", listen);
	h->listen = xstrdup(listen);
	dm_http_tls(w, o, h, tls);
	config_get_bool(w, "http", o, "allow_remote_plain",
	    &h->allow_remote_plain);
	if (!tls && !loop && !h->allow_remote_plain)
		config_werr(w, "http.listen", "\"%.80s\": plain HTTP on an "
		    "address other than loopback needs https:// or "
		    "\"allow_remote_plain\": true", listen);
	if (config_get_enum(w, "http", o, "reads", 0, dm_http_reads,
	    &reads) != 1)
		reads = loop ? CONFIG_HTTP_READS_OPEN : CONFIG_HTTP_READS_TOKEN;
	h->reads = (enum config_http_reads)reads;
	h->max_connections = 64;
	h->per_address = 16;
	h->timeout_s = 30;
	h->max_body = 64 * 1024;
	h->rate_per_min = 600;
	config_get_int(w, "http", o, "max_connections", 0, 1, 4096,
	    &h->max_connections);
	config_get_int(w, "http", o, "per_address", 0, 1, 4096,
	    &h->per_address);
	config_get_int(w, "http", o, "timeout_s", 0, 1, 3600, &h->timeout_s);
	config_get_int(w, "http", o, "max_body", 0, 1024, 16 * 1024 * 1024,
	    &h->max_body);
	config_get_int(w, "http", o, "rate_per_min", 0, 1, 1000000,
	    &h->rate_per_min);
	dm_http_static(w, o, h);
}

static void
dm_inventories(struct config_walk *w, struct json_object *root,
    struct config_daemon *d)
{
	char	**rel, *abs;
	size_t	  i, n;

	rel = dm_strings(w, "", root, "inventories", 1,
	    DAEMON_INVENTORIES_MAX, valid_any, "a path");
	if (rel == NULL)
		return;
	for (n = 0; rel[n] != NULL; n++)
		;
	d->inventories = xcalloc(n + 1, sizeof *d->inventories);
	for (i = 0; i < n; i++) {
		abs = dm_resolve(w, rel[i]);
		d->inventories[i] = abs;
	}
	config_argv_free(rel);
}

int
config_daemon_parse(const char *path, const char *text, size_t len,
    struct config_daemon **out, struct config_errors *errs)
{
	struct json_object	*root;
	struct config_daemon	*d;
	struct config_walk	 w;
	size_t			 before = errs->n + errs->dropped;

	*out = NULL;
	if ((root = config_parse_text(path, text, len, errs)) == NULL)
		return -1;
	d = xcalloc(1, sizeof *d);
	d->path = xstrdup(path);
	d->text = xstrndup(text, len);
	w.file = path;
	w.errs = errs;
	w.dir = config_dir_of(path);
	if (config_want(&w, "", root, json_type_object)) {
		config_check_keys(&w, "", root, dm_keys, NULL);
		dm_inventories(&w, root, d);
		dm_sources(&w, root, d);
		dm_notify(&w, root, d);
		dm_settings(&w, root, d);
		dm_http(&w, root, d);
	}
	free((char *)w.dir);
	json_object_put(root);
	if (errs->n + errs->dropped != before) {
		config_daemon_free(d);
		return -1;
	}
	*out = d;
	return 0;
}

int
config_daemon_load(const char *path, struct config_daemon **out,
    struct config_errors *errs, char *err, size_t errlen)
{
	char	*text;
	size_t	 len, before = errs->n + errs->dropped;
	int	 rc;

	*out = NULL;
	if ((text = config_read_text(path, &len, errs)) == NULL) {
		util_seterr(err, errlen, "%s: cannot be read", path);
		return -1;
	}
	rc = config_daemon_parse(path, text, len, out, errs);
	free(text);
	if (rc == -1)
		util_seterr(err, errlen, "%zu error%s in %s",
		    errs->n + errs->dropped - before,
		    errs->n + errs->dropped - before == 1 ? "" : "s", path);
	return rc;
}

void
config_daemon_free(struct config_daemon *d)
{
	size_t	i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nsources; i++) {
		free(d->sources[i].name);
		free(d->sources[i].revisions);
		config_argv_free(d->sources[i].newest_cmd);
		free(d->sources[i].newest_git);
	}
	free(d->sources);
	for (i = 0; i < d->nwebhooks; i++)
		free(d->webhooks[i].url);
	free(d->webhooks);
	if (d->mail != NULL) {
		free(d->mail->smtp_url);
		config_argv_free(d->mail->sendmail);
		free(d->mail->from);
		config_argv_free(d->mail->to);
		free(d->mail);
	}
	if (d->http != NULL) {
		free(d->http->listen);
		free(d->http->cert);
		free(d->http->key);
		free(d->http->static_dir);
		free(d->http);
	}
	config_argv_free(d->inventories);
	free(d->path);
	free(d->text);
	free(d);
}

const struct config_revsource *
config_daemon_source(const struct config_daemon *d, const char *name)
{
	size_t	i;

	for (i = 0; d != NULL && name != NULL && i < d->nsources; i++)
		if (d->sources[i].name != NULL &&
		    strcmp(d->sources[i].name, name) == 0)
			return &d->sources[i];
	return NULL;
}
