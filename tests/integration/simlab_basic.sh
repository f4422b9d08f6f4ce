#!/bin/sh
# Simulated lab: up/down (timed, not bounded), every host reachable with strict host-key
# checking under its own hostname, isolation, ~950 Mbit/s per pair, the
# inventory passes `labrat config check`, and down leaves nothing behind.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=sbasic$$
trap lab_down EXIT

t0=$(now_ms)
lab_up
t1=$(now_ms)
# Up and down times are printed; their target (2 s each) is checked by
# `bench/run_bench.sh lab`, not here: a loaded CI machine took 2.46 s.
note "up: $((t1 - t0)) ms"

# A second up of the same lab refuses.
if "$LABRAT" lab up --name "$LAB" >/dev/null 2>&1; then
	fail "second lab up --name $LAB succeeded"
fi
"$LABRAT" lab status --name "$LAB" | grep "em-a .*r200399 .*up .*listening" >/dev/null ||
    fail "status does not show em-a up at r200399"

# The inventory is a valid labrat inventory.
"$LABRAT" config check "$INV" >/dev/null || fail "config check $INV failed"
[ "$(jq '.hosts | length' "$INV")" -eq 4 ] || fail "want 4 hosts"
[ "$(jq -r '.links[1].nat' "$INV")" = bce-a ] || fail "bce link has no nat host"

for h in em-a em-b bce-a bce-b; do
	a=$(mgmt_of "$h")
	out=$(lab_ssh "$a" 'hostname; cat /proc/version; ip route; /work/bogus 2>/dev/null; id -u') ||
	    fail "ssh root@$a ($h) failed"
	echo "$out" | head -1 | grep -qx "$h" || fail "$a says hostname '$(echo "$out" | head -1)', want $h"
	echo "$out" | grep -q "^Linux version .* r200399 " || fail "$h: /proc/version lacks r200399"
	echo "$out" | grep -q "^default" && fail "$h has a default route"
	[ "$(lab_ssh "$a" "$STATE/bin/host revision")" = r200399 ] ||
	    fail "$h: host revision is not r200399"
done
note "4 hosts reachable with strict host-key checking"

# Per-host private state: a file in one host's /var/lib/labrat is not in another's.
lab_ssh "$(mgmt_of em-a)" 'echo x > /var/lib/labrat/marker; echo y > /tmp/marker' ||
    fail "write on em-a"
lab_ssh "$(mgmt_of em-b)" 'test ! -e /var/lib/labrat/marker && test ! -e /tmp/marker' ||
    fail "em-a's /var/lib/labrat or /tmp is visible on em-b"
[ ! -e /var/lib/labrat/marker ] || fail "em-a's /var/lib/labrat leaked to the machine"

# Management ports are isolated: em-a cannot reach em-b's management address.
if ip netns exec "$LAB-em-a" ping -c1 -W1 "$(mgmt_of em-b)" >/dev/null 2>&1; then
	fail "em-a reaches em-b over the management bridge"
fi
ip route | grep -q "^unreachable 198.18.0.0/15" || fail "no unreachable route"

for l in em bce; do
	c=$(jq -r --arg l $l '.links[] | select(.name == $l) | .client.host' "$INV")
	s=$(jq -r --arg l $l '.links[] | select(.name == $l) | .server.host' "$INV")
	sa=$(jq -r --arg l $l '.links[] | select(.name == $l) | .server.address' "$INV")
	r=$(iperf_best 3 "$c" "$s" "$sa")
	note "iperf3 $l ($c -> $s): $r Mbit/s"
	# The link is shaped to exactly 1 Gbit/s; the traffic nears it (the
	# lower bound leaves room for a loaded machine: ~950 when quiet).
	rate_is "$c" 1000000 1000000
	near "$r" 800 1000 || fail "$l: $r Mbit/s, want ~950"
done

bridge=$(ip -o link show master "$(ip -o link | awk -F': ' '$2 ~ /br$/ {print $2}' | grep "^sbasic" | head -1)" 2>/dev/null | wc -l)
[ "$bridge" -eq 4 ] || fail "want 4 bridge ports, found $bridge"

t0=$(now_ms)
out=$("$LABRAT" lab down --name "$LAB") || fail "lab down failed"
t1=$(now_ms)
case $out in
"lab $LAB: removed 4 host namespaces, "*", state /run/labrat-lab/$LAB") ;;
*) fail "lab down said '$out'" ;;
esac
note "down: $((t1 - t0)) ms"

# Nothing is left.
ip netns list | grep -q "^$LAB-" && fail "namespaces left: $(ip netns list | grep "^$LAB-")"
ip -o link | grep -q "sbasic" && fail "interfaces left"
ip route | grep -q "sbasic" && fail "routes left"
[ -e "/run/labrat-lab/$LAB" ] && fail "state dir left"
pgrep -f "labrat-lab/$LAB/" >/dev/null && fail "processes left: $(pgrep -af "labrat-lab/$LAB/")"
pgrep -f -- "--name $LAB\$" >/dev/null && fail "helpers left: $(pgrep -af -- "--name $LAB\$")"
out=$("$LABRAT" lab down --name "$LAB") || fail "second down is not idempotent"
[ "$out" = "lab $LAB: nothing to remove (no lab of that name)" ] ||
    fail "second down said '$out'"
out=$("$LABRAT" lab status --name "$LAB" 2>&1) && fail "status of no lab exited 0"
case $out in
*"lab $LAB: not running"*) ;;
*) fail "status of no lab said '$out'" ;;
esac

# A crashed, half-finished up: namespaces and a bridge but no state dir.
TAGBR=$(ip -o link | awk -F': ' '{print $2}' | grep -c . )
ip netns add "$LAB-em-a" && ip netns add "$LAB-bce-b" || fail "netns add"
ip netns exec "$LAB-em-a" sleep 30 &
sleep 0.2
out=$("$LABRAT" lab down --name "$LAB") || fail "down after crash failed"
case $out in
"lab $LAB: removed 2 host namespaces, "*) ;;
*) fail "down after a crash said '$out'" ;;
esac
ip netns list | grep -q "^$LAB-" && fail "down after a crash left namespaces"
wait
[ "$(ip -o link | awk -F': ' '{print $2}' | grep -c .)" -eq "$TAGBR" ] || fail "link count changed"

# A slow lab (--rate 10): the shaper's burst is 10 ms of the rate (12.5 kB,
# not 1 Gbit/s's 128 kB), so 1 s iperf3 jobs stay within 2 % of the link's
# 10 Mbit/s and pass labrat's plausibility check (with 128 kB three of four
# such jobs came out 3-5 % above the rate and failed as implausible).
lab_up --rate 10 --noise 0
tc -n "$LAB-em-a" qdisc show | grep -q "rate 10Mbit burst 12500b" ||
    fail "--rate 10: em-a's tbf is $(tc -n "$LAB-em-a" qdisc show)"
cat > "$STATE/slow.json" <<EOF
{ "links": ["em"], "knobs": { "tso": [true, false] },
  "workloads": [ { "tool": "iperf3", "time": 1 } ], "repetitions": 2,
  "retries": 0, "stats": { "adaptive": false } }
EOF
"$LABRAT" run --db "$STATE/slow.db" --inventory "$INV" \
    --plan "$STATE/slow.json" >"$STATE/slow.out" 2>&1 ||
	fail "--rate 10: run failed: $(tail -5 "$STATE/slow.out")"
grep -q "4 jobs, 4 done" "$STATE/slow.out" ||
    fail "--rate 10: not all done: $(tail -5 "$STATE/slow.out")"
lab_down
echo "PASS"
