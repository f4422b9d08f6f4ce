/*
 * store_queue: the daemon's queue (schema 10, see store.h "the daemon's
 * queue"): items added, claimed best first in one BEGIN IMMEDIATE
 * transaction (so two processes never claim one item), finished,
 * requeued (also every running item whose owner died); the daemon's
 * heartbeat row; and the leases on links.  Owner texts are kept with
 * their parts (host, pid, start) for store_owner_state().  Items and
 * daemon rows read back own their heap strings (store_q_item_free,
 * store_daemon_free).
 */
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store_int.h"
#include "util.h"

#define Q_PAYLOAD_MAX	(1024 * 1024)
#define Q_TEXT_MAX	4096	/* who, result */

static const char *const q_kinds[] = { "run", "bisect", "night", "health",
	"reset" };
static const char *const q_states[] = { "queued", "running", "done",
	"failed", "cancelled" };

const char *
store_q_kind_name(enum store_q_kind k)
{
	return (unsigned)k < STORE_NITEMS(q_kinds) ? q_kinds[k] : "?";
}

const char *
store_q_state_name(enum store_q_state s)
{
	return (unsigned)s < STORE_NITEMS(q_states) ? q_states[s] : "?";
}

static int
q_index(const char *const *names, size_t n, const char *s)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	return 0;
}

/*
 * The parts of an owner text: "host:pid[:start]" (run_owner_default()
 * and after) or store_owner_text()'s "pid N on HOST[ since ...]".  The
 * start time of this very process is filled in when the text names it.
 */
static void
q_owner_parts(const char *text, struct store_owner *o)
{
	struct store_owner	 self;
	const char		*p;
	char			 host[STORE_NAME_MAX];
	long long		 pid;

	memset(o, 0, sizeof *o);
	if (text == NULL)
		return;
	if (store_owner_parse(text, o) == 0) {
		p = strchr(strchr(text, ':') + 1, ':');
		if (p != NULL)
			o->start = strtoll(p + 1, NULL, 10);
	} else if (sscanf(text, "pid %lld on %63s", &pid, host) == 2 &&
	    pid > 0 && pid <= INT32_MAX) {
		snprintf(o->host, sizeof o->host, "%s", host);
		o->pid = pid;
	} else
		return;
	store_owner_self(&self);
	if (o->start == 0 && o->pid == self.pid &&
	    strcmp(o->host, self.host) == 0)
		o->start = self.start;
}

/* 1 when the owner of these parts is known to be gone. */
static int
q_owner_gone(const struct store_owner *o)
{
	return store_owner_state(o) == STORE_OWNER_GONE;
}

/* An "IN (...)" list of the names whose bit is set in mask; 0 if none. */
static int
q_in_list(char *buf, size_t len, const char *const *names, size_t n,
    unsigned mask)
{
	size_t	i, used = 0;
	int	any = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if ((mask & (1u << i)) == 0)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s'%s'",
		    any ? ", " : "(", names[i]);
		any = 1;
	}
	if (any)
		snprintf(buf + used, len - used, ")");
	return any;
}

/* ---- items --------------------------------------------------------------- */

#define Q_COLS "SELECT id, kind, priority, state, payload, who, owner, " \
	"result, COALESCE(schedule_id, 0), COALESCE(slot, 0), " \
	"COALESCE(run_id, 0), COALESCE(bisect_id, 0), enqueued_at, " \
	"COALESCE(started_at, 0), COALESCE(finished_at, 0), attempts " \
	"FROM queue_items "

static void
q_read(sqlite3_stmt *stmt, void *p)
{
	struct store_q_item	*it = p;
	char			 kind[16], state[16];

	memset(it, 0, sizeof *it);
	store_cols(stmt, 0, "IsisSSSSIIIIIIIi", &it->id, kind, sizeof kind,
	    &it->priority, state, sizeof state, &it->payload, &it->who,
	    &it->owner, &it->result, &it->schedule_id, &it->slot, &it->run_id,
	    &it->bisect_id, &it->enqueued, &it->started, &it->finished,
	    &it->attempts);
	it->kind = (enum store_q_kind)q_index(q_kinds, STORE_NITEMS(q_kinds),
	    kind);
	it->state = (enum store_q_state)q_index(q_states,
	    STORE_NITEMS(q_states), state);
}

static void
q_free(void *p)
{
	struct store_q_item	*it = p;

	free(it->payload);
	free(it->who);
	free(it->owner);
	free(it->result);
	memset(it, 0, sizeof *it);
}

static const struct store_rowtype q_rows = {
	sizeof (struct store_q_item), q_read, q_free
};

void
store_q_item_free(struct store_q_item *it)
{
	if (it != NULL)
		q_free(it);
}

void
store_q_items_free(struct store_q_item *v, size_t n)
{
	store_free_rows(&q_rows, v, n);
}

int
store_q_get(struct store *st, int64_t id, struct store_q_item *out,
    char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	return store_get(st, &q_rows, out, "read queue item", err, errlen,
	    Q_COLS "WHERE id = ?", "I", id);
}

static int
q_add_check(enum store_q_kind kind, const char *payload, const char *who,
    char *err, size_t errlen)
{
	const struct store_len	lens[] = {
		{ "queue payload", payload, Q_PAYLOAD_MAX, 1 },
		{ "queue who", who, Q_TEXT_MAX, 1 },
	};

	if ((unsigned)kind >= STORE_NITEMS(q_kinds)) {
		util_seterr(err, errlen, "queue item: no kind %d", (int)kind);
		return -1;
	}
	if (store_lens_ok(lens, STORE_NITEMS(lens), err, errlen) == -1)
		return -1;
	payload += strspn(payload, " \t\r\n");
	if (*payload != '{') {
		util_seterr(err, errlen, "queue payload: not a JSON object");
		return -1;
	}
	return 0;
}

int
store_q_add(struct store *st, enum store_q_kind kind, int priority,
    const char *payload, const char *who, int64_t schedule_id, int64_t slot,
    int64_t *id, int *dup, char *err, size_t errlen)
{
	int64_t	rowid = 0;
	int	rc = 0;

	if (dup != NULL)
		*dup = 0;
	if (q_add_check(kind, payload, who, err, errlen) == -1)
		return -1;
	if (store_begin(st, "enqueue", err, errlen) == -1)
		return -1;
	if (schedule_id != 0)
		rc = store_get(st, &store_id_row, &rowid, "enqueue", err,
		    errlen, "SELECT id FROM queue_items WHERE schedule_id = ? "
		    "AND slot = ?", "II", schedule_id, slot);
	if (rc == 0)
		rc = store_do(st, &rowid, "enqueue", err, errlen,
		    "INSERT INTO queue_items (kind, priority, payload, who, "
		    "schedule_id, slot, enqueued_at) VALUES (?, ?, ?, ?, ?, ?, "
		    "?)", "tittnII", q_kinds[kind], priority, payload, who,
		    schedule_id, schedule_id != 0 ? slot : (int64_t)0,
		    store_now());
	else if (rc == 1 && dup != NULL)
		*dup = 1;
	if (rc == -1) {
		store_rollback(st);
		return -1;
	}
	if (store_commit(st, "enqueue", err, errlen) == -1)
		return -1;
	if (id != NULL)
		*id = rowid;
	return 0;
}

int
store_q_claim(struct store *st, const char *owner, unsigned kinds_mask,
    struct store_q_item *out, char *err, size_t errlen)
{
	struct store_owner	o;
	char			in[128], sql[512];
	int64_t			id = 0;
	int			rc;

	memset(out, 0, sizeof *out);
	if (store_len_ok("queue owner", owner, STORE_OWNER_MAX, 1, err,
	    errlen) == -1)
		return -1;
	if (!q_in_list(in, sizeof in, q_kinds, STORE_NITEMS(q_kinds),
	    kinds_mask))
		return 0;
	q_owner_parts(owner, &o);
	snprintf(sql, sizeof sql, "SELECT id FROM queue_items WHERE state = "
	    "'queued' AND kind IN %s ORDER BY priority DESC, id LIMIT 1", in);
	if (store_begin(st, "claim queue item", err, errlen) == -1)
		return -1;
	rc = store_get(st, &store_id_row, &id, "claim queue item", err,
	    errlen, sql, "");
	if (rc == 0) {
		store_rollback(st);
		return 0;
	}
	if (rc == -1 || store_do(st, NULL, "claim queue item", err, errlen,
	    "UPDATE queue_items SET state = 'running', owner = ?, owner_host "
	    "= ?, owner_pid = ?, owner_start = ?, owner_since = ?, started_at "
	    "= ?, finished_at = NULL, attempts = attempts + 1 WHERE id = ? AND "
	    "state = 'queued'", "ttIIIII", owner, o.host[0] != '\0' ? o.host :
	    NULL, o.pid, o.start, o.since, store_now(), id) == -1 ||
	    store_changed(st, "claim queue item", "queued item", id, err,
	    errlen) == -1 || store_q_get(st, id, out, err, errlen) != 1)
		goto fail;
	if (store_commit(st, "claim queue item", err, errlen) == -1) {
		store_q_item_free(out);
		return -1;
	}
	return 1;
fail:
	store_q_item_free(out);
	store_rollback(st);
	return -1;
}

int
store_q_set_ids(struct store *st, int64_t id, int64_t run_id,
    int64_t bisect_id, char *err, size_t errlen)
{
	if (store_do(st, NULL, "set queue item ids", err, errlen,
	    "UPDATE queue_items SET run_id = COALESCE(?, run_id), bisect_id = "
	    "COALESCE(?, bisect_id) WHERE id = ?", "nnI", run_id, bisect_id,
	    id) == -1)
		return -1;
	return store_changed(st, "set queue item ids", "queue item", id, err,
	    errlen);
}

/*
 * Inside a transaction: the state of item id, which must be one of the
 * states in mask; else -1 naming what it is.
 */
static int
q_expect(struct store *st, int64_t id, unsigned mask, const char *op,
    const char *want, char *err, size_t errlen)
{
	struct store_q_item	it;
	int			rc;

	if ((rc = store_q_get(st, id, &it, err, errlen)) == -1)
		return -1;
	if (rc == 0) {
		util_seterr(err, errlen, "%s: %s: no queue item %lld",
		    st->path, op, (long long)id);
		return -1;
	}
	rc = (mask & (1u << it.state)) != 0 ? 0 : -1;
	if (rc == -1)
		util_seterr(err, errlen, "%s: %s: queue item %lld is %s, not %s",
		    st->path, op, (long long)id, store_q_state_name(it.state),
		    want);
	store_q_item_free(&it);
	return rc;
}

int
store_q_finish(struct store *st, int64_t id, enum store_q_state state,
    const char *result, char *err, size_t errlen)
{
	unsigned	from = 1u << STORE_Q_RUNNING;

	if (state != STORE_Q_DONE && state != STORE_Q_FAILED &&
	    state != STORE_Q_CANCELLED) {
		util_seterr(err, errlen, "%s: finish queue item %lld: %s is not "
		    "done, failed or cancelled", st->path, (long long)id,
		    store_q_state_name(state));
		return -1;
	}
	if (store_len_ok("queue result", result, Q_TEXT_MAX, 0, err,
	    errlen) == -1)
		return -1;
	if (state == STORE_Q_CANCELLED)
		from |= 1u << STORE_Q_QUEUED;
	if (store_begin(st, "finish queue item", err, errlen) == -1)
		return -1;
	if (q_expect(st, id, from, "finish queue item",
	    state == STORE_Q_CANCELLED ? "queued or running" : "running", err,
	    errlen) == -1 || store_do(st, NULL, "finish queue item", err,
	    errlen, "UPDATE queue_items SET state = ?, result = ?, finished_at "
	    "= ? WHERE id = ?", "ttII", q_states[state], result, store_now(),
	    id) == -1) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, "finish queue item", err, errlen);
}

#define Q_REQUEUE "UPDATE queue_items SET state = 'queued', owner = NULL, " \
	"owner_host = NULL, owner_pid = NULL, owner_start = NULL, " \
	"owner_since = NULL, started_at = NULL, result = ? WHERE id = ?"

int
store_q_requeue(struct store *st, int64_t id, const char *why, char *err,
    size_t errlen)
{
	if (store_len_ok("queue requeue reason", why, Q_TEXT_MAX, 0, err,
	    errlen) == -1)
		return -1;
	if (store_begin(st, "requeue queue item", err, errlen) == -1)
		return -1;
	if (q_expect(st, id, 1u << STORE_Q_RUNNING, "requeue queue item",
	    "running", err, errlen) == -1 || store_do(st, NULL,
	    "requeue queue item", err, errlen, Q_REQUEUE, "tI", why, id) == -1) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st, "requeue queue item", err, errlen);
}

/* A running item's id, owner text and owner parts. */
struct q_owned {
	int64_t			id;
	char			owner[STORE_OWNER_MAX];
	struct store_owner	who;
};

static void
q_owned_read(sqlite3_stmt *stmt, void *p)
{
	struct q_owned	*r = p;

	memset(r, 0, sizeof *r);
	store_cols(stmt, 0, "Is", &r->id, r->owner, sizeof r->owner);
	store_owner_cols(stmt, 2, &r->who);
}

static const struct store_rowtype q_owned_rows = {
	sizeof (struct q_owned), q_owned_read, NULL
};

int
store_q_requeue_dead(struct store *st, int64_t *n, char *err, size_t errlen)
{
	struct q_owned	*v = NULL;
	char		 why[STORE_OWNER_MAX + 64];
	size_t		 nv = 0, i;

	*n = 0;
	if (store_begin(st, "requeue dead queue items", err, errlen) == -1)
		return -1;
	if (store_list(st, &q_owned_rows, &v, &nv, "requeue dead queue items",
	    err, errlen, "SELECT id, COALESCE(owner, ''), owner_host, "
	    "owner_pid, owner_start, owner_since FROM queue_items WHERE state "
	    "= 'running'", "") == -1)
		goto fail;
	for (i = 0; i < nv; i++) {
		/* Parts missing (owner text alone): parse the text. */
		if (v[i].who.host[0] == '\0')
			q_owner_parts(v[i].owner, &v[i].who);
		if (!q_owner_gone(&v[i].who))
			continue;
		snprintf(why, sizeof why, "requeued: owner %s is gone",
		    v[i].owner);
		if (store_do(st, NULL, "requeue dead queue items", err, errlen,
		    Q_REQUEUE, "tI", why, v[i].id) == -1)
			goto fail;
		(*n)++;
	}
	free(v);
	return store_commit(st, "requeue dead queue items", err, errlen);
fail:
	free(v);
	*n = 0;
	store_rollback(st);
	return -1;
}

int
store_q_active_for(struct store *st, int64_t schedule_id, int64_t *n,
    char *err, size_t errlen)
{
	*n = 0;
	return store_get(st, &store_id_row, n, "count a schedule's queue items",
	    err, errlen, "SELECT COUNT(*) FROM queue_items WHERE schedule_id = "
	    "? AND state IN ('queued', 'running')", "I", schedule_id) == -1 ?
	    -1 : 0;
}

int
store_q_list(struct store *st, unsigned states_mask, size_t limit,
    struct store_q_item **items, size_t *n, char *err, size_t errlen)
{
	return store_q_page(st, states_mask, 0, limit, items, n, err, errlen);
}

int
store_q_page(struct store *st, unsigned states_mask, int64_t after,
    size_t limit, struct store_q_item **items, size_t *n, char *err,
    size_t errlen)
{
	char	in[128], sql[1024];

	*items = NULL;
	*n = 0;
	if (states_mask == 0)
		states_mask = ~0u;
	if (!q_in_list(in, sizeof in, q_states, STORE_NITEMS(q_states),
	    states_mask))
		return 0;
	snprintf(sql, sizeof sql, Q_COLS "WHERE state IN %s AND id < ? ORDER "
	    "BY id DESC LIMIT %lld", in, limit == 0 ? -1LL : (long long)limit);
	return store_list(st, &q_rows, items, n, "list queue", err, errlen,
	    sql, "I", after > 0 ? after : INT64_MAX);
}

/* ---- submitting from the CLI ---------------------------------------------- */

void
store_q_who(char *buf, size_t len)
{
	struct passwd	 pw, *res = NULL;
	char		 pwbuf[1024], host[64], user[64];

	if (getpwuid_r(geteuid(), &pw, pwbuf, sizeof pwbuf, &res) == 0 &&
	    res != NULL)
		snprintf(user, sizeof user, "%s", res->pw_name);
	else
		snprintf(user, sizeof user, "uid %ld", (long)geteuid());
	if (gethostname(host, sizeof host) == -1)
		snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	snprintf(buf, len, "%s@%s pid %ld", user, host, (long)getpid());
}

/* 0 when a live daemon serves the store, else -1 saying when it beat. */
static int
q_daemon_live(struct store *st, char *err, size_t errlen)
{
	struct store_daemon	d;
	int			rc, live = 0;
	int64_t			age;

	if ((rc = store_daemon_get(st, STORE_DAEMON_STALE_MS, &d, &live, err,
	    errlen)) == -1)
		return -1;
	if (rc == 0) {
		util_seterr(err, errlen, "no daemon serves %s: last heartbeat "
		    "never (labrat serve --db %s)", st->path, st->path);
		return -1;
	}
	age = (store_now() - d.beat) / 1000;
	store_daemon_free(&d);
	if (!live) {
		util_seterr(err, errlen, "no daemon serves %s: last heartbeat "
		    "%lld s ago (labrat serve --db %s)", st->path,
		    (long long)(age > 0 ? age : 0), st->path);
		return -1;
	}
	return 0;
}

int
store_q_submit(struct store *st, enum store_q_kind kind, int priority,
    const char *payload, const char *who, int64_t *id, char *err,
    size_t errlen)
{
	if (q_daemon_live(st, err, errlen) == -1)
		return -1;
	return store_q_add(st, kind, priority, payload, who, 0, 0, id, NULL,
	    err, errlen);
}

int
store_q_add_reset(struct store *st, int64_t bisect_id, int priority,
    const char *who, int64_t *id, char *err, size_t errlen)
{
	char	payload[64];
	int64_t	rowid = 0;
	int	rc;

	*id = 0;
	if (store_len_ok("queue who", who, Q_TEXT_MAX, 1, err, errlen) == -1 ||
	    q_daemon_live(st, err, errlen) == -1)
		return -1;
	snprintf(payload, sizeof payload, "{\"bisect\": %lld}",
	    (long long)bisect_id);
	if (store_begin(st, "enqueue reset", err, errlen) == -1)
		return -1;
	/* One reset of a bisect waits or runs at a time: a second request
	 * gets the first's item. */
	rc = store_get(st, &store_id_row, &rowid, "enqueue reset", err, errlen,
	    "SELECT id FROM queue_items WHERE bisect_id = ? AND kind = 'reset' "
	    "AND state IN ('queued', 'running') ORDER BY id LIMIT 1", "I",
	    bisect_id);
	if (rc == 0)
		rc = store_do(st, &rowid, "enqueue reset", err, errlen,
		    "INSERT INTO queue_items (kind, priority, payload, who, "
		    "bisect_id, enqueued_at) VALUES ('reset', ?, ?, ?, ?, ?)",
		    "ittII", priority, payload, who, bisect_id, store_now()) ==
		    -1 ? -1 : 0;
	if (rc == -1) {
		store_rollback(st);
		return -1;
	}
	if (store_commit(st, "enqueue reset", err, errlen) == -1)
		return -1;
	*id = rowid;
	return rc;
}

/* ---- the daemon's heartbeat ------------------------------------------------ */

struct q_daemon_row {
	struct store_daemon	d;
	struct store_owner	who;
};

static void
q_daemon_read(sqlite3_stmt *stmt, void *p)
{
	struct q_daemon_row	*r = p;

	memset(r, 0, sizeof *r);
	store_cols(stmt, 0, "SIIii", &r->d.owner, &r->d.started, &r->d.beat,
	    &r->d.stopping, &r->d.stopped);
	store_cols(stmt, 5, "sII", r->who.host, sizeof r->who.host,
	    &r->who.pid, &r->who.start);
}

static void
q_daemon_free(void *p)
{
	struct q_daemon_row	*r = p;

	store_daemon_free(&r->d);
}

static const struct store_rowtype q_daemon_rows = {
	sizeof (struct q_daemon_row), q_daemon_read, q_daemon_free
};

void
store_daemon_free(struct store_daemon *d)
{
	if (d == NULL)
		return;
	free(d->owner);
	memset(d, 0, sizeof *d);
}

/* The row (1), none (0) or -1; *live: it serves the store now. */
static int
q_daemon_row(struct store *st, int64_t stale_ms, struct q_daemon_row *r,
    int *live, const char *op, char *err, size_t errlen)
{
	int	rc;

	*live = 0;
	rc = store_get(st, &q_daemon_rows, r, op, err, errlen, "SELECT owner, "
	    "started_at, beat_at, stopping, stopped, COALESCE(owner_host, ''), "
	    "COALESCE(owner_pid, 0), COALESCE(owner_start, 0) FROM daemon "
	    "WHERE id = 1", "");
	if (rc == 1)
		*live = !r->d.stopped && r->d.beat >= store_now() - stale_ms &&
		    !q_owner_gone(&r->who);
	return rc;
}

int
store_daemon_get(struct store *st, int64_t stale_ms, struct store_daemon *out,
    int *live, char *err, size_t errlen)
{
	struct q_daemon_row	r;
	int			rc;

	memset(out, 0, sizeof *out);
	rc = q_daemon_row(st, stale_ms, &r, live, "read daemon heartbeat", err,
	    errlen);
	if (rc == 1)
		*out = r.d;
	return rc;
}

int
store_daemon_register(struct store *st, const char *owner, int64_t stale_ms,
    struct store_daemon *other, char *err, size_t errlen)
{
	const char		*op = "register daemon";
	struct q_daemon_row	 r;
	struct store_owner	 o;
	int			 rc, live;
	int64_t			 now;

	memset(other, 0, sizeof *other);
	if (store_len_ok("daemon owner", owner, STORE_OWNER_MAX, 1, err,
	    errlen) == -1)
		return -1;
	q_owner_parts(owner, &o);
	if (store_begin(st, op, err, errlen) == -1)
		return -1;
	if ((rc = q_daemon_row(st, stale_ms, &r, &live, op, err, errlen)) == -1)
		goto fail;
	if (rc == 1 && live && strcmp(r.d.owner, owner) != 0) {
		*other = r.d;
		store_rollback(st);
		return 1;
	}
	if (rc == 1)
		store_daemon_free(&r.d);
	now = store_now();
	if (store_do(st, NULL, op, err, errlen, "INSERT OR REPLACE INTO daemon "
	    "(id, owner, owner_host, owner_pid, owner_start, started_at, "
	    "beat_at, stopping, stopped) VALUES (1, ?, ?, ?, ?, ?, ?, 0, 0)",
	    "ttIIII", owner, o.host[0] != '\0' ? o.host : NULL, o.pid, o.start,
	    now, now) == -1)
		goto fail;
	return store_commit(st, op, err, errlen);
fail:
	store_rollback(st);
	return -1;
}

int64_t
store_daemon_now(void)
{
	return store_now();
}

int
store_daemon_beat(struct store *st, const char *owner, int stopping,
    char *err, size_t errlen)
{
	if (store_do(st, NULL, "daemon heartbeat", err, errlen, "UPDATE daemon "
	    "SET beat_at = ?, stopping = ? WHERE id = 1 AND owner = ? AND "
	    "stopped = 0", "Iit", store_now(), stopping != 0, owner) == -1)
		return -1;
	if (sqlite3_changes(st->db) == 0) {
		util_seterr(err, errlen, "%s: daemon heartbeat: %s is not the "
		    "daemon registered for this database (another took over)",
		    st->path, owner);
		return -1;
	}
	return 0;
}

int
store_daemon_unregister(struct store *st, const char *owner, char *err,
    size_t errlen)
{
	return store_do(st, NULL, "unregister daemon", err, errlen, "UPDATE "
	    "daemon SET stopped = 1, stopping = 0, beat_at = ? WHERE id = 1 AND "
	    "owner = ?", "It", store_now(), owner);
}

/* ---- link leases --------------------------------------------------------- */

struct q_lease_row {
	char			owner[STORE_OWNER_MAX];
	struct store_owner	who;
	int64_t			expires;
};

static void
q_lease_read(sqlite3_stmt *stmt, void *p)
{
	struct q_lease_row	*r = p;

	memset(r, 0, sizeof *r);
	store_cols(stmt, 0, "ssIII", r->owner, sizeof r->owner, r->who.host,
	    sizeof r->who.host, &r->who.pid, &r->who.start, &r->expires);
}

static const struct store_rowtype q_lease_rows = {
	sizeof (struct q_lease_row), q_lease_read, NULL
};

int
store_link_lease_take(struct store *st, const char *link, const char *owner,
    int64_t ttl_ms, char *holder, size_t holderlen, char *err, size_t errlen)
{
	const char		*op = "take link lease";
	struct q_lease_row	 r;
	struct store_owner	 o;
	int64_t			 now = store_now();
	int			 rc;

	if (holderlen > 0)
		holder[0] = '\0';
	if (store_len_ok("link", link, STORE_NAME_MAX, 1, err, errlen) == -1 ||
	    store_len_ok("lease owner", owner, STORE_OWNER_MAX, 1, err,
	    errlen) == -1)
		return -1;
	if (ttl_ms <= 0) {
		util_seterr(err, errlen, "%s: link %s: ttl %lld ms is not > 0",
		    op, link, (long long)ttl_ms);
		return -1;
	}
	q_owner_parts(owner, &o);
	if (store_begin(st, op, err, errlen) == -1)
		return -1;
	rc = store_get(st, &q_lease_rows, &r, op, err, errlen, "SELECT owner, "
	    "COALESCE(owner_host, ''), COALESCE(owner_pid, 0), "
	    "COALESCE(owner_start, 0), expires_at FROM link_leases WHERE link "
	    "= ?", "t", link);
	if (rc == -1)
		goto fail;
	if (rc == 1 && strcmp(r.owner, owner) == 0)
		rc = store_do(st, NULL, op, err, errlen, "UPDATE link_leases SET "
		    "expires_at = ? WHERE link = ?", "It", now + ttl_ms, link);
	else if (rc == 1 && r.expires > now && !q_owner_gone(&r.who)) {
		snprintf(holder, holderlen, "%s", r.owner);
		store_rollback(st);
		return 0;
	} else
		rc = store_do(st, NULL, op, err, errlen, "INSERT OR REPLACE "
		    "INTO link_leases (link, owner, owner_host, owner_pid, "
		    "owner_start, taken_at, expires_at) VALUES (?, ?, ?, ?, ?, "
		    "?, ?)", "tttIIII", link, owner, o.host[0] != '\0' ? o.host :
		    NULL, o.pid, o.start, now, now + ttl_ms);
	if (rc == -1)
		goto fail;
	if (store_commit(st, op, err, errlen) == -1)
		return -1;
	return 1;
fail:
	store_rollback(st);
	return -1;
}

int
store_link_lease_release(struct store *st, const char *link,
    const char *owner, char *err, size_t errlen)
{
	return store_do(st, NULL, "release link lease", err, errlen, "DELETE "
	    "FROM link_leases WHERE link = ? AND owner = ?", "tt", link, owner);
}
