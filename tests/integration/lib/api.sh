# tests/integration/lib/api.sh: what the HTTP API tests share, sourced
# after lib/simlab.sh and lib/run.sh (LAB set; TMP, fail, wait_log used).
#
#   api_store DB [PLAN] a real simulated-lab run into DB: lab up, the em
#                       link, TSO on/off, iperf3 1 s, 2 repetitions, the
#                       plan written to PLAN ($TMP/plan.json); lab down
#                       again (the store is the test's subject).  API_PLAN
#                       gets the plan's path, as the store has it.
#                       With LABRAT_API_STORE set (the api_store fixture,
#                       tests/CMakeLists.txt: lib/api_store.sh made that
#                       store once for every test that calls api_store),
#                       a copy of it, and API_PLAN the fixture's plan
#   free_port           a free TCP port on 127.0.0.1 (bind 0)
#   api_serve NAME DB JSON [SCHEME]   labrat serve with a daemon config
#                       whose "http" section is JSON ("listen" is filled in,
#                       SCHEME http or https): SPID, PORT, BASE
#                       (SCHEME://127.0.0.1:PORT/api/v1); waits for http.
#                       Its inventory does not exist, so the daemon runs
#                       no health checks (they would add runs and
#                       transitions the tests count)
#   api_stop            SIGTERM to the daemon, waits for it; fails unless
#                       it exits 0 (the sanitizer build: no leak, no error)
#   api_kill            the same for the EXIT trap: no check
#   req OUT ARGS...     curl (no retries, 10 s): the body to OUT, CODE gets
#                       the status ("000": no reply)
#   want CODE ARGS...   req into $TMP/body and fail unless CODE came back
#   want_jq URL [JQ_OPTION...] FILTER   want 200 URL, then fail unless the
#                       body satisfies FILTER (jq -e), naming URL, FILTER
#                       and the body's start

api_store() {
	if [ -n "${LABRAT_API_STORE:-}" ]; then
		[ -s "$LABRAT_API_STORE" ] ||
		    fail "no api_store fixture at $LABRAT_API_STORE (lib/api_store.sh)"
		cp "$LABRAT_API_STORE" "$1" || fail "copy $LABRAT_API_STORE"
		API_PLAN=${LABRAT_API_STORE%.db}.plan.json
		note "the api_store fixture: $LABRAT_API_STORE"
		return 0
	fi
	API_PLAN=${2:-$TMP/plan.json}
	lab_up
	cat > "$API_PLAN" <<'PLAN'
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
	"$LABRAT" run --db "$1" --inventory "$INV" --plan "$API_PLAN" \
	    >"$TMP/run.out" 2>"$TMP/run.err" ||
	    fail "the run for the API's store failed: $(cat "$TMP/run.err")"
	lab_down
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

api_serve() {
	_name=$1 _db=$2 _http=$3 _scheme=${4:-http}
	PORT=$(free_port)
	jq -n --arg inv "$TMP/no-inventory.json" \
	    --arg listen "$_scheme://127.0.0.1:$PORT" --argjson http "$_http" \
	    '{inventories: [$inv], http: ({listen: $listen} + $http)}' \
	    >"$TMP/$_name.json" || fail "daemon config $_name"
	"$LABRAT" serve --db "$_db" --config "$TMP/$_name.json" \
	    >"$TMP/$_name.out" 2>"$TMP/$_name.err" &
	SPID=$!
	BASE=$_scheme://127.0.0.1:$PORT/api/v1
	wait_log "$TMP/$_name.err" "http: listening on $_scheme://127.0.0.1:$PORT" 20 ||
	    fail "labrat serve did not start http: $(cat "$TMP/$_name.err")"
}

api_stop() {
	[ -n "${SPID:-}" ] || return 0
	kill -TERM "$SPID" 2>/dev/null
	wait "$SPID" 2>/dev/null
	_rc=$?
	SPID=
	[ "$_rc" = 0 ] || fail "labrat serve exited $_rc: $(tail -n 20 "$TMP/$_name.err")"
}

api_kill() {
	[ -n "${SPID:-}" ] || return 0
	kill -TERM "$SPID" 2>/dev/null
	wait "$SPID" 2>/dev/null
	SPID=
}

req() {
	_out=$1
	shift
	CODE=$(curl -s -o "$_out" -w '%{http_code}' --max-time 10 "$@") || :
}

want() {
	_want=$1
	shift
	req "$TMP/body" "$@"
	[ "$CODE" = "$_want" ] ||
	    fail "$* -> $CODE, want $_want: $(head -c 300 "$TMP/body")"
}

want_jq() {
	_url=$1
	shift
	want 200 "$_url"
	for _filter; do :; done
	jq -e "$@" "$TMP/body" >/dev/null ||
	    fail "GET $_url: not $_filter: $(head -c 300 "$TMP/body")"
}
