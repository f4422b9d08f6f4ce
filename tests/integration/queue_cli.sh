#!/bin/sh
# `labrat queue` and `labrat run|bisect start --enqueue` without a lab, on
# a real store whose daemon heartbeat and queue rows build/qfill writes
# through the store API (until `labrat serve` writes them itself): the
# empty queue (text and JSON); --enqueue refused while no daemon serves
# the database (never beat, then its process gone, then unregistered),
# config errors reported first as the non-enqueue path reports them;
# with a live daemon (a sleep process as its owner) a run and a bisect
# queued with absolute paths from relative ones, the text and JSON
# listings, newest first, with claimed and finished items.
set -eu
: "${LABRAT:?}" "${LABRAT_SOURCE_DIR:?}" "${LABRAT_BUILD_DIR:?}"
command -v jq >/dev/null || { echo "queue_cli: jq missing" >&2; exit 77; }
case $LABRAT in /*) ;; *) LABRAT=$PWD/$LABRAT ;; esac	# RUN cds
QFILL=$LABRAT_BUILD_DIR/qfill
[ -x "$QFILL" ] || { echo "queue_cli: $QFILL missing" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/lr-queue-XXXXXX")
sp=
cleanup() {
	[ -z "$sp" ] || kill "$sp" 2>/dev/null || :
	rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "queue_cli: FAIL: $*" >&2; exit 1; }
expect() {
	want=$1; shift
	set +e
	"$@" >"$dir/out" 2>"$dir/err"
	got=$?
	set -e
	[ "$got" -eq "$want" ] || { cat "$dir/out" "$dir/err" >&2
		fail "$* exited $got, want $want"; }
}
has() { grep -qF -- "$2" "$dir/$1" || { cat "$dir/$1" >&2
	fail "no \"$2\" in $1"; }; }
jqis() { got=$(jq -r "$1" "$dir/out"); [ "$got" = "$2" ] ||
	fail "$1 is \"$got\", want \"$2\""; }

db=$dir/labrat.db
host=$(hostname)
# An inventory whose key files exist (a run checks them), a plan, a test.
mkdir "$dir/cfg"
sed -e "s#/root/.ssh/labrat_ed25519#$dir/cfg/key#" \
    -e "s#/root/.ssh/labrat_known_hosts#$dir/cfg/known_hosts#" \
    "$LABRAT_SOURCE_DIR/configs/lab-freebsd.json" >"$dir/cfg/inv.json"
: >"$dir/cfg/key"
: >"$dir/cfg/known_hosts"
chmod 600 "$dir/cfg/key"
cp "$LABRAT_SOURCE_DIR/configs/plan-reports.json" "$dir/cfg/plan.json"
cp "$LABRAT_SOURCE_DIR/configs/bisect/em.json" "$dir/cfg/test.json"
cp "$LABRAT_SOURCE_DIR/configs/simlab/history.json" "$dir/cfg/history.json"
Q() { "$LABRAT" queue --db "$db" "$@"; }
# From the config directory with relative paths: the queue keeps them
# absolute.
RUN() { (cd "$dir/cfg" && "$LABRAT" run --db "$db" --inventory inv.json \
    --plan plan.json --enqueue "$@"); }
BIS() { (cd "$dir/cfg" && "$LABRAT" bisect start --db "$db" \
    --inventory inv.json --link em --good r200000 --bad r200300 \
    --test test.json --revisions history.json --enqueue "$@"); }

# ---- an empty database -------------------------------------------------
expect 0 "$LABRAT" db migrate --db "$db"
expect 0 Q
[ "$(sed -n 1p "$dir/out")" = "daemon: none (no heartbeat yet)" ] ||
	fail "first line: $(sed -n 1p "$dir/out")"
has out "queue empty"
expect 0 Q --format json
jqis '.daemon' null
jqis '.items | length' 0

# ---- no daemon: refused, config errors first ----------------------------
expect 1 RUN
has err "no daemon serves $db: last heartbeat never (labrat serve --db $db)"
expect 1 BIS
has err "no daemon serves $db: last heartbeat never (labrat serve --db $db)"
rm "$dir/cfg/key"
expect 2 RUN
has err "inv.json: hosts[0].ssh.key: $dir/cfg/key: No such file or directory"
: >"$dir/cfg/key"
expect 2 BIS --good r1
has err "--good r1 / --bad r200300"
expect 2 "$LABRAT" run --db "$db" --resume 1 --enqueue
has err "--enqueue queues a new run: not with --resume"
expect 2 BIS --replay "$dir/cfg/none.log"
has err "--replay is not queued"
expect 0 Q --format json
jqis '.items | length' 0

# ---- a live daemon -------------------------------------------------------
sleep 600 &
sp=$!
owner="$host:$sp"
expect 0 "$QFILL" "$db" daemon "$owner"
# A second daemon is refused while the first lives.
expect 1 "$QFILL" "$db" daemon "$host:$$"
has err "refused: $owner serves"
expect 0 Q
has out "daemon: $owner, last heartbeat "
expect 0 RUN --note "try TSO"
[ "$(cat "$dir/out")" = "queued as item 1 (priority 200); labrat queue --db $db shows it" ] ||
	fail "run --enqueue said: $(cat "$dir/out")"
expect 0 BIS --leave-on-culprit --format json
jqis '.item' 2
jqis '.kind' bisect
jqis '.priority' 200
jqis '.state' queued
jqis '.db' "$db"
expect 0 "$QFILL" "$db" add night 100 '{"schedule": "nightly"}' \
    "schedule nightly" 1 1764547200000
[ "$(cat "$dir/out")" = 3 ] || fail "night item: $(cat "$dir/out")"
expect 0 "$QFILL" "$db" add night 100 '{"schedule": "nightly"}' \
    "schedule nightly" 1 1764547200000
[ "$(cat "$dir/out")" = "3 dup" ] || fail "dup firing: $(cat "$dir/out")"
expect 0 "$QFILL" "$db" add health 0 '{"link": "em"}' "daemon"
# Claimed best first: the two interactive items (oldest first).
expect 0 "$QFILL" "$db" claim "$owner"
[ "$(cat "$dir/out")" = 1 ] || fail "claimed $(cat "$dir/out"), want 1"
expect 0 "$QFILL" "$db" finish 1 failed "run 9: 2 of 48 jobs failed"
expect 0 "$QFILL" "$db" claim "$owner"
[ "$(cat "$dir/out")" = 2 ] || fail "claimed $(cat "$dir/out"), want 2"

expect 0 Q
has out "daemon: $owner, last heartbeat "
sed -n 2p "$dir/out" | grep -Eq '^ *id +kind +prio +state +who +age +run +bisect +result$' ||
	fail "header: $(sed -n 2p "$dir/out")"
[ "$(sed -n '3,$p' "$dir/out" | awk '{print $1}' | tr '\n' ' ')" = "4 3 2 1 " ] ||
	fail "not newest first: $(cat "$dir/out")"
sed -n 3p "$dir/out" | grep -Eq '^ *4 +health +0 +queued +daemon +[0-9]+ s +- +- +-$' ||
	fail "row 4: $(sed -n 3p "$dir/out")"
sed -n 5p "$dir/out" | grep -Eq "^ *2 +bisect +200 +running +[^ ]+@$host pid [0-9]+ " ||
	fail "row 2: $(sed -n 5p "$dir/out")"
has out "run 9: 2 of 48 jobs failed"
expect 0 Q --limit 2
[ "$(wc -l <"$dir/out")" -eq 4 ] || fail "--limit 2: $(cat "$dir/out")"
# A page: next_after is the cursor of the next (GET /queue?after=).
expect 0 Q --limit 2 --format json
jqis '.items | map(.id) | join(",")' "4,3"
jqis '.next_after' 3
expect 0 Q --limit 4 --format json
jqis '.items | length' 4
jqis '.next_after' null

expect 0 Q --format json
jqis '.daemon.owner' "$owner"
jqis '.daemon.live' true
jqis '.daemon.stopped' false
jqis '.items | map(.id) | join(",")' "4,3,2,1"
jqis '.next_after' null
jqis '.items[3].kind' run
jqis '.items[3].state' failed
jqis '.items[3].result' "run 9: 2 of 48 jobs failed"
jqis '.items[3].attempts' 1
jqis '.items[3].owner' "$owner"
jqis '.items[3].payload.inventory' "$dir/cfg/inv.json"
jqis '.items[3].payload.plan' "$dir/cfg/plan.json"
jqis '.items[3].payload.note' "try TSO"
jqis '.items[3].finished | test("^[0-9-]+T[0-9:]+Z$")' true
jqis '.items[2].payload.test' "$dir/cfg/test.json"
jqis '.items[2].payload.revisions' "$dir/cfg/history.json"
jqis '.items[2].payload.link' em
jqis '.items[2].payload.good' r200000
jqis '.items[2].payload.leave_on_culprit' true
jqis '.items[2].state' running
jqis '.items[1].schedule' 1
jqis '.items[1].slot' "2025-12-01T00:00:00Z"
jqis '.items[1].priority' 100
jqis '.items[0].run' null

# ---- the daemon gone, then stopped ---------------------------------------
kill "$sp"
wait "$sp" 2>/dev/null || :
sp=
expect 0 Q
sed -n 1p "$dir/out" | grep -Eq '^daemon: none \(last heartbeat [0-9]+ s ago\)$' ||
	fail "gone daemon: $(sed -n 1p "$dir/out")"
expect 0 Q --format json
jqis '.daemon.live' false
expect 1 RUN
grep -Eq "no daemon serves $db: last heartbeat [0-9]+ s ago \\(labrat serve --db $db\\)" \
    "$dir/err" || fail "gone daemon: $(cat "$dir/err")"
# A daemon that unregistered: not live either.
expect 0 "$QFILL" "$db" daemon "$host:$$"
expect 0 RUN
expect 0 "$QFILL" "$db" unregister "$host:$$"
expect 1 BIS
has err "no daemon serves $db: last heartbeat 0 s ago"
expect 0 Q --format json
jqis '.daemon.stopped' true
jqis '.items | length' 5
echo "queue_cli: ok"
