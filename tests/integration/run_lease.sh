#!/bin/sh
# Two controllers on one simulated lab, each with its own database: the
# host lease on the hosts keeps them apart.
# - `labrat run` as controller "ctl1" (its own UTS namespace: another
#   machine's host name), a second `labrat run` 3 s later: the second
#   fails fast, naming the host and ctl1 ("em-a: leased by ctl1 pid N run 1
#   since HH:MM, expires HH:MM"); ctl1's jobs all land, every sample at
#   most the 1 Gbit/s link's speed;
# - ctl1 SIGKILLed while it holds the hosts (LABRAT_LEASE_TTL=6, no knob
#   applied yet): a run at once is refused, one after the ttl proceeds;
# - ctl1 SIGKILLed mid-job (em-a left at MTU 9000): `labrat hosts` still
#   shows the facts and the holder, a run and a bisect are refused, `labrat hosts
#   release HOST --force` frees both hosts, the next run proceeds and the
#   hosts end with their original settings;
# - a run whose bce link has no job in the last adaptive round: bce's
#   hosts, restored and released at their link's end, are not restored
#   again without a lease, and the run ends ok.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=lease$$
. "$(dirname "$0")/lib/run.sh"

lab_up

cat > "$TMP/plan.json" <<'EOF'
{
  "links": ["em"],
  "knobs": { "tso": [true, false], "mtu": [1500] },
  "workloads": [ { "tool": "iperf3", "time": 2 } ],
  "repetitions": 2,
  "timeouts": { "connect": 5, "job": 20 },
  "retries": 1,
  "stats": { "adaptive": false }
}
EOF
jq '.knobs.mtu = [9000, 1500] | .repetitions = 1' "$TMP/plan.json" > "$TMP/plan9k.json"
jq '.repetitions = 1' "$TMP/plan.json" > "$TMP/short.json"	# 2 jobs

# ctl1 OUT DB PLAN: labrat run as controller host "ctl1", in the background
# (RUN_PID: the labrat process itself, exec'd by the shell unshare runs).
ctl1() {
	unshare -u sh -c 'hostname ctl1 && exec "$0" run --db "$1" --inventory "$2" --plan "$3"' \
	    "$LABRAT" "$2" "$INV" "$3" >"$1.out" 2>"$1.err" &
	RUN_PID=$!
}

# refused OUT DB: a run that must fail fast naming an em host and ctl1.
refused() {
	t0=$(now_ms)
	"$LABRAT" run --db "$2" --inventory "$INV" --plan "$TMP/plan.json" \
	    >"$1.out" 2>"$1.err"
	_rc=$?
	_ms=$(( $(now_ms) - t0 ))
	[ $_rc -ne 0 ] || fail "$1: a second controller's run was accepted: $(cat "$1.out")"
	[ $_ms -lt 15000 ] || fail "$1: took $_ms ms to fail, not fast"
	grep -q "em-[ab]: leased by ctl1 pid $3 run [0-9]* since [0-9][0-9]:[0-9][0-9], expires [0-9][0-9]:[0-9][0-9]" "$1.err" ||
	    fail "$1: the refusal does not name the host and ctl1 pid $3: $(cat "$1.err")"
	note "$(basename "$1"): refused in $_ms ms: $(grep -m1 -o 'em-[ab]: leased by.*' "$1.err")"
}

# lease_of HOST: the owner token in HOST's lease file ("" when none).
lease_of() {
	jq -r '.owner // ""' "$STATE/hosts/$1/var-lib-labrat/lease/lease.json" 2>/dev/null
}

# The agents built first (read-only, no lease), so that both controllers
# start at once and the first to start is the first to hold the hosts.
"$LABRAT" hosts --inventory "$INV" >"$TMP/hosts0.out" 2>&1 ||
    fail "hosts: $(cat "$TMP/hosts0.out")"
! grep -q "leased" "$TMP/hosts0.out" || fail "a fresh lab is leased"
[ -z "$(lease_of em-a)$(lease_of em-b)" ] || fail "labrat hosts took a lease"

# wait_leased PID OUT: until ctl1 (labrat pid PID) holds em-a and em-b.
wait_leased() {
	_end=$(( $(now_ms) + 20000 ))
	until lease_of em-a | grep -q "^ctl1:$1:" && lease_of em-b | grep -q "^ctl1:$1:"; do
		[ "$(now_ms)" -lt $_end ] || fail "ctl1 did not lease em-a and em-b: $(cat "$2.err")"
		sleep 0.05
	done
}

# --- two controllers, 3 s apart.
t1=$(now_ms)
ctl1 "$TMP/c1" "$TMP/c1.db" "$TMP/plan.json"
P1=$RUN_PID
wait_leased "$P1" "$TMP/c1"
while [ $(( $(now_ms) - t1 )) -lt 3000 ]; do sleep 0.1; done
refused "$TMP/c2" "$TMP/c2.db" "$P1"
[ "$(sq "$TMP/c2.db" "SELECT count(*) FROM samples")" = 0 ] ||
    fail "the refused run stored samples"
wait_run
[ "$RC" -eq 0 ] || fail "ctl1 failed ($RC): $(cat "$TMP/c1.err")"
R1=$(sq "$TMP/c1.db" "SELECT max(id) FROM runs")
[ "$(sq "$TMP/c1.db" "SELECT count(*) FROM jobs WHERE run_id = $R1 AND state = 'done'")" = 4 ] ||
    fail "ctl1: $(sq "$TMP/c1.db" "SELECT state, reason FROM jobs WHERE run_id = $R1")"
check_samples "$TMP/c1.db" "$R1"
bad=$(sq "$TMP/c1.db" "SELECT s.value FROM samples s JOIN jobs j ON j.id = s.job_id
    WHERE j.run_id = $R1 AND s.metric = 'throughput_bps' AND s.interval = 0 AND
    NOT (s.value > 0 AND s.value <= 1000000000)")
[ -z "$bad" ] || fail "ctl1: implausible samples on a 1 Gbit/s link: $bad"
note "ctl1: 4 jobs, throughput $(sq "$TMP/c1.db" "SELECT printf('%.1f..%.1f', min(value) / 1e6,
    max(value) / 1e6) FROM samples s JOIN jobs j ON j.id = s.job_id WHERE j.run_id = $R1
    AND metric = 'throughput_bps' AND interval = 0") Mbit/s"
[ -z "$(lease_of em-a)$(lease_of em-b)" ] || fail "ctl1 left its lease behind"
check_links_restored

# --- a SIGKILLed owner's short lease expires.  bce-a drops SSH, so ctl1
# waits in its connect phase with the em hosts leased and nothing applied.
ip netns exec "$LAB-bce-a" nft add table inet leasetest &&
ip netns exec "$LAB-bce-a" nft add chain inet leasetest input \
    '{ type filter hook input priority 0; }' &&
ip netns exec "$LAB-bce-a" nft add rule inet leasetest input tcp dport 22 drop ||
    fail "nft: cannot make bce-a drop SSH"
jq '.links = ["em", "bce"] | .timeouts.connect = 30' "$TMP/short.json" > "$TMP/plan2.json"
export LABRAT_LEASE_TTL=6
ctl1 "$TMP/k1" "$TMP/k1.db" "$TMP/plan2.json"
unset LABRAT_LEASE_TTL
P1=$RUN_PID
wait_leased "$P1" "$TMP/k1"
kill -9 "$P1"
wait_run
tk=$(now_ms)
ip netns exec "$LAB-bce-a" nft delete table inet leasetest
refused "$TMP/k2" "$TMP/k2.db" "$P1"
end=$(( tk + 30000 ))
tries=0
while ts=$(now_ms); ! "$LABRAT" run --db "$TMP/k3.db" --inventory "$INV" \
    --plan "$TMP/short.json" >"$TMP/k3.out" 2>"$TMP/k3.err"; do
	grep -q "leased by ctl1 pid $P1 " "$TMP/k3.err" ||
	    fail "k3: failed, not for the lease: $(cat "$TMP/k3.err")"
	[ "$(now_ms)" -lt $end ] || fail "the dead ctl1's 6 s lease never expired"
	tries=$((tries + 1))
	sleep 1
done
note "dead ctl1's lease (ttl 6 s) expired: after $tries more refusals, a run started $(( ts - tk )) ms after the kill proceeded"
check_samples "$TMP/k3.db" "$(sq "$TMP/k3.db" "SELECT max(id) FROM runs")"
check_links_restored

# --- SIGKILLed mid-job: hosts shows the holder, release --force frees it.
ctl1 "$TMP/m1" "$TMP/m1.db" "$TMP/plan9k.json"
P1=$RUN_PID
end=$(( $(now_ms) + 30000 ))
until [ -n "$(ns_procs em-a iperf3)" ] && ip -n "$LAB-em-a" link show em0 | grep -q " mtu 9000 "; do
	[ "$(now_ms)" -lt $end ] || fail "m1: no job mid-iperf at MTU 9000: $(cat "$TMP/m1.err")"
	sleep 0.05
done
kill -9 "$P1"
wait_run
"$LABRAT" hosts --inventory "$INV" >"$TMP/hosts.out" 2>"$TMP/hosts.err" ||
    fail "hosts failed while leased: $(cat "$TMP/hosts.err")"
grep -q "^em-a .* em0 " "$TMP/hosts.out" || fail "hosts: no facts for em-a: $(cat "$TMP/hosts.out")"
grep -q "^  em-a: leased by ctl1 pid $P1 run " "$TMP/hosts.out" ||
    fail "hosts does not show em-a's holder: $(cat "$TMP/hosts.out")"
! grep -q "^  bce-a: leased" "$TMP/hosts.out" || fail "hosts: bce-a leased"
"$LABRAT" hosts --inventory "$INV" --format json | jq -e --arg p "$P1" \
    '.hosts[] | select(.name == "em-b") | .lease.host == "ctl1" and (.lease.pid | tostring) == $p' >/dev/null ||
    fail "hosts --format json: no lease of em-b"
[ "$(lease_of em-a)" != "" ] || fail "labrat hosts touched the lease"
refused "$TMP/m2" "$TMP/m2.db" "$P1"
# A bisect on the held link fails fast too, naming the host and ctl1.
jq '.workload.time = 1' "$SIMLAB_SRC/configs/bisect/em.json" > "$TMP/em-bisect.json"
t0=$(now_ms)
"$LABRAT" bisect start --inventory "$INV" --link em --good r200300 --bad r200399 \
    --test "$TMP/em-bisect.json" --db "$TMP/b.db" >"$TMP/b.out" 2>"$TMP/b.err" &&
    fail "bisect start on a leased link succeeded: $(cat "$TMP/b.out")"
ms=$(( $(now_ms) - t0 ))
[ $ms -lt 15000 ] || fail "bisect start took $ms ms to fail, not fast"
cat "$TMP/b.out" "$TMP/b.err" | grep -q "em-[ab]: leased by ctl1 pid $P1 run " ||
    fail "bisect start: no refusal naming the host and ctl1: $(cat "$TMP/b.out" "$TMP/b.err")"
note "bisect start: refused in $ms ms"
"$LABRAT" hosts release em-a --inventory "$INV" >"$TMP/rel.out" 2>&1 &&
    fail "hosts release without --force accepted"
for h in em-a em-b; do
	"$LABRAT" hosts release "$h" --force --inventory "$INV" >"$TMP/rel.out" 2>&1 ||
	    fail "hosts release $h --force: $(cat "$TMP/rel.out")"
	grep -q "^$h: released (was leased by ctl1 pid $P1 " "$TMP/rel.out" ||
	    fail "hosts release $h: $(cat "$TMP/rel.out")"
	[ -z "$(lease_of "$h")" ] || fail "$h: still leased after release --force"
done
"$LABRAT" hosts release em-a --force --inventory "$INV" | grep -q "^em-a: no lease held" ||
    fail "a second release --force"
ip -n "$LAB-em-a" link show em0 | grep -q " mtu 9000 " || fail "em-a was not left at MTU 9000"
"$LABRAT" run --db "$TMP/m3.db" --inventory "$INV" --plan "$TMP/short.json" \
    >"$TMP/m3.out" 2>"$TMP/m3.err" || fail "m3 after release --force: $(cat "$TMP/m3.err")"
check_samples "$TMP/m3.db" "$(sq "$TMP/m3.db" "SELECT max(id) FROM runs")"
check_links_restored
[ -z "$(lease_of em-a)$(lease_of em-b)" ] || fail "m3 left its lease behind"
note "mid-job kill: hosts showed the holder, release --force freed em-a and em-b, the next run restored and ran"

# --- a link whose work ends before the run's last round.  bce has one
# combination (nothing to compare, no adaptive job), em two, 2 planned
# repetitions each against a first look at 3: round 2 is em's alone.
# bce's hosts are restored and their leases given back at the end of
# round 1; round 2 reads their facts but must not restore them again
# without a lease (it did, and the run failed: "restore refused ... does
# not hold the lease").
jq '.links = ["em", "bce"] | .per_link = { "bce": { "knobs": { "tso": [true] } } } |
    .repetitions = 2 | .stats = { "adaptive": true, "min_samples": 3, "max_samples": 3 } |
    .workloads[0].time = 1' "$TMP/plan.json" > "$TMP/rounds.json"
"$LABRAT" -v run --db "$TMP/r.db" --inventory "$INV" --plan "$TMP/rounds.json" \
    >"$TMP/r.out" 2>"$TMP/r.err" || fail "a run whose bce link ends before its last round: $(grep -v '^labrat: job' "$TMP/r.err")"
grep -q "^labrat: round 2: 2 more jobs for 1 inconclusive comparison " "$TMP/r.err" ||
    fail "no round 2 of em's alone: $(grep 'round' "$TMP/r.err")"
[ "$(sq "$TMP/r.db" "SELECT group_concat(link || ':' || n, ' ') FROM
    (SELECT link, count(*) AS n FROM jobs WHERE state = 'done' GROUP BY link ORDER BY link)")" = "bce:2 em:6" ] ||
    fail "jobs per link: $(sq "$TMP/r.db" "SELECT link, state, count(*) FROM jobs GROUP BY link, state")"
! grep -q "lease\|could not be restored" "$TMP/r.err" ||
    fail "a restore without a lease: $(grep "lease\|restored" "$TMP/r.err")"
check_samples "$TMP/r.db" 1
check_links_restored
for h in em-a em-b bce-a bce-b; do
	[ -z "$(lease_of "$h")" ] || fail "$h: leased after the run"
done
note "a link done before the last round: not restored again, the run ends ok"
echo "PASS"
