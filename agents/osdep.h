/*
 * osdep.h: the platform dialects (FreeBSD, Linux) behind one small
 * interface.  A dialect reads the knobs in force, turns a request into a
 * plan -- the exact argv of every command it would run, in order -- and
 * gathers facts and counters.  Plans are pure data, so the FreeBSD dialect
 * is tested on Linux against golden command lists, and every command goes
 * through one runner that tests can replace.
 */
#ifndef LABRAT_AGENT_OSDEP_H
#define LABRAT_AGENT_OSDEP_H

#include <stddef.h>

#include "exec.h"
#include "parse.h"

#define OSDEP_UNSET	(-1)	/* knob not requested / not known */
#define OSDEP_IFNAMSIZ	16
#define OSDEP_FEATHEX	72	/* ifstate's bitmap: 8 words, hex */

enum osdep_nat {
	OSDEP_NAT_OFF = 0,
	OSDEP_NAT_DIVERT,	/* FreeBSD ipfw divert + natd */
	OSDEP_NAT_KERNEL	/* FreeBSD ipfw nat, Linux nftables */
};

/* Knob values: 0/1 for switches, bytes for mtu, OSDEP_UNSET otherwise. */
struct osdep_knobs {
	int	tso;
	int	tcp_tso;	/* FreeBSD sysctl net.inet.tcp.tso */
	int	mtu;
	int	lro;
	int	rxcsum;
	int	txcsum;
	int	nat;		/* enum osdep_nat or OSDEP_UNSET */
	char	nat_if[OSDEP_IFNAMSIZ];	/* "" = the knob interface */
};

/* What a dialect found besides the knobs, to plan safely. */
struct osdep_probe {
	int	ipfw_loaded;	/* kldstat -q -m ipfw */
	int	ipdivert_loaded;
	int	ipfw_nat_loaded;
	int	rule_foreign;	/* ipfw rule 50 exists and is not ours */
	int	nft_chains;	/* chains in table ip labrat, -1: no table */
};

/* Kernel modules a plan loads (restore unloads them). */
#define OSDEP_LOADED_IPFW	0x1
#define OSDEP_LOADED_IPDIVERT	0x2
#define OSDEP_LOADED_IPFW_NAT	0x4

#define PLAN_MAXCMDS	24
#define PLAN_MAXARGS	16
#define PLAN_ARGLEN	96
#define PLAN_SOFT	0x1	/* failure: read back decides (mismatch) */
#define PLAN_IGNORE	0x2	/* failure is harmless (cleanup) */

struct plan_cmd {
	int	 argc;
	char	 args[PLAN_MAXARGS][PLAN_ARGLEN];
	int	 flags;
	const char *knob;	/* "tso", "nat", ... for messages */
};

struct plan {
	int	 n;
	int	 overflow;	/* too many commands/args: do not run */
	unsigned loaded;	/* OSDEP_LOADED_* this plan loads */
	struct plan_cmd cmd[PLAN_MAXCMDS];
};

void	plan_init(struct plan *);
/* Appends one command; the NULL-terminated words are copied. */
void	plan_add(struct plan *, int flags, const char *knob, ...);
/* One command per line, words joined by one space (for goldens/logs). */
void	plan_format(const struct plan *, char *, size_t);
/*
 * Runs the plan in order through the runner.  A PLAN_SOFT failure is
 * reported as a progress event; any other failure stops the plan and returns
 * its AGENT_EXIT_* class with err.
 */
int	plan_run(const struct plan *, char *, size_t);

/* Every command of the dialects goes through this (tests replace it). */
typedef int (*osdep_runner_fn)(void *, char *const[], int,
	    struct exec_result *, char *, size_t);
void	osdep_set_runner(osdep_runner_fn, void *);
/* 1 while a runner replaces the commands: reads without a process
 * (ifstate) would not see its world, so they are not used then. */
int	osdep_runner_set(void);
/* Runs argv through the runner; 0 when it ran (see exec_run). */
int	osdep_run(char *const[], int, struct exec_result *, char *, size_t);

struct osdep_kernel {
	char	 os[16];		/* "freebsd" | "linux" */
	char	 release[96];
	char	 version[512];
	char	 revision[48];		/* "" unknown */
	long	 osreldate;		/* -1 unknown */
};

struct osdep_nic {
	char	name[OSDEP_IFNAMSIZ];
	char	driver[PARSE_NAMESZ];		/* "" unknown */
	int	pci_vendor, pci_device;		/* -1 unknown */
	int	speed_mbps;			/* -1 unknown */
	int	duplex;				/* PARSE_DUPLEX_* */
	int	mtu, tso, lro, rxcsum, txcsum;	/* -1 unknown */
	/* tso is TSO for IPv4, what the lab's tests use; tso_partial: the
	 * driver's TSO is on for another family only (-1 unknown). */
	int	tso_partial;
};

/* The link as the preflight checks it (cheap: no ethtool, no pciconf). */
struct osdep_link {
	int	admin_up;	/* IFF_UP: 1/0, -1 unknown */
	int	carrier;	/* 1/0, -1 unknown */
	char	state[24];	/* Linux operstate, FreeBSD "status:"; "" */
	int	speed_mbps;	/* -1 unknown (a link that is down) */
	int	duplex;		/* PARSE_DUPLEX_* */
	int	mtu;		/* -1 unknown */
};

struct osdep_cpu {
	double	user, sys, idle;	/* ticks (any unit: ratios matter) */
};

struct osdep_dialect {
	const char *name;
	/* Knobs in force on ifname (NAT looked up on nat_if). */
	int	(*read)(const char *ifname, const char *nat_if,
		    struct osdep_knobs *, struct osdep_probe *, char *, size_t);
	/* Plan from cur to req (UNSET in req: leave alone).  AGENT_EXIT_*. */
	int	(*plan)(const char *ifname, const struct osdep_knobs *cur,
		    const struct osdep_knobs *req, const struct osdep_probe *,
		    const char *statedir, struct plan *, char *, size_t);
	/* Unload what apply plans loaded (restore). */
	void	(*plan_unload)(unsigned loaded, struct plan *);
	int	(*kernel)(struct osdep_kernel *, char *, size_t);
	/* Interface names (no loopback); returns how many, or -1. */
	int	(*list_ifs)(char (*)[OSDEP_IFNAMSIZ], int, char *, size_t);
	int	(*nic)(const char *, struct osdep_nic *, char *, size_t);
	int	(*ifstats)(const char *, struct parse_ifstats *, char *,
		    size_t);
	int	(*cpu)(struct osdep_cpu *, char *, size_t);
	/* CPU seconds of all processes named name; -1.0 if none. */
	double	(*proc_cpu)(const char *name);
	/* Interface the route to addr leaves by. */
	int	(*route_if)(const char *addr, char *, size_t, char *, size_t);
	/* Link state of ifname.  AGENT_EXIT_*. */
	int	(*link)(const char *, struct osdep_link *, char *, size_t);
	/* Appends the don't-fragment ping of size payload bytes to addr
	 * (v6: an IPv6 literal) that exits at its first reply, or after
	 * about a second without one. */
	void	(*ping)(const char *addr, int v6, int size, struct plan *);
	/* As read, but NAT left unknown and not looked up (NULL: none). */
	int	(*read_if)(const char *ifname, struct osdep_knobs *,
		    struct osdep_probe *, char *, size_t);
	/* The generation of the NAT ruleset (any change of it moves the
	 * number), read without a process; 0 or -1 (NULL: none). */
	int	(*nat_gen)(unsigned long long *);
	/* The MTU (sysfs) and the offload features in force as a raw bitmap
	 * (hex of the active words, SIOCETHTOOL ETHTOOL_GFEATURES), read
	 * without a process: equal bitmaps, equal offloads.  0 or -1 (NULL:
	 * none). */
	int	(*ifstate)(const char *ifname, int *mtu, char *feat,
		    size_t featlen);
	/* Carries out a plan's command without a process when it can: 0
	 * with r filled as if it had run, -1 to run it (NULL: none). */
	int	(*builtin)(char *const argv[], struct exec_result *r);
};

/*
 * Linux's SIOCETHTOOL in place of the ethtool program
 * (osdep_linux_ethtool.c): ethtool -k's offloads, ethtool -i's driver, and
 * an `ethtool -K IF tso|tx|rx|lro|gso|gro|sg on|off` step (r as if it had
 * run).  -1 when not to be had (not Linux, no such ioctl, a test's runner
 * in place): ethtool runs then.
 */
int	osdep_linux_ethtool_k(const char *, struct parse_ethtool_k *);
/* SIOCETHTOOL with data (a struct ethtool_*) on ifname: the ioctl's
 * result, -1 with errno. */
int	osdep_linux_ethtool_ioctl(const char *ifname, void *data);
int	osdep_linux_ethtool_i(const char *, struct parse_ethtool_i *);
int	osdep_linux_ethtool_set(char *const argv[], struct exec_result *r);

extern const struct osdep_dialect osdep_freebsd;
extern const struct osdep_dialect osdep_linux;
/* The dialect of the running system. */
const struct osdep_dialect *osdep_host(void);

/* Knob helpers. */
void	osdep_knobs_unset(struct osdep_knobs *);
/*
 * The state apply --reset-others heads for: the knobs req sets, and every
 * other knob as in saved (the interface's saved original; NULL when none is
 * saved: req alone).  Pure.
 */
void	osdep_knobs_target(const struct osdep_knobs *req,
	    const struct osdep_knobs *saved, struct osdep_knobs *out);
const char *osdep_nat_name(int);	/* "off" ... or NULL for UNSET */
int	osdep_nat_parse(const char *);	/* OSDEP_NAT_* or OSDEP_UNSET */

/*
 * The revision in a kernel version string: the first `r` + digits token,
 * the hex after `-g` or `rev `, or the hash of a FreeBSD `-nNNNNNN-HASH`
 * build.  "" when there is none.
 */
void	osdep_kernel_revision(const char *, char *, size_t);

/*
 * Pure classifiers of read-back output (exposed for tests): `ipfw list 50`
 * -> labrat's NAT on nat_if (and *foreign if rule 50 is someone else's);
 * `nft list table ip labrat` -> NAT on nat_if and the number of chains.
 */
void	osdep_freebsd_rule(const char *, const char *, int *nat,
	    int *foreign);
void	osdep_linux_nft(const char *, const char *, int *nat, int *chains);

/* Reads a small text file into buf (NUL-terminated, trailing \n cut). */
int	osdep_read_small(const char *, char *, size_t);

#endif
