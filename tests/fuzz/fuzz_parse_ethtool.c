/* fuzz_parse_ethtool: agents/parse.h parse_ethtool_k(),
 * parse_ethtool_feature() and parse_ethtool_i() on any bytes. */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct parse_ethtool_k	k;
	struct parse_ethtool_i		i;
	char				err[512];
	size_t				n;
	int				rc;

	err[0] = '\0';
	rc = parse_ethtool_k((const char *)data, size, &k, err, sizeof err);
	FUZZ_ERR(rc, err);
	if (rc == 0) {
		FUZZ_CHECK(k.nfeatures <= PARSE_MAX_FEATURES, "nfeatures %zu",
		    k.nfeatures);
		FUZZ_CHECK(memchr(k.ifname, '\0', sizeof k.ifname) != NULL,
		    "ifname not terminated");
		for (n = 0; n < k.nfeatures; n++) {
			FUZZ_CHECK(memchr(k.features[n].name, '\0',
			    sizeof k.features[n].name) != NULL,
			    "features[%zu] not terminated", n);
			FUZZ_CHECK(parse_ethtool_feature(&k,
			    k.features[n].name) != -1,
			    "features[%zu] %s not found", n,
			    k.features[n].name);
		}
		(void)parse_ethtool_feature(&k, "tcp-segmentation-offload");
	}
	err[0] = '\0';
	rc = parse_ethtool_i((const char *)data, size, &i, err, sizeof err);
	FUZZ_ERR(rc, err);
	if (rc == 0)
		FUZZ_CHECK(memchr(i.driver, '\0', sizeof i.driver) != NULL &&
		    memchr(i.version, '\0', sizeof i.version) != NULL &&
		    memchr(i.firmware, '\0', sizeof i.firmware) != NULL &&
		    memchr(i.bus_info, '\0', sizeof i.bus_info) != NULL,
		    "string not terminated");
	return 0;
}
