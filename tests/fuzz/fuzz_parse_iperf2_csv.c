/* fuzz_parse_iperf2_csv: agents/parse.h parse_iperf2_csv() on any bytes. */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_iperf(parse_iperf2_csv, data, size);
	return 0;
}
