#!/bin/sh
# labrat run against infrastructure faults on the simulated lab (one lab,
# one run per case on the em link: TSO off then on at MTU 9000, a 2 s
# iperf3 each):
# - the sshd serving the controller's session on em-a is killed mid-iperf;
# - em-b reboots mid-job (the lab's `host reboot`);
# - the agent on em-a hangs (SIGSTOP) past the job's deadline;
# - em-b's known host key is wrong: the run fails at once naming the host
#   and the fingerprint, no host is changed, and it resumes once fixed;
# - em-a's sshd dies for good mid-iperf: the run fails fast, naming em-a.
# In every case the hosts end with their original settings (TSO on, MTU
# 1500, no nft table labrat), the run completes (the job retried) or fails
# with a clear reason, and no sample is duplicated.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=rflt$$
. "$(dirname "$0")/lib/run.sh"

lab_up --boot-seconds 0.3
DB=$TMP/db.sqlite
EMB=$(mgmt_of em-b)

cat > "$TMP/plan.json" <<'EOF'
{
  "links": ["em"],
  "knobs": { "tso": [false, true], "mtu": [9000] },
  "workloads": [ { "tool": "iperf3", "time": 2 } ],
  "repetitions": 1,
  "timeouts": { "connect": 3, "job": 5 },
  "retries": 2,
  "stats": { "adaptive": false }
}
EOF

# run_case NAME: a run in the background; sets RUN once it is in the store.
run_case() {
	T0=$(now_ms)
	start_run "$TMP/$1" --db "$DB" --inventory "$INV" --plan "$TMP/plan.json"
	RUN=$(run_id "$TMP/$1") ||
	    fail "$1: the run did not start: $(cat "$TMP/$1.err")"
}

# A run that completed with both jobs done, one of them on a second attempt.
check_retried() {	# check_retried NAME REASON_PATTERN
	[ "$RC" -eq 0 ] || fail "$1: exit $RC: $(cat "$TMP/$1.err")"
	[ "$(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")" = done ] ||
	    fail "$1: run state $(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")"
	[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'done'")" = 2 ] ||
	    fail "$1: jobs $(sq "$DB" "SELECT state, reason FROM jobs WHERE run_id = $RUN")"
	[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND attempt > 1")" -ge 1 ] ||
	    fail "$1: no job was retried"
	grep -q "^labrat: retrying em .* after attempt 1: .*$2" "$TMP/$1.err" ||
	    fail "$1: no retry line matching '$2': $(cat "$TMP/$1.err")"
	check_samples "$DB" "$RUN"
	check_links_restored
	note "$1: $(grep -c "^labrat: retrying" "$TMP/$1.err") retries, both jobs done in $(( $(now_ms) - T0 )) ms, hosts restored"
}

# --- sshd killed mid-iperf: the sshd processes serving em-a's sessions die
# (the listener stays, as a supervisor would restart it).
run_case sshd
# (the first run also builds the agent on both hosts: ~5 s each on an idle
# machine, 20 s on a loaded one)
wait_proc em-a iperf3 120 >/dev/null || fail "sshd: no iperf3 on em-a: $(cat "$TMP/sshd.err")"
listener=$(cat "$STATE/hosts/em-a/sshd.pid")
kids=$(ns_procs em-a sshd | grep -vx "$listener" | tr '\n' ' ')
[ -n "$kids" ] || fail "sshd: no session sshd besides the listener $listener"
# shellcheck disable=SC2086
kill -9 $kids
wait_run
check_retried sshd "em-a"

# --- em-b reboots mid-job: its sessions drop, it is away ~1 s, and comes
# back with default NIC settings; the job is retried once it answers.
run_case reboot
wait_proc em-a iperf3 30 >/dev/null || fail "reboot: no iperf3 on em-a"
lab_ssh "$EMB" "$STATE/bin/host" reboot >/dev/null || fail "reboot em-b"
wait_run
check_retried reboot "em-"
grep -q "boot" "$STATE/hosts/em-b/boot.log" 2>/dev/null ||
    note "reboot: (no boot.log to confirm the reboot)"

# --- the agent hangs past the job's deadline (job timeout 5 s).
run_case hang
ip=$(wait_proc em-a iperf3 30) || fail "hang: no iperf3 on em-a"
agent=$(ps -o ppid= -p "$ip" | tr -d ' ')
[ "$(ps -o comm= -p "$agent")" = labrat-agent ] ||
    fail "hang: iperf3's parent is $(ps -o comm= -p "$agent")"
t0=$(now_ms)
kill -STOP "$agent"
wait_run
kill -CONT "$agent" 2>/dev/null
check_retried hang "timed out"
note "hang: the run took $(( $(now_ms) - t0 )) ms after the agent stopped"

# --- a wrong host key for em-b: nothing is touched, the reason names the
# host and the fingerprint; fixed, the same run resumes and completes.
ssh-keygen -q -t ed25519 -N '' -f "$TMP/otherkey" || fail "ssh-keygen"
cp "$STATE/known_hosts" "$TMP/known_hosts"
awk -v a="$EMB" -v k="$(cut -d' ' -f1,2 "$TMP/otherkey.pub")" \
    '$1 == a { $0 = a " " k } { print }' "$STATE/known_hosts" > "$TMP/known_hosts"
jq --arg k "$TMP/known_hosts" '.hosts[].ssh.known_hosts = $k' "$INV" > "$TMP/inv.json"
real_fp=$(ssh-keygen -l -f "$STATE/hosts/em-b/etc-ssh/ssh_host_ed25519_key.pub" | cut -d' ' -f2)
"$LABRAT" run --db "$DB" --inventory "$TMP/inv.json" --plan "$TMP/plan.json" \
    >"$TMP/key.out" 2>"$TMP/key.err"
RC=$?
RUN=$(sq "$DB" "SELECT max(id) FROM runs")
[ $RC -eq 1 ] || fail "wrong key: exit $RC: $(cat "$TMP/key.err")"
grep "em-b" "$TMP/key.err" | grep -q -- "$real_fp" ||
    fail "wrong key: no message with em-b and $real_fp: $(cat "$TMP/key.err")"
reason=$(sq "$DB" "SELECT state || ': ' || reason FROM runs WHERE id = $RUN")
case $reason in
"failed: not started: "*em-b*"$real_fp"*) ;;
*) fail "wrong key: run $RUN is '$reason'" ;;
esac
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND (attempt > 0 OR state <> 'queued')")" = 0 ] ||
    fail "wrong key: jobs were started"
check_links_restored
note "wrong key: exit 1, '$(grep -m1 MISMATCH "$TMP/key.err" | cut -c1-100)...'"
cp "$STATE/known_hosts" "$TMP/known_hosts"
"$LABRAT" run --db "$DB" --resume "$RUN" >"$TMP/key2.out" 2>"$TMP/key2.err" ||
    fail "resume after fixing known_hosts: $(cat "$TMP/key2.err")"
[ "$(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")" = done ] || fail "resumed run not done"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'done'")" = 2 ] ||
    fail "resumed run: not all jobs done"
check_samples "$DB" "$RUN"
check_links_restored
note "wrong key: fixed and resumed, both jobs done"

# --- sshd of em-a dies for good mid-iperf (listener and sessions): the
# run waits once (job timeout) for em-a, then fails fast, naming em-a; em-b
# is restored, em-a is left to its rollback timer; a power cycle brings it
# back.
run_case dead
wait_proc em-a iperf3 30 >/dev/null || fail "dead: no iperf3 on em-a"
# shellcheck disable=SC2046
kill -9 $(ns_procs em-a sshd)
wait_run
[ "$RC" -eq 1 ] || fail "dead: exit $RC: $(cat "$TMP/dead.err")"
took=$(( $(now_ms) - T0 ))
[ $took -lt 25000 ] || fail "dead: took $took ms"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'failed'
    AND reason LIKE 'em-a:%'")" = 2 ] ||
    fail "dead: jobs $(sq "$DB" "SELECT state, reason FROM jobs WHERE run_id = $RUN")"
grep -q "em-a: still not answering after 5 s" "$TMP/dead.err" ||
    fail "dead: no 'still not answering' line: $(cat "$TMP/dead.err")"
grep -q "1 host interfaces could not be restored" "$TMP/dead.err" ||
    fail "dead: the restore failure is not reported: $(cat "$TMP/dead.err")"
[ "$(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")" = failed ] || fail "dead: run not failed"
check_samples "$DB" "$RUN"
check_restored em-b em0
[ -s "$STATE/hosts/em-a/var-lib-labrat/rollback/em0.pid" ] ||
    fail "dead: no rollback timer armed on em-a"
note "dead: exit 1 after $took ms, both jobs failed naming em-a, em-b restored, em-a's rollback timer armed"
"$LABRAT" lab power-cycle --name "$LAB" --host em-a >/dev/null || fail "power-cycle em-a"
wait_ssh em-a 10 || fail "em-a did not come back"
echo "PASS run_faults"
