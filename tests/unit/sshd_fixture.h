/*
 * sshd_fixture.h: a real OpenSSH sshd for the ssh and agentctl tests, on
 * 127.0.0.1 and a random high port, with its own ed25519 host key, a client
 * ed25519 key (and an RSA one) in a temporary AuthorizedKeysFile, `UsePAM
 * no`, `Subsystem sftp internal-sftp` and LABRAT_AGENT_STATE pointing into
 * the temporary directory.  Header-only (static functions) so each test
 * program carries its own copy.
 */
#ifndef LABRAT_SSHD_FIXTURE_H
#define LABRAT_SSHD_FIXTURE_H

#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct sshd_fixture {
	char	dir[256];
	char	key[300];		/* client ed25519 private key */
	char	rsakey[300];		/* client RSA private key */
	char	known_hosts[300];	/* holds the right host key */
	char	kh_wrong[300];		/* another key for the same host */
	char	kh_unknown[300];	/* only some other host */
	char	kh_ecdsa[300];		/* only the ECDSA host key */
	char	eckey[300];		/* client ECDSA private key */
	char	fp_ecdsa[128];		/* SHA256:... of the ECDSA host key */
	char	fingerprint[128];	/* SHA256:... of the host key */
	char	state[300];		/* LABRAT_AGENT_STATE on the "host" */
	int	port;
	pid_t	pid;
};

static __attribute__((unused)) int
fx_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static __attribute__((unused)) int
fx_sh(const char *fmt, ...)
{
	char	cmd[4096];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	return system(cmd);
}

static __attribute__((unused)) int
fx_port_free(int port)
{
	struct sockaddr_in	sin;
	int			fd, r;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r = bind(fd, (struct sockaddr *)&sin, sizeof sin);
	close(fd);
	return r == 0;
}

static __attribute__((unused)) int
fx_port_open(int port)
{
	struct sockaddr_in	sin;
	int			fd, r;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r = connect(fd, (struct sockaddr *)&sin, sizeof sin);
	close(fd);
	return r == 0;
}

/*
 * A TCP port on 127.0.0.1 for a workload server that no other test run
 * (another ctest, another worktree) picks at the same time: derived from
 * our pid, in 10000-29999 (below the kernel's ephemeral range, apart from
 * iperf's 5001/5201), and free right now (bind() succeeds); -1 if none of
 * 200 tries is.  Test programs started together have nearby pids: * 7
 * leaves each room to step past a taken port without meeting the next.
 */
static __attribute__((unused)) int
fx_free_port(void)
{
	int	i, port;

	for (i = 0; i < 200; i++) {
		port = 10000 + (int)(((unsigned)getpid() * 7u + (unsigned)i) %
		    20000u);
		if (fx_port_free(port))
			return port;
	}
	return -1;
}

/* Sends sig to every descendant of pid (found through /proc), by pid. */
static __attribute__((unused)) void
fx_signal_children(pid_t pid, int sig)
{
	DIR		*d;
	struct dirent	*de;
	char		 path[300], buf[512], *p;
	FILE		*fp;
	int		 child, ppid;

	if ((d = opendir("/proc")) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		child = atoi(de->d_name);
		if (child <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%d/stat", child);
		if ((fp = fopen(path, "r")) == NULL)
			continue;
		ppid = -1;
		if (fgets(buf, sizeof buf, fp) != NULL &&
		    (p = strrchr(buf, ')')) != NULL)
			sscanf(p + 2, "%*c %d", &ppid);
		fclose(fp);
		if (ppid == pid) {
			fx_signal_children(child, sig);
			kill(child, sig);
		}
	}
	closedir(d);
}

/* Kills pid and all its descendants (found through /proc), by pid. */
static __attribute__((unused)) void
fx_kill_tree(pid_t pid)
{
	DIR		*d;
	struct dirent	*de;
	char		 path[300], buf[512], *p;
	FILE		*fp;
	int		 child, ppid;

	kill(pid, SIGSTOP);
	if ((d = opendir("/proc")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			child = atoi(de->d_name);
			if (child <= 0)
				continue;
			snprintf(path, sizeof path, "/proc/%d/stat", child);
			if ((fp = fopen(path, "r")) == NULL)
				continue;
			ppid = -1;
			if (fgets(buf, sizeof buf, fp) != NULL &&
			    (p = strrchr(buf, ')')) != NULL)
				sscanf(p + 2, "%*c %d", &ppid);
			fclose(fp);
			if (ppid == pid)
				fx_kill_tree(child);
		}
		closedir(d);
	}
	kill(pid, SIGKILL);
	kill(pid, SIGCONT);
}

/*
 * The two-host inventory text of the fixture: fx-a and fx-b on 127.0.0.1
 * (ports port_a and port_b, the client key, known_hosts files kh_a and
 * kh_b), each with a test NIC "lo" (fx-b's driver driver_b), one link "l"
 * over lo.  Heap text the caller frees (NULL when out of memory).
 */
static __attribute__((unused)) char *
fx_inventory_text(const struct sshd_fixture *fx, int port_a,
    const char *kh_a, int port_b, const char *kh_b, const char *driver_b)
{
	char	*text;

	if (asprintf(&text, "{\"hosts\":[{\"name\":\"fx-a\",\"os\":"
	    "\"linux\",\"address\":\"127.0.0.1\",\"ssh\":{\"port\":%d,"
	    "\"key\":\"%s\",\"known_hosts\":\"%s\"},\"nics\":[{\"name\":"
	    "\"lo\",\"driver\":\"lo\",\"role\":\"test\"}]},{\"name\":"
	    "\"fx-b\",\"os\":\"linux\",\"address\":\"127.0.0.1\",\"ssh\":"
	    "{\"port\":%d,\"key\":\"%s\",\"known_hosts\":\"%s\"},\"nics\":"
	    "[{\"name\":\"lo\",\"driver\":\"%s\",\"role\":\"test\"}]}],"
	    "\"links\":[{\"name\":\"l\",\"client\":{\"host\":\"fx-a\","
	    "\"if\":\"lo\",\"address\":\"127.0.0.1\"},\"server\":"
	    "{\"host\":\"fx-b\",\"if\":\"lo\",\"address\":"
	    "\"127.0.0.1\"}}]}", port_a, fx->key, kh_a, port_b, fx->key, kh_b,
	    driver_b) == -1)
		return NULL;
	return text;
}

static __attribute__((unused)) int
fx_sshd_start(struct sshd_fixture *fx)
{
	char	conf[300], log[300];
	int	i, fd;

	snprintf(conf, sizeof conf, "%s/sshd_config", fx->dir);
	snprintf(log, sizeof log, "%s/sshd.log", fx->dir);
	fx->pid = fork();
	if (fx->pid == -1)
		return -1;
	if (fx->pid == 0) {
		/* A test that dies (crash, ctest timeout) takes sshd along. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);
		dup2(fd, 1);
		dup2(fd, 2);
		execl("/usr/sbin/sshd", "/usr/sbin/sshd", "-D", "-e", "-f", conf,
		    (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 300; i++) {
		/* An sshd that could not bind has exited: not someone else's. */
		if (waitpid(fx->pid, NULL, WNOHANG) == fx->pid) {
			fx->pid = -1;
			return -1;
		}
		if (fx_port_open(fx->port))
			return 0;
		usleep(10000);
	}
	return -1;
}

static __attribute__((unused)) void
fx_sshd_kill(struct sshd_fixture *fx)
{
	if (fx->pid > 0) {
		fx_kill_tree(fx->pid);
		waitpid(fx->pid, NULL, 0);
	}
	fx->pid = -1;
}

/* Returns 0, or -1 when sshd/ssh-keygen are missing (the caller skips). */
static __attribute__((unused)) int
fx_setup(struct sshd_fixture *fx)
{
	char	 tmpl[] = "/tmp/lrsshfx.XXXXXX", line[1024], *p;
	FILE	*fp;
	int	 i;

	memset(fx, 0, sizeof *fx);
	fx->pid = -1;
	if (access("/usr/sbin/sshd", X_OK) != 0 ||
	    system("command -v ssh-keygen >/dev/null 2>&1") != 0)
		return -1;
	if (mkdtemp(tmpl) == NULL)
		return -1;
	snprintf(fx->dir, sizeof fx->dir, "%s", tmpl);
	snprintf(fx->key, sizeof fx->key, "%s/id_ed25519", fx->dir);
	snprintf(fx->rsakey, sizeof fx->rsakey, "%s/id_rsa", fx->dir);
	snprintf(fx->known_hosts, sizeof fx->known_hosts, "%s/known_hosts",
	    fx->dir);
	snprintf(fx->kh_wrong, sizeof fx->kh_wrong, "%s/kh_wrong", fx->dir);
	snprintf(fx->kh_unknown, sizeof fx->kh_unknown, "%s/kh_unknown",
	    fx->dir);
	snprintf(fx->state, sizeof fx->state, "%s/state", fx->dir);
	snprintf(fx->kh_ecdsa, sizeof fx->kh_ecdsa, "%s/kh_ecdsa", fx->dir);
	snprintf(fx->eckey, sizeof fx->eckey, "%s/id_ecdsa", fx->dir);
	mkdir(fx->state, 0755);
	/*
	 * The sessions get an empty HOME: the machine's root dotfiles (a
	 * pyenv rehash lock, say) must not decide whether a test passes.
	 */
	snprintf(line, sizeof line, "%s/home", fx->dir);
	mkdir(line, 0755);
	mkdir("/run/sshd", 0755);
	srand((unsigned)(getpid() ^ time(NULL)));
	/*
	 * 30000-32767: below the kernel's ephemeral range (32768-60999), so
	 * no outgoing connection takes the port between this check and sshd's
	 * bind (a connect to a port nobody listens on can even connect to
	 * itself), and apart from fx_free_port's 10000-29999.
	 */
	for (i = 0; i < 100; i++) {
		fx->port = 30000 + rand() % 2768;
		if (fx_port_free(fx->port))
			break;
	}
	if (fx_sh("cd %s && ssh-keygen -q -t ed25519 -N '' -f hostkey && "
	    "ssh-keygen -q -t ed25519 -N '' -f otherkey && "
	    "ssh-keygen -q -t ecdsa -b 256 -N '' -f hostkey_ecdsa && "
	    "ssh-keygen -q -t ecdsa -b 256 -N '' -f id_ecdsa && "
	    "ssh-keygen -q -t ed25519 -N '' -f id_ed25519 && "
	    "ssh-keygen -q -t rsa -b 2048 -N '' -f id_rsa && "
	    "cat id_ed25519.pub id_rsa.pub id_ecdsa.pub > authorized_keys && "
	    "printf '[127.0.0.1]:%d %%s\\n' "
	    "\"$(cut -d' ' -f1,2 hostkey_ecdsa.pub)\" > kh_ecdsa && "
	    "printf '[127.0.0.1]:%d %%s\\n' \"$(cut -d' ' -f1,2 hostkey.pub)\" "
	    "> known_hosts && "
	    "printf '[127.0.0.1]:%d %%s\\n' \"$(cut -d' ' -f1,2 otherkey.pub)\" "
	    "> kh_wrong && "
	    "printf '[127.0.0.2]:%d %%s\\n' \"$(cut -d' ' -f1,2 hostkey.pub)\" "
	    "> kh_unknown", fx->dir, fx->port, fx->port, fx->port, fx->port)
	    != 0)
		return -1;
	snprintf(line, sizeof line, "cd %s && ssh-keygen -l -E sha256 -f "
	    "hostkey.pub && ssh-keygen -l -E sha256 -f hostkey_ecdsa.pub",
	    fx->dir);
	if ((fp = popen(line, "r")) == NULL)
		return -1;
	if (fgets(line, sizeof line, fp) != NULL &&
	    (p = strstr(line, "SHA256:")) != NULL)
		snprintf(fx->fingerprint, sizeof fx->fingerprint, "%.*s",
		    (int)strcspn(p, " \n"), p);
	if (fgets(line, sizeof line, fp) != NULL &&
	    (p = strstr(line, "SHA256:")) != NULL)
		snprintf(fx->fp_ecdsa, sizeof fx->fp_ecdsa, "%.*s",
		    (int)strcspn(p, " \n"), p);
	pclose(fp);
	snprintf(line, sizeof line, "%s/sshd_config", fx->dir);
	if ((fp = fopen(line, "w")) == NULL)
		return -1;
	fprintf(fp, "ListenAddress 127.0.0.1:%d\nHostKey %s/hostkey\n"
	    "HostKey %s/hostkey_ecdsa\n"
	    "UsePAM no\nPermitRootLogin prohibit-password\nStrictModes no\n"
	    "AuthorizedKeysFile %s/authorized_keys\n"
	    "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
	    "Subsystem sftp internal-sftp\nPidFile none\nLogLevel ERROR\n"
	    "SetEnv LABRAT_AGENT_STATE=%s HOME=%s/home\n", fx->port, fx->dir,
	    fx->dir, fx->dir, fx->state, fx->dir);
	fclose(fp);
	return fx_sshd_start(fx);
}

static __attribute__((unused)) void
fx_teardown(struct sshd_fixture *fx)
{
	fx_sshd_kill(fx);
	if (fx->dir[0] != '\0')
		fx_sh("rm -rf %s", fx->dir);
}

#endif
