#!/bin/sh
# labrat's command line, no lab needed: every command and subcommand of the
# command table answers --help (and `labrat help CMD`) with exit 0 and its
# usage on stdout; usage errors say what is wrong (the flag, the argument)
# and exit 2; the common options work before and after the command; the man
# page (`labrat help --man`) is clean roff; and every usage line of the
# table appears verbatim in README.md.
# ctest: parallel
set -eu
: "${LABRAT:?}"
top=${LABRAT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lr-cli-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0
bad() { echo "cli_help: FAIL: $*" >&2; failed=1; }

# expect STATUS CMD...: runs CMD (stdout in $tmp/out, stderr in $tmp/err).
expect() {
	want=$1; shift
	rc=0
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq "$want" ] || bad "$* exited $rc, want $want: $(cat "$tmp/err")"
}
err_has() {
	grep -qF -- "$1" "$tmp/err" || bad "stderr lacks \"$1\": $(cat "$tmp/err")"
}

expect 0 "$LABRAT" help
sed -n 's/^  \(labrat .*\)$/\1/p' "$tmp/out" >"$tmp/usages"
n=$(wc -l <"$tmp/usages")
[ "$n" -ge 15 ] || bad "labrat help lists $n usage lines"
expect 0 "$LABRAT" --help
cmp -s "$tmp/out" "$tmp/usages" && bad "--help printed no header"
expect 2 "$LABRAT"
grep -qF "labrat report [RUN]" "$tmp/err" || bad "bare labrat: no usage on stderr"

# Every entry: --help, -h, help CMD, -v before it; the first line is the
# usage line `labrat help` listed.
while IFS= read -r line; do
	# The command's words: the lowercase ones after "labrat".
	cmd=$(echo "$line" | awk '{ for (i = 2; i <= NF && $i ~ /^[a-z][a-z-]*$/; i++) printf "%s%s", (i > 2 ? " " : ""), $i }')
	# shellcheck disable=SC2086
	for form in "$cmd --help" "$cmd -h" "-v $cmd --help" "help $cmd"; do
		expect 0 "$LABRAT" $form
		[ "$(head -n 1 "$tmp/out")" = "usage: $line" ] ||
		    bad "labrat $form: first line '$(head -n 1 "$tmp/out")'"
		grep -q "^options:" "$tmp/out" || bad "labrat $form: no options"
		[ ! -s "$tmp/err" ] || bad "labrat $form wrote to stderr"
	done
done <"$tmp/usages"

# demo takes the lab's name (--name NAME), and checks it before needing root.
expect 0 "$LABRAT" demo --help
grep -q -- "--name NAME" "$tmp/out" || bad "demo --help lacks --name NAME"
expect 2 "$LABRAT" demo --name BAD --db "$tmp/none.db"
err_has "labrat demo: bad lab name 'BAD'"

# Commands with subcommands: --help shows them all; without one, or with an
# unknown one, exit 2 saying so.
for group in lab db bisect config; do
	expect 0 "$LABRAT" "$group" --help
	for sub in $(grep "^labrat $group " "$tmp/usages" | awk '{ print $3 }'); do
		grep -q "^usage: labrat $group $sub" "$tmp/out" ||
		    bad "$group --help lacks $sub"
	done
	expect 2 "$LABRAT" "$group"
	err_has "labrat $group: missing subcommand"
	expect 2 "$LABRAT" "$group" frobnicate
	err_has "labrat $group: unknown subcommand 'frobnicate'"
done

# Usage errors name what is wrong, with the usage after it.
db="$tmp/none.db"
expect 2 "$LABRAT" --format xml report --db "$db"
err_has "labrat report: --format xml: not one of text|json|csv|junit"
err_has "usage: labrat report"
expect 2 "$LABRAT" report --format=xml --db "$db"
err_has "labrat report: --format xml: not one of text|json|csv|junit"
expect 2 "$LABRAT" run --format csv --inventory x --plan y --db "$db"
err_has "labrat run: --format csv: not one of text|json"
expect 2 "$LABRAT" lab up --format json
err_has "labrat lab up: --format json: this command prints no results"
expect 2 "$LABRAT" report 1 2 --db "$db"
err_has "labrat report: unexpected argument '2' after RUN"
expect 2 "$LABRAT" compare 1 --db "$db"
err_has "labrat compare: RUN_B missing"
expect 2 "$LABRAT" compare 1 2 3 --db "$db"
err_has "labrat compare: unexpected argument '3' after RUN_A RUN_B"
expect 2 "$LABRAT" db path extra
err_has "labrat db path: unexpected argument 'extra'"
expect 2 "$LABRAT" report --bogus --db "$db"
err_has "labrat report: unknown option --bogus"
expect 2 "$LABRAT" report --baseline
err_has "labrat report: --baseline needs a value"
expect 2 "$LABRAT" report --db
err_has "labrat report: --db needs a value"
expect 2 "$LABRAT" lab up --name BAD
err_has "labrat lab up: bad lab name 'BAD'"
expect 2 "$LABRAT" bisect start --inventory x --db "$db"
err_has "labrat bisect start: --link LINK missing"
expect 2 "$LABRAT" run --resume 1 --plan p --db "$db"
err_has "labrat run: --resume takes"
expect 2 "$LABRAT" nosuch
err_has "labrat: unknown command 'nosuch'"
expect 2 "$LABRAT" --bogus report
err_has "labrat: --bogus is not an option of labrat"
expect 2 "$LABRAT" help nosuch
err_has "labrat help: no command 'nosuch'"
[ ! -e "$db" ] || bad "a usage error created the database"

# The common options before and after the command.
expect 0 "$LABRAT" --db "$tmp/a.db" db path
[ "$(cat "$tmp/out")" = "$tmp/a.db" ] || bad "--db before the command"
expect 0 "$LABRAT" db path -vv --db="$tmp/b.db"
[ "$(cat "$tmp/out")" = "$tmp/b.db" ] || bad "--db= after the command"
LABRAT_DB="$tmp/env.db" expect 0 "$LABRAT" -v db path
[ "$(cat "$tmp/out")" = "$tmp/env.db" ] || bad "LABRAT_DB"
expect 0 "$LABRAT" --version
grep -q "^labrat [0-9]" "$tmp/out" || bad "--version: $(cat "$tmp/out")"

# The man page: every entry a section, its usage line in bold, clean roff.
expect 0 "$LABRAT" help --man
cp "$tmp/out" "$tmp/labrat.1"
head -n 2 "$tmp/labrat.1" | grep -q '^\.TH LABRAT 1' || bad "man: no .TH"
while IFS= read -r line; do
	cmd=$(echo "$line" | awk '{ for (i = 2; i <= NF && $i ~ /^[a-z][a-z-]*$/; i++) printf "%s%s", (i > 2 ? " " : ""), $i }')
	grep -qxF ".SS $(echo "$cmd" | sed 's/-/\\-/g')" "$tmp/labrat.1" ||
	    bad "man: no section for $cmd"
	grep -qxF ".B $(echo "$line" | sed 's/-/\\-/g')" "$tmp/labrat.1" ||
	    bad "man: no synopsis for $cmd"
done <"$tmp/usages"
if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -ww -z "$tmp/labrat.1" 2>"$tmp/groff" ||
	    bad "groff failed"
	[ ! -s "$tmp/groff" ] || bad "groff warnings: $(cat "$tmp/groff")"
fi

# README.md carries every usage line verbatim.
while IFS= read -r line; do
	grep -qF -- "$line" "$top/README.md" ||
	    bad "README.md lacks the usage line: $line"
done <"$tmp/usages"

[ "$failed" -eq 0 ] || exit 1
echo "cli_help: ok ($n usage lines)"
