#!/bin/sh
# The nightly loop on the simulated lab through a live `labrat serve`:
# the daemon's own scheduler fires a "0 3 * * *" schedule, four nights in
# a row.  Each night a daemon starts with its clock (LABRAT_TEST_CLOCK=+MS,
# test only) put 1.5 s before that night's 03:00 UTC, its scheduler fires
# the slot, its worker runs the night; the test waits for the night's
# queue item to end, then SIGTERMs it (exit 0) and starts the next night.
#
# A 48-revision history (r200100..r200147) whose head starts at r200126
# and moves 2 revisions a night (`labrat lab advance --by 2 --print-head`,
# the revision source's newest command); the em fault lands at r200131.
# Nights 1 (r200128) and 2 (r200130) are clean; night 3 (r200132) shows
# em's TSO on @ MTU 9000 regressed against night 2, confirms it with a
# re-run, opens one regression record and bisects it A/B on TSO within
# each boot to the exact culprit r200131 (record "culprit", the webhook and
# the mail delivered to a local listener and SMTP sink, once, the mail in
# the 0-day robot's words); every night first checks both links' health
# on last night's revision; bce stays clean and is not bisected.  Night 4
# (r200134) shows the same regression: it joins the record, no second
# bisect.
#
# Night 3's daemon is SIGKILLed twice, in the night's run and in its
# bisect, and started again each time (its clock still in night 3): the
# dead daemon's item is queued again and the night continues where it was
# (same run, same bisect); it ends as one uninterrupted night would: the
# culprit, the verdict per series, one sample per job, one night row and
# one queue item per slot, every host's TSO and MTU as before.
#
# With LABRAT_NIGHTLY_FIXTURE set (tests/CMakeLists.txt: the nightly_store
# fixture), the final store (and its .nights directory) is copied there
# once every assertion passed, atomically, for the API and dashboard tests.
set -u
. "$(dirname "$0")/lib/simlab.sh"
LAB=ns$$
. "$(dirname "$0")/lib/run.sh"
T=$TMP
SINK= SSINK= SPID=
ns_cleanup() {
	[ -n "$SPID" ] && kill -9 "$SPID" 2>/dev/null
	[ -n "$SINK" ] && kill "$SINK" 2>/dev/null
	[ -n "$SSINK" ] && kill "$SSINK" 2>/dev/null
	run_cleanup
}
trap ns_cleanup EXIT
: "${LABRAT_HOOKSINK:?LABRAT_HOOKSINK must point at build/hooksink}"
: "${LABRAT_SMTPSINK:?LABRAT_SMTPSINK must point at build/smtpsink}"
t0=$(now_ms)

C=$SIMLAB_SRC/configs
# The em fault halves the link here (the lab's default is 0.82) and the
# plan's min_effect is 25 %: one CI run saw bce drift 15 % between two
# nights on a busy machine (p 0.0079, the least 5 vs 5 samples can give),
# which is the machine's, not a regression this test is about.  Its links
# are shaped to 300 Mbit/s (`lab up --rate 300`, as run_order.sh): at
# 1 Gbit/s the CPUs, not the shaper, set the figures, and a busy machine
# once read em and bce 32 % low with TSO off in night 3 (a regression to
# the plan, twice in a row); the nights and the bisect judge ratios, and
# the fault is a factor of the shaper's rate.
jq '{description: "nightly test history",
     revisions: [.revisions[100:148][]],
     faults: [.faults[0] + {introduced: "r200131", throughput_factor: 0.5},
              .faults[1] + {introduced: "r200147"}]}' \
    "$C/simlab/history.json" > "$T/hist.json" || fail "history"
lab_up --history "$T/hist.json" --boot-seconds 1 --revision r200126 \
    --head r200126 --rate 300

mkdir "$T/hooks"
"$LABRAT_HOOKSINK" --dir "$T/hooks" --lifetime 600 > "$T/port" &
SINK=$!
wait_log "$T/port" . 5 || fail "hooksink did not start"
PORT=$(cat "$T/port")
mkdir "$T/mail"
"$LABRAT_SMTPSINK" --dir "$T/mail" --lifetime 600 > "$T/sport" &
SSINK=$!
wait_log "$T/sport" . 5 || fail "smtpsink did not start"
SPORT=$(cat "$T/sport")

cat > "$T/plan.json" <<EOP
{
  "links": ["em", "bce"],
  "knobs": { "tso": [true, false], "mtu": [9000] },
  "workloads": [ { "tool": "iperf3", "len": "128k", "nodelay": true,
                   "time": 1 } ],
  "repetitions": 5,
  "timeouts": { "connect": 5, "job": 30, "settle_ms": 100 },
  "retries": 1,
  "stats": { "alpha": 0.05, "min_effect": 0.25, "min_samples": 5,
             "max_samples": 5, "collapse_factor": 5, "adaptive": false }
}
EOP
# The daemon's own health checks (of its config's inventories: never
# checked links at once, then every 24 h, which its clock jumping a day a
# night would make every night) are serve_health.sh's; here an inventory
# that does not exist keeps them out, so each link is checked by its
# night, on last night's revision, both links at once (a check first
# builds the agent on the link's hosts: ~20 s on a busy machine).
cat > "$T/daemon.json" <<EOD
{
  "inventories": ["$T/no-inventory.json"],
  "revision_sources": [ { "name": "sim", "revisions": "$T/hist.json",
      "newest": { "command": ["$LABRAT", "lab", "advance", "--name", "$LAB",
                              "--by", "2", "--print-head"] } } ],
  "notify": { "webhooks": [ { "url": "http://127.0.0.1:$PORT/labrat",
                              "timeout_s": 5 } ],
              "mail": { "smtp": "smtp://127.0.0.1:$SPORT",
                        "from": "labrat@localhost",
                        "to": ["netdev@localhost"], "timeout_s": 10 } },
  "health": { "iperf_seconds": 1 },
  "confirm": 1
}
EOD
DB=$T/lab.db
"$LABRAT" schedule add nightly --cron "0 3 * * *" --inventory "$INV" \
    --plan "$T/plan.json" --revisions sim --db "$DB" >/dev/null ||
    fail "schedule add"
# Night n's slot: the first 03:00 UTC after now, n - 1 days on.
DAY=86400000
now=$(now_ms)
S1=$(( now - now % DAY + 3 * 3600000 ))
[ "$S1" -gt "$now" ] || S1=$(( S1 + DAY ))
slot() { echo $(( S1 + ($1 - 1) * DAY )); }

# serve N OFFSET: a daemon (SPID) with its clock shifted by OFFSET ms,
# its log appended to $T/dN.err; waits for its "serving" line.
serve() {
	LABRAT_TEST_CLOCK=+$2 "$LABRAT" serve --db "$DB" \
	    --config "$T/daemon.json" --log-level info 2>>"$T/d$1.err" &
	SPID=$!
	wait_log "$T/d$1.err" "labrat serve: serving $DB as pid $SPID" 20 ||
	    fail "night $1: no daemon: $(tail -5 "$T/d$1.err")"
}
# night_start N: a daemon whose clock reads 1.5 s before night N's slot
# (OFF: the offset, kept for restarts within the night).
night_start() {
	OFF=$(( $(slot "$1") - 1500 - $(now_ms) ))
	serve "$1" "$OFF"
}
# night_wait N: until the night's queue item ended (done, or fail).
night_wait() {
	_end=$(( $(now_ms) + 400000 ))
	while [ "$(now_ms)" -lt $_end ]; do
		grep -q "item [0-9]* done: night done" "$T/d$1.err" && return 0
		grep -q "item [0-9]* failed: " "$T/d$1.err" &&
		    fail "night $1: $(grep "item [0-9]* failed" "$T/d$1.err")"
		kill -0 "$SPID" 2>/dev/null ||
		    fail "night $1: the daemon died: $(tail -5 "$T/d$1.err")"
		sleep 0.2
	done
	fail "night $1: not done in 400 s: $(tail -5 "$T/d$1.err")"
}
# stop N: SIGTERM, exit 0 within 15 s.
stop() {
	kill -TERM "$SPID"
	i=0
	while kill -0 "$SPID" 2>/dev/null && [ $i -lt 150 ]; do
		sleep 0.1; i=$((i + 1))
	done
	kill -0 "$SPID" 2>/dev/null && fail "night $1: still serving 15 s after SIGTERM"
	wait "$SPID"; rc=$?
	SPID=
	[ $rc -eq 0 ] || fail "night $1: exit $rc after SIGTERM: $(tail -5 "$T/d$1.err")"
}
crash() {
	kill -9 "$SPID"; wait "$SPID" 2>/dev/null; SPID=
}
# The daemon's scheduler fired the slot itself, at its time, not as a
# catch-up after downtime.
fired() {
	grep -q "schedule nightly fires for " "$T/d$1.err" ||
	    fail "night $1: the schedule did not fire: $(tail -5 "$T/d$1.err")"
	grep -q "schedule nightly fires for .*missed" "$T/d$1.err" &&
	    fail "night $1: fired as a catch-up: $(grep fires "$T/d$1.err")"
	grep -q "slot $(( $(slot "$1") / 1000 )) queued" "$T/d$1.err" ||
	    fail "night $1: not slot $(slot "$1"): $(grep slot "$T/d$1.err")"
}
R() { "$LABRAT" regressions --db "$DB" --format json; }
nightly_runs() { sq "$DB" "SELECT count(*) FROM runs WHERE kind = 'nightly'"; }
night_of() { sq "$DB" "SELECT $2 FROM nights WHERE slot = $(slot "$1")"; }

for n in 1 2; do
	night_start $n
	night_wait $n
	stop $n
	fired $n
	[ "$(R | jq length)" = 0 ] || fail "night $n: a regression: $(R)"
	note "night $n: $(grep -o 'newest revision.*' "$T/d$n.err")"
	# Each night checks both links' health first (on last night's revision).
	[ "$(grep -c "night [0-9]*: [a-z]* health good" "$T/d$n.err")" = 2 ] ||
	    fail "night $n health: $(grep health "$T/d$n.err")"
done
grep -q "night [0-9]*: .* runs r200128" "$T/d1.err" || fail "night 1 did not install r200128"

# --- night 3: SIGKILL in the night's run, then in its bisect.
before3=$(sq "$DB" "SELECT max(id) FROM runs WHERE kind = 'nightly'")
night_start 3
# In the run: the night's run has jobs done and jobs left.
_end=$(( $(now_ms) + 200000 ))
while :; do
	RUN3=$(night_of 3 run_id)
	if [ -n "$RUN3" ]; then
		d=$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN3 AND state = 'done'")
		[ "${d:-0}" -ge 6 ] && break
	fi
	[ "$(now_ms)" -lt $_end ] || fail "night 3: no run with 6 jobs done: $(tail -5 "$T/d3.err")"
	kill -0 "$SPID" 2>/dev/null || fail "night 3: the daemon died: $(tail -5 "$T/d3.err")"
	sleep 0.2
done
crash
left=$(sq "$DB" "SELECT count(*) FROM jobs WHERE run_id = $RUN3 AND state <> 'done'")
[ "$left" -ge 1 ] || fail "night 3: the kill came after the run"
[ "$(night_of 3 state)" = installed ] || fail "night 3 killed in state $(night_of 3 state)"
note "night 3: SIGKILL in run $RUN3, $left of its jobs not done"
serve 3 "$OFF"
# In the bisect: 2 steps stored, the 3rd under way.
_end=$(( $(now_ms) + 300000 ))
until [ "$(sq "$DB" "SELECT count(*) FROM bisect_steps WHERE verdict <> ''")" -ge 2 ] 2>/dev/null; do
	grep -q "item [0-9]* failed: " "$T/d3.err" &&
	    fail "night 3: $(grep "item [0-9]* failed" "$T/d3.err")"
	grep -q "item [0-9]* done: night done" "$T/d3.err" &&
	    fail "night 3 ended before the bisect's kill: $(tail -5 "$T/d3.err")"
	[ "$(now_ms)" -lt $_end ] || fail "night 3: no bisect steps: $(tail -5 "$T/d3.err")"
	kill -0 "$SPID" 2>/dev/null || fail "night 3: the daemon died: $(tail -5 "$T/d3.err")"
	sleep 0.3
done
sleep 1
crash
[ "$(night_of 3 state)" = bisecting ] || fail "night 3 killed in state $(night_of 3 state)"
nruns=$(nightly_runs)
note "night 3: SIGKILL in the bisect after $(sq "$DB" "SELECT count(*) FROM bisect_steps WHERE verdict <> ''") steps"
serve 3 "$OFF"
night_wait 3
stop 3
fired 3
grep -c "queue items of a daemon that died queued again" "$T/d3.err" | grep -qx 2 ||
    fail "night 3: the killed daemon's item was not queued again twice: $(grep -i "died" "$T/d3.err")"
[ "$(nightly_runs)" = "$nruns" ] || fail "the resumed night ran a nightly run again"
[ "$(night_of 3 run_id)" = "$RUN3" ] || fail "night 3: its run is $(night_of 3 run_id), not $RUN3"
[ "$(grep -c "bisecting regression" "$T/d3.err")" = 1 ] ||
    fail "night 3: $(grep -c "bisecting regression" "$T/d3.err") bisects started"
R > "$T/r3.json"
[ "$(jq length "$T/r3.json")" = 1 ] || fail "night 3: $(cat "$T/r3.json")"
[ "$(jq -r '.[0].state' "$T/r3.json")" = culprit ] ||
    fail "night 3: record $(jq -c '.[0]' "$T/r3.json"); $(tail -5 "$T/d3.err")"
[ "$(jq -r '.[0].culprit' "$T/r3.json")" = r200131 ] ||
    fail "culprit $(jq -r '.[0].culprit' "$T/r3.json")"
[ "$(jq -r '.[0].link' "$T/r3.json")" = em ] || fail "link"
[ "$(jq -r '.[0].knobs' "$T/r3.json")" = "mtu=9000,tso=on" ] || fail "knobs"
[ "$(jq -r '.[0].good_revision + ".." + .[0].bad_revision' "$T/r3.json")" = \
    r200130..r200132 ] || fail "range $(jq -c '.[0]' "$T/r3.json")"
[ "$(jq -r '.[0].notified' "$T/r3.json")" = culprit ] || fail "not notified"
# The verdict per series: em's TSO on @ MTU 9000 regressed, the rest not.
night_of 3 verdicts > "$T/v3.json"
[ "$(jq -r '[.[] | "\(.link) \(.knobs) \(.verdict == "regression")"] | sort | join(";")' "$T/v3.json")" = \
    "bce mtu=9000,tso=off false;bce mtu=9000,tso=on false;em mtu=9000,tso=off false;em mtu=9000,tso=on true" ] ||
    fail "night 3 verdicts: $(cat "$T/v3.json")"
# The confirming re-run is a stored run (its note says so), done.
"$LABRAT" runs --db "$DB" --format json > "$T/runs.json"
[ "$(jq --argjson b "$before3" '[.runs[] | select(.kind == "nightly" and .id > $b
    and .note == "confirming re-run" and .state == "done")] | length' "$T/runs.json")" = 1 ] ||
    fail "no confirming re-run: $(jq -c '[.runs[] | {id, kind, state, note}]' "$T/runs.json")"
grep -q '"type": "ab", "knob": "tso"' "$DB.nights/regression-1-test.json" ||
    fail "not A/B on TSO: $(cat "$DB.nights/regression-1-test.json")"
"$LABRAT" bisect status --db "$DB" --format json > "$T/b.json"
[ "$(jq -r .bisect "$T/b.json")" = "$(jq -r '.[0].bisect_id' "$T/r3.json")" ] ||
    fail "bisect $(jq -c . "$T/b.json")"
[ "$(jq -r '.status + " " + .culprit.id' "$T/b.json")" = "found r200131" ] ||
    fail "bisect $(jq -c . "$T/b.json")"
# The bisect's steps, in order: the endpoints (r200130 good, r200132
# bad), the search (r200131 bad) and the verification of culprit and
# parent; each once (the step the kill cut short was measured again in
# its own row, not added twice), each by a run driven to its end.
[ "$(sq "$DB" "SELECT group_concat(revision || ' ' || verdict, ';') FROM
    (SELECT revision, verdict FROM bisect_steps ORDER BY seq)")" = \
    "r200130 good;r200132 bad;r200131 bad;r200131 bad;r200130 good" ] ||
    fail "bisect steps: $(sq "$DB" "SELECT seq, revision, verdict FROM bisect_steps ORDER BY seq" | tr '\n' ';')"
[ -z "$(sq "$DB" "SELECT s.seq FROM bisect_steps s JOIN runs r ON r.id = s.run_id WHERE r.state <> 'done'")" ] ||
    fail "bisect steps with a run not done: $(sq "$DB" "SELECT s.seq, r.id, r.state FROM bisect_steps s JOIN runs r ON r.id = s.run_id")"
# One webhook: the culprit's.
[ "$(ls "$T/hooks" | grep -c '\.body$')" = 1 ] || fail "webhooks: $(ls "$T/hooks")"
B=$(ls "$T/hooks"/*.body)
jq -e '.kind == "regression" and .culprit == "r200131" and .link == "em"' \
    "$B" >/dev/null || fail "webhook body: $(cat "$B")"
note "night 3: $(jq -r '.subject' "$B")"
# One mail, the same regression in the 0-day robot's words.
[ "$(ls "$T/mail" | grep -c '\.eml$')" = 1 ] || fail "mails: $(ls "$T/mail")"
M=$(ls "$T/mail"/*.eml)
grep -q '^Subject: \[labrat\] r200131: em iperf3 throughput -[0-9.]*% regression' "$M" ||
    fail "mail subject: $(grep -A1 '^Subject' "$M")"
for want in '^To: netdev@localhost' '^commit: r200131' '^parent: r200130' \
    '^verified: yes' '^To reproduce' '^Bisect log' 'first bad commit: \[r200131\]'; do
	tr -d '\r' < "$M" | grep -q "$want" || fail "mail lacks '$want': $(cat "$M")"
done

night_start 4
night_wait 4
stop 4
fired 4
R > "$T/r4.json"
[ "$(jq length "$T/r4.json")" = 1 ] || fail "night 4 opened a record: $(cat "$T/r4.json")"
[ "$(jq -r '.[0].last_night' "$T/r4.json")" = 4 ] || fail "night 4 did not join"
grep -q "joins record 1" "$T/d4.err" || fail "night 4: $(tail -5 "$T/d4.err")"
grep -q "bisecting" "$T/d4.err" && fail "night 4 bisected again"
grep -q "night [0-9]*: bce .*record" "$T/d3.err" "$T/d4.err" && fail "bce got a record"
[ "$(ls "$T/hooks" | grep -c '\.body$')" = 1 ] || fail "a second webhook"
[ "$(ls "$T/mail" | grep -c '\.eml$')" = 1 ] || fail "a second mail"

# --- across all four nights and both kills.
# No slot fired twice: one night row and one queue item per slot, the
# four slots of the four nights; one bisect.
[ "$(sq "$DB" "SELECT group_concat(slot) FROM (SELECT slot FROM nights ORDER BY slot)")" = \
    "$(slot 1),$(slot 2),$(slot 3),$(slot 4)" ] ||
    fail "nights: $(sq "$DB" "SELECT id, slot, state FROM nights")"
[ "$(sq "$DB" "SELECT count(*) || ' ' || count(DISTINCT slot) FROM queue_items WHERE kind = 'night'")" = "4 4" ] ||
    fail "night items: $(sq "$DB" "SELECT id, slot, state FROM queue_items WHERE kind = 'night'")"
[ "$(sq "$DB" "SELECT count(*) FROM nights WHERE state = 'done'")" = 4 ] ||
    fail "nights not done: $(sq "$DB" "SELECT id, state, reason FROM nights")"
[ "$(sq "$DB" "SELECT count(*) FROM bisects")" = 1 ] || fail "more than one bisect"
# No run left running by a killed daemon (a second run started for a
# night instead of resuming its first, say): each nightly run done; the
# bisect step the kill cut short cancelled (measured again in a new run),
# and so a health check a SIGTERM stopped.
[ -z "$(sq "$DB" "SELECT id FROM runs WHERE state NOT IN ('done', 'cancelled') OR (kind = 'nightly' AND state <> 'done')")" ] ||
    fail "runs left: $(sq "$DB" "SELECT id, kind, state, note FROM runs WHERE state <> 'done'")"
[ "$(sq "$DB" "SELECT count(*) FROM runs WHERE kind = 'bisect' AND state = 'cancelled'")" -le 1 ] ||
    fail "bisect runs cancelled: $(sq "$DB" "SELECT id, state FROM runs WHERE kind = 'bisect'")"
# One sample per job: every run's done jobs one throughput sample each,
# the others none; each nightly run's series its 5 repetitions, once each.
for r in $(sq "$DB" "SELECT id FROM runs"); do
	check_samples "$DB" "$r"
done
dup=$(sq "$DB" "SELECT j.run_id || ' ' || j.link || ' ' || j.knobs || ' ' || count(*)
    FROM jobs j JOIN runs r ON r.id = j.run_id AND r.kind = 'nightly'
    WHERE j.state = 'done' GROUP BY j.run_id, j.link, j.knobs
    HAVING count(*) <> 5 OR count(DISTINCT j.repetition) <> 5")
[ -z "$dup" ] || fail "nightly series without 5 repetitions, once each (run link knobs n): $dup"
# Hosts restored: TSO on, MTU 1500, nothing the agent still holds.
check_links_restored
note "4 nights through the daemon, one regression record (culprit r200131), $(( $(now_ms) - t0 )) ms"

# --- the shared store fixture (nightly_store): only now that all passed.
if [ -n "${LABRAT_NIGHTLY_FIXTURE:-}" ]; then
	F=$LABRAT_NIGHTLY_FIXTURE
	mkdir -p "$(dirname "$F")" || fail "mkdir $(dirname "$F")"
	rm -rf "$F.tmp$$" "$F.nights.tmp$$" "$F.nights.old$$"
	sqlite3 "$DB" ".backup '$F.tmp$$'" || fail "fixture: backup to $F.tmp$$"
	cp -r "$DB.nights" "$F.nights.tmp$$" || fail "fixture: copy $DB.nights"
	[ -e "$F.nights" ] && mv "$F.nights" "$F.nights.old$$"
	mv "$F.nights.tmp$$" "$F.nights" && mv "$F.tmp$$" "$F" ||
	    fail "fixture: rename into $F"
	rm -rf "$F.nights.old$$"
	note "store fixture: $F"
fi
echo "PASS night_serve"
