/*
 * test_knobs: the knob-set type.  Names and value spelling, get/set,
 * validation, the canonical key (order, on/off, unset knobs absent, buffer
 * ceiling), parsing in any order and its errors, how many knobs differ and
 * "differs in exactly one" (on sets and on keys), and key -> parse -> key
 * for every combination of a few values of every knob.
 *
 * test_keys and test_differ_in_one are the cases test_matrix had when the
 * keys lived in matrix; they are kept as they were.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "knobs.h"

static void
test_keys(void **state)
{
	static const struct {
		unsigned	 set;
		int		 v[KNOB_COUNT];
		const char	*key;
	} cases[] = {
		{ 0, { 0 }, "" },
		{ 1u << KNOB_TSO, { [KNOB_TSO] = 1 }, "tso=on" },
		{ (1u << KNOB_TSO) | (1u << KNOB_MTU) |
		  (1u << KNOB_NAT), { [KNOB_TSO] = 1,
		  [KNOB_MTU] = 9000, [KNOB_NAT] = KNOB_NAT_OFF
		  }, "mtu=9000,nat=off,tso=on" },
		{ 0x3f, { 0, 1500, KNOB_NAT_DIVERT, 1, 1, 0 },
		  "lro=off,mtu=1500,nat=divert,rxcsum=on,tso=on,txcsum=off" },
		{ 1u << KNOB_NAT,
		  { [KNOB_NAT] = KNOB_NAT_KERNEL }, "nat=kernel" },
	};
	struct knobs	c, back;
	char		key[KNOBS_KEY_MAX], small[8], err[128];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&c, 0, sizeof c);
		c.set = cases[i].set;
		memcpy(c.value, cases[i].v, sizeof c.value);
		assert_int_equal(knobs_key(&c, key, sizeof key), 0);
		assert_string_equal(key, cases[i].key);
		assert_int_equal(knobs_parse(key, &back, err,
		    sizeof err), 0);
		assert_int_equal(knobs_ndiff(&c, &back), 0);
	}
	assert_int_equal(knobs_key(&c, small, sizeof small), -1);

	/* Any order parses to the same combination. */
	assert_int_equal(knobs_parse("tso=on,mtu=9000", &c, err,
	    sizeof err), 0);
	assert_int_equal(knobs_key(&c, key, sizeof key), 0);
	assert_string_equal(key, "mtu=9000,tso=on");

	assert_int_equal(knobs_parse("tso=yes", &c, err, sizeof err),
	    -1);
	assert_string_equal(err, "bad value \"yes\" for knob tso");
	assert_int_equal(knobs_parse("jumbo=on", &c, err, sizeof err),
	    -1);
	assert_string_equal(err, "unknown knob \"jumbo\"");
	assert_int_equal(knobs_parse("tso=on,tso=off", &c, err,
	    sizeof err), -1);
	assert_string_equal(err, "knob tso given twice");
	assert_int_equal(knobs_parse("mtu=100", &c, err, sizeof err),
	    -1);
	assert_int_equal(knobs_parse("mtu", &c, err, sizeof err), -1);
	assert_string_equal(err, "\"mtu\": no '='");
}

static void
test_differ_in_one(void **state)
{
	static const struct {
		const char	*a, *b;
		int		 want;
		int		 knob;
	} cases[] = {
		{ "mtu=9000,tso=on", "mtu=9000,tso=off", 1, KNOB_TSO },
		{ "mtu=1500,tso=on", "mtu=9000,tso=on", 1, KNOB_MTU },
		{ "mtu=1500,tso=on", "mtu=9000,tso=off", 0, -1 },
		{ "mtu=1500,tso=on", "mtu=1500,tso=on", 0, -1 },
		{ "nat=off,tso=on", "nat=divert,tso=on", 1, KNOB_NAT },
		/* Set in one only counts as a difference. */
		{ "tso=on", "mtu=9000,tso=on", 1, KNOB_MTU },
		{ "", "lro=off", 1, KNOB_LRO },
		{ "", "", 0, -1 },
		{ "tso=on", "lro=on", 0, -1 },
		{ "tso=maybe", "tso=on", -1, -1 },
	};
	enum knob	which;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		which = KNOB_COUNT;
		assert_int_equal(knobs_key_differ_in_one(cases[i].a,
		    cases[i].b, &which), cases[i].want);
		if (cases[i].want == 1)
			assert_int_equal(which, cases[i].knob);
		/* Symmetric. */
		assert_int_equal(knobs_key_differ_in_one(cases[i].b,
		    cases[i].a, NULL), cases[i].want);
	}
}


static void
test_names(void **state)
{
	int	k;
	char	v[16];
	int	x;

	(void)state;
	for (k = 0; k < KNOB_COUNT; k++) {
		assert_non_null(knobs_names[k]);
		assert_string_equal(knobs_name(k), knobs_names[k]);
		assert_int_equal(knobs_from_name(knobs_name(k)), k);
		/* Enum order is key order: alphabetical. */
		if (k > 0)
			assert_true(strcmp(knobs_name(k - 1),
			    knobs_name(k)) < 0);
	}
	assert_null(knobs_names[KNOB_COUNT]);
	assert_string_equal(knobs_name(KNOB_COUNT), "?");
	assert_string_equal(knobs_name(-1), "?");
	assert_int_equal(knobs_from_name("jumbo"), -1);
	assert_int_equal(knobs_from_name("TSO"), -1);
	assert_int_equal(knobs_from_name(""), -1);

	assert_string_equal(knobs_nat_name(KNOB_NAT_OFF), "off");
	assert_string_equal(knobs_nat_name(KNOB_NAT_DIVERT), "divert");
	assert_string_equal(knobs_nat_name(KNOB_NAT_KERNEL), "kernel");
	assert_string_equal(knobs_nat_name(3), "?");
	assert_string_equal(knobs_nat_name(-1), "?");
	assert_int_equal(knobs_nat_from_name("kernel"), KNOB_NAT_KERNEL);
	assert_int_equal(knobs_nat_from_name("natd"), -1);

	assert_string_equal(knobs_value_str(KNOB_TSO, 1, v, sizeof v), "on");
	assert_string_equal(knobs_value_str(KNOB_LRO, 0, v, sizeof v), "off");
	assert_string_equal(knobs_value_str(KNOB_MTU, 9000, v, sizeof v),
	    "9000");
	assert_string_equal(knobs_value_str(KNOB_NAT, KNOB_NAT_DIVERT, v,
	    sizeof v), "divert");
	assert_int_equal(knobs_value_parse(KNOB_TXCSUM, "on", &x), 0);
	assert_int_equal(x, 1);
	assert_int_equal(knobs_value_parse(KNOB_RXCSUM, "off", &x), 0);
	assert_int_equal(x, 0);
	assert_int_equal(knobs_value_parse(KNOB_MTU, "65535", &x), 0);
	assert_int_equal(x, 65535);
	assert_int_equal(knobs_value_parse(KNOB_NAT, "off", &x), 0);
	assert_int_equal(x, KNOB_NAT_OFF);
	assert_int_equal(knobs_value_parse(KNOB_TSO, "1", &x), -1);
	assert_int_equal(knobs_value_parse(KNOB_TSO, "ON", &x), -1);
	assert_int_equal(knobs_value_parse(KNOB_MTU, "575", &x), -1);
	assert_int_equal(knobs_value_parse(KNOB_MTU, "65536", &x), -1);
	assert_int_equal(knobs_value_parse(KNOB_MTU, "9000x", &x), -1);
	assert_int_equal(knobs_value_parse(KNOB_NAT, "on", &x), -1);
	assert_int_equal(knobs_value_parse(KNOB_COUNT, "on", &x), -1);
}

static void
test_get_set_valid(void **state)
{
	static const struct {
		int		 knob, value, ok;
	} cases[] = {
		{ KNOB_TSO, 0, 1 }, { KNOB_TSO, 1, 1 }, { KNOB_TSO, 2, 0 },
		{ KNOB_LRO, 1, 1 }, { KNOB_RXCSUM, 3, 0 },
		{ KNOB_TXCSUM, 0, 1 },
		{ KNOB_MTU, 576, 1 }, { KNOB_MTU, 65535, 1 },
		{ KNOB_MTU, 575, 0 }, { KNOB_MTU, 65536, 0 },
		{ KNOB_MTU, 1, 0 },
		{ KNOB_NAT, KNOB_NAT_OFF, 1 }, { KNOB_NAT, KNOB_NAT_KERNEL, 1 },
		{ KNOB_NAT, 3, 0 },
	};
	struct knobs	k;
	char		err[128];
	size_t		i;
	int		n;

	(void)state;
	knobs_clear(&k);
	assert_int_equal(k.set, 0);
	for (n = 0; n < KNOB_COUNT; n++) {
		assert_false(knobs_isset(&k, n));
		assert_int_equal(knobs_get(&k, n), -1);
	}
	assert_int_equal(knobs_valid(&k, err, sizeof err), 0);
	knobs_set(&k, KNOB_MTU, 9000);
	assert_true(knobs_isset(&k, KNOB_MTU));
	assert_int_equal(knobs_get(&k, KNOB_MTU), 9000);
	knobs_set(&k, KNOB_TSO, 0);
	assert_int_equal(knobs_get(&k, KNOB_TSO), 0);	/* off is set */
	knobs_set(&k, KNOB_MTU, -1);
	assert_false(knobs_isset(&k, KNOB_MTU));
	assert_int_equal(k.value[KNOB_MTU], 0);
	assert_int_equal(k.set, 1u << KNOB_TSO);
	/* Out of range knobs are ignored, never written past the array. */
	knobs_set(&k, KNOB_COUNT, 1);
	assert_int_equal(k.set, 1u << KNOB_TSO);
	assert_false(knobs_isset(&k, KNOB_COUNT));
	assert_int_equal(knobs_get(&k, -1), -1);

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(knobs_value_ok(cases[i].knob,
		    cases[i].value), cases[i].ok);
		knobs_clear(&k);
		knobs_set(&k, cases[i].knob, cases[i].value);
		err[0] = '\0';
		assert_int_equal(knobs_valid(&k, err, sizeof err),
		    cases[i].ok ? 0 : -1);
		if (!cases[i].ok)
			assert_non_null(strstr(err,
			    knobs_name(cases[i].knob)));
	}
	knobs_clear(&k);
	knobs_set(&k, KNOB_MTU, 100);
	assert_int_equal(knobs_valid(&k, err, sizeof err), -1);
	assert_string_equal(err, "mtu 100 is not in 576-65535");
	knobs_clear(&k);
	knobs_set(&k, KNOB_TSO, 2);
	assert_int_equal(knobs_valid(&k, err, sizeof err), -1);
	assert_string_equal(err, "knob value 2 of tso is not 0 or 1");
	knobs_clear(&k);
	knobs_set(&k, KNOB_NAT, 7);
	assert_int_equal(knobs_valid(&k, err, sizeof err), -1);
	assert_string_equal(err, "nat 7 is not off, divert or kernel");
	knobs_clear(&k);
	k.set = 1u << KNOB_COUNT;
	assert_int_equal(knobs_valid(&k, err, sizeof err), -1);
}

/* One knob set to one value, or nothing: the key's every spelling. */
static void
test_key_table(void **state)
{
	static const struct {
		int		 knob, value;	/* knob -1: none set */
		const char	*key;
	} cases[] = {
		{ -1, 0, "" },
		{ KNOB_LRO, 0, "lro=off" }, { KNOB_LRO, 1, "lro=on" },
		{ KNOB_MTU, 576, "mtu=576" }, { KNOB_MTU, 1500, "mtu=1500" },
		{ KNOB_MTU, 65535, "mtu=65535" },
		{ KNOB_NAT, KNOB_NAT_OFF, "nat=off" },
		{ KNOB_NAT, KNOB_NAT_DIVERT, "nat=divert" },
		{ KNOB_NAT, KNOB_NAT_KERNEL, "nat=kernel" },
		{ KNOB_RXCSUM, 0, "rxcsum=off" }, { KNOB_RXCSUM, 1, "rxcsum=on" },
		{ KNOB_TSO, 0, "tso=off" }, { KNOB_TSO, 1, "tso=on" },
		{ KNOB_TXCSUM, 0, "txcsum=off" }, { KNOB_TXCSUM, 1, "txcsum=on" },
	};
	struct knobs	k;
	char		key[KNOBS_KEY_MAX];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		knobs_clear(&k);
		if (cases[i].knob >= 0)
			knobs_set(&k, cases[i].knob, cases[i].value);
		assert_int_equal(knobs_key(&k, key, sizeof key), 0);
		assert_string_equal(key, cases[i].key);
	}
	/* Set in reverse order, written in canonical order. */
	knobs_clear(&k);
	knobs_set(&k, KNOB_TXCSUM, 1);
	knobs_set(&k, KNOB_NAT, KNOB_NAT_KERNEL);
	knobs_set(&k, KNOB_LRO, 1);
	assert_int_equal(knobs_key(&k, key, sizeof key), 0);
	assert_string_equal(key, "lro=on,nat=kernel,txcsum=on");
	/* Unsetting a knob takes it out of the key. */
	knobs_set(&k, KNOB_NAT, -1);
	assert_int_equal(knobs_key(&k, key, sizeof key), 0);
	assert_string_equal(key, "lro=on,txcsum=on");
	/* The ceiling: exactly fits with its NUL, one byte less does not. */
	assert_int_equal(knobs_key(&k, key, strlen("lro=on,txcsum=on") + 1),
	    0);
	assert_int_equal(knobs_key(&k, key, strlen("lro=on,txcsum=on")), -1);
	assert_string_equal(key, "");
	assert_int_equal(knobs_key(&k, key, 0), -1);
	/* The longest key fits in KNOBS_KEY_MAX. */
	knobs_set(&k, KNOB_MTU, 65535);
	knobs_set(&k, KNOB_NAT, KNOB_NAT_DIVERT);
	knobs_set(&k, KNOB_RXCSUM, 0);
	knobs_set(&k, KNOB_TSO, 0);
	knobs_set(&k, KNOB_TXCSUM, 0);
	knobs_set(&k, KNOB_LRO, 0);
	assert_int_equal(knobs_key(&k, key, sizeof key), 0);
	assert_string_equal(key, "lro=off,mtu=65535,nat=divert,rxcsum=off,"
	    "tso=off,txcsum=off");
}

static void
test_parse_table(void **state)
{
	static const struct {
		const char	*in;
		const char	*want;	/* canonical key, or NULL */
		const char	*err;	/* the error, when want is NULL */
	} cases[] = {
		{ "", "", NULL },
		{ "tso=on", "tso=on", NULL },
		{ "tso=on,mtu=9000", "mtu=9000,tso=on", NULL },
		{ "txcsum=off,tso=on,rxcsum=on,nat=kernel,mtu=1500,lro=off",
		  "lro=off,mtu=1500,nat=kernel,rxcsum=on,tso=on,txcsum=off",
		  NULL },
		{ "nat=divert,lro=on", "lro=on,nat=divert", NULL },
		{ "tso=yes", NULL, "bad value \"yes\" for knob tso" },
		{ "tso=", NULL, "bad value \"\" for knob tso" },
		{ "mtu=100", NULL, "bad value \"100\" for knob mtu" },
		{ "mtu=65536", NULL, "bad value \"65536\" for knob mtu" },
		{ "nat=natd", NULL, "bad value \"natd\" for knob nat" },
		{ "jumbo=on", NULL, "unknown knob \"jumbo\"" },
		{ "=on", NULL, "unknown knob \"\"" },
		{ "TSO=on", NULL, "unknown knob \"TSO\"" },
		{ "tso=on,tso=off", NULL, "knob tso given twice" },
		{ "mtu=9000,tso=on,mtu=9000", NULL, "knob mtu given twice" },
		{ "mtu", NULL, "\"mtu\": no '='" },
		{ "tso=on,,mtu=9000", NULL, "\"\": no '='" },
		{ "tso=on mtu=9000", NULL,
		  "bad value \"on mtu=9000\" for knob tso" },
	};
	struct knobs	k;
	char		key[KNOBS_KEY_MAX], err[128];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		err[0] = '\0';
		if (cases[i].want != NULL) {
			assert_int_equal(knobs_parse(cases[i].in, &k, err,
			    sizeof err), 0);
			assert_int_equal(knobs_key(&k, key, sizeof key), 0);
			assert_string_equal(key, cases[i].want);
			continue;
		}
		k.set = 1u << KNOB_TSO;
		assert_int_equal(knobs_parse(cases[i].in, &k, err,
		    sizeof err), -1);
		assert_string_equal(err, cases[i].err);
		assert_int_equal(k.set, 0);	/* a failed parse is empty */
	}
	/* err may be NULL. */
	assert_int_equal(knobs_parse("tso=maybe", &k, NULL, 0), -1);
}

static void
test_parse_too_long(void **state)
{
	char		long_key[KNOBS_KEY_MAX + 8], err[128];
	struct knobs	k;

	(void)state;
	/* KNOBS_KEY_MAX - 1 characters is the most a key can have. */
	memset(long_key, 'x', sizeof long_key);
	memcpy(long_key, "tso=", 4);
	long_key[KNOBS_KEY_MAX - 1] = '\0';
	assert_int_equal(knobs_parse(long_key, &k, err, sizeof err), -1);
	/* Not too long: it is the value that is wrong. */
	assert_true(strncmp(err, "bad value \"xxx", 14) == 0);
	long_key[KNOBS_KEY_MAX - 1] = 'x';
	long_key[KNOBS_KEY_MAX] = '\0';
	assert_int_equal(knobs_parse(long_key, &k, err, sizeof err), -1);
	assert_string_equal(err, "knob key too long");
	/* Too long even when every item is a good one. */
	snprintf(long_key, sizeof long_key, "%s", "tso=on");
	while (strlen(long_key) < KNOBS_KEY_MAX)
		strcat(long_key, ",tso=on");
	long_key[KNOBS_KEY_MAX] = '\0';
	assert_int_equal(knobs_parse(long_key, &k, err, sizeof err), -1);
	assert_string_equal(err, "knob key too long");
}

static void
test_ndiff_table(void **state)
{
	static const struct {
		const char	*a, *b;
		int		 ndiff;
	} cases[] = {
		{ "", "", 0 },
		{ "tso=on", "tso=on", 0 },
		{ "tso=on", "tso=off", 1 },
		{ "tso=on", "", 1 },
		{ "", "lro=off,mtu=9000", 2 },
		{ "mtu=1500,tso=on", "mtu=9000,tso=off", 2 },
		{ "mtu=1500,nat=off,tso=on", "mtu=1500,nat=kernel,tso=on", 1 },
		{ "lro=on,mtu=576,nat=off,rxcsum=on,tso=on,txcsum=on",
		  "lro=off,mtu=577,nat=divert,rxcsum=off,tso=off,txcsum=off",
		  6 },
		{ "lro=on,rxcsum=on", "tso=on,txcsum=on", 4 },
		/* Off is a value, not "unset". */
		{ "tso=off", "", 1 },
	};
	struct knobs	a, b;
	enum knob	which;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(knobs_parse(cases[i].a, &a, NULL, 0), 0);
		assert_int_equal(knobs_parse(cases[i].b, &b, NULL, 0), 0);
		assert_int_equal(knobs_ndiff(&a, &b), cases[i].ndiff);
		assert_int_equal(knobs_ndiff(&b, &a), cases[i].ndiff);
		which = KNOB_COUNT;
		assert_int_equal(knobs_differ_in_one(&a, &b, &which),
		    cases[i].ndiff == 1);
		assert_int_equal(knobs_differ_in_one(&b, &a, NULL),
		    cases[i].ndiff == 1);
		if (cases[i].ndiff != 1)
			assert_int_equal(which, KNOB_COUNT);	/* untouched */
		assert_int_equal(knobs_key_differ_in_one(cases[i].a,
		    cases[i].b, NULL), cases[i].ndiff == 1);
	}
	/* The value of an unset knob does not count. */
	knobs_clear(&a);
	knobs_clear(&b);
	b.value[KNOB_MTU] = 9000;
	assert_int_equal(knobs_ndiff(&a, &b), 0);
	assert_int_equal(knobs_key_differ_in_one("tso=on", "tso=", NULL), -1);
	assert_int_equal(knobs_key_differ_in_one("jumbo=on", "", NULL), -1);
}

/* A few values of each knob, -1 = unset. */
static const int some_values[KNOB_COUNT][6] = {
	[KNOB_LRO] = { -1, 0, 1, -2 },
	[KNOB_MTU] = { -1, 576, 1500, 9000, 65535, -2 },
	[KNOB_NAT] = { -1, KNOB_NAT_OFF, KNOB_NAT_DIVERT, KNOB_NAT_KERNEL, -2 },
	[KNOB_RXCSUM] = { -1, 0, 1, -2 },
	[KNOB_TSO] = { -1, 0, 1, -2 },
	[KNOB_TXCSUM] = { -1, 0, 1, -2 },
};

static size_t
nvalues(int k)
{
	size_t	n = 0;

	while (some_values[k][n] != -2)
		n++;
	return n;
}

static size_t
count(const char *s, int c)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		n += *s == c;
	return n;
}

static void
test_round_trip(void **state)
{
	struct knobs	k, back, prev;
	char		key[KNOBS_KEY_MAX], again[KNOBS_KEY_MAX];
	char		pkey[KNOBS_KEY_MAX], err[128];
	size_t		total = 1, i, idx, nset;
	int		kn;

	(void)state;
	for (kn = 0; kn < KNOB_COUNT; kn++)
		total *= nvalues(kn);
	assert_int_equal(total, 3 * 5 * 4 * 3 * 3 * 3);
	knobs_clear(&prev);
	pkey[0] = '\0';
	for (i = 0; i < total; i++) {
		knobs_clear(&k);
		idx = i;
		nset = 0;
		for (kn = KNOB_COUNT - 1; kn >= 0; kn--) {
			knobs_set(&k, kn, some_values[kn][idx % nvalues(kn)]);
			nset += knobs_isset(&k, kn);
			idx /= nvalues(kn);
		}
		assert_int_equal(knobs_valid(&k, err, sizeof err), 0);
		assert_int_equal(knobs_key(&k, key, sizeof key), 0);
		assert_int_equal(knobs_parse(key, &back, err, sizeof err), 0);
		assert_int_equal(knobs_ndiff(&k, &back), 0);
		assert_int_equal(back.set, k.set);
		assert_int_equal(knobs_key(&back, again, sizeof again), 0);
		assert_string_equal(again, key);
		/* One '=' per set knob, one ',' between them. */
		assert_int_equal(count(key, '='), nset);
		assert_int_equal(count(key, ','), nset > 0 ? nset - 1 : 0);
		/* Neighbours in this order differ in the last knob only
		 * (except where a carry moves more than one). */
		if (i > 0 && i % nvalues(KNOB_TXCSUM) != 0) {
			enum knob	w;

			assert_int_equal(knobs_differ_in_one(&prev, &k, &w), 1);
			assert_int_equal(w, KNOB_TXCSUM);
			assert_int_equal(knobs_key_differ_in_one(pkey, key,
			    &w), 1);
			assert_int_equal(w, KNOB_TXCSUM);
		}
		prev = k;
		memcpy(pkey, key, sizeof pkey);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_get_set_valid),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_parse_table),
		cmocka_unit_test(test_parse_too_long),
		cmocka_unit_test(test_differ_in_one),
		cmocka_unit_test(test_ndiff_table),
		cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
