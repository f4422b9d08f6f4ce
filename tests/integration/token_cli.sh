#!/bin/sh
# `labrat token add|list|revoke` without a lab: add prints the secret alone
# on stdout (lrt_ID_43 base64url characters) and says on stderr that it is
# shown once; the database holds neither the secret nor its random part
# (sqlite3 over the whole file); list as text and JSON (no salt or hash,
# the read-only flag, revoked time after revoke); the errors with their
# messages and statuses (2 a bad name or usage, 1 a taken name, an unknown
# or already revoked token).
# ctest: parallel
set -eu
: "${LABRAT:?}"
command -v jq >/dev/null || { echo "token_cli: jq missing" >&2; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/lr-token-XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "token_cli: FAIL: $*" >&2; exit 1; }
expect() {
	want=$1; shift
	set +e
	"$@" >"$dir/out" 2>"$dir/err"
	got=$?
	set -e
	[ "$got" -eq "$want" ] ||
	    { cat "$dir/out" "$dir/err" >&2; fail "$* exited $got, want $want"; }
}
has() { grep -qF -- "$1" "$dir/$2" ||
    { cat "$dir/$2" >&2; fail "no \"$1\" in std$2"; }; }

db=$dir/labrat.db
T() { "$LABRAT" token "$@" --db "$db"; }

expect 0 T add ci-bot --read-only
[ "$(wc -l <"$dir/out")" -eq 1 ] || fail "add printed more than the secret"
s1=$(cat "$dir/out")
echo "$s1" | grep -Eqx 'lrt_[1-9][0-9]*_[A-Za-z0-9_-]{43}' ||
    fail "secret \"$s1\" is not lrt_ID_<43 base64url>"
has "shown this once" err
has "read-only" err
expect 0 T add admin
s2=$(cat "$dir/out")
[ "$s1" != "$s2" ] || fail "two tokens got the same secret"

# Neither secret, nor its random part, is anywhere in the database.
r1=${s1#lrt_*_}
for s in "$s1" "$r1" "${s2#lrt_*_}"; do
	! grep -qF -- "$s" "$db" || fail "the database holds \"$s\""
done
if command -v sqlite3 >/dev/null; then
	sqlite3 "$db" .dump >"$dir/dump"
	for s in "$s1" "$r1"; do
		! grep -qF -- "$s" "$dir/dump" || fail "the dump holds \"$s\""
	done
fi

expect 0 T list
has "ci-bot" out
has "read-only" out
has "read-write" out
has "never" out
expect 0 T list --format json
jq -e '.tokens | length == 2 and .[0].name == "ci-bot" and
    .[0].read_only == true and .[1].read_only == false and
    .[0].revoked == null and .[0].last_used == null and
    (.[0].created | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T.*Z$")) and
    all(.[]; (keys - ["created", "id", "last_used", "name", "read_only",
    "revoked"]) == [])' "$dir/out" >/dev/null ||
    { cat "$dir/out" >&2; fail "token list JSON"; }
id1=${s1#lrt_}
id1=${id1%%_*}
[ "$(jq '.tokens[0].id' "$dir/out")" = "$id1" ] ||
    fail "list's id is not the secret's ($id1)"
! grep -qiE 'salt|hash' "$dir/out" || fail "list shows a salt or hash"

expect 0 T revoke ci-bot
has "token ci-bot revoked" out
expect 0 T list --format json
jq -e '.tokens[0].revoked != null and .tokens[1].revoked == null' \
    "$dir/out" >/dev/null || { cat "$dir/out" >&2; fail "revoked not listed"; }

# Errors.
expect 1 T revoke ci-bot
has 'token "ci-bot" is already revoked' err
expect 1 T revoke nosuch
has 'no token "nosuch"' err
expect 1 T add ci-bot
has 'token "ci-bot" exists' err
[ ! -s "$dir/out" ] || fail "a refused add printed a secret"
expect 2 T add 'has space'
has 'token name "has space": must be 1-63 characters' err
expect 2 T add "$(printf 'x%.0s' $(seq 64))"
has "must be 1-63 characters" err
expect 0 T add "$(printf 'y%.0s' $(seq 63))"
expect 2 T add 'semi;colon'
expect 2 T add
has "NAME missing" err
expect 2 T add a b
expect 2 T add x --write
has "unknown option --write" err
expect 2 T revoke
expect 2 T list --format csv
expect 0 T list --format json
[ "$(jq '.tokens | length' "$dir/out")" -eq 3 ] || fail "refused adds stored"
echo "token_cli: ok"
