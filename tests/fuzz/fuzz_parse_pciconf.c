/* fuzz_parse_pciconf: agents/parse.h parse_pciconf() and
 * parse_pciconf_find() on any bytes. */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct parse_pciconf	pc;	/* ~105 KB */
	const struct parse_pcidev	*d;
	char				err[512];
	size_t				i;
	int				rc;

	err[0] = '\0';
	rc = parse_pciconf((const char *)data, size, &pc, err, sizeof err);
	FUZZ_ERR(rc, err);
	if (rc != 0)
		return 0;
	FUZZ_CHECK(pc.ndevs <= PARSE_MAX_PCIDEVS, "ndevs %zu", pc.ndevs);
	for (i = 0; i < pc.ndevs; i++) {
		d = &pc.devs[i];
		FUZZ_CHECK(memchr(d->name, '\0', sizeof d->name) != NULL &&
		    memchr(d->driver, '\0', sizeof d->driver) != NULL &&
		    memchr(d->vendor, '\0', sizeof d->vendor) != NULL &&
		    memchr(d->device, '\0', sizeof d->device) != NULL &&
		    memchr(d->selector, '\0', sizeof d->selector) != NULL &&
		    memchr(d->class_name, '\0', sizeof d->class_name) != NULL &&
		    memchr(d->subclass, '\0', sizeof d->subclass) != NULL,
		    "devs[%zu]: string not terminated", i);
		FUZZ_CHECK(parse_pciconf_find(&pc, d->name) != NULL,
		    "devs[%zu] %s not found by name", i, d->name);
	}
	(void)parse_pciconf_find(&pc, "em0");
	return 0;
}
