/*
 * fuzz_config_bisect: config_bisect_test_parse() on any bytes; a loaded
 * test is turned into its plan on each link of the FreeBSD lab example
 * (config_bisect_plan()): refused with a reason, or a plan that passes
 * the checks of any plan and round-trips.
 */
#include "fuzz_config.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct config_inventory	*inv = fuzz_inventory();
	struct config_errors		 errs;
	struct config_bisect_test	*t;
	struct config_plan		*plan;
	size_t				 i;

	config_errors_init(&errs);
	t = config_bisect_test_parse(FUZZ_CONFIG_DIR "/test.json",
	    (const char *)data, size, &errs);
	FUZZ_LOADED(t, &errs);
	if (t != NULL) {
		FUZZ_CHECK(t->metric != NULL, "no metric");
		fuzz_workload_ok(&t->workload);
		for (i = 0; i < inv->nlinks; i++) {
			/* A test's knobs may not suit a link (NAT without a
			 * NAT host): refused, with a reason. */
			plan = config_bisect_plan(t, inv->links[i].name, inv,
			    &errs);
			FUZZ_LOADED(plan, &errs);
			if (plan == NULL)
				break;
			fuzz_plan_ok(plan, inv);
			config_plan_free(plan);
		}
	}
	config_bisect_test_free(t);
	config_errors_free(&errs);
	return 0;
}
