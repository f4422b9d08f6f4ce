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

/* Knobs with tso, mtu and nat (NULL = not set) set, the rest unset. */
static struct store_knobs
kn(int tso, int mtu, const char *nat)
{
	struct store_knobs	k;

	store_knobs_init(&k);
	k.tso = tso;
	k.mtu = mtu;
	if (nat != NULL)
		snprintf(k.nat, sizeof k.nat, "%s", nat);
	return k;
}

#endif
