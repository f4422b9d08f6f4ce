/*
 * fuzz_agent_session: the agent's reading of a `session` request
 * (agent_session_head(), agent_session_args()) on any bytes: the first
 * line as the request line, the rest as its arguments.  What is accepted
 * is within the ceilings, and every argument lies inside the data.
 */
#include "agent.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		 line[SESSION_HEAD_MAX + 1], *argv[SESSION_ARGS_MAX + 1];
	const uint8_t	*nl = memchr(data, '\n', size);
	size_t		 n, len, nargs, i, rest;
	char		*body;

	if (nl == NULL || (size_t)(nl - data) > SESSION_HEAD_MAX)
		return 0;
	n = (size_t)(nl - data);
	memcpy(line, data, n);
	line[n] = '\0';
	if (memchr(line, '\0', n) != NULL)
		return 0;
	if (agent_session_head(line, &nargs, &len) == -1)
		return 0;
	FUZZ_CHECK(nargs >= 1 && nargs <= SESSION_ARGS_MAX &&
	    len >= nargs && len <= SESSION_REQ_MAX, "head %zu %zu", nargs, len);
	rest = size - n - 1;
	if (rest > len)
		rest = len;
	body = malloc(rest > 0 ? rest : 1);
	memcpy(body, nl + 1, rest);
	if (agent_session_args(body, rest, nargs, argv) == 0) {
		for (i = 0; i < nargs; i++)
			FUZZ_CHECK(argv[i] >= body && argv[i] + strlen(argv[i]) <
			    body + rest, "argument %zu outside the data", i);
		FUZZ_CHECK(argv[nargs] == NULL, "argv not ended");
	}
	free(body);
	return 0;
}
