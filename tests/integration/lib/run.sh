# tests/integration/lib/run.sh: helpers for the `labrat run` tests, sourced
# after lib/simlab.sh (uses LAB, STATE, INV, fail).
#
#   TMP                     a private temporary directory (removed on exit)
#   lab_db ARGS...          lab_up ARGS (lib/simlab.sh), and DB gets
#                           $TMP/db.sqlite, the path of the test's store
#   sq DB SQL               one sqlite3 query, busy-waiting on a writer
#   ns_procs HOST COMM      pids of the processes named COMM on HOST
#   wait_proc HOST COMM S   waits (up to S s) for such a process; prints a pid
#   wait_log FILE RE S      waits (up to S s) until FILE has a line matching RE
#   run_id OUT              the id of the run start_run OUT started
#
# The store is only read once labrat has exited: a second process opening
# the database while labrat has it open currently breaks labrat's own
# read-only connections (store.c reads the header with fopen/fclose, which
# drops the process's POSIX locks; the other process then deletes the WAL).
#   (check_restored, check_links_restored: lib/simlab.sh)
#   check_samples DB RUN    one interval-0 throughput sample per done job,
#                           none for jobs that are not done
#   (LABRAT_TEST_KEEP=1 keeps TMP for a look after a failure)
#   start_run OUT ARGS...   labrat run in the background (RUN_PID); stdout
#                           to OUT.out, stderr to OUT.err

TMP=$(mktemp -d /tmp/labrat-run.XXXXXX) || fail "mktemp"

run_cleanup() {
	[ -n "${RUN_PID:-}" ] && kill -9 "$RUN_PID" 2>/dev/null
	lab_down
	if [ -n "${LABRAT_TEST_KEEP:-}" ]; then
		echo "# kept $TMP" >&2
	else
		rm -rf "$TMP"
	fi
}
trap run_cleanup EXIT

lab_db() {
	lab_up "$@"
	DB=$TMP/db.sqlite
}

sq() {
	sqlite3 -batch -noheader -cmd '.timeout 5000' "$1" "$2"
}

ns_procs() {
	_pids=$(ip netns pids "$LAB-$1" 2>/dev/null | tr '\n' ' ')
	[ -n "$_pids" ] || return 0
	# shellcheck disable=SC2086
	ps -o pid=,comm= -p "$(echo $_pids | tr ' ' ,)" 2>/dev/null |
	    awk -v c="$2" '$2 == c { print $1 }'
}

wait_proc() {
	_end=$(( $(now_ms) + $3 * 1000 ))
	while [ "$(now_ms)" -lt $_end ]; do
		_p=$(ns_procs "$1" "$2" | head -n 1)
		if [ -n "$_p" ]; then
			echo "$_p"
			return 0
		fi
		sleep 0.05
	done
	return 1
}

wait_log() {
	_end=$(( $(now_ms) + $3 * 1000 ))
	while [ "$(now_ms)" -lt $_end ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# run_id OUT: the id of the run started with start_run OUT (from its log).
run_id() {
	wait_log "$1.err" "^labrat: run [0-9]* started" 10 || return 1
	sed -n 's/^labrat: run \([0-9]*\) started.*/\1/p' "$1.err" | head -n 1
}

check_samples() {
	_bad=$(sq "$1" "SELECT j.id || ' ' || j.state || ' ' || count(s.id)
	    FROM jobs j LEFT JOIN samples s ON s.job_id = j.id AND
	    s.metric = 'throughput_bps' AND s.interval = 0
	    WHERE j.run_id = $2 GROUP BY j.id
	    HAVING (j.state = 'done' AND count(s.id) <> 1) OR
	    (j.state <> 'done' AND count(s.id) <> 0)")
	[ -z "$_bad" ] || fail "run $2: jobs with a wrong number of samples (id state n): $_bad"
}

start_run() {
	_o=$1
	shift
	"$LABRAT" run "$@" >"$_o.out" 2>"$_o.err" &
	RUN_PID=$!
}

# wait_run: waits for the background run; RC gets its exit status.
wait_run() {
	wait "$RUN_PID"
	RC=$?
	RUN_PID=
}
