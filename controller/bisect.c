/*
 * bisect: the pure bisection state machine; see bisect.h for the rules it
 * follows (endpoint checks, midpoint search with skips, verification,
 * confidence, replay).  The sampling decisions (how many samples, and the
 * verdict of a revision's samples) are in bisect_judge.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "bisect.h"

/* Internal phases; bisect_next() derives the request from them. */
enum phase {
	PH_CHECK_GOOD,
	PH_CHECK_BAD,
	PH_SEARCH,
	PH_VERIFY,
	PH_DONE,
	PH_FAILED
};

#define S_MIN	0.5
#define S_MAX	0.9999

struct rev {
	char		*id;
	double		 llr;		/* log odds bad : good from verdicts */
	unsigned int	 ngood;
	unsigned int	 nbad;
	unsigned int	 nskip;
	enum bisect_outcome first;	/* first good/bad verdict */
	int		 vtried;	/* verification asked already */
};

struct sorted_id {
	const char	*id;
	size_t		 rev;
};

struct bisect {
	struct rev		*revs;
	struct sorted_id	*byid;
	size_t			 n;
	size_t			 good;
	size_t			 bad;
	struct bisect_step	*steps;
	size_t			 nsteps;
	size_t			 capsteps;
	enum phase		 phase;
	size_t			 lo;		/* last known good */
	size_t			 hi;		/* first known bad */
	int			 vstage;	/* 0: verify hi, 1: verify lo */
	int			 tiebreak;	/* verification contradicted */
	int			 conflicts;
	int			 reopened;
	int			 inconsistent;
	char			 reason[512];
};

static int	 cmp_sorted(const void *, const void *);
static int	 pick(const struct bisect *, size_t *);
static enum bisect_outcome effective(const struct rev *);
static double	 rev_q(const struct rev *);
static int	 verified(const struct rev *, enum bisect_outcome);
static void	 bounds(struct bisect *);
static void	 advance(struct bisect *);
static void	 apply(struct bisect *, size_t, enum bisect_outcome, double);
static void	 after_check(struct bisect *, size_t, enum bisect_outcome);
static void	 after_verify(struct bisect *, size_t, enum bisect_outcome);
static int	 accept_rev(const struct bisect *, size_t, enum bisect_why *,
		    char *, size_t);

static int
cmp_sorted(const void *a, const void *b)
{
	const struct sorted_id *x = a, *y = b;

	return (strcmp(x->id, y->id));
}

static int
valid_id(const char *id)
{
	size_t	i;

	if (id == NULL || id[0] == '\0')
		return (0);
	for (i = 0; id[i] != '\0'; i++) {
		if (i + 1 >= BISECT_MAX_ID ||
		    !isgraph((unsigned char)id[i]))
			return (0);
	}
	return (1);
}

struct bisect *
bisect_new(const char *const *ids, size_t n, size_t good, size_t bad,
    char *err, size_t errlen)
{
	struct bisect	*b;
	size_t		 i;

	if (n < 2 || n > BISECT_MAX_REVS) {
		util_seterr(err, errlen, "bisect: %zu revisions (need 2 to %d)",
		    n, BISECT_MAX_REVS);
		return (NULL);
	}
	if (good >= bad || bad >= n) {
		util_seterr(err, errlen, "bisect: good endpoint (#%zu) must be "
		    "older than bad endpoint (#%zu) within %zu revisions",
		    good, bad, n);
		return (NULL);
	}
	for (i = 0; i < n; i++) {
		if (!valid_id(ids[i])) {
			util_seterr(err, errlen, "bisect: revision #%zu: "
			    "empty, too long or not printable", i);
			return (NULL);
		}
	}
	b = xcalloc(1, sizeof(*b));
	b->n = n;
	b->good = good;
	b->bad = bad;
	b->revs = xcalloc(n, sizeof(*b->revs));
	b->byid = xcalloc(n, sizeof(*b->byid));
	for (i = 0; i < n; i++) {
		b->revs[i].id = xstrdup(ids[i]);
		b->byid[i].id = b->revs[i].id;
		b->byid[i].rev = i;
	}
	qsort(b->byid, n, sizeof(*b->byid), cmp_sorted);
	for (i = 1; i < n; i++) {
		if (strcmp(b->byid[i - 1].id, b->byid[i].id) == 0) {
			util_seterr(err, errlen, "bisect: revision %s listed "
			    "twice", b->byid[i].id);
			bisect_free(b);
			return (NULL);
		}
	}
	b->phase = PH_CHECK_GOOD;
	b->lo = good;
	b->hi = bad;
	return (b);
}

void
bisect_free(struct bisect *b)
{
	size_t	i;

	if (b == NULL)
		return;
	for (i = 0; i < b->n; i++)
		free(b->revs[i].id);
	free(b->revs);
	free(b->byid);
	free(b->steps);
	free(b);
}

long
bisect_index(const struct bisect *b, const char *id)
{
	struct sorted_id	 key, *hit;

	if (id == NULL)
		return (-1);
	key.id = id;
	key.rev = 0;
	hit = bsearch(&key, b->byid, b->n, sizeof(*b->byid), cmp_sorted);
	return (hit == NULL ? -1 : (long)hit->rev);
}

const char *
bisect_id(const struct bisect *b, size_t rev)
{
	return (rev < b->n ? b->revs[rev].id : NULL);
}

size_t
bisect_count(const struct bisect *b)
{
	return (b->n);
}

static enum bisect_outcome
effective(const struct rev *r)
{
	if (r->ngood + r->nbad == 0)
		return (r->nskip > 0 ? BISECT_SKIP : BISECT_UNTESTED);
	if (r->llr > 0)
		return (BISECT_BAD);
	if (r->llr < 0)
		return (BISECT_GOOD);
	return (r->first);
}

/* Posterior probability that the revision is what effective() says. */
static double
rev_q(const struct rev *r)
{
	return (1.0 / (1.0 + exp(-fabs(r->llr))));
}

static int
verified(const struct rev *r, enum bisect_outcome want)
{
	if (effective(r) != want)
		return (0);
	return ((want == BISECT_GOOD ? r->ngood : r->nbad) >= 2);
}

/*
 * The nearest untested revision to the midpoint of (lo, hi), lower side
 * first.  Returns 0 when every revision in between was tested or skipped.
 */
static int
pick(const struct bisect *b, size_t *out)
{
	size_t	mid, d, maxd;
	const struct rev *r;

	if (b->hi - b->lo < 2)
		return (0);
	mid = b->lo + (b->hi - b->lo) / 2;
	maxd = (mid - b->lo > b->hi - mid) ? mid - b->lo : b->hi - mid;
	for (d = 0; d < maxd; d++) {
		if (mid - d > b->lo) {
			r = &b->revs[mid - d];
			if (r->ngood + r->nbad + r->nskip == 0) {
				*out = mid - d;
				return (1);
			}
		}
		if (d > 0 && mid + d < b->hi) {
			r = &b->revs[mid + d];
			if (r->ngood + r->nbad + r->nskip == 0) {
				*out = mid + d;
				return (1);
			}
		}
	}
	return (0);
}

/* lo/hi from effective verdicts: first bad, and the last good below it. */
static void
bounds(struct bisect *b)
{
	size_t	i;

	b->hi = b->bad;
	for (i = b->good; i <= b->bad; i++) {
		if (effective(&b->revs[i]) == BISECT_BAD) {
			b->hi = i;
			break;
		}
	}
	b->lo = b->good;
	for (i = b->hi; i > b->good; i--) {
		if (effective(&b->revs[i - 1]) == BISECT_GOOD) {
			b->lo = i - 1;
			break;
		}
	}
}

/* Moves through phases that need no measurement. */
static void
advance(struct bisect *b)
{
	size_t	 t, dummy;
	enum bisect_outcome want;

	if (b->phase == PH_SEARCH) {
		if (pick(b, &dummy))
			return;
		b->phase = PH_VERIFY;
		b->vstage = 0;
		b->tiebreak = 0;
	}
	if (b->phase != PH_VERIFY)
		return;
	while (b->vstage < 2) {
		t = b->vstage == 0 ? b->hi : b->lo;
		want = b->vstage == 0 ? BISECT_BAD : BISECT_GOOD;
		if (!verified(&b->revs[t], want) && !b->revs[t].vtried)
			return;
		b->vstage++;
	}
	b->phase = PH_DONE;
}

int
bisect_next(const struct bisect *b, struct bisect_request *req)
{
	size_t	rev;

	memset(req, 0, sizeof(*req));
	switch (b->phase) {
	case PH_CHECK_GOOD:
		req->rev = b->good;
		req->why = BISECT_CHECK_GOOD;
		req->expect = BISECT_GOOD;
		break;
	case PH_CHECK_BAD:
		req->rev = b->bad;
		req->why = BISECT_CHECK_BAD;
		req->expect = BISECT_BAD;
		break;
	case PH_SEARCH:
		if (!pick(b, &rev))
			return (0);	/* not reached: advance() moved on */
		req->rev = rev;
		req->why = BISECT_SEARCH;
		req->expect = BISECT_UNTESTED;
		break;
	case PH_VERIFY:
		req->rev = b->vstage == 0 ? b->hi : b->lo;
		req->why = b->tiebreak ? BISECT_TIEBREAK : BISECT_VERIFY;
		req->expect = b->vstage == 0 ? BISECT_BAD : BISECT_GOOD;
		break;
	default:
		return (0);
	}
	req->id = b->revs[req->rev].id;
	return (1);
}

static void
apply(struct bisect *b, size_t rev, enum bisect_outcome o, double s)
{
	struct rev	*r = &b->revs[rev];
	double		 w;

	if (o == BISECT_SKIP) {
		r->nskip++;
		return;
	}
	if (!(s >= 0) || s > S_MAX)	/* unknown (negative, NaN) -> sure */
		s = S_MAX;
	if (s < S_MIN)
		s = S_MIN;
	w = log(s / (1.0 - s));
	if (r->ngood + r->nbad == 0)
		r->first = o;
	if (o == BISECT_BAD) {
		r->nbad++;
		r->llr += w;
	} else {
		r->ngood++;
		r->llr -= w;
	}
}

static void
after_check(struct bisect *b, size_t rev, enum bisect_outcome o)
{
	const char	*which = rev == b->good ? "good" : "bad";
	enum bisect_outcome want = rev == b->good ? BISECT_GOOD : BISECT_BAD;

	if (o == want) {
		b->phase = rev == b->good ? PH_CHECK_BAD : PH_SEARCH;
		advance(b);
		return;
	}
	b->phase = PH_FAILED;
	if (o == BISECT_SKIP)
		snprintf(b->reason, sizeof(b->reason), "%s endpoint %s could "
		    "not be tested (unbuildable, unbootable or inconclusive)",
		    which, b->revs[rev].id);
	else
		snprintf(b->reason, sizeof(b->reason), "%s endpoint %s tested "
		    "%s: the regression is not between %s and %s", which,
		    b->revs[rev].id, bisect_outcome_name(o),
		    b->revs[b->good].id, b->revs[b->bad].id);
}

/* A verification or tie-break verdict for the boundary revision rev. */
static void
after_verify(struct bisect *b, size_t rev, enum bisect_outcome o)
{
	enum bisect_outcome want = b->vstage == 0 ? BISECT_BAD : BISECT_GOOD;
	const char	*which;

	if (!b->tiebreak) {
		b->revs[rev].vtried = 1;
		if (o != BISECT_SKIP && o != want) {
			b->conflicts++;
			b->tiebreak = 1;
			return;
		}
		b->vstage++;
		advance(b);
		return;
	}
	b->tiebreak = 0;
	if (effective(&b->revs[rev]) == want) {
		b->vstage++;
		advance(b);
		return;
	}
	if (rev == b->good || rev == b->bad) {
		which = rev == b->good ? "good" : "bad";
		b->phase = PH_FAILED;
		snprintf(b->reason, sizeof(b->reason), "%s endpoint %s tested "
		    "%s on re-measurement (%u good, %u bad verdicts)", which,
		    b->revs[rev].id, bisect_outcome_name(effective(
		    &b->revs[rev])), b->revs[rev].ngood, b->revs[rev].nbad);
		return;
	}
	bounds(b);
	if (b->reopened >= BISECT_MAX_REOPEN) {
		b->inconsistent = 1;
		b->phase = PH_FAILED;
		snprintf(b->reason, sizeof(b->reason), "verdicts are "
		    "inconsistent: %s flipped to %s on re-measurement after %d "
		    "reopened searches; the effect may be intermittent or the "
		    "threshold inside the noise (last bracket %s .. %s)",
		    b->revs[rev].id, bisect_outcome_name(effective(
		    &b->revs[rev])), b->reopened, b->revs[b->lo].id,
		    b->revs[b->hi].id);
		return;
	}
	b->reopened++;
	b->phase = PH_SEARCH;
	advance(b);
}

/* Whether rev may be recorded now, and as what. */
static int
accept_rev(const struct bisect *b, size_t rev, enum bisect_why *why,
    char *err, size_t errlen)
{
	struct bisect_request	 req;
	const struct rev	*r;

	if (rev >= b->n) {
		util_seterr(err, errlen, "bisect: revision #%zu out of range "
		    "(%zu revisions)", rev, b->n);
		return (-1);
	}
	if (!bisect_next(b, &req)) {
		util_seterr(err, errlen, "bisect: %s: the bisect is over",
		    b->revs[rev].id);
		return (-1);
	}
	*why = req.why;
	if (rev == req.rev)
		return (0);
	r = &b->revs[rev];
	if (b->phase == PH_SEARCH && rev > b->lo && rev < b->hi &&
	    r->ngood + r->nbad + r->nskip == 0)
		return (0);
	util_seterr(err, errlen, "bisect: %s was not asked for (next: %s %s)",
	    r->id, bisect_why_name(req.why), req.id);
	return (-1);
}

int
bisect_record(struct bisect *b, size_t rev, enum bisect_outcome o,
    double strength, char *err, size_t errlen)
{
	struct bisect_step	*st;
	enum bisect_why		 why;

	if (o != BISECT_GOOD && o != BISECT_BAD && o != BISECT_SKIP) {
		util_seterr(err, errlen, "bisect: outcome must be good, bad "
		    "or skip");
		return (-1);
	}
	if (accept_rev(b, rev, &why, err, errlen) == -1)
		return (-1);
	if (b->nsteps == b->capsteps) {
		b->capsteps = b->capsteps ? b->capsteps * 2 : 32;
		b->steps = xreallocarray(b->steps, b->capsteps,
		    sizeof(*b->steps));
	}
	st = &b->steps[b->nsteps++];
	st->rev = rev;
	st->outcome = o;
	st->strength = strength;
	st->why = why;
	apply(b, rev, o, strength);

	switch (why) {
	case BISECT_CHECK_GOOD:
	case BISECT_CHECK_BAD:
		after_check(b, rev, o);
		break;
	case BISECT_SEARCH:
		if (o == BISECT_GOOD)
			b->lo = rev;
		else if (o == BISECT_BAD)
			b->hi = rev;
		advance(b);
		break;
	case BISECT_VERIFY:
	case BISECT_TIEBREAK:
		after_verify(b, rev, o);
		break;
	}
	return (0);
}

static double
confidence(const struct bisect *b)
{
	const struct rev	*lo = &b->revs[b->lo], *hi = &b->revs[b->hi];
	double			 l = 0;
	size_t			 i;

	if (verified(lo, BISECT_GOOD) && verified(hi, BISECT_BAD))
		return (rev_q(lo) * rev_q(hi));
	for (i = b->good; i <= b->bad; i++) {
		if (b->revs[i].ngood + b->revs[i].nbad > 0)
			l += log(rev_q(&b->revs[i]));
	}
	return (exp(l));
}

static int
measured(const struct rev *r)
{
	return r->ngood + r->nbad + r->nskip > 0;
}

/* A bound is named only once measured: an endpoint not checked yet is
 * not known good or bad. */
static void
running_reason(const struct bisect *b, char *buf, size_t len)
{
	int	lo = measured(&b->revs[b->lo]), hi = measured(&b->revs[b->hi]);

	if (lo && hi)
		snprintf(buf, len, "running: last good %s, first bad %s",
		    b->revs[b->lo].id, b->revs[b->hi].id);
	else if (lo)
		snprintf(buf, len, "running: last good %s; the bad endpoint "
		    "not checked yet", b->revs[b->lo].id);
	else if (hi)
		snprintf(buf, len, "running: first bad %s; the good endpoint "
		    "not checked yet", b->revs[b->hi].id);
	else
		snprintf(buf, len, "running: no endpoint checked yet");
}

void
bisect_explain(struct bisect *b, const char *reason)
{
	if (b->phase == PH_FAILED && reason != NULL && reason[0] != '\0')
		snprintf(b->reason, sizeof(b->reason), "%s", reason);
}

void
bisect_result(const struct bisect *b, struct bisect_result *res)
{
	memset(res, 0, sizeof(*res));
	res->conflicts = b->conflicts;
	res->reopened = b->reopened;
	res->inconsistent = b->inconsistent;
	if (b->phase == PH_FAILED) {
		res->status = BISECT_FAILED;
		res->last_good = b->lo;
		res->first_bad = b->hi;
		snprintf(res->reason, sizeof(res->reason), "%s", b->reason);
		return;
	}
	if (b->phase != PH_DONE) {
		res->status = BISECT_RUNNING;
		running_reason(b, res->reason, sizeof(res->reason));
		return;
	}
	res->last_good = b->lo;
	res->first_bad = b->hi;
	res->verified = verified(&b->revs[b->lo], BISECT_GOOD) &&
	    verified(&b->revs[b->hi], BISECT_BAD);
	res->confidence = confidence(b);
	if (b->hi == b->lo + 1) {
		res->status = BISECT_FOUND;
		res->culprit = b->hi;
		snprintf(res->reason, sizeof(res->reason), "first bad revision "
		    "is %s (previous %s is good), %s", b->revs[b->hi].id,
		    b->revs[b->lo].id, res->verified ? "verified" :
		    "not verified");
	} else {
		res->status = BISECT_RANGE;
		res->nskipped = b->hi - b->lo - 1;
		snprintf(res->reason, sizeof(res->reason), "first bad revision "
		    "is after %s and at or before %s: %zu skipped revision%s "
		    "in between, %s", b->revs[b->lo].id, b->revs[b->hi].id,
		    res->nskipped, res->nskipped == 1 ? "" : "s",
		    res->verified ? "verified" : "not verified");
	}
}

const struct bisect_step *
bisect_steps(const struct bisect *b, size_t *nsteps)
{
	*nsteps = b->nsteps;
	return (b->steps);
}

size_t
bisect_nsteps_why(const struct bisect *b, enum bisect_why why)
{
	size_t	i, c = 0;

	for (i = 0; i < b->nsteps; i++)
		if (b->steps[i].why == why)
			c++;
	return (c);
}

struct bisect *
bisect_replay(const char *const *ids, size_t n, size_t good, size_t bad,
    const struct bisect_step *steps, size_t nsteps, char *err, size_t errlen)
{
	struct bisect	*b;
	char		 why[256];
	size_t		 i;

	b = bisect_new(ids, n, good, bad, err, errlen);
	if (b == NULL)
		return (NULL);
	for (i = 0; i < nsteps; i++) {
		if (bisect_record(b, steps[i].rev, steps[i].outcome,
		    steps[i].strength, why, sizeof(why)) == -1) {
			util_seterr(err, errlen, "bisect replay: step %zu: %s",
			    i + 1, why);
			bisect_free(b);
			return (NULL);
		}
	}
	return (b);
}

static const char *outcome_names[] = { "untested", "good", "bad", "skip" };
static const char *why_names[] = { "check-good", "check-bad", "search",
    "verify", "tiebreak" };
static const char *status_names[] = { "running", "found", "range",
    "failed" };

const char *
bisect_outcome_name(enum bisect_outcome o)
{
	return ((unsigned)o < 4 ? outcome_names[o] : "?");
}

int
bisect_outcome_parse(const char *s, enum bisect_outcome *out)
{
	int	i;

	for (i = BISECT_GOOD; i <= BISECT_SKIP; i++) {
		if (strcmp(s, outcome_names[i]) == 0) {
			*out = i;
			return (0);
		}
	}
	return (-1);
}

const char *
bisect_why_name(enum bisect_why w)
{
	return ((unsigned)w < 5 ? why_names[w] : "?");
}

const char *
bisect_status_name(enum bisect_status s)
{
	return ((unsigned)s < 4 ? status_names[s] : "?");
}
