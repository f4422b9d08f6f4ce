/*
 * util_sha256: SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), and a
 * constant-time comparison, for the API's tokens (http_token.c): a token's
 * secret is stored only as HMAC-SHA256(salt, secret).  Written from the
 * standards; one-shot functions over a buffer in memory, no heap.
 */
#include <stdint.h>
#include <string.h>

#include "util.h"

#define SHA256_BLOCK	64

struct sha256 {
	uint32_t	h[8];
	uint8_t		block[SHA256_BLOCK];
	size_t		fill;		/* bytes in block */
	uint64_t	total;		/* message bytes so far */
};

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b,
	0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
	0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7,
	0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
	0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
	0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
	0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
	0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z)	(((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z)	(((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))
#define BSIG0(x)	(ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x)	(ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x)	(ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x)	(ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))

static void
sha256_init(struct sha256 *s)
{
	/* FIPS 180-4 5.3.3: square roots of the first 8 primes. */
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(s->h, iv, sizeof iv);
	s->fill = 0;
	s->total = 0;
}

/* FIPS 180-4 6.2.2: one 512-bit block into the state. */
static void
sha256_block(struct sha256 *s, const uint8_t *p)
{
	uint32_t	w[64], a, b, c, d, e, f, g, h, t1, t2;
	int		i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		    (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = SSIG1(w[i - 2]) + w[i - 7] + SSIG0(w[i - 15]) +
		    w[i - 16];
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + BSIG1(e) + CH(e, f, g) + sha256_k[i] + w[i];
		t2 = BSIG0(a) + MAJ(a, b, c);
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void
sha256_update(struct sha256 *s, const void *data, size_t len)
{
	const uint8_t	*p = data;
	size_t		 n;

	s->total += len;
	while (len > 0) {
		n = SHA256_BLOCK - s->fill;
		if (n > len)
			n = len;
		memcpy(s->block + s->fill, p, n);
		s->fill += n;
		p += n;
		len -= n;
		if (s->fill == SHA256_BLOCK) {
			sha256_block(s, s->block);
			s->fill = 0;
		}
	}
}

/* FIPS 180-4 5.1.1: a 1 bit, zeros, then the length in bits (64 bits). */
static void
sha256_final(struct sha256 *s, uint8_t out[32])
{
	uint64_t	bits = s->total * 8;
	int		i;

	s->block[s->fill++] = 0x80;
	if (s->fill > SHA256_BLOCK - 8) {
		memset(s->block + s->fill, 0, SHA256_BLOCK - s->fill);
		sha256_block(s, s->block);
		s->fill = 0;
	}
	memset(s->block + s->fill, 0, SHA256_BLOCK - 8 - s->fill);
	for (i = 0; i < 8; i++)
		s->block[SHA256_BLOCK - 1 - i] = (uint8_t)(bits >> (8 * i));
	sha256_block(s, s->block);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (uint8_t)(s->h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
		out[4 * i + 3] = (uint8_t)s->h[i];
	}
	memset(s, 0, sizeof *s);
}

void
util_sha256(const void *data, size_t len, uint8_t out[32])
{
	struct sha256	s;

	sha256_init(&s);
	sha256_update(&s, data, len);
	sha256_final(&s, out);
}

/* RFC 2104: H(K ^ opad, H(K ^ ipad, text)), a key longer than a block
 * hashed first. */
void
util_hmac_sha256(const void *key, size_t klen, const void *msg, size_t mlen,
    uint8_t out[32])
{
	struct sha256	s;
	uint8_t		k[SHA256_BLOCK], pad[SHA256_BLOCK], inner[32];
	size_t		i;

	memset(k, 0, sizeof k);
	if (klen > SHA256_BLOCK)
		util_sha256(key, klen, k);
	else if (klen > 0)
		memcpy(k, key, klen);
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&s);
	sha256_update(&s, pad, sizeof pad);
	sha256_update(&s, msg, mlen);
	sha256_final(&s, inner);
	for (i = 0; i < SHA256_BLOCK; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&s);
	sha256_update(&s, pad, sizeof pad);
	sha256_update(&s, inner, sizeof inner);
	sha256_final(&s, out);
	memset(k, 0, sizeof k);
	memset(pad, 0, sizeof pad);
	memset(inner, 0, sizeof inner);
}

int
util_ct_equal(const void *a, const void *b, size_t n)
{
	const volatile uint8_t	*x = a, *y = b;
	uint8_t			 d = 0;
	size_t			 i;

	/* Every byte is looked at whatever differs: no early exit whose
	 * timing would tell a caller how much of a guess was right. */
	for (i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}
