/*
 * fuzz_config.h: what the config targets check on everything
 * controller/config.h loads: it fails with at least one reason, or
 * succeeds with no reason and every field validated (config.h: "Everything
 * a loaded config holds has been validated"): names match their patterns,
 * references resolve, required strings are there.
 */
#ifndef LABRAT_FUZZ_CONFIG_H
#define LABRAT_FUZZ_CONFIG_H

#include "config.h"
#include "fuzz.h"

/* Config paths are made absolute against this directory. */
#define FUZZ_CONFIG_DIR	"/fuzz-config"

/* A load returned r (NULL or not) with errs: exactly one of the two. */
#define FUZZ_LOADED(r, errs) FUZZ_CHECK(((r) != NULL) ==		\
	    ((errs)->n + (errs)->dropped == 0),				\
	    "%s with %zu errors", (r) != NULL ? "loaded" : "refused",	\
	    (errs)->n + (errs)->dropped)

static inline void
fuzz_endpoint_ok(const struct config_inventory *inv,
    const struct config_endpoint *e)
{
	FUZZ_CHECK(e->host != NULL && e->ifname != NULL && e->address != NULL,
	    "endpoint with a NULL host, if or address");
	FUZZ_CHECK(e->host_index < inv->nhosts &&
	    strcmp(inv->hosts[e->host_index].name, e->host) == 0,
	    "endpoint host %s: bad host_index %zu", e->host, e->host_index);
	FUZZ_CHECK(config_valid_ifname(e->ifname), "endpoint if %s",
	    e->ifname);
}

static inline void
fuzz_inventory_ok(const struct config_inventory *inv)
{
	const struct config_host	*h;
	size_t				 i, j;

	FUZZ_CHECK(inv->nhosts <= CONFIG_HOSTS_MAX &&
	    inv->nlinks <= CONFIG_LINKS_MAX, "%zu hosts, %zu links",
	    inv->nhosts, inv->nlinks);
	for (i = 0; i < inv->nhosts; i++) {
		h = &inv->hosts[i];
		FUZZ_CHECK(h->name != NULL && config_valid_hostname(h->name),
		    "hosts[%zu].name", i);
		FUZZ_CHECK(h->address != NULL && h->ssh.user != NULL &&
		    h->ssh.key != NULL && h->ssh.known_hosts != NULL,
		    "hosts[%zu]: a NULL address or ssh string", i);
		FUZZ_CHECK(h->ssh.key[0] == '/' && h->ssh.known_hosts[0] == '/',
		    "hosts[%zu]: ssh paths not absolute", i);
		FUZZ_CHECK(config_inventory_host(inv, h->name) == h,
		    "hosts[%zu] %s not found by name", i, h->name);
		FUZZ_CHECK(h->nnics <= CONFIG_NICS_MAX, "hosts[%zu]: %zu nics",
		    i, h->nnics);
		for (j = 0; j < h->nnics; j++) {
			FUZZ_CHECK(h->nics[j].name != NULL &&
			    config_valid_ifname(h->nics[j].name) &&
			    h->nics[j].driver != NULL,
			    "hosts[%zu].nics[%zu]", i, j);
			FUZZ_CHECK(config_host_nic(h, h->nics[j].name) != NULL,
			    "hosts[%zu].nics[%zu] not found", i, j);
		}
	}
	for (i = 0; i < inv->nlinks; i++) {
		FUZZ_CHECK(inv->links[i].name != NULL &&
		    config_valid_linkname(inv->links[i].name), "links[%zu]", i);
		fuzz_endpoint_ok(inv, &inv->links[i].client);
		fuzz_endpoint_ok(inv, &inv->links[i].server);
		FUZZ_CHECK(inv->links[i].nat == NULL ||
		    config_inventory_host(inv, inv->links[i].nat) != NULL,
		    "links[%zu].nat %s is no host", i, inv->links[i].nat);
		FUZZ_CHECK(config_inventory_link(inv, inv->links[i].name) ==
		    &inv->links[i], "links[%zu] not found by name", i);
	}
}

static inline void
fuzz_workload_ok(const struct config_workload *w)
{
	FUZZ_CHECK(w->tool == CONFIG_TOOL_IPERF2 || w->tool ==
	    CONFIG_TOOL_IPERF3 || w->tool == CONFIG_TOOL_SCP, "tool %d",
	    (int)w->tool);
	if (w->tool == CONFIG_TOOL_SCP)
		FUZZ_CHECK(w->size != NULL && w->size_bytes > 0,
		    "scp without a size");
	else
		FUZZ_CHECK(w->time > 0 && w->parallel > 0 &&
		    (w->len == NULL) == (w->len_bytes == 0),
		    "iperf workload: time %d, parallel %d, len %s",
		    w->time, w->parallel, w->len != NULL ? w->len : "-");
	FUZZ_CHECK(w->links == NULL || w->nlinks > 0, "empty links list");
}

/*
 * A plan: its links and workloads are there, and config_plan_json() of it
 * parses back to the same canonical JSON (config.h promises it).
 */
static inline void
fuzz_plan_ok(const struct config_plan *plan,
    const struct config_inventory *inv)
{
	struct config_errors	 errs;
	struct config_plan	*again;
	char			*json, *json2;
	size_t			 i;

	FUZZ_CHECK(plan->nlinks > 0 && plan->links != NULL, "no links");
	FUZZ_CHECK(plan->nworkloads > 0 && plan->workloads != NULL,
	    "no workloads");
	for (i = 0; i < plan->nlinks; i++) {
		FUZZ_CHECK(plan->links[i] != NULL, "links[%zu] NULL", i);
		FUZZ_CHECK(inv == NULL ||
		    config_inventory_link(inv, plan->links[i]) != NULL,
		    "links[%zu] %s not in the inventory", i, plan->links[i]);
		(void)config_plan_knobs(plan, plan->links[i]);
	}
	for (i = 0; i < plan->nworkloads; i++) {
		fuzz_workload_ok(&plan->workloads[i]);
		free(config_workload_json(&plan->workloads[i]));
	}
	json = config_plan_json(plan);
	FUZZ_CHECK(json != NULL, "config_plan_json() failed");
	config_errors_init(&errs);
	again = config_plan_parse(FUZZ_CONFIG_DIR "/again.json", json,
	    strlen(json), inv, &errs);
	if (again == NULL)
		fuzz_fail("config_plan_json() wrote a plan that does not "
		    "load: %s\n%s", errs.n > 0 ? errs.msgs[0] : "?", json);
	json2 = config_plan_json(again);
	FUZZ_CHECK(json2 != NULL && strcmp(json, json2) == 0,
	    "plan JSON does not round-trip:\n%s\n%s", json,
	    json2 != NULL ? json2 : "(null)");
	free(json2);
	config_plan_free(again);
	config_errors_free(&errs);
	free(json);
}

/* An inventory to check plans and bisect tests against (the FreeBSD lab
 * example of configs/), loaded once; NULL if it cannot be. */
static inline const struct config_inventory *
fuzz_inventory(void)
{
	static struct config_inventory	*inv;
	static int			 tried;
	struct config_errors		 errs;

	if (!tried) {
		tried = 1;
		config_errors_init(&errs);
		inv = config_inventory_load(LABRAT_SOURCE_DIR
		    "/configs/lab-freebsd.json", &errs);
		if (inv == NULL)
			fuzz_fail("configs/lab-freebsd.json: %s",
			    errs.n > 0 ? errs.msgs[0] : "?");
		config_errors_free(&errs);
	}
	return inv;
}

#endif
