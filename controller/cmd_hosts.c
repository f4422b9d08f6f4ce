/*
 * labrat hosts --inventory F [--format text|json]
 *
 * Reaches every host of the inventory in parallel (one thread per host):
 * SSH with strict host-key checking, deploys the agent when its hash
 * differs, reads the host's facts and prints them as a table (one row per
 * inventory NIC) or as JSON.  A host that fails is shown with its error;
 * then the exit status is 1.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agentctl.h"
#include "cmd.h"
#include "config.h"
#include "log.h"
#include "ssh.h"
#include "util.h"

#define HOSTS_CONNECT_MS	10000
#define HOSTS_DEPLOY_MS		300000	/* a slow host's cc */
#define HOSTS_FACTS_MS		30000

struct hosts_job {
	const struct config_host	*host;
	pthread_t			 thread;
	int				 started;
	int				 ok;
	char				 err[1024];
	struct agentctl_deploy_info	 deploy;
	struct agentctl_reply		 facts;
};

static const struct agentctl_nic *
hosts_find_nic(const struct agentctl_facts *f, const char *name)
{
	size_t	i;

	for (i = 0; i < f->nnics; i++)
		if (strcmp(f->nics[i].name, name) == 0)
			return &f->nics[i];
	return NULL;
}

/*
 * `facts` lists the host's physical NICs; an inventory NIC it leaves out
 * (a loopback, a veth) is asked for by name and appended.
 */
static int
hosts_more_nics(struct hosts_job *j, struct agentctl *a)
{
	const struct config_host	*h = j->host;
	struct agentctl_facts		*f = &j->facts.u.facts;
	struct agentctl_reply		 r;
	size_t				 k;

	for (k = 0; k < h->nnics; k++) {
		if (hosts_find_nic(f, h->nics[k].name) != NULL)
			continue;
		if (agentctl_facts(a, h->nics[k].name, HOSTS_FACTS_MS, &r,
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
hosts_worker(void *arg)
{
	struct hosts_job		*j = arg;
	const struct config_host	*h = j->host;
	struct ssh_target		 t;
	struct ssh_conn			*c;
	struct agentctl			*a = NULL;

	memset(&t, 0, sizeof t);
	t.name = h->name;
	t.address = h->address;
	t.port = h->ssh.port;
	t.user = h->ssh.user;
	t.key = h->ssh.key;
	t.known_hosts = h->ssh.known_hosts;
	t.connect_timeout_ms = HOSTS_CONNECT_MS;
	if ((c = ssh_open(&t, j->err, sizeof j->err)) == NULL)
		return NULL;
	a = agentctl_new(c);
	if (agentctl_deploy(a, NULL, HOSTS_DEPLOY_MS, &j->deploy, j->err,
	    sizeof j->err) == 0 && agentctl_facts(a, NULL, HOSTS_FACTS_MS,
	    &j->facts, j->err, sizeof j->err) == 0 &&
	    hosts_more_nics(j, a) == 0)
		j->ok = 1;
	agentctl_free(a);
	ssh_close(c);
	return NULL;
}

static const char *
tri(int v)
{
	return v < 0 ? "-" : v ? "on" : "off";
}

static const char *
dash(const char *s)
{
	return s != NULL && *s != '\0' ? s : "-";
}

static void
hosts_print_text(const struct hosts_job *jobs, size_t n)
{
	const struct agentctl_facts	*f;
	const struct agentctl_nic	*nic;
	const struct config_host	*h;
	char				 tools[256], mtu[16];
	size_t				 i, k;

	printf("%-12s %-8s %-16s %-10s %-8s %-8s %-10s %-6s %-4s %s\n",
	    "HOST", "OS", "KERNEL", "REVISION", "NIC", "DRIVER", "CHIP",
	    "MTU", "TSO", "TOOLS");
	for (i = 0; i < n; i++) {
		h = jobs[i].host;
		if (!jobs[i].ok) {
			printf("%-12s ERROR: %s\n", h->name, jobs[i].err);
			continue;
		}
		f = &jobs[i].facts.u.facts;
		snprintf(tools, sizeof tools, "iperf2 %s, iperf3 %s, scp %s",
		    dash(f->iperf2), dash(f->iperf3), dash(f->scp));
		for (k = 0; k < h->nnics; k++) {
			nic = hosts_find_nic(f, h->nics[k].name);
			if (nic == NULL) {
				printf("%-12s %-8s %-16.16s %-10s %-8s (not on "
				    "the host)\n", h->name, f->os,
				    f->kernel_release, dash(f->kernel_revision),
				    h->nics[k].name);
				continue;
			}
			snprintf(mtu, sizeof mtu, "%lld", nic->mtu);
			printf("%-12s %-8s %-16.16s %-10s %-8s %-8s %-10s %-6s "
			    "%-4s %s\n", h->name, f->os, f->kernel_release,
			    dash(f->kernel_revision), nic->name,
			    dash(nic->driver), dash(nic->chip),
			    nic->mtu < 0 ? "-" : mtu, tri(nic->tso), tools);
		}
	}
}

static void
json_kv(const char *k, const char *v, int comma)
{
	printf("%s\"%s\":", comma ? "," : "", k);
	if (v == NULL || *v == '\0')
		printf("null");
	else
		cmd_json_str(stdout, v);
}

static void
json_num(const char *k, long long v)
{
	if (v < 0)
		printf(",\"%s\":null", k);
	else
		printf(",\"%s\":%lld", k, v);
}

static void
json_bool(const char *k, int v)
{
	printf(",\"%s\":%s", k, v < 0 ? "null" : v ? "true" : "false");
}

static void
hosts_json_facts(const struct agentctl_facts *f)
{
	const struct agentctl_nic	*n;
	size_t				 i;

	json_kv("os", f->os, 0);
	json_kv("hostname", f->hostname, 1);
	printf(",\"kernel\":{");
	json_kv("release", f->kernel_release, 0);
	json_kv("version", f->kernel_version, 1);
	json_kv("revision", f->kernel_revision, 1);
	json_num("osreldate", f->osreldate);
	printf("},\"nics\":[");
	for (i = 0; i < f->nnics; i++) {
		n = &f->nics[i];
		printf("%s{", i > 0 ? "," : "");
		json_kv("name", n->name, 0);
		json_kv("driver", n->driver, 1);
		json_kv("chip", n->chip, 1);
		json_num("speed_mbps", n->speed_mbps);
		json_num("mtu", n->mtu);
		json_bool("tso", n->tso);
		json_bool("lro", n->lro);
		json_bool("rxcsum", n->rxcsum);
		json_bool("txcsum", n->txcsum);
		printf("}");
	}
	printf("],\"tools\":{");
	json_kv("iperf2", f->iperf2, 0);
	json_kv("iperf3", f->iperf3, 1);
	json_kv("scp", f->scp, 1);
	printf("}");
}

static void
hosts_print_json(const struct hosts_job *jobs, size_t n)
{
	size_t	i;

	printf("{\"hosts\":[");
	for (i = 0; i < n; i++) {
		printf("%s\n{", i > 0 ? "," : "");
		json_kv("name", jobs[i].host->name, 0);
		json_kv("address", jobs[i].host->address, 1);
		printf(",\"ok\":%s", jobs[i].ok ? "true" : "false");
		if (!jobs[i].ok) {
			json_kv("error", jobs[i].err, 1);
			printf("}");
			continue;
		}
		printf(",\"agent\":{");
		json_kv("path", jobs[i].deploy.path, 0);
		printf(",\"built\":%s,\"ms\":%lld},\"facts\":{",
		    jobs[i].deploy.built ? "true" : "false",
		    (long long)jobs[i].deploy.ms);
		hosts_json_facts(&jobs[i].facts.u.facts);
		printf("}}");
	}
	printf("\n]}\n");
}

static int
hosts_exec(struct cmd_ctx *ctx)
{
	static const struct option longopts[] = {
		{ "inventory", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 }
	};
	struct config_inventory	*inv;
	struct config_errors	 errs;
	struct hosts_job	*jobs;
	const char		*path = NULL, *format = ctx->format;
	size_t			 i;
	int			 ch, failed = 0;

	optind = 1;
	while ((ch = cmd_getopt(ctx, longopts)) != -1) {
		if (ch != 'i')
			return CMD_EXIT_USAGE;
		path = optarg;
	}
	if (cmd_positionals(ctx, optind, 0, 0, "") == -1)
		return CMD_EXIT_USAGE;
	if (path == NULL)
		return cmd_usage_error(ctx, "--inventory FILE missing");
	config_errors_init(&errs);
	if ((inv = config_inventory_load(path, &errs)) == NULL) {
		cmd_config_errors(&errs);
		config_errors_free(&errs);
		return CMD_EXIT_USAGE;
	}
	config_errors_free(&errs);
	jobs = xcalloc(inv->nhosts, sizeof *jobs);
	for (i = 0; i < inv->nhosts; i++) {
		jobs[i].host = &inv->hosts[i];
		if (pthread_create(&jobs[i].thread, NULL, hosts_worker,
		    &jobs[i]) != 0)
			snprintf(jobs[i].err, sizeof jobs[i].err, "%s: cannot "
			    "start a thread", inv->hosts[i].name);
		else
			jobs[i].started = 1;
	}
	for (i = 0; i < inv->nhosts; i++) {
		if (jobs[i].started)
			pthread_join(jobs[i].thread, NULL);
		if (!jobs[i].ok) {
			failed = 1;
			if (strcmp(format, "json") == 0)
				log_warnx("%s", jobs[i].err);
		}
	}
	if (strcmp(format, "json") == 0)
		hosts_print_json(jobs, inv->nhosts);
	else
		hosts_print_text(jobs, inv->nhosts);
	for (i = 0; i < inv->nhosts; i++)
		agentctl_reply_free(&jobs[i].facts);
	free(jobs);
	config_inventory_free(inv);
	return failed ? CMD_EXIT_FAIL : CMD_EXIT_OK;
}

const struct cmd_entry cmd_hosts_entry = {
	.name = "hosts",
	.args = "--inventory FILE",
	.summary = "Reaches every host of the inventory in parallel over SSH "
	    "(strict host-key check), deploys the agent where its hash "
	    "differs, and shows each host's facts: OS, kernel revision, "
	    "driver, chip, link, MTU, offloads. Exit 1 when a host failed.",
	.options = (const struct cmd_option[]){
		{ "--inventory FILE", "The hosts to reach." },
		{ NULL, NULL } },
	.flags = CMD_SSH,
	.formats = "text|json",
	.exec = hosts_exec,
};
