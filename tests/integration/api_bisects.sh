#!/bin/sh
# GET /api/v1/bisects over many bisects, against a live `labrat serve` on
# 127.0.0.1 (a free port) over a fresh store of 1203 bisects (no lab:
# rows as hunt stores them, four kinds of stored test: configs/bisect/
# em.json, threshold 0.91, higher better; the same on "retransmits"
# without a threshold, 1.1, lower better; none; one that does not parse).
# - paged through by the cursor at limit 97 and at the largest limit, every
#   bisect comes exactly once, newest first, and next_after is null only
#   on the last page; without limit and after, all of them at once;
# - each row's threshold and lower_is_better are those of its test (null
#   where it cannot be told), as GET /bisects/{id} (`bisect status`) says
#   for one of each kind it shows (not a test that does not parse), and every page is valid against the OpenAPI
#   schema (Bisects);
# - the first list settles each bisect's judging in the store (schema 15),
#   and later pages read it from there: a stored test changed afterwards
#   does not change the list.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=apib$$
. "$(dirname "$0")/lib/run.sh"
. "$(dirname "$0")/lib/api.sh"
trap 'api_kill; run_cleanup' EXIT
command -v curl >/dev/null || { echo "SKIP: curl missing" >&2; exit 77; }

N=1203
DB=$TMP/b.db
"$LABRAT" db migrate --db "$DB" >/dev/null 2>&1 || fail "db migrate"
EM=$(sed "s/'/''/g" "$LABRAT_SOURCE_DIR/configs/bisect/em.json")
RT=$(jq '.metric = "retransmits" | del(.threshold)' \
    "$LABRAT_SOURCE_DIR/configs/bisect/em.json" | sed "s/'/''/g")
sq "$DB" "WITH RECURSIVE i(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM i
    WHERE n < $N) INSERT INTO bisects (id, state, created_at, finished_at,
    link, knobs, tool, metric, good, bad, revisions, plan_path, culprit,
    confidence, reason, test_text) SELECT n, 'done', 1700000000000 + n,
    1700000000500 + n, 'em', 'mtu=9000', 'iperf3', CASE n % 4 WHEN 1 THEN
    'retransmits' ELSE 'throughput_bps' END, 'r1', 'r3', 'r1' || char(10) ||
    'r2' || char(10) || 'r3', '/etc/labrat/t' || (n % 4) || '.json', 'r2',
    0.99, 'culprit found', CASE n % 4 WHEN 0 THEN '$EM' WHEN 1 THEN '$RT'
    WHEN 2 THEN NULL ELSE '{\"metric\": ' END FROM i" ||
	fail "insert $N bisects"
# What each row must say: [id, threshold, lower_is_better] by n % 4.
jq -n --argjson n $N '[range($n; 0; -1) | . as $i | [$i] + ([[0.91, false],
    [1.1, true], [null, null], [null, null]][$i % 4])]' >"$TMP/want"

api_serve srv "$DB" '{"reads": "open"}'
V=$BASE

# schema FILE: FILE (a reply of GET /bisects) is valid against Bisects.
schema() {
	python3 - "$LABRAT_SOURCE_DIR/schemas/openapi.json" "$1" <<'PY' ||
import json, sys
from jsonschema import Draft202012Validator
doc = json.load(open(sys.argv[1]))
s = dict(doc["components"]["schemas"]["Bisects"])
s["$defs"] = doc["components"]["schemas"]
text = json.dumps(s).replace("#/components/schemas/", "#/$defs/")
errs = list(Draft202012Validator(json.loads(text)).iter_errors(
    json.load(open(sys.argv[2]))))
for e in errs[:3]:
    print(e.message[:300])
sys.exit(1 if errs else 0)
PY
	    fail "GET /bisects: not valid against the OpenAPI schema"
}

# walk LIMIT: every page from the newest, the rows into $TMP/rows.LIMIT.
walk() {
	_after= _pages=0
	: >"$TMP/rows.$1"
	while :; do
		want 200 "$V/bisects?limit=$1$_after"
		_pages=$((_pages + 1))
		# The page's rows, then "COUNT NEXT_AFTER LAST_ID".
		jq -c '(.bisects[] | [.id, .threshold, .lower_is_better]),
		    "\(.bisects | length) \(.next_after) \(.bisects[-1].id)"' \
		    "$TMP/body" >"$TMP/page"
		sed '$d' "$TMP/page" >>"$TMP/rows.$1"
		set -- "$1" $(tail -n 1 "$TMP/page" | tr -d '"')
		_n=$2 _next=$3
		[ "$_next" = null ] && break
		[ "$_n" = "$1" ] || fail "limit $1: a page of $_n before $_next"
		[ "$_next" = "$4" ] ||
			fail "limit $1: next_after $_next is not the page's last id $4"
		_after="&after=$_next"
	done
	[ "$_n" -le "$1" ] || fail "limit $1: a last page of $_n"
	jq -s . "$TMP/rows.$1" | jq -e --slurpfile w "$TMP/want" '. == $w[0]' \
	    >/dev/null ||
		fail "limit $1: the rows paged through are not the $N bisects newest first: $(jq -s -c '.[:3], length' "$TMP/rows.$1")"
	note "limit $1: $N bisects in $_pages pages"
}

walk 97
[ "$(sq "$DB" "SELECT count(*) FROM bisects WHERE judged = 1")" = $N ] ||
	fail "not every listed bisect has its judging stored"
# Stored now: a stored test changed afterwards is not parsed again.
sq "$DB" "UPDATE bisects SET test_text = '{\"metric\": \"x\"}' WHERE id = 8"
walk 500
want_jq "$V/bisects" --argjson n $N '(.bisects | length) == $n and
    .next_after == null and .bisects[0].id == $n'
schema "$TMP/body"
want_jq "$V/bisects?after=4&limit=2" '[.bisects[].id] == [3, 2] and .next_after == 2'
want_jq "$V/bisects?after=2" '[.bisects[].id] == [1] and .next_after == null'
# The same as the status of one bisect of each kind says.
for id in 1200 1201 1202; do
	want 200 "$V/bisects/$id"
	jq -c '[.bisect, .threshold, .lower_is_better]' "$TMP/body" >"$TMP/st"
	[ "$(cat "$TMP/st")" = "$(jq -c ".[] | select(.[0] == $id)" "$TMP/want")" ] ||
		fail "bisects/$id says $(cat "$TMP/st"), the list $(jq -c ".[] | select(.[0] == $id)" "$TMP/want")"
done
want 400 "$V/bisects?limit=0"
want 400 "$V/bisects?after=0"
api_stop
echo "api_bisects: ok"
