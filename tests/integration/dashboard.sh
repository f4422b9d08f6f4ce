#!/bin/sh
# The dashboard (web/) in headless Chromium against a live `labrat serve`
# on 127.0.0.1 over the nightly store of night_serve.sh (the nightly_store
# ctest fixture, build/fixtures/nightly.db: 4 nights, the em regression,
# its finished bisect): tests/browser/dashboard.mjs loads every view with
# no console error and no failed request, every non-loopback request
# blocked, clicks overview -> regression -> trend -> bisect -> run -> job
# asserting the numbers against the API's JSON and the culprit marker of
# the trend, and saves screenshots at 1280x800 and 390x844 in
# build/screenshots/ (no horizontal overflow at either size).
# Needs Debian's chromium and web/node_modules (scripts/install-deps.sh):
# without them it fails, naming what to install (it never skips).
set -u
: "${LABRAT:?LABRAT must point at the labrat binary}"
SRC=${LABRAT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${LABRAT_BUILD_DIR:-$SRC/build}
FIX=${LABRAT_NIGHTLY_FIXTURE:-$BUILD/fixtures/nightly.db}
SHOTS=$BUILD/screenshots
TMP=$(mktemp -d /tmp/labrat-dash.XXXXXX) || exit 1
SPID= UPID=

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
cleanup() {
	[ -n "$UPID" ] && kill "$UPID" 2>/dev/null
	if [ -n "$SPID" ]; then
		kill -TERM "$SPID" 2>/dev/null
		wait "$SPID" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_log() {
	_i=0
	while [ "$_i" -lt $(($3 * 10)) ]; do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

command -v node >/dev/null 2>&1 ||
	fail "node is missing: install Debian's nodejs (scripts/install-deps.sh)"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] ||
	fail "${CHROMIUM:-/usr/bin/chromium} is missing: install Debian's chromium (scripts/install-deps.sh)"
[ -d "$SRC/web/node_modules/playwright-core" ] && [ -d "$SRC/web/node_modules/uplot" ] ||
	fail "web/node_modules is missing: run scripts/install-deps.sh (npm ci --prefix web)"
[ -f "$FIX" ] ||
	fail "$FIX is missing: it is integ_night_serve's fixture (ctest -R 'integ_(night_serve|dashboard)')"

# A copy: the daemon may write (heartbeat, queue) and the fixture is shared.
cp "$FIX" "$TMP/store.db" || fail "copy $FIX"
[ -d "$FIX.nights" ] && cp -r "$FIX.nights" "$TMP/store.db.nights"
PORT=$(free_port)
# The inventory does not exist: the daemon runs no health checks and no
# schedule fires (the store's schedule is at 03:00 of a day long past).
jq -n --arg inv "$TMP/no-inventory.json" --arg listen "http://127.0.0.1:$PORT" \
    '{inventories: [$inv], http: {listen: $listen, reads: "open"}}' \
    >"$TMP/daemon.json" || fail "daemon config"
"$LABRAT" serve --db "$TMP/store.db" --config "$TMP/daemon.json" \
    >"$TMP/serve.out" 2>"$TMP/serve.err" &
SPID=$!
wait_log "$TMP/serve.err" "http: listening on http://127.0.0.1:$PORT" 20 ||
	fail "labrat serve did not start http: $(cat "$TMP/serve.err")"
ORIGIN=http://127.0.0.1:$PORT

# Until the daemon serves /ui/ itself (IFACE-14b, branch session), the
# page comes from tests/browser/uiserve.mjs: web/ with the daemon's CSP,
# /api/ passed on to the daemon.
code=$(curl -s -o /dev/null -w '%{http_code}' "$ORIGIN/ui/")
if [ "$code" != 200 ]; then
	UPORT=$(free_port)
	node "$SRC/tests/browser/uiserve.mjs" "$SRC/web" "$UPORT" "$PORT" \
	    >"$TMP/ui.out" 2>&1 &
	UPID=$!
	wait_log "$TMP/ui.out" "listening" 10 || fail "uiserve: $(cat "$TMP/ui.out")"
	echo "# the daemon answers $code for /ui/: web/ served by tests/browser/uiserve.mjs"
	ORIGIN=http://127.0.0.1:$UPORT
fi

rm -rf "$SHOTS"
node "$SRC/tests/browser/dashboard.mjs" "$ORIGIN" "$SHOTS" ||
	fail "the browser test failed (serve's log: $(tail -n 5 "$TMP/serve.err"))"
n=$(ls "$SHOTS"/*.png 2>/dev/null | wc -l)
[ "$n" -ge 16 ] || fail "$n screenshots in $SHOTS, want 16 (8 views x 2 sizes)"

kill -TERM "$SPID"
wait "$SPID"
rc=$?
SPID=
[ "$rc" = 0 ] || fail "labrat serve exited $rc: $(tail -n 20 "$TMP/serve.err")"
echo "dashboard: ok ($n screenshots in $SHOTS)"
