/*
 * agentctl_valid: the patterns of strings a lab host reports (revisions,
 * versions, drivers, interface names, ids), checked by the decoder before
 * they are believed; a string that fails one is refused, not cleaned.
 */
#include <string.h>

#include "agentctl_int.h"

static int
all_in(const char *s, size_t min, size_t max, const char *set)
{
	size_t	len = strlen(s);

	return len >= min && len <= max && strspn(s, set) == len;
}

#define P_ALNUM	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
		"0123456789"

/* A kernel revision: ^[A-Za-z0-9._-]{1,64}$ (schemas/history.schema.json) */
int
agentctl_rev_ok(const char *s)
{
	return all_in(s, 1, 64, P_ALNUM "._-");
}

/* A version: "2.1.8", "OpenSSH_9.2p1", "8.1-PRERELEASE", "6.1.0-13+b1". */
int
agentctl_version_ok(const char *s)
{
	return all_in(s, 1, 127, P_ALNUM "._+~-");
}

/* A driver: "em", "virtio_net", "8139too", "mlx5_core". */
int
agentctl_driver_ok(const char *s)
{
	return all_in(s, 1, 31, P_ALNUM "_.-") && s[0] != '.' && s[0] != '-';
}

/* An interface name as the agent reports it. */
int
agentctl_ifname_ok(const char *s)
{
	return all_in(s, 1, 31, P_ALNUM "_.:-") && s[0] != '-';
}

/* "0x10968086", "0x8086". */
int
agentctl_hexid_ok(const char *s)
{
	return s[0] == '0' && s[1] == 'x' &&
	    all_in(s + 2, 1, 12, "0123456789abcdefABCDEF");
}

int
agentctl_hash_ok(const char *s)
{
	return all_in(s, 1, 31, "0123456789abcdef");
}

int
agentctl_os_ok(const char *s)
{
	return strcmp(s, "freebsd") == 0 || strcmp(s, "linux") == 0;
}

/* Keys and tags, passed on to another host: printable ASCII, one line. */
int
agentctl_printable_ok(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}
