/*
 * kernel: puts a kernel revision on a lab host and proves it runs.
 *
 * Providers, chosen per host by the inventory's "kernel":
 *  - command: the inventory's install / reboot / verify templates with {rev}
 *    and {host} substituted (config_template_expand) and every element
 *    shell-quoted before it goes over SSH; verify prints the running
 *    revision on its first line (the simulated lab uses this one);
 *  - freebsd-src: on the host, check the revision out in the source tree
 *    (git when SRC/.git exists, else svn), `make buildkernel`, `make
 *    installkernel KODIR=/boot/KODIR`, `nextboot -k KODIR`, `shutdown -r
 *    now` (a kernel that panics falls back to the default one at the next
 *    power cycle); verified with `sysctl -n kern.bootfile` and `uname -v`;
 *  - linux: the install template, then the reboot template (default
 *    `shutdown -r now`; use grub-reboot or kexec there); verified with the
 *    verify template when given, else `uname -r` and /proc/version.
 *
 * After the reboot command the session opened before it must die (the old
 * system went down), then SSH must answer again within the boot timeout;
 * both are probed with a pause of 1/50 of the time waited so far (10 ms
 * to poll_ms), so a reboot is followed within ~2 % of its time.  A
 * host that does not is power-cycled with its power hook (host "power": a
 * command on the controller, no shell, or an HTTP request through client.c;
 * else the kernel's power_cycle template run on the controller) and waited
 * for again.  A build or install failure is KERNEL_UNBUILDABLE, a host that
 * needed the power hook or runs another kernel afterwards
 * KERNEL_UNBOOTABLE: both are a bisect's skip.  -1 is for what no revision
 * explains (host unreachable before installing, checkout of an unknown
 * revision, a host lost even after a power cycle).
 *
 * The sequencing is pure over struct kernel_io (run a command, probe the
 * old session, reconnect, power-cycle, clock), so tests replay it against
 * golden command lists; kernel_install_host() is the SSH implementation.
 */
#ifndef LABRAT_KERNEL_H
#define LABRAT_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "util.h"

#define KERNEL_LOG	"/var/tmp/labrat-kernel.log"	/* freebsd-src build log */
#define KERNEL_OUT_MAX	(256 * 1024)	/* stdout+stderr kept per command */

enum kernel_result {
	KERNEL_OK = 0,		/* the host runs the revision asked for */
	KERNEL_UNBUILDABLE,	/* install or build failed: skip */
	KERNEL_UNBOOTABLE,	/* did not come back by itself / other kernel */
};

/* Timeouts in seconds; 0 takes the default in brackets. */
struct kernel_opts {
	int	connect_timeout_s;	/* one SSH attempt, verify [10] */
	int	install_timeout_s;	/* build + install [7200] */
	int	down_timeout_s;		/* old sessions must die [120] */
	int	boot_timeout_s;		/* SSH back, each wait [300] */
	int	power_timeout_s;	/* the power hook [60] */
	int	poll_ms;		/* longest pause between probes
					   [250]; shorter early on */
};

struct kernel_outcome {
	enum kernel_result	 result;
	int			 power_cycled;
	int64_t			 install_ms;
	int64_t			 boot_ms;
	char			 running[128];	/* what verify saw */
	char			 detail[2048];	/* build log tail, reason */
};

/*
 * How kernel_switch() reaches the host.  exec runs a shell command line on
 * the host: 0 when it ran (*status = exit status, -1 for a signal; stdout
 * and stderr appended to out), -1 when it could not run or the session
 * dropped.  alive: 1 while the session opened before the reboot answers.
 * connect: opens a new session, 0 or -1.  power: runs the power hook.
 */
struct kernel_io {
	void	*arg;
	int	(*exec)(void *arg, const char *cmd, int timeout_ms,
		    struct buf *out, int *status, char *err, size_t errlen);
	int	(*alive)(void *arg, int timeout_ms);
	int	(*connect)(void *arg, int timeout_ms, char *err,
		    size_t errlen);
	int	(*power)(void *arg, char *err, size_t errlen);
	void	(*sleep_ms)(void *arg, int ms);
	int64_t	(*now_ms)(void *arg);
	/* NULL or a shell command the reboot command runs after, with
	 * "&&": the host lease's renew --extend (host_lease_gate_command()),
	 * so only the lease's holder reboots and the lease covers it. */
	const char *reboot_gate;
};

/*
 * Installs rev on host h through io, reboots and verifies; fills out.
 * Returns 0 (see out->result) or -1 with err naming the host, the step and
 * the cause.
 */
int	kernel_switch(const struct config_host *h, const char *rev,
	    const struct kernel_opts *, const struct kernel_io *io,
	    struct kernel_outcome *out, char *err, size_t errlen);

/*
 * kernel_switch() over SSH (a session from host_open(), renewed with
 * host_reconnect() after the reboot), then makes sure the agent is
 * deployed on the rebooted host.  Thread-safe for
 * different hosts (ssh_global_init() first).  Same returns.
 */
int	kernel_install_host(const struct config_host *h, const char *rev,
	    const struct kernel_opts *, struct kernel_outcome *out, char *err,
	    size_t errlen);

struct host;
/*
 * kernel_install_host() on a session the caller holds (an executor's, so
 * that its measurements after the reboot need no new handshake).  When the
 * session holds the host lease, the lease is extended (--extend) over
 * install, down, boot (twice) and power-cycle timeouts before the install
 * and again, as the reboot command's gate, over the rest; the
 * new system's session takes it again (a fresh /var loses it).  The
 * install runs on it, the old system's death shows as the session being
 * re-established, the new system's session replaces it (host_reconnect()
 * or the probe's revival; the agent is deployed with it, as the host's
 * options say), and h stays the caller's.  Same returns.
 */
int	kernel_install_on(struct host *h, const char *rev,
	    const struct kernel_opts *, struct kernel_outcome *out, char *err,
	    size_t errlen);

/*
 * The revision h runs now, from its verify template (command, or linux
 * with one) when that does not need {rev}; into rev.  0, or -1 with err
 * (freebsd-src and linux without a verify template cannot tell).  h is
 * borrowed.
 */
int	kernel_running(struct host *h, const struct kernel_opts *,
	    char *rev, size_t revlen, char *err, size_t errlen);

/*
 * Runs the host's power hook from the controller: the "power" command
 * (argv, {host} substituted, no shell) or URL request, else the kernel's
 * power_cycle template.  0, or -1 with err (no hook, non-zero exit, HTTP
 * status >= 300, timeout).
 */
int	kernel_power_cycle(const struct config_host *h, int timeout_s,
	    char *err, size_t errlen);

/*
 * The shell command line of phase ("install", "reboot", "verify") of the
 * command/linux template, or of a freebsd-src step; heap string, NULL with
 * err.  For tests and `bisect` dry runs.
 */
char	*kernel_template_command(const struct config_argv *tmpl,
	    const char *rev, const char *host, char *err, size_t errlen);

/*
 * 1 when text names revision rev as a word: rev itself, rev + "M" (svn's
 * modified tree), "r" + rev for a bare number, or a git hash prefix of at
 * least 7 digits of a hex rev.
 */
int	kernel_text_names_rev(const char *text, const char *rev);

const char *kernel_result_name(enum kernel_result);

#endif
