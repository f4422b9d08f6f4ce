#!/bin/sh
# `cmake --install` from the build tree into a DESTDIR: every file the
# install promises is there (the binary, share/labrat's simlab, configs,
# schemas and agent sources, the man page, the systemd unit, the sysusers.d
# file, the sendmail drop-in); the installed labrat runs; it finds its
# simulated lab in its own share/labrat (shown by a moved copy whose labctl
# is a stub, so the source tree cannot be what answered) and says clearly
# when there is none; and the installed labrat(1) is the page the binary
# writes and shows every usage line of `labrat help`, rendered.
# ctest: parallel
set -eu
: "${LABRAT:?}"
top=${LABRAT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${LABRAT_BUILD_DIR:-$(dirname "$LABRAT")}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lr-install-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
bad() { echo "install: FAIL: $*" >&2; failed=1; }
fail() { echo "install: FAIL: $*" >&2; exit 1; }

[ -f "$build/CMakeCache.txt" ] || fail "no CMakeCache.txt in $build"
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
prefix=$(cache CMAKE_INSTALL_PREFIX)
[ -n "$prefix" ] || fail "no CMAKE_INSTALL_PREFIX in $build/CMakeCache.txt"
# dir VAR DEFAULT: where VAR (absolute, or relative to the prefix) lands
# under DESTDIR.
dest=$tmp/dest
dir() {
	v=$(cache "$1")
	[ -n "$v" ] || v=$2
	case $v in
	/*) echo "$dest$v" ;;
	*) echo "$dest$prefix/$v" ;;
	esac
}

DESTDIR=$dest cmake --install "$build" >"$tmp/log" 2>&1 ||
    fail "cmake --install: $(cat "$tmp/log")"
bin=$(dir CMAKE_INSTALL_BINDIR bin)
data=$(dir CMAKE_INSTALL_DATADIR share)/labrat
man1=$(dir CMAKE_INSTALL_MANDIR share/man)/man1
doc=$(dir CMAKE_INSTALL_DOCDIR share/doc/labrat)
unitdir=$(dir LABRAT_SYSTEMD_UNITDIR lib/systemd/system)
sysusers=$(dir LABRAT_SYSUSERSDIR lib/sysusers.d)

# Every file, and the executables executable.
for f in "$bin/labrat" "$data/simlab/labctl" "$data/simlab/faultd" \
    "$data/simlab/host"; do
	[ -x "$f" ] || bad "not installed or not executable: $f"
done
for f in "$data/simlab/common.sh" "$data/configs/plan-demo.json" \
    "$data/configs/simlab/history.json" "$data/configs/bisect/em-demo.json" \
    "$data/agents/PROTOCOL.md" "$man1/labrat.1" "$unitdir/labrat.service" \
    "$sysusers/labrat.conf" "$doc/labrat-sendmail.conf"; do
	[ -f "$f" ] || bad "not installed: $f"
done
# Whole trees: each source file has its installed copy.
for sub in simlab configs schemas; do
	(cd "$top" && find "$sub" -type f) | while IFS= read -r f; do
		cmp -s "$top/$f" "$data/$f" || echo "$f"
	done >"$tmp/missing"
	[ ! -s "$tmp/missing" ] ||
	    bad "$sub: not installed (or differing): $(tr '\n' ' ' <"$tmp/missing")"
done
for f in "$top"/agents/*.c "$top"/agents/*.h; do
	cmp -s "$f" "$data/agents/$(basename "$f")" ||
	    bad "agent source not installed: $data/agents/$(basename "$f")"
done
ls "$data"/schemas/*.schema.json >/dev/null 2>&1 || bad "no schemas in $data"
[ -s "$data/schemas/sql/0001_core.sql" ] || bad "no SQL migrations in $data"
grep -q "^ExecStart=$prefix/.*labrat serve " "$unitdir/labrat.service" ||
    bad "unit's ExecStart is not under the prefix $prefix: $(grep ExecStart= "$unitdir/labrat.service")"

# The installed binary runs, without the source tree's environment.
unset LABRAT_SIMLAB_DIR LABRAT_DATADIR
ilabrat=$bin/labrat
"$ilabrat" help >"$tmp/help" 2>"$tmp/err" || bad "installed labrat help: $(cat "$tmp/err")"
"$LABRAT" help >"$tmp/help.build"
cmp -s "$tmp/help" "$tmp/help.build" || bad "installed labrat help differs from the build's"
"$ilabrat" --version | grep -q "^labrat [0-9]" || bad "installed labrat --version"

# Its lab lookup: the installed labctl runs (a lab that is not up is
# reported by labctl itself, exit 1).
rc=0
"$ilabrat" lab status --name "nosuchinst$$" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || bad "installed lab status exited $rc: $(cat "$tmp/out")"
grep -q "lab nosuchinst$$: not running" "$tmp/out" ||
    bad "installed lab status did not run labctl: $(cat "$tmp/out")"
# A moved install whose labctl is a stub: the binary uses the data beside it.
moved=$tmp/moved
mkdir -p "$moved"
cp -R "$dest$prefix/." "$moved/"
mbin=$moved/${bin#"$dest$prefix/"}
mdata=$moved/${data#"$dest$prefix/"}
printf '#!/bin/sh\necho "stub labctl $*"\n' >"$mdata/simlab/labctl"
out=$("$mbin/labrat" lab status --name stubbed 2>&1) || true
[ "$out" = "stub labctl status --name stubbed" ] ||
    bad "a moved install did not use its own share/labrat: '$out'"
# LABRAT_DATADIR wins, and a data directory without simlab/ fails clearly.
mkdir "$tmp/empty"
rc=0
LABRAT_DATADIR=$tmp/empty "$mbin/labrat" lab status --name x >"$tmp/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || bad "lab status with an empty LABRAT_DATADIR exited $rc"
grep -q "no executable $tmp/empty/simlab/labctl" "$tmp/out" ||
    bad "empty LABRAT_DATADIR: unclear error: $(cat "$tmp/out")"
rc=0
LABRAT_DATADIR=$tmp/none "$mbin/labrat" lab status --name x >"$tmp/out" 2>&1 || rc=$?
grep -q "LABRAT_DATADIR=$tmp/none: not a directory" "$tmp/out" ||
    bad "missing LABRAT_DATADIR: unclear error (exit $rc): $(cat "$tmp/out")"

# The man page: the one the installed binary writes, with every usage line
# of `labrat help`, in the roff and in the rendered page.
"$ilabrat" help --man >"$tmp/labrat.1"
cmp -s "$tmp/labrat.1" "$man1/labrat.1" ||
    bad "installed labrat.1 is not \`labrat help --man\`"
sed -n 's/^  \(labrat .*\)$/\1/p' "$tmp/help" >"$tmp/usages"
n=$(wc -l <"$tmp/usages")
[ "$n" -ge 15 ] || bad "labrat help lists only $n usage lines"
if command -v man >/dev/null 2>&1; then
	MANWIDTH=2000 man -l "$man1/labrat.1" 2>"$tmp/err" | col -b >"$tmp/man.txt"
	how="man -l"
elif command -v groff >/dev/null 2>&1; then
	groff -man -Tascii -rLL=2000n -P-cbou "$man1/labrat.1" >"$tmp/man.txt"
	how=groff
else
	# No formatter: the roff itself, hyphens unescaped.
	sed 's/\\-/-/g' "$man1/labrat.1" >"$tmp/man.txt"
	how="roff source"
fi
tr -s ' \t' '  ' <"$tmp/man.txt" >"$tmp/man.norm"
while IFS= read -r line; do
	want=$(echo "$line" | tr -s ' ')
	grep -qF -- "$want" "$tmp/man.norm" ||
	    bad "labrat(1) ($how) lacks the usage line: $line"
done <"$tmp/usages"

[ "$failed" -eq 0 ] || exit 1
echo "install: ok ($n usage lines in labrat(1) via $how; prefix $prefix)"
