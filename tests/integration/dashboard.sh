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
SPID=

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
cleanup() {
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

# The page is labrat's own: web/ embedded in the binary (http_static.c).
hdr() {
	curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "$@" | tr -d '\r'
}
hdr "$ORIGIN/ui/" >"$TMP/ui.h"
head -n 1 "$TMP/ui.h" | grep -q ' 200' || fail "GET /ui/: $(head -n 1 "$TMP/ui.h")"
grep -qi "^content-security-policy: default-src 'self'" "$TMP/ui.h" ||
	fail "GET /ui/: no CSP default-src 'self': $(cat "$TMP/ui.h")"
grep -qi '^x-content-type-options: nosniff' "$TMP/ui.h" || fail "GET /ui/: no nosniff"
hdr "$ORIGIN/ui/vendor/uPlot.iife.min.js" >"$TMP/up.h"
grep -qi '^content-encoding: gzip' "$TMP/up.h" || fail "uPlot is not served gzip: $(cat "$TMP/up.h")"
etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]: *//p' "$TMP/up.h")
[ -n "$etag" ] || fail "uPlot: no ETag"
hdr -H "If-None-Match: $etag" "$ORIGIN/ui/vendor/uPlot.iife.min.js" | head -n 1 | grep -q ' 304' ||
	fail "uPlot: If-None-Match $etag is not 304"

rm -rf "$SHOTS"
node "$SRC/tests/browser/dashboard.mjs" "$ORIGIN" "$SHOTS" ||
	fail "the browser test failed (serve's log: $(tail -n 5 "$TMP/serve.err"))"
n=$(ls "$SHOTS"/*.png 2>/dev/null | wc -l)
[ "$n" -ge 16 ] || fail "$n screenshots in $SHOTS, want 16 (8 views x 2 sizes)"

# A daemon whose reads need a token: the page asks for one once and uses
# the session cookie; a read-only token's mutation is refused and the page
# says so, a token that may write toggles maintenance.
kill -TERM "$SPID"
wait "$SPID" || fail "labrat serve exited $?: $(tail -n 20 "$TMP/serve.err")"
SPID=
RO=$("$LABRAT" token add dash-ro --read-only --db "$TMP/store.db" 2>/dev/null) || fail "token add --read-only"
RW=$("$LABRAT" token add dash-rw --db "$TMP/store.db" 2>/dev/null) || fail "token add"
PORT=$(free_port)
jq -n --arg inv "$TMP/no-inventory.json" --arg listen "http://127.0.0.1:$PORT" \
    '{inventories: [$inv], http: {listen: $listen, reads: "token"}}' \
    >"$TMP/daemon2.json" || fail "daemon config 2"
"$LABRAT" serve --db "$TMP/store.db" --config "$TMP/daemon2.json" \
    >"$TMP/serve2.out" 2>"$TMP/serve2.err" &
SPID=$!
wait_log "$TMP/serve2.err" "http: listening on http://127.0.0.1:$PORT" 20 ||
	fail "labrat serve (reads token) did not start: $(cat "$TMP/serve2.err")"
DASH_RO=$RO DASH_RW=$RW node "$SRC/tests/browser/dashboard.mjs" \
    "http://127.0.0.1:$PORT" "$SHOTS" --session ||
	fail "the browser test with a token failed (serve's log: $(tail -n 5 "$TMP/serve2.err"))"

kill -TERM "$SPID"
wait "$SPID"
rc=$?
SPID=
[ "$rc" = 0 ] || fail "labrat serve exited $rc: $(tail -n 20 "$TMP/serve.err")"
echo "dashboard: ok ($n screenshots in $SHOTS)"
