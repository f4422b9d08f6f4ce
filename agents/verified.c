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
	if (nl == NULL || (nl = strchr(nl + 1, '\n')) == NULL ||
	    sscanf(nl + 1, "if %d %d %d %d %d %d %71s", &v->if_ok, &v->mtu,
	    &v->tso, &v->lro, &v->rxcsum, &v->txcsum, v->feat) != 7)
		v->if_ok = 0;
	if (nl == NULL || (nl = strchr(nl + 1, '\n')) == NULL ||
	    sscanf(nl + 1, "alt %d %d %d %d %d %71s", &v->alt_ok, &v->alt_tso,
	    &v->alt_lro, &v->alt_rxcsum, &v->alt_txcsum, v->alt_feat) != 6 ||
	    !v->if_ok)
		v->alt_ok = 0;
}

/* Writes v when it differs from old; a write that fails drops the file
 * (the next apply then verifies everything). */
void
verified_save(const char *ifname, const struct verified *v,
    const struct verified *old)
{
	char	 path[512], buf[768], err[256];
	int	 n;

	if (memcmp(v, old, sizeof(*v)) == 0)
		return;
	verified_path(path, sizeof(path), ifname);
	if (path[0] == '\0')
		return;
	n = snprintf(buf, sizeof(buf), "nat %d %llu %d %d %s\npath %d %s %d "
	    "%d\nif %d %d %d %d %d %d %s\nalt %d %d %d %d %d %s\n",
	    v->nat_ok, v->gen, v->nat, v->chains, v->nat_if[0] ? v->nat_if :
	    "-", v->path_ok, v->peer[0] ? v->peer : "-", v->path_mtu,
	    v->path_nat, v->if_ok, v->mtu, v->tso, v->lro, v->rxcsum,
	    v->txcsum, v->feat[0] ? v->feat : "-", v->alt_ok, v->alt_tso,
	    v->alt_lro, v->alt_rxcsum, v->alt_txcsum, v->alt_feat[0] ?
	    v->alt_feat : "-");
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

/* Swaps v's offloads with those of its bitmap before. */
static void
verified_swap(struct verified *v)
{
	struct verified	t = *v;

	v->tso = t.alt_tso;
	v->lro = t.alt_lro;
	v->rxcsum = t.alt_rxcsum;
	v->txcsum = t.alt_txcsum;
	memcpy(v->feat, t.alt_feat, sizeof(v->feat));
	v->alt_tso = t.tso;
	v->alt_lro = t.lro;
	v->alt_rxcsum = t.rxcsum;
	v->alt_txcsum = t.txcsum;
	memcpy(v->alt_feat, t.feat, sizeof(v->alt_feat));
}

/* v's offloads and MTU from k (read after the bitmap feat was taken); the
 * offloads of another bitmap read before become the ones before. */
static void
verified_note_if(struct verified *v, int have, const char *feat,
    const struct osdep_knobs *k)
{
	if (v->if_ok && have && strcmp(v->feat, feat) != 0) {
		v->alt_ok = 1;
		v->alt_tso = v->tso;
		v->alt_lro = v->lro;
		v->alt_rxcsum = v->rxcsum;
		v->alt_txcsum = v->txcsum;
		memcpy(v->alt_feat, v->feat, sizeof(v->alt_feat));
	} else if (!have)
		v->alt_ok = 0;
	v->if_ok = have;
	memset(v->feat, 0, sizeof(v->feat));
	if (have)
		snprintf(v->feat, sizeof(v->feat), "%s", feat);
	v->mtu = k->mtu;
	v->tso = k->tso;
	v->lro = k->lro;
	v->rxcsum = k->rxcsum;
	v->txcsum = k->txcsum;
}

/*
 * What is in force on ifname: its NAT as v has it when that still stands
 * (the ruleset's generation did not move: nothing to run for it), its
 * offloads as v has them while the features bitmap is the one v read them
 * at (no ethtool -k; the MTU from the same sysfs read), else read in full
 * and v updated (the generation and the bitmap taken before the read: a
 * change meanwhile leaves v behind, read again next time).  *cached:
 * VERIFIED_* of what came from v.
 */
int
verified_read(const char *ifname, const char *nat_if, struct verified *v,
    struct osdep_knobs *k, struct osdep_probe *pr, int *cached, char *err,
    size_t errlen)
{
	const struct osdep_dialect *d = osdep_host();
	unsigned long long g = 0;
	char	 feat[OSDEP_FEATHEX];
	int	 rc, have_gen, have_st, mtu;

	have_gen = d->nat_gen != NULL && d->read_if != NULL &&
	    d->nat_gen(&g) == 0;
	have_st = d->ifstate != NULL && d->read_if != NULL &&
	    !osdep_runner_set() && d->ifstate(ifname, &mtu, feat,
	    sizeof(feat)) == 0;
	*cached = 0;
	if (have_gen && v->nat_ok && v->gen == g &&
	    strcmp(v->nat_if, nat_if) == 0)
		*cached |= VERIFIED_NAT;
	/* The bitmap before is back (a knob flipped back): its offloads. */
	if ((*cached & VERIFIED_NAT) && have_st && v->if_ok && v->alt_ok &&
	    strcmp(v->feat, feat) != 0 && strcmp(v->alt_feat, feat) == 0)
		verified_swap(v);
	if ((*cached & VERIFIED_NAT) && have_st && v->if_ok &&
	    strcmp(v->feat, feat) == 0) {
		*cached |= VERIFIED_IF;
		osdep_knobs_unset(k);
		memset(pr, 0, sizeof(*pr));
		k->mtu = v->mtu = mtu;
		k->tso = v->tso;
		k->lro = v->lro;
		k->rxcsum = v->rxcsum;
		k->txcsum = v->txcsum;
	} else if (*cached & VERIFIED_NAT) {
		if ((rc = d->read_if(ifname, k, pr, err, errlen)) != 0)
			return rc;
		verified_note_if(v, have_st, feat, k);
	}
	if (*cached & VERIFIED_NAT) {
		k->nat = v->nat;
		snprintf(k->nat_if, sizeof(k->nat_if), "%s", nat_if);
		pr->nft_chains = v->chains;
		return AGENT_EXIT_OK;
	}
	if ((rc = d->read(ifname, nat_if, k, pr, err, errlen)) != 0)
		return rc;
	verified_note_if(v, have_st, feat, k);
	v->nat_ok = have_gen;
	v->gen = g;
	v->nat = k->nat;
	v->chains = pr->nft_chains;
	snprintf(v->nat_if, sizeof(v->nat_if), "%s", nat_if);
	return AGENT_EXIT_OK;
}

const char *
verified_check(const char *ifname)
{
	const struct osdep_dialect *d = osdep_host();
	struct verified v;
	unsigned long long g = 0;
	char	 feat[OSDEP_FEATHEX];
	int	 mtu;

	verified_load(ifname, &v);
	if (!v.if_ok || !v.nat_ok || d->ifstate == NULL ||
	    d->nat_gen == NULL || osdep_runner_set() || d->ifstate(ifname,
	    &mtu, feat, sizeof(feat)) == -1 || d->nat_gen(&g) == -1)
		return "unknown";
	if (mtu == v.mtu && strcmp(feat, v.feat) == 0 && g == v.gen)
		return "stands";
	emit_progress("%s: moved since its last apply:%s%s%s", ifname,
	    mtu != v.mtu ? " mtu" : "", strcmp(feat, v.feat) != 0 ?
	    " offloads" : "", g != v.gen ? " nft ruleset" : "");
	return "moved";
}
