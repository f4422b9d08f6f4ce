/*
 * fuzz_agentctl_decode: agentctl_decode() (the agent's JSON lines into
 * typed replies) on any bytes, decoded as the answer of every command:
 * exit 0, a nonzero exit, and as output cut at its ceiling.  Every call
 * must end with a reason or a result, and agentctl_reply_free() must leave
 * nothing allocated.
 */
#include "agentctl.h"
#include "fuzz.h"

static void
one(enum agentctl_cmd cmd, const uint8_t *data, size_t size, int truncated,
    int exit_status)
{
	static struct agentctl_reply	r;	/* ~50 KB */
	char				err[1024];
	int				rc;

	err[0] = '\0';
	rc = agentctl_decode("fuzz-host", agentctl_cmd_name(cmd), cmd,
	    (const char *)data, size, truncated, exit_status, &r, err,
	    sizeof err);
	FUZZ_ERR(rc, err);
	FUZZ_CHECK(rc == 0 || rc == -1, "rc %d", rc);
	FUZZ_CHECK(rc != 0 || (r.has_result && exit_status == 0 &&
	    !truncated), "success without a result, or despite exit %d / "
	    "truncation", exit_status);
	FUZZ_CHECK(memchr(r.error_class, '\0', sizeof r.error_class) != NULL &&
	    memchr(r.error_message, '\0', sizeof r.error_message) != NULL,
	    "error strings unterminated");
	if (rc == 0 && cmd == AGENTCTL_IPERF)
		FUZZ_CHECK(r.u.iperf.nintervals == 0 ||
		    r.u.iperf.intervals != NULL, "intervals lost");
	agentctl_reply_free(&r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int	cmd;

	for (cmd = AGENTCTL_VERSION; cmd <= AGENTCTL_DEAUTHORIZE; cmd++)
		one((enum agentctl_cmd)cmd, data, size, 0, 0);
	one(AGENTCTL_APPLY, data, size, 0, 5);
	one(AGENTCTL_IPERF, data, size, 1, 0);
	one(AGENTCTL_FACTS, data, size, 0, 3);
	return 0;
}
