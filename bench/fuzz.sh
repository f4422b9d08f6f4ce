#!/bin/sh
# bench/fuzz.sh: runs the libFuzzer targets of tests/fuzz (the fuzz build,
# scripts/build.sh fuzz, built here if missing) one after another, each
# from its seed corpus, and prints a line per target: executions,
# executions per second, coverage (libFuzzer's final cov: edges and ft:
# features), corpus units added, peak RSS, crashes, wall time.  A crash,
# leak, UB report or timeout stops that target; its input is kept in
# build-fuzz/bench-fuzz/NAME/artifacts (add it to tests/fuzz/corpus/NAME/
# with the fix).  Exit 1 if any target crashed.  Not run by ctest.
#
# usage: sh bench/fuzz.sh [-n RUNS | -t SECONDS] [NAME...]
#   -n RUNS     executions per target (default 10000000)
#   -t SECONDS  a time budget per target instead
#   NAME        config_plan, parse_iperf2, ... (default: every target)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${LABRAT_FUZZ_BUILD:-$top/build-fuzz}
runs=10000000
secs=0
while getopts n:t: o; do
	case $o in
	n) runs=$OPTARG; secs=0 ;;
	t) secs=$OPTARG; runs=0 ;;
	*) sed -n 's/^# usage: /usage: /p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -d "$dir/tests/fuzz" ] || "$top/scripts/build.sh" fuzz >/dev/null
if [ $# -eq 0 ]; then
	set --
	for s in "$dir"/tests/fuzz/fuzz_*.seeds; do
		n=$(basename "$s" .seeds)
		set -- "$@" "${n#fuzz_}"
	done
fi
flags=
[ "$runs" -gt 0 ] && flags="-runs=$runs"
echo "fuzz: $([ "$runs" -gt 0 ] && echo "$runs executions" || echo "$secs s") per target, $(nproc) cores"
printf '%-20s %11s %9s %6s %7s %6s %6s %7s %7s\n' target execs execs/s cov ft added rss_mb crashes seconds
status=0
for name in "$@"; do
	bin=$dir/tests/fuzz/fuzz_$name
	work=$dir/bench-fuzz/$name
	[ -x "$bin" ] || { echo "fuzz: no target $bin" >&2; status=1; continue; }
	t0=$(date +%s)
	# shellcheck disable=SC2046,SC2086
	sh "$top/tests/fuzz/run.sh" "$bin" "$dir/tests/fuzz/fuzz_$name.seeds" \
	    "$work" "$secs" -rss_limit_mb=2048 $flags \
	    $(cat "$dir/tests/fuzz/fuzz_$name.flags") \
	    >/dev/null 2>&1 || true
	t1=$(date +%s)
	log=$work/log
	figure() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
	execs=$(figure number_of_executed_units)
	eps=$(figure average_exec_per_sec)
	added=$(figure new_units_added)
	rss=$(figure peak_rss_mb)
	# The last status line ("#N DONE cov: X ft: Y ...", or the last
	# before a crash).
	last=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	crashes=$(find "$work/artifacts" -type f \( -name 'crash-*' -o \
	    -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
	[ "$crashes" -eq 0 ] || status=1
	printf '%-20s %11s %9s %6s %7s %6s %6s %7s %7s\n' "$name" \
	    "${execs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" "${added:-?}" \
	    "${rss:-?}" "$crashes" $((t1 - t0))
	if [ "$crashes" -ne 0 ]; then
		grep -E 'ERROR:|SUMMARY:|fuzz check failed' "$log" | head -n 3 | sed 's/^/    /'
		ls "$work/artifacts" | sed "s|^|    $work/artifacts/|"
	fi
done
exit $status
