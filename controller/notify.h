/*
 * notify: the daemon's notifications, in the words kernel developers read
 * from Intel's 0-day/LKP robot.  Owns the subject line, the full RFC 5322
 * mail (notify.c, the body in notify_text.c), the webhook's JSON body
 * (notify_json.c, schemas/webhook.schema.json) and the delivery to every
 * configured target (notify_send.c, through the client module: SMTP and
 * webhooks by libcurl, or a sendmail command).
 *
 * Every string of a notify_msg may come from a lab host, a git log or a
 * config file: no CR, LF or other control character of any field reaches
 * a mail header (they become spaces, non-ASCII bytes '?', a long subject
 * is folded and cut at NOTIFY_SUBJECT_MAX), and in the body control
 * characters are shown escaped (util_term_safe), lines end in CRLF and
 * none is longer than 998 octets (RFC 5322 2.1.1).  NULL fields are
 * allowed everywhere: they read "-" in text and null in JSON.
 */
#ifndef LABRAT_NOTIFY_H
#define LABRAT_NOTIFY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NOTIFY_SUBJECT_MAX	200	/* bytes of a subject, unfolded */
#define NOTIFY_LOG_MAX		(256 * 1024)	/* bisect log kept in a message */

enum notify_kind { NOTIFY_REGRESSION, NOTIFY_FIXED, NOTIFY_PAIR_BAD };

/*
 * What happened.  For NOTIFY_REGRESSION: the bisect's result (outcome
 * "culprit", "range" or "failed"), change = culprit_median /
 * parent_median - 1.  For NOTIFY_FIXED (outcome "fixed"): culprit is the
 * revision measured back within the threshold tonight, parent the last
 * bad one, and change/medians tonight's figure against the good baseline.
 * For NOTIFY_PAIR_BAD: the link, its hosts and health_why; the rest may
 * be NULL/0.  The strings stay the caller's.
 */
struct notify_msg {
	enum notify_kind kind;
	int64_t	 regression_id, bisect_id;
	const char *link, *client, *server, *driver, *chip;	/* hosts, NIC */
	const char *workload;	/* "iperf3" */
	const char *metric;	/* "throughput" */
	const char *unit;	/* "Mbit/s" */
	const char *knobs;	/* "TSO on, MTU 9000" */
	double	 change;	/* -0.177 */
	double	 parent_median, culprit_median; int n_parent, n_culprit; double p;
	const char *culprit, *culprit_msg, *parent;	/* ids, one-line message */
	int	 verified;	/* culprit tested bad and parent good */
	const char *outcome;	/* "culprit", "range", "failed", "fixed" */
	const char *range_first, *range_last;	/* outcome "range" */
	const char *reproduce;	/* lines: exact labrat commands */
	const char *bisect_log;	/* `labrat bisect log` text */
	const char *health_why;	/* NOTIFY_PAIR_BAD: why the check failed */
};

enum notify_target_kind { NOTIFY_WEBHOOK, NOTIFY_SMTP, NOTIFY_SENDMAIL };

struct notify_target {
	enum notify_target_kind kind;
	const char *url;			/* webhook URL, smtp://host:port */
	const char *from; const char *const *to;	/* mail */
	const char *const *argv;		/* sendmail */
	int timeout_s;				/* 0 = 30 s */
};

/* "regression", "fixed", "pair-bad" (the webhook's "kind"). */
const char *notify_kind_name(enum notify_kind);

/*
 * Subject "[labrat] r200140: em iperf3 throughput -17.7% regression (TSO
 * on, MTU 9000)" (outcome "range": "[labrat] r1..r5: ...", "failed":
 * "[labrat] LINK: ... regression, bisect failed (...)"; fixed: "[labrat]
 * r200150: em iperf3 throughput regression fixed, now -0.4% (...)"; a bad
 * pair: "[labrat] LINK: health check failed, no jobs until it passes").
 * One line of printable ASCII, at most NOTIFY_SUBJECT_MAX bytes (cut
 * with "..."), also cut to fit len.  0, or -1 when len < 16.
 */
int	notify_subject(const struct notify_msg *, char *buf, size_t len);

/*
 * The full RFC 5322 message (Date, From, To, Subject, Message-ID,
 * MIME-Version, Content-Type text/plain; charset=utf-8, 8bit; CRLF lines)
 * for the given header addresses (from and each to: an address, with or
 * without a display name; control characters removed).  Every line of
 * text from a field is indented, so no body line starts with a dot (a
 * sendmail run without -i would end the message at a lone "."); SMTP
 * delivery dot-stuffs anyway (libcurl does, RFC 5321 4.5.2).  Heap, the
 * caller frees.
 */
char	*notify_mail_text(const struct notify_msg *, const char *from,
	    const char *const *to);
/* The same at a given time, with a given Message-ID host (tests). */
char	*notify_mail_text_at(const struct notify_msg *, const char *from,
	    const char *const *to, time_t when, const char *idhost);

/*
 * The webhook's JSON object (schemas/webhook.schema.json): "version": 1,
 * "kind", "subject", every field of the msg (NULL strings as null,
 * "verified" a boolean, "reproduce" also split into "commands").  Heap,
 * the caller frees; one line, no newline at the end.
 */
char	*notify_webhook_json(const struct notify_msg *);

/*
 * Delivers to every target, one after the other (each within its
 * timeout); client_global_init() must have run (once, before threads).
 * A sendmail target is fork+exec'd: the caller must not reap children it
 * did not start (a SIGCHLD handler calling waitpid(-1)).  0 all delivered, -1 err names each failed target and why
 * ("webhook http://h/x: HTTP 500; smtp smtp://h:25: ..."); the others
 * were delivered.
 */
int	notify_send(const struct notify_target *, size_t n,
	    const struct notify_msg *, char *err, size_t errlen);

struct config_daemon;

/*
 * The targets of a daemon config's "notify": each webhook, then the mail
 * (smtp or sendmail).  They point into cfg, which must outlive them.
 * Heap array the caller frees; NULL with *n = 0 when there is none.
 */
struct notify_target *notify_targets(const struct config_daemon *cfg,
	    size_t *n);

/*
 * NOTIFY_PAIR_BAD of link (its hosts client and server, may be NULL; why
 * the check failed) to every target of cfg (notify_targets).  The night's
 * health checks and the daemon's both send it through here.  0 delivered
 * (or no target), -1 with err as notify_send().
 */
int	notify_pair_bad(const struct config_daemon *cfg, const char *link,
	    const char *client, const char *server, const char *why,
	    char *err, size_t errlen);

/*
 * A sample message of kind (`labrat notify test`, the README's example):
 * the em fault of the simulated lab.  Static strings.
 */
void	notify_sample(enum notify_kind, struct notify_msg *);

#endif
