/*
 * kernel_wait: waiting out a reboot: the old system going down, the new
 * one's sshd answering, probed at a pace that follows the time waited.
 */
#include <stdint.h>

#include "config.h"
#include "kernel.h"
#include "kernel_int.h"
#include "util.h"

#define KERNEL_POLL_MIN_MS	10	/* the shortest pause between probes */
#define KERNEL_POLL_SHARE	50	/* pause: 1/50 of the time waited */

/*
 * Between two probes of a reboot: a fiftieth of the time waited so far,
 * at least KERNEL_POLL_MIN_MS and at most the poll interval, counted from
 * the start of the probe that just failed (one that took long, a connect
 * that timed out, is not followed by a pause too).  A host is seen going
 * down or answering within ~2 % of its reboot's time, not a fixed interval
 * late, and a host that takes minutes is not probed more than
 * 1000 / poll_ms times a second.
 */
static void
poll_pause(const struct kernel_opts *o, const struct kernel_io *io,
    int64_t since, int64_t probe_start)
{
	int64_t	now = io->now_ms(io->arg), pause, left;

	pause = (now - since) / KERNEL_POLL_SHARE;
	if (pause < KERNEL_POLL_MIN_MS)
		pause = KERNEL_POLL_MIN_MS;
	if (pause > DEF(o->poll_ms, 250))
		pause = DEF(o->poll_ms, 250);
	left = probe_start + pause - now;
	if (left > 0)
		io->sleep_ms(io->arg, (int)left);
}

/* 0 once the session from before the reboot is gone, -1 at the deadline. */
int
kernel_wait_down(const struct config_host *h, const struct kernel_opts *o,
    const struct kernel_io *io, char *err, size_t errlen)
{
	int64_t	start = io->now_ms(io->arg), probe,
		end = start + DEF(o->down_timeout_s, 120) * (int64_t)1000;

	do {
		probe = io->now_ms(io->arg);
		if (!io->alive(io->arg, 2000))
			return 0;
		poll_pause(o, io, start, probe);
	} while (io->now_ms(io->arg) < end);
	util_seterr(err, errlen, "%s: still up %d s after the reboot command",
	    h->name, DEF(o->down_timeout_s, 120));
	return -1;
}

/* 1 when SSH answers within the boot timeout, else 0 (e: last error). */
int
kernel_wait_up(const struct kernel_opts *o, const struct kernel_io *io, char *e,
    size_t elen)
{
	int64_t	start = io->now_ms(io->arg), end = start +
		    DEF(o->boot_timeout_s, 300) * (int64_t)1000;
	int64_t	left, probe;
	int	ctmo = DEF(o->connect_timeout_s, 10) * 1000;

	for (;;) {
		probe = io->now_ms(io->arg);
		left = end - probe;
		if (left <= 0)
			return 0;
		if (io->connect(io->arg, left < ctmo ? (int)left : ctmo, e,
		    elen) == 0)
			return 1;
		poll_pause(o, io, start, probe);
	}
}
