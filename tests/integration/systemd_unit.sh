#!/bin/sh
# dist/labrat.service as CMake configured it (build/dist/labrat.service):
# the keys the install promises (Type=notify, `labrat serve --db
# /var/lib/labrat/labrat.db` under the prefix, user and group labrat,
# StateDirectory=labrat mode 0770, UMask=0007, the hardening, restart on
# failure, a stop timeout above the job timeout); the sysusers.d file makes
# that user; the sendmail drop-in turns off every setting of the unit that
# implies NoNewPrivileges=yes (systemd.exec(5)); and systemd-analyze verify
# finds nothing to say about the unit, with and without the drop-in (it
# works on files, no running systemd needed).
# ctest: parallel
set -eu
: "${LABRAT:?}"
top=${LABRAT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${LABRAT_BUILD_DIR:-$(dirname "$LABRAT")}
unit=$build/dist/labrat.service
dropin=$top/dist/labrat-sendmail.conf
sysusers=$top/dist/labrat.sysusers
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lr-unit-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
bad() { echo "systemd_unit: FAIL: $*" >&2; failed=1; }
[ -f "$unit" ] || { echo "systemd_unit: FAIL: no $unit" >&2; exit 1; }

# val FILE SECTION KEY: the last assignment of KEY in SECTION.
val() {
	awk -v sec="[$2]" -v key="$3" '
	    /^\[/ { in_sec = ($0 == sec); next }
	    in_sec && index($0, key "=") == 1 { v = substr($0, length(key) + 2); found = 1 }
	    END { if (found) print v; else print "<unset>" }' "$1"
}
want() {
	got=$(val "$unit" Service "$1")
	[ "$got" = "$2" ] || bad "$1=$got, want $1=$2"
}
want Type notify
want User labrat
want Group labrat
want StateDirectory labrat
want StateDirectoryMode 0770
want UMask 0007
want Restart on-failure
want KillMode mixed
want ProtectSystem strict
want ProtectHome read-only
want PrivateTmp yes
want NoNewPrivileges yes
[ "$(val "$unit" Install WantedBy)" = multi-user.target ] || bad "WantedBy"

cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
prefix=$(cache CMAKE_INSTALL_PREFIX)
bindir=$(cache CMAKE_INSTALL_BINDIR)
case $bindir in /*) ;; *) bindir=$prefix/$bindir ;; esac
exec_start=$(val "$unit" Service ExecStart)
case $exec_start in
"$bindir/labrat serve "*"--db /var/lib/labrat/labrat.db"*) ;;
*) bad "ExecStart=$exec_start, want $bindir/labrat serve ... --db /var/lib/labrat/labrat.db" ;;
esac

# TimeoutStopSec above a plan's default job_timeout (120 s, config.h): the
# daemon finishes or requeues its job and restores the hosts on SIGTERM.
t=$(val "$unit" Service TimeoutStopSec)
case $t in
*min) s=$(( ${t%min} * 60 )) ;;
*s) s=${t%s} ;;
*) s=$t ;;
esac
[ "$s" -gt 120 ] 2>/dev/null || bad "TimeoutStopSec=$t is not above the 120 s job timeout"

grep -Eq '^u[[:space:]]+labrat[[:space:]]' "$sysusers" ||
    bad "$sysusers makes no user labrat"

# The sendmail choice is documented in the unit, and the drop-in undoes
# every setting the unit has that implies NoNewPrivileges=yes (the list of
# systemd.exec(5), systemd 252, under NoNewPrivileges=), plus the empty
# capability bounding set.
grep -q "sendmail" "$unit" && grep -q "labrat-sendmail.conf" "$unit" ||
    bad "the unit does not say what to change for a setuid sendmail"
[ "$(val "$dropin" Service NoNewPrivileges)" = no ] ||
    bad "drop-in: NoNewPrivileges is not turned off"
for k in DynamicUser LockPersonality MemoryDenyWriteExecute PrivateDevices \
    ProtectClock ProtectHostname ProtectKernelLogs ProtectKernelModules \
    ProtectKernelTunables RestrictSUIDSGID RestrictRealtime; do
	u=$(val "$unit" Service "$k")
	case $u in '<unset>'|no|false) continue ;; esac
	d=$(val "$dropin" Service "$k")
	[ "$d" = no ] || bad "unit sets $k=$u (implies NoNewPrivileges) but the drop-in does not set $k=no"
done
for k in RestrictAddressFamilies RestrictNamespaces SystemCallArchitectures \
    SystemCallFilter SystemCallLog; do
	u=$(val "$unit" Service "$k")
	case $u in '<unset>'|''|no|false) continue ;; esac
	d=$(val "$dropin" Service "$k")
	[ "$d" = "" ] || [ "$d" = no ] ||
	    bad "unit sets $k=$u (implies NoNewPrivileges) but the drop-in does not reset it"
done
u=$(val "$unit" Service CapabilityBoundingSet)
[ "$u" = '<unset>' ] || [ "$(val "$dropin" Service CapabilityBoundingSet)" = "~" ] ||
    bad "unit limits the capability bounding set but the drop-in does not restore it"
grep -q '^ReadWritePaths=.*/var/spool/' "$dropin" || bad "drop-in: the MTA spool is not writable"

# systemd-analyze verify: silent on the unit (its ExecStart pointed at the
# built binary, its man:labrat(1) found in the built page), and on the
# unit with the drop-in; a deliberately bad drop-in must be reported, or
# the check proves nothing.
if ! command -v systemd-analyze >/dev/null 2>&1; then
	[ "$failed" -eq 0 ] || exit 1
	echo "systemd_unit: systemd-analyze missing (scripts/install-deps.sh installs systemd)" >&2
	exit 77
fi
mkdir -p "$tmp/u" "$tmp/man/man1"
sed "s|^ExecStart=$bindir/labrat |ExecStart=$(cd "$(dirname "$LABRAT")" && pwd)/$(basename "$LABRAT") |" \
    "$unit" >"$tmp/u/labrat.service"
manopt=--man=no
if command -v man >/dev/null 2>&1; then
	cp "$build/dist/labrat.1" "$tmp/man/man1/labrat.1"
	manopt=--man=yes
fi
verify() {
	MANPATH=$tmp/man systemd-analyze verify "$manopt" "$tmp/u/labrat.service" \
	    >"$tmp/verify" 2>&1 || echo "(exit $?)" >>"$tmp/verify"
}
verify
[ ! -s "$tmp/verify" ] || bad "systemd-analyze verify: $(cat "$tmp/verify")"
mkdir "$tmp/u/labrat.service.d"
cp "$dropin" "$tmp/u/labrat.service.d/sendmail.conf"
verify
[ ! -s "$tmp/verify" ] || bad "systemd-analyze verify (sendmail drop-in): $(cat "$tmp/verify")"
printf '[Service]\nNoSuchKey=1\n' >"$tmp/u/labrat.service.d/zz-bad.conf"
verify
grep -q NoSuchKey "$tmp/verify" || bad "systemd-analyze verify ignored a bad drop-in: $(cat "$tmp/verify")"
rm "$tmp/u/labrat.service.d/zz-bad.conf" "$tmp/u/labrat.service.d/sendmail.conf"
score=$(systemd-analyze security --offline=true --man=no "$tmp/u/labrat.service" 2>/dev/null |
    sed -n 's/.*Overall exposure level for labrat.service: \([0-9.]*\).*/\1/p')

[ "$failed" -eq 0 ] || exit 1
echo "systemd_unit: ok (systemd-analyze security exposure ${score:-?})"
