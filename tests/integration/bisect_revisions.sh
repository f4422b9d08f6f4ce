#!/bin/sh
# labrat bisect revision sources, no lab needed: git first-parent history
# (all of it, and limited to a subdirectory; GOOD/BAD given as refs come
# back as full hashes), a plain list with comments, a history file, the
# inventory's "revisions" (relative to it) and none at all; bad
# endpoints and a bad test file are refused before anything is stored.
# The hosts have no kernel provider, so the bisect stops at its first step
# with a clear reason, after the revisions were stored.
# ctest: parallel
set -u
: "${LABRAT:?}"
command -v git >/dev/null || { echo "SKIP: git missing" >&2; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq missing" >&2; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/lrbrev$$.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$T/inv.json" <<'J'
{"hosts": [
  {"name": "a", "os": "freebsd", "address": "192.0.2.11",
   "ssh": {"key": "/nonexistent/k", "known_hosts": "/nonexistent/kh"},
   "nics": [{"name": "em0", "driver": "em", "role": "test"}]},
  {"name": "b", "os": "freebsd", "address": "192.0.2.12",
   "ssh": {"key": "/nonexistent/k", "known_hosts": "/nonexistent/kh"},
   "nics": [{"name": "em0", "driver": "em", "role": "test"}]}],
 "links": [{"name": "em", "nat": null,
   "client": {"host": "a", "if": "em0", "address": "198.18.1.1"},
   "server": {"host": "b", "if": "em0", "address": "198.18.1.2"}}]}
J
cp "$LABRAT_SOURCE_DIR/configs/bisect/em.json" "$T/test.json"

R=$T/repo
git init -q -b main "$R" && cd "$R" || fail "git init"
git config user.email t@example.invalid && git config user.name t
c() { mkdir -p "$(dirname "$1")"; echo "$2" >> "$1"; git add "$1"; git commit -q -m "$2"; }
c README base; git tag good
c sys/dev/e1000/if_em.c "em: one"
c share/man "man: bump"
git checkout -q -b side
c sys/dev/e1000/e1000_side.c "em: on a side branch"
c other "side: other"
git checkout -q main
c sys/dev/e1000/if_em.c "em: two"
git merge -q --no-ff -m "merge side" side
c share/man "man: again"
git tag bad
cd - >/dev/null

start() {
	"$LABRAT" bisect start --inventory "$T/inv.json" --link em \
	    --test "$T/test.json" --db "$T/db" --quiet "$@"
}
status() { "$LABRAT" bisect status --db "$T/db" --format json; }

start --good good --bad bad --revisions "git:$R" >"$T/o" 2>"$T/e"
[ $? -eq 1 ] || fail "git: exit status"
grep -q "no kernel provider" "$T/e" || fail "git: reason: $(cat "$T/e")"
[ "$(status | jq .revisions)" = 6 ] || fail "git first-parent: $(status | jq .revisions) revisions, want 6"
[ "$(status | jq -r .good)" = "$(git -C "$R" rev-parse good)" ] || fail "GOOD not resolved"
[ "$(status | jq -r .bad)" = "$(git -C "$R" rev-parse bad)" ] || fail "BAD not resolved"

start --good good --bad bad --revisions "git:$R:sys/dev/e1000" >/dev/null 2>&1
# GOOD, em: one, em: two, the merge (it brings em changes), then BAD.
[ "$(status | jq .revisions)" = 5 ] || fail "git limited: $(status | jq .revisions), want 5"

printf '# svn revisions\nr100 first\n\nr101 second one\nr102\n  r103 last\n' > "$T/list"
start --good r100 --bad r103 --revisions "$T/list" >/dev/null 2>&1
[ "$(status | jq .revisions)" = 4 ] || fail "plain list"
"$LABRAT" bisect log --db "$T/db" | grep -q "^# labrat bisect start .* --good r100 --bad r103" || fail "log"

H=$LABRAT_SOURCE_DIR/configs/simlab/history.json
start --good r200100 --bad r200199 --revisions "$H" >/dev/null 2>&1
[ "$(status | jq .revisions)" = 100 ] || fail "history slice"

# No --revisions: the inventory's "revisions", relative to its directory
# (also git's PATH); with neither, a clear error.
start --good r200100 --bad r200199 >/dev/null 2>"$T/e"
[ $? -eq 2 ] || fail "no source: exit status"
grep -q "no revision source: give --revisions SOURCE or set \"revisions\" in $T/inv.json" "$T/e" ||
    fail "no source: $(cat "$T/e")"
cp "$H" "$T/hist.json"
jq '.revisions = "hist.json"' "$T/inv.json" > "$T/inv-h.json"
(cd / && "$LABRAT" bisect start --inventory "$T/inv-h.json" --link em \
    --test "$T/test.json" --db "$T/db" --quiet --good r200100 \
    --bad r200149) >/dev/null 2>&1
[ "$(status | jq .revisions)" = 50 ] || fail "inventory history: $(status | jq .revisions)"
jq '.revisions = "repo:sys/dev/e1000" | .revisions |= "git:" + .' "$T/inv.json" > "$T/inv-g.json"
(cd / && "$LABRAT" bisect start --inventory "$T/inv-g.json" --link em \
    --test "$T/test.json" --db "$T/db" --quiet --good good --bad bad) >/dev/null 2>&1
[ "$(status | jq .revisions)" = 5 ] || fail "inventory git: $(status | jq .revisions)"

n=$("$LABRAT" bisect status --db "$T/db" --format json | jq .bisect)
start --good r200199 --bad r200100 --revisions "$H" >/dev/null 2>"$T/e"
[ $? -eq 2 ] || fail "reversed endpoints accepted"
grep -q "GOOD must come before BAD" "$T/e" || fail "reversed: $(cat "$T/e")"
start --good r1 --bad r200100 --revisions "$H" >/dev/null 2>"$T/e" && fail "unknown GOOD accepted"
grep -q "GOOD is not in the revisions" "$T/e" || fail "unknown GOOD: $(cat "$T/e")"
echo '{"compare": {"type": "ab"}, "workload": {"tool": "iperf3", "time": 0}}' > "$T/bad.json"
"$LABRAT" bisect start --inventory "$T/inv.json" --link em --test "$T/bad.json" \
    --good r200100 --bad r200199 --revisions "$H" --db "$T/db" 2>"$T/e" && fail "bad test accepted"
grep -q "bad.json: compare.knob: " "$T/e" && grep -q "bad.json: workload.time: " "$T/e" ||
    fail "bad test: $(cat "$T/e")"
[ "$("$LABRAT" bisect status --db "$T/db" --format json | jq .bisect)" = "$n" ] ||
    fail "a refused start stored a bisect"
echo PASS
