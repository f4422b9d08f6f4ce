#!/bin/sh
# The HTTP API's bisect and schedule mutations against a live
# `labrat serve` on 127.0.0.1 (a free port) over a fresh store: no
# simulated lab needed (the bodies name configs/lab-freebsd.json with key
# files that exist, configs/bisect/em.json, the simulated lab's history).
# - POST schedules stores what `labrat schedule add` stores (the same row
#   but its name and creation time, `schedule show --format json`), its
#   next firing; a duplicate 409; DELETE schedules/{name} removes it (then
#   404), as `labrat schedule list` shows;
# - POST bisects queues the item `labrat bisect start --enqueue` queues
#   (kind, priority, payload alike); 409 while a live controller drives a
#   bisect on the link, and while the link is in maintenance;
# - POST bisects/{id}/reset on a finished bisect queues a reset item (202),
#   which the daemon's worker runs: the bisect is reset as `labrat bisect
#   status` shows (then 409); 409 for one a live controller drives, for an
#   interrupted one while its link is in maintenance, 404 for none;
# - no token 401, a read-only token 403, bad bodies 400 naming the member
#   ("body.MEMBER"): unknown and wrongly typed members, relative paths, a
#   bad cron expression, zone, link, revision; every refusal leaves the
#   database as it was (sqlite3 .dump before and after).
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=apim$$
. "$(dirname "$0")/lib/run.sh"
. "$(dirname "$0")/lib/api.sh"
trap 'api_kill; run_cleanup' EXIT
command -v curl >/dev/null || { echo "SKIP: curl missing" >&2; exit 77; }

DB=$TMP/api.db
"$LABRAT" db migrate --db "$DB" >/dev/null 2>&1 || fail "db migrate"
RW=$("$LABRAT" token add writer --db "$DB" 2>/dev/null) || fail "token add"
RO=$("$LABRAT" token add reader --read-only --db "$DB" 2>/dev/null) ||
	fail "token add --read-only"
A="Authorization: Bearer $RO"
W="Authorization: Bearer $RW"
jqb() { jq -r "$1" "$TMP/body"; }
is() { [ "$(jqb "$1")" = "$2" ] || fail "$3: $1 is '$(jqb "$1")', want '$2'"; }
# The database as text, but for the tokens' last use (a request stamps
# it) and the daemon's heartbeat.
dump() {
	sqlite3 -cmd '.timeout 5000' "$DB" .dump |
	    grep -Ev '^INSERT INTO "?(tokens|daemon)"? '
}
# want CODE ARGS... and the database unchanged by the request.
refused() {
	dump >"$TMP/before.sql"
	want "$@"
	is .status "$1" "$*"
	dump >"$TMP/after.sql"
	cmp -s "$TMP/before.sql" "$TMP/after.sql" ||
	    fail "a $1 ($*) changed the database: $(diff "$TMP/before.sql" "$TMP/after.sql")"
}
# names MEMBER WHAT: the 400's error starts "body.MEMBER: ".
names() {
	case $(jqb .error) in
	"body.$1: "*) ;;
	*) fail "$2: the 400 does not name body.$1: $(jqb .error)" ;;
	esac
}

mkdir "$TMP/cfg"
C=$TMP/cfg
sed -e "s#/root/.ssh/labrat_ed25519#$C/key#" \
    -e "s#/root/.ssh/labrat_known_hosts#$C/known_hosts#" \
    "$LABRAT_SOURCE_DIR/configs/lab-freebsd.json" >"$C/inv.json"
: >"$C/key"
: >"$C/known_hosts"
chmod 600 "$C/key"
cp "$LABRAT_SOURCE_DIR/configs/plan-reports.json" "$C/plan.json"
cp "$LABRAT_SOURCE_DIR/configs/bisect/em.json" "$C/test.json"
cp "$LABRAT_SOURCE_DIR/configs/simlab/history.json" "$C/history.json"

api_serve srv "$DB" '{"reads": "token", "rate_per_min": 100000}'

# ---- schedules -------------------------------------------------------------
# Feb 29, 03:00 Berlin: never fires while the test runs.
SB=$(jq -cn --arg i "$C/inv.json" --arg p "$C/plan.json" \
    --arg r "$C/history.json" '{name: "nightly-em", cron: "0 3 29 2 *",
    tz: "Europe/Berlin", inventory: $i, plan: $p, links: ["em"],
    revisions: $r}')
sb() { printf '%s' "$SB" | jq -c "$1"; }
refused 401 -d "$SB" "$BASE/schedules"
refused 401 -H "Authorization: Bearer lrt_1_nope" -d "$SB" "$BASE/schedules"
refused 403 -H "$A" -d "$SB" "$BASE/schedules"
for c in '.foo = 1|foo' '.cron = 3|cron' '.cron = "61 * * * *"|cron' \
    '.cron = "@sometimes"|cron' '.tz = "Mars/Olympus"|tz' \
    '.tz = "../../etc/passwd"|tz' '.name = "a b"|name' '.name = 7|name' \
    'del(.name)|name' 'del(.cron)|cron' 'del(.plan)|plan' \
    '.plan = "plan.json"|plan' '.inventory = "cfg/inv.json"|inventory' \
    ".inventory = \"$C/none.json\"|inventory" '.links = "em"|links' \
    '.links = []|links' '.links = ["em;rm"]|links[0]' \
    '.links = ["nosuch"]|links' '.revisions = "history.json"|revisions' \
    '.revisions = "git:repo"|revisions' '.tz = null|tz' \
    '.links = [1]|links[0]'; do
	refused 400 -H "$W" -d "$(sb "${c%|*}")" "$BASE/schedules"
	names "${c#*|}" "schedules ${c%|*}"
done
refused 400 -H "$W" -d '[1]' "$BASE/schedules"
refused 400 -H "$W" -d 'not json' "$BASE/schedules"
refused 400 -H "$W" -d "$(sb .)x" "$BASE/schedules"
want 201 -H "$W" -d "$SB" "$BASE/schedules"
is .name nightly-em "POST schedules"
# The next Feb 29 at 03:00 CET is 02:00 UTC.
jqb .next | grep -Eq '^20[0-9][0-9]-02-29T02:00:00Z$' ||
	fail "POST schedules: next is '$(jqb .next)'"
refused 409 -H "$W" -d "$SB" "$BASE/schedules"
jqb .error | grep -q 'exists' || fail "409 says: $(jqb .error)"
"$LABRAT" schedule add cli-em --cron "0 3 29 2 *" --tz Europe/Berlin \
    --inventory "$C/inv.json" --plan "$C/plan.json" --links em \
    --revisions "$C/history.json" --db "$DB" >/dev/null 2>&1 ||
	fail "labrat schedule add"
"$LABRAT" schedule list --db "$DB" >"$TMP/list" || fail "schedule list"
grep -q '^nightly-em ' "$TMP/list" && grep -q '^cli-em ' "$TMP/list" ||
	fail "schedule list: $(cat "$TMP/list")"
strip='del(.name, .id, .created, .created_at)'
"$LABRAT" schedule show nightly-em --db "$DB" --format json |
    jq -S "$strip" >"$TMP/api.sched" || fail "schedule show nightly-em"
"$LABRAT" schedule show cli-em --db "$DB" --format json |
    jq -S "$strip" >"$TMP/cli.sched" || fail "schedule show cli-em"
cmp "$TMP/api.sched" "$TMP/cli.sched" ||
	fail "the API's schedule differs from labrat schedule add's: $(diff "$TMP/api.sched" "$TMP/cli.sched")"
# Optional members absent: UTC, every link.
want 201 -H "$W" -d "$(sb 'del(.tz, .links, .revisions) | .name = "min"')" \
    "$BASE/schedules"
"$LABRAT" schedule show min --db "$DB" --format json >"$TMP/min" ||
	fail "schedule show min"
[ "$(jq -r '.tz' "$TMP/min")" = UTC ] || fail "min: $(cat "$TMP/min")"
refused 401 -X DELETE "$BASE/schedules/min"
refused 403 -H "$A" -X DELETE "$BASE/schedules/min"
refused 400 -H "$W" -X DELETE "$BASE/schedules/a%20b"
refused 400 -H "$W" -X DELETE "$BASE/schedules/min?x=1"
refused 404 -H "$W" -X DELETE "$BASE/schedules/nosuch"
want 200 -H "$W" -X DELETE "$BASE/schedules/min"
is .name min "DELETE schedules/min"
is .removed true "DELETE schedules/min"
refused 404 -H "$W" -X DELETE "$BASE/schedules/min"
"$LABRAT" schedule list --db "$DB" >"$TMP/list" || fail "schedule list"
! grep -q '^min ' "$TMP/list" || fail "min still listed: $(cat "$TMP/list")"
grep -q '^nightly-em ' "$TMP/list" || fail "nightly-em gone: $(cat "$TMP/list")"

# ---- bisect reset ------------------------------------------------------------
# A finished bisect, and one a live process (the test's shell) drives,
# as hunt stores them (its test file and text).
T=$(sed "s/'/''/g" "$C/test.json")
for b in "1000 done 1700000100000 r200002" "1001 running NULL NULL" \
    "1002 interrupted NULL NULL"; do
	set -- $b
	own="NULL, NULL"
	[ "$2" = running ] && own="'$(hostname)', $$"
	sq "$DB" "INSERT INTO bisects (id, state, created_at, finished_at,
	    link, knobs, tool, metric, good, bad, revisions, inventory_path,
	    plan_path, test_text, culprit, owner_host, owner_pid)
	    VALUES ($1, '$2', 1700000000000, $3, 'em', 'mtu=9000',
	    'iperf3', 'throughput_bps', 'r200000', 'r200003',
	    'r200000' || char(10) || 'r200001' || char(10) || 'r200002' ||
	    char(10) || 'r200003', '$C/inv.json', '$C/test.json', '$T',
	    $(if [ "$4" = NULL ]; then echo NULL; else echo "'$4'"; fi), $own)" ||
		fail "insert bisect $1"
done
refused 401 -X POST "$BASE/bisects/1000/reset"
refused 403 -H "$A" -X POST "$BASE/bisects/1000/reset"
refused 404 -H "$W" -X POST "$BASE/bisects/99999/reset"
refused 400 -H "$W" -X POST "$BASE/bisects/abc/reset"
refused 400 -H "$W" -d '{"force": true}' "$BASE/bisects/1000/reset"
refused 409 -H "$W" -X POST "$BASE/bisects/1001/reset"
jqb .error | grep -q "driven by" || fail "1001's 409: $(jqb .error)"
want 202 -H "$W" -X POST "$BASE/bisects/1000/reset"
is .bisect 1000 "reset 1000"
is .kind reset "reset 1000"
RI=$(jqb .queue)
case $(jqb .state) in queued|running) ;; *) fail "reset item: $(cat "$TMP/body")" ;; esac
[ "$(sq "$DB" "SELECT kind || ' ' || bisect_id || ' ' || who FROM queue_items WHERE id = $RI")" = "reset 1000 API token writer" ] ||
	fail "reset item $RI: $(sq "$DB" "SELECT * FROM queue_items WHERE id = $RI")"
# The daemon's worker resets it (a finished bisect: no host to put back).
i=0
while [ "$(sq "$DB" "SELECT state FROM queue_items WHERE id = $RI")" != done ]; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "reset item $RI not done: $(sq "$DB" "SELECT state, result FROM queue_items WHERE id = $RI")"
	sleep 0.1
done
[ "$(sq "$DB" "SELECT result FROM queue_items WHERE id = $RI")" = "bisect 1000 reset (was done)" ] ||
	fail "reset item's result: $(sq "$DB" "SELECT result FROM queue_items WHERE id = $RI")"
"$LABRAT" bisect status --bisect 1000 --db "$DB" >"$TMP/status" 2>&1 ||
	fail "bisect status 1000: $(cat "$TMP/status")"
grep -q "reset" "$TMP/status" || fail "bisect status: $(cat "$TMP/status")"
[ "$(sq "$DB" "SELECT state FROM bisects WHERE id = 1000")" = reset ] ||
	fail "bisect 1000 is not reset in the store"
refused 409 -H "$W" -X POST "$BASE/bisects/1000/reset"
refused 409 -H "$W" -d '{}' "$BASE/bisects/1001/reset"

# ---- bisect start ------------------------------------------------------------
BB=$(jq -cn --arg i "$C/inv.json" --arg t "$C/test.json" \
    --arg r "$C/history.json" '{link: "em", good: "r200000", bad: "r200300",
    test: $t, inventory: $i, revisions: $r, leave_on_culprit: true}')
bb() { printf '%s' "$BB" | jq -c "$1"; }
# A bisect a live controller drives on em: no second one.
refused 409 -H "$W" -d "$BB" "$BASE/bisects"
jqb .error | grep -q "bisect 1001 runs on link em" || fail "409 says: $(jqb .error)"
sq "$DB" "DELETE FROM bisects WHERE id = 1001"
refused 401 -d "$BB" "$BASE/bisects"
refused 403 -H "$A" -d "$BB" "$BASE/bisects"
for c in '.foo = 1|foo' '.replay = "/x.log"|replay' 'del(.link)|link' \
    '.link = "em;id"|link' '.link = ["em"]|link' '.link = "nosuch"|link' \
    'del(.good)|good' '.good = "r1"|good' '.good = "-rf"|good' \
    '.good = "r1 r2"|good' '.bad = 5|bad' 'del(.test)|test' \
    '.test = "test.json"|test' ".test = \"$C/none.json\"|test" \
    '.inventory = "inv.json"|inventory' \
    ".inventory = \"$C/none.json\"|inventory" \
    '.revisions = "history.json"|revisions' '.revisions = "git:r"|revisions' \
    ".revisions = \"$C/none\"|revisions" '.leave_on_culprit = 1|leave_on_culprit' \
    '.note = ""|note'; do
	refused 400 -H "$W" -d "$(bb "${c%|*}")" "$BASE/bisects"
	names "${c#*|}" "bisects ${c%|*}"
done
# The daemon's inventory does not exist: without "inventory" it is the
# daemon's that is read (and refused).
refused 400 -H "$W" -d "$(bb 'del(.inventory)')" "$BASE/bisects"
jqb .error | grep -q "no-inventory.json" || fail "default inventory: $(jqb .error)"
want 200 -H "$W" -d '{"on": true, "why": "api_mut"}' "$BASE/hosts/em/maintenance"
refused 409 -H "$W" -d "$BB" "$BASE/bisects"
jqb .error | grep -q "maintenance" || fail "409 says: $(jqb .error)"
# Nor is an interrupted bisect's reset queued (its hosts are reinstalled).
refused 409 -H "$W" -X POST "$BASE/bisects/1002/reset"
jqb .error | grep -q "link em is maintenance" || fail "reset 1002's 409: $(jqb .error)"
want 200 -H "$W" -d '{"on": false, "why": "api_mut"}' "$BASE/hosts/em/maintenance"
want 201 -H "$W" -d "$(bb '.note = "from the API"')" "$BASE/bisects"
ITEM=$(jqb .queue)
is .kind bisect "POST bisects"
(cd "$C" && "$LABRAT" bisect start --db "$DB" --inventory inv.json \
    --link em --good r200000 --bad r200300 --test test.json \
    --revisions history.json --leave-on-culprit --enqueue) >/dev/null 2>&1 ||
	fail "labrat bisect start --enqueue"
CLI=$(sq "$DB" "SELECT max(id) FROM queue_items")
[ "$CLI" -gt "$ITEM" ] || fail "no CLI item after $ITEM"
# Alike but for the API's note.
pay() { sq "$DB" "SELECT kind || ' ' || priority || ' ' || payload FROM queue_items WHERE id = $1"; }
[ "$(pay "$ITEM" | sed 's/,"note":"from the API"//')" = "$(pay "$CLI")" ] ||
	fail "the API's item differs from bisect start --enqueue's: $(pay "$ITEM") / $(pay "$CLI")"
"$LABRAT" queue --db "$DB" --format json >"$TMP/queue" || fail "labrat queue"
jq -e --argjson i "$ITEM" '.items[] | select(.id == $i) | .kind == "bisect"' \
    "$TMP/queue" >/dev/null || fail "labrat queue: $(cat "$TMP/queue")"
# The daemon's worker tries them on hosts that do not exist; cancel what
# it has not claimed yet.
for it in "$ITEM" "$CLI"; do
	req "$TMP/body" -H "$W" -X DELETE "$BASE/queue/$it"
	case $CODE in 200|409) ;; *) fail "DELETE queue/$it: $CODE" ;; esac
done

want 200 -H "$A" "$BASE/status"
kill -0 "$SPID" || fail "the daemon died"
api_stop
echo "api_mut: ok"
