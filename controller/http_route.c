/*
 * http_route: the route table (method + pattern -> handler), its dispatch
 * (404, 405 with Allow) and the response helpers every handler uses: JSON
 * problem objects {"error": "...", "status": N} and JSON bodies written
 * with the json module on a memstream.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_int.h"
#include "json.h"
#include "util.h"

const struct http_route http_routes[] = {
	{ "GET", "/api/v1/status", http_res_status, 0 },
	{ "GET", "/api/v1/runs", http_res_runs, 0 },
	{ "GET", "/api/v1/runs/{id}", http_res_run, 0 },
	{ "GET", "/api/v1/runs/{id}/jobs", http_res_run_jobs, 0 },
	{ "GET", "/api/v1/runs/{id}/report", http_res_run_report, 0 },
	{ "GET", "/api/v1/jobs/{id}", http_res_job, 0 },
	{ "GET", "/api/v1/jobs/{id}/samples", http_res_job_samples, 0 },
	{ "GET", "/api/v1/jobs/{id}/raw", http_res_job_raw, 0 },
	{ "GET", "/api/v1/queue", http_res_queue, 0 },
	{ "POST", "/api/v1/queue", http_res_queue_add, 1 },
	{ "DELETE", "/api/v1/queue/{id}", http_res_queue_cancel, 1 },
	{ "GET", "/api/v1/hosts", http_res_hosts, 0 },
	{ "POST", "/api/v1/hosts/{link}/maintenance", http_res_maintenance, 1 },
	{ "GET", "/api/v1/schedules", http_res_schedules, 0 },
	{ "POST", "/api/v1/schedules", http_res_schedule_add, 1 },
	{ "DELETE", "/api/v1/schedules/{name}", http_res_schedule_rm, 1 },
	{ "POST", "/api/v1/schedules/{name}/enable", http_res_schedule_enable,
	    1 },
	{ "POST", "/api/v1/schedules/{name}/disable",
	    http_res_schedule_disable, 1 },
	{ "GET", "/api/v1/schedules/{name}", http_res_schedule, 0 },
	{ "GET", "/api/v1/bisects", http_res_bisects, 0 },
	{ "POST", "/api/v1/bisects", http_res_bisect_start, 1 },
	{ "GET", "/api/v1/bisects/{id}", http_res_bisect, 0 },
	{ "POST", "/api/v1/bisects/{id}/reset", http_res_bisect_reset, 1 },
	{ "GET", "/api/v1/bisects/{id}/log", http_res_bisect_log, 0 },
	{ "GET", "/api/v1/nights", http_res_nights, 0 },
	{ "GET", "/api/v1/series/keys", http_res_series_keys, 0 },
	{ "GET", "/api/v1/series", http_res_series, 0 },
	{ "GET", "/api/v1/nights/{id}", http_res_night, 0 },
	{ "GET", "/api/v1/hosts/{link}/health", http_res_host_health, 0 },
	{ "POST", "/api/v1/session", http_res_session_new, 0 },
	{ "GET", "/api/v1/session", http_res_session_get, 0 },
	{ "DELETE", "/api/v1/session", http_res_session_end, 0 },
	/* The dashboard (http_static.c), outside /api/v1: no auth. */
	{ "GET", "/", http_res_root, 0 },
	{ "GET", "/ui/", http_res_ui, 0 },
	{ "GET", "/ui/{path...}", http_res_ui, 0 },
	{ "GET", "/api/v1/compare", http_res_compare, 0 },
	{ NULL, NULL, NULL, 0 }
};

int
http_body_take(struct http_res *res, int status, char *text, size_t len)
{
	free(res->body);
	res->body = text;
	res->len = len;
	res->status = status;
	return 0;
}

void
http_res_header(struct http_res *res, const char *name, const char *fmt, ...)
{
	va_list	ap;

	if (res->nhdr == HTTP_HDRS_MAX)
		return;
	res->hdr[res->nhdr].name = name;
	va_start(ap, fmt);
	vsnprintf(res->hdr[res->nhdr].value, sizeof res->hdr[0].value, fmt,
	    ap);
	va_end(ap);
	res->nhdr++;
}

int
http_problem(struct http_res *res, int status, const char *fmt, ...)
{
	struct json_writer	*w;
	va_list			 ap;
	FILE			*fp;
	char			 msg[512], *buf = NULL;
	size_t			 len = 0;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if ((fp = open_memstream(&buf, &len)) == NULL) {
		http_body_take(res, status, NULL, 0);
		return -1;
	}
	w = json_writer_new(fp, 0);
	json_begin_obj(w);
	json_kv_str(w, "error", msg);
	json_kv_int(w, "status", status);
	json_end_obj(w);
	json_writer_free(w, NULL, 0);
	fclose(fp);
	http_body_take(res, status, buf, len);
	res->ctype = NULL;
	return -1;
}

struct json_writer *
http_json_begin(struct http_json *j)
{
	return json_mem_begin(&j->m, 0);
}

int
http_json_end(struct http_json *j, struct http_res *res)
{
	char	err[256], *text;
	size_t	len;

	if ((text = json_mem_end(&j->m, &len, err, sizeof err)) == NULL)
		return http_problem(res, 500, "writing the reply: %s", err);
	http_body_take(res, res->status != 0 ? res->status : 200, text, len);
	return 0;
}

/*
 * Does pattern match u's segments?  Fills req->var with its "{...}".  A
 * last "{NAME...}" takes one or more segments (the rest of the path; its
 * var is the first, the handler reads req->uri.seg for the others).
 */
static int
route_match(const char *pattern, struct http_req *req)
{
	const char	*p = pattern + 1, *slash;
	size_t		 i = 0, n;

	req->nvar = 0;
	while (*p != '\0') {
		slash = strchr(p, '/');
		n = slash != NULL ? (size_t)(slash - p) : strlen(p);
		if (i == req->uri.nseg)
			return 0;
		if (p[0] == '{') {
			if (req->nvar == HTTP_VARS_MAX)
				return 0;
			req->var[req->nvar++] = req->uri.seg[i];
			if (n > 5 && memcmp(p + n - 4, "...}", 4) == 0 &&
			    p[n] == '\0')
				return 1;	/* the rest of the path */
		} else if (strlen(req->uri.seg[i]) != n ||
		    memcmp(req->uri.seg[i], p, n) != 0)
			return 0;
		i++;
		p += n;
		if (*p == '/')
			p++;
	}
	return i == req->uri.nseg;
}

const struct http_route *
http_route_find(struct http_req *req, struct http_res *res)
{
	const struct http_route	*r, *found = NULL;
	size_t			 i, n;
	char			 allow[64] = "";

	for (i = 0; http_routes[i].method != NULL; i++) {
		r = &http_routes[i];
		if (!route_match(r->pattern, req))
			continue;
		if (strcmp(r->method, req->method) == 0 ||
		    (strcmp(req->method, "HEAD") == 0 &&
		    strcmp(r->method, "GET") == 0)) {
			found = r;
			break;
		}
		n = strlen(allow);
		snprintf(allow + n, sizeof allow - n, "%s%s", n ? ", " : "",
		    r->method);
	}
	if (found != NULL) {
		route_match(found->pattern, req);	/* its own vars */
		return found;
	}
	if (allow[0] == '\0') {
		http_problem(res, 404, "no such resource");
		return NULL;
	}
	http_problem(res, 405, "method %s not allowed here (allowed: %s)",
	    req->method, allow);
	snprintf(res->allow, sizeof res->allow, "%s", allow);
	return NULL;
}

char *
http_routes_text(void)
{
	struct buf	b;
	size_t		i;

	buf_init(&b, 64 * 1024);
	for (i = 0; http_routes[i].method != NULL; i++)
		buf_printf(&b, "%s %s\n", http_routes[i].method,
		    http_routes[i].pattern);
	return buf_release(&b);
}
