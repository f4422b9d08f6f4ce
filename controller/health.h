/*
 * health: the health state of every link (host pair), LAVA's device
 * states, and the check that moves a link between them.
 *
 *   unknown      never checked, or out of maintenance: jobs may run, and
 *                the next check decides
 *   good         the last check passed
 *   bad          the last check failed: no jobs until a check passes
 *   maintenance  an operator took it out (`labrat hosts maintenance`):
 *                no jobs, and no check touches it; off -> unknown
 *   retired      gone for good: no jobs, never checked
 *
 * Every change of state is stored with who, when and why (store.h "link
 * health"); a link without a row is unknown.
 *
 * The check (health_check.c, health_judge.c) measures in a run of kind
 * "health" through the executor, as any run does (one executor, the
 * link's two hosts leased for it):
 *   - SSH with strict host keys and the agent deployed (host module); the
 *     agent's facts of each end's test NIC: OS, driver and chip must be
 *     what the pair's last passing check saw (a changed driver or chip is
 *     bad); where they differ from what the inventory declares it is a
 *     warning only (the lab's word against the host's);
 *   - before the iperf, the executor's preflight on both ends: link up
 *     with carrier at least at the inventory's declared speed
 *     (nics[].speed_mbps), not half-duplex, a don't-fragment ping through
 *     the path at the interface's MTU;
 *   - with opts->jumbo a second job at MTU 9000 (or opts->jumbo itself
 *     when > 1500): the same preflight at that MTU, i.e. a DF ping that
 *     fills it (Linux ping -M do -s SIZE, FreeBSD ping -D -s SIZE);
 *   - a short iperf3 (opts->iperf_s) at the host's default knobs, whose
 *     throughput must be at least (1 - tolerance) of the pair's last good
 *     figure (the figure of its last passing check; the first pass sets
 *     it).
 * Any failure sets bad, with a why naming the host and what failed; a
 * pass sets good and becomes the pair's new last good figure and facts.
 *
 * The check knows nothing of kernel revisions: it compares with the
 * pair's last pass whatever ran then.  That is why the nightly loop runs
 * it BEFORE installing tonight's kernel (on last night's revision), and
 * never after: after an install a slow figure is a result for that
 * revision, never a health failure -- otherwise the check would hide the
 * very regressions the lab exists to find.
 */
#ifndef LABRAT_HEALTH_H
#define LABRAT_HEALTH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"

enum health_state {
	HEALTH_UNKNOWN,
	HEALTH_GOOD,
	HEALTH_BAD,
	HEALTH_MAINTENANCE,
	HEALTH_RETIRED,
};
/* "unknown", "good", "bad", "maintenance", "retired". */
const char *health_state_name(enum health_state);
/* The state called name: 0, or -1 when there is none. */
int	health_state_parse(const char *name, enum health_state *);

#define HEALTH_IPERF_S		2	/* health_opts.iperf_s 0 */
#define HEALTH_TOLERANCE	0.2	/* health_opts.tolerance 0 */
#define HEALTH_JUMBO_MTU	9000	/* health_opts.jumbo 1 */

struct health_opts {
	const char	*db_path;
	const char	*owner;		/* who, in the transitions (NULL: health_who()) */
	int		 iperf_s;	/* 0 = HEALTH_IPERF_S */
	double		 tolerance;	/* 0 = HEALTH_TOLERANCE: 0.2 fails a
					 * figure > 20 % below the last good */
	int		 jumbo;		/* the plan uses MTU > 1500: path check
					 * with DF; 1 = 9000, > 1500 that MTU */
	volatile sig_atomic_t *stop;	/* may be NULL */
};

struct health_result {
	enum health_state before, after;
	char	 why[512];	/* why after (a check's failure, "passed", the
				 * reason it was not checked) */
	char	 warnings[512];	/* "" = none; "; "-separated */
	double	 figure;	/* bit/s of this check's iperf, 0 = none */
	double	 last_good;	/* bit/s the figure was held against, 0 = none */
	int	 checked;	/* 0: maintenance / retired, left untouched */
	int64_t	 run_id;	/* the health run, 0 = none */
};

/*
 * Runs the check on one link of inv, stores the transition (who =
 * opts->owner).  A maintenance/retired link is not touched (result says
 * so: checked 0, why).  0 (result filled, check passed or failed), -1
 * could not check (err): no such link, the store, *stop, or a host leased
 * by another controller (that is not the pair's fault).
 */
int	health_check(const struct config_inventory *, const char *link,
	    const struct health_opts *, struct health_result *, char *err,
	    size_t errlen);

/* The stored state of link (HEALTH_UNKNOWN if never checked).  0 or -1. */
int	health_get(const char *db_path, const char *link,
	    enum health_state *st, char *err, size_t errlen);

/* 1 if jobs may run on link now (good or unknown), 0 if not. */
int	health_usable(enum health_state);

/* "user@host pid N": who a CLI command is, for the transitions. */
void	health_who(char *buf, size_t len);

/*
 * `labrat hosts maintenance LINK on|off`: on puts any link but a retired
 * one in maintenance; off takes a link out of maintenance to unknown (a
 * check must pass before jobs), and fails for a link not in maintenance.
 * why is required.  res: before, after, why.  0 or -1 with err.
 */
int	health_maintenance(const char *db_path, const char *link, int on,
	    const char *why, const char *who, struct health_result *res,
	    char *err, size_t errlen);

/*
 * `labrat hosts health`: every stored link (state, since, why, last
 * check, last good figure, warnings) and the newest ntrans transitions,
 * as text or as JSON (health_show.c documents the fields).  0 or -1.
 */
int	health_show(const char *db_path, size_t ntrans, int json, FILE *fp,
	    char *err, size_t errlen);

/*
 * `labrat hosts check`: health_check() of every link of inv (or only
 * link), one after the other, until *o->stop; each outcome printed to fp
 * as "LINK: BEFORE -> AFTER: WHY" and a line of its warnings, a link that
 * could not be checked logged (log_warnx).  1 when a link checked is not
 * good, could not be checked, or *o->stop cut the checks short; else 0.
 */
int	health_check_each(const struct config_inventory *inv,
	    const char *link, const struct health_opts *o, FILE *fp);

/*
 * `labrat hosts maintenance LINK on|off --why TEXT` from its words: link
 * must be a link name, onoff "on" or "off", why given; then
 * health_maintenance() (who: health_who()).  0 with res; -1 with err, and
 * *bad 1 when a word is wrong (the caller's usage error), 0 when the
 * change itself failed.
 */
int	health_maintenance_words(const char *db_path, const char *link,
	    const char *onoff, const char *why, struct health_result *res,
	    int *bad, char *err, size_t errlen);

/*
 * The daemon's health item payload, written and read here only:
 * {"link": LINK, "inventory": PATH}.  health_payload() returns it (heap,
 * the caller frees it) or NULL with err; health_payload_decode() fills p
 * (strings heap, NULL when absent; health_payload_free()), 0 or -1 with
 * err (not a JSON object).
 */
struct health_payload {
	char	*link, *inventory;
};
char	*health_payload(const char *inventory, const char *link, char *err,
	    size_t errlen);
int	health_payload_decode(const char *text, struct health_payload *,
	    char *err, size_t errlen);
void	health_payload_free(struct health_payload *);

#endif
