/*
 * report_facts: what the hosts of a run reported they ran (host,
 * interface, revision, driver, chip), in the text report and its JSON.
 * Driver and chip are the host's evidence; where the inventory declared
 * others, both are shown ("driver veth (inventory: em)").  See report.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "report_int.h"
#include "store.h"
#include "util.h"

static const char *
str(const char *s)
{
	return s != NULL ? s : "";
}

static int
same(const char *a, const char *b)
{
	return strcmp(str(a), str(b)) == 0 && (a == NULL) == (b == NULL);
}

/* 1 when row i says nothing that an earlier row of v did not say. */
static int
facts_repeated(const struct store_host_facts_row *v, size_t i)
{
	const struct store_host_facts_row	*r = &v[i], *o;
	size_t					 j;

	for (j = 0; j < i; j++) {
		o = &v[j];
		if (same(r->host, o->host) && same(r->ifname, o->ifname) &&
		    same(r->revision, o->revision) &&
		    same(r->driver, o->driver) && same(r->chip, o->chip) &&
		    same(r->declared_driver, o->declared_driver) &&
		    same(r->declared_chip, o->declared_chip))
			return 1;
	}
	return 0;
}

static const char *
dash(const char *s)
{
	return s != NULL && *s != '\0' ? s : "-";
}

/* "  em-a em0: r200399, driver veth (inventory: em), chip - (inventory:
 * 0x10968086)" */
static void
text_row(const struct store_host_facts_row *r, FILE *fp)
{
	char	rev[256], ifn[128], drv[128], chip[128];

	/* What a host reported (a store written by an older labrat may hold
	 * it raw): no control character reaches the terminal. */
	fprintf(fp, "  %s %s: %s, driver %s", r->host,
	    util_term_safe(ifn, sizeof ifn, dash(r->ifname), (size_t)-1),
	    r->revision != NULL && r->revision[0] != '\0' ?
	    util_term_safe(rev, sizeof rev, r->revision, (size_t)-1) :
	    "unknown revision",
	    util_term_safe(drv, sizeof drv, dash(r->driver), (size_t)-1));
	if (store_facts_driver_differs(r))
		fprintf(fp, " (inventory: %s)", r->declared_driver);
	fprintf(fp, ", chip %s", util_term_safe(chip, sizeof chip,
	    dash(r->chip), (size_t)-1));
	if (store_facts_chip_differs(r))
		fprintf(fp, " (inventory: %s)", r->declared_chip);
	fprintf(fp, "\n");
}

int
report_facts_text(struct store *st, int64_t run_id, FILE *fp, char *err,
    size_t errlen)
{
	struct store_host_facts_row	*v;
	size_t				 n, i;

	if (st == NULL)
		return 0;
	if (store_host_facts_list(st, run_id, &v, &n, err, errlen) == -1)
		return -1;
	if (n > 0)
		fprintf(fp, "hosts, as they reported themselves:\n");
	for (i = 0; i < n; i++)
		if (!facts_repeated(v, i))
			text_row(&v[i], fp);
	if (n > 0)
		fprintf(fp, "\n");
	store_facts_free(v, n);
	return 0;
}

static void
kv(struct json_writer *w, const char *k, const char *v)
{
	json_kv_str(w, k, v != NULL && *v != '\0' ? v : NULL);
}

int
report_facts_json(struct json_writer *w, struct store *st, int64_t run_id,
    char *err, size_t errlen)
{
	struct store_host_facts_row	*v = NULL, *r;
	size_t				 n = 0, i;

	if (st != NULL && store_host_facts_list(st, run_id, &v, &n, err,
	    errlen) == -1)
		return -1;
	json_key(w, "hosts");
	json_begin_arr(w);
	for (i = 0; i < n; i++) {
		if (facts_repeated(v, i))
			continue;
		r = &v[i];
		json_begin_obj(w);
		kv(w, "host", r->host);
		kv(w, "ifname", r->ifname);
		kv(w, "os", r->os);
		kv(w, "kernel_version", r->kernel_version);
		kv(w, "revision", r->revision);
		kv(w, "driver", r->driver);
		kv(w, "chip", r->chip);
		kv(w, "declared_driver", r->declared_driver);
		kv(w, "declared_chip", r->declared_chip);
		json_kv_bool(w, "mismatch", store_facts_driver_differs(r) ||
		    store_facts_chip_differs(r));
		json_end_obj(w);
	}
	json_end_arr(w);
	store_facts_free(v, n);
	return 0;
}
