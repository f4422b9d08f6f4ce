#!/bin/sh
# `labrat schedule add|list|show|disable|enable|rm` without a lab: two
# schedules stored (one in UTC, one in Europe/Berlin on some links),
# listed as text and JSON with the next firing of "0 3 * * *" checked
# against date -u, shown, disabled (listed, no next firing) and enabled,
# removed; the errors with their exact messages and statuses (2 bad usage
# or config, 1 a duplicate or unknown name).  The inventory's key files do
# not exist here: add checks the configs, not the keys (the daemon's host
# may hold them).
# ctest: parallel
set -eu
: "${LABRAT:?}" "${LABRAT_SOURCE_DIR:?}"
command -v jq >/dev/null || { echo "schedule_cli: jq missing" >&2; exit 77; }
[ -r /usr/share/zoneinfo/Europe/Berlin ] ||
	{ echo "schedule_cli: no zoneinfo (tzdata)" >&2; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/lr-sched-XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "schedule_cli: FAIL: $*" >&2; exit 1; }
expect() {
	want=$1; shift
	set +e
	"$@" >"$dir/out" 2>&1
	got=$?
	set -e
	[ "$got" -eq "$want" ] || { cat "$dir/out" >&2; fail "$* exited $got, want $want"; }
}
has() { grep -qF -- "$1" "$dir/out" || { cat "$dir/out" >&2; fail "no \"$1\" in output"; }; }

inv=$LABRAT_SOURCE_DIR/configs/lab-freebsd.json
plan=$LABRAT_SOURCE_DIR/configs/plan-reports.json
db=$dir/labrat.db
S() { "$LABRAT" schedule "$@" --db "$db"; }

# The next 03:00 UTC after the time given (epoch seconds).
next3() {
	t3=$(date -u -d "$(date -u -d "@$1" +%F) 03:00:00 UTC" +%s)
	[ "$1" -lt "$t3" ] || t3=$((t3 + 86400))
	echo "$t3"
}

expect 0 S add nightly --cron '0 3 * * *' --inventory "$inv" --plan "$plan"
has "schedule nightly added"
expect 0 S add em.berlin --cron '30 2 * * 1-5' --tz Europe/Berlin \
    --inventory "$inv" --plan "$plan" --links em,bce --revisions git:/src
has "schedule em.berlin added"

before=$(next3 "$(date -u +%s)")
expect 0 S list
after=$(next3 "$(date -u +%s)")
has "NEXT (UTC)"
line=$(grep '^nightly ' "$dir/out") || fail "no nightly row"
w1=$(date -u -d "@$before" '+%Y-%m-%d %H:%M:%S +0000 UTC')
w2=$(date -u -d "@$after" '+%Y-%m-%d %H:%M:%S +0000 UTC')
case $line in *"$w1"*|*"$w2"*) ;; *) fail "nightly row: $line, want $w1" ;; esac
case $line in *never) ;; *) fail "nightly fired: $line" ;; esac
grep -q '^em.berlin  *30 2 \* \* 1-5  *Europe/Berlin ' "$dir/out" ||
	fail "no em.berlin row"
grep -Eq '^em.berlin .* (CET|CEST) ' "$dir/out" || fail "no local time"

expect 0 S list --format json
[ "$(jq length "$dir/out")" -eq 2 ] || fail "list json: not 2"
[ "$(jq -r '.[0].name' "$dir/out")" = em.berlin ] || fail "not by name"
n=$(jq '.[] | select(.name == "nightly") | .next' "$dir/out")
[ "$n" -eq "$before" ] || [ "$n" -eq "$after" ] || fail "next $n, want $before"
[ "$(jq -r '.[] | select(.name == "nightly") | .last_fired' "$dir/out")" = null ] ||
	fail "last_fired not null"
[ "$(jq -r '.[0].links' "$dir/out")" = em,bce ] || fail "links"
[ "$(jq -r '.[0].tz' "$dir/out")" = Europe/Berlin ] || fail "tz"
[ "$(jq -r '.[0].revisions' "$dir/out")" = git:/src ] || fail "revisions"

expect 0 S show em.berlin
has "links:       em,bce"
has "revisions:   git:/src"
expect 0 S show nightly --format json
[ "$(jq -r .plan_text "$dir/out")" = "$(cat "$plan")" ] ||
	fail "stored plan text differs from the file"

# Errors.
expect 1 S add nightly --cron '0 4 * * *' --inventory "$inv" --plan "$plan"
has 'labrat schedule add: schedule "nightly" exists'
expect 2 S add x --cron '0 24 * * *' --inventory "$inv" --plan "$plan"
has 'labrat schedule add: --cron 0 24 * * *: field 2 (hour): 24 is out of range 0-23'
expect 2 S add x --cron '0 3 * * *' --tz Mars/Base --inventory "$inv" --plan "$plan"
has 'labrat schedule add: --tz Mars/Base: time zone "Mars/Base": /usr/share/zoneinfo/Mars/Base: No such file or directory'
expect 2 S add x --cron '0 3 * * *' --inventory "$inv" --plan "$plan" --links em,nope
has "labrat schedule add: --links: $plan: links \"em,nope\": not all links of the plan"
expect 2 S add x --cron '0 3 * * *' --inventory "$inv" --plan "$dir/none.json"
has "$dir/none.json: No such file or directory"
expect 2 S add 'a b' --cron '0 3 * * *' --inventory "$inv" --plan "$plan"
has 'labrat schedule add: NAME "a b": must match ^[A-Za-z0-9._-]{1,64}$'
expect 2 S add x --inventory "$inv" --plan "$plan"
has 'labrat schedule add: --cron EXPR missing'
expect 2 S show
expect 0 S list --format json
[ "$(jq length "$dir/out")" -eq 2 ] || fail "a failed add stored something"

# disable: kept and listed, no next firing; enable: back.
expect 0 S disable nightly
has "schedule nightly disabled"
expect 0 S list
grep -Eq '^nightly +0 3 \* \* \* +UTC +\(disabled\) +- +never$' "$dir/out" ||
	fail "a disabled schedule's row: $(cat "$dir/out")"
expect 0 S show nightly
has "enabled:     no"
expect 0 S list --format json
[ "$(jq -c '[.[] | [.name, .enabled, .next]]' "$dir/out")" = \
    '[["em.berlin",true,'"$(jq '.[0].next' "$dir/out")"'],["nightly",false,null]]' ] ||
	fail "list json after disable: $(cat "$dir/out")"
expect 0 S disable nightly
has "schedule nightly disabled"
expect 0 S enable nightly
has "schedule nightly enabled"
expect 0 S show nightly --format json
[ "$(jq -c '[.enabled, (.next != null)]' "$dir/out")" = '[true,true]' ] ||
	fail "show json after enable: $(cat "$dir/out")"
expect 1 S enable nosuch
has 'labrat schedule enable: no schedule "nosuch"'
expect 1 S disable 'a b'
has 'labrat schedule disable: no schedule "a b"'
expect 2 S disable

expect 0 S rm nightly
has "schedule nightly removed"
expect 1 S rm nightly
has 'labrat schedule rm: no schedule "nightly"'
expect 1 S show nightly
has 'labrat schedule show: no schedule "nightly"'
expect 0 S list --format json
[ "$(jq -r '.[].name' "$dir/out")" = em.berlin ] || fail "rm removed the wrong one"
echo "schedule_cli: ok"
