/*
 * bisect_judge: the sampling decisions of a bisect (see bisect.h): a test's
 * defaults and checks, the verdict of a revision's samples against the
 * reference scaled by the threshold, and how many samples to take next.
 * Pure, like the state machine in bisect.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "util.h"

/* Sampling decisions ----------------------------------------------------- */

void
bisect_test_default(struct bisect_test *t, double threshold)
{
	memset(t, 0, sizeof(*t));
	t->threshold = threshold;
	t->remeasures = 1;
	stats_params_default(&t->stats);
	t->stats.min_effect = 0.0;
}

int
bisect_test_check(const struct bisect_test *t, char *err, size_t errlen)
{
	if (!(t->threshold > 0.0 && t->threshold < 1e6)) {
		util_seterr(err, errlen, "bisect test: threshold must be a "
		    "positive ratio");
		return (-1);
	}
	if (t->remeasures < 0 || t->remeasures > 10) {
		util_seterr(err, errlen, "bisect test: remeasures must be in "
		    "[0, 10]");
		return (-1);
	}
	return (stats_params_check(&t->stats, err, errlen));
}

/* The reference scaled by the threshold; heap copy the caller frees. */
static double *
scaled(const struct bisect_test *t, const double *ref, size_t nref)
{
	double	*s;
	size_t	 i;

	s = xreallocarray(NULL, nref ? nref : 1, sizeof(*s));
	for (i = 0; i < nref; i++)
		s[i] = ref[i] * t->threshold;
	return (s);
}

static void
map_verdict(const struct bisect_test *t, struct bisect_decision *d)
{
	d->ratio = d->v.ratio * t->threshold;
	switch (d->v.verdict) {
	case STATS_REGRESSION:
		d->outcome = BISECT_BAD;
		d->strength = 1.0 - d->v.p / 2.0;
		break;
	case STATS_IMPROVEMENT:
		d->outcome = BISECT_GOOD;
		d->strength = 1.0 - d->v.p / 2.0;
		break;
	default:
		/* "no change" relative to the threshold sits on it */
		d->outcome = BISECT_UNTESTED;
		d->strength = 0.0;
		break;
	}
	if (!(d->strength >= 0.0))
		d->strength = 0.0;
}

int
bisect_judge(const struct bisect_test *t, const double *ref, size_t nref,
    const double *cand, size_t ncand, struct bisect_decision *d, char *err,
    size_t errlen)
{
	double	*s;
	int	 rc;

	memset(d, 0, sizeof(*d));
	if (bisect_test_check(t, err, errlen) == -1)
		return (-1);
	s = scaled(t, ref, nref);
	rc = stats_verdict(s, nref, cand, ncand, &t->stats, &d->v, err,
	    errlen);
	free(s);
	if (rc == -1)
		return (-1);
	d->action = BISECT_DECIDED;
	map_verdict(t, d);
	return (0);
}

int
bisect_sample_next(const struct bisect_test *t, const double *ref,
    size_t nref, const double *cand, size_t ncand, int attempt,
    struct bisect_decision *d, char *err, size_t errlen)
{
	double	*s;
	int	 rc;

	memset(d, 0, sizeof(*d));
	if (bisect_test_check(t, err, errlen) == -1)
		return (-1);
	if (t->fixed_reference && nref == 0) {
		util_seterr(err, errlen, "bisect sampling: the fixed reference "
		    "has no samples");
		return (-1);
	}
	s = scaled(t, ref, nref);
	rc = stats_adaptive(s, nref, cand, ncand, &t->stats, &d->v,
	    &d->add_ref, &d->add_cand, err, errlen);
	free(s);
	if (rc == -1)
		return (-1);
	map_verdict(t, d);
	if (d->outcome != BISECT_UNTESTED) {
		d->action = BISECT_DECIDED;
		d->add_ref = d->add_cand = 0;
		return (0);
	}
	if (t->fixed_reference)
		d->add_ref = 0;
	if (d->add_ref > 0 || d->add_cand > 0) {
		d->action = BISECT_MEASURE;
		return (0);
	}
	if (attempt < t->remeasures) {
		d->action = BISECT_REMEASURE;
		return (0);
	}
	d->action = BISECT_DECIDED;
	d->outcome = BISECT_SKIP;
	return (0);
}
