/*
 * http_res_status: GET /api/v1/status, the daemon itself: version, pid,
 * uptime, the store's schema version (this binary's newest beside it) and
 * how it authenticates ("auth": whether reads need a token; sessions).
 */
#include <unistd.h>

#include "http_int.h"
#include "util.h"

int
http_res_status(struct http_req *req, struct http_res *res)
{
	struct http_json	 j;
	struct json_writer	*w;
	char			 err[256];
	int			 v = 0;

	if (http_query_only(&req->uri, (const char *const[]){ NULL }, err,
	    sizeof err) == -1)
		return http_problem(res, 400, "%s", err);
	if (store_schema_version(req->st, &v, err, sizeof err) == -1)
		return http_problem(res, 500, "%s", err);
	if ((w = http_json_begin(&j)) == NULL)
		return http_problem(res, 500, "out of memory");
	json_begin_obj(w);
	json_kv_str(w, "version", http_version(req->srv));
	json_kv_int(w, "pid", (int64_t)getpid());
	json_kv_int(w, "started_ms", http_started_ms(req->srv));
	json_kv_int(w, "uptime_s",
	    (util_wall_ms() - http_started_ms(req->srv)) / 1000);
	json_kv_int(w, "schema_version", v);
	json_kv_int(w, "schema_latest", store_schema_latest());
	json_key(w, "auth");
	json_begin_obj(w);
	json_kv_bool(w, "reads_open", http_reads_open(req->srv));
	json_kv_bool(w, "session", 1);
	json_end_obj(w);
	json_end_obj(w);
	return http_json_end(&j, res);
}
