/*
 * store_sql: the SQL helpers of the store module (store_int.h): errors
 * that name the database and the operation, transactions, statements
 * bound from a format, row readers that fill typed arrays, and the length
 * checks done before anything is written.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store.h"
#include "store_int.h"
#include "util.h"

/* The clock (util_wall_ms(): LABRAT_TEST_CLOCK, test only, may stop it
 * so that ages read against the stamps cannot tick). */
int64_t
store_now(void)
{
	return util_wall_ms();
}

int
store_err(struct store *st, const char *op, char *err, size_t errlen)
{
	const char	*hint = "";

	char		 busy[96] = "";
	int		 code = sqlite3_errcode(st->db) & 0xff;

	switch (code) {
	case SQLITE_FULL:
		st->fault = STORE_FAULT_FULL;
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		st->fault = STORE_FAULT_BUSY;
		snprintf(busy, sizeof busy, " (for more than %d.%d s, the busy "
		    "budget)", st->busy_ms / 1000, st->busy_ms % 1000 / 100);
		break;
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
	case SQLITE_READONLY:
		st->fault = STORE_FAULT_IO;
		break;
	default:
		st->fault = STORE_FAULT_OTHER;
		break;
	}
	if (st->version < store_schema_latest() && !st->migrating)
		hint = " (the schema is older than this labrat: run "
		    "`labrat db migrate`)";
	util_seterr(err, errlen, "%s: %s: %s%s%s", st->path, op,
	    sqlite3_errmsg(st->db), busy, hint);
	return -1;
}

int
store_exec(struct store *st, const char *sql, const char *op, char *err,
    size_t errlen)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_err(st, op, err, errlen);
	return 0;
}

/* BEGIN IMMEDIATE takes the write lock up front, so two connections never
 * deadlock upgrading a read transaction. */
int
store_begin(struct store *st, const char *op, char *err, size_t errlen)
{
	return store_exec(st, "BEGIN IMMEDIATE", op, err, errlen);
}

int
store_commit(struct store *st, const char *op, char *err, size_t errlen)
{
	if (store_exec(st, "COMMIT", op, err, errlen) == -1) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

void
store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

static void
bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(stmt, i);
	else
		sqlite3_bind_text(stmt, i, s, -1, SQLITE_TRANSIENT);
}

static void
bindv(sqlite3_stmt *stmt, const char *fmt, va_list ap)
{
	int64_t	id;
	int	i, v;

	for (i = 1; *fmt != '\0'; fmt++, i++) {
		switch (*fmt) {
		case 't':
			bind_text(stmt, i, va_arg(ap, const char *));
			break;
		case 'i':
			sqlite3_bind_int(stmt, i, va_arg(ap, int));
			break;
		case 'I':
			sqlite3_bind_int64(stmt, i, va_arg(ap, int64_t));
			break;
		case 'n':
			if ((id = va_arg(ap, int64_t)) == 0)
				sqlite3_bind_null(stmt, i);
			else
				sqlite3_bind_int64(stmt, i, id);
			break;
		case 'b':
			if ((v = va_arg(ap, int)) < 0)
				sqlite3_bind_null(stmt, i);
			else
				sqlite3_bind_int(stmt, i, v);
			break;
		case 'd':
			sqlite3_bind_double(stmt, i, va_arg(ap, double));
			break;
		default:
			fatalx("store: bad bind format letter '%c'", *fmt);
		}
	}
}

void
store_bind(sqlite3_stmt *stmt, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	bindv(stmt, fmt, ap);
	va_end(ap);
}

static sqlite3_stmt *
prepv(struct store *st, const char *op, char *err, size_t errlen,
    const char *sql, const char *fmt, va_list ap)
{
	sqlite3_stmt	*stmt = NULL;

	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		store_err(st, op, err, errlen);
		sqlite3_finalize(stmt);
		return NULL;
	}
	bindv(stmt, fmt, ap);
	return stmt;
}

sqlite3_stmt *
store_prep(struct store *st, const char *op, char *err, size_t errlen,
    const char *sql, const char *fmt, ...)
{
	sqlite3_stmt	*stmt;
	va_list		 ap;

	va_start(ap, fmt);
	stmt = prepv(st, op, err, errlen, sql, fmt, ap);
	va_end(ap);
	return stmt;
}

int
store_done(struct store *st, sqlite3_stmt *stmt, const char *op, char *err,
    size_t errlen)
{
	int	rc = 0;

	if (sqlite3_step(stmt) != SQLITE_DONE)
		rc = store_err(st, op, err, errlen);
	sqlite3_finalize(stmt);
	return rc;
}

int
store_do(struct store *st, int64_t *rowid, const char *op, char *err,
    size_t errlen, const char *sql, const char *fmt, ...)
{
	sqlite3_stmt	*stmt;
	va_list		 ap;

	va_start(ap, fmt);
	stmt = prepv(st, op, err, errlen, sql, fmt, ap);
	va_end(ap);
	if (stmt == NULL || store_done(st, stmt, op, err, errlen) == -1)
		return -1;
	if (rowid != NULL)
		*rowid = sqlite3_last_insert_rowid(st->db);
	return 0;
}

int
store_changed(struct store *st, const char *op, const char *what, int64_t id,
    char *err, size_t errlen)
{
	if (sqlite3_changes(st->db) == 0) {
		st->fault = STORE_FAULT_NONE;
		util_seterr(err, errlen, "%s: %s: no %s %lld", st->path, op,
		    what, (long long)id);
		return -1;
	}
	return 0;
}

/*
 * Steps stmt and reads its rows: the first only into one (when it is not
 * NULL; 1 if there was a row, 0 if not), else all of them into a heap
 * array *vp of *np elements of type t.  Finalizes stmt.
 */
static int
rows(struct store *st, sqlite3_stmt *stmt, const struct store_rowtype *t,
    void *one, char **vp, size_t *np, const char *op, char *err,
    size_t errlen)
{
	char	*v = NULL;
	size_t	 n = 0, cap = 0;
	int	 rc;

	if (stmt == NULL)
		return -1;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (one != NULL) {
			t->read(stmt, one);
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, t->size);
		}
		t->read(stmt, v + n++ * t->size);
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_free_rows(t, v, n);
		return store_err(st, op, err, errlen);
	}
	*vp = v;
	*np = n;
	return rc == SQLITE_ROW;
}

int
store_get(struct store *st, const struct store_rowtype *t, void *dst,
    const char *op, char *err, size_t errlen, const char *sql,
    const char *fmt, ...)
{
	sqlite3_stmt	*stmt;
	va_list		 ap;
	char		*v;
	size_t		 n;

	va_start(ap, fmt);
	stmt = prepv(st, op, err, errlen, sql, fmt, ap);
	va_end(ap);
	return rows(st, stmt, t, dst, &v, &n, op, err, errlen);
}

int
store_list(struct store *st, const struct store_rowtype *t, void *vp,
    size_t *np, const char *op, char *err, size_t errlen, const char *sql,
    const char *fmt, ...)
{
	sqlite3_stmt	*stmt;
	va_list		 ap;
	char		*v = NULL;
	int		 rc;

	*np = 0;
	va_start(ap, fmt);
	stmt = prepv(st, op, err, errlen, sql, fmt, ap);
	va_end(ap);
	rc = rows(st, stmt, t, NULL, &v, np, op, err, errlen);
	/* vp is the caller's T **: give it the array (NULL on error). */
	memcpy(vp, &v, sizeof v);
	return rc == -1 ? -1 : 0;
}

void
store_free_rows(const struct store_rowtype *t, void *v, size_t n)
{
	size_t	i;

	for (i = 0; t->free != NULL && i < n; i++)
		t->free((char *)v + i * t->size);
	free(v);
}

static void
read_id(sqlite3_stmt *stmt, void *dst)
{
	*(int64_t *)dst = sqlite3_column_int64(stmt, 0);
}

const struct store_rowtype store_id_row = {
	sizeof (int64_t), read_id, NULL
};

static int
col_bool(sqlite3_stmt *stmt, int i)
{
	if (sqlite3_column_type(stmt, i) == SQLITE_NULL)
		return -1;
	return sqlite3_column_int(stmt, i) != 0;
}

/* Reads tso, lro, rxcsum, txcsum, mtu, nat from columns i..i+5. */
static void
col_knobs(sqlite3_stmt *stmt, int i, struct knobs *k)
{
	char	nat[16];
	int	mtu;

	knobs_clear(k);
	knobs_set(k, KNOB_TSO, col_bool(stmt, i));
	knobs_set(k, KNOB_LRO, col_bool(stmt, i + 1));
	knobs_set(k, KNOB_RXCSUM, col_bool(stmt, i + 2));
	knobs_set(k, KNOB_TXCSUM, col_bool(stmt, i + 3));
	mtu = sqlite3_column_int(stmt, i + 4);
	knobs_set(k, KNOB_MTU, mtu > 0 ? mtu : -1);
	store_col_copy(stmt, i + 5, nat, sizeof nat);
	knobs_set(k, KNOB_NAT, knobs_nat_from_name(nat));
}

void
store_cols(sqlite3_stmt *stmt, int i, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	for (; *fmt != '\0'; fmt++, i++) {
		switch (*fmt) {
		case 'I':
			*va_arg(ap, int64_t *) = sqlite3_column_int64(stmt, i);
			break;
		case 'i':
			*va_arg(ap, int *) = sqlite3_column_int(stmt, i);
			break;
		case 'd':
			*va_arg(ap, double *) = sqlite3_column_double(stmt, i);
			break;
		case 's':
			s = va_arg(ap, char *);
			store_col_copy(stmt, i, s, va_arg(ap, size_t));
			break;
		case 'S':
			*va_arg(ap, char **) = store_col_dup(stmt, i);
			break;
		case 'k':
			col_knobs(stmt, i, va_arg(ap, struct knobs *));
			i += 5;
			break;
		case '-':
			break;
		default:
			fatalx("store: bad column format letter '%c'", *fmt);
		}
	}
	va_end(ap);
}

void
store_col_copy(sqlite3_stmt *stmt, int i, char *dst, size_t len)
{
	const unsigned char	*s = sqlite3_column_text(stmt, i);

	snprintf(dst, len, "%s", s != NULL ? (const char *)s : "");
}

char *
store_col_dup(sqlite3_stmt *stmt, int i)
{
	const unsigned char	*s = sqlite3_column_text(stmt, i);

	return s != NULL ? xstrdup((const char *)s) : NULL;
}

int
store_name_ok(const char *name, size_t max)
{
	size_t	i, n;

	if (name == NULL || (n = strlen(name)) == 0 || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if (!((name[i] >= 'A' && name[i] <= 'Z') ||
		    (name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= '0' && name[i] <= '9') || name[i] == '.' ||
		    name[i] == '_' || name[i] == '-'))
			return 0;
	return 1;
}

int
store_len_ok(const char *what, const char *s, size_t max, int required,
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

int
store_lens_ok(const struct store_len *l, size_t n, char *err, size_t errlen)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (store_len_ok(l[i].what, l[i].s, l[i].max, l[i].required,
		    err, errlen) == -1)
			return -1;
	return 0;
}
