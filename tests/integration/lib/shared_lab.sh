#!/bin/sh
# tests/integration/lib/shared_lab.sh up|down FILE: the shared_lab fixture
# (tests/CMakeLists.txt).  `up` brings up one simulated lab with the
# defaults (`labrat lab up`, no options) under a name unique to this test
# run and writes that name to FILE, where lab_up (lib/simlab.sh) of every
# test marked `# ctest: shared-lab` finds it; `down` takes that lab down
# and removes FILE.  ctest runs `up` before the first such test and `down`
# after the last, whether they passed or not.
set -u
[ $# -eq 2 ] || { echo "usage: shared_lab.sh up|down FILE" >&2; exit 2; }
. "$(dirname "$0")/simlab.sh"
op=$1 file=$2
# A lab some earlier run left behind (killed before its `down`): ours,
# down with it first.
if [ -s "$file" ]; then
	LAB=$(cat "$file")
	[ "$op" = up ] && note "a shared lab $LAB left behind: down"
	"$LABRAT" lab down --name "$LAB" >/dev/null ||
	    { [ "$op" = down ] && fail "lab down --name $LAB failed"; }
	rm -f "$file"
fi
[ "$op" = down ] && { echo "shared lab down"; exit 0; }
[ "$op" = up ] || fail "unknown operation '$op' (up|down)"
mkdir -p "$(dirname "$file")" || fail "mkdir for $file"
LAB=shl$$
unset LABRAT_SHARED_LAB	# this is the one
trap '[ -s "$file" ] || lab_down' EXIT	# nothing half up if up fails
t0=$(now_ms)
lab_up
echo "$LAB" > "$file.tmp" && mv "$file.tmp" "$file" || fail "write $file"
note "shared lab $LAB up in $(( $(now_ms) - t0 )) ms: $INV"
