/*
 * hunt_revs: where a bisect's revisions come from -- git first-parent
 * history (fork/exec of git, no shell), a plain "ID message" list, a
 * simulated lab's history file -- and the steps of a `bisect log` fed back
 * with --replay.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "hunt_int.h"
#include "matrix.h"
#include "store.h"
#include "util.h"

static void
revs_add(struct hunt_revs *r, const char *id, size_t idlen, const char *msg,
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

void
hunt_revs_free(struct hunt_revs *r)
{
	config_argv_free(r->ids);
	config_argv_free(r->msgs);
	memset(r, 0, sizeof *r);
}

void
hunt_revs_parse_stored(struct hunt_revs *r, const char *text)
{
	const char	*p = text != NULL ? text : "", *nl, *tab;

	memset(r, 0, sizeof *r);
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl == p)
			continue;
		if ((tab = memchr(p, '\t', (size_t)(nl - p))) == NULL)
			revs_add(r, p, (size_t)(nl - p), "", 0);
		else
			revs_add(r, p, (size_t)(tab - p), tab + 1,
			    (size_t)(nl - tab - 1));
	}
	if (r->ids == NULL) {
		r->ids = xcalloc(1, sizeof *r->ids);
		r->msgs = xcalloc(1, sizeof *r->msgs);
	}
}

/* "ID message" / "ID<TAB>message" lines; blank lines and # comments skipped. */
static void
revs_parse_lines(struct hunt_revs *r, const char *text)
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
	buf_init(&b, HUNT_TEXT_MAX);
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
revs_git(struct hunt_revs *r, const char *spec, char **good, char **bad,
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

int
hunt_revs_load(struct hunt_revs *r, const char *src, char **good,
    char **bad, char *err, size_t errlen)
{
	struct config_errors	 errs;
	char			*text, **ids, **msgs;
	const char		*p;
	size_t			 n, i;
	int			 rc;

	memset(r, 0, sizeof *r);
	if (strncmp(src, "git:", 4) == 0)
		return revs_git(r, src, good, bad, err, errlen);
	if ((text = util_read_file(src, HUNT_TEXT_MAX, NULL, err,
	    errlen)) == NULL)
		return -1;
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

char *
hunt_revs_text(const struct hunt_revs *r, size_t good, size_t bad)
{
	struct buf	b;
	size_t		i;

	buf_init(&b, HUNT_TEXT_MAX);
	for (i = good; i <= bad; i++)
		buf_printf(&b, "%s\t%s\n", r->ids[i], r->msgs[i]);
	return buf_release(&b);
}

void
hunt_test_knobs_key(const struct config_bisect_test *t, char *knobs, size_t len)
{
	struct knobs	k = t->knobs;

	if (t->compare == CONFIG_BISECT_AB)
		knobs_set(&k, t->ab_knob, t->ab_candidate);
	if (knobs_key(&k, knobs, len) == -1)
		knobs[0] = '\0';
}

int
hunt_revs_endpoints(const struct hunt_revs *r, const char *good,
    const char *bad, long *gi, long *bi, char *err, size_t errlen)
{
	size_t	i;

	for (*gi = *bi = -1, i = 0; i < r->n; i++) {
		if (strcmp(r->ids[i], good) == 0)
			*gi = (long)i;
		if (strcmp(r->ids[i], bad) == 0)
			*bi = (long)i;
	}
	if (*gi < 0 || *bi < 0 || *gi >= *bi) {
		util_seterr(err, errlen, "--good %s / --bad %s: %s", good,
		    bad, *gi < 0 ?
		    "GOOD is not in the revisions" : *bi < 0 ? "BAD is not in "
		    "the revisions" : "GOOD must come before BAD");
		return -1;
	}
	return 0;
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

int
hunt_replay_log(struct store *st, int64_t id, const char *path, int *nsteps,
    char *err, size_t errlen)
{
	char	*text = NULL, *line, *next, e[1024];
	char	 comment[1024] = "";
	int	 rc = -1;

	*nsteps = 0;
	if ((text = util_read_file(path, HUNT_TEXT_MAX, NULL, e,
	    sizeof e)) == NULL)
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
		if (replay_line(st, id, line, comment, e, sizeof e) == -1)
			goto out;
		comment[0] = '\0';
		(*nsteps)++;
	}
	if (*nsteps == 0) {
		util_seterr(e, sizeof e, "no good/bad/skip lines");
		goto out;
	}
	rc = 0;
out:
	if (rc == -1)
		util_seterr(err, errlen, "replay %s: %s", path, e);
	free(text);
	return rc;
}

