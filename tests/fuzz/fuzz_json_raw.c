/*
 * fuzz_json_raw: controller/json.h's raw-text pass json_check_raw() on
 * any bytes (its result and message shape), then the writer against it:
 * the input written as a key and as a string value by json_put_strn()
 * must always pass the raw pass (the writer escapes everything, invalid
 * UTF-8 included, so what labrat writes it can read back).
 */
#include "fuzz.h"
#include "json.h"

static void
check_raw(const uint8_t *data, size_t size)
{
	char		 err[512];
	const char	*b;
	int		 rc;

	err[0] = '\0';
	rc = json_check_raw((const char *)data, size, err, sizeof err);
	FUZZ_CHECK(rc == JSON_RAW_OK || rc == JSON_RAW_REJECTED ||
	    rc == JSON_RAW_SYNTAX, "rc %d", rc);
	FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL, "err unterminated");
	if (rc == JSON_RAW_OK)
		return;
	FUZZ_CHECK(err[0] != '\0', "rc %d without a reason", rc);
	/*
	 * "... (line L, byte B)" with B inside the text (or at its end).  The
	 * message may quote the input (a key, a path) and so hold "byte "
	 * itself: the offset is the last one.
	 */
	b = NULL;
	for (const char *p = err; (p = strstr(p, "byte ")) != NULL; p++)
		b = p;
	if (b != NULL && strlen(err) < sizeof err - 1)
		FUZZ_CHECK(strtoull(b + 5, NULL, 10) <= size,
		    "offset past the text: %s", err);
}

static void
check_writer(const uint8_t *data, size_t size)
{
	struct json_writer	*w;
	FILE			*fp;
	char			*out = NULL, *key;
	size_t			 outlen = 0;
	char			 err[512];
	int			 rc;

	if ((key = strndup((const char *)data, size)) == NULL ||
	    (fp = open_memstream(&out, &outlen)) == NULL) {
		free(key);
		return;
	}
	w = json_writer_new(fp, size % 2 ? JSON_PRETTY : 0);
	json_begin_obj(w);
	json_key(w, key);
	json_put_strn(w, (const char *)data, size);
	json_key(w, key[0] == 'x' ? "y" : "x");
	json_begin_arr(w);
	json_put_str(w, key);
	json_end_arr(w);
	json_end_obj(w);
	rc = json_writer_free(w, err, sizeof err);
	fclose(fp);
	FUZZ_CHECK(rc == 0, "writer: %s", err);
	rc = json_check_raw(out, outlen, err, sizeof err);
	FUZZ_CHECK(rc == JSON_RAW_OK, "the writer wrote what the raw pass "
	    "refuses: %s\n%s", err, out);
	free(out);
	free(key);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_raw(data, size);
	check_writer(data, size);
	return 0;
}
