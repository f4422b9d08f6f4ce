/*
 * bisect: the pure state machine behind `labrat bisect`.  It owns the
 * decision of which revision to test next, when the search is over, what the
 * culprit (or the smallest provable range) is and how much to trust it.  It
 * does no I/O: installing, rebooting and measuring belong to the caller
 * (kernel.c, executor.c), persistence to store.c.
 *
 * Life of a bisect, over revisions[0..n-1] ordered oldest -> newest with the
 * endpoints GOOD < BAD:
 *
 *  1. endpoint checks: GOOD must test good, then BAD must test bad.  Anything
 *     else (the wrong verdict, or skip) stops the bisect (BISECT_FAILED) with a
 *     reason naming the endpoint and what it tested as.
 *  2. search: lo = last revision known good, hi = first known bad.  The next
 *     revision is the midpoint of (lo, hi); when it was skipped, the nearest
 *     untested revision to the midpoint, lower side first, then alternating
 *     (mid, mid-1, mid+1, mid-2, ...).  No revision is searched twice.  With
 *     no skips this takes at most ceil(log2(BAD - GOOD)) steps (tested for
 *     every culprit position of 1..40 candidates); each skipped revision
 *     costs its own step, plus at most 2 for off-centre splits (tested over
 *     every skip pattern of 10 candidates).  Not counted there: the 2
 *     endpoint checks and the 2 verifications (+1 per contradiction).
 *  3. verification: the first bad revision (culprit) and its last good
 *     predecessor are each measured a second time (when they do not already
 *     have two agreeing verdicts).  A skip there leaves the result standing,
 *     unverified.  A contradiction asks for a third, tie-break measurement of
 *     the same revision; the revision's verdict is then the one with the
 *     larger posterior (see confidence).  If that flips it, the search is
 *     reopened around the new boundary.  After BISECT_MAX_REOPEN reopenings a
 *     further flip stops the bisect (BISECT_FAILED, inconsistent set,
 *     last_good/first_bad = the bracket the verdicts give then): verdicts
 *     that keep changing mean an intermittent effect or a threshold inside
 *     the noise, and no culprit should be named.  A flipped endpoint stops
 *     the bisect as in 1.  A contradiction that does not flip the verdict
 *     leaves the result standing with the lowered confidence it implies.
 *  4. result: BISECT_FOUND when the culprit's predecessor is known good, or
 *     BISECT_RANGE when skipped revisions separate the last known good from
 *     the first known bad: every revision strictly between them was skipped,
 *     and the culprit is one of them or the first bad itself.
 *
 * Confidence.  Every good/bad verdict carries a strength s in [0, 1]: the
 * probability that the verdict is right, 1 - p/2 for a statistical verdict
 * (bisect_judge() and bisect_sample_next() fill it; from a stored p, use
 * 1 - p/2 too), 1 for a human's mark; it is clamped to [0.5, 0.9999].
 * Taking verdicts as independent with a uniform prior, the probability that
 * revision r really is what it is taken for is q(r) = L / (1 + L), with
 *	L = prod(agreeing s / (1 - s)) * prod(disagreeing (1 - s) / s)
 * (one verdict: q = s).  The result's confidence is
 *   - verified (both boundary revisions have >= 2 agreeing verdicts):
 *	q(last good) * q(first bad) -- a verified good->bad pair proves a
 *	transition there whatever the other steps said;
 *   - otherwise the product of q(r) over every revision with a verdict,
 *	since then every step had to be right.
 * It is 0 for BISECT_FAILED and while running.
 *
 * Replay.  The machine is a function of its step list: bisect_replay() feeds
 * the recorded (revision, outcome, strength) steps through bisect_record()
 * and ends in the same state, so persistence stores steps only, and `bisect
 * resume` / `bisect log` rebuild the machine from them.
 *
 * Sampling.  bisect_judge() turns two sample sets into good / bad /
 * inconclusive through stats.h; bisect_sample_next() is the adaptive sampling
 * loop as pure decisions (measure N more, re-measure, decided, skip).
 */
#ifndef LABRAT_BISECT_H
#define LABRAT_BISECT_H

#include <stddef.h>

#include "stats.h"

#define BISECT_MAX_REVS		1000000		/* revisions per bisect */
#define BISECT_MAX_ID		256		/* bytes of a revision id */
#define BISECT_MAX_REOPEN	2		/* search reopenings */

enum bisect_outcome {
	BISECT_UNTESTED = 0,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP	/* unbuildable, unbootable, inconclusive twice */
};

/* Why a revision is asked for. */
enum bisect_why {
	BISECT_CHECK_GOOD,	/* the GOOD endpoint, expected good */
	BISECT_CHECK_BAD,	/* the BAD endpoint, expected bad */
	BISECT_SEARCH,		/* a bisection step */
	BISECT_VERIFY,		/* second measurement of a boundary revision */
	BISECT_TIEBREAK		/* third, after verification contradicted */
};

enum bisect_status {
	BISECT_RUNNING,
	BISECT_FOUND,		/* culprit exact: its predecessor is good */
	BISECT_RANGE,		/* skips between last good and first bad */
	BISECT_FAILED		/* endpoints wrong or untestable */
};

/* One recorded measurement verdict; the unit of persistence and replay. */
struct bisect_step {
	size_t			 rev;		/* index into the list */
	enum bisect_outcome	 outcome;	/* GOOD, BAD or SKIP */
	double			 strength;	/* P(right); < 0: unknown = 1 */
	enum bisect_why		 why;		/* set by bisect_record() */
};

/* What to test next; id points into the machine (until bisect_free()). */
struct bisect_request {
	size_t			 rev;
	const char		*id;
	enum bisect_why		 why;
	enum bisect_outcome	 expect;	/* GOOD or BAD: what agrees;
						   UNTESTED for a search */
};

struct bisect_result {
	enum bisect_status	 status;
	size_t			 culprit;	/* FOUND: first bad */
	size_t			 last_good;	/* FOUND, RANGE, FAILED */
	size_t			 first_bad;	/* == culprit if FOUND */
	size_t			 nskipped;	/* RANGE: all between */
	int			 verified;	/* both ends confirmed */
	int			 conflicts;	/* verifications against */
	int			 reopened;	/* searches reopened */
	int			 inconsistent;	/* FAILED: flipped too often */
	double			 confidence;	/* see above; 0..1 */
	char			 reason[512];	/* one line for humans */
};

struct bisect;

/*
 * Starts a bisect over ids[0..n-1] (oldest first; copied) with the endpoints
 * good < bad.  Returns a heap machine freed with bisect_free(), or NULL with
 * err set (bad endpoints, duplicate or empty ids, too many revisions).
 */
struct bisect	*bisect_new(const char *const *ids, size_t n, size_t good,
		    size_t bad, char *err, size_t errlen);
void		 bisect_free(struct bisect *);

/* Index of revision id, or -1. */
/*
 * Replaces the reason of a failed bisect by the driver's account (it knows
 * why an endpoint was a skip: an install that failed, samples still
 * inconclusive at the cap); a bisect that has not failed is left alone.
 */
void		 bisect_explain(struct bisect *, const char *reason);
long		 bisect_index(const struct bisect *, const char *id);
const char	*bisect_id(const struct bisect *, size_t rev);
size_t		 bisect_count(const struct bisect *);

/*
 * The next revision to measure.  Returns 1 and fills req, or 0 when the
 * bisect is over (see bisect_result()).
 */
int		 bisect_next(const struct bisect *, struct bisect_request *req);

/*
 * Records a verdict for revision rev.  rev must be the one bisect_next()
 * asks for; during the search any untested revision between the last good
 * and the first bad is also accepted (a mark made by hand, like `git bisect
 * skip REV`).  Returns 0, or -1 with err set (nothing is changed then).
 */
int		 bisect_record(struct bisect *, size_t rev,
		    enum bisect_outcome outcome, double strength,
		    char *err, size_t errlen);

/* The result so far (status BISECT_RUNNING until bisect_next() returns 0). */
void		 bisect_result(const struct bisect *, struct bisect_result *);

/* The recorded steps, oldest first; valid until the next bisect_record(). */
const struct bisect_step *bisect_steps(const struct bisect *, size_t *nsteps);
/* Number of recorded steps asked for the given reason. */
size_t		 bisect_nsteps_why(const struct bisect *, enum bisect_why);

/*
 * Rebuilds a machine: bisect_new() and then bisect_record() of every step in
 * order (their why is ignored and recomputed).  Returns a heap machine, or
 * NULL with err naming the first step that does not apply.
 */
struct bisect	*bisect_replay(const char *const *ids, size_t n, size_t good,
		    size_t bad, const struct bisect_step *steps, size_t nsteps,
		    char *err, size_t errlen);

/*
 * Sampling.  A step compares the candidate's samples with a reference:
 *  - A/B within one boot: reference = the control (TSO off), candidate = the
 *    variant (TSO on), both measured on the revision under test;
 *  - against GOOD: reference = the GOOD revision's samples, measured once to
 *    stats.max_samples at the GOOD check (fixed_reference = 1: never asked
 *    to grow; the GOOD check itself is good by construction).
 * The revision is good while median(candidate) / median(reference) stays on
 * the good side of threshold (>= threshold when higher is better, e.g. 0.91
 * for "18 % slower is the bug"; <= threshold with stats.lower_is_better):
 * stats' verdict is taken between the candidate and the reference scaled by
 * threshold, so regression -> bad, improvement -> good, and "no change"
 * (sitting on the threshold) or inconclusive -> inconclusive.  A collapse
 * (stats.collapse, 5x beyond the threshold, disjoint samples) is decided from
 * stats.collapse_min_samples per side.  stats.min_effect is a dead band
 * around the threshold (default 0 here).
 *
 * Strength of a decision: 1 - p/2, p = stats' two-sided Mann-Whitney p of
 * the look that decided: each outcome has its direction fixed in advance
 * (bad = below the threshold), so its error is bounded by the one-sided p.
 * 5 vs 5 disjoint samples give 1 - 1/252, a 3 vs 3 collapse 1 - 1/20.
 */
struct bisect_test {
	double			 threshold;	/* ratio candidate/reference */
	int			 fixed_reference; /* cannot grow */
	int			 remeasures;	/* inconclusive: retries */
	struct stats_params	 stats;
};

/* threshold, stats_params_default() with min_effect 0, 1 re-measure. */
void	bisect_test_default(struct bisect_test *, double threshold);
int	bisect_test_check(const struct bisect_test *, char *err, size_t errlen);

enum bisect_action {
	BISECT_MEASURE,		/* add add_ref / add_cand repetitions */
	BISECT_REMEASURE,	/* discard both sample sets, start again */
	BISECT_DECIDED		/* outcome: GOOD, BAD or SKIP */
};

struct bisect_decision {
	enum bisect_action	 action;
	size_t			 add_ref;
	size_t			 add_cand;
	enum bisect_outcome	 outcome;	/* DECIDED */
	double			 strength;	/* DECIDED good/bad */
	double			 ratio;		/* median(cand) / median(ref) */
	struct stats_verdict	 v;		/* vs the scaled reference */
};

/*
 * One look, no adaptation: *out = GOOD, BAD or UNTESTED (inconclusive), with
 * the strength and ratio filled in d (d->action = BISECT_DECIDED).  0 or -1
 * with err set (empty or non-finite samples, bad test).
 */
int	bisect_judge(const struct bisect_test *, const double *ref, size_t nref,
	    const double *cand, size_t ncand, struct bisect_decision *d,
	    char *err, size_t errlen);

/*
 * The adaptive sampling loop as decisions.  Call with the samples so far
 * (none at first) and attempt = 0; on BISECT_MEASURE add the repetitions and
 * call again; on BISECT_REMEASURE start over with empty samples and attempt
 * + 1.  Looks follow stats_adaptive() (collapse_min_samples, min_samples,
 * doubling to max_samples, Bonferroni over the looks); still inconclusive at
 * the cap: re-measure while attempt < remeasures, then decided SKIP.
 */
int	bisect_sample_next(const struct bisect_test *, const double *ref,
	    size_t nref, const double *cand, size_t ncand, int attempt,
	    struct bisect_decision *d, char *err, size_t errlen);

const char	*bisect_outcome_name(enum bisect_outcome);
/* "good", "bad", "skip" -> 0 and *out, else -1. */
int		 bisect_outcome_parse(const char *, enum bisect_outcome *out);
const char	*bisect_why_name(enum bisect_why);
const char	*bisect_status_name(enum bisect_status);

#endif
