#!/bin/sh
# agent_linux.sh: labrat-agent's Linux dialect for real, between two network
# namespaces joined by a veth pair named em0 on both sides and shaped to
# 1 Gbit/s: apply + read back + restore of every knob (a knob veth refuses
# must come back as a mismatch, exit 5), the rollback timer, restore after the
# controller vanished (kill -9), the host lease (a second controller refused,
# a dead one's lease taken over after its restore), iperf2/iperf3
# throughput, scp through a temporary sshd with an ephemeral key
# (keygen/authorize/deauthorize).
set -u

AGENT=${LABRAT_AGENT:-}
[ -n "$AGENT" ] && [ -x "$AGENT" ] || { echo "agent_linux: LABRAT_AGENT not set" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "agent_linux: needs root" >&2; exit 77; }
for t in ip ethtool nft tc iperf iperf3 scp ssh-keygen python3; do
	command -v $t >/dev/null 2>&1 || { echo "agent_linux: $t missing" >&2; exit 77; }
done
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || { echo "agent_linux: sshd missing" >&2; exit 77; }

P="lra$$"		# unique prefix of everything this run creates
NA="${P}a"; NB="${P}b"
A=198.18.77.1; B=198.18.77.2
T=$(mktemp -d /tmp/labrat-agent-test.XXXXXX)
SA="$T/state-a"; SB="$T/state-b"	# namespaces share the filesystem
SSHD_PID=""
FAILS=0

cleanup() {
	[ -n "$SSHD_PID" ] && kill "$SSHD_PID" 2>/dev/null
	LABRAT_AGENT_STATE=$SB ip netns exec $NB "$AGENT" serve stop >/dev/null 2>&1
	for s in "$SA" "$SB"; do
		for f in "$s"/rollback/*.pid; do
			[ -f "$f" ] && pid=$(cat "$f") && kill "$pid" 2>/dev/null
		done
	done
	ip netns del $NA 2>/dev/null
	ip netns del $NB 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
ok() { echo "ok: $*"; }

# ag HOST OUTFILE ARGS...: runs the agent in a namespace; sets RC.
ag() {
	h=$1; out=$2; shift 2
	if [ "$h" = a ]; then ns=$NA; st=$SA; else ns=$NB; st=$SB; fi
	LABRAT_AGENT_STATE=$st LABRAT_AGENT_AUTHKEYS=$T/authorized_keys \
	    ip netns exec $ns "$AGENT" "$@" >"$out" 2>"$out.err"
	RC=$?
}

# jv FILE EXPR: evaluates a Python expression over the result event r of
# FILE (every line must be a proto-1 JSON object); prints the value.
jv() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = None
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["proto"] == 1 and o["event"] in ("progress", "result", "error"), line
    if o["event"] == "result":
        r = o
v = eval(sys.argv[2], {"r": r})
print(json.dumps(v) if not isinstance(v, str) else v)
PY
}

# jget VAR FILE EXPR: VAR gets jv's value; none (no result event, a
# missing member) fails the test instead of leaving VAR empty.
jget() {
	_jg=$(jv "$2" "$3") || { fail "$2: no value for $3"; cat "$2" "$2.err" >&2; }
	eval "$1=\$_jg"
}

# check DESC FILE EXPR: EXPR must be true.
check() {
	if [ "$(jv "$2" "$3" 2>&1)" = "true" ]; then ok "$1"; else
		fail "$1: $3"; cat "$2" "$2.err" >&2; fi
}
expect_rc() {
	if [ "$RC" -eq "$1" ]; then ok "$2 (exit $RC)"; else
		fail "$2: exit $RC, wanted $1"; cat "$3" "$3.err" >&2; fi
}
nsa() { ip netns exec $NA "$@"; }
tso_a() { nsa ethtool -k em0 | sed -n 's/^tcp-segmentation-offload: \([a-z]*\).*/\1/p'; }

# ---- the lab -------------------------------------------------------------
ip netns add $NA && ip netns add $NB || exit 1
ip link add ${P}x type veth peer name ${P}y || exit 1
ip link set ${P}x netns $NA && ip link set ${P}y netns $NB
ip -n $NA link set ${P}x name em0 && ip -n $NB link set ${P}y name em0
ip -n $NA addr add $A/24 dev em0 && ip -n $NB addr add $B/24 dev em0
for n in $NA $NB; do
	ip -n $n link set lo up && ip -n $n link set em0 up
	ip netns exec $n tc qdisc replace dev em0 root tbf rate 1gbit \
	    burst 128kb latency 5ms
done
mtu_a() { nsa cat /sys/class/net/em0/mtu; }
# within DS CMD...: polls CMD until it succeeds, up to DS tenths of a
# second (the 3.5 s a 2 s rollback timer was slept out for, ended as soon
# as the timer has restored).
within() {
	_w=$1; shift
	until "$@"; do
		_w=$((_w - 1)); [ $_w -gt 0 ] || return 1; sleep 0.1
	done
}
tso_a_is() { [ "$(tso_a)" = "$1" ]; }
mtu_a_is() { [ "$(mtu_a)" = "$1" ]; }

# ---- facts ----------------------------------------------------------------
ag a $T/o facts --if em0
expect_rc 0 "facts" $T/o
check "facts: veth em0, linux, tools" $T/o \
    'r["os"] == "linux" and r["nics"][0]["driver"] == "veth" and r["nics"][0]["mtu"] == 1500 and r["nics"][0]["tso"] is True and r["tools"]["iperf3"] is not None and r["kernel"]["release"] != ""'

# The tools' versions are kept in state/tools/TOOL, keyed by the binary's
# identity: a cache with this binary's key is believed (a planted version
# comes back), one with another key is probed again and rewritten.
jget v3 $T/o 'r["tools"]["iperf3"]'
if [ -f "$SA/tools/iperf3" ] && [ "$(sed -n 2p "$SA/tools/iperf3")" = "$v3" ]; then
	ok "facts: iperf3 $v3 cached"
else
	fail "facts: no cache of iperf3 $v3: $(cat "$SA/tools/iperf3" 2>&1)"
fi
key=$(sed -n 1p "$SA/tools/iperf3")
printf '%s\n9.99.1\n' "$key" > "$SA/tools/iperf3"
ag a $T/o facts --if em0
check "facts: the cached version is used while the binary is the same" $T/o \
    'r["tools"]["iperf3"] == "9.99.1"'
printf '0 0 0 0 0\n9.99.1\n' > "$SA/tools/iperf3"
ag a $T/o facts --if em0
check "facts: a cache of another binary is probed again" $T/o \
    "r['tools']['iperf3'] == '$v3'"
[ "$(sed -n 1p "$SA/tools/iperf3")" = "$key" ] || fail "facts: the cache was not rewritten: $(cat "$SA/tools/iperf3")"

# ---- ethtool's ioctl against the ethtool program ---------------------------
# The agent reads and sets offloads through SIOCETHTOOL, not by running
# ethtool: in each state the ethtool program makes, the agent must read what
# `ethtool -k` prints (tso is tx-tcp-segmentation, partial when only another
# tx-tcp*-segmentation is on), and what the agent sets, ethtool must read.
eline() { nsa ethtool -k em0 | sed -n "s/^[[:space:]]*$1: \([a-z]*\).*/\1/p" | sed 's/on/True/; s/off/False/'; }
nic_vs_ethtool() {
	ag a $T/o facts --if em0
	want="$(eline tx-tcp-segmentation) $(eline tcp-segmentation-offload) $(eline tx-checksumming) $(eline rx-checksumming)"
	got=$(jv $T/o 'r["nics"][0]["tso"], r["nics"][0]["tso_partial"] or r["nics"][0]["tso"], r["nics"][0]["txcsum"], r["nics"][0]["rxcsum"]' |
	    tr -d '[],' | sed 's/true/True/g; s/false/False/g')
	if [ "$got" = "$want" ]; then ok "facts as ethtool -k reads them, $1: $got"; else
		fail "facts, $1: agent (tso, tso any, tx, rx) $got, ethtool -k $want"; fi
}
nic_vs_ethtool "as set up"
nsa ethtool -K em0 tx-tcp-segmentation off
nic_vs_ethtool "tx-tcp-segmentation off alone"
ag a $T/o facts --if em0
check "facts: TSO for IPv6 alone is partial TSO" $T/o \
    'r["nics"][0]["tso"] is False and r["nics"][0]["tso_partial"] is True'
nsa ethtool -K em0 tso on
nsa ethtool -K em0 tx off
nic_vs_ethtool "tx off (TSO off with it)"
nsa ethtool -K em0 tx on tso on
nic_vs_ethtool "tx and tso on again"
ag a $T/o apply --if em0 --txcsum off --rxcsum off --tso off
check "apply tx, rx, tso off through the ioctl: read back, no mismatch" $T/o \
    'r["in_force"]["txcsum"] is False and r["in_force"]["rxcsum"] is False and r["in_force"]["tso"] is False and r["mismatch"] == []'
[ "$(eline tx-checksumming) $(eline rx-checksumming) $(eline tcp-segmentation-offload)" = "False False False" ] ||
    fail "ethtool -k after the agent's apply: tx $(eline tx-checksumming), rx $(eline rx-checksumming), tso $(eline tcp-segmentation-offload)"
grep -q 'run: ethtool -K em0 tx off (ioctl)' $T/o.err ||
    fail "the apply did not name its ethtool step as done by the ioctl: $(cat $T/o.err)"
nic_vs_ethtool "after the agent's apply"
ag a $T/o restore --if em0
expect_rc 0 "restore tx, rx, tso" $T/o
[ "$(eline tx-checksumming) $(eline rx-checksumming) $(eline tcp-segmentation-offload)" = "True True True" ] ||
    fail "ethtool -k after restore: tx $(eline tx-checksumming), rx $(eline rx-checksumming), tso $(eline tcp-segmentation-offload)"

# ---- hostile and impossible requests ----------------------------------------
ag a $T/o apply --if 'em0; rm -rf /' --tso off
expect_rc 2 "apply refuses a hostile interface name" $T/o
grep -q '"class":"usage","message":"--if: ' $T/o || fail "usage error names --if"
ag a $T/o apply --if em0 --nat divert
expect_rc 2 "divert is FreeBSD only" $T/o
ag a $T/o apply --if em0 --tcp-tso off
expect_rc 2 "global TSO is FreeBSD only" $T/o
ag a $T/o apply --if nosuch0 --tso off
expect_rc 3 "unknown interface is a command failure" $T/o
[ ! -e $SA/state/em0.json ] || fail "a refused apply saved state"

# ---- apply, read back, restore ------------------------------------------------
ag a $T/o apply --if em0 --tso off --mtu 9000 --nat kernel
expect_rc 0 "apply tso=off mtu=9000 nat=kernel" $T/o
check "apply: in force as requested" $T/o \
    'r["saved"] is True and r["in_force"]["tso"] is False and r["in_force"]["mtu"] == 9000 and r["in_force"]["nat"] == "kernel" and r["mismatch"] == []'
[ "$(tso_a)" = off ] || fail "ethtool shows tso $(tso_a)"
[ "$(mtu_a)" = 9000 ] || fail "mtu is $(mtu_a)"
nsa nft list table ip labrat | grep -q 'oifname "em0" masquerade' || fail "no masquerade rule"
ag a $T/o apply --if em0 --rxcsum off --txcsum off
expect_rc 0 "apply rxcsum=off txcsum=off" $T/o
check "second apply keeps the first original" $T/o \
    'r["saved"] is False and r["in_force"]["rxcsum"] is False and r["in_force"]["txcsum"] is False'
ag a $T/o apply --if em0 --lro on
expect_rc 5 "veth refuses lro: mismatch" $T/o
check "mismatch names lro, result printed first" $T/o \
    'r["mismatch"] == ["lro"] and r["in_force"]["lro"] is False'
tail -1 $T/o | grep -q '"class":"mismatch"' || fail "last line is not the mismatch error"
ag a $T/o restore --if em0
expect_rc 0 "restore" $T/o
check "restore reports what it changed" $T/o \
    'r["was_saved"] is True and sorted(r["changed"]) == ["mtu", "nat", "rxcsum", "tso", "txcsum"]'
[ "$(tso_a)" = on ] || fail "tso not restored"
[ "$(mtu_a)" = 1500 ] || fail "mtu not restored: $(mtu_a)"
nsa nft list table ip labrat >/dev/null 2>&1 && fail "labrat table left behind"
nsa ethtool -k em0 | grep -q '^rx-checksumming: on' || fail "rxcsum not restored"
ag a $T/o restore --if em0
expect_rc 0 "restore again" $T/o
check "restore is idempotent" $T/o 'r["was_saved"] is False and r["changed"] == []'

# ---- rollback timer ------------------------------------------------------------
ag a $T/o apply --if em0 --tso off --rollback-after 2
expect_rc 0 "apply with a 2 s rollback timer" $T/o
check "timer pid reported" $T/o 'isinstance(r["rollback_pid"], int) and r["rollback_at"] > 0'
[ "$(tso_a)" = off ] || fail "tso not off before the timer"
within 35 tso_a_is on && ok "rollback timer restored tso" ||
    fail "timer did not restore tso within 3.5 s"
within 5 test ! -e $SA/state/em0.json || fail "timer left the saved state"

# The controller vanishes: its apply caller is killed -9 right after apply.
( LABRAT_AGENT_STATE=$SA ip netns exec $NA "$AGENT" apply --if em0 --mtu 9000 \
    --rollback-after 2 >$T/v 2>/dev/null; sleep 60 ) &
CALLER=$!
i=0; while ! grep -q '"event":"result"' $T/v 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
kill -9 $CALLER; wait $CALLER 2>/dev/null
[ "$(mtu_a)" = 9000 ] || fail "apply did not take effect before the kill"
within 35 mtu_a_is 1500 && ok "host restored after its controller vanished" ||
    fail "mtu still $(mtu_a) 3.5 s after the caller died"

ag a $T/o apply --if em0 --tso off --rollback-after 2
ag a $T/o confirm --if em0
check "confirm cancels the timer" $T/o 'r["cancelled"] is True'
sleep 3
[ "$(tso_a)" = off ] && ok "confirmed setting kept" || fail "timer fired after confirm"
ag a $T/o restore --if em0
check "restore after confirm" $T/o 'r["changed"] == ["tso"]'

# ---- host lease: a second controller is refused; a dead one's lease expires --------
ag a $T/o lease take --owner c1 --host ctl1 --pid 4242 --run 7 --ttl 2
expect_rc 0 "lease take" $T/o
ag a $T/o lease take --owner c2 --host ctl2 --pid 4711 --run 12
expect_rc 7 "a second controller is refused" $T/o
grep -q '"class":"leased","message":"leased by ctl1 pid 4242 run 7 since [0-2][0-9]:[0-5][0-9], expires [0-2][0-9]:[0-5][0-9]"' $T/o \
    && ok "refusal names the owner" || { fail "refusal message"; cat $T/o >&2; }
ag a $T/o apply --if em0 --tso off
expect_rc 7 "apply without an owner is refused under a live lease" $T/o
ag a $T/o facts --if em0
expect_rc 0 "facts needs no lease" $T/o
ag a $T/o apply --if em0 --tso off --owner c1
expect_rc 0 "the owner applies" $T/o
[ "$(tso_a)" = off ] || fail "owner's apply did not take effect"
sleep 2.5	# c1 dies without restoring: its 2 s lease expires
ag a $T/o lease take --owner c2 --host ctl2 --pid 4711 --run 12
expect_rc 0 "the expired lease is taken over" $T/o
check "takeover restored the dead owner's change first" $T/o \
    'r["restored"] == ["em0"] and r["previous"]["owner"] == "c1" and r["lease"]["owner"] == "c2"'
[ "$(tso_a)" = on ] || fail "tso not restored by the takeover"
ag a $T/o lease release --owner c2
check "release" $T/o 'r["released"] is True'

# ---- serve --if checks the receiver as its last apply verified it ----------
ag b $T/o serve --tool iperf3 --bind $B --if em0
check "serve --if without a saved life: state unknown" $T/o 'r["state"] == "unknown"'
ag b $T/o apply --if em0 --tso off
expect_rc 0 "apply on the receiver" $T/o
ag b $T/o serve --tool iperf3 --bind $B --if em0 --keep
check "serve --keep --if after the apply: state stands" $T/o \
    'r["state"] == "stands" and r["kept"] is True'
ip netns exec $NB ethtool -K em0 tso on
ag b $T/o serve --tool iperf3 --bind $B --if em0 --keep
check "an outside TSO change: state moved" $T/o 'r["state"] == "moved"'
ag b $T/o apply --if em0 --tso off
check "the apply sees the change (the bitmap before it, read then) and puts TSO back" $T/o \
    'r["changed"] == ["tso"] and r["in_force"]["tso"] is False'
ag b $T/o serve --tool iperf3 --bind $B --if em0 --keep
check "put back: state stands" $T/o 'r["state"] == "stands"'
ip -n $NB link set em0 mtu 1400
ag b $T/o serve --tool iperf3 --bind $B --if em0 --keep
check "an outside MTU change: state moved" $T/o 'r["state"] == "moved"'
ip netns exec $NB nft add table ip outside
ag b $T/o apply --if em0 --tso off --mtu 1500
ag b $T/o serve --tool iperf3 --bind $B --if em0 --keep
check "MTU put back: state stands" $T/o 'r["state"] == "stands"'
ip netns exec $NB nft delete table ip outside
ag b $T/o serve --tool iperf3 --bind $B --if em0 --keep
check "an outside nft change: state moved" $T/o 'r["state"] == "moved"'
ag b $T/o restore --if em0
expect_rc 0 "restore the receiver" $T/o
ag b $T/o serve stop

# ---- a knob flipped back and forth: each feature bitmap read once -------------
ag a $T/o apply --if em0 --tso off
check "a first flip is read back in full" $T/o \
    '"read_back_offloads" not in r["cached"] and r["changed"] == ["tso"]'
ag a $T/o apply --if em0 --tso on --reset-others
check "a flip back: the bitmap before, its offloads from verified/IF" $T/o \
    '"read_back_offloads" in r["cached"] and r["changed"] == ["tso"] and r["in_force"]["tso"] is True and r["mismatch"] == []'
[ "$(tso_a)" = on ] || fail "tso not on after the flip back"
ag a $T/o apply --if em0 --tso off --reset-others
check "and forth again, from verified/IF" $T/o \
    '"read_back_offloads" in r["cached"] and r["in_force"]["tso"] is False'
[ "$(tso_a)" = off ] || fail "tso not off after the flip"
# Another feature changed outside: both bitmaps are new, read in full.
nsa ethtool -K em0 gso off
ag a $T/o apply --if em0 --tso on --reset-others
check "an outside change (gso): read in full before and after" $T/o \
    '"offloads" not in r["cached"] and "read_back_offloads" not in r["cached"] and r["in_force"]["tso"] is True'
nsa ethtool -K em0 gso on

# ---- restore --serve-stop --release: a controller's last word in one call --------
ag b $T/o lease take --owner c3 --host ctl3 --pid 4243 --run 8
expect_rc 0 "lease take (c3)" $T/o
ag b $T/o apply --if em0 --tso off --owner c3
expect_rc 0 "c3 applies on the receiver" $T/o
ag b $T/o serve --tool iperf3 --bind $B --owner c3
expect_rc 0 "serve under c3's lease" $T/o
jget SPID $T/o 'r["pid"]'
ag b $T/o restore --if em0 --release
expect_rc 2 "restore --release without --owner is a usage error" $T/o
ag b $T/o restore --if em0 --owner c3 --serve-stop --release
check "restore --serve-stop --release: server stopped, TSO back, lease given back" $T/o \
    "r['stopped'] == [$SPID] and r['released'] is True and r['changed'] == ['tso']"
[ "$(ip netns exec $NB ethtool -k em0 | sed -n 's/^tcp-segmentation-offload: \([a-z]*\).*/\1/p')" = on ] ||
    fail "receiver tso not restored"
# (Its lock is gone once it exits; init reaps it a moment later.)
gone() { [ ! -e /proc/$1 ] || grep -q ') Z ' /proc/$1/stat 2>/dev/null; }
within 20 gone "$SPID" || fail "server $SPID still running 2 s after --serve-stop"
ag b $T/o lease show
check "no lease after restore --release" $T/o 'r["held"] is False'
ag a $T/o restore --if em0
expect_rc 0 "restore the sender" $T/o

# ---- iperf2 / iperf3 over the shaped pair -----------------------------------------
ag b $T/o serve --tool iperf3 --bind $B --if em0
expect_rc 0 "serve iperf3" $T/o
check "serve --if: the receiver's counters" $T/o \
    'r["ifstats"]["if"] == "em0" and r["ifstats"]["counters"]["rx_bytes"] >= 0'
jget RX0 $T/o 'r["ifstats"]["counters"]["rx_bytes"]'
ag b $T/o serve --tool iperf2 --bind $B
expect_rc 0 "serve iperf2" $T/o
GOT=0
for tool in iperf3 iperf2; do
	ag a $T/o iperf --tool $tool --server $B --len 128k --window 1M --nodelay --time 3 --watch iperf3
	expect_rc 0 "$tool client" $T/o
	# The exact client argv (the reports' flags; cubic: the host default is bbr).
	cc3=""; cc2=""
	if grep -qw cubic /proc/sys/net/ipv4/tcp_available_congestion_control; then
		cc3=" -C cubic"; cc2=" -Z cubic"
	fi
	if [ $tool = iperf3 ]; then
		want="run: iperf3 -c $B -J -l 128k -w 1M -N -t 3 -P 1 -i 1$cc3"
	else
		want="run: iperf -c $B -l 128k -w 1M -N -t 3 -P 1 -i 1$cc2 -e -y C"
	fi
	grep -qF "\"message\":\"$want\"" $T/o && ok "$tool argv" || { fail "$tool argv"; head -1 $T/o >&2; }
	echo "measured: $tool $(jv $T/o 'round(r["bps"] / 1e6, 1)') Mbit/s over $(jv $T/o 'r["seconds"]') s"
	# iperf2 sometimes waits ~1 s at close on this loaded 2-core machine
	# (its own total then counts 4 s): judge the 3 s that were asked for.
	# Below the shaped 1 Gbit/s and in its order (a units slip is 8x or
	# 1000x): a busy 2-core machine has measured 842-870 Mbit/s seconds.
	check "$tool 0.6-1 Gbit/s under tbf 1gbit" $T/o \
	    'all(6e8 < i["bps"] < 1.0e9 for i in r["intervals"] if i["end"] <= 3.0) and 6e8 < 8 * r["bytes"] / min(r["seconds"], 3.0) < 1.0e9'
	check "$tool series, windows, counters, cpu" $T/o \
	    'len(r["intervals"]) >= 3 and r["window_requested"] == 1048576 and r["window_granted"] > 0 and r["ifstats"]["after"]["tx_bytes"] - r["ifstats"]["before"]["tx_bytes"] >= 0.99 * r["bytes"] and r["cpu"]["idle"] >= 0 and r["procs"][0]["name"] == "iperf3"'
	check "$tool exact figures: bps = bytes*8/seconds" $T/o \
	    'r["exact"] is True and r["bytes"] == int(r["bytes"]) and abs(r["bps"] - 8 * r["bytes"] / r["seconds"]) <= 1e-6 * r["bps"]'
	GOT=$((GOT + $(jv $T/o 'int(r["bytes"])')))
done
ag b $T/o serve stop --if em0
check "serve stop stops both servers" $T/o 'len(r["stopped"]) == 2'
# What both tools counted crossed the receiver's interface (headers only
# add to it): the controller's plausibility check relies on this.
check "serve stop --if: rx bytes account for both runs' bytes" $T/o \
    "r['ifstats']['counters']['rx_bytes'] - $RX0 >= $GOT"
ag a $T/o iperf --tool iperf3 --server $B --time 1
expect_rc 3 "iperf3 without a server fails as a command" $T/o
ag a $T/o iperf --tool iperf2 --server $B --time 1
expect_rc 3 "iperf2 without a server fails as a command (it exits 0)" $T/o
# A run cut short (its server stopped after 1.5 s of 6) is a failed command, never a short sample.
for tool in iperf2 iperf3; do
	ag b $T/o serve --tool $tool --bind $B
	( sleep 1.5; ag b $T/stop.o serve stop ) &
	ag a $T/o iperf --tool $tool --server $B --time 6
	wait
	expect_rc 3 "$tool cut short by its server is a failed command" $T/o
done

# ---- scp through a temporary sshd with an ephemeral key -------------------------
mkdir -p /run/sshd
ssh-keygen -q -t ed25519 -N '' -f $T/hostkey || exit 1
cat >$T/sshd_config <<CONF
ListenAddress $B
Port 22
HostKey $T/hostkey
PidFile $T/sshd.pid
AuthorizedKeysFile $T/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
Subsystem sftp internal-sftp
CONF
ip netns exec $NB "$SSHD" -D -e -f $T/sshd_config 2>$T/sshd.log &
SSHD_PID=$!
i=0; while ! grep -q 'Server listening' $T/sshd.log 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done
ag a $T/o keygen --tag t$$
expect_rc 0 "keygen" $T/o
jget KEY $T/o 'r["key"]'; jget PUB $T/o 'r["pubkey"]'
ag b $T/o authorize --tag t$$ --pubkey "$PUB"
expect_rc 0 "authorize" $T/o
ag b $T/o authorize --tag t$$ --pubkey "$PUB"
check "authorize is idempotent" $T/o 'r["added"] is False'
HOSTKEY=$(cut -d' ' -f1,2 $T/hostkey.pub)
ag a $T/o scp --to root@$B --size 1474560 --key "$KEY" --hostkey "$HOSTKEY"
expect_rc 0 "scp of the bce report's 1.44 MB" $T/o
echo "measured: scp $(jv $T/o 'round(r["bps"] / 1e6, 1)') Mbit/s in $(jv $T/o 'r["seconds"]') s"
check "scp result" $T/o 'r["bytes"] == 1474560 and r["remote_bytes"] == 1474560 and r["seconds"] > 0 and r["bps"] > 0 and r["remote_removed"] is True'
ls $SA/tmp | grep -q scp- && fail "local scp file left behind"
[ -e "$(jv $T/o 'r["remote_path"]')" ] && fail "remote scp file left behind"
ag a $T/o scp --to root@$B --size 1k --key "$KEY" --hostkey "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB4mVb8Hq0fakefakefakefakefakefakefakefakefa"
expect_rc 3 "scp refuses a wrong host key" $T/o
ag b $T/o deauthorize --tag t$$
check "deauthorize removes the line" $T/o 'r["removed"] == 1'
ag a $T/o scp --to root@$B --size 1k --key "$KEY" --hostkey "$HOSTKEY"
expect_rc 3 "scp fails once deauthorized" $T/o
ag a $T/o deauthorize --tag t$$
[ -e "$KEY" ] && fail "key pair left behind"

if [ $FAILS -ne 0 ]; then
	echo "agent_linux: $FAILS failure(s)" >&2
	exit 1
fi
echo "agent_linux: all passed"
