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
	int		open;		/* ... by an `open`, the agent unchecked */
};

/* The host's lease state (host.c owns it, host_lease.c keeps it). */
struct host_lease_state *host_lease_state(struct host *);

/*
 * After a new session with the agent deployed: names the agent handle's
 * owner and takes (or renews) the lease.  A no-op without a lease id.
 * 0 or -1 with err ("em-a: leased by ...").
 */
int	host_lease_on_session(struct host *, char *err, size_t errlen);

/* `lease take` of the host's lease id with its NULL (args[0] "lease",
 * args[1] "take"); pid and ttl are the number buffers args point into. */
#define HOST_LEASE_ARGS	13
void	host_lease_take_args(struct host *, const char **args, char pid[24],
	    char ttl[16]);

/*
 * host_lease_on_session() after an open (agentctl_deploy_open()): a lease
 * part the agent answered is noted, a refusal or no part at all is taken
 * the usual way (a dead owner's lease taken over, a refusal said).
 */
int	host_lease_on_open(struct host *, const struct agentctl_open *,
	    char *err, size_t errlen);

/* opts.facts_if (NULL: none). */
const char *host_opened_if(struct host *);
/* Keeps the facts part of o for the next host_facts() and frees o. */
void	host_opened_keep(struct host *, struct agentctl_open *o);

#endif
