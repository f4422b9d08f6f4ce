/*
 * agent.h: shared declarations of labrat-agent (C99 + POSIX, libc only).
 */
#ifndef LABRAT_AGENT_H
#define LABRAT_AGENT_H

#define AGENT_PROTO	1
#define AGENT_VERSION	"0.7.0"
#ifndef LABRAT_AGENT_HASH
#define LABRAT_AGENT_HASH "unknown"
#endif

/* Exit statuses, one per failure class (PROTOCOL.md). */
#define AGENT_EXIT_OK		0
#define AGENT_EXIT_INTERNAL	1
#define AGENT_EXIT_USAGE	2
#define AGENT_EXIT_COMMAND	3
#define AGENT_EXIT_TIMEOUT	4
#define AGENT_EXIT_MISMATCH	5
#define AGENT_EXIT_PARSE	6
#define AGENT_EXIT_LEASED	7	/* another owner holds a live lease */
#define AGENT_EXIT_UNLEASED	8	/* --owner given but not the holder */
#define AGENT_EXIT_PREFLIGHT	9	/* the host is not fit to measure */

#include <sys/types.h>

#include <stddef.h>

/* Subcommands: argv[0] is the subcommand name; return an exit status. */
int	agent_cmd_version(int, char **);
int	agent_cmd_facts(int, char **);
int	agent_cmd_apply(int, char **);
int	agent_cmd_restore(int, char **);
int	agent_cmd_confirm(int, char **);
int	agent_cmd_serve(int, char **);
int	agent_cmd_iperf(int, char **);
int	agent_cmd_scp(int, char **);
int	agent_cmd_keygen(int, char **);
int	agent_cmd_authorize(int, char **);
int	agent_cmd_deauthorize(int, char **);
int	agent_cmd_lease(int, char **);
int	agent_cmd_preflight(int, char **);
int	agent_cmd_open(int, char **);
int	agent_cmd_session(int, char **);
/* A session's request (cmd_session.c, pure): its line "call NARGS LEN"
 * (without the newline) into *nargs and *len, and its LEN bytes into
 * argv[0..nargs-1] (pointing into buf; argv[nargs] = NULL).  0, or -1
 * when malformed or past the ceilings. */
#define SESSION_HEAD_MAX	64
#define SESSION_ARGS_MAX	64
#define SESSION_REQ_MAX		(64 * 1024)
int	agent_session_head(const char *line, size_t *nargs, size_t *len);
int	agent_session_args(const char *buf, size_t len, size_t nargs,
	    char **argv);
/* The program's path as the first agent_dispatch() saw it (argv[0]). */
extern const char *agent_self;
/* Runs the subcommand argv[1] (argv[0]: the program); its exit status,
 * or a usage error's. */
int	agent_dispatch(int argc, char **argv);
/* Stops every workload server labrat started (restore --serve-stop; the
 * rollback timer's end: the controller that kept them for its jobs is
 * gone); their pids go to out, up to max (out NULL, max 0: none kept);
 * how many went there. */
#define AGENT_SERVE_MAX	16
size_t	agent_serve_stop(long *out, size_t max);
struct emit;
/* A workload server as `serve` started (or, keep, found) it. */
struct agent_served {
	char	 tool[16];
	char	 bind[64];
	int	 port;
	long	 pid;
	int	 kept;
};
/* Starts a server of tool on bind:port (0: the tool's default) and waits
 * until it listens, as `serve` does (keep: `--keep`).  AGENT_EXIT_* with
 * err. */
int	agent_serve_start(const char *tool, const char *bind, int port,
	    int keep, struct agent_served *, char *err, size_t errlen);
/* The fields of serve's result for s (and IF's state and counters). */
void	agent_serve_emit(struct emit *, const struct agent_served *,
	    const char *ifname);

struct parse_ping;
/*
 * The preflight's path check (cmd_preflight.c), pure: the payload of a
 * don't-fragment ping that fills mtu (IPv4: mtu - 28, IPv6: mtu - 48, at
 * most the largest echo of 65507 / 65527 bytes; -1 if none), and the verdict on a parsed ping of that size to addr: 1 when
 * a full-size echo reply came back, else 0; detail says what was seen.
 */
int	agent_preflight_ping_size(int mtu, int v6);
int	agent_preflight_ping_judge(const struct parse_ping *, int size,
	    const char *addr, char *detail, size_t len);

struct emit;
struct osdep_knobs;
struct osdep_probe;
/*
 * `apply --preflight` (cmd_preflight.c): runs the preflight's checks of
 * ifname (peer, speed, port: as preflight's --peer, --speed, --port; 0 /
 * NULL for none) against asked (what the job asked; OSDEP_UNSET knobs are
 * wanted at the saved original) and writes them as the object key of e
 * (checks, failed, ok, ms, as preflight's result).  have, have_pr: what
 * is in force on ifname (NAT on asked's nat_if, else ifname) as the
 * caller read it under the interface's lock, or NULL to read it.  1 when
 * every check passed, else 0 with msg saying which failed.
 */
int	agent_preflight_embed(struct emit *, const char *key,
	    const char *ifname, const char *peer, int speed, int port,
	    const struct osdep_knobs *asked, const struct osdep_knobs *have,
	    const struct osdep_probe *have_pr, char *msg, size_t msglen);

struct osdep_link;
/*
 * The preflight's speed and duplex check of ifname (cmd_preflight.c), pure:
 * 1 when the link runs at speed Mb/s or more (speed 0: none declared; an
 * unknown speed then passes) and is not half-duplex, else 0; detail (len
 * > 0) says what was seen or every reason it failed, joined by "; ".
 */
int	agent_preflight_speed_judge(const struct osdep_link *,
	    const char *ifname, int speed, char *detail, size_t len);

/*
 * The lease gate of a changing subcommand (cmd_lease.c): owner is its
 * --owner value or NULL.  AGENT_EXIT_OK to go on (with keep != NULL the
 * lease lock stays held, its fd in *keep, for the caller to
 * lease_unlock()); otherwise the error event is already printed (naming
 * the owner) and the return value is the exit status.
 */
int	agent_lease_gate(const char *cmd, const char *owner, int *keep);

struct lease_restored;
/* Restores every interface with a saved original (cmd_restore.c), each
 * under its lock; names land in *out.  AGENT_EXIT_* with err. */
int	agent_restore_pending(struct lease_restored *out, char *err,
	    size_t errlen);
/* Arms ifname's rollback timer for seconds from now, or moves the one
 * running on to that deadline (cmd_restore.c; the caller holds the
 * interface's lock).  The timer's pid, or -1 with err. */
pid_t	agent_timer_arm(const char *ifname, int seconds, char *err,
	    size_t errlen);

/* The version word of a tool's -v/-V output ("" if none). */
void	agent_tool_version(const char *tool, const char *text, char *,
	    size_t);
/* Runs argv (5 s deadline) and applies agent_tool_version to its output. */
void	agent_probe_version(const char *tool, char *const argv[], char *,
	    size_t);
/* The same, kept in STATEDIR/tools/TOOL while the file the PATH finds for
 * argv[0] stays the same (device, inode, size, mtime). */
void	agent_probe_version_cached(const char *tool, char *const argv[],
	    char *, size_t);

#endif
