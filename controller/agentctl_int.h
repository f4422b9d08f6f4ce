/*
 * agentctl_int: private to the agent module (agentctl*.c): the patterns
 * of host-reported strings (agentctl_valid.c), each 1 when s matches.
 */
#ifndef LABRAT_AGENTCTL_INT_H
#define LABRAT_AGENTCTL_INT_H

int	agentctl_rev_ok(const char *);		/* ^[A-Za-z0-9._-]{1,64}$ */
int	agentctl_version_ok(const char *);	/* [A-Za-z0-9._+~-]{1,127} */
int	agentctl_driver_ok(const char *);	/* [A-Za-z0-9_.-]{1,31} */
int	agentctl_ifname_ok(const char *);	/* [A-Za-z0-9_.:-]{1,31} */
int	agentctl_hexid_ok(const char *);	/* 0x + 1-12 hex digits */
int	agentctl_hash_ok(const char *);		/* 1-31 lower hex digits */
int	agentctl_os_ok(const char *);		/* freebsd | linux */
int	agentctl_printable_ok(const char *);	/* ASCII 0x20-0x7e */

#endif
