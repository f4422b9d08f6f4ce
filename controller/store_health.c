/*
 * store_health: link (host pair) health, schema 11 (store.h "link
 * health"): a row per link with its state and what the last check and
 * the last passing check saw, and the log of every state change.  The
 * store does not judge: the health module decides the state and says
 * which states a record must leave alone (a link in maintenance); this
 * file makes reading the state before, updating the row and logging the
 * transition one transaction, so a check finishing while an operator
 * puts the link in maintenance cannot overwrite the operator.
 * Rows read back are heap strings owned by the struct.
 *
 * struct store_health: the row.  why/warnings: the last word on the state
 * and the last check's warnings ("; "-separated, "" none); checked_at,
 * check_ok (-1 never checked), run_id: the last check; good_figure (bit/s,
 * 0 none), good_at, good_facts ("HOST IF os=OS driver=D chip=C" lines,
 * NULL none): the last PASSING check's.
 * struct store_health_rec: state/why/who always; keep (NULL-terminated
 * states) and only (the one state it may leave) make the record leave a
 * link alone (returns 0); checked sets checked_at = now, check_ok,
 * warnings, run_id; good_figure > 0 sets the figure, good_at and
 * good_facts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "util.h"

#define HEALTH_TEXT_MAX	4096	/* why, warnings, who */
#define HEALTH_FACTS_MAX	8192

static int
health_in(const char *s, const char *const *list)
{
	size_t	i;

	for (i = 0; list != NULL && list[i] != NULL; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

/* The row's state into buf ("unknown" when there is no row): 0 or -1. */
static int
health_state_of(struct store *st, const char *link, char *buf, size_t len,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if ((stmt = store_prep(st, "read link health", err, errlen,
	    "SELECT state FROM link_health WHERE link = ?", "t", link)) == NULL)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		store_col_copy(stmt, 0, buf, len);
	else if (rc == SQLITE_DONE)
		snprintf(buf, len, "unknown");
	else {
		store_err(st, "read link health", err, errlen);
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	return 0;
}

/* The row updated as r says (inside the caller's transaction). */
static int
health_write(struct store *st, const struct store_health_rec *r,
    const char *before, int64_t now, char *err, size_t errlen)
{
	int	changed = strcmp(before, r->state) != 0;

	if (store_do(st, NULL, "record link health", err, errlen,
	    "INSERT OR IGNORE INTO link_health (link, state, since) VALUES (?, "
	    "'unknown', ?)", "tI", r->link, now) == -1)
		return -1;
	if (store_do(st, NULL, "record link health", err, errlen,
	    "UPDATE link_health SET state = ?2, why = ?3, since = CASE WHEN ?4 "
	    "THEN ?5 ELSE since END WHERE link = ?1", "tttiI", r->link,
	    r->state, r->why != NULL ? r->why : "", changed, now) == -1)
		return -1;
	if (r->checked && store_do(st, NULL, "record link health check", err,
	    errlen, "UPDATE link_health SET checked_at = ?2, check_ok = ?3, "
	    "warnings = ?4, run_id = ?5 WHERE link = ?1", "tIitn", r->link,
	    now, r->check_ok != 0, r->warnings != NULL ? r->warnings : "",
	    r->run_id) == -1)
		return -1;
	if (r->good_figure > 0 && store_do(st, NULL, "record link health "
	    "figure", err, errlen, "UPDATE link_health SET good_figure = ?2, "
	    "good_at = ?3, good_facts = ?4 WHERE link = ?1", "tdIt", r->link,
	    r->good_figure, now, r->good_facts) == -1)
		return -1;
	if (changed && store_do(st, NULL, "record health transition", err,
	    errlen, "INSERT INTO health_transitions (link, from_state, "
	    "to_state, who, at, why) VALUES (?, ?, ?, ?, ?, ?)", "ttttIt",
	    r->link, before, r->state, r->who, now,
	    r->why != NULL ? r->why : "") == -1)
		return -1;
	return 0;
}

int
store_health_record(struct store *st, const struct store_health_rec *r,
    char *from, size_t fromlen, char *err, size_t errlen)
{
	const struct store_len	 lens[] = {
		{ "link", r->link, STORE_NAME_MAX - 1, 1 },
		{ "health state", r->state, STORE_NAME_MAX - 1, 1 },
		{ "who", r->who, HEALTH_TEXT_MAX, 1 },
		{ "why", r->why, HEALTH_TEXT_MAX, 0 },
		{ "warnings", r->warnings, HEALTH_TEXT_MAX, 0 },
		{ "good facts", r->good_facts, HEALTH_FACTS_MAX, 0 },
	};
	char			 before[STORE_NAME_MAX];
	int			 keep;

	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	if (store_begin(st, "record link health", err, errlen) == -1)
		return -1;
	if (health_state_of(st, r->link, before, sizeof before, err,
	    errlen) == -1)
		goto fail;
	keep = health_in(before, r->keep) ||
	    (r->only != NULL && strcmp(before, r->only) != 0);
	if (!keep && health_write(st, r, before, store_now(), err,
	    errlen) == -1)
		goto fail;
	if (store_commit(st, "record link health", err, errlen) == -1)
		return -1;
	if (from != NULL)
		snprintf(from, fromlen, "%s", before);
	return keep ? 0 : 1;
fail:
	store_rollback(st);
	return -1;
}

#define HEALTH_COLS "SELECT link, state, since, why, warnings, " \
	"COALESCE(checked_at, 0), COALESCE(check_ok, -1), COALESCE(run_id, 0), " \
	"COALESCE(good_figure, 0), COALESCE(good_at, 0), good_facts " \
	"FROM link_health "

static void
health_read(sqlite3_stmt *stmt, void *p)
{
	struct store_health	*h = p;

	memset(h, 0, sizeof *h);
	store_cols(stmt, 0, "SSISSIiIdIS", &h->link, &h->state, &h->since,
	    &h->why, &h->warnings, &h->checked_at, &h->check_ok, &h->run_id,
	    &h->good_figure, &h->good_at, &h->good_facts);
}

static void
health_free(void *p)
{
	struct store_health	*h = p;

	free(h->link);
	free(h->state);
	free(h->why);
	free(h->warnings);
	free(h->good_facts);
	memset(h, 0, sizeof *h);
}

static const struct store_rowtype health_rows = {
	sizeof (struct store_health), health_read, health_free
};

int
store_health_get(struct store *st, const char *link, struct store_health *out,
    char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	return store_get(st, &health_rows, out, "read link health", err,
	    errlen, HEALTH_COLS "WHERE link = ?", "t", link);
}

int
store_health_list(struct store *st, struct store_health **v, size_t *n,
    char *err, size_t errlen)
{
	return store_list(st, &health_rows, v, n, "list link health", err,
	    errlen, HEALTH_COLS "ORDER BY link", "");
}

static void
tr_read(sqlite3_stmt *stmt, void *p)
{
	struct store_health_tr	*t = p;

	memset(t, 0, sizeof *t);
	store_cols(stmt, 0, "ISSSSIS", &t->id, &t->link, &t->from, &t->to,
	    &t->who, &t->at, &t->why);
}

static void
tr_free(void *p)
{
	struct store_health_tr	*t = p;

	free(t->link);
	free(t->from);
	free(t->to);
	free(t->who);
	free(t->why);
	memset(t, 0, sizeof *t);
}

static const struct store_rowtype tr_rows = {
	sizeof (struct store_health_tr), tr_read, tr_free
};

int
store_health_transitions(struct store *st, const char *link, size_t limit,
    struct store_health_tr **v, size_t *n, char *err, size_t errlen)
{
	return store_list(st, &tr_rows, v, n, "list health transitions", err,
	    errlen, "SELECT id, link, from_state, to_state, who, at, why FROM "
	    "health_transitions WHERE ?1 IS NULL OR link = ?1 ORDER BY id DESC "
	    "LIMIT ?2", "tI", link, limit > 0 ? (int64_t)limit : (int64_t)-1);
}

void
store_health_free(struct store_health *h)
{
	if (h != NULL)
		health_free(h);
}

void
store_healths_free(struct store_health *v, size_t n)
{
	store_free_rows(&health_rows, v, n);
}

void
store_health_trs_free(struct store_health_tr *v, size_t n)
{
	store_free_rows(&tr_rows, v, n);
}
