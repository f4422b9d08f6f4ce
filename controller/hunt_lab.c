/*
 * hunt_lab: the real lab behind struct hunt_lab_ops.  One executor lives
 * for the whole bisect (hunt_lab_real_new() .. hunt_lab_real_free()): its
 * host sessions and deployed agents serve every measurement batch of every
 * step (one drain per batch), and the kernel provider installs, reboots
 * and verifies on those same sessions (kernel_install_on(), one thread per
 * host: an install or a reboot takes minutes), so a host is connected anew
 * only when a reboot took its session away.  Between the batches of a step
 * the link stays as its last job left it (executor_drain_keep()): the
 * step's end (lab_end()) and any install restore it first.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor.h"
#include "host.h"
#include "hunt_int.h"
#include "kernel.h"
#include "log.h"
#include "ssh.h"
#include "util.h"

struct hunt_lab_state {
	struct executor		*ex;	/* NULL until first used */
	struct executor_opts	 eo;
};

void *
hunt_lab_real_new(void)
{
	return xcalloc(1, sizeof(struct hunt_lab_state));
}

void
hunt_lab_real_free(void *arg)
{
	struct hunt_lab_state	*ls = arg;

	if (ls == NULL)
		return;
	executor_free(ls->ex);
	free(ls);
}

/* The bisect's executor, made at first use (lab outlives it). */
static struct executor *
lab_executor(struct hunt_lab_state *ls, const struct hunt_lab *lab,
    char *err, size_t errlen)
{
	if (ls->ex != NULL)
		return ls->ex;
	memset(&ls->eo, 0, sizeof ls->eo);
	ls->eo.db_path = lab->db_path;
	ls->eo.owner = lab->owner;
	ls->eo.lease_run = "bisect";	/* the hosts stay leased all along */
	ls->eo.stop = lab->stop;
	ls->ex = executor_new(lab->inv, lab->plan, &ls->eo, err, errlen);
	return ls->ex;
}

static int64_t
lab_handshakes(void)
{
	struct ssh_stats	st;

	ssh_stats_get(&st);
	return st.handshakes;
}

struct lab_install {
	struct hunt_install	*in;
	struct host		*host;
	const char		*rev;
	struct kernel_opts	 ko;
};

/*
 * On the executor's session; without one (a host still booting after a
 * controller crash, no kernel provider) on a connection of the kernel
 * provider's own, which waits for the host and says what is wrong.
 */
static void *
lab_install_thread(void *arg)
{
	struct lab_install	*li = arg;

	if (li->host != NULL)
		li->in->rc = kernel_install_on(li->host, li->rev, &li->ko,
		    &li->in->out, li->in->err, sizeof li->in->err);
	else
		li->in->rc = kernel_install_host(li->in->host, li->rev,
		    &li->ko, &li->in->out, li->in->err, sizeof li->in->err);
	return NULL;
}

static void
lab_install(void *arg, const struct hunt_lab *lab, const char *rev,
    struct hunt_install in[2])
{
	const struct config_bisect_test	*t = lab->test;
	struct executor			*ex;
	struct lab_install		 li[2];
	pthread_t			 tid[2];
	int64_t				 hs = lab_handshakes();
	int				 i, started[2] = { 0, 0 };
	char				 e[1024];

	memset(li, 0, sizeof li);
	/* Nothing of a step's measuring stays through a reboot. */
	if (((struct hunt_lab_state *)arg)->ex != NULL)
		executor_end(((struct hunt_lab_state *)arg)->ex);
	for (i = 0; i < 2; i++) {
		li[i].in = &in[i];
		li[i].rev = rev;
		li[i].ko.connect_timeout_s = t->connect_timeout;
		li[i].ko.install_timeout_s = t->install_timeout;
		li[i].ko.down_timeout_s = t->down_timeout;
		li[i].ko.boot_timeout_s = t->boot_timeout;
		li[i].ko.power_timeout_s = t->power_timeout;
		if ((ex = lab_executor(arg, lab, in[i].err,
		    sizeof in[i].err)) == NULL)
			in[i].rc = -1;
		else if (in[i].host->kernel.type != CONFIG_KERNEL_NONE &&
		    (li[i].host = executor_host(ex, in[i].host, e,
		    sizeof e)) == NULL) {
			/* Another controller's host: not by other means. */
			if (host_lease_refused(e)) {
				in[i].rc = -1;
				snprintf(in[i].err, sizeof in[i].err, "%s", e);
			} else
				log_debug("%s: %s; installing on a connection "
				    "of its own", in[i].host->name, e);
		}
	}
	for (i = 0; i < 2; i++) {
		if (in[i].rc == -1 || (i == 1 && li[1].host != NULL &&
		    li[1].host == li[0].host))
			continue;
		if (pthread_create(&tid[i], NULL, lab_install_thread,
		    &li[i]) == 0)
			started[i] = 1;
		else
			lab_install_thread(&li[i]);
	}
	for (i = 0; i < 2; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
	if (li[1].host != NULL && li[1].host == li[0].host) {
		/* One host on both ends of the link: installed once. */
		in[1].rc = in[0].rc;
		in[1].out = in[0].out;
		memcpy(in[1].err, in[0].err, sizeof in[1].err);
	}
	log_debug("bisect: %s: install on %s and %s: %lld SSH handshakes",
	    rev, in[0].host->name, in[1].host->name,
	    (long long)(lab_handshakes() - hs));
}

static int
lab_measure(void *arg, const struct hunt_lab *lab, int64_t run_id,
    int *stopped, char *err, size_t errlen)
{
	struct hunt_lab_state	*ls = arg;
	struct executor_summary	 sum;
	struct executor		*ex;
	int64_t			 hs = lab_handshakes();

	memset(&sum, 0, sizeof sum);
	/* The step's next batch goes on from what this one leaves. */
	if ((ex = lab_executor(ls, lab, err, errlen)) == NULL ||
	    executor_drain_keep(ex, run_id, &sum, err, errlen) == -1)
		return -1;
	log_debug("bisect: run %lld: batch of %lld jobs: %lld SSH handshakes",
	    (long long)run_id, (long long)(sum.done + sum.failed +
	    sum.cancelled), (long long)(lab_handshakes() - hs));
	*stopped = sum.stopped;
	return 0;
}

static void
lab_end(void *arg, const struct hunt_lab *lab)
{
	struct hunt_lab_state	*ls = arg;
	int			 n;

	(void)lab;
	if (ls->ex != NULL && (n = executor_end(ls->ex)) > 0)
		log_warnx("bisect: %d host(s) could not be restored; their "
		    "rollback timers will", n);
}

static int
lab_running(void *arg, const struct hunt_lab *lab,
    const struct config_host *h, char *rev, size_t revlen, char *err,
    size_t errlen)
{
	struct kernel_opts	 ko;
	struct executor		*ex;
	struct host		*hs;

	memset(&ko, 0, sizeof ko);
	ko.connect_timeout_s = lab->test->connect_timeout;
	/* Asked of both hosts at a bisect's start: connect them at once. */
	if (((struct hunt_lab_state *)arg)->ex == NULL &&
	    (ex = lab_executor(arg, lab, err, errlen)) != NULL)
		executor_connect(ex);
	if ((ex = lab_executor(arg, lab, err, errlen)) == NULL ||
	    (hs = executor_host(ex, h, err, errlen)) == NULL)
		return -1;
	return kernel_running(hs, &ko, rev, revlen, err, errlen);
}

const struct hunt_lab_ops hunt_lab_real = {
	.install = lab_install,
	.measure = lab_measure,
	.end = lab_end,
	.running = lab_running,
};
