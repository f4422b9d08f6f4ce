/*
 * store: the SQLite database (see store.h).  This file opens, migrates and
 * checks it; store_sql.c has the SQL helpers the
 * module's files share (store_int.h), store_jobs.c runs, jobs and samples,
 * store_bisect.c hosts, bisects and schedules.  Only the store module
 * includes sqlite3.h.  Statements are prepared per call: every call is
 * short next to a job that moves traffic for seconds, and it keeps the
 * handle free of cached state that would have to be invalidated by
 * migrations.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "embed.h"
#include "log.h"
#include "store.h"
#include "store_int.h"
#include "util.h"

extern const struct embed_file store_migrations[];

static int	check_pragma(struct store *, const char *, const char *,
		    char *, size_t);

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
	struct buf	 uri;
	sqlite3		*db = NULL;
	const char	*p;
	int		 rc = -1;

	/*
	 * Through SQLite, never with a plain open()/close() of our own: closing
	 * any descriptor of the file would drop every POSIX lock this process
	 * holds on it, and with them the locks of the other connections of a
	 * running labrat (SQLite keeps its own descriptors open for exactly
	 * this reason).  immutable=1 reads the main file only, taking no lock
	 * and creating no -wal or -shm file.
	 */
	buf_init(&uri, 3 * strlen(path) + 64);
	buf_append(&uri, "file:", 5);
	for (p = path; *p != '\0'; p++) {
		if (*p == '%' || *p == '?' || *p == '#')
			buf_printf(&uri, "%%%02X", (unsigned char)*p);
		else
			buf_append(&uri, p, 1);
	}
	buf_append(&uri, "?immutable=1", 12);
	if (sqlite3_open_v2(uri.data, &db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_URI, NULL) == SQLITE_OK)
		rc = read_version(db, version);
	sqlite3_close(db);
	buf_free(&uri);
	return rc;
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

	if ((st->busy_ms = store_busy_budget_ms(err, errlen)) == -1)
		return -1;
	sqlite3_busy_handler(st->db, store_busy_wait, st);
	if (read_version(st->db, &st->version) == -1)
		return store_err(st, "read schema version", err, errlen);
	if (refuse_newer(st->path, st->version, err, errlen) == -1)
		return -1;
	if (store_exec(st, "PRAGMA foreign_keys = ON", "enable foreign keys",
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
		if ((stmt = store_prep(st, "enable WAL", err, errlen,
		    "PRAGMA journal_mode = WAL", "")) == NULL)
			return -1;
		rc = sqlite3_step(stmt);
		if (rc == SQLITE_ROW)
			break;
		sqlite3_finalize(stmt);
		if (rc != SQLITE_BUSY || tries * 10 >= st->busy_ms)
			return store_err(st, "enable WAL", err, errlen);
		usleep(10000);
	}
	store_col_copy(stmt, 0, mode, sizeof mode);
	sqlite3_finalize(stmt);
	if (strcmp(mode, "wal") != 0) {
		util_seterr(err, errlen, "%s: enable WAL: journal mode is "
		    "\"%s\"", st->path, mode);
		return -1;
	}
	/* FULL: a job's record must survive a power cut, not only a crash. */
	return store_exec(st, "PRAGMA synchronous = FULL", "set synchronous",
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
 * Applies migration n inside the caller's transaction.  store_migrate()
 * turned foreign keys off around it (they cannot change inside a
 * transaction), so that a migration may rebuild a table (CREATE new,
 * copy, DROP old, RENAME: SQLite's way to change a CHECK) without the DROP
 * cascading into the tables that reference it; what it leaves is checked
 * with PRAGMA foreign_key_check before the commit.
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
	if (store_exec(st, (const char *)m->data, op, err, errlen) == -1 ||
	    store_exec(st, pragma, op, err, errlen) == -1)
		return -1;
	return check_pragma(st, "PRAGMA foreign_key_check", NULL, err,
	    errlen) == 0 ? 0 : -1;
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
	/* Outside any transaction, where it takes effect (see above). */
	if (store_exec(st, "PRAGMA foreign_keys = OFF", "migrate", err,
	    errlen) == -1)
		goto fail;
	for (;;) {
		if (store_begin(st, "migrate", err, errlen) == -1)
			goto fail;
		if (read_version(st->db, &version) == -1) {
			store_err(st, "read schema version", err, errlen);
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
		if (store_commit(st, op, err, errlen) == -1)
			goto fail;
		st->version = version + 1;
		log_info("%s: %s", st->path, op);
	}
	store_rollback(st);
	st->version = version;
	st->migrating = 0;
	if (store_exec(st, "PRAGMA foreign_keys = ON", "migrate", err,
	    errlen) == -1)
		return -1;
	if (from != NULL)
		*from = first;
	if (to != NULL)
		*to = version;
	return 0;
fail:
	store_rollback(st);
	st->migrating = 0;
	sqlite3_exec(st->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	return -1;
}

int
store_schema_version(struct store *st, int *version, char *err,
    size_t errlen)
{
	if (read_version(st->db, version) == -1)
		return store_err(st, "read schema version", err, errlen);
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

	if ((stmt = store_prep(st, sql, err, errlen, sql, "")) == NULL)
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
		return store_err(st, sql, err, errlen);
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
