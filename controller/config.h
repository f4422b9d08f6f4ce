/*
 * config: the inventory (hosts, NICs, links, kernel providers, power hooks)
 * and the plan (links, knob lists, workloads, repetitions, timeouts, stats
 * settings) parsed once from JSON into the plain structs below, and a plan
 * written back as canonical JSON (config_plan_json()).  This is the only
 * module that uses json-c for configs; json_object never leaves the
 * module's files (config*.c, config_int.h).  Each file is read once: a
 * loaded inventory, plan or bisect test keeps the text it was parsed from
 * (->text), which is what a run or a bisect stores and resumes from.
 *
 * Every rule of schemas/inventory.schema.json and schemas/plan.schema.json
 * is enforced here too: unknown keys, types, ranges, patterns, references and
 * duplicates.  All errors are collected in a struct config_errors, each as
 * "FILE: JSON.PATH: what is wrong", never first-error-wins.
 *
 * Everything a loaded config holds has been validated: names, interface
 * names, revision ids and addresses match their patterns, so they may be
 * used in commands (still shell-quoted: see config_shell_quote_argv()).
 */
#ifndef LABRAT_CONFIG_H
#define LABRAT_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "knobs.h"

/* Ceilings: a config file and its parts can never make us allocate much. */
#define CONFIG_FILE_MAX		(1024 * 1024)
#define CONFIG_HOSTS_MAX	256
#define CONFIG_NICS_MAX		32
#define CONFIG_LINKS_MAX	64
#define CONFIG_ARGV_MAX		64	/* elements of a command template */
#define CONFIG_ARG_MAX		1024	/* bytes of one template element */
#define CONFIG_PATH_MAX		1024
#define CONFIG_WORKLOADS_MAX	32
#define CONFIG_METRICS_MAX	64	/* a plan's metric declarations */
#define CONFIG_KNOB_VALUES_MAX	16	/* values in one knob list */
#define CONFIG_ERRORS_MAX	200	/* further errors are counted only */

/* Pattern limits (see formats): host 63, interface 15, link 32, rev 64. */
#define CONFIG_HOSTNAME_MAX	63
#define CONFIG_IFNAME_MAX	15
#define CONFIG_LINKNAME_MAX	32
#define CONFIG_REV_MAX		64

/* ---- errors ---------------------------------------------------------- */

struct config_errors {
	char	**msgs;		/* "file: path: message", heap */
	size_t	  n;
	size_t	  cap;
	size_t	  dropped;	/* errors beyond CONFIG_ERRORS_MAX */
};

void	config_errors_init(struct config_errors *);
void	config_errors_free(struct config_errors *);
/* Adds a util_read_file() failure for path without naming the file twice. */
void	config_errors_read(struct config_errors *, const char *path,
	    const char *err);
/* Appends "file: path: fmt..." (path may be NULL or "": "file: fmt..."). */
void	config_errors_add(struct config_errors *, const char *file,
	    const char *path, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));

/* ---- inventory ------------------------------------------------------- */

enum config_os {
	CONFIG_OS_FREEBSD,
	CONFIG_OS_LINUX,
};

enum config_nic_role {
	CONFIG_ROLE_TEST,
	CONFIG_ROLE_MANAGEMENT,
};

/* A command template: an argv whose elements may hold {rev} / {host}. */
struct config_argv {
	char	**argv;		/* NULL when the template is absent */
	size_t	  argc;
};

struct config_ssh {
	char	*user;		/* default "root" */
	int	 port;		/* default 22 */
	char	*key;		/* absolute (resolved against the inventory) */
	char	*known_hosts;	/* absolute */
};

struct config_nic {
	char			*name;	/* interface name, e.g. "em0" */
	char			*driver;
	char			*chip;	/* "0x10968086" or NULL */
	/* "speed_mbps": the link speed the lab was built for, 0 when not
	 * declared.  What a host reports for its NIC may be higher than
	 * what the wire carries (a shaped veth reports 10000). */
	int			 speed_mbps;
	enum config_nic_role	 role;
};

enum config_kernel_type {
	CONFIG_KERNEL_NONE,		/* no "kernel": fixed revision */
	CONFIG_KERNEL_FREEBSD_SRC,
	CONFIG_KERNEL_LINUX,
	CONFIG_KERNEL_COMMAND,
};

struct config_kernel {
	enum config_kernel_type	 type;
	/* freebsd-src */
	char			*src;		/* default "/usr/src" */
	char			*kernconf;	/* default "GENERIC" */
	int			 jobs;		/* default 4 */
	char			*kodir;		/* default "labrat" */
	/* linux (all optional) and command (install, reboot, verify
	 * required; power_cycle optional).  install always uses {rev};
	 * power_cycle may only use {host}. */
	struct config_argv	 install;
	struct config_argv	 reboot;
	struct config_argv	 verify;
	struct config_argv	 power_cycle;
};

enum config_power_type {
	CONFIG_POWER_NONE,
	CONFIG_POWER_COMMAND,	/* run on the controller, no shell */
	CONFIG_POWER_URL,
};

struct config_power {
	enum config_power_type	 type;
	struct config_argv	 command;	/* only {host} allowed */
	char			*url;		/* http:// or https:// */
	char			*method;	/* "POST" (default) or "GET" */
};

struct config_host {
	char			*name;
	enum config_os		 os;
	char			*address;	/* IP literal or DNS name */
	struct config_ssh	 ssh;
	struct config_nic	*nics;
	size_t			 nnics;
	struct config_kernel	 kernel;
	struct config_power	 power;
};

struct config_endpoint {
	char			*host;		/* host name */
	char			*ifname;	/* JSON key "if" */
	char			*address;	/* IPv4 or IPv6 literal */
	size_t			 host_index;	/* into inventory->hosts */
};

enum config_nat_side {
	CONFIG_NAT_SIDE_NONE,	/* "nat": null */
	CONFIG_NAT_SIDE_CLIENT,
	CONFIG_NAT_SIDE_SERVER,
};

struct config_link {
	char			*name;
	struct config_endpoint	 client;	/* the sender */
	struct config_endpoint	 server;	/* the receiver */
	char			*nat;		/* host name or NULL */
	enum config_nat_side	 nat_side;
};

struct config_inventory {
	char			*path;	/* as given, used in messages */
	char			*dir;	/* its directory, absolute */
	char			*text;	/* the text parsed (heap), to store */
	struct config_host	*hosts;
	size_t			 nhosts;
	struct config_link	*links;
	size_t			 nlinks;
	/* "revisions": the bisect's revision source when `bisect start` has
	 * no --revisions, as that option takes it, its path absolute
	 * (resolved against dir); NULL when the inventory has none. */
	char			*revisions;
};

/*
 * Reads and validates an inventory file (read once: inv->text is the text
 * that was parsed).  Returns a heap inventory the caller frees with
 * config_inventory_free(), or NULL with the reasons appended to errs.
 */
struct config_inventory *config_inventory_load(const char *path,
	    struct config_errors *errs);
/* Same from memory (text is copied into inv->text); path is used in
 * messages and to resolve relative paths (its directory, against the
 * current directory if relative). */
struct config_inventory *config_inventory_parse(const char *path,
	    const char *text, size_t len, struct config_errors *errs);
void	config_inventory_free(struct config_inventory *);
/*
 * Checks that every host's ssh.key and ssh.known_hosts (resolved as the
 * loader resolves them) can be opened for reading, which the loader does
 * not (a file may be checked on another machine): one error per distinct file,
 * "hosts[0].ssh.key: /root/.ssh/labrat_ed25519: No such file or
 * directory".  For `config check` and the start of a run.  0 or -1.
 */
int	config_inventory_check_files(const struct config_inventory *,
	    struct config_errors *errs);

/* Lookups: NULL when absent.  The result points into the inventory. */
const struct config_host *config_inventory_host(
	    const struct config_inventory *, const char *name);
const struct config_link *config_inventory_link(
	    const struct config_inventory *, const char *name);
const struct config_nic *config_host_nic(const struct config_host *,
	    const char *ifname);

/* ---- plan ------------------------------------------------------------ */

/*
 * One knob's list of values (as knobs.h has them: booleans 0/1, mtu the
 * MTU, nat an enum knob_nat).  present == 0: the plan omits the knob and
 * it is left as the host has it.
 */
struct config_knoblist {
	int	present;
	size_t	n;
	int	values[CONFIG_KNOB_VALUES_MAX];
};

struct config_knobset {
	struct config_knoblist	knob[KNOB_COUNT];	/* by enum knob */
};

/* per_link.<link>.knobs: replaces the plan's whole knob set for a link. */
struct config_link_knobs {
	char			*link;
	struct config_knobset	 knobs;
};

enum config_tso_on {
	CONFIG_TSO_ON_SENDER,
	CONFIG_TSO_ON_BOTH,
};

enum config_tool {
	CONFIG_TOOL_IPERF2,
	CONFIG_TOOL_IPERF3,
	CONFIG_TOOL_SCP,
};

/*
 * A workload.  Sizes keep the plan's spelling ("512k", passed to iperf as
 * is) and their value in bytes (k = 1024).  iperf: len, window optional
 * (NULL / 0 = the tool's default), nodelay default false, time default 10,
 * parallel default 1, port optional (0 = the tool's own: 5201 iperf3, 5001
 * iperf2; else 1024..65535).  scp: size required, the iperf keys (port
 * too) are refused.
 * Optional "links" (an addition to formats.md) restricts a workload to some
 * of the plan's links, e.g. scp only on the NAT pair.
 */
struct config_workload {
	enum config_tool	 tool;
	char			*len;
	uint64_t		 len_bytes;
	char			*window;
	uint64_t		 window_bytes;
	int			 nodelay;
	int			 time;		/* seconds */
	int			 parallel;
	/* The server's port; 0 = the tool's default.  Not part of what is
	 * measured: matrix_workload_key() leaves it out. */
	int			 port;
	char			*size;
	uint64_t		 size_bytes;
	/* "links": the plan links this workload runs on; NULL = all. */
	char			**links;
	size_t			 nlinks;
};

struct config_stats {
	double	alpha;			/* default 0.05, (0, 0.5] */
	double	min_effect;		/* default 0.03, [0, 1] */
	int	min_samples;		/* default 5, 2..1000 */
	int	max_samples;		/* default 20, min_samples..10000 */
	double	collapse_factor;	/* default 5, (1, 1e6] */
	int	adaptive;		/* default true */
};

/* A plan's "metrics" entry: the direction of one metric. */
struct config_metric {
	char	*name;			/* like throughput_bps */
	int	 lower_is_better;
};

struct config_plan {
	char			*path;
	/* The text parsed (heap), to store; NULL for a built plan
	 * (config_bisect_plan()), whose text is config_plan_json(). */
	char			*text;
	char			**links;	/* link names, in plan order */
	size_t			 nlinks;
	struct config_knobset	 knobs;
	struct config_link_knobs *per_link;
	size_t			 nper_link;
	enum config_tso_on	 tso_on;	/* default sender */
	struct config_workload	*workloads;
	size_t			 nworkloads;
	int			 repetitions;	/* default 1, 1..1000 */
	int			 connect_timeout; /* s, default 10, 1..600 */
	int			 job_timeout;	/* s, default 120, 1..86400 */
	/* ms to wait after applying knobs before measuring: a real NIC
	 * renegotiates its link after an MTU change.  default 200 */
	int			 settle_ms;
	int			 retries;	/* default 2, 0..10 */
	struct config_stats	 stats;
	struct config_metric	*metrics;	/* "metrics", plan order */
	size_t			 nmetrics;
};

/*
 * The direction the plan declares for metric ("metrics": {"NAME":
 * {"lower_is_better": true}}): 1 or 0, -1 when it declares none (the
 * built-in direction applies, stats_metric_direction()).  plan may be NULL.
 */
int	config_plan_lower_is_better(const struct config_plan *,
	    const char *metric);

/*
 * Reads and validates a plan (read once: plan->text is the text parsed;
 * config_plan_parse() copies text there).  When inv is not NULL the plan
 * is also checked against it (every link exists, NAT values need a NAT host,
 * divert needs FreeBSD).  Returns a heap plan freed with config_plan_free(),
 * or NULL with the reasons appended to errs.
 */
struct config_plan *config_plan_load(const char *path,
	    const struct config_inventory *inv, struct config_errors *errs);
struct config_plan *config_plan_parse(const char *path, const char *text,
	    size_t len, const struct config_inventory *inv,
	    struct config_errors *errs);
void	config_plan_free(struct config_plan *);
/*
 * The plan as canonical JSON (see config_write.c): compact, keys in the
 * schema's order, defaults written, so that config_plan_parse() of it gives
 * the same struct back.  Heap string, the caller frees.
 */
char	*config_plan_json(const struct config_plan *);
/* One workload the same way, e.g. {"tool":"scp","size":"1M"}; heap. */
char	*config_workload_json(const struct config_workload *);
/*
 * Keeps only the plan links named in the comma list links (in plan order),
 * their per_link entries and workloads (a workload's "links" cut to them;
 * one left with none is dropped).  0, or -1 with err (a name that is not a
 * plan link, nothing left); the plan's text is then stale: store
 * config_plan_json() of it.
 */
int	config_plan_restrict(struct config_plan *, const char *links,
	    char *err, size_t errlen);
/* Cross-checks a plan against an inventory; 0 or -1 with errs appended. */
int	config_plan_check(const struct config_plan *,
	    const struct config_inventory *, struct config_errors *errs);
/* 1 if the workload runs on that link (its "links" is absent or names it). */
int	config_workload_on_link(const struct config_workload *,
	    const char *link);
/* The knob set in force for a link (its per_link override or the plan's). */
const struct config_knobset *config_plan_knobs(const struct config_plan *,
	    const char *link);

/* ---- bisect test (config_bisect.c, schemas/bisect-test.schema.json) - */

enum config_bisect_compare {
	CONFIG_BISECT_AB,	/* reference vs candidate knob, same boot */
	CONFIG_BISECT_BASELINE,	/* against the GOOD revision's samples */
};

/*
 * What `labrat bisect` measures on each revision and how it judges it.
 * Fixed knobs: knobs (never ab_knob).  A/B: ab_knob takes ab_reference
 * (A) and ab_candidate (B).  A revision is good while median(candidate) /
 * median(reference) >= threshold (<= with lower_is_better).  Timeouts in
 * seconds.
 */
struct config_bisect_test {
	char				*path;
	char				*text;	/* parsed (heap), to store */
	char				*description;	/* or NULL */
	struct knobs			 knobs;
	enum config_bisect_compare	 compare;
	enum knob			 ab_knob;
	int				 ab_reference, ab_candidate;
	/* Parsed by the plan loader's own workload parser, so both accept
	 * exactly the same workloads; never has "links". */
	struct config_workload		 workload;
	char				*metric;	/* "throughput_bps" */
	/* As the file says: 0 or 1, -1 when it does not say (the metric's
	 * built-in direction, stats_metric_direction()). */
	int				 lower_is_better;
	/* Default 0.9, or 1.1 when lower is better (hunt_test_judging());
	 * threshold_set: the file gives it. */
	double				 threshold;
	int				 threshold_set;
	double				 alpha;		/* 0.05 */
	int				 min_samples;	/* 5 */
	int				 max_samples;	/* 20 */
	double				 collapse_factor; /* 5 */
	int				 collapse_min_samples; /* 3 */
	int				 remeasures;	/* 1 */
	int				 connect_timeout, job_timeout;	/* 10, 120 */
	int				 install_timeout; /* 7200 */
	int				 down_timeout, boot_timeout; /* 120, 300 */
	int				 power_timeout;	/* 60 */
	int				 retries;	/* 2 */
};

/* Reads and validates a test file; heap result or NULL with errs. */
struct config_bisect_test *config_bisect_test_load(const char *path,
	    struct config_errors *errs);
struct config_bisect_test *config_bisect_test_parse(const char *path,
	    const char *text, size_t len, struct config_errors *errs);
/*
 * A stand-in for a test file that is gone (showing an old bisect): the
 * defaults, compare baseline, an iperf3 workload, metric as stored.  NULL
 * with errs when metric is not a metric name.  Heap, free as below.
 */
struct config_bisect_test *config_bisect_test_stand_in(const char *path,
	    const char *metric, struct config_errors *errs);
void	config_bisect_test_free(struct config_bisect_test *);
/*
 * The one-workload plan that measures a test on link, built as a struct:
 * fixed knobs as one-value lists, the A/B knob as [reference, candidate],
 * the test's workload, timeouts and retries, repetitions 1, the other plan
 * defaults; its path is the test's, its text NULL (store
 * config_plan_json() of it).  Checked against inv (may be NULL); heap, free
 * with config_plan_free(), or NULL with errs.
 */
struct config_plan *config_bisect_plan(const struct config_bisect_test *,
	    const char *link, const struct config_inventory *inv,
	    struct config_errors *errs);

/*
 * The "revisions" (id, message) of a simulated-lab history file
 * (schemas/history.schema.json), oldest first.  *ids and *msgs are heap,
 * NULL-terminated (config_argv_free() each).  0 or -1 with errs.
 */
int	config_history_revisions(const char *path, char ***ids,
	    char ***msgs, size_t *n, struct config_errors *errs);
/* The same from a history file's text (path names it in errors). */
int	config_history_parse(const char *path, const char *text, size_t len,
	    char ***ids, char ***msgs, size_t *n, struct config_errors *errs);

/* ---- daemon config (config_daemon.c, schemas/daemon.schema.json) ---- */

/* A revision source a schedule names (its --revisions), and how the
 * daemon learns its newest revision.  Commands run without a shell. */
struct config_revsource {
	char	*name;		/* what a schedule's --revisions names */
	char	*revisions;	/* a --revisions source (path resolved against the config file) */
	char   **newest_cmd;	/* argv printing the newest revision id on stdout, NULL-terminated; or NULL */
	char	*newest_git;	/* "PATH:REF": newest = git rev-parse REF after git fetch in PATH; or NULL */
};
struct config_webhook { char *url; int timeout_s; };	/* http(s); 10 s */
struct config_mail {
	char	*smtp_url;	/* "smtp://host:port", NULL when sendmail is used */
	char   **sendmail;	/* argv, NULL-terminated, or NULL */
	char	*from;
	char   **to;		/* NULL-terminated */
	int	 timeout_s;	/* default 30 */
};
/*
 * The HTTP API (config_daemon.c, "http"; the http module serves it).
 * listen is "http://ADDR:PORT" or "https://ADDR:PORT", ADDR an IPv4
 * address or [IPv6]; plain HTTP on an address other than loopback only
 * with allow_remote_plain.  cert and key (PEM files, resolved) are set
 * exactly when the scheme is https.
 */
enum config_http_reads { CONFIG_HTTP_READS_TOKEN = 0, CONFIG_HTTP_READS_OPEN };
struct config_http {
	char	*listen;
	char	*cert, *key;		/* NULL unless https */
	enum config_http_reads reads;	/* default: open on loopback, else token */
	int	 allow_remote_plain;	/* default 0 */
	int	 max_connections;	/* default 64 */
	int	 per_address;		/* connections per client address, default 16 */
	int	 timeout_s;		/* idle timeout per connection, default 30 */
	int	 max_body;		/* bytes, default 65536 */
	int	 rate_per_min;		/* requests per token per minute, default 600 */
	char	*static_dir;		/* serve /ui/ from this directory; NULL: embedded */
};
struct config_daemon {
	char	*path;
	char	*text;		/* the text parsed (heap) */
	char   **inventories;	/* NULL-terminated, resolved paths */
	struct config_revsource *sources; size_t nsources;
	struct config_webhook	*webhooks; size_t nwebhooks;
	struct config_mail	*mail;	/* NULL = no mail */
	int	 health_interval_s;	/* default 86400 */
	int	 health_iperf_s;	/* default 2 */
	double	 health_tolerance;	/* default 0.2: -20 % of the last good figure */
	int	 max_jobs;		/* default 1 */
	int	 max_bisects;		/* default 1 */
	int	 confirm;		/* default 1: confirming re-runs before a bisect */
	struct config_http	*http;	/* NULL: no HTTP API */
};
/*
 * Reads and validates a daemon config.  errs collects every error with its
 * JSON path ("FILE: notify.mail.smtp: ..."); -1 on any (err: "N errors in
 * FILE" or why it could not be read), else 0 with *out (heap, the caller
 * frees it with config_daemon_free()).
 */
int	config_daemon_load(const char *path, struct config_daemon **out,
	    struct config_errors *errs, char *err, size_t errlen);
/* The same from text already read (path names it and anchors paths). */
int	config_daemon_parse(const char *path, const char *text, size_t len,
	    struct config_daemon **out, struct config_errors *errs);
void	config_daemon_free(struct config_daemon *);
/*
 * Splits an http.listen value: *tls 1 for https, addr gets the address
 * without brackets (an IPv4 dotted quad or an IPv6 address, checked with
 * inet_pton), *port 1..65535, *loopback 1 for 127.0.0.0/8 or ::1.  0, or
 * -1 when it is not of the form "http[s]://ADDR:PORT".
 */
int	config_http_listen(const char *listen, int *tls, char *addr,
	    size_t addrlen, int *port, int *loopback);
/* The source called name, or NULL; points into the config. */
const struct config_revsource *config_daemon_source(
	    const struct config_daemon *, const char *name);

/* ---- flat objects (config_read.c) ------------------------------------ */

/*
 * A flat JSON object of strings and booleans, as the daemon's queue
 * payloads are: each payload's module (run, hunt, health) decodes its own
 * through this, so json-c stays in config.
 */
enum config_flat_type { CONFIG_FLAT_STR, CONFIG_FLAT_BOOL };
struct config_flat {
	const char		*key;
	enum config_flat_type	 type;
	void			*out;	/* STR: char ** (heap copy, NULL when
					 * absent or not a string); BOOL: int *
					 * (json-c's truth; left when absent) */
};
/* Decodes text into fields ({ NULL } terminated; NULL = none, only the
 * check); other keys are ignored.  0, or -1 with err ("payload is not a
 * JSON object"), the STR outputs NULL then. */
int	config_flat_parse(const char *text, const struct config_flat *fields,
	    char *err, size_t errlen);

/* ---- kinds, names, templates ---------------------------------------- */

enum config_kind {
	CONFIG_KIND_UNKNOWN,
	CONFIG_KIND_INVENTORY,
	CONFIG_KIND_PLAN,
	CONFIG_KIND_BISECT_TEST,
	CONFIG_KIND_HISTORY,
	CONFIG_KIND_DAEMON,
};

/*
 * Tells a file's kind from its content, by its top-level keys, first match
 * wins: "hosts" makes an inventory, "workloads" a plan, "revisions" a lab
 * history, "workload", "compare", "metric" or "threshold" a bisect test,
 * "knobs" a plan, "inventories" or "revision_sources" a daemon config.
 * UNKNOWN, with the reason appended to errs (invalid
 * JSON, none of the keys), otherwise.
 */
enum config_kind config_detect(const char *path, const char *text,
	    size_t len, struct config_errors *errs);
/* "inventory", "plan", "bisect test", "lab history", "daemon config",
 * "unknown". */
const char *config_kind_name(enum config_kind);

const char *config_tool_name(enum config_tool);	/* "iperf2" */
const char *config_os_name(enum config_os);

/* Pattern checks (the same as the loader's); 1 if valid. */
int	config_valid_hostname(const char *);
int	config_valid_ifname(const char *);
int	config_valid_linkname(const char *);
int	config_valid_revision(const char *);

/*
 * Substitutes {rev} and {host} in a template.  rev and host are validated
 * (revision id and host name patterns) before use; rev may be NULL when
 * the template does not use it.  Returns a heap, NULL-terminated argv
 * (free with config_argv_free()), or NULL with the reason in err.
 */
char	**config_template_expand(const struct config_argv *tmpl,
	    const char *rev, const char *host, char *err, size_t errlen);
void	config_argv_free(char **argv);

/*
 * Joins an argv into one string for a remote shell (what SSH exec takes),
 * single-quoting every element that is not made of safe characters only.
 * Returns a heap string the caller frees.
 */
char	*config_shell_quote_argv(char *const *argv);

/*
 * For the schema test: the keys the loader accepts in the object the
 * schemas call $defs/NAME ("inventory", "host", "ssh", "nic",
 * "kernel_freebsd_src", "kernel_linux", "kernel_command", "power_command",
 * "power_url", "link", "endpoint", "plan", "knobs", "per_link_entry",
 * "workload_iperf", "workload_scp", "timeouts", "stats").  NULL-terminated;
 * NULL for an unknown NAME.  config_schema_objects() lists the NAMEs.
 */
const char *const *config_schema_keys(const char *name);
const char *const *config_schema_objects(void);


/* ---- summaries (config_read.c) -------------------------------------- */

/* The "ok" line `config check` prints for a valid inventory, lab history
 * (parsed from text: -1 with errs when it is not one) or daemon config
 * (read from path), without a newline, into buf. */
void	config_inventory_summary(const struct config_inventory *, char *buf,
	    size_t len);
int	config_history_summary(const char *path, const char *text, size_t len,
	    char *buf, size_t buflen, struct config_errors *errs);
void	config_daemon_summary(const struct config_daemon *, const char *path,
	    char *buf, size_t len);

#endif
