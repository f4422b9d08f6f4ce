/*
 * test_bisect: the bisect state machine against oracles with known culprits
 * (every position, skips, bad endpoints, verification that disagrees,
 * replay), and the sampling decisions against sample tables.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bisect.h"

#define MAXREV	4096

/*
 * An oracle: the truth is "bad from culprit on"; skip[r] makes r
 * untestable; flip[r] = k inverts the k-th measurement of r (1-based), so
 * a search verdict (k = 1) or a verification (k = 2) can be made wrong.
 */
struct oracle {
	size_t	culprit;
	char	skip[MAXREV];
	unsigned char flip[MAXREV];	/* bit k-1: invert k-th measurement */
	unsigned char vskip[MAXREV];	/* bit k-1: k-th measurement skips */
	int	nth[MAXREV];
	double	strength;
	enum bisect_outcome endpoint_good;	/* forced GOOD endpoint, or 0 */
	enum bisect_outcome endpoint_bad;
};

static char	*names[MAXREV];
static const char *ids[MAXREV];

static void
names_init(void)
{
	size_t	i;
	char	buf[32];

	if (names[0] != NULL)
		return;
	for (i = 0; i < MAXREV; i++) {
		snprintf(buf, sizeof(buf), "r%zu", i);
		names[i] = strdup(buf);
		ids[i] = names[i];
	}
}

static void
oracle_init(struct oracle *o, size_t culprit)
{
	memset(o, 0, sizeof(*o));
	o->culprit = culprit;
	o->strength = 0.99;
}

static enum bisect_outcome
oracle_measure(struct oracle *o, const struct bisect_request *req,
    size_t good, size_t bad)
{
	size_t	r = req->rev;
	int	k = ++o->nth[r];
	enum bisect_outcome v;

	if (r == good && o->endpoint_good != 0 && k == 1)
		return (o->endpoint_good);
	if (r == bad && o->endpoint_bad != 0 && k == 1)
		return (o->endpoint_bad);
	if (o->skip[r] || (k <= 8 && (o->vskip[r] & (1u << (k - 1)))))
		return (BISECT_SKIP);
	v = r >= o->culprit ? BISECT_BAD : BISECT_GOOD;
	if (k <= 8 && (o->flip[r] & (1u << (k - 1))))
		v = v == BISECT_BAD ? BISECT_GOOD : BISECT_BAD;
	return (v);
}

/* Runs a bisect to its end; returns the machine (caller frees). */
static struct bisect *
run(struct oracle *o, size_t n, size_t good, size_t bad)
{
	struct bisect		*b;
	struct bisect_request	 req;
	char			 err[256];
	size_t			 guard = 0;

	names_init();
	b = bisect_new(ids, n, good, bad, err, sizeof(err));
	assert_non_null(b);
	while (bisect_next(b, &req)) {
		assert_true(++guard < 4 * n + 16);
		assert_string_equal(req.id, ids[req.rev]);
		assert_int_equal(bisect_record(b, req.rev,
		    oracle_measure(o, &req, good, bad), o->strength, err,
		    sizeof(err)), 0);
	}
	return (b);
}

static unsigned
ceil_log2(size_t k)
{
	unsigned	l = 0;

	while (((size_t)1 << l) < k)
		l++;
	return (l);
}

/* Every culprit position for 1..40 candidates, no skips. */
static void
test_every_position(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res;
	const struct bisect_step *st;
	size_t			 k, c, n, i, ns;
	char			 seen[64];

	(void)state;
	for (k = 1; k <= 40; k++) {
		n = k + 1;	/* GOOD = r0, BAD = rk: k candidates */
		for (c = 1; c <= k; c++) {
			oracle_init(&o, c);
			b = run(&o, n, 0, k);
			bisect_result(b, &res);
			assert_int_equal(res.status, BISECT_FOUND);
			assert_int_equal(res.culprit, c);
			assert_int_equal(res.last_good, c - 1);
			assert_true(res.verified);
			assert_int_equal(res.conflicts, 0);
			assert_true(res.confidence > 0.999);
			assert_int_equal(bisect_nsteps_why(b,
			    BISECT_CHECK_GOOD), 1);
			assert_int_equal(bisect_nsteps_why(b,
			    BISECT_CHECK_BAD), 1);
			assert_int_equal(bisect_nsteps_why(b, BISECT_VERIFY),
			    2);
			/* search steps: <= ceil(log2 k) <= ceil(log2 n) + 2 */
			assert_true(bisect_nsteps_why(b, BISECT_SEARCH) <=
			    ceil_log2(k));
			/* no revision searched twice, endpoints never */
			memset(seen, 0, sizeof(seen));
			st = bisect_steps(b, &ns);
			for (i = 0; i < ns; i++) {
				if (st[i].why != BISECT_SEARCH)
					continue;
				assert_true(st[i].rev > 0 && st[i].rev < k);
				assert_int_equal(seen[st[i].rev], 0);
				seen[st[i].rev] = 1;
			}
			bisect_free(b);
		}
	}
}

/* The smallest provable range: last non-skipped before the culprit .. first
 * non-skipped at or after it. */
static void
expect_range(const struct oracle *o, size_t good, size_t bad,
    const struct bisect_result *res)
{
	size_t	lg = good, fb = bad, r;

	for (r = o->culprit; r > good; r--) {
		if (!o->skip[r - 1]) {
			lg = r - 1;
			break;
		}
	}
	for (r = o->culprit; r < bad; r++) {
		if (!o->skip[r])
			break;
	}
	fb = r;
	assert_int_equal(res->last_good, lg);
	assert_int_equal(res->first_bad, fb);
	if (fb == lg + 1) {
		assert_int_equal(res->status, BISECT_FOUND);
		assert_int_equal(res->culprit, fb);
	} else {
		assert_int_equal(res->status, BISECT_RANGE);
		assert_int_equal(res->nskipped, fb - lg - 1);
	}
}

/* Every skip pattern over 10 interior revisions, every culprit. */
static void
test_skips_exhaustive(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res;
	unsigned		 mask;
	size_t			 c, r, nsk;

	(void)state;
	for (c = 1; c <= 11; c++) {
		for (mask = 0; mask < (1u << 10); mask++) {
			oracle_init(&o, c);
			nsk = 0;
			for (r = 1; r <= 10; r++) {
				o.skip[r] = (mask >> (r - 1)) & 1;
				nsk += o.skip[r];
			}
			b = run(&o, 12, 0, 11);
			bisect_result(b, &res);
			expect_range(&o, 0, 11, &res);
			assert_true(res.verified);
			/* each skip costs its own step, and off-centre
			 * splits at most the "+ 2" of the bound */
			assert_true(bisect_nsteps_why(b, BISECT_SEARCH) <=
			    ceil_log2(11) + nsk + 2);
			bisect_free(b);
		}
	}
}

struct skip_case {
	size_t		 n;
	size_t		 culprit;
	size_t		 skip_from, skip_to;	/* inclusive; 0, 0: none */
	enum bisect_status status;
	size_t		 last_good, first_bad;
};

static const struct skip_case skip_cases[] = {
	/* skips right before the culprit */
	{ 20, 10, 9, 9, BISECT_RANGE, 8, 10 },
	/* the culprit itself unbuildable */
	{ 20, 10, 10, 10, BISECT_RANGE, 9, 11 },
	/* right after: the culprit is still exact */
	{ 20, 10, 11, 11, BISECT_FOUND, 9, 10 },
	/* surrounded */
	{ 20, 10, 8, 12, BISECT_RANGE, 7, 13 },
	/* a long unbuildable run holding the culprit */
	{ 100, 45, 30, 60, BISECT_RANGE, 29, 61 },
	/* a long unbuildable run elsewhere */
	{ 100, 70, 30, 60, BISECT_FOUND, 69, 70 },
	/* everything between the endpoints skipped */
	{ 10, 5, 1, 8, BISECT_RANGE, 0, 9 },
	/* unbuildable up to the bad endpoint */
	{ 64, 40, 35, 62, BISECT_RANGE, 34, 63 },
};

static void
test_skip_table(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res;
	size_t			 i, r;
	const struct skip_case	*sc;

	(void)state;
	for (i = 0; i < sizeof(skip_cases) / sizeof(skip_cases[0]); i++) {
		sc = &skip_cases[i];
		oracle_init(&o, sc->culprit);
		for (r = sc->skip_from; r <= sc->skip_to && sc->skip_to; r++)
			o.skip[r] = 1;
		b = run(&o, sc->n, 0, sc->n - 1);
		bisect_result(b, &res);
		assert_int_equal(res.status, sc->status);
		assert_int_equal(res.last_good, sc->last_good);
		assert_int_equal(res.first_bad, sc->first_bad);
		if (sc->status == BISECT_RANGE) {
			assert_int_equal(res.nskipped,
			    sc->first_bad - sc->last_good - 1);
			assert_non_null(strstr(res.reason, "skipped"));
		}
		bisect_free(b);
	}
}

struct endpoint_case {
	enum bisect_outcome good_is, bad_is;
	const char	*reason;
	size_t		 nsteps;
};

static const struct endpoint_case endpoint_cases[] = {
	{ BISECT_BAD, 0, "good endpoint r0 tested bad", 1 },
	{ BISECT_SKIP, 0, "good endpoint r0 could not be tested", 1 },
	{ 0, BISECT_GOOD, "bad endpoint r15 tested good", 2 },
	{ 0, BISECT_SKIP, "bad endpoint r15 could not be tested", 2 },
};

static void
test_bad_endpoints(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res;
	struct bisect_request	 req;
	size_t			 i, ns;
	char			 err[256];

	(void)state;
	for (i = 0; i < sizeof(endpoint_cases) / sizeof(endpoint_cases[0]);
	    i++) {
		oracle_init(&o, 8);
		o.endpoint_good = endpoint_cases[i].good_is;
		o.endpoint_bad = endpoint_cases[i].bad_is;
		b = run(&o, 16, 0, 15);
		bisect_result(b, &res);
		assert_int_equal(res.status, BISECT_FAILED);
		assert_non_null(strstr(res.reason, endpoint_cases[i].reason));
		assert_true(res.confidence == 0.0);
		bisect_steps(b, &ns);
		assert_int_equal(ns, endpoint_cases[i].nsteps);
		assert_int_equal(bisect_next(b, &req), 0);
		assert_int_equal(bisect_record(b, 7, BISECT_GOOD, 1, err,
		    sizeof(err)), -1);
		assert_non_null(strstr(err, "over"));
		bisect_free(b);
	}
}

/* Replays every prefix of a step list and compares with the original. */
static void
check_replay(struct bisect *orig, size_t n, size_t good, size_t bad)
{
	const struct bisect_step *st;
	struct bisect		*b, *p;
	struct bisect_request	 r1, r2;
	struct bisect_result	 a, c;
	size_t			 ns, k;
	char			 err[256];

	st = bisect_steps(orig, &ns);
	p = bisect_new(ids, n, good, bad, err, sizeof(err));
	assert_non_null(p);
	for (k = 0; k <= ns; k++) {
		b = bisect_replay(ids, n, good, bad, st, k, err, sizeof(err));
		assert_non_null(b);
		assert_int_equal(bisect_next(b, &r1), bisect_next(p, &r2));
		if (k < ns) {
			assert_int_equal(r1.rev, st[k].rev);
			assert_int_equal(r1.rev, r2.rev);
			assert_int_equal(r1.why, r2.why);
			assert_int_equal(r1.why, st[k].why);
		}
		bisect_result(b, &a);
		bisect_result(p, &c);
		assert_int_equal(a.status, c.status);
		assert_int_equal(a.culprit, c.culprit);
		assert_int_equal(a.last_good, c.last_good);
		assert_int_equal(a.first_bad, c.first_bad);
		assert_true(a.confidence == c.confidence);
		assert_string_equal(a.reason, c.reason);
		bisect_free(b);
		if (k < ns)
			assert_int_equal(bisect_record(p, st[k].rev,
			    st[k].outcome, st[k].strength, err,
			    sizeof(err)), 0);
	}
	bisect_result(orig, &a);
	bisect_result(p, &c);
	assert_int_equal(a.status, c.status);
	assert_int_equal(a.first_bad, c.first_bad);
	assert_true(a.confidence == c.confidence);
	bisect_free(p);
}

static void
test_replay(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_step	 bogus[2];
	const struct bisect_step *st;
	size_t			 trial, r, n, ns;
	uint64_t		 x = 42;
	char			 err[256];

	(void)state;
	names_init();
	for (trial = 0; trial < 200; trial++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		n = 3 + (x >> 33) % 200;
		oracle_init(&o, 1 + (x >> 17) % (n - 1));
		o.strength = 0.9 + (double)(trial % 10) / 100.0;
		for (r = 1; r + 1 < n; r++) {
			x = x * 6364136223846793005ULL + 1;
			if ((x >> 40) % 5 == 0)
				o.skip[r] = 1;
			if ((x >> 45) % 11 == 0)
				o.flip[r] = 1u << ((x >> 50) % 3);
		}
		b = run(&o, n, 0, n - 1);
		check_replay(b, n, 0, n - 1);
		bisect_free(b);
	}

	/* a step that was never asked for names its position */
	oracle_init(&o, 5);
	b = run(&o, 10, 0, 9);
	st = bisect_steps(b, &ns);
	bogus[0] = st[0];
	bogus[1] = st[0];
	assert_null(bisect_replay(ids, 10, 0, 9, bogus, 2, err, sizeof(err)));
	assert_non_null(strstr(err, "step 2"));
	bisect_free(b);
}

/* Verification contradicts, the tie-break sides with the search. */
static void
test_verify_conflict_stands(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res, clean;

	(void)state;
	oracle_init(&o, 11);
	b = run(&o, 32, 0, 31);
	bisect_result(b, &clean);
	bisect_free(b);

	oracle_init(&o, 11);
	o.flip[11] = 1u << 1;		/* the verification says good */
	b = run(&o, 32, 0, 31);
	bisect_result(b, &res);
	assert_int_equal(res.status, BISECT_FOUND);
	assert_int_equal(res.culprit, 11);
	assert_int_equal(res.conflicts, 1);
	assert_int_equal(res.reopened, 0);
	assert_true(res.verified);	/* 2 of 3 say bad */
	assert_int_equal(bisect_nsteps_why(b, BISECT_TIEBREAK), 1);
	assert_true(res.confidence < clean.confidence);
	assert_true(res.confidence > 0.9);
	check_replay(b, 32, 0, 31);
	bisect_free(b);
}

/* A wrong search verdict: verification flips it and the search reopens. */
static void
test_verify_reopens(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res;
	size_t			 c, wrong;

	(void)state;
	/* a good revision measured bad once: the culprit found first is
	 * too early, its verification and tie-break say good */
	for (c = 2; c < 40; c++) {
		for (wrong = 1; wrong < c; wrong++) {
			oracle_init(&o, c);
			o.flip[wrong] = 1u << 0;
			b = run(&o, 41, 0, 40);
			bisect_result(b, &res);
			assert_int_equal(res.status, BISECT_FOUND);
			assert_int_equal(res.culprit, c);
			assert_true(res.reopened <= 1);
			assert_true(res.verified);
			assert_int_equal(res.inconsistent, 0);
			bisect_free(b);
		}
	}
	/* a bad revision measured good once: found too late, the
	 * predecessor's verification says bad */
	for (c = 1; c < 39; c++) {
		for (wrong = c; wrong < 40; wrong++) {
			oracle_init(&o, c);
			o.flip[wrong] = 1u << 0;
			b = run(&o, 41, 0, 40);
			bisect_result(b, &res);
			assert_int_equal(res.status, BISECT_FOUND);
			assert_int_equal(res.culprit, c);
			assert_true(res.verified);
			bisect_free(b);
		}
	}
	/* the flip the tests above rely on does happen */
	oracle_init(&o, 30);
	o.flip[20] = 1u << 0;
	b = run(&o, 41, 0, 40);
	bisect_result(b, &res);
	assert_int_equal(res.culprit, 30);
	assert_int_equal(res.reopened, 1);
	assert_int_equal(res.conflicts, 1);
	check_replay(b, 41, 0, 40);
	bisect_free(b);
}

/* Verification skipped (the host did not boot the second time). */
static void
test_verify_skipped(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res;

	(void)state;
	oracle_init(&o, 1);
	o.strength = 0.9;
	o.vskip[1] = 1u << 1;
	o.vskip[0] = 1u << 1;
	b = run(&o, 3, 0, 2);
	bisect_result(b, &res);
	assert_int_equal(res.status, BISECT_FOUND);
	assert_int_equal(res.culprit, 1);
	assert_false(res.verified);
	/* unverified: the product over all three verdicts */
	assert_true(fabs(res.confidence - 0.9 * 0.9 * 0.9) < 1e-9);
	assert_non_null(strstr(res.reason, "not verified"));
	bisect_free(b);

	/* verified: q = s^2 / (s^2 + (1-s)^2) for each boundary revision */
	oracle_init(&o, 1);
	o.strength = 0.9;
	b = run(&o, 3, 0, 2);
	bisect_result(b, &res);
	assert_true(res.verified);
	assert_true(fabs(res.confidence - pow(0.81 / 0.82, 2)) < 1e-9);
	bisect_free(b);
}

/* An endpoint that flips on verification stops the bisect. */
static void
test_verify_endpoint_flips(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res;

	(void)state;
	oracle_init(&o, 1);
	o.flip[1] = (1u << 1) | (1u << 2);
	b = run(&o, 2, 0, 1);
	bisect_result(b, &res);
	assert_int_equal(res.status, BISECT_FAILED);
	assert_non_null(strstr(res.reason, "bad endpoint r1 tested good on "
	    "re-measurement"));
	bisect_free(b);

	oracle_init(&o, 1);
	o.flip[0] = (1u << 1) | (1u << 2);
	b = run(&o, 2, 0, 1);
	bisect_result(b, &res);
	assert_int_equal(res.status, BISECT_FAILED);
	assert_non_null(strstr(res.reason, "good endpoint r0 tested bad"));
	bisect_free(b);
}

/* Measurements that contradict themselves forever end as inconsistent. */
static void
test_inconsistent(void **state)
{
	struct oracle		 o;
	struct bisect		*b;
	struct bisect_result	 res;
	size_t			 r;

	(void)state;
	oracle_init(&o, 30);
	/* every interior revision reads bad first, good on re-measure */
	for (r = 1; r < 63; r++)
		o.flip[r] = r < 30 ? 1u << 0 : (1u << 1) | (1u << 2);
	b = run(&o, 64, 0, 63);
	bisect_result(b, &res);
	assert_int_equal(res.status, BISECT_FAILED);
	assert_int_equal(res.reopened, BISECT_MAX_REOPEN);
	assert_int_equal(res.inconsistent, 1);
	assert_non_null(strstr(res.reason, "inconsistent: r3 flipped to good"));
	assert_true(res.confidence == 0.0);
	assert_true(res.last_good < res.first_bad);
	check_replay(b, 64, 0, 63);
	bisect_free(b);
}

static void
test_manual_marks(void **state)
{
	struct bisect		*b;
	struct bisect_request	 req;
	struct bisect_result	 res;
	char			 err[256];

	(void)state;
	names_init();
	b = bisect_new(ids, 16, 0, 15, err, sizeof(err));
	assert_non_null(b);
	/* out of order before the endpoints are checked */
	assert_int_equal(bisect_record(b, 7, BISECT_SKIP, -1, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "r7 was not asked for (next: "
	    "check-good r0)"));
	assert_int_equal(bisect_record(b, 0, BISECT_GOOD, -1, err,
	    sizeof(err)), 0);
	assert_int_equal(bisect_record(b, 15, BISECT_BAD, -1, err,
	    sizeof(err)), 0);
	assert_int_equal(bisect_next(b, &req), 1);
	assert_int_equal(req.rev, 7);
	assert_int_equal(req.why, BISECT_SEARCH);
	/* `skip r7` by hand: the nearest untested is asked instead */
	assert_int_equal(bisect_record(b, 7, BISECT_SKIP, -1, err,
	    sizeof(err)), 0);
	assert_int_equal(bisect_next(b, &req), 1);
	assert_int_equal(req.rev, 6);
	assert_int_equal(bisect_record(b, 12, BISECT_BAD, -1, err,
	    sizeof(err)), 0);
	/* twice, or outside the open range, or nonsense: refused */
	assert_int_equal(bisect_record(b, 12, BISECT_BAD, -1, err,
	    sizeof(err)), -1);
	assert_int_equal(bisect_record(b, 13, BISECT_BAD, -1, err,
	    sizeof(err)), -1);
	assert_int_equal(bisect_record(b, 99, BISECT_BAD, -1, err,
	    sizeof(err)), -1);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(bisect_record(b, 6, BISECT_UNTESTED, -1, err,
	    sizeof(err)), -1);
	bisect_result(b, &res);
	assert_int_equal(res.status, BISECT_RUNNING);
	assert_non_null(strstr(res.reason, "first bad r12"));
	bisect_free(b);
}

static void
test_new_errors(void **state)
{
	const char	*dup[] = { "a", "b", "a" };
	const char	*sp[] = { "a", "b c", "d" };
	const char	*ok[] = { "r190000", "r190005", "r209169" };
	struct bisect	*b;
	enum bisect_outcome o;
	char		 err[256];

	(void)state;
	assert_null(bisect_new(dup, 3, 0, 2, err, sizeof(err)));
	assert_non_null(strstr(err, "a listed twice"));
	assert_null(bisect_new(sp, 3, 0, 2, err, sizeof(err)));
	assert_non_null(strstr(err, "#1"));
	assert_null(bisect_new(ok, 3, 2, 0, err, sizeof(err)));
	assert_null(bisect_new(ok, 3, 0, 3, err, sizeof(err)));
	assert_null(bisect_new(ok, 1, 0, 0, err, sizeof(err)));
	b = bisect_new(ok, 3, 0, 2, err, sizeof(err));
	assert_non_null(b);
	assert_int_equal(bisect_index(b, "r190005"), 1);
	assert_int_equal(bisect_index(b, "r1"), -1);
	assert_string_equal(bisect_id(b, 2), "r209169");
	assert_null(bisect_id(b, 3));
	assert_int_equal(bisect_count(b), 3);
	bisect_free(b);
	assert_int_equal(bisect_outcome_parse("skip", &o), 0);
	assert_int_equal(o, BISECT_SKIP);
	assert_int_equal(bisect_outcome_parse("untested", &o), -1);
	assert_string_equal(bisect_outcome_name(BISECT_BAD), "bad");
	assert_string_equal(bisect_why_name(BISECT_TIEBREAK), "tiebreak");
	assert_string_equal(bisect_status_name(BISECT_RANGE), "range");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_position),
		cmocka_unit_test(test_skips_exhaustive),
		cmocka_unit_test(test_skip_table),
		cmocka_unit_test(test_bad_endpoints),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_verify_conflict_stands),
		cmocka_unit_test(test_verify_reopens),
		cmocka_unit_test(test_verify_skipped),
		cmocka_unit_test(test_verify_endpoint_flips),
		cmocka_unit_test(test_inconsistent),
		cmocka_unit_test(test_manual_marks),
		cmocka_unit_test(test_new_errors),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
