/*
 * osdep_freebsd.c: the FreeBSD dialect.  Everything is done with the base
 * system's commands (ifconfig, sysctl, kldstat/kldload, ipfw, natd, pciconf,
 * netstat, ps), run through the osdep runner, so this file compiles and is
 * tested on any POSIX system.
 *
 * ipfw safety (REFERENCE §2): loading ipfw.ko with the default rule "deny"
 * would cut the controller's SSH session, so when labrat loads ipfw it first
 * sets the loader tunable default_to_accept with kenv and adds an allow-all
 * rule 65000 right after.  It never runs `ipfw flush`; it only adds and
 * deletes its own rule 50 and NAT instance 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "osdep.h"

#define FBSD_RULE	"50"
#define FBSD_NATID	"1"

static int
fbsd_run(char *const argv[], struct exec_result *r, char *err, size_t errlen)
{
	if (osdep_run(argv, EXEC_TIMEOUT_DEFAULT, r, err, errlen) == -1)
		return -1;
	return (r->exited && r->status == 0) ? 0 : 1;
}

/* Exit status 0 of a probe command: 1, else 0. */
static int
fbsd_true(char *const argv[])
{
	struct exec_result r;
	char	 err[128];
	int	 rc;

	rc = fbsd_run(argv, &r, err, sizeof(err));
	exec_free(&r);
	return rc == 0;
}

/*
 * Classifies `ipfw list 50` output for nat_if: sets *nat to what labrat's
 * rule does there, *foreign when rule 50 is something else.
 */
void
osdep_freebsd_rule(const char *text, const char *nat_if, int *nat,
    int *foreign)
{
	char	 divert[128], kern[128];
	const char *line;

	*nat = OSDEP_NAT_OFF;
	*foreign = 0;
	snprintf(divert, sizeof(divert), " ip4 from any to any via %s",
	    nat_if);
	snprintf(kern, sizeof(kern), "nat " FBSD_NATID
	    " ip4 from any to any via %s", nat_if);
	for (line = text; line != NULL && *line != '\0';
	    line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		size_t	n = strcspn(line, "\n");
		char	l[256];

		if (n == 0 || n >= sizeof(l))
			continue;
		memcpy(l, line, n);
		l[n] = '\0';
		while (n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\r'))
			l[--n] = '\0';
		if (strncmp(l, "00050 ", 6) != 0)
			continue;
		if (strncmp(l + 6, "divert ", 7) == 0 &&
		    strstr(l, divert) != NULL &&
		    strcmp(strstr(l, divert), divert) == 0)
			*nat = OSDEP_NAT_DIVERT;
		else if (strcmp(l + 6, kern) == 0)
			*nat = OSDEP_NAT_KERNEL;
		else
			*foreign = 1;
	}
}

static int
fbsd_read(const char *ifname, const char *nat_if, struct osdep_knobs *k,
    struct osdep_probe *pr, char *err, size_t errlen)
{
	struct parse_ifconfig ic;
	struct exec_result r;
	char	*ifc[] = { "ifconfig", "-m", (char *)ifname, NULL };
	char	*tso[] = { "sysctl", "-n", "net.inet.tcp.tso", NULL };
	char	*km_ipfw[] = { "kldstat", "-q", "-m", "ipfw", NULL };
	char	*km_div[] = { "kldstat", "-q", "-m", "ipdivert", NULL };
	char	*km_nat[] = { "kldstat", "-q", "-m", "ipfw_nat", NULL };
	char	*list[] = { "ipfw", "list", FBSD_RULE, NULL };
	int	 rc;

	osdep_knobs_unset(k);
	memset(pr, 0, sizeof(*pr));
	pr->nft_chains = -1;
	if ((rc = fbsd_run(ifc, &r, err, errlen)) != 0) {
		if (rc == 1)
			snprintf(err, errlen, "ifconfig -m %s: exited %d: %.120s",
			    ifname, r.status, r.err);
		exec_free(&r);
		return AGENT_EXIT_COMMAND;
	}
	if (parse_ifconfig(r.out, r.outlen, ifname, &ic, err, errlen) == -1) {
		exec_free(&r);
		return AGENT_EXIT_PARSE;
	}
	exec_free(&r);
	k->tso = ic.tso4;
	k->lro = ic.lro;
	k->rxcsum = ic.rxcsum;
	k->txcsum = ic.txcsum;
	k->mtu = ic.mtu;
	if (fbsd_run(tso, &r, err, errlen) == 0)
		k->tcp_tso = atoi(r.out) ? 1 : 0;
	exec_free(&r);
	pr->ipfw_loaded = fbsd_true(km_ipfw);
	pr->ipdivert_loaded = fbsd_true(km_div);
	pr->ipfw_nat_loaded = fbsd_true(km_nat);
	k->nat = OSDEP_NAT_OFF;
	snprintf(k->nat_if, sizeof(k->nat_if), "%s", nat_if);
	if (pr->ipfw_loaded) {
		if (fbsd_run(list, &r, err, errlen) == 0)
			osdep_freebsd_rule(r.out, nat_if, &k->nat,
			    &pr->rule_foreign);
		exec_free(&r);
	}
	return AGENT_EXIT_OK;
}

static void
fbsd_flag(struct plan *p, const char *ifname, const char *knob, int cur,
    int want, const char *on, const char *off)
{
	if (want == OSDEP_UNSET || want == cur)
		return;
	plan_add(p, PLAN_SOFT, knob, "ifconfig", ifname, want ? on : off,
	    (char *)NULL);
}

static void
fbsd_nat_remove(struct plan *p, int nat, const char *nat_if,
    const char *statedir)
{
	char	pidfile[PLAN_ARGLEN];

	if (nat == OSDEP_NAT_DIVERT) {
		snprintf(pidfile, sizeof(pidfile), "%s/natd/%s.pid", statedir,
		    nat_if);
		plan_add(p, 0, "nat", "ipfw", "-q", "delete", FBSD_RULE,
		    (char *)NULL);
		plan_add(p, PLAN_IGNORE, "nat", "pkill", "-F", pidfile, "natd",
		    (char *)NULL);
	} else if (nat == OSDEP_NAT_KERNEL) {
		plan_add(p, 0, "nat", "ipfw", "-q", "delete", FBSD_RULE,
		    (char *)NULL);
		plan_add(p, PLAN_IGNORE, "nat", "ipfw", "nat", FBSD_NATID,
		    "delete", (char *)NULL);
	}
}

static void
fbsd_nat_add(struct plan *p, int nat, const char *nat_if,
    const struct osdep_probe *pr, const char *statedir)
{
	char	pidfile[PLAN_ARGLEN];

	if (!pr->ipfw_loaded) {
		plan_add(p, 0, "nat", "kenv",
		    "net.inet.ip.fw.default_to_accept=1", (char *)NULL);
		plan_add(p, 0, "nat", "kldload", "ipfw", (char *)NULL);
		plan_add(p, 0, "nat", "ipfw", "-q", "add", "65000", "allow",
		    "ip", "from", "any", "to", "any", (char *)NULL);
		p->loaded |= OSDEP_LOADED_IPFW;
	}
	if (nat == OSDEP_NAT_DIVERT) {
		if (!pr->ipdivert_loaded) {
			plan_add(p, 0, "nat", "kldload", "ipdivert",
			    (char *)NULL);
			p->loaded |= OSDEP_LOADED_IPDIVERT;
		}
		snprintf(pidfile, sizeof(pidfile), "%s/natd/%s.pid", statedir,
		    nat_if);
		plan_add(p, 0, "nat", "natd", "-n", nat_if, "-P", pidfile,
		    (char *)NULL);
		plan_add(p, 0, "nat", "ipfw", "-q", "add", FBSD_RULE, "divert",
		    "natd", "ip4", "from", "any", "to", "any", "via", nat_if,
		    (char *)NULL);
	} else {
		if (!pr->ipfw_nat_loaded) {
			plan_add(p, 0, "nat", "kldload", "ipfw_nat",
			    (char *)NULL);
			p->loaded |= OSDEP_LOADED_IPFW_NAT;
		}
		plan_add(p, 0, "nat", "ipfw", "nat", FBSD_NATID, "config", "if",
		    nat_if, "same_ports", "reset", (char *)NULL);
		plan_add(p, 0, "nat", "ipfw", "-q", "add", FBSD_RULE, "nat",
		    FBSD_NATID, "ip4", "from", "any", "to", "any", "via",
		    nat_if, (char *)NULL);
	}
}

static int
fbsd_plan(const char *ifname, const struct osdep_knobs *cur,
    const struct osdep_knobs *req, const struct osdep_probe *pr,
    const char *statedir, struct plan *p, char *err, size_t errlen)
{
	const char *nat_if = req->nat_if[0] ? req->nat_if : ifname;
	char	 num[32];

	plan_init(p);
	fbsd_flag(p, ifname, "tso", cur->tso, req->tso, "tso", "-tso");
	if (req->tcp_tso != OSDEP_UNSET && req->tcp_tso != cur->tcp_tso)
		plan_add(p, PLAN_SOFT, "tcp_tso", "sysctl", req->tcp_tso ?
		    "net.inet.tcp.tso=1" : "net.inet.tcp.tso=0", (char *)NULL);
	if (req->mtu != OSDEP_UNSET && req->mtu != cur->mtu) {
		snprintf(num, sizeof(num), "%d", req->mtu);
		plan_add(p, PLAN_SOFT, "mtu", "ifconfig", ifname, "mtu", num,
		    (char *)NULL);
	}
	fbsd_flag(p, ifname, "lro", cur->lro, req->lro, "lro", "-lro");
	fbsd_flag(p, ifname, "rxcsum", cur->rxcsum, req->rxcsum, "rxcsum",
	    "-rxcsum");
	fbsd_flag(p, ifname, "txcsum", cur->txcsum, req->txcsum, "txcsum",
	    "-txcsum");
	if (req->nat != OSDEP_UNSET && req->nat != cur->nat) {
		if (pr->rule_foreign) {
			snprintf(err, errlen, "nat: ipfw rule %s exists and is "
			    "not labrat's; refusing to touch it", FBSD_RULE);
			return AGENT_EXIT_COMMAND;
		}
		fbsd_nat_remove(p, cur->nat, cur->nat_if[0] ? cur->nat_if :
		    nat_if, statedir);
		if (req->nat != OSDEP_NAT_OFF)
			fbsd_nat_add(p, req->nat, nat_if, pr, statedir);
	}
	return AGENT_EXIT_OK;
}

static void
fbsd_plan_unload(unsigned loaded, struct plan *p)
{
	if (loaded & OSDEP_LOADED_IPFW_NAT)
		plan_add(p, PLAN_IGNORE, "nat", "kldunload", "ipfw_nat",
		    (char *)NULL);
	if (loaded & OSDEP_LOADED_IPDIVERT)
		plan_add(p, PLAN_IGNORE, "nat", "kldunload", "ipdivert",
		    (char *)NULL);
	if (loaded & OSDEP_LOADED_IPFW)
		plan_add(p, PLAN_IGNORE, "nat", "kldunload", "ipfw",
		    (char *)NULL);
}

/* Runs argv and copies its trimmed stdout to buf. */
static int
fbsd_output(char *const argv[], char *buf, size_t len, char *err,
    size_t errlen)
{
	struct exec_result r;
	int	 rc;
	size_t	 n;
	char	*p;

	buf[0] = '\0';
	if ((rc = fbsd_run(argv, &r, err, errlen)) == 1)
		snprintf(err, errlen, "%s %s: exited %d", argv[0],
		    argv[1] ? argv[1] : "", r.status);
	if (rc == 0) {
		snprintf(buf, len, "%s", r.out);
		for (p = buf; *p != '\0'; p++)
			if (*p == '\n' || *p == '\t')
				*p = ' ';
		n = strlen(buf);
		while (n > 0 && buf[n - 1] == ' ')
			buf[--n] = '\0';
	}
	exec_free(&r);
	return rc == 0 ? 0 : -1;
}

static int
fbsd_kernel(struct osdep_kernel *k, char *err, size_t errlen)
{
	char	*rel[] = { "uname", "-r", NULL };
	char	*ver[] = { "sysctl", "-n", "kern.version", NULL };
	char	*osr[] = { "sysctl", "-n", "kern.osreldate", NULL };
	char	 num[32];

	memset(k, 0, sizeof(*k));
	strcpy(k->os, "freebsd");
	k->osreldate = -1;
	if (fbsd_output(rel, k->release, sizeof(k->release), err, errlen) ||
	    fbsd_output(ver, k->version, sizeof(k->version), err, errlen))
		return AGENT_EXIT_COMMAND;
	if (fbsd_output(osr, num, sizeof(num), err, errlen) == 0)
		k->osreldate = atol(num);
	osdep_kernel_revision(k->version, k->revision, sizeof(k->revision));
	return AGENT_EXIT_OK;
}

static int
fbsd_list_ifs(char (*names)[OSDEP_IFNAMSIZ], int max, char *err,
    size_t errlen)
{
	char	*argv[] = { "ifconfig", "-l", NULL };
	char	 buf[4096], *w, *save = NULL;
	int	 n = 0;

	if (fbsd_output(argv, buf, sizeof(buf), err, errlen) == -1)
		return -1;
	for (w = strtok_r(buf, " ", &save); w != NULL && n < max;
	    w = strtok_r(NULL, " ", &save)) {
		if (strncmp(w, "lo", 2) == 0 || strlen(w) >= OSDEP_IFNAMSIZ)
			continue;
		strcpy(names[n++], w);
	}
	return n;
}

static int
fbsd_nic(const char *ifname, struct osdep_nic *nic, char *err, size_t errlen)
{
	struct parse_ifconfig ic;
	struct parse_pciconf *pc;
	const struct parse_pcidev *d;
	struct exec_result r;
	char	*ifc[] = { "ifconfig", "-m", (char *)ifname, NULL };
	char	*pci[] = { "pciconf", "-lv", NULL };
	size_t	 i;

	memset(nic, 0, sizeof(*nic));
	snprintf(nic->name, sizeof(nic->name), "%s", ifname);
	nic->pci_vendor = nic->pci_device = nic->speed_mbps = -1;
	nic->duplex = PARSE_DUPLEX_UNKNOWN;
	nic->mtu = nic->tso = nic->lro = nic->rxcsum = nic->txcsum = -1;
	nic->tso_partial = -1;
	for (i = 0; ifname[i] != '\0' && !(ifname[i] >= '0' &&
	    ifname[i] <= '9') && i + 1 < sizeof(nic->driver); i++)
		nic->driver[i] = ifname[i];
	if (fbsd_run(ifc, &r, err, errlen) == 0 &&
	    parse_ifconfig(r.out, r.outlen, ifname, &ic, err, errlen) == 0) {
		nic->mtu = ic.mtu;
		/* TSO4 is what an IPv4 test uses; TSO6 alone is partial. */
		nic->tso = ic.tso4;
		nic->tso_partial = ic.tso6 && !ic.tso4;
		nic->lro = ic.lro;
		nic->rxcsum = ic.rxcsum;
		nic->txcsum = ic.txcsum;
		nic->speed_mbps = ic.speed_mbps;
		nic->duplex = ic.duplex;
	}
	exec_free(&r);
	if ((pc = calloc(1, sizeof(*pc))) == NULL)
		return AGENT_EXIT_INTERNAL;
	if (fbsd_run(pci, &r, err, errlen) == 0 &&
	    parse_pciconf(r.out, r.outlen, pc, err, errlen) == 0 &&
	    (d = parse_pciconf_find(pc, ifname)) != NULL) {
		nic->pci_vendor = d->vendor_id;
		nic->pci_device = d->device_id;
		if (d->driver[0] != '\0')
			snprintf(nic->driver, sizeof(nic->driver), "%s",
			    d->driver);
	}
	exec_free(&r);
	free(pc);
	return AGENT_EXIT_OK;
}

static int
fbsd_ifstats(const char *ifname, struct parse_ifstats *st, char *err,
    size_t errlen)
{
	struct exec_result r;
	char	*argv[] = { "netstat", "-I", (char *)ifname, "-bdnW", NULL };
	int	 rc = AGENT_EXIT_COMMAND;

	if (fbsd_run(argv, &r, err, errlen) == 0)
		rc = parse_netstat_if(r.out, r.outlen, ifname, st, err,
		    errlen) == 0 ? AGENT_EXIT_OK : AGENT_EXIT_PARSE;
	else if (r.out != NULL)
		snprintf(err, errlen, "netstat -I %s: exited %d", ifname,
		    r.status);
	exec_free(&r);
	return rc;
}

static int
fbsd_cpu(struct osdep_cpu *c, char *err, size_t errlen)
{
	char	*argv[] = { "sysctl", "-n", "kern.cp_time", NULL };
	char	 buf[256];
	double	 v[5];

	/* kern.cp_time: user nice sys intr idle */
	if (fbsd_output(argv, buf, sizeof(buf), err, errlen) == -1)
		return AGENT_EXIT_COMMAND;
	if (sscanf(buf, "%lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3],
	    &v[4]) != 5) {
		snprintf(err, errlen, "kern.cp_time: unexpected \"%.60s\"",
		    buf);
		return AGENT_EXIT_PARSE;
	}
	c->user = v[0] + v[1];
	c->sys = v[2] + v[3];
	c->idle = v[4];
	return AGENT_EXIT_OK;
}

static double
fbsd_proc_cpu(const char *name)
{
	char	*pg[] = { "pgrep", "-x", (char *)name, NULL };
	char	*ps[] = { "ps", "-o", "time", "-p", NULL, NULL };
	char	 pids[1024], err[128], *w, *save = NULL;
	struct exec_result r;
	double	 total = -1.0, t;

	if (fbsd_output(pg, pids, sizeof(pids), err, sizeof(err)) == -1)
		return -1.0;
	for (w = strtok_r(pids, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		ps[4] = w;
		if (fbsd_run(ps, &r, err, sizeof(err)) == 0 &&
		    parse_ps_time(r.out, r.outlen, &t, err, sizeof(err)) == 0)
			total = (total < 0 ? 0 : total) + t;
		exec_free(&r);
	}
	return total;
}

static int
fbsd_route_if(const char *addr, char *ifname, size_t len, char *err,
    size_t errlen)
{
	struct exec_result r;
	char	*argv[] = { "route", "-n", "get", (char *)addr, NULL };
	const char *p;
	size_t	 n;
	int	 rc = AGENT_EXIT_COMMAND;

	if (fbsd_run(argv, &r, err, errlen) == 0 &&
	    (p = strstr(r.out, "interface: ")) != NULL) {
		p += strlen("interface: ");
		n = strcspn(p, " \n");
		if (n > 0 && n < len) {
			memcpy(ifname, p, n);
			ifname[n] = '\0';
			rc = AGENT_EXIT_OK;
		}
	}
	if (rc != AGENT_EXIT_OK)
		snprintf(err, errlen, "route -n get %s: no interface", addr);
	exec_free(&r);
	return rc;
}

static int
fbsd_link(const char *ifname, struct osdep_link *lk, char *err, size_t errlen)
{
	struct parse_ifconfig ic;
	struct exec_result r;
	char	*ifc[] = { "ifconfig", (char *)ifname, NULL };
	int	 rc;

	memset(lk, 0, sizeof(*lk));
	lk->admin_up = lk->carrier = lk->speed_mbps = lk->mtu = -1;
	lk->duplex = PARSE_DUPLEX_UNKNOWN;
	if ((rc = fbsd_run(ifc, &r, err, errlen)) != 0) {
		if (rc == 1)
			snprintf(err, errlen, "ifconfig %s: exited %d: %.120s",
			    ifname, r.status, r.err);
		exec_free(&r);
		return AGENT_EXIT_COMMAND;
	}
	rc = parse_ifconfig(r.out, r.outlen, ifname, &ic, err, errlen);
	exec_free(&r);
	if (rc == -1)
		return AGENT_EXIT_PARSE;
	lk->admin_up = ic.up;
	lk->carrier = ic.active;	/* no "status:" line: unknown */
	if (ic.active == 1)
		strcpy(lk->state, "active");
	else if (ic.active == 0)
		strcpy(lk->state, "no carrier");
	lk->speed_mbps = ic.speed_mbps > 0 ? ic.speed_mbps : -1;
	lk->duplex = ic.duplex;
	lk->mtu = ic.mtu;
	return AGENT_EXIT_OK;
}

/* ping -o exits at the first reply, -t 1 after a second without one;
 * ping6 -m keeps the kernel from fragmenting to the minimum MTU. */
static void
fbsd_ping(const char *addr, int v6, int size, struct plan *p)
{
	char	num[16];

	snprintf(num, sizeof(num), "%d", size);
	if (v6)
		plan_add(p, 0, "path", "ping6", "-n", "-m", "-o", "-c", "10",
		    "-i", "0.1", "-s", num, addr, (char *)NULL);
	else
		plan_add(p, 0, "path", "ping", "-n", "-D", "-o", "-c", "10",
		    "-i", "0.1", "-t", "1", "-s", num, addr, (char *)NULL);
}

const struct osdep_dialect osdep_freebsd = {
	"freebsd",
	fbsd_read,
	fbsd_plan,
	fbsd_plan_unload,
	fbsd_kernel,
	fbsd_list_ifs,
	fbsd_nic,
	fbsd_ifstats,
	fbsd_cpu,
	fbsd_proc_cpu,
	fbsd_route_if,
	fbsd_link,
	fbsd_ping,
	NULL,		/* read_if: NAT is read with the knobs */
	NULL,		/* nat_gen */
	NULL,		/* ifstate: no such ioctl */
	NULL		/* builtin: every command runs */
};
