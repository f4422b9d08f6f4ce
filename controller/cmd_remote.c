/*
 * cmd_remote: the remote CLI's request helpers (cmd.h): the commands that
 * take --server (CMD_REMOTE) send their request to the daemon's HTTP API
 * through client_api.  A read asks for the command's --format and prints
 * the reply as received: the server wrote it with the same formatter call
 * the local command makes (JSON is checked first).  client_api_call()
 * reads the token from --token-file (the secret alone on its first line,
 * as `labrat token add NAME > FILE` writes it) and sends; this file says
 * what failed and prints.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "cmd.h"
#include "json.h"
#include "log.h"
#include "report.h"
#include "store.h"
#include "store_daemon.h"
#include "util.h"

#define REMOTE_TIMEOUT_S	30
#define REMOTE_RETRIES		3

/*
 * method path (json: POST's body) to ctx->server; want: a reply header to
 * keep.  0 with r filled when the reply is 2xx; -1 (transport) or the
 * HTTP status after saying what failed (r->body freed).
 */
static int
remote_send(const struct cmd_ctx *ctx, const char *method, const char *path,
    const char *json, const char *want, struct client_api_reply *r)
{
	struct client_api	 a;
	char			 err[1024], msg[512], safe[1024];
	int			 rc;

	memset(&a, 0, sizeof a);
	a.base = ctx->server;
	a.cafile = ctx->cafile;
	a.timeout_s = REMOTE_TIMEOUT_S;
	a.retries = REMOTE_RETRIES;
	if (client_api_call(&a, ctx->token_file, method, path, json, want, r,
	    err, sizeof err) == -1) {
		fprintf(stderr, "labrat %s: %s\n", ctx->entry->name,
		    util_term_safe(safe, sizeof safe, err, (size_t)-1));
		return -1;
	}
	if (r->status >= 200 && r->status < 300)
		return 0;
	report_api_error(r->body, r->len, msg, sizeof msg);
	fprintf(stderr, "labrat %s: %s%s: HTTP %ld: %s\n", ctx->entry->name,
	    ctx->server, path, r->status,
	    util_term_safe(safe, sizeof safe, msg, (size_t)-1));
	free(r->body);
	rc = r->status > 0 && r->status < 1000 ? (int)r->status : -1;
	memset(r, 0, sizeof *r);
	return rc;
}

int
cmd_remote_get(const struct cmd_ctx *ctx, const char *path, char **body,
    size_t *len)
{
	return cmd_remote_send(ctx, "GET", path, NULL, body, len) == 0 ? 0 :
	    -1;
}

int
cmd_remote_send(const struct cmd_ctx *ctx, const char *method,
    const char *path, const char *json, char **body, size_t *len)
{
	struct client_api_reply	r;
	int			rc;

	rc = remote_send(ctx, method, path, json, NULL, &r);
	*body = r.body;
	*len = r.len;
	return rc;
}

int
cmd_remote_print(const struct cmd_ctx *ctx, const char *path,
    int *regressions)
{
	struct client_api_reply	 r;
	const char		*errstr;
	char			 raw[256];
	long long		 n = 0;
	int			 rc = 0;

	if (remote_send(ctx, "GET", path, NULL, regressions != NULL ?
	    "X-Labrat-Regressions" : NULL, &r) != 0)
		return -1;
	if (ctx->format != NULL && strcmp(ctx->format, "json") == 0 &&
	    json_check_raw(r.body, r.len, raw, sizeof raw) != JSON_RAW_OK) {
		fprintf(stderr, "labrat %s: %s%s: the reply is not JSON: %s\n",
		    ctx->entry->name, ctx->server, path, raw);
		rc = -1;
	} else if (regressions != NULL && util_strtonum(r.header, 0,
	    INT32_MAX, &n, &errstr) == -1) {
		fprintf(stderr, "labrat %s: %s%s: no X-Labrat-Regressions "
		    "count in the reply\n", ctx->entry->name, ctx->server,
		    path);
		rc = -1;
	} else if (fwrite(r.body, 1, r.len, stdout) != r.len ||
	    fflush(stdout) == EOF) {
		fprintf(stderr, "labrat %s: writing the output: %s\n",
		    ctx->entry->name, strerror(errno));
		rc = -1;
	}
	if (regressions != NULL)
		*regressions = (int)n;
	free(r.body);
	return rc;
}

char *
cmd_remote_path(const char *path, const char *const *kv)
{
	return client_api_path(path, kv);
}

int
cmd_remote_abs(const struct cmd_ctx *ctx, const char *opt, const char *path)
{
	if (path == NULL || path[0] == '/')
		return 0;
	fprintf(stderr, "labrat %s: %s %s: with --server, paths are on the "
	    "controller: give an absolute path (it cannot be resolved from "
	    "here)\n", ctx->entry->name, opt, path);
	return -1;
}

int
cmd_remote_refuse(const struct cmd_ctx *ctx, const char *what)
{
	fprintf(stderr, "labrat %s: %s does not work with --server (%s): "
	    "run it on the controller\n", ctx->entry->name, what,
	    ctx->server);
	return CMD_EXIT_USAGE;
}

int
cmd_remote_newest(const struct cmd_ctx *ctx, const char *path,
    const char *key, const char *const *skip, int64_t *id, const char *none)
{
	char	err[512], *body;
	size_t	len;
	int	rc;

	if (cmd_remote_get(ctx, path, &body, &len) == -1)
		return -1;
	rc = report_remote_first_id(body, len, key, skip, id, err, sizeof err);
	free(body);
	if (rc == -1)
		fprintf(stderr, "labrat %s: %s%s: %s\n", ctx->entry->name,
		    ctx->server, path, err);
	else if (rc == 0)
		fprintf(stderr, "labrat %s: %s: %s\n", ctx->entry->name,
		    ctx->server, none);
	return rc == 1 ? 0 : -1;
}

int
cmd_remote_post(const struct cmd_ctx *ctx, const char *path,
    struct json_mem *b, char **reply, size_t *len)
{
	char	*json, err[256];
	int	 rc;

	*reply = NULL;
	*len = 0;
	if ((json = json_mem_end(b, NULL, err, sizeof err)) == NULL) {
		fprintf(stderr, "labrat %s: the request body cannot be "
		    "written: %s\n", ctx->entry->name, err);
		return -1;
	}
	rc = cmd_remote_send(ctx, "POST", path, json, reply, len);
	free(json);
	return rc;
}

int
cmd_queued_remote(const struct cmd_ctx *ctx, const char *kind,
    const char *reply, size_t len)
{
	struct json_writer	*w;
	char			 err[256], v[64];
	const char		*errstr;
	long long		 item;

	if ((report_remote_member(reply, len, "id", v, sizeof v) != 1 &&
	    report_remote_member(reply, len, "queue", v, sizeof v) != 1) ||
	    util_strtonum(v, 1, INT64_MAX, &item, &errstr) == -1) {
		fprintf(stderr, "labrat %s: %s: the reply names no queue "
		    "item: %.200s\n", ctx->entry->name, ctx->server,
		    reply != NULL ? reply : "");
		return CMD_EXIT_FAIL;
	}
	if (strcmp(ctx->format, "json") != 0) {
		printf("queued as item %lld (priority %d); labrat --server %s "
		    "queue shows it\n", item, STORE_PRIO_INTERACTIVE,
		    ctx->server);
		return fflush(stdout) == 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
	}
	w = json_writer_new(stdout, JSON_PRETTY);
	json_begin_obj(w);
	json_kv_int(w, "item", item);
	json_kv_str(w, "kind", kind);
	json_kv_int(w, "priority", STORE_PRIO_INTERACTIVE);
	json_kv_str(w, "state", "queued");
	json_kv_str(w, "server", ctx->server);
	json_end_obj(w);
	if (json_writer_free(w, err, sizeof err) == -1 || fflush(stdout) != 0) {
		log_warnx("%s", err);
		return CMD_EXIT_FAIL;
	}
	return CMD_EXIT_OK;
}
