/*
 * verified.c: what the applies since an interface's original was saved
 * verified besides its knobs (verified.h), kept in STATEDIR/verified/IF.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "emit.h"
#include "osdep.h"
#include "state.h"
#include "verified.h"

static void
verified_path(char *buf, size_t len, const char *ifname)
{
	if (state_path(buf, len, "verified", ifname) == -1)
		buf[0] = '\0';
}

void
verified_load(const char *ifname, struct verified *v)
{
	char	 path[512], buf[512], *nl;

	memset(v, 0, sizeof(*v));
	verified_path(path, sizeof(path), ifname);
	if (path[0] == '\0' || osdep_read_small(path, buf, sizeof(buf)) == -1)
		return;
	if (sscanf(buf, "nat %d %llu %d %d %15s", &v->nat_ok, &v->gen,
	    &v->nat, &v->chains, v->nat_if) != 5)
		v->nat_ok = 0;
	if ((nl = strchr(buf, '\n')) == NULL || sscanf(nl + 1,
	    "path %d %63s %d %d", &v->path_ok, v->peer, &v->path_mtu,
	    &v->path_nat) != 4)
		v->path_ok = 0;
}

/* Writes v when it differs from old; a write that fails drops the file
 * (the next apply then verifies everything). */
void
verified_save(const char *ifname, const struct verified *v,
    const struct verified *old)
{
	char	 path[512], buf[512], err[256];
	int	 n;

	if (memcmp(v, old, sizeof(*v)) == 0)
		return;
	verified_path(path, sizeof(path), ifname);
	if (path[0] == '\0')
		return;
	n = snprintf(buf, sizeof(buf), "nat %d %llu %d %d %s\npath %d %s %d "
	    "%d\n", v->nat_ok, v->gen, v->nat, v->chains, v->nat_if[0] ?
	    v->nat_if : "-", v->path_ok, v->peer[0] ? v->peer : "-",
	    v->path_mtu, v->path_nat);
	if (state_mkdir("verified", err, sizeof(err)) == -1 ||
	    state_write_atomic(path, buf, (size_t)n, 0600, err,
	    sizeof(err)) == -1) {
		emit_progress("%s: %s", ifname, err);
		unlink(path);
	}
}

void
verified_remove(const char *ifname)
{
	char	 path[512];

	verified_path(path, sizeof(path), ifname);
	if (path[0] != '\0')
		unlink(path);
}

/*
 * What is in force on ifname: its NAT as v has it when that still stands
 * (the ruleset's generation did not move: nothing to run for it), else
 * read in full and v updated (the generation taken before the read: a
 * change meanwhile leaves v behind, read again next time).  *cached: 1
 * when NAT came from v.
 */
int
verified_read(const char *ifname, const char *nat_if, struct verified *v,
    struct osdep_knobs *k, struct osdep_probe *pr, int *cached, char *err,
    size_t errlen)
{
	const struct osdep_dialect *d = osdep_host();
	unsigned long long g = 0;
	int	 rc, have_gen;

	have_gen = d->nat_gen != NULL && d->read_if != NULL &&
	    d->nat_gen(&g) == 0;
	*cached = have_gen && v->nat_ok && v->gen == g &&
	    strcmp(v->nat_if, nat_if) == 0;
	if (*cached) {
		if ((rc = d->read_if(ifname, k, pr, err, errlen)) != 0)
			return rc;
		k->nat = v->nat;
		snprintf(k->nat_if, sizeof(k->nat_if), "%s", nat_if);
		pr->nft_chains = v->chains;
		return AGENT_EXIT_OK;
	}
	if ((rc = d->read(ifname, nat_if, k, pr, err, errlen)) != 0)
		return rc;
	v->nat_ok = have_gen;
	v->gen = g;
	v->nat = k->nat;
	v->chains = pr->nft_chains;
	snprintf(v->nat_if, sizeof(v->nat_if), "%s", nat_if);
	return AGENT_EXIT_OK;
}
