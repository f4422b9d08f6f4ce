/*
 * config_bisect: the test file of `labrat bisect` (schemas/bisect-test.
 * schema.json): which knobs, which workload, which metric and how a
 * revision is judged.  Part of the config module (json-c stays here); its
 * workload is parsed by the plan loader's own workload parser
 * (config_parse_workload()), so both accept exactly the same workloads, and
 * the plan that measures it is built as a struct (config_bisect_plan()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "config_int.h"
#include "util.h"

static const char *const bt_keys[] = { "description", "knobs", "compare",
	"workload", "metric", "lower_is_better", "threshold", "sampling",
	"timeouts", "retries", NULL };
static const char *const bt_keys_compare[] = { "type", "knob", "reference",
	"candidate", NULL };
static const char *const bt_keys_sampling[] = { "alpha", "min_samples",
	"max_samples", "collapse_factor", "collapse_min_samples",
	"remeasures", NULL };
static const char *const bt_keys_timeouts[] = { "connect", "job",
	"install", "down", "boot", "power", NULL };
static const char *const bt_compare_names[] = { "ab", "baseline", NULL };

/* One knob value (JSON boolean, MTU integer or NAT name) -> *out. */
static int
knob_value(struct config_walk *w, const char *path, enum knob k,
    struct json_object *v, int *out)
{
	char	val[64];

	config_fmtval(v, val, sizeof val);
	if (k == KNOB_MTU) {
		if (!config_want(w, path, v, json_type_int))
			return -1;
		if (json_object_get_int64(v) < KNOBS_MTU_MIN ||
		    json_object_get_int64(v) > KNOBS_MTU_MAX) {
			config_werr(w, path, "%s is out of range 576-65535",
			    val);
			return -1;
		}
		*out = (int)json_object_get_int64(v);
	} else if (k == KNOB_NAT) {
		if (!config_want(w, path, v, json_type_string))
			return -1;
		*out = knobs_nat_from_name(json_object_get_string(v));
		if (*out < 0) {
			config_werr(w, path, "%s is not one of off, divert, "
			    "kernel", val);
			return -1;
		}
	} else {
		if (!config_want(w, path, v, json_type_boolean))
			return -1;
		*out = json_object_get_boolean(v) ? 1 : 0;
	}
	return 0;
}

static void
bt_knobs(struct config_walk *w, struct json_object *root,
    struct config_bisect_test *t)
{
	struct json_object	*o, *v;
	char			 p[CONFIG_PATHLEN];
	int			 k, x;

	if ((o = config_get_object(w, "", root, "knobs", 0)) == NULL)
		return;
	config_check_keys(w, "knobs", o, knobs_names, NULL);
	for (k = 0; k < KNOB_COUNT; k++) {
		if (!json_object_object_get_ex(o, knobs_names[k], &v))
			continue;
		config_path_key(p, "knobs", knobs_names[k]);
		if (knob_value(w, p, k, v, &x) == 0)
			knobs_set(&t->knobs, k, x);
	}
}

static void
bt_compare(struct config_walk *w, struct json_object *root,
    struct config_bisect_test *t)
{
	struct json_object	*o, *v;
	char			 p[CONFIG_PATHLEN];
	int			 type, knob, vt, ok = 1;

	if ((o = config_get_object(w, "", root, "compare", 1)) == NULL)
		return;
	config_check_keys(w, "compare", o, bt_keys_compare, NULL);
	if (config_get_enum(w, "compare", o, "type", 1, bt_compare_names,
	    &type) != 1) {
		/* No type: still check the knob an A/B would compare. */
		config_get_enum(w, "compare", o, "knob", 0, knobs_names,
		    &knob);
		return;
	}
	t->compare = type;
	if (t->compare == CONFIG_BISECT_BASELINE) {
		if (json_object_object_get_ex(o, "knob", NULL) ||
		    json_object_object_get_ex(o, "reference", NULL) ||
		    json_object_object_get_ex(o, "candidate", NULL))
			config_werr(w, "compare", "knob, reference and "
			    "candidate are for type ab only");
		return;
	}
	if (config_get_enum(w, "compare", o, "knob", 1, knobs_names,
	    &knob) != 1)
		return;
	t->ab_knob = knob;
	vt = knob == KNOB_MTU ? json_type_int : knob == KNOB_NAT ?
	    json_type_string : json_type_boolean;
	if ((v = config_member(w, "compare", o, "reference", 1, vt)) == NULL ||
	    knob_value(w, "compare.reference", knob, v,
	    &t->ab_reference) == -1)
		ok = 0;
	if ((v = config_member(w, "compare", o, "candidate", 1, vt)) == NULL ||
	    knob_value(w, "compare.candidate", knob, v,
	    &t->ab_candidate) == -1)
		ok = 0;
	if (ok && t->ab_reference == t->ab_candidate)
		config_werr(w, "compare", "reference and candidate are the "
		    "same value");
	if (knobs_isset(&t->knobs, knob)) {
		config_path_key(p, "knobs", knobs_names[knob]);
		config_werr(w, p, "is compared A/B (compare.knob), so it "
		    "cannot also be fixed here");
	}
}

static void
bt_sampling(struct config_walk *w, struct json_object *root,
    struct config_bisect_test *t)
{
	struct json_object	*o;

	if ((o = config_get_object(w, "", root, "sampling", 0)) == NULL)
		return;
	config_check_keys(w, "sampling", o, bt_keys_sampling, NULL);
	config_get_num(w, "sampling", o, "alpha", 0, 1, 0.5, &t->alpha);
	config_get_int(w, "sampling", o, "min_samples", 0, 2, 1000,
	    &t->min_samples);
	config_get_int(w, "sampling", o, "max_samples", 0, 2, 10000,
	    &t->max_samples);
	config_get_num(w, "sampling", o, "collapse_factor", 1, 1, 1e6,
	    &t->collapse_factor);
	config_get_int(w, "sampling", o, "collapse_min_samples", 0, 2, 1000,
	    &t->collapse_min_samples);
	config_get_int(w, "sampling", o, "remeasures", 0, 0, 10,
	    &t->remeasures);
	if (t->max_samples < t->min_samples)
		config_werr(w, "sampling.max_samples", "%d is below "
		    "min_samples %d", t->max_samples, t->min_samples);
	if (t->collapse_min_samples > t->min_samples)
		config_werr(w, "sampling.collapse_min_samples", "%d is above "
		    "min_samples %d", t->collapse_min_samples,
		    t->min_samples);
}

static void
bt_timeouts(struct config_walk *w, struct json_object *root,
    struct config_bisect_test *t)
{
	struct json_object	*o;

	if ((o = config_get_object(w, "", root, "timeouts", 0)) == NULL)
		return;
	config_check_keys(w, "timeouts", o, bt_keys_timeouts, NULL);
	config_get_int(w, "timeouts", o, "connect", 0, 1, 600,
	    &t->connect_timeout);
	config_get_int(w, "timeouts", o, "job", 0, 1, 86400, &t->job_timeout);
	config_get_int(w, "timeouts", o, "install", 0, 1, 86400,
	    &t->install_timeout);
	config_get_int(w, "timeouts", o, "down", 0, 1, 3600,
	    &t->down_timeout);
	config_get_int(w, "timeouts", o, "boot", 0, 1, 3600,
	    &t->boot_timeout);
	config_get_int(w, "timeouts", o, "power", 0, 1, 3600,
	    &t->power_timeout);
}

/* The workload, by the plan loader's own parser: paths are ours. */
static void
bt_workload(struct config_walk *w, struct json_object *root,
    struct config_bisect_test *t)
{
	struct json_object	*o;

	if ((o = config_get_object(w, "", root, "workload", 1)) == NULL)
		return;
	if (json_object_object_get_ex(o, "links", NULL)) {
		config_werr(w, "workload.links", "not allowed here: the link "
		    "is bisect's --link");
		return;
	}
	config_parse_workload(w, "workload", o, NULL, &t->workload);
}

static void
bt_defaults(struct config_bisect_test *t)
{
	t->lower_is_better = -1;	/* the metric's own direction */
	t->threshold = 0.9;
	t->alpha = 0.05;
	t->min_samples = 5;
	t->max_samples = 20;
	t->collapse_factor = 5;
	t->collapse_min_samples = 3;
	t->remeasures = 1;
	t->connect_timeout = 10;
	t->job_timeout = 120;
	t->install_timeout = 7200;
	t->down_timeout = 120;
	t->boot_timeout = 300;
	t->power_timeout = 60;
	t->retries = 2;
}

struct config_bisect_test *
config_bisect_test_parse(const char *path, const char *text, size_t len,
    struct config_errors *errs)
{
	struct config_bisect_test	*t;
	struct json_object		*root;
	struct config_walk		 w;
	const char			*s;
	size_t				 before = errs->n + errs->dropped;

	if ((root = config_parse_text(path, text, len, errs)) == NULL)
		return NULL;
	t = xcalloc(1, sizeof *t);
	t->path = xstrdup(path);
	t->text = xstrndup(text, len);
	bt_defaults(t);
	w.file = path;
	w.errs = errs;
	w.dir = NULL;
	if (config_want(&w, "", root, json_type_object)) {
		config_check_keys(&w, "", root, bt_keys, NULL);
		if (config_get_str(&w, "", root, "description", 0, 1024,
		    &s) == 1)
			t->description = xstrdup(s);
		bt_knobs(&w, root, t);
		bt_compare(&w, root, t);
		bt_workload(&w, root, t);
		s = "throughput_bps";
		if (config_get_str(&w, "", root, "metric", 0, 63, &s) == 1 &&
		    !config_valid_metric(s))
			config_werr(&w, "metric", "\"%s\" is not a metric name "
			    "like throughput_bps", s);
		t->metric = xstrdup(s);
		config_get_bool(&w, "", root, "lower_is_better",
		    &t->lower_is_better);
		t->threshold_set = config_get_num(&w, "", root, "threshold",
		    0, 1, 1e6, &t->threshold) == 1;
		bt_sampling(&w, root, t);
		bt_timeouts(&w, root, t);
		config_get_int(&w, "", root, "retries", 0, 0, 10, &t->retries);
	}
	json_object_put(root);
	if (errs->n + errs->dropped != before) {
		config_bisect_test_free(t);
		return NULL;
	}
	return t;
}

struct config_bisect_test *
config_bisect_test_load(const char *path, struct config_errors *errs)
{
	struct config_bisect_test	*t;
	char				*text;
	size_t				 len;

	if ((text = config_read_text(path, &len, errs)) == NULL)
		return NULL;
	t = config_bisect_test_parse(path, text, len, errs);
	free(text);
	return t;
}

void
config_bisect_test_free(struct config_bisect_test *t)
{
	if (t == NULL)
		return;
	free(t->path);
	free(t->text);
	free(t->description);
	config_workload_clear(&t->workload);
	free(t->metric);
	free(t);
}

struct config_bisect_test *
config_bisect_test_stand_in(const char *path, const char *metric,
    struct config_errors *errs)
{
	struct config_bisect_test	*t;

	if (!config_valid_metric(metric)) {
		config_errors_add(errs, path, "metric", "\"%.80s\" is not a "
		    "metric name like throughput_bps", metric);
		return NULL;
	}
	t = xcalloc(1, sizeof *t);
	t->path = xstrdup(path);
	bt_defaults(t);
	t->compare = CONFIG_BISECT_BASELINE;
	t->workload.tool = CONFIG_TOOL_IPERF3;
	t->workload.time = 10;
	t->workload.parallel = 1;
	t->metric = xstrdup(metric);
	return t;
}

/* kl = the one value v. */
static void
knoblist_one(struct config_knoblist *kl, int v)
{
	kl->present = 1;
	kl->n = 1;
	kl->values[0] = v;
}

struct config_plan *
config_bisect_plan(const struct config_bisect_test *t, const char *link,
    const struct config_inventory *inv, struct config_errors *errs)
{
	struct config_plan	*plan;
	struct config_knoblist	*kl;
	int			 k;

	if (!config_valid_linkname(link)) {
		config_errors_add(errs, t->path, "links[0]", "\"%.80s\" is "
		    "not a link name", link);
		return NULL;
	}
	plan = xcalloc(1, sizeof *plan);
	plan->path = xstrdup(t->path);
	config_plan_defaults(plan);
	plan->links = xcalloc(1, sizeof *plan->links);
	plan->links[0] = xstrdup(link);
	plan->nlinks = 1;
	for (k = 0; k < KNOB_COUNT; k++) {
		kl = &plan->knobs.knob[k];
		if (t->compare == CONFIG_BISECT_AB && (int)t->ab_knob == k) {
			knoblist_one(kl, t->ab_reference);
			kl->values[kl->n++] = t->ab_candidate;
		} else if (knobs_isset(&t->knobs, k))
			knoblist_one(kl, knobs_get(&t->knobs, k));
	}
	plan->workloads = xcalloc(1, sizeof *plan->workloads);
	config_workload_copy(&plan->workloads[0], &t->workload);
	plan->nworkloads = 1;
	plan->repetitions = 1;
	plan->connect_timeout = t->connect_timeout;
	plan->job_timeout = t->job_timeout;
	plan->retries = t->retries;
	if (inv != NULL && config_plan_check(plan, inv, errs) == -1) {
		config_plan_free(plan);
		return NULL;
	}
	return plan;
}

/* "revisions": [{"id", "message"}] of a simulated-lab history file. */
int
config_history_revisions(const char *path, char ***idsp, char ***msgsp,
    size_t *np, struct config_errors *errs)
{
	char	*text;
	size_t	 len;
	int	 rc;

	if ((text = config_read_text(path, &len, errs)) == NULL)
		return -1;
	rc = config_history_parse(path, text, len, idsp, msgsp, np, errs);
	free(text);
	return rc;
}

int
config_history_parse(const char *path, const char *text, size_t len,
    char ***idsp, char ***msgsp, size_t *np, struct config_errors *errs)
{
	struct json_object	*root, *arr, *e, *v;
	struct config_walk	 w;
	char			 p[CONFIG_PATHLEN], mp[CONFIG_PATHLEN];
	char			**ids = NULL, **msgs = NULL;
	size_t			 n = 0, i;
	size_t			 before = errs->n + errs->dropped;

	if ((root = config_parse_text(path, text, len, errs)) == NULL)
		return -1;
	w.file = path;
	w.errs = errs;
	w.dir = NULL;
	if (config_want(&w, "", root, json_type_object) &&
	    (arr = config_get_array(&w, "", root, "revisions", 1,
	    1000000)) != NULL) {
		n = json_object_array_length(arr);
		ids = xcalloc(n + 1, sizeof *ids);
		msgs = xcalloc(n + 1, sizeof *msgs);
		for (i = 0; i < n; i++) {
			e = json_object_array_get_idx(arr, i);
			config_path_index(p, "revisions", i);
			if (!config_want(&w, p, e, json_type_object))
				continue;
			if (config_get_pattern(&w, p, e, "id", 1,
			    CONFIG_REV_MAX, config_valid_revision,
			    "a revision id", &ids[i]) != 1)
				continue;
			config_path_key(mp, p, "message");
			if ((v = config_member(&w, p, e, "message", 1,
			    json_type_string)) == NULL ||
			    !config_want(&w, mp, v, json_type_string))
				continue;
			msgs[i] = xstrdup(json_object_get_string(v));
		}
	}
	json_object_put(root);
	if (errs->n + errs->dropped != before || ids == NULL) {
		/* Entries with errors left holes: free all n. */
		for (i = 0; ids != NULL && i < n; i++) {
			free(ids[i]);
			free(msgs[i]);
		}
		free(ids);
		free(msgs);
		return -1;
	}
	*idsp = ids;
	*msgsp = msgs;
	*np = n;
	return 0;
}
