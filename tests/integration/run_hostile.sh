#!/bin/sh
# The fault table's hostile rows on one simulated lab (em-a, em-b only):
# - em-a's /proc/version carries escape sequences, and its agent binary is
#   deleted mid-run: the next call redeploys it once and the run completes
#   (every job done once, one sample each, hosts restored, db check clean);
#   the kernel version lands neutralised in the store, never raw;
# - a "host" whose port accepts and never sends a banner, and one that
#   sends garbage: `labrat hosts` fails within the connect timeout naming
#   both;
# - a hostile agent (em-a's deployed binary replaced after deploy by a
#   script that answers --version like the real one): a 100 MB line,
#   invalid JSON with raw escapes, 100,000 levels of nesting, escapes in
#   every string field: each is a clean failure naming em-a, the
#   controller's peak RSS stays <= 64 MB, and no raw ESC reaches stdout or
#   stderr; `labrat hosts --format json` stays valid JSON.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=hstl$$
. "$(dirname "$0")/lib/run.sh"

LISTENER_PID=
cleanup_all() {
	[ -n "$LISTENER_PID" ] && kill "$LISTENER_PID" 2>/dev/null
	run_cleanup
}
trap cleanup_all EXIT

lab_up --boot-seconds 0.3
DB=$TMP/db.sqlite
T_START=$(now_ms)
# Only the em pair: half the agent builds.
jq '.hosts |= map(select(.name == "em-a" or .name == "em-b")) |
    .links |= map(select(.name == "em"))' "$INV" > "$TMP/inv.json" ||
    fail "jq inventory"
INV2=$TMP/inv.json
AGENTS=$STATE/hosts/em-a/var-lib-labrat/agent

# no_esc FILE...: no raw ESC (nor BEL) byte in what reached the terminal.
no_esc() {
	for _f in "$@"; do
		if grep -q "$(printf '[\033\007]')" "$_f"; then
			fail "raw escape in $_f: $(od -c "$_f" | grep -m3 '033\|\\a')"
		fi
	done
}

# rss_run NAME CMD...: runs CMD (stdout NAME.out, stderr NAME.err); RC gets
# its exit status, RSS_KB its peak resident set (ru_maxrss, = VmHWM).
rss_run() {
	_n=$1
	shift
	set -- $(python3 -c '
import resource, subprocess, sys
with open(sys.argv[1] + ".out", "wb") as o, open(sys.argv[1] + ".err", "wb") as e:
    rc = subprocess.call(sys.argv[2:], stdout=o, stderr=e)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
' "$TMP/$_n" "$@")
	RC=$1
	RSS_KB=$2
}

# --- the listeners: one accepts and stays silent, one sends garbage ---------
P_SILENT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
P_JUNK=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -c '
import socket, sys, threading, time
def serve(port, junk):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(8)
    while True:
        c, _ = s.accept()
        if junk:
            c.sendall(b"HTTP/1.0 400 \x1b[2J\x1b]0;PWNED\x07 garbage\r\n" * 64)
        threading.Thread(target=lambda c=c: (time.sleep(60), c.close()),
                         daemon=True).start()
for p, j in ((int(sys.argv[1]), False), (int(sys.argv[2]), True)):
    threading.Thread(target=serve, args=(p, j), daemon=True).start()
time.sleep(300)
' "$P_SILENT" "$P_JUNK" &
LISTENER_PID=$!
for _p in "$P_SILENT" "$P_JUNK"; do
	_i=0
	until ss -Hltn "sport = :$_p" | grep -q .; do
		_i=$((_i + 1))
		[ $_i -gt 200 ] && fail "the listener on port $_p did not start"
		sleep 0.05
	done
done
jq --argjson ps "$P_SILENT" --argjson pj "$P_JUNK" '
    .hosts |= (map(select(.name == "em-a" or .name == "em-b")) |
      map(if .name == "em-a" then .name = "silent-a" | .address = "127.0.0.1" | .ssh.port = $ps
          else .name = "junk-b" | .address = "127.0.0.1" | .ssh.port = $pj end)) |
    .links = [ .links[] | select(.name == "em") |
      .client.host = "silent-a" | .server.host = "junk-b" ]' "$INV" > "$TMP/inv-bad.json" ||
    fail "jq bad inventory"

# --- 1. em-a hostile /proc/version, its agent deleted mid-run ---------------
printf 'Linux version 6.1.0-labrat (simlab@labrat) \033[2J\033]0;PWNED\007 #1 SMP PREEMPT_DYNAMIC r200399 Mon Nov 30 00:00:00 UTC 2026\n' \
    > "$STATE/hosts/em-a/proc-version" || fail "proc-version"
cat > "$TMP/plan.json" <<'EOF'
{
  "links": ["em"],
  "knobs": { "tso": [false, true], "mtu": [9000] },
  "workloads": [ { "tool": "iperf3", "time": 2 } ],
  "repetitions": 1,
  "timeouts": { "connect": 3, "job": 60 },
  "retries": 1,
  "stats": { "adaptive": false }
}
EOF
start_run "$TMP/del" --db "$DB" --inventory "$INV2" --plan "$TMP/plan.json"
RUN=$(run_id "$TMP/del") || fail "del: the run did not start: $(cat "$TMP/del.err")"
# The banner checks wait for their timeout meanwhile (no CPU).
(
	_t0=$(now_ms)
	"$LABRAT" hosts --inventory "$TMP/inv-bad.json" >"$TMP/bad.out" 2>"$TMP/bad.err"
	echo "$? $(( $(now_ms) - _t0 ))" > "$TMP/bad.rc"
) &
BAD_PID=$!
wait_proc em-a iperf3 120 >/dev/null || fail "del: no iperf3 on em-a: $(cat "$TMP/del.err")"
ls "$AGENTS"/*/labrat-agent >/dev/null 2>&1 || fail "del: no deployed agent in $AGENTS"
rm -f "$AGENTS"/*/labrat-agent
T_DEL=$(now_ms)
wait_run
[ "$RC" -eq 0 ] || fail "del: exit $RC: $(cat "$TMP/del.err")"
grep -q "em-a: labrat-agent .*exited 127.*redeploying the agent" "$TMP/del.err" ||
    fail "del: no redeploy line: $(cat "$TMP/del.err")"
[ "$(grep -c "redeploying the agent" "$TMP/del.err")" -eq 1 ] ||
    fail "del: more than one redeploy: $(grep "redeploying" "$TMP/del.err")"
ls "$AGENTS"/*/labrat-agent >/dev/null 2>&1 || fail "del: the agent is not back"
[ "$(sq "$DB" "SELECT state FROM runs WHERE id = $RUN")" = done ] ||
    fail "del: run $(sq "$DB" "SELECT state, reason FROM runs WHERE id = $RUN")"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN AND state = 'done'")" = 2 ] ||
    fail "del: jobs $(sq "$DB" "SELECT state, reason FROM jobs WHERE run_id = $RUN")"
[ "$(sq "$DB" "SELECT count(*) FROM jobs WHERE state = 'running'")" = 0 ] ||
    fail "del: a job is left running"
check_samples "$DB" "$RUN"
check_links_restored
"$LABRAT" db check --db "$DB" >/dev/null 2>"$TMP/dbcheck.err" ||
    fail "del: db check: $(cat "$TMP/dbcheck.err")"
# Neutralised in the typed columns; the raw JSON keeps it (escaped JSON).
[ "$(sq "$DB" "SELECT count(*) FROM host_facts WHERE kernel_version LIKE '%' || char(27) || '%'")" = 0 ] ||
    fail "del: a raw ESC in host_facts.kernel_version"
[ "$(sq "$DB" "SELECT count(*) FROM host_facts WHERE kernel_version LIKE '%\\x1b[2J%'")" -ge 1 ] ||
    fail "del: kernel_version not neutralised: $(sq "$DB" "SELECT kernel_version FROM host_facts LIMIT 1")"
"$LABRAT" report "$RUN" --no-baseline --db "$DB" >"$TMP/report.out" 2>"$TMP/report.err" ||
    fail "report: $(cat "$TMP/report.err")"
no_esc "$TMP/del.out" "$TMP/del.err" "$TMP/report.out" "$TMP/report.err"
note "agent deleted mid-run: redeployed once, 2/2 jobs done $(( $(now_ms) - T_DEL )) ms after the rm, hosts restored, db check clean"

# --- 2. a silent port and a garbage one (labrat hosts, 10 s connect) --------
wait "$BAD_PID"
read -r RC took < "$TMP/bad.rc" || fail "banner: no exit status"
[ "$RC" -eq 1 ] || fail "banner: exit $RC: $(cat "$TMP/bad.err" "$TMP/bad.out")"
[ "$took" -lt 16000 ] || fail "banner: took $took ms (connect timeout 10 s)"
grep -q "^silent-a .*ERROR: silent-a: " "$TMP/bad.out" ||
    fail "banner: silent-a not named: $(cat "$TMP/bad.out")"
grep -q "^junk-b .*ERROR: junk-b: " "$TMP/bad.out" ||
    fail "banner: junk-b not named: $(cat "$TMP/bad.out")"
no_esc "$TMP/bad.out" "$TMP/bad.err"
note "banner: both failed in $took ms: $(grep -o 'ERROR: silent-a: .*' "$TMP/bad.out" | cut -c1-80) / $(grep -o 'ERROR: junk-b: .*' "$TMP/bad.out" | cut -c1-80)"

# --- 3. a hostile agent on em-a ---------------------------------------------
printf '%s\n' 'Linux version 6.1.0-labrat (simlab@labrat) #1 SMP PREEMPT_DYNAMIC r200399 Mon Nov 30 00:00:00 UTC 2026' \
    > "$STATE/hosts/em-a/proc-version"
REAL=$(ls "$AGENTS"/*/labrat-agent)
mv "$REAL" "$REAL.real" || fail "mv agent"
cat > "$REAL" <<'EOF'
#!/bin/sh
# A hostile labrat-agent: --version as the real one (no redeploy), the
# rest per the mode file next to it.
d=$(dirname "$0")
[ "$1" = --version ] && exec "$d/labrat-agent.real" "$@"
E=$(printf '\\u001b[2J\\u0007')
case $(cat "$d/mode" 2>/dev/null) in
bigline)
	head -c 100000000 /dev/zero | tr '\0' x
	echo ;;
invalid)
	printf '{"proto":1,"event":"result","cmd":"facts",\n'
	printf '\033[2J\033]0;PWNED\007 not JSON\n'
	printf 'evil stderr \033[31m\033]0;PWNED\007\n' >&2
	exit 3 ;;
deep)
	awk 'BEGIN { printf "{\"proto\":1,\"event\":\"progress\",\"x\":";
	    for (i = 0; i < 100000; i++) printf "[";
	    for (i = 0; i < 100000; i++) printf "]"; print "}" }' ;;
strings)
	printf '{"proto":1,"event":"progress","message":"%s"}\n' "$E"
	printf '{"proto":1,"event":"result","cmd":"facts","os":"linux%s","hostname":"em-a%s","kernel":{"release":"6.1%s","version":"v%s","revision":"r200399%s","osreldate":null},"nics":[{"name":"em0%s","driver":"veth%s","pci_vendor":"0x1%s","pci_device":null,"chip":"0x1%s","speed_mbps":null,"duplex":"full%s","mtu":1500,"tso":true,"lro":false,"rxcsum":true,"txcsum":true}],"tools":{"iperf2":"2%s","iperf3":"3%s","scp":"OpenSSH%s"}}\n' \
	    "$E" "$E" "$E" "$E" "$E" "$E" "$E" "$E" "$E" "$E" "$E" "$E" "$E" ;;
errors)
	printf '{"proto":1,"event":"error","class":"command%s","message":"ifconfig: %s"}\n' "$E" "$E"
	exit 3 ;;
*)
	exec "$d/labrat-agent.real" "$@" ;;
esac
EOF
chmod 755 "$REAL"
MAXRSS=0
for mode in bigline invalid deep strings errors; do
	echo "$mode" > "$(dirname "$REAL")/mode"
	t0=$(now_ms)
	rss_run "$mode" "$LABRAT" hosts --inventory "$INV2"
	took=$(( $(now_ms) - t0 ))
	[ "$RC" -eq 1 ] || fail "$mode: exit $RC: $(cat "$TMP/$mode.out" "$TMP/$mode.err")"
	grep -q "^em-a .*ERROR: em-a: labrat-agent facts: " "$TMP/$mode.out" ||
	    fail "$mode: no error naming em-a: $(cat "$TMP/$mode.out" "$TMP/$mode.err")"
	[ "$RSS_KB" -le 65536 ] || fail "$mode: peak RSS $RSS_KB kB > 64 MB"
	[ "$RSS_KB" -gt "$MAXRSS" ] && MAXRSS=$RSS_KB
	no_esc "$TMP/$mode.out" "$TMP/$mode.err"
	note "$mode: exit 1 in $took ms, peak RSS $RSS_KB kB: $(grep -o 'ERROR: .*' "$TMP/$mode.out" | cut -c1-110)"
done
grep -q "output larger than" "$TMP/bigline.out" || fail "bigline: $(cat "$TMP/bigline.out")"
grep -q "nesting too deep\|nested deeper" "$TMP/deep.out" || fail "deep: $(cat "$TMP/deep.out")"
grep -q 'is not freebsd or linux' "$TMP/strings.out" || fail "strings: $(cat "$TMP/strings.out")"
grep -q 'x1b\[31m' "$TMP/invalid.out" || fail "invalid: stderr not quoted: $(cat "$TMP/invalid.out")"
# JSON output stays valid with hostile text in it.
echo errors > "$(dirname "$REAL")/mode"
"$LABRAT" hosts --format json --inventory "$INV2" >"$TMP/json.out" 2>"$TMP/json.err"
jq -e . "$TMP/json.out" >/dev/null || fail "hosts --format json: not JSON: $(cat "$TMP/json.out")"
no_esc "$TMP/json.out" "$TMP/json.err"
# A run against the hostile agent fails cleanly before touching a host.
echo strings > "$(dirname "$REAL")/mode"
rss_run hrun "$LABRAT" run --db "$DB" --inventory "$INV2" --plan "$TMP/plan.json"
[ "$RC" -ne 0 ] || fail "hostile run: exit 0"
grep -q "em-a" "$TMP/hrun.err" || fail "hostile run: em-a not named: $(cat "$TMP/hrun.err")"
[ "$RSS_KB" -le 65536 ] || fail "hostile run: peak RSS $RSS_KB kB > 64 MB"
no_esc "$TMP/hrun.out" "$TMP/hrun.err"
note "hostile run: exit $RC, peak RSS $RSS_KB kB: $(grep -m1 em-a "$TMP/hrun.err" | cut -c1-120)"
mv -f "$REAL.real" "$REAL"
rm -f "$(dirname "$REAL")/mode"
check_links_restored
"$LABRAT" db check --db "$DB" >/dev/null 2>"$TMP/dbcheck.err" ||
    fail "db check: $(cat "$TMP/dbcheck.err")"
note "hostile agent: max peak RSS $MAXRSS kB; whole test $(( $(now_ms) - T_START )) ms after lab up"
echo "PASS run_hostile"
