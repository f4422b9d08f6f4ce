#!/bin/sh
# The HTTP API of a live `labrat serve` on 127.0.0.1 (a free port) over a
# store from a real simulated-lab run (api_store: em, TSO on/off, iperf3
# 1 s, 2 repetitions; under ctest a copy of the api_store fixture's).
# Reads need a token here ("reads": "token").
# - real content: the run and its job counts, filters, the job pages and
#   their cursor, one job's samples as the store holds them, the report
#   byte for byte equal to `labrat report RUN --format json` and to the
#   verdicts the run stored when it finished;
# - auth: no token, a wrong one, a revoked one -> 401; a read-only token
#   on every mutation -> 403; nothing changed in the database by any of
#   them; a writing token queues the same item `labrat run --enqueue`
#   makes, cancels it (then 409), puts the link in and out of
#   maintenance;
# - hostile requests: path traversal (plain, encoded, mixed), an oversized
#   header and body, NUL, control characters and invalid UTF-8 in
#   parameters, huge and bad limits, ids -1, 0, abc and past int64, SQL
#   metacharacters in every filter, unknown parameters, a wrong method:
#   each with its status, and the daemon still answers; 50 connections
#   trickling from one address do not hold up a request from another;
# - TLS: the same store over https:// (a self-signed certificate): the
#   client with the CA reads, without it the handshake fails; a token
#   over its rate per minute gets 429, another token does not.
# Brings up a lab (lab_up, in api_store).
# ctest: smoke (also run in the sanitizer build: no crash, no leak)
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=apir$$
. "$(dirname "$0")/lib/run.sh"
. "$(dirname "$0")/lib/api.sh"
trap 'api_kill; run_cleanup' EXIT
command -v curl >/dev/null || { echo "SKIP: curl missing" >&2; exit 77; }

DB=$TMP/api.db
api_store "$DB"
RUN=$(sq "$DB" "SELECT max(id) FROM runs")
[ "$RUN" = 1 ] || fail "the store's run is '$RUN'"

RW=$("$LABRAT" token add writer --db "$DB" 2>/dev/null) || fail "token add"
RO=$("$LABRAT" token add reader --read-only --db "$DB" 2>/dev/null) ||
	fail "token add --read-only"
RV=$("$LABRAT" token add gone --db "$DB" 2>/dev/null) || fail "token add"
"$LABRAT" token revoke gone --db "$DB" >/dev/null 2>&1 || fail "revoke"
A="Authorization: Bearer $RO"
W="Authorization: Bearer $RW"

api_serve srv "$DB" '{"reads": "token", "rate_per_min": 100000}'
jqb() { jq -r "$1" "$TMP/body"; }
is() { [ "$(jqb "$1")" = "$2" ] || fail "$3: $1 is '$(jqb "$1")', want '$2'"; }

# ---- real content ---------------------------------------------------------
want 200 -H "$A" "$BASE/status"
is .pid "$SPID" status
is .schema_version "$(sq "$DB" 'PRAGMA user_version')" status
want 200 -H "$A" "$BASE/runs"
is '.runs | length' 1 runs
is '.runs[0].id' "$RUN" runs
is '.runs[0].state' done runs
is '.runs[0].jobs.total' 4 runs
is '.runs[0].jobs.done' 4 runs
is '.next_after' null runs
for q in "state=done" "kind=manual" "link=em" "state=done&link=em&limit=1"; do
	want 200 -H "$A" "$BASE/runs?$q"
	is '.runs[0].id' "$RUN" "runs?$q"
done
for q in "state=failed" "kind=nightly" "link=bce" "after=$RUN"; do
	want 200 -H "$A" "$BASE/runs?$q"
	is '.runs | length' 0 "runs?$q"
done
want 200 -H "$A" "$BASE/runs/$RUN"
is .plan "$API_PLAN" "runs/$RUN"
want 200 -H "$A" "$BASE/runs/$RUN/jobs?limit=3"
is '.jobs | length' 3 "jobs page 1"
J3=$(sq "$DB" "SELECT id FROM jobs WHERE run_id = $RUN ORDER BY seq LIMIT 1 OFFSET 2")
is '.next_after' "$J3" "jobs page 1"
is '[.jobs[].state] | unique | join(",")' done "jobs page 1"
want 200 -H "$A" "$BASE/runs/$RUN/jobs?limit=3&after=$J3"
is '.jobs | length' 1 "jobs page 2"
is '.next_after' null "jobs page 2"
J1=$(sq "$DB" "SELECT min(id) FROM jobs WHERE run_id = $RUN")
want 200 -H "$A" "$BASE/jobs/$J1/samples"
V=$(sq "$DB" "SELECT value FROM samples WHERE job_id = $J1 AND metric = 'throughput_bps' AND interval = 0")
G=$(jqb '.samples[] | select(.metric == "throughput_bps" and .interval == 0) | .value')
# sqlite3 prints 15 digits, the API the shortest round trip.
awk -v a="$V" -v b="$G" 'BEGIN { d = a - b; if (d < 0) d = -d
	exit !(a > 1e8 && d <= a * 1e-12) }' ||
	fail "job $J1 throughput: API '$G', store '$V'"
is .job.link em "jobs/$J1/samples"
want 200 -H "$A" "$BASE/jobs/$J1"
is .state done "jobs/$J1"
is .knobs "$(sq "$DB" "SELECT knobs FROM jobs WHERE id = $J1")" "jobs/$J1"
req "$TMP/raw.api" -H "$A" "$BASE/jobs/$J1/raw"
[ "$CODE" = 200 ] || fail "jobs/$J1/raw: $CODE"
sqlite3 "$DB" "SELECT writefile('$TMP/raw.db', data) FROM raw_outputs WHERE job_id = $J1 AND name = 'client.agent'" >/dev/null
cmp "$TMP/raw.api" "$TMP/raw.db" || fail "jobs/$J1/raw differs from the store"
want 404 -H "$A" "$BASE/jobs/$J1/raw?name=server.agent.nosuch"
req "$TMP/report.api" -H "$A" "$BASE/runs/$RUN/report"
[ "$CODE" = 200 ] || fail "report: $CODE"
"$LABRAT" report "$RUN" --db "$DB" --format json >"$TMP/report.cli" ||
	fail "labrat report"
cmp "$TMP/report.api" "$TMP/report.cli" ||
	fail "the API's report differs from labrat report --format json"
# The verdicts the run stored when it finished (schema 14) are those bytes.
[ "$(sq "$DB" "SELECT count(*) FROM run_verdicts WHERE run_id = $RUN")" = 1 ] ||
	fail "run $RUN stored no verdicts when it finished"
sqlite3 "$DB" "SELECT writefile('$TMP/report.db', report) FROM run_verdicts WHERE run_id = $RUN" >/dev/null
cmp "$TMP/report.db" "$TMP/report.cli" ||
	fail "run $RUN's stored verdicts differ from labrat report --format json"
jq -e '.series | length == 2' "$TMP/report.api" >/dev/null ||
	fail "the report has not 2 series"
for p in queue hosts schedules bisects nights; do
	want 200 -H "$A" "$BASE/$p"
done
want 200 -H "$A" "$BASE/queue"
is '.daemon.live' true queue
want 404 -H "$A" "$BASE/runs/99999"
is .status 404 "runs/99999"
want 404 -H "$A" "$BASE/bisects/1"

# ---- auth -----------------------------------------------------------------
count() {
	sq "$DB" "SELECT (SELECT count(*) FROM queue_items) || ' ' ||
	    (SELECT count(*) FROM health_transitions) || ' ' ||
	    (SELECT count(*) FROM runs)"
}
before=$(count)
want 401 "$BASE/runs"
is .status 401 "no token"
want 401 -H "Authorization: Bearer lrt_1_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" "$BASE/runs"
want 401 -H "Authorization: Bearer nonsense" "$BASE/runs"
want 401 -H "Authorization: Basic d3JpdGVyOng=" "$BASE/runs"
want 401 -H "Authorization: Bearer $RV" "$BASE/runs"
# The CLI's own inventory and plan (key files that exist), for the queue.
mkdir "$TMP/cfg"
sed -e "s#/root/.ssh/labrat_ed25519#$TMP/cfg/key#" \
    -e "s#/root/.ssh/labrat_known_hosts#$TMP/cfg/known_hosts#" \
    "$LABRAT_SOURCE_DIR/configs/lab-freebsd.json" >"$TMP/cfg/inv.json"
: >"$TMP/cfg/key"
: >"$TMP/cfg/known_hosts"
chmod 600 "$TMP/cfg/key"
cp "$LABRAT_SOURCE_DIR/configs/plan-reports.json" "$TMP/cfg/plan.json"
BODY=$(jq -n --arg i "$TMP/cfg/inv.json" --arg p "$TMP/cfg/plan.json" \
    '{inventory: $i, plan: $p, note: "from the API"}')
MB='{"on": true, "why": "cable swap"}'
for h in "" "Authorization: Bearer $RV" "$A"; do
	w=403
	[ "$h" = "$A" ] || w=401
	want $w -H "${h:-X-None: 1}" -H 'Content-Type: application/json' \
	    -d "$BODY" "$BASE/queue"
	want $w -H "${h:-X-None: 1}" -d "$MB" "$BASE/hosts/em/maintenance"
	want $w -H "${h:-X-None: 1}" -X DELETE "$BASE/queue/1"
done
[ "$(count)" = "$before" ] ||
	fail "refused requests changed the database: '$before' -> '$(count)'"

# ---- hostile requests -----------------------------------------------------
for p in "/api/v1/../../etc/passwd" "/api/v1/runs/../status" \
    "/api/v1/%2e%2e/%2e%2e/etc/passwd" "/api/v1/runs/%2E%2E" \
    "/api/v1/runs/.%2e/status" "/api/v1/runs/..%2f..%2fetc%2fpasswd" \
    "/api/v1//runs" "/api/v1/runs/" "/api/v1/runs/%00" \
    "/api/v1/runs/1%00" "/api/v1/runs/%c0%ae%c0%ae"; do
	want 400 --path-as-is -H "$A" "http://127.0.0.1:$PORT$p"
	is .status 400 "$p"
done
want 404 -H "$A" "$BASE/etc/passwd"
for q in "kind=%00" "link=em%00" "link=%0d%0aX:1" "kind=%ff" \
    "link=%c3%28" "link=%ed%a0%80" "limit=-1" "limit=0" "limit=abc" \
    "limit=1e3" "after=-1" "after=abc" "after=0" \
    "after=9223372036854775808" "after=1%20OR%201=1" "state=done'" \
    "state=done%27%20OR%20%271%27=%271" "bogus=1" "limit=1&limit=2" \
    "LIMIT=5" "kind=manualmanualmanual1"; do
	want 400 -H "$A" "$BASE/runs?$q"
	is .status 400 "runs?$q"
done
want 400 -H "$A" "$BASE/runs?after=abc"
jqb .error | grep -q "parameter after" || fail "the 400 does not name after"
for q in "limit=1000000000000" "limit=99999999999999999999999999999"; do
	want 200 -H "$A" "$BASE/runs?$q"
	is '.runs[0].id' "$RUN" "runs?$q"
done
for q in "link=em'%20OR%20'1'='1" "link=em%22;DROP%20TABLE%20runs;--" "kind=%27%20OR%201=1--" \
    "link=%25" "link=_" "link=em%27)%20UNION%20SELECT%201--" \
    "kind=*" "link=em%5C"; do
	want 200 -H "$A" "$BASE/runs?$q"
	is '.runs | length' 0 "runs?$q"
done
for id in -1 0 abc 1.5 9223372036854775808 0x1 " 1"; do
	for p in "runs/%s" "runs/%s/jobs" "runs/%s/report" "jobs/%s/samples" \
	    "bisects/%s"; do
		u=$(printf "$p" "$(printf %s "$id" | jq -sRr @uri)")
		want 400 -H "$A" "$BASE/$u"
	done
done
want 405 -H "$A" -X PUT "$BASE/runs"
curl -s -D "$TMP/hdr" -o /dev/null -X PATCH -H "$A" "$BASE/queue" || :
grep -qi '^Allow: GET, POST' "$TMP/hdr" || fail "405 without Allow: $(cat "$TMP/hdr")"
# 64 KiB + 1 of body, and a body that says so up front.
head -c 65537 /dev/zero | tr '\0' x >"$TMP/big"
want 413 -H "$W" --data-binary @"$TMP/big" "$BASE/queue"
want 413 -H "$W" -H "Content-Length: 100000000" -d x "$BASE/queue"
# A 40 KiB header: libmicrohttpd refuses it itself (431, or 413 when the
# header memory runs out before the request line is done).
req "$TMP/body" -H "$A" -H "X-Big: $(head -c 40000 /dev/zero | tr '\0' y)" \
    "$BASE/status"
case $CODE in 431|413|400) ;; *) fail "oversized header: $CODE" ;; esac
req "$TMP/body" -H "$A" "$BASE/runs?$(head -c 5000 /dev/zero | tr '\0' k)=1"
case $CODE in 414|400) ;; *) fail "oversized target: $CODE" ;; esac
[ "$(sq "$DB" "SELECT count(*) FROM runs")" = 1 ] || fail "runs table changed"

# A writing token: the item `labrat run --enqueue` makes.
want 201 -H "$W" -d "$BODY" "$BASE/queue"
ITEM=$(jqb .id)
is .state queued "POST queue"
(cd "$TMP/cfg" && "$LABRAT" run --db "$DB" --inventory inv.json \
    --plan plan.json --note "from the API" --enqueue) >/dev/null 2>&1 ||
	fail "labrat run --enqueue"
CLI=$(sq "$DB" "SELECT max(id) FROM queue_items")
[ "$(sq "$DB" "SELECT kind || priority || payload FROM queue_items WHERE id = $ITEM")" = \
  "$(sq "$DB" "SELECT kind || priority || payload FROM queue_items WHERE id = $CLI")" ] ||
	fail "the API's item differs from labrat run --enqueue's: $(sq "$DB" "SELECT id, kind, priority, payload FROM queue_items")"
# Cancel both.  The daemon's one worker may have claimed one of them
# already (it tries to run it, on hosts that do not exist): that one is
# 409, the other 200; each answer must match the store.
cancelled=0
for it in "$CLI" "$ITEM"; do
	req "$TMP/body" -H "$W" -X DELETE "$BASE/queue/$it"
	st=$(sq "$DB" "SELECT state FROM queue_items WHERE id = $it")
	case $CODE in
	200)	is .state cancelled "DELETE queue/$it"
		[ "$st" = cancelled ] ||
		    fail "queue item $it is '$st' in the store after a 200"
		cancelled=$((cancelled + 1)) ;;
	409)	[ "$st" != queued ] && [ "$st" != cancelled ] ||
		    fail "queue item $it: 409 while it is '$st'" ;;
	*)	fail "DELETE queue/$it: $CODE: $(cat "$TMP/body")" ;;
	esac
	want 409 -H "$W" -X DELETE "$BASE/queue/$it"
done
[ "$cancelled" -ge 1 ] || fail "neither queue item could be cancelled"
want 404 -H "$W" -X DELETE "$BASE/queue/99999"
want 400 -H "$W" -d '{"plan": "relative.json"}' "$BASE/queue"
want 400 -H "$W" -d '{"plan": "/x.json", "shell": "rm -rf /"}' "$BASE/queue"
want 400 -H "$W" -d '{"plan": "/x.json", "plan": "/y.json"}' "$BASE/queue"
want 400 -H "$W" -d '[1, 2]' "$BASE/queue"
want 400 -H "$W" -d 'not json' "$BASE/queue"
want 200 -H "$W" -d "$MB" "$BASE/hosts/em/maintenance"
is .after maintenance "maintenance on"
want 200 -H "$A" "$BASE/hosts"
is '.links[] | select(.link == "em") | .state' maintenance hosts
want 200 -H "$W" -d '{"on": false, "why": "back"}' "$BASE/hosts/em/maintenance"
want 409 -H "$W" -d '{"on": false, "why": "again"}' "$BASE/hosts/em/maintenance"
want 400 -H "$W" -d '{"on": "yes", "why": "x"}' "$BASE/hosts/em/maintenance"
want 400 -H "$W" -d '{"on": true}' "$BASE/hosts/em/maintenance"
want 400 -H "$W" -d "$MB" "$BASE/hosts/em%3Brm/maintenance"

# 50 connections trickling from 127.0.0.1 (over the per-address cap of
# 16: the rest are closed at once): a request from 127.0.0.2 is not held
# up by them.
python3 "$LABRAT_SOURCE_DIR/tests/integration/api_trickle.py" "$PORT" 50 4 \
    >"$TMP/trickle.out" &
TPID=$!
sleep 1
for i in 1 2 3; do
	t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 5 \
	    --interface 127.0.0.2 -H "$A" "$BASE/status")
	case $t in
	"200 "*) awk -v t="${t#200 }" 'BEGIN { exit !(t < 1) }' ||
		    fail "a request beside 50 trickling connections took ${t#200 } s" ;;
	*) fail "a request beside 50 trickling connections: $t" ;;
	esac
done
wait "$TPID"

# Still answering, still the same daemon.
want 200 -H "$A" "$BASE/status"
is .pid "$SPID" "status after the hostile requests"
kill -0 "$SPID" || fail "the daemon died"
api_stop
grep -q "labrat serve: stopped" "$TMP/srv.err" || fail "no clean stop"

# ---- TLS: https:// with a certificate of our own ----------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$TMP/key.pem" -out "$TMP/cert.pem" -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1 || fail "openssl req"
api_serve tls "$DB" "$(jq -n --arg c "$TMP/cert.pem" --arg k "$TMP/key.pem" \
    '{cert: $c, key: $k, reads: "token", rate_per_min: 6}')" https
want 200 --cacert "$TMP/cert.pem" -H "$A" "$BASE/runs/$RUN"
is .id "$RUN" "runs/$RUN over https"
want 401 --cacert "$TMP/cert.pem" "$BASE/runs/$RUN"
req "$TMP/body" "$BASE/status"		# no CA: the certificate is refused
[ "$CODE" = 000 ] || fail "https without the CA: $CODE"
req "$TMP/body" "http://127.0.0.1:$PORT/api/v1/status"	# plain to TLS
[ "$CODE" = 000 ] || [ "$CODE" -ge 400 ] || fail "plain HTTP to TLS: $CODE"
want 200 --cacert "$TMP/cert.pem" -H "$A" "$BASE/status"
# rate_per_min 6: the reader made 2 requests above; its 3rd to 6th this
# minute pass, the 7th does not.  Should the minute turn meanwhile, a
# 429 must still come within the next 7.
for i in 3 4 5 6; do
	want 200 --cacert "$TMP/cert.pem" -H "$A" "$BASE/status"
done
n=0
while :; do
	req "$TMP/body" --cacert "$TMP/cert.pem" -H "$A" "$BASE/status"
	[ "$CODE" = 429 ] && break
	[ "$CODE" = 200 ] || fail "over the rate: $CODE"
	n=$((n + 1))
	[ $n -le 6 ] || fail "no 429 after 6 requests a minute and more"
done
is .status 429 "over the rate"
want 200 --cacert "$TMP/cert.pem" -H "$W" "$BASE/status"
api_stop
echo "api_read: ok"
