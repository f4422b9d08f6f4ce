/*
 * cmd_open.c: `open` -- what a controller needs of a host it opens, in one
 * process: the `--version` line, then (with --owner) the `lease take` line,
 * then (with --if) the `facts --if` line, each exactly as that subcommand
 * prints it (PROTOCOL.md "open").  The exit status is 0 when every part
 * succeeded, else the first failing part's.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "emit.h"

#define OPEN_ARGS_MAX	32

int
agent_cmd_open(int argc, char **argv)
{
	char	*lease[OPEN_ARGS_MAX + 2], *facts[OPEN_ARGS_MAX + 1];
	char	*version[] = { "--version", NULL };
	int	 i, nl = 2, nf = 1, owner = 0, rc, first = AGENT_EXIT_OK;

	lease[0] = "lease";
	lease[1] = "take";
	facts[0] = "facts";
	for (i = 1; i < argc; i++) {
		if (i + 1 >= argc || argv[i][0] != '-' ||
		    nl + 2 > OPEN_ARGS_MAX || nf + 2 > OPEN_ARGS_MAX)
			return emit_error(AGENT_EXIT_USAGE, "open: [--owner "
			    "TOKEN --host NAME --pid N --run ID [--ttl S]] "
			    "[--if IF]...");
		if (strcmp(argv[i], "--if") == 0) {
			facts[nf++] = argv[i];
			facts[nf++] = argv[++i];
			continue;
		}
		owner |= strcmp(argv[i], "--owner") == 0;
		lease[nl++] = argv[i];
		lease[nl++] = argv[++i];
	}
	lease[nl] = NULL;
	facts[nf] = NULL;
	/* The version first: a controller that cannot read it believes
	 * nothing after it. */
	agent_cmd_version(1, version);
	if (nl > 2 && !owner)
		return emit_error(AGENT_EXIT_USAGE,
		    "open: lease options without --owner");
	if (owner && (rc = agent_cmd_lease(nl, lease)) != AGENT_EXIT_OK)
		first = rc;
	if (nf > 1 && (rc = agent_cmd_facts(nf, facts)) != AGENT_EXIT_OK &&
	    first == AGENT_EXIT_OK)
		first = rc;
	fflush(stdout);
	return first;
}
