# tests/integration/lib/simlab.sh: helpers for the simulated-lab tests.
# Sourced by POSIX sh scripts; expects LABRAT (controller binary) and sets
# LAB (a name unique to this test run) before lab_up.
#
#   lab_up ARGS...        labrat lab up --name $LAB ARGS (sets STATE, INV);
#                         with no ARGS and LABRAT_SHARED_LAB set (the
#                         shared_lab fixture, tests/CMakeLists.txt), the
#                         lab named in $LABRAT_SHARED_LAB.$PPID (PPID: the
#                         ctest running the test) instead: nothing is
#                         brought up, and lab_down leaves it up but fails
#                         the test unless every link is as it was
#   lab_down              labrat lab down --name $LAB
#   check_restored HOST IF  TSO on, MTU 1500, no nft table labrat, no
#                         saved original left on the host
#   check_links_restored  the above for every test interface of the lab
#   lab_ssh MGMT CMD...   strict-host-key SSH to a host of the lab
#   iperf LINK_CLIENT LINK_SERVER ADDR   -> Mbit/s of a 2 s iperf3 run
#   fail MSG              print and exit 1
#   now_ms, mono_ms       wall clock, CLOCK_MONOTONIC (rollback deadlines) in ms
#   near X LO HI          X in [LO, HI]?

: "${LABRAT:?LABRAT must point at the labrat binary}"
SIMLAB_SRC=${LABRAT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
export LABRAT_SIMLAB_DIR="$SIMLAB_SRC/simlab"

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: the simulated lab needs root" >&2
	exit 77
fi
for t in ip tc nft ethtool sshd iperf3 jq unshare nsenter; do
	command -v $t >/dev/null 2>&1 || [ -x /usr/sbin/$t ] || {
		echo "SKIP: $t missing (run scripts/install-deps.sh)" >&2
		exit 77
	}
done

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

note() {
	echo "# $*"
}

now_ms() {
	echo $(( $(date +%s%N) / 1000000 ))
}

# mono_ms: CLOCK_MONOTONIC in ms, the clock of the agent's rollback
# deadlines (rollback/IF.deadline under a host's state).
mono_ms() {
	python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000000)'
}

near() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'
}

lab_up() {
	if [ $# -eq 0 ] && [ -n "${LABRAT_SHARED_LAB:-}" ]; then
		# Never taken down from here (SHARED_LAB_LEFT: nothing to check
		# until it is found as it should be).
		SHARED_LAB_LEFT=1
		# lib/shared_lab.sh wrote it, run by the ctest that runs us.
		SHARED_LAB=$(cat "$LABRAT_SHARED_LAB.$PPID") ||
		    fail "no shared lab: $LABRAT_SHARED_LAB.$PPID (the shared_lab fixture)"
		LAB=$SHARED_LAB
		STATE=/run/labrat-lab/$LAB
		INV=$STATE/inventory.json
		[ -f "$INV" ] || fail "shared lab $LAB is not up (no $INV)"
		note "shared lab $LAB (the shared_lab fixture)"
		# As the last test must have left it: else that test failed
		# (its own lab_down said so) and this one would only inherit it.
		check_links_restored
		SHARED_LAB_LEFT=
		return 0
	fi
	INV=$("$LABRAT" lab up --name "$LAB" "$@") || fail "lab up --name $LAB failed"
	STATE=/run/labrat-lab/$LAB
	[ "$INV" = "$STATE/inventory.json" ] || fail "lab up printed '$INV'"
}

lab_down() {
	if [ -n "${SHARED_LAB:-}" ]; then
		# Someone else's lab: it stays up for the next test, as this
		# one found it (checked once: lab_down runs again on exit).
		[ -n "${SHARED_LAB_LEFT:-}" ] && return 0
		SHARED_LAB_LEFT=1
		LAB=$SHARED_LAB
		check_links_restored
		return 0
	fi
	"$LABRAT" lab down --name "$LAB" >/dev/null 2>&1
}

check_restored() {
	ip netns exec "$LAB-$1" ethtool -k "$2" |
	    grep -q '^tcp-segmentation-offload: on' ||
	    fail "$1 $2: TSO is not back on"
	ip -n "$LAB-$1" link show "$2" | grep -q " mtu 1500 " ||
	    fail "$1 $2: MTU is not back to 1500: $(ip -n "$LAB-$1" -o link show "$2")"
	if ip netns exec "$LAB-$1" nft list table ip labrat >/dev/null 2>&1; then
		fail "$1: nft table labrat is still there"
	fi
	[ ! -e "$STATE/hosts/$1/var-lib-labrat/state/$2.json" ] ||
	    fail "$1 $2: the agent still holds a saved original (not restored)"
}

check_links_restored() {
	for _l in $(jq -r '.links[] | "\(.client.host):\(.client.if) \(.server.host):\(.server.if)"' "$INV"); do
		check_restored "${_l%%:*}" "${_l#*:}"
	done
}

mgmt_of() {
	jq -r --arg h "$1" '.hosts[] | select(.name == $h) | .address' "$INV"
}

lab_ssh() {
	_a=$1
	shift
	ssh -n -o BatchMode=yes -o StrictHostKeyChecking=yes \
	    -o UserKnownHostsFile="$STATE/known_hosts" -o ConnectTimeout="${SSH_CT:-3}" \
	    -i "$STATE/id_ed25519" "root@$_a" "$@"
}

# iperf CLIENT SERVER SERVER_ADDR: Mbit/s received in a 2 s cubic run.
iperf() {
	ip netns exec "$LAB-$2" iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
	_srv=$!
	_i=0
	while ! ip netns exec "$LAB-$2" ss -Hltn 'sport = :5201' | grep -q .; do
		_i=$((_i + 1))
		[ $_i -gt 100 ] && fail "iperf3 server on $2 did not start"
		sleep 0.02
	done
	ip netns exec "$LAB-$1" iperf3 -c "$3" -p 5201 -t 2 -C cubic -J \
	    2>/dev/null | jq '.end.sum_received.bits_per_second / 1e6 | floor'
	wait $_srv 2>/dev/null
}

# Wait (up to $2 s) until host $1 answers SSH again.
wait_ssh() {
	_a=$(mgmt_of "$1")
	_end=$(( $(now_ms) + $2 * 1000 ))
	while [ "$(now_ms)" -lt $_end ]; do
		lab_ssh "$_a" true 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# Give the fault engine time to see an interface change (it has <= 1 s).
# iperf_best N FROM TO ADDR: the best of N iperf runs. A loaded machine
# (CI, an ASan build beside) only ever takes throughput away, so the best
# of a few is what the link itself gives.
iperf_best() {
	_n=$1
	shift
	_b=0
	while [ "$_n" -gt 0 ]; do
		_r=$(iperf "$@")
		[ "$_r" -gt "$_b" ] && _b=$_r
		_n=$((_n - 1))
	done
	echo "$_b"
}

# tbf_kbit NS: the tbf rate in force on namespace NS's test interface, in
# kbit/s. faultd sets it from the live faults (and the --noise draw), so it
# is what the lab itself does to the link, whatever the machine's load does
# to an iperf figure.
tbf_kbit() {
	tc -n "$1" qdisc show | awk '$2 == "tbf" { for (i = 1; i < NF; i++)
	    if ($i == "rate") { r = $(i + 1); v = r + 0
		if (r ~ /Gbit$/) v *= 1000000; else if (r ~ /Mbit$/) v *= 1000
		else if (r ~ /bit$/ && r !~ /Kbit$/) v /= 1000
		printf "%d\n", v } }'
}

# rate_is HOST LO HI: HOST's (the sender's) tbf rate is within [LO, HI]
# kbit/s, or the test fails naming it.
rate_is() {
	_k=$(tbf_kbit "$LAB-$1")
	near "${_k:-0}" "$2" "$3" || fail "$1: tbf rate ${_k:-none} kbit/s, want $2-$3"
}

settle() {
	sleep 0.7
}
