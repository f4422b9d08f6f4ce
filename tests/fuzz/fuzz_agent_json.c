/*
 * fuzz_agent_json: the agent's own JSON reader (agents/json.h) on any
 * bytes: parse, then walk every value of the document through each
 * accessor, and look a few dotted paths up.
 */
#include "fuzz.h"
#include "json.h"

static void
walk(const struct json_value *v, int depth)
{
	const struct json_value	*c;
	double			 d;
	size_t			 n = 0;

	FUZZ_CHECK(depth <= JSON_MAX_DEPTH + 1, "depth %d", depth);
	(void)json_number(v, &d);
	(void)json_string(v);
	(void)json_bool(v);
	if (json_type(v) != JSON_ARRAY && json_type(v) != JSON_OBJECT)
		return;
	for (c = json_first(v); c != NULL; c = json_next(c)) {
		if (json_type(v) == JSON_OBJECT) {
			FUZZ_CHECK(json_key(c) != NULL, "member without key");
			FUZZ_CHECK(json_get(v, json_key(c)) != NULL,
			    "member %s not found by key", json_key(c));
		}
		walk(c, depth + 1);
		n++;
	}
	FUZZ_CHECK(n == json_len(v), "walked %zu of %zu", n, json_len(v));
	(void)json_at(v, n);
	if (n > 0)
		FUZZ_CHECK(json_at(v, n - 1) != NULL, "last element missing");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_doc	*doc;
	char		 err[512];

	err[0] = '\0';
	doc = json_doc_parse((const char *)data, size, err, sizeof err);
	FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL, "err unterminated");
	if (doc == NULL) {
		FUZZ_CHECK(err[0] != '\0', "failed without a reason");
		return 0;
	}
	walk(json_doc_root(doc), 0);
	(void)json_path(json_doc_root(doc), "end.sum_sent.bytes");
	(void)json_path(json_doc_root(doc), "start.version");
	json_doc_free(doc);
	return 0;
}
