#!/bin/sh
# The dashboard's reads (GET /api/v1/series/keys, series, nights/{id},
# hosts/{link}/health) of a live labrat serve over the nightly_store
# fixture: the store night_serve.sh leaves of a real simulated lab (4
# nights, the em MTU 9000 + TSO on regression at r200132, its bisect to
# the culprit r200131, bce clean).  Every point of every throughput
# series is checked against `labrat report RUN --format json` (the same
# median, q1, q3, min, max of the same link, knobs, workload and
# revision) and its samples against /jobs/{id}/samples; the em series is
# paged through; its marks are the regression nights 3 and 4 and the
# culprit r200131, bce's none; each point's commit message where the
# bisect's revisions know it; the bisects' threshold (list, status) and
# the list's cursor; the nights' cursor; nights/3 and 4 name the record, which
# night 3 opened and bisected; em's health and history; hostile
# parameters (unknown link, SQL metacharacters, huge and bad limits).
# Reads the fixture (a copy): FIXTURES_REQUIRED nightly_store, labelled
# lab like the test that writes it (tests/CMakeLists.txt).
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=apis$$
. "$(dirname "$0")/lib/run.sh"
. "$(dirname "$0")/lib/api.sh"
trap 'api_kill; run_cleanup' EXIT
command -v curl >/dev/null || { echo "SKIP: curl missing" >&2; exit 77; }
FX=${LABRAT_NIGHTLY_FIXTURE:-${LABRAT_BUILD_DIR:-build}/fixtures/nightly.db}
[ -f "$FX" ] || fail "no nightly_store fixture at $FX (run integ_night_serve)"

DB=$TMP/n.db
cp "$FX" "$DB" || fail "copy $FX"
[ -d "$FX.nights" ] && cp -R "$FX.nights" "$DB.nights"
JOBS=$(sq "$DB" "SELECT count(*) FROM jobs")
api_serve srv "$DB" '{"reads": "open"}'
V=$BASE

# Every throughput series of the store; each point against the report of
# its run and the samples of its jobs.
want_jq "$V/series/keys?limit=500" '.next_after == null and (.keys | length) > 0'
jq -c '.keys[] | select(.metric == "throughput_bps")' "$TMP/body" \
    >"$TMP/keys"
[ "$(wc -l <"$TMP/keys")" -ge 4 ] || fail "keys: $(cat "$TMP/keys")"
npoints=0
while read -r k; do
	q=$(echo "$k" | jq -r '"link=\(.link | @uri)&knobs=\(.knobs | @uri)&workload=\(.workload | @uri)"')
	params=$(echo "$k" | jq -r .params)
	want 200 "$V/series?$q&samples=1&limit=500"
	cp "$TMP/body" "$TMP/series"
	jq -e --argjson k "$k" '.link == $k.link and .knobs == $k.knobs and
	    .workload == $k.workload and (.points | length) == $k.runs' \
	    "$TMP/series" >/dev/null ||
		fail "series $q: $(head -c 400 "$TMP/series")"
	jq -c '.points[]' "$TMP/series" >"$TMP/points"
	while read -r p; do
		run=$(echo "$p" | jq .run)
		rev=$(echo "$p" | jq -r '.revision // ""')
		"$LABRAT" report "$run" --db "$DB" --format json \
		    >"$TMP/report" 2>"$TMP/report.err" ||
			fail "labrat report $run: $(cat "$TMP/report.err")"
		jq -e --argjson k "$k" --argjson p "$p" --arg params "$params" \
		    --arg rev "$rev" '[.series[] | select(.link == $k.link and
		    .knobs == $k.knobs and .params == $params and
		    .revision == $rev and .metric == "throughput_bps")] |
		    length == 1 and .[0].n == $p.n and
		    .[0].median == $p.median and .[0].q1 == $p.q1 and
		    .[0].q3 == $p.q3 and .[0].min == $p.min and
		    .[0].max == $p.max' "$TMP/report" >/dev/null ||
			fail "run $run $q: point $p, report $(jq -c '.series' "$TMP/report" | head -c 600)"
		i=0
		for j in $(echo "$p" | jq '.jobs[]'); do
			want 200 "$V/jobs/$j/samples"
			jq -e --argjson p "$p" --argjson i $i '[.samples[] |
			    select(.metric == "throughput_bps" and
			    .interval == 0) | .value] == [$p.samples[$i]]' \
			    "$TMP/body" >/dev/null ||
				fail "job $j: $(head -c 300 "$TMP/body"), point $p"
			i=$((i + 1))
		done
		npoints=$((npoints + 1))
	done <"$TMP/points"
done <"$TMP/keys"
[ "$npoints" -ge 20 ] || fail "only $npoints points checked"

# em MTU 9000 + TSO on: the nightly points carry their night and its
# revision; the marks; a page of 3 and the rest.
WL=$(jq -r 'select(.link == "em" and .knobs == "mtu=9000,tso=on") |
    .workload | @uri' "$TMP/keys")
EM="$V/series?link=em&knobs=mtu%3D9000%2Ctso%3Don&workload=$WL"
want 200 "$EM&limit=500"
cp "$TMP/body" "$TMP/em"
want 200 "$V/nights?limit=50"
jq -e --slurpfile s "$TMP/em" '[.nights[] | {night: .id, run, revision},
    (select(.confirm_run > 0) | {night: .id, run: .confirm_run,
    revision})] | sort_by(.run) == ([$s[0].points[] | select(.kind == "nightly") |
    {night, run, revision}] | sort_by(.run))' "$TMP/body" >/dev/null ||
	fail "em's nightly points and the nights: $(jq -c '.points' "$TMP/em" | head -c 500)"
jq -e '[.marks[] | select(.kind == "regression") | [.night, .revision,
    .regression, .bisect, .series]] == [[4, "r200134", 1, 1, true],
    [3, "r200132", 1, 1, true]] and [.marks[] | select(.kind ==
    "culprit") | [.revision, .bisect, .night, .series]] ==
    [["r200131", 1, 3, true]]' "$TMP/em" >/dev/null ||
	fail "em's marks: $(jq -c .marks "$TMP/em")"
# The culprit's run measured r200131; bisect points carry their bisect.
jq -e '(.marks[] | select(.kind == "culprit") | .run) as $r |
    [.points[] | select(.run == $r)][0] | .revision == "r200131" and
    .bisect == 1' "$TMP/em" >/dev/null || fail "the culprit's run"
want 200 "$EM&limit=3"
cp "$TMP/body" "$TMP/p1"
next=$(jq .next_after "$TMP/p1")
want 200 "$EM&limit=500&after=$next"
jq -e --slurpfile a "$TMP/p1" --slurpfile all "$TMP/em" \
    '([$a[0].points[].run] + [.points[].run]) == [$all[0].points[].run] and
    ([$a[0].marks[]] + .marks | length) == ($all[0].marks | length) and
    .next_after == null' "$TMP/body" >/dev/null ||
	fail "em's pages: $(jq -c '[.points[].run]' "$TMP/p1") then $(jq -c '[.points[].run], .marks' "$TMP/body")"
want_jq "$V/series?link=bce&knobs=mtu%3D9000%2Ctso%3Don&workload=$WL" \
    '(.points | length) == 4 and .marks == []'

# Each point's commit message, as the bisect's revisions hold it (the
# history's line for r200130..r200132); a revision no bisect spanned
# (nights 1 and 4) has none.
jq -e '[.points[] | {revision, message}] | unique | map(select(.revision ==
    "r200128" or .revision == "r200131" or .revision == "r200134")) |
    sort_by(.revision) == [
    {revision: "r200128", message: null}, {revision: "r200131", message:
    "ipfw: fix a memory leak in table deletion"}, {revision: "r200134",
    message: null}]' "$TMP/em" >/dev/null ||
	fail "em's messages: $(jq -c '[.points[] | {revision, message}]' "$TMP/em")"
jq -r '.points[] | select(.message != null) | "\(.revision)\t\(.message)"' \
    "$TMP/em" | sort -u >"$TMP/msgs"
sq "$DB" "SELECT revisions FROM bisects WHERE id = 1" | grep . | sort >"$TMP/revs"
[ -s "$TMP/msgs" ] && [ -z "$(comm -23 "$TMP/msgs" "$TMP/revs")" ] ||
	fail "messages not from the bisect's revisions: $(cat "$TMP/msgs")"

# The bisects: how a step is judged (its stored test's threshold, half
# way to the change the night saw; higher is better), in the list and in
# the status; the list's cursor.
THR=$(sq "$DB" "SELECT json_extract(test_text, '\$.threshold') FROM bisects WHERE id = 1")
[ -n "$THR" ] || fail "bisect 1 stored no test threshold"
want_jq "$V/bisects" --argjson t "$THR" '[.bisects[] |
    [.id, .threshold, .lower_is_better]] == [[1, $t, false]] and
    $t > 0.5 and $t < 1 and .next_after == null'
want_jq "$V/bisects/1" --argjson t "$THR" '.threshold == $t and
    .lower_is_better == false and .bisect == 1 and .culprit.id == "r200131"'
want_jq "$V/bisects?limit=1" '[.bisects[].id] == [1] and .next_after == null'
want_jq "$V/bisects?after=1" '.bisects == [] and .next_after == null'
want 400 "$V/bisects?limit=0"
want 400 "$V/bisects?after=x"
# The nights' cursor: 2, then the rest (4 in all, newest first).
want_jq "$V/nights?limit=2" '[.nights[].id] == [4, 3] and .next_after == 3'
want_jq "$V/nights?limit=50&after=3" '[.nights[].id] == [2, 1] and .next_after == null'
want_jq "$V/nights?limit=1&after=3" '[.nights[].id] == [2] and .next_after == 2'
want 400 "$V/nights?after=0"

# The nights.
want 200 "$V/nights/3"
jq -e '.revision == "r200132" and .run == 9 and
    ([.pairs[] | [.link, .verdict]] | sort | .[1]) == ["em", "regression"] and
    ([.pairs[] | select(.link == "bce") | .regressions] == [0]) and
    # bce has no fault: "no change", or "inconclusive" on a loaded machine
    ([.pairs[] | select(.link == "bce") | .verdict] | .[0] |
    . == "no change" or . == "inconclusive") and [.regressions[] | [.id, .new, .culprit]] ==
    [[1, true, "r200131"]] and [.bisects[] | [.id, .state, .culprit]] ==
    [[1, "done", "r200131"]]' "$TMP/body" >/dev/null ||
	fail "nights/3: $(jq -c 'del(.verdicts)' "$TMP/body")"
want_jq "$V/nights/4" '[.regressions[] | [.id, .new]] == [[1, false]] and .bisects == []'
want_jq "$V/nights/1" '.good and .regressions == [] and
    ([.pairs[].verdict] | all(. == "no change"))'
want 404 "$V/nights/99"
want 400 "$V/nights/0"

# em's health: what labrat hosts health shows, and the history.
want 200 "$V/hosts/em/health"
cp "$TMP/body" "$TMP/health"
"$LABRAT" hosts health --db "$DB" --format json >"$TMP/hh" ||
	fail "labrat hosts health"
jq -e --slurpfile h "$TMP/hh" '($h[0].links[] | select(.link == "em")) as
    $l | .state == $l.state and .since == $l.since and .why == $l.why and
    [.history[] | [.id, .from, .state, .why]] == [$h[0].transitions[] |
    select(.link == "em") | [.id, .from, .to, .why]] and
    .next_after == null' "$TMP/health" >/dev/null ||
	fail "em's health: $(cat "$TMP/health")"
want 404 "$V/hosts/nosuch/health"

# Hostile parameters.  An unknown link, knobs or workload is an empty
# series (a filter), never 404; metacharacters are plain text.
want_jq "$V/series?link=nosuch&knobs=&workload=x" \
    '.points == [] and .marks == [] and .next_after == null'
for k in "%27%20OR%20%271%27%3D%271" "%22%3B%20DROP%20TABLE%20jobs%3B%20--" \
    "%25" "_" "mtu%3D9000%2Ctso%3Don%27%20--"; do
	want_jq "$V/series?link=em&knobs=$k&workload=$WL" '.points == []'
	want_jq "$V/series/keys?link=$k" '.keys == []'
done
want_jq "$EM&limit=99999999999999" --slurpfile all "$TMP/em" '.points == $all[0].points'
want 400 "$EM&limit=0"
want 400 "$EM&limit=-5"
want 400 "$EM&after=abc"
want 400 "$EM&after=99999999999999999999999"
want 400 "$EM&samples=yes"
want 400 "$EM&limit=1&limit=2"
want 400 "$V/series?knobs=&workload=x"
grep -q '"parameter link: required"' "$TMP/body" || fail "$(cat "$TMP/body")"
want 400 "$V/series?link=em&knobs=&workload=$(head -c 1100 /dev/zero | tr '\0' a)"
want 400 "$V/series/keys?after=0"
want 400 "$V/hosts/em/health?limit=x"
api_stop
[ "$(sq "$DB" "SELECT count(*) FROM jobs")" = "$JOBS" ] ||
	fail "the jobs table changed"
echo "api_series: ok ($npoints points checked against the report)"
