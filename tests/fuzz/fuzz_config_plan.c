/*
 * fuzz_config_plan: config_plan_parse() on any bytes, alone and against
 * the FreeBSD lab example inventory; a loaded plan must round-trip through
 * config_plan_json() (fuzz_config.h).
 */
#include "fuzz_config.h"

static void
one(const uint8_t *data, size_t size, const struct config_inventory *inv)
{
	struct config_errors	 errs;
	struct config_plan	*plan;

	config_errors_init(&errs);
	plan = config_plan_parse(FUZZ_CONFIG_DIR "/plan.json",
	    (const char *)data, size, inv, &errs);
	FUZZ_LOADED(plan, &errs);
	if (plan != NULL)
		fuzz_plan_ok(plan, inv);
	config_plan_free(plan);
	config_errors_free(&errs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, NULL);
	one(data, size, fuzz_inventory());
	return 0;
}
