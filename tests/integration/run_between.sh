#!/bin/sh
# What runs between two jobs of a link (the bce link alone: TSO on and off at
# MTU 1500 with kernel NAT on bce-a, the sender and NAT host; a 3 s iperf3,
# 2 repetitions, no retries, the job timeout 60 s):
# - the server end (bce-b) is applied for the link's first job only: its
#   rollback timer still covers the next job, it is asked the same, so the
#   controller skips the call (executor_link.c, apply_skip());
# - between jobs 1 and 2 the iperf3 server is killed and labrat's NAT table
#   deleted from outside; between jobs 2 and 3 the sender's MTU is set to
#   1400 from outside.  The client's apply of the next job is held (the test
#   holds bce-a's interface lock, state/bce1.lock, as an apply would) until
#   the last job is stored, so each change lands exactly between two jobs.
#   The dead server is found by the client's refused connect, restarted and
#   the run goes again within the same attempt (the job is done, its figure
#   plausible); the NAT change is caught by the ruleset generation the agent
#   checks instead of running nft (NAT is put back: 2 knobs changed), the
#   MTU change by the sysfs read (MTU put back, the path pinged again);
# - the receiver checked by the serve --keep after each run: outside TSO and
#   MTU changes on bce-b during jobs 1 and 2 (landed while that serve waits
#   on bce-b's lease lock) make the next job apply bce-b again;
# - the agent alone: a TSO flip runs no nft, no ping and no ethtool (it
#   reads and sets offloads through ethtool's ioctl) and reads nothing once
#   NAT, the path and both offload states were verified in the interface's
#   saved life (verified/IF keeps the feature bitmap in force and the one
#   before, each with its offloads), and runs them again after an outside
#   change of the nft ruleset, the MTU or an offload to a state not seen
#   before (execs counted with strace).
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=rbtw$$
. "$(dirname "$0")/lib/run.sh"
: "${LABRAT_AGENT:?LABRAT_AGENT must point at the labrat-agent binary}"

lab_db
TIME=3

cat > "$TMP/plan.json" <<EOF
{
  "links": ["bce"],
  "knobs": { "tso": [true, false], "mtu": [1500], "nat": ["kernel"] },
  "workloads": [ { "tool": "iperf3", "time": $TIME } ],
  "repetitions": 2,
  "timeouts": { "connect": 3, "job": 60 },
  "retries": 0,
  "stats": { "adaptive": false }
}
EOF

LOCKF=$STATE/hosts/bce-a/var-lib-labrat/state/bce1.lock
LEASEF=$STATE/hosts/bce-b/var-lib-labrat/lease/lease.lock
LOCK_PID=
# lock_if [FILE]: holds bce-a's bce1 lock (an fcntl lock, as the agent takes
# it), or FILE, until unlock_if.
lock_if() {
	rm -f "$TMP/locked" "$TMP/release"
	python3 - "${1:-$LOCKF}" "$TMP/locked" "$TMP/release" <<'EOF' &
import fcntl, os, sys, time
f = open(sys.argv[1], "a+")
fcntl.lockf(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
end = time.time() + 60
while not os.path.exists(sys.argv[3]) and time.time() < end:
    time.sleep(0.02)
EOF
	LOCK_PID=$!
	_end=$(( $(now_ms) + 10000 ))
	while [ ! -e "$TMP/locked" ]; do
		[ "$(now_ms)" -lt $_end ] || fail "could not take ${1:-$LOCKF}"
		sleep 0.02
	done
}
unlock_if() {
	touch "$TMP/release"
	[ -n "$LOCK_PID" ] && wait "$LOCK_PID"
	LOCK_PID=
}

# between N: returns with job N stored and job N+1's client apply held;
# unlock_if lets it go on.
between() {
	wait_proc bce-a iperf3 30 >/dev/null ||
	    fail "job $1: no iperf3 client on bce-a: $(cat "$TMP/r.err")"
	lock_if
	# The lock must have come while job N's workload ran, not after the
	# next apply took it: job N+1 has not been logged as done or failed.
	wait_log "$TMP/r.err" "^labrat: job $1/4 .*: done" 60 ||
	    fail "job $1 not done: $(cat "$TMP/r.err")"
	[ -n "$(ns_procs bce-a iperf3)" ] &&
	    fail "job $1: an iperf3 client runs on bce-a while its apply is held (the lock came too late)"
	return 0
}

start_run "$TMP/r" -vv --db "$DB" --inventory "$INV" --plan "$TMP/plan.json"
between 1
# The server and labrat's NAT go away between jobs 1 and 2.
srv=$(ns_procs bce-b iperf3)
[ -n "$srv" ] || fail "no iperf3 server on bce-b after job 1"
# shellcheck disable=SC2086
kill $srv
ip netns exec "$LAB-bce-a" nft delete table ip labrat ||
    fail "could not delete the NAT table on bce-a"
unlock_if
between 2
# Job 2 ran with NAT put back.
ip netns exec "$LAB-bce-a" nft list table ip labrat >/dev/null 2>&1 ||
    fail "job 2 ran without NAT on bce-a (the outside change was not caught)"
ip -n "$LAB-bce-a" link set bce1 mtu 1400 || fail "could not set the MTU"
unlock_if
wait_run
[ "$RC" -eq 0 ] || fail "run exited $RC: $(cat "$TMP/r.err")"
grep -q "^run 1: 4 jobs, 4 done, 0 failed" "$TMP/r.out" ||
    fail "run summary: $(cat "$TMP/r.out") $(cat "$TMP/r.err")"
check_samples "$DB" 1
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = 1 AND attempt = 1")" = 4 ] ||
    fail "a job took more than one attempt: $(sq "$DB" "SELECT id, attempt FROM jobs WHERE run_id = 1")"
# Job 2 (the server restarted) measured as job 4 (the same knobs) did.
tput() {
	sq "$DB" "SELECT value FROM samples WHERE job_id = $1 AND
	    metric = 'throughput_bps' AND interval = 0"
}
near "$(tput 2)" 500e6 2e9 && near "$(tput 2)" "$(echo "$(tput 4)" |
    awk '{ print $1 * 0.9 }')" "$(echo "$(tput 4)" | awk '{ print $1 * 1.1 }')" ||
    fail "job 2 measured $(tput 2) bit/s, job 4 $(tput 4)"
grep -q "bce-b: the iperf3 server was gone .*: started again, the run goes again" "$TMP/r.err" ||
    fail "the dead server was not restarted by the client's job: $(cat "$TMP/r.err")"
started=$(grep -c ": bce-b: iperf3 server .* started" "$TMP/r.err")
[ "$started" = 2 ] || fail "iperf3 server started $started times, want 2"
# Per job, what each end's apply did: N (knobs changed) or - (skipped).
per_job() {
	awk -v h="$1" 'index($0, "): " h " bce1: ") {
	    if ($0 ~ /apply skipped/) printf "- "
	    else if (match($0, /[0-9]+ knob\(s\) changed/))
		printf "%d ", substr($0, RSTART, RLENGTH) }' "$TMP/r.err"
}
# bce-a: NAT; then TSO and NAT (put back); TSO and MTU (put back); TSO.
# bce-b: applied for the first job only.
[ "$(per_job bce-a)" = "1 2 2 1 " ] ||
    fail "bce-a: knobs changed per job '$(per_job bce-a)', want '1 2 2 1 ': $(cat "$TMP/r.err")"
[ "$(per_job bce-b)" = "0 - - - " ] ||
    fail "bce-b: applies per job '$(per_job bce-b)', want '0 - - - '"
check_links_restored
[ -z "$(ns_procs bce-b iperf3)" ] || fail "the iperf3 server is still running"
note "run: server applied once, killed server restarted within the job, outside NAT and MTU changes put back"

# --- the receiver's timer is re-armed in time: with a job timeout of 45 s
# and 2 s jobs its apply arms 45 + 2 + 60 s, and a job needs 32 + 10 + 60 s
# of it (workload deadline, margin, two calls), so at most 5 s after an
# apply is skipped: with jobs of 2 s or more, never more than two in a row.
sed -e 's/"time": 3/"time": 2/' -e 's/"repetitions": 2/"repetitions": 4/' \
    -e 's/"job": 60/"job": 45/' "$TMP/plan.json" > "$TMP/plan2.json"
"$LABRAT" -vv run --db "$TMP/db2.sqlite" --inventory "$INV" \
    --plan "$TMP/plan2.json" >"$TMP/r.out" 2>"$TMP/r.err" ||
    fail "re-arm run exited $?: $(cat "$TMP/r.out")"
grep -q "^run 1: 8 jobs, 8 done, 0 failed" "$TMP/r.out" ||
    fail "re-arm run: $(cat "$TMP/r.out")"
pj=$(per_job bce-b)
case "$pj" in
0\ *-\ -\ -*|*-\ -\ -\ *) fail "bce-b: applies per job '$pj': more than two skipped in a row" ;;
0\ *0\ *) ;;
*) fail "bce-b: applies per job '$pj': never applied again" ;;
esac
grep -q "rollback timer" "$STATE/hosts/bce-b/var-lib-labrat/rollback/bce1.log" 2>/dev/null &&
    grep "fired" "$STATE/hosts/bce-b/var-lib-labrat/rollback/bce1.log" &&
    fail "bce-b: its rollback timer fired during the run"
check_links_restored
note "re-arm: bce-b applies per job '$pj'"

# --- the receiver checked every job: its apply is skipped while the serve
# --keep after each run finds bce-b's interface as that apply verified it
# (MTU, offload bitmap, nftables generation).  During jobs 1 and 2 the test
# holds bce-b's lease lock (the serve after the run waits for it), and once
# the job's client is gone flips bce-b's TSO (job 1) and sets its MTU to
# 1400 (job 2): each is caught by that serve, and the next job applies
# bce-b again (1 knob put back) within its attempt; job 4 skips again.
rx_change() {
	wait_proc bce-a iperf3 30 >/dev/null ||
	    fail "rx job $1: no iperf3 client on bce-a: $(cat "$TMP/r.err")"
	lock_if "$LEASEF"
	_end=$(( $(now_ms) + 30000 ))
	while [ -n "$(ns_procs bce-a iperf3)" ]; do
		[ "$(now_ms)" -lt $_end ] || fail "rx job $1: the client runs on"
		sleep 0.05
	done
	shift
	"$@" || fail "rx: could not run $*"
	unlock_if
}
start_run "$TMP/r" -vv --db "$TMP/db3.sqlite" --inventory "$INV" \
    --plan "$TMP/plan.json"
rx_change 1 ip netns exec "$LAB-bce-b" ethtool -K bce1 tso off
rx_change 2 ip -n "$LAB-bce-b" link set bce1 mtu 1400
wait_run
[ "$RC" -eq 0 ] || fail "rx run exited $RC: $(cat "$TMP/r.err")"
grep -q "^run 1: 4 jobs, 4 done, 0 failed" "$TMP/r.out" ||
    fail "rx run summary: $(cat "$TMP/r.out") $(cat "$TMP/r.err")"
[ "$(sq "$TMP/db3.sqlite" "SELECT count(*) FROM jobs WHERE run_id = 1 AND attempt = 1")" = 4 ] ||
    fail "rx: a job took more than one attempt"
[ "$(per_job bce-b)" = "0 1 1 - " ] ||
    fail "bce-b: knobs changed per job '$(per_job bce-b)', want '0 1 1 - ': $(cat "$TMP/r.err")"
[ "$(grep -c "bce-b: the receiver moved since its last apply .*: applied again" "$TMP/r.err")" = 2 ] ||
    fail "rx: the moves were not reported twice: $(cat "$TMP/r.err")"
check_links_restored
note "rx: outside TSO and MTU changes on the receiver put back before the next job ('$(per_job bce-b)')"

# --- the agent alone on bce-a (a state directory of its own).
PEER=$(jq -r '.links[] | select(.name == "bce") | .server.address' "$INV")
AST=$TMP/agent-state
# Each ag under strace: the agent sets its own PATH, so its execs are
# counted, not wrapped.
ag() {
	LABRAT_AGENT_STATE=$AST ip netns exec "$LAB-bce-a" strace -f -qq \
	    -e trace=execve -o "$TMP/exec.log" "$LABRAT_AGENT" apply --if bce1 \
	    --reset-others --preflight --peer "$PEER" "$@" 2>/dev/null |
	    tail -n 1 > "$TMP/a.json"
}
# How many times the last ag ran ethtool: never, the agent asks the kernel
# through ethtool's ioctl (what it read or took from verified/IF, .cached,
# tells the reads apart).
reads() { grep -c '"ethtool"' "$TMP/exec.log"; }
cached() { jq -c '.cached' "$TMP/a.json"; }
pinged() { jq -r '[.preflight.checks[].name] | index("path") != null' "$TMP/a.json"; }
ag --tso off --nat kernel
[ "$(cached)" = '[]' ] && [ "$(pinged)" = true ] ||
    fail "agent: first apply: cached $(cached), pinged $(pinged): $(cat "$TMP/a.json")"
ag --tso on --nat kernel
[ "$(cached)" = '["nat","offloads","read_back_offloads","path"]' ] &&
    [ "$(pinged)" = false ] && [ "$(reads)" = 0 ] &&
    [ "$(jq -r '.in_force.tso' "$TMP/a.json")" = true ] ||
    fail "agent: TSO flip: cached $(cached), pinged $(pinged), $(reads) ethtool, want nat, offloads (before and after) and path cached"
ip netns exec "$LAB-bce-a" nft add table ip outside
ag --tso off --nat kernel
[ "$(cached)" = '["read_back_offloads","path"]' ] ||
    fail "agent: after an outside nft change: cached $(cached), want the NAT read again"
ip netns exec "$LAB-bce-a" nft delete table ip outside
ag --tso on --nat kernel
[ "$(cached)" = '["read_back_offloads","path"]' ] ||
    fail "agent: after an outside nft delete: cached $(cached), want the NAT read again"
ip -n "$LAB-bce-a" link set bce1 mtu 1400
ag --tso off --nat kernel
[ "$(cached)" = '["nat","offloads","read_back_offloads"]' ] && [ "$(pinged)" = true ] &&
    [ "$(jq -r '.in_force.mtu' "$TMP/a.json")" = 1500 ] ||
    fail "agent: after an outside MTU change: cached $(cached), pinged $(pinged): $(cat "$TMP/a.json")"
ag --tso off --nat kernel
[ "$(cached)" = '["nat","offloads","read_back","path"]' ] &&
    [ "$(reads)" = 0 ] ||
    fail "agent: nothing to change: cached $(cached), $(reads) ethtool"
# An outside offload change moves the features bitmap: to the state before
# (TSO on), which verified/IF knows, it is seen and put back without a read;
# to a state not seen before (GSO off), read in full; then nothing is read
# again.
ip netns exec "$LAB-bce-a" ethtool -K bce1 tso on
ag --tso off --nat kernel
[ "$(cached)" = '["nat","offloads","read_back_offloads","path"]' ] &&
    [ "$(reads)" = 0 ] &&
    [ "$(jq -c '.changed' "$TMP/a.json")" = '["tso"]' ] &&
    [ "$(jq -r '.in_force.tso' "$TMP/a.json")" = false ] ||
    fail "agent: after an outside TSO change: cached $(cached), $(reads) ethtool: $(cat "$TMP/a.json")"
ip netns exec "$LAB-bce-a" ethtool -K bce1 gso off
ag --tso off --nat kernel
[ "$(cached)" = '["nat","read_back","path"]' ] && [ "$(reads)" = 0 ] ||
    fail "agent: after an outside GSO change: cached $(cached), $(reads) ethtool"
ag --tso off --nat kernel
[ "$(reads)" = 0 ] || fail "agent: unchanged: $(reads) ethtool"
ip netns exec "$LAB-bce-a" ethtool -K bce1 gso on
LABRAT_AGENT_STATE=$AST ip netns exec "$LAB-bce-a" "$LABRAT_AGENT" restore \
    --if bce1 >/dev/null 2>&1 || fail "agent: restore"
[ ! -e "$AST/verified/bce1" ] || fail "agent: verified/bce1 left after restore"
# With no `ip labrat` table (the restore deleted it), a first apply knows
# NAT is off from a netlink question: no nft process at all.
ag --tso off
[ "$(grep -c '"nft"' "$TMP/exec.log")" = 0 ] &&
    [ "$(jq -r '.in_force.nat' "$TMP/a.json")" = off ] ||
    fail "agent: no labrat table: $(grep -c '"nft"' "$TMP/exec.log") nft, NAT $(jq -r '.in_force.nat' "$TMP/a.json")"
LABRAT_AGENT_STATE=$AST ip netns exec "$LAB-bce-a" "$LABRAT_AGENT" restore \
    --if bce1 >/dev/null 2>&1 || fail "agent: restore"
check_links_restored
note "agent: a TSO flip runs no nft, no ping and no ethtool process (ethtool's ioctl); outside nft, MTU and offload changes make it read (and ping) again; no labrat table, no nft"
echo "PASS run_between"
