/*
 * knobs: names, values, the canonical key and comparisons of knob sets
 * (see knobs.h).  Pure: no I/O, no global state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"
#include "util.h"

const char *const knobs_names[] = { "lro", "mtu", "nat", "rxcsum", "tso",
	"txcsum", NULL };
const char *const knobs_nat_names[] = { "off", "divert", "kernel", NULL };

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
knobs_name(enum knob k)
{
	return (unsigned)k < KNOB_COUNT ? knobs_names[k] : "?";
}

int
knobs_from_name(const char *s)
{
	return name_index(knobs_names, s);
}

const char *
knobs_nat_name(int n)
{
	return (unsigned)n <= KNOB_NAT_KERNEL ? knobs_nat_names[n] : "?";
}

int
knobs_nat_from_name(const char *s)
{
	return name_index(knobs_nat_names, s);
}

int
knobs_value_ok(enum knob k, int v)
{
	switch (k) {
	case KNOB_MTU:
		return v >= KNOBS_MTU_MIN && v <= KNOBS_MTU_MAX;
	case KNOB_NAT:
		return v >= KNOB_NAT_OFF && v <= KNOB_NAT_KERNEL;
	case KNOB_LRO:
	case KNOB_RXCSUM:
	case KNOB_TSO:
	case KNOB_TXCSUM:
		return v == 0 || v == 1;
	default:
		return 0;
	}
}

const char *
knobs_value_str(enum knob k, int value, char *buf, size_t len)
{
	switch (k) {
	case KNOB_MTU:
		snprintf(buf, len, "%d", value);
		return buf;
	case KNOB_NAT:
		return knobs_nat_name(value);
	default:
		return value ? "on" : "off";
	}
}

int
knobs_value_parse(enum knob k, const char *s, int *out)
{
	long long	 n;
	const char	*errstr;

	if (k == KNOB_MTU) {
		if (util_strtonum(s, KNOBS_MTU_MIN, KNOBS_MTU_MAX, &n,
		    &errstr) != 0)
			return -1;
		*out = (int)n;
		return 0;
	}
	if (k == KNOB_NAT)
		return (*out = knobs_nat_from_name(s)) < 0 ? -1 : 0;
	if ((unsigned)k >= KNOB_COUNT)
		return -1;
	if (strcmp(s, "on") == 0)
		*out = 1;
	else if (strcmp(s, "off") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

void
knobs_clear(struct knobs *ks)
{
	memset(ks, 0, sizeof *ks);
}

int
knobs_isset(const struct knobs *ks, enum knob k)
{
	return (unsigned)k < KNOB_COUNT && (ks->set & (1u << k)) != 0;
}

int
knobs_get(const struct knobs *ks, enum knob k)
{
	return knobs_isset(ks, k) ? ks->value[k] : -1;
}

void
knobs_set(struct knobs *ks, enum knob k, int v)
{
	if ((unsigned)k >= KNOB_COUNT)
		return;
	if (v < 0) {
		ks->set &= ~(1u << k);
		ks->value[k] = 0;
	} else {
		ks->set |= 1u << k;
		ks->value[k] = v;
	}
}

int
knobs_valid(const struct knobs *ks, char *err, size_t errlen)
{
	int	k;

	if ((ks->set & ~((1u << KNOB_COUNT) - 1)) != 0) {
		util_seterr(err, errlen, "knob set 0x%x names unknown knobs",
		    ks->set);
		return -1;
	}
	for (k = 0; k < KNOB_COUNT; k++) {
		if (!knobs_isset(ks, k) || knobs_value_ok(k, ks->value[k]))
			continue;
		if (k == KNOB_MTU)
			util_seterr(err, errlen, "mtu %d is not in %d-%d",
			    ks->value[k], KNOBS_MTU_MIN, KNOBS_MTU_MAX);
		else if (k == KNOB_NAT)
			util_seterr(err, errlen, "nat %d is not off, divert "
			    "or kernel", ks->value[k]);
		else
			util_seterr(err, errlen, "knob value %d of %s is not "
			    "0 or 1", ks->value[k], knobs_name(k));
		return -1;
	}
	return 0;
}

int
knobs_key(const struct knobs *ks, char *buf, size_t len)
{
	char	 v[16];
	size_t	 o = 0;
	int	 k, r;

	if (len == 0)
		return -1;
	buf[0] = '\0';
	for (k = 0; k < KNOB_COUNT; k++) {
		if (!knobs_isset(ks, k))
			continue;
		r = snprintf(buf + o, len - o, "%s%s=%s", o > 0 ? "," : "",
		    knobs_name(k), knobs_value_str(k, ks->value[k], v,
		    sizeof v));
		if (r < 0 || (size_t)r >= len - o) {
			buf[0] = '\0';
			return -1;
		}
		o += (size_t)r;
	}
	return 0;
}

int
knobs_parse(const char *key, struct knobs *out, char *err, size_t errlen)
{
	char	*copy, *item, *next, *eq;
	int	 k, v, rc = -1;

	knobs_clear(out);
	if (strlen(key) >= KNOBS_KEY_MAX) {
		util_seterr(err, errlen, "knob key too long");
		return -1;
	}
	copy = xstrdup(key);
	for (item = copy; item != NULL && *item != '\0'; item = next) {
		if ((next = strchr(item, ',')) != NULL)
			*next++ = '\0';
		if ((eq = strchr(item, '=')) == NULL) {
			util_seterr(err, errlen, "\"%s\": no '='", item);
			goto fail;
		}
		*eq++ = '\0';
		if ((k = knobs_from_name(item)) < 0) {
			util_seterr(err, errlen, "unknown knob \"%s\"", item);
			goto fail;
		}
		if (knobs_isset(out, k)) {
			util_seterr(err, errlen, "knob %s given twice", item);
			goto fail;
		}
		if (knobs_value_parse(k, eq, &v) != 0) {
			util_seterr(err, errlen, "bad value \"%s\" for knob "
			    "%s", eq, item);
			goto fail;
		}
		knobs_set(out, k, v);
	}
	rc = 0;
fail:
	if (rc != 0)
		knobs_clear(out);
	free(copy);
	return rc;
}

/* 1 when knob k differs between a and b. */
static int
differs(const struct knobs *a, const struct knobs *b, int k)
{
	return knobs_get(a, k) != knobs_get(b, k);
}

int
knobs_ndiff(const struct knobs *a, const struct knobs *b)
{
	int	k, n = 0;

	for (k = 0; k < KNOB_COUNT; k++)
		n += differs(a, b, k);
	return n;
}

int
knobs_differ_in_one(const struct knobs *a, const struct knobs *b,
    enum knob *which)
{
	int	k;

	if (knobs_ndiff(a, b) != 1)
		return 0;
	for (k = 0; k < KNOB_COUNT; k++)
		if (differs(a, b, k))
			break;
	if (which != NULL)
		*which = k;
	return 1;
}

int
knobs_key_differ_in_one(const char *ka, const char *kb, enum knob *which)
{
	struct knobs	a, b;

	if (knobs_parse(ka, &a, NULL, 0) != 0 ||
	    knobs_parse(kb, &b, NULL, 0) != 0)
		return -1;
	return knobs_differ_in_one(&a, &b, which);
}
