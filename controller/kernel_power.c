/*
 * kernel_power: the power hooks of kernel.h, run from the controller when
 * a host did not come back from a reboot by itself: the inventory's
 * "power" command (no shell) or URL (client.c), else the kernel's
 * power_cycle template.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "config.h"
#include "kernel.h"
#include "kernel_int.h"
#include "log.h"
#include "util.h"


/* ---- power hooks ------------------------------------------------------ */

static int
power_exec(const struct config_host *h, char **argv, int timeout_s,
    char *err, size_t errlen)
{
	pid_t	pid;
	int	status, fd;
	int64_t	end = util_now_ms() + timeout_s * (int64_t)1000;

	if ((pid = fork()) == -1) {
		util_seterr(err, errlen, "%s: power hook: fork: %s", h->name,
		    strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "labrat: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r == -1 && errno != EINTR) {
			util_seterr(err, errlen, "%s: power hook: waitpid: %s",
			    h->name, strerror(errno));
			return -1;
		}
		if (util_now_ms() >= end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			util_seterr(err, errlen, "%s: power hook %s: no end "
			    "after %d s, killed", h->name, argv[0], timeout_s);
			return -1;
		}
		usleep(50000);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		util_seterr(err, errlen, "%s: power hook %s failed (%s %d)",
		    h->name, argv[0], WIFEXITED(status) ? "exit" : "signal",
		    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return 0;
}

int
kernel_power_cycle(const struct config_host *h, int timeout_s, char *err,
    size_t errlen)
{
	const struct config_argv *tmpl = NULL;
	struct client_request	 rq;
	struct client_response	 resp;
	char			**argv, e[512];
	int			 rc;

	timeout_s = DEF(timeout_s, 60);
	if (h->power.type == CONFIG_POWER_URL) {
		memset(&rq, 0, sizeof rq);
		rq.url = h->power.url;
		rq.method = h->power.method != NULL ? h->power.method : "POST";
		rq.timeout_ms = timeout_s * 1000;
		if (client_request(&rq, &resp, e, sizeof e) == -1) {
			util_seterr(err, errlen, "%s: power hook: %s", h->name,
			    e);
			return -1;
		}
		rc = resp.status >= 200 && resp.status < 300 ? 0 : -1;
		if (rc == -1)
			util_seterr(err, errlen, "%s: power hook %s %s: HTTP "
			    "%ld: %.200s", h->name, rq.method, rq.url,
			    resp.status, resp.body);
		free(resp.body);
		log_info("%s: power-cycled through %s", h->name, rq.url);
		return rc;
	}
	if (h->power.type == CONFIG_POWER_COMMAND)
		tmpl = &h->power.command;
	else if (h->kernel.power_cycle.argv != NULL)
		tmpl = &h->kernel.power_cycle;
	if (tmpl == NULL) {
		util_seterr(err, errlen, "%s: hung and no power hook in the "
		    "inventory (host \"power\")", h->name);
		return -1;
	}
	if ((argv = config_template_expand(tmpl, NULL, h->name, e,
	    sizeof e)) == NULL) {
		util_seterr(err, errlen, "%s: power hook: %s", h->name, e);
		return -1;
	}
	rc = power_exec(h, argv, timeout_s, err, errlen);
	if (rc == 0)
		log_info("%s: power-cycled with %s", h->name, argv[0]);
	config_argv_free(argv);
	return rc;
}
