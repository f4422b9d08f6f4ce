#!/bin/sh
# labrat bisect on the simulated lab, with a 48-revision history
# (r200100..r200147) that carries the em fault from r200131, the bce fault
# from r200118, an unbootable r200117 and an unbuildable r200119:
#  - em (A/B TSO on/off at MTU 9000, --noise 3): SIGKILLed between two
#    batches of a step from its 3rd on (the link held at MTU 9000 with its
#    rollback timers armed); the timers restore both hosts' TSO, MTU and
#    NAT; resumed: culprit r200131, no finished step repeated;
#  - bce, meanwhile on its own hosts: a range whose GOOD is bad stops and
#    says so; then (vs GOOD, NAT + TSO) r200117 and r200119 become skips
#    (r200117 through the power-cycle path) and the smallest provable
#    range {r200117, r200118} is reported.
# The ranges are no wider than these checks need (em r200127..r200135:
# 7 steps, so the kill still lands in the 4th with 3 finished before it;
# bce r200108..r200127: a bisect converging on r200118 always meets the
# unbootable parent r200117), as a bisect's time is its steps.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=bis$$
T=$(mktemp -d "${TMPDIR:-/tmp}/lrbis$$.XXXXXX")
EMFLOW=
cleanup() {
	[ -n "$EMFLOW" ] && kill "$EMFLOW" 2>/dev/null
	[ -f "$T/em.pid" ] && kill -9 "$(cat "$T/em.pid")" 2>/dev/null
	lab_down
	[ -n "${KEEP:-}" ] && cp -r "$T" "$KEEP"; rm -rf "$T"
}
trap cleanup EXIT
command -v jq >/dev/null || fail "jq missing"

C=$SIMLAB_SRC/configs
jq '{description: "bisect test history",
     revisions: [.revisions[100:148][]],
     faults: [.faults[0] + {introduced: "r200131"},
              .faults[1] + {introduced: "r200118"}],
     unbuildable: ["r200119"], unbootable: ["r200117"]}' \
    "$C/simlab/history.json" > "$T/hist.json" || fail "history"
# em: a step measures in two batches at least (3 samples a side for the
# collapse rule, then 5): the kill needs a gap between two.
jq '.workload.time = 1 | .sampling.max_samples = 10 | .timeouts.boot = 8' \
    "$C/bisect/em.json" > "$T/em.json"
jq '.workload.time = 1 | .timeouts.boot = 8' "$C/bisect/bce.json" > "$T/bce.json"
jq '{knobs: {mtu: 1500, nat: "kernel"},
     compare: {type: "ab", knob: "tso", reference: false, candidate: true},
     workload: .workload, threshold: 0.5, timeouts: .timeouts,
     sampling: {min_samples: 4, max_samples: 8}}' "$T/bce.json" > "$T/bce-ab.json"

lab_up --history "$T/hist.json" --noise 3 --boot-seconds 1
B() { "$LABRAT" bisect "$@"; }
nsteps() { B status --db "$1" --format json 2>/dev/null | jq '.steps // 0' 2>/dev/null; }

# The em link's ends: TSO on, MTU 1500, no saved original, no NAT, and
# no iperf3 server left (what the rollback timers put back).
em_restored() {
	for h in em-a em-b; do
		ip netns exec "$LAB-$h" ethtool -k em0 |
		    grep -q '^tcp-segmentation-offload: on' || return 1
		ip -n "$LAB-$h" link show em0 | grep -q " mtu 1500 " || return 1
		[ ! -e "$STATE/hosts/$h/var-lib-labrat/state/em0.json" ] || return 1
		! ip netns exec "$LAB-$h" nft list table ip labrat >/dev/null 2>&1 ||
		    return 1
		if for p in $(ip netns pids "$LAB-$h"); do
			cat "/proc/$p/comm" 2>/dev/null
		done | grep -qx iperf3; then
			return 1
		fi
	done
	return 0
}

# What the em link's ends have: TSO, MTU, the agent's files, processes.
em_state() {
	for h in em-a em-b; do
		echo "$h: $(ip netns exec "$LAB-$h" ethtool -k em0 |
		    grep '^tcp-segmentation-offload'), $(ip -n "$LAB-$h" -o link \
		    show em0 | grep -o 'mtu [0-9]*'), files: $(cd \
		    "$STATE/hosts/$h/var-lib-labrat" && ls state rollback |
		    tr '\n' ' '), processes: $(for p in $(ip netns pids \
		    "$LAB-$h"); do cat "/proc/$p/comm"; done | tr '\n' ' ')," \
		    "timer: $(cat "$STATE/hosts/$h/var-lib-labrat/rollback/em0.log" \
		    2>/dev/null | tail -n 3 | tr '\n' ' ')"
	done
}

# em: start, SIGKILL between two batches of a step from the 3rd on (the
# controller stops itself there: LABRAT_TEST_STOP_BETWEEN_BATCHES), the
# rollback timers restore the hosts, resume.
em_flow() {
	t0=$(now_ms)
	LABRAT_TEST_STOP_BETWEEN_BATCHES=3 "$LABRAT" bisect start \
	    --inventory "$INV" --link em --good r200127 --bad r200135 \
	    --test "$T/em.json" --db "$T/em.db" >"$T/em1.out" 2>"$T/em1.err" &
	pid=$!
	echo $pid > "$T/em.pid"
	until [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" = T ]; do
		kill -0 $pid 2>/dev/null ||
		    { echo "ended before the kill" > "$T/em.fail"; return; }
		sleep 0.2
	done
	# Held between the batches: MTU 9000 on both ends, timers armed.
	for h in em-a em-b; do
		ip -n "$LAB-$h" link show em0 | grep -q " mtu 9000 " &&
		    [ -e "$STATE/hosts/$h/var-lib-labrat/rollback/em0.pid" ] ||
		    { echo "$h not held between batches: $(ip -n "$LAB-$h" -o \
		      link show em0)" > "$T/em.fail"; kill -9 $pid; return; }
	done
	kill -9 $pid
	wait $pid 2>/dev/null
	rm -f "$T/em.pid"
	# The timers' deadline (job timeout + 61 s, the bound run_transitions
	# waits out) moved to now, as an apply moves it: each fires within
	# its 1 s poll and restores through its own code.
	for h in em-a em-b; do
		echo 1 > "$STATE/hosts/$h/var-lib-labrat/rollback/em0.deadline"
	done
	end=$(( $(now_ms) + 30000 ))
	until em_restored; do
		[ "$(now_ms)" -lt $end ] || { echo "not restored 30 s after the" \
		    "kill: $(em_state)" > "$T/em.fail"; return; }
		sleep 0.2
	done
	echo $(( $(now_ms) - end + 30000 )) > "$T/em.restore"
	B status --db "$T/em.db" --format json > "$T/em-killed.json"
	"$LABRAT" bisect resume --db "$T/em.db" --format json >"$T/em.out" \
	    2>"$T/em2.err" &
	echo $! > "$T/em.pid"
	wait $!
	echo $? > "$T/em.rc"
	rm -f "$T/em.pid"
	echo $(( $(now_ms) - t0 )) > "$T/em.ms"
}
em_flow &
EMFLOW=$!

# bce, a bad range: GOOD r200120 already has the fault.
t0=$(now_ms)
B start --inventory "$INV" --link bce --good r200120 --bad r200147 \
    --test "$T/bce-ab.json" --db "$T/bad.db" >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ $rc -eq 1 ] || fail "bad range: exit $rc, want 1: $(cat "$T/bad.out" "$T/bad.err")"
grep -qi "FAILED: good endpoint r200120 tested bad" "$T/bad.out" ||
    fail "bad range: no clear message: $(cat "$T/bad.out")"
[ "$(B status --db "$T/bad.db" --format json | jq -r .state)" = failed ] ||
    fail "bad range: state is not failed"
note "bad range stopped after $(nsteps "$T/bad.db") step(s), $(( $(now_ms) - t0 )) ms: $(grep FAILED "$T/bad.out")"

# bce with an unbootable and an unbuildable revision around the culprit.
# -vv: the lab ops log the SSH handshakes of every install and batch.
t0=$(now_ms)
"$LABRAT" -vv bisect start --inventory "$INV" --link bce --good r200108 \
    --bad r200127 --test "$T/bce.json" --db "$T/bce.db" --format json \
    >"$T/bce.out" 2>"$T/bce.err" || fail "bce bisect: $(tail -5 "$T/bce.err")"
ms=$(( $(now_ms) - t0 ))
O=$T/bce.out
st=$(jq -r .status "$O")
if [ "$st" = range ]; then
	[ "$(jq -c .range.candidates "$O")" = '["r200117","r200118"]' ] ||
	    fail "bce range: $(jq -c .range "$O")"
elif [ "$st" = found ]; then
	[ "$(jq -r .culprit.id "$O")" = r200118 ] || fail "bce culprit $(jq -c .culprit "$O")"
else
	fail "bce: status $st: $(jq -r .reason "$O")"
fi
jq -e '[.evidence[] | select(.revision == "r200117")][0].verdict == "skip"' "$O" >/dev/null ||
    fail "unbootable r200117 not a skip"
grep -q "power-cycled" "$T/bce.err" || fail "the power-cycle path did not run"
if jq -e '[.evidence[].revision] | index("r200119")' "$O" >/dev/null; then
	jq -e '[.evidence[] | select(.revision == "r200119")][0].verdict == "skip"' "$O" >/dev/null ||
	    fail "unbuildable r200119 not a skip"
fi
# One executor for the whole bisect, its sessions used by the kernel
# provider too: a batch never connects (a step's first batch follows the
# reboot's reconnect), only installs do: after the first (which opens the
# sessions) at most one per host.
nb=$(grep -c "batch of .* jobs: .* SSH handshakes" "$T/bce.err")
[ "$nb" -gt "$(jq .steps "$O")" ] || fail "bce: only $nb batch lines"
grep "batch of .* jobs: .* SSH handshakes" "$T/bce.err" | grep -v ": 0 SSH handshakes" &&
    fail "a batch reconnected"
grep "install on .*: .* SSH handshakes" "$T/bce.err" | sed 1d |
    grep -Ev ": [012] SSH handshakes" && fail "an install connected more than once per host"
note "bce: $nb batches, 0 SSH handshakes each; installs: $(grep -o 'install on .*: [0-9]* SSH' "$T/bce.err" | awk '{s += $(NF-1)} END {print s}') handshakes in $(grep -c 'install on' "$T/bce.err")"
note "bce: $st $(jq -c '.range.candidates' "$O"), $(jq .steps "$O") steps, $(jq .samples "$O") samples, ${ms} ms"

# em: the killed and resumed bisect.
wait "$EMFLOW"
EMFLOW=
[ -f "$T/em.fail" ] && fail "em: $(cat "$T/em.fail"): $(tail -5 "$T/em1.err")"
[ "$(cat "$T/em.rc")" = 0 ] || fail "em resume: exit $(cat "$T/em.rc"): $(tail -5 "$T/em2.err")"
O=$T/em.out
[ "$(jq -r .status "$O")" = found ] || fail "em: $(jq -r '.status + ": " + .reason' "$O")"
[ "$(jq -r .culprit.id "$O")" = r200131 ] || fail "em culprit $(jq -c .culprit "$O"), want r200131"
# Every step finished before the kill is still there, unchanged, and no
# (revision, reason) was measured twice.
jq -r '.evidence[] | select(.verdict != "") | "\(.seq) \(.revision) \(.verdict) \(.run)"' \
    "$T/em-killed.json" > "$T/before.txt"
jq -r '.evidence[] | "\(.seq) \(.revision) \(.verdict) \(.run)"' "$O" > "$T/after.txt"
[ -s "$T/before.txt" ] || fail "no finished step before the kill"
while read -r line; do
	grep -qx "$line" "$T/after.txt" || fail "step changed by resume: $line"
done < "$T/before.txt"
jq -e '[.evidence[] | "\(.revision) \(.why)"] | length == (unique | length)' "$O" >/dev/null ||
    fail "a step was repeated: $(jq -c '[.evidence[] | "\(.revision) \(.why)"]' "$O")"
jq -e '[.evidence[] | select(.verdict == "")] | length == 0' "$O" >/dev/null ||
    fail "an unfinished step is left"
# The resumed controller never asked the hosts: it puts them back on what
# the killed one stored at the start.
grep -q "putting the hosts back on r" "$T/em2.err" ||
    fail "em resume: hosts not put back: $(tail -5 "$T/em2.err")"
note "em: killed between two batches after $(wc -l < "$T/before.txt") finished steps, restored by the rollback timers $(cat "$T/em.restore") ms after; culprit r200131, confidence $(jq .confidence "$O"), $(jq .steps "$O") steps, $(jq .samples "$O") samples, $(cat "$T/em.ms") ms"
B log --db "$T/em.db" > "$T/em.log"
grep -q "^# first bad commit: \[r200131\]" "$T/em.log" || fail "log: $(cat "$T/em.log")"
# The log replays: a new bisect fed with it reaches the same culprit
# without measuring anything; a log edited into nonsense is refused.
B start --inventory "$INV" --link em --good r200127 --bad r200135 \
    --test "$T/em.json" --replay "$T/em.log" --db "$T/replay.db" \
    --format json --quiet >"$T/replay.out" 2>"$T/replay.err" ||
    fail "replay: $(cat "$T/replay.err")"
[ "$(jq -r .culprit.id "$T/replay.out")" = r200131 ] || fail "replay culprit"
[ "$(jq .samples "$T/replay.out")" = 0 ] || fail "replay measured"
[ "$(jq .steps "$T/replay.out")" = "$(jq .steps "$O")" ] || fail "replay steps"
sed 's/^good r200127$/bad r200127/' "$T/em.log" > "$T/em-bad.log"
B start --inventory "$INV" --link em --good r200127 --bad r200135 \
    --test "$T/em.json" --replay "$T/em-bad.log" --db "$T/replay2.db" \
    --quiet >/dev/null 2>"$T/replay2.err" && fail "a nonsense log replayed"
grep -q "bisect replay: step 2: " "$T/replay2.err" ||
    fail "nonsense log: $(cat "$T/replay2.err")"
echo PASS
