/* fuzz_parse_iperf3_text: agents/parse.h parse_iperf3_text() on any bytes. */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_iperf(parse_iperf3_text, data, size);
	return 0;
}
