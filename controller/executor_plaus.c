/*
 * executor_plaus: the last word on a workload's result before it becomes
 * samples (see executor_int.h).  A figure the tool cannot have measured is
 * refused: a report that is not exact, no bytes, a rate that is not bytes
 * x 8 / seconds, a duration far from the one asked, a throughput above the
 * link's speed (the lowest of what both ends report and what the inventory
 * declares), or more bytes than the receiver's interface took in.  A
 * refused result is a failed job with the reason, never a sample.
 *
 * exec_plaus_check() is pure (a table-driven unit test covers it); the
 * exec_plaus_iperf()/exec_plaus_scp() wrappers fill its input from the
 * job's link, the hosts' facts and the agent's replies.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "executor_int.h"
#include "util.h"

#define MBIT	1e6

/* The lowest link speed of p's sources, 0 when none gives one; the
 * sources that gave one are listed into why ("em-a em0 10000, ..."). */
static long long
plaus_speed(const struct exec_plaus *p, char *why, size_t len)
{
	long long	min = 0, decl = 0, v;
	size_t		i, off = 0;
	int		ndecl = 0, same = 1;

	why[0] = '\0';
	for (i = 0; i < 2; i++) {
		v = p->ends[i].reported_mbps;
		if (v <= 0)
			continue;
		if (min == 0 || v < min)
			min = v;
		if (off < len)
			off += (size_t)snprintf(why + off, len - off, "%s%s %s "
			    "%lld", off > 0 ? ", " : "", p->ends[i].host,
			    p->ends[i].ifname, v);
	}
	for (i = 0; i < 2; i++) {
		v = p->ends[i].declared_mbps;
		if (v <= 0)
			continue;
		if (ndecl++ > 0 && v != decl)
			same = 0;
		if (decl == 0 || v < decl)
			decl = v;
	}
	if (decl > 0 && (min == 0 || decl < min))
		min = decl;
	/* One inventory figure when both ends declare the same (the usual
	 * case), each end's otherwise. */
	for (i = 0; i < 2 && decl > 0; i++) {
		v = p->ends[i].declared_mbps;
		if (v <= 0 || off >= len)
			continue;
		if (same)
			off += (size_t)snprintf(why + off, len - off,
			    "%sinventory %lld", off > 0 ? ", " : "", v);
		else
			off += (size_t)snprintf(why + off, len - off,
			    "%sinventory %s %s %lld", off > 0 ? ", " : "",
			    p->ends[i].host, p->ends[i].ifname, v);
		if (same)
			break;
	}
	return min;
}

/* The receiver's side: its interface took in at least what the tool
 * counts (headers only make it more), less a small allowance for data
 * still in flight when the sender's tool reported. */
static int
plaus_rx(const struct exec_plaus *p, char *reason, size_t rlen)
{
	double	delta, slack;

	if (!p->check_rx)
		return 0;
	if (!p->rx_ok || p->rx_before < 0 || p->rx_after < 0) {
		util_seterr(reason, rlen, "%s: %s's receive counters of %s "
		    "could not be read around the run: the %.0f bytes %s "
		    "reported cannot be confirmed", p->link, p->rx_host,
		    p->rx_if, p->bytes, p->tool);
		return -1;
	}
	if (p->rx_after < p->rx_before) {
		util_seterr(reason, rlen, "%s: %s %s rx bytes went backwards "
		    "during the run (%lld -> %lld: counters reset)", p->link,
		    p->rx_host, p->rx_if, p->rx_before, p->rx_after);
		return -1;
	}
	delta = (double)(p->rx_after - p->rx_before);
	slack = p->bytes * EXEC_PLAUS_RX_FRAC + p->rx_slack;
	if (delta + slack < p->bytes) {
		util_seterr(reason, rlen, "%s: %s reported %.0f bytes, but %s "
		    "%s received only %.0f bytes during the run (rx counters "
		    "before/after)", p->link, p->tool, p->bytes, p->rx_host,
		    p->rx_if, delta);
		return -1;
	}
	return 0;
}

/* Exact, positive, self-consistent figures over the time asked. */
static int
plaus_figures(const struct exec_plaus *p, char *reason, size_t rlen)
{
	double	calc;

	if (p->exact == 0) {
		util_seterr(reason, rlen, "%s: %s's report is not exact (its "
		    "text rounds to 3 significant digits): not stored",
		    p->link, p->tool);
		return -1;
	}
	if (p->exact < 0) {
		util_seterr(reason, rlen, "%s: %s's result does not say that "
		    "its figures are exact: not stored", p->link, p->tool);
		return -1;
	}
	if (!isfinite(p->bytes) || !isfinite(p->seconds) ||
	    !isfinite(p->bps) || p->bytes <= 0 || p->seconds <= 0 ||
	    p->bps <= 0) {
		util_seterr(reason, rlen, "%s: %s reported %.0f bytes in %g s "
		    "at %.1f Mbit/s: no measurement", p->link, p->tool,
		    p->bytes, p->seconds, p->bps / MBIT);
		return -1;
	}
	calc = p->bytes * 8.0 / p->seconds;
	if (fabs(p->bps - calc) > calc * EXEC_PLAUS_BPS_TOL) {
		util_seterr(reason, rlen, "%s: %s reported %.1f Mbit/s, but its "
		    "%.0f bytes in %.6f s are %.1f Mbit/s", p->link, p->tool,
		    p->bps / MBIT, p->bytes, p->seconds, calc / MBIT);
		return -1;
	}
	if (p->time > 0 && (p->seconds < p->time * 0.95 - 0.5 ||
	    p->seconds > p->time * 1.2 + 2.0)) {
		util_seterr(reason, rlen, "%s: %s measured %.3f s of the %g s "
		    "asked", p->link, p->tool, p->seconds, p->time);
		return -1;
	}
	if (p->size > 0 && p->bytes != p->size) {
		util_seterr(reason, rlen, "%s: %s reported %.0f bytes of a "
		    "%.0f-byte file", p->link, p->tool, p->bytes, p->size);
		return -1;
	}
	if (p->check_remote && p->remote_bytes != (long long)p->bytes) {
		if (p->remote_bytes < 0)
			util_seterr(reason, rlen, "%s: %s: the size of the copy "
			    "on %s could not be read: the %.0f bytes cannot be "
			    "confirmed", p->link, p->tool, p->rx_host, p->bytes);
		else
			util_seterr(reason, rlen, "%s: %s: %s holds %lld of the "
			    "%.0f bytes sent", p->link, p->tool, p->rx_host,
			    p->remote_bytes, p->bytes);
		return -1;
	}
	return 0;
}

int
exec_plaus_check(const struct exec_plaus *p, char *reason, size_t rlen)
{
	char		why[512];
	long long	speed;

	if (plaus_figures(p, reason, rlen) == -1)
		return -1;
	speed = plaus_speed(p, why, sizeof why);
	if (speed > 0 && p->bps > (double)speed * MBIT *
	    (1.0 + EXEC_PLAUS_SPEED_TOL)) {
		util_seterr(reason, rlen, "%s: %s reported %.1f Mbit/s, above "
		    "the link speed %lld Mbit/s (lowest of %s)", p->link,
		    p->tool, p->bps / MBIT, speed, why);
		return -1;
	}
	return plaus_rx(p, reason, rlen);
}

long long
exec_plaus_nic_speed(const struct agentctl_facts *f, const char *ifname)
{
	size_t	i;

	for (i = 0; i < f->nnics; i++)
		if (strcmp(f->nics[i].name, ifname) == 0)
			return f->nics[i].speed_mbps;
	return AGENTCTL_NONE;
}

/* What h reported as the speed of ifname in its facts of this drain. */
static long long
plaus_host_speed(const struct exec_host *h, const char *ifname)
{
	size_t	i;

	for (i = 0; i < h->nfacts; i++)
		if (strcmp(h->facts_if[i], ifname) == 0)
			return h->facts_speed[i];
	return AGENTCTL_NONE;
}

/* The link's ends into p: [0] the client (sender), [1] the server. */
static void
plaus_ends(const struct exec_worker *w, const struct config_workload *wl,
    struct exec_plaus *p)
{
	const struct config_link	*l = w->link;
	const struct config_endpoint	*ep;
	const struct config_nic		*cn;
	const struct exec_host		*h;
	size_t				 i;

	memset(p, 0, sizeof *p);
	p->link = l->name;
	p->tool = config_tool_name(wl->tool);
	for (i = 0; i < 2; i++) {
		ep = i == 0 ? &l->client : &l->server;
		h = &w->ex->hosts[ep->host_index];
		p->ends[i].host = h->cfg->name;
		p->ends[i].ifname = ep->ifname;
		p->ends[i].reported_mbps = plaus_host_speed(h, ep->ifname);
		cn = config_host_nic(h->cfg, ep->ifname);
		p->ends[i].declared_mbps = cn != NULL ? cn->speed_mbps : 0;
	}
	p->rx_host = p->ends[1].host;
	p->rx_if = p->ends[1].ifname;
}

int
exec_plaus_iperf(const struct exec_worker *w, const struct config_workload *wl,
    const struct agentctl_iperf *ip, const struct agentctl_ifsnap *before,
    const struct agentctl_ifsnap *after, char *reason, size_t rlen)
{
	struct exec_plaus	p;

	plaus_ends(w, wl, &p);
	p.exact = ip->exact;
	p.bytes = ip->bytes;
	p.seconds = ip->seconds;
	p.bps = ip->bps;
	p.time = wl->time;
	p.check_rx = 1;
	p.rx_slack = wl->tool == CONFIG_TOOL_IPERF2 ? wl->parallel *
	    EXEC_PLAUS_INFLIGHT_STREAM : EXEC_PLAUS_INFLIGHT_READ;
	p.rx_ok = before != NULL && after != NULL && before->has_counters &&
	    after->has_counters;
	p.rx_before = p.rx_ok ? before->c.rx_bytes : -1;
	p.rx_after = p.rx_ok ? after->c.rx_bytes : -1;
	return exec_plaus_check(&p, reason, rlen) == 0 ? EXEC_OK :
	    EXEC_MEASURED;
}

int
exec_plaus_scp(const struct exec_worker *w, const struct config_workload *wl,
    const struct agentctl_scp *sc, char *reason, size_t rlen)
{
	struct exec_plaus	p;

	plaus_ends(w, wl, &p);
	p.exact = 1;	/* the file's size and the agent's clock */
	p.bytes = sc->bytes;
	p.seconds = sc->seconds;
	p.bps = sc->bps;
	p.size = (double)wl->size_bytes;
	p.check_remote = 1;
	p.remote_bytes = sc->remote_bytes;
	return exec_plaus_check(&p, reason, rlen) == 0 ? EXEC_OK :
	    EXEC_MEASURED;
}
