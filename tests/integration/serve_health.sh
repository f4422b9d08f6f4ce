#!/bin/sh
# labrat serve's health checks, on the simulated lab, with a live daemon
# whose config serves the lab's inventory (health.interval_h a few
# seconds) and posts to a real webhook listener (build/hooksink):
# - bce is put in maintenance before the daemon starts: it is never
#   checked (no job on it, not a byte more in its hosts' sshd logs) and a
#   `labrat run --enqueue` on it is not driven (its item fails naming bce
#   and "maintenance");
# - em, never checked, is checked by the daemon: unknown -> good;
# - em-b's sshd stopped: the next check sets em bad; exactly one pair-bad
#   notification reaches the hooksink, although later checks fail too;
#   a `labrat run --enqueue` on em is not driven (no run, item failed
#   naming em and "bad");
# - em-b back (power-cycle): bad -> good at the next check, still one
#   notification; a run on em is driven again.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=svhl$$
. "$(dirname "$0")/lib/run.sh"
: "${LABRAT_HOOKSINK:?}"

lab_up --boot-seconds 0.3
DB=$TMP/db.sqlite
CONF=$TMP/daemon.json
T0=$(now_ms)

# The lab's inventory, the em hosts declaring what they report (no
# warning in the checks).
jq 'del(.revisions) | .hosts |= map(if (.name | startswith("em-"))
    then .nics[0].driver = "veth" | del(.nics[0].chip) else . end)' \
    "$INV" > "$TMP/inv.json" || fail "jq inventory"

mkdir "$TMP/hook"
"$LABRAT_HOOKSINK" --dir "$TMP/hook" --lifetime 300 >"$TMP/hook.port" \
    2>"$TMP/hook.err" &
HPID=$!
i=0
while [ ! -s "$TMP/hook.port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$TMP/hook.port" ] || fail "hooksink printed no port"
# interval_h 0.0015: a check every ~5 s
cat >"$CONF" <<EOF
{
  "inventories": ["$TMP/inv.json"],
  "notify": { "webhooks": [ { "url": "http://127.0.0.1:$(cat "$TMP/hook.port")/labrat", "timeout_s": 5 } ] },
  "health": { "interval_h": 0.0015, "iperf_seconds": 1, "tolerance": 0.5 }
}
EOF
cat > "$TMP/plan.json" <<'PEOF'
{
  "links": ["em"],
  "workloads": [ { "tool": "iperf3", "time": 1 } ],
  "repetitions": 1,
  "timeouts": { "connect": 3, "job": 20 },
  "retries": 0,
  "stats": { "adaptive": false }
}
PEOF
sed 's/"em"/"bce"/' "$TMP/plan.json" > "$TMP/plan-bce.json"

SPID=
sh_cleanup() {
	[ -n "$SPID" ] && kill -9 "$SPID" 2>/dev/null
	kill "$HPID" 2>/dev/null
	run_cleanup
}
trap sh_cleanup EXIT

bce_logs() {
	cat "$STATE/hosts/bce-a/sshd.log" "$STATE/hosts/bce-b/sshd.log" | cksum
}
hooks() { find "$TMP/hook" -name '*.body' | wc -l; }
item() {	# item ID: state|result
	sq "$DB" "SELECT state || '|' || COALESCE(result, '') FROM queue_items WHERE id = $1"
}
enqueue() {	# enqueue PLAN: prints the item id
	"$LABRAT" run --enqueue --db "$DB" --inventory "$TMP/inv.json" \
	    --plan "$1" >"$TMP/enq.out" 2>&1 || fail "run --enqueue: $(cat "$TMP/enq.out")"
	grep -o '[0-9][0-9]*' "$TMP/enq.out" | head -n 1
}
wait_item() {	# wait_item ID SECONDS: until it is done or failed
	i=0
	while [ $i -lt $(($2 * 10)) ]; do
		case $(item "$1") in done*|failed*) return 0 ;; esac
		sleep 0.1; i=$((i + 1))
	done
	return 1
}

"$LABRAT" hosts maintenance bce on --why "recabling bce" --db "$DB" >/dev/null ||
    fail "maintenance on"
bsum=$(bce_logs)
"$LABRAT" serve --db "$DB" --config "$CONF" --log-level debug 2>"$TMP/d.err" &
SPID=$!
wait_log "$TMP/d.err" "serving $DB" 20 || fail "not serving: $(cat "$TMP/d.err")"

# --- em, never checked: unknown -> good
wait_log "$TMP/d.err" "link em unknown -> good" 40 ||
    fail "em not checked good: $(grep -i 'health\|item' "$TMP/d.err" | tail -n 20)"
note "em unknown -> good by the daemon ($(( $(now_ms) - T0 )) ms)"

# --- bce in maintenance: a run on it is not driven
B=$(enqueue "$TMP/plan-bce.json")
wait_item "$B" 30 || fail "bce item: $(item "$B")"
case $(item "$B") in
failed*"link bce is maintenance"*) ;;
*) fail "bce item: $(item "$B")" ;;
esac
[ "$(sq "$DB" "SELECT COALESCE(run_id, 0) FROM queue_items WHERE id = $B")" = 0 ] ||
    fail "bce item made a run"

# --- em-b's sshd stopped: good -> bad, notified once
# shellcheck disable=SC2046
kill -9 $(ns_procs em-b sshd)
T1=$(now_ms)
wait_log "$TMP/d.err" "link em good -> bad" 40 ||
    fail "em not bad: $(grep -i 'health\|item' "$TMP/d.err" | tail -n 20)"
note "em-b sshd stopped: good -> bad in $(( $(now_ms) - T1 )) ms"
i=0
while [ "$(hooks)" -lt 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(hooks)" -eq 1 ] || fail "$(hooks) webhooks after em went bad"
jq -e '.kind == "pair_bad" or .kind == "pair-bad" or (tostring | test("em-b"))' \
    "$TMP/hook/1.body" >/dev/null || fail "webhook: $(cat "$TMP/hook/1.body")"
grep -q "em-b" "$TMP/hook/1.body" || fail "webhook names no em-b: $(cat "$TMP/hook/1.body")"
R=$(enqueue "$TMP/plan.json")
wait_item "$R" 30 || fail "em item: $(item "$R")"
case $(item "$R") in
failed*"link em is bad"*) ;;
*) fail "em item while bad: $(item "$R")" ;;
esac
[ "$(sq "$DB" "SELECT COALESCE(run_id, 0) FROM queue_items WHERE id = $R")" = 0 ] ||
    fail "the em item made a run while em was bad"
# Checked again while bad (bad -> bad): no second notification.
wait_log "$TMP/d.err" "link em bad -> bad" 30 || fail "em not checked again"
sleep 1
[ "$(hooks)" -eq 1 ] || fail "$(hooks) webhooks: a bad link notified twice"

# --- em-b back: bad -> good at the next check; runs are driven again
"$LABRAT" lab power-cycle --name "$LAB" --host em-b >/dev/null || fail "power-cycle em-b"
wait_ssh em-b 15 || fail "em-b did not come back"
wait_log "$TMP/d.err" "link em bad -> good" 40 ||
    fail "em not good again: $(grep -i 'health\|item' "$TMP/d.err" | tail -n 20)"
R=$(enqueue "$TMP/plan.json")
wait_item "$R" 60 || fail "em item: $(item "$R")"
case $(item "$R") in
done*) ;;
*) fail "em item after it came back: $(item "$R")" ;;
esac
[ "$(hooks)" -eq 1 ] || fail "$(hooks) webhooks at the end"
note "em-b back: bad -> good, a run on em driven, one notification in all"

# --- bce never touched
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE link = 'bce'")" -eq 0 ] ||
    fail "a job ran on bce in maintenance"
[ "$(bce_logs)" = "$bsum" ] ||
    fail "something connected to bce's hosts: $(tail -n 3 "$STATE/hosts/bce-a/sshd.log")"
kill -TERM "$SPID"
wait "$SPID" || fail "daemon exit $?: $(tail -n 5 "$TMP/d.err")"
SPID=
check_links_restored
note "bce in maintenance: no job, no SSH connection; whole test $(( $(now_ms) - T0 )) ms"
echo "PASS serve_health"
