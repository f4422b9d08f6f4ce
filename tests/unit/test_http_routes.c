/*
 * test_http_routes: the route table (http_route.c) against the OpenAPI
 * document schemas/openapi.json: every registered METHOD PATTERN is an
 * operation of the document (HEAD aside) with a 200/201 response and the
 * problem responses, and every operation of the document is registered,
 * so neither can drift from the other.  Then dispatch on the table
 * itself: 404 for an unknown path, 405 with Allow for a known path and
 * another method, the {id} segment handed to the route.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "http_int.h"
#include "util.h"

static struct json_object *
load_doc(void)
{
	const char		*src = getenv("LABRAT_SOURCE_DIR");
	struct json_object	*o;
	char			*p;

	assert_non_null(src);
	p = xasprintf("%s/schemas/openapi.json", src);
	o = json_object_from_file(p);
	if (o == NULL)
		print_error("%s: %s\n", p, json_util_get_last_err());
	assert_non_null(o);
	free(p);
	return o;
}

static void
test_table_is_documented(void **state)
{
	struct json_object	*doc = load_doc(), *paths, *item, *opn, *rs, *v;
	char			*text = http_routes_text(), *line, *save, *sp;
	char			 method[16];
	size_t			 i, nroutes = 0, nops = 0, nstatic = 0;

	(void)state;
	assert_true(json_object_object_get_ex(doc, "openapi", &v));
	assert_string_equal(json_object_get_string(v), "3.1.0");
	assert_true(json_object_object_get_ex(doc, "paths", &paths));
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		sp = strchr(line, ' ');
		assert_non_null(sp);
		*sp = '\0';
		/* The dashboard's files (/, /ui/...) are not the API: the
		 * README documents them, openapi.json does not. */
		if (strncmp(sp + 1, "/api/v1/", 8) != 0) {
			assert_true(strcmp(sp + 1, "/") == 0 ||
			    strncmp(sp + 1, "/ui/", 4) == 0);
			assert_string_equal(line, "GET");
			nstatic++;
			continue;
		}
		snprintf(method, sizeof method, "%s", line);
		for (i = 0; method[i] != '\0'; i++)
			method[i] = (char)(method[i] - 'A' + 'a');
		if (!json_object_object_get_ex(paths, sp + 1, &item) ||
		    !json_object_object_get_ex(item, method, &opn)) {
			print_error("route %s %s is not in openapi.json\n",
			    line, sp + 1);
			fail();
		}
		assert_true(json_object_object_get_ex(opn, "responses", &rs));
		assert_true(json_object_object_get_ex(rs, "200", NULL) ||
		    json_object_object_get_ex(rs, "201", NULL) ||
		    json_object_object_get_ex(rs, "202", NULL));
		assert_true(json_object_object_get_ex(rs, "400", NULL));
		assert_true(json_object_object_get_ex(rs, "401", NULL));
		nroutes++;
	}
	json_object_object_foreach(paths, path, it) {
		json_object_object_foreach(it, m, o) {
			(void)o;
			for (i = 0; http_routes[i].method != NULL; i++)
				if (strcmp(http_routes[i].pattern, path) == 0 &&
				    strcasecmp(http_routes[i].method, m) == 0)
					break;
			if (http_routes[i].method == NULL) {
				print_error("openapi.json documents %s %s, "
				    "which is not registered\n", m, path);
				fail();
			}
			nops++;
		}
	}
	assert_int_equal(nroutes, nops);
	assert_true(nroutes >= 15);
	assert_int_equal(nstatic, 3);
	free(text);
	json_object_put(doc);
}

static const struct http_route *
find(struct http_req *req, const char *method, const char *target,
    struct http_res *res)
{
	char	err[256];

	memset(req, 0, sizeof *req);
	memset(res, 0, sizeof *res);
	req->method = method;
	assert_int_equal(http_uri_parse(target, strlen(target), &req->uri,
	    err, sizeof err), 0);
	return http_route_find(req, res);
}

static void
test_dispatch(void **state)
{
	struct http_req		*req = calloc(1, sizeof *req);
	struct http_res		 res;
	const struct http_route	*r;

	(void)state;
	r = find(req, "GET", "/api/v1/runs/42/jobs?limit=3", &res);
	assert_non_null(r);
	assert_string_equal(r->pattern, "/api/v1/runs/{id}/jobs");
	assert_int_equal(req->nvar, 1);
	assert_string_equal(req->var[0], "42");
	assert_int_equal(r->mutation, 0);
	r = find(req, "HEAD", "/api/v1/status", &res);
	assert_non_null(r);
	r = find(req, "DELETE", "/api/v1/queue/7", &res);
	assert_non_null(r);
	assert_int_equal(r->mutation, 1);

	/* the dashboard's catch-all: one or more segments after /ui */
	r = find(req, "GET", "/ui/vendor/uPlot.min.css", &res);
	assert_non_null(r);
	assert_string_equal(r->pattern, "/ui/{path...}");
	assert_string_equal(req->var[0], "vendor");
	assert_true(HTTP_ROUTE_OPEN(r));
	r = find(req, "GET", "/ui", &res);
	assert_non_null(r);
	assert_string_equal(r->pattern, "/ui/");
	r = find(req, "GET", "/", &res);
	assert_non_null(r);
	assert_string_equal(r->pattern, "/");
	r = find(req, "GET", "/api/v1/session", &res);
	assert_non_null(r);
	assert_false(HTTP_ROUTE_OPEN(r));
	assert_null(find(req, "POST", "/ui/index.html", &res));
	assert_int_equal(res.status, 405);
	free(res.body);
	assert_null(find(req, "GET", "/uix/a", &res));
	assert_int_equal(res.status, 404);
	free(res.body);

	assert_null(find(req, "GET", "/api/v1/nosuch", &res));
	assert_int_equal(res.status, 404);
	assert_non_null(strstr(res.body, "\"status\":404"));
	free(res.body);
	assert_null(find(req, "GET", "/api/v1/runs/1/jobs/2", &res));
	assert_int_equal(res.status, 404);
	free(res.body);
	assert_null(find(req, "PUT", "/api/v1/queue", &res));
	assert_int_equal(res.status, 405);
	assert_string_equal(res.allow, "GET, POST");
	free(res.body);
	assert_null(find(req, "GET", "/api/v1/queue/3", &res));
	assert_int_equal(res.status, 405);
	assert_string_equal(res.allow, "DELETE");
	free(res.body);
	free(req);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_is_documented),
		cmocka_unit_test(test_dispatch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
