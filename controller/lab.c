/*
 * lab: locate simlab/ and run its labctl script; see lab.h.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include "util.h"

#ifndef LABRAT_SOURCE_DIR
#define LABRAT_SOURCE_DIR "."
#endif

#define LAB_MAX_ARGS	64

int
lab_simlab_dir(char *buf, size_t len, char *err, size_t errlen)
{
	const char	*env;
	char		 labctl[4096];
	struct stat	 sb;
	int		 n;

	env = getenv("LABRAT_SIMLAB_DIR");
	if (env != NULL && *env != '\0')
		n = snprintf(buf, len, "%s", env);
	else
		n = snprintf(buf, len, "%s/simlab", LABRAT_SOURCE_DIR);
	if (n < 0 || (size_t)n >= len) {
		util_seterr(err, errlen, "simlab directory path too long");
		return -1;
	}
	n = snprintf(labctl, sizeof labctl, "%s/labctl", buf);
	if (n < 0 || (size_t)n >= sizeof labctl) {
		util_seterr(err, errlen, "simlab directory path too long");
		return -1;
	}
	if (stat(labctl, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    access(labctl, X_OK) != 0) {
		util_seterr(err, errlen, "simlab: no executable %s (%s); set "
		    "LABRAT_SIMLAB_DIR to the simlab directory of a labrat "
		    "checkout", labctl, errno != 0 ? strerror(errno) :
		    "not a file");
		return -1;
	}
	return 0;
}

int
lab_name_valid(const char *name)
{
	size_t	i, len;

	len = strlen(name);
	if (len < 1 || len > 32 || name[0] < 'a' || name[0] > 'z')
		return 0;
	for (i = 1; i < len; i++) {
		if ((name[i] < 'a' || name[i] > 'z') &&
		    (name[i] < '0' || name[i] > '9') && name[i] != '-')
			return 0;
	}
	return 1;
}

char *
lab_inventory_path(const char *name)
{
	return xasprintf("%s/%s/inventory.json", LAB_STATE_ROOT, name);
}

int
lab_labctl(const char *subcmd, char *const args[], size_t nargs, char *err,
    size_t errlen)
{
	char	 dir[4096], path[4200];
	char	*argv[LAB_MAX_ARGS + 3];
	pid_t	 pid;
	int	 status;
	size_t	 i;

	if (nargs > LAB_MAX_ARGS) {
		util_seterr(err, errlen, "lab %s: too many arguments", subcmd);
		return -1;
	}
	if (lab_simlab_dir(dir, sizeof dir, err, errlen) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/labctl", dir);
	argv[0] = path;
	argv[1] = (char *)subcmd;
	for (i = 0; i < nargs; i++)
		argv[i + 2] = args[i];
	argv[nargs + 2] = NULL;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == -1) {
		util_seterr(err, errlen, "lab %s: fork: %s", subcmd,
		    strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execv(path, argv);
		fprintf(stderr, "labrat: lab %s: exec %s: %s\n", subcmd, path,
		    strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR) {
			util_seterr(err, errlen, "lab %s: waitpid: %s", subcmd,
			    strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status)) {
		if (WEXITSTATUS(status) == 127) {
			util_seterr(err, errlen, "lab %s: could not run %s",
			    subcmd, path);
			return -1;
		}
		return WEXITSTATUS(status);
	}
	util_seterr(err, errlen, "lab %s: %s killed by signal %d", subcmd,
	    path, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return -1;
}
