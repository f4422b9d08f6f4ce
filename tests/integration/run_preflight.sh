#!/bin/sh
# The preflight before every measurement, on the simulated lab (em link,
# 1 s iperf3 jobs):
# - a clean lab: every job passes its preflight; its cost per job is
#   printed (the controller's -vv log: both agents, SSH round trips);
# - em-b drops every IPv4 packet longer than 1500 bytes coming in on em0
#   (nft), the plan asks MTU 1500 and 9000: the 9000 job fails with a
#   preflight reason naming em-a, em0 and the DF ping of 8972 bytes, class
#   infra, no sample; the 1500 job is measured;
# - em0 set down in em-a's namespace: the job fails naming em-a and em0;
# - leftover NAT (a table ip labrat on em-b while the job asks none) fails
#   the preflight, naming the table.
# Failures are never samples (sqlite3 on the store), and every host ends
# with its original settings.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=pfl$$
. "$(dirname "$0")/lib/run.sh"

command -v ping >/dev/null 2>&1 || {
	echo "SKIP: ping missing (run scripts/install-deps.sh)" >&2
	exit 77
}
lab_up
DB=$TMP/db.sqlite

plan() {	# plan FILE MTUS
	cat > "$1" <<EOF
{
  "links": ["em"],
  "knobs": { "mtu": [$2] },
  "workloads": [ { "tool": "iperf3", "time": 1 } ],
  "repetitions": 1,
  "timeouts": { "connect": 5, "job": 20 },
  "retries": 1,
  "stats": { "adaptive": false }
}
EOF
}

# run NAME PLAN: labrat run -vv; sets RUN, RC.
run() {
	"$LABRAT" -vv run --db "$DB" --inventory "$INV" --plan "$2" \
	    >"$TMP/$1.out" 2>"$TMP/$1.err"
	RC=$?
	RUN=$(sq "$DB" "SELECT max(id) FROM runs")
}

# job_of RUN KNOBS -> "state|failure_class|reason|attempt"
job_of() {
	sq "$DB" "SELECT state || '|' || coalesce(failure_class, '') || '|' ||
	    coalesce(reason, '') || '|' || attempt FROM jobs
	    WHERE run_id = $1 AND knobs = '$2'"
}

nsamples() {
	sq "$DB" "SELECT count(*) FROM samples s JOIN jobs j ON s.job_id = j.id
	    WHERE j.run_id = $1 AND j.knobs = '$2'"
}

# --- a clean lab: both jobs pass; the cost of a preflight per job.
plan "$TMP/clean.json" "1500, 9000"
run clean "$TMP/clean.json"
[ "$RC" -eq 0 ] || fail "clean: exit $RC: $(tail -5 "$TMP/clean.err")"
for k in mtu=1500 mtu=9000; do
	j=$(job_of "$RUN" $k)
	[ "${j%%|*}" = done ] || fail "clean $k: $j"
	[ "$(nsamples "$RUN" $k)" -gt 0 ] || fail "clean $k: no samples"
done
costs=$(sed -n 's/.*preflight ok in \([0-9]*\) ms (agent \([0-9.]*\) ms on em-a, \([0-9.]*\) ms on em-b).*/\1 (agents \2, \3)/p' \
    "$TMP/clean.err" | tr '\n' ' ')
[ -n "$costs" ] || fail "clean: no preflight in the log: $(grep -i preflight "$TMP/clean.err" | head -3)"
note "clean: both jobs measured; preflight per job, ms: $costs; load $(cut -d' ' -f1 /proc/loadavg)"
check_links_restored

# --- large DF packets dropped on the path: 9000 fails, 1500 is measured.
ip netns exec "$LAB-em-b" nft -f - <<'EOF' || fail "nft drop rule"
table ip pfdrop {
	chain in {
		type filter hook input priority 0;
		iifname "em0" ip length > 1500 drop
	}
}
EOF
run drop "$TMP/clean.json"
ip netns exec "$LAB-em-b" nft delete table ip pfdrop
[ "$RC" -eq 1 ] || fail "drop: exit $RC, want 1: $(tail -3 "$TMP/drop.err")"
j=$(job_of "$RUN" mtu=9000)
case $j in
failed\|infra\|"preflight failed on em-a em0: path: no reply to a DF ping of 8972 bytes to "*\|1) ;;
*) fail "drop mtu=9000: $j" ;;
esac
[ "$(nsamples "$RUN" mtu=9000)" -eq 0 ] || fail "drop: the failed job has samples"
j=$(job_of "$RUN" mtu=1500)
[ "${j%%|*}" = done ] || fail "drop mtu=1500: $j"
[ "$(nsamples "$RUN" mtu=1500)" -gt 0 ] || fail "drop mtu=1500: no samples"
# The report and the list of runs say the failure was the lab's.
"$LABRAT" report "$RUN" --db "$DB" --no-baseline > "$TMP/drop.report" 2>&1
grep -qx "jobs: 1 of 2 jobs done, 1 failed (1 by the lab: preflight or infrastructure)" \
    "$TMP/drop.report" || fail "drop: report header: $(head -5 "$TMP/drop.report")"
"$LABRAT" runs --db "$DB" | grep -q "1/2, 1 failed (1 infra)" ||
    fail "drop: labrat runs: $("$LABRAT" runs --db "$DB")"
[ "$("$LABRAT" runs --db "$DB" --format json |
    jq --argjson r "$RUN" '.runs[] | select(.id == $r) | .jobs.failed_infra')" = 1 ] ||
    fail "drop: runs JSON lacks jobs.failed_infra = 1"
note "DF drop: mtu=1500 measured, mtu=9000 failed (infra, 1 attempt, no sample): $(job_of "$RUN" mtu=9000 | cut -d'|' -f3 | cut -c1-110)..."
check_links_restored

# --- em0 down on em-a: the job fails naming em-a and em0.
plan "$TMP/one.json" "1500"
ip -n "$LAB-em-a" link set dev em0 down
run down "$TMP/one.json"
ip -n "$LAB-em-a" link set dev em0 up
[ "$RC" -eq 1 ] || fail "down: exit $RC, want 1"
j=$(job_of "$RUN" mtu=1500)
case $j in
failed\|infra\|"preflight failed on em-a em0: link: em0 is down (administratively)"*) ;;
*) fail "down: $j" ;;
esac
[ "$(nsamples "$RUN" mtu=1500)" -eq 0 ] || fail "down: the failed job has samples"
note "link down: $(echo "$j" | cut -d'|' -f3)"

# --- NAT left over on em-b while the job asks none.
ip netns exec "$LAB-em-b" nft add table ip labrat
run nat "$TMP/one.json"
ip netns exec "$LAB-em-b" nft delete table ip labrat
[ "$RC" -eq 1 ] || fail "nat: exit $RC, want 1"
j=$(job_of "$RUN" mtu=1500)
case $j in
failed\|infra\|"preflight failed on em-b em0: state: nft table ip labrat left over"*) ;;
*) fail "nat: $j" ;;
esac
[ "$(nsamples "$RUN" mtu=1500)" -eq 0 ] || fail "nat: the failed job has samples"
note "leftover NAT: $(echo "$j" | cut -d'|' -f3)"

# No failed job of any run is a sample; every host is as it was.
check_samples "$DB" 1
check_samples "$DB" 2
check_samples "$DB" 3
check_samples "$DB" 4
n=$(sq "$DB" "SELECT count(*) FROM jobs WHERE state = 'failed' AND
    (failure_class IS NOT 'infra' OR reason NOT LIKE 'preflight failed on %')")
[ "$n" -eq 0 ] || fail "$n failed jobs without a preflight reason / infra class"
check_links_restored
ip -n "$LAB-em-a" link show em0 | grep -q "state UP" ||
    fail "em-a em0 is not up again"
note "every failure: class infra, a preflight reason, no sample; hosts restored"
