#!/bin/sh
# The remote CLI over a store from a real simulated-lab run (two runs of
# one small plan: em, TSO on/off, iperf3 1 s, 2 repetitions; a schedule):
# `labrat --server URL CMD` prints exactly what `labrat CMD --db DB`
# prints, byte for byte, and exits with the same status, for runs,
# report (every --format, --baseline, --no-baseline, --metric,
# --fail-on-regression), compare (--link, --width, --metric), schedule
# list|show, hosts health, queue and bisect status|log, their errors too
# (no such run, schedule or bisect); errors name the URL.  Mutations:
# `run --enqueue` with a read-only token is refused (exit 1, the queue
# unchanged), with a writing one it queues the item `labrat queue` then
# shows on both sides; relative paths are refused before any request,
# `bisect resume` and `bisect start` without --enqueue say they do not
# work remotely (exit 2).
# Brings up a lab (lab_up).
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

# run --enqueue: refused to a read-only token, nothing queued.
before=$(sq "$DB" "SELECT count(*) FROM queue")
"$LABRAT" --server "$URL" --token-file "$TMP/ro" run --enqueue \
    --inventory "$TMP/inventory.json" --plan "$TMP/plan.json" \
    >"$TMP/out" 2>"$TMP/err"
[ $? = 1 ] || fail "read-only run --enqueue: not exit 1"
grep -qF "$URL/api/v1/queue: HTTP 403" "$TMP/err" ||
    fail "read-only run --enqueue: $(cat "$TMP/err")"
[ "$(sq "$DB" "SELECT count(*) FROM queue")" = "$before" ] ||
    fail "a read-only token queued something"
r run --enqueue --inventory "$TMP/inventory.json" --plan "$TMP/plan.json" \
    --note "from afar" || fail "run --enqueue: $(cat "$TMP/err")"
item=$(sq "$DB" "SELECT max(id) FROM queue")
grep -qF "queued as item $item (priority 200); labrat --server $URL queue shows it" \
    "$TMP/out" || fail "run --enqueue printed: $(cat "$TMP/out")"
[ "$(sq "$DB" "SELECT count(*) FROM queue")" = $((before + 1)) ] ||
    fail "run --enqueue queued not one item"
r run --enqueue --inventory "$TMP/inventory.json" --plan "$TMP/plan.json" \
    --format json || fail "run --enqueue --format json: $(cat "$TMP/err")"
jq -e --argjson i $((item + 1)) '.item == $i and .kind == "run" and
    .state == "queued"' "$TMP/out" >/dev/null ||
    fail "run --enqueue --format json: $(cat "$TMP/out")"
api_stop
echo "remote_reads: ok"
