/* fuzz_parse_iperf3_stream: agents/parse.h parse_iperf3_stream() on any bytes. */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_iperf(parse_iperf3_stream, data, size);
	return 0;
}
