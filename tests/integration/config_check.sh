#!/bin/sh
# labrat config check, the real binary: the example configs pass with a
# one-line summary each and exit 0; every bad fixture exits 2 and prints
# exactly its expected messages (each with file and JSON path); several bad
# files at once print all their errors together.
# ctest: parallel
set -eu
: "${LABRAT:?}" "${LABRAT_SOURCE_DIR:?}" "${LABRAT_FIXTURES:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "config_check: FAIL: $*" >&2; fail=1; }

# The example inventory names key files in /root/.ssh, which config check
# opens: check a copy whose files are relative (resolved against the
# inventory's directory, not the current one) and exist.
mkdir "$tmp/lab"
sed -e 's|/root/.ssh/labrat_ed25519|labrat_ed25519|' \
    -e 's|/root/.ssh/labrat_known_hosts|labrat_known_hosts|' \
    "$LABRAT_SOURCE_DIR/configs/lab-freebsd.json" >"$tmp/lab/lab.json"
: >"$tmp/lab/labrat_ed25519"; : >"$tmp/lab/labrat_known_hosts"
"$LABRAT" config check "$tmp/lab/lab.json" >"$tmp/out" 2>"$tmp/err" ||
	{ bad "example inventory with its files"; cat "$tmp/err" >&2; }
grep -q "^$tmp/lab/lab.json: inventory ok: " "$tmp/out" ||
	bad "example inventory summary: $(cat "$tmp/out")"
rm "$tmp/lab/labrat_ed25519"
rc=0
"$LABRAT" config check "$tmp/lab/lab.json" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "missing key file: exit $rc"
[ -s "$tmp/out" ] && bad "missing key file: printed a summary"
printf '%s\n' "$tmp/lab/lab.json: hosts[0].ssh.key: $tmp/lab/labrat_ed25519: No such file or directory" >"$tmp/want"
cmp -s "$tmp/err" "$tmp/want" ||
	bad "missing key file message: $(cat "$tmp/err")"
if [ "$(id -u)" -ne 0 ]; then
	: >"$tmp/lab/labrat_ed25519"; chmod 0 "$tmp/lab/labrat_known_hosts"
	"$LABRAT" config check "$tmp/lab/lab.json" 2>"$tmp/err" >/dev/null || true
	grep -qx "$tmp/lab/lab.json: hosts\[0\].ssh.known_hosts: $tmp/lab/labrat_known_hosts: Permission denied" \
	    "$tmp/err" || bad "unreadable known_hosts: $(cat "$tmp/err")"
fi

cd "$LABRAT_SOURCE_DIR/configs"
for f in plan-reports.json plan-demo.json; do
	if ! "$LABRAT" config check "$f" >"$tmp/out" 2>"$tmp/err"; then
		bad "$f exited non-zero"; cat "$tmp/err" >&2
	fi
	[ "$(wc -l <"$tmp/out")" -eq 1 ] || bad "$f: not one summary line"
	grep -q "^$f: \(inventory\|plan\) ok: " "$tmp/out" || bad "$f: summary"
	[ -s "$tmp/err" ] && bad "$f: printed errors"
done
# A bisect test and a lab history are told from their content too.
for f in bisect/em.json bisect/bce.json simlab/history.json; do
	if ! "$LABRAT" config check "$f" >"$tmp/out" 2>"$tmp/err"; then
		bad "$f exited non-zero"; cat "$tmp/err" >&2
	fi
	[ -s "$tmp/err" ] && bad "$f: printed errors"
done
"$LABRAT" config check bisect/em.json simlab/history.json >"$tmp/out"
grep -qx "bisect/em.json: bisect test ok: tso A/B, metric throughput_bps, threshold 0.91" \
    "$tmp/out" || bad "bisect test summary: $(cat "$tmp/out")"
grep -qx "simlab/history.json: lab history ok: 400 revisions, r200000 .. r200399" \
    "$tmp/out" || bad "history summary: $(cat "$tmp/out")"
# A daemon config is told by its "inventories"; a broken one gets every
# error with its JSON path, exit 2.
"$LABRAT" config check daemon-simlab.json daemon-lab.json >"$tmp/out" 2>"$tmp/err" ||
	bad "daemon configs: $(cat "$tmp/err")"
grep -qx "daemon-simlab.json: daemon config ok: 1 inventory, 1 revision source, 1 webhook, mail by smtp, max_jobs 1, max_bisects 1" \
    "$tmp/out" || bad "daemon config summary: $(cat "$tmp/out")"
grep -qx "daemon-lab.json: daemon config ok: 1 inventory, 2 revision sources, 1 webhook, mail by sendmail, max_jobs 2, max_bisects 1" \
    "$tmp/out" || bad "daemon config summary: $(cat "$tmp/out")"
jq '.notify.webhooks[0].url = "ftp://x" | .limits.max_jobs = 0' daemon-lab.json >"$tmp/d.json"
rc=0
"$LABRAT" config check "$tmp/d.json" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] || bad "a broken daemon config: exit $rc, want 2"
grep -qx "$tmp/d.json: notify.webhooks\[0\].url: \"ftp://x\" is not an http:// or https:// URL" \
    "$tmp/err" || bad "daemon config url error: $(cat "$tmp/err")"
grep -qx "$tmp/d.json: limits.max_jobs: 0 is out of range 1-64" \
    "$tmp/err" || bad "daemon config limits error: $(cat "$tmp/err")"
# A bisect test's direction: a lower-is-better metric judges with "<=" and
# a default threshold of 1.1; a metric labrat does not know must declare.
jq '.metric = "cpu_sender" | del(.threshold)' bisect/em.json >"$tmp/cpu.json"
"$LABRAT" config check "$tmp/cpu.json" >"$tmp/out" 2>"$tmp/err" ||
	bad "cpu_sender bisect test: $(cat "$tmp/err")"
grep -qx "$tmp/cpu.json: bisect test ok: tso A/B, metric cpu_sender (lower is better), threshold 1.1" \
    "$tmp/out" || bad "cpu_sender summary: $(cat "$tmp/out")"
jq '.metric = "latency_us"' bisect/em.json >"$tmp/lat.json"
rc=0
"$LABRAT" config check "$tmp/lat.json" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ $rc -eq 2 ] || bad "an unknown metric without a direction: exit $rc, want 2"
grep -qx "$tmp/lat.json: metric: \"latency_us\" has no known direction (not a metric labrat stores): set \"lower_is_better\"" \
    "$tmp/err" || bad "unknown metric message: $(cat "$tmp/err")"
jq '.metric = "latency_us" | .lower_is_better = true' bisect/em.json >"$tmp/lat.json"
"$LABRAT" config check "$tmp/lat.json" >"$tmp/out" 2>"$tmp/err" ||
	bad "a declared metric: $(cat "$tmp/err")"
: >"$tmp/lab/labrat_ed25519"; chmod 600 "$tmp/lab/labrat_known_hosts"
"$LABRAT" config check --inventory "$tmp/lab/lab.json" \
    --plan plan-reports.json --plan plan-demo.json >"$tmp/out" 2>"$tmp/err" ||
	bad "cross-check of the examples failed"
grep -q "^plan-reports.json: plan ok: 3 links, 2 workloads, 5 repetitions, 60 jobs, checked against $tmp/lab/lab.json$" \
    "$tmp/out" || bad "plan-reports summary: $(cat "$tmp/out")"

cd "$LABRAT_FIXTURES/config/bad"
n=0
for f in *.json; do
	n=$((n + 1))
	rc=0
	"$LABRAT" config check "$f" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || bad "$f: exit $rc, want 2"
	[ -s "$tmp/out" ] && bad "$f: printed a summary"
	cmp -s "$tmp/err" "${f%.json}.expected" ||
		{ bad "$f: messages differ"; diff "${f%.json}.expected" "$tmp/err" >&2 || true; }
done
[ "$n" -ge 15 ] || bad "only $n bad fixtures"
# A broken bisect test gets bisect-test errors, not plan ones.
grep -q '^bisect-ranges.json: workload.time: ' bisect-ranges.expected ||
	bad "bisect-ranges.expected: no bisect-test error"
grep -q 'workloads\|links' bisect-ranges.expected &&
	bad "bisect-ranges.expected: plan errors"

# All at once, with a good file among them: every error, in file order.
rc=0
"$LABRAT" config check inv-patterns.json "$LABRAT_SOURCE_DIR/configs/plan-demo.json" \
    plan-ranges.json >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "several files: exit $rc"
cat inv-patterns.expected plan-ranges.expected >"$tmp/want"
cmp -s "$tmp/err" "$tmp/want" || bad "several files: not every error"
grep -q 'plan-demo.json: plan ok' "$tmp/out" || bad "several files: good file"
grep -qx 'inv-patterns.json: hosts\[2\].nics\[0\].name: "em0; rm -rf /" is not an interface name' \
    "$tmp/err" || bad "the issue's example message"

# A run's start checks the same, every error at once: the inventory's
# missing key files and the plan's errors (the plan was skipped before).
mkdir "$tmp/run"
cp "$LABRAT_FIXTURES/config/cross/lab.json" "$tmp/run/lab.json"
rc=0
"$LABRAT" run --inventory "$tmp/run/lab.json" --plan plan-ranges.json \
    --db "$tmp/run/db.sqlite" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "run with config errors: exit $rc"
{ printf '%s\n' "$tmp/run/lab.json: hosts[0].ssh.key: $tmp/run/k: No such file or directory" \
    "$tmp/run/lab.json: hosts[0].ssh.known_hosts: $tmp/run/kh: No such file or directory"
  cat plan-ranges.expected; } >"$tmp/want"
cmp -s "$tmp/err" "$tmp/want" ||
	{ bad "run: not every error"; diff "$tmp/want" "$tmp/err" >&2 || true; }

# So does a bisect's start: the test is checked even when the inventory
# has errors.
rc=0
"$LABRAT" bisect start --inventory inv-ranges.json --link em --good r1 \
    --bad r2 --test bisect-ranges.json --db "$tmp/run/bisect.sqlite" \
    >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "bisect start with config errors: exit $rc"
cat inv-ranges.expected bisect-ranges.expected >"$tmp/want"
cmp -s "$tmp/err" "$tmp/want" ||
	{ bad "bisect start: not every error"; diff "$tmp/want" "$tmp/err" >&2 || true; }

cd "$LABRAT_FIXTURES/config/cross"
for f in plan-nat.json plan-unknown-link.json; do
	"$LABRAT" config check "$f" >/dev/null 2>&1 || bad "$f alone must pass"
	rc=0
	"$LABRAT" config check --inventory lab.json --plan "$f" >/dev/null \
	    2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || bad "$f against lab.json: exit $rc"
	cmp -s "$tmp/err" "${f%.json}.expected" || bad "$f: cross messages"
done

rc=0; "$LABRAT" config >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || bad "usage: exit $rc"
rc=0; "$LABRAT" config check --bogus x >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || bad "unknown option: exit $rc"
rc=0; "$LABRAT" config check "$tmp/missing.json" >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || bad "missing file: exit $rc"
grep -q "^$tmp/missing.json: No such file or directory$" "$tmp/err" ||
	bad "missing file message: $(cat "$tmp/err")"

[ "$fail" -eq 0 ] && echo "config_check: ok ($n bad fixtures)"
exit "$fail"
