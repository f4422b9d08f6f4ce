/*
 * embed.h: files compiled into the labrat binary by cmake/Embed.cmake (SQL
 * migrations, the agent's sources).  Each table ends with a NULL name.
 */
#ifndef LABRAT_EMBED_H
#define LABRAT_EMBED_H

#include <stddef.h>

struct embed_file {
	const char		*name;
	const unsigned char	*data;
	size_t			 len;
};

#endif
