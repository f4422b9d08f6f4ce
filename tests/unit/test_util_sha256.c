/*
 * test_util_sha256: util_sha256() against the FIPS 180-2 / NIST example
 * messages ("", "abc", the 448-bit two-block message, one million 'a'),
 * the padding boundaries (55, 56, 63, 64, 119, 120 bytes: one or two extra
 * blocks), util_hmac_sha256() against RFC 4231 test cases 1-4, 6 and 7
 * (short, long and larger-than-a-block keys), and util_ct_equal().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util.h"

static void
hex(const uint8_t d[32], char out[65])
{
	int	i;

	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void
sha_is(const void *msg, size_t len, const char *want)
{
	uint8_t	d[32];
	char	h[65];

	util_sha256(msg, len, d);
	hex(d, h);
	assert_string_equal(h, want);
}

static void
test_sha256_nist(void **state)
{
	const char	*m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlm"
	    "nomnopnopq";
	char		*million;

	(void)state;
	sha_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca4959"
	    "91b7852b855");
	sha_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb41"
	    "0ff61f20015ad");
	assert_int_equal(strlen(m448) * 8, 448);
	sha_is(m448, strlen(m448), "248d6a61d20638b8e5c026930c3e6039a33ce459"
	    "64ff2167f6ecedd419db06c1");
	million = malloc(1000000);
	assert_non_null(million);
	memset(million, 'a', 1000000);
	sha_is(million, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a4"
	    "97200e046d39ccc7112cd0");
	free(million);
}

static void
test_sha256_padding(void **state)
{
	static const struct {
		size_t		 n;
		const char	*want;
	} cases[] = {
		{ 55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989"
		    "fac77e4072" },
		{ 56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a"
		    "377c16888e" },
		{ 63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48"
		    "d89776d6f2" },
		{ 64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd621"
		    "9506b5393c" },
		{ 119, "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029"
		    "e0d9fa5fb0c" },
		{ 120, "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37"
		    "308b276ba98" },
	};
	char	msg[128];
	size_t	i;

	(void)state;
	memset(msg, 'x', sizeof msg);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		sha_is(msg, cases[i].n, cases[i].want);
}

static void
hmac_is(const void *key, size_t klen, const void *msg, size_t mlen,
    const char *want)
{
	uint8_t	d[32];
	char	h[65];

	util_hmac_sha256(key, klen, msg, mlen, d);
	hex(d, h);
	assert_string_equal(h, want);
}

static void
test_hmac_rfc4231(void **state)
{
	uint8_t		key[131], data[50];
	const char	*t6 = "Test Using Larger Than Block-Size Key - Hash Key "
	    "First";
	const char	*t7 = "This is a test using a larger than block-size key "
	    "and a larger than block-size data. The key needs to be hashed "
	    "before being used by the HMAC algorithm.";
	int		i;

	(void)state;
	/* 1: a 20-byte key. */
	memset(key, 0x0b, 20);
	hmac_is(key, 20, "Hi There", 8, "b0344c61d8db38535ca8afceaf0bf12b881d"
	    "c200c9833da726e9376c2e32cff7");
	/* 2: a key shorter than the output. */
	hmac_is("Jefe", 4, "what do ya want for nothing?", 28, "5bdcc146bf6075"
	    "4e6a042426089575c75a003f089d2739839dec58b964ec3843");
	/* 3: 50 bytes of data. */
	memset(key, 0xaa, 20);
	memset(data, 0xdd, 50);
	hmac_is(key, 20, data, 50, "773ea91e36800e46854db8ebd09181a72959098b3"
	    "ef8c122d9635514ced565fe");
	/* 4: a 25-byte key 0x01..0x19. */
	for (i = 0; i < 25; i++)
		key[i] = (uint8_t)(i + 1);
	memset(data, 0xcd, 50);
	hmac_is(key, 25, data, 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e"
	    "578f8077a2e3ff46729665b");
	/* 6 and 7: a 131-byte key, hashed first. */
	memset(key, 0xaa, 131);
	hmac_is(key, 131, t6, strlen(t6), "60e431591ee0b67f0d8a26aacbf5b77f8e"
	    "0bc6213728c5140546040f0ee37f54");
	hmac_is(key, 131, t7, strlen(t7), "9b09ffa71b942fcb27635fbcd5b0e944bf"
	    "dc63644f0713938a7f51535c3a35e2");
}

static void
test_ct_equal(void **state)
{
	uint8_t	a[32], b[32];
	size_t	i;

	(void)state;
	memset(a, 0x5a, sizeof a);
	memcpy(b, a, sizeof b);
	assert_int_equal(util_ct_equal(a, b, sizeof a), 1);
	assert_int_equal(util_ct_equal(a, b, 0), 1);
	/* A difference anywhere, in any bit, is seen. */
	for (i = 0; i < sizeof a; i++) {
		b[i] ^= (uint8_t)(1u << (i % 8));
		assert_int_equal(util_ct_equal(a, b, sizeof a), 0);
		b[i] = a[i];
	}
	assert_int_equal(util_ct_equal("abc", "abd", 2), 1);
	assert_int_equal(util_ct_equal("abc", "abd", 3), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_nist),
		cmocka_unit_test(test_sha256_padding),
		cmocka_unit_test(test_hmac_rfc4231),
		cmocka_unit_test(test_ct_equal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
