/*
 * cmd_progress: the progress lines of a run, as `labrat run` and `labrat
 * demo` print them on stderr: one live line redrawn in place on a
 * terminal, one plain line per event otherwise; the worst case, rounds and
 * ETA ranges of adaptive sampling.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cmd.h"
#include "run.h"
#include "util.h"

/* The terminal's width for the live line (80 when it does not say). */
static int
run_tty_width(void)
{
	struct winsize	ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == -1 || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

/* "1m10s"; "?" when unknown. */
static const char *
run_fmt_eta(int64_t ms, char *buf, size_t len)
{
	if (ms < 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%lldm%02llds", (long long)(ms / 60000),
		    (long long)(ms / 1000 % 60));
	return buf;
}

/* "ETA 0m40s" or, while the worst case is more, "ETA 0m40s..3m20s". */
static void
run_fmt_etas(int64_t eta, int64_t worst_eta, int range, char *buf,
    size_t len)
{
	char	a[32], b[32];

	if (range && eta >= 0)
		snprintf(buf, len, "ETA %s..%s", run_fmt_eta(eta, a, sizeof a),
		    run_fmt_eta(worst_eta, b, sizeof b));
	else
		snprintf(buf, len, "ETA %s", run_fmt_eta(eta, a, sizeof a));
}

/*
 * Progress: a live line on a terminal (redrawn in place, cut to the
 * terminal's width, the cursor left at its start so that a diagnostic
 * printed meanwhile overwrites it rather than running on after it), with
 * retries and failures on lines of their own above it; one log line per
 * event otherwise.  N/M counts the run's jobs across rounds; "(up to W)"
 * while adaptive sampling may still add jobs.
 */
void
cmd_run_progress(const struct run_progress *rp, void *arg)
{
	const struct executor_progress *p = &rp->job;
	int	tty = *(int *)arg, retry = strcmp(p->state, "retry") == 0;
	int	range = rp->worst > p->total;
	char	eta[80], tp[32], upto[40], line[512], why[2048];
	const char	*reason = NULL;

	/* A reason may quote a lab host's output. */
	if (p->reason != NULL)
		reason = util_term_safe(why, sizeof why, p->reason, (size_t)-1);
	run_fmt_etas(p->eta_ms, rp->eta_worst_ms, range, eta, sizeof eta);
	if (range)
		snprintf(upto, sizeof upto, " (up to %lld)",
		    (long long)rp->worst);
	else
		upto[0] = '\0';
	if (isfinite(p->throughput_bps))
		snprintf(tp, sizeof tp, "%.1f Mbit/s",
		    p->throughput_bps / 1e6);
	else
		snprintf(tp, sizeof tp, "-");
	if (tty) {
		if (reason != NULL)
			fprintf(stderr, "\r\033[K%s %s %s: attempt %d %s: "
			    "%s\n", p->link, p->knobs, p->tool, p->attempt,
			    retry ? "failed, retrying" : p->state, reason);
		snprintf(line, sizeof line, "%lld/%lld jobs%s, %lld failed, "
		    "%lld retried, %s  [%s %s %s: %s]",
		    (long long)p->done, (long long)p->total, upto,
		    (long long)p->failed, (long long)p->retried, eta, p->link,
		    p->knobs, p->tool, reason != NULL ? p->state : tp);
		fprintf(stderr, "\r\033[K%.*s\r", run_tty_width() - 1, line);
	} else if (retry) {
		fprintf(stderr, "labrat: retrying %s %s %s after attempt %d: "
		    "%s\n", p->link, p->knobs, p->tool, p->attempt,
		    reason != NULL ? reason : "?");
	} else {
		fprintf(stderr, "labrat: job %lld/%lld%s %s %s %s attempt %d: "
		    "%s%s%s (%s)\n", (long long)p->done,
		    (long long)p->total, upto, p->link, p->knobs, p->tool,
		    p->attempt, p->state, reason != NULL ? ": " : " ",
		    reason != NULL ? reason : tp, eta);
	}
	fflush(stderr);
}

/*
 * What the run says up front and round by round, on lines of their own:
 * "20 jobs planned, up to 70 with adaptive sampling, ETA 1m10s..5m13s",
 * "round 2: 20 more jobs for 3 inconclusive comparisons (...)".
 */
void
cmd_run_event(const struct run_event *ev, void *arg)
{
	int	tty = *(int *)arg, range = ev->worst > ev->total;
	char	eta[80], done[48], upto[64];

	run_fmt_etas(ev->eta_ms, ev->eta_worst_ms, range, eta, sizeof eta);
	if (ev->eta_estimated && ev->eta_ms >= 0)
		snprintf(eta + strlen(eta), sizeof eta - strlen(eta),
		    " (estimated from the plan)");
	if (range)
		snprintf(upto, sizeof upto, ", up to %lld%s",
		    (long long)ev->worst, ev->kind == RUN_EVENT_PLANNED ?
		    " with adaptive sampling" : "");
	else
		upto[0] = '\0';
	if (ev->done > 0)
		snprintf(done, sizeof done, " (%lld done)",
		    (long long)ev->done);
	else
		done[0] = '\0';
	fprintf(stderr, "%slabrat: ", tty ? "\r\033[K" : "");
	switch (ev->kind) {
	case RUN_EVENT_PLANNED:
		if (ev->done >= ev->total)
			fprintf(stderr, "%lld jobs planned, %lld ended: nothing "
			    "left to run\n", (long long)ev->planned,
			    (long long)ev->done);
		else
			fprintf(stderr, "%lld jobs planned%s%s, %s\n",
			    (long long)ev->planned, done, upto, eta);
		break;
	case RUN_EVENT_ROUND:
		fprintf(stderr, "round %d: %lld more jobs for %lld "
		    "inconclusive comparison%s (%lld jobs%s, %s)\n", ev->round,
		    (long long)ev->added, (long long)ev->inconclusive,
		    ev->inconclusive == 1 ? "" : "s", (long long)ev->total,
		    upto, eta);
		break;
	case RUN_EVENT_SETTLED:
		if (ev->inconclusive > 0)
			fprintf(stderr, "adaptive sampling done after round "
			    "%d: %lld jobs; %lld comparison%s still "
			    "inconclusive at max_samples\n", ev->round,
			    (long long)ev->total, (long long)ev->inconclusive,
			    ev->inconclusive == 1 ? "" : "s");
		else
			fprintf(stderr, "adaptive sampling done after round "
			    "%d: %lld jobs; every comparison decided\n",
			    ev->round, (long long)ev->total);
		break;
	}
	fflush(stderr);
}

