/*
 * store_sched: the daemon's schedules (schema 9; see store.h "schedules of
 * the daemon"): add, get, list, rm, enable/disable, and store_sched_fired,
 * which only ever moves last_fired forward so that a restart never fires a
 * slot twice.
 * Rows read back are heap strings owned by the struct (store_sched_free).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "util.h"

#define SCHED_TEXT_MAX	(1024 * 1024)	/* plan text */

int
store_sched_name_ok(const char *name)
{
	return store_name_ok(name, STORE_SCHED_NAME_MAX);
}

static int
sched_exists(struct store *st, const char *name, char *err, size_t errlen)
{
	int64_t	id;

	return store_get(st, &store_id_row, &id, "find schedule", err, errlen,
	    "SELECT id FROM schedules WHERE name = ?", "t", name);
}

int
store_sched_add(struct store *st, const struct store_sched *s, int64_t *id,
    int *dup, char *err, size_t errlen)
{
	const struct store_len	 lens[] = {
		{ "schedule cron", s->cron, 256, 1 },
		{ "schedule time zone", s->tz, 128, 1 },
		{ "inventory", s->inventory_path, PATH_MAX, 1 },
		{ "plan", s->plan_path, PATH_MAX, 1 },
		{ "plan text", s->plan_text, SCHED_TEXT_MAX, 1 },
		{ "links", s->links, 4096, 0 },
		{ "revisions", s->revisions, PATH_MAX, 0 },
	};
	int64_t			 rowid;

	if (dup != NULL)
		*dup = 0;
	if (!store_sched_name_ok(s->name)) {
		util_seterr(err, errlen, "schedule name \"%s\": must match "
		    "^[A-Za-z0-9._-]{1,64}$", s->name != NULL ? s->name : "");
		return -1;
	}
	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	switch (sched_exists(st, s->name, err, errlen)) {
	case 0:
		break;
	case 1:
		if (dup != NULL)
			*dup = 1;
		util_seterr(err, errlen, "schedule \"%s\" exists", s->name);
		return -1;
	default:
		return -1;
	}
	if (store_do(st, &rowid, "add schedule", err, errlen,
	    "INSERT INTO schedules (name, cron, tz, inventory_path, plan_path, "
	    "plan_text, links, revisions, enabled, created_at) VALUES (?, ?, "
	    "?, ?, ?, ?, ?, ?, ?, ?)", "ttttttttiI", s->name, s->cron, s->tz,
	    s->inventory_path, s->plan_path, s->plan_text,
	    s->links != NULL ? s->links : "", s->revisions, s->enabled != 0,
	    store_now()) == -1)
		return -1;
	if (id != NULL)
		*id = rowid;
	return 0;
}

#define SCHED_COLS "SELECT id, name, cron, tz, inventory_path, plan_path, " \
	"plan_text, links, revisions, enabled, created_at, " \
	"COALESCE(last_fired, 0) FROM schedules "

static void
sched_read(sqlite3_stmt *stmt, void *p)
{
	struct store_sched	*s = p;

	memset(s, 0, sizeof *s);
	store_cols(stmt, 0, "ISSSSSSSSiII", &s->id, &s->name, &s->cron, &s->tz,
	    &s->inventory_path, &s->plan_path, &s->plan_text, &s->links,
	    &s->revisions, &s->enabled, &s->created, &s->last_fired);
}

static void
sched_free(void *p)
{
	struct store_sched	*s = p;

	free(s->name);
	free(s->cron);
	free(s->tz);
	free(s->inventory_path);
	free(s->plan_path);
	free(s->plan_text);
	free(s->links);
	free(s->revisions);
	memset(s, 0, sizeof *s);
}

static const struct store_rowtype sched_rows = {
	sizeof (struct store_sched), sched_read, sched_free
};

int
store_sched_get(struct store *st, const char *name, struct store_sched *out,
    char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	return store_get(st, &sched_rows, out, "read schedule", err, errlen,
	    SCHED_COLS "WHERE name = ?", "t", name);
}

int
store_sched_get_id(struct store *st, int64_t id, struct store_sched *out,
    char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	return store_get(st, &sched_rows, out, "read schedule", err, errlen,
	    SCHED_COLS "WHERE id = ?", "I", id);
}

int
store_sched_list(struct store *st, struct store_sched **v, size_t *n,
    char *err, size_t errlen)
{
	return store_list(st, &sched_rows, v, n, "list schedules", err, errlen,
	    SCHED_COLS "ORDER BY name", "");
}

int
store_sched_rm(struct store *st, const char *name, char *err, size_t errlen)
{
	if (store_do(st, NULL, "remove schedule", err, errlen,
	    "DELETE FROM schedules WHERE name = ?", "t", name) == -1)
		return -1;
	return sqlite3_changes(st->db) > 0;
}

int
store_sched_enable(struct store *st, const char *name, int on, char *err,
    size_t errlen)
{
	if (store_do(st, NULL, on ? "enable schedule" : "disable schedule",
	    err, errlen, "UPDATE schedules SET enabled = ? WHERE name = ?",
	    "it", on != 0, name) == -1)
		return -1;
	return sqlite3_changes(st->db) > 0;
}

int
store_sched_fired(struct store *st, int64_t id, int64_t t, char *err,
    size_t errlen)
{
	if (store_do(st, NULL, "record schedule firing", err, errlen,
	    "UPDATE schedules SET last_fired = ?1 WHERE id = ?2 AND "
	    "(last_fired IS NULL OR last_fired < ?1)", "II", t, id) == -1)
		return -1;
	return sqlite3_changes(st->db) > 0;
}

void
store_sched_free(struct store_sched *s)
{
	if (s != NULL)
		sched_free(s);
}

void
store_scheds_free(struct store_sched *v, size_t n)
{
	store_free_rows(&sched_rows, v, n);
}
