#!/bin/sh
# The simulated history's head: `lab up` puts it at the last revision
# unless --head; `lab advance` moves it forward only (--by clamps at the
# end and says so, --to before the head or outside the history fails
# naming both, --print-head prints just the id); hosts refuse to install
# a revision after the head; `lab status` shows it.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=ladv$$
E=$(mktemp "${TMPDIR:-/tmp}/ladv$$.XXXXXX")
trap 'lab_down; rm -f "$E"' EXIT
A() { "$LABRAT" lab advance --name "$LAB" "$@"; }
status_head() {
	"$LABRAT" lab status --name "$LAB" | sed -n 's/^head: \([^ ]*\) .*/\1/p'
}

# Default: the head is the history's last revision, as before.
lab_up --boot-seconds 0.3
[ "$(status_head)" = r200399 ] || fail "default head: $(status_head)"
[ "$(A --by 0 --print-head)" = r200399 ] || fail "--by 0 moved the default head"
lab_down

# --head: the hosts run the head; status names it and the next revision.
lab_up --boot-seconds 0.3 --head r200132
"$LABRAT" lab status --name "$LAB" > "$E"
grep -qx 'head: r200132 (133 of 400 revisions landed; next r200133)' "$E" ||
    fail "status: $(head -n 3 "$E")"
grep -q '^em-a .* r200132 .* r200132 ' "$E" || fail "em-a does not run the head"
"$LABRAT" lab up --name other$$ --head r200100 --revision r200101 2>"$E" &&
    { "$LABRAT" lab down --name other$$; fail "--revision after --head accepted"; }
grep -q 'r200101: has not landed: head is r200100' "$E" || fail "up: $(cat "$E")"

# --by, --print-head (just the id), a plain line without it.
[ "$(A --by 3 --print-head)" = r200135 ] || fail "--by 3 --print-head"
out=$(A --by 3) || fail "--by 3 failed"
[ "$out" = "lab $LAB: head r200135 -> r200138 (3 landed, 261 still to land)" ] ||
    fail "--by 3 said: $out"
[ "$(A --print-head)" = r200139 ] || fail "default step is not 1"

# --to: forward; backward or unknown fails naming both; not with --by.
[ "$(A --to r200140 --print-head)" = r200140 ] || fail "--to r200140"
A --to r200100 2>"$E" && fail "--to before the head accepted"
grep -q 'r200100: is before the head r200140' "$E" || fail "--to back: $(cat "$E")"
A --to r300000 2>"$E" && fail "--to outside the history accepted"
grep -q 'r300000: not in .*r200399.*head is r200140' "$E" || fail "--to out: $(cat "$E")"
A --to r200141 --by 1 2>/dev/null && fail "--to with --by accepted"
A --by -1 2>/dev/null && fail "--by -1 accepted"
[ "$(status_head)" = r200140 ] || fail "a refused advance moved the head"

# Install through the inventory's kernel command: past the head refused.
H=$(jq -r '.hosts[0].kernel.install[0]' "$INV")
M=$(mgmt_of em-a)
out=$(lab_ssh "$M" "$H" install r200150 2>&1) && fail "install past the head succeeded"
echo "$out" | grep -qx 'host install: r200150 has not landed: head is r200140' ||
    fail "install past the head said: $out"
lab_ssh "$M" "$H" install r200140 >/dev/null || fail "install of the head failed"

# --by clamps at the end, says so on stderr; stdout stays one id.
[ "$(A --by 1000 --print-head 2>"$E")" = r200399 ] || fail "--by 1000"
grep -q 'stops at the history.s last revision r200399 (moved 259)' "$E" ||
    fail "clamp: $(cat "$E")"
lab_ssh "$M" "$H" install r200399 >/dev/null || fail "install after advance failed"
A --by 1 --print-head >/dev/null 2>&1 || fail "--by at the end failed"
echo PASS
