#!/bin/sh
# The remote CLI over a store from a real simulated-lab run (two runs of
# one small plan: em, TSO on/off, iperf3 1 s, 2 repetitions; a schedule):
# `labrat --server URL CMD` prints exactly what `labrat CMD --db DB`
# prints, byte for byte, and exits with the same status, for runs,
# report (every --format, --baseline, --no-baseline, --metric,
# --fail-on-regression), compare (--link, --width, --metric, --format),
# schedule list|show, hosts health, queue and bisect status|log, their
# errors too (no such run, schedule or bisect); errors name the URL.
# Mutations: `run --enqueue`, `schedule add|rm`, `bisect start --enqueue`
# and `bisect reset` with a read-only token are refused (exit 1, the database
# unchanged); with a writing one run --enqueue queues the item `labrat
# queue` then shows on both sides, schedule add and rm add and remove
# (409 for a duplicate and 404 for a missing one: exit 1; 400 for a bad
# cron: exit 2), bisect reset of no bisect is a 404; relative paths are
# refused before any request, `bisect resume` and `run`/`bisect start`
# without --enqueue say they do not work remotely (exit 2).
# Brings up a lab (lab_up).
# ctest: shared-lab
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=rrd$$
. "$(dirname "$0")/lib/run.sh"
. "$(dirname "$0")/lib/api.sh"
trap 'api_kill; run_cleanup' EXIT
command -v curl >/dev/null || { echo "SKIP: curl missing" >&2; exit 77; }

DB=$TMP/remote.db
lab_up
cat > "$TMP/plan.json" <<'PLAN'
{
  "links": ["em"],
  "knobs": { "tso": [true, false] },
  "workloads": [ { "tool": "iperf3", "len": "128k", "time": 1 } ],
  "repetitions": 2,
  "timeouts": { "connect": 5, "job": 30 },
  "retries": 1,
  "stats": { "adaptive": false }
}
PLAN
cp "$INV" "$TMP/inventory.json"
for i in 1 2; do
	"$LABRAT" run --db "$DB" --inventory "$TMP/inventory.json" \
	    --plan "$TMP/plan.json" --note "remote $i" >"$TMP/run.out" \
	    2>"$TMP/run.err" || fail "run $i failed: $(cat "$TMP/run.err")"
done
lab_down
"$LABRAT" schedule add nightly-em --db "$DB" --cron "0 2 * * *" \
    --tz Europe/Berlin --inventory "$TMP/inventory.json" \
    --plan "$TMP/plan.json" >/dev/null || fail "schedule add"
"$LABRAT" token add reader --read-only --db "$DB" >"$TMP/ro" 2>/dev/null ||
    fail "token add --read-only"
"$LABRAT" token add writer --db "$DB" >"$TMP/rw" 2>/dev/null ||
    fail "token add"
chmod 600 "$TMP/ro" "$TMP/rw"

api_serve srv "$DB" '{"reads": "token", "rate_per_min": 100000}'
URL=${BASE%/api/v1}

# same CMD ARGS...: local (--db) and remote (--server, read-only token)
# print the same bytes on stdout and exit alike; an age in the queue may
# tick between the two: up to 5 tries.
same() {
	n=0
	while :; do
		"$LABRAT" "$@" --db "$DB" >"$TMP/local" 2>"$TMP/lerr"
		lrc=$?
		"$LABRAT" --server "$URL" --token-file "$TMP/ro" "$@" \
		    >"$TMP/remote" 2>"$TMP/rerr"
		rrc=$?
		cmp -s "$TMP/local" "$TMP/remote" && [ "$lrc" = "$rrc" ] && break
		n=$((n + 1))
		[ $n -lt 5 ] || { diff "$TMP/local" "$TMP/remote" >&2
			fail "$*: remote (exit $rrc: $(cat "$TMP/rerr")) differs from local (exit $lrc: $(cat "$TMP/lerr"))"; }
		sleep 0.3
	done
	SAME_RC=$lrc
}
# same_rc WANT CMD ARGS...: both exit WANT (a failure: local compare may
# have printed a heading before it; the remote reply is the problem).
same_rc() {
	want=$1
	shift
	"$LABRAT" "$@" --db "$DB" >"$TMP/local" 2>"$TMP/lerr"
	lrc=$?
	"$LABRAT" --server "$URL" --token-file "$TMP/ro" "$@" \
	    >"$TMP/remote" 2>"$TMP/rerr"
	rrc=$?
	[ "$lrc" = "$want" ] && [ "$rrc" = "$want" ] ||
	    fail "$*: exit $lrc local ($(cat "$TMP/lerr")), $rrc remote ($(cat "$TMP/rerr")), want $want"
	grep -qF "labrat $1" "$TMP/rerr" && grep -qF "$URL" "$TMP/rerr" ||
	    fail "$*: the remote error names no command or URL: $(cat "$TMP/rerr")"
}
# same_ok CMD ARGS...: the same, exit 0, something printed, no complaint.
same_ok() {
	same "$@"
	[ "$SAME_RC" = 0 ] || fail "$*: exit $SAME_RC: $(cat "$TMP/lerr")"
	[ -s "$TMP/local" ] || fail "$*: printed nothing"
	[ ! -s "$TMP/rerr" ] || fail "$*: remote said: $(cat "$TMP/rerr")"
}

for f in text json; do
	same_ok runs --format "$f"
	same_ok runs --limit 1 --format "$f"
	same_ok queue --format "$f"
	same_ok hosts health --format "$f"
	same_ok schedule list --format "$f"
	same_ok schedule show nightly-em --format "$f"
done
same_ok runs --limit 1 --format json
jq -e '(.runs | length) == 1 and .next_after == 2' "$TMP/remote" \
    >/dev/null || fail "runs --limit 1: $(cat "$TMP/remote")"
same_ok runs
grep -q "remote 1" "$TMP/remote" || fail "runs: no note: $(cat "$TMP/remote")"

for f in text json csv junit; do
	same_ok report --format "$f"
	same_ok report 2 --format "$f"
	same_ok report 2 --baseline 1 --format "$f"
	same_ok report 2 --no-baseline --format "$f"
	same_ok report 1 --metric retransmits --format "$f"
done
same report 2 --fail-on-regression
echo "# report 2 --fail-on-regression exits $SAME_RC on both sides" >&2
same report 2 --format junit --fail-on-regression
same_rc 1 report 9 --format json
grep -qF "$URL/api/v1/runs/9/report?format=json: HTTP 404: no run 9" \
    "$TMP/rerr" || fail "report 9: $(cat "$TMP/rerr")"
same_rc 1 report 2 --metric nosuchmetric

same compare 1 2
grep -q "Summary: run 1 -> run 2" "$TMP/remote" ||
    fail "compare: $(cat "$TMP/remote")"
echo "# compare 1 2 exits $SAME_RC on both sides" >&2
same_ok compare 2 2 --link em --width 40
same compare 1 2 --format json
jq -e '.run == 2 and .baseline_run == 1 and .summary.series ==
    (.comparisons | length) and .summary.series > 0 and
    all(.comparisons[]; (.values_baseline | length) == .n_baseline)' \
    "$TMP/remote" >/dev/null || fail "compare --format json: $(cat "$TMP/remote")"
same_rc 2 compare 1 2 --link bce --format json
[ ! -s "$TMP/local" ] || fail "compare --format json printed with an error"
same compare 1 2 --metric retransmits
same_rc 2 compare 1 2 --link bce
grep -qF "HTTP 400: runs 1 and 2 have no" "$TMP/rerr" ||
    fail "compare --link bce: $(cat "$TMP/rerr")"
same_rc 2 compare 1 9
grep -qF "HTTP 404: no run 9" "$TMP/rerr" || fail "compare 1 9: $(cat "$TMP/rerr")"

same schedule show nope
[ "$SAME_RC" = 1 ] || fail "schedule show nope: exit $SAME_RC"
for f in text json; do
	same_rc 1 bisect status --format "$f"
	same_rc 1 bisect log --bisect 3 --format "$f"
	grep -qF "HTTP 404: no bisect 3" "$TMP/rerr" ||
	    fail "bisect log --bisect 3: $(cat "$TMP/rerr")"
done

# Commands and options that cannot work remotely, and relative paths.
r() { "$LABRAT" --server "$URL" --token-file "$TMP/rw" "$@" \
    >"$TMP/out" 2>"$TMP/err"; }
r bisect resume; [ $? = 2 ] || fail "remote bisect resume: not exit 2"
grep -q -- "--server: this command works on the local database only" "$TMP/err" ||
    fail "bisect resume: $(cat "$TMP/err")"
r bisect start --link em --good r1 --bad r2 --test /t.json
[ $? = 2 ] || fail "remote bisect start without --enqueue: not exit 2"
grep -q -- "--enqueue" "$TMP/err" || fail "bisect start: $(cat "$TMP/err")"
r run --enqueue --inventory inventory.json --plan "$TMP/plan.json"
[ $? = 2 ] || fail "relative --inventory: not exit 2"
grep -q "give an absolute path" "$TMP/err" || fail "relative: $(cat "$TMP/err")"
r run --inventory "$TMP/inventory.json" --plan "$TMP/plan.json"
[ $? = 2 ] || fail "remote run without --enqueue: not exit 2"

# run --enqueue: refused to a read-only token, nothing queued.  The lab
# is down: the queued runs are of an inventory whose key files exist (the
# daemon checks them) and are cancelled at once (it would try to run
# them).
mkdir "$TMP/cfg"
sed -e "s#/root/.ssh/labrat_ed25519#$TMP/cfg/key#" \
    -e "s#/root/.ssh/labrat_known_hosts#$TMP/cfg/known_hosts#" \
    "$LABRAT_SOURCE_DIR/configs/lab-freebsd.json" >"$TMP/cfg/inv.json"
: >"$TMP/cfg/key"
: >"$TMP/cfg/known_hosts"
chmod 600 "$TMP/cfg/key"
cp "$LABRAT_SOURCE_DIR/configs/plan-reports.json" "$TMP/cfg/plan.json"
cancel() {
	code=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE \
	    -H "Authorization: Bearer $(cat "$TMP/rw")" "$BASE/queue/$1")
	[ "$code" = 200 ] || [ "$code" = 409 ] || fail "cancel $1: $code"
}
before=$(sq "$DB" "SELECT count(*) FROM queue_items")
"$LABRAT" --server "$URL" --token-file "$TMP/ro" run --enqueue \
    --inventory "$TMP/cfg/inv.json" --plan "$TMP/cfg/plan.json" \
    >"$TMP/out" 2>"$TMP/err"
[ $? = 1 ] || fail "read-only run --enqueue: not exit 1"
grep -qF "$URL/api/v1/queue: HTTP 403" "$TMP/err" ||
    fail "read-only run --enqueue: $(cat "$TMP/err")"
[ "$(sq "$DB" "SELECT count(*) FROM queue_items")" = "$before" ] ||
    fail "a read-only token queued something"
r run --enqueue --inventory "$TMP/cfg/inv.json" --plan "$TMP/cfg/plan.json" \
    --note "from afar" || fail "run --enqueue: $(cat "$TMP/err")"
item=$(sq "$DB" "SELECT max(id) FROM queue_items")
cancel "$item"
grep -qF "queued as item $item (priority 200); labrat --server $URL queue shows it" \
    "$TMP/out" || fail "run --enqueue printed: $(cat "$TMP/out")"
[ "$(sq "$DB" "SELECT count(*) FROM queue_items")" = $((before + 1)) ] ||
    fail "run --enqueue queued not one item"
r run --enqueue --inventory "$TMP/cfg/inv.json" --plan "$TMP/cfg/plan.json" \
    --format json || fail "run --enqueue --format json: $(cat "$TMP/err")"
cancel $((item + 1))
same_ok queue --format json
jq -e --argjson i "$item" '.items[0].id == $i + 1 and .items[1].id == $i' \
    "$TMP/remote" >/dev/null || fail "queue after enqueue: $(cat "$TMP/remote")"
jq -e --argjson i $((item + 1)) '.item == $i and .kind == "run" and
    .state == "queued"' "$TMP/out" >/dev/null ||
    fail "run --enqueue --format json: $(cat "$TMP/out")"

# schedule add, disable, enable and rm, bisect start --enqueue and reset:
# a read-only token is refused (exit 1, nothing changed), a writing one
# adds, disables, enables and removes; the server's 400 (exit 2), 404 and
# 409 (exit 1) are named.
ro() { "$LABRAT" --server "$URL" --token-file "$TMP/ro" "$@" \
    >"$TMP/out" 2>"$TMP/err"; }
nsched=$(sq "$DB" "SELECT count(*) FROM schedules")
nq=$(sq "$DB" "SELECT count(*) FROM queue_items")
ro schedule add far --cron "0 4 * * *" --inventory "$TMP/cfg/inv.json" \
    --plan "$TMP/cfg/plan.json"
[ $? = 1 ] || fail "read-only schedule add: not exit 1"
grep -qF "$URL/api/v1/schedules: HTTP 403" "$TMP/err" ||
    fail "read-only schedule add: $(cat "$TMP/err")"
ro schedule rm nightly-em
[ $? = 1 ] || fail "read-only schedule rm: not exit 1"
ro schedule disable nightly-em
[ $? = 1 ] || fail "read-only schedule disable: not exit 1"
grep -qF "$URL/api/v1/schedules/nightly-em/disable: HTTP 403" "$TMP/err" ||
    fail "read-only schedule disable: $(cat "$TMP/err")"
ro bisect start --enqueue --link em --good r1 --bad r2 --test /t.json
[ $? = 1 ] || fail "read-only bisect start: not exit 1"
grep -qF "$URL/api/v1/bisects: HTTP 403" "$TMP/err" ||
    fail "read-only bisect start: $(cat "$TMP/err")"
ro bisect reset --bisect 1
[ $? = 1 ] || fail "read-only bisect reset: not exit 1"
grep -qF "HTTP 403" "$TMP/err" || fail "read-only reset: $(cat "$TMP/err")"
[ "$(sq "$DB" "SELECT count(*) FROM schedules")" = "$nsched" ] &&
    [ "$(sq "$DB" "SELECT count(*) FROM queue_items")" = "$nq" ] ||
    fail "a read-only token changed the database"
r schedule add far --cron "0 4 * * *" --tz Europe/Berlin --links em \
    --inventory "$TMP/cfg/inv.json" --plan "$TMP/cfg/plan.json" ||
    fail "schedule add: $(cat "$TMP/err")"
grep -qx "schedule far added" "$TMP/out" || fail "schedule add: $(cat "$TMP/out")"
same_ok schedule show far --format json
jq -e '.tz == "Europe/Berlin" and .links == "em"' "$TMP/remote" >/dev/null ||
    fail "schedule show far: $(cat "$TMP/remote")"
same_ok schedule list
r schedule disable far || fail "schedule disable: $(cat "$TMP/err")"
grep -qx "schedule far disabled" "$TMP/out" || fail "disable: $(cat "$TMP/out")"
[ "$(sq "$DB" "SELECT enabled FROM schedules WHERE name = 'far'")" = 0 ] ||
    fail "schedule disable: still enabled in the store"
same_ok schedule list
grep -q "^far .*(disabled)" "$TMP/remote" || fail "list: $(cat "$TMP/remote")"
r schedule enable far || fail "schedule enable: $(cat "$TMP/err")"
grep -qx "schedule far enabled" "$TMP/out" || fail "enable: $(cat "$TMP/out")"
r schedule enable nosuch
[ $? = 1 ] || fail "schedule enable of no schedule: not exit 1"
grep -qF "$URL/api/v1/schedules/nosuch/enable: HTTP 404" "$TMP/err" ||
    fail "enable nosuch: $(cat "$TMP/err")"
r schedule add far --cron "0 4 * * *" --inventory "$TMP/cfg/inv.json" \
    --plan "$TMP/cfg/plan.json"
[ $? = 1 ] || fail "schedule add of an existing name: not exit 1"
grep -qF "HTTP 409" "$TMP/err" || fail "duplicate: $(cat "$TMP/err")"
r schedule add bad --cron "61 * * * *" --inventory "$TMP/cfg/inv.json" \
    --plan "$TMP/cfg/plan.json"
[ $? = 2 ] || fail "schedule add of a bad cron: not exit 2"
grep -qF "HTTP 400: body.cron" "$TMP/err" || fail "bad cron: $(cat "$TMP/err")"
r schedule add rel --cron "0 4 * * *" --inventory inv.json \
    --plan "$TMP/cfg/plan.json"
[ $? = 2 ] || fail "schedule add of a relative path: not exit 2"
r schedule rm far || fail "schedule rm: $(cat "$TMP/err")"
grep -qx "schedule far removed" "$TMP/out" || fail "rm: $(cat "$TMP/out")"
r schedule rm far
[ $? = 1 ] || fail "schedule rm of a removed one: not exit 1"
grep -qF "HTTP 404" "$TMP/err" || fail "rm twice: $(cat "$TMP/err")"
[ "$(sq "$DB" "SELECT count(*) FROM schedules")" = "$nsched" ] ||
    fail "schedules after add and rm"
r bisect reset --bisect 7
[ $? = 1 ] || fail "bisect reset of no bisect: not exit 1"
grep -qF "$URL/api/v1/bisects/7/reset: HTTP 404" "$TMP/err" ||
    fail "bisect reset 7: $(cat "$TMP/err")"
api_stop
echo "remote_reads: ok"
