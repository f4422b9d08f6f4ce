#!/bin/sh
# The dashboard's side of `labrat serve` without a lab (a store made by
# `labrat db migrate`, tokens from `labrat token add`), on 127.0.0.1:
# - sessions: POST /api/v1/session trades a bearer token for a cookie
#   (Set-Cookie: labrat_session=43 base64url; Path=/; HttpOnly;
#   SameSite=Strict; Secure only under https://); with reads token-only the
#   cookie alone reads; a mutation with the cookie and no or a wrong
#   X-CSRF-Token is 403 and changes nothing, with it it goes through (and a
#   read-only token's session stays read-only); GET /api/v1/session gives
#   the CSRF secret back; revoking the token ends its sessions; DELETE logs
#   out (the cookie cleared, the session gone); under https:// the cookie
#   is also Secure;
# - static files: every file of web/ the build embeds (web/** but
#   README.md, package*.json, node_modules) is served byte for byte under
#   /ui/ (gunzipped when it comes gzip-encoded, and plain when the client
#   does not take gzip), with its Content-Type, an ETag that answers 304,
#   Cache-Control and the CSP; / and /ui redirect to /ui/;
# - http.static_dir: the same from a directory, and traversal refused
#   without leaking a byte: ../ (raw), %2e%2e, %2E%2e%2f, //, %00, a
#   symlink out of the directory, a symlink inside it, a directory, a FIFO,
#   a hidden file;
# - drain: SIGTERM with a request in flight (its headers sent, not yet its
#   body): a new request meanwhile gets 503 with Retry-After, so does the
#   one in flight once its body comes, and serve exits 0 at once (a 431
#   before does not hold the drain up).
set -u
: "${LABRAT:?LABRAT must point at the labrat binary}"
top=${LABRAT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
for t in curl jq python3 sqlite3 gzip; do
	command -v $t >/dev/null || { echo "SKIP: $t missing" >&2; exit 77; }
done
TMP=$(mktemp -d /tmp/labrat-static.XXXXXX) || exit 1
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
now_ms() {
	echo $(( $(date +%s%N) / 1000000 ))
}
sq() {
	sqlite3 -batch -noheader -cmd '.timeout 5000' "$1" "$2"
}
wait_log() {
	_end=$(( $(now_ms) + $3 * 1000 ))
	while [ "$(now_ms)" -lt $_end ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
. "$top/tests/integration/lib/api.sh"
cleanup() {
	api_kill
	[ -n "${PYPID:-}" ] && kill "$PYPID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

DB=$TMP/api.db
"$LABRAT" db migrate --db "$DB" >/dev/null 2>&1 || fail "db migrate"
RW=$("$LABRAT" token add writer --db "$DB" 2>/dev/null) || fail "token add"
RO=$("$LABRAT" token add reader --read-only --db "$DB" 2>/dev/null) ||
	fail "token add --read-only"
api_serve srv "$DB" '{"reads": "token"}'
ROOT=http://127.0.0.1:$PORT
# hdr NAME: the header's value in $TMP/hdr (the last reply's), CR cut
hdr() {
	tr -d '\r' <"$TMP/hdr" | awk -v n="$1" 'BEGIN { n = tolower(n) }
	    { i = index($0, ":"); if (tolower(substr($0, 1, i - 1)) == n) {
	      v = substr($0, i + 1); sub(/^ +/, "", v); print v } }' | tail -n 1
}
H="-D $TMP/hdr"
queued() { sq "$DB" "SELECT count(*) FROM daemon_queue" 2>/dev/null || echo 0; }

# ---- sessions ------------------------------------------------------------
want 401 $H -X POST "$BASE/session"
want 401 $H -X POST -H "Authorization: Bearer lrt_1_nope" "$BASE/session"
want 200 $H -X POST -H "Authorization: Bearer $RW" "$BASE/session"
CS=$(jq -r .csrf "$TMP/body")
[ "$(jq -r '.read_only, .token' "$TMP/body" | tr '\n' ' ')" = "false writer " ] ||
	fail "session reply: $(cat "$TMP/body")"
echo "$CS" | grep -Eqx '[A-Za-z0-9_-]{43}' || fail "csrf '$CS'"
jq -r .expires "$TMP/body" | grep -Eqx '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z' ||
	fail "expires: $(cat "$TMP/body")"
SC=$(hdr Set-Cookie)
echo "$SC" | grep -Eqx 'labrat_session=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200' ||
	fail "Set-Cookie '$SC'"
CK=$(echo "$SC" | sed 's/;.*//')
[ "${CK#labrat_session=}" != "$CS" ] || fail "the cookie is the csrf secret"
C="Cookie: $CK"
want 401 "$BASE/runs"
want 200 -H "$C" "$BASE/runs"
want 200 -H "$C" "$BASE/status"
[ "$(jq -c .auth "$TMP/body")" = '{"reads_open":false,"session":true}' ] ||
	fail "status auth: $(cat "$TMP/body")"
want 200 -H "$C" "$BASE/session"
[ "$(jq -r .csrf "$TMP/body")" = "$CS" ] || fail "GET session: $(cat "$TMP/body")"
want 401 -H "Cookie: labrat_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" "$BASE/runs"
# mutations with the cookie: the CSRF secret or 403, nothing queued
ENQ='{"plan": "/nonexistent/plan.json", "inventory": "/nonexistent/inv.json"}'
n0=$(queued)
want 403 -H "$C" -X POST -d "$ENQ" "$BASE/queue"
grep -q "csrf token missing or wrong" "$TMP/body" || fail "no csrf: $(cat "$TMP/body")"
want 403 -H "$C" -H "X-CSRF-Token: ${CS%?}x" -X POST -d "$ENQ" "$BASE/queue"
want 403 -H "$C" -H "X-CSRF-Token: " -X POST -d "$ENQ" "$BASE/queue"
want 403 -H "$C" -H "X-CSRF-Token: ${CK#labrat_session=}" -X POST -d "$ENQ" "$BASE/queue"
[ "$(queued)" = "$n0" ] || fail "a refused mutation queued something"
want 404 -H "$C" -H "X-CSRF-Token: $CS" -X DELETE "$BASE/queue/999"
grep -q csrf "$TMP/body" && fail "the right csrf refused: $(cat "$TMP/body")"
want 403 -H "$C" -X DELETE "$BASE/queue/999"
# a read-only token's session: reads, no mutation even with the csrf
want 200 $H -X POST -H "Authorization: Bearer $RO" "$BASE/session"
CSR=$(jq -r .csrf "$TMP/body")
CR="Cookie: $(hdr Set-Cookie | sed 's/;.*//')"
[ "$(jq -r .read_only "$TMP/body")" = true ] || fail "RO session: $(cat "$TMP/body")"
want 200 -H "$CR" "$BASE/queue"
want 403 -H "$CR" -H "X-CSRF-Token: $CSR" -X DELETE "$BASE/queue/999"
grep -q "read-only" "$TMP/body" || fail "RO mutation: $(cat "$TMP/body")"
# a bearer token needs no csrf; a session is not made from a session
want 404 -H "Authorization: Bearer $RW" -X DELETE "$BASE/queue/999"
want 401 -H "$C" -H "X-CSRF-Token: $CS" -X POST "$BASE/session"
# revocation ends the token's sessions (the reader's live on)
"$LABRAT" token revoke writer --db "$DB" >/dev/null 2>&1 || fail "revoke"
want 401 -H "$C" "$BASE/runs"
want 401 -H "$C" "$BASE/session"
want 200 -H "$CR" "$BASE/runs"
# logout: csrf needed, then the cookie is cleared and the session gone
want 403 -H "$CR" -X DELETE "$BASE/session"
want 200 $H -H "$CR" -H "X-CSRF-Token: $CSR" -X DELETE "$BASE/session"
[ "$(jq -r .removed "$TMP/body")" = true ] || fail "logout: $(cat "$TMP/body")"
hdr Set-Cookie | grep -Eqx 'labrat_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0' ||
	fail "logout Set-Cookie '$(hdr Set-Cookie)'"
want 401 -H "$CR" "$BASE/runs"

# ---- the embedded files --------------------------------------------------
want 302 $H "$ROOT/"
[ "$(hdr Location)" = /ui/ ] || fail "/ -> '$(hdr Location)'"
want 302 $H "$ROOT/ui"
[ "$(hdr Location)" = /ui/ ] || fail "/ui -> '$(hdr Location)'"
CSP="default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
# check_file URL FILE: FILE's bytes at URL, plain and (when offered) gzip
check_file() {
	want 200 $H "$1"
	cmp -s "$TMP/body" "$2" || fail "$1 differs from $2"
	[ -z "$(hdr Content-Encoding)" ] || fail "$1: gzip without asking"
	[ "$(hdr Content-Security-Policy)" = "$CSP" ] || fail "$1: CSP '$(hdr Content-Security-Policy)'"
	[ "$(hdr X-Content-Type-Options)" = nosniff ] || fail "$1: no nosniff"
	case $2 in
	*.html) ct="text/html; charset=utf-8" ;;
	*.js) ct="text/javascript; charset=utf-8" ;;
	*.css) ct="text/css; charset=utf-8" ;;
	*.svg) ct="image/svg+xml" ;;
	*.png) ct="image/png" ;;
	*) ct=$(hdr Content-Type) ;;
	esac
	[ "$(hdr Content-Type)" = "$ct" ] || fail "$1: Content-Type '$(hdr Content-Type)'"
	case $1 in
	*/vendor/*) hdr Cache-Control | grep -q "max-age=" || fail "$1: Cache-Control '$(hdr Cache-Control)'" ;;
	*) [ "$(hdr Cache-Control)" = no-cache ] || fail "$1: Cache-Control '$(hdr Cache-Control)'" ;;
	esac
	et=$(hdr ETag)
	echo "$et" | grep -Eqx '"[0-9a-f]{32}"' || fail "$1: ETag '$et'"
	rm -f "$TMP/body"	# curl writes no file for an empty body
	want 304 $H -H "If-None-Match: $et" "$1"
	[ ! -s "$TMP/body" ] || fail "$1: a 304 with a body"
	[ "$(hdr ETag)" = "$et" ] || fail "$1: 304 ETag '$(hdr ETag)'"
	want 200 -H 'If-None-Match: "0000"' "$1"
	want 200 $H -H "Accept-Encoding: gzip" "$1"
	if [ "$(hdr Content-Encoding)" = gzip ]; then
		gzip -dc <"$TMP/body" >"$TMP/gunzip" || fail "$1: not gzip"
		cmp -s "$TMP/gunzip" "$2" || fail "$1: gunzipped differs from $2"
		[ "$(hdr Vary)" = Accept-Encoding ] || fail "$1: Vary '$(hdr Vary)'"
		gz=$(hdr ETag)
		[ "$gz" != "$et" ] || fail "$1: the gzip encoding has the plain ETag"
		want 304 -H "Accept-Encoding: gzip" -H "If-None-Match: $gz" "$1"
		want 200 $H -H "Accept-Encoding: gzip;q=0, br" "$1"
		[ -z "$(hdr Content-Encoding)" ] || fail "$1: gzip with q=0"
		NGZ=$((NGZ + 1))
	else
		cmp -s "$TMP/body" "$2" || fail "$1 (Accept-Encoding gzip) differs"
	fi
}
NEMB=0 NGZ=0
find "$top/web" -name node_modules -prune -o -type f -print | sort >"$TMP/web.list"
while read -r f; do
	rel=${f#"$top/web/"}
	case $rel in
	README.md|package*.json) continue ;;
	esac
	check_file "$ROOT/ui/$rel" "$f"
	NEMB=$((NEMB + 1))
	[ "$rel" = index.html ] && check_file "$ROOT/ui/" "$f"
done <"$TMP/web.list"
for v in uPlot.iife.min.js uPlot.min.css; do
	f=$top/web/node_modules/uplot/dist/$v
	if [ -f "$f" ]; then
		check_file "$ROOT/ui/vendor/$v" "$f"
		NEMB=$((NEMB + 1))
	else
		want 404 "$ROOT/ui/vendor/$v"
	fi
done
for p in README.md package.json package-lock.json node_modules/uplot/package.json nosuch.js; do
	want 404 $H "$ROOT/ui/$p"
	[ "$(hdr Content-Security-Policy)" = "$CSP" ] || fail "/ui/$p 404 without the CSP"
done
want 405 -X POST "$ROOT/ui/index.html"
api_stop

# ---- http.static_dir, and traversal --------------------------------------
S=$TMP/site
mkdir -p "$S/js" "$S/node_modules/uplot/dist" "$TMP/outside"
printf '<!doctype html><title>t</title>\n' >"$S/index.html"
head -c 20000 /dev/urandom | od -An -tx1 >"$S/js/app.js"
printf '.u{}\n' >"$S/node_modules/uplot/dist/uPlot.min.css"
echo "SECRET-OUTSIDE-$$" >"$TMP/outside/secret.txt"
echo "SECRET-HIDDEN-$$" >"$S/.hidden"
ln -s "$TMP/outside/secret.txt" "$S/out.txt"
ln -s "$TMP/outside" "$S/outdir"
ln -s index.html "$S/in.html"
mkfifo "$S/fifo"
api_serve dir "$DB" "$(jq -n --arg d "$S" '{reads: "open", static_dir: $d}')"
ROOT=http://127.0.0.1:$PORT
grep -q "/ui/ from $S" "$TMP/dir.err" || fail "static_dir not in the log"
check_file "$ROOT/ui/" "$S/index.html"
check_file "$ROOT/ui/js/app.js" "$S/js/app.js"
check_file "$ROOT/ui/vendor/uPlot.min.css" "$S/node_modules/uplot/dist/uPlot.min.css"
NT=0
for p in ../outside/secret.txt js/../../outside/secret.txt %2e%2e/outside/secret.txt \
    %2E%2e%2foutside%2fsecret.txt js/%2e%2e/%2e%2e/outside/secret.txt \
    .%2e/outside/secret.txt /outside/secret.txt js//app.js index.html%00 \
    index.html%00.css out.txt outdir/secret.txt in.html js fifo .hidden \
    %2ehidden outdir node_modules/../../outside/secret.txt; do
	req "$TMP/body" --path-as-is -D "$TMP/hdr" "$ROOT/ui/$p"
	case $CODE in
	400|404) ;;
	*) fail "/ui/$p -> $CODE, want 400 or 404" ;;
	esac
	grep -q "SECRET" "$TMP/body" "$TMP/hdr" && fail "/ui/$p leaked: $(cat "$TMP/body")"
	[ "$(jq -r .status "$TMP/body")" = "$CODE" ] || fail "/ui/$p: body $(cat "$TMP/body")"
	NT=$((NT + 1))
done
req "$TMP/body" --path-as-is "$ROOT/../../etc/passwd"
[ "$CODE" = 400 ] || fail "/../../etc/passwd -> $CODE"
want 200 "$ROOT/ui/index.html"
api_stop

# ---- under https:// the cookie is Secure ---------------------------------
if command -v openssl >/dev/null; then
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -keyout "$TMP/key.pem" -out "$TMP/cert.pem" -days 2 \
	    -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	    >/dev/null 2>&1 || fail "openssl req"
	api_serve tls "$DB" "$(jq -n --arg c "$TMP/cert.pem" --arg k "$TMP/key.pem" \
	    '{cert: $c, key: $k, reads: "token"}')" https
	want 200 --cacert "$TMP/cert.pem" $H -X POST \
	    -H "Authorization: Bearer $RO" "$BASE/session"
	hdr Set-Cookie | grep -Eqx 'labrat_session=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure' ||
		fail "https Set-Cookie '$(hdr Set-Cookie)'"
	CT="Cookie: $(hdr Set-Cookie | sed 's/;.*//')"
	want 200 --cacert "$TMP/cert.pem" -H "$CT" "$BASE/runs"
	api_stop
fi

# ---- drain: SIGTERM with a request in flight -----------------------------
api_serve drain "$DB" '{"reads": "open"}'
RW2=$("$LABRAT" token add drainer --db "$DB" 2>/dev/null) || fail "token add"
cat >"$TMP/inflight.py" <<'PY'
import os, socket, sys, time
port, token, ready, go = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
s = socket.create_connection(("127.0.0.1", port), timeout=20)
s.sendall(("DELETE /api/v1/queue/999 HTTP/1.1\r\nHost: x\r\n"
           "Authorization: Bearer %s\r\nContent-Length: 2\r\n\r\n" % token).encode())
time.sleep(0.3)
open(ready, "w").close()
end = time.time() + 20
while not os.path.exists(go) and time.time() < end:
    time.sleep(0.02)
s.sendall(b"{}")
data = b""
while b"\r\n\r\n" not in data:
    b = s.recv(4096)
    if not b:
        break
    data += b
print(data.split(b"\r\n\r\n")[0].decode("latin-1"))
PY
# A request libmicrohttpd refuses itself (431) never reaches a handler and
# must not count as in flight: the drain would wait its 5 s for it.  (A
# client gone in the middle of its body does hold the drain up to those
# 5 s: libmicrohttpd reports it only when it stops.)
req "$TMP/body" -H "X-Big: $(head -c 40000 /dev/zero | tr '\0' a)" "$BASE/status"
[ "$CODE" = 431 ] || fail "an oversized header -> $CODE"
python3 "$TMP/inflight.py" "$PORT" "$RW2" "$TMP/ready" "$TMP/go" >"$TMP/inflight.out" 2>&1 &
PYPID=$!
wait_log "$TMP/inflight.out" . 0 || :
i=0
while [ ! -e "$TMP/ready" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -e "$TMP/ready" ] || fail "the in-flight request did not start: $(cat "$TMP/inflight.out")"
t0=$(now_ms)
kill -TERM "$SPID"
wait_log "$TMP/drain.err" "stopping" 10 || fail "serve did not begin to stop"
want 503 -D "$TMP/hdr" "$BASE/status"
[ "$(hdr Retry-After)" = 5 ] || fail "503 without Retry-After: $(cat "$TMP/hdr")"
[ "$(jq -r .status "$TMP/body")" = 503 ] || fail "503 body: $(cat "$TMP/body")"
kill -0 "$SPID" 2>/dev/null || fail "serve left before the request in flight was answered"
touch "$TMP/go"
wait "$PYPID"
PYPID=
head -n 1 "$TMP/inflight.out" | grep -q "^HTTP/1.1 503" ||
	fail "the in-flight request: $(cat "$TMP/inflight.out")"
grep -qi "^Retry-After: 5" "$TMP/inflight.out" ||
	fail "the in-flight 503 without Retry-After: $(cat "$TMP/inflight.out")"
wait "$SPID"
rc=$?
SPID=
[ "$rc" = 0 ] || fail "labrat serve exited $rc: $(tail -n 5 "$TMP/drain.err")"
ms=$(( $(now_ms) - t0 ))
[ "$ms" -lt 4500 ] || fail "the drain took $ms ms: a request counted in flight forever?"
grep -q "still in flight" "$TMP/drain.err" && fail "serve cut requests in flight"
echo "api_static: ok ($NEMB embedded files, $NGZ gzip-encoded; $NT traversal variants refused; drain $ms ms)"
