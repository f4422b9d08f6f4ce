/*
 * store_night: the nightly loop's rows (schema 12; store.h "nights and
 * regressions"): a night per schedule firing (schedule_id + slot), the
 * step it reached and what it made (runs, verdicts), and the regression
 * records with their state machine and the join of a later night into an
 * active record.  Rows read back are heap strings owned by the struct.
 */
#include <stdlib.h>
#include <string.h>

#include "store_int.h"
#include "util.h"

#define NIGHT_TEXT_MAX	(4 * 1024 * 1024)	/* verdicts JSON */

static const char *const regr_states[STORE_REGR_NSTATES] = {
	"open", "confirmed", "bisecting", "culprit", "range", "failed",
	"fixed"
};

const char *
store_regr_state_name(enum store_regr_state s)
{
	return (unsigned)s < STORE_REGR_NSTATES ? regr_states[s] : "?";
}

int
store_regr_state_parse(const char *name, enum store_regr_state *s)
{
	int	i;

	for (i = 0; name != NULL && i < STORE_REGR_NSTATES; i++)
		if (strcmp(name, regr_states[i]) == 0) {
			*s = (enum store_regr_state)i;
			return 0;
		}
	return -1;
}

int
store_regr_can(enum store_regr_state from, enum store_regr_state to)
{
	switch (to) {
	case STORE_REGR_CONFIRMED:
		return from == STORE_REGR_OPEN;
	case STORE_REGR_BISECTING:
		return from == STORE_REGR_CONFIRMED;
	case STORE_REGR_CULPRIT:
	case STORE_REGR_RANGE:
	case STORE_REGR_FAILED:
		return from == STORE_REGR_BISECTING;
	case STORE_REGR_FIXED:
		return from == STORE_REGR_CONFIRMED ||
		    from == STORE_REGR_CULPRIT || from == STORE_REGR_RANGE ||
		    from == STORE_REGR_FAILED;
	default:
		return 0;
	}
}

/* ---- nights ------------------------------------------------------------- */

#define NIGHT_COLS "SELECT id, schedule_id, slot, links, state, revision, " \
	"COALESCE(good_night, 0), COALESCE(run_id, 0), " \
	"COALESCE(confirm_run_id, 0), good, verdicts, reason, created_at, " \
	"COALESCE(finished_at, 0) FROM nights "

static void
night_read(sqlite3_stmt *stmt, void *p)
{
	struct store_night	*n = p;

	memset(n, 0, sizeof *n);
	store_cols(stmt, 0, "IIISSSIIIiSSII", &n->id, &n->schedule_id,
	    &n->slot, &n->links, &n->state, &n->revision, &n->good_night,
	    &n->run_id, &n->confirm_run_id, &n->good, &n->verdicts,
	    &n->reason, &n->created, &n->finished);
}

static void
night_free(void *p)
{
	struct store_night	*n = p;

	free(n->links);
	free(n->state);
	free(n->revision);
	free(n->verdicts);
	free(n->reason);
	memset(n, 0, sizeof *n);
}

static const struct store_rowtype night_rows = {
	sizeof (struct store_night), night_read, night_free
};

int
store_night_begin(struct store *st, int64_t schedule_id, int64_t slot,
    const char *links, struct store_night *out, char *err, size_t errlen)
{
	int	rc;

	if (store_len_ok("night links", links, 4096, 0, err, errlen) == -1)
		return -1;
	if (store_do(st, NULL, "begin night", err, errlen,
	    "INSERT INTO nights (schedule_id, slot, links, created_at) "
	    "VALUES (?, ?, ?, ?) ON CONFLICT (schedule_id, slot) DO NOTHING",
	    "IItI", schedule_id, slot, links != NULL ? links : "",
	    store_now()) == -1)
		return -1;
	rc = sqlite3_changes(st->db) > 0;
	memset(out, 0, sizeof *out);
	switch (store_get(st, &night_rows, out, "read night", err, errlen,
	    NIGHT_COLS "WHERE schedule_id = ? AND slot = ?", "II",
	    schedule_id, slot)) {
	case 1:
		return rc;
	case 0:
		util_seterr(err, errlen, "%s: night of schedule %lld slot "
		    "%lld vanished", store_path(st), (long long)schedule_id,
		    (long long)slot);
		/* FALLTHROUGH */
	default:
		return -1;
	}
}

int
store_night_get(struct store *st, int64_t id, struct store_night *out,
    char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	return store_get(st, &night_rows, out, "read night", err, errlen,
	    NIGHT_COLS "WHERE id = ?", "I", id);
}

int
store_night_update(struct store *st, const struct store_night *n,
    char *err, size_t errlen)
{
	const struct store_len	lens[] = {
		{ "night state", n->state, 16, 1 },
		{ "night revision", n->revision, STORE_NAME_MAX - 1, 0 },
		{ "night verdicts", n->verdicts, NIGHT_TEXT_MAX, 0 },
		{ "night reason", n->reason, STORE_REASON_MAX - 1, 0 },
	};
	int	fin;

	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	fin = strcmp(n->state, "done") == 0 || strcmp(n->state, "failed") == 0;
	if (store_do(st, NULL, "update night", err, errlen,
	    "UPDATE nights SET state = ?, revision = ?, good_night = ?, "
	    "run_id = ?, confirm_run_id = ?, good = ?, verdicts = ?, "
	    "reason = ?, finished_at = ? WHERE id = ?", "ttnnnittnI",
	    n->state, n->revision, n->good_night, n->run_id,
	    n->confirm_run_id, n->good != 0, n->verdicts, n->reason,
	    fin ? store_now() : (int64_t)0, n->id) == -1)
		return -1;
	return store_changed(st, "update night", "night", n->id, err, errlen);
}

int
store_night_last_good(struct store *st, const char *links, int64_t before_id,
    struct store_night *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	return store_get(st, &night_rows, out, "find last good night", err,
	    errlen, NIGHT_COLS "WHERE links = ? AND good = 1 AND "
	    "state = 'done' AND (?2 = 0 OR id < ?2) ORDER BY id DESC LIMIT 1",
	    "tI", links != NULL ? links : "", before_id);
}

int
store_night_list(struct store *st, size_t limit, struct store_night **v,
    size_t *n, char *err, size_t errlen)
{
	return store_list(st, &night_rows, v, n, "list nights", err, errlen,
	    NIGHT_COLS "ORDER BY id DESC LIMIT ?", "I",
	    limit == 0 ? (int64_t)-1 : (int64_t)limit);
}

void
store_night_free(struct store_night *n)
{
	if (n != NULL)
		night_free(n);
}

void
store_nights_free(struct store_night *v, size_t n)
{
	store_free_rows(&night_rows, v, n);
}

/* ---- regressions -------------------------------------------------------- */

#define REGR_COLS "SELECT id, link, knobs, workload, metric, direction, " \
	"state, COALESCE(schedule_id, 0), COALESCE(first_night, 0), " \
	"COALESCE(last_night, 0), COALESCE(bisect_id, 0), good_revision, " \
	"bad_revision, COALESCE(change, 0), culprit, range_first, " \
	"range_last, reason, notified, created_at, updated_at " \
	"FROM regressions "

static void
regr_read(sqlite3_stmt *stmt, void *p)
{
	struct store_regr	*r = p;
	char			*state = NULL, *notified = NULL;
	enum store_regr_state	 s;

	memset(r, 0, sizeof *r);
	store_cols(stmt, 0, "ISSSSSSIIIISSdSSSSSII", &r->id, &r->link,
	    &r->knobs, &r->workload, &r->metric, &r->direction, &state,
	    &r->schedule_id, &r->first_night, &r->last_night, &r->bisect_id,
	    &r->good_rev, &r->bad_rev, &r->change, &r->culprit,
	    &r->range_first, &r->range_last, &r->reason, &notified,
	    &r->created, &r->updated);
	r->state = store_regr_state_parse(state, &s) == 0 ? s :
	    STORE_REGR_OPEN;
	r->notified = store_regr_state_parse(notified, &s) == 0 ? (int)s : -1;
	free(state);
	free(notified);
}

static void
regr_free(void *p)
{
	struct store_regr	*r = p;

	free(r->link);
	free(r->knobs);
	free(r->workload);
	free(r->metric);
	free(r->direction);
	free(r->good_rev);
	free(r->bad_rev);
	free(r->culprit);
	free(r->range_first);
	free(r->range_last);
	free(r->reason);
	memset(r, 0, sizeof *r);
}

static const struct store_rowtype regr_rows = {
	sizeof (struct store_regr), regr_read, regr_free
};

static int
regr_find(struct store *st, const struct store_regr *r, int64_t *id,
    char *err, size_t errlen)
{
	return store_get(st, &store_id_row, id, "find regression", err,
	    errlen, "SELECT id FROM regressions WHERE link = ? AND knobs = ? "
	    "AND workload = ? AND metric = ? AND direction = ? AND "
	    "state != 'fixed'", "ttttt", r->link, r->knobs, r->workload,
	    r->metric, r->direction);
}

int
store_regr_join(struct store *st, const struct store_regr *r,
    int64_t night_id, int64_t *id, int *opened, char *err, size_t errlen)
{
	const struct store_len	lens[] = {
		{ "regression link", r->link, STORE_NAME_MAX - 1, 1 },
		{ "regression knobs", r->knobs, STORE_KEY_MAX - 1, 1 },
		{ "regression workload", r->workload, STORE_PARAMS_MAX - 1, 1 },
		{ "regression metric", r->metric, STORE_NAME_MAX - 1, 1 },
		{ "regression direction", r->direction, 8, 1 },
		{ "good revision", r->good_rev, STORE_NAME_MAX - 1, 0 },
		{ "bad revision", r->bad_rev, STORE_NAME_MAX - 1, 0 },
	};
	int	rc;

	*opened = 0;
	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	if (store_begin(st, "join regression", err, errlen) == -1)
		return -1;
	rc = regr_find(st, r, id, err, errlen);
	if (rc == 1)
		rc = store_do(st, NULL, "join regression", err, errlen,
		    "UPDATE regressions SET last_night = ?, updated_at = ? "
		    "WHERE id = ?", "nII", night_id, store_now(), *id);
	else if (rc == 0) {
		rc = store_do(st, id, "open regression", err, errlen,
		    "INSERT INTO regressions (link, knobs, workload, metric, "
		    "direction, schedule_id, first_night, last_night, "
		    "good_revision, bad_revision, change, created_at, "
		    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		    "?)", "tttttnnnttdII", r->link, r->knobs, r->workload,
		    r->metric, r->direction, r->schedule_id, night_id,
		    night_id, r->good_rev, r->bad_rev, r->change, store_now(),
		    store_now());
		*opened = rc == 0;
	}
	if (rc == -1) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, "join regression", err, errlen);
}

int
store_regr_get(struct store *st, int64_t id, struct store_regr *out,
    char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	return store_get(st, &regr_rows, out, "read regression", err, errlen,
	    REGR_COLS "WHERE id = ?", "I", id);
}

int
store_regr_set(struct store *st, int64_t id, enum store_regr_state to,
    int64_t bisect_id, const char *culprit, const char *range_first,
    const char *range_last, const char *reason, char *err, size_t errlen)
{
	struct store_regr	r;
	int			rc;

	if (store_len_ok("regression reason", reason, STORE_REASON_MAX - 1,
	    0, err, errlen) == -1)
		return -1;
	if ((rc = store_regr_get(st, id, &r, err, errlen)) != 1) {
		if (rc == 0)
			util_seterr(err, errlen, "%s: no regression %lld",
			    store_path(st), (long long)id);
		return -1;
	}
	rc = r.state == to || store_regr_can(r.state, to);
	if (!rc)
		util_seterr(err, errlen, "regression %lld: %s -> %s is not "
		    "a transition", (long long)id,
		    store_regr_state_name(r.state), store_regr_state_name(to));
	store_regr_free(&r);
	if (!rc)
		return -1;
	return store_do(st, NULL, "update regression", err, errlen,
	    "UPDATE regressions SET state = ?, "
	    "bisect_id = COALESCE(?, bisect_id), "
	    "culprit = COALESCE(?, culprit), "
	    "range_first = COALESCE(?, range_first), "
	    "range_last = COALESCE(?, range_last), "
	    "reason = COALESCE(?, reason), updated_at = ? WHERE id = ?",
	    "tnttttII", store_regr_state_name(to), bisect_id, culprit,
	    range_first, range_last, reason, store_now(), id);
}

int
store_regr_notified(struct store *st, int64_t id, enum store_regr_state s,
    char *err, size_t errlen)
{
	if (store_do(st, NULL, "mark regression notified", err, errlen,
	    "UPDATE regressions SET notified = ?, updated_at = ? WHERE id = ?",
	    "tII", store_regr_state_name(s), store_now(), id) == -1)
		return -1;
	return store_changed(st, "mark regression notified", "regression",
	    id, err, errlen);
}

int
store_regr_drop(struct store *st, int64_t id, char *err, size_t errlen)
{
	if (store_do(st, NULL, "drop regression", err, errlen,
	    "DELETE FROM regressions WHERE id = ? AND state = 'open'", "I",
	    id) == -1)
		return -1;
	return store_changed(st, "drop regression", "open regression", id,
	    err, errlen);
}

int
store_regr_list(struct store *st, unsigned mask, struct store_regr **v,
    size_t *n, char *err, size_t errlen)
{
	size_t	i, j;

	if (store_list(st, &regr_rows, v, n, "list regressions", err, errlen,
	    REGR_COLS "ORDER BY id", "") == -1)
		return -1;
	if (mask == 0)
		return 0;
	for (i = j = 0; i < *n; i++) {
		if (mask & (1u << (*v)[i].state))
			(*v)[j++] = (*v)[i];
		else
			regr_free(&(*v)[i]);
	}
	*n = j;
	return 0;
}

void
store_regr_free(struct store_regr *r)
{
	if (r != NULL)
		regr_free(r);
}

void
store_regrs_free(struct store_regr *v, size_t n)
{
	store_free_rows(&regr_rows, v, n);
}
