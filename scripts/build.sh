#!/bin/sh
# Configure and build one variant of labrat.
#   scripts/build.sh [normal|asan|fuzz]
# Builds into build/ (normal), build-asan/ (ASan + UBSan) or build-fuzz/
# (clang, ASan + UBSan + libFuzzer: only the targets of tests/fuzz).
# Warnings are errors when CI is set, as in CI.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
variant=${1:-normal}
werror=OFF
[ -n "${CI:-}" ] && werror=ON
case "$variant" in
normal) dir="$top/build"; extra="" ;;
asan)   dir="$top/build-asan"; extra="-DLABRAT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug" ;;
fuzz)   dir="$top/build-fuzz"; target="--target fuzz"
	extra="-DLABRAT_FUZZ=ON -DCMAKE_C_COMPILER=${LABRAT_FUZZ_CC:-clang}"
	# The same -O2 code, but only line tables for debug information
	# (what a sanitizer's or libFuzzer's stack trace prints: function,
	# file, line): clang with full -g took twice as long to compile it.
	flags="-O2 -gline-tables-only -DNDEBUG" ;;
*) echo "build.sh: unknown variant '$variant' (normal|asan|fuzz)" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
cmake -S "$top" -B "$dir" -DLABRAT_WERROR=$werror $extra \
    ${flags:+"-DCMAKE_C_FLAGS_RELWITHDEBINFO=$flags"} >/dev/null
# shellcheck disable=SC2086
cmake --build "$dir" -j "$(nproc)" ${target:-}
