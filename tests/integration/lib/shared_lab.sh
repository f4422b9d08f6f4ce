#!/bin/sh
# tests/integration/lib/shared_lab.sh up|down FILE: the shared_lab fixture
# (tests/CMakeLists.txt).  `up` brings up one simulated lab with the
# defaults (`labrat lab up`, no options) under a name unique to this test
# run and writes that name to FILE.PID, PID being the ctest that runs it,
# where lab_up (lib/simlab.sh) of every test marked `# ctest: shared-lab`
# finds it (the same ctest is their parent); `down` takes that lab down and
# removes the file.  ctest runs `up` before the first such test and `down`
# after the last, whether they passed or not.  Two ctest runs in one build
# directory each have their own; `up` takes down the labs of ctest runs
# that are gone (killed before their `down`).
set -u
[ $# -eq 2 ] || { echo "usage: shared_lab.sh up|down FILE" >&2; exit 2; }
. "$(dirname "$0")/simlab.sh"
op=$1 base=$2
file=$base.$PPID

# gone FILE: take down the lab named in FILE and remove it.
gone() {
	_lab=$(cat "$1") || return 1
	if "$LABRAT" lab down --name "$_lab" >/dev/null; then
		rm -f "$1"
		return 0
	fi
	echo "# lab down --name $_lab failed" >&2
	return 1
}

case $op in
down)
	[ -s "$file" ] || { echo "no shared lab ($file)"; exit 0; }
	LAB=$(cat "$file")
	gone "$file" || fail "shared lab $LAB: lab down failed"
	echo "shared lab $LAB down"
	exit 0 ;;
up) ;;
*) fail "unknown operation '$op' (up|down)" ;;
esac

mkdir -p "$(dirname "$base")" || fail "mkdir for $base"
for f in "$base".*; do
	[ -f "$f" ] || continue
	pid=${f##*.}
	case $pid in *[!0-9]*|'') continue ;; esac
	[ "$pid" != "$PPID" ] && kill -0 "$pid" 2>/dev/null && continue
	note "a shared lab left behind by ctest pid $pid: $(cat "$f"), down"
	gone "$f"
done
LAB=shl$$
unset LABRAT_SHARED_LAB	# this is the one
trap '[ -s "$file" ] || lab_down' EXIT	# nothing half up if up fails
t0=$(now_ms)
lab_up
echo "$LAB" > "$file.tmp" && mv "$file.tmp" "$file" || fail "write $file"
note "shared lab $LAB up in $(( $(now_ms) - t0 )) ms: $INV"
