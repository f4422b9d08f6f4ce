/*
 * fuzz_agentctl_session: agentctl_sess_parse() (the controller's reading of
 * the agent's `session`) on any bytes, with and without a hello expected,
 * fed whole and in pieces of the size the first byte says.  A complete
 * answer must account for every byte and stay within the ceilings; a
 * refusal must say why (or be an overflow); nothing reads past the data.
 */
#include "agentctl.h"
#include "agentctl_int.h"
#include "fuzz.h"
#include "util.h"

static void
one(const uint8_t *data, size_t size, size_t step, int hello)
{
	struct agentctl_sess_parse	p;
	struct buf			in;
	size_t				i, n;
	int				r = 0;

	memset(&p, 0, sizeof p);
	p.hash = "0123456789abcdef";
	p.want_hello = hello;
	p.out_max = 4096;
	p.err_max = 512;
	buf_init(&in, 8192);
	for (i = 0; i < size && r == 0; i += n) {
		n = size - i < step ? size - i : step;
		if (buf_append(&in, data + i, n) == -1)
			break;
		r = agentctl_sess_parse(&in, &p);
	}
	FUZZ_CHECK(r >= -1 && r <= 1, "r %d", r);
	if (r == 1) {
		FUZZ_CHECK(p.body + p.outlen + p.errlen == in.len,
		    "answer does not account for the bytes");
		FUZZ_CHECK(p.outlen <= p.out_max && p.errlen <= p.err_max,
		    "past the ceilings");
		FUZZ_CHECK(!hello || p.hello_seen, "answer without hello");
		FUZZ_CHECK((p.exit_status == -1) == (p.sig[0] != '\0'),
		    "exit %d with signal \"%s\"", p.exit_status, p.sig);
	}
	if (r == -1)
		FUZZ_CHECK(p.overflow || p.why[0] != '\0', "refused, no why");
	buf_free(&in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t	step = size > 0 ? (size_t)data[0] % 64 + 1 : 1;

	one(data, size, size > 0 ? size : 1, 0);
	one(data, size, size > 0 ? size : 1, 1);
	one(data, size, step, 0);
	one(data, size, step, 1);
	return 0;
}
