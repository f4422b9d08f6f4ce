#!/bin/sh
# tests/integration/lib/api_store.sh FILE: the api_store fixture
# (tests/CMakeLists.txt): api_store (lib/api.sh: a real run on the
# simulated lab, the shared one under ctest) into FILE, once, for every
# test that calls api_store; each of them works on its own copy.  The
# run's plan stays beside it (FILE without .db, .plan.json: the store
# names it).
set -u
[ $# -eq 1 ] || { echo "usage: api_store.sh FILE" >&2; exit 2; }
F=$1
. "$(dirname "$0")/simlab.sh"
LAB=apist$$
. "$(dirname "$0")/run.sh"
. "$(dirname "$0")/api.sh"
unset LABRAT_API_STORE	# this is the one
mkdir -p "$(dirname "$F")" || fail "mkdir $(dirname "$F")"
rm -f "$F" "$F.tmp$$"
api_store "$TMP/api.db" "${F%.db}.plan.json"
sqlite3 "$TMP/api.db" ".backup '$F.tmp$$'" || fail "backup to $F.tmp$$"
mv "$F.tmp$$" "$F" || fail "rename into $F"
note "api_store fixture: $F ($(sqlite3 "$F" 'SELECT count(*) FROM jobs') jobs)"
