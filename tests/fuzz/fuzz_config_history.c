/* fuzz_config_history: config_history_parse() (a simulated lab's history
 * file) on any bytes. */
#include "fuzz_config.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config_errors	  errs;
	char			**ids = NULL, **msgs = NULL;
	size_t			  i, n = 0;
	int			  rc;

	config_errors_init(&errs);
	rc = config_history_parse(FUZZ_CONFIG_DIR "/history.json",
	    (const char *)data, size, &ids, &msgs, &n, &errs);
	FUZZ_CHECK((rc == 0) == (errs.n + errs.dropped == 0),
	    "rc %d with %zu errors", rc, errs.n + errs.dropped);
	if (rc == 0) {
		FUZZ_CHECK(ids != NULL && msgs != NULL, "NULL lists");
		for (i = 0; i < n; i++)
			FUZZ_CHECK(ids[i] != NULL && msgs[i] != NULL &&
			    config_valid_revision(ids[i]),
			    "revisions[%zu]", i);
		FUZZ_CHECK(ids[n] == NULL && msgs[n] == NULL,
		    "lists not NULL-terminated");
	}
	config_argv_free(ids);
	config_argv_free(msgs);
	config_errors_free(&errs);
	return 0;
}
