/*
 * version.c: `labrat-agent --version`.
 */
#include <stdio.h>

#include "agent.h"

int
agent_cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("{\"proto\":%d,\"event\":\"result\",\"cmd\":\"version\","
	    "\"version\":\"%s\",\"source_hash\":\"%s\"}\n", AGENT_PROTO,
	    AGENT_VERSION, LABRAT_AGENT_HASH);
	return AGENT_EXIT_OK;
}
