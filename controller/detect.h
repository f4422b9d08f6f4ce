/*
 * detect: turns the samples of a run into verdicts a driver developer can
 * act on.
 *
 * Within a run: the series of one link + workload (+ kernel revision) form
 * a family.  Every pair of knob combinations in a family that differ in
 * exactly one knob is compared (baseline: the lesser value, i.e. off, the
 * smaller MTU, NAT off; candidate: the other), giving a stats verdict with
 * effect, bootstrap CI, p and n.  From the regressions, knob isolation
 * names the minimal combination that triggers each one: a combination W
 * worse than its neighbour along knobs K is triggered by W's values of K
 * ("mtu=9000,tso=on"), and for each knob of K the comparison along it with
 * the other trigger knobs at their good values says what that knob does
 * alone ("TSO alone: no change").
 *
 * False alarms: a run makes many comparisons, so each family's alpha is
 * split over its comparisons (Bonferroni); with adaptive sampling it is
 * further split over the looks (stats_adaptive_alpha), the rule the
 * sampling itself used.  A collapse (ratio beyond the collapse factor,
 * samples not overlapping) needs only collapse_min_samples per side.
 *
 * Run over run: each series of a run against the same link + knobs +
 * workload in a baseline (the newest earlier done run whose links join the
 * same host pairs, or a given run), with the same verdict rules, naming
 * the kernel revisions of both sides.
 *
 * Everything is read through the store; nothing is written except by the
 * caller of detect_more_jobs()'s specs.  Configs are not parsed here: the
 * parameters (a plan's stats section, the links of a stored inventory) come
 * typed from the caller.
 */
#ifndef LABRAT_DETECT_H
#define LABRAT_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "store.h"

#define DETECT_NONE	((size_t)-1)

/* A link of an inventory and the hosts it joins. */
struct detect_link {
	char	link[STORE_NAME_MAX];
	char	client[STORE_NAME_MAX];
	char	server[STORE_NAME_MAX];
};

/*
 * The links of the inventory a run stored, for a run whose done jobs
 * recorded no host facts (run over run needs the host pairs of both
 * sides).  Supplied by a caller that parses configs.  Sets *links (heap,
 * detect frees it) and *n; 0 with *n = 0 when they are unknown, -1 with
 * err to fail the detection.
 */
typedef int (*detect_links_fn)(const struct store_run *,
	    struct detect_link **links, size_t *n, char *err, size_t errlen);

struct detect_params {
	struct stats_params	stats;
	int			adaptive;	/* verdicts at the adaptive alpha */
	int			family;		/* split alpha over a family */
	char			metric[STORE_NAME_MAX];	/* throughput_bps */
	int			metric_declared; /* its direction: a plan's */
	detect_links_fn		inventory_links;	/* NULL: unknown */
};

/*
 * stats defaults, adaptive on, family correction on, throughput_bps
 * (higher is better).
 */
void	detect_params_default(struct detect_params *);
/*
 * The metric to judge and its direction: declared (0 or 1, a plan's
 * "metrics" entry) when >= 0, else the built-in one of
 * stats_metric_direction(); sets p->metric and p->stats.lower_is_better,
 * so that a regression is a move to the metric's worse side.  0, or -1
 * with err (not a metric name, or a direction nobody knows).
 */
int	detect_params_metric(struct detect_params *p, const char *metric,
	    int declared, char *err, size_t errlen);
/*
 * A plan's stats section (as the caller has it typed: alpha, min_effect,
 * min/max samples, collapse factor, adaptive) over p's values.
 */
void	detect_params_set(struct detect_params *p, double alpha,
	    double min_effect, int min_samples, int max_samples,
	    double collapse_factor, int adaptive);

/* One comparison: series a (baseline) against series b (candidate). */
struct detect_cmp {
	size_t			 sa, sb;	/* into the result's series */
	int			 knob;		/* enum knob; -1 run over run */
	size_t			 family_size;	/* comparisons sharing alpha */
	struct stats_verdict	 v;
	size_t			 add_a, add_b;	/* adaptive: repetitions to add */
};

/* A minimal knob combination that triggers a regression. */
struct detect_trigger {
	size_t		worse;		/* the series of the bad combination */
	unsigned	mask;		/* bit k: knob k belongs to the trigger */
	char		key[STORE_KEY_MAX];	/* "mtu=9000,tso=on" */
	size_t		headline;	/* cmp along the subject knob */
	size_t		alone[KNOB_COUNT];	/* cmp or DETECT_NONE */
	int		collapse;
	size_t		contexts;	/* combinations showing it */
};

struct detect_result {
	int64_t			 run_id;
	struct detect_params	 params;
	struct store_series	*series;	/* the run's, then baseline's */
	size_t			 nseries;
	size_t			 nrun_series;	/* [0, nrun_series): the run's */
	struct detect_cmp	*cmps;		/* within the run */
	size_t			 ncmps;
	struct detect_trigger	*triggers;
	size_t			 ntriggers;
	int64_t			 baseline_run;	/* 0: none; report: -1 off */
	struct detect_cmp	*rcmps;		/* run over run: a baseline */
	size_t			 nrcmps;
};

/*
 * Within-run verdicts and isolated triggers of run_id for p->metric.
 * *res is owned by the caller: detect_result_free().
 */
int	detect_run(struct store *, int64_t run_id, const struct detect_params *,
	    struct detect_result *res, char *err, size_t errlen);
/*
 * Run over run: adds to res (filled by detect_run) the comparisons of each
 * of its series against baseline_run, or when it is 0 against the newest
 * earlier done run with the same links on the same host pairs (none found:
 * res->baseline_run stays 0 and 0 is returned).
 */
int	detect_baseline(struct store *, int64_t baseline_run,
	    struct detect_result *res, char *err, size_t errlen);
/*
 * The newest done run before run_id whose inventory joins res's links
 * between the same hosts; 0 when there is none.  p: for its
 * inventory_links (may be NULL: pairs only from facts).
 */
int	detect_find_baseline(struct store *, int64_t run_id,
	    const struct detect_params *p, int64_t *baseline, char *err,
	    size_t errlen);
void	detect_result_free(struct detect_result *);

/*
 * Adaptive sampling: the jobs to add so that every still inconclusive
 * comparison of res reaches its next look, interleaved combination by
 * combination (A B A B ...).  *specs (heap, caller frees) points into res,
 * which must outlive it.  *n is 0 when nothing needs more samples.
 */
int	detect_more_jobs(struct store *, const struct detect_result *res,
	    struct store_job_spec **specs, size_t *n, char *err,
	    size_t errlen);

/* Knob helpers for reports: "TSO", "MTU"; a knob's value in a key: "on",
 * "9000", "kernel", "as is". */
const char	*detect_knob_label(int knob);
const char	*detect_knob_value(const struct knobs *, int knob,
	    char *buf, size_t len);
/* The key of k with knob unset: the context of a comparison along it
 * ("mtu=9000"); "" when no other knob is set. */
const char	*detect_context_key(const struct knobs *, int knob,
		    char *buf, size_t len);
/* 1 when the comparison is a regression or an improvement. */
int		 detect_flagged(const struct detect_cmp *);

#endif
