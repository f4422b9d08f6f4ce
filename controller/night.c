/*
 * night.c: night_fire() and its first steps -- the night's row, the
 * schedule and its configs, the newest revision (a command or a git ref,
 * fork/exec without a shell, output capped, a timeout), the install on
 * the links' hosts and the night's run.  Detection and records are in
 * night_detect.c, bisects in night_bisect.c, notifications in
 * night_notify.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel.h"
#include "log.h"
#include "night_int.h"
#include "run.h"
#include "util.h"

const char *
night_status_name(enum night_status s)
{
	switch (s) {
	case NIGHT_DONE:	return "done";
	case NIGHT_INTERRUPTED:	return "interrupted";
	default:		return "failed";
	}
}

void
night_say(struct night_ctx *c, const char *fmt, ...)
{
	char	line[1024];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	log_info("night %lld: %s", (long long)c->n.id, line);
	if (c->rq->say != NULL)
		c->rq->say(line, c->rq->say_arg);
}

int
night_save(struct night_ctx *c, const char *state, char *err, size_t errlen)
{
	free(c->n.state);
	c->n.state = xstrdup(state);
	return store_night_update(c->st, &c->n, err, errlen);
}

/* ---- the newest revision ---------------------------------------------- */

/* Runs argv (no shell), its stdout (at most NIGHT_OUT_MAX) into out. */
static int
night_capture(char *const argv[], char *out, size_t outlen, char *err,
    size_t errlen)
{
	int64_t	 deadline = util_now_ms() + NIGHT_CMD_TIMEOUT_MS;
	size_t	 len = 0;
	int	 fd[2], status, devnull;
	pid_t	 pid;
	ssize_t	 r;
	char	 junk[512];

	if (pipe(fd) == -1) {
		util_seterr(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	if ((pid = fork()) == -1) {
		util_seterr(err, errlen, "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		devnull = open("/dev/null", O_RDONLY);
		if (devnull != -1)
			dup2(devnull, 0);
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		struct pollfd	pfd = { fd[0], POLLIN, 0 };
		int64_t		left = deadline - util_now_ms();

		if (left <= 0 || poll(&pfd, 1, (int)(left > 1000 ? 1000 :
		    left)) == -1) {
			if (left > 0 && errno == EINTR)
				continue;
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(fd[0]);
			util_seterr(err, errlen, "%s: timed out", argv[0]);
			return -1;
		}
		if (pfd.revents == 0)
			continue;
		if (len + 1 < outlen)
			r = read(fd[0], out + len, outlen - 1 - len);
		else
			r = read(fd[0], junk, sizeof junk);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (len + 1 < outlen)
			len += (size_t)r;
	}
	out[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		util_seterr(err, errlen, "%s: exited %d", argv[0],
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return 0;
}

/* The first line of out, trimmed, validated, into rev. */
static int
night_first_line(const char *what, const char *out, char *rev, size_t len,
    char *err, size_t errlen)
{
	size_t	n;

	while (*out == ' ' || *out == '\t' || *out == '\n')
		out++;
	n = strcspn(out, " \t\r\n");
	if (n == 0 || n >= len) {
		util_seterr(err, errlen, "%s printed no revision id", what);
		return -1;
	}
	memcpy(rev, out, n);
	rev[n] = '\0';
	if (!config_valid_revision(rev)) {
		util_seterr(err, errlen, "%s printed \"%s\": not a revision "
		    "id", what, rev);
		return -1;
	}
	return 0;
}

int
night_newest(const struct config_revsource *src, char *rev, size_t len,
    char *err, size_t errlen)
{
	char	 out[NIGHT_OUT_MAX], *colon, *path;
	int	 rc;

	if (src->newest_cmd != NULL) {
		if (night_capture(src->newest_cmd, out, sizeof out, err,
		    errlen) == -1)
			return -1;
		return night_first_line(src->newest_cmd[0], out, rev, len, err,
		    errlen);
	}
	if (src->newest_git == NULL ||
	    (colon = strrchr(src->newest_git, ':')) == NULL) {
		util_seterr(err, errlen, "revision source %s: no \"newest\"",
		    src->name);
		return -1;
	}
	path = xstrdup(src->newest_git);
	path[colon - src->newest_git] = '\0';
	{
		char	*fetch[] = { "git", "-C", path, "fetch", "--quiet",
		    NULL };
		char	*parse[] = { "git", "-C", path, "rev-parse",
		    "--verify", colon + 1, NULL };

		rc = night_capture(fetch, out, sizeof out, err, errlen);
		if (rc == 0)
			rc = night_capture(parse, out, sizeof out, err,
			    errlen);
	}
	free(path);
	return rc == 0 ? night_first_line("git rev-parse", out, rev, len,
	    err, errlen) : -1;
}

static int
night_revision(struct night_ctx *c, char *err, size_t errlen)
{
	const struct config_revsource	*src;
	char				 rev[CONFIG_REV_MAX + 1];

	if (c->sched.revisions == NULL) {
		util_seterr(err, errlen, "schedule %s has no revision source "
		    "(--revisions)", c->sched.name);
		return -1;
	}
	src = config_daemon_source(c->rq->daemon, c->sched.revisions);
	if (src == NULL) {
		util_seterr(err, errlen, "schedule %s: revision source \"%s\" "
		    "is not in %s", c->sched.name, c->sched.revisions,
		    c->rq->daemon->path);
		return -1;
	}
	if (night_newest(src, rev, sizeof rev, err, errlen) == -1)
		return -1;
	c->n.revision = xstrdup(rev);
	night_say(c, "newest revision of %s: %s", src->name, rev);
	return night_save(c, "revision", err, errlen);
}

/* ---- install ---------------------------------------------------------- */

struct night_inst {
	const struct config_host	*h;
	const char			*rev;
	struct kernel_outcome		 out;
	int				 rc;
	int				 threaded;
	char				 err[1024];
};

static void *
night_inst_main(void *arg)
{
	struct night_inst	*in = arg;
	struct kernel_opts	 ko;

	memset(&ko, 0, sizeof ko);
	in->rc = kernel_install_host(in->h, in->rev, &ko, &in->out, in->err,
	    sizeof in->err);
	return NULL;
}

/* The hosts of the plan's links (each once, those with a provider). */
static size_t
night_hosts(struct night_ctx *c, struct night_inst *in, size_t max)
{
	size_t	i, j, k, n = 0;

	for (i = 0; i < c->plan->nlinks; i++) {
		const struct config_link *l =
		    config_inventory_link(c->inv, c->plan->links[i]);

		for (k = 0; l != NULL && k < 2 && n < max; k++) {
			const struct config_host *h = &c->inv->hosts[k == 0 ?
			    l->client.host_index : l->server.host_index];

			for (j = 0; j < n && in[j].h != h; j++)
				;
			if (j < n || h->kernel.type == CONFIG_KERNEL_NONE)
				continue;
			memset(&in[n], 0, sizeof in[n]);
			in[n].h = h;
			in[n++].rev = c->n.revision;
		}
	}
	return n;
}

/* Tonight's revision on every host, all in parallel (kernel_install_host
 * is thread-safe for different hosts), each verified. */
static int
night_install(struct night_ctx *c, char *err, size_t errlen)
{
	struct night_inst	*in;
	pthread_t		*th;
	size_t			 i, n, max = 2 * CONFIG_LINKS_MAX;
	int			 rc = 0;

	in = xcalloc(max, sizeof *in);
	th = xcalloc(max, sizeof *th);
	n = night_hosts(c, in, max);
	for (i = 0; i < n; i++) {
		in[i].threaded = pthread_create(&th[i], NULL, night_inst_main,
		    &in[i]) == 0;
		if (!in[i].threaded)
			night_inst_main(&in[i]);
	}
	for (i = 0; i < n; i++) {
		if (in[i].threaded)
			pthread_join(th[i], NULL);
		if (in[i].rc == -1 || in[i].out.result != KERNEL_OK) {
			if (rc == 0 && in[i].rc == -1)
				util_seterr(err, errlen, "%s", in[i].err);
			else if (rc == 0)
				util_seterr(err, errlen, "%s: %s %s: %s",
				    in[i].h->name, c->n.revision,
				    kernel_result_name(in[i].out.result),
				    in[i].out.detail);
			rc = -1;
		} else
			night_say(c, "%s runs %s", in[i].h->name,
			    c->n.revision);
	}
	free(in);
	free(th);
	if (rc == -1)
		return -1;
	if (*c->rq->stop) {
		util_seterr(err, errlen, "stopped after the install");
		return 1;
	}
	return night_save(c, "installed", err, errlen);
}

/* ---- runs ------------------------------------------------------------- */

int
night_plan_file(struct night_ctx *c, const char *links, const char *path,
    char *err, size_t errlen)
{
	struct config_errors	 errs;
	struct config_plan	*p;
	char			*json;
	int			 rc;

	config_errors_init(&errs);
	p = config_plan_parse(c->sched.plan_path, c->sched.plan_text,
	    strlen(c->sched.plan_text), c->inv, &errs);
	if (p == NULL) {
		util_seterr(err, errlen, "%s", errs.n > 0 ? errs.msgs[0] :
		    "plan does not parse");
		config_errors_free(&errs);
		return -1;
	}
	config_errors_free(&errs);
	if (links != NULL && *links != '\0' &&
	    config_plan_restrict(p, links, err, errlen) == -1) {
		config_plan_free(p);
		return -1;
	}
	json = config_plan_json(p);
	rc = util_write_file_atomic(path, json, strlen(json), 0640, err,
	    errlen);
	free(json);
	if (rc == 0 && c->plan == NULL)
		c->plan = p;
	else
		config_plan_free(p);
	return rc;
}

struct night_started {
	struct night_ctx	*c;
	int64_t			*run_id;	/* c->n.run_id or confirm_run_id */
	int			 failed;	/* the night row not written */
	char			 err[512];
};

/*
 * The run exists: its id goes into the night's row before a job is
 * driven, so a night killed mid-run resumes this run instead of starting
 * a second one (and leaving this one running, owned by the dead).
 */
static void
night_run_started(const struct run_result *res, void *arg)
{
	struct night_started	*ns = arg;

	if (*ns->run_id == res->run_id)
		return;
	*ns->run_id = res->run_id;
	if (store_night_update(ns->c->st, &ns->c->n, ns->err,
	    sizeof ns->err) == -1)
		ns->failed = 1;
}

int
night_run(struct night_ctx *c, const char *plan_path, int64_t *run_id,
    int is_confirm, char *err, size_t errlen)
{
	struct run_request	 rq;
	struct run_result	 res;
	struct config_errors	 errs;
	struct store_run	 r;
	struct night_started	 ns;
	enum run_status		 rs;

	if (*run_id != 0 && store_run_get(c->st, *run_id, &r, err,
	    errlen) == 1) {
		/* A run its stop flag cancelled has nothing left to resume. */
		if (r.state == STORE_RUN_CANCELLED)
			*run_id = 0;
		store_run_free(&r);
	}
	memset(&rq, 0, sizeof rq);
	rq.db_path = c->rq->db_path;
	rq.inventory = c->sched.inventory_path;
	rq.plan = plan_path;
	rq.kind = "nightly";
	rq.resume = *run_id;
	rq.owner = c->rq->owner;
	rq.note = is_confirm ? "confirming re-run" : NULL;
	rq.drive.stop = c->rq->stop;
	memset(&ns, 0, sizeof ns);
	ns.c = c;
	ns.run_id = run_id;
	rq.started = night_run_started;
	rq.started_arg = &ns;
	config_errors_init(&errs);
	memset(&res, 0, sizeof res);
	rs = run_execute(&rq, &res, &errs, err, errlen);
	if (rs == RUN_CONFIG)
		util_seterr(err, errlen, "%s", errs.n > 0 ? errs.msgs[0] :
		    "bad inventory or plan");
	config_errors_free(&errs);
	if (ns.failed) {
		/* The run went on; the row gets its id at the next write. */
		log_warnx("night %lld: record run %lld: %s", (long long)c->n.id,
		    (long long)*run_id, ns.err);
	}
	if (res.outcome == RUN_OUTCOME_DONE ||
	    res.outcome == RUN_OUTCOME_JOBS_FAILED) {
		night_say(c, "%s run %lld: %lld jobs done", is_confirm ?
		    "confirming" : "night's", (long long)*run_id,
		    (long long)res.sum.done);
		return 0;
	}
	if (err[0] == '\0')
		util_seterr(err, errlen, "run %lld: not driven to its end",
		    (long long)*run_id);
	return res.outcome == RUN_OUTCOME_INTERRUPTED ? 1 : -1;
}

/* ---- the firing ------------------------------------------------------- */

static int
night_open(struct night_ctx *c, char *err, size_t errlen)
{
	struct config_errors	errs;
	int			rc;

	if (store_open(c->rq->db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE,
	    &c->st, err, errlen) == -1)
		return -1;
	rc = store_sched_get_id(c->st, c->rq->schedule_id, &c->sched, err,
	    errlen);
	if (rc != 1) {
		if (rc == 0)
			util_seterr(err, errlen, "%s: no schedule %lld",
			    c->rq->db_path, (long long)c->rq->schedule_id);
		return -1;
	}
	if (store_night_begin(c->st, c->sched.id, c->rq->slot,
	    c->sched.links, &c->n, err, errlen) == -1)
		return -1;
	config_errors_init(&errs);
	c->inv = config_inventory_load(c->sched.inventory_path, &errs);
	if (c->inv == NULL)
		util_seterr(err, errlen, "%s", errs.n > 0 ? errs.msgs[0] :
		    "inventory does not load");
	config_errors_free(&errs);
	if (c->inv == NULL)
		return -1;
	snprintf(c->dir, sizeof c->dir, "%s.nights", c->rq->db_path);
	if (mkdir(c->dir, 0770) == -1 && errno != EEXIST) {
		util_seterr(err, errlen, "mkdir %s: %s", c->dir,
		    strerror(errno));
		return -1;
	}
	snprintf(c->plan_path, sizeof c->plan_path, "%s/night-%lld-plan.json",
	    c->dir, (long long)c->n.id);
	/* Past the health checks the file says which links run tonight. */
	if (strcmp(c->n.state, "started") != 0 &&
	    access(c->plan_path, R_OK) == 0) {
		config_errors_init(&errs);
		c->plan = config_plan_load(c->plan_path, c->inv, &errs);
		if (c->plan == NULL)
			util_seterr(err, errlen, "%s", errs.n > 0 ?
			    errs.msgs[0] : "plan does not load");
		config_errors_free(&errs);
		return c->plan != NULL ? 0 : -1;
	}
	return night_plan_file(c, c->sched.links, c->plan_path, err, errlen);
}

/* One step by the night's state; 0 moved on, 1 stopped, -1 failed. */
static int
night_step(struct night_ctx *c, char *err, size_t errlen)
{
	const char	*s = c->n.state;
	int		 rc;

	if (*c->rq->stop) {
		util_seterr(err, errlen, "stopped before step %s", s);
		return 1;
	}
	if (strcmp(s, "started") == 0) {
		/* On last night's revision, before tonight's is installed. */
		if ((rc = night_health(c, err, errlen)) != 0)
			return rc;
		return night_revision(c, err, errlen);
	}
	if (strcmp(s, "revision") == 0)
		return night_install(c, err, errlen);
	if (strcmp(s, "installed") == 0) {
		rc = night_run(c, c->plan_path, &c->n.run_id, 0, err, errlen);
		if (c->n.run_id != 0 && store_night_update(c->st, &c->n, err,
		    errlen) == -1)
			return -1;
		return rc != 0 ? rc : night_save(c, "ran", err, errlen);
	}
	if (strcmp(s, "ran") == 0)
		return night_detect(c, err, errlen);
	if (strcmp(s, "detected") == 0)
		return night_confirm(c, err, errlen);
	if (strcmp(s, "confirmed") == 0 || strcmp(s, "bisecting") == 0) {
		switch (night_bisect_all(c, err, errlen)) {
		case NIGHT_DONE:
			return night_save(c, "done", err, errlen);
		case NIGHT_INTERRUPTED:
			return 1;
		default:
			return -1;
		}
	}
	util_seterr(err, errlen, "night %lld: unknown state %s",
	    (long long)c->n.id, s);
	return -1;
}

enum night_status
night_fire_id(const struct night_request *rq, int64_t *night_id, char *err,
    size_t errlen)
{
	struct night_ctx	 c;
	enum night_status	 st = NIGHT_DONE;
	char			 e2[512];
	int			 rc = 0;

	memset(&c, 0, sizeof c);
	c.rq = rq;
	err[0] = '\0';
	if (night_open(&c, err, errlen) == -1)
		st = NIGHT_FAILED;
	if (night_id != NULL)
		*night_id = c.n.id;
	if (c.st != NULL && c.n.state != NULL)
		night_notify_pending(&c);
	while (st == NIGHT_DONE && strcmp(c.n.state, "done") != 0 &&
	    strcmp(c.n.state, "failed") != 0) {
		rc = night_step(&c, err, errlen);
		if (rc == 1)
			st = NIGHT_INTERRUPTED;
		else if (rc == -1)
			st = NIGHT_FAILED;
	}
	if (st == NIGHT_FAILED && c.n.id != 0 && c.st != NULL) {
		free(c.n.reason);
		c.n.reason = xstrdup(err);
		if (strlen(c.n.reason) >= STORE_REASON_MAX)
			c.n.reason[STORE_REASON_MAX - 1] = '\0';
		if (night_save(&c, "failed", e2, sizeof e2) == -1)
			log_warn("night %lld: %s", (long long)c.n.id, e2);
	}
	if (c.st != NULL && c.n.state != NULL)
		night_notify_pending(&c);
	if (c.n.state != NULL && strcmp(c.n.state, "failed") == 0 &&
	    st == NIGHT_DONE) {
		st = NIGHT_FAILED;
		util_seterr(err, errlen, "night %lld failed earlier: %s",
		    (long long)c.n.id, c.n.reason != NULL ? c.n.reason : "");
	}
	store_night_free(&c.n);
	store_night_free(&c.good);
	store_sched_free(&c.sched);
	config_plan_free(c.plan);
	config_inventory_free(c.inv);
	store_close(c.st);
	return st;
}

enum night_status
night_fire(const struct night_request *rq, char *err, size_t errlen)
{
	return night_fire_id(rq, NULL, err, errlen);
}
