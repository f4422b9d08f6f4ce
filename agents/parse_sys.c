/*
 * parse_sys.c: host counters and timings: Linux /proc/net/dev, /proc/stat,
 * /proc/PID/stat; FreeBSD `netstat -I IF -bdnW` and `ps -o time`; the size
 * in sftp's `ls -ln` (the scp workload's check of the copy).  (scp's
 * progress meter is not read: it only shows on a tty, and the scp workload
 * takes its bytes from the file it sends and its seconds from the clock.)
 */
#include <string.h>

#include "parse.h"
#include "parse_util.h"

static void
sys_ifstats_init(struct parse_ifstats *s)
{
	s->rx_bytes = s->rx_packets = s->rx_errors = s->rx_dropped = -1;
	s->tx_bytes = s->tx_packets = s->tx_errors = s->tx_dropped = -1;
}

/* A counter token: digits (fits int64), or "-" for not available. */
static int
sys_counter(const struct parse_tok *t, int64_t *out)
{
	if (parse_tok_eq(t, "-")) {
		*out = -1;
		return 0;
	}
	return parse_i64(t->p, t->n, out) == -1 || *out < 0 ? -1 : 0;
}

int
parse_proc_net_dev(const char *text, size_t len, const char *ifname,
    struct parse_ifstats *out, char *err, size_t errlen)
{
	struct parse_lines l;
	struct parse_tok t[PARSE_MAX_TOKS], name;
	const char *line, *colon;
	size_t n, nt, i;
	int64_t v[16];

	sys_ifstats_init(out);
	if (parse_check_input("/proc/net/dev", text, len, err, errlen) == -1)
		return -1;
	if (ifname == NULL || *ifname == '\0') {
		parse_seterr(err, errlen, "/proc/net/dev: no interface name");
		return -1;
	}
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		if ((colon = memchr(line, ':', n)) == NULL ||
		    parse_split(line, (size_t)(colon - line), &name, 1) != 1 ||
		    name.n != strlen(ifname) ||
		    memcmp(name.p, ifname, name.n) != 0)
			continue;
		nt = parse_split(colon + 1, (size_t)(line + n - colon - 1), t,
		    PARSE_MAX_TOKS);
		if (nt != 16)
			goto bad;
		for (i = 0; i < 16; i++)
			if (parse_i64(t[i].p, t[i].n, &v[i]) == -1 || v[i] < 0)
				goto bad;
		out->rx_bytes = v[0];
		out->rx_packets = v[1];
		out->rx_errors = v[2];
		out->rx_dropped = v[3];
		out->tx_bytes = v[8];
		out->tx_packets = v[9];
		out->tx_errors = v[10];
		out->tx_dropped = v[11];
		return 0;
	}
	parse_seterr(err, errlen, "/proc/net/dev: no row for %s", ifname);
	return -1;
bad:
	parse_seterr(err, errlen, "/proc/net/dev: line %zu: %s needs 16 "
	    "counters in 0..2^63-1", l.lineno, ifname);
	return -1;
}

/* Column of name in the header tokens, or -1. */
static int
sys_col(const struct parse_tok *h, size_t nh, const char *name)
{
	size_t i;

	for (i = 0; i < nh; i++)
		if (parse_tok_eq(&h[i], name))
			return (int)i;
	return -1;
}

/*
 * The <Link#N> row of ifname.  Columns after "Address" are numeric and
 * right-aligned; the Address cell may be empty (lo0), so they are taken
 * from the end of the row.
 */
int
parse_netstat_if(const char *text, size_t len, const char *ifname,
    struct parse_ifstats *out, char *err, size_t errlen)
{
	static const char *cols[] = { "Ibytes", "Ipkts", "Ierrs", "Idrop",
	    "Obytes", "Opkts", "Oerrs", "Drop" };
	struct parse_lines l;
	struct parse_tok h[PARSE_MAX_TOKS], t[PARSE_MAX_TOKS];
	int64_t *dst[8];
	const char *line;
	size_t n, nh = 0, nt, tail, i, namelen;
	int addr = -1, c;

	sys_ifstats_init(out);
	dst[0] = &out->rx_bytes;
	dst[1] = &out->rx_packets;
	dst[2] = &out->rx_errors;
	dst[3] = &out->rx_dropped;
	dst[4] = &out->tx_bytes;
	dst[5] = &out->tx_packets;
	dst[6] = &out->tx_errors;
	dst[7] = &out->tx_dropped;
	if (parse_check_input("netstat", text, len, err, errlen) == -1)
		return -1;
	if (ifname == NULL || (namelen = strlen(ifname)) == 0) {
		parse_seterr(err, errlen, "netstat: no interface name");
		return -1;
	}
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		nt = parse_split(line, n, t, PARSE_MAX_TOKS);
		if (nt == 0 || nt > PARSE_MAX_TOKS)
			continue;
		if (parse_tok_eq(&t[0], "Name")) {
			nh = nt;
			memcpy(h, t, nt * sizeof(t[0]));
			addr = sys_col(h, nh, "Address");
			continue;
		}
		/* "em0" or "em0*" (down). */
		if (nh == 0 || addr < 0 || nt < 3 || t[0].n < namelen ||
		    memcmp(t[0].p, ifname, namelen) != 0 ||
		    (t[0].n != namelen && !(t[0].n == namelen + 1 &&
		    t[0].p[namelen] == '*')) ||
		    t[2].n < 6 || memcmp(t[2].p, "<Link#", 6) != 0)
			continue;
		tail = nh - (size_t)addr - 1;
		if (nt < tail + 3)
			goto bad;
		for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
			if ((c = sys_col(h, nh, cols[i])) <= addr)
				continue;
			if (sys_counter(&t[nt - (nh - (size_t)c)], dst[i]) == -1)
				goto bad;
		}
		if (out->rx_packets < 0 && out->tx_packets < 0)
			goto bad;
		return 0;
	}
	parse_seterr(err, errlen, "netstat: no <Link#> row for %s%s", ifname,
	    nh == 0 ? " (no header line)" : "");
	return -1;
bad:
	parse_seterr(err, errlen, "netstat: line %zu: bad counters for %s",
	    l.lineno, ifname);
	return -1;
}

int
parse_proc_stat(const char *text, size_t len, struct parse_cpu *out,
    char *err, size_t errlen)
{
	struct parse_lines l;
	struct parse_tok t[PARSE_MAX_TOKS];
	uint64_t *dst[8];
	const char *line;
	size_t n, nt, i;

	memset(out, 0, sizeof(*out));
	dst[0] = &out->user;
	dst[1] = &out->nice;
	dst[2] = &out->sys;
	dst[3] = &out->idle;
	dst[4] = &out->iowait;
	dst[5] = &out->irq;
	dst[6] = &out->softirq;
	dst[7] = &out->steal;
	if (parse_check_input("/proc/stat", text, len, err, errlen) == -1)
		return -1;
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		nt = parse_split(line, n, t, PARSE_MAX_TOKS);
		if (nt == 0 || nt > PARSE_MAX_TOKS || !parse_tok_eq(&t[0], "cpu"))
			continue;
		if (nt < 5)
			goto bad;
		for (i = 1; i < nt && i <= 8; i++)
			if (parse_u64(t[i].p, t[i].n, dst[i - 1]) == -1)
				goto bad;
		return 0;
	}
	parse_seterr(err, errlen, "/proc/stat: no cpu line");
	return -1;
bad:
	parse_seterr(err, errlen, "/proc/stat: line %zu: bad cpu line",
	    l.lineno);
	return -1;
}

int
parse_proc_pid_stat(const char *text, size_t len, struct parse_pidstat *out,
    char *err, size_t errlen)
{
	struct parse_tok t[16];
	const char *lp, *rp, *nl;
	size_t nt;

	memset(out, 0, sizeof(*out));
	if (parse_check_input("/proc/PID/stat", text, len, err, errlen) == -1)
		return -1;
	/* One line; comm may hold spaces and ')', so use the last ')'. */
	if ((nl = memchr(text, '\n', len)) == NULL)
		goto bad;
	lp = memchr(text, '(', (size_t)(nl - text));
	for (rp = nl; rp > text && rp[-1] != ')'; rp--)
		;
	if (lp == NULL || rp <= lp + 1)
		goto bad;
	(void)parse_copy(out->comm, sizeof(out->comm), lp + 1,
	    (size_t)(rp - lp - 2) < sizeof(out->comm) ?
	    (size_t)(rp - lp - 2) : sizeof(out->comm) - 1);
	/* Fields from state (3) on: utime is 14, stime 15. */
	nt = parse_split(rp, (size_t)(nl - rp), t, 16);
	if (nt < 13 || parse_u64(t[11].p, t[11].n, &out->utime) == -1 ||
	    parse_u64(t[12].p, t[12].n, &out->stime) == -1)
		goto bad;
	return 0;
bad:
	parse_seterr(err, errlen, "/proc/PID/stat: malformed line");
	return -1;
}

/* "[DD-][[HH:]MM:]SS[.cc]" -> seconds. */
static int
sys_clock(const char *s, size_t n, double *out)
{
	const char *dash, *p, *end = s + n, *colon;
	uint64_t days = 0, part;
	double sec = 0, last;
	int nparts = 0;

	if ((dash = memchr(s, '-', n)) != NULL) {
		if (parse_u64(s, (size_t)(dash - s), &days) == -1 ||
		    days > 100000)
			return -1;
		s = dash + 1;
	}
	for (p = s; (colon = memchr(p, ':', (size_t)(end - p))) != NULL;
	    p = colon + 1) {
		if (parse_u64(p, (size_t)(colon - p), &part) == -1 ||
		    (nparts > 0 && part >= 60) || part > 100000000 ||
		    ++nparts > 2)
			return -1;
		sec = sec * 60 + (double)part;
	}
	if (parse_num(p, (size_t)(end - p), &last) == -1 || last < 0 ||
	    (nparts > 0 && last >= 60))
		return -1;
	if (dash != NULL && nparts != 2)
		return -1;
	*out = (double)days * 86400 + sec * 60 + last;
	return 0;
}

int
parse_ps_time(const char *text, size_t len, double *out, char *err,
    size_t errlen)
{
	struct parse_lines l;
	struct parse_tok t[2];
	const char *line;
	size_t n;

	*out = -1;
	if (parse_check_input("ps", text, len, err, errlen) == -1)
		return -1;
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		if (parse_split(line, n, t, 1) != 1)
			continue;
		if (parse_tok_eq(&t[0], "TIME"))
			continue;
		if (sys_clock(t[0].p, t[0].n, out) == -1) {
			parse_seterr(err, errlen, "ps: bad cpu time");
			return -1;
		}
		return 0;
	}
	parse_seterr(err, errlen, "ps: no time value (process gone?)");
	return -1;
}

/* ---- sftp ls -ln -------------------------------------------------------- */

int
parse_sftp_ls_size(const char *text, size_t len, const char *path,
    uint64_t *size, char *err, size_t errlen)
{
	struct parse_lines l;
	struct parse_tok t[PARSE_MAX_TOKS];
	const char *line, *base = strrchr(path, '/');
	size_t n, nt;

	base = base != NULL ? base + 1 : path;
	if (parse_check_input("sftp ls", text, len, err, errlen) == -1)
		return -1;
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		/* "-rw-r--r--  1 0  0  1474560 Dec  1 08:00 /tmp/x.bin" (a
		 * batch echoes its commands as "sftp> ls -ln ..."). */
		nt = parse_split(line, n, t, PARSE_MAX_TOKS);
		if (nt < 9 || nt > PARSE_MAX_TOKS || t[0].p[0] != '-' ||
		    (!parse_tok_eq(&t[nt - 1], path) &&
		    !parse_tok_eq(&t[nt - 1], base)))
			continue;
		if (parse_u64(t[4].p, t[4].n, size) == -1 ||
		    (double)*size > PARSE_MAX_BYTES) {
			parse_seterr(err, errlen, "sftp ls: line %zu: bad size",
			    l.lineno);
			return -1;
		}
		return 0;
	}
	parse_seterr(err, errlen, "sftp ls: no listing of %s", path);
	return -1;
}
