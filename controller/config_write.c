/*
 * config_write: a plan (or one workload) as canonical JSON, through the
 * json module's writer.  Canonical: compact, every key the loader accepts
 * written in one fixed order (the schema's), defaults written out, knobs in
 * enum knob order, so one plan struct always gives one text and parsing
 * that text gives the same struct back.  This is the text a run or a
 * bisect step stores for a plan that was built rather than read from a
 * file (config_bisect_plan()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_int.h"
#include "json.h"
#include "log.h"
#include "util.h"

static void
put_knob_value(struct json_writer *w, enum knob k, int v)
{
	if (k == KNOB_MTU)
		json_put_int(w, v);
	else if (k == KNOB_NAT)
		json_put_str(w, knobs_nat_name(v));
	else
		json_put_bool(w, v);
}

static void
put_knobset(struct json_writer *w, const struct config_knobset *ks)
{
	const struct config_knoblist	*kl;
	size_t				 i;
	int				 k;

	json_begin_obj(w);
	for (k = 0; k < KNOB_COUNT; k++) {
		kl = &ks->knob[k];
		if (!kl->present)
			continue;
		json_key(w, knobs_name(k));
		json_begin_arr(w);
		for (i = 0; i < kl->n; i++)
			put_knob_value(w, k, kl->values[i]);
		json_end_arr(w);
	}
	json_end_obj(w);
}

static void
put_workload(struct json_writer *w, const struct config_workload *wl)
{
	size_t	i;

	json_begin_obj(w);
	json_kv_str(w, "tool", config_tool_name(wl->tool));
	if (wl->tool == CONFIG_TOOL_SCP)
		json_kv_str(w, "size", wl->size);
	else {
		if (wl->len != NULL)
			json_kv_str(w, "len", wl->len);
		if (wl->window != NULL)
			json_kv_str(w, "window", wl->window);
		json_kv_bool(w, "nodelay", wl->nodelay);
		json_kv_int(w, "time", wl->time);
		json_kv_int(w, "parallel", wl->parallel);
		/* Only when set: a plan without one keeps its old text. */
		if (wl->port != 0)
			json_kv_int(w, "port", wl->port);
	}
	if (wl->links != NULL) {
		json_key(w, "links");
		json_begin_arr(w);
		for (i = 0; i < wl->nlinks; i++)
			json_put_str(w, wl->links[i]);
		json_end_arr(w);
	}
	json_end_obj(w);
}

static void
put_plan(struct json_writer *w, const struct config_plan *plan)
{
	const struct config_stats	*st = &plan->stats;
	size_t				 i;

	json_begin_obj(w);
	json_key(w, "links");
	json_begin_arr(w);
	for (i = 0; i < plan->nlinks; i++)
		json_put_str(w, plan->links[i]);
	json_end_arr(w);
	json_key(w, "knobs");
	put_knobset(w, &plan->knobs);
	if (plan->nper_link > 0) {
		json_key(w, "per_link");
		json_begin_obj(w);
		for (i = 0; i < plan->nper_link; i++) {
			json_key(w, plan->per_link[i].link);
			json_begin_obj(w);
			json_key(w, "knobs");
			put_knobset(w, &plan->per_link[i].knobs);
			json_end_obj(w);
		}
		json_end_obj(w);
	}
	json_kv_str(w, "tso_on", config_tso_on_names[plan->tso_on]);
	json_key(w, "workloads");
	json_begin_arr(w);
	for (i = 0; i < plan->nworkloads; i++)
		put_workload(w, &plan->workloads[i]);
	json_end_arr(w);
	json_kv_int(w, "repetitions", plan->repetitions);
	json_key(w, "timeouts");
	json_begin_obj(w);
	json_kv_int(w, "connect", plan->connect_timeout);
	json_kv_int(w, "job", plan->job_timeout);
	json_kv_int(w, "settle_ms", plan->settle_ms);
	json_end_obj(w);
	json_kv_int(w, "retries", plan->retries);
	json_key(w, "stats");
	json_begin_obj(w);
	json_kv_num(w, "alpha", st->alpha);
	json_kv_num(w, "min_effect", st->min_effect);
	json_kv_int(w, "min_samples", st->min_samples);
	json_kv_int(w, "max_samples", st->max_samples);
	json_kv_num(w, "collapse_factor", st->collapse_factor);
	json_kv_bool(w, "adaptive", st->adaptive);
	json_end_obj(w);
	if (plan->nmetrics > 0) {
		json_key(w, "metrics");
		json_begin_obj(w);
		for (i = 0; i < plan->nmetrics; i++) {
			json_key(w, plan->metrics[i].name);
			json_begin_obj(w);
			json_kv_bool(w, "lower_is_better",
			    plan->metrics[i].lower_is_better);
			json_end_obj(w);
		}
		json_end_obj(w);
	}
	json_end_obj(w);
}

/* Runs put() on a memory stream; the text without the writer's newline. */
static char *
write_text(void (*put)(struct json_writer *, const void *), const void *arg)
{
	struct json_mem		 m;
	struct json_writer	*w;
	char			*text, err[256];

	if ((w = json_mem_begin(&m, JSON_MEM_TRIM)) == NULL)
		fatal("open_memstream");
	put(w, arg);
	/* Every value written comes from a validated struct. */
	if ((text = json_mem_end(&m, NULL, err, sizeof err)) == NULL)
		fatalx("config: writing JSON: %s", err);
	return text;
}

static void
put_plan_cb(struct json_writer *w, const void *arg)
{
	put_plan(w, arg);
}

static void
put_workload_cb(struct json_writer *w, const void *arg)
{
	put_workload(w, arg);
}

char *
config_plan_json(const struct config_plan *plan)
{
	return write_text(put_plan_cb, plan);
}

char *
config_workload_json(const struct config_workload *wl)
{
	return write_text(put_workload_cb, wl);
}
