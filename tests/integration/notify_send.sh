#!/bin/sh
# `labrat notify test` against real listeners, no lab: smtpsink and
# hooksink (tests/tools/) on 127.0.0.1 receive the sample regression mail
# and webhook, both checked for content (CRLF mail with the exact subject,
# the envelope, a body line by line; the JSON valid for
# schemas/webhook.schema.json under a real Draft 2020-12 validator); a
# sendmail command records its stdin and argv (no shell in between); a
# webhook answering 503 and a refused SMTP port fail with exit 1, the
# error naming each failed target while the other one is still delivered.
set -eu
: "${LABRAT:?}" "${LABRAT_SOURCE_DIR:?}" "${LABRAT_SMTPSINK:?}" "${LABRAT_HOOKSINK:?}"
PY=/usr/bin/python3
"$PY" -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null ||
	{ echo "notify_send: python3-jsonschema missing" >&2; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/lr-notify-XXXXXX")
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "notify_send: FAIL: $*" >&2; exit 1; }
# run WANT CMD...: CMD's output in $dir/out, its status must be WANT
run() {
	want=$1; shift
	set +e
	"$@" >"$dir/out" 2>&1
	got=$?
	set -e
	[ "$got" -eq "$want" ] || { cat "$dir/out" >&2; fail "$* exited $got, want $want"; }
}
has() { grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "no \"$2\" in $1"; }; }

# start_sink NAME TOOL [ARGS]: TOOL in the background, its port in $port
start_sink() {
	name=$1; tool=$2; shift 2
	mkdir "$dir/$name"
	"$tool" --dir "$dir/$name" --lifetime 120 "$@" >"$dir/$name.port" &
	pids="$pids $!"
	i=0
	while [ ! -s "$dir/$name.port" ]; do
		i=$((i + 1))
		[ "$i" -le 50 ] || fail "$tool printed no port"
		sleep 0.1
	done
	port=$(cat "$dir/$name.port")
}

validate() {
	"$PY" - "$LABRAT_SOURCE_DIR/schemas/webhook.schema.json" "$1" <<'EOF'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
doc = json.loads(open(sys.argv[2], encoding="utf-8").read())
errs = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
for e in errs:
    print("%s: %s" % ("/".join(map(str, e.absolute_path)), e.message))
sys.exit(1 if errs else 0)
EOF
}

start_sink smtp "$LABRAT_SMTPSINK"; smtp_port=$port
start_sink hook "$LABRAT_HOOKSINK"; hook_port=$port
cat >"$dir/daemon.json" <<EOF
{
  "inventories": ["$dir/inventory.json"],
  "notify": {
    "webhooks": [ { "url": "http://127.0.0.1:$hook_port/labrat", "timeout_s": 5 } ],
    "mail": { "smtp": "smtp://127.0.0.1:$smtp_port", "from": "labrat@lab.invalid",
              "to": ["netdev@lab.invalid", "dev2@lab.invalid"], "timeout_s": 5 }
  }
}
EOF
run 0 "$LABRAT" notify test --config "$dir/daemon.json"
has "$dir/out" "sample regression notification delivered to 2 targets"

# the webhook: POSTed as JSON, valid for the schema, the sample's figures
[ -s "$dir/hook/1.body" ] || fail "hooksink stored no body"
has "$dir/hook/1.head" "POST /labrat HTTP/1.1"
has "$dir/hook/1.head" "Content-Type: application/json"
validate "$dir/hook/1.body" || fail "webhook body not valid for the schema"
has "$dir/hook/1.body" '"kind":"regression"'
has "$dir/hook/1.body" '"subject":"[labrat] r200140: em iperf3 throughput -17.7% regression (TSO on, MTU 9000)"'
has "$dir/hook/1.body" '"change":-0.177'
has "$dir/hook/1.body" '"verified":true'

# the mail: envelope, CRLF everywhere, headers, body sections
eml=$dir/smtp/1.eml
[ -s "$eml" ] || fail "smtpsink stored no message"
head -1 "$dir/smtp/1.env" | grep -q '^MAIL FROM:<labrat@lab.invalid>' || fail "envelope sender"
has "$dir/smtp/1.env" "RCPT TO:<netdev@lab.invalid>"
has "$dir/smtp/1.env" "RCPT TO:<dev2@lab.invalid>"
[ "$(grep -c "$(printf '\r')\$" "$eml")" -eq "$(wc -l <"$eml")" ] || fail "a mail line without CRLF"
tr -d '\r' <"$eml" >"$dir/mail.txt"
has "$dir/mail.txt" "Subject: [labrat] r200140: em iperf3 throughput -17.7% regression (TSO on,
 MTU 9000)"
for h in "From: labrat@lab.invalid" "To: netdev@lab.invalid, dev2@lab.invalid" \
    "MIME-Version: 1.0" "Content-Type: text/plain; charset=utf-8" \
    "Content-Transfer-Encoding: 8bit" "Message-ID: <labrat.regression.1.1." "Date: "; do
	has "$dir/mail.txt" "$h"
done
for l in "commit: r200140" "parent: r200139" "  change   -17.7%  (p = 0.00016)" \
    "verified: yes (the culprit tested bad, its parent good)" "  chip:    0x10968086" \
    "Knobs" "To reproduce" "  labrat bisect start --inventory inventory.json --link em-ab" \
    "Bisect log" "  bad r200140"; do
	has "$dir/mail.txt" "$l"
done

# --dry-run: the same JSON on its last line, nothing sent
run 0 "$LABRAT" notify test --config "$dir/daemon.json" --dry-run --kind fixed
tail -1 "$dir/out" >"$dir/dry.json"
validate "$dir/dry.json" || fail "--dry-run JSON not valid for the schema"
has "$dir/dry.json" '"kind":"fixed"'
[ ! -e "$dir/hook/2.body" ] || fail "--dry-run sent a webhook"

# sendmail: argv as configured (no shell), the message on stdin with LF lines
cat >"$dir/sendmail" <<EOF
#!/bin/sh
cat >"$dir/sendmail.in"
printf '%s\n' "\$@" >"$dir/sendmail.args"
EOF
chmod +x "$dir/sendmail"
cat >"$dir/daemon-sm.json" <<EOF
{
  "inventories": ["$dir/inventory.json"],
  "notify": { "mail": { "sendmail": ["$dir/sendmail", "-i", "-t", "a b;c"],
                        "from": "labrat@lab.invalid", "to": ["ops@lab.invalid"] } }
}
EOF
run 0 "$LABRAT" notify test --config "$dir/daemon-sm.json" --kind pair-bad
printf -- '-i\n-t\na b;c\n' | cmp -s - "$dir/sendmail.args" || fail "sendmail argv: $(cat "$dir/sendmail.args")"
grep -q "$(printf '\r')" "$dir/sendmail.in" && fail "CR in sendmail's stdin"
has "$dir/sendmail.in" "Subject: [labrat] em-ab: health check failed, no jobs until it passes"
has "$dir/sendmail.in" "To: ops@lab.invalid"
has "$dir/sendmail.in" "  em-b: ssh connect(198.18.0.3:22): Connection refused"

# failures are named by target; the other target is still delivered
start_sink hook503 "$LABRAT_HOOKSINK" --status 503; bad_port=$port
dead=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$dir/daemon-bad.json" <<EOF
{
  "inventories": ["$dir/inventory.json"],
  "notify": {
    "webhooks": [ { "url": "http://127.0.0.1:$bad_port/down", "timeout_s": 5 },
                  { "url": "http://127.0.0.1:$hook_port/ok", "timeout_s": 5 } ],
    "mail": { "smtp": "smtp://127.0.0.1:$dead", "from": "labrat@lab.invalid",
              "to": ["netdev@lab.invalid"], "timeout_s": 5 }
  }
}
EOF
run 1 "$LABRAT" notify test --config "$dir/daemon-bad.json"
has "$dir/out" "2 of 3 notification targets failed"
has "$dir/out" "webhook http://127.0.0.1:$bad_port/down: HTTP 503"
has "$dir/out" "smtp smtp://127.0.0.1:$dead: "
grep -qF "/ok" "$dir/out" && fail "the delivered webhook is named as failed"
has "$dir/hook/2.head" "POST /ok HTTP/1.1"
echo "PASS: notify_send"
