/* fuzz_parse_ping: agents/parse.h parse_ping(), the preflight's
 * don't-fragment ping, on any bytes; on success the figures keep their
 * documented ranges and agent_preflight_ping_judge() passes a path only
 * when a full-size echo reply was counted. */
#include "fuzz_parse.h"
#include "agent.h"

/* A round-trip time: -1 (absent) or a finite figure >= 0. */
#define FUZZ_RTT(v) FUZZ_CHECK((v) == -1.0 || (isfinite(v) && (v) >= 0),\
	    "%s = %g", #v, (v))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int sizes[] = { 1472, 8972, 65507 };
	struct parse_ping p;
	char		 err[512], detail[512];
	size_t		 i;
	int		 rc, ok;

	err[0] = '\0';
	rc = parse_ping((const char *)data, size, &p, err, sizeof err);
	FUZZ_ERR(rc, err);
	FUZZ_CHECK(rc == 0 || rc == -1, "rc %d", rc);
	FUZZ_CHECK(memchr(p.message, '\0', sizeof p.message) != NULL,
	    "message not terminated");
	if (rc != 0)
		return 0;
	FUZZ_CHECK(p.has_stats == 1, "parsed without a statistics line");
	FUZZ_CHECK(p.transmitted >= 0 && p.transmitted <= 1000000,
	    "transmitted %d", p.transmitted);
	FUZZ_CHECK(p.received >= 0 && p.received <= p.transmitted,
	    "received %d of %d", p.received, p.transmitted);
	FUZZ_CHECK(p.errors >= 0 && p.errors <= 1000000, "errors %d",
	    p.errors);
	FUZZ_CHECK(p.size >= -1 && p.replies >= 0 && p.reply_bytes >= 0 &&
	    p.frag_mtu >= -1 && p.local_mtu >= -1, "size %d replies %d "
	    "reply_bytes %d frag_mtu %d local_mtu %d", p.size, p.replies,
	    p.reply_bytes, p.frag_mtu, p.local_mtu);
	FUZZ_RTT(p.rtt_min_ms);
	FUZZ_RTT(p.rtt_avg_ms);
	FUZZ_RTT(p.rtt_max_ms);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		detail[0] = '\0';
		ok = agent_preflight_ping_judge(&p, sizes[i], "198.18.1.2",
		    detail, sizeof detail);
		FUZZ_CHECK(ok == 0 || ok == 1, "judge %d", ok);
		FUZZ_CHECK(detail[0] != '\0' &&
		    memchr(detail, '\0', sizeof detail) != NULL,
		    "judge left no detail");
		FUZZ_CHECK(!ok || (p.received > 0 && p.replies > 0 &&
		    p.reply_bytes >= sizes[i] + 8), "path of %d bytes passed "
		    "with %d received, %d replies of %d bytes", sizes[i],
		    p.received, p.replies, p.reply_bytes);
	}
	return 0;
}
