#!/bin/sh
# Link health on the simulated lab (labrat hosts check | health |
# maintenance), on the em pair:
# - with an inventory that declares what the hosts report (driver veth, no
#   chip) the pair goes unknown -> good with a figure and no warning;
# - em-b's sshd stopped: good -> bad with a why naming em-b, exit 1, not
#   usable;
# - em-b back (power-cycle): bad -> good after a passing check, its path
#   also checked at MTU 9000 (--jumbo: a second job, done);
# - the lab's own inventory declares driver em and a chip the hosts do
#   not report: a warning, and the pair stays good;
# - maintenance on: the check does not touch the pair (no new run, not a
#   byte more in either host's sshd log, so nothing connected); off ->
#   unknown;
# - every transition is in `hosts health --format json` with who and why.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=hlth$$
. "$(dirname "$0")/lib/run.sh"

lab_up --boot-seconds 0.3
DB=$TMP/db.sqlite
T0=$(now_ms)

# The lab's inventory, the em hosts declaring what they report.
jq 'del(.revisions) | .hosts |= map(if (.name | startswith("em-"))
    then .nics[0].driver = "veth" | del(.nics[0].chip) else . end)' \
    "$INV" > "$TMP/inv.json" || fail "jq inventory"

check() {	# check NAME ARGS...: labrat hosts check, output in $TMP/NAME.*
	_n=$1
	shift
	"$LABRAT" hosts check --db "$DB" --link em "$@" >"$TMP/$_n.out" \
	    2>"$TMP/$_n.err"
	RC=$?
}
health() {	# health JQ: a value of `hosts health --format json`
	"$LABRAT" hosts health --db "$DB" --format json | jq -r "$1"
}
runs() {
	sq "$DB" "SELECT count(*) FROM runs WHERE kind = 'health'"
}

# --- a good pair: unknown -> good with a figure, no warning
check first --inventory "$TMP/inv.json"
[ "$RC" -eq 0 ] || fail "first: exit $RC: $(cat "$TMP/first.out" "$TMP/first.err")"
grep -q '^em: unknown -> good: check passed: [0-9]* Mbit/s' "$TMP/first.out" ||
    fail "first: $(cat "$TMP/first.out")"
! grep -q warning "$TMP/first.out" || fail "first: a warning: $(cat "$TMP/first.out")"
fig=$(health '.links[] | select(.link == "em") | .last_good_bps')
near "$fig" 500e6 1.2e9 || fail "first: last good figure $fig"
[ "$(health '.links[0].state + " " + (.links[0].last_check_ok | tostring) + " " + (.links[0].usable | tostring)')" = "good true true" ] ||
    fail "first: $(health '.links[0]')"
note "unknown -> good at $(echo "$fig" | awk '{ printf "%d", $1 / 1e6 }') Mbit/s ($(( $(now_ms) - T0 )) ms, agent deployed)"

# --- em-b's sshd stopped: bad, naming em-b
# shellcheck disable=SC2046
kill -9 $(ns_procs em-b sshd)
T1=$(now_ms)
check down --inventory "$TMP/inv.json"
[ "$RC" -eq 1 ] || fail "down: exit $RC: $(cat "$TMP/down.out" "$TMP/down.err")"
grep -q '^em: good -> bad: .*em-b' "$TMP/down.out" || fail "down: $(cat "$TMP/down.out")"
[ "$(health '.links[0].state + " " + (.links[0].usable | tostring)')" = "bad false" ] ||
    fail "down: $(health '.links[0]')"
health '.links[0].why' | grep -q "em-b" || fail "down: why $(health '.links[0].why')"
[ "$(health '.links[0].last_good_bps')" = "$fig" ] || fail "down: the last good figure changed"
note "sshd of em-b stopped: good -> bad in $(( $(now_ms) - T1 )) ms: $(health '.links[0].why')"

# --- em-b back: bad -> good after a passing check (path at MTU 9000 too)
"$LABRAT" lab power-cycle --name "$LAB" --host em-b >/dev/null || fail "power-cycle em-b"
wait_ssh em-b 15 || fail "em-b did not come back"
check back --inventory "$TMP/inv.json" --jumbo
[ "$RC" -eq 0 ] || fail "back: exit $RC: $(cat "$TMP/back.out" "$TMP/back.err")"
grep -q '^em: bad -> good: check passed' "$TMP/back.out" || fail "back: $(cat "$TMP/back.out")"
last=$(health '.links[0].last_run')
[ "$(sq "$DB" "SELECT group_concat(state || ':' || COALESCE(knobs, ''), ' ') FROM jobs WHERE run_id = $last")" = "done: done:mtu=9000" ] ||
    fail "back: jobs $(sq "$DB" "SELECT state, knobs, reason FROM jobs WHERE run_id = $last")"
check_links_restored
note "em-b back: bad -> good, path checked at MTU 9000, hosts restored"

# --- the lab's inventory declares driver em: a warning, still good (and
# the sshd logs show a check's connections: the maintenance proof below
# can fail)
logs() {
	cat "$STATE/hosts/em-a/sshd.log" "$STATE/hosts/em-b/sshd.log" | cksum
}
sum=$(logs)
check mismatch --inventory "$INV"
[ "$(logs)" != "$sum" ] || fail "mismatch: a check left no trace in the sshd logs"
[ "$RC" -eq 0 ] || fail "mismatch: exit $RC: $(cat "$TMP/mismatch.out" "$TMP/mismatch.err")"
grep -q '^em: good -> good: check passed' "$TMP/mismatch.out" ||
    fail "mismatch: $(cat "$TMP/mismatch.out")"
grep -q '^  em: warning: em-a em0: the host reports driver veth, the inventory declares em' \
    "$TMP/mismatch.out" || fail "mismatch: no warning: $(cat "$TMP/mismatch.out")"
health '.links[0].warnings[]' | grep -q "em-b em0: the host reports driver veth, the inventory declares em" ||
    fail "mismatch: warnings $(health '.links[0].warnings')"
note "declared driver em, reported veth: a warning, good stays good"

# --- maintenance: the check touches nothing; off -> unknown
"$LABRAT" hosts maintenance em on --why "recabling em" --db "$DB" >"$TMP/m.out" ||
    fail "maintenance on"
[ "$(cat "$TMP/m.out")" = "em: good -> maintenance" ] || fail "maintenance on: $(cat "$TMP/m.out")"
n=$(runs)
sum=$(logs)
check maint --inventory "$TMP/inv.json" --jumbo
[ "$RC" -eq 0 ] || fail "maint: exit $RC: $(cat "$TMP/maint.out" "$TMP/maint.err")"
grep -q '^em: maintenance -> maintenance: maintenance since .*not checked (recabling em)' \
    "$TMP/maint.out" || fail "maint: $(cat "$TMP/maint.out")"
[ "$(runs)" = "$n" ] || fail "maint: a health run was created"
[ "$(logs)" = "$sum" ] ||
    fail "maint: something connected to em-a or em-b: $(tail -n 3 "$STATE/hosts/em-a/sshd.log" "$STATE/hosts/em-b/sshd.log")"
"$LABRAT" hosts maintenance em off --db "$DB" >/dev/null 2>&1 && fail "off without --why worked"
"$LABRAT" hosts maintenance em off --why "cables in" --db "$DB" >"$TMP/m.out" ||
    fail "maintenance off"
[ "$(cat "$TMP/m.out")" = "em: maintenance -> unknown" ] || fail "maintenance off: $(cat "$TMP/m.out")"
"$LABRAT" hosts maintenance em off --why "again" --db "$DB" 2>/dev/null && fail "off twice worked"
note "maintenance: no run, no SSH connection; off -> unknown"

# --- the log: every transition with who and why, newest first
tr=$(health '[.transitions[] | .from + ">" + .to] | join(" ")')
[ "$tr" = "maintenance>unknown good>maintenance bad>good good>bad unknown>good" ] ||
    fail "transitions: $tr"
health '.transitions[0].who' | grep -q "@.* pid [0-9]" || fail "who: $(health '.transitions[0].who')"
[ "$(health '.transitions[1].why')" = "recabling em" ] || fail "why: $(health '.transitions[1].why')"
"$LABRAT" hosts health --db "$DB" | grep -q '^em  *unknown ' || fail "text: $("$LABRAT" hosts health --db "$DB")"
note "5 transitions logged; whole test $(( $(now_ms) - T0 )) ms"
echo "PASS health_lab"
