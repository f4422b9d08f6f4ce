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
 * the saved original.  And the interface's MTU and offloads as the last
 * read found them, with the raw features bitmap (osdep ifstate) taken just
 * before it: while the bitmap is the same the parsed offloads stand (no
 * ethtool -k), and `serve --if` checks the whole state against it; and
 * those of the bitmap before it, which stand as well when it comes back.
 */
struct verified {
	int	 if_ok;
	int	 mtu, tso, lro, rxcsum, txcsum;
	char	 feat[OSDEP_FEATHEX];
	/* The offloads of the bitmap before (alt_ok): a link's jobs that
	 * flip a knob back and forth (A-B-A-B) go between two bitmaps, and
	 * each is read once, not after every flip. */
	int	 alt_ok;
	int	 alt_tso, alt_lro, alt_rxcsum, alt_txcsum;
	char	 alt_feat[OSDEP_FEATHEX];
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
#define VERIFIED_NAT	0x1	/* NAT taken from v: no nft */
#define VERIFIED_IF	0x2	/* offloads taken from v: no ethtool -k */
/*
 * What is in force on ifname: NAT from v while the ruleset's generation has
 * not moved since v read it, the offloads from v while the features bitmap
 * has not (nothing run for either; *cached gets VERIFIED_*), else read in
 * full and v updated.  AGENT_EXIT_* with err.
 */
int	verified_read(const char *ifname, const char *nat_if, struct verified *,
	    struct osdep_knobs *, struct osdep_probe *, int *cached, char *err,
	    size_t errlen);
/*
 * Whether ifname is still as the last apply of its saved life verified it
 * (MTU, features bitmap, ruleset generation; no process): "stands",
 * "moved" or "unknown" (no saved life, no bitmap or generation to compare:
 * FreeBSD).  What moved goes to progress.
 */
const char *verified_check(const char *ifname);

#endif
