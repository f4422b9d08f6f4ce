/*
 * osdep_linux.c: the Linux dialect.  Knobs with ethtool -K and ip link; NAT
 * as an nftables masquerade in labrat's own table `ip labrat` (one chain
 * post_IF per interface; labrat never touches another table).  State is read
 * back from ethtool -k, sysfs and `nft list table ip labrat`; counters from
 * /proc.  The ethtool parts go through ethtool's ioctl where it answers
 * (osdep_linux_ethtool.c).  Compiles anywhere; only meaningful on Linux.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/utsname.h>

#ifdef __linux__
#include <sys/socket.h>
#include <sys/time.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "osdep.h"

#define NFT_TABLE	"labrat"

static int	lx_nft_table(void);

static int
lx_run(char *const argv[], struct exec_result *r, char *err, size_t errlen)
{
	if (osdep_run(argv, EXEC_TIMEOUT_DEFAULT, r, err, errlen) == -1)
		return -1;
	return (r->exited && r->status == 0) ? 0 : 1;
}

static int
lx_sysfs_int(const char *ifname, const char *file, long *v)
{
	char	path[256], buf[64], *end;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, file);
	if (osdep_read_small(path, buf, sizeof(buf)) == -1 || buf[0] == '\0')
		return -1;
	*v = strtol(buf, &end, 0);
	return *end == '\0' ? 0 : -1;
}

static int
lx_ethtool_k(const char *ifname, struct parse_ethtool_k *ek, char *err,
    size_t errlen)
{
	struct exec_result r;
	char	*argv[] = { "ethtool", "-k", (char *)ifname, NULL };
	int	 rc;

	if (osdep_linux_ethtool_k(ifname, ek) == 0)
		return AGENT_EXIT_OK;
	if ((rc = lx_run(argv, &r, err, errlen)) == 1)
		snprintf(err, errlen, "ethtool -k %s: exited %d: %.120s",
		    ifname, r.status, r.err);
	if (rc != 0) {
		exec_free(&r);
		return AGENT_EXIT_COMMAND;
	}
	rc = parse_ethtool_k(r.out, r.outlen, ek, err, errlen);
	exec_free(&r);
	return rc == 0 ? AGENT_EXIT_OK : AGENT_EXIT_PARSE;
}

void
osdep_linux_nft(const char *text, const char *nat_if, int *nat, int *chains)
{
	char	 chain[64], rule[64];
	const char *p, *c, *end;

	*nat = OSDEP_NAT_OFF;
	*chains = 0;
	snprintf(chain, sizeof(chain), "chain post_%s {", nat_if);
	snprintf(rule, sizeof(rule), "oifname \"%s\" masquerade", nat_if);
	for (p = text; (p = strstr(p, "chain ")) != NULL; p++)
		(*chains)++;
	if ((c = strstr(text, chain)) == NULL)
		return;
	end = strchr(c, '}');
	p = strstr(c, rule);
	if (p != NULL && (end == NULL || p < end))
		*nat = OSDEP_NAT_KERNEL;
}

/* The knobs of ifname but NAT (left unknown): sysfs and ethtool -k. */
static int
lx_read_if(const char *ifname, struct osdep_knobs *k, struct osdep_probe *pr,
    char *err, size_t errlen)
{
	struct parse_ethtool_k *ek;
	long	 mtu;
	int	 rc;

	osdep_knobs_unset(k);
	memset(pr, 0, sizeof(*pr));
	pr->nft_chains = -1;
	if (lx_sysfs_int(ifname, "mtu", &mtu) == -1) {
		snprintf(err, errlen, "%s: no such interface (/sys/class/net)",
		    ifname);
		return AGENT_EXIT_COMMAND;
	}
	k->mtu = (int)mtu;
	if ((ek = calloc(1, sizeof(*ek))) == NULL)
		return AGENT_EXIT_INTERNAL;
	if ((rc = lx_ethtool_k(ifname, ek, err, errlen)) != AGENT_EXIT_OK) {
		free(ek);
		return rc;
	}
	/* tx-tcp-segmentation: the parent line also reads "on" when only
	 * tx-tcp6-segmentation is (partial TSO). */
	k->tso = ek->tso4;
	k->lro = ek->lro;
	k->rxcsum = ek->rxcsum;
	k->txcsum = ek->txcsum;
	free(ek);
	return AGENT_EXIT_OK;
}

static int
lx_read(const char *ifname, const char *nat_if, struct osdep_knobs *k,
    struct osdep_probe *pr, char *err, size_t errlen)
{
	struct exec_result r;
	char	*nft[] = { "nft", "list", "table", "ip", NFT_TABLE, NULL };
	int	 rc;

	if ((rc = lx_read_if(ifname, k, pr, err, errlen)) != AGENT_EXIT_OK)
		return rc;
	k->nat = OSDEP_NAT_OFF;
	snprintf(k->nat_if, sizeof(k->nat_if), "%s", nat_if);
	/* No table: as `nft list table` failing, without the process. */
	if (lx_nft_table() == 0)
		return AGENT_EXIT_OK;
	rc = lx_run(nft, &r, err, errlen);
	if (rc == 0)
		osdep_linux_nft(r.out, nat_if, &k->nat, &pr->nft_chains);
	else if (rc == -1) {
		exec_free(&r);
		return AGENT_EXIT_COMMAND;
	}
	exec_free(&r);
	return AGENT_EXIT_OK;
}

#ifdef __linux__
/*
 * One nftables request over netlink (no process): type with family and,
 * when table is not NULL, its NFTA_TABLE_NAME; the first answer into buf.
 * Its length, or -1 (no netlink, no answer within a second).
 */
static ssize_t
lx_nft_ask(int type, int family, const char *table, char *buf, size_t len)
{
	struct {
		struct nlmsghdr	nh;
		struct nfgenmsg	nf;
		struct nlattr	at;
		char		name[32];
	} req;
	struct sockaddr_nl sa;
	struct timeval tv = { 1, 0 };
	size_t	 qlen = NLMSG_LENGTH(sizeof(req.nf)), nl;
	ssize_t	 n = -1;
	int	 fd;

	memset(&req, 0, sizeof(req));
	if (table != NULL) {
		if ((nl = strlen(table) + 1) > sizeof(req.name))
			return -1;
		req.at.nla_len = (uint16_t)(NLA_HDRLEN + nl);
		req.at.nla_type = NFTA_TABLE_NAME;
		memcpy(req.name, table, nl);
		qlen = NLMSG_ALIGN(qlen) + NLA_ALIGN(req.at.nla_len);
	}
	if ((fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_NETFILTER)) == -1)
		return -1;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	req.nh.nlmsg_len = (uint32_t)qlen;
	req.nh.nlmsg_type = (uint16_t)((NFNL_SUBSYS_NFTABLES << 8) | type);
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.nh.nlmsg_seq = 1;
	req.nf.nfgen_family = (uint8_t)family;
	req.nf.version = NFNETLINK_V0;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (sendto(fd, &req, qlen, 0, (struct sockaddr *)&sa, sizeof(sa)) ==
	    (ssize_t)qlen)
		n = recv(fd, buf, len, 0);
	close(fd);
	return n;
}
#endif

/*
 * Whether nftables has labrat's table `ip labrat`, asked over netlink: 0
 * no, 1 yes, -1 not known (no netlink, a test's runner in place: `nft`
 * decides).  No table, no NAT: the common case needs no `nft` process.
 */
static int
lx_nft_table(void)
{
#ifdef __linux__
	struct nlmsghdr *nh;
	struct nlmsgerr	*e;
	char	 buf[1024];
	ssize_t	 n;

	if (osdep_runner_set() || (n = lx_nft_ask(NFT_MSG_GETTABLE, AF_INET,
	    NFT_TABLE, buf, sizeof(buf))) <= 0)
		return -1;
	nh = (struct nlmsghdr *)(void *)buf;
	if (!NLMSG_OK(nh, (size_t)n))
		return -1;
	if (nh->nlmsg_type == ((NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWTABLE))
		return 1;
	if (nh->nlmsg_type != NLMSG_ERROR ||
	    nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return -1;
	e = (struct nlmsgerr *)NLMSG_DATA(nh);
	return e->error == -ENOENT ? 0 : -1;
#else
	return -1;
#endif
}

/*
 * The nftables ruleset generation of this network namespace (NFT_MSG_GETGEN
 * over netlink: no process).  Every committed change of any table moves it,
 * so a NAT read at one generation stands while it does not move.  0, or -1
 * when it cannot be had (no nf_tables, no netlink, not Linux).
 */
static int
lx_nat_gen(unsigned long long *gen)
{
#ifdef __linux__
	struct nlmsghdr *nh;
	struct nlattr *a;
	char	 buf[1024];
	uint32_t id;
	ssize_t	 n;
	int	 left;

	if ((n = lx_nft_ask(NFT_MSG_GETGEN, AF_UNSPEC, NULL, buf,
	    sizeof(buf))) <= 0)
		return -1;
	nh = (struct nlmsghdr *)(void *)buf;
	if (!NLMSG_OK(nh, (size_t)n) || nh->nlmsg_type !=
	    ((NFNL_SUBSYS_NFTABLES << 8) | NFT_MSG_NEWGEN))
		return -1;
	left = (int)nh->nlmsg_len -
	    NLMSG_LENGTH(NLMSG_ALIGN(sizeof(struct nfgenmsg)));
	a = (struct nlattr *)(void *)((char *)NLMSG_DATA(nh) +
	    NLMSG_ALIGN(sizeof(struct nfgenmsg)));
	while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	    a->nla_len <= left) {
		if ((a->nla_type & NLA_TYPE_MASK) == NFTA_GEN_ID &&
		    a->nla_len >= NLA_HDRLEN + sizeof(id)) {
			memcpy(&id, (char *)a + NLA_HDRLEN, sizeof(id));
			*gen = ntohl(id);
			return 0;
		}
		left -= NLA_ALIGN(a->nla_len);
		a = (struct nlattr *)(void *)((char *)a + NLA_ALIGN(a->nla_len));
	}
	return -1;
#else
	(void)gen;
	return -1;
#endif
}

/*
 * ifname's MTU from sysfs and its offload features in force as the raw
 * bitmap of ETHTOOL_GFEATURES (the active word of each block, in hex; no
 * mapping to ethtool's names: only equality is asked of it).  0 or -1.
 */
static int
lx_ifstate(const char *ifname, int *mtu, char *feat, size_t featlen)
{
#ifdef __linux__
	/* The request and room for 8 blocks after it (its flexible
	 * features[]), aligned as the struct. */
	union {
		struct ethtool_gfeatures	g;
		unsigned char	 room[sizeof(struct ethtool_gfeatures) +
		    8 * sizeof(struct ethtool_get_features_block)];
	} req;
	long	 v;
	size_t	 off = 0;
	unsigned i;
	int	 rc;

	if (lx_sysfs_int(ifname, "mtu", &v) == -1 || featlen < 2 * 8 + 1)
		return -1;
	*mtu = (int)v;
	memset(&req, 0, sizeof(req));
	req.g.cmd = ETHTOOL_GFEATURES;
	req.g.size = 8;
	rc = osdep_linux_ethtool_ioctl(ifname, &req);
	if (rc == -1 || req.g.size == 0)
		return -1;
	feat[0] = '\0';
	for (i = 0; i < req.g.size && i < 8 && off + 9 <= featlen; i++)
		off += (size_t)snprintf(feat + off, featlen - off, "%08x",
		    req.g.features[i].active);
	return 0;
#else
	(void)ifname; (void)mtu; (void)feat; (void)featlen;
	return -1;
#endif
}

static void
lx_feature(struct plan *p, const char *ifname, const char *knob, int cur,
    int want, const char *feature)
{
	if (want == OSDEP_UNSET || want == cur)
		return;
	plan_add(p, PLAN_SOFT, knob, "ethtool", "-K", ifname, feature,
	    want ? "on" : "off", (char *)NULL);
}

static int
lx_plan(const char *ifname, const struct osdep_knobs *cur,
    const struct osdep_knobs *req, const struct osdep_probe *pr,
    const char *statedir, struct plan *p, char *err, size_t errlen)
{
	const char *nat_if = req->nat_if[0] ? req->nat_if : ifname;
	const char *old_if = cur->nat_if[0] ? cur->nat_if : nat_if;
	char	 num[32], chain[PLAN_ARGLEN], rule[PLAN_ARGLEN];

	(void)statedir;
	plan_init(p);
	if (req->tcp_tso != OSDEP_UNSET) {
		snprintf(err, errlen, "--tcp-tso: FreeBSD only (Linux has no "
		    "global TSO switch)");
		return AGENT_EXIT_USAGE;
	}
	if (req->nat == OSDEP_NAT_DIVERT) {
		snprintf(err, errlen, "--nat: divert (ipfw + natd) is FreeBSD "
		    "only; use kernel");
		return AGENT_EXIT_USAGE;
	}
	lx_feature(p, ifname, "tso", cur->tso, req->tso, "tso");
	if (req->mtu != OSDEP_UNSET && req->mtu != cur->mtu) {
		snprintf(num, sizeof(num), "%d", req->mtu);
		plan_add(p, PLAN_SOFT, "mtu", "ip", "link", "set", "dev",
		    ifname, "mtu", num, (char *)NULL);
	}
	lx_feature(p, ifname, "lro", cur->lro, req->lro, "lro");
	lx_feature(p, ifname, "rxcsum", cur->rxcsum, req->rxcsum, "rx");
	lx_feature(p, ifname, "txcsum", cur->txcsum, req->txcsum, "tx");
	if (req->nat == OSDEP_UNSET || req->nat == cur->nat)
		return AGENT_EXIT_OK;
	if (cur->nat == OSDEP_NAT_KERNEL) {
		snprintf(chain, sizeof(chain), "post_%s", old_if);
		if (pr->nft_chains <= 1)
			plan_add(p, 0, "nat", "nft", "delete", "table", "ip",
			    NFT_TABLE, (char *)NULL);
		else
			plan_add(p, 0, "nat", "nft", "delete", "chain", "ip",
			    NFT_TABLE, chain, (char *)NULL);
	}
	if (req->nat == OSDEP_NAT_KERNEL) {
		snprintf(chain, sizeof(chain), "post_%s", nat_if);
		snprintf(rule, sizeof(rule), "\"%s\"", nat_if);
		plan_add(p, 0, "nat", "nft", "add", "table", "ip", NFT_TABLE,
		    (char *)NULL);
		plan_add(p, 0, "nat", "nft", "add", "chain", "ip", NFT_TABLE,
		    chain, "{ type nat hook postrouting priority 100 ; }",
		    (char *)NULL);
		plan_add(p, 0, "nat", "nft", "add", "rule", "ip", NFT_TABLE,
		    chain, "oifname", rule, "masquerade", (char *)NULL);
	}
	return AGENT_EXIT_OK;
}

static void
lx_plan_unload(unsigned loaded, struct plan *p)
{
	(void)loaded;
	(void)p;
}

static int
lx_kernel(struct osdep_kernel *k, char *err, size_t errlen)
{
	struct utsname u;

	memset(k, 0, sizeof(*k));
	strcpy(k->os, "linux");
	k->osreldate = -1;
	if (uname(&u) == -1) {
		snprintf(err, errlen, "uname: %s", strerror(errno));
		return AGENT_EXIT_INTERNAL;
	}
	snprintf(k->release, sizeof(k->release), "%s", u.release);
	if (osdep_read_small("/proc/version", k->version,
	    sizeof(k->version)) == -1)
		snprintf(k->version, sizeof(k->version), "%s %s %s",
		    u.sysname, u.release, u.version);
	osdep_kernel_revision(k->version, k->revision, sizeof(k->revision));
	return AGENT_EXIT_OK;
}

static int
lx_list_ifs(char (*names)[OSDEP_IFNAMSIZ], int max, char *err, size_t errlen)
{
	DIR	*d;
	struct dirent *de;
	int	 n = 0;

	if ((d = opendir("/sys/class/net")) == NULL) {
		snprintf(err, errlen, "/sys/class/net: %s", strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL && n < max) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "lo") == 0 ||
		    strlen(de->d_name) >= OSDEP_IFNAMSIZ)
			continue;
		strcpy(names[n++], de->d_name);
	}
	closedir(d);
	return n;
}

static void
lx_driver(const char *ifname, struct osdep_nic *nic)
{
	struct parse_ethtool_i ei;
	struct exec_result r;
	char	 path[256], link[PATH_MAX], err[128], *base;
	char	*argv[] = { "ethtool", "-i", (char *)ifname, NULL };
	ssize_t	 n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver",
	    ifname);
	if ((n = readlink(path, link, sizeof(link) - 1)) > 0) {
		link[n] = '\0';
		base = strrchr(link, '/');
		base = base ? base + 1 : link;
		if (strlen(base) < sizeof(nic->driver))
			strcpy(nic->driver, base);
		return;
	}
	if (osdep_linux_ethtool_i(ifname, &ei) == 0) {
		snprintf(nic->driver, sizeof(nic->driver), "%s", ei.driver);
		return;
	}
	if (lx_run(argv, &r, err, sizeof(err)) == 0 &&
	    parse_ethtool_i(r.out, r.outlen, &ei, err, sizeof(err)) == 0)
		snprintf(nic->driver, sizeof(nic->driver), "%s", ei.driver);
	exec_free(&r);
}

static int
lx_nic(const char *ifname, struct osdep_nic *nic, char *err, size_t errlen)
{
	struct parse_ethtool_k *ek;
	char	 path[256], buf[32];
	long	 v;

	memset(nic, 0, sizeof(*nic));
	snprintf(nic->name, sizeof(nic->name), "%s", ifname);
	nic->pci_vendor = nic->pci_device = nic->speed_mbps = -1;
	nic->duplex = PARSE_DUPLEX_UNKNOWN;
	nic->mtu = nic->tso = nic->lro = nic->rxcsum = nic->txcsum = -1;
	nic->tso_partial = -1;
	if (lx_sysfs_int(ifname, "mtu", &v) == -1) {
		snprintf(err, errlen, "%s: no such interface (/sys/class/net)",
		    ifname);
		return AGENT_EXIT_COMMAND;
	}
	lx_driver(ifname, nic);
	if (lx_sysfs_int(ifname, "device/vendor", &v) == 0)
		nic->pci_vendor = (int)v;
	if (lx_sysfs_int(ifname, "device/device", &v) == 0)
		nic->pci_device = (int)v;
	if (lx_sysfs_int(ifname, "speed", &v) == 0 && v > 0)
		nic->speed_mbps = (int)v;
	snprintf(path, sizeof(path), "/sys/class/net/%s/duplex", ifname);
	if (osdep_read_small(path, buf, sizeof(buf)) == 0)
		nic->duplex = strcmp(buf, "full") == 0 ? PARSE_DUPLEX_FULL :
		    strcmp(buf, "half") == 0 ? PARSE_DUPLEX_HALF :
		    PARSE_DUPLEX_UNKNOWN;
	if (lx_sysfs_int(ifname, "mtu", &v) == 0)
		nic->mtu = (int)v;
	if ((ek = calloc(1, sizeof(*ek))) == NULL)
		return AGENT_EXIT_INTERNAL;
	if (lx_ethtool_k(ifname, ek, err, errlen) == AGENT_EXIT_OK) {
		nic->tso = ek->tso4;
		nic->tso_partial = ek->tso_partial;
		nic->lro = ek->lro;
		nic->rxcsum = ek->rxcsum;
		nic->txcsum = ek->txcsum;
	}
	free(ek);
	return AGENT_EXIT_OK;
}

/* Reads a /proc file of at most max bytes into a heap buffer. */
static char *
lx_slurp(const char *path, size_t max, size_t *lenp)
{
	FILE	*f;
	char	*buf;
	size_t	 n;

	if ((f = fopen(path, "r")) == NULL)
		return NULL;
	if ((buf = malloc(max + 1)) == NULL) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, max, f);
	fclose(f);
	buf[n] = '\0';
	*lenp = n;
	return buf;
}

static int
lx_ifstats(const char *ifname, struct parse_ifstats *st, char *err,
    size_t errlen)
{
	char	*buf;
	size_t	 len;
	int	 rc;

	if ((buf = lx_slurp("/proc/net/dev", 256 * 1024, &len)) == NULL) {
		snprintf(err, errlen, "/proc/net/dev: %s", strerror(errno));
		return AGENT_EXIT_COMMAND;
	}
	rc = parse_proc_net_dev(buf, len, ifname, st, err, errlen);
	free(buf);
	return rc == 0 ? AGENT_EXIT_OK : AGENT_EXIT_PARSE;
}

static int
lx_cpu(struct osdep_cpu *c, char *err, size_t errlen)
{
	struct parse_cpu pc;
	char	*buf;
	size_t	 len;
	int	 rc;

	if ((buf = lx_slurp("/proc/stat", 64 * 1024, &len)) == NULL) {
		snprintf(err, errlen, "/proc/stat: %s", strerror(errno));
		return AGENT_EXIT_COMMAND;
	}
	rc = parse_proc_stat(buf, len, &pc, err, errlen);
	free(buf);
	if (rc == -1)
		return AGENT_EXIT_PARSE;
	c->user = (double)(pc.user + pc.nice);
	c->sys = (double)(pc.sys + pc.irq + pc.softirq);
	c->idle = (double)(pc.idle + pc.iowait);
	return AGENT_EXIT_OK;
}

static double
lx_proc_cpu(const char *name)
{
	struct parse_pidstat ps;
	struct dirent *de;
	DIR	*d;
	char	 path[300], buf[1024], err[64];
	double	 total = -1.0;
	long	 hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0 || (d = opendir("/proc")) == NULL)
		return -1.0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    strlen(de->d_name) > 12)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (osdep_read_small(path, buf, sizeof(buf)) == -1)
			continue;
		strcat(buf, "\n");
		if (parse_proc_pid_stat(buf, strlen(buf), &ps, err,
		    sizeof(err)) == -1 || strcmp(ps.comm, name) != 0)
			continue;
		total = (total < 0 ? 0 : total) +
		    (double)(ps.utime + ps.stime) / (double)hz;
	}
	closedir(d);
	return total;
}

static int
lx_route_if(const char *addr, char *ifname, size_t len, char *err,
    size_t errlen)
{
	struct exec_result r;
	char	*argv[] = { "ip", "-o", "route", "get", (char *)addr, NULL };
	const char *p;
	size_t	 n;
	int	 rc = AGENT_EXIT_COMMAND;

	if (lx_run(argv, &r, err, errlen) == 0 &&
	    (p = strstr(r.out, " dev ")) != NULL) {
		p += 5;
		n = strcspn(p, " \n");
		if (n > 0 && n < len) {
			memcpy(ifname, p, n);
			ifname[n] = '\0';
			rc = AGENT_EXIT_OK;
		}
	}
	if (rc != AGENT_EXIT_OK)
		snprintf(err, errlen, "ip route get %s: no interface", addr);
	exec_free(&r);
	return rc;
}

static int
lx_link(const char *ifname, struct osdep_link *lk, char *err, size_t errlen)
{
	char	 path[256], buf[16];
	long	 v;

	memset(lk, 0, sizeof(*lk));
	lk->admin_up = lk->carrier = lk->speed_mbps = lk->mtu = -1;
	lk->duplex = PARSE_DUPLEX_UNKNOWN;
	if (lx_sysfs_int(ifname, "flags", &v) == -1) {
		snprintf(err, errlen, "%s: no such interface (/sys/class/net)",
		    ifname);
		return AGENT_EXIT_COMMAND;
	}
	lk->admin_up = (v & 0x1) != 0;	/* IFF_UP */
	/* carrier, speed and duplex read EINVAL while the link is down. */
	if (lx_sysfs_int(ifname, "carrier", &v) == 0)
		lk->carrier = v != 0;
	else if (!lk->admin_up)
		lk->carrier = 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", ifname);
	if (osdep_read_small(path, lk->state, sizeof(lk->state)) == -1)
		lk->state[0] = '\0';
	if (lk->carrier == 1 && lx_sysfs_int(ifname, "speed", &v) == 0 &&
	    v > 0 && v < 100000000)
		lk->speed_mbps = (int)v;
	snprintf(path, sizeof(path), "/sys/class/net/%s/duplex", ifname);
	if (lk->carrier == 1 && osdep_read_small(path, buf,
	    sizeof(buf)) == 0)
		lk->duplex = strcmp(buf, "full") == 0 ? PARSE_DUPLEX_FULL :
		    strcmp(buf, "half") == 0 ? PARSE_DUPLEX_HALF :
		    PARSE_DUPLEX_UNKNOWN;
	if (lx_sysfs_int(ifname, "mtu", &v) == 0)
		lk->mtu = (int)v;
	return AGENT_EXIT_OK;
}

/* iputils: -w 1 ends it after a second, -c 1 at the first reply. */
static void
lx_ping(const char *addr, int v6, int size, struct plan *p)
{
	char	num[16];

	snprintf(num, sizeof(num), "%d", size);
	if (v6)
		plan_add(p, 0, "path", "ping", "-6", "-n", "-c", "1", "-w", "1",
		    "-i", "0.1", "-M", "do", "-s", num, addr, (char *)NULL);
	else
		plan_add(p, 0, "path", "ping", "-n", "-c", "1", "-w", "1",
		    "-i", "0.1", "-M", "do", "-s", num, addr, (char *)NULL);
}

const struct osdep_dialect osdep_linux = {
	"linux",
	lx_read,
	lx_plan,
	lx_plan_unload,
	lx_kernel,
	lx_list_ifs,
	lx_nic,
	lx_ifstats,
	lx_cpu,
	lx_proc_cpu,
	lx_route_if,
	lx_link,
	lx_ping,
	lx_read_if,
	lx_nat_gen,
	lx_ifstate,
	osdep_linux_ethtool_set
};
