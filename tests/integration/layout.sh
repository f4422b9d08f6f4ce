#!/bin/sh
# The README's "Controller modules" table against the build: every module
# of controller/CMakeLists.txt has a row, in the same order, whose "uses"
# column names exactly its DEPS and whose "private files" column names
# exactly its private sources and NAME_int.h; no row names a module the
# build lacks.  Also: every NAME_WORD.h header belongs to a module NAME, no
# module file includes cmd.h, and no controller file is over 800 lines.
# No lab needed.
# ctest: parallel
set -u
top=${LABRAT_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# One line per module: NAME|dep dep|file file (sorted), from CMake.
awk '
/^labrat_module\(/ { buf = ""; on = 1 }
on { buf = buf " " $0 }
on && /\)/ {
	on = 0
	sub(/^ *labrat_module\(/, "", buf); sub(/\).*/, "", buf)
	n = split(buf, w, /[ \t]+/)
	name = ""; mode = ""; deps = ""; files = ""
	for (i = 1; i <= n; i++) {
		if (w[i] == "") continue
		if (name == "") { name = w[i]; continue }
		if (w[i] == "DEPS" || w[i] == "LIBS" || w[i] == "EXTRA_SOURCES") {
			mode = w[i]; continue
		}
		if (mode == "DEPS") deps = deps " " w[i]
		if (mode == "EXTRA_SOURCES" && w[i] !~ /\$/) files = files " " w[i]
	}
	print name "|" deps "|" files
}' "$top/controller/CMakeLists.txt" > "$tmp/cmake"
[ -s "$tmp/cmake" ] || fail "no labrat_module() in controller/CMakeLists.txt"

# The same from the README's table.
awk '
/^### Controller modules/ { on = 1; next }
on && /^#/ { exit }
on && /^\| `[a-z]+` \|/ {
	n = split($0, c, /\|/)
	name = c[2]; gsub(/[ `]/, "", name)
	priv = c[3]; uses = c[n - 1]
	gsub(/[`,]/, " ", priv); gsub(/[`,]/, " ", uses)
	print name "|" uses "|" priv
}' "$top/README.md" > "$tmp/readme"
[ -s "$tmp/readme" ] || fail "README.md has no Controller modules table"

norm() {	# a word list, sorted, one space apart
	printf '%s\n' $1 | sort | tr '\n' ' '
}

cut -d'|' -f1 "$tmp/cmake" > "$tmp/cm.names"
cut -d'|' -f1 "$tmp/readme" > "$tmp/rd.names"
cmp -s "$tmp/cm.names" "$tmp/rd.names" ||
    fail "module order differs (CMake | README): $(paste -d' ' "$tmp/cm.names" "$tmp/rd.names" | tr '\n' ',')"

while IFS='|' read -r name deps files; do
	row=$(grep "^$name|" "$tmp/readme")
	uses=$(echo "$row" | cut -d'|' -f2)
	priv=$(echo "$row" | cut -d'|' -f3)
	[ "$(norm "$deps")" = "$(norm "$uses")" ] ||
	    fail "$name: CMake DEPS '$(norm "$deps")', README uses '$(norm "$uses")'"
	want=$files
	[ -f "$top/controller/${name}_int.h" ] && want="$want ${name}_int.h"
	[ "$(norm "$want")" = "$(norm "$priv")" ] ||
	    fail "$name: private files '$(norm "$want")', README lists '$(norm "$priv")'"
	for f in $want; do
		case $f in
		"${name}"_*) ;;
		*) fail "$name: private file $f does not start with ${name}_" ;;
		esac
	done
done < "$tmp/cmake"

# A header NAME_WORD.h is NAME's: its private NAME_int.h, or a further
# public header (store_daemon.h); NAME must be a module.
for f in "$top"/controller/*_*.h; do
	b=${f##*/}
	grep -q "^${b%%_*}|" "$tmp/cmake" ||
	    fail "$b: no module ${b%%_*} owns it (headers are NAME.h, NAME_int.h or NAME_WORD.h of a module)"
done

for f in "$top"/controller/*.c "$top"/controller/*.h; do
	b=${f##*/}
	case $b in
	main.c|cmd.h|cmd_*.c) continue ;;
	esac
	grep -q '#include "cmd.h"' "$f" && fail "$b includes cmd.h (only main.c and cmd_*.c may)"
	n=$(wc -l < "$f")
	[ "$n" -le 800 ] || fail "$b has $n lines (limit 800)"
done
echo "PASS: $(wc -l < "$tmp/cmake") modules match the README"
