/*
 * parse.h: parsers for the tool outputs labrat-agent reads (iperf2 CSV and
 * text, iperf3 JSON, JSON stream and text, FreeBSD ifconfig / pciconf -lv /
 * netstat -I, Linux ethtool -k / -i, /proc/net/dev, /proc/stat,
 * /proc/PID/stat, ps -o time).  Pure functions: no I/O, no allocation that
 * outlives a call, libc only.
 *
 * Every parser has the shape
 *	int parse_X(const char *text, size_t len, ..., struct X *out,
 *	    char *err, size_t errlen);
 * and returns 0, or -1 with a one-line reason in err ("iperf2: no final
 * report line (truncated output?)").  text need not be NUL-terminated and
 * may hold any bytes.  Inputs longer than PARSE_MAX_INPUT are rejected.
 * Numbers that do not fit the field or exceed the sanity limits below are
 * rejected, never wrapped or clamped.  On -1, *out may be partly filled (for
 * diagnostics only; do not report its numbers).
 *
 * Line-oriented outputs: a final line without '\n' is treated as cut off and
 * ignored, so a truncated capture yields either an error or the values of
 * the complete lines only.  CRLF line ends are accepted.
 *
 * Unknown values: integers are PARSE_UNKNOWN (-1), doubles are negative
 * (-1.0), tri-state flags are -1; print them as JSON null.
 *
 * The structs below are plain values (no pointers, no heap): copy freely.
 * Array entries past their count (nintervals, nstreams, ndevs, nfeatures)
 * are unspecified.
 * struct parse_iperf and struct parse_pciconf are large (~210 KB / ~105 KB):
 * allocate them with calloc or make them static, not on a small stack.
 */
#ifndef LABRAT_AGENT_PARSE_H
#define LABRAT_AGENT_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define PARSE_MAX_INPUT		(4u * 1024 * 1024)	/* bytes of text */
#define PARSE_MAX_INTERVALS	3600	/* series entries kept (then flagged) */
#define PARSE_MAX_STREAMS	128	/* -P flows tracked */
#define PARSE_MAX_PCIDEVS	256
#define PARSE_MAX_FEATURES	128
#define PARSE_MAX_BYTES		1e18	/* sanity ceiling for byte counts */
#define PARSE_MAX_BPS		1e15	/* 1 Pbit/s */
#define PARSE_MAX_SECONDS	1e7	/* ~115 days */
#define PARSE_UNKNOWN		(-1)
#define PARSE_NAMESZ		32	/* interface/driver names */

/* ---- iperf2 / iperf3 ---------------------------------------------------- */

#define PARSE_TOOL_IPERF2	2
#define PARSE_TOOL_IPERF3	3

/* The one message every iperf parser refuses UDP output with (labrat's
 * workloads are TCP; a UDP report's goodput, jitter and loss are not read). */
#define PARSE_ERR_UDP	"UDP output is not supported (labrat measures TCP only)"

struct parse_interval {
	double	start;		/* seconds */
	double	end;
	double	bytes;		/* may be fractional: text gives 2.69 GBytes */
	double	bps;		/* decimal bits per second */
	int64_t	retransmits;	/* PARSE_UNKNOWN when not reported */
	int64_t	cwnd_bytes;	/* single flow's Cwnd; PARSE_UNKNOWN */
	int	omitted;	/* iperf3 -O warm-up interval */
};

struct parse_stream {
	int	id;		/* iperf2 "[  3]", iperf3 "[  5]"; -1 unknown */
	double	start;		/* final report of this flow */
	double	end;
	double	bytes;
	double	bps;
	int64_t	retransmits;	/* PARSE_UNKNOWN when not reported */
	int64_t	cwnd_bytes;	/* last Cwnd seen, PARSE_UNKNOWN if none */
	double	rtt_us;		/* last RTT seen, -1 if none */
	int	has_final;	/* 1 once the flow's final line was seen */
};

struct parse_iperf {
	int	tool;		/* PARSE_TOOL_IPERF2 / PARSE_TOOL_IPERF3 */
	int	udp;		/* 1: UDP output seen (the parse then fails) */
	int	exact;		/* 1: bytes/bps are the tool's exact integers
				 * (CSV, JSON); 0: text, 3 significant digits */
	int	tool_error;	/* 1: the tool reported its own failure (err
				 * holds its text): a failed run, not garbage */
	int	sum_rows;	/* iperf2: [SUM] / id -1 rows seen */
	/* Totals (iperf3: receiver side = goodput). */
	double	bytes;
	double	seconds;
	double	bps;
	/* iperf3 sender side (sum_sent); -1 unknown.  iperf2: same as above. */
	double	sent_bytes;
	double	sent_bps;
	int64_t	retransmits;	/* PARSE_UNKNOWN when the tool gave none */
	int64_t	window_requested; /* bytes; PARSE_UNKNOWN if not asked */
	int64_t	window_granted;	/* bytes the socket got; PARSE_UNKNOWN */
	int	window_default;	/* iperf2 "(default)" was printed */
	int	sum_from_streams; /* 1: no final [SUM], totals = sum of flows */
	double	cpu_host;	/* iperf3 cpu_utilization_percent; -1 */
	double	cpu_remote;
	char	version[32];	/* iperf3 start.version; "" if unknown */
	char	congestion[16];	/* iperf3 sender_tcp_congestion; "" */
	int	nstreams;
	struct parse_stream streams[PARSE_MAX_STREAMS];
	size_t	nintervals;	/* [SUM] lines with -P>1, else the flow's */
	int	intervals_truncated; /* more than PARSE_MAX_INTERVALS seen */
	struct parse_interval intervals[PARSE_MAX_INTERVALS];
};

/* Reset the scalars of r and set r->tool (the parsers do this). */
void	parse_iperf_init(struct parse_iperf *, int);
/*
 * parse_iperf_check(r, expect_seconds, expect_streams, err, errlen): -1
 * unless r holds a complete result of the run asked for.  Call it after a
 * parser succeeds: a run cut short, or output cut after an early interval
 * line, parses as a shorter run.
 *  - bytes, bps and seconds are positive (0 bytes is no measurement);
 *  - seconds reach expect_seconds (the -t given; 0 skips the test) within
 *    5% + 0.5 s;
 *  - with expect_streams > 0 (the -P given), exactly that many flows
 *    reported, each with its final report, and when the tool printed [SUM]
 *    rows at all, the final [SUM] is there.
 */
int	parse_iperf_check(const struct parse_iperf *, double, int, char *,
	    size_t);
/* iperf 2.0.x / 2.1.x client text output, plain or -e (enhanced).  Its
 * figures are rounded to 3 significant digits (exact = 0). */
int	parse_iperf2(const char *, size_t, struct parse_iperf *, char *,
	    size_t);
/*
 * iperf2 -y C (CSV) client output, exact integers: 2.0.x-2.1.8 (9 fields,
 * also with -e), 2.1.9+ -e (15 fields, "+0000:" before the timestamp),
 * 2.2.x -e (a header row, 17 columns).  The timestamp is never read;
 * 4294967295 in a 32-bit counter is unknown.  seconds = bytes * 8 / bps of
 * the total row (the printed interval is rounded to 0.1 s); rows of a flow
 * or of [SUM] without their total row are an error naming what was seen.
 */
int	parse_iperf2_csv(const char *, size_t, struct parse_iperf *, char *,
	    size_t);
/* iperf3 -J output.  A top-level "error", or a run without end sums, is -1
 * (err carries iperf3's message, tool_error set for the former). */
int	parse_iperf3_json(const char *, size_t, struct parse_iperf *, char *,
	    size_t);
/* iperf3 3.17+ --json-stream: one {"event":..,"data":..} object a line
 * (start, interval, end, error).  An error event is -1 with its text
 * (tool_error set), even when an empty end follows. */
int	parse_iperf3_stream(const char *, size_t, struct parse_iperf *,
	    char *, size_t);
/* iperf3 plain text client output (sender/receiver summary lines; the
 * retransmit column is "Retr", "Retransmits" in early 3.0). */
int	parse_iperf3_text(const char *, size_t, struct parse_iperf *, char *,
	    size_t);

/* ---- FreeBSD ifconfig --------------------------------------------------- */

/* IFCAP_* bits of sys/net/if.h as printed in options= / capabilities=. */
#define PARSE_IFCAP_RXCSUM	0x00001
#define PARSE_IFCAP_TXCSUM	0x00002
#define PARSE_IFCAP_VLAN_MTU	0x00008
#define PARSE_IFCAP_JUMBO_MTU	0x00020
#define PARSE_IFCAP_VLAN_HWCSUM	0x00080
#define PARSE_IFCAP_TSO4	0x00100
#define PARSE_IFCAP_TSO6	0x00200
#define PARSE_IFCAP_LRO		0x00400
#define PARSE_IFCAP_VLAN_HWTSO	0x40000
#define PARSE_IFCAP_LINKSTATE	0x80000

#define PARSE_DUPLEX_UNKNOWN	(-1)
#define PARSE_DUPLEX_HALF	0
#define PARSE_DUPLEX_FULL	1

struct parse_ifconfig {
	char	name[PARSE_NAMESZ];
	uint32_t flags;		/* flags=%x */
	int	up;		/* IFF_UP (0x1) */
	int	mtu;		/* PARSE_UNKNOWN if absent */
	uint32_t options;	/* options=%x, 0 when the line is absent */
	int	has_capabilities; /* ifconfig -m printed capabilities= */
	uint32_t capabilities;
	/* From the options hex (trusted over the names): 0/1. */
	int	tso4, tso6, lro, rxcsum, txcsum;
	int	tso;		/* tso4 || tso6 */
	char	media[64];	/* "Ethernet autoselect (1000baseTX <full-duplex>)" */
	int	speed_mbps;	/* from the active media word; PARSE_UNKNOWN */
	int	duplex;		/* PARSE_DUPLEX_* */
	int	active;		/* status: active 1, no carrier 0, absent -1 */
	char	ether[18];	/* "" if absent */
};

/*
 * Parse the block of interface ifname (NULL: the first block).  Only a
 * "NAME: flags=" line starts a block: a header wrapped onto the next line
 * continues the header, a body line that lost its tab stays in the block.
 * "mtu" without a number is an error.
 */
int	parse_ifconfig(const char *, size_t, const char *,
	    struct parse_ifconfig *, char *, size_t);

/* ---- FreeBSD pciconf -lv ------------------------------------------------ */

struct parse_pcidev {
	char	name[PARSE_NAMESZ];	/* "em0", "none3" */
	char	driver[PARSE_NAMESZ];	/* "em" ("" for none) */
	int	unit;
	char	selector[32];		/* "pci0:4:0:0" */
	uint32_t class_code;		/* 0x020000 */
	uint32_t card;			/* subdevice<<16 | subvendor */
	uint32_t chip;			/* device<<16 | vendor */
	uint16_t vendor_id, device_id, subvendor_id, subdevice_id;
	int	rev;			/* PARSE_UNKNOWN if absent */
	char	vendor[96];		/* -v strings, "" if absent */
	char	device[128];
	char	class_name[32];
	char	subclass[32];
};

struct parse_pciconf {
	size_t	ndevs;
	struct parse_pcidev devs[PARSE_MAX_PCIDEVS];
};

int	parse_pciconf(const char *, size_t, struct parse_pciconf *, char *,
	    size_t);
/* The entry named name ("em0"), or NULL. */
const struct parse_pcidev *parse_pciconf_find(const struct parse_pciconf *,
	    const char *);

/* ---- Linux ethtool ------------------------------------------------------ */

struct parse_feature {
	char	name[64];	/* "tcp-segmentation-offload" */
	int	on;		/* 0/1 */
	int	fixed;		/* "[fixed]" */
	int	requested;	/* "[requested on|off]": 1/0, else -1 */
};

struct parse_ethtool_k {
	char	ifname[PARSE_NAMESZ];	/* "Features for" / "Offload
					 * parameters for" IF; "" if absent */
	size_t	nfeatures;
	struct parse_feature features[PARSE_MAX_FEATURES];
	/* Shortcuts; -1 when the line is missing. */
	int	tso, lro, gso, gro, rxcsum, txcsum, sg;
	/* TSO for IPv4 (tx-tcp-segmentation): what an IPv4 test depends on;
	 * the parent line when the sub-features are not listed (old ethtool). */
	int	tso4;
	/* 1: tcp-segmentation-offload on while a listed tx-tcp*-segmentation
	 * sub-feature is off (e.g. only tx-tcp6-segmentation on). */
	int	tso_partial;
};

struct parse_ethtool_i {
	char	driver[PARSE_NAMESZ];
	char	version[64];
	char	firmware[64];
	char	bus_info[64];	/* "0000:02:00.0" */
};

/* Old names with blanks ("tcp segmentation offload") become the dashed
 * ones; the output of a second interface is an error. */
int	parse_ethtool_k(const char *, size_t, struct parse_ethtool_k *,
	    char *, size_t);
/* 1/0 for feature name, -1 if not listed. */
int	parse_ethtool_feature(const struct parse_ethtool_k *, const char *);
/* A key given twice (two outputs concatenated) is an error. */
int	parse_ethtool_i(const char *, size_t, struct parse_ethtool_i *,
	    char *, size_t);

/* ---- interface counters ------------------------------------------------- */

struct parse_ifstats {
	int64_t	rx_bytes, rx_packets, rx_errors, rx_dropped;
	int64_t	tx_bytes, tx_packets, tx_errors, tx_dropped;	/* -1 unknown */
};

/* Linux /proc/net/dev, the row of ifname. */
int	parse_proc_net_dev(const char *, size_t, const char *,
	    struct parse_ifstats *, char *, size_t);
/* FreeBSD `netstat -I IF -bdnW` (columns found by header, <Link#N> row). */
int	parse_netstat_if(const char *, size_t, const char *,
	    struct parse_ifstats *, char *, size_t);

/* ---- CPU ---------------------------------------------------------------- */

struct parse_cpu {
	/* Aggregate "cpu" line of /proc/stat, in USER_HZ ticks. */
	uint64_t user, nice, sys, idle, iowait, irq, softirq, steal;
};

int	parse_proc_stat(const char *, size_t, struct parse_cpu *, char *,
	    size_t);

struct parse_pidstat {
	char	comm[32];
	uint64_t utime, stime;	/* ticks (sysconf(_SC_CLK_TCK)) */
};

/* Linux /proc/PID/stat (comm may hold spaces and ')'). */
int	parse_proc_pid_stat(const char *, size_t, struct parse_pidstat *,
	    char *, size_t);
/* `ps -o time` output (optional "TIME" header line, then one value):
 * FreeBSD "M:SS.cc", Linux "[[DD-]HH:]MM:SS" -> seconds. */
int	parse_ps_time(const char *, size_t, double *, char *, size_t);

/* ---- sftp --------------------------------------------------------------- */

/* The size column of `ls -ln` (sftp) for the regular file named path
 * (listed by its full name or its last component). */
int	parse_sftp_ls_size(const char *, size_t, const char *, uint64_t *,
	    char *, size_t);

/* ---- ping (preflight path check) ---------------------------------------- */

/*
 * A don't-fragment ping's output, Linux iputils or FreeBSD ping/ping6
 * (stdout with stderr appended).  -1 when there is no statistics line
 * (err then carries the first diagnostic seen, e.g. "ping: connect:
 * Network is unreachable") or it is malformed.  Success of the parse says
 * nothing about the path: judge received/replies/reply_bytes.
 */
struct parse_ping {
	int	size;		/* payload bytes of the header line; -1 */
	int	transmitted;	/* statistics line */
	int	received;
	int	errors;		/* Linux "+N errors", else 0 */
	int	has_stats;
	int	replies;	/* echo reply lines */
	int	reply_bytes;	/* largest "N bytes from" of a reply; 0 none */
	int	frag_needed;	/* a router said "frag needed and DF set" */
	int	frag_mtu;	/* its MTU, -1 if not given */
	int	local_too_long;	/* the sender refused: "message too long" */
	int	local_mtu;	/* Linux's "mtu=N" of that, -1 */
	double	rtt_min_ms, rtt_avg_ms, rtt_max_ms;	/* -1 if absent */
	char	message[128];	/* first diagnostic line, "" if none */
};

int	parse_ping(const char *, size_t, struct parse_ping *, char *, size_t);

#endif
