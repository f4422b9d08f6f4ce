#!/bin/sh
# Two simulated labs at once (different names, one with --pairs 3 and
# --noise 5): both reachable with their own keys and addresses, iperf3 runs
# in each, noise gives a run-to-run CV near 5 % where the quiet lab stays
# under 1 %, and taking one down leaves the other intact.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LA=smulta$$
LB=smultb$$
trap '"$LABRAT" lab down --name $LA >/dev/null 2>&1; "$LABRAT" lab down --name $LB >/dev/null 2>&1' EXIT

LAB=$LA
lab_up
INVA=$INV STATEA=$STATE
LAB=$LB
lab_up --pairs 3 --noise 5
INVB=$INV STATEB=$STATE

[ "$(jq '.hosts | length' "$INVB")" -eq 6 ] || fail "--pairs 3: want 6 hosts"
[ "$(jq -r '.links[2].name' "$INVB")" = em2 ] || fail "--pairs 3: third link"
[ "$(jq -r '.hosts[4].name' "$INVB")" = em-c ] || fail "--pairs 3: host em-c"
[ "$(jq -r '.hosts[0].address' "$INVA")" != "$(jq -r '.hosts[0].address' "$INVB")" ] ||
    fail "two labs share management addresses"
"$LABRAT" config check "$INVB" >/dev/null || fail "config check $INVB"

for lab in A B; do
	eval "INV=\$INV$lab STATE=\$STATE$lab"
	for a in $(jq -r '.hosts[].address' "$INV"); do
		lab_ssh "$a" true || fail "lab $lab: ssh $a"
	done
done
# Keys do not cross labs.
INV=$INVA STATE=$STATEA
lab_ssh "$(jq -r '.hosts[0].address' "$INVB")" true 2>/dev/null &&
    fail "lab A's key opens lab B's host"

cv() {
	awk '{ s += $1; q += $1 * $1; n++ } END { m = s / n
	    printf "%.2f", 100 * sqrt((q - n * m * m) / (n - 1)) / m }'
}
# rcv: robust CV in percent, 1.4826 * MAD / median. A loaded machine
# (CI, an ASan build) now and then takes one run down; that outlier says
# nothing about the quiet link's own noise. The noisy lab's noise is
# heavy-tailed (most runs near the rate, a few far off), so it is read
# with the plain CV, which load can only raise.
rcv() {
	sort -n | awk '{ v[n++] = $1 } END {
	    m = (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
	    for (i = 0; i < n; i++) d[i] = (v[i] > m) ? v[i] - m : m - v[i]
	    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
		if (d[j] < d[i]) { t = d[i]; d[i] = d[j]; d[j] = t }
	    mad = (n % 2) ? d[int(n / 2)] : (d[n / 2 - 1] + d[n / 2]) / 2
	    printf "%.2f", 100 * 1.4826 * mad / m }'
}
LAB=$LA
quiet=$(for i in 1 2 3 4 5; do iperf em-a em-b 198.18.1.2; done | tr '\n' ' ')
LAB=$LB
noisy=$(for i in 1 2 3 4 5 6 7 8 9 10; do iperf em-c em-d 198.18.3.2; done | tr '\n' ' ')
qcv=$(echo "$quiet" | tr ' ' '\n' | grep . | rcv)
ncv=$(echo "$noisy" | tr ' ' '\n' | grep . | cv)
note "quiet lab: $quiet(robust CV $qcv %); --noise 5: $noisy(CV $ncv %)"
near "$qcv" 0 2 || fail "quiet lab CV $qcv %"
near "$ncv" 1 12 || fail "--noise 5 gave CV $ncv %"

"$LABRAT" lab down --name "$LA" || fail "down A"
ip netns list | grep -q "^$LA-" && fail "lab A namespaces left"
[ "$(ip netns list | grep -c "^$LB-")" -eq 6 ] || fail "lab B lost namespaces"
INV=$INVB STATE=$STATEB
lab_ssh "$(jq -r '.hosts[5].address' "$INVB")" hostname | grep -qx em-d ||
    fail "lab B em-d unreachable after lab A went down"
ip route | grep -q "^unreachable 198.18.0.0/15" || fail "unreachable route gone while lab B is up"
"$LABRAT" lab down --name "$LB" || fail "down B"
ip netns list | grep -q "^$LB-" && fail "lab B namespaces left"
echo PASS
