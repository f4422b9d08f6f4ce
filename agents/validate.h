/*
 * validate.h: strict patterns for every argument the controller passes to
 * labrat-agent, and the option parser that applies them.  Nothing reaches a
 * child's argv before it has matched one of these.
 */
#ifndef LABRAT_AGENT_VALIDATE_H
#define LABRAT_AGENT_VALIDATE_H

#include <stddef.h>

enum validate_kind {
	VALIDATE_FLAG,		/* no value */
	VALIDATE_IFNAME,	/* em0, bce1, vlan0.5 (1-15 chars) */
	VALIDATE_IPV4,		/* dotted quad, no leading zeros */
	VALIDATE_IPV6,		/* inet_pton, no zone */
	VALIDATE_ADDR,		/* IPv4 or IPv6 */
	VALIDATE_SIZE,		/* 512k, 1M, 1474560: bytes, K=1024 */
	VALIDATE_SECONDS,	/* 1..86400, optional "s" */
	VALIDATE_ONOFF,
	VALIDATE_TOOL,		/* iperf2 | iperf3 */
	VALIDATE_NAT,		/* off | divert | kernel */
	VALIDATE_TAG,		/* [A-Za-z0-9_-]{1,32} */
	VALIDATE_PUBKEY,	/* "TYPE BASE64 [comment]" */
	VALIDATE_USERADDR,	/* user@IPv4 | user@IPv6 */
	VALIDATE_MTU,		/* 68..65535 */
	VALIDATE_PORT,		/* 1..65535 */
	VALIDATE_PARALLEL,	/* 1..128 */
	VALIDATE_PATH,		/* absolute, [A-Za-z0-9_./+-], no ".." */
	VALIDATE_PROC,		/* process name [A-Za-z0-9_.-]{1,19} */
	VALIDATE_FORMAT,	/* csv | text | json | json-stream */
	VALIDATE_TOKEN,		/* [A-Za-z0-9_.:@-]{1,64}, no leading '-' */
	VALIDATE_PID,		/* 1..999999999 */
	VALIDATE_SPEED,		/* link speed in Mb/s, 1..10000000 */
	VALIDATE_MS		/* milliseconds, 0..600000 */
};

/* 0, or -1 with "ARG: "VALUE" is not ... (why)" in err. */
int	validate_value(enum validate_kind, const char *arg, const char *val,
	    char *err, size_t errlen);

/* Value of a validated VALIDATE_SIZE ("512k" -> 524288). */
unsigned long long validate_size_bytes(const char *);
/* Value of a validated numeric kind (SECONDS, MTU, PORT, PARALLEL, PID,
 * SPEED). */
long	validate_number(const char *);

#define VALIDATE_MAXMULTI	8

/* One option of a subcommand's table, terminated by name == NULL. */
struct validate_opt {
	const char	*name;		/* "--if" */
	enum validate_kind kind;
	int		 multi;		/* may repeat (up to VALIDATE_MAXMULTI) */
	/* Filled by validate_args: */
	int		 seen;
	const char	*val;		/* last value; "" for a flag */
	const char	*vals[VALIDATE_MAXMULTI];
};

/*
 * Parses argv[1..argc-1] (argv[0] is the subcommand) against opts: every
 * word must be a known option, values are validated, repeats refused unless
 * multi.  0, or -1 with the reason in err.
 */
int	validate_args(struct validate_opt *, int, char **, char *, size_t);
/* The entry of opts named name (must exist). */
struct validate_opt *validate_opt(struct validate_opt *, const char *);

#endif
