#!/bin/sh
# labrat run refuses what cannot be a measurement (the em link, 2 s runs):
# - a lying iperf3 on em-a (bind-mounted over /usr/bin/iperf3 in that
#   host's own mount namespace: the real iperf3, its JSON's received bytes
#   and bits/s multiplied by 23) reports ~22 Gbit/s on the 1 Gbit/s link:
#   the job fails naming the link speed and its sources, no sample stored;
# - iperf3 killed mid-run, the client (SIGKILL) and then the server: both
#   jobs fail with the tool's fate, no sample stored;
# - iperf2 and scp: the stored throughput is bytes x 8 / seconds, from
#   iperf2's exact CSV counts (not rounded to 3 significant digits) and
#   scp's file size, as the agent's raw result says.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=plaus$$
. "$(dirname "$0")/lib/run.sh"
command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: sqlite3 missing" >&2; exit 77; }

lab_up
DB=$TMP/db.sqlite
REAL=$(command -v iperf3)

plan() {	# plan FILE WORKLOADS REPETITIONS
	cat > "$1" <<EOF
{
  "links": ["em"],
  "knobs": { "tso": [true] },
  "workloads": [ $2 ],
  "repetitions": $3,
  "timeouts": { "connect": 5, "job": 20 },
  "retries": 0,
  "stats": { "adaptive": false }
}
EOF
}

# run_plan NAME PLAN: labrat run in the foreground; RUN, RC.
run_plan() {
	"$LABRAT" run --db "$DB" --inventory "$INV" --plan "$2" \
	    >"$TMP/$1.out" 2>"$TMP/$1.err"
	RC=$?
	RUN=$(sed -n 's/^labrat: run \([0-9]*\) started.*/\1/p' "$TMP/$1.err" | head -n 1)
	[ -n "$RUN" ] || fail "$1: no run started (exit $RC): $(cat "$TMP/$1.err")"
}

# no_samples NAME: the run's failed jobs hold no sample of any metric.
no_samples() {
	_n=$(sq "$DB" "SELECT count(*) FROM samples s JOIN jobs j ON j.id = s.job_id
	    WHERE j.run_id = $RUN AND j.state <> 'done'")
	[ "$_n" = 0 ] || fail "$1: $_n samples stored for jobs not done"
}

# --- A lying iperf3 on em-a.
mkdir -p "$STATE/plaus"
cp "$REAL" "$STATE/plaus/iperf3.real" || fail "copy $REAL"
cat > "$STATE/plaus/iperf3" <<EOF
#!/bin/sh
# iperf3 that lies: its -J report's received bytes and rate x factor.
case " \$* " in
*" -c "*" -J "*) ;;
*) exec "$STATE/plaus/iperf3.real" "\$@" ;;
esac
out=\$("$STATE/plaus/iperf3.real" "\$@")
rc=\$?
f=\$(cat "$STATE/plaus/factor")
# once: this run lies, the next ones do not.
if [ -f "$STATE/plaus/once" ]; then
	rm -f "$STATE/plaus/once"
	echo 1 > "$STATE/plaus/factor"
fi
printf '%s\n' "\$out" | jq -c --argjson f "\$f" '.end.sum_received.bytes *= \$f |
    .end.sum_received.bits_per_second *= \$f' || exit 1
exit \$rc
EOF
chmod 755 "$STATE/plaus/iperf3"
SSHD=$(ns_procs em-a sshd | head -n 1)
[ -n "$SSHD" ] || fail "no sshd on em-a"
nsenter -t "$SSHD" -m mount --bind "$STATE/plaus/iperf3" "$REAL" ||
    fail "bind-mount the lying iperf3 on em-a"
lab_ssh "$(mgmt_of em-a)" "head -n 3 $REAL" |
    grep -q "that lies" || fail "em-a does not see the lying iperf3"
ip netns exec "$LAB-em-a" sh -c "head -n 3 $REAL" | grep -q "that lies" &&
    fail "the lying iperf3 leaked out of em-a's mount namespace"

echo 23 > "$STATE/plaus/factor"
plan "$TMP/iperf3.json" '{ "tool": "iperf3", "time": 2 }' 1
run_plan liar "$TMP/iperf3.json"
reason=$(sq "$DB" "SELECT state || ': ' || coalesce(reason, '') FROM jobs WHERE run_id = $RUN")
echo "$reason" | grep -Eq '^failed: em: iperf3 reported (1[89]|2[0-9])[0-9]{3}\.[0-9] Mbit/s, above the link speed 1000 Mbit/s \(lowest of em-a em0 10000, em-b em0 10000, inventory 1000\)$' ||
    fail "liar: job $reason"
[ "$RC" -ne 0 ] || fail "liar: labrat run exited 0 with a failed job"
no_samples liar
sq "$DB" "SELECT data FROM raw_outputs r JOIN jobs j ON j.id = r.job_id
    WHERE j.run_id = $RUN" | grep -q '"event":"result"' ||
    fail "liar: the agent's raw result was not kept"
check_links_restored
note "liar: $reason"

# --- The same liar x 3 where nobody knows the wire is 1 Gbit/s (the
# inventory declares no speed: the bound is the veths' 10000): em-b's
# interface counters show it received a third of what iperf3 claims.
echo 3 > "$STATE/plaus/factor"
jq 'del(.hosts[].nics[].speed_mbps)' "$INV" > "$TMP/nospeed.json"
"$LABRAT" run --db "$DB" --inventory "$TMP/nospeed.json" --plan "$TMP/iperf3.json" \
    >"$TMP/rx.out" 2>"$TMP/rx.err"
RC=$?
# --- A liar once, then honest: two jobs of the em link at MTU 9000.  The
# first fails its check after the second was claimed and its apply begun
# beside the first's counters and store (executor_job.c, job_next()): that
# apply is dropped, the link restored as after any failed job, and the
# second job applied anew from the originals, so both ends change the MTU
# for each job (kept from the first job, the second would change nothing).
echo 23 > "$STATE/plaus/factor"
touch "$STATE/plaus/once"
jq '.knobs.mtu = [9000] | .repetitions = 2' "$TMP/iperf3.json" > "$TMP/once.json"
"$LABRAT" -vv run --db "$DB" --inventory "$INV" --plan "$TMP/once.json" \
    >"$TMP/once.out" 2>"$TMP/once.err"
RUN=$(sed -n 's/^labrat: run \([0-9]*\) started.*/\1/p' "$TMP/once.err" | head -n 1)
[ -n "$RUN" ] || fail "once: no run started: $(cat "$TMP/once.err")"
states=$(sq "$DB" "SELECT group_concat(state, ' ') FROM (SELECT state FROM jobs
    WHERE run_id = $RUN ORDER BY started_at)")
[ "$states" = "failed done" ] ||
    fail "once: jobs '$states', want 'failed done': $(tail -5 "$TMP/once.err")"
for h in em-a em-b; do
	ch=$(grep "): $h em0: [0-9]* knob(s) changed" "$TMP/once.err" |
	    sed 's/.*: \([0-9]*\) knob(s) changed.*/\1/' | tr '\n' ' ')
	[ "$ch" = "1 1 " ] || fail "once: $h changed '$ch' knob(s) per job, want '1 1 '"
done
no_samples once
[ "$(sq "$DB" "SELECT count(*) FROM samples s JOIN jobs j ON j.id = s.job_id
    WHERE j.run_id = $RUN AND j.state = 'done' AND metric = 'throughput_bps'
    AND interval = 0")" = 1 ] || fail "once: the second job has no throughput"
check_links_restored
note "once: the failed job's link restored, the next job applied anew"

nsenter -t "$SSHD" -m umount "$REAL" || fail "umount the lying iperf3"
RUN=$(sed -n 's/^labrat: run \([0-9]*\) started.*/\1/p' "$TMP/rx.err" | head -n 1)
[ -n "$RUN" ] || fail "rx: no run started (exit $RC): $(cat "$TMP/rx.err")"
reason=$(sq "$DB" "SELECT state || ': ' || coalesce(reason, '') FROM jobs WHERE run_id = $RUN")
echo "$reason" | grep -Eq '^failed: em: iperf3 reported [0-9]+ bytes, but em-b em0 received only [0-9]+ bytes during the run \(rx counters before/after\)$' ||
    fail "rx: job $reason"
no_samples rx
check_links_restored
note "rx: $reason"

# --- iperf3 killed mid-run: the client, then the server.
# client_pid [NOT]: an iperf3 client (-c; not the agent's `iperf3 -v`
# probe) on em-a other than pid NOT, waiting up to 20 s.
client_pid() {
	_end=$(( $(now_ms) + 20000 ))
	while [ "$(now_ms)" -lt $_end ]; do
		for _p in $(ns_procs em-a iperf3); do
			[ "$_p" != "${1:-}" ] || continue
			tr '\0' ' ' < "/proc/$_p/cmdline" 2>/dev/null |
			    grep -q -- ' -c ' && { echo "$_p"; return 0; }
		done
		sleep 0.05
	done
	return 1
}
plan "$TMP/kill.json" '{ "tool": "iperf3", "time": 2 }' 2
"$LABRAT" run --db "$DB" --inventory "$INV" --plan "$TMP/kill.json" \
    >"$TMP/kill.out" 2>"$TMP/kill.err" &
RUN_PID=$!
c=$(client_pid) || fail "kill: no iperf3 client on em-a: $(cat "$TMP/kill.err")"
sleep 0.5
kill -9 "$c" || fail "kill: the iperf3 client $c was gone"
wait_log "$TMP/kill.err" "^labrat: job 1/2 .*failed" 20 ||
    fail "kill: job 1 did not fail: $(cat "$TMP/kill.err")"
# The next job's client runs: kill its server.
n=$(client_pid "$c") || fail "kill: no second iperf3 client"
sleep 0.5
s=$(ns_procs em-b iperf3 | head -n 1)
[ -n "$s" ] || fail "kill: no iperf3 server on em-b"
kill -9 "$s"
wait_run
RUN=$(sed -n 's/^labrat: run \([0-9]*\) started.*/\1/p' "$TMP/kill.err" | head -n 1)
[ "$RC" -ne 0 ] || fail "kill: labrat run exited 0"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'failed'")" = 2 ] ||
    fail "kill: jobs $(sq "$DB" "SELECT seq, state, reason FROM jobs WHERE run_id = $RUN")"
sq "$DB" "SELECT reason FROM jobs WHERE run_id = $RUN AND seq = (SELECT min(seq) FROM jobs WHERE run_id = $RUN)" |
    grep -q "killed by signal 9" ||
    fail "kill: client job: $(sq "$DB" "SELECT reason FROM jobs WHERE run_id = $RUN")"
no_samples kill
check_links_restored
note "kill: $(sq "$DB" "SELECT group_concat(reason, ' | ') FROM jobs WHERE run_id = $RUN")"

# --- iperf2 and scp: throughput = bytes x 8 / seconds, exact counts.
plan "$TMP/exact.json" '{ "tool": "iperf2", "time": 2 }, { "tool": "scp", "size": "1440k" }' 1
run_plan exact "$TMP/exact.json"
[ "$RC" -eq 0 ] || fail "exact: exit $RC: $(cat "$TMP/exact.err")"
check_samples "$DB" "$RUN"
for tool in iperf2 scp; do
	row=$(sq "$DB" "SELECT t.value, b.value, s.value,
	    abs(t.value - b.value * 8 / s.value) / t.value
	    FROM jobs j JOIN samples t ON t.job_id = j.id AND t.metric = 'throughput_bps' AND t.interval = 0
	    JOIN samples b ON b.job_id = j.id AND b.metric = 'bytes' AND b.interval = 0
	    JOIN samples s ON s.job_id = j.id AND s.metric = 'seconds' AND s.interval = 0
	    WHERE j.run_id = $RUN AND j.tool = '$tool' AND j.state = 'done'")
	[ -n "$row" ] || fail "exact: no $tool sample: $(sq "$DB" "SELECT tool, state, reason FROM jobs WHERE run_id = $RUN")"
	echo "$row" | awk -F'|' '{ exit !($4 < 1e-12) }' ||
	    fail "exact: $tool throughput is not bytes x 8 / seconds: $row"
	# The agent's own result (kept raw) has the same bytes and seconds.
	raw=$(sq "$DB" "SELECT r.data FROM raw_outputs r JOIN jobs j ON j.id = r.job_id
	    WHERE j.run_id = $RUN AND j.tool = '$tool'" | grep '"event":"result"')
	rb=$(echo "$raw" | jq -r '.bytes')
	rs=$(echo "$raw" | jq -r '.seconds')
	echo "$row" | awk -F'|' -v b="$rb" -v s="$rs" '{ exit !($2 == b && $3 == s) }' ||
	    fail "exact: $tool stored $row, the agent said bytes $rb seconds $rs"
	note "exact: $tool $(echo "$row" | awk -F'|' '{ printf "%.0f bytes in %s s = %.6f Mbit/s", $2, $3, $1 / 1e6 }')"
done
raw=$(sq "$DB" "SELECT r.data FROM raw_outputs r JOIN jobs j ON j.id = r.job_id
    WHERE j.run_id = $RUN AND j.tool = 'iperf2'" | grep '"event":"result"')
[ "$(echo "$raw" | jq -r '"\(.format) \(.exact)"')" = "csv true" ] ||
    fail "exact: iperf2 was not read from its CSV: $raw"
# 3 significant digits (the text's "1.02 Gbits/sec") would leave a
# multiple of 10^6 bit/s; an exact count almost never does.
echo "$raw" | jq -e '(.bps % 1000000) != 0' >/dev/null ||
    fail "exact: iperf2 figures look rounded: $raw"
[ "$(sq "$DB" "SELECT b.value FROM jobs j JOIN samples b ON b.job_id = j.id AND b.metric = 'bytes'
    WHERE j.run_id = $RUN AND j.tool = 'scp'")" = 1474560.0 ] ||
    fail "exact: scp bytes are not the file's size"
check_links_restored
echo "PASS run_plaus"
