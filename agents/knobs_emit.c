/*
 * knobs_emit.c: the knobs of struct osdep_knobs by name, as apply and
 * restore report them (see knobs_emit.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <string.h>

#include "emit.h"
#include "knobs_emit.h"
#include "osdep.h"

struct knobdef {
	const char *name;
	size_t	    off;
};

#define KNOB(f)	{ #f, offsetof(struct osdep_knobs, f) }
static const struct knobdef knobdefs[] = {
	KNOB(tso), KNOB(tcp_tso), KNOB(mtu), KNOB(nat), KNOB(lro),
	KNOB(rxcsum), KNOB(txcsum)
};
#define NKNOBS	(sizeof(knobdefs) / sizeof(knobdefs[0]))

static int
knob_get(const struct osdep_knobs *k, size_t i)
{
	return *(const int *)(const void *)((const char *)k + knobdefs[i].off);
}

void
knobs_emit(struct emit *e, const char *key, const struct osdep_knobs *k,
    int all)
{
	size_t	 i;
	int	 v;

	emit_obj(e, key);
	for (i = 0; i < NKNOBS; i++) {
		v = knob_get(k, i);
		if (v == OSDEP_UNSET && (!all ||
		    strcmp(knobdefs[i].name, "tcp_tso") == 0))
			continue;
		if (v == OSDEP_UNSET)
			emit_null(e, knobdefs[i].name);
		else if (strcmp(knobdefs[i].name, "nat") == 0)
			emit_str(e, "nat", osdep_nat_name(v));
		else if (strcmp(knobdefs[i].name, "mtu") == 0)
			emit_int(e, "mtu", v);
		else
			emit_bool(e, knobdefs[i].name, v);
	}
	emit_end(e);
}

int
knobs_emit_diff(struct emit *e, const char *key, const struct osdep_knobs *want,
    const struct osdep_knobs *have)
{
	size_t	 i;
	int	 n = 0;

	emit_arr(e, key);
	for (i = 0; i < NKNOBS; i++) {
		if (knob_get(want, i) == OSDEP_UNSET ||
		    knob_get(want, i) == knob_get(have, i))
			continue;
		emit_str(e, NULL, knobdefs[i].name);
		n++;
	}
	emit_end(e);
	return n;
}


int
knobs_differ(const struct osdep_knobs *want, const struct osdep_knobs *have)
{
	size_t	 i;
	int	 n = 0;

	for (i = 0; i < NKNOBS; i++)
		if (knob_get(want, i) != OSDEP_UNSET &&
		    knob_get(want, i) != knob_get(have, i))
			n++;
	return n;
}
