/*
 * health_int.h: what the health module's files share (health.c: states,
 * maintenance, the check's bookkeeping; health_check.c: the measurement
 * through the executor; health_judge.c: pure judging of facts and
 * figures; health_show.c: `labrat hosts health` output).  Nothing
 * outside the module includes it.
 */
#ifndef LABRAT_HEALTH_INT_H
#define LABRAT_HEALTH_INT_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "health.h"

#define HEALTH_FACTS_MAX	1024	/* both ends' facts lines */
#define HEALTH_RUN_WHY_MAX	512

/* What one measurement of a link saw (health_probe()). */
struct health_probe {
	int64_t	 run_id;	/* the run of kind "health", 0 = none */
	int	 ok;		/* every job done */
	char	 why[HEALTH_RUN_WHY_MAX];	/* the first failure */
	double	 figure;	/* bit/s of the default-knob iperf, 0 = none */
	char	 facts[HEALTH_FACTS_MAX];	/* health_facts_line()s, client first */
	char	 warnings[512];	/* declared vs reported driver/chip */
};

/*
 * One health run on link l: its hosts connected (strict host keys), the
 * agent's facts of both ends recorded, then an iperf3 job at the default
 * knobs and, with opts->jumbo, one at the jumbo MTU, each after the
 * executor's preflight (link, speed, DF path ping).  0 when it measured
 * (p->ok says whether everything passed, p->why what failed), -1 when it
 * could not check (store, *stop, a host another controller leases).
 */
int	health_probe(const struct config_inventory *, const struct config_link *,
	    const struct health_opts *, struct health_probe *p, char *err,
	    size_t errlen);

/* ---- health_judge.c: pure --------------------------------------------- */

/* "HOST IF os=OS driver=D chip=C" ("-" for an empty value; spaces in a
 * value become '_') appended to buf as one line. */
void	health_facts_line(char *buf, size_t len, const char *host,
	    const char *ifname, const char *os, const char *driver,
	    const char *chip);
/*
 * now's lines against the last pass's (before, NULL or "": nothing to
 * compare): os, driver and chip of every HOST IF both have.  1 the same,
 * 0 with why ("em-a em0: driver em at the last passing check, now igb").
 */
int	health_facts_same(const char *before, const char *now, char *why,
	    size_t len);
/*
 * figure against the last good one: 1 when last_good is 0 (none yet) or
 * figure >= (1 - tolerance) * last_good, else 0 with why.
 */
int	health_figure_ok(double figure, double last_good, double tolerance,
	    char *why, size_t len);
/* ms since the epoch as "2026-12-01 14:30:05" (UTC), or ISO 8601
 * "2026-12-01T14:30:05Z" with iso; "-" for 0. */
void	health_time(int64_t ms, int iso, char *buf, size_t len);
/* Appends "; "-separated text to buf (cut to fit). */
void	health_text_add(char *buf, size_t len, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

#endif
