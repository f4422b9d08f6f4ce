/*
 * health_check: the measurement of a health check, through the same
 * executor every run uses (health.h says what is checked).  A run of kind
 * "health" is stored with a plan built here (the link, one iperf3
 * workload of opts->iperf_s seconds, no knobs, one repetition, one
 * retry) and its jobs: the iperf at the host's default knobs and, with
 * opts->jumbo, the same at the jumbo MTU (its preflight's don't-fragment
 * ping fills that MTU; its figure is not judged).  The executor connects
 * both hosts with strict host keys, deploys the agent, records their
 * facts in the run, leases them, runs the preflight before each job and
 * restores them.  What it saw comes back from the store: the jobs' states
 * and reasons, the iperf's throughput, the facts rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor.h"
#include "health_int.h"
#include "host.h"
#include "log.h"
#include "matrix.h"
#include "run.h"
#include "store.h"
#include "util.h"

#define PROBE_CONNECT_S	5
#define PROBE_SLACK_S	30	/* job timeout beyond the iperf's time */

/* The plan of a health run on link (config_plan_parse() checks it). */
static struct config_plan *
probe_plan(const struct config_inventory *inv, const char *link, int iperf_s,
    char *err, size_t errlen)
{
	struct config_errors	 errs;
	struct config_plan	*plan;
	char			 text[512];

	snprintf(text, sizeof text, "{\"links\": [\"%s\"], \"workloads\": "
	    "[{\"tool\": \"iperf3\", \"time\": %d}], \"repetitions\": 1, "
	    "\"timeouts\": {\"connect\": %d, \"job\": %d}, \"retries\": 1, "
	    "\"stats\": {\"adaptive\": false}}", link, iperf_s,
	    PROBE_CONNECT_S, iperf_s + PROBE_SLACK_S);
	config_errors_init(&errs);
	plan = config_plan_parse("(health check)", text, strlen(text), inv,
	    &errs);
	if (plan == NULL)
		util_seterr(err, errlen, "health check plan for %s: %s", link,
		    errs.n > 0 ? errs.msgs[0] : "invalid");
	config_errors_free(&errs);
	return plan;
}

/* The run and its jobs: default knobs, then the jumbo MTU if asked. */
static int
probe_store(struct store *st, const struct config_inventory *inv,
    const struct config_plan *plan, const struct config_link *l, int mtu,
    int64_t *run_id, char *err, size_t errlen)
{
	struct store_run_spec	 rs;
	struct store_job_spec	 specs[2];
	struct matrix_job	*jobs = NULL;
	char			 params[STORE_PARAMS_MAX], note[128];
	size_t			 njobs = 0;
	int			 rc = -1;

	if (matrix_expand(plan, inv, &jobs, &njobs, err, errlen) == -1)
		return -1;
	if (njobs != 1) {
		util_seterr(err, errlen, "health check plan for %s: %zu jobs, "
		    "not 1", l->name, njobs);
		goto out;
	}
	snprintf(note, sizeof note, "health check of link %s%s", l->name,
	    mtu > 0 ? " (and its path at a jumbo MTU)" : "");
	memset(&rs, 0, sizeof rs);
	rs.kind = "health";
	rs.inventory_path = inv->path;
	rs.inventory_text = inv->text;
	rs.plan_path = plan->path;
	rs.plan_text = plan->text;
	rs.note = note;
	if (store_run_create(st, &rs, run_id, err, errlen) == -1)
		goto out;
	executor_job_spec(&jobs[0], params, sizeof params, &specs[0]);
	specs[1] = specs[0];
	if (mtu > 0)
		knobs_set(&specs[1].knobs, KNOB_MTU, mtu);
	rc = store_jobs_add(st, *run_id, specs, mtu > 0 ? 2 : 1, err, errlen);
out:
	free(jobs);
	return rc;
}

/* Both ends' facts lines and the declared-versus-reported warnings. */
static int
probe_facts(struct store *st, const struct config_link *l,
    struct health_probe *p, char *err, size_t errlen)
{
	const struct config_endpoint	*ep[2] = { &l->client, &l->server };
	struct store_host_facts_row	*rows = NULL, *r;
	size_t				 n = 0, i;
	int				 k;

	if (store_host_facts_list(st, p->run_id, &rows, &n, err, errlen) == -1)
		return -1;
	for (k = 0; k < 2; k++) {
		/* The newest row of the end: a session renewed mid-run
		 * records its facts again. */
		for (r = NULL, i = 0; i < n; i++)
			if (strcmp(rows[i].host, ep[k]->host) == 0 &&
			    strcmp(rows[i].ifname, ep[k]->ifname) == 0)
				r = &rows[i];
		if (r == NULL)
			continue;
		health_facts_line(p->facts, sizeof p->facts, r->host,
		    r->ifname, r->os, r->driver, r->chip);
		if (store_facts_driver_differs(r))
			health_text_add(p->warnings, sizeof p->warnings, "%s %s: "
			    "the host reports driver %s, the inventory declares "
			    "%s", r->host, r->ifname, *r->driver != '\0' ?
			    r->driver : "none", r->declared_driver);
		if (store_facts_chip_differs(r))
			health_text_add(p->warnings, sizeof p->warnings, "%s %s: "
			    "the host reports chip %s, the inventory declares "
			    "%s", r->host, r->ifname, r->chip != NULL ? r->chip :
			    "none", r->declared_chip);
	}
	store_facts_free(rows, n);
	return 0;
}

/* The jobs' outcome: the figure of the first, the first failure. */
static int
probe_jobs(struct store *st, int mtu, struct health_probe *p, char *err,
    size_t errlen)
{
	struct store_job	*jobs = NULL;
	struct store_sample_row	*smp;
	size_t			 n = 0, ns, i, k;

	if (store_job_list(st, p->run_id, -1, &jobs, &n, err, errlen) == -1)
		return -1;
	p->ok = n > 0;
	for (i = 0; i < n; i++) {
		if (jobs[i].state != STORE_JOB_DONE) {
			if (p->ok && i == 1)
				util_seterr(p->why, sizeof p->why, "path check "
				    "at mtu %d: %s", mtu, jobs[i].reason);
			else if (p->ok)
				snprintf(p->why, sizeof p->why, "%s",
				    jobs[i].reason[0] != '\0' ? jobs[i].reason :
				    store_job_state_name(jobs[i].state));
			p->ok = 0;
			continue;
		}
		if (i != 0 || store_job_samples(st, jobs[i].id, &smp, &ns, err,
		    errlen) == -1)
			continue;
		for (k = 0; k < ns; k++)
			if (smp[k].interval == 0 &&
			    strcmp(smp[k].metric, "throughput_bps") == 0)
				p->figure = smp[k].value;
		free(smp);
	}
	free(jobs);
	if (p->ok && p->figure <= 0) {
		p->ok = 0;
		snprintf(p->why, sizeof p->why, "the iperf3 job recorded no "
		    "throughput");
	}
	return 0;
}

/*
 * Drives the run.  0 measured (p->ok, p->why), -1 could not check.
 */
static int
probe_drive(struct store *st, const struct config_inventory *inv,
    const struct config_plan *plan, const struct health_opts *o, int mtu,
    struct health_probe *p, char *err, size_t errlen)
{
	static volatile sig_atomic_t	 never;
	struct executor_opts		 eo;
	struct executor_summary		 sum;
	char				 owner[128], lrun[64], e[1024];

	run_owner_default(owner, sizeof owner);
	snprintf(lrun, sizeof lrun, "health-%lld", (long long)p->run_id);
	memset(&eo, 0, sizeof eo);
	eo.db_path = o->db_path;
	eo.owner = owner;
	eo.lease_run = lrun;
	eo.stop = o->stop != NULL ? o->stop : &never;
	memset(&sum, 0, sizeof sum);
	if (executor_run(inv, plan, p->run_id, &eo, &sum, e, sizeof e) == -1) {
		store_run_cancel_jobs(st, p->run_id, e, NULL, err, errlen);
		store_run_finish(st, p->run_id, STORE_RUN_FAILED, e, err,
		    errlen);
		if (host_lease_refused(e) || *eo.stop) {
			util_seterr(err, errlen, "%s", e);
			return -1;
		}
		p->ok = 0;
		util_seterr(p->why, sizeof p->why, "%s", e);
		return 0;
	}
	if (sum.stopped || sum.store_fault != STORE_FAULT_NONE) {
		util_seterr(err, errlen, "%s", sum.stopped ? "interrupted" :
		    sum.store_err);
		store_run_finish(st, p->run_id, STORE_RUN_CANCELLED, err, e,
		    sizeof e);
		return -1;
	}
	if (probe_jobs(st, mtu, p, err, errlen) == -1)
		return -1;
	if (p->ok && sum.restore_failures > 0) {
		p->ok = 0;
		snprintf(p->why, sizeof p->why, "%d host(s) could not be "
		    "restored after the check", sum.restore_failures);
	}
	return store_run_finish(st, p->run_id, p->ok ? STORE_RUN_DONE :
	    STORE_RUN_FAILED, p->ok ? NULL : p->why, err, errlen);
}

int
health_probe(const struct config_inventory *inv, const struct config_link *l,
    const struct health_opts *o, struct health_probe *p, char *err,
    size_t errlen)
{
	struct config_plan	*plan;
	struct store		*st = NULL;
	int			 mtu, rc = -1;

	memset(p, 0, sizeof *p);
	mtu = o->jumbo > 1500 ? o->jumbo : o->jumbo ? HEALTH_JUMBO_MTU : 0;
	plan = probe_plan(inv, l->name, o->iperf_s > 0 ? o->iperf_s :
	    HEALTH_IPERF_S, err, errlen);
	if (plan == NULL)
		return -1;
	if (store_open(o->db_path, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE,
	    &st, err, errlen) == -1 ||
	    probe_store(st, inv, plan, l, mtu, &p->run_id, err, errlen) == -1)
		goto out;
	if (probe_drive(st, inv, plan, o, mtu, p, err, errlen) == -1 ||
	    probe_facts(st, l, p, err, errlen) == -1)
		goto out;
	rc = 0;
out:
	store_close(st);
	config_plan_free(plan);
	return rc;
}
