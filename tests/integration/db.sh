#!/bin/sh
# `labrat db migrate|check|path` as a user runs them: the --db / LABRAT_DB
# rule, parent directories created, exit statuses (0 ok, 1 failure, 2 usage),
# a database from a newer labrat refused and left byte-for-byte unchanged,
# an older one reported by check and upgraded by migrate.
# ctest: parallel
set -eu
: "${LABRAT:?}" "${LABRAT_FIXTURES:?}"
command -v sqlite3 >/dev/null || {
	echo "db: sqlite3 CLI missing (scripts/install-deps.sh installs it)" >&2
	exit 77
}
dir=$(mktemp -d "${TMPDIR:-/tmp}/lr-db-XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "db: FAIL: $*" >&2; exit 1; }

# expect STATUS CMD...: runs CMD, output in $dir/out, checks the status.
expect() {
	want=$1; shift
	set +e
	"$@" >"$dir/out" 2>&1
	got=$?
	set -e
	[ "$got" -eq "$want" ] || { cat "$dir/out" >&2; fail "$* exited $got, want $want"; }
}
has() { grep -qF -- "$1" "$dir/out" || { cat "$dir/out" >&2; fail "no \"$1\" in output"; }; }

db="$dir/state/deep/labrat.db"
expect 1 "$LABRAT" db check --db "$db"
has "no such database"
[ ! -e "$db" ] || fail "check created $db"
expect 0 "$LABRAT" db migrate --db "$db"
has "migrated schema version 0 ->"
latest=$(sqlite3 "$db" 'PRAGMA user_version')
[ "$latest" -ge 2 ] || fail "schema version $latest"
[ "$(sqlite3 "$db" 'PRAGMA journal_mode')" = wal ] || fail "not WAL"
expect 0 "$LABRAT" db migrate --db "$db"
has "schema version $latest is up to date"
expect 0 "$LABRAT" db check --db "$db"
has "integrity ok, schema version $latest (current)"

# LABRAT_DB, overridden by --db.
LABRAT_DB="$dir/env.db" expect 0 "$LABRAT" db path
has "$dir/env.db"
LABRAT_DB="$dir/env.db" expect 0 "$LABRAT" db path --db "$dir/opt.db"
has "$dir/opt.db"
LABRAT_DB="$dir/env.db" expect 0 "$LABRAT" db migrate
[ -f "$dir/env.db" ] || fail "LABRAT_DB not used"

# Usage errors.
expect 2 "$LABRAT" db
expect 2 "$LABRAT" db frobnicate --db "$db"
expect 2 "$LABRAT" db check --bogus

# An older database: check says so (1), migrate upgrades it with its data.
sqlite3 "$dir/v1.db" < "$LABRAT_FIXTURES/db/v1.sql"
expect 1 "$LABRAT" db check --db "$dir/v1.db"
has "schema version 1 is older than this labrat ($latest)"
expect 0 "$LABRAT" db migrate --db "$dir/v1.db"
has "migrated schema version 1 -> $latest"
[ "$(sqlite3 "$dir/v1.db" 'SELECT COUNT(*) FROM samples')" = 6 ] ||
	fail "samples lost in migration"
expect 0 "$LABRAT" db check --db "$dir/v1.db"

# A newer one: refused by both, and not a byte changed.
future=$((latest + 5))
sqlite3 "$db" "PRAGMA user_version = $future"
cp -p "$db" "$dir/before.db"
for verb in migrate check; do
	expect 1 "$LABRAT" db "$verb" --db "$db"
	has "$db: schema version $future is newer than this labrat ($latest); upgrade labrat"
done
cmp -s "$db" "$dir/before.db" || fail "a newer database was modified"
[ ! -e "$db-wal" ] || fail "a newer database got a WAL file"

# Damage: not a database at all.
echo "not sqlite" > "$dir/junk.db"
expect 1 "$LABRAT" db check --db "$dir/junk.db"
has "file is not a database"
echo "db: ok"
