/*
 * host_survey.c: `labrat hosts`' work -- every host of an inventory
 * reached in parallel (one thread per host), the agent deployed, the
 * host's facts read, and the inventory's declared driver and chip held
 * against what the host reported.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host.h"
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
	return cn->driver != NULL && strcmp(cn->driver, nic->driver) != 0;
}

int
host_nic_chip_differs(const struct config_nic *cn,
    const struct agentctl_nic *nic)
{
	return cn->chip != NULL && strcasecmp(cn->chip, nic->chip) != 0;
}

/*
 * `facts` lists the host's physical NICs; an inventory NIC it leaves out
 * (a loopback, a veth) is asked for by name and appended.
 */
static int
survey_more_nics(struct host_survey *j, struct host *a)
{
	const struct config_host	*h = j->host;
	struct agentctl_facts		*f = &j->facts.u.facts;
	struct agentctl_reply		 r;
	size_t				 k;

	for (k = 0; k < h->nnics; k++) {
		if (host_survey_nic(f, h->nics[k].name) != NULL)
			continue;
		if (host_facts(a, h->nics[k].name, SURVEY_FACTS_MS, &r,
		    j->err, sizeof j->err) == -1) {
			agentctl_reply_free(&r);
			return -1;
		}
		if (r.u.facts.nnics == 1 && f->nnics < AGENTCTL_NICS_MAX)
			f->nics[f->nnics++] = r.u.facts.nics[0];
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
