#!/bin/sh
# Measurement independence on the quiet simulated lab (no noise): the order
# of a link's jobs must not change its figures, now that a job starts from
# whatever the link's last job left (a knob transition, one workload server
# for the batch) instead of from the originals.  The em link, TSO on (A)
# and off (B), a 2 s iperf3 (with 1 s jobs blocked came out 0.04-1.65 %
# above interleaved in all 9 comparisons of 5 runs at load 8-25: what a
# TSO flip costs a job's start weighs double in 1 s), three kinds of run:
#   I: A B A B  (the matrix's interleaved order: TSO flips every job)
#   A: A A      (no knob changes between jobs)
#   B: B B
# What is compared is the order, not the machine: at 1 Gbit/s this
# machine's CPUs, not the link's shaper, set the throughput, which drifts by
# a few % between runs a minute apart and sags for seconds under load, more
# than the 1 % bound (a CI machine gave medians 4 % apart).  So the lab's
# links are shaped to 300 Mbit/s (`lab up --rate 300`), where the shaper
# alone sets it (ten 2 s runs: 285-287 idle, 279-286 beside three busy
# loops), and a job that starts late or slow still loses its share of the
# 2 s.  The runs are short and
# go in the time-symmetric order I A B B A I, twice (a steady drift weighs
# the same on each kind: their mean times are equal), and the four runs of
# a kind are pooled (a sag over one run is 2 of a side's 8 samples): after
# the runs, the jobs of the later runs of a kind are moved to the first
# one's id, in this test's own store.  labrat's own run-over-run
# comparison (`labrat report RUN --baseline 1 --format json`) must then
# find, for the pooled A against the pooled I's A and the pooled B
# against its B, a median ratio within 1 % of 1 and a Mann-Whitney p
# above 0.01 (issue 16; 8 samples a side, the exact test), or else
# medians less than 0.2 % apart (MATERIAL): a p of 0.01 or less counts
# only with a difference of 0.2 % or more, labrat's own rule for a change
# (p below alpha and an effect of at least min_effect) at alpha 0.01 and
# min_effect 0.2 %.  Why (27 runs of this test on 2026-12-02, load 1-4):
# - The figures sit on two levels 0.024 % apart, 287.071 and 287.140
#   Mbit/s (equal bytes; iperf3's receiver seconds differ by 0.6 ms).
#   Which one a job lands on depends a little on where it stands: a
#   run's first job 51 % of the time (later jobs 31 %), a B job after a
#   B job 51 %, after an A job 24 %, an A job after an A job 25 %, after
#   a B job 32 %.  So the blocked B side holds the upper level about twice
#   as often as the interleaved one, and on a quiet machine the exact
#   test can find every blocked B above every interleaved one: ratio
#   1.00020, p 0.0011 and 1.00048, p 0.003 at 10-27 % busy CPU (the CI's
#   failure: 1.00023, p 0.00016, the smallest 8 + 8 give).  That is an
#   order effect, of at most the 0.024 % between the levels (with
#   tcp_no_metrics_save=1 on both hosts, 6 runs: B after B 44 %, after A
#   35 %: too few to name the cause).
# - Under load, dips of 0.1-3 % (below 286.95 Mbit/s in 15 % of the jobs
#   at < 20 % busy CPU, 56 % at > 50 %) come in bursts over several runs
#   and hit one kind's runs more than another's: ratio 1.00085, p 0.0019
#   with the interleaved B jobs at a median 94 % busy CPU, the blocked
#   at 20 %; ratio 0.9948, p 0.13 once.
# - Pooled over the 27 runs (216 samples a side) the medians are 0.002 %
#   (B) and 0.0003 % (A) apart; each run's ratios were 0.9948-1.0009 (B)
#   and 0.9986-1.0014 (A), of either sign.
# 0.2 % is above every difference of those 54 comparisons that came with
# a p of 0.05 or less (the largest: 0.18 %, p 0.015) and a fifteenth of
# what labrat's default min_effect (3 %) calls a change.  The 0.01 rule
# failed 3 of the 27 runs, this one none.  It still fails an order effect
# from 0.2 % up: the interleaved samples of the first 16 runs' stores
# lowered by 0.2 / 0.3 / 0.5 % fail 5 / 11 / 14 of 16 (the 0.01
# rule 6-7 / 12 / 14-15).  Live, with every interleaved job's iperf3
# client stopped for 20 ms 0.5 s into it (SIGSTOP / SIGCONT from a
# temporary loop in this test), 3 of 4 runs failed (medians 0.37, 0.43,
# 0.50 % apart, p 0.007, 0.003, 0.00016); the fourth ran at 67-97 % busy
# CPU (0.48 %, p 0.038) and passed, as it did under the 0.01 rule.
# Each side's median busy CPU (labrat's cpu_sender) is in the notes, so a
# failure under load shows as such.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=rord$$
. "$(dirname "$0")/lib/run.sh"

lab_db --noise 0 --rate 300
rate_is em-a 300000 300000
N=2
MATERIAL=0.002	# a difference below 0.2 % is not one (see the top)
ORDER="I A B B A I I A B B A I"

# plan FILE TSO_VALUES
plan() {
	cat > "$1" <<EOF
{
  "links": ["em"],
  "knobs": { "tso": $2 },
  "workloads": [ { "tool": "iperf3", "time": 2 } ],
  "repetitions": $N,
  "timeouts": { "connect": 5, "job": 30 },
  "retries": 1,
  "stats": { "adaptive": false }
}
EOF
}
plan "$TMP/I.json" "[true, false]"
plan "$TMP/A.json" "[true]"
plan "$TMP/B.json" "[false]"

# Runs 1-12, in ORDER.
for p in $ORDER; do
	"$LABRAT" run --db "$DB" --inventory "$INV" --plan "$TMP/$p.json" \
	    >"$TMP/run.out" 2>"$TMP/run.err" || fail "run $p: $(cat "$TMP/run.err")"
done
check_links_restored
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE state = 'done'")" = $((16 * N)) ] ||
    fail "jobs: $(sq "$DB" "SELECT run_id, state, reason FROM jobs WHERE state <> 'done'")"

# Pool: each run into the first of its kind (runs 1, 2 and 3: I, A, B),
# its seq moved past the others'; the interleaved runs really flipped TSO
# every job.  The stored verdicts were written before; --baseline
# recomputes, but none may stay.
r=0 sql=
for p in $ORDER; do
	r=$((r + 1))
	case $p in I) to=1 ;; A) to=2 ;; B) to=3 ;; esac
	if [ $p = I ]; then
		order=$(sq "$DB" "SELECT group_concat(knobs_in_force, ' ') FROM
		    (SELECT knobs_in_force FROM jobs WHERE run_id = $r ORDER BY seq)")
		[ "$order" = "tso=on tso=off tso=on tso=off" ] ||
		    fail "run $r (interleaved) order: $order"
	fi
	[ $r -gt 3 ] && sql="$sql UPDATE jobs SET run_id = $to,
	    seq = seq + 1000 * $r WHERE run_id = $r;"
done
sq "$DB" "$sql DELETE FROM run_verdicts; DELETE FROM runs WHERE id > 3;" ||
    fail "pooling the runs"

# busy RUN KNOBS: the median busy CPU (%) of the machine during RUN's
# pooled KNOBS jobs, as labrat stored it (cpu_sender).
busy() {
	sq "$DB" "SELECT s.value FROM samples s JOIN jobs j ON j.id = s.job_id
	    WHERE j.run_id = $1 AND j.knobs_in_force = '$2' AND
	    s.metric = 'cpu_sender' ORDER BY s.value" |
	    awk '{ v[NR] = $1 } END { if (NR == 0) print "?"; else
	    printf "%.0f", (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }'
}

# mbit BPS: BPS in Mbit/s.
mbit() {
	echo "$1" | awk '{ printf "%.2f", $1 / 1e6 }'
}

# check RUN KNOBS: RUN's pooled KNOBS series against run 1's.
check() {
	"$LABRAT" report "$1" --baseline 1 --db "$DB" --format json \
	    >"$TMP/r$1.json" 2>"$TMP/r$1.err" || fail "report $1: $(cat "$TMP/r$1.err")"
	set -- $(jq -r --arg k "$2" '.baseline.comparisons[] |
	    select(.candidate == $k and .baseline == $k) |
	    "\(.ratio) \(.p) \(.median_baseline) \(.median_candidate) \(.n_baseline) \(.n_candidate)"' \
	    "$TMP/r$1.json") "$1" "$2"
	[ $# -eq 8 ] || fail "report $7: no comparison of $8 against run 1: $(cat "$TMP/r$7.json")"
	note "$8: interleaved median $(mbit "$3") Mbit/s (n $5, busy CPU" \
	    "$(busy 1 "$8") %), blocked $(mbit "$4") Mbit/s (n $6, busy CPU" \
	    "$(busy "$7" "$8") %), ratio $1, p $2"
	[ "$5" = $((4 * N)) ] && [ "$6" = $((4 * N)) ] ||
	    fail "$8: $5 interleaved and $6 blocked samples, want $((4 * N)) each (pooled)"
	near "$1" 0.99 1.01 ||
	    fail "$8: blocked / interleaved median ratio $1, want within 1 %"
	awk -v p="$2" -v r="$1" -v e="$MATERIAL" 'BEGIN {
	    exit !(p > 0.01 || (r - 1 < e && 1 - r < e)) }' ||
	    fail "$8: Mann-Whitney p $2, want > 0.01, with the medians" \
	    "$(echo "$1" | awk '{ printf "%.2f", ($1 - 1) * 100 }') % apart" \
	    "($(echo "$MATERIAL" | awk '{ print $1 * 100 }') % or more): the" \
	    "order changed the figures"
}
check 2 tso=on
check 3 tso=off
echo "PASS run_order"
