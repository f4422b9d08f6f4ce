#!/bin/sh
# labrat serve, the real binary:
# - systemd notify: READY=1 (after the store is open and the daemon
#   registered) and STOPPING=1 arrive on a real AF_UNIX datagram socket;
# - a second daemon on the same database refuses to start, naming the
#   live one;
# - SIGHUP with a broken config logs its errors and keeps the old one;
#   a good one is reloaded;
# - a schedule firing every minute queues exactly one night item per
#   slot across SIGKILL + restart, and one (the latest) after a downtime
#   of several slots.  The daemon's clock is shifted with
#   LABRAT_TEST_CLOCK=+MS (test only) so that no test waits for a minute;
# - SIGTERM exits 0 within seconds; an idle daemon sleeps (CPU bound);
# - on the simulated lab: labrat run --enqueue against the live daemon
#   runs to completion; SIGTERM mid-run puts the
#   item back in the queue with its run interrupted, and the next daemon
#   resumes that run: every job done once, one sample each.
# ctest: shared-lab
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=serve$$
. "$(dirname "$0")/lib/run.sh"

DB=$TMP/db.sqlite
CONF=$TMP/daemon.json
SOCK=$TMP/notify.sock
cp "$SIMLAB_SRC/configs/daemon-simlab.json" "$CONF"
sed -i "s|\"simlab/history.json\"|\"$SIMLAB_SRC/configs/simlab/history.json\"|" "$CONF"
# The daemon health-checks the links of its config's inventories: none
# here (not a demo's simlab that may be up), so the queue holds only the
# items this test makes (serve_health.sh tests the checks).
sed -i "s|\"/run/labrat-lab/simlab/inventory.json\"|\"$TMP/no-inventory.json\"|" "$CONF"

python3 - "$SOCK" "$TMP/notify" <<'PYEOF' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(600)
with open(sys.argv[2], "a") as out:
    while True:
        try:
            d = s.recv(4096)
        except socket.timeout:
            break
        for line in d.decode().split("\n"):
            out.write(line + "\n")
        out.flush()
PYEOF
LPID=$!
i=0
while [ ! -S "$SOCK" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S "$SOCK" ] || fail "the notify listener did not bind $SOCK"

SPID=
serve_cleanup() {
	[ -n "$SPID" ] && kill -9 "$SPID" 2>/dev/null
	kill "$LPID" 2>/dev/null
	run_cleanup
}
trap serve_cleanup EXIT

# start NAME [OFFSET_MS]: a daemon in the background (SPID), logs in
# $TMP/NAME.err; waits for its "serving" line.
start() {
	LABRAT_TEST_CLOCK=+${2:-0} NOTIFY_SOCKET=$SOCK "$LABRAT" serve \
	    --db "$DB" --config "$CONF" --log-level debug 2>"$TMP/$1.err" &
	SPID=$!
	wait_log "$TMP/$1.err" "labrat serve: serving $DB as pid $SPID" 20 ||
	    fail "$1: not serving: $(cat "$TMP/$1.err")"
}
# stop NAME: SIGTERM, exit 0 within 15 s.
stop() {
	kill -TERM "$SPID"
	i=0
	while kill -0 "$SPID" 2>/dev/null && [ $i -lt 150 ]; do
		sleep 0.1; i=$((i + 1))
	done
	kill -0 "$SPID" 2>/dev/null && fail "$1: still running 15 s after SIGTERM"
	wait "$SPID"; rc=$?
	[ $rc -eq 0 ] || fail "$1: exit $rc after SIGTERM: $(tail -5 "$TMP/$1.err")"
	SPID=
}
crash() {
	kill -9 "$SPID"; wait "$SPID" 2>/dev/null; SPID=
}
nights() { sq "$DB" "SELECT count(*) FROM queue_items WHERE kind = 'night'"; }

# --- notify, second daemon, reload.
# Its hosts refuse connections at once (127.0.0.1, port 9): each night
# fails fast, whatever step it reaches.
jq '.hosts[].address = "127.0.0.1" | .hosts[].ssh.port = 9' \
    "$SIMLAB_SRC/configs/lab-freebsd.json" > "$TMP/refusing.json"
"$LABRAT" schedule add minute --cron '* * * * *' --db "$DB" \
    --inventory "$TMP/refusing.json" \
    --plan "$SIMLAB_SRC/configs/plan-demo.json" >/dev/null ||
    fail "schedule add"
now=$(now_ms)
# The daemon's clock 1 s past the next minute: one slot is due.
O1=$(( 60000 - now % 60000 + 1000 ))
S1=$(( now - now % 60000 + 60000 ))
start d1 $O1
wait_log "$TMP/notify" "^READY=1$" 10 || fail "no READY=1: $(cat "$TMP/notify")"
grep -q "^STATUS=serving $DB$" "$TMP/notify" || fail "no STATUS line"
if "$LABRAT" serve --db "$DB" 2>"$TMP/second.err"; then
	fail "a second daemon started"
fi
grep -q "is served by another daemon: pid $SPID on " "$TMP/second.err" ||
    fail "second daemon: $(cat "$TMP/second.err")"
kill -0 "$SPID" || fail "the first daemon died"

printf '{"inventories": [], "limits": {"max_jobs": 0}}\n' > "$CONF.bad"
cp "$CONF" "$CONF.good"; cp "$CONF.bad" "$CONF"
kill -HUP "$SPID"
wait_log "$TMP/d1.err" "SIGHUP: .* keeping the config loaded before" 10 ||
    fail "bad reload: $(cat "$TMP/d1.err")"
grep -q "error: $CONF: inventories: must not be empty" "$TMP/d1.err" ||
    fail "bad reload: no error with its path"
grep -q "error: $CONF: limits.max_jobs: 0 is out of range 1-64" "$TMP/d1.err" ||
    fail "bad reload: not every error"
kill -0 "$SPID" || fail "the daemon died of a bad config"
cp "$CONF.good" "$CONF"
kill -HUP "$SPID"
wait_log "$TMP/d1.err" "SIGHUP: $CONF reloaded" 10 || fail "good reload"

# --- one night item per slot across SIGKILL + restart.
wait_log "$TMP/d1.err" "schedule minute: slot $((S1 / 1000)) queued" 15 ||
    fail "no firing: $(cat "$TMP/d1.err")"
[ "$(nights)" -eq 1 ] || fail "$(nights) night items after one slot"
crash
start d2 $O1
# Idle, it sleeps: under 10 % of a CPU over 3 s (a busy loop is ~100 %).
t0=$(awk '{ print $14 + $15 }' "/proc/$SPID/stat")
sleep 3
t1=$(awk '{ print $14 + $15 }' "/proc/$SPID/stat")
[ $((t1 - t0)) -lt $(( $(getconf CLK_TCK) * 3 / 10 )) ] ||
    fail "an idle daemon used $((t1 - t0)) clock ticks in 3 s"
[ "$(nights)" -eq 1 ] || fail "a restart fired the slot again"
stop d2
grep -q "^STOPPING=1$" "$TMP/notify" || fail "no STOPPING=1"
start d3 $((O1 + 60000))
wait_log "$TMP/d3.err" "schedule minute: slot $((S1 / 1000 + 60)) queued" 15 ||
    fail "no second slot: $(cat "$TMP/d3.err")"
crash
start d4 $((O1 + 60000))
sleep 3
[ "$(nights)" -eq 2 ] || fail "$(nights) night items after two slots"
stop d4
# Down for four more slots: one firing, the latest.
start d5 $((O1 + 300000))
wait_log "$TMP/d5.err" "schedule minute: slot $((S1 / 1000 + 300)) queued" 15 ||
    fail "no catch-up firing: $(cat "$TMP/d5.err")"
sleep 2
[ "$(nights)" -eq 3 ] || fail "$(nights) night items after the downtime"
[ "$(sq "$DB" "SELECT count(DISTINCT slot) FROM queue_items")" -eq 3 ] ||
    fail "a slot queued twice"
# The worker hands a night item to night_fire, which fails here (no host
# answers, no revision source) and says so in the item's result.
wait_log "$TMP/d5.err" "item [0-9]* failed: night failed: " 30 ||
    fail "night item: $(grep item "$TMP/d5.err")"
stop d5
"$LABRAT" schedule rm minute --db "$DB" >/dev/null

# --- a run item on the simulated lab, and a stop mid-run.
lab_up
# The nights above checked em of the refusing inventory: bad, and the
# worker drives no bad link.  Out of maintenance it is unknown: usable.
"$LABRAT" hosts maintenance em on --why "the lab's em now" --db "$DB" >/dev/null &&
    "$LABRAT" hosts maintenance em off --why "the lab's em now" --db "$DB" >/dev/null ||
    fail "em out of bad"
cat > "$TMP/plan.json" <<'PEOF'
{
  "links": ["em"],
  "knobs": { "tso": [false, true] },
  "workloads": [ { "tool": "iperf3", "time": 1 } ],
  "repetitions": 2,
  "timeouts": { "connect": 3, "job": 20 },
  "retries": 0,
  "stats": { "adaptive": false }
}
PEOF
enqueue() {
	"$LABRAT" run --enqueue --db "$DB" --inventory "$INV" \
	    --plan "$TMP/plan.json" --note "$1" >/dev/null || fail "run --enqueue"
}
item_state() { sq "$DB" "SELECT state FROM queue_items WHERE kind = 'run' ORDER BY id DESC LIMIT 1"; }
wait_item() {	# STATE SECONDS
	i=0
	while [ "$(item_state)" != "$1" ] && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1; i=$((i + 1))
	done
	[ "$(item_state)" = "$1" ]
}
start d6
enqueue first
wait_item done 90 || fail "run item: $(item_state): $(tail -20 "$TMP/d6.err")"
RUN=$(sq "$DB" "SELECT run_id FROM queue_items WHERE kind = 'run'")
[ "$(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")" = done ] ||
    fail "run $RUN not done"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'done'")" -eq 4 ] ||
    fail "run $RUN: not 4 jobs done"
grep -q "item [0-9]* done: run $RUN done: 4 jobs" "$TMP/d6.err" ||
    fail "no done line"

# SIGTERM mid-run: the item goes back, the run is resumed by the next
# daemon and ends with every job done once.
enqueue second
i=0
while [ "$(sq "$DB" "SELECT count(*) FROM jobs j JOIN queue_items q ON q.run_id = j.run_id WHERE q.id = (SELECT max(id) FROM queue_items) AND j.state = 'done'")" -lt 1 ] &&
    [ $i -lt 600 ]; do
	sleep 0.1; i=$((i + 1))
done
stop d6
[ "$(item_state)" = queued ] || fail "after SIGTERM the item is $(item_state)"
RUN2=$(sq "$DB" "SELECT run_id FROM queue_items WHERE id = (SELECT max(id) FROM queue_items)")
[ -n "$RUN2" ] && [ "$RUN2" != "$RUN" ] || fail "the second item made no run"
check_links_restored
start d7
wait_item done 90 || fail "resumed item: $(item_state): $(tail -20 "$TMP/d7.err")"
grep -q "run $RUN2 resumed" "$TMP/d7.err" || fail "run $RUN2 was not resumed"
[ "$(sq "$DB" "SELECT count(*) FROM runs WHERE kind = 'queued'")" -eq 2 ] ||
    fail "a queued run was made twice"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN2 AND state = 'done'")" -eq 4 ] ||
    fail "run $RUN2: not 4 jobs done"
stop d7
check_samples "$DB" "$RUN2"
check_links_restored
echo "serve_daemon: ok"
