/*
 * cmd_bisect: `labrat bisect start|status|log|resume|reset`.  start reads
 * the revision list (git first-parent history, a plain list or a simulated
 * lab's history), stores the bisect and drives it (cmd_bisect_step.c).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"
#include "cmd.h"
#include "config.h"
#include "log.h"
#include "matrix.h"
#include "store.h"
#include "util.h"

#define REVS_TEXT_MAX	(64 * 1024 * 1024)

struct revs {
	char	**ids, **msgs;
	size_t	  n, cap;
};

static void
revs_add(struct revs *r, const char *id, size_t idlen, const char *msg,
    size_t msglen)
{
	if (r->n + 1 >= r->cap) {
		r->cap = r->cap == 0 ? 64 : r->cap * 2;
		r->ids = xreallocarray(r->ids, r->cap + 1, sizeof *r->ids);
		r->msgs = xreallocarray(r->msgs, r->cap + 1, sizeof *r->msgs);
	}
	r->ids[r->n] = xstrndup(id, idlen);
	r->msgs[r->n] = xstrndup(msg, msglen);
	r->n++;
	r->ids[r->n] = r->msgs[r->n] = NULL;
}

static void
revs_free(struct revs *r)
{
	config_argv_free(r->ids);
	config_argv_free(r->msgs);
	memset(r, 0, sizeof *r);
}

/* "ID message" / "ID<TAB>message" lines; blank lines and # comments skipped. */
static void
revs_parse_lines(struct revs *r, const char *text)
{
	const char	*p = text, *nl, *sp;

	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		if (p == nl || *p == '#')
			continue;
		for (sp = p; sp < nl && *sp != ' ' && *sp != '\t'; sp++)
			;
		revs_add(r, p, (size_t)(sp - p), sp < nl ? sp + 1 : sp,
		    sp < nl ? (size_t)(nl - sp - 1) : 0);
	}
}

/* Runs argv (no shell), returns its stdout (heap) or NULL with err. */
static char *
run_capture(char *const argv[], char *err, size_t errlen)
{
	struct buf	 b;
	char		 chunk[8192];
	ssize_t		 n;
	pid_t		 pid;
	int		 fd[2], status;

	if (pipe(fd) == -1 || (pid = fork()) == -1) {
		util_seterr(err, errlen, "%s: %s", argv[0], strerror(errno));
		return NULL;
	}
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "labrat: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	buf_init(&b, REVS_TEXT_MAX);
	while ((n = read(fd[0], chunk, sizeof chunk)) > 0 || (n == -1 &&
	    errno == EINTR))
		if (n > 0 && buf_append(&b, chunk, (size_t)n) == -1)
			break;
	close(fd[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (b.truncated || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		util_seterr(err, errlen, "%s %s failed%s", argv[0], argv[1],
		    b.truncated ? ": output too large" : "");
		buf_free(&b);
		return NULL;
	}
	return buf_release(&b);
}

/* git:PATH[:sub,...]: GOOD, then --first-parent GOOD..BAD, oldest first.
 * *good / *bad are replaced by the full hashes. */
static int
revs_git(struct revs *r, const char *spec, char **good, char **bad,
    char *err, size_t errlen)
{
	char	*path, *subs, *out, *argv[80], *s, *res[2], *c;
	size_t	 n = 0, i;
	int	 rc = -1;

	path = xstrdup(spec + 4);
	if ((subs = strchr(path, ':')) != NULL)
		*subs++ = '\0';
	for (i = 0; i < 2; i++) {
		char *ref = xasprintf("%s^{commit}", i == 0 ? *good : *bad);
		char *a[] = { "git", "-C", path, "rev-parse", "--verify", "-q",
		    ref, NULL };

		res[i] = run_capture(a, err, errlen);
		free(ref);
		if (res[i] == NULL) {
			util_seterr(err, errlen, "%s: %s is not a commit",
			    path, i == 0 ? *good : *bad);
			if (i == 1)
				free(res[0]);
			goto fail;
		}
		res[i][strcspn(res[i], "\n")] = '\0';
	}
	free(*good);
	free(*bad);
	*good = res[0];
	*bad = res[1];
	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = path;
	argv[n++] = "log";
	argv[n++] = "--first-parent";
	argv[n++] = "--reverse";
	argv[n++] = "--format=%H %s";
	argv[n++] = s = xasprintf("%s..%s", *good, *bad);
	argv[n++] = "--";
	for (c = subs != NULL ? strtok(subs, ",") : NULL; c != NULL &&
	    n < 78; c = strtok(NULL, ","))
		argv[n++] = c;
	argv[n] = NULL;
	out = run_capture(argv, err, errlen);
	free(s);
	if (out == NULL)
		goto fail;
	revs_add(r, *good, strlen(*good), "", 0);
	revs_parse_lines(r, out);
	free(out);
	if (strcmp(r->ids[r->n - 1], *bad) != 0)
		revs_add(r, *bad, strlen(*bad), "", 0);
	rc = 0;
fail:
	free(path);
	return rc;
}

static int
revs_load(struct revs *r, const char *src, const char *inventory,
    char **good, char **bad, char *err, size_t errlen)
{
	struct config_errors	 errs;
	char			*text, *def = NULL, *slash, **ids, **msgs;
	const char		*p;
	size_t			 n, i;
	int			 rc;

	memset(r, 0, sizeof *r);
	if (src != NULL && strncmp(src, "git:", 4) == 0)
		return revs_git(r, src, good, bad, err, errlen);
	if (src == NULL) {
		slash = strrchr(inventory, '/');
		def = slash != NULL ? xasprintf("%.*s/history.json",
		    (int)(slash - inventory), inventory) :
		    xstrdup("history.json");
		if (access(def, R_OK) == -1) {
			util_seterr(err, errlen, "no --revisions and no %s "
			    "next to the inventory", def);
			free(def);
			return -1;
		}
		src = def;
	}
	if ((text = util_read_file(src, REVS_TEXT_MAX, NULL, err,
	    errlen)) == NULL) {
		free(def);
		return -1;
	}
	for (p = text; *p == ' ' || *p == '\n' || *p == '\t'; p++)
		;
	rc = 0;
	if (*p == '{') {
		config_errors_init(&errs);
		if (config_history_revisions(src, &ids, &msgs, &n,
		    &errs) == -1) {
			util_seterr(err, errlen, "%s", errs.n > 0 ?
			    errs.msgs[0] : src);
			rc = -1;
		} else {
			for (i = 0; i < n; i++)
				revs_add(r, ids[i], strlen(ids[i]), msgs[i],
				    strlen(msgs[i]));
			config_argv_free(ids);
			config_argv_free(msgs);
		}
		config_errors_free(&errs);
	} else
		revs_parse_lines(r, text);
	free(text);
	free(def);
	if (rc == 0 && r->n == 0) {
		util_seterr(err, errlen, "%s: no revisions", src);
		rc = -1;
	}
	for (i = 0; rc == 0 && i < r->n; i++)
		if (!config_valid_revision(r->ids[i])) {
			util_seterr(err, errlen, "%s: \"%.64s\" is not a "
			    "revision id", src, r->ids[i]);
			rc = -1;
		}
	return rc;
}

/* GOOD..BAD of r as the store keeps it: "id\tmessage" lines. */
static char *
revs_text(const struct revs *r, size_t good, size_t bad)
{
	struct buf	b;
	size_t		i;

	buf_init(&b, REVS_TEXT_MAX);
	for (i = good; i <= bad; i++)
		buf_printf(&b, "%s\t%s\n", r->ids[i], r->msgs[i]);
	return buf_release(&b);
}

/* The candidate side's knobs, as the store keys them. */
static void
test_knobs_key(const struct config_bisect_test *t, char *knobs, size_t len)
{
	const char	*vs;
	char		 v[32];
	int		 k;

	knobs[0] = '\0';
	for (k = 0; k < CONFIG_KNOB_COUNT; k++) {
		if (!t->knob_set[k] && !(t->compare == CONFIG_BISECT_AB &&
		    (int)t->ab_knob == k))
			continue;
		vs = matrix_value_str(k, t->knob_set[k] ? t->knob_value[k] :
		    t->ab_candidate, v, sizeof v);
		snprintf(knobs + strlen(knobs), len - strlen(knobs), "%s%s=%s",
		    knobs[0] != '\0' ? "," : "", config_knob_name(k), vs);
	}
}

/* Index of GOOD and BAD in r; 0 or -1 with a message. */
static int
revs_endpoints(const struct revs *r, const char *good, const char *bad,
    long *gi, long *bi)
{
	size_t	i;

	for (*gi = *bi = -1, i = 0; i < r->n; i++) {
		if (strcmp(r->ids[i], good) == 0)
			*gi = (long)i;
		if (strcmp(r->ids[i], bad) == 0)
			*bi = (long)i;
	}
	if (*gi < 0 || *bi < 0 || *gi >= *bi) {
		log_warnx("--good %s / --bad %s: %s", good, bad, *gi < 0 ?
		    "GOOD is not in the revisions" : *bi < 0 ? "BAD is not in "
		    "the revisions" : "GOOD must come before BAD");
		return -1;
	}
	return 0;
}

/* Validates and stores a new bisect; 0, -1 (fail), -2 (usage/config). */
static int
bisect_create(const struct bisect_cli_request *rq, int64_t *id)
{
	struct config_errors		 errs;
	struct config_inventory		*inv = NULL;
	struct config_bisect_test	*t = NULL;
	struct config_plan		*plan = NULL;
	struct store_bisect_spec	 sp;
	struct store			*st = NULL;
	struct bisect			*m = NULL;
	struct revs			 r;
	char				 err[1024], ipath[PATH_MAX],
					 tpath[PATH_MAX], *good, *bad,
					 *text = NULL, knobs[STORE_KEY_MAX];
	long				 gi, bi;
	size_t				 i;
	int				 rc = -2;

	memset(&r, 0, sizeof r);
	good = xstrdup(rq->good);
	bad = xstrdup(rq->bad);
	config_errors_init(&errs);
	if ((inv = config_inventory_load(rq->inventory, &errs)) == NULL ||
	    (t = config_bisect_test_load(rq->test, &errs)) == NULL ||
	    (plan = config_bisect_plan(t, rq->link, inv, &errs)) == NULL) {
		for (i = 0; i < errs.n; i++)
			fprintf(stderr, "%s\n", errs.msgs[i]);
		goto out;
	}
	if (config_inventory_link(inv, rq->link) == NULL) {
		log_warnx("%s: no link %s", rq->inventory, rq->link);
		goto out;
	}
	if (realpath(rq->inventory, ipath) == NULL ||
	    realpath(rq->test, tpath) == NULL) {
		log_warn("realpath");
		goto out;
	}
	if (revs_load(&r, rq->revisions, ipath, &good, &bad, err,
	    sizeof err) == -1) {
		log_warnx("revisions: %s", err);
		goto out;
	}
	if (revs_endpoints(&r, good, bad, &gi, &bi) == -1)
		goto out;
	if ((m = bisect_new((const char *const *)r.ids + gi,
	    (size_t)(bi - gi + 1), 0, (size_t)(bi - gi), err,
	    sizeof err)) == NULL) {
		log_warnx("revisions: %s", err);
		goto out;
	}
	rc = -1;
	text = revs_text(&r, (size_t)gi, (size_t)bi);
	test_knobs_key(t, knobs, sizeof knobs);
	memset(&sp, 0, sizeof sp);
	sp.link = rq->link;
	sp.knobs = knobs;
	sp.tool = config_tool_name(t->tool);
	sp.params = strlen(t->workload_json) < STORE_PARAMS_MAX ?
	    t->workload_json : "";
	sp.metric = t->metric;
	sp.good = good;
	sp.bad = bad;
	sp.revisions = text;
	sp.inventory_path = ipath;
	sp.plan_path = tpath;
	if (store_open(rq->db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE,
	    &st, err, sizeof err) == -1 || store_bisect_create(st, &sp, id,
	    err, sizeof err) == -1) {
		log_warnx("%s", err);
		goto out;
	}
	if (!rq->quiet)
		fprintf(stderr, "labrat: bisect %lld started: %ld revisions "
		    "%s..%s on link %s (db %s)\n", (long long)*id,
		    bi - gi + 1, good, bad, rq->link, rq->db_path);
	rc = 0;
out:
	store_close(st);
	bisect_free(m);
	free(text);
	revs_free(&r);
	free(good);
	free(bad);
	config_plan_free(plan);
	config_bisect_test_free(t);
	config_inventory_free(inv);
	config_errors_free(&errs);
	return rc;
}

/* One "good|bad|skip REV" line of a log, with the evidence of the comment
 * line before it, as a step row of bisect id. */
static int
replay_line(struct store *st, int64_t id, const char *line,
    const char *comment, char *err, size_t errlen)
{
	struct store_bisect_step	 row;
	const char			*ev;
	char				 verdict[16], rev[STORE_NAME_MAX];
	long long			 run;
	int64_t				 sid;

	memset(&row, 0, sizeof row);
	if (sscanf(line, "%15s %63s", verdict, rev) != 2 ||
	    (strcmp(verdict, "good") != 0 && strcmp(verdict, "bad") != 0 &&
	    strcmp(verdict, "skip") != 0)) {
		util_seterr(err, errlen, "not a step: %.80s", line);
		return -1;
	}
	snprintf(row.revision, sizeof row.revision, "%s", rev);
	snprintf(row.verdict, sizeof row.verdict, "%s", verdict);
	row.p = strcmp(verdict, "skip") == 0 ? 1.0 : 0.0;
	if ((ev = strchr(comment, ']')) != NULL && strstr(comment, rev) !=
	    NULL && sscanf(ev + 1, " n=%d median=%lf reference=%lf "
	    "ratio=%lf p=%lf run=%lld", &row.n, &row.median,
	    &row.baseline_median, &row.ratio, &row.p, &run) < 5)
		row.p = strcmp(verdict, "skip") == 0 ? 1.0 : 0.0;
	if (store_bisect_step_add(st, id, &row, &sid, err, errlen) == -1)
		return -1;
	row.id = sid;
	row.bisect_id = id;
	return store_bisect_step_update(st, &row, err, errlen);
}

/* Records the steps of a `bisect log` file for bisect id (not measured
 * again; resume replays them through the state machine, which refuses a
 * step that does not apply). */
static int
replay_log(const char *db, int64_t id, const char *path)
{
	struct store	*st = NULL;
	char		*text = NULL, *line, *next, err[1024];
	char		 comment[1024] = "";
	int		 rc = -1, nsteps = 0;

	if ((text = util_read_file(path, REVS_TEXT_MAX, NULL, err,
	    sizeof err)) == NULL || store_open(db, STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		goto out;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (line[0] == '#') {
			snprintf(comment, sizeof comment, "%s", line);
			continue;
		}
		if (line[0] == '\0')
			continue;
		if (replay_line(st, id, line, comment, err, sizeof err) == -1)
			goto out;
		comment[0] = '\0';
		nsteps++;
	}
	if (nsteps == 0) {
		util_seterr(err, sizeof err, "no good/bad/skip lines");
		goto out;
	}
	fprintf(stderr, "labrat: bisect %lld: %d steps replayed from %s\n",
	    (long long)id, nsteps, path);
	rc = 0;
out:
	if (rc == -1)
		log_warnx("replay %s: %s", path, err);
	free(text);
	store_close(st);
	return rc;
}

int
bisect_cli_run(const struct bisect_cli_request *rq, int64_t *idp)
{
	int64_t	id = 0;
	int	rc;

	if ((rc = bisect_create(rq, &id)) != 0)
		return rc == -2 ? CMD_EXIT_USAGE : CMD_EXIT_FAIL;
	if (rq->replay != NULL && replay_log(rq->db_path, id,
	    rq->replay) == -1)
		return CMD_EXIT_FAIL;
	if (idp != NULL)
		*idp = id;
	return bisect_cli_resume(rq->db_path, id, rq->json, rq->quiet);
}

static int
bisect_reset(const char *db, int64_t id)
{
	struct store		*st = NULL;
	struct store_bisect	 b;
	char			 err[1024];
	int			 r;

	memset(&b, 0, sizeof b);
	if (store_open(db, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st, err,
	    sizeof err) == -1 || (r = store_bisect_get(st, id, &b, err,
	    sizeof err)) == -1 || (r == 1 && store_bisect_update(st, b.id,
	    "reset", NULL, 0, "reset by the user", err, sizeof err) == -1)) {
		log_warnx("%s", err);
		store_bisect_free(&b);
		store_close(st);
		return CMD_EXIT_FAIL;
	}
	if (r == 0)
		log_warnx("%s: no bisect %lld", db, (long long)id);
	else
		fprintf(stderr, "labrat: bisect %lld reset (was %s)\n",
		    (long long)b.id, b.state);
	store_bisect_free(&b);
	store_close(st);
	return r == 1 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

static int
bisect_start(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ "link", required_argument, NULL, 'l' },
		{ "good", required_argument, NULL, 'g' },
		{ "bad", required_argument, NULL, 'b' },
		{ "test", required_argument, NULL, 't' },
		{ "revisions", required_argument, NULL, 'r' },
		{ "replay", required_argument, NULL, 'R' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct bisect_cli_request	 rq;
	int				 ch;

	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'i': rq.inventory = optarg; break;
		case 'l': rq.link = optarg; break;
		case 'g': rq.good = optarg; break;
		case 'b': rq.bad = optarg; break;
		case 't': rq.test = optarg; break;
		case 'r': rq.revisions = optarg; break;
		case 'R': rq.replay = optarg; break;
		case 'q': rq.quiet = 1; break;
		default: return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (rq.inventory == NULL || rq.link == NULL || rq.good == NULL ||
	    rq.bad == NULL || rq.test == NULL)
		return cmd_usage_error(ctx, "%s missing", rq.inventory == NULL ?
		    "--inventory FILE" : rq.link == NULL ? "--link LINK" :
		    rq.good == NULL ? "--good REV" : rq.bad == NULL ?
		    "--bad REV" : "--test FILE");
	rq.db_path = ctx->db;
	rq.json = ctx->format != NULL && strcmp(ctx->format, "json") == 0;
	return bisect_cli_run(&rq, NULL);
}

/* The options of status, log, resume and reset: --bisect ID [--quiet]. */
static int
bisect_opts(struct cmd_ctx *ctx, int64_t *id, int *quiet)
{
	/* longopts + 1 when there is no --quiet. */
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "bisect", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*errstr;
	long long	 v;
	int		 ch;

	*id = 0;
	optind = 1;
	while ((ch = cmd_getopt(ctx, quiet != NULL ? longopts :
	    longopts + 1)) != -1) {
		if (ch == 'q')
			*quiet = 1;
		else if (ch != 'n')
			return -1;
		else if (util_strtonum(optarg, 1, INT64_MAX, &v, &errstr) ==
		    -1) {
			cmd_usage_error(ctx, "--bisect %s: %s", optarg, errstr);
			return -1;
		} else
			*id = v;
	}
	return cmd_positionals(ctx, optind, 0, 0, "");
}

static int
bisect_status(struct cmd_ctx *ctx)
{
	int64_t	id;
	int	what = strcmp(ctx->entry->name, "bisect log") == 0 ? 2 : 1;

	if (bisect_opts(ctx, &id, NULL) == -1)
		return CMD_EXIT_USAGE;
	return bisect_cli_show(ctx->db, id, what, strcmp(ctx->format,
	    "json") == 0, stdout) == 0 ? CMD_EXIT_OK : CMD_EXIT_FAIL;
}

static int
bisect_resume(struct cmd_ctx *ctx)
{
	int64_t	id;
	int	quiet = 0;

	if (bisect_opts(ctx, &id, &quiet) == -1)
		return CMD_EXIT_USAGE;
	return bisect_cli_resume(ctx->db, id, strcmp(ctx->format, "json") ==
	    0, quiet);
}

static int
bisect_reset_exec(struct cmd_ctx *ctx)
{
	int64_t	id;

	if (bisect_opts(ctx, &id, NULL) == -1)
		return CMD_EXIT_USAGE;
	return bisect_reset(ctx->db, id);
}

#define BISECT_ID_OPT	{ "--bisect ID", "The bisect (default: the " \
	"newest)." }

const struct cmd_entry cmd_bisect_start_entry = {
	.name = "bisect start",
	.args = "--inventory FILE --link LINK --good REV --bad REV --test FILE "
	    "[--revisions SOURCE] [--replay LOG] [--quiet]",
	.summary = "Finds the revision between GOOD and BAD that made the "
	    "test's comparison regress on LINK: installs each revision on "
	    "both hosts of the link, reboots them, checks they run it, "
	    "measures and decides. Exit 0 when the culprit (or a range of "
	    "untestable revisions) was found, 1 when the bisect failed or "
	    "was interrupted.",
	.options = (const struct cmd_option[]){
		{ "--inventory FILE", "The lab; its hosts' kernel provider "
		    "installs the revisions." },
		{ "--link LINK", "The link whose two hosts are measured." },
		{ "--good REV", "A revision without the regression." },
		{ "--bad REV", "A revision with it." },
		{ "--test FILE", "What to measure and the threshold (schema "
		    "schemas/bisect-test.schema.json)." },
		{ "--revisions SOURCE", "git:PATH[:SUBDIR,...] (first-parent "
		    "history GOOD..BAD), a plain file (ID [message] per line) "
		    "or a simulated lab's history.json (default: the "
		    "history.json next to the inventory)." },
		{ "--replay LOG", "Take the steps of an earlier `bisect log` "
		    "first instead of measuring them again." },
		{ "--quiet", "No progress lines." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.formats = "text|json",
	.exec = bisect_start,
};

const struct cmd_entry cmd_bisect_status_entry = {
	.name = "bisect status",
	.args = "[--bisect ID]",
	.summary = "Shows a bisect's state, its range and each step so far.",
	.options = (const struct cmd_option[]){ BISECT_ID_OPT,
		{ NULL, NULL } },
	.flags = CMD_DB,
	.formats = "text|json",
	.exec = bisect_status,
};

const struct cmd_entry cmd_bisect_log_entry = {
	.name = "bisect log",
	.args = "[--bisect ID]",
	.summary = "Prints a bisect's steps as a log (good|bad|skip REV "
	    "lines with their evidence), which `bisect start --replay` "
	    "takes.",
	.options = (const struct cmd_option[]){ BISECT_ID_OPT,
		{ NULL, NULL } },
	.flags = CMD_DB,
	.formats = "text|json",
	.exec = bisect_status,
};

const struct cmd_entry cmd_bisect_resume_entry = {
	.name = "bisect resume",
	.args = "[--bisect ID] [--quiet]",
	.summary = "Continues a bisect whose controller died, from its "
	    "stored steps; a step cut short is measured again.",
	.options = (const struct cmd_option[]){ BISECT_ID_OPT,
		{ "--quiet", "No progress lines." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.formats = "text|json",
	.exec = bisect_resume,
};

const struct cmd_entry cmd_bisect_reset_entry = {
	.name = "bisect reset",
	.args = "[--bisect ID]",
	.summary = "Ends a bisect: marks it reset in the store.",
	.options = (const struct cmd_option[]){ BISECT_ID_OPT,
		{ NULL, NULL } },
	.flags = CMD_DB,
	.exec = bisect_reset_exec,
};
