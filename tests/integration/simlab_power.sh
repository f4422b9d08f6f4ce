#!/bin/sh
# Simulated lab kernel commands: install of an unbuildable revision fails
# with a build log, an unknown one is refused, an unbootable revision leaves
# the host hung (no SSH) until the inventory's power command boots the
# previous good revision.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=spower$$
trap lab_down EXIT

lab_up --boot-seconds 0.3
A=$(mgmt_of em-b)
H=$STATE/bin/host
unbuildable=$(jq -r '.unbuildable[0]' "$SIMLAB_SRC/configs/simlab/history.json")
unbootable=$(jq -r '.unbootable[0]' "$SIMLAB_SRC/configs/simlab/history.json")

# The inventory's own templates are what the controller runs.
[ "$(jq -r '.hosts[1].kernel.install[0]' "$INV")" = "$H" ] || fail "install template"
out=$(lab_ssh "$A" "$H" install "$unbuildable" 2>&1) && fail "install $unbuildable succeeded"
echo "$out" | grep -q "Error code 1" || fail "no build log for $unbuildable: $out"
lab_ssh "$A" "$H" install r1 >/dev/null 2>&1 && fail "install of an unknown revision succeeded"
lab_ssh "$A" "$H" install "'r200000;id'" >/dev/null 2>&1 && fail "install of a bad id succeeded"
[ "$(lab_ssh "$A" "$H" revision)" = r200399 ] || fail "a failed install changed the revision"

lab_ssh "$A" "$H" install "$unbootable" >/dev/null || fail "install $unbootable"
lab_ssh "$A" "$H" reboot >/dev/null || fail "reboot"
sleep 1.5
SSH_CT=1
lab_ssh "$A" true 2>/dev/null && fail "em-b answers SSH while booting unbootable $unbootable"
SSH_CT=3
"$LABRAT" lab status --name "$LAB" | grep "^em-b .* hung " >/dev/null ||
    fail "status does not show em-b hung"
note "em-b hung at $unbootable"

# The power hook, exactly as the inventory gives it ({host} substituted).
set -- $(jq -r '.hosts[1].power.command | map(if . == "{host}" then "em-b" else . end) | .[]' "$INV")
"$@" >/dev/null || fail "power command failed: $*"
wait_ssh em-b 5 || fail "em-b did not come back after the power cycle"
[ "$(lab_ssh "$A" "$H" revision)" = r200399 ] ||
    fail "power cycle booted $(lab_ssh "$A" "$H" revision), want the previous good r200399"
lab_ssh "$A" hostname | grep -qx em-b || fail "hostname after power cycle"
note "power cycle: em-b back at r200399"

# A plain reboot keeps the installed revision and drops running sessions.
lab_ssh "$A" "$H" install r200100 >/dev/null || fail "install r200100"
lab_ssh "$A" "sleep 30" &
sshpid=$!
sleep 0.3
lab_ssh "$A" "$H" reboot >/dev/null || fail "reboot"
t0=$(now_ms)
wait $sshpid
[ $(( $(now_ms) - t0 )) -lt 3000 ] || fail "a session survived the reboot"
wait_ssh em-b 5 || fail "em-b did not come back after reboot"
[ "$(lab_ssh "$A" "$H" revision)" = r200100 ] || fail "reboot did not boot r200100"
echo PASS
