/*
 * report_runs: how a run's state is shown (a controller that died leaves
 * its run "running" in the store: shown as "interrupted") and the list of
 * runs of `labrat runs`.  See report.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "util.h"

/*
 * 1 when owner ("hostname:pid", run_owner_default()) names a process on
 * this host that is gone.  An owner on another host, or one that is not of
 * that form, cannot be checked from here: 0.  A pid reused since is taken
 * for alive (the run shows "running" until resumed, as before).
 */
int
report_owner_gone(const char *owner)
{
	char		 host[256];
	const char	*colon, *errstr;
	long long	 pid;
	size_t		 hl;

	if (owner == NULL || (colon = strrchr(owner, ':')) == NULL)
		return 0;
	if (gethostname(host, sizeof host) == -1)
		return 0;
	host[sizeof host - 1] = '\0';
	/* run_owner_default() keeps at most 63 bytes of the host name. */
	hl = (size_t)(colon - owner);
	if (hl == 0 || strncmp(owner, host, hl) != 0 ||
	    (host[hl] != '\0' && hl != 63))
		return 0;
	if (util_strtonum(colon + 1, 1, INT32_MAX, &pid, &errstr) == -1)
		return 0;
	return kill((pid_t)pid, 0) == -1 && errno == ESRCH;
}

const char *
report_run_state(const struct store_run *r)
{
	if (r->state == STORE_RUN_RUNNING && report_owner_gone(r->owner))
		return "interrupted";
	return store_run_state_name(r->state);
}
