/*
 * parse_nic.c: NIC identity and offload state from FreeBSD `ifconfig [-m]`
 * and `pciconf -lv`, and Linux `ethtool -k` / `ethtool -i`.
 *
 * ifconfig: the options= hex is trusted over the names in <...> (names
 * differ between releases, the bits do not).  pciconf: accepts the real
 * `em0@pci0:4:0:0:<TAB>class=...` form and the mail-munged forms in the
 * seeds (" at " for '@', fields wrapped onto the next line), and both the
 * card=/chip= and the vendor=/device= field sets.
 */
#include <stddef.h>
#include <string.h>

#include "parse.h"
#include "parse_util.h"

#define NIC_MAX_MTU	(1 << 20)

static int
nic_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* "8843<UP,...>" -> 0x8843; the hex ends at '<' or the token end. */
static int
nic_hexbits(const char *s, size_t n, uint32_t *out)
{
	const char *lt = memchr(s, '<', n);

	if (lt != NULL)
		n = (size_t)(lt - s);
	return parse_hex32(s, n, out);
}

/*
 * A real block header: "NAME: flags=..." (NAME of [A-Za-z0-9_.-]).  Only
 * these start an interface's block; anything else is inside one.
 */
static int
nic_is_header(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len && ((line[i] >= 'a' && line[i] <= 'z') ||
	    (line[i] >= 'A' && line[i] <= 'Z') || (line[i] >= '0' &&
	    line[i] <= '9') || line[i] == '_' || line[i] == '.' ||
	    line[i] == '-'); i++)
		;
	if (i == 0 || i >= PARSE_NAMESZ || i + 1 >= len || line[i] != ':')
		return 0;
	for (i++; i < len && nic_blank(line[i]); i++)
		;
	return len - i > 6 && memcmp(line + i, "flags=", 6) == 0;
}

/*
 * Header words: "flags=8843<...>", "metric 0", "mtu 9000"; the header may
 * be wrapped over several lines, so *want_mtu carries an "mtu" whose
 * value is on the next line.  -1 for a bad flags or mtu value.
 */
static int
nic_if_header(const char *line, size_t len, int first,
    struct parse_ifconfig *out, int *want_mtu)
{
	struct parse_tok t[PARSE_MAX_TOKS];
	size_t nt, i = 0;
	uint64_t mtu;

	nt = parse_split(line, len, t, PARSE_MAX_TOKS);
	if (nt > PARSE_MAX_TOKS)
		return -1;
	if (first) {
		if (nt < 2 || parse_copy(out->name, sizeof(out->name), t[0].p,
		    t[0].n - 1) == -1)
			return -1;
		i = 1;
	}
	for (; i < nt; i++) {
		if (*want_mtu) {
			*want_mtu = 0;
			if (parse_u64(t[i].p, t[i].n, &mtu) == -1 || mtu == 0 ||
			    mtu > NIC_MAX_MTU)
				return -1;
			out->mtu = (int)mtu;
		} else if (t[i].n > 6 && memcmp(t[i].p, "flags=", 6) == 0) {
			if (nic_hexbits(t[i].p + 6, t[i].n - 6,
			    &out->flags) == -1)
				return -1;
			out->up = (out->flags & 0x1) != 0;
		} else if (parse_tok_eq(&t[i], "mtu"))
			*want_mtu = 1;
	}
	return 0;
}

/* A body line that lost its leading tab starts with one of these. */
static int
nic_body_word(const char *line, size_t len)
{
	static const char *words[] = { "ether ", "inet ", "inet6 ",
	    "media:", "status:", "nd6 ", "groups:", "lladdr ", "hwaddr ",
	    "supported ", "plugged:", "vendor:" };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (parse_prefix(line, len, words[i], 1) != NULL)
			return 1;
	return memchr(line, '=', len) != NULL;
}

static int
nic_contains(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word), i;

	for (i = 0; i + w <= n; i++)
		if (memcmp(s + i, word, w) == 0)
			return 1;
	return 0;
}

/* Speed word: "1000baseTX", "10Gbase-SR", "2500Base-T" -> Mbit/s. */
static int
nic_speed(const char *s, size_t n)
{
	size_t i = 0;
	long v = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9' && v < 1000000)
		v = v * 10 + (s[i++] - '0');
	if (i == 0 || v >= 1000000)
		return PARSE_UNKNOWN;
	if (i < n && s[i] == 'G') {
		v *= 1000;
		i++;
	}
	if (n - i < 4 || (memcmp(s + i, "base", 4) != 0 &&
	    memcmp(s + i, "Base", 4) != 0))
		return PARSE_UNKNOWN;
	return (int)v;
}

static void
nic_media(const char *s, size_t n, struct parse_ifconfig *out)
{
	struct parse_tok t[PARSE_MAX_TOKS];
	const char *lp, *rp;
	size_t nt, i;
	int sp;

	while (n > 0 && nic_blank(*s)) {
		s++;
		n--;
	}
	(void)parse_copy(out->media, sizeof(out->media), s,
	    n < sizeof(out->media) ? n : sizeof(out->media) - 1);
	/* The active media is in parentheses when autoselected. */
	if ((lp = memchr(s, '(', n)) != NULL &&
	    (rp = memchr(lp, ')', (size_t)(s + n - lp))) != NULL) {
		s = lp + 1;
		n = (size_t)(rp - lp - 1);
	}
	nt = parse_split(s, n, t, PARSE_MAX_TOKS);
	for (i = 0; i < nt && i < PARSE_MAX_TOKS; i++) {
		if ((sp = nic_speed(t[i].p, t[i].n)) != PARSE_UNKNOWN)
			out->speed_mbps = sp;
		if (nic_contains(t[i].p, t[i].n, "full-duplex"))
			out->duplex = PARSE_DUPLEX_FULL;
		else if (nic_contains(t[i].p, t[i].n, "half-duplex"))
			out->duplex = PARSE_DUPLEX_HALF;
	}
}

static int
nic_if_body(const char *p, size_t n, struct parse_ifconfig *out)
{
	const char *v;

	if ((v = parse_prefix(p, n, "options=", 0)) != NULL)
		return nic_hexbits(v, (size_t)(p + n - v), &out->options);
	if ((v = parse_prefix(p, n, "capabilities=", 0)) != NULL) {
		out->has_capabilities = 1;
		return nic_hexbits(v, (size_t)(p + n - v),
		    &out->capabilities);
	}
	if ((v = parse_prefix(p, n, "ether ", 0)) != NULL) {
		while (v < p + n && nic_blank(*v))
			v++;
		if ((size_t)(p + n - v) == 17)
			(void)parse_copy(out->ether, sizeof(out->ether), v, 17);
		return 0;
	}
	if ((v = parse_prefix(p, n, "media:", 0)) != NULL) {
		nic_media(v, (size_t)(p + n - v), out);
		return 0;
	}
	if ((v = parse_prefix(p, n, "status:", 0)) != NULL) {
		while (v < p + n && nic_blank(*v))
			v++;
		if ((size_t)(p + n - v) == 6 && memcmp(v, "active", 6) == 0)
			out->active = 1;
		else if ((size_t)(p + n - v) == 10 &&
		    memcmp(v, "no carrier", 10) == 0)
			out->active = 0;
	}
	return 0;
}

static void
nic_ifconfig_init(struct parse_ifconfig *out)
{
	memset(out, 0, sizeof(*out));
	out->mtu = out->speed_mbps = PARSE_UNKNOWN;
	out->duplex = PARSE_DUPLEX_UNKNOWN;
	out->active = -1;
}

/* The wanted block into out: 1 found, 0 not, -1 with err. */
static int
nic_ifconfig_block(const char *text, size_t len, const char *ifname,
    struct parse_ifconfig *out, size_t *body, char *err, size_t errlen)
{
	struct parse_lines l;
	struct parse_ifconfig hdr;
	const char *line;
	size_t n, i;
	int in = 0, found = 0, cont = 0, want_mtu = 0, bad;

	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		/* ifconfig prints no blank line inside a block: text after
		 * one (a transcript's next command) is not the interface's. */
		if (n == 0 && found)
			break;
		if (n == 0)
			continue;
		if (nic_is_header(line, n)) {
			if (found)
				break;	/* the next interface */
			nic_ifconfig_init(&hdr);
			want_mtu = 0;
			bad = nic_if_header(line, n, 1, &hdr, &want_mtu);
			in = ifname == NULL || strcmp(hdr.name, ifname) == 0;
			if (!in)
				continue;
			if (bad == -1)
				goto badhdr;
			*out = hdr;
			found = cont = 1;
			continue;
		}
		if (!in)
			continue;
		/* A header wrapped onto the next line goes on. */
		if (cont && !nic_blank(line[0]) && !nic_body_word(line, n)) {
			if (nic_if_header(line, n, 0, out, &want_mtu) == -1)
				goto badhdr;
			continue;
		}
		cont = 0;
		if (want_mtu)
			break;
		for (i = 0; i < n && nic_blank(line[i]); i++)
			;
		(*body)++;
		if (nic_if_body(line + i, n - i, out) == -1) {
			parse_seterr(err, errlen, "ifconfig: line %zu: bad "
			    "hex bits", l.lineno);
			return -1;
		}
	}
	if (found && want_mtu) {
		parse_seterr(err, errlen, "ifconfig: %s: mtu without a value",
		    out->name);
		return -1;
	}
	return found;
badhdr:
	parse_seterr(err, errlen, "ifconfig: line %zu: bad flags or mtu in "
	    "the header of %s", l.lineno, hdr.name);
	return -1;
}

int
parse_ifconfig(const char *text, size_t len, const char *ifname,
    struct parse_ifconfig *out, char *err, size_t errlen)
{
	size_t body = 0;
	int rc;

	nic_ifconfig_init(out);
	if (parse_check_input("ifconfig", text, len, err, errlen) == -1)
		return -1;
	if ((rc = nic_ifconfig_block(text, len, ifname, out, &body, err,
	    errlen)) == -1)
		return -1;
	if (rc == 0) {
		parse_seterr(err, errlen, "ifconfig: no interface %s in the "
		    "output", ifname != NULL ? ifname : "block");
		return -1;
	}
	/* options= follows the header when set; a lone header is cut off. */
	if (body == 0) {
		parse_seterr(err, errlen, "ifconfig: %s: only the header line "
		    "(truncated output?)", out->name);
		return -1;
	}
	out->rxcsum = (out->options & PARSE_IFCAP_RXCSUM) != 0;
	out->txcsum = (out->options & PARSE_IFCAP_TXCSUM) != 0;
	out->tso4 = (out->options & PARSE_IFCAP_TSO4) != 0;
	out->tso6 = (out->options & PARSE_IFCAP_TSO6) != 0;
	out->lro = (out->options & PARSE_IFCAP_LRO) != 0;
	out->tso = out->tso4 || out->tso6;
	return 0;
}

/* ---- pciconf -lv -------------------------------------------------------- */

/*
 * "em0@pci0:4:0:0:" or "em0 at pci0:4:0:0:" at the start of line: the
 * device's name and selector; returns the rest of the line, or NULL.
 */
static const char *
nic_pci_entry(const char *line, size_t len, struct parse_pcidev *d)
{
	const char *p = line, *end = line + len, *name_end, *sel;
	size_t i;

	while (p < end && ((*p >= 'a' && *p <= 'z') || (*p >= '0' &&
	    *p <= '9') || *p == '_'))
		p++;
	name_end = p;
	if (name_end == line)
		return NULL;
	if (p < end && *p == '@')
		p++;
	else if (end - p >= 4 && memcmp(p, " at ", 4) == 0)
		p += 4;
	else
		return NULL;
	if (end - p < 4 || memcmp(p, "pci", 3) != 0)
		return NULL;
	sel = p;
	while (p < end && !nic_blank(*p))
		p++;
	/* Selector "pci0:4:0:0:" without the trailing colon. */
	if (p - sel < 5 || p[-1] != ':' || parse_copy(d->selector,
	    sizeof(d->selector), sel, (size_t)(p - sel - 1)) == -1 ||
	    parse_copy(d->name, sizeof(d->name), line,
	    (size_t)(name_end - line)) == -1)
		return NULL;
	for (i = (size_t)(name_end - line); i > 0 && line[i - 1] >= '0' &&
	    line[i - 1] <= '9'; i--)
		;
	if (i == 0 || i == (size_t)(name_end - line) ||
	    (size_t)(name_end - line) - i > 6)
		return NULL;
	(void)parse_copy(d->driver, sizeof(d->driver), line, i);
	d->unit = 0;
	for (; line + i < name_end; i++)
		d->unit = d->unit * 10 + (line[i] - '0');
	if (strcmp(d->driver, "none") == 0)
		d->driver[0] = '\0';
	return p;
}

/* "class=0x020000 card=... chip=..." fields (any order, any subset). */
static int
nic_pci_fields(const char *s, size_t n, struct parse_pcidev *d)
{
	struct parse_tok t[PARSE_MAX_TOKS];
	const char *eq;
	size_t nt, i, k;
	uint32_t v;

	nt = parse_split(s, n, t, PARSE_MAX_TOKS);
	if (nt > PARSE_MAX_TOKS)
		return -1;
	for (i = 0; i < nt; i++) {
		if ((eq = memchr(t[i].p, '=', t[i].n)) == NULL)
			return -1;
		k = (size_t)(eq - t[i].p);
		if (parse_hex32(eq + 1, t[i].n - k - 1, &v) == -1)
			return -1;
#define FIELD(name) (k == sizeof(name) - 1 && memcmp(t[i].p, name, k) == 0)
		if (FIELD("class"))
			d->class_code = v;
		else if (FIELD("card")) {
			d->card = v;
			d->subvendor_id = (uint16_t)(v & 0xffff);
			d->subdevice_id = (uint16_t)(v >> 16);
		} else if (FIELD("chip")) {
			d->chip = v;
			d->vendor_id = (uint16_t)(v & 0xffff);
			d->device_id = (uint16_t)(v >> 16);
		} else if (FIELD("rev"))
			d->rev = (int)(v & 0xff);
		else if (FIELD("vendor") && v <= 0xffff)
			d->vendor_id = (uint16_t)v;
		else if (FIELD("device") && v <= 0xffff)
			d->device_id = (uint16_t)v;
		else if (FIELD("subvendor") && v <= 0xffff)
			d->subvendor_id = (uint16_t)v;
		else if (FIELD("subdevice") && v <= 0xffff)
			d->subdevice_id = (uint16_t)v;
		else if (!FIELD("hdr"))
			return -1;
#undef FIELD
	}
	d->chip = (uint32_t)d->device_id << 16 | d->vendor_id;
	d->card = (uint32_t)d->subdevice_id << 16 | d->subvendor_id;
	return 0;
}

/* "    vendor     = 'Intel Corporation'" */
static void
nic_pci_string(const char *s, size_t n, struct parse_pcidev *d)
{
	const char *eq, *q1, *q2;
	char *dst;
	size_t k, sz;

	if ((eq = memchr(s, '=', n)) == NULL)
		return;
	for (k = (size_t)(eq - s); k > 0 && nic_blank(s[k - 1]); k--)
		;
	if ((q1 = memchr(eq, '\'', (size_t)(s + n - eq))) != NULL) {
		q2 = s + n;
		while (q2 > q1 + 1 && q2[-1] != '\'')
			q2--;
		if (q2 <= q1 + 1)
			return;
	} else {
		/* class/subclass are printed without quotes. */
		for (q1 = eq; q1 + 1 < s + n && nic_blank(q1[1]); q1++)
			;
		q2 = s + n + 1;
	}
	if (k == 6 && memcmp(s, "vendor", 6) == 0) {
		dst = d->vendor;
		sz = sizeof(d->vendor);
	} else if (k == 6 && memcmp(s, "device", 6) == 0) {
		dst = d->device;
		sz = sizeof(d->device);
	} else if (k == 5 && memcmp(s, "class", 5) == 0) {
		dst = d->class_name;
		sz = sizeof(d->class_name);
	} else if (k == 8 && memcmp(s, "subclass", 8) == 0) {
		dst = d->subclass;
		sz = sizeof(d->subclass);
	} else
		return;
	k = (size_t)(q2 - 1 - (q1 + 1));
	(void)parse_copy(dst, sz, q1 + 1, k < sz ? k : sz - 1);
}

int
parse_pciconf(const char *text, size_t len, struct parse_pciconf *out,
    char *err, size_t errlen)
{
	struct parse_lines l;
	struct parse_pcidev *d = NULL, tmp;
	const char *line, *rest;
	size_t n, i;
	int wrap = 0;

	memset(out, 0, sizeof(*out));
	if (parse_check_input("pciconf", text, len, err, errlen) == -1)
		return -1;
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		memset(&tmp, 0, sizeof(tmp));
		tmp.rev = PARSE_UNKNOWN;
		if ((rest = nic_pci_entry(line, n, &tmp)) != NULL) {
			if (out->ndevs == PARSE_MAX_PCIDEVS) {
				parse_seterr(err, errlen, "pciconf: more than "
				    "%d devices", PARSE_MAX_PCIDEVS);
				return -1;
			}
			if (nic_pci_fields(rest, (size_t)(line + n - rest),
			    &tmp) == -1)
				goto bad;
			d = &out->devs[out->ndevs++];
			*d = tmp;
			wrap = 1;
			continue;
		}
		if (d == NULL || n == 0) {
			wrap = 0;
			continue;
		}
		if (wrap && memchr(line, '=', n) != NULL && !nic_blank(line[0])) {
			/* The seed's mail-wrapped "rev=0x12 hdr=0x00"; prose
			 * that only looks like it is left alone. */
			wrap = 0;
			tmp = *d;
			if (nic_pci_fields(line, n, &tmp) == 0)
				*d = tmp;
			continue;
		}
		wrap = 0;
		for (i = 0; i < n && nic_blank(line[i]); i++)
			;
		if (i > 0)
			nic_pci_string(line + i, n - i, d);
	}
	if (out->ndevs == 0) {
		parse_seterr(err, errlen, "pciconf: no device lines");
		return -1;
	}
	for (i = 0; i < out->ndevs; i++)
		if (out->devs[i].chip == 0) {
			parse_seterr(err, errlen, "pciconf: %s has no chip= or "
			    "vendor=/device= ids", out->devs[i].name);
			return -1;
		}
	return 0;
bad:
	parse_seterr(err, errlen, "pciconf: line %zu: bad device fields",
	    l.lineno);
	return -1;
}

const struct parse_pcidev *
parse_pciconf_find(const struct parse_pciconf *pc, const char *name)
{
	size_t i;

	for (i = 0; pc != NULL && name != NULL && i < pc->ndevs; i++)
		if (strcmp(pc->devs[i].name, name) == 0)
			return &pc->devs[i];
	return NULL;
}

/* ---- ethtool ------------------------------------------------------------ */

static int *
nic_shortcut(struct parse_ethtool_k *k, const char *name, size_t n)
{
	static const struct {
		const char	*name;
		size_t		 off;
	} map[] = {
		{ "tcp-segmentation-offload", offsetof(struct parse_ethtool_k, tso) },
		{ "large-receive-offload", offsetof(struct parse_ethtool_k, lro) },
		{ "generic-segmentation-offload", offsetof(struct parse_ethtool_k, gso) },
		{ "generic-receive-offload", offsetof(struct parse_ethtool_k, gro) },
		{ "rx-checksumming", offsetof(struct parse_ethtool_k, rxcsum) },
		{ "tx-checksumming", offsetof(struct parse_ethtool_k, txcsum) },
		{ "scatter-gather", offsetof(struct parse_ethtool_k, sg) },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].name) == n && memcmp(map[i].name, name,
		    n) == 0)
			return (int *)(void *)((char *)k + map[i].off);
	return NULL;
}

/* "name: on [fixed]" -> 1 and *f; 0 when the line is something else. */
static int
nic_feature_line(const char *line, size_t len, struct parse_feature *f)
{
	struct parse_tok t[8];
	const char *colon;
	size_t nt, i = 0;

	memset(f, 0, sizeof(*f));
	while (i < len && nic_blank(line[i]))
		i++;
	if ((colon = memchr(line + i, ':', len - i)) == NULL ||
	    colon == line + i)
		return 0;
	nt = parse_split(colon + 1, (size_t)(line + len - colon - 1), t, 8);
	if (nt < 1 || nt > 3 || parse_copy(f->name, sizeof(f->name), line + i,
	    (size_t)(colon - line - (long)i)) == -1)
		return 0;
	/* Old ethtool: "tcp segmentation offload: on". */
	for (i = 0; f->name[i] != '\0'; i++)
		if (f->name[i] == ' ')
			f->name[i] = '-';
	if (parse_tok_eq(&t[0], "on"))
		f->on = 1;
	else if (parse_tok_eq(&t[0], "off"))
		f->on = 0;
	else
		return 0;
	f->fixed = 0;
	f->requested = -1;
	if (nt == 2 && parse_tok_eq(&t[1], "[fixed]"))
		f->fixed = 1;
	else if (nt == 3 && parse_tok_eq(&t[1], "[requested"))
		f->requested = parse_tok_eq(&t[2], "on]") ? 1 :
		    parse_tok_eq(&t[2], "off]") ? 0 : -1;
	else if (nt != 1)
		return 0;
	return 1;
}

/* "Features for em0:" (ethtool 3.0+) or "Offload parameters for em0:"
 * (older): the interface name, or NULL if line is no such header. */
static const char *
nic_ethtool_header(const char *line, size_t n, size_t *namelen)
{
	const char *v;

	if ((v = parse_prefix(line, n, "Features for ", 0)) == NULL &&
	    (v = parse_prefix(line, n, "Offload parameters for ", 0)) == NULL)
		return NULL;
	if (n == 0 || line[n - 1] != ':')
		return NULL;
	*namelen = (size_t)(line + n - 1 - v);
	return v;
}

static void
nic_ethtool_tso(struct parse_ethtool_k *out)
{
	int v4 = parse_ethtool_feature(out, "tx-tcp-segmentation");

	out->tso4 = v4 >= 0 ? v4 : out->tso;
	out->tso_partial = out->tso == 1 && v4 == 0;
}

int
parse_ethtool_k(const char *text, size_t len, struct parse_ethtool_k *out,
    char *err, size_t errlen)
{
	struct parse_lines l;
	struct parse_feature f;
	const char *line, *v;
	size_t n, seen = 0, vn;
	int *sc, headers = 0;

	memset(out, 0, sizeof(*out));
	out->tso = out->lro = out->gso = out->gro = -1;
	out->rxcsum = out->txcsum = out->sg = out->tso4 = -1;
	if (parse_check_input("ethtool -k", text, len, err, errlen) == -1)
		return -1;
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		if ((v = nic_ethtool_header(line, n, &vn)) != NULL) {
			if (headers++ > 0) {
				parse_seterr(err, errlen, "ethtool -k: line "
				    "%zu: a second interface's output (%.*s "
				    "after %s)", l.lineno, vn < 32 ? (int)vn :
				    32, v, out->ifname);
				return -1;
			}
			(void)parse_copy(out->ifname, sizeof(out->ifname), v,
			    vn);
			continue;
		}
		if (!nic_feature_line(line, n, &f))
			continue;
		seen++;
		if ((sc = nic_shortcut(out, f.name, strlen(f.name))) != NULL)
			*sc = f.on;
		if (out->nfeatures < PARSE_MAX_FEATURES)
			out->features[out->nfeatures++] = f;
	}
	if (seen == 0) {
		parse_seterr(err, errlen, "ethtool -k: no feature lines");
		return -1;
	}
	nic_ethtool_tso(out);
	return 0;
}

int
parse_ethtool_feature(const struct parse_ethtool_k *k, const char *name)
{
	size_t i;

	for (i = 0; k != NULL && name != NULL && i < k->nfeatures; i++)
		if (strcmp(k->features[i].name, name) == 0)
			return k->features[i].on;
	return -1;
}

int
parse_ethtool_i(const char *text, size_t len, struct parse_ethtool_i *out,
    char *err, size_t errlen)
{
	static const struct {
		const char	*key;
		size_t		 off, sz;
	} map[] = {
		{ "driver:", offsetof(struct parse_ethtool_i, driver), PARSE_NAMESZ },
		{ "version:", offsetof(struct parse_ethtool_i, version), 64 },
		{ "firmware-version:", offsetof(struct parse_ethtool_i, firmware), 64 },
		{ "bus-info:", offsetof(struct parse_ethtool_i, bus_info), 64 },
	};
	struct parse_lines l;
	const char *line, *v;
	size_t n, i, k;
	unsigned seen = 0;

	memset(out, 0, sizeof(*out));
	if (parse_check_input("ethtool -i", text, len, err, errlen) == -1)
		return -1;
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
			if ((v = parse_prefix(line, n, map[i].key, 0)) == NULL)
				continue;
			/* One interface's answer names each key once. */
			if (seen & (1u << i)) {
				parse_seterr(err, errlen, "ethtool -i: line "
				    "%zu: a second \"%s\" line (outputs of "
				    "two interfaces?)", l.lineno, map[i].key);
				return -1;
			}
			seen |= 1u << i;
			while (v < line + n && nic_blank(*v))
				v++;
			k = (size_t)(line + n - v);
			/* Long versions are cut; a cut driver name is wrong. */
			if (i > 0 && k >= map[i].sz)
				k = map[i].sz - 1;
			if (parse_copy((char *)out + map[i].off, map[i].sz, v,
			    k) == -1) {
				parse_seterr(err, errlen, "ethtool -i: line "
				    "%zu: value too long", l.lineno);
				return -1;
			}
		}
	}
	if (out->driver[0] == '\0') {
		parse_seterr(err, errlen, "ethtool -i: no driver line");
		return -1;
	}
	return 0;
}
