/*
 * state.h: the agent's files below its state directory (PROTOCOL.md "State
 * on the host"): the saved original of an interface, per-interface locks,
 * and paths for keys, servers and natd.
 */
#ifndef LABRAT_AGENT_STATE_H
#define LABRAT_AGENT_STATE_H

#include <stddef.h>

#include "osdep.h"

/* LABRAT_AGENT_STATE, else /var/db/labrat (FreeBSD) or /var/lib/labrat. */
const char *state_dir(void);
/* Creates STATEDIR/sub (mode 0700, parents too).  0 or -1 with err. */
int	state_mkdir(const char *sub, char *err, size_t errlen);
/* STATEDIR/sub/name into buf; -1 if it does not fit. */
int	state_path(char *buf, size_t len, const char *sub, const char *name);

struct state_saved {
	char	 ifname[OSDEP_IFNAMSIZ];
	char	 os[16];
	long long saved_at;		/* epoch seconds */
	struct osdep_knobs knobs;	/* the original, never overwritten */
	unsigned loaded;		/* OSDEP_LOADED_* labrat loaded since */
};

/* 0 with *found = 0/1, or -1 with err (unreadable or corrupt file). */
int	state_load(const char *ifname, struct state_saved *, int *found,
	    char *err, size_t errlen);
/* Writes state/IF.json atomically (temp + fsync + rename). */
int	state_save(const struct state_saved *, char *err, size_t errlen);
int	state_remove(const char *ifname, char *err, size_t errlen);
/* Serialises apply/restore/confirm/timer on one interface: an fd to pass
 * to state_unlock(), or -1 with err. */
int	state_lock(const char *ifname, char *err, size_t errlen);
void	state_unlock(int);

/* Writes data to path atomically with mode. 0 or -1 with err. */
int	state_write_atomic(const char *path, const char *data, size_t len,
	    int mode, char *err, size_t errlen);

#endif
