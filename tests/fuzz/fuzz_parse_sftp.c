/* fuzz_parse_sftp: agents/parse.h parse_sftp_ls_size(), the scp
 * workload's check of the copy (sftp `ls -ln`), on any bytes. */
#include "fuzz_parse.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "/tmp/labrat-scp-7.bin",
	    "labrat-scp-7.bin", "/" };
	uint64_t	bytes;
	char		err[512];
	size_t		i;
	int		rc;

	for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		err[0] = '\0';
		rc = parse_sftp_ls_size((const char *)data, size, paths[i],
		    &bytes, err, sizeof err);
		FUZZ_ERR(rc, err);
	}
	return 0;
}
