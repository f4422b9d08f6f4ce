/*
 * test_notify: the texts.  The exact subjects of every kind and outcome;
 * the mail's headers (RFC 5322 fields, CRLF everywhere, no line past 998
 * octets, folding) and body sections; header injection through every
 * field and the addresses; dots, control characters and long lines in
 * the body; the webhook JSON parsed back with json-c, its escaping, and
 * checked against schemas/webhook.schema.json (required members, types,
 * enums, no member the schema does not know).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "json.h"
#include "notify.h"

#define WHEN	((time_t)1796134746)	/* Tue, 01 Dec 2026 14:19:06 UTC */

static const char *const to2[] = { "Dev One <dev1@lab.invalid>",
    "dev2@lab.invalid", NULL };

static struct notify_msg
sample(void)
{
	struct notify_msg	m;

	memset(&m, 0, sizeof m);
	m.kind = NOTIFY_REGRESSION;
	m.regression_id = 12;
	m.bisect_id = 3;
	m.link = "em-ab";
	m.client = "em-a";
	m.server = "em-b";
	m.driver = "em";
	m.chip = "0x10968086";
	m.workload = "iperf3";
	m.metric = "throughput";
	m.unit = "Mbit/s";
	m.knobs = "TSO on, MTU 9000";
	m.change = -0.177;
	m.parent_median = 933.1;
	m.culprit_median = 768.0;
	m.n_parent = 10;
	m.n_culprit = 12;
	m.p = 0.0002;
	m.culprit = "r200140";
	m.culprit_msg = "em(4): use TSO with jumbo frames";
	m.parent = "r200139";
	m.verified = 1;
	m.outcome = "culprit";
	m.reproduce = "labrat lab up --at r200140\n"
	    "labrat bisect start --good r200139 --bad r200140 --link em-ab\n";
	m.bisect_log = "# labrat bisect log\ngood r200100\nbad r200160\n"
	    "bad r200140\ngood r200139\n";
	return m;
}

static void
subject_is(const struct notify_msg *m, const char *want)
{
	char	s[NOTIFY_SUBJECT_MAX + 1];

	assert_int_equal(notify_subject(m, s, sizeof s), 0);
	assert_string_equal(s, want);
}

static void
test_subjects(void **state)
{
	struct notify_msg	m = sample();
	char			small[8];

	(void)state;
	subject_is(&m, "[labrat] r200140: em iperf3 throughput -17.7% "
	    "regression (TSO on, MTU 9000)");
	m.outcome = "range";
	m.range_first = "r200138";
	m.range_last = "r200140";
	subject_is(&m, "[labrat] r200138..r200140: em iperf3 throughput "
	    "-17.7% regression (TSO on, MTU 9000)");
	m.outcome = "failed";
	subject_is(&m, "[labrat] em-ab: em iperf3 throughput -17.7% "
	    "regression, bisect failed (TSO on, MTU 9000)");
	m = sample();
	m.kind = NOTIFY_FIXED;
	m.outcome = "fixed";
	m.culprit = "r200150";
	m.change = -0.004;
	subject_is(&m, "[labrat] r200150: em iperf3 throughput regression "
	    "fixed, now -0.4% (TSO on, MTU 9000)");
	m.kind = NOTIFY_PAIR_BAD;
	subject_is(&m, "[labrat] em-ab: health check failed, no jobs until it "
	    "passes");
	m = sample();
	m.knobs = NULL;
	m.change = 0.052;
	subject_is(&m, "[labrat] r200140: em iperf3 throughput +5.2% "
	    "regression");
	m.change = 0.0 / 0.0;
	subject_is(&m, "[labrat] r200140: em iperf3 throughput regression");
	assert_int_equal(notify_subject(&m, small, sizeof small), -1);
}

/* s with every CRLF a space: wrapped paragraphs as one line (heap). */
static char *
flat(const char *s)
{
	char	*o = strdup(s), *p;

	while ((p = strstr(o, "\r\n")) != NULL) {
		*p = ' ';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
	return o;
}

/* The header section (up to the empty line) of a message. */
static char *
headers(const char *mail)
{
	const char	*e = strstr(mail, "\r\n\r\n");

	assert_non_null(e);
	return strndup(mail, (size_t)(e - mail) + 2);
}

/* Every line ends in CRLF, none is longer than 998 octets. */
static void
lines_ok(const char *mail)
{
	const char	*p = mail, *nl;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		assert_true(nl > p && nl[-1] == '\r');
		assert_null(memchr(p, '\r', (size_t)(nl - p - 1)));
		assert_true(nl - p - 1 <= 998);
		p = nl + 1;
	}
}

/* Every header line is a continuation or one of ours. */
static void
headers_ok(const char *hdr)
{
	static const char *const names[] = { "Date:", "From:", "To:",
	    "Subject:", "Message-ID:", "MIME-Version:", "Content-Type:",
	    "Content-Transfer-Encoding:", "X-Labrat-Kind:",
	    "X-Labrat-Regression:", "X-Labrat-Bisect:", "X-Labrat-Link:" };
	const char	*p = hdr;
	size_t		 i;
	int		 seen[sizeof names / sizeof names[0]] = { 0 };

	for (; *p != '\0'; p = strchr(p, '\n') + 1) {
		if (*p == ' ')
			continue;
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			if (strncmp(p, names[i], strlen(names[i])) == 0)
				break;
		if (i == sizeof names / sizeof names[0])
			fail_msg("unexpected header line: %.60s", p);
		assert_int_equal(seen[i]++, 0);
		assert_true(strcspn(p, "\r") <= 78 || strchr(p, ' ') == NULL ||
		    strncmp(p, "Message-ID:", 11) == 0);
	}
	for (i = 0; i < 8; i++)
		assert_int_equal(seen[i], 1);
}

static void
test_mail(void **state)
{
	struct notify_msg	 m = sample();
	char			*mail, *hdr, *body, *fl;

	(void)state;
	mail = notify_mail_text_at(&m, "labrat <labrat@lab.invalid>", to2,
	    WHEN, "ctl.lab.invalid");
	assert_non_null(mail);
	lines_ok(mail);
	hdr = headers(mail);
	headers_ok(hdr);
	assert_non_null(strstr(hdr, "Date: Tue, 01 Dec 2026 14:19:06 +0000\r\n"));
	assert_non_null(strstr(hdr, "From: labrat <labrat@lab.invalid>\r\n"));
	assert_non_null(strstr(hdr, "To: Dev One <dev1@lab.invalid>, "
	    "dev2@lab.invalid\r\n"));
	assert_non_null(strstr(hdr, "Subject: [labrat] r200140: em iperf3 "
	    "throughput -17.7% regression (TSO on,\r\n MTU 9000)\r\n"));
	assert_non_null(strstr(hdr, "Message-ID: <labrat.regression.12.3."));
	assert_non_null(strstr(hdr, "@ctl.lab.invalid>\r\n"));
	assert_non_null(strstr(hdr, "MIME-Version: 1.0\r\n"));
	assert_non_null(strstr(hdr, "Content-Type: text/plain; charset=utf-8"
	    "\r\n"));
	assert_non_null(strstr(hdr, "Content-Transfer-Encoding: 8bit\r\n"));
	body = strstr(mail, "\r\n\r\n") + 4;
	fl = flat(body);
	assert_non_null(strstr(fl, "Greeting,  labrat's nightly run found a "
	    "-17.7% regression of iperf3 throughput on link em-ab (em-a -> "
	    "em-b, em, chip 0x10968086) with TSO on, MTU 9000.  commit:"));
	free(fl);
	assert_non_null(strstr(body, "\r\ncommit: r200140\r\n        em(4): use "
	    "TSO with jumbo frames\r\nparent: r200139\r\n"));
	assert_non_null(strstr(body, "  parent   r200139        median 933.1 "
	    "Mbit/s     n=10\r\n"));
	assert_non_null(strstr(body, "  culprit  r200140        median 768.0 "
	    "Mbit/s     n=12\r\n"));
	assert_non_null(strstr(body, "  change   -17.7%  (p = 0.0002)\r\n"));
	assert_non_null(strstr(body, "verified: yes (the culprit tested bad, "
	    "its parent good)\r\n"));
	assert_non_null(strstr(body, "Hosts\r\n  link:    em-ab\r\n"
	    "  client:  em-a\r\n  server:  em-b\r\n  driver:  em\r\n"
	    "  chip:    0x10968086\r\n"));
	assert_non_null(strstr(body, "Knobs\r\n  TSO on, MTU 9000\r\n"));
	assert_non_null(strstr(body, "To reproduce\r\n  labrat lab up --at "
	    "r200140\r\n  labrat bisect start --good r200139 --bad r200140 "
	    "--link em-ab\r\n\r\n"));
	assert_non_null(strstr(body, "Bisect log\r\n  # labrat bisect log\r\n"
	    "  good r200100\r\n"));
	assert_non_null(strstr(body, "\r\n-- \r\nlabrat regression robot: "
	    "regression 12, bisect 3\r\n"));
	free(hdr);
	free(mail);

	m.verified = 0;
	mail = notify_mail_text_at(&m, "labrat@lab.invalid", to2, WHEN, NULL);
	assert_non_null(strstr(mail, "verified: no (the endpoints were not "
	    "both re-measured)\r\n"));
	free(mail);
}

static void
test_mail_kinds(void **state)
{
	struct notify_msg	 m = sample();
	char			*mail, *fl;

	(void)state;
	m.outcome = "range";
	m.range_first = "r200138";
	m.range_last = "r200140";
	mail = notify_mail_text_at(&m, "a@b", to2, WHEN, NULL);
	lines_ok(mail);
	assert_non_null(strstr(mail, "a range, no single commit:\r\n"
	    "  first:  r200138\r\n  last:   r200140\r\n"));
	assert_non_null(strstr(mail, "verified: no (outcome range)\r\n"));
	free(mail);

	m = sample();
	m.kind = NOTIFY_FIXED;
	m.outcome = "fixed";
	m.culprit = "r200150";
	m.parent = "r200149";
	m.change = -0.004;
	mail = notify_mail_text_at(&m, "a@b", to2, WHEN, NULL);
	lines_ok(mail);
	assert_non_null(strstr(mail, "X-Labrat-Kind: fixed\r\n"));
	fl = flat(mail);
	assert_non_null(strstr(fl, "measured iperf3 throughput back within "
	    "the threshold at r200150, on link em-ab (em-a -> em-b, em, chip "
	    "0x10968086) with TSO on, MTU 9000: now -0.4% against the good "
	    "baseline. Regression 12 is closed as fixed."));
	free(fl);
	assert_non_null(strstr(mail, "  tonight  r200150"));
	free(mail);

	memset(&m, 0, sizeof m);
	m.kind = NOTIFY_PAIR_BAD;
	m.link = "bce-ab";
	m.client = "bce-a";
	m.server = "bce-b";
	m.health_why = "bce-b: ssh connect(198.18.1.3:22): Connection refused";
	mail = notify_mail_text_at(&m, "a@b", to2, WHEN, NULL);
	lines_ok(mail);
	fl = headers(mail);
	headers_ok(fl);
	free(fl);
	assert_non_null(strstr(mail, "Subject: [labrat] bce-ab: health check "
	    "failed, no jobs until it passes\r\n"));
	assert_non_null(strstr(mail, "health check of link bce-ab (bce-a ->"));
	assert_non_null(strstr(mail, "\r\n\r\n  bce-b: ssh connect(198.18.1.3"
	    ":22): Connection refused\r\n"));
	fl = flat(mail);
	assert_non_null(strstr(fl, "The link is now \"bad\": it gets no jobs "
	    "and its runs are left out of detection until a health check "
	    "passes"));
	free(fl);
	assert_non_null(strstr(mail, "  driver:  -\r\n"));
	assert_null(strstr(mail, "Knobs"));
	assert_non_null(strstr(mail, "\r\n-- \r\nlabrat regression robot"
	    "\r\n"));
	free(mail);
}

static void
test_injection(void **state)
{
	struct notify_msg	 m = sample();
	static const char *const evil_to[] = { "x@y\r\nBcc: evil@z",
	    "\nSubject: spoofed", NULL };
	char			 longk[600], *mail, *hdr, *subj, *e;

	(void)state;
	m.knobs = "TSO on\r\nBcc: evil@z";
	m.culprit = "r1\nX-Evil: 1";
	m.driver = "em\r\n\r\nbody-start";
	m.link = "em-ab\rX-Link: 2";
	mail = notify_mail_text_at(&m, "me@x\r\nBcc: evil@z", evil_to, WHEN,
	    "h\r\nX-Id: 3");
	lines_ok(mail);
	hdr = headers(mail);
	headers_ok(hdr);
	assert_null(strstr(hdr, "\nBcc:"));
	assert_null(strstr(hdr, "\nX-Evil"));
	assert_null(strstr(hdr, "\nX-Link"));
	assert_null(strstr(hdr, "\nX-Id"));
	assert_non_null(strstr(hdr, "Subject: [labrat] r1 X-Evil: 1: em body-"
	    "start iperf3"));
	assert_non_null(strstr(hdr, "From: me@x Bcc: evil@z\r\n"));
	free(hdr);
	free(mail);

	/* A long subject: folded, cut at NOTIFY_SUBJECT_MAX with "...". */
	memset(longk, 'k', sizeof longk - 1);
	longk[sizeof longk - 1] = '\0';
	for (size_t i = 10; i < sizeof longk - 1; i += 11)
		longk[i] = ' ';
	m = sample();
	m.knobs = longk;
	mail = notify_mail_text_at(&m, "a@b", to2, WHEN, NULL);
	lines_ok(mail);
	hdr = headers(mail);
	headers_ok(hdr);
	subj = strstr(hdr, "Subject: ") + 9;
	e = strstr(subj, "\r\nMessage-ID:");
	assert_non_null(e);
	*e = '\0';
	assert_non_null(strstr(subj, "\r\n "));	/* folded */
	assert_true(strlen(subj) - 3 * 2 <= NOTIFY_SUBJECT_MAX + 2);
	assert_string_equal(subj + strlen(subj) - 3, "...");
	free(hdr);
	free(mail);
}

static void
test_body_safety(void **state)
{
	struct notify_msg	 m = sample();
	char			*big, *mail, *body, *p;
	size_t			 n = 5000;

	(void)state;
	big = malloc(n + 64);
	memset(big, 'x', n);
	strcpy(big + n, "\n.\n..two\n.\r\n\tTab\n");
	m.culprit_msg = "\x1b[31mred\x1b[0m\n.";
	m.bisect_log = big;
	m.reproduce = ".\nlabrat run";
	mail = notify_mail_text_at(&m, "a@b", to2, WHEN, NULL);
	lines_ok(mail);
	body = strstr(mail, "\r\n\r\n") + 4;
	/* no body line starts with a dot: no sendmail stops at a lone "." */
	for (p = body; *p != '\0'; p = strchr(p, '\n') + 1)
		assert_int_not_equal(*p, '.');
	assert_non_null(strstr(body, "\\x1b[31mred\\x1b[0m"));
	assert_null(strchr(body, '\x1b'));
	assert_non_null(strstr(body, "\r\n  ..two\r\n"));
	assert_non_null(strstr(body, "\r\n          Tab\r\n"));
	free(mail);
	free(big);
}

/* ---- webhook JSON -------------------------------------------------------- */

static json_object *
load_schema(void)
{
	const char	*src = getenv("LABRAT_SOURCE_DIR");
	char		 path[4096];
	json_object	*s;

	assert_non_null(src);
	snprintf(path, sizeof path, "%s/schemas/webhook.schema.json", src);
	s = json_object_from_file(path);
	assert_non_null(s);
	return s;
}

static int
type_is(json_object *v, const char *t)
{
	enum json_type	jt = json_object_get_type(v);

	if (strcmp(t, "null") == 0)
		return jt == json_type_null;
	if (strcmp(t, "string") == 0)
		return jt == json_type_string;
	if (strcmp(t, "integer") == 0)
		return jt == json_type_int;
	if (strcmp(t, "number") == 0)
		return jt == json_type_int || jt == json_type_double;
	if (strcmp(t, "boolean") == 0)
		return jt == json_type_boolean;
	if (strcmp(t, "array") == 0)
		return jt == json_type_array;
	return 0;
}

/* One member against its schema: type (one or a list), enum, const. */
static void
member_ok(const char *key, json_object *v, json_object *ps)
{
	json_object	*t, *en;
	size_t		 i;
	int		 ok = 0;

	if (json_object_object_get_ex(ps, "type", &t)) {
		if (json_object_is_type(t, json_type_string))
			ok = type_is(v, json_object_get_string(t));
		else
			for (i = 0; i < json_object_array_length(t); i++)
				ok |= type_is(v, json_object_get_string(
				    json_object_array_get_idx(t, i)));
		if (!ok)
			fail_msg("%s: type %s, schema wants %s", key,
			    json_type_to_name(json_object_get_type(v)),
			    json_object_to_json_string(t));
	}
	if (json_object_object_get_ex(ps, "enum", &en)) {
		for (i = 0, ok = 0; i < json_object_array_length(en); i++)
			ok |= json_object_equal(v,
			    json_object_array_get_idx(en, i));
		if (!ok)
			fail_msg("%s: %s not in the schema's enum", key,
			    json_object_to_json_string(v));
	}
	if (json_object_object_get_ex(ps, "const", &en) &&
	    !json_object_equal(v, en))
		fail_msg("%s: not the schema's const", key);
}

/* Parses text (after the raw pass) and checks it against the schema. */
static json_object *
check_json(const char *text)
{
	json_object	*o, *schema, *req, *props, *ps, *v;
	size_t		 i;
	char		 err[256];

	assert_int_equal(json_check_raw(text, strlen(text), err, sizeof err),
	    JSON_RAW_OK);
	assert_null(strchr(text, '\n'));
	o = json_tokener_parse(text);
	assert_non_null(o);
	schema = load_schema();
	assert_true(json_object_object_get_ex(schema, "required", &req));
	assert_true(json_object_object_get_ex(schema, "properties", &props));
	for (i = 0; i < json_object_array_length(req); i++) {
		const char *k = json_object_get_string(
		    json_object_array_get_idx(req, i));

		if (!json_object_object_get_ex(o, k, &v))
			fail_msg("required member %s missing", k);
	}
	json_object_object_foreach(o, key, val) {
		if (!json_object_object_get_ex(props, key, &ps))
			fail_msg("member %s is not in the schema", key);
		member_ok(key, val, ps);
	}
	json_object_put(schema);
	return o;
}

static const char *
jstr(json_object *o, const char *k)
{
	json_object	*v;

	assert_true(json_object_object_get_ex(o, k, &v));
	return json_object_is_type(v, json_type_null) ? NULL :
	    json_object_get_string(v);
}

static void
test_webhook(void **state)
{
	struct notify_msg	 m = sample();
	json_object		*o, *v;
	char			*j;

	(void)state;
	j = notify_webhook_json(&m);
	assert_non_null(j);
	o = check_json(j);
	assert_string_equal(jstr(o, "kind"), "regression");
	assert_string_equal(jstr(o, "subject"), "[labrat] r200140: em iperf3 "
	    "throughput -17.7% regression (TSO on, MTU 9000)");
	assert_string_equal(jstr(o, "link"), "em-ab");
	assert_string_equal(jstr(o, "chip"), "0x10968086");
	assert_string_equal(jstr(o, "culprit_msg"), m.culprit_msg);
	assert_string_equal(jstr(o, "reproduce"), m.reproduce);
	assert_string_equal(jstr(o, "bisect_log"), m.bisect_log);
	assert_null(jstr(o, "range_first"));
	assert_null(jstr(o, "health_why"));
	json_object_object_get_ex(o, "change", &v);
	assert_true(json_object_get_double(v) == -0.177);
	json_object_object_get_ex(o, "p", &v);
	assert_true(json_object_get_double(v) == 0.0002);
	json_object_object_get_ex(o, "n_culprit", &v);
	assert_int_equal(json_object_get_int(v), 12);
	json_object_object_get_ex(o, "regression_id", &v);
	assert_int_equal(json_object_get_int64(v), 12);
	json_object_object_get_ex(o, "verified", &v);
	assert_true(json_object_get_boolean(v));
	json_object_object_get_ex(o, "commands", &v);
	assert_int_equal(json_object_array_length(v), 2);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
	    v, 1)), "labrat bisect start --good r200139 --bad r200140 --link "
	    "em-ab");
	json_object_put(o);
	free(j);
}

static void
test_webhook_escaping(void **state)
{
	struct notify_msg	 m;
	json_object		*o, *v;
	char			*j;

	(void)state;
	memset(&m, 0, sizeof m);
	m.kind = NOTIFY_PAIR_BAD;
	m.link = "a\"b\\c";
	m.health_why = "line1\nline2\t\x01\x1b end \xc0\xaf bad utf-8 \xe2\x80\xa8";
	m.culprit_msg = "\"}, \"kind\": \"fixed";
	m.change = 0.0 / 0.0;	/* NaN: null */
	j = notify_webhook_json(&m);
	assert_non_null(j);
	o = check_json(j);
	assert_string_equal(jstr(o, "kind"), "pair-bad");
	assert_string_equal(jstr(o, "link"), "a\"b\\c");
	assert_string_equal(jstr(o, "culprit_msg"), m.culprit_msg);
	assert_non_null(strstr(jstr(o, "health_why"), "line1\nline2\t\x01\x1b "
	    "end \xef\xbf\xbd"));
	assert_non_null(strstr(j, "\\u2028"));
	json_object_object_get_ex(o, "change", &v);
	assert_true(json_object_is_type(v, json_type_null));
	json_object_object_get_ex(o, "p", &v);
	assert_true(json_object_is_type(v, json_type_null));
	assert_null(jstr(o, "outcome"));
	assert_null(jstr(o, "workload"));
	json_object_object_get_ex(o, "regression_id", &v);
	assert_true(json_object_is_type(v, json_type_null));
	json_object_put(o);
	free(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_mail),
		cmocka_unit_test(test_mail_kinds),
		cmocka_unit_test(test_injection),
		cmocka_unit_test(test_body_safety),
		cmocka_unit_test(test_webhook),
		cmocka_unit_test(test_webhook_escaping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
