/*
 * test_lab_nightly: what `labrat demo --nightly` waits for is the
 * regression's notification, not the first one: the sinks' files of a bad
 * link's health check (X-Labrat-Kind: pair-bad, "kind":"pair-bad") come
 * first and are passed over, the regression's mail and webhook (the 2nd
 * files) are found; nothing is found while only the first exist.  (The
 * demo_dashboard test of session 8 ended at such a first mail.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lab.h"
#include "tmpdir_fixture.h"

static void
put(const char *dir, const char *name, const char *text)
{
	char	 p[512];
	FILE	*fp;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	assert_non_null(fp = fopen(p, "w"));
	fputs(text, fp);
	fclose(fp);
}

static void
test_regression_not_first(void **state)
{
	struct lab_night	n;
	char			mail[512], hook[512];

	(void)state;
	memset(&n, 0, sizeof n);
	assert_int_equal(fx_tmpdir(n.dir, sizeof n.dir, "nightly"), 0);
	snprintf(mail, sizeof mail, "%s/mail", n.dir);
	snprintf(hook, sizeof hook, "%s/hooks", n.dir);
	assert_int_equal(mkdir(mail, 0700), 0);
	assert_int_equal(mkdir(hook, 0700), 0);
	assert_int_equal(lab_night_mailed(&n), 0);
	assert_int_equal(lab_night_hooked(&n), 0);
	put(mail, "1.eml", "Date: Wed, 02 Dec 2026 07:37:08 +0000\r\n"
	    "Subject: [labrat] em: health check failed, no jobs until it "
	    "passes\r\nX-Labrat-Kind: pair-bad\r\n\r\nregression\r\n");
	put(hook, "1.body", "{\"version\":1,\"kind\":\"pair-bad\","
	    "\"subject\":\"regression\"}");
	assert_int_equal(lab_night_mailed(&n), 0);
	assert_int_equal(lab_night_hooked(&n), 0);
	assert_string_equal(n.mail, "");
	put(mail, "2.eml", "Date: Wed, 02 Dec 2026 07:38:08 +0000\r\n"
	    "Subject: [labrat] r200140: em iperf3 throughput -18.2% "
	    "regression\r\nX-Labrat-Kind: regression\r\n\r\nGreeting,\r\n");
	put(hook, "2.body", "{\"version\":1,\"kind\":\"regression\"}");
	assert_int_equal(lab_night_mailed(&n), 1);
	assert_int_equal(lab_night_hooked(&n), 1);
	snprintf(mail + strlen(mail), sizeof mail - strlen(mail), "/2.eml");
	snprintf(hook + strlen(hook), sizeof hook - strlen(hook), "/2.body");
	assert_string_equal(n.mail, mail);
	assert_string_equal(n.hook, hook);
	fx_rmtree(n.dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regression_not_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
