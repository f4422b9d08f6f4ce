/*
 * sink.c: the start of smtpsink and hooksink -- their common arguments
 * and their listener loop (see sink.h).
 */
#include <signal.h>

#include "sink.h"

static void
sink_usage(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	exit(2);
}

const char *
sink_args(int argc, char **argv, const char *usage,
    const struct sink_opt *opts, int *port, int *life)
{
	const struct sink_opt	*o;
	const char		*dir = NULL;
	int			 i;

	*port = 0;
	*life = 600;
	for (i = 1; i < argc; i++) {
		if (i + 1 >= argc)
			sink_usage(usage);
		if (strcmp(argv[i], "--dir") == 0) {
			dir = argv[++i];
			continue;
		}
		if (strcmp(argv[i], "--port") == 0) {
			*port = atoi(argv[++i]);
			continue;
		}
		if (strcmp(argv[i], "--lifetime") == 0) {
			*life = atoi(argv[++i]);
			continue;
		}
		for (o = opts; o != NULL && o->name != NULL; o++)
			if (strcmp(argv[i], o->name) == 0)
				break;
		if (o == NULL || o->name == NULL)
			sink_usage(usage);
		*o->val = atoi(argv[++i]);
	}
	if (dir == NULL)
		sink_usage(usage);
	return dir;
}

void
sink_serve(const char *who, int port, int life, void (*serve)(int fd))
{
	int	s, c;

	signal(SIGPIPE, SIG_IGN);
	alarm((unsigned)life);
	s = sink_listen(who, port);
	while ((c = sink_accept(s)) != -1)
		serve(c);
	sink_die(who, "accept");
}
