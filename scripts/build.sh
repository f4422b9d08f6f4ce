#!/bin/sh
# Configure and build one variant of labrat.
#   scripts/build.sh [normal|asan]
# Builds into build/ (normal) or build-asan/ (ASan + UBSan).  Warnings are
# errors when CI is set, as in CI.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
variant=${1:-normal}
werror=OFF
[ -n "${CI:-}" ] && werror=ON
case "$variant" in
normal) dir="$top/build"; extra="" ;;
asan)   dir="$top/build-asan"; extra="-DLABRAT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug" ;;
*) echo "build.sh: unknown variant '$variant' (normal|asan)" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086
cmake -S "$top" -B "$dir" -DLABRAT_WERROR=$werror $extra >/dev/null
cmake --build "$dir" -j "$(nproc)"
