/*
 * config_inventory: the inventory part of the config module (see config.h):
 * hosts, NICs, kernel providers, power hooks and links, with the checks a
 * schema cannot make (link hosts, interfaces and the NAT host exist, no
 * duplicate names), and the optional revision source of a bisect.  Relative
 * key, known_hosts and revisions paths resolve against the file's
 * directory.
 */
#include <sys/stat.h>

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "config_int.h"
#include "log.h"
#include "util.h"

/* ---- patterns -------------------------------------------------------- */

static int
valid_driver(const char *s)
{
	return islower((unsigned char)*s) && strlen(s) <= 32 &&
	    config_all_in(s, CONFIG_LOWER CONFIG_DIGIT "_");
}

static int
valid_chip(const char *s)
{
	return strlen(s) == 10 && s[0] == '0' && s[1] == 'x' &&
	    config_all_in(s + 2, CONFIG_DIGIT "abcdef");
}

static int
valid_user(const char *s)
{
	return (islower((unsigned char)*s) || *s == '_') && strlen(s) <= 32 &&
	    config_all_in(s, CONFIG_LOWER CONFIG_DIGIT "_-");
}

/* kernconf, kodir: a plain file name. */
static int
valid_filename(const char *s)
{
	return strlen(s) <= 64 && *s != '.' && *s != '-' &&
	    config_all_in(s, CONFIG_LOWER CONFIG_UPPER CONFIG_DIGIT "_.-");
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
	return strspn(label, CONFIG_DIGIT) != strlen(label);
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

/* Relative paths are relative to the inventory's directory. */
static char *
resolve_path(struct config_walk *w, const char *s)
{
	if (s[0] == '/' || w->dir == NULL)
		return xstrdup(s);
	return xasprintf("%s/%s", w->dir, s);
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
get_template(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, int allow_rev, int need_rev,
    struct config_argv *out)
{
	struct json_object	*arr, *v;
	char			 p[CONFIG_PATHLEN], ep[CONFIG_PATHLEN], val[64];
	const char		*s, *bad;
	size_t			 i, n, len, before = config_nerrors(w);
	int			 has_rev = 0;

	if ((arr = config_get_array(w, path, o, key, required,
	    CONFIG_ARGV_MAX)) == NULL)
		return;
	config_path_key(p, path, key);
	n = json_object_array_length(arr);
	out->argv = xcalloc(n + 1, sizeof *out->argv);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		config_path_index(ep, p, i);
		if (!config_want(w, ep, v, json_type_string))
			continue;
		s = json_object_get_string(v);
		config_fmtval(v, val, sizeof val);
		if (strlen(s) != (size_t)json_object_get_string_len(v) ||
		    strpbrk(s, "\n\r") != NULL) {
			config_werr(w, ep, "%s contains a control character",
			    val);
			continue;
		}
		if (strlen(s) > CONFIG_ARG_MAX || (i == 0 && *s == '\0')) {
			config_werr(w, ep, "%s: bad length", val);
			continue;
		}
		if ((bad = bad_placeholder(s, allow_rev)) != NULL) {
			len = strcspn(bad + 1, "{}") + 2;
			if (*bad == '}' || bad[len - 1] != '}' || len > 20)
				config_werr(w, ep, "%s has an unmatched brace",
				    val);
			else
				config_werr(w, ep,
				    "%s uses %.*s; only %s allowed",
				    val, (int)len, bad, allow_rev ?
				    "{rev} and {host} are" : "{host} is");
			continue;
		}
		if (strstr(s, "{rev}") != NULL)
			has_rev = 1;
		out->argv[out->argc++] = xstrdup(s);
	}
	if (config_nerrors(w) == before && need_rev && !has_rev)
		config_werr(w, p, "does not use {rev}");
	if (config_nerrors(w) != before)
		argv_clear(out);
}

static void
parse_ssh(struct config_walk *w, const char *path, struct json_object *o,
    struct config_ssh *ssh)
{
	char	*tmp = NULL;

	ssh->user = xstrdup("root");
	ssh->port = 22;
	config_check_keys(w, path, o, config_keys_ssh, NULL);
	config_get_pattern(w, path, o, "user", 0, 32, valid_user, "a user name",
	    &ssh->user);
	config_get_int(w, path, o, "port", 0, 1, 65535, &ssh->port);
	if (config_get_pattern(w, path, o, "key", 1, CONFIG_PATH_MAX, valid_any,
	    "a path", &tmp) == 1)
		ssh->key = resolve_path(w, tmp);
	free(tmp);
	tmp = NULL;
	if (config_get_pattern(w, path, o, "known_hosts", 1, CONFIG_PATH_MAX,
	    valid_any, "a path", &tmp) == 1)
		ssh->known_hosts = resolve_path(w, tmp);
	free(tmp);
}

static void
parse_nic(struct config_walk *w, const char *path, struct json_object *o,
    struct config_nic *nic)
{
	int	role = CONFIG_ROLE_TEST;

	config_check_keys(w, path, o, config_keys_nic, NULL);
	config_get_pattern(w, path, o, "name", 1, CONFIG_IFNAME_MAX,
	    config_valid_ifname, "an interface name", &nic->name);
	config_get_pattern(w, path, o, "driver", 1, 32, valid_driver,
	    "a driver name", &nic->driver);
	config_get_pattern(w, path, o, "chip", 0, 10, valid_chip,
	    "a PCI chip id like 0x10968086", &nic->chip);
	config_get_int(w, path, o, "speed_mbps", 0, 1, 1000000,
	    &nic->speed_mbps);
	config_get_enum(w, path, o, "role", 1, config_role_names, &role);
	nic->role = role;
}

static void
parse_kernel(struct config_walk *w, const char *path, struct json_object *o,
    struct config_kernel *k)
{
	int	type;

	if (config_get_enum(w, path, o, "type", 1, config_kernel_names,
	    &type) != 1)
		return;
	k->type = (enum config_kernel_type)(type + 1);
	switch (k->type) {
	case CONFIG_KERNEL_FREEBSD_SRC:
		config_check_keys(w, path, o, config_keys_kernel_fbsd,
		    "for type freebsd-src");
		k->src = xstrdup("/usr/src");
		k->kernconf = xstrdup("GENERIC");
		k->kodir = xstrdup("labrat");
		k->jobs = 4;
		config_get_pattern(w, path, o, "src", 0, CONFIG_PATH_MAX,
		    valid_abspath, "an absolute path", &k->src);
		config_get_pattern(w, path, o, "kernconf", 0, 64,
		    valid_filename,
		    "a kernel config name", &k->kernconf);
		config_get_int(w, path, o, "jobs", 0, 1, 256, &k->jobs);
		config_get_pattern(w, path, o, "kodir", 0, 64, valid_filename,
		    "a directory name", &k->kodir);
		break;
	case CONFIG_KERNEL_LINUX:
		config_check_keys(w, path, o, config_keys_kernel_linux,
		    "for type linux");
		get_template(w, path, o, "install", 0, 1, 1, &k->install);
		get_template(w, path, o, "reboot", 0, 1, 0, &k->reboot);
		get_template(w, path, o, "verify", 0, 1, 0, &k->verify);
		break;
	default:
		config_check_keys(w, path, o, config_keys_kernel_command,
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
parse_power(struct config_walk *w, const char *path, struct json_object *o,
    struct config_power *pw)
{
	int	has_cmd, has_url, method = 0;

	has_cmd = json_object_object_get_ex(o, "command", NULL);
	has_url = json_object_object_get_ex(o, "url", NULL);
	if (has_cmd && has_url) {
		config_werr(w, path, "has both \"command\" and \"url\"");
		return;
	}
	if (has_cmd) {
		pw->type = CONFIG_POWER_COMMAND;
		config_check_keys(w, path, o, config_keys_power_command,
		    "for a power command");
		get_template(w, path, o, "command", 1, 0, 0, &pw->command);
	} else if (has_url) {
		pw->type = CONFIG_POWER_URL;
		config_check_keys(w, path, o, config_keys_power_url,
		    "for a power URL");
		config_get_pattern(w, path, o, "url", 1, CONFIG_PATH_MAX,
		    valid_url,
		    "an http:// or https:// URL", &pw->url);
		config_get_enum(w, path, o, "method", 0, config_method_names,
		    &method);
		pw->method = xstrdup(config_method_names[method]);
	} else
		config_werr(w, path, "needs \"command\" or \"url\"");
}

static void
parse_host(struct config_walk *w, const char *path, struct json_object *o,
    struct config_host *h)
{
	struct json_object	*v, *arr;
	char			 p[CONFIG_PATHLEN], np[CONFIG_PATHLEN],
	    q[CONFIG_PATHLEN];
	size_t			 i, j, n;
	int			 os = 0;

	config_check_keys(w, path, o, config_keys_host, NULL);
	config_get_pattern(w, path, o, "name", 1, CONFIG_HOSTNAME_MAX,
	    config_valid_hostname, "a host name", &h->name);
	if (config_get_enum(w, path, o, "os", 1, config_os_names, &os) == 1)
		h->os = os;
	config_get_pattern(w, path, o, "address", 1, 253, valid_address,
	    "an IP address or DNS name", &h->address);
	if ((v = config_get_object(w, path, o, "ssh", 1)) != NULL) {
		config_path_key(p, path, "ssh");
		parse_ssh(w, p, v, &h->ssh);
	}
	if ((arr = config_get_array(w, path, o, "nics", 1,
	    CONFIG_NICS_MAX)) != NULL) {
		config_path_key(p, path, "nics");
		n = json_object_array_length(arr);
		h->nics = xcalloc(n, sizeof *h->nics);
		h->nnics = n;
		for (i = 0; i < n; i++) {
			v = json_object_array_get_idx(arr, i);
			config_path_index(np, p, i);
			if (config_want(w, np, v, json_type_object))
				parse_nic(w, np, v, &h->nics[i]);
			for (j = 0; j < i && h->nics[i].name != NULL; j++) {
				if (h->nics[j].name == NULL ||
				    strcmp(h->nics[j].name, h->nics[i].name))
					continue;
				config_path_key(q, np, "name");
				config_werr(w, q, "duplicate nic \"%s\" (also "
				    "%s[%zu])", h->nics[i].name, p, j);
				break;
			}
		}
	}
	if ((v = config_get_object(w, path, o, "kernel", 0)) != NULL) {
		config_path_key(p, path, "kernel");
		parse_kernel(w, p, v, &h->kernel);
	}
	if ((v = config_get_object(w, path, o, "power", 0)) != NULL) {
		config_path_key(p, path, "power");
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
parse_endpoint(struct config_walk *w, const char *path, struct json_object *o,
    const struct config_inventory *inv, struct config_endpoint *ep)
{
	const struct config_host	*h;
	char				 p[CONFIG_PATHLEN];

	config_check_keys(w, path, o, config_keys_endpoint, NULL);
	config_get_pattern(w, path, o, "address", 1, 64, valid_ipaddr,
	    "an IPv4 or IPv6 address", &ep->address);
	if (config_get_pattern(w, path, o, "host", 1, CONFIG_HOSTNAME_MAX,
	    config_valid_hostname, "a host name", &ep->host) == 1) {
		ep->host_index = host_index(inv, ep->host);
		if (ep->host_index == (size_t)-1) {
			config_path_key(p, path, "host");
			config_werr(w, p, "no host named \"%s\"", ep->host);
		}
	}
	if (config_get_pattern(w, path, o, "if", 1, CONFIG_IFNAME_MAX,
	    config_valid_ifname, "an interface name", &ep->ifname) != 1 ||
	    ep->host_index == (size_t)-1)
		return;
	h = &inv->hosts[ep->host_index];
	if (config_host_nic(h, ep->ifname) == NULL) {
		config_path_key(p, path, "if");
		config_werr(w, p, "host \"%s\" has no nic \"%s\"", h->name,
		    ep->ifname);
	}
}

static void
parse_link(struct config_walk *w, const char *path, struct json_object *o,
    const struct config_inventory *inv, struct config_link *l)
{
	struct json_object	*v;
	char			 p[CONFIG_PATHLEN], val[64];

	config_check_keys(w, path, o, config_keys_link, NULL);
	config_get_pattern(w, path, o, "name", 1, CONFIG_LINKNAME_MAX,
	    config_valid_linkname, "a link name", &l->name);
	l->client.host_index = l->server.host_index = (size_t)-1;
	if ((v = config_get_object(w, path, o, "client", 1)) != NULL) {
		config_path_key(p, path, "client");
		parse_endpoint(w, p, v, inv, &l->client);
	}
	if ((v = config_get_object(w, path, o, "server", 1)) != NULL) {
		config_path_key(p, path, "server");
		parse_endpoint(w, p, v, inv, &l->server);
	}
	if (l->client.host != NULL && l->server.host != NULL &&
	    strcmp(l->client.host, l->server.host) == 0) {
		config_path_key(p, path, "server.host");
		config_werr(w, p, "\"%s\" is also the client", l->server.host);
	}
	config_path_key(p, path, "nat");
	/* The schema allows "nat": null (no NAT on this link). */
	if ((v = config_member(w, path, o, "nat", 0, json_type_null)) == NULL)
		return;
	if (!json_object_is_type(v, json_type_string)) {
		config_fmtval(v, val, sizeof val);
		config_werr(w, p, "%s is neither null nor a host name", val);
		return;
	}
	if (config_get_pattern(w, path, o, "nat", 1, CONFIG_HOSTNAME_MAX,
	    config_valid_hostname, "a host name", &l->nat) != 1)
		return;
	if (l->client.host != NULL && strcmp(l->nat, l->client.host) == 0)
		l->nat_side = CONFIG_NAT_SIDE_CLIENT;
	else if (l->server.host != NULL && strcmp(l->nat, l->server.host) == 0)
		l->nat_side = CONFIG_NAT_SIDE_SERVER;
	else
		config_werr(w, p, "\"%s\" is not a host of link \"%s\"", l->nat,
		    l->name != NULL ? l->name : "?");
}

/* Duplicate names among the first n entries of an array of structs. */
static void
check_dups(struct config_walk *w, const char *arrpath, const char *what,
    char **names, size_t n)
{
	char	p[CONFIG_PATHLEN];
	size_t	i, j;

	for (i = 0; i < n; i++) {
		if (names[i] == NULL)
			continue;
		for (j = 0; j < i; j++) {
			if (names[j] == NULL || strcmp(names[i], names[j]))
				continue;
			snprintf(p, sizeof p, "%s[%zu].name", arrpath, i);
			config_werr(w, p, "duplicate %s \"%s\" (also %s[%zu])",
			    what,
			    names[i], arrpath, j);
			break;
		}
	}
}

/*
 * "revisions": a source as `bisect start --revisions` takes it; the path
 * (of "git:PATH[:SUB,...]", else the whole string) resolved like key's.
 */
static void
parse_revisions(struct config_walk *w, struct json_object *root,
    struct config_inventory *inv)
{
	char	*tmp = NULL, *rel, *abs;
	size_t	 len;

	if (config_get_pattern(w, "", root, "revisions", 0, CONFIG_PATH_MAX,
	    valid_any, "a revision source", &tmp) != 1) {
		free(tmp);
		return;
	}
	if (strncmp(tmp, "git:", 4) == 0) {
		len = strcspn(tmp + 4, ":");
		rel = xstrndup(tmp + 4, len);
		abs = resolve_path(w, rel);
		inv->revisions = xasprintf("git:%s%s", abs, tmp + 4 + len);
		free(abs);
		free(rel);
	} else
		inv->revisions = resolve_path(w, tmp);
	free(tmp);
}

static void
parse_inventory(struct config_walk *w, struct json_object *root,
    struct config_inventory *inv)
{
	struct json_object	*hosts, *links, *v;
	char			 p[CONFIG_PATHLEN];
	char			**names;
	size_t			 i, n;

	config_check_keys(w, "", root, config_keys_inventory, NULL);
	parse_revisions(w, root, inv);
	if ((hosts = config_get_array(w, "", root, "hosts", 1,
	    CONFIG_HOSTS_MAX)) != NULL) {
		n = json_object_array_length(hosts);
		inv->hosts = xcalloc(n, sizeof *inv->hosts);
		inv->nhosts = n;
		names = xcalloc(n, sizeof *names);
		for (i = 0; i < n; i++) {
			v = json_object_array_get_idx(hosts, i);
			config_path_index(p, "hosts", i);
			if (config_want(w, p, v, json_type_object))
				parse_host(w, p, v, &inv->hosts[i]);
			names[i] = inv->hosts[i].name;
		}
		check_dups(w, "hosts", "host name", names, n);
		free(names);
	}
	if ((links = config_get_array(w, "", root, "links", 1,
	    CONFIG_LINKS_MAX)) == NULL)
		return;
	n = json_object_array_length(links);
	inv->links = xcalloc(n, sizeof *inv->links);
	inv->nlinks = n;
	names = xcalloc(n, sizeof *names);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(links, i);
		config_path_index(p, "links", i);
		if (config_want(w, p, v, json_type_object))
			parse_link(w, p, v, inv, &inv->links[i]);
		names[i] = inv->links[i].name;
	}
	check_dups(w, "links", "link name", names, n);
	free(names);
}

/* The directory of path, absolute (relative to the working directory). */
char *
config_dir_of(const char *path)
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
	struct config_walk		 w;
	size_t			 before = errs->n + errs->dropped;

	if ((root = config_parse_text(path, text, len, errs)) == NULL)
		return NULL;
	inv = xcalloc(1, sizeof *inv);
	inv->path = xstrdup(path);
	inv->text = xstrndup(text, len);
	inv->dir = config_dir_of(path);
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

/* One referenced file: readable and not a directory, or an error. */
static void
check_file(const struct config_inventory *inv, size_t i, const char *key,
    const char *file, struct config_errors *errs)
{
	struct stat	st;
	char		p[CONFIG_PATHLEN];
	int		fd, saved;

	snprintf(p, sizeof p, "hosts[%zu].ssh.%s", i, key);
	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1) {
		config_errors_add(errs, inv->path, p, "%s: %s", file,
		    strerror(errno));
		return;
	}
	if (fstat(fd, &st) == -1) {
		saved = errno;
		config_errors_add(errs, inv->path, p, "%s: %s", file,
		    strerror(saved));
	} else if (S_ISDIR(st.st_mode))
		config_errors_add(errs, inv->path, p, "%s: %s", file,
		    strerror(EISDIR));
	close(fd);
}

/* 1 if a host before i refers to the same file (checked there). */
static int
seen_file(const struct config_inventory *inv, size_t i, const char *file)
{
	size_t	j;

	for (j = 0; j < i; j++)
		if ((inv->hosts[j].ssh.key != NULL &&
		    strcmp(inv->hosts[j].ssh.key, file) == 0) ||
		    (inv->hosts[j].ssh.known_hosts != NULL &&
		    strcmp(inv->hosts[j].ssh.known_hosts, file) == 0))
			return 1;
	return 0;
}

int
config_inventory_check_files(const struct config_inventory *inv,
    struct config_errors *errs)
{
	const struct config_ssh	*ssh;
	size_t			 i, before = errs->n + errs->dropped;

	/* Each file once, named by the first host that refers to it. */
	for (i = 0; i < inv->nhosts; i++) {
		ssh = &inv->hosts[i].ssh;
		if (ssh->key != NULL && !seen_file(inv, i, ssh->key))
			check_file(inv, i, "key", ssh->key, errs);
		if (ssh->known_hosts != NULL && !seen_file(inv, i,
		    ssh->known_hosts) && (ssh->key == NULL ||
		    strcmp(ssh->key, ssh->known_hosts) != 0))
			check_file(inv, i, "known_hosts", ssh->known_hosts,
			    errs);
	}
	return errs->n + errs->dropped == before ? 0 : -1;
}

struct config_inventory *
config_inventory_load(const char *path, struct config_errors *errs)
{
	struct config_inventory	*inv;
	char			*text;
	size_t			 len;

	if ((text = config_read_text(path, &len, errs)) == NULL)
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
	free(inv->revisions);
	for (i = 0; i < inv->nlinks; i++) {
		free(inv->links[i].name);
		endpoint_free(&inv->links[i].client);
		endpoint_free(&inv->links[i].server);
		free(inv->links[i].nat);
	}
	free(inv->links);
	free(inv->path);
	free(inv->dir);
	free(inv->text);
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
