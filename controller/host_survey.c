/*
 * host_survey.c: `labrat hosts`' work -- every host of an inventory
 * reached in parallel (one thread per host), the agent deployed, the
 * host's facts read, and the inventory's declared driver and chip held
 * against what the host reported; and the survey as JSON.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "json.h"
#include "util.h"

#define SURVEY_FACTS_MS		30000

struct survey_job {
	struct host_survey	*res;
	const struct host_opts	*opts;
	pthread_t		 thread;
	int			 started;
};

const struct agentctl_nic *
host_survey_nic(const struct agentctl_facts *f, const char *name)
{
	size_t	i;

	for (i = 0; i < f->nnics; i++)
		if (strcmp(f->nics[i].name, name) == 0)
			return &f->nics[i];
	return NULL;
}

int
host_nic_driver_differs(const struct config_nic *cn,
    const struct agentctl_nic *nic)
{
	return util_driver_differs(cn->driver, nic->driver);
}

int
host_nic_chip_differs(const struct config_nic *cn,
    const struct agentctl_nic *nic)
{
	return util_chip_differs(cn->chip, nic->chip);
}

/* Is name one of h's inventory NICs? */
static int
survey_declared(const struct config_host *h, const char *name)
{
	size_t	k;

	for (k = 0; k < h->nnics; k++)
		if (strcmp(h->nics[k].name, name) == 0)
			return 1;
	return 0;
}

/*
 * `facts` lists the host's physical NICs; an inventory NIC it leaves out
 * (a loopback, a veth, or one past the first AGENTCTL_NICS_MAX of a host
 * with many) is asked for by name and appended, in the place of a NIC the
 * inventory does not name when the list is full.
 */
static int
survey_more_nics(struct host_survey *j, struct host *a)
{
	const struct config_host	*h = j->host;
	struct agentctl_facts		*f = &j->facts.u.facts;
	struct agentctl_reply		 r;
	size_t				 k, slot;

	for (k = 0; k < h->nnics; k++) {
		if (host_survey_nic(f, h->nics[k].name) != NULL)
			continue;
		if (host_facts(a, h->nics[k].name, SURVEY_FACTS_MS, &r,
		    j->err, sizeof j->err) == -1) {
			agentctl_reply_free(&r);
			return -1;
		}
		slot = f->nnics;
		if (slot == AGENTCTL_NICS_MAX) {
			/* Full: the last NIC the inventory does not name. */
			while (slot > 0 && survey_declared(h,
			    f->nics[slot - 1].name))
				slot--;
			slot = slot > 0 ? slot - 1 : AGENTCTL_NICS_MAX;
		}
		if (r.u.facts.nnics == 1 && slot < AGENTCTL_NICS_MAX) {
			f->nics[slot] = r.u.facts.nics[0];
			if (slot == f->nnics)
				f->nnics++;
		}
		agentctl_reply_free(&r);
	}
	return 0;
}

static void *
survey_worker(void *arg)
{
	struct survey_job	*sj = arg;
	struct host_survey	*j = sj->res;
	struct host		*h;

	if (host_open(j->host, sj->opts, &h, j->err, sizeof j->err) == -1)
		return NULL;
	j->deploy = *host_deploy_info(h);
	if (host_facts(h, NULL, SURVEY_FACTS_MS, &j->facts, j->err,
	    sizeof j->err) == 0 && survey_more_nics(j, h) == 0)
		j->ok = 1;
	/* Read-only: who holds the host, if anyone (never taken here). */
	if (j->ok)
		j->lease_ok = host_lease_show(h, &j->lease, j->lease_err,
		    sizeof j->lease_err) == 0;
	host_close(h);
	return NULL;
}

size_t
host_survey(const struct config_inventory *inv, const struct host_opts *opts,
    struct host_survey **out)
{
	struct host_survey	*res;
	struct survey_job	*jobs;
	size_t			 i, failed = 0;

	res = xcalloc(inv->nhosts, sizeof *res);
	jobs = xcalloc(inv->nhosts, sizeof *jobs);
	for (i = 0; i < inv->nhosts; i++) {
		res[i].host = &inv->hosts[i];
		jobs[i].res = &res[i];
		jobs[i].opts = opts;
		if (pthread_create(&jobs[i].thread, NULL, survey_worker,
		    &jobs[i]) != 0)
			snprintf(res[i].err, sizeof res[i].err, "%s: cannot "
			    "start a thread", inv->hosts[i].name);
		else
			jobs[i].started = 1;
	}
	for (i = 0; i < inv->nhosts; i++) {
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
		if (!res[i].ok)
			failed++;
	}
	free(jobs);
	*out = res;
	return failed;
}

void
host_survey_free(struct host_survey *res, size_t n)
{
	size_t	i;

	if (res == NULL)
		return;
	for (i = 0; i < n; i++)
		agentctl_reply_free(&res[i].facts);
	free(res);
}

/* An empty or unknown string, count or flag is null. */
static void
survey_kv(struct json_writer *w, const char *k, const char *v)
{
	json_kv_str(w, k, v != NULL && *v != '\0' ? v : NULL);
}

static void
survey_num(struct json_writer *w, const char *k, long long v)
{
	if (v < 0)
		json_kv_null(w, k);
	else
		json_kv_int(w, k, v);
}

static void
survey_tri(struct json_writer *w, const char *k, int v)
{
	if (v < 0)
		json_kv_null(w, k);
	else
		json_kv_bool(w, k, v);
}

/*
 * The inventory's word on a NIC beside the host's: declared_driver and
 * declared_chip (null when the inventory names neither or does not list
 * the NIC) and whether either differs from what the host reported.
 */
static void
survey_json_declared(struct json_writer *w, const struct config_host *h,
    const struct agentctl_nic *n)
{
	const struct config_nic	*cn = config_host_nic(h, n->name);

	survey_kv(w, "declared_driver", cn != NULL ? cn->driver : NULL);
	survey_kv(w, "declared_chip", cn != NULL ? cn->chip : NULL);
	json_kv_bool(w, "mismatch", cn != NULL && (host_nic_driver_differs(cn,
	    n) || host_nic_chip_differs(cn, n)));
}

static void
survey_json_facts(struct json_writer *w, const struct config_host *h,
    const struct agentctl_facts *f)
{
	const struct agentctl_nic	*n;
	size_t				 i;

	survey_kv(w, "os", f->os);
	survey_kv(w, "hostname", f->hostname);
	json_key(w, "kernel");
	json_begin_obj(w);
	survey_kv(w, "release", f->kernel_release);
	survey_kv(w, "version", f->kernel_version);
	survey_kv(w, "revision", f->kernel_revision);
	survey_num(w, "osreldate", f->osreldate);
	json_end_obj(w);
	json_key(w, "nics");
	json_begin_arr(w);
	for (i = 0; i < f->nnics; i++) {
		n = &f->nics[i];
		json_begin_obj(w);
		survey_kv(w, "name", n->name);
		survey_kv(w, "driver", n->driver);
		survey_kv(w, "chip", n->chip);
		survey_json_declared(w, h, n);
		survey_num(w, "speed_mbps", n->speed_mbps);
		survey_num(w, "mtu", n->mtu);
		survey_tri(w, "tso", n->tso);
		survey_tri(w, "lro", n->lro);
		survey_tri(w, "rxcsum", n->rxcsum);
		survey_tri(w, "txcsum", n->txcsum);
		json_end_obj(w);
	}
	json_end_arr(w);
	json_key(w, "tools");
	json_begin_obj(w);
	survey_kv(w, "iperf2", f->iperf2);
	survey_kv(w, "iperf3", f->iperf3);
	survey_kv(w, "scp", f->scp);
	json_end_obj(w);
}

/* "lease": the live or expired lease a host reports, null when free. */
static void
survey_json_lease(struct json_writer *w, const struct host_survey *j)
{
	const struct agentctl_lease_info *l = &j->lease.lease;

	if (!j->lease_ok) {
		json_kv_null(w, "lease");
		survey_kv(w, "lease_error", j->lease_err);
		return;
	}
	if (!j->lease.has_lease) {
		json_kv_null(w, "lease");
		return;
	}
	json_key(w, "lease");
	json_begin_obj(w);
	survey_kv(w, "owner", l->owner);
	survey_kv(w, "host", l->host);
	json_kv_int(w, "pid", l->pid);
	survey_kv(w, "run", l->run);
	json_kv_int(w, "since", l->since);
	json_kv_int(w, "expires", l->expires);
	json_kv_int(w, "until", l->until);
	json_kv_bool(w, "live", l->live);
	survey_kv(w, "message", l->message);
	json_end_obj(w);
}

int
host_survey_json(const struct host_survey *jobs, size_t n, FILE *fp,
    char *err, size_t errlen)
{
	struct json_writer	*w = json_writer_new(fp, JSON_PRETTY);
	size_t			 i;

	json_begin_obj(w);
	json_key(w, "hosts");
	json_begin_arr(w);
	for (i = 0; i < n; i++) {
		json_begin_obj(w);
		survey_kv(w, "name", jobs[i].host->name);
		survey_kv(w, "address", jobs[i].host->address);
		json_kv_bool(w, "ok", jobs[i].ok);
		if (!jobs[i].ok) {
			survey_kv(w, "error", jobs[i].err);
			json_end_obj(w);
			continue;
		}
		json_key(w, "agent");
		json_begin_obj(w);
		survey_kv(w, "path", jobs[i].deploy.path);
		json_kv_bool(w, "built", jobs[i].deploy.built);
		json_kv_int(w, "ms", jobs[i].deploy.ms);
		json_end_obj(w);
		survey_json_lease(w, &jobs[i]);
		json_key(w, "facts");
		json_begin_obj(w);
		survey_json_facts(w, jobs[i].host, &jobs[i].facts.u.facts);
		json_end_obj(w);
		json_end_obj(w);
	}
	json_end_arr(w);
	json_end_obj(w);
	return json_writer_free(w, err, errlen);
}

/* ---- `labrat hosts` as text ---- */

static const char *
text_tri(int v)
{
	return v < 0 ? "-" : v ? "on" : "off";
}

static const char *
text_dash(const char *s)
{
	return s != NULL && *s != '\0' ? s : "-";
}

/*
 * Under a NIC's row, what the inventory declares when the host says
 * otherwise: "  em-a em0: driver veth (inventory: em), chip - (inventory:
 * 0x10968086)".
 */
static void
text_mismatch(const struct config_host *h, const struct config_nic *cn,
    const struct agentctl_nic *nic, FILE *fp)
{
	int	d = host_nic_driver_differs(cn, nic);
	int	c = host_nic_chip_differs(cn, nic);

	if (!d && !c)
		return;
	fprintf(fp, "  %s %s:", h->name, nic->name);
	if (d)
		fprintf(fp, " driver %s (inventory: %s)%s",
		    text_dash(nic->driver), cn->driver, c ? "," : "");
	if (c)
		fprintf(fp, " chip %s (inventory: %s)", text_dash(nic->chip),
		    cn->chip);
	fprintf(fp, "\n");
}

/* One host's rows: one per inventory NIC, then its lease line. */
static void
text_host(const struct host_survey *job, FILE *fp)
{
	const struct agentctl_facts	*f = &job->facts.u.facts;
	const struct agentctl_nic	*nic;
	const struct config_host	*h = job->host;
	char				 tools[256], mtu[16];
	size_t				 k;

	snprintf(tools, sizeof tools, "iperf2 %s, iperf3 %s, scp %s",
	    text_dash(f->iperf2), text_dash(f->iperf3), text_dash(f->scp));
	for (k = 0; k < h->nnics; k++) {
		nic = host_survey_nic(f, h->nics[k].name);
		if (nic == NULL) {
			fprintf(fp, "%-12s %-8s %-16.16s %-10s %-8s (not on "
			    "the host)\n", h->name, f->os, f->kernel_release,
			    text_dash(f->kernel_revision), h->nics[k].name);
			continue;
		}
		snprintf(mtu, sizeof mtu, "%lld", nic->mtu);
		fprintf(fp, "%-12s %-8s %-16.16s %-10s %-8s %-8s %-10s %-6s "
		    "%-4s %s\n", h->name, f->os, f->kernel_release,
		    text_dash(f->kernel_revision), nic->name,
		    text_dash(nic->driver), text_dash(nic->chip),
		    nic->mtu < 0 ? "-" : mtu, text_tri(nic->tso), tools);
		text_mismatch(h, &h->nics[k], nic, fp);
	}
	if (!job->lease_ok)
		fprintf(fp, "  %s: lease unknown: %s\n", h->name,
		    job->lease_err);
	else if (job->lease.has_lease)
		fprintf(fp, "  %s: %s%s\n", h->name, job->lease.lease.message,
		    job->lease.lease.live ? "" : " (expired)");
}

void
host_survey_text(const struct host_survey *jobs, size_t n, FILE *fp)
{
	char	safe[2048];
	size_t	i;

	fprintf(fp, "%-12s %-8s %-16s %-10s %-8s %-8s %-10s %-6s %-4s %s\n",
	    "HOST", "OS", "KERNEL", "REVISION", "NIC", "DRIVER", "CHIP",
	    "MTU", "TSO", "TOOLS");
	for (i = 0; i < n; i++) {
		if (jobs[i].ok)
			text_host(&jobs[i], fp);
		else	/* an error may quote the host's output */
			fprintf(fp, "%-12s ERROR: %s\n", jobs[i].host->name,
			    util_term_safe(safe, sizeof safe, jobs[i].err,
			    (size_t)-1));
	}
}
