/*
 * labrat-agent: the host agent labrat dispatches to every lab host.
 * main() only dispatches; see PROTOCOL.md for what each subcommand prints.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>

#include "agent.h"

int
main(int argc, char **argv)
{
	/* A root agent must not run whatever an inherited PATH points at. */
	setenv("PATH", "/sbin:/bin:/usr/sbin:/usr/bin:/usr/local/sbin:"
	    "/usr/local/bin", 1);
	/* A vanished controller must not kill us half-way through a change:
	 * finish it (writes to the dead pipe just fail). */
	signal(SIGPIPE, SIG_IGN);
	return agent_dispatch(argc, argv);
}
