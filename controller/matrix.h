/*
 * matrix: pure expansion of a plan into the ordered list of jobs a run
 * executes: links x knob combinations x workloads x repetitions.  No I/O.
 *
 * Order: repetition, then link (plan order), then workload (those that run
 * on the link: config_workload_on_link()), then knob combination.  So
 * within every repetition each link cycles through all of its
 * combinations (rep 1: A B C D, rep 2: A B C D, ...): slow drift of a
 * lab (temperature, a neighbour's traffic) hits every combination alike
 * instead of biasing whichever ran last.
 *
 * Each job carries its knob combination as a struct knobs (knobs.h: its
 * canonical key is what the store, the stats and the reports group by).
 */
#ifndef LABRAT_MATRIX_H
#define LABRAT_MATRIX_H

#include <stddef.h>

#include "config.h"

#define MATRIX_COMBOS_MAX	4096	/* knob combinations per link */
#define MATRIX_JOBS_MAX		1000000

struct matrix_job {
	size_t			 seq;		/* position in the order, 0.. */
	size_t			 link;		/* index into plan->links */
	const char		*link_name;	/* points into the plan */
	const struct config_link *ilink;	/* into the inventory or NULL */
	size_t			 combo;		/* index among the link's */
	struct knobs		 knobs;
	size_t			 workload;	/* index into plan->workloads */
	const struct config_workload *wl;	/* &plan->workloads[workload] */
	int			 rep;		/* 1-based */
};

/*
 * Expands plan (validated by config) into *jobsp, a heap array of *njobsp
 * jobs the caller frees with free().  inv may be NULL; when given, each
 * job's ilink points at its inventory link (a missing link is an error).
 * The jobs point into plan and inv, which must outlive them.  0 or -1 with
 * the reason in err (too many jobs, unknown link).
 */
int	matrix_expand(const struct config_plan *plan,
	    const struct config_inventory *inv, struct matrix_job **jobsp,
	    size_t *njobsp, char *err, size_t errlen);

/* Number of knob combinations of a knob set (1 when it sets no knob). */
size_t	matrix_ncombos(const struct config_knobset *);
/* The i-th combination, i < matrix_ncombos(); the last knob varies fastest. */
void	matrix_knobs_at(const struct config_knobset *, size_t i,
	    struct knobs *out);

/*
 * A workload's canonical key, e.g. "iperf2:len=512k,nodelay=on,parallel=1,
 * time=30,window=1024k" or "scp:size=1440k"; -1 if it does not fit.
 * What is measured only: the server's port is not part of it.
 */
int	matrix_workload_key(const struct config_workload *, char *buf,
	    size_t len);

/*
 * The "ok" line `config check` prints for a valid plan (its links,
 * workloads, repetitions and job count; ", checked against INV" when inv
 * is not NULL), or "plan ok but not expandable: why", without a newline,
 * into buf.
 */
void	matrix_plan_summary(const struct config_plan *plan,
	    const struct config_inventory *inv, char *buf, size_t len);

#endif
