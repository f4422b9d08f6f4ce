/*
 * lab: locate labrat's data directory and simlab/ in it, run its labctl
 * script, read a lab's head, and start, watch and stop the demo's helper
 * processes (children stay in the caller's process group, so a ^C reaches
 * them too); see lab.h.
 */
#include <sys/stat.h>
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

#include "lab.h"
#include "util.h"

#ifndef LABRAT_SOURCE_DIR
#define LABRAT_SOURCE_DIR "."
#endif
#ifndef LABRAT_DATADIR
#define LABRAT_DATADIR "/usr/local/share/labrat"
#endif
#ifndef LABRAT_DATADIR_REL
#define LABRAT_DATADIR_REL "../share/labrat"
#endif

#define LAB_MAX_ARGS	64

static int
lab_isdir(const char *path)
{
	struct stat	sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* The installed tree beside the running binary: dirname(/proc/self/exe)
 * + LABRAT_DATADIR_REL.  0 when found, -1 when not (or no /proc). */
static int
lab_exe_datadir(char *buf, size_t len)
{
	char	 exe[4096], *slash;
	ssize_t	 n;
	int	 m;

	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		return -1;
	*slash = '\0';
	m = snprintf(buf, len, "%s/%s", exe, LABRAT_DATADIR_REL);
	if (m < 0 || (size_t)m >= len || !lab_isdir(buf))
		return -1;
	return 0;
}

int
lab_datadir(char *buf, size_t len, char *err, size_t errlen)
{
	const char	*env = getenv("LABRAT_DATADIR"), *dir;
	int		 n;

	if (env != NULL && *env != '\0') {
		dir = env;
		if (!lab_isdir(dir)) {
			util_seterr(err, errlen, "LABRAT_DATADIR=%s: not a "
			    "directory", dir);
			return -1;
		}
	} else if (lab_exe_datadir(buf, len) == 0)
		return 0;
	else if (lab_isdir(LABRAT_SOURCE_DIR "/simlab"))
		dir = LABRAT_SOURCE_DIR;
	else if (lab_isdir(LABRAT_DATADIR))
		dir = LABRAT_DATADIR;
	else {
		util_seterr(err, errlen, "no labrat data directory: neither "
		    "%s beside the binary, nor the source tree %s, nor %s "
		    "exists; set LABRAT_DATADIR", LABRAT_DATADIR_REL,
		    LABRAT_SOURCE_DIR, LABRAT_DATADIR);
		return -1;
	}
	n = snprintf(buf, len, "%s", dir);
	if (n < 0 || (size_t)n >= len) {
		util_seterr(err, errlen, "data directory path too long: %s",
		    dir);
		return -1;
	}
	return 0;
}

int
lab_simlab_dir(char *buf, size_t len, char *err, size_t errlen)
{
	const char	*env;
	char		 labctl[4096], data[4096];
	struct stat	 sb;
	int		 n;

	env = getenv("LABRAT_SIMLAB_DIR");
	if (env != NULL && *env != '\0')
		n = snprintf(buf, len, "%s", env);
	else {
		if (lab_datadir(data, sizeof data, err, errlen) != 0)
			return -1;
		n = snprintf(buf, len, "%s/simlab", data);
	}
	if (n < 0 || (size_t)n >= len) {
		util_seterr(err, errlen, "simlab directory path too long");
		return -1;
	}
	n = snprintf(labctl, sizeof labctl, "%s/labctl", buf);
	if (n < 0 || (size_t)n >= sizeof labctl) {
		util_seterr(err, errlen, "simlab directory path too long");
		return -1;
	}
	errno = 0;
	if (stat(labctl, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    access(labctl, X_OK) != 0) {
		util_seterr(err, errlen, "simlab: no executable %s (%s); set "
		    "LABRAT_SIMLAB_DIR to a simlab directory (a labrat "
		    "checkout's or an installed share/labrat/simlab)", labctl,
		    errno != 0 ? strerror(errno) : "not a file");
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

int
lab_head(const char *name, char *buf, size_t len, char *err, size_t errlen)
{
	char	*path, *text;
	size_t	 n;

	path = xasprintf("%s/%s/head", LAB_STATE_ROOT, name);
	text = util_read_file(path, 256, &n, err, errlen);
	if (text == NULL) {
		free(path);
		return -1;
	}
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
	if (n == 0 || n >= len) {
		util_seterr(err, errlen, "%s: not a revision id", path);
		free(text);
		free(path);
		return -1;
	}
	memcpy(buf, text, n + 1);
	free(text);
	free(path);
	return 0;
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

/* ---- helper processes ------------------------------------------------ */

static void
nap_ms(int ms)
{
	struct timespec	ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/* In the child: fd target from path (append) or /dev/null. */
static void
redirect(int target, const char *path, int flags)
{
	int	fd;

	fd = open(path != NULL ? path : "/dev/null", path != NULL ? flags :
	    O_RDWR, 0600);
	if (fd == -1) {
		fprintf(stderr, "labrat: %s: %s\n", path != NULL ? path :
		    "/dev/null", strerror(errno));
		_exit(127);
	}
	if (fd != target) {
		dup2(fd, target);
		close(fd);
	}
}

int
lab_spawn(char *const argv[], const char *out_path, const char *err_path,
    pid_t *pid, char *err, size_t errlen)
{
	const int	wflags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC;
	pid_t		p;

	fflush(stdout);
	fflush(stderr);
	p = fork();
	if (p == -1) {
		util_seterr(err, errlen, "%s: fork: %s", argv[0],
		    strerror(errno));
		return -1;
	}
	if (p == 0) {
		signal(SIGPIPE, SIG_DFL);
		redirect(0, NULL, O_RDONLY);
		redirect(1, out_path, wflags);
		redirect(2, err_path, wflags);
		execv(argv[0], argv);
		fprintf(stderr, "labrat: exec %s: %s\n", argv[0],
		    strerror(errno));
		_exit(127);
	}
	*pid = p;
	return 0;
}

int
lab_wait_line(const char *path, pid_t pid, int timeout_ms, char *buf,
    size_t len, char *err, size_t errlen)
{
	int64_t	 end = util_now_ms() + timeout_ms;
	char	 e[256], *text, *nl;
	size_t	 n;
	int	 st;

	for (;;) {
		text = util_read_file(path, 4096, &n, e, sizeof e);
		nl = text != NULL ? memchr(text, '\n', n) : NULL;
		if (nl != NULL) {
			*nl = '\0';
			if ((size_t)(nl - text) >= len) {
				util_seterr(err, errlen, "%s: first line too "
				    "long", path);
				free(text);
				return -1;
			}
			memcpy(buf, text, (size_t)(nl - text) + 1);
			free(text);
			return 0;
		}
		free(text);
		if (pid > 0 && !lab_child_alive(pid, &st)) {
			util_seterr(err, errlen, "%s: the process (pid %ld) "
			    "exited before writing a line", path, (long)pid);
			return -1;
		}
		if (util_now_ms() > end) {
			util_seterr(err, errlen, "%s: no line within %d ms",
			    path, timeout_ms);
			return -1;
		}
		nap_ms(20);
	}
}

int
lab_child_alive(pid_t pid, int *status)
{
	pid_t	r;

	r = waitpid(pid, status, WNOHANG);
	if (r == 0)
		return 1;
	if (r == -1 && errno == EINTR)
		return 1;
	if (r == -1)
		*status = 0;	/* not ours, or reaped already */
	return 0;
}

int
lab_stop(pid_t pid, int sig, int timeout_ms)
{
	int64_t	end = util_now_ms() + timeout_ms;
	int	status = 0;
	pid_t	r;

	if (kill(pid, sig) == -1 && errno != ESRCH)
		return -1;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r == -1 && errno != EINTR)
			return -1;
		if (util_now_ms() > end)
			break;
		nap_ms(50);
	}
	kill(pid, SIGKILL);
	while ((r = waitpid(pid, &status, 0)) == -1 && errno == EINTR)
		;
	return r == pid ? status : -1;
}

int
lab_up_fresh(const char *name, char *const args[], size_t nargs,
    const char *note, FILE *out, char *err, size_t errlen)
{
	char	*down[] = { "--name", (char *)name };
	int	 rc;

	if ((rc = lab_labctl("up", args, nargs, err, errlen)) == 0)
		return 0;
	fprintf(out, "%s\n", note);
	fflush(out);
	lab_labctl("down", down, 2, err, errlen);
	return lab_labctl("up", args, nargs, err, errlen);
}
