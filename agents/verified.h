/*
 * verified.h: what the applies of an interface's saved life verified
 * besides its knobs, so that a transition (apply --reset-others) need not
 * run it again (PROTOCOL.md, apply).
 */
#ifndef LABRAT_AGENT_VERIFIED_H
#define LABRAT_AGENT_VERIFIED_H

#include <stddef.h>

#include "osdep.h"

/*
 * verified/IF: what the applies since the interface's original was saved
 * verified besides its knobs, so that a transition need not verify it
 * again: the NAT as the last full read found it, with the ruleset's
 * generation then (any change of the ruleset, labrat's or anyone's, moves
 * it: the read stands only while it does not), and the last path check
 * (ping) that passed: to which peer, at which MTU and NAT.  Removed with
 * the saved original.
 */
struct verified {
	int	 nat_ok;
	unsigned long long gen;
	int	 nat, chains;
	char	 nat_if[OSDEP_IFNAMSIZ];
	int	 path_ok;
	char	 peer[64];
	int	 path_mtu, path_nat;
};

/* Loads verified/IF (all zero when there is none or it is unreadable). */
void	verified_load(const char *ifname, struct verified *);
/* Writes v when it differs from old (a failed write drops the file). */
void	verified_save(const char *ifname, const struct verified *v,
	    const struct verified *old);
/* Drops verified/IF (with the saved original). */
void	verified_remove(const char *ifname);
/*
 * What is in force on ifname: NAT from v while the ruleset's generation has
 * not moved since v read it (nothing run for it; *cached = 1), else read in
 * full and v updated.  AGENT_EXIT_* with err.
 */
int	verified_read(const char *ifname, const char *nat_if, struct verified *,
	    struct osdep_knobs *, struct osdep_probe *, int *cached, char *err,
	    size_t errlen);

#endif
