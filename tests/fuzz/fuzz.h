/*
 * fuzz.h: what the libFuzzer targets of tests/fuzz share.
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput() (and may define
 * LLVMFuzzerInitialize()): it feeds the input, exactly size bytes with no
 * NUL after them, to one parser and checks what the parser promises in its
 * header (results within their documented limits, an error message on
 * every failure, nothing left allocated).  A broken promise calls
 * fuzz_fail(), which aborts, so libFuzzer -- or replay.c, the gcc driver
 * that replays the seed corpus in the normal and ASan builds -- reports it
 * as a crash with the input that caused it.
 */
#ifndef LABRAT_FUZZ_H
#define LABRAT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int	LLVMFuzzerInitialize(int *argc, char ***argv);

#define fuzz_fail(...) do {						\
	fprintf(stderr, "%s:%d: fuzz check failed: ", __FILE__, __LINE__); \
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

#define FUZZ_CHECK(cond, ...) do {					\
	if (!(cond))							\
		fuzz_fail(__VA_ARGS__);					\
} while (0)

/* An err buffer after a call: NUL-terminated inside it and, after a
 * failure (rc == -1), not empty. */
#define FUZZ_ERR(rc, err) do {						\
	FUZZ_CHECK(memchr((err), '\0', sizeof(err)) != NULL,		\
	    "err not NUL-terminated");					\
	FUZZ_CHECK((rc) != -1 || (err)[0] != '\0',			\
	    "failed without a reason");					\
} while (0)

#endif
