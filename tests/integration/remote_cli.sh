#!/bin/sh
# The remote CLI without a lab: a real `labrat serve` with its HTTP API on
# 127.0.0.1 serves a store whose queue holds finished items (build/qfill
# writes them before the daemon starts, so it claims none); `labrat
# --server URL queue` prints exactly what `labrat queue --db DB` prints,
# byte for byte, as text and JSON, with --limit, from --server before or
# after the command, from $LABRAT_SERVER, with a read-only and a
# read-write token file (the daemon's reads need a token).  Errors: no,
# a wrong or a revoked token (the server's 401, exit 1), nothing
# listening (exit 1, the URL named), --db with --server and
# --server on a local-only command (exit 2), a token or CA file without
# a server (exit 2), a malformed token file (exit 1).  Then over https://
# with a self-signed certificate: the same output with --cafile or
# $LABRAT_CAFILE, the URL named when the certificate cannot be verified.
# The clock stands still (LABRAT_TEST_CLOCK=@MS, test only): the
# items are queued at E and the daemon and every read see E + 62 min, so
# the ages printed cannot tick between a local and a remote read.
set -eu
: "${LABRAT:?}" "${LABRAT_SOURCE_DIR:?}" "${LABRAT_BUILD_DIR:?}"
command -v jq >/dev/null || { echo "remote_cli: jq missing" >&2; exit 77; }
command -v python3 >/dev/null ||
    { echo "remote_cli: python3 missing" >&2; exit 77; }
QFILL=$LABRAT_BUILD_DIR/qfill
[ -x "$QFILL" ] || { echo "remote_cli: $QFILL missing" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/lr-remote-XXXXXX")
spid=
cleanup() {
	[ -z "$spid" ] || kill -9 "$spid" 2>/dev/null || :
	rm -rf "$dir"
}
trap cleanup EXIT
fail() { echo "remote_cli: FAIL: $*" >&2; exit 1; }
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

db=$dir/labrat.db
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
dead=$(free_port)
url=http://127.0.0.1:$port

# Finished items of every kind, claimed by a daemon that then stopped.
E=$(($(date +%s) * 1000))
export LABRAT_TEST_CLOCK=@$E
expect 0 "$LABRAT" db migrate --db "$db"
expect 0 "$QFILL" "$db" daemon "old:1"
expect 0 "$QFILL" "$db" add run 200 '{"plan": "p.json"}' "alice@ctl pid 7"
expect 0 "$QFILL" "$db" add bisect 300 '{"link": "em"}' "night 4"
expect 0 "$QFILL" "$db" add health 0 '{"link": "em"}' "daemon"
for i in 1 2 3; do expect 0 "$QFILL" "$db" claim "old:1"; done
expect 0 "$QFILL" "$db" finish 1 done "48 jobs done"

expect 0 "$QFILL" "$db" finish 2 failed "em: r200120..r200300: no culprit"
expect 0 "$QFILL" "$db" finish 3 cancelled "cancelled by alice"
expect 0 "$QFILL" "$db" unregister "old:1"
LABRAT_TEST_CLOCK=@$((E + 3723000))

# Reads need a token here: a read-only one, and one revoked later.
"$LABRAT" token add remote-ro --read-only --db "$db" >"$dir/tok" 2>/dev/null
"$LABRAT" token add remote-gone --db "$db" >"$dir/gone" 2>/dev/null
chmod 600 "$dir/tok" "$dir/gone"
cat >"$dir/daemon.json" <<EOF
{
  "inventories": ["$dir/no-inventory.json"],
  "http": { "listen": "$url", "reads": "token" }
}
EOF
# A daemon serving $db with $dir/daemon.json, its API answering on $url.
start_serve() {
	"$LABRAT" serve --db "$db" --config "$dir/daemon.json" \
	    2>"$dir/serve.err" &
	spid=$!
	i=0
	until curl -sk -o /dev/null "$url/api/v1/status" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "no API on $url: $(cat "$dir/serve.err")"
		kill -0 "$spid" 2>/dev/null ||
		    fail "serve exited: $(cat "$dir/serve.err")"
		sleep 0.1
	done
}
start_serve

# same_as CMD -- ARGS...: `labrat queue --db DB ARGS` and CMD ARGS (a
# remote form) print the same bytes (the clock stands still: at once).
same_as() {
	rcmd=
	while [ "$1" != -- ]; do rcmd="$rcmd $1"; shift; done
	shift
	"$LABRAT" queue --db "$db" "$@" >"$dir/local" 2>"$dir/lerr" ||
	    fail "local queue $*: $(cat "$dir/lerr")"
	# shellcheck disable=SC2086
	$rcmd "$@" >"$dir/remote" 2>"$dir/rerr" ||
	    fail "$rcmd $*: $(cat "$dir/rerr")"
	cmp -s "$dir/local" "$dir/remote" || { diff "$dir/local" \
	    "$dir/remote" >&2; fail "$rcmd $*: remote output differs"; }
	[ ! -s "$dir/rerr" ] || fail "$rcmd $* said: $(cat "$dir/rerr")"
}
same() { same_as "$LABRAT" --server "$url" --token-file "$dir/tok" queue -- \
    "$@"; }
same
has local "last heartbeat 0 s ago"
has local "cancelled by alice"
has local " 62 min "
same --format json
jq -e '(.items | length) == 3 and all(.items[]; .age_s == 3723) and
    .daemon.heartbeat_age_s == 0' "$dir/remote" >/dev/null ||
    fail "remote JSON has not 3 items aged 3723 s, a heartbeat 0 s old"
same --limit 2
same --limit 1 --format json
jq -e '.items | length == 1' "$dir/remote" >/dev/null ||
    fail "--limit 1 gave not 1 item"
same --limit 0

# --server after the command, LABRAT_SERVER, a token file.
same_as "$LABRAT" queue --server "$url" --token-file "$dir/tok" --
same_as env LABRAT_SERVER="$url" LABRAT_TOKEN_FILE="$dir/tok" "$LABRAT" \
    queue -- --format json
same_as "$LABRAT" --server "$url" --token-file "$dir/gone" queue --
# Refused tokens: the server's 401 and its reason, exit 1.
expect 1 "$LABRAT" --server "$url" queue
has err "labrat queue: $url/api/v1/queue?limit=50&format=text: HTTP 401: "
expect 0 "$LABRAT" token revoke remote-gone --db "$db"
expect 1 "$LABRAT" --server "$url" --token-file "$dir/gone" queue
has err "HTTP 401"
printf 'lrt_1_%s\n' AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA >"$dir/wrong"
expect 1 "$LABRAT" --server "$url" --token-file "$dir/wrong" queue
has err "HTTP 401"
# --db wins over LABRAT_SERVER.
expect 0 env LABRAT_SERVER="http://127.0.0.1:$dead" "$LABRAT" queue \
    --db "$db"
has out "cancelled by alice"
# A local-only command ignores LABRAT_SERVER.
expect 0 env LABRAT_SERVER="http://127.0.0.1:$dead" "$LABRAT" token list \
    --db "$db"

# Errors.
expect 1 "$LABRAT" --server "http://127.0.0.1:$dead" queue
has err "labrat queue: http://127.0.0.1:$dead/api/v1/queue?limit=50&format=text: "
expect 2 "$LABRAT" --server "$url" queue --db "$db"
has err "--db and --server: one or the other"
expect 2 "$LABRAT" --server "$url" token list
has err "labrat token list: --server: this command works on the local database only"
expect 2 "$LABRAT" token list --token-file "$dir/tok" --db "$db"
expect 2 "$LABRAT" queue --token-file "$dir/tok" --db "$db"
has err "--token-file needs --server URL"
expect 2 "$LABRAT" queue --cafile "$dir/ca.pem" --db "$db"
printf 'lrt_1_abc def\n' >"$dir/badtok"
expect 1 "$LABRAT" --server "$url" --token-file "$dir/badtok" queue
has err "the first line must be the secret alone"
expect 1 "$LABRAT" --server "$url" --token-file "$dir/missing" queue
has err "token file"
expect 1 "$LABRAT" --server "ftp://127.0.0.1:$port" queue
has err "not an http:// or https:// URL"

stop_serve() {
	kill -TERM "$spid"
	wait "$spid" ||
	    fail "serve exited $? after SIGTERM: $(tail -5 "$dir/serve.err")"
	spid=
}
stop_serve

# https:// with a certificate of our own: verified with --cafile (or
# $LABRAT_CAFILE), refused without it.
command -v openssl >/dev/null || { echo "remote_cli: openssl missing" >&2; exit 77; }
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 || fail "openssl req"
port=$(free_port)
url=https://127.0.0.1:$port
cat >"$dir/daemon.json" <<EOF
{
  "inventories": ["$dir/no-inventory.json"],
  "http": { "listen": "$url", "cert": "$dir/cert.pem",
            "key": "$dir/key.pem", "reads": "token" }
}
EOF
start_serve
same_as "$LABRAT" --server "$url" --token-file "$dir/tok" --cafile \
    "$dir/cert.pem" queue -- --format json
same_as env LABRAT_CAFILE="$dir/cert.pem" "$LABRAT" --server "$url" \
    --token-file "$dir/tok" queue --
expect 1 "$LABRAT" --server "$url" --token-file "$dir/tok" queue
has err "labrat queue: $url/api/v1/queue?limit=50&format=text: "
has err "certificate"
expect 1 "$LABRAT" --server "$url" --token-file "$dir/tok" --cafile \
    "$dir/missing.pem" queue
has err "labrat queue: $url/api/v1/queue?limit=50&format=text: "
stop_serve
echo "remote_cli: ok"
