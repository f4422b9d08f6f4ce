/*
 * kernel_int.h: what the kernel module's files share.
 */
#ifndef LABRAT_KERNEL_INT_H
#define LABRAT_KERNEL_INT_H

#include <stddef.h>

#include "config.h"
#include "kernel.h"

#define DEF(v, d)	((v) > 0 ? (v) : (d))

/* kernel.c: runs cmd through io, logged as what; 0 ran (*status), -1
 * error with err naming the host and what. */
int	kernel_run(const struct kernel_io *io, const struct config_host *h,
	    const char *what, const char *cmd, int timeout_ms, struct buf *out,
	    int *status, char *err, size_t errlen);
/* kernel.c: 0 when rev is a revision id and h has a kernel provider, else
 * -1 with err. */
int	kernel_check_rev(const struct config_host *h, const char *rev,
	    char *err, size_t errlen);

/* kernel_wait.c: 0 once the session from before the reboot is gone, -1
 * at o's down timeout (err says so). */
int	kernel_wait_down(const struct config_host *h,
	    const struct kernel_opts *o, const struct kernel_io *io, char *err,
	    size_t errlen);
/* kernel_wait.c: 1 when SSH answers within o's boot timeout, else 0 (e:
 * the last error). */
int	kernel_wait_up(const struct kernel_opts *o, const struct kernel_io *io,
	    char *e, size_t elen);

#endif
