#!/bin/sh
# labrat run interrupted on the simulated lab (em and bce links in
# parallel, 4 jobs each, a 2 s iperf3):
# - the controller is SIGKILLed mid-job (em-a left at MTU 9000):
#   `labrat run --resume RUN` restores the hosts, requeues the interrupted
#   job and finishes the run: every job done once, one sample each;
# - Ctrl-C (SIGINT) mid-run: labrat stops within a step, restores every
#   host, marks the unfinished jobs cancelled and exits non-zero.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=rint$$
. "$(dirname "$0")/lib/run.sh"

lab_db

cat > "$TMP/plan.json" <<'EOF'
{
  "links": ["em", "bce"],
  "knobs": { "tso": [false, true], "mtu": [9000, 1500] },
  "per_link": { "bce": { "knobs": { "tso": [false, true], "nat": ["kernel", "off"] } } },
  "workloads": [ { "tool": "iperf3", "time": 2 } ],
  "repetitions": 1,
  "timeouts": { "connect": 3, "job": 20 },
  "retries": 1,
  "stats": { "adaptive": false }
}
EOF

# mid_job NAME: waits until a job is done and the next em job runs its
# iperf3 with em-a's MTU at 9000 (a host left mid-job if we stop now).
mid_job() {
	wait_log "$TMP/$1.err" "^labrat: job 1/8 .*: done" 60 ||
	    fail "$1: no job done: $(cat "$TMP/$1.err")"
	_end=$(( $(now_ms) + 20000 ))
	while [ "$(now_ms)" -lt $_end ]; do
		if [ -n "$(ns_procs em-a iperf3)" ] &&
		    ip -n "$LAB-em-a" link show em0 | grep -q " mtu 9000 "; then
			return 0
		fi
		sleep 0.05
	done
	fail "$1: no em job mid-iperf at MTU 9000: $(cat "$TMP/$1.err")"
}

# --- SIGKILL, then --resume.
start_run "$TMP/kill" --db "$DB" --inventory "$INV" --plan "$TMP/plan.json"
RUN=$(run_id "$TMP/kill") || fail "kill: the run did not start"
mid_job kill
kill -9 "$RUN_PID"
wait_run
[ "$RC" -eq 137 ] || fail "kill: labrat exited $RC, not by SIGKILL"
ip -n "$LAB-em-a" link show em0 | grep -q " mtu 9000 " ||
    fail "kill: em-a was not left mid-job"
before=$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'done'")
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'running'")" -ge 1 ] ||
    fail "kill: no job left running"
t0=$(now_ms)
"$LABRAT" run --db "$DB" --resume "$RUN" >"$TMP/resume.out" 2>"$TMP/resume.err" ||
    fail "resume: $(cat "$TMP/resume.err")"
note "kill: $before jobs done at the kill; resumed in $(( $(now_ms) - t0 )) ms"
grep -q "^run $RUN: 8 jobs, 8 done, 0 failed, 0 cancelled" "$TMP/resume.out" ||
    fail "resume summary: $(cat "$TMP/resume.out")"
[ "$(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")" = done ] || fail "resumed run not done"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'done' AND attempt > 1")" -ge 1 ] ||
    fail "resume: the interrupted job was not run again"
check_samples "$DB" "$RUN"
[ "$(sq "$DB" "SELECT count(*) FROM host_facts WHERE run_id = $RUN")" -ge 4 ] ||
    fail "resume: host facts missing"
check_links_restored
[ -z "$(ns_procs em-b iperf3)$(ns_procs bce-b iperf3)" ] ||
    fail "resume: an iperf3 server is still running"

# --- SIGINT mid-run.
start_run "$TMP/int" --db "$DB" --inventory "$INV" --plan "$TMP/plan.json"
RUN=$(run_id "$TMP/int") || fail "int: the run did not start"
mid_job int
t0=$(now_ms)
kill -INT "$RUN_PID"
wait_run
note "int: labrat exited $RC $(( $(now_ms) - t0 )) ms after SIGINT"
[ "$RC" -ne 0 ] || fail "int: exit 0 after SIGINT"
grep -q "run $RUN interrupted: [1-9][0-9]* jobs cancelled .*, hosts restored$" "$TMP/int.err" ||
    fail "int: no interruption line: $(cat "$TMP/int.err")"
[ "$(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")" = cancelled ] ||
    fail "int: run state $(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state IN ('queued', 'running')")" = 0 ] ||
    fail "int: jobs left queued or running"
n=$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'cancelled'")
[ "$n" -ge 1 ] || fail "int: nothing cancelled"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'failed'")" = 0 ] ||
    fail "int: jobs failed: $(sq "$DB" "SELECT reason FROM jobs WHERE run_id = $RUN AND state = 'failed'")"
check_samples "$DB" "$RUN"
check_links_restored
[ -z "$(ns_procs em-b iperf3)$(ns_procs bce-b iperf3)" ] ||
    fail "int: an iperf3 server is still running"
note "int: $n jobs cancelled, hosts restored"
echo "PASS run_interrupt"
