#!/bin/sh
# Detection on the simulated lab with 3 % noise: TSO x MTU on em, TSO x NAT
# on bce, iperf3 2 s, 4 repetitions then adaptive sampling up to 12.  The em
# fault must come out as a regression isolated to TSO on + MTU 9000, the
# bce fault as a collapse isolated to TSO on + NAT kernel, and no other
# comparison may be flagged.  Then the report's JSON, CSV and JUnit forms
# and `labrat compare` of the run with itself.
#
# The minimum effect is 5 %: on the simulated lab NAT kernel really costs
# ~2.5 % and MTU 9000 really gains ~2 % on their own (CPU per packet in the
# namespaces), true effects that a 3 % threshold at 3 % noise flags in some
# runs; the faults (-18 %, ~100x) are far beyond either.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=det$$
. "$(dirname "$0")/lib/run.sh"

lab_db --noise 3
cat > "$TMP/plan.json" <<'PLAN'
{
  "links": ["em", "bce"],
  "knobs": { "tso": [true, false], "mtu": [1500, 9000] },
  "per_link": { "bce": { "knobs": { "tso": [true, false], "nat": ["off", "kernel"] } } },
  "tso_on": "sender",
  "workloads": [ { "tool": "iperf3", "len": "128k", "nodelay": true, "time": 2, "parallel": 1 } ],
  "repetitions": 4,
  "timeouts": { "connect": 5, "job": 60 },
  "retries": 1,
  "stats": { "alpha": 0.05, "min_effect": 0.05, "min_samples": 4, "max_samples": 12,
             "collapse_factor": 5, "adaptive": true }
}
PLAN
t0=$(now_ms)
"$LABRAT" -v run --db "$DB" --inventory "$INV" --plan "$TMP/plan.json" \
    >"$TMP/run.out" 2>"$TMP/run.err" || { cat "$TMP/run.err"; fail "labrat run failed"; }
njobs=$(sq "$DB" 'SELECT count(*) FROM jobs')
note "run: $(( ($(now_ms) - t0) / 1000 )) s, $njobs jobs"
# 2 links x 4 combinations x 4 planned: adaptive sampling added jobs.
[ "$njobs" -gt 32 ] || fail "no repetitions were added ($njobs jobs)"
# The rounds are announced, the worst case (8 series x 12) said up front,
# and N/M counts the run's jobs across rounds, ending at the last job.
grep -q "^labrat: 32 jobs planned, up to 96 with adaptive sampling, ETA [0-9]*m[0-9]*s\.\.[0-9]*m[0-9]*s" "$TMP/run.err" ||
    fail "no worst case up front: $(grep -m1 'planned' "$TMP/run.err")"
grep -q "^labrat: round 2: [0-9]* more jobs for [0-9]* inconclusive comparisons* ([0-9]* jobs" "$TMP/run.err" ||
    fail "round 2 not announced: $(grep 'round\|adaptive' "$TMP/run.err")"
grep -q "^labrat: adaptive sampling done after round [0-9]*: $njobs jobs" "$TMP/run.err" ||
    fail "adaptive end not said: $(grep 'adaptive' "$TMP/run.err")"
# One executor for the planned jobs and every adaptive round: each of the
# lab's 4 hosts is connected once, not once per round.
grep -q "^labrat: run [0-9]*: 4 SSH handshakes in all its rounds" "$TMP/run.err" ||
    fail "not one SSH session per host: $(grep 'SSH handshakes' "$TMP/run.err")"
grep -q "^labrat: job $njobs/$njobs " "$TMP/run.err" ||
    fail "the job counter does not end at $njobs/$njobs: $(grep '^labrat: job' "$TMP/run.err" | tail -1)"

"$LABRAT" report --db "$DB" >"$TMP/report.txt" || fail "labrat report failed"
cat "$TMP/report.txt"
"$LABRAT" report --db "$DB" --format json >"$TMP/report.json" || fail "report --format json"
J=$TMP/report.json
jq -e . "$J" >/dev/null || fail "report JSON does not parse"

[ "$(jq '.triggers | length' "$J")" -eq 2 ] || fail "want 2 triggers, got $(jq -c '[.triggers[].knobs]' "$J")"
jq -e '.triggers[] | select(.link == "em") | select(.knobs == "mtu=9000,tso=on" and .collapse == false and .effect < -0.10 and .effect > -0.30)' "$J" >/dev/null ||
    fail "em trigger is not TSO on + MTU 9000, ~-18 %: $(jq -c '.triggers' "$J")"
jq -e '.triggers[] | select(.link == "bce") | select(.knobs == "nat=kernel,tso=on" and .collapse == true and .ratio < 0.2)' "$J" >/dev/null ||
    fail "bce trigger is not a TSO on + NAT kernel collapse: $(jq -c '.triggers' "$J")"
# Exactly the four comparisons into the bad combinations are regressions.
flagged=$(jq -r '[.comparisons[] | select(.verdict == "regression") |
    "\(.link) \(.verdict) \(.baseline)->\(.candidate)"] | sort | join("; ")' "$J")
want="bce regression nat=kernel,tso=off->nat=kernel,tso=on; bce regression nat=off,tso=on->nat=kernel,tso=on; em regression mtu=1500,tso=on->mtu=9000,tso=on; em regression mtu=9000,tso=off->mtu=9000,tso=on"
# The fault's second comparison (TSO off -> on @ MTU 9000) holds the TSO
# off series, which on a busy 2-core machine is the lab's noisiest (an IQR
# of 110-175 Mbit/s seen in CI): it must be a regression, or undecided on
# the bad side (effect below -10 %); nothing else may be flagged.
three="bce regression nat=kernel,tso=off->nat=kernel,tso=on; bce regression nat=off,tso=on->nat=kernel,tso=on; em regression mtu=1500,tso=on->mtu=9000,tso=on"
nflag=4
if [ "$flagged" != "$want" ]; then
	[ "$flagged" = "$three" ] || fail "regressions: $flagged; want: $want"
	jq -e '.comparisons[] | select(.link == "em" and
	    .baseline == "mtu=9000,tso=off" and .candidate == "mtu=9000,tso=on" and
	    .verdict == "inconclusive" and .effect < -0.10)' "$J" >/dev/null ||
	    fail "em TSO off -> on @ MTU 9000 neither a regression nor undecided below -10 %"
	note "em TSO off -> on @ MTU 9000 undecided (noisy TSO off series), on the bad side"
	nflag=3
fi
# No improvement either, except jumbo frames' own gain on em: MTU 9000
# really is ~2-3 % faster there with TSO off (measured +1.3, +2.2, +5.0 %
# in three runs), a true effect the verdict may prove.
impr=$(jq -r '[.comparisons[] | select(.verdict == "improvement") |
    "\(.link) \(.baseline)->\(.candidate)"] | map(select(. != "em mtu=1500,tso=off->mtu=9000,tso=off")) | join("; ")' "$J")
[ -z "$impr" ] || fail "improvements flagged: $impr"
note "flagged: $flagged"
# Adaptive sampling took em's undecided comparisons past the 4 planned,
# never past the cap.
n=$(jq '[.series[] | select(.link == "em") | .n] | max' "$J")
[ "$n" -gt 4 ] && [ "$n" -le 12 ] ||
    fail "em series: $n samples at most, want 5-12: $(jq -c '[.series[] | .n]' "$J")"
# The simulated lab's NICs are veths its inventory declares em/bce: the
# facts are the host's word, the claim beside it, in the report and in
# `labrat hosts` alike.
grep -qx "  em-a em0: r[0-9]*, driver veth (inventory: em), chip - (inventory: 0x10968086)" "$TMP/report.txt" ||
    fail "report lacks em-a's veth/em mismatch line"
grep -qx "  bce-b bce1: r[0-9]*, driver veth (inventory: bce), chip - (inventory: 0x164c14e4)" "$TMP/report.txt" ||
    fail "report lacks bce-b's veth/bce mismatch line"
[ "$(jq '[.hosts[] | select(.driver == "veth" and .chip == null and .mismatch and
    .declared_driver == (.host | sub("-.*"; "")))] | length' "$J")" -eq 4 ] ||
    fail "report JSON hosts: $(jq -c '.hosts' "$J")"
"$LABRAT" hosts --inventory "$INV" >"$TMP/hosts.txt" || fail "labrat hosts failed"
grep -qx "  em-b em0: driver veth (inventory: em), chip - (inventory: 0x10968086)" "$TMP/hosts.txt" ||
    fail "labrat hosts lacks em-b's mismatch: $(cat "$TMP/hosts.txt")"
grep -q "mgmt0.*inventory" "$TMP/hosts.txt" &&
    fail "labrat hosts shows a mismatch on mgmt0 (declared veth): $(cat "$TMP/hosts.txt")"
"$LABRAT" hosts --inventory "$INV" --format json >"$TMP/hosts.json" || fail "labrat hosts --format json"
jq -e '.hosts[] | select(.name == "bce-a") | .facts.nics[] | select(.name == "bce1") |
    .driver == "veth" and .declared_driver == "bce" and .declared_chip == "0x164c14e4" and .mismatch' \
    "$TMP/hosts.json" >/dev/null || fail "hosts JSON bce-a bce1: $(cat "$TMP/hosts.json")"
# The sentence names the trigger's proven comparison: TSO's, or, when the
# noisy TSO off series left that one undecided (nflag 3, above), MTU's.
em_sentence="TSO on with MTU 9000 is .* slower than TSO off"
[ "$nflag" = 3 ] && em_sentence="MTU 9000 with TSO on is .* slower than MTU 1500"
grep -q "em iperf3: $em_sentence" "$TMP/report.txt" ||
    fail "text report lacks the em sentence ($em_sentence)"
grep -q "bce iperf3: TSO on with NAT kernel is ~[0-9]*x slower than TSO off" "$TMP/report.txt" ||
    fail "text report lacks the bce sentence"

# The first run has nothing to compare with; --no-baseline says it is off.
grep -qx "Run over run: no earlier done run on the same host pairs" "$TMP/report.txt" ||
    fail "text report of the first run: $(grep '^Run over run' "$TMP/report.txt")"
"$LABRAT" report --db "$DB" --no-baseline >"$TMP/nobase.txt" || fail "report --no-baseline"
grep -qx "Run over run: baseline off" "$TMP/nobase.txt" || fail "--no-baseline: $(grep '^Run over run' "$TMP/nobase.txt")"
# Columns stay in line: in every comparison table the CI starts under its
# heading, whatever the width of the effect before it.
awk '/^  comparison / { col = index($0, "CI of ratio"); next }
    col && /^  / && index($0, "[") { if (index($0, "[") != col) bad = bad NR ": " $0 "\n" }
    /^$/ { col = 0 }
    END { printf "%s", bad; exit bad != "" }' "$TMP/report.txt" ||
    fail "comparison table columns out of line"
"$LABRAT" report --db "$DB" --format junit >"$TMP/junit.xml" || fail "report --format junit"
[ "$(grep -c '<testcase ' "$TMP/junit.xml")" -eq 8 ] || fail "want 8 testcases"
[ "$(grep -c '<failure ' "$TMP/junit.xml")" -eq "$nflag" ] || fail "want $nflag failures"
"$LABRAT" report --db "$DB" --format csv >"$TMP/report.csv" || fail "report --format csv"
[ "$(grep -c '^knob,' "$TMP/report.csv")" -eq 8 ] || fail "want 8 knob rows in the CSV"
head -1 "$TMP/report.csv" | grep -q ',unit,run_a,run_b$' || fail "CSV header: $(head -1 "$TMP/report.csv")"
[ "$(grep -c '^knob,.*,bit/s,1,1$' "$TMP/report.csv")" -eq 8 ] || fail "CSV knob rows lack unit and run ids"

# The sender's CPU judged in its direction (lower is better): every
# regression is a rise, every improvement a drop.  (In namespaces the
# "host" CPU is the whole machine's, so which comparisons are flagged
# depends on the machine's load; the direction may not.)
"$LABRAT" report --db "$DB" --metric cpu_sender --format json >"$TMP/cpu.json" ||
    fail "report --metric cpu_sender"
jq -e '.lower_is_better == true and .metric_host == "sender" and
    (.comparisons | length) == 8 and
    all(.comparisons[]; (.verdict != "regression" or .effect > 0) and
    (.verdict != "improvement" or .effect < 0))' "$TMP/cpu.json" >/dev/null ||
    fail "cpu_sender verdicts against the direction: $(jq -c '[.comparisons[] | [.name, .link, .verdict, .effect]]' "$TMP/cpu.json")"
note "cpu_sender: $(jq -r '[.comparisons[] | .verdict] | group_by(.) | map("\(.[0]) \(length)") | join(", ")' "$TMP/cpu.json")"
# Throughput the other way round: the em and bce faults are drops.
jq -e '.lower_is_better == false and
    all(.comparisons[]; (.verdict != "regression" or .effect < 0))' "$J" \
    >/dev/null || fail "a throughput regression that is a rise"

# labrat runs lists the run: done, its revision, both links, every job done.
"$LABRAT" runs --db "$DB" >"$TMP/runs.txt" || fail "labrat runs failed"
grep -Eq "^ *1  manual  done  +[0-9-]+ [0-9:]+  r[0-9]+  +(bce,em|em,bce)  +$njobs/$njobs  " "$TMP/runs.txt" ||
    fail "labrat runs: $(cat "$TMP/runs.txt")"
"$LABRAT" runs --db "$DB" --format json >"$TMP/runs.json" || fail "labrat runs --format json"
jq -e --argjson n "$njobs" '.runs[0] | .id == 1 and .state == "done" and .jobs.done == $n and
    (.links | sort) == ["bce", "em"] and (.revisions | length) == 1' "$TMP/runs.json" >/dev/null ||
    fail "labrat runs JSON: $(cat "$TMP/runs.json")"

# A run against itself: nothing changed, exit 0.
"$LABRAT" compare 1 1 --db "$DB" --link em >"$TMP/compare.txt" || fail "compare 1 1 exited $?"
grep -q "Summary: run 1 -> run 1, 4 series: 0 regressions" "$TMP/compare.txt" || fail "compare summary"
grep -q "No difference proven" "$TMP/compare.txt" || fail "compare lacks ministat's lines"
note "ok"
