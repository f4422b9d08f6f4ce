/*
 * hunt_lab: the real lab behind struct hunt_lab_ops -- the revision put on
 * both hosts of the link at once by kernel_install_host() (one thread per
 * host: an install or a reboot takes minutes), the jobs measured by the
 * executor.
 */
#include <pthread.h>
#include <string.h>

#include "executor.h"
#include "hunt_int.h"
#include "kernel.h"

struct lab_install {
	struct hunt_install	*in;
	const char		*rev;
	struct kernel_opts	 ko;
};

static void *
lab_install_thread(void *arg)
{
	struct lab_install	*li = arg;

	li->in->rc = kernel_install_host(li->in->host, li->rev, &li->ko,
	    &li->in->out, li->in->err, sizeof li->in->err);
	return NULL;
}

static void
lab_install(void *arg, const struct hunt_lab *lab, const char *rev,
    struct hunt_install in[2])
{
	const struct config_bisect_test	*t = lab->test;
	struct lab_install		 li[2];
	pthread_t			 tid[2];
	int				 i, started[2] = { 0, 0 };

	(void)arg;
	memset(li, 0, sizeof li);
	for (i = 0; i < 2; i++) {
		li[i].in = &in[i];
		li[i].rev = rev;
		li[i].ko.connect_timeout_s = t->connect_timeout;
		li[i].ko.install_timeout_s = t->install_timeout;
		li[i].ko.down_timeout_s = t->down_timeout;
		li[i].ko.boot_timeout_s = t->boot_timeout;
		li[i].ko.power_timeout_s = t->power_timeout;
		if (pthread_create(&tid[i], NULL, lab_install_thread,
		    &li[i]) == 0)
			started[i] = 1;
		else
			lab_install_thread(&li[i]);
	}
	for (i = 0; i < 2; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
}

static int
lab_measure(void *arg, const struct hunt_lab *lab, int64_t run_id,
    int *stopped, char *err, size_t errlen)
{
	struct executor_opts	opts;
	struct executor_summary	sum;

	(void)arg;
	memset(&opts, 0, sizeof opts);
	memset(&sum, 0, sizeof sum);
	opts.db_path = lab->db_path;
	opts.owner = lab->owner;
	opts.stop = lab->stop;
	if (executor_run(lab->inv, lab->plan, run_id, &opts, &sum, err,
	    errlen) == -1)
		return -1;
	*stopped = sum.stopped;
	return 0;
}

const struct hunt_lab_ops hunt_lab_real = {
	.install = lab_install,
	.measure = lab_measure,
};
