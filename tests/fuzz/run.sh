#!/bin/sh
# tests/fuzz/run.sh BIN SEEDLIST WORKDIR SECONDS [libFuzzer flags...]
# Fuzzes one libFuzzer target (the fuzz_run_NAME tests, bench/fuzz.sh):
# copies the seeds listed in SEEDLIST (one path a line) into a fresh
# WORKDIR/corpus, runs BIN on it for SECONDS (0: no time limit, give
# -runs=N) and prints libFuzzer's final figures.  A crash, leak, UB report
# or timeout fails with libFuzzer's report and the input that caused it
# (WORKDIR/artifacts/): add that file to tests/fuzz/corpus/NAME/ with the
# fix, so every later build replays it.
set -eu
[ $# -ge 4 ] || { echo "usage: run.sh BIN SEEDLIST WORKDIR SECONDS [flags]" >&2; exit 2; }
bin=$1 list=$2 work=$3 secs=$4
shift 4
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
i=0
while IFS= read -r f; do
	[ -n "$f" ] || continue
	i=$((i + 1))
	cp "$f" "$work/corpus/seed$i-$(basename "$f")"
done < "$list"
limit=
[ "$secs" -gt 0 ] && limit="-max_total_time=$secs"
rc=0
# -timeout: one input may take 10 s; -rss_limit_mb: the controller's
# ceiling for hostile input is 64 MB of RSS, leave room for ASan's shadow.
# shellcheck disable=SC2086
"$bin" $limit -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" \
    > "$work/log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ]; then
	tail -n 80 "$work/log"
	echo "run.sh: $(basename "$bin") failed (exit $rc) after $i seeds;" \
	    "inputs in $work/artifacts:" >&2
	ls -l "$work/artifacts" >&2
	exit 1
fi
grep -E '^#[0-9]+[[:space:]]+DONE|^stat::|^Done' "$work/log" || tail -n 5 "$work/log"
exit 0
