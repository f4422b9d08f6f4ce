/*
 * kernel_int.h: what the kernel module's files share.
 */
#ifndef LABRAT_KERNEL_INT_H
#define LABRAT_KERNEL_INT_H

#include <stddef.h>

#include "config.h"
#include "kernel.h"

#define DEF(v, d)	((v) > 0 ? (v) : (d))

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
