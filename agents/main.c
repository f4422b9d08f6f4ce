/*
 * labrat-agent: the host agent labrat dispatches to every lab host.
 * main() only dispatches; see PROTOCOL.md for what each subcommand prints.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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
};

int
main(int argc, char **argv)
{
	size_t	 i;

	/* A root agent must not run whatever an inherited PATH points at. */
	setenv("PATH", "/sbin:/bin:/usr/sbin:/usr/bin:/usr/local/sbin:"
	    "/usr/local/bin", 1);
	/* A vanished controller must not kill us half-way through a change:
	 * finish it (writes to the dead pipe just fail). */
	signal(SIGPIPE, SIG_IGN);
	if (argc >= 2) {
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "usage: labrat-agent --version | facts | apply | "
	    "restore | confirm | serve | iperf | scp | keygen | authorize | "
	    "deauthorize | lease | preflight | open [ARGS]\n");
	return emit_error(AGENT_EXIT_USAGE, argc >= 2 ?
	    "no such command" : "no command given");
}
