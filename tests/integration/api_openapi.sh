#!/bin/sh
# schemas/openapi.json against a live labrat serve (127.0.0.1, a free
# port) over a store from a real simulated-lab run (api_store, as
# api_read.sh): every operation of the document is requested, the replies
# of every endpoint (2xx and the problem objects: 400, 401, 403, 404, 405,
# 409, 413) validate against the document's schemas with python3-jsonschema
# (Draft 2020-12, api_openapi.py), every documented GET answers 2xx once
# (but bisects/{id} and its log, nights/{id}: the store has no bisect and
# no night, so their 404 is what is validated; GET session with a bearer
# token and no cookie: 401).  The mutations: success and refusal (400,
# 403, 404, 409) of each, the bisect item queued cancelled at once (or 409
# when the daemon claimed it already).  test_http_routes checks that the
# route table and the document name the same operations.
# Brings up a lab (lab_up, in api_store).
# ctest: smoke (also run in the sanitizer build: no crash, no leak)
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=apio$$
. "$(dirname "$0")/lib/run.sh"
. "$(dirname "$0")/lib/api.sh"
trap 'api_kill; run_cleanup' EXIT
command -v curl >/dev/null || { echo "SKIP: curl missing" >&2; exit 77; }
python3 -c 'import jsonschema' 2>/dev/null ||
	{ echo "SKIP: python3-jsonschema missing" >&2; exit 77; }

DB=$TMP/api.db
api_store "$DB"
RW=$("$LABRAT" token add writer --db "$DB" 2>/dev/null) || fail "token add"
RO=$("$LABRAT" token add reader --read-only --db "$DB" 2>/dev/null) ||
	fail "token add --read-only"
api_serve srv "$DB" '{"reads": "open"}'
J=$(sq "$DB" "SELECT min(id) FROM jobs")

mkdir "$TMP/cfg"
sed -e "s#/root/.ssh/labrat_ed25519#$TMP/cfg/key#" \
    -e "s#/root/.ssh/labrat_known_hosts#$TMP/cfg/known_hosts#" \
    "$LABRAT_SOURCE_DIR/configs/lab-freebsd.json" >"$TMP/cfg/inv.json"
: >"$TMP/cfg/key"
: >"$TMP/cfg/known_hosts"
chmod 600 "$TMP/cfg/key"
cp "$LABRAT_SOURCE_DIR/configs/plan-reports.json" "$TMP/cfg/plan.json"
cp "$LABRAT_SOURCE_DIR/configs/bisect/em.json" "$TMP/cfg/test.json"
cp "$LABRAT_SOURCE_DIR/configs/simlab/history.json" "$TMP/cfg/history.json"
"$LABRAT" schedule add nightly --cron "0 3 * * *" --tz UTC \
    --inventory "$TMP/cfg/inv.json" --plan "$TMP/cfg/plan.json" --db "$DB" \
    >/dev/null 2>&1 || fail "schedule add"
ENQ=$(jq -cn --arg i "$TMP/cfg/inv.json" --arg p "$TMP/cfg/plan.json" \
    '{inventory: $i, plan: $p, note: "openapi"}')
SCH=$(jq -cn --arg i "$TMP/cfg/inv.json" --arg p "$TMP/cfg/plan.json" \
    '{name: "api", cron: "0 3 29 2 *", tz: "Europe/Berlin", inventory: $i,
    plan: $p, links: ["em"]}')
BIS=$(jq -cn --arg i "$TMP/cfg/inv.json" --arg t "$TMP/cfg/test.json" \
    --arg r "$TMP/cfg/history.json" '{link: "em", good: "r200000",
    bad: "r200300", test: $t, inventory: $i, revisions: $r}')
V=/api/v1
# One series of the run (em, TSO on, its workload, throughput) as a query.
SK=$(curl -s "$BASE/series/keys?link=em" | jq -r '[.keys[] |
    select(.metric == "throughput_bps")][0] | "link=\(.link | @uri)&knobs=\(.knobs |
    @uri)&workload=\(.workload | @uri)"') || fail "series/keys"
# The writer's requests.  The queued item is cancelled at once (the
# daemon would try to run it): item 1 is the one POST makes.
cat >"$TMP/rw.txt" <<EOT
GET $V/status $V/status
GET $V/runs $V/runs?limit=1
GET $V/runs $V/runs?state=nonsense
GET $V/runs/{id} $V/runs/1
GET $V/runs/{id} $V/runs/abc
GET $V/runs/{id} $V/runs/999
GET $V/runs/{id}/jobs $V/runs/1/jobs?limit=2
GET $V/runs/{id}/jobs $V/runs/999/jobs
GET $V/runs/{id}/report $V/runs/1/report
GET $V/runs/{id}/report $V/runs/999/report
GET $V/jobs/{id}/samples $V/jobs/$J/samples
GET $V/jobs/{id} $V/jobs/$J
GET $V/jobs/{id} $V/jobs/0
GET $V/jobs/{id}/raw $V/jobs/$J/raw
GET $V/jobs/{id}/raw $V/jobs/$J/raw?name=nosuch
GET $V/jobs/{id}/samples $V/jobs/999999/samples
GET $V/queue $V/queue
GET $V/hosts $V/hosts
GET $V/schedules $V/schedules
GET $V/schedules/{name} $V/schedules/nightly?format=text
GET $V/schedules/{name} $V/schedules/nosuch
GET $V/compare $V/compare?a=1&b=1
GET $V/bisects $V/bisects
GET $V/bisects/{id} $V/bisects/1
GET $V/bisects/{id}/log $V/bisects/1/log
GET $V/nights $V/nights?limit=5
GET $V/runs $V/runs?limit=1&format=text
GET $V/runs/{id}/report $V/runs/1/report?format=text&no_baseline=1
GET $V/runs/{id}/report $V/runs/1/report?format=csv&metric=throughput_bps
GET $V/runs/{id}/report $V/runs/1/report?format=junit
GET $V/runs/{id}/report $V/runs/1/report?format=xml
GET $V/compare $V/compare?a=1&b=1&format=json&link=em
GET $V/compare $V/compare?a=1&b=1&format=csv
GET $V/compare $V/compare?a=1&b=999
GET $V/compare $V/compare?a=1&width=5
GET $V/queue $V/queue?format=text
GET $V/queue $V/queue?limit=1&after=999999
GET $V/queue $V/queue?after=abc
GET $V/hosts $V/hosts?format=text&limit=10
GET $V/schedules $V/schedules?format=text
GET $V/schedules/{name} $V/schedules/nightly
GET $V/schedules/{name} $V/schedules/nightly?format=text
GET $V/schedules/{name} $V/schedules/nope
GET $V/bisects/{id} $V/bisects/1?format=text
GET $V/bisects $V/bisects?limit=1
GET $V/bisects $V/bisects?limit=2&after=5
GET $V/bisects $V/bisects?after=x
GET $V/nights $V/nights?limit=1&after=9
GET $V/series/keys $V/series/keys?link=em&limit=5
GET $V/series/keys $V/series/keys?nosuch=1
GET $V/series $V/series?$SK&samples=1
GET $V/series $V/series?link=em
GET $V/nights/{id} $V/nights/1
GET $V/nights/{id} $V/nights/abc
GET $V/hosts/{link}/health $V/hosts/em/health
GET $V/hosts/{link}/health $V/hosts/nosuch/health
POST $V/queue $V/queue $ENQ
DELETE $V/queue/{id} $V/queue/1
DELETE $V/queue/{id} $V/queue/1
DELETE $V/queue/{id} $V/queue/999
POST $V/queue $V/queue {"plan": "relative"}
POST $V/queue $V/queue $(head -c 70000 /dev/zero | tr '\0' ' ')[]
POST $V/hosts/{link}/maintenance $V/hosts/em/maintenance {"on": true, "why": "openapi"}
POST $V/hosts/{link}/maintenance $V/hosts/em/maintenance {"on": false, "why": "openapi"}
POST $V/hosts/{link}/maintenance $V/hosts/em/maintenance {"on": false, "why": "openapi"}
POST $V/hosts/{link}/maintenance $V/hosts/em/maintenance {"on": 1}
POST $V/schedules $V/schedules $SCH
POST $V/schedules $V/schedules $SCH
POST $V/schedules $V/schedules {"name": "x", "cron": 1}
POST $V/schedules/{name}/disable $V/schedules/api/disable
POST $V/schedules/{name}/enable $V/schedules/api/enable
POST $V/schedules/{name}/enable $V/schedules/nosuch/enable
POST $V/schedules/{name}/disable $V/schedules/a%20b/disable
DELETE $V/schedules/{name} $V/schedules/api
DELETE $V/schedules/{name} $V/schedules/api
POST $V/bisects $V/bisects $BIS
DELETE $V/queue/{id} $V/queue/2
POST $V/bisects $V/bisects {"link": "em", "good": "r1", "bad": "r2", "test": "rel.json"}
POST $V/bisects/{id}/reset $V/bisects/999/reset
POST $V/session $V/session
GET $V/session $V/session
DELETE $V/session $V/session
EOT
python3 "$LABRAT_SOURCE_DIR/tests/integration/api_openapi.py" \
    "$LABRAT_SOURCE_DIR/schemas/openapi.json" "http://127.0.0.1:$PORT" "$RW" \
    "$TMP/rw.txt" "$V/bisects/{id},$V/bisects/{id}/log,$V/nights/{id},$V/session" \
    >"$TMP/rw.out" ||
	fail "the writer's replies: $(cat "$TMP/rw.out")"
# The reader's mutations (403) and a bad token (401).
cat >"$TMP/ro.txt" <<EOT
POST $V/queue $V/queue $ENQ
DELETE $V/queue/{id} $V/queue/1
POST $V/hosts/{link}/maintenance $V/hosts/em/maintenance {"on": true, "why": "x"}
POST $V/schedules $V/schedules $SCH
DELETE $V/schedules/{name} $V/schedules/nightly
POST $V/schedules/{name}/disable $V/schedules/nightly/disable
POST $V/schedules/{name}/enable $V/schedules/nightly/enable
POST $V/bisects $V/bisects $BIS
POST $V/bisects/{id}/reset $V/bisects/1/reset
EOT
sed -n '1,56p' "$TMP/rw.txt" >>"$TMP/ro.txt"
grep "^[A-Z]* $V/session " "$TMP/rw.txt" >>"$TMP/ro.txt"
python3 "$LABRAT_SOURCE_DIR/tests/integration/api_openapi.py" \
    "$LABRAT_SOURCE_DIR/schemas/openapi.json" "http://127.0.0.1:$PORT" "$RO" \
    "$TMP/ro.txt" "$V/bisects/{id},$V/bisects/{id}/log,$V/nights/{id},$V/session" \
    >"$TMP/ro.out" ||
	fail "the reader's replies: $(cat "$TMP/ro.out")"
grep -q "POST /api/v1/queue: 403 valid" "$TMP/ro.out" ||
	fail "the reader's POST was not a valid 403: $(cat "$TMP/ro.out")"
grep -q "POST /api/v1/schedules/nightly/disable: 403 valid" "$TMP/ro.out" ||
	fail "the reader's disable was not a valid 403: $(cat "$TMP/ro.out")"
printf 'GET %s/status %s/status\n' $V $V >"$TMP/bad.txt"
python3 "$LABRAT_SOURCE_DIR/tests/integration/api_openapi.py" \
    "$LABRAT_SOURCE_DIR/schemas/openapi.json" "http://127.0.0.1:$PORT" \
    "lrt_1_nope" "$TMP/bad.txt" >"$TMP/bad.out" 2>&1 || :
grep -q "GET /api/v1/status: 401 valid" "$TMP/bad.out" ||
	fail "a bad token's reply: $(cat "$TMP/bad.out")"
grep -c valid "$TMP/rw.out" | grep -qx 82 ||
	fail "not every request was validated: $(cat "$TMP/rw.out")"
want 200 "$BASE/schedules"
[ "$(jq -r '.[0].name' "$TMP/body")" = nightly ] ||
	fail "schedules: $(cat "$TMP/body")"
"$LABRAT" schedule list --db "$DB" --format json >"$TMP/sched.cli" ||
	fail "labrat schedule list"
cmp "$TMP/body" "$TMP/sched.cli" ||
	fail "GET schedules differs from labrat schedule list --format json"
api_stop
echo "api_openapi: ok"
