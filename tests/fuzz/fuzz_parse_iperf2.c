/* fuzz_parse_iperf2: agents/parse.h parse_iperf2() on any bytes. */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_iperf(parse_iperf2, data, size);
	return 0;
}
