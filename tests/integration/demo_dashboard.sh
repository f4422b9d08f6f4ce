#!/bin/sh
# `labrat demo --nightly --keep`, the smallest demo (about 5 minutes; the
# plain demo takes 7), ends with the dashboard's URL printed and leaves the
# daemon serving it on 127.0.0.1: /ui/ is the page, the API under /api/v1
# answers without a token and holds the demo's runs, nights, the em
# regression and its bisect to r200140; tests/browser/demo.mjs loads the
# page in headless Chromium and finds them there.  Then the test stops what
# the demo left running (the pids it printed) and takes its lab down (the
# demo's lab_up: this test is labelled lab, it needs root).
#
# The demo's nights fire from a real every-minute schedule; a night takes
# ~25 s.  LABRAT_TEST_CLOCK=skip (test only): whenever the demo's daemon
# has nothing queued or running, its clock moves on to the next minute:
# the same nights, fired by the daemon's own scheduler at their slots,
# back to back, without waiting for the wall clock's minutes.  The daemon
# logs each move (printed here).
set -u
: "${LABRAT:?LABRAT must point at the labrat binary}"
: "${LABRAT_SMTPSINK:?LABRAT_SMTPSINK must point at build/smtpsink}"
SRC=${LABRAT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
LAB=dd$$
TMP=$(mktemp -d /tmp/labrat-demodash.XXXXXX) || exit 1
PIDS= DIR=

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
cleanup() {
	for p in $PIDS; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in $PIDS; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ "$i" -lt 600 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -KILL "$p" 2>/dev/null
	done
	"$LABRAT" lab down --name "$LAB" >/dev/null 2>&1
	case $DIR in /tmp/labrat-nightly.*) rm -rf "$DIR" ;; esac
	rm -rf "$TMP"
}
trap cleanup EXIT
[ "$(id -u)" = 0 ] || fail "needs root (the demo's lab is network namespaces)"

LABRAT_TEST_CLOCK=skip "$LABRAT" demo --nightly --keep --name "$LAB" \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
# What it left running, as it printed it: "stop them with kill A B C".
PIDS=$(sed -n 's/.*stop them with kill \([0-9]*\) \([0-9]*\) \([0-9]*\) .*/\1 \2 \3/p' "$TMP/out")
DIR=$(sed -n 's/.*; the files: \(\/tmp\/labrat-nightly\.[A-Za-z0-9]*\) .*/\1/p' "$TMP/out")
[ "$rc" = 0 ] || fail "labrat demo --nightly --keep exited $rc: $(tail -n 30 "$TMP/err"; tail -n 30 "$TMP/out")"
[ -n "$PIDS" ] || fail "the demo did not say what it left running: $(tail -n 12 "$TMP/out")"
[ -n "$DIR" ] || fail "the demo did not name its files: $(tail -n 12 "$TMP/out")"
last=$(tail -n 1 "$TMP/out")
URL=$(printf '%s\n' "$last" | sed -n 's|^dashboard: \(http://127\.0\.0\.1:[0-9]*/ui/\) .*|\1|p')
[ -n "$URL" ] || fail "the demo's last line is not the dashboard's URL: $last"
grep -q "^dashboard: $URL (live" "$TMP/out" ||
	fail "the dashboard's URL was not printed as the daemon started"
ORIGIN=${URL%/ui/}
# The kept daemon would go on with its nights back to back (the test
# clock): the demo's schedule is disabled and the night it may have begun
# runs to its end, so that the API and the page are read from a daemon
# that serves them on a quiet machine.
"$LABRAT" schedule disable nightly-demo --db "$DIR/labrat.db" >"$TMP/dis" 2>&1 ||
	fail "schedule disable nightly-demo: $(cat "$TMP/dis")"
i=0
while :; do
	"$LABRAT" queue --db "$DIR/labrat.db" --format json >"$TMP/queue.json" 2>"$TMP/qerr" ||
		fail "labrat queue: $(cat "$TMP/qerr")"
	[ "$(jq '[.items[] | select(.state == "queued" or .state == "running")] | length' "$TMP/queue.json")" = 0 ] && break
	i=$((i + 1))
	[ "$i" -lt 300 ] || fail "the daemon still works 5 min after its schedule was disabled: $(cat "$TMP/queue.json")"
	sleep 1
done
# How often the test clock moved the daemon on: after its first health
# checks and after nights 1 and 2 (never when a night takes more than its
# minute, as nothing waits then).
nskip=$(grep -c "labrat serve: test clock: idle: moved on" "$TMP/out")

# The page and the API, no token.
code=$(curl -s -o "$TMP/ui.html" -w '%{http_code}' "$URL") || fail "GET $URL: curl failed"
[ "$code" = 200 ] || fail "GET $URL: HTTP $code"
grep -q 'src="app.js"' "$TMP/ui.html" || fail "GET $URL is not the dashboard: $(head -c 300 "$TMP/ui.html")"
api() {
	code=$(curl -s -o "$TMP/api.json" -w '%{http_code}' "$ORIGIN/api/v1/$1") ||
		fail "GET /api/v1/$1: curl failed"
	[ "$code" = 200 ] || fail "GET /api/v1/$1: HTTP $code: $(cat "$TMP/api.json")"
	cat "$TMP/api.json"
}
api runs >"$TMP/runs.json"
api nights >"$TMP/nights.json"
api bisects >"$TMP/bisects.json"
nruns=$(jq '.runs | length' "$TMP/runs.json")
# (A night that ran nothing, its links all failing their health checks,
# has run 0.)
nnights=$(jq '[.nights[] | select(.run != null and .run > 0)] | length' "$TMP/nights.json")
[ "$nnights" -ge 3 ] || fail "$nnights nights with a run, want >= 3: $(cat "$TMP/nights.json")"
[ "$nruns" -ge "$nnights" ] || fail "$nruns runs for $nnights nights"
# Every night's run is a run of GET /runs.
for r in $(jq '.nights[] | select(.run != null and .run > 0) | .run' "$TMP/nights.json"); do
	jq -e --argjson r "$r" '.runs | any(.id == $r)' "$TMP/runs.json" >/dev/null ||
		fail "night run $r is not in GET /runs"
done
# (A night without a run has verdicts null.)
jq -e '[.nights[] | (.verdicts // [])[] | select(.verdict == "regression" and
    .link == "em" and (.knobs | test("tso=on")))] | length > 0' "$TMP/nights.json" >/dev/null ||
	fail "no night found the em regression: $(jq -c '[.nights[] | .verdicts]' "$TMP/nights.json")"
bid=$(jq '[.bisects[] | select(.link == "em" and .culprit == "r200140")][0].id' "$TMP/bisects.json")
[ "$bid" != null ] || fail "no em bisect to r200140: $(cat "$TMP/bisects.json")"
api "bisects/$bid" | jq -e '.culprit.id == "r200140" and (.evidence | length) > 0' >/dev/null ||
	fail "GET /bisects/$bid: $(cat "$TMP/api.json")"

# The page shows them.
node "$SRC/tests/browser/demo.mjs" "$ORIGIN" ||
	fail "the dashboard does not show the demo's results"

# Stop what it left running: the daemon stops on SIGTERM with exit 0.
set -- $PIDS
kill -TERM "$1" || fail "kill $1 (the daemon)"
i=0
while kill -0 "$1" 2>/dev/null && [ "$i" -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -0 "$1" 2>/dev/null && fail "the daemon (pid $1) did not stop within 60 s of SIGTERM"
curl -s -o /dev/null "$URL" && fail "$URL still answers after the daemon stopped"
"$LABRAT" lab down --name "$LAB" >"$TMP/down" 2>&1 || fail "lab down: $(cat "$TMP/down")"
grep "labrat serve: test clock: idle: moved on" "$TMP/out" | sed 's/^ */# /'
echo "demo_dashboard: ok ($nnights nights, $nruns runs, bisect $bid, $nskip test-clock moves; $URL)"
