/* fuzz_parse_ifconfig: agents/parse.h parse_ifconfig() on any bytes, for
 * the first block and for a named interface. */
#include "fuzz_parse.h"

static void
one(const uint8_t *data, size_t size, const char *ifname)
{
	struct parse_ifconfig	ifc;
	char			err[512];
	int			rc;

	err[0] = '\0';
	rc = parse_ifconfig((const char *)data, size, ifname, &ifc, err,
	    sizeof err);
	FUZZ_ERR(rc, err);
	if (rc != 0)
		return;
	FUZZ_CHECK(memchr(ifc.name, '\0', sizeof ifc.name) != NULL &&
	    memchr(ifc.media, '\0', sizeof ifc.media) != NULL &&
	    memchr(ifc.ether, '\0', sizeof ifc.ether) != NULL,
	    "string not terminated");
	FUZZ_CHECK(ifname == NULL || strcmp(ifc.name, ifname) == 0,
	    "asked for %s, got %s", ifname, ifc.name);
	FUZZ_CHECK(ifc.mtu >= PARSE_UNKNOWN, "mtu %d", ifc.mtu);
	FUZZ_CHECK(ifc.tso == (ifc.tso4 || ifc.tso6), "tso != tso4||tso6");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, NULL);
	one(data, size, "em0");
	return 0;
}
