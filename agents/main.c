/*
 * labrat-agent: the host agent labrat dispatches to every lab host.
 * main() only dispatches; see PROTOCOL.md for what each subcommand prints.
 */
#include <stdio.h>
#include <string.h>

#include "agent.h"

int
main(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 ||
	    strcmp(argv[1], "version") == 0))
		return agent_cmd_version(argc - 1, argv + 1);
	fprintf(stderr, "usage: labrat-agent --version | COMMAND [ARGS]\n");
	printf("{\"proto\":%d,\"event\":\"error\",\"class\":\"usage\","
	    "\"message\":\"no such command\"}\n", AGENT_PROTO);
	return AGENT_EXIT_USAGE;
}
