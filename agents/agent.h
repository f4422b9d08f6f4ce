/*
 * agent.h: shared declarations of labrat-agent (C99 + POSIX, libc only).
 */
#ifndef LABRAT_AGENT_H
#define LABRAT_AGENT_H

#define AGENT_PROTO	1
#define AGENT_VERSION	"0.1.0"
#ifndef LABRAT_AGENT_HASH
#define LABRAT_AGENT_HASH "unknown"
#endif

/* Exit statuses, one per failure class (PROTOCOL.md). */
#define AGENT_EXIT_OK		0
#define AGENT_EXIT_INTERNAL	1
#define AGENT_EXIT_USAGE	2
#define AGENT_EXIT_COMMAND	3
#define AGENT_EXIT_TIMEOUT	4
#define AGENT_EXIT_MISMATCH	5
#define AGENT_EXIT_PARSE	6

int	agent_cmd_version(int, char **);

#endif
