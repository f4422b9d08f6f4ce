/*
 * dispatch.c: the subcommand table, for main() and for each command of a
 * `session` (cmd_session.c).
 */
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "emit.h"

static const struct {
	const char *name;
	int	  (*fn)(int, char **);
} commands[] = {
	{ "--version", agent_cmd_version },
	{ "version", agent_cmd_version },
	{ "facts", agent_cmd_facts },
	{ "apply", agent_cmd_apply },
	{ "restore", agent_cmd_restore },
	{ "confirm", agent_cmd_confirm },
	{ "serve", agent_cmd_serve },
	{ "iperf", agent_cmd_iperf },
	{ "scp", agent_cmd_scp },
	{ "keygen", agent_cmd_keygen },
	{ "authorize", agent_cmd_authorize },
	{ "deauthorize", agent_cmd_deauthorize },
	{ "lease", agent_cmd_lease },
	{ "preflight", agent_cmd_preflight },
	{ "open", agent_cmd_open },
	{ "session", agent_cmd_session },
};

const char *agent_self;

int
agent_dispatch(int argc, char **argv)
{
	size_t	 i;

	if (agent_self == NULL && argc >= 1)
		agent_self = argv[0];
	if (argc >= 2) {
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "usage: labrat-agent --version | facts | apply | "
	    "restore | confirm | serve | iperf | scp | keygen | authorize | "
	    "deauthorize | lease | preflight | open | session [ARGS]\n");
	return emit_error(AGENT_EXIT_USAGE, argc >= 2 ?
	    "no such command" : "no command given");
}
