/*
 * test_config_schema: keeps the JSON Schemas in schemas/ and the C loader
 * honest about keys.  Every object the schemas define with "properties" must be
 * closed ("additionalProperties": false), list exactly the keys the loader
 * accepts for the object of that name (config_schema_keys()), and require
 * only keys it lists; every object the loader knows must be in a schema.
 * (tests/integration/config_schema.sh compares values with a validator.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "config.h"
#include "util.h"

static struct json_object *
load_schema(const char *name)
{
	struct json_object	*o;
	const char		*src = getenv("LABRAT_SOURCE_DIR");
	char			*p;

	assert_non_null(src);
	p = xasprintf("%s/schemas/%s", src, name);
	o = json_object_from_file(p);
	if (o == NULL)
		print_error("%s: %s\n", p, json_util_get_last_err());
	assert_non_null(o);
	free(p);
	return o;
}

static int
in_list(const char *const *list, const char *s)
{
	size_t	i;

	for (i = 0; list[i] != NULL; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

/* Checks one $defs entry against the loader; returns 1 if it is an object. */
static int
check_def(const char *schema, const char *name, struct json_object *def)
{
	struct json_object	*props, *addl, *req;
	const char *const	*keys;
	size_t			 i, n = 0;

	if (!json_object_object_get_ex(def, "properties", &props))
		return 0;
	keys = config_schema_keys(name);
	if (keys == NULL) {
		print_error("%s: $defs/%s has properties but the loader knows "
		    "no object of that name\n", schema, name);
		fail();
	}
	if (!json_object_object_get_ex(def, "additionalProperties", &addl) ||
	    !json_object_is_type(addl, json_type_boolean) ||
	    json_object_get_boolean(addl)) {
		print_error("%s: $defs/%s is not closed\n", schema, name);
		fail();
	}
	json_object_object_foreach(props, k, v) {
		(void)v;
		if (!in_list(keys, k)) {
			print_error("%s: $defs/%s.%s is not accepted by the "
			    "loader\n", schema, name, k);
			fail();
		}
		n++;
	}
	for (i = 0; keys[i] != NULL; i++) {
		if (!json_object_object_get_ex(props, keys[i], NULL)) {
			print_error("%s: the loader accepts %s.%s, the schema "
			    "does not\n", schema, name, keys[i]);
			fail();
		}
	}
	assert_int_equal(n, i);
	if (json_object_object_get_ex(def, "required", &req)) {
		for (i = 0; i < json_object_array_length(req); i++)
			assert_true(in_list(keys, json_object_get_string(
			    json_object_array_get_idx(req, i))));
	}
	return 1;
}

static void
test_keys_agree(void **state)
{
	const char		*files[] = { "inventory.schema.json",
				    "plan.schema.json" };
	const char *const	*objs = config_schema_objects();
	struct json_object	*schemas[2], *defs, *d, *v;
	size_t			 f, i, nobj = 0, found;

	(void)state;
	for (f = 0; f < 2; f++) {
		schemas[f] = load_schema(files[f]);
		assert_true(json_object_object_get_ex(schemas[f], "$schema",
		    &v));
		assert_string_equal(json_object_get_string(v),
		    "https://json-schema.org/draft/2020-12/schema");
		assert_true(json_object_object_get_ex(schemas[f], "$defs",
		    &defs));
		json_object_object_foreach(defs, name, def)
			nobj += (size_t)check_def(files[f], name, def);
	}
	for (i = 0; objs[i] != NULL; i++) {
		found = 0;
		for (f = 0; f < 2; f++) {
			json_object_object_get_ex(schemas[f], "$defs", &defs);
			if (json_object_object_get_ex(defs, objs[i], &d))
				found++;
		}
		if (found != 1) {
			print_error("loader object %s is defined %zu times in "
			    "the schemas\n", objs[i], found);
			fail();
		}
	}
	/* Each loader object was checked from the schema side too. */
	assert_int_equal(nobj, i);
	assert_null(config_schema_keys("nonsense"));
	for (f = 0; f < 2; f++)
		json_object_put(schemas[f]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
