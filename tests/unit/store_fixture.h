/*
 * store_fixture.h: a throw-away store database for the tests of the modules
 * above the store (detect, report): a per-process path on tmpfs when there
 * is one (a job is two fsynced transactions), its removal together with the
 * WAL files, and a knob setting in one call.  Header-only (static
 * functions) so each test program carries its own copy.
 */
#ifndef LABRAT_STORE_FIXTURE_H
#define LABRAT_STORE_FIXTURE_H

#include <stdio.h>
#include <unistd.h>

#include "store.h"
#include "store_daemon.h"

/* path = /dev/shm (else /tmp) /lr-TAG-PID.db, with any leftover removed. */
static void
fx_db_path(char *path, size_t len, const char *tag)
{
	snprintf(path, len, "%s/lr-%s-%ld.db",
	    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", tag,
	    (long)getpid());
	unlink(path);
}

/* Removes the database and its -wal and -shm files. */
static void
fx_db_remove(const char *path)
{
	char	p[300];

	unlink(path);
	snprintf(p, sizeof p, "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", path);
	unlink(p);
}

/* Knobs with tso, mtu (0 = not set) and nat (NULL = not set) set, the
 * rest unset. */
static struct knobs
kn(int tso, int mtu, const char *nat)
{
	struct knobs	k;

	knobs_clear(&k);
	knobs_set(&k, KNOB_TSO, tso);
	knobs_set(&k, KNOB_MTU, mtu > 0 ? mtu : -1);
	if (nat != NULL)
		knobs_set(&k, KNOB_NAT, knobs_nat_from_name(nat));
	return k;
}

#endif
