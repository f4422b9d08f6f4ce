#!/bin/sh
# bench/run_bench.sh: `labrat run` against the simulated lab (root needed;
# not run by ctest).  Figures, not assertions:
#
#   fidelity  labrat's iperf3 throughput / the same iperf3 run by hand on
#             the same link, interleaved (target 1.00 +- 0.01)
#   overhead  controller time per job, workload excluded: labrat's job time
#             minus the same agent command sequence run on the hosts
#             directly (nsenter), against that sequence over OpenSSH `ssh`
#             with and without ControlMaster (target <= 50 ms and no slower
#             than ControlMaster)
#   matrix    wall time of a 4-link matrix (--pairs 4), median of M runs
#             (default 5), / the ideal
#             (workload time / parallel links) (target <= 1.03); a second
#             line: iperf3's own start and end (a -t T run by hand takes
#             more than T), measured in the same run, and the figure less it;
#             a third: the same plan on one link alone (the other 3 pairs
#             idle), median of M runs: what a job costs when the 8
#             simulated hosts' own work (sshd, shells, agents, iperf3) does
#             not share the machine's cores with 3 other links
#   bisect    the demo's em and bce bisects (configs/bisect/*-demo.json,
#             `labrat bisect start` on a lab like the demo's) / the ideal:
#             the jobs' workload time (from the store) plus, per reboot
#             the bisect did, a reboot of both hosts by hand measured in
#             the same run (install and reboot in the host's namespaces,
#             until the lab records the new system's sshd up: no SSH at
#             all, a lower bound), median of 8 before and after the
#             bisects (target <= 1.10)
#   rss       peak RSS of the controller driving 8 links (target <= 30 MB)
#   lab       `labrat lab up` and `lab down` of the 2-pair lab (median of N)
#             against the bare plumbing by hand: 4 namespaces with a veth
#             each and a bridge (target: up <= 2 s, down <= 2 s)
#   ab        two builds side by side (LABRAT against LABRAT_B): the 4-link
#             plan with 1-s jobs, the two run in turn R_AB times (default
#             10); the medians and B's difference per job.  Not in "all".
#
# usage: sh bench/run_bench.sh [fidelity|overhead|matrix|bisect|rss|lab|ab]...
#        (all but ab)
# env: LABRAT (default build/labrat), N (repetitions, default 5), M (matrix
#      runs, default 5), R (rounds
#      of the overhead comparison, default 3),
#      T (iperf3 seconds for fidelity/matrix, default 5),
#      BOOT (the bisect lab's --boot-seconds, default 1, as the demo's)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LABRAT=${LABRAT:-$ROOT/build/labrat}
export LABRAT_SIMLAB_DIR="$ROOT/simlab"
N=${N:-5}
T=${T:-5}
R=${R:-3}
BOOT=${BOOT:-1}
TMP=$(mktemp -d /tmp/labrat-bench.XXXXXX)
LABS=""

cleanup() {
	for l in $LABS; do
		"$LABRAT" lab down --name "$l" >/dev/null 2>&1
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

die() {
	echo "run_bench: $*" >&2
	exit 1
}

# fig TEXT: a figure, with when it was measured and the load then.
fig() {
	echo "$* [$(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)]"
}

now_ms() {
	echo $(( $(date +%s%N) / 1000000 ))
}

# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	    else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# lab NAME ARGS...: brings a lab up; sets INV, STATE.
lab() {
	LABS="$LABS $1"
	INV=$("$LABRAT" lab up --name "$@") || die "lab up $1"
	STATE=/run/labrat-lab/$1
}

sq() {
	sqlite3 -batch -noheader -cmd '.timeout 5000' "$1" "$2"
}

# plan FILE LINKS_JSON KNOBS_JSON TIME REPS [SETTLE_MS]
plan() {
	cat > "$1" <<EOF
{ "links": $2, "knobs": $3,
  "workloads": [ { "tool": "iperf3", "time": $4 } ],
  "repetitions": $5, "timeouts": { "connect": 5, "job": 60 ${6:+, \"settle_ms\": $6} },
  "retries": 0, "stats": { "adaptive": false } }
EOF
}

# In a host's namespaces (network, mount, uts: what its sshd sees).
on_host() {
	_h=$1
	shift
	nsenter -t "$(cat "$STATE/hosts/$_h/sshd.pid")" -n -m -u -- "$@"
}

bench_fidelity() {
	lab rbf$$ --noise 0
	plan "$TMP/f.json" '["em"]' '{ "tso": [true], "mtu": [1500] }' "$T" 1
	"$LABRAT" run --db "$TMP/f.db" --inventory "$INV" --plan "$TMP/f.json" \
	    >/dev/null 2>&1 || die "fidelity warm-up run"
	: > "$TMP/f.ratios"
	i=0
	while [ $i -lt "$N" ]; do
		"$LABRAT" run --db "$TMP/f.db" --inventory "$INV" \
		    --plan "$TMP/f.json" >/dev/null 2>&1 || die "fidelity run"
		l=$(sq "$TMP/f.db" "SELECT value FROM samples s JOIN jobs j ON
		    j.id = s.job_id WHERE run_id = (SELECT max(id) FROM runs)
		    AND metric = 'throughput_bps' AND interval = 0")
		on_host em-b iperf3 -s -1 -B 198.18.1.2 -p 5201 >/dev/null 2>&1 &
		sleep 0.3
		h=$(on_host em-a iperf3 -c 198.18.1.2 -p 5201 -J -t "$T" -P 1 \
		    -i 1 -C cubic | jq '.end.sum_received.bits_per_second')
		wait
		echo "$l $h" | awk '{ printf "%.4f\n", $1 / $2 }' >> "$TMP/f.ratios"
		echo "  fidelity $((i + 1)): labrat $(echo "$l" | awk '{ printf "%.1f", $1 / 1e6 }') Mbit/s, by hand $(echo "$h" | awk '{ printf "%.1f", $1 / 1e6 }') Mbit/s"
		i=$((i + 1))
	done
	fig "fidelity: labrat / by hand, median of $N ($T s iperf3): $(median < "$TMP/f.ratios")" \
	    "(target 1.00 +- 0.01) (range $(sort -g "$TMP/f.ratios" | head -n 1)-$(sort -g "$TMP/f.ratios" | tail -n 1))"
}

# The agent command sequence of one em job (tso_on sender, TSO as $1),
# each line "HOST ARGS...", as labrat's executor issues it between two jobs
# of a link: a knob transition on both ends (no restore in between) with
# the preflight's checks in the same call (labrat runs the two ends side
# by side, this one after the other), the workload, and `serve --keep` for
# the receiver's counters (the server runs for the link's whole batch; it
# is started, and both ends restored, once per link, which the first and
# last job of a run pay).
job_seq() {
	cat <<EOF
em-b apply --if em0 --rollback-after 121 --reset-others --preflight
em-a apply --if em0 --tso $1 --rollback-after 121 --reset-others --preflight --peer 198.18.1.2
em-a iperf --tool iperf3 --server 198.18.1.2 --port 5201 --time 1 --parallel 1 --if em0
em-b serve --tool iperf3 --bind 198.18.1.2 --if em0 --keep
EOF
}

# seq_ms MODE: ms for N jobs' command sequences (alternating TSO off/on).
seq_ms() {
	_agent=$(ls -d "$STATE"/hosts/em-a/var-lib-labrat/agent/*/labrat-agent | head -n 1)
	_agent=/var/lib/labrat/agent/$(basename "$(dirname "$_agent")")/labrat-agent
	# The link's server, started once per batch (untimed, as the
	# executor's first job of a link pays it).
	on_host em-b "$_agent" serve --tool iperf3 --bind 198.18.1.2 \
	    >/dev/null 2>&1 || echo "  ($1: serve failed)" >&2
	_t0=$(now_ms)
	_i=0
	while [ $_i -lt "$N" ]; do
		for tso in off on; do
			job_seq $tso | while read -r h args; do
				if [ "$h" = em-a ]; then a=$A_EMA; else a=$A_EMB; fi
				# shellcheck disable=SC2086
				case $1 in
				local) on_host "$h" "$_agent" $args ;;
				ssh) ssh -n -o BatchMode=yes -o StrictHostKeyChecking=yes \
				    -o UserKnownHostsFile="$STATE/known_hosts" \
				    -i "$STATE/id_ed25519" "root@$a" "$_agent" $args ;;
				cm) ssh -n -o BatchMode=yes -o StrictHostKeyChecking=yes \
				    -o UserKnownHostsFile="$STATE/known_hosts" \
				    -o ControlMaster=auto -o ControlPersist=120 \
				    -o ControlPath="$TMP/cm-%h" \
				    -i "$STATE/id_ed25519" "root@$a" "$_agent" $args ;;
				esac </dev/null >/dev/null 2>&1 || echo "  ($1: $h $args failed)" >&2
			done
		done
		_i=$((_i + 1))
	done
	_ms=$(( $(now_ms) - _t0 ))
	# What the executor does once per link, untimed: the hosts as found.
	on_host em-b "$_agent" serve stop >/dev/null 2>&1
	on_host em-b "$_agent" restore --if em0 >/dev/null 2>&1
	on_host em-a "$_agent" restore --if em0 >/dev/null 2>&1
	echo $_ms
}

addr() {
	jq -r --arg h "$1" '.hosts[] | select(.name == $h) | .address' "$INV"
}

bench_overhead() {
	lab rbo$$
	# No settle time: it is the plan's choice, not controller overhead.
	plan "$TMP/o.json" '["em"]' '{ "tso": [false, true] }' 1 "$N" 0
	"$LABRAT" run --db "$TMP/o.db" --inventory "$INV" --plan "$TMP/o.json" \
	    >/dev/null 2>&1 || die "overhead warm-up run"
	jobs=$((2 * N))
	A_EMA=$(addr em-a)
	A_EMB=$(addr em-b)
	# Open the ControlMaster connections once, as a user of them would.
	for h in em-a em-b; do
		ssh -n -o BatchMode=yes -o UserKnownHostsFile="$STATE/known_hosts" \
		    -o ControlMaster=auto -o ControlPersist=120 \
		    -o ControlPath="$TMP/cm-%h" -i "$STATE/id_ed25519" \
		    "root@$(addr $h)" true || die "ControlMaster to $h"
	done
	r=1
	while [ $r -le "$R" ]; do
		round=$r
		r=$((r + 1))
		t0=$(now_ms)
		"$LABRAT" run --db "$TMP/o.db" --inventory "$INV" \
		    --plan "$TMP/o.json" >/dev/null 2>&1 || die "overhead run"
		wall=$(( $(now_ms) - t0 ))
		run=$(sq "$TMP/o.db" "SELECT max(id) FROM runs")
		jobsms=$(sq "$TMP/o.db" "SELECT max(finished_at) - min(started_at)
		    FROM jobs WHERE run_id = $run")
		loc=$(seq_ms local)
		plain=$(seq_ms ssh)
		cm=$(seq_ms cm)
		echo "  round $round: $jobs jobs: labrat $jobsms ms (whole command $wall ms)," \
		    "by hand: local $loc ms, ssh $plain ms, ssh+ControlMaster $cm ms"
		echo "$jobsms $loc $plain $cm $wall" >> "$TMP/o.rounds"
	done
	fig "$(awk -v n=$jobs '{ l += $1 - $2; p += $3 - $2; c += $4 - $2; w += $5 - $2 }
	    END { printf "overhead per job (workload and agent work excluded, " \
	    "mean of %d rounds): labrat %.0f ms (%.0f ms counting start-up and " \
	    "pre-flight), ssh %.0f ms, ssh+ControlMaster %.0f ms", NR,
	    l / NR / n, w / NR / n, p / NR / n, c / NR / n }' "$TMP/o.rounds")"
	for h in em-a em-b; do
		ssh -O exit -o ControlPath="$TMP/cm-%h" "root@$(addr $h)" 2>/dev/null
	done
}

# matrix_walls PLAN OUT: M runs (default 5) of PLAN on the matrix lab's
# store, each one's wall (ms) a line of OUT.
matrix_walls() {
	: > "$2"
	_i=0
	while [ $_i -lt "${M:-5}" ]; do
		_t0=$(now_ms)
		"$LABRAT" run --db "$TMP/m.db" --inventory "$INV" \
		    --plan "$1" >/dev/null 2>&1 || die "matrix run ($1)"
		echo $(( $(now_ms) - _t0 )) >> "$2"
		_i=$((_i + 1))
	done
}

bench_matrix() {
	lab rbm$$ --pairs 4
	links=$(jq -c '[.links[].name]' "$INV")
	nl=$(jq '.links | length' "$INV")
	plan "$TMP/m.json" "$links" '{ "tso": [true, false] }' "$T" 2
	"$LABRAT" run --db "$TMP/m.db" --inventory "$INV" --plan "$TMP/m.json" \
	    >/dev/null 2>&1 || die "matrix warm-up run"
	# The median of M runs: one run's wall moves by tens of ms from
	# run to run, as much as the figure's last digit.
	matrix_walls "$TMP/m.json" "$TMP/m.walls"
	echo "  matrix walls (ms): $(sort -n "$TMP/m.walls" | tr '\n' ' ')"
	wall=$(median < "$TMP/m.walls")
	njobs=$(sq "$TMP/m.db" "SELECT count(*) FROM jobs WHERE run_id = (SELECT max(id) FROM runs)")
	fig "$(echo "$wall $njobs $T $nl" | awk '{ ideal = $2 * $3 * 1000 / $4
	    printf "matrix: %d links, %d jobs of %d s: wall %.2f s, ideal %.1f s, " \
	    "ratio %.3f (target 1.03; %.3f s per job beyond its workload)", $4,
	    $2, $3, $1 / 1000, ideal / 1000, $1 / ideal,
	    ($1 - ideal) / ($2 / $4) / 1000 }')"
	# What iperf3 itself takes beyond its -t (connect, parameter
	# exchange, the end's results), by hand on the first link right
	# after the run, with the agent's options: a part of the figure
	# above that no controller can save.
	ms=$(iperf_own_ms "$(jq -r '.links[0].server.host' "$INV")" \
	    "$(jq -r '.links[0].client.host' "$INV")" \
	    "$(jq -r '.links[0].server.address' "$INV")")
	fig "$(echo "$wall $njobs $T $nl $ms" | awk '{ ideal = $2 * $3 * 1000 / $4
	    per = ($1 - ideal) / ($2 / $4) / 1000
	    printf "matrix, second line: iperf3 -t %d by hand takes %.3f s " \
	    "beyond its %d s (median of 3); the figure above less that: " \
	    "%.2f s per job, ratio %.3f against ideal + iperf3'"'"'s own", $3,
	    $5 / 1000, $3, per - $5 / 1000, $1 / (ideal + $2 / $4 * $5) }')"
	plan "$TMP/m1.json" "[$(jq '.links[0].name' "$INV")]" \
	    '{ "tso": [true, false] }' "$T" 2
	matrix_walls "$TMP/m1.json" "$TMP/m1.walls"
	echo "  one link's walls (ms): $(sort -n "$TMP/m1.walls" | tr '\n' ' ')"
	wall1=$(median < "$TMP/m1.walls")
	fig "$(echo "$wall1 $T $wall $njobs $nl" | awk '{ ideal = 4 * $2 * 1000
	    printf "matrix, one link alone (4 jobs of %d s, the other pairs idle): " \
	    "wall %.2f s, ratio %.3f, %.3f s per job beyond its workload, " \
	    "against %.3f with 4 links at once", $2, $1 / 1000, $1 / ideal,
	    ($1 - ideal) / 4 / 1000, ($3 - $4 * $2 * 1000 / $5) / ($4 / $5) / 1000 }')"
}

# iperf_own_ms SERVER_HOST CLIENT_HOST ADDR: median ms an iperf3 client run
# of T s takes beyond T s, by hand in the hosts' namespaces (no SSH, no
# agent), with the options the agent gives it.
iperf_own_ms() {
	: > "$TMP/own.ms"
	for _i in 1 2 3; do
		on_host "$1" iperf3 -s -1 -B "$3" -p 5299 >/dev/null 2>&1 &
		sleep 0.3
		_t0=$(now_ms)
		on_host "$2" iperf3 -c "$3" -p 5299 -J -t "$T" -P 1 -i 1 \
		    -C cubic >/dev/null 2>&1 || echo "  (iperf3 by hand failed)" >&2
		echo $(( $(now_ms) - _t0 - T * 1000 )) >> "$TMP/own.ms"
		wait
	done
	median < "$TMP/own.ms"
}

bench_rss() {
	lab rbr$$ --pairs 8
	links=$(jq -c '[.links[].name]' "$INV")
	plan "$TMP/r.json" "$links" '{ "tso": [true, false] }' 1 1
	for pass in "first run (agents built on 16 hosts)" "second run"; do
		/usr/bin/time -v -o "$TMP/r.time" "$LABRAT" run --db "$TMP/r.db" \
		    --inventory "$INV" --plan "$TMP/r.json" >/dev/null 2>&1 ||
		    die "rss run"
		fig "rss (target 30 MB): 8 links, $pass: peak RSS $(awk -F': ' \
		    '/Maximum resident/ { printf "%.1f MB", $2 / 1024 }' "$TMP/r.time"), wall" \
		    "$(awk -F': ' '/Elapsed/ { print $2 }' "$TMP/r.time")"
	done
}

# reboot_by_hand HOST REV: installs REV on HOST with the inventory's
# kernel commands run in its namespaces (no ssh), reboots it, and follows
# the lab's own record of the boot (hosts/HOST/state leaves "up" and
# comes back once the new sshd listens), then checks what it runs.
# Prints the ms it took: what the host needs, with nothing of labrat's
# and no SSH client (a lower bound for any controller).
reboot_by_hand() {
	_k=$(jq -r --arg h "$1" '.hosts[] | select(.name == $h) |
	    .kernel.verify[0]' "$INV")
	_t0=$(now_ms)
	if ! on_host "$1" "$_k" install "$2" >/dev/null ||
	    ! on_host "$1" "$_k" reboot >/dev/null; then
		die "reboot by hand: $1 $2"
	fi
	# shellcheck disable=SC2016
	timeout 60 bash -c 'while read -r s < "$1" && [ "$s" = up ]; do
		sleep 0.01; done
	    until read -r s < "$1" && [ "$s" = up ]; do sleep 0.01; done
	    ' _ "$STATE/hosts/$1/state" || die "reboot by hand: $1 not back"
	_t1=$(now_ms)
	[ "$(cat "$STATE/hosts/$1/running")" = "$2" ] ||
	    die "reboot by hand: $1 does not run $2"
	echo $(( _t1 - _t0 ))
}

# bisect_parts ID WALL_MS REBOOT_MS NAME: a bisect's figure from the store.
# shellcheck disable=SC2046
bisect_parts() {
	_b=$1
	# Jobs and their workload (the "time" of each job's params,
	# "iperf3:len=128k,...,time=1,...").
	set -- "$@" $(sq "$TMP/b.db" "SELECT count(*),
	    coalesce(sum(CAST(substr(replace(j.params, ':', ','),
	        instr(replace(j.params, ':', ','), ',time=') + 6) AS REAL)), 0),
	    coalesce(sum(j.finished_at - j.started_at), 0)
	    FROM jobs j JOIN runs r ON r.id = j.run_id
	    WHERE r.bisect_id = $_b AND j.state = 'done'" | tr '|' ' ')
	# Steps, those that rebooted (not a build failure), and what each
	# step spent from its run's start to its first job (install, reboot,
	# verify, as the controller lived them).
	set -- "$@" $(sq "$TMP/b.db" "SELECT count(*),
	    sum(coalesce(r.reason, '') NOT LIKE '%: unbuildable:%'),
	    coalesce(sum((SELECT min(started_at) FROM jobs WHERE run_id = r.id)
	        - r.created_at), 0)
	    FROM bisect_steps s JOIN runs r ON r.id = s.run_id
	    WHERE s.bisect_id = $_b" | tr '|' ' ')
	# The hosts put back on what they ran before: one more reboot
	# unless the last step left them there.
	set -- "$@" $(sq "$TMP/b.db" "SELECT b.client_before IS NOT NULL AND
	    b.client_before != (SELECT revision FROM bisect_steps WHERE
	    bisect_id = b.id ORDER BY seq DESC LIMIT 1), b.culprit
	    FROM bisects b WHERE b.id = $_b" | tr '|' ' ')
	echo "$@" | awk '{ wall = $2 / 1000; hand = $3 / 1000; name = $4
	    jobs = $5; work = $6; jobt = $7 / 1000; steps = $8; reb = $9 + $11
	    setup = $10 / 1000; culprit = $12
	    ideal = work + reb * hand
	    printf "bisect %s: culprit %s, %d steps, %d jobs, workload %.1f s, " \
	        "%d reboots of %.2f s by hand: wall %.1f s, ideal %.1f s, " \
	        "ratio %.3f (target 1.10); parts: jobs %.1f s in the store " \
	        "(%.2f s per job beyond its workload), steps to their first " \
	        "job %.1f s (%.2f s per reboot), the rest %.1f s", name,
	        culprit, steps, jobs, work, reb, hand, wall, ideal,
	        wall / ideal, jobt, jobs ? (jobt - work) / jobs : 0, setup,
	        $9 ? setup / $9 : 0, wall - jobt - setup }'
}

# by_hand: 4 reboots of em's two hosts at once by hand, as a step reboots
# them, there and back (r200101, then what they ran); each the slower
# host's ms, into $TMP/rb.
by_hand() {
	_was=$(cat "$STATE/hosts/em-a/running")
	: > "$TMP/rb.now"
	for _rev in r200101 "$_was" r200101 "$_was"; do
		reboot_by_hand em-a "$_rev" > "$TMP/rb.a" &
		reboot_by_hand em-b "$_rev" > "$TMP/rb.b"
		wait
		cat "$TMP/rb.a" "$TMP/rb.b" | sort -g | tail -n 1 >> "$TMP/rb.now"
	done
	cat "$TMP/rb.now" >> "$TMP/rb"
	echo "  reboot of em-a and em-b by hand: $(tr '\n' ' ' < "$TMP/rb.now")ms" \
	    "[$(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)]"
}

bench_bisect() {
	lab rbb$$ --noise 2 --boot-seconds "$BOOT"
	: > "$TMP/rb"
	: > "$TMP/bisects"
	# As the demo: `labrat hosts` first (the agents built), then bisects.
	"$LABRAT" hosts --inventory "$INV" >/dev/null 2>&1 ||
	    die "bisect warm-up: labrat hosts"
	by_hand
	for b in "em r200100 r200199 em-demo" "bce r200200 r200299 bce-demo"; do
		# shellcheck disable=SC2086
		set -- $b
		t0=$(now_ms)
		"$LABRAT" bisect start --db "$TMP/b.db" --inventory "$INV" \
		    --link "$1" --good "$2" --bad "$3" \
		    --test "$ROOT/configs/bisect/$4.json" --quiet \
		    > "$TMP/b.out" 2>&1 || { cat "$TMP/b.out" >&2; die "bisect $1"; }
		wall=$(( $(now_ms) - t0 ))
		echo "  bisect $1: $wall ms [$(date -u +%FT%TZ), load" \
		    "$(cut -d' ' -f1-3 /proc/loadavg)]"
		echo "$(sq "$TMP/b.db" "SELECT max(id) FROM bisects") $wall $1" \
		    >> "$TMP/bisects"
	done
	# Load drifts: the reference is the median of reboots by hand before
	# and after the bisects.
	by_hand
	hand=$(median < "$TMP/rb")
	while read -r id wall name; do
		fig "$(bisect_parts "$id" "$wall" "$hand" "$name")"
	done < "$TMP/bisects"
}

# The plumbing of a 2-pair lab by hand (namespaces, veths, a bridge),
# without sshd, iperf servers, tc or faultd: the reference for bench_lab.
plumb_ms() {
	_p=lbp$$
	_t0=$(now_ms)
	ip link add "$_p-br" type bridge
	for _i in 1 2 3 4; do
		ip netns add "$_p-$_i"
		ip link add "$_p-v$_i" type veth peer name eth0 netns "$_p-$_i"
		ip link set "$_p-v$_i" master "$_p-br" up
		ip -n "$_p-$_i" link set eth0 up
	done
	_t1=$(now_ms)
	for _i in 1 2 3 4; do
		ip netns del "$_p-$_i"
	done
	ip link del "$_p-br"
	echo "$((_t1 - _t0)) $(($(now_ms) - _t1))"
}

bench_lab() {
	: > "$TMP/up"
	: > "$TMP/down"
	: > "$TMP/pup"
	: > "$TMP/pdown"
	_k=0
	while [ $_k -lt "$N" ]; do
		_t0=$(now_ms)
		LABS="$LABS lbl$$"
		"$LABRAT" lab up --name lbl$$ >/dev/null || die "lab up"
		_t1=$(now_ms)
		"$LABRAT" lab down --name lbl$$ >/dev/null || die "lab down"
		echo $((_t1 - _t0)) >> "$TMP/up"
		echo $(($(now_ms) - _t1)) >> "$TMP/down"
		set -- $(plumb_ms)
		echo "$1" >> "$TMP/pup"
		echo "$2" >> "$TMP/pdown"
		_k=$((_k + 1))
	done
	for _w in up down; do
		_l=$(median < "$TMP/$_w")
		_r=$(median < "$TMP/p$_w")
		fig "lab: $_w ${_l} ms (median of $N), plumbing by hand ${_r} ms," \
		    "ratio $(awk -v a="$_l" -v b="$_r" 'BEGIN { printf "%.1f", a / (b > 0 ? b : 1) }')"
	done
}

# Two builds side by side: the 4-link plan with 1-s jobs, run by $LABRAT
# and by $LABRAT_B in turn, R rounds (default 10).  The machine's own
# drift between two bench runs (0.12 to 0.145 s per job within 20
# minutes, 2026-12-03) is larger than most changes; alternating runs see
# the same drift.
bench_ab() {
	[ -n "${LABRAT_B:-}" ] && [ -x "$LABRAT_B" ] ||
	    die "ab: set LABRAT_B to the other labrat"
	lab rba$$ --pairs 4
	links=$(jq -c '[.links[].name]' "$INV")
	nl=$(jq '.links | length' "$INV")
	plan "$TMP/ab.json" "$links" '{ "tso": [true, false] }' 1 2
	for _b in "$LABRAT" "$LABRAT_B"; do	# each deploys its agent
		"$_b" run --db "$TMP/ab.db" --inventory "$INV" \
		    --plan "$TMP/ab.json" >/dev/null 2>&1 || die "ab warm-up: $_b"
	done
	: > "$TMP/ab.A"
	: > "$TMP/ab.B"
	_k=0
	while [ $_k -lt "${R_AB:-10}" ]; do
		for _v in A B; do
			_b=$LABRAT
			[ $_v = B ] && _b=$LABRAT_B
			_t0=$(now_ms)
			"$_b" run --db "$TMP/ab.db" --inventory "$INV" \
			    --plan "$TMP/ab.json" >/dev/null 2>&1 || die "ab run: $_b"
			echo $(( $(now_ms) - _t0 - 4000 )) >> "$TMP/ab.$_v"
		done
		_k=$((_k + 1))
	done
	echo "  A ($LABRAT), ms beyond the workload: $(sort -n "$TMP/ab.A" | tr '\n' ' ')"
	echo "  B ($LABRAT_B), ms beyond the workload: $(sort -n "$TMP/ab.B" | tr '\n' ' ')"
	fig "$(echo "$(median < "$TMP/ab.A") $(median < "$TMP/ab.B") $nl" | awk '{
	    printf "ab: %d links, 4 jobs of 1 s each, alternating, median " \
	    "beyond the workload: A %.0f ms, B %.0f ms (B - A: %+.1f ms per job)",
	    $3, $1, $2, ($2 - $1) / 4 }')"
}

[ "$(id -u)" -eq 0 ] || die "needs root (the simulated lab)"
[ -x "$LABRAT" ] || die "no labrat at $LABRAT (set LABRAT)"
[ $# -gt 0 ] || set -- fidelity overhead matrix bisect rss lab
echo "# $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
for b in "$@"; do
	case $b in
	fidelity|overhead|matrix|bisect|rss|lab|ab) "bench_$b" ;;
	*) die "unknown bench $b" ;;
	esac
done
