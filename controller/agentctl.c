/*
 * agentctl: see agentctl.h.  This file deploys the agent and runs it over
 * ssh; agentctl_decode.c turns its JSON output into replies (and is the
 * only one of agentctl's files that includes json-c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentctl.h"
#include "agentctl_int.h"
#include "log.h"
#include "ssh.h"
#include "util.h"

#define AGENTCTL_PATH_MAX	512

extern const struct embed_file agentctl_sources[];

struct agentctl {
	struct ssh_conn	*ssh;
	char		 base[AGENTCTL_PATH_MAX];	/* STATE/agent */
	char		 path[AGENTCTL_PATH_MAX];	/* .../HASH/labrat-agent */
	char		 owner[80];	/* --owner for changing commands */
	/* What the last good deploy installed, to redeploy it when the
	 * agent vanishes or changes under a later call. */
	const struct agentctl_bundle *bundle;
	int		 deploy_ms;
	int		 deploying;	/* no redeploy from inside a deploy */
	int		 no_session;	/* the agent there has no `session` */
};

/* Why one call failed, as far as a redeploy is concerned. */
enum call_why {
	CALL_OTHER,	/* the agent answered: its error stands */
	CALL_MISSING,	/* exit 126/127: the shell found no agent to run */
	CALL_SUSPECT,	/* usage error or no decodable answer: maybe
			 * another agent version is installed */
};

const struct agentctl_bundle *
agentctl_builtin(void)
{
	static const struct agentctl_bundle b = { LABRAT_AGENT_HASH,
	    agentctl_sources };

	return &b;
}

struct agentctl *
agentctl_new(struct ssh_conn *ssh)
{
	struct agentctl	*a;

	a = xcalloc(1, sizeof *a);
	a->ssh = ssh;
	return a;
}

void
agentctl_inherit(struct agentctl *a, const struct agentctl *from)
{
	memcpy(a->base, from->base, sizeof a->base);
	memcpy(a->path, from->path, sizeof a->path);
	a->bundle = from->bundle;
	a->deploy_ms = from->deploy_ms;
}

void
agentctl_free(struct agentctl *a)
{
	free(a);
}

void
agentctl_set_owner(struct agentctl *a, const char *token)
{
	snprintf(a->owner, sizeof a->owner, "%s", token != NULL ? token : "");
}

const char *
agentctl_owner(const struct agentctl *a)
{
	return a->owner;
}

const char *
agentctl_path(const struct agentctl *a)
{
	return a->path;
}

int
agentctl_changes_host(const char *const *args)
{
	static const char *const gated[] = { "apply", "restore", "confirm",
	    "serve", "iperf", "scp", "keygen", "authorize", "deauthorize",
	    NULL };
	size_t	i;

	if (args == NULL || args[0] == NULL)
		return 0;
	for (i = 0; gated[i] != NULL; i++)
		if (strcmp(args[0], gated[i]) == 0)
			return 1;
	return 0;
}

/*
 * At most max bytes of what a host wrote (stderr) for a message, its
 * control characters shown as escapes (util_term_safe()).
 */
static const char *
quote(const struct buf *b, size_t max, char *out, size_t outlen)
{
	size_t	len;

	if (b->data == NULL)
		return "";
	len = b->len < max ? b->len : max;
	while (len > 0 && (b->data[len - 1] == '\n' ||
	    b->data[len - 1] == '\r' || b->data[len - 1] == ' '))
		len--;
	return util_term_safe(out, outlen, b->data, len);
}

/* The deploy check's stdout ceiling: two lines and open's three (version,
 * lease, the facts of one interface). */
#define AGENTCTL_OPEN_MAX	(64u * 1024)

/* Runs a /bin/sh script on the host (quoted, so any login shell works):
 * 0; -2 its stdout past out's ceiling; -1 another failure (err says). */
static int
run_sh(struct agentctl *a, const char *script, int64_t deadline,
    struct buf *out, struct buf *eb, struct ssh_result *res, char *err,
    size_t errlen)
{
	struct buf	cmd;
	int64_t		left = deadline - util_now_ms();
	int		st;

	if (left <= 0) {
		util_seterr(err, errlen, "%s: deploy: out of time",
		    ssh_name(a->ssh));
		return -1;
	}
	buf_init(&cmd, 64 * 1024);
	buf_append(&cmd, "/bin/sh -c ", 11);
	util_shell_quote(&cmd, script);
	st = ssh_exec(a->ssh, cmd.data, (int)left, out, eb, res, err, errlen);
	buf_free(&cmd);
	if (st == SSH_EOUTPUT)
		return -2;
	return st == SSH_OK ? 0 : -1;
}

/*
 * The host's side of agent_base(): its OS and LABRAT_AGENT_STATE, one a
 * line, then (hash not NULL) what the agent built from hash answers to
 * `open` (req's lease take and facts: agentctl_open_decode()) at the path
 * agent_base() derives from the two, the same way (nothing when there is
 * none): one round trip, not four, for a host whose agent is in place.
 * hash is hex (bundle_check()).
 */
static void
agent_base_script(struct buf *sc, const char *hash,
    const struct agentctl_open_req *req)
{
	size_t	i;

	buf_printf(sc, "o=$(uname -s); printf '%%s\\n%%s\\n' \"$o\" "
	    "\"${LABRAT_AGENT_STATE:-}\"");
	if (hash == NULL)
		return;
	buf_printf(sc, "; s=${LABRAT_AGENT_STATE:-}; if [ -z \"$s\" ]; "
	    "then case $o in FreeBSD) s=/var/db/labrat ;; "
	    "Linux) s=/var/lib/labrat ;; esac; fi; "
	    "if [ -n \"$s\" ]; then \"$s/agent/%s/labrat-agent\" open", hash);
	for (i = 0; req != NULL && req->lease_args != NULL &&
	    req->lease_args[i] != NULL; i++) {
		buf_append(sc, " ", 1);
		util_shell_quote(sc, req->lease_args[i]);
	}
	if (req != NULL && req->ifname != NULL) {
		buf_printf(sc, " --if ");
		util_shell_quote(sc, req->ifname);
	}
	buf_printf(sc, " 2>/dev/null; fi; :");
}

/*
 * What the agent at the path agent_base() checks answered to `open` (text,
 * "" when there was none there): its source_hash into have, its parts into
 * o (o NULL: not wanted; an answer without every part asked for is
 * dropped, o->answered 0); *checked 0 when it said nothing usable.
 */
static void
agent_base_answer(struct agentctl *a, const char *text,
    const struct agentctl_open_req *req, struct agentctl_open *o,
    char *have, size_t havelen, int *checked)
{
	struct agentctl_open	mine;
	struct agentctl_open	*p = o != NULL ? o : &mine;
	int			rc;

	*checked = 1;
	if (*text == '\0')
		return;
	rc = agentctl_open_decode(ssh_name(a->ssh), text, strlen(text),
	    req != NULL && req->lease_args != NULL, req != NULL &&
	    req->ifname != NULL, p);
	if (p->answered)
		snprintf(have, havelen, "%s", p->version.source_hash);
	else	/* garbage, or an agent without `open`: ask --version */
		*checked = 0;
	if (rc == -1)
		log_debug("%s: open: %s", ssh_name(a->ssh), p->err);
	if (rc == -1 || p == &mine)
		agentctl_open_free(p);
}

/* Where agents live on this host: STATE/agent.  With hash, *have gets the
 * source_hash the agent of that hash there reports ("" for none) and
 * *checked 1; *checked 0 when that could not be told (ask again). */
static int
agent_base(struct agentctl *a, const char *hash,
    const struct agentctl_open_req *req, struct agentctl_open *o,
    int64_t deadline, char *have, size_t havelen, int *checked, char *err,
    size_t errlen)
{
	struct ssh_result	 res;
	struct buf		 out, eb, sc;
	char			 os[64], state[AGENTCTL_PATH_MAX];
	char			 safe[1024];
	const char		*base, *nl;
	int			 r = -1, rc;

	*checked = 0;
	have[0] = '\0';
	buf_init(&out, AGENTCTL_OPEN_MAX);
	buf_init(&eb, 8192);
	buf_init(&sc, 1024);
	agent_base_script(&sc, hash, req);
	rc = run_sh(a, sc.data, deadline, &out, &eb, &res, err, errlen);
	if (rc == -2 && hash != NULL) {
		/* What answered `open` said too much: not an agent of ours to
		 * trust; the plain check, then --version, lease and facts on
		 * their own (each with its own ceiling and its own error). */
		log_debug("%s: open: %s", ssh_name(a->ssh), err);
		buf_reset(&out);
		buf_reset(&eb);
		buf_reset(&sc);
		agent_base_script(&sc, NULL, NULL);
		hash = NULL;
		rc = run_sh(a, sc.data, deadline, &out, &eb, &res, err,
		    errlen);
	}
	buf_free(&sc);
	if (rc != 0)
		goto done;
	if (res.exit_status != 0 || out.data == NULL ||
	    sscanf(out.data, "%63[^\n]\n", os) != 1) {
		util_seterr(err, errlen, "%s: uname -s failed (exit %d): %s",
		    ssh_name(a->ssh), res.exit_status, quote(&eb, 200, safe,
		    sizeof safe));
		goto done;
	}
	state[0] = '\0';
	if (out.len > strlen(os) + 1)
		sscanf(out.data + strlen(os) + 1, "%511[^\n]", state);
	if (state[0] != '\0')
		base = state;
	else if (strcmp(os, "FreeBSD") == 0)
		base = "/var/db/labrat";
	else if (strcmp(os, "Linux") == 0)
		base = "/var/lib/labrat";
	else {
		util_seterr(err, errlen, "%s: unsupported OS \"%s\" (labrat-agent "
		    "runs on FreeBSD and Linux)", ssh_name(a->ssh),
		    util_term_safe(safe, sizeof safe, os, (size_t)-1));
		goto done;
	}
	if (base[0] != '/' || strstr(base, "..") != NULL) {
		util_seterr(err, errlen, "%s: LABRAT_AGENT_STATE \"%s\" is not "
		    "an absolute path", ssh_name(a->ssh), util_term_safe(safe,
		    sizeof safe, base, (size_t)-1));
		goto done;
	}
	if (snprintf(a->base, sizeof a->base, "%s/agent", base) >=
	    (int)sizeof a->base) {
		util_seterr(err, errlen, "%s: agent state path %s too long",
		    ssh_name(a->ssh), base);
		a->base[0] = '\0';
		goto done;
	}
	r = 0;
	/* The agent's answer after the two lines, if the shell's path was
	 * ours (a state line cut short here was not). */
	if (hash != NULL && strlen(state) < sizeof state - 1 &&
	    (nl = strchr(out.data, '\n')) != NULL &&
	    (nl = strchr(nl + 1, '\n')) != NULL)
		agent_base_answer(a, nl + 1, req, o, have, havelen, checked);
done:
	buf_free(&out);
	buf_free(&eb);
	return r;
}

/* The source_hash the installed agent reports, "" when there is none. */
static void
agent_installed_hash(struct agentctl *a, int64_t deadline, char *hash,
    size_t n)
{
	static const char *args[] = { "--version", NULL };
	struct agentctl_reply	r;
	char			err[512];
	int64_t			left = deadline - util_now_ms();

	hash[0] = '\0';
	if (left <= 0)
		return;
	if (agentctl_call(a, args, (int)(left < 15000 ? left : 15000), &r,
	    err, sizeof err) == 0)
		snprintf(hash, n, "%s", r.u.version.source_hash);
	else
		log_debug("%s: no usable agent at %s: %s", ssh_name(a->ssh),
		    a->path, err);
	agentctl_reply_free(&r);
}

static int
bundle_check(const struct agentctl_bundle *b, char *err, size_t errlen)
{
	size_t	i;

	if (strlen(b->hash) < 1 || strlen(b->hash) > 64 ||
	    strspn(b->hash, "0123456789abcdef") != strlen(b->hash)) {
		util_seterr(err, errlen, "agent hash \"%s\" is not hex",
		    b->hash);
		return -1;
	}
	for (i = 0; b->files[i].name != NULL; i++)
		if (strspn(b->files[i].name, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
		    strlen(b->files[i].name) || b->files[i].name[0] == '.') {
			util_seterr(err, errlen, "agent source name \"%s\"",
			    b->files[i].name);
			return -1;
		}
	return 0;
}

/* Uploads the bundle's files into dir on the host. */
static int
agent_upload(struct agentctl *a, const struct agentctl_bundle *b,
    const char *dir, int64_t deadline, char *err, size_t errlen)
{
	struct ssh_file	*files;
	size_t		 i, n;
	int		 st;

	for (n = 0; b->files[n].name != NULL; n++)
		;
	files = xcalloc(n, sizeof *files);
	for (i = 0; i < n; i++) {
		files[i].path = xasprintf("%s/%s", dir, b->files[i].name);
		files[i].data = b->files[i].data;
		files[i].len = b->files[i].len;
		files[i].mode = 0644;
	}
	st = ssh_upload(a->ssh, files, n, (int)(deadline - util_now_ms()), err,
	    errlen);
	for (i = 0; i < n; i++)
		free((char *)files[i].path);
	free(files);
	return st == SSH_OK ? 0 : -1;
}

/* Uploads the sources to a fresh directory below base and builds there. */
static int
agent_build(struct agentctl *a, const struct agentctl_bundle *b,
    int64_t deadline, char *err, size_t errlen)
{
	struct ssh_result	 res;
	struct buf		 out, eb, sc;
	char			 tmp[AGENTCTL_PATH_MAX], define[128];
	char			 safe[2560];
	int			 r = -1;

	buf_init(&out, 8192);
	buf_init(&eb, AGENTCTL_ERR_MAX);
	buf_init(&sc, 64 * 1024);
	tmp[0] = '\0';
	buf_append(&sc, "umask 022 && mkdir -p ", 22);
	util_shell_quote(&sc, a->base);
	buf_printf(&sc, " && mktemp -d ");
	util_shell_quote(&sc, a->base);
	buf_printf(&sc, "/.build.XXXXXX");
	if (run_sh(a, sc.data, deadline, &out, &eb, &res, err, errlen) != 0)
		goto done;
	if (res.exit_status != 0 || out.data == NULL ||
	    sscanf(out.data, "%511[^\n]", tmp) != 1 ||
	    strncmp(tmp, a->base, strlen(a->base)) != 0) {
		util_seterr(err, errlen, "%s: deploy: mkdir/mktemp in %s failed "
		    "(exit %d): %s", ssh_name(a->ssh), a->base,
		    res.exit_status, quote(&eb, 300, safe, sizeof safe));
		tmp[0] = '\0';
		goto done;
	}
	if (agent_upload(a, b, tmp, deadline, err, errlen) == -1)
		goto done;

	/* Same file system, so the final mv is an atomic rename(2). */
	buf_reset(&sc);
	buf_reset(&out);
	buf_reset(&eb);
	snprintf(define, sizeof define, "-DLABRAT_AGENT_HASH=\"%s\"", b->hash);
	buf_printf(&sc, "cd ");
	util_shell_quote(&sc, tmp);
	buf_printf(&sc, " && cc -O2 ");
	util_shell_quote(&sc, define);
	buf_printf(&sc, " *.c -o labrat-agent && mkdir -p ");
	util_shell_quote(&sc, a->base);
	buf_printf(&sc, "/%s && mv -f labrat-agent ", b->hash);
	util_shell_quote(&sc, a->path);
	if (run_sh(a, sc.data, deadline, &out, &eb, &res, err, errlen) != 0)
		goto done;
	if (res.exit_status != 0) {
		util_seterr(err, errlen, "%s: build labrat-agent with the host's "
		    "cc failed (exit %d): %s", ssh_name(a->ssh),
		    res.exit_status, quote(&eb, 600, safe, sizeof safe));
		goto done;
	}
	r = 0;
done:
	if (tmp[0] != '\0' && deadline > util_now_ms()) {
		buf_reset(&sc);
		buf_printf(&sc, "rm -rf ");
		util_shell_quote(&sc, tmp);
		if (run_sh(a, sc.data, deadline, &out, &eb, &res, NULL, 0) !=
		    0 || res.exit_status != 0)
			log_warnx("%s: could not remove %s", ssh_name(a->ssh),
			    tmp);
	}
	buf_free(&out);
	buf_free(&eb);
	buf_free(&sc);
	return r;
}

static int	deploy(struct agentctl *, const struct agentctl_bundle *,
		    int, const struct agentctl_open_req *,
		    struct agentctl_deploy_info *, struct agentctl_open *,
		    char *, size_t);

int
agentctl_deploy(struct agentctl *a, const struct agentctl_bundle *b,
    int timeout_ms, struct agentctl_deploy_info *info, char *err,
    size_t errlen)
{
	return agentctl_deploy_open(a, b, timeout_ms, NULL, info, NULL, err,
	    errlen);
}

int
agentctl_deploy_open(struct agentctl *a, const struct agentctl_bundle *b,
    int timeout_ms, const struct agentctl_open_req *req,
    struct agentctl_deploy_info *info, struct agentctl_open *o, char *err,
    size_t errlen)
{
	int	rc;

	if (o != NULL)
		memset(o, 0, sizeof *o);
	if (b == NULL)
		b = agentctl_builtin();
	a->deploying = 1;
	rc = deploy(a, b, timeout_ms, req, info, o, err, errlen);
	a->deploying = 0;
	if (rc == 0) {
		a->bundle = b;
		a->deploy_ms = timeout_ms;
	}
	return rc;
}

static int
deploy(struct agentctl *a, const struct agentctl_bundle *b,
    int timeout_ms, const struct agentctl_open_req *req,
    struct agentctl_deploy_info *info, struct agentctl_open *o, char *err,
    size_t errlen)
{
	int64_t	start = util_now_ms(), deadline = start + timeout_ms;
	char	have[64];
	int	checked;

	memset(info, 0, sizeof *info);
	if (bundle_check(b, err, errlen) == -1)
		return -1;
	checked = 0;
	/* An open (o) asks again on a known base: the same round trip. */
	if ((a->base[0] == '\0' || o != NULL) && agent_base(a, b->hash, req,
	    o, deadline, have, sizeof have, &checked, err, errlen) == -1)
		return -1;
	if (snprintf(a->path, sizeof a->path, "%s/%s/labrat-agent", a->base,
	    b->hash) >= (int)sizeof a->path) {
		util_seterr(err, errlen, "%s: agent path below %s too long",
		    ssh_name(a->ssh), a->base);
		return -1;
	}
	snprintf(info->path, sizeof info->path, "%s", a->path);
	if (!checked)
		agent_installed_hash(a, deadline, have, sizeof have);
	if (strcmp(have, b->hash) != 0) {
		log_info("%s: installing labrat-agent %s (found %s)",
		    ssh_name(a->ssh), b->hash, have[0] != '\0' ? have : "none");
		agentctl_open_free(o);	/* not that agent's word */
		if (agent_build(a, b, deadline, err, errlen) == -1)
			return -1;
		info->built = 1;
		/* A session of the agent that was there goes; the new one
		 * may have one. */
		ssh_kept_stop(a->ssh);
		a->no_session = 0;
		agent_installed_hash(a, deadline, have, sizeof have);
		if (strcmp(have, b->hash) != 0) {
			util_seterr(err, errlen, "%s: the freshly built %s "
			    "reports source_hash \"%s\", expected \"%s\"",
			    ssh_name(a->ssh), a->path, have, b->hash);
			return -1;
		}
	}
	info->ms = util_now_ms() - start;
	return 0;
}

/* One run of the agent; *why says whether a redeploy might help. */
static int
call_once(struct agentctl *a, const char *const *args, int kind,
    const char *what, int timeout_ms, struct agentctl_reply *r,
    enum call_why *why, char *err, size_t errlen)
{
	struct ssh_result	 res;
	struct buf		 cmd, out, eb;
	const char		*argv[AGENTCTL_ARGS_MAX + 3];
	char			 sshmsg[512], safe[1300];
	size_t			 i, n;
	int			 st, rc = -1, fallback;

	memset(r, 0, sizeof *r);
	*why = CALL_OTHER;
	buf_init(&cmd, 64 * 1024);
	buf_init(&out, AGENTCTL_OUT_MAX);
	buf_init(&eb, AGENTCTL_ERR_MAX);
	for (n = 0; args[n] != NULL && n < AGENTCTL_ARGS_MAX; n++)
		argv[n] = args[n];
	if (args[n] != NULL) {
		util_seterr(err, errlen, "%s: labrat-agent %s: more than %d "
		    "arguments", ssh_name(a->ssh), what, AGENTCTL_ARGS_MAX);
		goto done;
	}
	/* The lease gate: a holder names itself on every change. */
	for (i = 0; args[i] != NULL && strcmp(args[i], "--owner") != 0; i++)
		;
	if (a->owner[0] != '\0' && args[i] == NULL &&
	    agentctl_changes_host(args)) {
		argv[n++] = "--owner";
		argv[n++] = a->owner;
	}
	argv[n] = NULL;
	/* The agent's session on the connection when it has one (a fork on
	 * the host), else a channel of its own (sshd, the login shell, an
	 * exec). */
	fallback = 1;
	if (!a->deploying && !a->no_session) {
		st = agentctl_sess_call(a->ssh, a->path, a->bundle != NULL ?
		    a->bundle->hash : NULL, argv, timeout_ms, &out, &eb, &res,
		    &fallback, err, errlen);
		if (fallback == 2)
			a->no_session = 1;
	}
	if (fallback) {		/* (out and eb are still empty) */
		util_shell_quote(&cmd, a->path);
		for (i = 0; argv[i] != NULL; i++) {
			buf_append(&cmd, " ", 1);
			util_shell_quote(&cmd, argv[i]);
		}
		st = ssh_exec(a->ssh, cmd.data, timeout_ms, &out, &eb, &res,
		    err, errlen);
	}
	if (st == SSH_EOUTPUT) {
		util_seterr(err, errlen, "%s: labrat-agent %s: output larger "
		    "than %u bytes", ssh_name(a->ssh), what, AGENTCTL_OUT_MAX);
		goto done;
	}
	if (st != SSH_OK) {
		snprintf(sshmsg, sizeof sshmsg, "%s", err != NULL ? err : "");
		util_seterr(err, errlen, "%s: labrat-agent %s: %s (%s)",
		    ssh_name(a->ssh), what, ssh_strstatus(st), sshmsg);
		goto done;
	}
	if (res.exit_signal[0] != '\0') {
		util_seterr(err, errlen, "%s: labrat-agent %s: killed by SIG%s",
		    ssh_name(a->ssh), what, res.exit_signal);
		goto done;
	}
	rc = agentctl_decode(ssh_name(a->ssh), what, (enum agentctl_cmd)kind,
	    out.data != NULL ? out.data : "", out.len, 0, res.exit_status, r,
	    err, errlen);
	if (rc == -1 && (res.exit_status == 126 || res.exit_status == 127))
		*why = CALL_MISSING;
	else if (rc == -1 && !r->has_result && (r->error_class[0] == '\0' ||
	    strcmp(r->error_class, "usage") == 0))
		*why = CALL_SUSPECT;
	if (rc == -1 && r->error_class[0] == '\0' && eb.len > 0 &&
	    err != NULL && strlen(err) + 1 < errlen)
		util_seterr(err + strlen(err), errlen - strlen(err),
		    "; stderr: %s", quote(&eb, 300, safe, sizeof safe));
	r->raw = buf_release(&out);
	r->rawlen = strlen(r->raw);
done:
	buf_free(&cmd);
	buf_free(&out);
	buf_free(&eb);
	return rc;
}

/* Whether the agent at a->path is not the one a->bundle installed. */
static int
agent_changed(struct agentctl *a)
{
	char	have[64];

	agent_installed_hash(a, util_now_ms() + 15000, have, sizeof have);
	return strcmp(have, a->bundle->hash) != 0;
}

/*
 * A call that finds the agent gone (exit 126/127: deleted, a reboot into
 * a fresh /var) or replaced by another version redeploys it once and runs
 * again; a failing redeploy ends it with both reasons, never a loop.
 */
int
agentctl_call(struct agentctl *a, const char *const *args, int timeout_ms,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	struct agentctl_deploy_info	 info;
	enum call_why			 why;
	char				 what[96], first[1024], derr[1024];
	size_t				 i;
	int				 kind, rc;

	memset(r, 0, sizeof *r);
	what[0] = '\0';
	for (i = 0; args[i] != NULL && strlen(what) < 64; i++)
		snprintf(what + strlen(what), sizeof what - strlen(what),
		    "%s%.40s", i > 0 ? " " : "", args[i]);
	if ((kind = agentctl_cmd_of(args)) == -1 || a->path[0] == '\0') {
		util_seterr(err, errlen, "%s: labrat-agent %s: %s",
		    ssh_name(a->ssh), what, kind == -1 ? "unknown subcommand" :
		    "agent not deployed");
		return -1;
	}
	first[0] = '\0';
	rc = call_once(a, args, kind, what, timeout_ms, r, &why, first,
	    sizeof first);
	if (rc == 0)
		return 0;
	if (why == CALL_OTHER || a->deploying ||
	    a->bundle == NULL || kind == AGENTCTL_VERSION ||
	    (why == CALL_SUSPECT && !agent_changed(a))) {
		util_seterr(err, errlen, "%s", first);
		return rc;
	}
	log_warnx("%s; redeploying the agent", first);
	agentctl_reply_free(r);
	if (agentctl_deploy(a, a->bundle, a->deploy_ms, &info, derr,
	    sizeof derr) == -1) {
		util_seterr(err, errlen, "%s; redeploying the agent failed: %s",
		    first, derr);
		return -1;
	}
	log_info("%s: agent redeployed in %lld ms; running %s again",
	    ssh_name(a->ssh), (long long)info.ms, what);
	return call_once(a, args, kind, what, timeout_ms, r, &why, err,
	    errlen);
}

int
agentctl_facts(struct agentctl *a, const char *ifname, int timeout_ms,
    struct agentctl_reply *r, char *err, size_t errlen)
{
	const char	*args[4] = { "facts", NULL, NULL, NULL };

	if (ifname != NULL) {
		args[1] = "--if";
		args[2] = ifname;
	}
	return agentctl_call(a, args, timeout_ms, r, err, errlen);
}

/* ---- patterns of host-reported strings ------------------------------ */

static int
all_in(const char *s, size_t min, size_t max, const char *set)
{
	size_t	len = strlen(s);

	return len >= min && len <= max && strspn(s, set) == len;
}

#define P_ALNUM	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
		"0123456789"

/* A kernel revision: ^[A-Za-z0-9._-]{1,64}$ (schemas/history.schema.json) */
int
agentctl_rev_ok(const char *s)
{
	return all_in(s, 1, 64, P_ALNUM "._-");
}

/* A version: "2.1.8", "OpenSSH_9.2p1", "8.1-PRERELEASE", "6.1.0-13+b1". */
int
agentctl_version_ok(const char *s)
{
	return all_in(s, 1, 127, P_ALNUM "._+~-");
}

/* A driver: "em", "virtio_net", "8139too", "mlx5_core". */
int
agentctl_driver_ok(const char *s)
{
	return all_in(s, 1, 31, P_ALNUM "_.-") && s[0] != '.' && s[0] != '-';
}

/* An interface name as the agent reports it. */
int
agentctl_ifname_ok(const char *s)
{
	return all_in(s, 1, 31, P_ALNUM "_.:-") && s[0] != '-';
}

/* "0x10968086", "0x8086". */
int
agentctl_hexid_ok(const char *s)
{
	return s[0] == '0' && s[1] == 'x' &&
	    all_in(s + 2, 1, 12, "0123456789abcdefABCDEF");
}

int
agentctl_hash_ok(const char *s)
{
	return all_in(s, 1, 31, "0123456789abcdef");
}

int
agentctl_os_ok(const char *s)
{
	return strcmp(s, "freebsd") == 0 || strcmp(s, "linux") == 0;
}

/* Keys and tags, passed on to another host: printable ASCII, one line. */
int
agentctl_printable_ok(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}
