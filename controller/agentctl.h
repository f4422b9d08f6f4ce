/*
 * agentctl: labrat-agent on a lab host, seen from the controller.
 *
 * Deploys the agent (its sources are compiled into labrat; they are uploaded
 * over SFTP and built with the host's `cc`, cached on the host per source
 * hash in STATE/agent/HASH/labrat-agent, where STATE is LABRAT_AGENT_STATE
 * as the host's sshd environment sets it, else /var/db/labrat on FreeBSD and
 * /var/lib/labrat on Linux), calls its subcommands over one ssh_conn with a
 * deadline, and decodes their JSON lines (PROTOCOL.md) into the typed
 * structs below.  json-c stays inside agentctl_decode.c.
 *
 * Decoding is strict: a line that is not one JSON object, a "proto" other
 * than 1, an unknown event, a missing or mistyped field, a second result,
 * an `error` event or output past its ceiling is an error naming the host
 * and the command.  A string the host reports is refused unless it fits
 * its pattern (revision, versions, driver, interface, ids, os: see
 * agentctl_*_ok below); free text (kernel version, hostname, messages)
 * is neutralised with util_term_safe(); only reply.raw keeps the bytes.
 *
 * A call that finds the agent gone (exit 126/127) or another version in
 * its place redeploys what agentctl_deploy() last installed, once, and
 * runs again.
 */
#ifndef LABRAT_AGENTCTL_H
#define LABRAT_AGENTCTL_H

#include <stddef.h>
#include <stdint.h>

#include "embed.h"
#include "ssh.h"

#define AGENTCTL_PROTO		1
#define AGENTCTL_OUT_MAX	(8u * 1024 * 1024)	/* stdout ceiling */
#define AGENTCTL_ERR_MAX	(64u * 1024)		/* stderr ceiling */
#define AGENTCTL_NICS_MAX	64	/* as many as `facts` lists (FACTS_MAXIFS) */
#define AGENTCTL_LIST_MAX	16	/* knob names, pids, procs */
#define AGENTCTL_HOSTKEYS_MAX	8
#define AGENTCTL_KEY_MAX	4096	/* "TYPE BASE64" of a host key */

/* Unknown/null values: integers -1 (AGENTCTL_NONE), doubles NAN, strings
 * "", tri-state booleans -1. */
#define AGENTCTL_NONE		(-1)

enum agentctl_cmd {
	AGENTCTL_VERSION,
	AGENTCTL_FACTS,
	AGENTCTL_APPLY,
	AGENTCTL_RESTORE,
	AGENTCTL_CONFIRM,
	AGENTCTL_SERVE,
	AGENTCTL_SERVE_STOP,
	AGENTCTL_IPERF,
	AGENTCTL_SCP,
	AGENTCTL_KEYGEN,
	AGENTCTL_AUTHORIZE,
	AGENTCTL_DEAUTHORIZE,
	AGENTCTL_LEASE,		/* lease take|renew|release|show */
	AGENTCTL_PREFLIGHT,
};

struct agentctl_version {
	char	version[32];
	char	source_hash[32];
};

struct agentctl_nic {
	char		name[32];
	char		driver[32];
	char		pci_vendor[16];	/* "0x8086" or "" */
	char		pci_device[16];
	char		chip[16];	/* "0x10968086" or "" */
	long long	speed_mbps;	/* -1 unknown */
	char		duplex[16];
	long long	mtu;
	int		tso, lro, rxcsum, txcsum;	/* 1, 0, -1 */
};

struct agentctl_facts {
	char			os[16];		/* "freebsd" | "linux" */
	char			hostname[256];
	char			kernel_release[128];
	char			kernel_version[512];
	char			kernel_revision[80];	/* "" when null */
	long long		osreldate;		/* -1 when null */
	struct agentctl_nic	nics[AGENTCTL_NICS_MAX];
	size_t			nnics;
	char			iperf2[64];	/* "" when missing */
	char			iperf3[64];
	char			scp[64];
};

/* Knob values of apply: -1 = not given / unknown; nat "" likewise. */
struct agentctl_knobs {
	int		tso, lro, rxcsum, txcsum;
	long long	mtu;
	char		nat[16];
};

#define AGENTCTL_CHECKS_MAX	8

/* One check of `preflight` (PROTOCOL.md). */
struct agentctl_check {
	char	name[16];	/* "link", "speed", "state", "path", "server" */
	int	ok;
	double	ms;
	char	detail[512];
};

struct agentctl_preflight {
	char			ifname[32];
	int			ok;
	double			ms;	/* the agent's own time */
	struct agentctl_check	checks[AGENTCTL_CHECKS_MAX];
	size_t			nchecks;
};

struct agentctl_ifcounters {
	long long	rx_bytes, rx_packets, rx_errors, rx_dropped;
	long long	tx_bytes, tx_packets, tx_errors, tx_dropped;
};

/* The counters serve and serve stop read with --if: has 0 when the reply
 * carries no "ifstats"; has_counters 0 when the host could not read them. */
struct agentctl_ifsnap {
	int				has;
	char				ifname[32];
	int				has_counters;
	struct agentctl_ifcounters	c;	/* -1: null */
};


struct agentctl_serve {
	char			tool[16];
	long long		pid;
	char			bind[64];
	long long		port;
	int			kept;		/* --keep reused it (0.4) */
	/* With --if: 1 the receiver is as its last apply verified it
	 * ("stands"), 0 it is not or the agent cannot tell. */
	int			stands;
	struct agentctl_ifsnap	ifstats;	/* once it listens */
};

struct agentctl_apply {
	char			ifname[32];
	int			saved;
	struct agentctl_knobs	requested;
	struct agentctl_knobs	in_force;
	char			mismatch[AGENTCTL_LIST_MAX][16];
	size_t			nmismatch;
	/* Agent 0.4 (--reset-others, --settle-max): the knobs this call
	 * changed, the ms it waited for the link after a change (-1: none,
	 * or an older agent) and whether the link was up then (-1). */
	char			changed[AGENTCTL_LIST_MAX][16];
	size_t			nchanged;
	long long		settle_ms;
	int			link_up;
	long long		rollback_pid;	/* -1 when null */
	long long		rollback_at;
	/* Agent 0.5 (apply --preflight): the preflight's checks, run after
	 * the apply (has_preflight 0: not asked, not run after a mismatch,
	 * or an older agent). */
	int			has_preflight;
	struct agentctl_preflight preflight;
	/* apply --serve (0.7): the link's workload server started (or
	 * kept) once the apply went through (has_serve), or why it could
	 * not start (serve_err, "" when it did or was not asked). */
	int			has_serve;
	struct agentctl_serve	serve;
	char			serve_err[256];
};

struct agentctl_restore {
	char	ifname[32];
	int	was_saved;
	char	changed[AGENTCTL_LIST_MAX][16];
	size_t	nchanged;
	/* restore --serve-stop: the servers it stopped first (has_stopped:
	 * the list was there); --release: whether the lease went with it
	 * (AGENTCTL_NONE: not asked). */
	int		has_stopped;
	long long	stopped[AGENTCTL_LIST_MAX];
	size_t		nstopped;
	int		released;
};

struct agentctl_confirm {
	char	ifname[32];
	int	cancelled;
};

struct agentctl_serve_stop {
	long long		stopped[AGENTCTL_LIST_MAX];
	size_t			nstopped;
	struct agentctl_ifsnap	ifstats;	/* once the servers stopped */
};

struct agentctl_interval {
	double	start, end, bytes, bps;
};

struct agentctl_proc {
	char	name[32];
	double	cpu_seconds, cpu_percent;
};

struct agentctl_iperf {
	char				tool[16];
	int				exact;	/* 1, 0, -1 not said */
	double				bytes, seconds, bps;
	long long			window_requested;	/* -1 null */
	long long			window_granted;
	long long			retransmits;
	struct agentctl_interval	*intervals;	/* heap */
	size_t				nintervals;
	double				cpu_user, cpu_sys, cpu_idle;
	struct agentctl_proc		procs[AGENTCTL_LIST_MAX];
	size_t				nprocs;
	int				has_ifstats;
	char				ifstats_if[32];
	struct agentctl_ifcounters	if_before, if_after;	/* -1: null */
};

struct agentctl_scp {
	double		bytes, seconds, bps;
	long long	remote_bytes;	/* the peer's copy; -1 null */
};

struct agentctl_keygen {
	char	tag[64];
	char	key[1024];
	char	pubkey[1024];
};

struct agentctl_authorize {
	char	tag[64];
	char	hostkeys[AGENTCTL_HOSTKEYS_MAX][AGENTCTL_KEY_MAX];
	size_t	nhostkeys;
};

struct agentctl_deauthorize {
	char	tag[64];
};

/* A host lease as the agent reports it (PROTOCOL.md "Host lease"); times
 * are the host's epoch seconds, hold_until -1 when null. */
struct agentctl_lease_info {
	char		owner[80];	/* the token */
	char		host[80];	/* the owner's controller host name */
	long long	pid;
	char		run[80];
	long long	since, renewed, ttl, expires, hold_until, until;
	int		live;
	char		message[256];	/* "leased by HOST pid ... expires" */
};

struct agentctl_lease {
	char				action[16];	/* take, renew, ... */
	long long			now;		/* the host's clock */
	int				has_lease;	/* lease not null */
	struct agentctl_lease_info	lease;
	int				held;		/* show; else -1 */
	int				renewed;	/* take; else -1 */
	int				released, forced; /* release */
	int				has_previous;
	struct agentctl_lease_info	previous;	/* take, release */
	char				restored[AGENTCTL_LIST_MAX][32];
	size_t				nrestored;
};


/*
 * A decoded call.  has_result: the result line was decoded into u (also on
 * an `apply` mismatch, which still returns -1).  error_class/message: the
 * agent's error event, if any.  raw: the agent's stdout (heap), kept for
 * the store.  Release with agentctl_reply_free().
 */
struct agentctl_reply {
	enum agentctl_cmd	 cmd;
	int			 exit_status;
	int			 has_result;
	char			 error_class[16];
	char			 error_message[1024];
	char			*raw;
	size_t			 rawlen;
	union {
		struct agentctl_version		version;
		struct agentctl_facts		facts;
		struct agentctl_apply		apply;
		struct agentctl_restore		restore;
		struct agentctl_confirm		confirm;
		struct agentctl_serve		serve;
		struct agentctl_serve_stop	serve_stop;
		struct agentctl_iperf		iperf;
		struct agentctl_scp		scp;
		struct agentctl_keygen		keygen;
		struct agentctl_authorize	authorize;
		struct agentctl_deauthorize	deauthorize;
		struct agentctl_lease		lease;
		struct agentctl_preflight	preflight;
	} u;
};

/* The agent's sources and the hash they build as. */
struct agentctl_bundle {
	const char		*hash;	/* 16 hex digits */
	const struct embed_file	*files;	/* NULL-name terminated */
};

/* How a deploy went. */
struct agentctl_deploy_info {
	int	built;		/* 0: the right agent was already there */
	int64_t	ms;
	char	path[512];	/* the agent binary on the host */
};

struct agentctl;

/*
 * The host lease token this handle passes as `--owner TOKEN` to every
 * changing subcommand (apply, restore, confirm, serve, serve stop, iperf,
 * scp, keygen, authorize, deauthorize); NULL or "" passes none.  Copied.
 */
void	agentctl_set_owner(struct agentctl *, const char *token);
const char *agentctl_owner(const struct agentctl *);
/* 1 when the subcommand args[0..] changes the host (the lease gates it). */
int	agentctl_changes_host(const char *const *args);
/* The agent binary on the host ("" before a deploy); borrowed. */
const char *agentctl_path(const struct agentctl *);

/* The sources compiled into labrat, with LABRAT_AGENT_HASH. */
const struct agentctl_bundle *agentctl_builtin(void);

/*
 * A handle for one host on an open connection (borrowed: it must outlive
 * the handle).  Free with agentctl_free().
 */
struct agentctl *agentctl_new(struct ssh_conn *);
void	agentctl_free(struct agentctl *);
/*
 * What from deployed (its path, the bundle a vanished agent is redeployed
 * from), for a in its place on a new session to the same host, which can
 * then call the agent before a deploy of its own checked it.
 */
void	agentctl_inherit(struct agentctl *a, const struct agentctl *from);

/*
 * Makes sure the bundle's agent is on the host: runs its --version and, when
 * it is missing or reports another source_hash, uploads the sources to a
 * temporary directory on the host, builds them with `cc -O2`, moves the
 * binary into place atomically and checks --version again.  bundle NULL =
 * agentctl_builtin().  0 or -1 with err naming the host and the step.
 */
int	agentctl_deploy(struct agentctl *, const struct agentctl_bundle *,
	    int timeout_ms, struct agentctl_deploy_info *, char *err,
	    size_t errlen);

/*
 * Runs `labrat-agent ARGS...` (args NULL-terminated; args[0] is the
 * subcommand, e.g. "facts"; every element is shell-quoted) with a deadline
 * and decodes its output into r (cleared first; free it with
 * agentctl_reply_free() whatever the result).  0 only when the agent
 * exited 0 with a well-formed result.  Deploy first.
 */
int	agentctl_call(struct agentctl *, const char *const *args,
	    int timeout_ms, struct agentctl_reply *r, char *err, size_t errlen);

/* `facts [--if IF]` (ifname may be NULL). */
int	agentctl_facts(struct agentctl *, const char *ifname, int timeout_ms,
	    struct agentctl_reply *r, char *err, size_t errlen);

/*
 * The decoder on its own: text (len bytes, truncated set when it was cut
 * at its ceiling) is the agent's stdout for command `what` (for messages)
 * expected to answer as cmd, exit_status its exit status.  Same result
 * rules as agentctl_call(); r->raw is not set.
 */
int	agentctl_decode(const char *host, const char *what,
	    enum agentctl_cmd cmd, const char *text, size_t len, int truncated,
	    int exit_status, struct agentctl_reply *r, char *err,
	    size_t errlen);

/* The subcommand name of cmd ("serve-stop" for AGENTCTL_SERVE_STOP). */
const char *agentctl_cmd_name(enum agentctl_cmd);
/* Which result args[0..] asks for; -1 when it is no known subcommand. */
int	agentctl_cmd_of(const char *const *args);

/*
 * The patterns of strings a lab host reports, checked by the decoder
 * before they are believed (a string that fails one is refused, not
 * cleaned); 1 when s matches.
 */
int	agentctl_rev_ok(const char *);		/* ^[A-Za-z0-9._-]{1,64}$ */
int	agentctl_version_ok(const char *);	/* [A-Za-z0-9._+~-]{1,127} */
int	agentctl_driver_ok(const char *);	/* [A-Za-z0-9_.-]{1,31} */
int	agentctl_ifname_ok(const char *);	/* [A-Za-z0-9_.:-]{1,31} */
int	agentctl_hexid_ok(const char *);	/* 0x + 1-12 hex digits */
int	agentctl_hash_ok(const char *);		/* 1-31 lower hex digits */
int	agentctl_os_ok(const char *);		/* freebsd | linux */
int	agentctl_printable_ok(const char *);	/* ASCII 0x20-0x7e */

/*
 * `open` (agent 0.6, PROTOCOL.md): what opening a host needs in one agent
 * process: its version, then the lease take (lease_args given), then the
 * facts of ifname (given), each part decoded as that subcommand's reply.
 */
struct agentctl_open_req {
	const char *const	*lease_args;	/* "--owner", TOKEN, ...; NULL */
	const char		*ifname;	/* facts --if; NULL: none */
};

struct agentctl_open {
	int			answered;	/* the version part decoded */
	struct agentctl_version	version;
	int			has_lease;	/* the lease part came back */
	int			lease_rc;	/* its decode: 0 or -1 */
	struct agentctl_reply	lease;		/* error_class on a refusal */
	int			has_facts;
	int			facts_rc;
	struct agentctl_reply	facts;		/* raw: the facts line */
	char			err[512];	/* why a part failed */
};

/*
 * Decodes an `open` answer (text, len bytes) into o (cleared first; free
 * with agentctl_open_free()).  Each part goes through agentctl_decode(),
 * so the same strict rules hold.  0 when the version part and every part
 * asked for (want_lease, want_facts) came back, each a result or an error
 * event (lease_rc / facts_rc say which); -1 with o->err otherwise (an
 * older agent, garbage: the caller goes the usual way).
 */
int	agentctl_open_decode(const char *host, const char *text, size_t len,
	    int want_lease, int want_facts, struct agentctl_open *o);
void	agentctl_open_free(struct agentctl_open *);

/*
 * agentctl_deploy() whose check of the installed agent is an `open` of
 * req (NULL: just the version): *o gets its parts when the agent of the
 * bundle's hash answered (o->answered), else o->answered is 0 (the agent
 * was built, or could not be asked) and the caller takes the lease and
 * reads the facts the usual way.  Free o with agentctl_open_free().
 */
int	agentctl_deploy_open(struct agentctl *, const struct agentctl_bundle *,
	    int timeout_ms, const struct agentctl_open_req *req,
	    struct agentctl_deploy_info *, struct agentctl_open *o, char *err,
	    size_t errlen);

void	agentctl_reply_free(struct agentctl_reply *);

#endif
