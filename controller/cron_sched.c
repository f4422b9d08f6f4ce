/*
 * cron_sched: a schedule's expression and zone together, and the zone
 * cache that lets a daemon tick over many schedules without reading a
 * zoneinfo file per schedule per tick.  See cron.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cron_int.h"

struct cron_cache_ent {
	char			 name[CRON_NAME_MAX];
	struct cron_zone	*zone;	/* NULL for UTC: cron_zone_utc() */
	struct cron_cache_ent	*next;
};

struct cron_cache {
	char			*dir;	/* NULL: the system's */
	struct cron_cache_ent	*ents;
};

struct cron_cache *
cron_cache_new(const char *dir)
{
	struct cron_cache	*c;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	if (dir != NULL && (c->dir = strdup(dir)) == NULL) {
		free(c);
		return NULL;
	}
	return c;
}

void
cron_cache_free(struct cron_cache *c)
{
	struct cron_cache_ent	*e, *next;

	if (c == NULL)
		return;
	for (e = c->ents; e != NULL; e = next) {
		next = e->next;
		cron_zone_free(e->zone);
		free(e);
	}
	free(c->dir);
	free(c);
}

int
cron_cache_zone(struct cron_cache *c, const char *name,
    const struct cron_zone **out, char *err, size_t errlen)
{
	struct cron_cache_ent	*e;
	struct cron_zone	*z;

	if (name == NULL || *name == '\0' || strcmp(name, "UTC") == 0) {
		*out = cron_zone_utc();
		return 0;
	}
	for (e = c->ents; e != NULL; e = e->next) {
		if (strcmp(e->name, name) == 0) {
			*out = e->zone;
			return 0;
		}
	}
	/* A failed load is not cached: the file may appear later. */
	if (cron_zone_load(c->dir, name, &z, err, errlen) == -1)
		return -1;
	if ((e = calloc(1, sizeof *e)) == NULL) {
		cron_zone_free(z);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(e->name, sizeof e->name, "%s", name);
	e->zone = z;
	e->next = c->ents;
	c->ents = e;
	*out = z;
	return 0;
}

int
cron_sched_compile(struct cron_cache *c, const char *expr, const char *tz,
    const char *name, struct cron_sched *out, char *err, size_t errlen)
{
	char	e[256];

	memset(out, 0, sizeof *out);
	if (cron_parse(&out->cron, expr, name, e, sizeof e) == -1) {
		snprintf(err, errlen, "cron %s: %s", expr, e);
		return -1;
	}
	if (cron_cache_zone(c, tz, &out->zone, e, sizeof e) == -1) {
		snprintf(err, errlen, "tz %s: %s", tz, e);
		return -1;
	}
	return 0;
}

time_t
cron_sched_next(const struct cron_sched *s, time_t after)
{
	return cron_next(&s->cron, s->zone, after);
}
