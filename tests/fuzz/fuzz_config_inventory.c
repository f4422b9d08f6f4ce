/*
 * fuzz_config_inventory: config_inventory_parse() (and config_detect())
 * on any bytes; a loaded inventory is checked through fuzz_config.h.
 */
#include "fuzz_config.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config_errors		 errs;
	struct config_inventory		*inv;

	config_errors_init(&errs);
	(void)config_detect(FUZZ_CONFIG_DIR "/lab.json", (const char *)data,
	    size, &errs);
	config_errors_free(&errs);

	config_errors_init(&errs);
	inv = config_inventory_parse(FUZZ_CONFIG_DIR "/lab.json",
	    (const char *)data, size, &errs);
	FUZZ_LOADED(inv, &errs);
	if (inv != NULL)
		fuzz_inventory_ok(inv);
	config_inventory_free(inv);
	config_errors_free(&errs);
	return 0;
}
