/*
 * validate.c: argument patterns (see validate.h).  Patterns are deliberately
 * narrower than what the tools accept: a lab never needs an interface name
 * with a space or an address with a zone, and a hostile value must never
 * become an option or a path of a root command.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

#define IS_DIGIT(c)	((c) >= '0' && (c) <= '9')
#define IS_ALPHA(c)	(((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
#define IS_ALNUM(c)	(IS_ALPHA(c) || IS_DIGIT(c))

static int
all_in(const char *s, const char *extra)
{
	for (; *s != '\0'; s++)
		if (!IS_ALNUM(*s) && strchr(extra, *s) == NULL)
			return 0;
	return 1;
}

static const char *
check_ifname(const char *s)
{
	size_t	n = strlen(s);

	if (n == 0 || n > 15)
		return "must be 1-15 characters";
	if (!IS_ALPHA(s[0]))
		return "must start with a letter";
	if (!all_in(s, "_.-"))
		return "may only hold letters, digits, '_', '.', '-'";
	return NULL;
}

static const char *
check_ipv4(const char *s)
{
	int	 parts = 0, len;
	long	 v;
	const char *p = s;

	for (;;) {
		len = 0;
		v = 0;
		while (IS_DIGIT(p[len])) {
			v = v * 10 + (p[len] - '0');
			if (++len > 3)
				return "is not a dotted-quad IPv4 address";
		}
		if (len == 0 || v > 255 || (len > 1 && p[0] == '0'))
			return "is not a dotted-quad IPv4 address";
		parts++;
		p += len;
		if (*p == '\0')
			break;
		if (*p != '.' || parts == 4)
			return "is not a dotted-quad IPv4 address";
		p++;
	}
	return parts == 4 ? NULL : "is not a dotted-quad IPv4 address";
}

static const char *
check_ipv6(const char *s)
{
	struct in6_addr a;

	if (strlen(s) > 45 || strchr(s, ':') == NULL ||
	    !all_in(s, ":.") || inet_pton(AF_INET6, s, &a) != 1)
		return "is not an IPv6 address (no zone, no brackets)";
	return NULL;
}

static const char *
check_size(const char *s)
{
	size_t	n = strlen(s), i;

	if (n == 0 || n > 12)
		return "is not a size (digits with an optional k, m or g)";
	for (i = 0; i < n; i++) {
		if (IS_DIGIT(s[i]))
			continue;
		if (i == n - 1 && i > 0 && strchr("kKmMgG", s[i]) != NULL)
			continue;
		return "is not a size (digits with an optional k, m or g)";
	}
	if (s[0] == '0')
		return "is not a positive size";
	if (validate_size_bytes(s) > (1ULL << 36))
		return "is larger than 64 GiB";
	return NULL;
}

unsigned long long
validate_size_bytes(const char *s)
{
	unsigned long long v = 0;

	for (; IS_DIGIT(*s); s++) {
		if (v > (1ULL << 40))
			return ~0ULL;
		v = v * 10 + (unsigned)(*s - '0');
	}
	switch (*s) {
	case 'k': case 'K':
		return v << 10;
	case 'm': case 'M':
		return v << 20;
	case 'g': case 'G':
		return v << 30;
	default:
		return v;
	}
}

long
validate_number(const char *s)
{
	return strtol(s, NULL, 10);
}

static const char *
check_range(const char *s, long min, long max, int suffix_s)
{
	size_t	n = strlen(s), i;

	if (suffix_s && n > 1 && s[n - 1] == 's')
		n--;
	if (n == 0 || n > 9 || s[0] == '0')
		return "is not a positive decimal number";
	for (i = 0; i < n; i++)
		if (!IS_DIGIT(s[i]))
			return "is not a positive decimal number";
	if (validate_number(s) < min || validate_number(s) > max)
		return "is out of range";
	return NULL;
}

static const char *
check_pubkey(const char *s)
{
	const char *sp, *b64;
	size_t	 tlen, blen;

	if (strlen(s) > 8192)
		return "is too long for a public key";
	if ((sp = strchr(s, ' ')) == NULL)
		return "is not \"TYPE BASE64\"";
	tlen = (size_t)(sp - s);
	if (tlen == 0 || tlen > 40)
		return "has no key type";
	{
		char	type[48];

		memcpy(type, s, tlen);
		type[tlen] = '\0';
		if (strncmp(type, "ssh-", 4) != 0 &&
		    strncmp(type, "ecdsa-", 6) != 0 &&
		    strncmp(type, "sk-", 3) != 0)
			return "has an unknown key type";
		if (!all_in(type, "@.-"))
			return "has an unknown key type";
	}
	b64 = sp + 1;
	blen = strcspn(b64, " ");
	if (blen < 16)
		return "has no base64 key";
	{
		size_t	i;

		for (i = 0; i < blen; i++)
			if (!IS_ALNUM(b64[i]) && b64[i] != '+' &&
			    b64[i] != '/' && b64[i] != '=')
				return "has a key that is not base64";
	}
	/* An optional comment: printable, no quotes or control bytes. */
	if (b64[blen] == ' ' && !all_in(b64 + blen + 1, " _.@:-"))
		return "has a comment with unsafe characters";
	return NULL;
}

static const char *
check_useraddr(const char *s)
{
	const char *at = strchr(s, '@');
	char	 user[40];
	size_t	 n;

	if (at == NULL)
		return "is not USER@ADDRESS";
	n = (size_t)(at - s);
	if (n == 0 || n > 32)
		return "has no valid user name";
	memcpy(user, s, n);
	user[n] = '\0';
	if (!(IS_ALPHA(user[0]) || user[0] == '_') || !all_in(user, "_.-"))
		return "has no valid user name";
	if (check_ipv4(at + 1) != NULL && check_ipv6(at + 1) != NULL)
		return "has no valid IPv4/IPv6 address after '@'";
	return NULL;
}

static const char *
check_path(const char *s)
{
	if (s[0] != '/' || strlen(s) > 255)
		return "is not an absolute path (max 255)";
	if (!all_in(s, "_./+-"))
		return "has characters outside [A-Za-z0-9_./+-]";
	if (strstr(s, "/..") != NULL || strstr(s, "/-") != NULL)
		return "has a '..' or '-' component";
	return NULL;
}

static const char *
check_kind(enum validate_kind k, const char *v)
{
	switch (k) {
	case VALIDATE_FLAG:
		return NULL;
	case VALIDATE_IFNAME:
		return check_ifname(v);
	case VALIDATE_IPV4:
		return check_ipv4(v);
	case VALIDATE_IPV6:
		return check_ipv6(v);
	case VALIDATE_ADDR:
		if (check_ipv4(v) == NULL || check_ipv6(v) == NULL)
			return NULL;
		return "is not an IPv4 or IPv6 address";
	case VALIDATE_SIZE:
		return check_size(v);
	case VALIDATE_SECONDS:
		return check_range(v, 1, 86400, 1);
	case VALIDATE_ONOFF:
		if (strcmp(v, "on") == 0 || strcmp(v, "off") == 0)
			return NULL;
		return "must be on or off";
	case VALIDATE_TOOL:
		if (strcmp(v, "iperf2") == 0 || strcmp(v, "iperf3") == 0)
			return NULL;
		return "must be iperf2 or iperf3";
	case VALIDATE_NAT:
		if (strcmp(v, "off") == 0 || strcmp(v, "divert") == 0 ||
		    strcmp(v, "kernel") == 0)
			return NULL;
		return "must be off, divert or kernel";
	case VALIDATE_TAG:
		if (strlen(v) >= 1 && strlen(v) <= 32 && all_in(v, "_-") &&
		    v[0] != '-')
			return NULL;
		return "must be 1-32 of [A-Za-z0-9_-], not starting with '-'";
	case VALIDATE_PUBKEY:
		return check_pubkey(v);
	case VALIDATE_USERADDR:
		return check_useraddr(v);
	case VALIDATE_MTU:
		return check_range(v, 68, 65535, 0);
	case VALIDATE_PORT:
		return check_range(v, 1, 65535, 0);
	case VALIDATE_PARALLEL:
		return check_range(v, 1, 128, 0);
	case VALIDATE_PATH:
		return check_path(v);
	case VALIDATE_PROC:
		if (strlen(v) >= 1 && strlen(v) <= 19 && IS_ALNUM(v[0]) &&
		    all_in(v, "_.-"))
			return NULL;
		return "must be 1-19 of [A-Za-z0-9_.-]";
	case VALIDATE_FORMAT:
		if (strcmp(v, "csv") == 0 || strcmp(v, "text") == 0 ||
		    strcmp(v, "json") == 0 || strcmp(v, "json-stream") == 0)
			return NULL;
		return "must be csv, text, json or json-stream";
	case VALIDATE_TOKEN:
		if (strlen(v) >= 1 && strlen(v) <= 64 && all_in(v, "_.:@-") &&
		    v[0] != '-')
			return NULL;
		return "must be 1-64 of [A-Za-z0-9_.:@-], not starting with "
		    "'-'";
	case VALIDATE_PID:
		return check_range(v, 1, 999999999, 0);
	case VALIDATE_SPEED:
		return check_range(v, 1, 10000000, 0);
	case VALIDATE_MS:
		return check_range(v, 0, 600000, 0);
	}
	return "has an unknown kind";
}

/* Prints at most 40 bytes of a hostile value, unprintables as '?'. */
static void
sanitized(const char *v, char *out, size_t outlen)
{
	size_t	i;

	for (i = 0; v[i] != '\0' && i + 4 < outlen && i < 40; i++)
		out[i] = (v[i] >= 0x20 && v[i] < 0x7f && v[i] != '"') ?
		    v[i] : '?';
	out[i] = '\0';
	if (v[i] != '\0' && i + 4 <= outlen)
		strcat(out, "...");
}

int
validate_value(enum validate_kind k, const char *arg, const char *val,
    char *err, size_t errlen)
{
	const char *why;
	char	 shown[48];

	if (val == NULL) {
		snprintf(err, errlen, "%s: missing value", arg);
		return -1;
	}
	if ((why = check_kind(k, val)) == NULL)
		return 0;
	sanitized(val, shown, sizeof(shown));
	snprintf(err, errlen, "%s: \"%s\" %s", arg, shown, why);
	return -1;
}

struct validate_opt *
validate_opt(struct validate_opt *opts, const char *name)
{
	for (; opts->name != NULL; opts++)
		if (strcmp(opts->name, name) == 0)
			return opts;
	return NULL;
}

int
validate_args(struct validate_opt *opts, int argc, char **argv, char *err,
    size_t errlen)
{
	struct validate_opt *o;
	char	 shown[48];
	int	 i;

	for (o = opts; o->name != NULL; o++) {
		o->seen = 0;
		o->val = NULL;
	}
	for (i = 1; i < argc; i++) {
		if ((o = validate_opt(opts, argv[i])) == NULL) {
			sanitized(argv[i], shown, sizeof(shown));
			snprintf(err, errlen, "%s: unknown option \"%s\"",
			    argv[0], shown);
			return -1;
		}
		if (o->seen && (!o->multi || o->seen >= VALIDATE_MAXMULTI)) {
			snprintf(err, errlen, "%s: given too often", o->name);
			return -1;
		}
		if (o->kind == VALIDATE_FLAG)
			o->val = "";
		else {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "%s: missing value",
				    o->name);
				return -1;
			}
			if (validate_value(o->kind, o->name, argv[i + 1], err,
			    errlen) == -1)
				return -1;
			o->val = argv[++i];
		}
		o->vals[o->seen++] = o->val;
	}
	return 0;
}
