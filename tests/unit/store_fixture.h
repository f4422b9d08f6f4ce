/*
 * store_fixture.h: a throw-away store database for the tests of the store
 * and of the modules above it (detect, report): a per-process path on
 * tmpfs when there is one (a job is two fsynced transactions), its removal
 * together with the WAL files, a knob setting in one call, a cmocka group
 * setup/teardown pair around one open store, and a schedule to store.
 * Header-only (static functions) so each test program carries its own
 * copy.
 */
#ifndef LABRAT_STORE_FIXTURE_H
#define LABRAT_STORE_FIXTURE_H

#include <stdio.h>
#include <string.h>
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

/*
 * For a cmocka group's setup: a fresh store at fx_db_path(path, len, tag),
 * created and migrated, into *state.  0, or -1 (said on stderr) so the
 * group fails.  fx_store_close() is its teardown.
 */
static inline int
fx_store_open(void **state, char *path, size_t len, const char *tag)
{
	struct store	*st = NULL;
	char		 err[512];

	fx_db_path(path, len, tag);
	if (store_open(path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1) {
		fprintf(stderr, "store_open %s: %s\n", path, err);
		return -1;
	}
	*state = st;
	return 0;
}

static inline int
fx_store_close(void **state, const char *path)
{
	store_close(*state);
	fx_db_remove(path);
	return 0;
}

/* A schedule to store_sched_add(): name and cron as given, zone UTC,
 * lab.json and plan.json, a one-link plan text, all links, enabled. */
static inline struct store_sched
fx_sched(const char *name, const char *cron)
{
	struct store_sched	s;

	memset(&s, 0, sizeof s);
	s.name = (char *)name;
	s.cron = (char *)cron;
	s.tz = "UTC";
	s.inventory_path = "lab.json";
	s.plan_path = "plan.json";
	s.plan_text = "{\"links\": [\"em\"]}";
	s.links = "";
	s.enabled = 1;
	return s;
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
