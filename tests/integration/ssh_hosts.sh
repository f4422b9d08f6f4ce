#!/bin/sh
# labrat hosts, the real binary against a real sshd on 127.0.0.1 (random high
# port, its own host key, `UsePAM no`, sftp, LABRAT_AGENT_STATE set by sshd's
# SetEnv into a temp dir): two inventory hosts on that sshd deploy the agent
# in parallel into one state dir (first run builds, second is a cache hit)
# and print their facts; a third host whose known_hosts holds another key
# is refused with its fingerprint and makes the exit status 1.
set -eu
: "${LABRAT:?}"
[ -x /usr/sbin/sshd ] || { echo "ssh_hosts: no sshd" >&2; exit 77; }
command -v ssh-keygen >/dev/null || { echo "ssh_hosts: no ssh-keygen" >&2; exit 77; }

tmp=$(mktemp -d /tmp/lrsshhosts.XXXXXX)
sshd_pid=
cleanup() {
	if [ -n "$sshd_pid" ]; then
		for c in $(pgrep -P "$sshd_pid" 2>/dev/null); do
			kill "$c" 2>/dev/null || true
		done
		kill "$sshd_pid" 2>/dev/null || true
		wait "$sshd_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
bad() { echo "ssh_hosts: FAIL: $*" >&2; fail=1; }

port=
for try in 1 2 3 4 5 6 7 8 9 10; do
	p=$(( $(od -An -N2 -tu2 /dev/urandom) % 40000 + 20000 ))
	if [ -z "$(ss -Hltn "sport = :$p")" ]; then
		port=$p
		break
	fi
done
[ -n "$port" ] || port=$(( $$ % 40000 + 20000 ))

cd "$tmp"
ssh-keygen -q -t ed25519 -N '' -f hostkey
ssh-keygen -q -t ed25519 -N '' -f otherkey
ssh-keygen -q -t ed25519 -N '' -f id_ed25519
cp id_ed25519.pub authorized_keys
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 hostkey.pub)" >known_hosts
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 otherkey.pub)" >kh_wrong
fp=$(ssh-keygen -l -E sha256 -f hostkey.pub | awk '{print $2}')
# An empty HOME: the machine's root dotfiles must not matter here.
mkdir -p state home /run/sshd
cat >sshd_config <<EOF
ListenAddress 127.0.0.1:$port
HostKey $tmp/hostkey
UsePAM no
PermitRootLogin prohibit-password
StrictModes no
AuthorizedKeysFile $tmp/authorized_keys
PasswordAuthentication no
Subsystem sftp internal-sftp
PidFile none
LogLevel ERROR
SetEnv LABRAT_AGENT_STATE=$tmp/state HOME=$tmp/home
EOF
/usr/sbin/sshd -D -e -f "$tmp/sshd_config" 2>"$tmp/sshd.log" &
sshd_pid=$!
i=0
until [ -n "$(ss -Hltn "src 127.0.0.1:$port")" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || { cat "$tmp/sshd.log" >&2; echo "sshd did not start" >&2; exit 1; }
	sleep 0.01
done

link() { # client server
	cat <<EOF
{ "name": "lo", "client": { "host": "$1", "if": "lo", "address": "198.18.0.1" },
  "server": { "host": "$2", "if": "lo", "address": "198.18.0.2" }, "nat": null }
EOF
}
host() { # name known_hosts
	cat <<EOF
    { "name": "$1", "os": "linux", "address": "127.0.0.1",
      "ssh": { "user": "root", "port": $port, "key": "id_ed25519",
               "known_hosts": "$2" },
      "nics": [ { "name": "lo", "driver": "loopback", "role": "test" } ] }
EOF
}
{ echo '{ "hosts": ['; host h1 known_hosts; echo ,; host h2 known_hosts
  echo '], "links": ['; link h1 h2; echo '] }'; } >good.json
{ echo '{ "hosts": ['; host h1 known_hosts; echo ,; host bad kh_wrong
  echo '], "links": ['; link h1 bad; echo '] }'; } >mixed.json

rc=0
"$LABRAT" hosts --inventory good.json --format json >out1 2>err1 || rc=$?
[ "$rc" -eq 0 ] || { bad "good inventory exited $rc"; cat err1 >&2; }
[ "$(grep -c '"ok":true' out1)" -eq 2 ] || bad "not two ok hosts: $(cat out1)"
grep -q '"built":true' out1 || bad "first run did not build the agent"
grep -q '"os":"linux"' out1 || bad "no facts in JSON"
grep -q '"name":"lo"' out1 || bad "no lo NIC in facts"
# lo is declared "loopback": the host's own driver name is shown as it
# is, the inventory's beside it, and a mismatch flagged when they differ.
jq -e '.hosts[0].facts.nics[] | select(.name == "lo") |
    .declared_driver == "loopback" and .declared_chip == null and
    .mismatch == (.driver != "loopback")' out1 >/dev/null ||
	bad "lo without its declared driver: $(cat out1)"
lodrv=$(jq -r '.hosts[0].facts.nics[] | select(.name == "lo") | .driver // "-"' out1)
n=$(ls state/agent | grep -c '^[0-9a-f]\{16\}$' || true)
[ "$n" -eq 1 ] || bad "$n agent hash dirs in state/agent"
ls -A state/agent | grep -q build && bad "build directory left behind"

rc=0
"$LABRAT" hosts --inventory good.json --format json >out2 2>err2 || rc=$?
[ "$rc" -eq 0 ] || bad "second run exited $rc"
grep -q '"built":true' out2 && bad "second run rebuilt the agent"
[ "$(grep -c '"built":false' out2)" -eq 2 ] || bad "second run not cached"

rc=0
"$LABRAT" hosts --inventory mixed.json >out3 2>err3 || rc=$?
[ "$rc" -eq 1 ] || bad "mixed inventory exited $rc, want 1"
grep -q '^h1  *linux  *[^ ]*  *-  *lo  ' out3 || bad "h1 row: $(cat out3)"
if [ "$lodrv" != loopback ]; then
	grep -qxF "  h1 lo: driver $lodrv (inventory: loopback)" out3 ||
		bad "h1 lo: no 'driver $lodrv (inventory: loopback)': $(cat out3)"
else
	grep -q "inventory:" out3 && bad "a mismatch shown where none is: $(cat out3)"
fi
grep -q "^bad .*ERROR: bad: HOST KEY MISMATCH .*$fp" out3 ||
	bad "bad host row without mismatch and fingerprint $fp: $(cat out3)"

rc=0
"$LABRAT" hosts >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || bad "no --inventory exited $rc, want 2"

[ $fail -eq 0 ] && echo "ssh_hosts: ok"
exit $fail
