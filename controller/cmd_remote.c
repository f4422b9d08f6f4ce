/*
 * cmd_remote: the remote CLI's one request helper (cmd.h): the commands
 * that take --server (CMD_REMOTE) GET their JSON from the daemon's HTTP
 * API through client_api and print it with the same report formatter the
 * local path uses.  The token is read from --token-file (the secret alone
 * on its first line, as `labrat token add NAME > FILE` writes it).
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "cmd.h"
#include "log.h"
#include "report.h"
#include "util.h"

#define REMOTE_TOKEN_MAX	4096	/* a token file's size ceiling */
#define REMOTE_TIMEOUT_S	30
#define REMOTE_RETRIES		3

/* The secret from path (heap, caller frees), or NULL after saying why. */
static char *
remote_token(const struct cmd_ctx *ctx, const char *path)
{
	struct stat	sb;
	char		err[512], *s, *nl;
	size_t		len, i;

	if ((s = util_read_file(path, REMOTE_TOKEN_MAX, &len, err,
	    sizeof err)) == NULL) {
		fprintf(stderr, "labrat %s: token file: %s\n",
		    ctx->entry->name, err);
		return NULL;
	}
	if ((nl = strchr(s, '\n')) != NULL)
		*nl = '\0';
	for (i = 0; s[i] != '\0'; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f)
			break;
	if (i == 0 || s[i] != '\0' || strlen(s) != (nl != NULL ?
	    (size_t)(nl - s) : len)) {
		fprintf(stderr, "labrat %s: token file %s: the first line must "
		    "be the secret alone (labrat token add NAME > FILE)\n",
		    ctx->entry->name, path);
		explicit_bzero(s, len);
		free(s);
		return NULL;
	}
	if (stat(path, &sb) == 0 && (sb.st_mode & 077) != 0)
		log_warnx("token file %s is readable by others (chmod 600 it)",
		    path);
	return s;
}

int
cmd_remote_get(const struct cmd_ctx *ctx, const char *path, char **body,
    size_t *len)
{
	struct client_api	 a;
	char			 err[1024], msg[512], safe[1024], *tok = NULL;
	long			 status;
	int			 rc;

	*body = NULL;
	*len = 0;
	if (ctx->token_file != NULL &&
	    (tok = remote_token(ctx, ctx->token_file)) == NULL)
		return -1;
	if (client_global_init() == -1) {
		fprintf(stderr, "labrat %s: libcurl cannot be initialised\n",
		    ctx->entry->name);
		free(tok);
		return -1;
	}
	memset(&a, 0, sizeof a);
	a.base = ctx->server;
	a.token = tok;
	a.cafile = ctx->cafile;
	a.timeout_s = REMOTE_TIMEOUT_S;
	a.retries = REMOTE_RETRIES;
	rc = client_api_get(&a, path, body, len, &status, err, sizeof err);
	if (tok != NULL) {
		explicit_bzero(tok, strlen(tok));
		free(tok);
	}
	if (rc == -1) {
		fprintf(stderr, "labrat %s: %s\n", ctx->entry->name,
		    util_term_safe(safe, sizeof safe, err, (size_t)-1));
		return -1;
	}
	if (status == 200)
		return 0;
	report_api_error(*body, *len, msg, sizeof msg);
	fprintf(stderr, "labrat %s: %s%s: HTTP %ld: %s\n", ctx->entry->name,
	    ctx->server, path, status,
	    util_term_safe(safe, sizeof safe, msg, (size_t)-1));
	free(*body);
	*body = NULL;
	*len = 0;
	return -1;
}
