/*
 * osdep_linux_ethtool.c: what the Linux dialect asked of the ethtool
 * program, asked of the kernel the way ethtool itself does (SIOCETHTOOL):
 * the offloads of `ethtool -k`, the driver of `ethtool -i`, and the
 * `ethtool -K IF FEATURE on|off` steps of a plan.  A process per read and
 * per change cost 2-3 ms of a lab host's CPU each (fork, exec, ethtool's
 * own start), an ioctl some microseconds; a matrix ran some 40 of them
 * per 16 jobs, most of them while the other links' jobs wait for the same
 * cores.  The plan still names the command (osdep.h: plans are data);
 * where the ioctl is missing or a test runner replaces the commands,
 * ethtool runs as before.
 *
 * ethtool's short names stand for groups of the kernel's features, as
 * ethtool -k prints them: tso = tx-tcp*-segmentation, tx = tx-checksum-*,
 * rx = rx-checksum, lro = rx-lro (gso, gro, sg for the read).  A group
 * reads "on" when any of its features is active; tso4 is
 * tx-tcp-segmentation alone (parse.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>

#ifdef __linux__
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#endif

#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "osdep.h"

/* ethtool's short names and the kernel feature names they stand for. */
static const struct lx_group {
	const char	*name;		/* -K's word */
	const char	*line;		/* its ethtool -k line */
	const char	*pattern;	/* fnmatch(3) of the features */
} lx_groups[] = {
	{ "tso", "tcp-segmentation-offload", "tx-tcp*-segmentation" },
	{ "tx", "tx-checksumming", "tx-checksum-*" },
	{ "rx", "rx-checksumming", "rx-checksum" },
	{ "lro", "large-receive-offload", "rx-lro" },
	{ "gso", "generic-segmentation-offload", "tx-generic-segmentation" },
	{ "gro", "generic-receive-offload", "rx-gro" },
	{ "sg", "scatter-gather", "tx-scatter-gather*" },
};

#define LX_NGROUPS	(sizeof(lx_groups) / sizeof(lx_groups[0]))

#ifdef __linux__

#define LX_MAXBLOCKS	8	/* 256 feature bits; kernels have ~70 */

/* An interface's features: names and the GFEATURES words. */
struct lx_feats {
	unsigned n;
	char	 names[LX_MAXBLOCKS * 32][ETH_GSTRING_LEN];
	uint32_t avail[LX_MAXBLOCKS], requested[LX_MAXBLOCKS];
	uint32_t active[LX_MAXBLOCKS], never[LX_MAXBLOCKS];
};

int
osdep_linux_ethtool_ioctl(const char *ifname, void *data)
{
	/* struct ifreq as SIOCETHTOOL reads it (net/if.h hides it under
	 * _POSIX_C_SOURCE): the name, then the union's ifr_data. */
	union {
		struct {
			char	 name[16];
			void	*data;
		} r;
		char	 size[40];
	} ifr;
	int	 fd, rc, e;

	if (strlen(ifname) >= sizeof(ifr.r.name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) == -1)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.r.name, sizeof(ifr.r.name), "%s", ifname);
	ifr.r.data = data;
	rc = ioctl(fd, SIOCETHTOOL, &ifr);
	e = errno;
	close(fd);
	errno = e;
	return rc;
}

static int
lx_feats_read(const char *ifname, struct lx_feats *f)
{
	union {
		struct ethtool_sset_info s;
		unsigned char	 room[sizeof(struct ethtool_sset_info) +
		    sizeof(uint32_t)];
	} info;
	struct ethtool_gstrings *gs;
	struct ethtool_gfeatures *gf;
	unsigned i, blocks;
	int	 rc = -1;

	memset(f, 0, sizeof(*f));
	memset(&info, 0, sizeof(info));
	info.s.cmd = ETHTOOL_GSSET_INFO;
	info.s.sset_mask = 1ULL << ETH_SS_FEATURES;
	if (osdep_linux_ethtool_ioctl(ifname, &info) == -1 ||
	    !(info.s.sset_mask & (1ULL << ETH_SS_FEATURES)))
		return -1;
	f->n = info.s.data[0];
	if (f->n == 0 || f->n > LX_MAXBLOCKS * 32)
		return -1;
	blocks = (f->n + 31) / 32;
	gs = calloc(1, sizeof(*gs) + (size_t)f->n * ETH_GSTRING_LEN);
	gf = calloc(1, sizeof(*gf) + blocks * sizeof(gf->features[0]));
	if (gs == NULL || gf == NULL)
		goto out;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = f->n;
	gf->cmd = ETHTOOL_GFEATURES;
	gf->size = blocks;
	if (osdep_linux_ethtool_ioctl(ifname, gs) == -1 || gs->len != f->n ||
	    osdep_linux_ethtool_ioctl(ifname, gf) == -1 || gf->size < blocks)
		goto out;
	for (i = 0; i < f->n; i++) {
		memcpy(f->names[i], gs->data + (size_t)i * ETH_GSTRING_LEN,
		    ETH_GSTRING_LEN);
		f->names[i][ETH_GSTRING_LEN - 1] = '\0';
	}
	for (i = 0; i < blocks; i++) {
		f->avail[i] = gf->features[i].available;
		f->requested[i] = gf->features[i].requested;
		f->active[i] = gf->features[i].active;
		f->never[i] = gf->features[i].never_changed;
	}
	rc = 0;
out:
	free(gs);
	free(gf);
	return rc;
}

#define LX_BIT(w, i)	(((w)[(i) / 32] >> ((i) % 32)) & 1u)

/* The group's state: 1 any active, 0 none, -1 no such feature here. */
static int
lx_group_state(const struct lx_feats *f, const char *pattern)
{
	unsigned i;
	int	 st = -1;

	for (i = 0; i < f->n; i++) {
		if (fnmatch(pattern, f->names[i], 0) != 0)
			continue;
		if (LX_BIT(f->active, i))
			return 1;
		st = 0;
	}
	return st;
}

int
osdep_linux_ethtool_k(const char *ifname, struct parse_ethtool_k *ek)
{
	struct lx_feats	*f;
	struct parse_feature *pf;
	unsigned	 i;

	if (osdep_runner_set() || (f = malloc(sizeof(*f))) == NULL)
		return -1;
	if (lx_feats_read(ifname, f) == -1) {
		free(f);
		return -1;
	}
	memset(ek, 0, sizeof(*ek));
	snprintf(ek->ifname, sizeof(ek->ifname), "%s", ifname);
	for (i = 0; i < f->n && ek->nfeatures < PARSE_MAX_FEATURES; i++) {
		pf = &ek->features[ek->nfeatures++];
		snprintf(pf->name, sizeof(pf->name), "%s", f->names[i]);
		pf->on = (int)LX_BIT(f->active, i);
		pf->fixed = !LX_BIT(f->avail, i) || LX_BIT(f->never, i);
		pf->requested = (int)LX_BIT(f->requested, i);
	}
	ek->tso = lx_group_state(f, lx_groups[0].pattern);
	ek->txcsum = lx_group_state(f, lx_groups[1].pattern);
	ek->rxcsum = lx_group_state(f, lx_groups[2].pattern);
	ek->lro = lx_group_state(f, lx_groups[3].pattern);
	ek->gso = lx_group_state(f, lx_groups[4].pattern);
	ek->gro = lx_group_state(f, lx_groups[5].pattern);
	ek->sg = lx_group_state(f, lx_groups[6].pattern);
	ek->tso4 = lx_group_state(f, "tx-tcp-segmentation");
	if (ek->tso4 == -1)
		ek->tso4 = ek->tso;
	ek->tso_partial = ek->tso == 1 && ek->tso4 == 0;
	free(f);
	return 0;
}

int
osdep_linux_ethtool_i(const char *ifname, struct parse_ethtool_i *ei)
{
	struct ethtool_drvinfo	d;

	if (osdep_runner_set())
		return -1;
	memset(&d, 0, sizeof(d));
	d.cmd = ETHTOOL_GDRVINFO;
	if (osdep_linux_ethtool_ioctl(ifname, &d) == -1 || d.driver[0] == '\0')
		return -1;
	memset(ei, 0, sizeof(*ei));
#define LX_COPY(dst, src) \
	snprintf((dst), sizeof(dst), "%.*s", (int)sizeof(src), (src))
	LX_COPY(ei->driver, d.driver);
	LX_COPY(ei->version, d.version);
	LX_COPY(ei->firmware, d.fw_version);
	LX_COPY(ei->bus_info, d.bus_info);
#undef LX_COPY
	return 0;
}

/* r as a finished command: status, and stderr's one line when it failed. */
static int
lx_result(struct exec_result *r, int status, const char *msg)
{
	memset(r, 0, sizeof(*r));
	r->exited = 1;
	r->status = status;
	r->out = calloc(1, 1);
	r->err = strdup(msg);
	if (r->out == NULL || r->err == NULL) {
		exec_free(r);
		return -1;
	}
	r->errlen = strlen(r->err);
	return 0;
}

int
osdep_linux_ethtool_set(char *const argv[], struct exec_result *r)
{
	struct lx_feats	*f;
	struct ethtool_sfeatures *sf;
	const struct lx_group *g = NULL;
	char		 msg[160];
	unsigned	 i, blocks, nmatch = 0, nchange = 0;
	size_t		 k;
	int		 on, rc;

	if (osdep_runner_set() || argv[0] == NULL || strcmp(argv[0],
	    "ethtool") != 0 || argv[1] == NULL || strcmp(argv[1], "-K") != 0 ||
	    argv[2] == NULL || argv[3] == NULL || argv[4] == NULL ||
	    argv[5] != NULL)
		return -1;
	for (k = 0; k < LX_NGROUPS; k++)
		if (strcmp(argv[3], lx_groups[k].name) == 0)
			g = &lx_groups[k];
	if (g == NULL || (strcmp(argv[4], "on") != 0 &&
	    strcmp(argv[4], "off") != 0))
		return -1;
	on = strcmp(argv[4], "on") == 0;
	if ((f = malloc(sizeof(*f))) == NULL)
		return -1;
	if (lx_feats_read(argv[2], f) == -1) {
		free(f);
		return -1;
	}
	blocks = (f->n + 31) / 32;
	if ((sf = calloc(1, sizeof(*sf) + blocks *
	    sizeof(sf->features[0]))) == NULL) {
		free(f);
		return -1;
	}
	sf->cmd = ETHTOOL_SFEATURES;
	sf->size = blocks;
	for (i = 0; i < f->n; i++) {
		if (fnmatch(g->pattern, f->names[i], 0) != 0)
			continue;
		nmatch++;
		if (LX_BIT(f->avail, i) && !LX_BIT(f->never, i))
			nchange++;
		sf->features[i / 32].valid |= 1u << (i % 32);
		if (on)
			sf->features[i / 32].requested |= 1u << (i % 32);
	}
	free(f);
	if (nmatch == 0 || nchange == 0) {
		free(sf);
		snprintf(msg, sizeof(msg), "%s: %s cannot be changed (%s)",
		    argv[2], g->line, nmatch == 0 ? "no such feature" :
		    "fixed");
		return lx_result(r, 1, msg);
	}
	rc = osdep_linux_ethtool_ioctl(argv[2], sf);
	free(sf);
	if (rc == -1) {
		snprintf(msg, sizeof(msg), "%s: SIOCETHTOOL ETHTOOL_SFEATURES "
		    "%s %s: %s", argv[2], g->line, argv[4], strerror(errno));
		return lx_result(r, 1, msg);
	}
	return lx_result(r, 0, "");
}

#else	/* not Linux: ethtool runs, wherever there is one */

int
osdep_linux_ethtool_ioctl(const char *ifname, void *data)
{
	(void)ifname; (void)data;
	errno = ENOSYS;
	return -1;
}

int
osdep_linux_ethtool_k(const char *ifname, struct parse_ethtool_k *ek)
{
	(void)ifname; (void)ek;
	return -1;
}

int
osdep_linux_ethtool_i(const char *ifname, struct parse_ethtool_i *ei)
{
	(void)ifname; (void)ei;
	return -1;
}

int
osdep_linux_ethtool_set(char *const argv[], struct exec_result *r)
{
	(void)argv; (void)r;
	(void)lx_groups;
	return -1;
}

#endif
