/*
 * test_host_survey: host_survey() against a real sshd
 * (tests/unit/sshd_fixture.h): every host of an inventory reached in
 * parallel, an inventory NIC the host does not list as physical (lo)
 * asked for by name, a host that cannot be reached failing alone with its
 * error; the declared-vs-reported comparison; the survey's JSON form.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "sshd_fixture.h"

#include "agentctl.h"
#include "config.h"
#include "host.h"
#include "ssh.h"
#include "util.h"

static struct sshd_fixture fx;

/* libssh2 1.10's ECDSA leak, see test_ssh.c; not hit here, kept alike. */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:CRYPTO_zalloc\n";
}

/* Hosts fx-a and fx-b, both the fixture's sshd at 127.0.0.1:port with
 * known_hosts kh (fx-a at port_a, fx-b at port_b), and a link l between
 * their lo; fx-b declares driver em for its lo. */
static struct config_inventory *
inventory(int port_a, int port_b, const char *kh)
{
	struct config_inventory	*inv;
	struct config_errors	 e;
	char			*text;
	size_t			 i;

	text = fx_inventory_text(&fx, port_a, kh, port_b, kh, "em");
	assert_non_null(text);
	config_errors_init(&e);
	inv = config_inventory_parse("/tmp/test_host_survey.json", text, strlen(text),
	    &e);
	for (i = 0; i < e.n; i++)
		print_message("inventory: %s\n", e.msgs[i]);
	config_errors_free(&e);
	free(text);
	assert_non_null(inv);
	return inv;
}

static void
test_survey_all(void **state)
{
	struct config_inventory		*inv = inventory(fx.port, fx.port,
					    fx.known_hosts);
	struct host_survey		*res;
	const struct agentctl_nic	*lo;
	char				*buf = NULL;
	size_t				 len = 0, i;
	char				 err[256];
	FILE				*fp;

	(void)state;
	assert_int_equal(host_survey(inv, NULL, &res), 0);
	for (i = 0; i < 2; i++) {
		if (!res[i].ok)
			fail_msg("%s: %s", inv->hosts[i].name, res[i].err);
		assert_ptr_equal(res[i].host, &inv->hosts[i]);
		assert_string_equal(res[i].facts.u.facts.os, "linux");
		assert_non_null(res[i].deploy.path[0] != '\0' ?
		    res[i].deploy.path : NULL);
		lo = host_survey_nic(&res[i].facts.u.facts, "lo");
		assert_non_null(lo);
		assert_null(host_survey_nic(&res[i].facts.u.facts, "nope0"));
	}
	/* fx-a declares lo's own driver, fx-b claims em. */
	lo = host_survey_nic(&res[0].facts.u.facts, "lo");
	if (strcmp(lo->driver, "lo") == 0)
		assert_false(host_nic_driver_differs(&inv->hosts[0].nics[0],
		    lo));
	assert_true(host_nic_driver_differs(&inv->hosts[1].nics[0],
	    host_survey_nic(&res[1].facts.u.facts, "lo")));

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(host_survey_json(res, inv->nhosts, fp, err,
	    sizeof err), 0);
	fclose(fp);
	assert_non_null(strstr(buf, "\"hosts\""));
	assert_non_null(strstr(buf, "\"fx-b\""));
	assert_non_null(strstr(buf, "\"declared_driver\":\"em\""));
	assert_non_null(strstr(buf, "\"mismatch\":true"));
	free(buf);
	host_survey_free(res, inv->nhosts);
	config_inventory_free(inv);
}

static void
test_survey_one_fails(void **state)
{
	struct config_inventory	*inv;
	struct host_survey	*res;
	int			 port;

	(void)state;
	for (port = fx.port + 1; !fx_port_free(port); port++)
		;
	inv = inventory(fx.port, port, fx.known_hosts);
	assert_int_equal(host_survey(inv, NULL, &res), 1);
	if (!res[0].ok)
		fail_msg("fx-a: %s", res[0].err);
	assert_false(res[1].ok);
	print_message("unreachable: %s\n", res[1].err);
	assert_true(strncmp(res[1].err, "fx-b: ", 6) == 0);
	assert_non_null(strstr(res[1].err, "refused"));
	host_survey_free(res, inv->nhosts);
	host_survey_free(NULL, 0);
	config_inventory_free(inv);
}

/* The comparison alone: a driver compared exactly, a chip without case,
 * nothing declared no mismatch. */
static void
test_differs(void **state)
{
	struct config_nic	cn;
	struct agentctl_nic	n;

	(void)state;
	memset(&cn, 0, sizeof cn);
	memset(&n, 0, sizeof n);
	snprintf(n.driver, sizeof n.driver, "em");
	snprintf(n.chip, sizeof n.chip, "0x10968086");
	assert_false(host_nic_driver_differs(&cn, &n));
	assert_false(host_nic_chip_differs(&cn, &n));
	cn.driver = "igb";
	cn.chip = "0X10968086";
	assert_true(host_nic_driver_differs(&cn, &n));
	assert_false(host_nic_chip_differs(&cn, &n));
	cn.driver = "em";
	cn.chip = "0x153a8086";
	assert_false(host_nic_driver_differs(&cn, &n));
	assert_true(host_nic_chip_differs(&cn, &n));
}

static int
group_setup(void **state)
{
	(void)state;
	if (fx_setup(&fx) != 0) {
		fx_teardown(&fx);
		return -1;
	}
	ssh_global_init();
	return 0;
}

static int
group_teardown(void **state)
{
	(void)state;
	fx_teardown(&fx);
	ssh_global_cleanup();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differs),
		cmocka_unit_test(test_survey_all),
		cmocka_unit_test(test_survey_one_fails),
	};

	if (access("/usr/sbin/sshd", X_OK) != 0) {
		fprintf(stderr, "test_host_survey: no /usr/sbin/sshd\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
