#!/bin/sh
# Knob transitions on the simulated lab (the bce link: TSO off and on, each
# at MTU 9000 with kernel NAT on bce-a, a 1 s iperf3, 2 repetitions):
# - a run goes from one job's knobs to the next one's without restoring in
#   between: after the link's first job, the agent changes only TSO on the
#   sender and nothing on the receiver, the workload server is started once
#   for the link and stopped at its end, and the hosts are restored;
# - the controller is SIGKILLed between two jobs, with every knob of the
#   link away from its original (MTU 9000, NAT on, TSO flipping): nobody
#   restores, so the rollback timer the last apply re-armed must put MTU,
#   TSO and NAT back within its bound (the job timeout + the workload time
#   + 60 s) and stop the workload server.  The test checks that each
#   timer's deadline is within that bound of the kill, then moves the
#   deadline to now (as an apply moves it on, bisect_sim.sh does the same)
#   instead of waiting out the 64 s: the timer fires within its 1 s poll
#   and restores through its own code.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=rtrn$$
. "$(dirname "$0")/lib/run.sh"

lab_db
JOB_TIMEOUT=3
TIME=1
BOUND=$((JOB_TIMEOUT + TIME + 60))

cat > "$TMP/plan.json" <<EOF
{
  "links": ["bce"],
  "knobs": { "tso": [false, true], "mtu": [9000], "nat": ["kernel"] },
  "workloads": [ { "tool": "iperf3", "time": $TIME } ],
  "repetitions": 2,
  "timeouts": { "connect": 3, "job": $JOB_TIMEOUT },
  "retries": 1,
  "stats": { "adaptive": false }
}
EOF

# --- transitions in a run that ends normally.
"$LABRAT" -vv run --db "$DB" --inventory "$INV" --plan "$TMP/plan.json" \
    >"$TMP/t.out" 2>"$TMP/t.err" || fail "run: $(cat "$TMP/t.err")"
grep -q "^run 1: 4 jobs, 4 done, 0 failed" "$TMP/t.out" ||
    fail "run summary: $(cat "$TMP/t.out")"
check_samples "$DB" 1
# executor_link.c logs what each end's apply changed: the first job changes
# the MTU (both ends), NAT and TSO (to off) on bce-a, the sender and NAT
# host; every later job TSO alone on bce-a and nothing on bce-b.
changes() {
	grep "): $1 [a-z0-9]*: [0-9]* knob(s) changed" "$TMP/t.err" |
	    sed 's/.*: \([0-9]*\) knob(s) changed.*/\1/' | tr '\n' ' '
}
[ "$(changes bce-a)" = "3 1 1 1 " ] ||
    fail "bce-a: knobs changed per job '$(changes bce-a)', want '3 1 1 1 ': $(cat "$TMP/t.err")"
[ "$(changes bce-b)" = "1 0 0 0 " ] ||
    fail "bce-b: knobs changed per job '$(changes bce-b)', want '1 0 0 0 '"
# One server for the link's batch, kept for every later job.
started=$(grep -c ": bce-b: iperf3 server .* started" "$TMP/t.err")
kept=$(grep -c ": bce-b: iperf3 server .* kept" "$TMP/t.err")
[ "$started" = 1 ] && [ "$kept" -ge 4 ] ||
    fail "run: iperf3 server started $started times, kept $kept times, want 1 and >= 4"
# Each later job was claimed (its apply begun) before the one before it
# was stored: the link's next apply overlaps the last job's serve --keep
# and store (executor_job.c, job_next()).
early=$(sq "$DB" "SELECT count(*) FROM jobs a JOIN jobs b ON b.run_id = a.run_id
    AND b.started_at = (SELECT min(started_at) FROM jobs c WHERE
    c.run_id = a.run_id AND c.started_at > a.started_at)
    WHERE a.run_id = 1 AND b.started_at < a.finished_at")
[ "$early" = 3 ] ||
    fail "run: $early of 3 later jobs claimed before the last one was stored: $(sq "$DB" "SELECT id, started_at, finished_at FROM jobs WHERE run_id = 1")"
check_links_restored
[ -z "$(ns_procs bce-b iperf3)" ] || fail "run: the iperf3 server is still running"
note "run: 4 jobs, TSO alone changed between jobs, one iperf3 server, each next job begun before the last was stored"

# --- SIGKILL between two jobs, no resume: the rollback timer restores.
start_run "$TMP/kill" --db "$DB" --inventory "$INV" --plan "$TMP/plan.json"
RUN=$(run_id "$TMP/kill") || fail "kill: the run did not start"
wait_log "$TMP/kill.err" "^labrat: job 1/4 .*: done" 60 ||
    fail "kill: no job done: $(cat "$TMP/kill.err")"
kill -9 "$RUN_PID"
t0=$(now_ms)
t0mono=$(mono_ms)
wait_run
[ "$RC" -eq 137 ] || fail "kill: labrat exited $RC, not by SIGKILL"
ip -n "$LAB-bce-a" link show bce1 | grep -q " mtu 9000 " ||
    fail "kill: bce-a not left at MTU 9000: $(ip -n "$LAB-bce-a" -o link show bce1)"
ip netns exec "$LAB-bce-a" nft list table ip labrat >/dev/null 2>&1 ||
    fail "kill: bce-a not left with its NAT"
[ -e "$STATE/hosts/bce-a/var-lib-labrat/rollback/bce1.pid" ] ||
    fail "kill: no rollback timer armed on bce-a"
# Each armed timer's deadline (the agent's CLOCK_MONOTONIC ms, which the
# lab's namespaces share) is within the bound of the kill; then it is
# moved to now, so that the timer fires without waiting the bound out.
for h in bce-a bce-b; do
	rb=$STATE/hosts/$h/var-lib-labrat/rollback
	[ -e "$rb/bce1.pid" ] || continue
	dl=$(cat "$rb/bce1.deadline") ||
	    fail "kill: $h: a rollback timer without its deadline file"
	[ "$dl" -le $((t0mono + BOUND * 1000)) ] ||
	    fail "kill: $h: rollback deadline $((dl - t0mono)) ms after the kill, bound $BOUND s"
	note "kill: $h: rollback deadline $((dl - t0mono)) ms after the kill (bound $BOUND s), moved to now"
	echo 1 > "$rb/bce1.deadline"
done
restored() {
	for h in bce-a bce-b; do
		ip netns exec "$LAB-$h" ethtool -k bce1 |
		    grep -q '^tcp-segmentation-offload: on' || return 1
		ip -n "$LAB-$h" link show bce1 | grep -q " mtu 1500 " || return 1
		[ ! -e "$STATE/hosts/$h/var-lib-labrat/state/bce1.json" ] ||
		    return 1
	done
	! ip netns exec "$LAB-bce-a" nft list table ip labrat >/dev/null 2>&1
}
end=$((t0 + (BOUND + 10) * 1000))
while ! restored; do
	[ "$(now_ms)" -lt $end ] ||
	    fail "kill: hosts not restored $((BOUND + 10)) s after the kill (bound $BOUND s)"
	sleep 0.5
done
took=$(( $(now_ms) - t0 ))
check_links_restored
wait_end=$(( $(now_ms) + 5000 ))
while [ -n "$(ns_procs bce-b iperf3)" ] && [ "$(now_ms)" -lt $wait_end ]; do
	sleep 0.2
done
[ -z "$(ns_procs bce-b iperf3)" ] ||
    fail "kill: the rollback timer left the iperf3 server running"
note "kill: the rollback timers restored both hosts $took ms after the kill (bound $BOUND s)"
echo "PASS run_transitions"
