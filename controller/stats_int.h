/*
 * stats_int.h: what stats.c shares with stats_verdict.c; not part of the
 * module's interface.
 */
#ifndef LABRAT_STATS_INT_H
#define LABRAT_STATS_INT_H

#include <stddef.h>
#include <stdint.h>

/* The p-quantile of s (sorted ascending, n > 0), interpolated. */
double	 stats_i_sorted_quantile(const double *s, size_t n, double p);
/* 0 when every x is finite and >= 0, else -1 with err naming sample name. */
int	 stats_i_check_nonneg(const double *x, size_t n, const char *name,
	    char *err, size_t errlen);
/* num / den, with the conventions of stats.h for zero medians. */
double	 stats_i_ratio_of(double num, double den);
/* resamples bootstrap ratios of medians (b over a), sorted; heap, free().
 * NULL when out of memory. */
double	*stats_i_boot_ratios(const double *a, size_t na, const double *b,
	    size_t nb, unsigned resamples, uint64_t seed);

#endif
