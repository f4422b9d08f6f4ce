/*
 * knobs: the one knob-set type.  It owns the knobs' names, how their values
 * are spelled, the canonical key of a set, its parser, and the comparisons
 * of two sets (how many knobs differ, "differs in exactly one").  Pure: no
 * I/O, no global state.
 *
 * A knob set says, per knob, either "set to this value" or "not set" (the
 * host keeps what it has).  Values: booleans 0/1, mtu the MTU, nat an enum
 * knob_nat.
 *
 * The canonical key, "mtu=9000,nat=off,tso=on": the set knobs sorted by
 * name, booleans as on/off, unset knobs absent ("" when none is set).  Keys
 * are what the store, the stats and the reports group by, so they must
 * never change spelling.
 */
#ifndef LABRAT_KNOBS_H
#define LABRAT_KNOBS_H

#include <stddef.h>

/* Knobs in canonical (alphabetical) order: enum order == key order. */
enum knob {
	KNOB_LRO,
	KNOB_MTU,
	KNOB_NAT,
	KNOB_RXCSUM,
	KNOB_TSO,
	KNOB_TXCSUM,
	KNOB_COUNT
};

enum knob_nat {
	KNOB_NAT_OFF,
	KNOB_NAT_DIVERT,
	KNOB_NAT_KERNEL,
};

#define KNOBS_KEY_MAX	128	/* a key's buffer, with NUL */
#define KNOBS_MTU_MIN	576
#define KNOBS_MTU_MAX	65535

/*
 * Bit k of set says knob k is set to value[k].  All zero (memset or
 * knobs_clear()) is the empty set; value[k] of an unset knob is 0.
 */
struct knobs {
	unsigned	set;
	int		value[KNOB_COUNT];
};

/* The names in enum order, NULL-terminated ("lro" ... "txcsum"). */
extern const char *const knobs_names[];
/* NAT modes in enum order, NULL-terminated ("off", "divert", "kernel"). */
extern const char *const knobs_nat_names[];

const char *knobs_name(enum knob);		/* "tso"; "?" if out of range */
int	knobs_from_name(const char *);		/* enum knob, -1 when unknown */
const char *knobs_nat_name(int);		/* "divert"; "?" */
int	knobs_nat_from_name(const char *);	/* enum knob_nat, -1 */

/* 1 when v is a value knob k can take (a boolean, an MTU, a NAT mode). */
int	knobs_value_ok(enum knob, int v);
/* "on"/"off", "9000", "divert": a knob value as keys spell it (in buf
 * when it must be formatted). */
const char *knobs_value_str(enum knob, int value, char *buf, size_t len);
/* The reverse of knobs_value_str(); 0 or -1 when s is not a value of k. */
int	knobs_value_parse(enum knob, const char *s, int *out);

void	knobs_clear(struct knobs *);
int	knobs_isset(const struct knobs *, enum knob);
/* A knob's value, -1 when it is not set (every value is >= 0). */
int	knobs_get(const struct knobs *, enum knob);
/* Sets knob k to v; v < 0 unsets it.  v must pass knobs_value_ok(). */
void	knobs_set(struct knobs *, enum knob, int v);
/* 0 when every set knob holds a valid value, else -1 with the reason. */
int	knobs_valid(const struct knobs *, char *err, size_t errlen);

/* The canonical key into buf; 0, or -1 if it does not fit in len. */
int	knobs_key(const struct knobs *, char *buf, size_t len);
/*
 * Parses a key, knobs in any order (what knobs_key() writes, and what a
 * user types).  0, or -1 with the reason in err: too long, no '=', an
 * unknown knob, a knob given twice, a bad value.
 */
int	knobs_parse(const char *key, struct knobs *out, char *err,
	    size_t errlen);

/* How many knobs differ (set in one only, or set to different values). */
int	knobs_ndiff(const struct knobs *, const struct knobs *);
/*
 * 1 when the two differ in exactly one knob (stored in *which if not NULL),
 * else 0.  The key variant returns -1 when a key does not parse.
 */
int	knobs_differ_in_one(const struct knobs *, const struct knobs *,
	    enum knob *which);
int	knobs_key_differ_in_one(const char *, const char *, enum knob *which);

#endif
