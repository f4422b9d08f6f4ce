/*
 * store: the SQLite database (see store.h).  This file is the only includer
 * of sqlite3.h.  Statements are prepared per call: every call is short next
 * to a job that moves traffic for seconds, and it keeps the handle free of
 * cached state that would have to be invalidated by migrations.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "embed.h"
#include "log.h"
#include "store.h"
#include "util.h"

extern const struct embed_file store_migrations[];

#define STORE_BUSY_MS	10000

struct store {
	sqlite3	*db;
	char	*path;
	int	 readonly;
	int	 version;	/* schema version when opened/migrated */
	int	 migrating;	/* no "run labrat db migrate" hint now */
	void	(*hook)(void *, const char *, size_t);
	void	*hook_arg;
};

static const char *job_states[STORE_JOB_NSTATES] = {
	"queued", "running", "done", "failed", "cancelled"
};
static const char *run_states[] = { "running", "done", "failed", "cancelled" };

/* ---- helpers -------------------------------------------------------------- */

static int64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Formats "PATH: OP: sqlite's message" (plus a migrate hint) into err. */
static int
st_err(struct store *st, const char *op, char *err, size_t errlen)
{
	const char	*hint = "";

	if (st->version < store_schema_latest() && !st->migrating)
		hint = " (the schema is older than this labrat: run "
		    "`labrat db migrate`)";
	util_seterr(err, errlen, "%s: %s: %s%s", st->path, op,
	    sqlite3_errmsg(st->db), hint);
	return -1;
}

static sqlite3_stmt *
st_prepare(struct store *st, const char *sql, const char *op, char *err,
    size_t errlen)
{
	sqlite3_stmt	*stmt = NULL;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		st_err(st, op, err, errlen);
		sqlite3_finalize(stmt);
		return NULL;
	}
	return stmt;
}

static int
st_exec(struct store *st, const char *sql, const char *op, char *err,
    size_t errlen)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return st_err(st, op, err, errlen);
	return 0;
}

/* BEGIN IMMEDIATE takes the write lock up front, so two connections never
 * deadlock upgrading a read transaction. */
static int
st_begin(struct store *st, const char *op, char *err, size_t errlen)
{
	return st_exec(st, "BEGIN IMMEDIATE", op, err, errlen);
}

static int
st_commit(struct store *st, const char *op, char *err, size_t errlen)
{
	if (st_exec(st, "COMMIT", op, err, errlen) == -1) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

static void
st_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Steps a statement that returns no row; finalizes it. */
static int
st_run(struct store *st, sqlite3_stmt *stmt, const char *op, char *err,
    size_t errlen)
{
	int	rc;

	rc = sqlite3_step(stmt);
	if (rc != SQLITE_DONE) {
		st_err(st, op, err, errlen);
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_finalize(stmt);
	return 0;
}

static void
bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(stmt, i);
	else
		sqlite3_bind_text(stmt, i, s, -1, SQLITE_TRANSIENT);
}

/* Binds an id, 0 meaning NULL. */
static void
bind_id(sqlite3_stmt *stmt, int i, int64_t id)
{
	if (id == 0)
		sqlite3_bind_null(stmt, i);
	else
		sqlite3_bind_int64(stmt, i, id);
}

static void
col_copy(sqlite3_stmt *stmt, int i, char *dst, size_t len)
{
	const unsigned char	*s = sqlite3_column_text(stmt, i);

	snprintf(dst, len, "%s", s != NULL ? (const char *)s : "");
}

/* Heap copy of a column, NULL for SQL NULL. */
static char *
col_dup(sqlite3_stmt *stmt, int i)
{
	const unsigned char	*s = sqlite3_column_text(stmt, i);

	return s != NULL ? xstrdup((const char *)s) : NULL;
}

static int
check_len(const char *what, const char *s, size_t max, int required,
    char *err, size_t errlen)
{
	if (s == NULL || *s == '\0') {
		if (!required)
			return 0;
		util_seterr(err, errlen, "%s is missing", what);
		return -1;
	}
	if (strlen(s) >= max) {
		util_seterr(err, errlen, "%s \"%.32s...\" is longer than %zu "
		    "bytes", what, s, max - 1);
		return -1;
	}
	return 0;
}

/* ---- opening, migrations ------------------------------------------------ */

int
store_schema_latest(void)
{
	int	n = 0;

	while (store_migrations[n].name != NULL)
		n++;
	return n;
}

static int
read_version(sqlite3 *db, int *version)
{
	sqlite3_stmt	*stmt = NULL;
	int		 rc;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &stmt,
	    NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*version = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int
refuse_newer(const char *path, int version, char *err, size_t errlen)
{
	if (version <= store_schema_latest())
		return 0;
	util_seterr(err, errlen, "%s: schema version %d is newer than this "
	    "labrat (%d); upgrade labrat", path, version,
	    store_schema_latest());
	return -1;
}

/*
 * The user_version in the file's header (big-endian at offset 60), read
 * without SQLite so that even a read-only connection, which would leave
 * -wal and -shm files behind, is not needed to refuse a newer database.
 * Returns -1 when the file has no SQLite header (SQLite then says why).
 */
static int
header_version(const char *path, int *version)
{
	unsigned char	 h[100];
	FILE		*fp;
	size_t		 n;

	if ((fp = fopen(path, "rb")) == NULL)
		return -1;
	n = fread(h, 1, sizeof h, fp);
	fclose(fp);
	if (n < sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
		return -1;
	*version = (int)((uint32_t)h[60] << 24 | (uint32_t)h[61] << 16 |
	    (uint32_t)h[62] << 8 | h[63]);
	return 0;
}

/*
 * Looks at an existing file before anything may write to it: a database
 * from a newer labrat must not be touched (not even switched to WAL or
 * checkpointed on close).  The header says it in most cases; a read-only
 * connection also sees a version still in the WAL.
 */
static int
precheck(const char *path, char *err, size_t errlen)
{
	sqlite3	*db = NULL;
	int	 version = 0, rc = -1;

	if (header_version(path, &version) == 0 &&
	    refuse_newer(path, version, err, errlen) == -1)
		return -1;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		util_seterr(err, errlen, "%s: open: %s", path,
		    db != NULL ? sqlite3_errmsg(db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(db, STORE_BUSY_MS);
	if (read_version(db, &version) == -1) {
		util_seterr(err, errlen, "%s: read schema version: %s", path,
		    sqlite3_errmsg(db));
		goto fail;
	}
	rc = refuse_newer(path, version, err, errlen);
fail:
	sqlite3_close(db);
	return rc;
}

static int
make_parent(const char *path, char *err, size_t errlen)
{
	char	*dir, *slash;
	int	 rc = 0;

	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash != NULL && slash != dir) {
		*slash = '\0';
		if (util_mkdirs(dir, 0700) == -1) {
			util_seterr(err, errlen, "%s: create directory %s: %s",
			    path, dir, strerror(errno));
			rc = -1;
		}
	}
	free(dir);
	return rc;
}

static int
configure(struct store *st, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	char		 mode[16] = "";
	int		 rc, tries;

	sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
	if (read_version(st->db, &st->version) == -1)
		return st_err(st, "read schema version", err, errlen);
	if (refuse_newer(st->path, st->version, err, errlen) == -1)
		return -1;
	if (st_exec(st, "PRAGMA foreign_keys = ON", "enable foreign keys",
	    err, errlen) == -1)
		return -1;
	if (st->readonly)
		return 0;
	/*
	 * Switching a new database to WAL takes an exclusive lock for which
	 * SQLite does not call the busy handler: when several processes open
	 * a new file at once, retry for as long as the busy timeout allows.
	 */
	for (tries = 0;; tries++) {
		if ((stmt = st_prepare(st, "PRAGMA journal_mode = WAL",
		    "enable WAL", err, errlen)) == NULL)
			return -1;
		rc = sqlite3_step(stmt);
		if (rc == SQLITE_ROW)
			break;
		sqlite3_finalize(stmt);
		if (rc != SQLITE_BUSY || tries * 10 >= STORE_BUSY_MS)
			return st_err(st, "enable WAL", err, errlen);
		usleep(10000);
	}
	col_copy(stmt, 0, mode, sizeof mode);
	sqlite3_finalize(stmt);
	if (strcmp(mode, "wal") != 0) {
		util_seterr(err, errlen, "%s: enable WAL: journal mode is "
		    "\"%s\"", st->path, mode);
		return -1;
	}
	/* FULL: a job's record must survive a power cut, not only a crash. */
	return st_exec(st, "PRAGMA synchronous = FULL", "set synchronous",
	    err, errlen);
}

int
store_open(const char *path, int flags, struct store **stp, char *err,
    size_t errlen)
{
	struct store	*st;
	struct stat	 sb;
	int		 oflags;

	*stp = NULL;
	if (stat(path, &sb) == 0) {
		if (precheck(path, err, errlen) == -1)
			return -1;
	} else if (errno != ENOENT || !(flags & STORE_OPEN_CREATE) ||
	    (flags & STORE_OPEN_READONLY)) {
		util_seterr(err, errlen, "%s: %s", path, errno == ENOENT ?
		    "no such database (create it with `labrat db migrate`)" :
		    strerror(errno));
		return -1;
	} else if (make_parent(path, err, errlen) == -1)
		return -1;

	st = xcalloc(1, sizeof *st);
	st->path = xstrdup(path);
	st->readonly = (flags & STORE_OPEN_READONLY) != 0;
	oflags = st->readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
	if (flags & STORE_OPEN_CREATE && !st->readonly)
		oflags |= SQLITE_OPEN_CREATE;
	if (sqlite3_open_v2(path, &st->db, oflags, NULL) != SQLITE_OK) {
		util_seterr(err, errlen, "%s: open: %s", path,
		    st->db != NULL ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	if (configure(st, err, errlen) == -1)
		goto fail;
	if ((flags & STORE_OPEN_MIGRATE) && !st->readonly &&
	    store_migrate(st, NULL, NULL, err, errlen) == -1)
		goto fail;
	*stp = st;
	return 0;
fail:
	store_close(st);
	return -1;
}

void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

const char *
store_path(const struct store *st)
{
	return st->path;
}

/*
 * Applies migration n inside the caller's transaction.  Foreign keys stay
 * on (they cannot change inside a transaction): a future migration that
 * rebuilds a table must start with PRAGMA defer_foreign_keys = ON.
 */
static int
apply_migration(struct store *st, int n, const char *op, char *err,
    size_t errlen)
{
	const struct embed_file	*m = &store_migrations[n - 1];
	char			 pragma[64];

	if (atoi(m->name) != n) {
		util_seterr(err, errlen, "%s: migration %s is numbered out of "
		    "order (expected %04d_*.sql)", st->path, m->name, n);
		return -1;
	}
	snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", n);
	/* The embedded data is NUL-terminated by cmake/EmbedRun.cmake. */
	if (st_exec(st, (const char *)m->data, op, err, errlen) == -1 ||
	    st_exec(st, pragma, op, err, errlen) == -1)
		return -1;
	return 0;
}

/*
 * One migration per transaction.  The version is read again under the
 * write lock each time, so several processes or threads opening a new
 * database at once apply every migration exactly once between them.
 */
int
store_migrate(struct store *st, int *from, int *to, char *err, size_t errlen)
{
	int	version, latest = store_schema_latest(), first = -1;
	char	op[128];

	if (st->readonly) {
		util_seterr(err, errlen, "%s: migrate: opened read-only",
		    st->path);
		return -1;
	}
	st->migrating = 1;
	for (;;) {
		if (st_begin(st, "migrate", err, errlen) == -1)
			goto fail;
		if (read_version(st->db, &version) == -1) {
			st_err(st, "read schema version", err, errlen);
			goto fail;
		}
		if (first == -1)
			first = version;
		if (refuse_newer(st->path, version, err, errlen) == -1)
			goto fail;
		if (version == latest)
			break;
		snprintf(op, sizeof op, "migrate to version %d (%s)",
		    version + 1, store_migrations[version].name);
		if (apply_migration(st, version + 1, op, err, errlen) == -1)
			goto fail;
		if (st_commit(st, op, err, errlen) == -1)
			goto fail;
		st->version = version + 1;
		log_info("%s: %s", st->path, op);
	}
	st_rollback(st);
	st->version = version;
	st->migrating = 0;
	if (from != NULL)
		*from = first;
	if (to != NULL)
		*to = version;
	return 0;
fail:
	st_rollback(st);
	st->migrating = 0;
	return -1;
}

int
store_schema_version(struct store *st, int *version, char *err,
    size_t errlen)
{
	if (read_version(st->db, version) == -1)
		return st_err(st, "read schema version", err, errlen);
	return 0;
}

/* Collects up to a few rows of a check pragma into err; 1 if any. */
static int
check_pragma(struct store *st, const char *sql, const char *ok, char *err,
    size_t errlen)
{
	sqlite3_stmt	*stmt;
	struct buf	 b;
	size_t		 i;
	int		 rc, bad = 0, nrows = 0;

	if ((stmt = st_prepare(st, sql, sql, err, errlen)) == NULL)
		return -1;
	buf_init(&b, 1024);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(stmt, 0);

		if (ok != NULL && s != NULL && strcmp(s, ok) == 0)
			continue;
		bad = 1;
		if (nrows++ < 5)
			buf_printf(&b, "%s%s", nrows > 1 ? "; " : "",
			    s != NULL ? s : "(foreign key violation)");
	}
	for (i = 0; i < b.len; i++)
		if (b.data[i] == '\n')
			b.data[i] = ' ';
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		buf_free(&b);
		return st_err(st, sql, err, errlen);
	}
	if (bad)
		util_seterr(err, errlen, "%s: %s: %s", st->path, sql,
		    b.data != NULL ? b.data : "");
	buf_free(&b);
	return bad;
}

int
store_check(struct store *st, char *err, size_t errlen)
{
	int	rc;

	rc = check_pragma(st, "PRAGMA integrity_check", "ok", err, errlen);
	if (rc != 0)
		return rc;
	return check_pragma(st, "PRAGMA foreign_key_check", NULL, err, errlen);
}

void
store_set_test_hook(struct store *st,
    void (*hook)(void *, const char *, size_t), void *arg)
{
	st->hook = hook;
	st->hook_arg = arg;
}

/* ---- knobs ------------------------------------------------------------------ */

void
store_knobs_init(struct store_knobs *k)
{
	memset(k, 0, sizeof *k);
	k->tso = k->lro = k->rxcsum = k->txcsum = -1;
}

static int
knobs_valid(const struct store_knobs *k, char *err, size_t errlen)
{
	const int	*b[] = { &k->tso, &k->lro, &k->rxcsum, &k->txcsum };
	size_t		 i;

	for (i = 0; i < sizeof b / sizeof b[0]; i++)
		if (*b[i] < -1 || *b[i] > 1) {
			util_seterr(err, errlen, "knob value %d is not -1, 0 "
			    "or 1", *b[i]);
			return -1;
		}
	if (k->mtu != 0 && (k->mtu < 576 || k->mtu > 65535)) {
		util_seterr(err, errlen, "mtu %d is not in 576-65535", k->mtu);
		return -1;
	}
	if (k->nat[0] != '\0' && strcmp(k->nat, "off") != 0 &&
	    strcmp(k->nat, "divert") != 0 && strcmp(k->nat, "kernel") != 0) {
		util_seterr(err, errlen, "nat \"%.8s\" is not off, divert or "
		    "kernel", k->nat);
		return -1;
	}
	return 0;
}

int
store_knobs_key(const struct store_knobs *k, char *key, size_t keylen)
{
	struct buf	 b;
	int		 len;

	buf_init(&b, 256);
	buf_append(&b, "", 0);
#define KNOB_BOOL(name, v) \
	if ((v) >= 0) \
		buf_printf(&b, "%s" name "=%s", b.len ? "," : "", \
		    (v) ? "on" : "off")
	KNOB_BOOL("lro", k->lro);
	if (k->mtu != 0)
		buf_printf(&b, "%smtu=%d", b.len ? "," : "", k->mtu);
	if (k->nat[0] != '\0')
		buf_printf(&b, "%snat=%.7s", b.len ? "," : "", k->nat);
	KNOB_BOOL("rxcsum", k->rxcsum);
	KNOB_BOOL("tso", k->tso);
	KNOB_BOOL("txcsum", k->txcsum);
#undef KNOB_BOOL
	len = (int)b.len;
	if (b.len >= keylen)
		len = -1;
	else
		memcpy(key, b.data, b.len + 1);
	buf_free(&b);
	return len;
}

static void
bind_bool(sqlite3_stmt *stmt, int i, int v)
{
	if (v < 0)
		sqlite3_bind_null(stmt, i);
	else
		sqlite3_bind_int(stmt, i, v);
}

static int
col_bool(sqlite3_stmt *stmt, int i)
{
	if (sqlite3_column_type(stmt, i) == SQLITE_NULL)
		return -1;
	return sqlite3_column_int(stmt, i) != 0;
}

/* Reads tso, lro, rxcsum, txcsum, mtu, nat from columns i..i+5. */
static void
col_knobs(sqlite3_stmt *stmt, int i, struct store_knobs *k)
{
	store_knobs_init(k);
	k->tso = col_bool(stmt, i);
	k->lro = col_bool(stmt, i + 1);
	k->rxcsum = col_bool(stmt, i + 2);
	k->txcsum = col_bool(stmt, i + 3);
	k->mtu = sqlite3_column_int(stmt, i + 4);
	col_copy(stmt, i + 5, k->nat, sizeof k->nat);
}

/* ---- runs ---------------------------------------------------------------- */

const char *
store_run_state_name(enum store_run_state s)
{
	if ((unsigned)s >= sizeof run_states / sizeof run_states[0])
		return "?";
	return run_states[s];
}

static int
run_state_parse(const char *s)
{
	size_t	i;

	for (i = 0; i < sizeof run_states / sizeof run_states[0]; i++)
		if (s != NULL && strcmp(s, run_states[i]) == 0)
			return (int)i;
	return STORE_RUN_FAILED;
}

int
store_run_create(struct store *st, const struct store_run_spec *spec,
    int64_t *run_id, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	const char	*kind = spec->kind != NULL ? spec->kind : "manual";

	if (check_len("run kind", kind, 16, 1, err, errlen) == -1 ||
	    check_len("run owner", spec->owner, STORE_OWNER_MAX, 0, err,
	    errlen) == -1)
		return -1;
	if ((stmt = st_prepare(st, "INSERT INTO runs (kind, state, "
	    "created_at, owner, inventory_path, inventory_text, plan_path, "
	    "plan_text, schedule_id, bisect_id) VALUES (?, 'running', ?, ?, "
	    "?, ?, ?, ?, ?, ?)", "create run", err, errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, kind);
	sqlite3_bind_int64(stmt, 2, now_ms());
	bind_text(stmt, 3, spec->owner);
	bind_text(stmt, 4, spec->inventory_path);
	bind_text(stmt, 5, spec->inventory_text);
	bind_text(stmt, 6, spec->plan_path);
	bind_text(stmt, 7, spec->plan_text);
	bind_id(stmt, 8, spec->schedule_id);
	bind_id(stmt, 9, spec->bisect_id);
	if (st_run(st, stmt, "create run", err, errlen) == -1)
		return -1;
	if (run_id != NULL)
		*run_id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

#define RUN_COLS "id, state, kind, created_at, finished_at, schedule_id, " \
	"bisect_id, owner, reason, inventory_path, plan_path"

static void
run_from_row(sqlite3_stmt *stmt, struct store_run *r)
{
	memset(r, 0, sizeof *r);
	r->id = sqlite3_column_int64(stmt, 0);
	r->state = run_state_parse((const char *)sqlite3_column_text(stmt,
	    1));
	col_copy(stmt, 2, r->kind, sizeof r->kind);
	r->created_at = sqlite3_column_int64(stmt, 3);
	r->finished_at = sqlite3_column_int64(stmt, 4);
	r->schedule_id = sqlite3_column_int64(stmt, 5);
	r->bisect_id = sqlite3_column_int64(stmt, 6);
	r->owner = col_dup(stmt, 7);
	r->reason = col_dup(stmt, 8);
	r->inventory_path = col_dup(stmt, 9);
	r->plan_path = col_dup(stmt, 10);
}

int
store_run_get(struct store *st, int64_t run_id, struct store_run *run,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if ((stmt = st_prepare(st, "SELECT " RUN_COLS ", inventory_text, "
	    "plan_text FROM runs WHERE id = ?", "get run", err,
	    errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		run_from_row(stmt, run);
		run->inventory_text = col_dup(stmt, 11);
		run->plan_text = col_dup(stmt, 12);
		rc = 1;
	} else if (rc == SQLITE_DONE)
		rc = 0;
	else
		rc = st_err(st, "get run", err, errlen);
	sqlite3_finalize(stmt);
	return rc;
}

/* Runs a one-row UPDATE; fails naming what when no row matched. */
static int
st_update_one(struct store *st, sqlite3_stmt *stmt, const char *op,
    const char *what, int64_t id, char *err, size_t errlen)
{
	if (st_run(st, stmt, op, err, errlen) == -1)
		return -1;
	if (sqlite3_changes(st->db) == 0) {
		util_seterr(err, errlen, "%s: %s: no %s %lld", st->path, op,
		    what, (long long)id);
		return -1;
	}
	return 0;
}

int
store_run_finish(struct store *st, int64_t run_id, enum store_run_state state,
    const char *reason, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	if (state == STORE_RUN_RUNNING ||
	    (unsigned)state >= sizeof run_states / sizeof run_states[0]) {
		util_seterr(err, errlen, "finish run %lld: bad state %d",
		    (long long)run_id, (int)state);
		return -1;
	}
	if ((stmt = st_prepare(st, "UPDATE runs SET state = ?, reason = ?, "
	    "finished_at = ? WHERE id = ?", "finish run", err,
	    errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, run_states[state]);
	bind_text(stmt, 2, reason);
	sqlite3_bind_int64(stmt, 3, now_ms());
	sqlite3_bind_int64(stmt, 4, run_id);
	return st_update_one(st, stmt, "finish run", "run", run_id, err,
	    errlen);
}

int
store_run_set_owner(struct store *st, int64_t run_id, const char *owner,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	if (check_len("run owner", owner, STORE_OWNER_MAX, 0, err,
	    errlen) == -1)
		return -1;
	if ((stmt = st_prepare(st, "UPDATE runs SET owner = ?, state = "
	    "'running', finished_at = NULL WHERE id = ?", "set run owner", err,
	    errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, owner);
	sqlite3_bind_int64(stmt, 2, run_id);
	return st_update_one(st, stmt, "set run owner", "run", run_id, err,
	    errlen);
}

int
store_run_list(struct store *st, size_t limit, struct store_run **runs,
    size_t *nruns, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	struct store_run *v = NULL;
	size_t		 n = 0, cap = 0;
	int		 rc;

	*runs = NULL;
	*nruns = 0;
	if ((stmt = st_prepare(st, "SELECT " RUN_COLS " FROM runs ORDER BY "
	    "id DESC LIMIT ?", "list runs", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, limit == 0 ? -1 : (sqlite3_int64)limit);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof *v);
		}
		run_from_row(stmt, &v[n++]);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_runs_free(v, n);
		return st_err(st, "list runs", err, errlen);
	}
	*runs = v;
	*nruns = n;
	return 0;
}

void
store_run_free(struct store_run *r)
{
	if (r == NULL)
		return;
	free(r->owner);
	free(r->reason);
	free(r->inventory_path);
	free(r->plan_path);
	free(r->inventory_text);
	free(r->plan_text);
	memset(r, 0, sizeof *r);
}

void
store_runs_free(struct store_run *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_run_free(&v[i]);
	free(v);
}

/* ---- hosts and facts --------------------------------------------------- */

int
store_host_upsert(struct store *st, const char *name, const char *os,
    const char *address, int64_t *host_id, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	int64_t		 now = now_ms();
	int		 rc;

	if (check_len("host name", name, STORE_NAME_MAX, 1, err,
	    errlen) == -1)
		return -1;
	if ((stmt = st_prepare(st, "INSERT INTO hosts (name, os, address, "
	    "first_seen, last_seen) VALUES (?1, ?2, ?3, ?4, ?4) "
	    "ON CONFLICT (name) DO UPDATE SET os = COALESCE(?2, os), "
	    "address = COALESCE(?3, address), last_seen = ?4",
	    "upsert host", err, errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, name);
	bind_text(stmt, 2, os);
	bind_text(stmt, 3, address);
	sqlite3_bind_int64(stmt, 4, now);
	if (st_run(st, stmt, "upsert host", err, errlen) == -1)
		return -1;
	if (host_id == NULL)
		return 0;
	if ((stmt = st_prepare(st, "SELECT id FROM hosts WHERE name = ?",
	    "upsert host", err, errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, name);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*host_id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW)
		return st_err(st, "upsert host", err, errlen);
	return 0;
}

int
store_host_facts_add(struct store *st, int64_t run_id,
    const struct store_host_facts *f, int64_t *facts_id, char *err,
    size_t errlen)
{
	sqlite3_stmt	*stmt = NULL;
	int64_t		 host_id;

	if (check_len("revision", f->revision, STORE_NAME_MAX, 0, err,
	    errlen) == -1 || check_len("driver", f->driver, STORE_NAME_MAX,
	    0, err, errlen) == -1 || check_len("chip", f->chip,
	    STORE_NAME_MAX, 0, err, errlen) == -1 || check_len("interface",
	    f->ifname, STORE_NAME_MAX, 0, err, errlen) == -1 ||
	    check_len("os", f->os, STORE_NAME_MAX, 0, err, errlen) == -1 ||
	    check_len("kernel version", f->kernel_version, STORE_REASON_MAX, 0,
	    err, errlen) == -1 || check_len("knobs", f->knobs, STORE_KEY_MAX,
	    0, err, errlen) == -1 || check_len("facts", f->facts_json,
	    STORE_FACTS_MAX, 0, err, errlen) == -1)
		return -1;
	if (st_begin(st, "record host facts", err, errlen) == -1)
		return -1;
	if (store_host_upsert(st, f->host, f->os, f->address, &host_id, err,
	    errlen) == -1)
		goto fail;
	if ((stmt = st_prepare(st, "INSERT INTO host_facts (run_id, host_id, "
	    "recorded_at, os, kernel_version, revision, ifname, driver, chip, "
	    "knobs, facts_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	    "record host facts", err, errlen)) == NULL)
		goto fail;
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_int64(stmt, 2, host_id);
	sqlite3_bind_int64(stmt, 3, now_ms());
	bind_text(stmt, 4, f->os);
	bind_text(stmt, 5, f->kernel_version);
	bind_text(stmt, 6, f->revision);
	bind_text(stmt, 7, f->ifname);
	bind_text(stmt, 8, f->driver);
	bind_text(stmt, 9, f->chip);
	bind_text(stmt, 10, f->knobs);
	bind_text(stmt, 11, f->facts_json);
	if (st_run(st, stmt, "record host facts", err, errlen) == -1)
		goto fail;
	if (facts_id != NULL)
		*facts_id = sqlite3_last_insert_rowid(st->db);
	return st_commit(st, "record host facts", err, errlen);
fail:
	st_rollback(st);
	return -1;
}

int
store_host_facts_list(struct store *st, int64_t run_id,
    struct store_host_facts_row **rows, size_t *nrows, char *err,
    size_t errlen)
{
	sqlite3_stmt	*stmt;
	struct store_host_facts_row *v = NULL, *r;
	size_t		 n = 0, cap = 0;
	int		 rc;

	*rows = NULL;
	*nrows = 0;
	if ((stmt = st_prepare(st, "SELECT f.id, f.run_id, f.recorded_at, "
	    "h.name, f.os, f.kernel_version, f.revision, f.ifname, f.driver, "
	    "f.chip, f.knobs, f.facts_json FROM host_facts f JOIN hosts h ON "
	    "h.id = f.host_id WHERE f.run_id = ? ORDER BY f.id",
	    "list host facts", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xreallocarray(v, cap, sizeof *v);
		}
		r = &v[n++];
		r->id = sqlite3_column_int64(stmt, 0);
		r->run_id = sqlite3_column_int64(stmt, 1);
		r->recorded_at = sqlite3_column_int64(stmt, 2);
		r->host = col_dup(stmt, 3);
		r->os = col_dup(stmt, 4);
		r->kernel_version = col_dup(stmt, 5);
		r->revision = col_dup(stmt, 6);
		r->ifname = col_dup(stmt, 7);
		r->driver = col_dup(stmt, 8);
		r->chip = col_dup(stmt, 9);
		r->knobs = col_dup(stmt, 10);
		r->facts_json = col_dup(stmt, 11);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_facts_free(v, n);
		return st_err(st, "list host facts", err, errlen);
	}
	*rows = v;
	*nrows = n;
	return 0;
}

void
store_facts_free(struct store_host_facts_row *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].host);
		free(v[i].os);
		free(v[i].kernel_version);
		free(v[i].revision);
		free(v[i].ifname);
		free(v[i].driver);
		free(v[i].chip);
		free(v[i].knobs);
		free(v[i].facts_json);
	}
	free(v);
}

/* ---- jobs ---------------------------------------------------------------- */

const char *
store_job_state_name(enum store_job_state s)
{
	if ((unsigned)s >= STORE_JOB_NSTATES)
		return "?";
	return job_states[s];
}

static enum store_job_state
job_state_parse(const char *s)
{
	int	i;

	for (i = 0; i < STORE_JOB_NSTATES; i++)
		if (s != NULL && strcmp(s, job_states[i]) == 0)
			return (enum store_job_state)i;
	return STORE_JOB_FAILED;
}

#define JOB_COLS "id, run_id, seq, state, link, tso, lro, rxcsum, txcsum, " \
	"mtu, nat, knobs, tool, params, repetition, attempt, reason, owner, " \
	"queued_at, started_at, finished_at, knobs_in_force, " \
	"client_facts_id, server_facts_id"

static void
job_from_row(sqlite3_stmt *stmt, struct store_job *j)
{
	memset(j, 0, sizeof *j);
	j->id = sqlite3_column_int64(stmt, 0);
	j->run_id = sqlite3_column_int64(stmt, 1);
	j->seq = sqlite3_column_int64(stmt, 2);
	j->state = job_state_parse((const char *)sqlite3_column_text(stmt,
	    3));
	col_copy(stmt, 4, j->link, sizeof j->link);
	col_knobs(stmt, 5, &j->knobs);
	col_copy(stmt, 11, j->knobs_key, sizeof j->knobs_key);
	col_copy(stmt, 12, j->tool, sizeof j->tool);
	col_copy(stmt, 13, j->params, sizeof j->params);
	j->repetition = sqlite3_column_int(stmt, 14);
	j->attempt = sqlite3_column_int(stmt, 15);
	col_copy(stmt, 16, j->reason, sizeof j->reason);
	col_copy(stmt, 17, j->owner, sizeof j->owner);
	j->queued_at = sqlite3_column_int64(stmt, 18);
	j->started_at = sqlite3_column_int64(stmt, 19);
	j->finished_at = sqlite3_column_int64(stmt, 20);
	col_copy(stmt, 21, j->knobs_in_force, sizeof j->knobs_in_force);
	j->client_facts_id = sqlite3_column_int64(stmt, 22);
	j->server_facts_id = sqlite3_column_int64(stmt, 23);
}

static int
job_spec_valid(const struct store_job_spec *s, size_t i, char *err,
    size_t errlen)
{
	char	e[256];

	if (check_len("link", s->link, STORE_NAME_MAX, 1, e, sizeof e) ==
	    -1 || check_len("tool", s->tool, STORE_TOOL_MAX, 1, e,
	    sizeof e) == -1 || check_len("params", s->params,
	    STORE_PARAMS_MAX, 0, e, sizeof e) == -1 ||
	    knobs_valid(&s->knobs, e, sizeof e) == -1)
		goto fail;
	if (s->repetition < 0) {
		snprintf(e, sizeof e, "repetition %d < 0", s->repetition);
		goto fail;
	}
	return 0;
fail:
	util_seterr(err, errlen, "add jobs: job %zu: %s", i, e);
	return -1;
}

static int
job_insert(struct store *st, sqlite3_stmt *stmt, int64_t run_id, int64_t seq,
    const struct store_job_spec *s, int64_t now, char *err, size_t errlen)
{
	char	key[STORE_KEY_MAX];

	if (store_knobs_key(&s->knobs, key, sizeof key) == -1) {
		util_seterr(err, errlen, "add jobs: knobs key too long");
		return -1;
	}
	sqlite3_reset(stmt);
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_int64(stmt, 2, seq);
	bind_text(stmt, 3, s->link);
	bind_bool(stmt, 4, s->knobs.tso);
	bind_bool(stmt, 5, s->knobs.lro);
	bind_bool(stmt, 6, s->knobs.rxcsum);
	bind_bool(stmt, 7, s->knobs.txcsum);
	if (s->knobs.mtu == 0)
		sqlite3_bind_null(stmt, 8);
	else
		sqlite3_bind_int(stmt, 8, s->knobs.mtu);
	bind_text(stmt, 9, s->knobs.nat[0] != '\0' ? s->knobs.nat : NULL);
	bind_text(stmt, 10, key);
	bind_text(stmt, 11, s->tool);
	bind_text(stmt, 12, s->params != NULL ? s->params : "");
	sqlite3_bind_int(stmt, 13, s->repetition);
	sqlite3_bind_int64(stmt, 14, now);
	if (sqlite3_step(stmt) != SQLITE_DONE)
		return st_err(st, "add jobs", err, errlen);
	return 0;
}

int
store_jobs_add(struct store *st, int64_t run_id,
    const struct store_job_spec *specs, size_t n, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt = NULL;
	int64_t		 base = 0, now = now_ms();
	size_t		 i;

	for (i = 0; i < n; i++)
		if (job_spec_valid(&specs[i], i, err, errlen) == -1)
			return -1;
	if (st_begin(st, "add jobs", err, errlen) == -1)
		return -1;
	if ((stmt = st_prepare(st, "SELECT COALESCE(MAX(seq) + 1, 0) FROM "
	    "jobs WHERE run_id = ?", "add jobs", err, errlen)) == NULL)
		goto fail;
	sqlite3_bind_int64(stmt, 1, run_id);
	if (sqlite3_step(stmt) != SQLITE_ROW) {
		st_err(st, "add jobs", err, errlen);
		goto fail;
	}
	base = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if ((stmt = st_prepare(st, "INSERT INTO jobs (run_id, seq, link, tso, "
	    "lro, rxcsum, txcsum, mtu, nat, knobs, tool, params, repetition, "
	    "state, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
	    "'queued', ?)", "add jobs", err, errlen)) == NULL)
		goto fail;
	for (i = 0; i < n; i++)
		if (job_insert(st, stmt, run_id, base + (int64_t)i, &specs[i],
		    now, err, errlen) == -1)
			goto fail;
	sqlite3_finalize(stmt);
	return st_commit(st, "add jobs", err, errlen);
fail:
	sqlite3_finalize(stmt);
	st_rollback(st);
	return -1;
}

/* Reads job_id into *job (inside or outside a transaction): 1/0/-1. */
static int
job_read(struct store *st, int64_t job_id, struct store_job *job,
    const char *op, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if ((stmt = st_prepare(st, "SELECT " JOB_COLS " FROM jobs WHERE "
	    "id = ?", op, err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, job_id);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		job_from_row(stmt, job);
		rc = 1;
	} else if (rc == SQLITE_DONE)
		rc = 0;
	else
		rc = st_err(st, op, err, errlen);
	sqlite3_finalize(stmt);
	return rc;
}

int
store_job_get(struct store *st, int64_t job_id, struct store_job *job,
    char *err, size_t errlen)
{
	return job_read(st, job_id, job, "get job", err, errlen);
}

int
store_job_claim(struct store *st, int64_t run_id, const char *link,
    const char *owner, struct store_job *job, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt = NULL;
	int64_t		 id;
	int		 rc;

	if (check_len("lease owner", owner, STORE_OWNER_MAX, 1, err,
	    errlen) == -1)
		return -1;
	if (st_begin(st, "claim job", err, errlen) == -1)
		return -1;
	/* Two statements, so that each can use its index (jobs_queue,
	 * jobs_claim): a run may hold many thousands of jobs. */
	if ((stmt = st_prepare(st, link == NULL ? "SELECT id FROM jobs WHERE "
	    "run_id = ?1 AND state = 'queued' ORDER BY seq LIMIT 1" :
	    "SELECT id FROM jobs WHERE run_id = ?1 AND state = 'queued' AND "
	    "link = ?2 ORDER BY seq LIMIT 1", "claim job", err,
	    errlen)) == NULL)
		goto fail;
	sqlite3_bind_int64(stmt, 1, run_id);
	if (link != NULL)
		bind_text(stmt, 2, link);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(stmt);
		st_rollback(st);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		st_err(st, "claim job", err, errlen);
		goto fail;
	}
	id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if ((stmt = st_prepare(st, "UPDATE jobs SET state = 'running', "
	    "attempt = attempt + 1, owner = ?, started_at = ?, finished_at = "
	    "NULL WHERE id = ?", "claim job", err, errlen)) == NULL)
		goto fail;
	bind_text(stmt, 1, owner);
	sqlite3_bind_int64(stmt, 2, now_ms());
	sqlite3_bind_int64(stmt, 3, id);
	rc = st_run(st, stmt, "claim job", err, errlen);
	stmt = NULL;
	if (rc == -1 || job_read(st, id, job, "claim job", err, errlen) != 1)
		goto fail;
	if (st_commit(st, "claim job", err, errlen) == -1)
		return -1;
	return 1;
fail:
	sqlite3_finalize(stmt);
	st_rollback(st);
	return -1;
}

/*
 * Inside a transaction: fails unless job_id exists and is in state want,
 * with a message that says what it is instead.
 */
static int
job_expect(struct store *st, int64_t job_id, enum store_job_state want,
    const char *op, char *err, size_t errlen)
{
	struct store_job	j;
	int			rc;

	rc = job_read(st, job_id, &j, op, err, errlen);
	if (rc == -1)
		return -1;
	if (rc == 0) {
		util_seterr(err, errlen, "%s: %s: no job %lld", st->path, op,
		    (long long)job_id);
		return -1;
	}
	if (j.state != want) {
		util_seterr(err, errlen, "%s: %s: job %lld is %s, not %s",
		    st->path, op, (long long)job_id,
		    store_job_state_name(j.state), store_job_state_name(want));
		return -1;
	}
	return 0;
}

int
store_job_requeue(struct store *st, int64_t job_id, const char *reason,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	if (check_len("reason", reason, STORE_REASON_MAX, 0, err,
	    errlen) == -1)
		return -1;
	if (st_begin(st, "requeue job", err, errlen) == -1)
		return -1;
	if (job_expect(st, job_id, STORE_JOB_RUNNING, "requeue job", err,
	    errlen) == -1)
		goto fail;
	if ((stmt = st_prepare(st, "UPDATE jobs SET state = 'queued', "
	    "reason = ?, owner = NULL WHERE id = ?", "requeue job", err,
	    errlen)) == NULL)
		goto fail;
	bind_text(stmt, 1, reason);
	sqlite3_bind_int64(stmt, 2, job_id);
	if (st_run(st, stmt, "requeue job", err, errlen) == -1)
		goto fail;
	return st_commit(st, "requeue job", err, errlen);
fail:
	st_rollback(st);
	return -1;
}

static int
result_valid(const struct store_job_result *r, char *err, size_t errlen)
{
	char	e[256];
	size_t	i;

	if (r->state != STORE_JOB_DONE && r->state != STORE_JOB_FAILED) {
		snprintf(e, sizeof e, "state %s is not done or failed",
		    store_job_state_name(r->state));
		goto fail;
	}
	if (check_len("reason", r->reason, STORE_REASON_MAX, 0, e,
	    sizeof e) == -1 || check_len("knobs in force", r->knobs_in_force,
	    STORE_KEY_MAX, 0, e, sizeof e) == -1)
		goto fail;
	for (i = 0; i < r->nsamples; i++) {
		const struct store_sample *s = &r->samples[i];

		if (check_len("metric", s->metric, STORE_NAME_MAX, 1, e,
		    sizeof e) == -1 || check_len("unit", s->unit,
		    STORE_NAME_MAX, 0, e, sizeof e) == -1)
			goto fail;
		if (!isfinite(s->value) || s->interval < 0) {
			snprintf(e, sizeof e, "sample %s: value %g interval %d",
			    s->metric, s->value, s->interval);
			goto fail;
		}
	}
	for (i = 0; i < r->nraws; i++)
		if (check_len("raw output name", r->raws[i].name,
		    STORE_NAME_MAX, 1, e, sizeof e) == -1 ||
		    r->raws[i].len > STORE_RAW_MAX ||
		    (r->raws[i].data == NULL && r->raws[i].len > 0)) {
			snprintf(e, sizeof e, "raw output %zu is invalid or "
			    "larger than %d bytes", i, STORE_RAW_MAX);
			goto fail;
		}
	return 0;
fail:
	util_seterr(err, errlen, "finish job: %s", e);
	return -1;
}

static int
finish_samples(struct store *st, int64_t job_id,
    const struct store_job_result *r, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	size_t		 i;

	if ((stmt = st_prepare(st, "INSERT INTO samples (job_id, metric, "
	    "value, unit, interval) VALUES (?, ?, ?, ?, ?)", "record samples",
	    err, errlen)) == NULL)
		return -1;
	for (i = 0; i < r->nsamples; i++) {
		sqlite3_reset(stmt);
		sqlite3_bind_int64(stmt, 1, job_id);
		bind_text(stmt, 2, r->samples[i].metric);
		sqlite3_bind_double(stmt, 3, r->samples[i].value);
		bind_text(stmt, 4, r->samples[i].unit != NULL ?
		    r->samples[i].unit : "");
		sqlite3_bind_int(stmt, 5, r->samples[i].interval);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			st_err(st, "record samples", err, errlen);
			sqlite3_finalize(stmt);
			return -1;
		}
		if (st->hook != NULL)
			st->hook(st->hook_arg, "sample", i);
	}
	sqlite3_finalize(stmt);
	return 0;
}

static int
finish_raws(struct store *st, int64_t job_id, const struct store_job_result *r,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	size_t		 i;

	if ((stmt = st_prepare(st, "INSERT INTO raw_outputs (job_id, name, "
	    "data, truncated) VALUES (?, ?, ?, ?)", "record raw output", err,
	    errlen)) == NULL)
		return -1;
	for (i = 0; i < r->nraws; i++) {
		sqlite3_reset(stmt);
		sqlite3_bind_int64(stmt, 1, job_id);
		bind_text(stmt, 2, r->raws[i].name);
		sqlite3_bind_blob(stmt, 3, r->raws[i].len ? r->raws[i].data :
		    "", (int)r->raws[i].len, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 4, r->raws[i].truncated != 0);
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			st_err(st, "record raw output", err, errlen);
			sqlite3_finalize(stmt);
			return -1;
		}
	}
	sqlite3_finalize(stmt);
	return 0;
}

int
store_job_finish(struct store *st, int64_t job_id,
    const struct store_job_result *r, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	if (result_valid(r, err, errlen) == -1)
		return -1;
	if (st_begin(st, "finish job", err, errlen) == -1)
		return -1;
	if (job_expect(st, job_id, STORE_JOB_RUNNING, "finish job", err,
	    errlen) == -1)
		goto fail;
	if ((stmt = st_prepare(st, "UPDATE jobs SET state = ?, reason = ?, "
	    "knobs_in_force = ?, client_facts_id = ?, server_facts_id = ?, "
	    "owner = NULL, finished_at = ? WHERE id = ?", "finish job", err,
	    errlen)) == NULL)
		goto fail;
	bind_text(stmt, 1, job_states[r->state]);
	bind_text(stmt, 2, r->reason);
	bind_text(stmt, 3, r->knobs_in_force);
	bind_id(stmt, 4, r->client_facts_id);
	bind_id(stmt, 5, r->server_facts_id);
	sqlite3_bind_int64(stmt, 6, now_ms());
	sqlite3_bind_int64(stmt, 7, job_id);
	if (st_run(st, stmt, "finish job", err, errlen) == -1 ||
	    finish_samples(st, job_id, r, err, errlen) == -1 ||
	    finish_raws(st, job_id, r, err, errlen) == -1)
		goto fail;
	return st_commit(st, "finish job", err, errlen);
fail:
	st_rollback(st);
	return -1;
}

int
store_job_list(struct store *st, int64_t run_id, int state,
    struct store_job **jobs, size_t *njobs, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	struct store_job *v = NULL;
	size_t		 n = 0, cap = 0;
	int		 rc;

	*jobs = NULL;
	*njobs = 0;
	if ((stmt = st_prepare(st, "SELECT " JOB_COLS " FROM jobs WHERE "
	    "run_id = ?1 AND (?2 IS NULL OR state = ?2) ORDER BY seq",
	    "list jobs", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	bind_text(stmt, 2, state >= 0 && state < STORE_JOB_NSTATES ?
	    job_states[state] : NULL);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof *v);
		}
		job_from_row(stmt, &v[n++]);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		free(v);
		return st_err(st, "list jobs", err, errlen);
	}
	*jobs = v;
	*njobs = n;
	return 0;
}

/* One UPDATE over a run's jobs; *n gets the number of rows changed. */
static int
run_jobs_update(struct store *st, const char *sql, int64_t run_id,
    const char *text, int64_t *n, const char *op, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	if ((stmt = st_prepare(st, sql, op, err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	bind_text(stmt, 2, text);
	sqlite3_bind_int64(stmt, 3, now_ms());
	if (st_run(st, stmt, op, err, errlen) == -1)
		return -1;
	if (n != NULL)
		*n = sqlite3_changes(st->db);
	return 0;
}

int
store_run_cancel_jobs(struct store *st, int64_t run_id, const char *reason,
    int64_t *n, char *err, size_t errlen)
{
	if (check_len("reason", reason, STORE_REASON_MAX, 0, err,
	    errlen) == -1)
		return -1;
	return run_jobs_update(st, "UPDATE jobs SET state = 'cancelled', "
	    "reason = COALESCE(?2, reason), owner = NULL, finished_at = ?3 "
	    "WHERE run_id = ?1 AND state IN ('queued', 'running')", run_id,
	    reason, n, "cancel jobs", err, errlen);
}

int
store_run_reset_running(struct store *st, int64_t run_id, int64_t *n,
    char *err, size_t errlen)
{
	return run_jobs_update(st, "UPDATE jobs SET state = 'queued', "
	    "owner = NULL, reason = COALESCE(?2, reason) WHERE run_id = ?1 "
	    "AND state = 'running'", run_id,
	    "interrupted: the controller running it stopped", n,
	    "reset running jobs", err, errlen);
}

int
store_job_counts(struct store *st, int64_t run_id, const char *link,
    struct store_counts *c, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	memset(c, 0, sizeof *c);
	if ((stmt = st_prepare(st, "SELECT state, COUNT(*) FROM jobs WHERE "
	    "run_id = ?1 AND (?2 IS NULL OR link = ?2) GROUP BY state",
	    "count jobs", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	bind_text(stmt, 2, link);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		enum store_job_state s = job_state_parse(
		    (const char *)sqlite3_column_text(stmt, 0));

		c->n[s] += sqlite3_column_int64(stmt, 1);
		c->total += sqlite3_column_int64(stmt, 1);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return st_err(st, "count jobs", err, errlen);
	return 0;
}

/* ---- samples, raw output --------------------------------------------------- */

#define SERIES_KEYS 7	/* link, knobs, tool, params, revision, metric, unit */

static int
series_same(sqlite3_stmt *stmt, const struct store_series *s)
{
	const char	*cur[SERIES_KEYS] = { s->link, s->knobs_key, s->tool,
			    s->params, s->revision, s->metric, s->unit };
	const char	*v;
	int		 i;

	for (i = 0; i < SERIES_KEYS; i++) {
		v = (const char *)sqlite3_column_text(stmt, i);
		if (strcmp(v != NULL ? v : "", cur[i]) != 0)
			return 0;
	}
	return 1;
}

static void
series_start(sqlite3_stmt *stmt, struct store_series *s)
{
	memset(s, 0, sizeof *s);
	col_copy(stmt, 0, s->link, sizeof s->link);
	col_copy(stmt, 1, s->knobs_key, sizeof s->knobs_key);
	col_copy(stmt, 2, s->tool, sizeof s->tool);
	col_copy(stmt, 3, s->params, sizeof s->params);
	col_copy(stmt, 4, s->revision, sizeof s->revision);
	col_copy(stmt, 5, s->metric, sizeof s->metric);
	col_copy(stmt, 6, s->unit, sizeof s->unit);
	col_knobs(stmt, 9, &s->knobs);
}

int
store_samples_query(struct store *st, int64_t run_id, const char *metric,
    struct store_series **series, size_t *nseries, char *err, size_t errlen)
{
	sqlite3_stmt		*stmt;
	struct store_series	*v = NULL, *s = NULL;
	size_t			 n = 0, cap = 0, vcap = 0;
	int			 rc;

	*series = NULL;
	*nseries = 0;
	if ((stmt = st_prepare(st, "SELECT j.link, j.knobs, j.tool, j.params, "
	    "COALESCE(f.revision, ''), s.metric, s.unit, s.value, j.id, "
	    "j.tso, j.lro, j.rxcsum, j.txcsum, j.mtu, j.nat FROM jobs j "
	    "JOIN samples s ON s.job_id = j.id LEFT JOIN host_facts f ON "
	    "f.id = j.client_facts_id WHERE j.run_id = ?1 AND "
	    "j.state = 'done' AND s.interval = 0 AND (?2 IS NULL OR "
	    "s.metric = ?2) ORDER BY 1, 2, 3, 4, 5, 6, 7, j.seq, s.id",
	    "query samples", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	bind_text(stmt, 2, metric);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (s == NULL || !series_same(stmt, s)) {
			if (n == cap) {
				cap = cap ? cap * 2 : 8;
				v = xreallocarray(v, cap, sizeof *v);
			}
			s = &v[n++];
			series_start(stmt, s);
			vcap = 0;
		}
		if (s->n == vcap) {
			vcap = vcap ? vcap * 2 : 8;
			s->values = xreallocarray(s->values, vcap,
			    sizeof *s->values);
			s->job_ids = xreallocarray(s->job_ids, vcap,
			    sizeof *s->job_ids);
		}
		s->values[s->n] = sqlite3_column_double(stmt, 7);
		s->job_ids[s->n++] = sqlite3_column_int64(stmt, 8);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_series_free(v, n);
		return st_err(st, "query samples", err, errlen);
	}
	*series = v;
	*nseries = n;
	return 0;
}

void
store_series_free(struct store_series *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].values);
		free(v[i].job_ids);
	}
	free(v);
}

int
store_job_samples(struct store *st, int64_t job_id,
    struct store_sample_row **rows, size_t *nrows, char *err, size_t errlen)
{
	sqlite3_stmt		*stmt;
	struct store_sample_row	*v = NULL, *r;
	size_t			 n = 0, cap = 0;
	int			 rc;

	*rows = NULL;
	*nrows = 0;
	if ((stmt = st_prepare(st, "SELECT metric, value, unit, interval FROM "
	    "samples WHERE job_id = ? ORDER BY metric, interval, id",
	    "list job samples", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, job_id);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof *v);
		}
		r = &v[n++];
		col_copy(stmt, 0, r->metric, sizeof r->metric);
		r->value = sqlite3_column_double(stmt, 1);
		col_copy(stmt, 2, r->unit, sizeof r->unit);
		r->interval = sqlite3_column_int(stmt, 3);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		free(v);
		return st_err(st, "list job samples", err, errlen);
	}
	*rows = v;
	*nrows = n;
	return 0;
}

int
store_run_metrics(struct store *st, int64_t run_id, char ***metrics,
    size_t *nmetrics, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	char		**v = NULL;
	size_t		 n = 0, cap = 0, i;
	int		 rc;

	*metrics = NULL;
	*nmetrics = 0;
	if ((stmt = st_prepare(st, "SELECT DISTINCT s.metric FROM samples s "
	    "JOIN jobs j ON j.id = s.job_id WHERE j.run_id = ? ORDER BY 1",
	    "list metrics", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, run_id);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[n++] = col_dup(stmt, 0);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return st_err(st, "list metrics", err, errlen);
	}
	*metrics = v;
	*nmetrics = n;
	return 0;
}

int
store_raw_get(struct store *st, int64_t job_id, const char *name,
    char **data, size_t *len, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	const void	*p;
	int		 rc, n;

	*data = NULL;
	*len = 0;
	if ((stmt = st_prepare(st, "SELECT data FROM raw_outputs WHERE "
	    "job_id = ? AND name = ?", "get raw output", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, job_id);
	bind_text(stmt, 2, name);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		p = sqlite3_column_blob(stmt, 0);
		n = sqlite3_column_bytes(stmt, 0);
		*data = xmalloc((size_t)n + 1);
		if (n > 0)
			memcpy(*data, p, (size_t)n);
		(*data)[n] = '\0';
		*len = (size_t)n;
		rc = 1;
	} else if (rc == SQLITE_DONE)
		rc = 0;
	else
		rc = st_err(st, "get raw output", err, errlen);
	sqlite3_finalize(stmt);
	return rc;
}

/* ---- bisects ------------------------------------------------------------- */

static const char *bisect_states[] = { "running", "done", "failed", "reset" };

static int
one_of(const char *s, const char **set, size_t n)
{
	size_t	i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcmp(s, set[i]) == 0)
			return 1;
	return 0;
}

int
store_bisect_create(struct store *st, const struct store_bisect_spec *b,
    int64_t *bisect_id, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	if (check_len("bisect link", b->link, STORE_NAME_MAX, 1, err,
	    errlen) == -1 || check_len("bisect knobs", b->knobs,
	    STORE_KEY_MAX, 0, err, errlen) == -1 || check_len("bisect tool",
	    b->tool, STORE_TOOL_MAX, 1, err, errlen) == -1 ||
	    check_len("bisect params", b->params, STORE_PARAMS_MAX, 0, err,
	    errlen) == -1 || check_len("bisect metric", b->metric,
	    STORE_NAME_MAX, 1, err, errlen) == -1 || check_len("good revision",
	    b->good, STORE_NAME_MAX, 1, err, errlen) == -1 ||
	    check_len("bad revision", b->bad, STORE_NAME_MAX, 1, err,
	    errlen) == -1)
		return -1;
	if ((stmt = st_prepare(st, "INSERT INTO bisects (state, created_at, "
	    "link, knobs, tool, params, metric, good, bad, revisions, "
	    "inventory_path, plan_path) VALUES ('running', ?, ?, ?, ?, ?, ?, "
	    "?, ?, ?, ?, ?)", "create bisect", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, now_ms());
	bind_text(stmt, 2, b->link);
	bind_text(stmt, 3, b->knobs != NULL ? b->knobs : "");
	bind_text(stmt, 4, b->tool);
	bind_text(stmt, 5, b->params != NULL ? b->params : "");
	bind_text(stmt, 6, b->metric);
	bind_text(stmt, 7, b->good);
	bind_text(stmt, 8, b->bad);
	bind_text(stmt, 9, b->revisions != NULL ? b->revisions : "");
	bind_text(stmt, 10, b->inventory_path);
	bind_text(stmt, 11, b->plan_path);
	if (st_run(st, stmt, "create bisect", err, errlen) == -1)
		return -1;
	if (bisect_id != NULL)
		*bisect_id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

#define BISECT_COLS "id, state, created_at, finished_at, link, knobs, tool, " \
	"metric, good, bad, culprit, confidence, params, revisions, " \
	"inventory_path, plan_path, reason"

static void
bisect_from_row(sqlite3_stmt *stmt, struct store_bisect *b)
{
	memset(b, 0, sizeof *b);
	b->id = sqlite3_column_int64(stmt, 0);
	col_copy(stmt, 1, b->state, sizeof b->state);
	b->created_at = sqlite3_column_int64(stmt, 2);
	b->finished_at = sqlite3_column_int64(stmt, 3);
	col_copy(stmt, 4, b->link, sizeof b->link);
	col_copy(stmt, 5, b->knobs, sizeof b->knobs);
	col_copy(stmt, 6, b->tool, sizeof b->tool);
	col_copy(stmt, 7, b->metric, sizeof b->metric);
	col_copy(stmt, 8, b->good, sizeof b->good);
	col_copy(stmt, 9, b->bad, sizeof b->bad);
	col_copy(stmt, 10, b->culprit, sizeof b->culprit);
	b->confidence = sqlite3_column_double(stmt, 11);
	b->params = col_dup(stmt, 12);
	b->revisions = col_dup(stmt, 13);
	b->inventory_path = col_dup(stmt, 14);
	b->plan_path = col_dup(stmt, 15);
	b->reason = col_dup(stmt, 16);
}

int
store_bisect_get(struct store *st, int64_t bisect_id, struct store_bisect *b,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if ((stmt = st_prepare(st, "SELECT " BISECT_COLS " FROM bisects "
	    "WHERE id = ?1 OR (?1 = 0 AND id = (SELECT MAX(id) FROM "
	    "bisects))", "get bisect", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, bisect_id);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		bisect_from_row(stmt, b);
		rc = 1;
	} else if (rc == SQLITE_DONE)
		rc = 0;
	else
		rc = st_err(st, "get bisect", err, errlen);
	sqlite3_finalize(stmt);
	return rc;
}

int
store_bisect_update(struct store *st, int64_t bisect_id, const char *state,
    const char *culprit, double confidence, const char *reason, char *err,
    size_t errlen)
{
	sqlite3_stmt	*stmt;

	if (!one_of(state, bisect_states, 4)) {
		util_seterr(err, errlen, "update bisect %lld: bad state "
		    "\"%.16s\"", (long long)bisect_id, state ? state : "");
		return -1;
	}
	if (check_len("culprit", culprit, STORE_NAME_MAX, 0, err,
	    errlen) == -1 || check_len("reason", reason, STORE_REASON_MAX, 0,
	    err, errlen) == -1)
		return -1;
	if ((stmt = st_prepare(st, "UPDATE bisects SET state = ?1, culprit = "
	    "?2, confidence = ?3, reason = ?4, finished_at = CASE WHEN ?1 = "
	    "'running' THEN NULL ELSE ?5 END WHERE id = ?6", "update bisect",
	    err, errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, state);
	bind_text(stmt, 2, culprit);
	sqlite3_bind_double(stmt, 3, confidence);
	bind_text(stmt, 4, reason);
	sqlite3_bind_int64(stmt, 5, now_ms());
	sqlite3_bind_int64(stmt, 6, bisect_id);
	return st_update_one(st, stmt, "update bisect", "bisect", bisect_id,
	    err, errlen);
}

int
store_bisect_list(struct store *st, struct store_bisect **bs, size_t *nbs,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	struct store_bisect *v = NULL;
	size_t		 n = 0, cap = 0;
	int		 rc;

	*bs = NULL;
	*nbs = 0;
	if ((stmt = st_prepare(st, "SELECT " BISECT_COLS " FROM bisects "
	    "ORDER BY id DESC", "list bisects", err, errlen)) == NULL)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xreallocarray(v, cap, sizeof *v);
		}
		bisect_from_row(stmt, &v[n++]);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_bisects_free(v, n);
		return st_err(st, "list bisects", err, errlen);
	}
	*bs = v;
	*nbs = n;
	return 0;
}

void
store_bisect_free(struct store_bisect *b)
{
	if (b == NULL)
		return;
	free(b->params);
	free(b->revisions);
	free(b->inventory_path);
	free(b->plan_path);
	free(b->reason);
	memset(b, 0, sizeof *b);
}

void
store_bisects_free(struct store_bisect *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		store_bisect_free(&v[i]);
	free(v);
}

static const char *verdicts[] = { "", "good", "bad", "skip", "inconclusive" };

/* Binds run_id, verdict, n, median, baseline_median, ratio, p at i..i+6. */
static int
bind_step(sqlite3_stmt *stmt, int i, const struct store_bisect_step *s,
    char *err, size_t errlen)
{
	if (!one_of(s->verdict, verdicts, 5)) {
		util_seterr(err, errlen, "bisect step: bad verdict \"%.16s\"",
		    s->verdict);
		return -1;
	}
	bind_id(stmt, i, s->run_id);
	bind_text(stmt, i + 1, s->verdict);
	sqlite3_bind_int(stmt, i + 2, s->n);
	sqlite3_bind_double(stmt, i + 3, s->median);
	sqlite3_bind_double(stmt, i + 4, s->baseline_median);
	sqlite3_bind_double(stmt, i + 5, s->ratio);
	sqlite3_bind_double(stmt, i + 6, s->p);
	return 0;
}

int
store_bisect_step_add(struct store *st, int64_t bisect_id,
    const struct store_bisect_step *s, int64_t *step_id, char *err,
    size_t errlen)
{
	sqlite3_stmt	*stmt;

	if (check_len("revision", s->revision, STORE_NAME_MAX, 1, err,
	    errlen) == -1)
		return -1;
	if ((stmt = st_prepare(st, "INSERT INTO bisect_steps (bisect_id, seq, "
	    "revision, run_id, verdict, n, median, baseline_median, ratio, p, "
	    "created_at, updated_at) VALUES (?1, (SELECT COALESCE(MAX(seq) + "
	    "1, 0) FROM bisect_steps WHERE bisect_id = ?1), ?2, ?3, ?4, ?5, "
	    "?6, ?7, ?8, ?9, ?10, ?10)", "add bisect step", err,
	    errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, bisect_id);
	bind_text(stmt, 2, s->revision);
	if (bind_step(stmt, 3, s, err, errlen) == -1) {
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_bind_int64(stmt, 10, now_ms());
	if (st_run(st, stmt, "add bisect step", err, errlen) == -1)
		return -1;
	if (step_id != NULL)
		*step_id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int
store_bisect_step_update(struct store *st, const struct store_bisect_step *s,
    char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	if ((stmt = st_prepare(st, "UPDATE bisect_steps SET run_id = ?1, "
	    "verdict = ?2, n = ?3, median = ?4, baseline_median = ?5, "
	    "ratio = ?6, p = ?7, updated_at = ?8 WHERE id = ?9",
	    "update bisect step", err, errlen)) == NULL)
		return -1;
	if (bind_step(stmt, 1, s, err, errlen) == -1) {
		sqlite3_finalize(stmt);
		return -1;
	}
	sqlite3_bind_int64(stmt, 8, now_ms());
	sqlite3_bind_int64(stmt, 9, s->id);
	return st_update_one(st, stmt, "update bisect step", "bisect step",
	    s->id, err, errlen);
}

int
store_bisect_steps(struct store *st, int64_t bisect_id,
    struct store_bisect_step **steps, size_t *nsteps, char *err,
    size_t errlen)
{
	sqlite3_stmt		*stmt;
	struct store_bisect_step *v = NULL, *s;
	size_t			 n = 0, cap = 0;
	int			 rc;

	*steps = NULL;
	*nsteps = 0;
	if ((stmt = st_prepare(st, "SELECT id, bisect_id, seq, revision, "
	    "run_id, verdict, n, median, baseline_median, ratio, p, "
	    "created_at, updated_at FROM bisect_steps WHERE bisect_id = ? "
	    "ORDER BY seq", "list bisect steps", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, bisect_id);
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xreallocarray(v, cap, sizeof *v);
		}
		s = &v[n++];
		memset(s, 0, sizeof *s);
		s->id = sqlite3_column_int64(stmt, 0);
		s->bisect_id = sqlite3_column_int64(stmt, 1);
		s->seq = sqlite3_column_int(stmt, 2);
		col_copy(stmt, 3, s->revision, sizeof s->revision);
		s->run_id = sqlite3_column_int64(stmt, 4);
		col_copy(stmt, 5, s->verdict, sizeof s->verdict);
		s->n = sqlite3_column_int(stmt, 6);
		s->median = sqlite3_column_double(stmt, 7);
		s->baseline_median = sqlite3_column_double(stmt, 8);
		s->ratio = sqlite3_column_double(stmt, 9);
		s->p = sqlite3_column_double(stmt, 10);
		s->created_at = sqlite3_column_int64(stmt, 11);
		s->updated_at = sqlite3_column_int64(stmt, 12);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		free(v);
		return st_err(st, "list bisect steps", err, errlen);
	}
	*steps = v;
	*nsteps = n;
	return 0;
}

/* ---- schedules --------------------------------------------------------- */

int
store_schedule_upsert(struct store *st, const struct store_schedule *s,
    int64_t *schedule_id, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;
	int		 rc;

	if (check_len("schedule name", s->name, STORE_NAME_MAX, 1, err,
	    errlen) == -1 || check_len("schedule cron", s->cron,
	    STORE_NAME_MAX, 1, err, errlen) == -1 || check_len("inventory",
	    s->inventory_path, PATH_MAX, 1, err, errlen) == -1 ||
	    check_len("plan", s->plan_path, PATH_MAX, 1, err, errlen) == -1)
		return -1;
	if ((stmt = st_prepare(st, "INSERT INTO schedules (name, cron, "
	    "inventory_path, plan_path, enabled, created_at, next_run_at) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (name) DO UPDATE "
	    "SET cron = ?2, inventory_path = ?3, plan_path = ?4, enabled = ?5, "
	    "next_run_at = ?7", "save schedule", err,
	    errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, s->name);
	bind_text(stmt, 2, s->cron);
	bind_text(stmt, 3, s->inventory_path);
	bind_text(stmt, 4, s->plan_path);
	sqlite3_bind_int(stmt, 5, s->enabled != 0);
	sqlite3_bind_int64(stmt, 6, now_ms());
	bind_id(stmt, 7, s->next_run_at);
	if (st_run(st, stmt, "save schedule", err, errlen) == -1)
		return -1;
	if (schedule_id == NULL)
		return 0;
	/* Not RETURNING: that needs SQLite 3.35. */
	if ((stmt = st_prepare(st, "SELECT id FROM schedules WHERE name = ?",
	    "save schedule", err, errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, s->name);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*schedule_id = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW)
		return st_err(st, "save schedule", err, errlen);
	return 0;
}

int
store_schedule_delete(struct store *st, const char *name, char *err,
    size_t errlen)
{
	sqlite3_stmt	*stmt;

	if ((stmt = st_prepare(st, "DELETE FROM schedules WHERE name = ?",
	    "delete schedule", err, errlen)) == NULL)
		return -1;
	bind_text(stmt, 1, name);
	if (st_run(st, stmt, "delete schedule", err, errlen) == -1)
		return -1;
	if (sqlite3_changes(st->db) == 0) {
		util_seterr(err, errlen, "%s: delete schedule: no schedule "
		    "\"%s\"", st->path, name);
		return -1;
	}
	return 0;
}

int
store_schedule_list(struct store *st, struct store_schedule **ss, size_t *nss,
    char *err, size_t errlen)
{
	sqlite3_stmt		*stmt;
	struct store_schedule	*v = NULL, *s;
	size_t			 n = 0, cap = 0;
	int			 rc;

	*ss = NULL;
	*nss = 0;
	if ((stmt = st_prepare(st, "SELECT id, name, cron, inventory_path, "
	    "plan_path, enabled, last_run_at, last_run_id, next_run_at FROM "
	    "schedules ORDER BY name", "list schedules", err, errlen)) == NULL)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			v = xreallocarray(v, cap, sizeof *v);
		}
		s = &v[n++];
		memset(s, 0, sizeof *s);
		s->id = sqlite3_column_int64(stmt, 0);
		col_copy(stmt, 1, s->name, sizeof s->name);
		col_copy(stmt, 2, s->cron, sizeof s->cron);
		s->inventory_path = col_dup(stmt, 3);
		s->plan_path = col_dup(stmt, 4);
		s->enabled = sqlite3_column_int(stmt, 5);
		s->last_run_at = sqlite3_column_int64(stmt, 6);
		s->last_run_id = sqlite3_column_int64(stmt, 7);
		s->next_run_at = sqlite3_column_int64(stmt, 8);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		store_schedules_free(v, n);
		return st_err(st, "list schedules", err, errlen);
	}
	*ss = v;
	*nss = n;
	return 0;
}

int
store_schedule_fired(struct store *st, int64_t schedule_id, int64_t run_id,
    int64_t next_run_at, char *err, size_t errlen)
{
	sqlite3_stmt	*stmt;

	if ((stmt = st_prepare(st, "UPDATE schedules SET last_run_at = ?, "
	    "last_run_id = ?, next_run_at = ? WHERE id = ?",
	    "record schedule run", err, errlen)) == NULL)
		return -1;
	sqlite3_bind_int64(stmt, 1, now_ms());
	bind_id(stmt, 2, run_id);
	bind_id(stmt, 3, next_run_at);
	sqlite3_bind_int64(stmt, 4, schedule_id);
	return st_update_one(st, stmt, "record schedule run", "schedule",
	    schedule_id, err, errlen);
}

void
store_schedules_free(struct store_schedule *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].inventory_path);
		free(v[i].plan_path);
	}
	free(v);
}
