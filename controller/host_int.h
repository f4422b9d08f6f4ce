/*
 * host_int.h: what the host module's files share (host.c: sessions and
 * the agent; host_lease.c: the host lease; host_survey.c: a whole
 * inventory).  Nothing outside the host module includes it.
 */
#ifndef LABRAT_HOST_INT_H
#define LABRAT_HOST_INT_H

#include <stddef.h>
#include <stdint.h>

#include "host.h"

/* A host's lease as this controller last saw it. */
struct host_lease_state {
	const struct host_lease_id *id;	/* NULL: no lease wanted */
	int		held;
	int64_t		expires_ms;	/* our clock: when it runs out */
	int		defer;		/* a new session's take is folded */
	int		pending;	/* ... and not made yet */
};

/* The host's lease state (host.c owns it, host_lease.c keeps it). */
struct host_lease_state *host_lease_state(struct host *);

/*
 * After a new session with the agent deployed: names the agent handle's
 * owner and takes (or renews) the lease.  A no-op without a lease id.
 * 0 or -1 with err ("em-a: leased by ...").
 */
int	host_lease_on_session(struct host *, char *err, size_t errlen);

#endif
