/*
 * config_plan: the plan part of the config module (see config.h): links,
 * knob lists, per-link overrides, workloads, repetitions, timeouts, stats
 * settings, and the cross-check of a plan against an inventory.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "config_int.h"
#include "util.h"

static int
valid_size(const char *s)
{
	size_t	len = strlen(s);

	return len >= 1 && len <= 20 && isdigit((unsigned char)s[0]) &&
	    strspn(s, CONFIG_DIGIT) >= len - 1 &&
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
get_size(struct config_walk *w, const char *path, struct json_object *o,
    const char *key, int required, char **str, uint64_t *bytes)
{
	char	p[CONFIG_PATHLEN];

	if (config_get_pattern(w, path, o, key, required, 20, valid_size,
	    "a size like 512k, 1M or 1048576", str) != 1)
		return -1;
	if ((*bytes = size_bytes(*str)) == 0) {
		config_path_key(p, path, key);
		config_werr(w, p, "\"%s\" is out of range 1-64G", *str);
		return -1;
	}
	return 1;
}

/* One knob list: booleans, MTUs or NAT modes, no duplicates. */
static void
parse_knoblist(struct config_walk *w, const char *path, struct json_object *o,
    enum knob k, struct config_knoblist *kl)
{
	struct json_object	*arr, *v;
	char			 p[CONFIG_PATHLEN], ep[CONFIG_PATHLEN], val[64];
	size_t			 i, j, n;
	int			 x;

	if ((arr = config_get_array(w, path, o, knobs_names[k], 0,
	    CONFIG_KNOB_VALUES_MAX)) == NULL)
		return;
	config_path_key(p, path, knobs_names[k]);
	n = json_object_array_length(arr);
	kl->present = 1;
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		config_path_index(ep, p, i);
		config_fmtval(v, val, sizeof val);
		if (k == KNOB_MTU) {
			if (!config_want(w, ep, v, json_type_int))
				continue;
			if (json_object_get_int64(v) < KNOBS_MTU_MIN ||
			    json_object_get_int64(v) > KNOBS_MTU_MAX) {
				config_werr(w, ep,
				    "%s is out of range 576-65535",
				    val);
				continue;
			}
			x = (int)json_object_get_int64(v);
		} else if (k == KNOB_NAT) {
			if (!config_want(w, ep, v, json_type_string))
				continue;
			x = knobs_nat_from_name(json_object_get_string(v));
			if (x < 0) {
				config_werr(w, ep,
				    "%s is not one of off, divert, "
				    "kernel", val);
				continue;
			}
		} else {
			if (!config_want(w, ep, v, json_type_boolean))
				continue;
			x = json_object_get_boolean(v) ? 1 : 0;
		}
		for (j = 0; j < kl->n; j++)
			if (kl->values[j] == x)
				break;
		if (j < kl->n) {
			config_werr(w, ep, "%s is listed twice", val);
			continue;
		}
		kl->values[kl->n++] = x;
	}
	if (kl->n == 0)
		kl->present = 0;
}

static void
parse_knobs(struct config_walk *w, const char *path, struct json_object *o,
    struct config_knobset *ks)
{
	int	k;

	config_check_keys(w, path, o, knobs_names, NULL);
	for (k = 0; k < KNOB_COUNT; k++)
		parse_knoblist(w, path, o, k, &ks->knob[k]);
}

static int	plan_has_link(const struct config_plan *, const char *);

/* A workload's "links": names from the plan's links, no duplicates. */
static void
parse_workload_links(struct config_walk *w, const char *path,
    struct json_object *o,
    const struct config_plan *plan, struct config_workload *wl)
{
	struct json_object	*arr, *v;
	char			 p[CONFIG_PATHLEN], ep[CONFIG_PATHLEN], val[64];
	const char		*s;
	size_t			 i, j, n;

	if (plan == NULL || (arr = config_get_array(w, path, o, "links", 0,
	    CONFIG_LINKS_MAX)) == NULL)
		return;
	config_path_key(p, path, "links");
	n = json_object_array_length(arr);
	wl->links = xcalloc(n, sizeof *wl->links);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		config_path_index(ep, p, i);
		if (!config_want(w, ep, v, json_type_string))
			continue;
		s = json_object_get_string(v);
		config_fmtval(v, val, sizeof val);
		if (!plan_has_link(plan, s)) {
			config_werr(w, ep, "%s is not in links", val);
			continue;
		}
		for (j = 0; j < wl->nlinks; j++)
			if (strcmp(wl->links[j], s) == 0)
				break;
		if (j < wl->nlinks)
			config_werr(w, ep, "%s is listed twice", val);
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

void
config_parse_workload(struct config_walk *w, const char *path,
    struct json_object *o, const struct config_plan *plan,
    struct config_workload *wl)
{
	int	tool;

	wl->time = 10;
	wl->parallel = 1;
	if (config_get_enum(w, path, o, "tool", 1, config_tool_names,
	    &tool) != 1) {
		/* No tool to check the keys for: check what all tools share. */
		parse_workload_links(w, path, o, plan, wl);
		config_get_int(w, path, o, "time", 0, 1, 3600, &wl->time);
		config_get_int(w, path, o, "parallel", 0, 1, 128,
		    &wl->parallel);
		return;
	}
	wl->tool = tool;
	parse_workload_links(w, path, o, plan, wl);
	if (wl->tool == CONFIG_TOOL_SCP) {
		config_check_keys(w, path, o, config_keys_workload_scp,
		    "for tool scp");
		get_size(w, path, o, "size", 1, &wl->size, &wl->size_bytes);
		return;
	}
	config_check_keys(w, path, o, config_keys_workload_iperf, wl->tool ==
	    CONFIG_TOOL_IPERF2 ? "for tool iperf2" : "for tool iperf3");
	if (json_object_object_get_ex(o, "len", NULL))
		get_size(w, path, o, "len", 1, &wl->len, &wl->len_bytes);
	if (json_object_object_get_ex(o, "window", NULL))
		get_size(w, path, o, "window", 1, &wl->window,
		    &wl->window_bytes);
	config_get_bool(w, path, o, "nodelay", &wl->nodelay);
	config_get_int(w, path, o, "time", 0, 1, 3600, &wl->time);
	config_get_int(w, path, o, "parallel", 0, 1, 128, &wl->parallel);
	/* Below 1024 would need root on the server for no gain. */
	config_get_int(w, path, o, "port", 0, 1024, 65535, &wl->port);
}

static void
parse_stats(struct config_walk *w, const char *path, struct json_object *o,
    struct config_stats *st)
{
	char	p[CONFIG_PATHLEN];

	config_check_keys(w, path, o, config_keys_stats, NULL);
	config_get_num(w, path, o, "alpha", 0, 1, 0.5, &st->alpha);
	config_get_num(w, path, o, "min_effect", 0, 0, 1, &st->min_effect);
	config_get_int(w, path, o, "min_samples", 0, 2, 1000, &st->min_samples);
	config_get_int(w, path, o, "max_samples", 0, 2, 10000,
	    &st->max_samples);
	config_get_num(w, path, o, "collapse_factor", 1, 1, 1e6,
	    &st->collapse_factor);
	config_get_bool(w, path, o, "adaptive", &st->adaptive);
	if (st->max_samples < st->min_samples) {
		config_path_key(p, path, "max_samples");
		config_werr(w, p, "%d is less than min_samples (%d)",
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
parse_per_link(struct config_walk *w, struct json_object *o,
    struct config_plan *plan)
{
	struct json_object_iterator	 it, end;
	struct json_object		*v, *k;
	struct config_link_knobs	*lk;
	char				 p[CONFIG_PATHLEN], kp[CONFIG_PATHLEN];
	const char			*name;

	plan->per_link = xcalloc(CONFIG_LINKS_MAX, sizeof *plan->per_link);
	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	for (; !json_object_iter_equal(&it, &end);
	    json_object_iter_next(&it)) {
		name = json_object_iter_peek_name(&it);
		v = json_object_iter_peek_value(&it);
		config_path_key(p, "per_link", name);
		if (!plan_has_link(plan, name)) {
			config_werr(w, p, "link \"%s\" is not in links", name);
			continue;
		}
		if (!config_want(w, p, v, json_type_object) ||
		    plan->nper_link == CONFIG_LINKS_MAX)
			continue;
		config_check_keys(w, p, v, config_keys_per_link_entry, NULL);
		if ((k = config_get_object(w, p, v, "knobs", 1)) == NULL)
			continue;
		lk = &plan->per_link[plan->nper_link++];
		lk->link = xstrdup(name);
		config_path_key(kp, p, "knobs");
		parse_knobs(w, kp, k, &lk->knobs);
	}
}

int
config_valid_metric(const char *s)
{
	return s[0] >= 'a' && s[0] <= 'z' && strlen(s) <= 63 &&
	    config_all_in(s, CONFIG_LOWER CONFIG_DIGIT "_");
}

/*
 * "metrics": {"NAME": {"lower_is_better": BOOL}}: the direction of a
 * metric labrat does not know, or another one for a known metric.
 */
static void
parse_metrics(struct config_walk *w, struct json_object *o,
    struct config_plan *plan)
{
	struct json_object_iterator	 it, end;
	struct json_object		*v;
	struct config_metric		*m;
	char				 p[CONFIG_PATHLEN];
	const char			*name;

	if (json_object_object_length(o) > CONFIG_METRICS_MAX) {
		config_werr(w, "metrics", "more than %d metrics",
		    CONFIG_METRICS_MAX);
		return;
	}
	plan->metrics = xcalloc(CONFIG_METRICS_MAX, sizeof *plan->metrics);
	it = json_object_iter_begin(o);
	end = json_object_iter_end(o);
	for (; !json_object_iter_equal(&it, &end);
	    json_object_iter_next(&it)) {
		name = json_object_iter_peek_name(&it);
		v = json_object_iter_peek_value(&it);
		config_path_key(p, "metrics", name);
		if (!config_valid_metric(name)) {
			config_werr(w, p, "\"%.80s\" is not a metric name like "
			    "cpu_sender", name);
			continue;
		}
		if (!config_want(w, p, v, json_type_object))
			continue;
		config_check_keys(w, p, v, config_keys_metric, NULL);
		if (!json_object_object_get_ex(v, "lower_is_better", NULL)) {
			config_werr(w, p, "lower_is_better is missing");
			continue;
		}
		m = &plan->metrics[plan->nmetrics++];
		m->name = xstrdup(name);
		config_get_bool(w, p, v, "lower_is_better",
		    &m->lower_is_better);
	}
}

int
config_plan_lower_is_better(const struct config_plan *plan,
    const char *metric)
{
	size_t	i;

	for (i = 0; plan != NULL && i < plan->nmetrics; i++)
		if (strcmp(plan->metrics[i].name, metric) == 0)
			return plan->metrics[i].lower_is_better;
	return -1;
}

static void
parse_plan_links(struct config_walk *w, struct json_object *root,
    struct config_plan *plan)
{
	struct json_object	*arr, *v;
	char			 p[CONFIG_PATHLEN], val[64];
	size_t			 i, n;

	if ((arr = config_get_array(w, "", root, "links", 1,
	    CONFIG_LINKS_MAX)) == NULL)
		return;
	n = json_object_array_length(arr);
	plan->links = xcalloc(n, sizeof *plan->links);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(arr, i);
		config_path_index(p, "links", i);
		if (!config_want(w, p, v, json_type_string))
			continue;
		config_fmtval(v, val, sizeof val);
		if (!config_valid_linkname(json_object_get_string(v)))
			config_werr(w, p, "%s is not a link name", val);
		else if (plan_has_link(plan, json_object_get_string(v)))
			config_werr(w, p, "%s is listed twice", val);
		else
			plan->links[plan->nlinks++] =
			    xstrdup(json_object_get_string(v));
	}
}

/* Every link needs a workload (workloads[].links may leave one without). */
static void
check_link_workloads(struct config_walk *w, const struct config_plan *plan)
{
	char	p[CONFIG_PATHLEN];
	size_t	i, j;

	for (i = 0; i < plan->nlinks; i++) {
		for (j = 0; j < plan->nworkloads; j++)
			if (config_workload_on_link(&plan->workloads[j],
			    plan->links[i]))
				break;
		if (j == plan->nworkloads) {
			config_path_index(p, "links", i);
			config_werr(w, p, "no workload runs on link \"%s\"",
			    plan->links[i]);
		}
	}
}

static void
parse_plan(struct config_walk *w, struct json_object *root,
    struct config_plan *plan)
{
	struct json_object	*v, *arr;
	char			 p[CONFIG_PATHLEN];
	size_t			 i, n;
	int			 tso_on = 0;

	config_check_keys(w, "", root, config_keys_plan, NULL);
	parse_plan_links(w, root, plan);
	if ((v = config_get_object(w, "", root, "knobs", 0)) != NULL)
		parse_knobs(w, "knobs", v, &plan->knobs);
	if ((v = config_get_object(w, "", root, "per_link", 0)) != NULL)
		parse_per_link(w, v, plan);
	if (config_get_enum(w, "", root, "tso_on", 0, config_tso_on_names,
	    &tso_on) == 1)
		plan->tso_on = tso_on;
	if ((arr = config_get_array(w, "", root, "workloads", 1,
	    CONFIG_WORKLOADS_MAX)) != NULL) {
		n = json_object_array_length(arr);
		plan->workloads = xcalloc(n, sizeof *plan->workloads);
		plan->nworkloads = n;
		for (i = 0; i < n; i++) {
			v = json_object_array_get_idx(arr, i);
			config_path_index(p, "workloads", i);
			if (config_want(w, p, v, json_type_object))
				config_parse_workload(w, p, v, plan,
				    &plan->workloads[i]);
		}
		check_link_workloads(w, plan);
	}
	config_get_int(w, "", root, "repetitions", 0, 1, 1000,
	    &plan->repetitions);
	if ((v = config_get_object(w, "", root, "timeouts", 0)) != NULL) {
		config_check_keys(w, "timeouts", v, config_keys_timeouts, NULL);
		config_get_int(w, "timeouts", v, "connect", 0, 1, 600,
		    &plan->connect_timeout);
		config_get_int(w, "timeouts", v, "job", 0, 1, 86400,
		    &plan->job_timeout);
		config_get_int(w, "timeouts", v, "settle_ms", 0, 0, 60000,
		    &plan->settle_ms);
	}
	config_get_int(w, "", root, "retries", 0, 0, 10, &plan->retries);
	if ((v = config_get_object(w, "", root, "stats", 0)) != NULL)
		parse_stats(w, "stats", v, &plan->stats);
	if ((v = config_get_object(w, "", root, "metrics", 0)) != NULL)
		parse_metrics(w, v, plan);
}

void
config_plan_defaults(struct config_plan *plan)
{
	plan->tso_on = CONFIG_TSO_ON_SENDER;
	plan->repetitions = 1;
	plan->connect_timeout = 10;
	plan->job_timeout = 120;
	plan->settle_ms = 200;
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
	const struct config_knoblist	*kl = &ks->knob[KNOB_NAT];
	const struct config_host	*nat;
	char				 p[CONFIG_PATHLEN];
	size_t				 i;

	if (ks == &plan->knobs)
		snprintf(p, sizeof p, "knobs.nat");
	else
		snprintf(p, sizeof p, "per_link.%s.knobs.nat", l->name);
	for (i = 0; i < kl->n; i++) {
		if (kl->values[i] == KNOB_NAT_OFF)
			continue;
		if (l->nat == NULL) {
			config_errors_add(errs, plan->path, p, "\"%s\" on link "
			    "\"%s\", which has no NAT host in %s",
			    knobs_nat_name(kl->values[i]), l->name,
    inv->path);
			continue;
		}
		nat = config_inventory_host(inv, l->nat);
		if (kl->values[i] == KNOB_NAT_DIVERT && nat != NULL &&
		    nat->os != CONFIG_OS_FREEBSD)
			config_errors_add(errs, plan->path, p, "\"divert\" on "
			    "link \"%s\" needs FreeBSD, but NAT host \"%s\" "
			    "runs %s", l->name, nat->name,
			    config_os_names[nat->os]);
	}
}

int
config_plan_check(const struct config_plan *plan,
    const struct config_inventory *inv, struct config_errors *errs)
{
	const struct config_link	*l;
	char				 p[CONFIG_PATHLEN];
	size_t				 i, before = errs->n + errs->dropped;

	for (i = 0; i < plan->nlinks; i++) {
		config_path_index(p, "links", i);
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
	struct config_walk		 w;
	size_t			 before = errs->n + errs->dropped;

	if ((root = config_parse_text(path, text, len, errs)) == NULL)
		return NULL;
	plan = xcalloc(1, sizeof *plan);
	plan->path = xstrdup(path);
	plan->text = xstrndup(text, len);
	config_plan_defaults(plan);
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

	if ((text = config_read_text(path, &len, errs)) == NULL)
		return NULL;
	plan = config_plan_parse(path, text, len, inv, errs);
	free(text);
	return plan;
}

void
config_plan_free(struct config_plan *plan)
{
	size_t	i;

	if (plan == NULL)
		return;
	for (i = 0; i < plan->nlinks; i++)
		free(plan->links[i]);
	free(plan->links);
	for (i = 0; i < plan->nper_link; i++)
		free(plan->per_link[i].link);
	free(plan->per_link);
	for (i = 0; i < plan->nworkloads; i++)
		config_workload_clear(&plan->workloads[i]);
	free(plan->workloads);
	for (i = 0; i < plan->nmetrics; i++)
		free(plan->metrics[i].name);
	free(plan->metrics);
	free(plan->path);
	free(plan->text);
	free(plan);
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

void
config_workload_copy(struct config_workload *dst,
    const struct config_workload *src)
{
	size_t	i;

	*dst = *src;
	dst->len = dup_or_null(src->len);
	dst->window = dup_or_null(src->window);
	dst->size = dup_or_null(src->size);
	if (src->links == NULL)
		return;
	dst->links = xcalloc(src->nlinks + 1, sizeof *dst->links);
	for (i = 0; i < src->nlinks; i++)
		dst->links[i] = xstrdup(src->links[i]);
}

void
config_workload_clear(struct config_workload *wl)
{
	size_t	i;

	free(wl->len);
	free(wl->window);
	free(wl->size);
	for (i = 0; i < wl->nlinks; i++)
		free(wl->links[i]);
	free(wl->links);
	memset(wl, 0, sizeof *wl);
}

/* 1 if name is in the comma list links. */
static int
in_list(const char *links, const char *name)
{
	size_t	n = strlen(name);
	const char *p = links;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

static void
restrict_workload(struct config_workload *wl, const char *links)
{
	size_t	i, j;

	for (i = j = 0; i < wl->nlinks; i++) {
		if (in_list(links, wl->links[i]))
			wl->links[j++] = wl->links[i];
		else
			free(wl->links[i]);
	}
	wl->nlinks = j;
}

int
config_plan_restrict(struct config_plan *plan, const char *links, char *err,
    size_t errlen)
{
	size_t	i, j, k, n = 0;

	for (i = 0; i < plan->nlinks; i++)
		n += in_list(links, plan->links[i]);
	for (k = 0, i = 0; links[i] != '\0'; i++)
		k += links[i] == ',';
	if (n == 0 || n != k + 1) {
		util_seterr(err, errlen, "%s: links \"%s\": not all links of "
		    "the plan", plan->path != NULL ? plan->path : "plan",
		    links);
		return -1;
	}
	for (i = j = 0; i < plan->nlinks; i++) {
		if (in_list(links, plan->links[i]))
			plan->links[j++] = plan->links[i];
		else
			free(plan->links[i]);
	}
	plan->nlinks = j;
	for (i = j = 0; i < plan->nper_link; i++) {
		if (in_list(links, plan->per_link[i].link))
			plan->per_link[j++] = plan->per_link[i];
		else
			free(plan->per_link[i].link);
	}
	plan->nper_link = j;
	for (i = j = 0; i < plan->nworkloads; i++) {
		struct config_workload *wl = &plan->workloads[i];

		if (wl->links != NULL) {
			restrict_workload(wl, links);
			if (wl->nlinks == 0) {
				config_workload_clear(wl);
				continue;
			}
		}
		if (j != i)
			plan->workloads[j] = *wl;
		j++;
	}
	plan->nworkloads = j;
	if (j == 0) {
		util_seterr(err, errlen, "%s: no workload runs on links %s",
		    plan->path != NULL ? plan->path : "plan", links);
		return -1;
	}
	return 0;
}
