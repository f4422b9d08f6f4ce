/*
 * embed.h: files compiled into the labrat binary by cmake/Embed.cmake (SQL
 * migrations, the agent's sources) and by tools/webembed.c (the dashboard's
 * web/ files, with their gzip encoding).  Each table ends with a NULL name.
 */
#ifndef LABRAT_EMBED_H
#define LABRAT_EMBED_H

#include <stddef.h>

struct embed_file {
	const char		*name;
	const unsigned char	*data;
	size_t			 len;
};

/* One file under /ui/: gz is its gzip encoding, NULL when not smaller. */
struct embed_web {
	const char		*name;	/* "index.html", "vendor/uPlot.min.css" */
	const unsigned char	*data;
	size_t			 len;
	const unsigned char	*gz;
	size_t			 gzlen;
};

#endif
