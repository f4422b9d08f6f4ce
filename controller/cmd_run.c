/*
 * cmd_run: `labrat run --inventory F --plan F [--resume RUN]`: expand the
 * plan into jobs, drive them through the executor, print a summary.
 */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "executor.h"
#include "json.h"
#include "log.h"
#include "matrix.h"
#include "stats.h"
#include "store.h"
#include "util.h"


static volatile sig_atomic_t	run_stop;

static void
run_on_signal(int sig)
{
	(void)sig;
	run_stop = 1;
}

/* The terminal's width for the live line (80 when it does not say). */
static int
run_tty_width(void)
{
	struct winsize	ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == -1 || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

/*
 * Progress: a live line on a terminal (redrawn in place, cut to the
 * terminal's width, the cursor left at its start so that a diagnostic
 * printed meanwhile overwrites it rather than running on after it), with
 * retries and failures on lines of their own above it; one log line per
 * event otherwise.
 */
static void
run_progress(const struct executor_progress *p, void *arg)
{
	int	tty = *(int *)arg, retry = strcmp(p->state, "retry") == 0;
	char	eta[32], tp[32], line[512];

	if (p->eta_ms >= 0)
		snprintf(eta, sizeof eta, "%lldm%02llds",
		    (long long)(p->eta_ms / 60000),
		    (long long)(p->eta_ms / 1000 % 60));
	else
		snprintf(eta, sizeof eta, "?");
	if (isfinite(p->throughput_bps))
		snprintf(tp, sizeof tp, "%.1f Mbit/s",
		    p->throughput_bps / 1e6);
	else
		snprintf(tp, sizeof tp, "-");
	if (tty) {
		if (p->reason != NULL)
			fprintf(stderr, "\r\033[K%s %s %s: attempt %d %s: "
			    "%s\n", p->link, p->knobs, p->tool, p->attempt,
			    retry ? "failed, retrying" : p->state, p->reason);
		snprintf(line, sizeof line, "%lld/%lld jobs, %lld failed, "
		    "%lld retried, ETA %s  [%s %s %s: %s]",
		    (long long)p->done, (long long)p->total,
		    (long long)p->failed, (long long)p->retried, eta, p->link,
		    p->knobs, p->tool, p->reason != NULL ? p->state : tp);
		fprintf(stderr, "\r\033[K%.*s\r", run_tty_width() - 1, line);
	} else if (retry) {
		fprintf(stderr, "labrat: retrying %s %s %s after attempt %d: "
		    "%s\n", p->link, p->knobs, p->tool, p->attempt,
		    p->reason != NULL ? p->reason : "?");
	} else {
		fprintf(stderr, "labrat: job %lld/%lld %s %s %s attempt %d: "
		    "%s%s%s (ETA %s)\n", (long long)p->done,
		    (long long)p->total, p->link, p->knobs, p->tool,
		    p->attempt, p->state, p->reason != NULL ? ": " : " ",
		    p->reason != NULL ? p->reason : tp, eta);
	}
	fflush(stderr);
}

static int
compare_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
run_print_summary(const char *db_path, int64_t run_id, int json, FILE *fp)
{
	struct store		*st = NULL;
	struct store_series	*ser = NULL;
	struct store_counts	 cnt;
	struct json_writer	*w = NULL;
	size_t			 nser = 0, i;
	char			 err[1024];
	double			*v;

	if (store_open(db_path, STORE_OPEN_READONLY, &st, err,
	    sizeof err) == -1 || store_samples_query(st, run_id,
	    "throughput_bps", &ser, &nser, err, sizeof err) == -1 ||
	    store_job_counts(st, run_id, NULL, &cnt, err, sizeof err) == -1) {
		log_warnx("%s", err);
		if (st != NULL)
			store_close(st);
		return -1;
	}
	if (json) {
		w = json_writer_new(fp, 0);
		json_begin_obj(w);
		json_kv_int(w, "run", run_id);
		json_key(w, "jobs");
		json_begin_obj(w);
		json_kv_int(w, "total", cnt.total);
		json_kv_int(w, "done", cnt.n[STORE_JOB_DONE]);
		json_kv_int(w, "failed", cnt.n[STORE_JOB_FAILED]);
		json_kv_int(w, "cancelled", cnt.n[STORE_JOB_CANCELLED]);
		json_end_obj(w);
		json_key(w, "series");
		json_begin_arr(w);
	} else
		fprintf(fp, "run %lld: %lld jobs, %lld done, %lld failed, "
		    "%lld cancelled\n\n%-8s %-28s %-7s %4s %10s %10s %10s  "
		    "(Mbit/s)\n", (long long)run_id, (long long)cnt.total,
		    (long long)cnt.n[STORE_JOB_DONE],
		    (long long)cnt.n[STORE_JOB_FAILED],
		    (long long)cnt.n[STORE_JOB_CANCELLED], "link", "knobs",
		    "tool", "n", "median", "min", "max");
	for (i = 0; i < nser; i++) {
		const struct store_series *s = &ser[i];
		double med;

		if (s->n == 0)
			continue;
		v = xcalloc(s->n, sizeof *v);
		memcpy(v, s->values, s->n * sizeof *v);
		qsort(v, s->n, sizeof *v, compare_double);
		med = stats_median(v, s->n);
		if (json) {
			json_begin_obj(w);
			json_kv_str(w, "link", s->link);
			json_kv_str(w, "knobs", s->knobs_key);
			json_kv_str(w, "tool", s->tool);
			json_kv_str(w, "params", s->params);
			json_kv_str(w, "revision", s->revision);
			json_kv_int(w, "n", (int64_t)s->n);
			json_kv_num(w, "median_bps", round(med));
			json_kv_num(w, "min_bps", round(v[0]));
			json_kv_num(w, "max_bps", round(v[s->n - 1]));
			json_end_obj(w);
		} else
			fprintf(fp, "%-8s %-28s %-7s %4zu %10.1f %10.1f "
			    "%10.1f\n", s->link, s->knobs_key[0] != '\0' ?
			    s->knobs_key : "(as is)", s->tool, s->n,
			    med / 1e6, v[0] / 1e6, v[s->n - 1] / 1e6);
		free(v);
	}
	if (json) {
		json_end_arr(w);
		json_end_obj(w);
		if (json_writer_free(w, err, sizeof err) == -1)
			log_warnx("run %lld: %s", (long long)run_id, err);
	}
	store_series_free(ser, nser);
	store_close(st);
	return 0;
}

/* Loads inventory and plan (from files, or the texts a run stored). */
static int
run_load(const char *ipath, const char *itext, const char *ppath,
    const char *ptext, struct config_inventory **invp,
    struct config_plan **planp)
{
	struct config_errors	errs;
	size_t			i;

	config_errors_init(&errs);
	*invp = itext != NULL ? config_inventory_parse(ipath, itext,
	    strlen(itext), &errs) : config_inventory_load(ipath, &errs);
	if (*invp != NULL)
		*planp = ptext != NULL ? config_plan_parse(ppath, ptext,
		    strlen(ptext), *invp, &errs) : config_plan_load(ppath,
		    *invp, &errs);
	if (*invp == NULL || *planp == NULL) {
		for (i = 0; i < errs.n; i++)
			fprintf(stderr, "%s\n", errs.msgs[i]);
		if (errs.dropped > 0)
			fprintf(stderr, "(%zu more errors)\n", errs.dropped);
		config_errors_free(&errs);
		config_inventory_free(*invp);
		*invp = NULL;
		return -1;
	}
	config_errors_free(&errs);
	return 0;
}

/* Creates the run and its jobs in one go. */
static int
run_create(struct store *st, const struct config_inventory *inv,
    const struct config_plan *plan, const char *kind, const char *owner,
    int64_t *run_id)
{
	struct store_run_spec	 spec;
	struct store_job_spec	*specs = NULL;
	struct matrix_job	*jobs = NULL;
	char			(*params)[STORE_PARAMS_MAX] = NULL;
	char			 err[1024], *itext = NULL, *ptext = NULL;
	size_t			 njobs = 0, i;
	int			 rc = -1;

	if (matrix_expand(plan, inv, &jobs, &njobs, err, sizeof err) == -1)
		goto fail;
	if ((itext = util_read_file(inv->path, CONFIG_FILE_MAX, NULL, err,
	    sizeof err)) == NULL || (ptext = util_read_file(plan->path,
	    CONFIG_FILE_MAX, NULL, err, sizeof err)) == NULL)
		goto fail;
	memset(&spec, 0, sizeof spec);
	spec.kind = kind;
	spec.inventory_path = inv->path;
	spec.inventory_text = itext;
	spec.plan_path = plan->path;
	spec.plan_text = ptext;
	spec.owner = owner;
	if (store_run_create(st, &spec, run_id, err, sizeof err) == -1)
		goto fail;
	specs = xcalloc(njobs, sizeof *specs);
	params = xcalloc(njobs, sizeof *params);
	for (i = 0; i < njobs; i++)
		executor_job_spec(&jobs[i], params[i], sizeof params[i],
		    &specs[i]);
	if (store_jobs_add(st, *run_id, specs, njobs, err, sizeof err) == -1)
		goto fail;
	log_info("run %lld: %zu jobs", (long long)*run_id, njobs);
	rc = 0;
fail:
	if (rc == -1)
		log_warnx("%s", err);
	free(itext);
	free(ptext);
	free(specs);
	free(params);
	free(jobs);
	return rc;
}

/*
 * --resume: loads run_id's stored inventory and plan into *run, *invp and
 * *planp (the caller frees them either way), puts back the hosts a dead
 * controller left mid-job, requeues its interrupted jobs and takes the run
 * over as owner.  CMD_EXIT_*.
 */
static int
run_resume(struct store *st, int64_t run_id, const char *owner,
    struct store_run *run, struct config_inventory **invp,
    struct config_plan **planp)
{
	char	err[1024];
	int64_t	n;

	if (store_run_get(st, run_id, run, err, sizeof err) != 1) {
		log_warnx("run %lld: %s", (long long)run_id,
		    err[0] != '\0' ? err : "no such run");
		return CMD_EXIT_FAIL;
	}
	if (run_load(run->inventory_path, run->inventory_text,
	    run->plan_path, run->plan_text, invp, planp) == -1)
		return CMD_EXIT_USAGE;
	/* Hosts the dead controller left mid-job go back first. */
	n = executor_restore_all(*invp, *planp, (*planp)->connect_timeout,
	    err, sizeof err);
	if (n > 0)
		log_warnx("run %lld: %lld hosts could not be restored",
		    (long long)run_id, (long long)n);
	if (store_run_reset_running(st, run_id, &n, err, sizeof err) == -1 ||
	    store_run_set_owner(st, run_id, owner, err, sizeof err) == -1) {
		log_warnx("%s", err);
		return CMD_EXIT_FAIL;
	}
	log_info("run %lld: resuming, %lld interrupted jobs requeued",
	    (long long)run_id, (long long)n);
	return CMD_EXIT_OK;
}

int
run_execute(const struct run_request *rq, int64_t *run_idp)
{
	struct config_inventory	*inv = NULL;
	struct config_plan	*plan = NULL;
	struct store		*st = NULL;
	struct store_run	 run;
	struct executor_opts	 opts;
	struct executor_summary	 sum;
	struct sigaction	 sa, oint, oterm;
	char			 err[1024], owner[128], host[64];
	int64_t			 run_id = rq->resume, n;
	int			 tty = isatty(STDERR_FILENO), rc = CMD_EXIT_FAIL;

	memset(&run, 0, sizeof run);
	if (gethostname(host, sizeof host) == -1)
		snprintf(host, sizeof host, "?");
	host[sizeof host - 1] = '\0';
	snprintf(owner, sizeof owner, "%s:%ld", host, (long)getpid());
	if (store_open(rq->db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE,
	    &st, err, sizeof err) == -1) {
		log_warnx("%s", err);
		return CMD_EXIT_FAIL;
	}
	if (rq->resume > 0) {
		if ((rc = run_resume(st, run_id, owner, &run, &inv, &plan)) !=
		    CMD_EXIT_OK)
			goto out;
		rc = CMD_EXIT_FAIL;
	} else {
		if (run_load(rq->inventory, NULL, rq->plan, NULL, &inv,
		    &plan) == -1) {
			rc = CMD_EXIT_USAGE;
			goto out;
		}
		if (run_create(st, inv, plan, rq->kind != NULL ? rq->kind :
		    "manual", owner, &run_id) == -1)
			goto out;
	}
	if (!rq->quiet)
		fprintf(stderr, "labrat: run %lld %s (db %s)\n",
		    (long long)run_id, rq->resume > 0 ? "resumed" : "started",
		    rq->db_path);
	if (run_idp != NULL)
		*run_idp = run_id;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGTERM, &sa, &oterm);
	run_stop = 0;
	memset(&opts, 0, sizeof opts);
	opts.db_path = rq->db_path;
	opts.owner = owner;
	opts.stop = &run_stop;
	opts.progress = rq->quiet ? NULL : run_progress;
	opts.progress_arg = &tty;
	if (executor_run(inv, plan, run_id, &opts, &sum, err,
	    sizeof err) == -1) {
		/* Nothing was touched: the jobs stay queued for --resume. */
		char why[1024];

		if (tty && !rq->quiet)
			fprintf(stderr, "\n");
		log_warnx("run %lld not started: %s", (long long)run_id, err);
		snprintf(why, sizeof why, "not started: %.900s", err);
		store_run_finish(st, run_id, STORE_RUN_FAILED, why, err,
		    sizeof err);
		fprintf(stderr, "labrat: run %lld: no host was changed; fix the "
		    "cause, then `labrat run --resume %lld`\n",
		    (long long)run_id, (long long)run_id);
		goto restore_sig;
	}
	if (plan->stats.adaptive && !sum.stopped && run_adaptive(inv, plan,
	    run_id, &opts, &sum, err, sizeof err) == -1)
		log_warnx("run %lld: adaptive sampling: %s", (long long)run_id,
		    err);
	if (tty && !rq->quiet)
		fprintf(stderr, "\n");
	if (sum.stopped) {
		store_run_cancel_jobs(st, run_id, "interrupted", &n, err,
		    sizeof err);
		store_run_finish(st, run_id, STORE_RUN_CANCELLED,
		    "interrupted by a signal", err, sizeof err);
		fprintf(stderr, "labrat: run %lld interrupted: %lld jobs "
		    "cancelled (a cancelled job is not resumed), %s\n",
		    (long long)run_id, (long long)n, sum.restore_failures ?
		    "NOT ALL HOSTS RESTORED (see above)" : "hosts restored");
		goto restore_sig;
	}
	if (sum.restore_failures > 0)
		fprintf(stderr, "labrat: run %lld: %d host interfaces could not "
		    "be restored (see above); the rollback timers armed on "
		    "those hosts will do it\n", (long long)run_id,
		    sum.restore_failures);
	store_run_finish(st, run_id, sum.failed > 0 ? STORE_RUN_FAILED :
	    STORE_RUN_DONE, sum.failed > 0 ? "some jobs failed" : NULL, err,
	    sizeof err);
	if (!rq->no_summary)
		run_print_summary(rq->db_path, run_id, rq->json, stdout);
	rc = sum.failed > 0 || sum.restore_failures > 0 ? CMD_EXIT_FAIL :
	    CMD_EXIT_OK;
restore_sig:
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
out:
	store_run_free(&run);
	config_plan_free(plan);
	config_inventory_free(inv);
	store_close(st);
	return rc;
}

static int
run_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ "plan", required_argument, NULL, 'p' },
		{ "resume", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	struct run_request	 rq;
	const char		*errstr;
	long long		 v;
	int			 ch;

	memset(&rq, 0, sizeof rq);
	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		switch (ch) {
		case 'i':
			rq.inventory = optarg;
			break;
		case 'p':
			rq.plan = optarg;
			break;
		case 'r':
			if (util_strtonum(optarg, 1, INT64_MAX, &v,
			    &errstr) == -1)
				return cmd_usage_error(ctx, "--resume %s: run "
				    "id is %s", optarg, errstr);
			rq.resume = v;
			break;
		default:
			return CMD_EXIT_USAGE;
		}
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (rq.resume > 0 && (rq.inventory != NULL || rq.plan != NULL))
		return cmd_usage_error(ctx, "--resume takes the inventory and "
		    "plan the run stored: no --inventory or --plan with it");
	if (rq.resume == 0 && (rq.inventory == NULL || rq.plan == NULL))
		return cmd_usage_error(ctx, "%s missing", rq.inventory == NULL ?
		    "--inventory FILE" : "--plan FILE");
	rq.db_path = ctx->db;
	rq.json = strcmp(ctx->format, "json") == 0;
	return run_execute(&rq, NULL);
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.args = "(--inventory FILE --plan FILE | --resume RUN)",
	.summary = "Expands the plan into jobs in the store (links x knob "
	    "combinations x workloads x repetitions, interleaved), runs them "
	    "on the inventory's hosts and prints a summary; with "
	    "stats.adaptive, adds repetitions to comparisons still "
	    "inconclusive. --resume finishes a run whose controller died, "
	    "with the inventory and plan it stored. Exit 1 when a job failed "
	    "or the run was interrupted.",
	.options = (const struct cmd_option[]){
		{ "--inventory FILE", "The lab's hosts and links." },
		{ "--plan FILE", "What to measure." },
		{ "--resume RUN", "Finish run RUN (queued and interrupted "
		    "jobs)." },
		{ NULL, NULL } },
	.flags = CMD_DB | CMD_SSH,
	.formats = "text|json",
	.exec = run_exec,
};
