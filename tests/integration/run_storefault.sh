#!/bin/sh
# Store faults on one simulated lab (the em link, 4 jobs of a 1 s iperf3):
# (a) the database's file system fills mid-run (a small tmpfs, filled up
#     after the first job): labrat stops claiming, restores the hosts and
#     exits 1 saying to free space and resume; no job is announced done
#     that was not committed; after the filler is deleted `--resume` does
#     every job once;
# (b) another process holds the write lock (BEGIN EXCLUSIVE) for longer
#     than the busy budget (LABRAT_DB_BUSY_TIMEOUT=2): the same, with a
#     message naming the lock; released before labrat marks the run, the
#     run is stored interrupted (its cut job queued again); `--resume`
#     completes;
# (c) `--resume` of a run whose controller still runs is refused, naming
#     its pid and host; the run itself completes.
# Each case ends with the hosts' settings as before, `labrat db check`
# clean, one throughput sample per done job and no job left running.
# ctest: shared-lab
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=sfault$$
. "$(dirname "$0")/lib/run.sh"

MNT=$TMP/mnt
HOLD_PID=
sf_cleanup() {
	exec 3>&-
	[ -n "$HOLD_PID" ] && kill "$HOLD_PID" 2>/dev/null
	umount "$MNT" 2>/dev/null
	run_cleanup
}
trap sf_cleanup EXIT

lab_up
mkdir -p "$MNT"
mount -t tmpfs -o size=4m tmpfs "$MNT" || fail "mount a tmpfs on $MNT"

cat > "$TMP/plan.json" <<'EOF'
{
  "links": ["em"],
  "knobs": { "tso": [false, true] },
  "workloads": [ { "tool": "iperf3", "time": 1 } ],
  "repetitions": 2,
  "timeouts": { "connect": 3, "job": 20 },
  "retries": 1,
  "stats": { "adaptive": false }
}
EOF

# jobs_in DB RUN STATE: how many of the run's jobs are in STATE.
jobs_in() {
	sq "$1" "SELECT count(*) FROM jobs WHERE run_id = $2 AND state = '$3'"
}

# check_clean DB RUN WHAT [RUNNING]: the end state every case asserts;
# RUNNING: jobs left running are allowed (a store that refused to take
# the run's interruption: the resume requeues them).
check_clean() {
	check_links_restored
	"$LABRAT" db check --db "$1" >/dev/null 2>"$TMP/check.err" ||
	    fail "$3: db check: $(cat "$TMP/check.err")"
	check_samples "$1" "$2"
	[ -n "${4:-}" ] || [ "$(jobs_in "$1" "$2" running)" = 0 ] ||
	    fail "$3: a job left running"
	[ -z "$(ns_procs em-b iperf3)" ] || fail "$3: an iperf3 server is still running"
}

# check_stopped OUT DB RUN WHAT: a run a store fault stopped.
check_stopped() {
	[ "$RC" -eq 1 ] || fail "$4: labrat exited $RC: $(cat "$1.err")"
	grep -q "run $3 interrupted: .*then resume with \`labrat run --resume $3\`" "$1.err" ||
	    fail "$4: no interruption message: $(cat "$1.err")"
	grep -q "^labrat: run $3: hosts restored" "$1.err" ||
	    fail "$4: hosts not said restored: $(cat "$1.err")"
	# Announced done = committed done.
	said=$(grep -c "^labrat: job [0-9]*/4 .*: done" "$1.err")
	done=$(jobs_in "$2" "$3" done)
	[ "$said" = "$done" ] || fail "$4: $said jobs announced done, $done committed"
	[ "$done" -ge 1 ] && [ "$done" -lt 4 ] || fail "$4: $done jobs done, not mid-run"
	state=$(sq "$2" "SELECT state FROM runs WHERE id = $3")
	case $state in
	interrupted|running) ;;	# running: the store refused that write too
	*) fail "$4: run state $state" ;;
	esac
	"$LABRAT" runs --db "$2" >"$TMP/runs.out" 2>&1 || fail "$4: labrat runs: $(cat "$TMP/runs.out")"
	grep -q "interrupted" "$TMP/runs.out" || fail "$4: labrat runs: $(cat "$TMP/runs.out")"
	if [ "$state" = interrupted ]; then
		check_clean "$2" "$3" "$4"
		grep -q "interrupt run" "$1.err" && fail "$4: interrupted and not?"
	else
		check_clean "$2" "$3" "$4" running
		grep -q "cannot mark it interrupted (it reads as interrupted once this process is gone)" "$1.err" ||
		    fail "$4: run left running without a word: $(cat "$1.err")"
	fi
	note "$4: stopped after $done jobs (run stored $state): $(grep "interrupted:" "$1.err" | head -n 1)"
}

# resume_all DB RUN WHAT: --resume does the rest, every job done once.
resume_all() {
	"$LABRAT" run --db "$1" --resume "$2" >"$TMP/resume.out" 2>"$TMP/resume.err" ||
	    fail "$3: resume: $(cat "$TMP/resume.err")"
	grep -q "^run $2: 4 jobs, 4 done, 0 failed, 0 cancelled" "$TMP/resume.out" ||
	    fail "$3: resume summary: $(cat "$TMP/resume.out")"
	[ "$(sq "$1" "SELECT state FROM runs WHERE id = $2")" = done ] || fail "$3: run not done"
	check_clean "$1" "$2" "$3"
}

# --- (a) the file system fills mid-run.
DB=$MNT/db.sqlite
start_run "$TMP/full" --db "$DB" --inventory "$INV" --plan "$TMP/plan.json"
RUN=$(run_id "$TMP/full") || fail "full: the run did not start: $(cat "$TMP/full.err")"
wait_log "$TMP/full.err" "^labrat: job 1/4 .*: done" 60 ||
    fail "full: no job done: $(cat "$TMP/full.err")"
dd if=/dev/zero of="$MNT/filler" bs=64k 2>/dev/null	# until ENOSPC
wait_run
check_stopped "$TMP/full" "$DB" "$RUN" full
grep -q "database or disk is full" "$TMP/full.err" ||
    fail "full: the cause is not named: $(cat "$TMP/full.err")"
grep -q "free space on the database's file system" "$TMP/full.err" ||
    fail "full: no advice: $(cat "$TMP/full.err")"
rm -f "$MNT/filler"
resume_all "$DB" "$RUN" full
note "full: resumed, 4 jobs done once"

# --- (b) the write lock held past the busy budget.
DB=$TMP/db.sqlite
export LABRAT_DB_BUSY_TIMEOUT=2
start_run "$TMP/busy" --db "$DB" --inventory "$INV" --plan "$TMP/plan.json"
RUN=$(run_id "$TMP/busy") || fail "busy: the run did not start: $(cat "$TMP/busy.err")"
wait_log "$TMP/busy.err" "^labrat: job 1/4 .*: done" 60 ||
    fail "busy: no job done: $(cat "$TMP/busy.err")"
# The lock: an sqlite3 shell fed through a fifo, holding BEGIN EXCLUSIVE
# until it reads COMMIT; released once labrat has given up on it, so the
# run's interruption itself is stored.
mkfifo "$TMP/hold.fifo"
sqlite3 "$DB" <"$TMP/hold.fifo" >"$TMP/hold.out" 2>&1 &
HOLD_PID=$!
exec 3>"$TMP/hold.fifo"
printf "BEGIN EXCLUSIVE;\nSELECT 'locked';\n" >&3
wait_log "$TMP/hold.out" "^locked" 10 || fail "busy: the lock was not taken: $(cat "$TMP/hold.out")"
t0=$(now_ms)
wait_log "$TMP/busy.err" "stopping: no more jobs are claimed" 30 ||
    fail "busy: labrat did not give up on the lock: $(cat "$TMP/busy.err")"
note "busy: labrat gave up on the lock after $(( $(now_ms) - t0 )) ms"
printf "COMMIT;\n" >&3
exec 3>&-
wait "$HOLD_PID"
HOLD_PID=
wait_run
grep -q "database is locked (for more than 2.0 s, the busy budget)" "$TMP/busy.err" ||
    fail "busy: the cause is not named: $(cat "$TMP/busy.err")"
check_stopped "$TMP/busy" "$DB" "$RUN" busy
[ "$state" = interrupted ] || fail "busy: the released store did not take the interruption: $state"
[ "$(sq "$DB" "SELECT reason FROM runs WHERE id = $RUN")" != "" ] || fail "busy: no reason stored"
note "busy: stored $(sq "$DB" "SELECT state || ': ' || reason FROM runs WHERE id = $RUN")"
resume_all "$DB" "$RUN" busy
unset LABRAT_DB_BUSY_TIMEOUT
note "busy: released, resumed, 4 jobs done once"

# --- (c) --resume of a live run.
start_run "$TMP/live" --db "$DB" --inventory "$INV" --plan "$TMP/plan.json"
RUN=$(run_id "$TMP/live") || fail "live: the run did not start: $(cat "$TMP/live.err")"
"$LABRAT" run --db "$DB" --resume "$RUN" >"$TMP/steal.out" 2>"$TMP/steal.err"
rc=$?
[ "$rc" -eq 1 ] || fail "live: a resume of the live run exited $rc: $(cat "$TMP/steal.err")"
grep -q "run $RUN is still running: pid $RUN_PID on $(hostname | cut -c1-63) since [0-9][0-9]:[0-9][0-9] UTC" "$TMP/steal.err" ||
    fail "live: the owner is not named: $(cat "$TMP/steal.err")"
grep -q "resumed" "$TMP/steal.err" && fail "live: resumed anyway: $(cat "$TMP/steal.err")"
wait_run
[ "$RC" -eq 0 ] || fail "live: the run exited $RC: $(cat "$TMP/live.err")"
grep -q "^run $RUN: 4 jobs, 4 done, 0 failed, 0 cancelled" "$TMP/live.out" ||
    fail "live: summary: $(cat "$TMP/live.out")"
[ "$(jobs_in "$DB" "$RUN" done)" = 4 ] || fail "live: not every job done"
check_clean "$DB" "$RUN" live
note "live: $(cat "$TMP/steal.err" | head -n 1)"
echo "PASS run_storefault"
