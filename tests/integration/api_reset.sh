#!/bin/sh
# POST /api/v1/bisects/{id}/reset through the daemon's queue, on the
# shared simulated lab's em link (its hosts rebooted into another revision
# and back: left as found).  Two running bisects whose controller died
# (rows as hunt stores them: the lab's inventory and configs/bisect/em.json
# as their texts): A ran after R1, B after R0 (R0 what em runs now, R1 the
# revision before it).
# - A's reset answers 202 with a reset item; the daemon is SIGKILLed once
#   its worker installed R1 (mid-reset: the reboot not waited for, the
#   bisect not reset); meanwhile the crash window after a reset is marked
#   but before its item finished is stood for by a running item of a dead
#   daemon for a bisect reset already (C).  The restarted daemon claims
#   both again: A is reset once (attempt 2, its hosts on R1, the item done
#   with what became of them), C's item is done without resetting C again;
# - `labrat bisect reset --server` of B prints its queue item, and the
#   worker puts the hosts back on R0; a reset bisect is refused (409).
# ctest: shared-lab
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=apix$$
. "$(dirname "$0")/lib/run.sh"
. "$(dirname "$0")/lib/api.sh"
trap 'api_kill; run_cleanup' EXIT
command -v curl >/dev/null || { echo "SKIP: curl missing" >&2; exit 77; }

lab_up
H=$STATE/hosts
R0=$(cat "$H/em-a/running") || fail "em-a's revision"
[ "$(cat "$H/em-b/running")" = "$R0" ] || fail "em-a and em-b run apart"
R1=$(jq -r --arg r "$R0" '[.revisions[].id] | .[index($r) - 1]' \
    "$SIMLAB_SRC/configs/simlab/history.json")
case $R1 in r[0-9]*) ;; *) fail "no revision before $R0: $R1" ;; esac
note "em runs $R0; the bisects ran after $R1 (A), $R0 (B)"

DB=$TMP/r.db
"$LABRAT" db migrate --db "$DB" >/dev/null 2>&1 || fail "db migrate"
RW=$("$LABRAT" token add writer --db "$DB" 2>/dev/null) || fail "token add"
(umask 077 && printf '%s\n' "$RW" >"$TMP/rw")
W="Authorization: Bearer $RW"
sh -c 'exit 0' &
DEAD=$!
wait $DEAD
IT=$(sed "s/'/''/g" "$INV")
TT=$(sed "s/'/''/g" "$LABRAT_SOURCE_DIR/configs/bisect/em.json")
# bisect ID STATE BEFORE: a bisect on em, driven by a dead controller.
bisect() {
	sq "$DB" "INSERT INTO bisects (id, state, created_at, link, knobs,
	    tool, metric, good, bad, revisions, inventory_path, plan_path,
	    inventory_text, test_text, client_before, server_before,
	    owner_host, owner_pid) VALUES ($1, '$2', 1700000000000, 'em',
	    'mtu=9000', 'iperf3', 'throughput_bps', '$R1', '$R0',
	    '$R1' || char(10) || '$R0', '$INV', '/etc/labrat/em.json', '$IT',
	    '$TT', '$3', '$3', '$(hostname)', $DEAD)" || fail "insert bisect $1"
}
bisect 1 running "$R1"
bisect 2 running "$R0"
bisect 3 reset "$R1"
sq "$DB" "UPDATE bisects SET finished_at = 1700000000500, reason = 'reset
    by the attempt its daemon died after' WHERE id = 3"
jqb() { jq -r "$1" "$TMP/body"; }
item() { sq "$DB" "SELECT $2 FROM queue_items WHERE id = $1"; }
# done_within ITEM S: the item is done (else fail with its state, result).
done_within() {
	_i=0
	while [ "$(item "$1" state)" != done ]; do
		_i=$((_i + 1))
		[ $_i -le $(($2 * 10)) ] ||
		    fail "item $1 not done in $2 s: $(item "$1" "state || ': ' || COALESCE(result, '')")"
		sleep 0.1
	done
}

api_serve srv "$DB" '{"reads": "token"}'
want 202 -H "$W" -X POST "$BASE/bisects/1/reset"
[ "$(jqb '[.kind, .bisect] | @tsv')" = "reset	1" ] ||
	fail "reset 1: $(cat "$TMP/body")"
A=$(jqb .queue)
# The worker installs R1 on both hosts, then reboots them: kill it there
# (on a lab no test used yet, after building the agent on both hosts).
wait_log "$H/em-b/installed" "$R1" 120 ||
	fail "the worker did not install $R1: $(item "$A" "state || ' ' || COALESCE(result, '')")"
kill -9 "$SPID"
wait "$SPID" 2>/dev/null
SPID=
[ "$(item "$A" "state || ' ' || attempts")" = "running 1" ] ||
	fail "item $A after the kill: $(item "$A" "state || ' ' || attempts")"
[ "$(sq "$DB" "SELECT state FROM bisects WHERE id = 1")" = running ] ||
	fail "bisect 1 reset before its hosts were back"
# C: an attempt that marked bisect 3 reset, then its daemon died.
sq "$DB" "INSERT INTO queue_items (id, kind, priority, state, payload, who,
    owner, owner_host, owner_pid, bisect_id, enqueued_at, started_at,
    attempts) VALUES (100, 'reset', 200, 'running', '{\"bisect\": 3}',
    'API token writer', '$(hostname):$DEAD', '$(hostname)', $DEAD, 3,
    1700000000000, 1700000000000, 1)"
B3=$(sq "$DB" "SELECT finished_at || ' ' || reason FROM bisects WHERE id = 3")

api_serve srv "$DB" '{"reads": "token"}'
done_within "$A" 20
done_within 100 5
[ "$(item "$A" attempts)" = 2 ] || fail "item $A: attempts $(item "$A" attempts)"
[ "$(item "$A" result)" = "bisect 1 reset (was running); em-a, em-b back on $R1" ] ||
	fail "item $A: $(item "$A" result)"
[ "$(sq "$DB" "SELECT state FROM bisects WHERE id = 1")" = reset ] ||
	fail "bisect 1 not reset"
for h in em-a em-b; do
	[ "$(cat "$H/$h/running")" = "$R1" ] ||
		fail "$h runs $(cat "$H/$h/running"), not $R1"
done
[ "$(item 100 "attempts || ' ' || result")" = "2 bisect 3 was reset already (by an earlier attempt of this item)" ] ||
	fail "item 100: $(item 100 "attempts || ' ' || result")"
# hunt_reset() was not called again (it stamps the bisect it resets).
[ "$(sq "$DB" "SELECT finished_at || ' ' || reason FROM bisects WHERE id = 3")" = "$B3" ] ||
	fail "item 100 reset bisect 3 again: $(sq "$DB" "SELECT finished_at || ' ' || reason FROM bisects WHERE id = 3")"
want 409 -H "$W" -X POST "$BASE/bisects/1/reset"

# B through the CLI: the hosts back on R0, as the lab was.
"$LABRAT" --server "${BASE%/api/v1}" --token-file "$TMP/rw" bisect reset \
    --bisect 2 >"$TMP/cli.out" 2>"$TMP/cli.err" ||
	fail "bisect reset --server: $(cat "$TMP/cli.err")"
B=$(sq "$DB" "SELECT max(id) FROM queue_items WHERE kind = 'reset' AND bisect_id = 2")
grep -qx "labrat: bisect 2 reset: queue item $B (queued; \`labrat queue\` shows how it ends)" \
    "$TMP/cli.err" || fail "bisect reset --server said: $(cat "$TMP/cli.err")"
done_within "$B" 20
[ "$(item "$B" result)" = "bisect 2 reset (was running); em-a, em-b back on $R0" ] ||
	fail "item $B: $(item "$B" result)"
for h in em-a em-b; do
	[ "$(cat "$H/$h/running")" = "$R0" ] ||
		fail "$h runs $(cat "$H/$h/running"), not $R0"
done
api_stop
echo "api_reset: ok"
