/*
 * knobs_emit.h: the knobs of struct osdep_knobs by name, as apply and
 * restore report them.
 */
#ifndef LABRAT_AGENT_KNOBS_EMIT_H
#define LABRAT_AGENT_KNOBS_EMIT_H

struct emit;
struct osdep_knobs;

/* Emits the knobs of k that are set (all: also unknown ones as null) as
 * the object key. */
void	knobs_emit(struct emit *, const char *key, const struct osdep_knobs *k,
	    int all);
/* Emits the names of knobs set in want whose value in have differs as the
 * array key; how many. */
int	knobs_emit_diff(struct emit *, const char *key,
	    const struct osdep_knobs *want, const struct osdep_knobs *have);
/* How many knobs set in want have another value in have. */
int	knobs_differ(const struct osdep_knobs *want,
	    const struct osdep_knobs *have);

#endif
