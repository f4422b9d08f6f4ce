/*
 * cmd_ssh.c: the scp workload and the ephemeral keys the controller sets up
 * between the two hosts of a link for it: `scp`, `keygen`, `authorize`,
 * `deauthorize`.  Keys live in STATEDIR/keys; authorized_keys lines carry a
 * `labrat-TAG` comment so deauthorize removes exactly what authorize added.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "emit.h"
#include "exec.h"
#include "state.h"
#include "validate.h"

#define AUTHKEYS_MAX	(1024 * 1024)

/* The monotonic clock in microseconds: a 1.44 MB file crosses a 1 Gbit/s
 * link in ~12 ms, so milliseconds would cost the figure percents. */
static long long
scp_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* The size of the file about to be sent, as the file system says: the
 * bytes figure is the file's, never the request's.  -1 on error. */
static long long
scp_file_size(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (stat(path, &st) == -1) {
		snprintf(err, errlen, "stat %s: %s", path, strerror(errno));
		return -1;
	}
	return (long long)st.st_size;
}

/* Writes size bytes of incompressible data to path. */
static int
scp_make_file(const char *path, unsigned long long size, char *err,
    size_t errlen)
{
	static unsigned char block[65536];
	unsigned long long x = 0x9e3779b97f4a7c15ULL ^ (unsigned)getpid();
	size_t	 i, n;
	int	 fd;

	for (i = 0; i < sizeof(block); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		block[i] = (unsigned char)(x >> 24);
	}
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1) {
		snprintf(err, errlen, "create %s: %s", path, strerror(errno));
		return -1;
	}
	while (size > 0) {
		n = size > sizeof(block) ? sizeof(block) : (size_t)size;
		if (write(fd, block, n) != (ssize_t)n) {
			snprintf(err, errlen, "write %s: %s", path,
			    strerror(errno));
			close(fd);
			unlink(path);
			return -1;
		}
		size -= n;
	}
	close(fd);
	return 0;
}

struct scp_job {
	const char *to, *key, *hostkey;
	char	 user[40], addr[64], remote[64];
	char	 file[512], known[512], target[256];
};

/* Common ssh/scp options into argv from index i; returns the new index. */
static int
ssh_opts(const struct scp_job *j, char **argv, int i, char *kh, size_t khlen)
{
	argv[i++] = "-o";
	argv[i++] = "BatchMode=yes";
	argv[i++] = "-o";
	argv[i++] = "StrictHostKeyChecking=yes";
	if (j->hostkey != NULL) {
		snprintf(kh, khlen, "UserKnownHostsFile=%s", j->known);
		argv[i++] = "-o";
		argv[i++] = kh;
		argv[i++] = "-o";
		argv[i++] = "GlobalKnownHostsFile=/dev/null";
	}
	if (j->key != NULL) {
		argv[i++] = "-i";
		argv[i++] = (char *)j->key;
	}
	return i;
}

static int
scp_prepare(struct scp_job *j, unsigned long long size, char *err,
    size_t errlen)
{
	char	 name[64], line[8400];
	const char *at = strchr(j->to, '@');
	long long fsize;
	int	 v6;

	snprintf(j->user, sizeof(j->user), "%.*s", (int)(at - j->to), j->to);
	snprintf(j->addr, sizeof(j->addr), "%s", at + 1);
	v6 = strchr(j->addr, ':') != NULL;
	snprintf(j->remote, sizeof(j->remote), "/tmp/labrat-scp-%ld.bin",
	    (long)getpid());
	snprintf(j->target, sizeof(j->target), "%s@%s%s%s:%s", j->user,
	    v6 ? "[" : "", j->addr, v6 ? "]" : "", j->remote);
	if (state_mkdir("tmp", err, errlen) == -1)
		return -1;
	snprintf(name, sizeof(name), "scp-%ld.bin", (long)getpid());
	state_path(j->file, sizeof(j->file), "tmp", name);
	snprintf(name, sizeof(name), "known_hosts-%ld", (long)getpid());
	state_path(j->known, sizeof(j->known), "tmp", name);
	if (j->hostkey != NULL) {
		/* Only "TYPE BASE64" of the key; drop any comment. */
		int	 n = (int)strcspn(strchr(j->hostkey, ' ') + 1, " ");
		int	 tl = (int)(strchr(j->hostkey, ' ') - j->hostkey);

		snprintf(line, sizeof(line), "%s %.*s %.*s\n", j->addr, tl,
		    j->hostkey, n, j->hostkey + tl + 1);
		if (state_write_atomic(j->known, line, strlen(line), 0600, err,
		    errlen) == -1)
			return -1;
	}
	if (scp_make_file(j->file, size, err, errlen) == -1)
		return -1;
	if ((fsize = scp_file_size(j->file, err, errlen)) == -1)
		return -1;
	if ((unsigned long long)fsize != size) {
		snprintf(err, errlen, "%s holds %lld bytes, not the %llu asked",
		    j->file, fsize, size);
		return -1;
	}
	return 0;
}

/*
 * Measures, then removes the copy on the peer through the SFTP subsystem
 * (sftp -b), not a remote shell: no quoting at all, and a slow login shell
 * (profile scripts) cannot stall it.  *remote_bytes is the copy's size,
 * -1 if it could not be listed.  Returns 1 when the copy was removed.
 */
static int
scp_check_remote(const struct scp_job *j, long long *remote_bytes)
{
	struct exec_result r;
	char	*argv[24], kh[600], err[256], dest[128], batch[512], name[64];
	char	 line[200];
	uint64_t size;
	int	 i = 0, ok, v6 = strchr(j->addr, ':') != NULL;

	*remote_bytes = -1;
	snprintf(name, sizeof(name), "sftp-%ld", (long)getpid());
	/* "-": a failing ls does not stop the batch before rm. */
	snprintf(line, sizeof(line), "-ls -ln %s\nrm %s\n", j->remote,
	    j->remote);
	if (state_path(batch, sizeof(batch), "tmp", name) == -1 ||
	    state_write_atomic(batch, line, strlen(line), 0600, err,
	    sizeof(err)) == -1)
		return 0;
	argv[i++] = "sftp";
	argv[i++] = "-q";
	argv[i++] = "-b";
	argv[i++] = batch;
	i = ssh_opts(j, argv, i, kh, sizeof(kh));
	snprintf(dest, sizeof(dest), "%s@%s%s%s", j->user, v6 ? "[" : "",
	    j->addr, v6 ? "]" : "");
	argv[i++] = dest;
	argv[i] = NULL;
	if (exec_run(argv, 30000, 65536, &r, err, sizeof(err)) == -1)
		emit_progress("removing %s on %s: %s", j->remote, dest, err);
	ok = r.exited && r.status == 0;
	if (r.out != NULL && parse_sftp_ls_size(r.out, r.outlen, j->remote,
	    &size, err, sizeof(err)) == 0)
		*remote_bytes = (long long)size;
	if (r.err != NULL && !ok)
		emit_progress("removing %s on %s: sftp exited %d: %.200s",
		    j->remote, dest, r.status, r.err);
	exec_free(&r);
	unlink(batch);
	return ok;
}

/* The result of a copy: size bytes in secs; the peer's copy got bytes
 * (-1 unknown), removed or not. */
static void
scp_emit(const struct scp_job *j, unsigned long long size, double secs,
    int removed, long long got)
{
	struct emit e;

	emit_begin(&e, "result");
	emit_str(&e, "cmd", "scp");
	emit_int(&e, "bytes", (long long)size);	/* the file's (scp_prepare) */
	emit_num(&e, "seconds", secs);
	emit_num(&e, "bps", (double)size * 8.0 / secs);
	emit_bool(&e, "local_removed", 1);
	emit_str(&e, "remote_path", j->remote);
	emit_bool(&e, "remote_removed", removed);
	if (got >= 0)
		emit_int(&e, "remote_bytes", got);
	else
		emit_null(&e, "remote_bytes");
	emit_flush(&e);
}

int
agent_cmd_scp(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--to", VALIDATE_USERADDR, 0, 0, NULL, { NULL } },
		{ "--size", VALIDATE_SIZE, 0, 0, NULL, { NULL } },
		{ "--key", VALIDATE_PATH, 0, 0, NULL, { NULL } },
		{ "--hostkey", VALIDATE_PUBKEY, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct scp_job j;
	struct exec_result r;
	unsigned long long size;
	char	 err[1024], kh[600], *cargv[24];
	long long t0, t1, deadline, got;
	double	 secs;
	int	 i = 0, rc, removed;

	memset(&r, 0, sizeof(r));
	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if (opts[0].val == NULL || opts[1].val == NULL)
		return emit_error(AGENT_EXIT_USAGE,
		    "scp: --to and --size are required");
	if ((rc = agent_lease_gate("scp", opts[4].val, NULL)) != 0)
		return rc;
	memset(&j, 0, sizeof(j));
	j.to = opts[0].val;
	j.key = opts[2].val;
	j.hostkey = opts[3].val;
	size = validate_size_bytes(opts[1].val);
	if (scp_prepare(&j, size, err, sizeof(err)) == -1) {
		unlink(j.file);
		unlink(j.known);
		return emit_error(AGENT_EXIT_INTERNAL, err);
	}
	cargv[i++] = "scp";
	cargv[i++] = "-q";
	i = ssh_opts(&j, cargv, i, kh, sizeof(kh));
	cargv[i++] = j.file;
	cargv[i++] = j.target;
	cargv[i] = NULL;
	/* The bce report's 1.44 MB took 2 minutes: allow 10 kB/s. */
	deadline = 120 + (long long)(size / 10000);
	if (deadline > 3600)
		deadline = 3600;
	t0 = scp_now_us();
	rc = exec_cmd(cargv, (int)deadline * 1000, &r, err, sizeof(err));
	t1 = scp_now_us();
	unlink(j.file);
	exec_free(&r);
	if (rc != AGENT_EXIT_OK) {
		unlink(j.known);
		return emit_error(rc, err);
	}
	secs = (double)(t1 - t0) / 1e6;
	removed = scp_check_remote(&j, &got);
	unlink(j.known);
	/* Exact figures only: the file's size, the clock, and the peer
	 * holding all of it (scp's own meter shows only on a tty). */
	if (got >= 0 && (unsigned long long)got != size) {
		snprintf(err, sizeof(err), "scp: the peer holds %lld of the %llu "
		    "bytes sent (%s)", got, size, j.remote);
		return emit_error(AGENT_EXIT_COMMAND, err);
	}
	if (secs <= 0)
		return emit_error(AGENT_EXIT_COMMAND, "scp: took no measurable "
		    "time (clock)");
	scp_emit(&j, size, secs, removed, got);
	return AGENT_EXIT_OK;
}

/* ---- keys --------------------------------------------------------------- */

static int
read_line(const char *path, char *buf, size_t len)
{
	if (osdep_read_small(path, buf, len) == -1)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int
agent_cmd_keygen(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--tag", VALIDATE_TAG, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct exec_result r;
	struct emit e;
	char	 err[1024], key[512], pub[600], comment[48], line[8400];
	char	*kargv[] = { "ssh-keygen", "-q", "-t", "ed25519", "-N", "",
	    "-C", comment, "-f", key, NULL };
	int	 rc;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if (opts[0].val == NULL)
		return emit_error(AGENT_EXIT_USAGE, "keygen: --tag is required");
	if ((rc = agent_lease_gate("keygen", opts[1].val, NULL)) != 0)
		return rc;
	if (state_mkdir("keys", err, sizeof(err)) == -1 ||
	    state_path(key, sizeof(key), "keys", opts[0].val) == -1)
		return emit_error(AGENT_EXIT_INTERNAL, err);
	snprintf(comment, sizeof(comment), "labrat-%s", opts[0].val);
	snprintf(pub, sizeof(pub), "%s.pub", key);
	if (access(key, F_OK) != 0 || access(pub, F_OK) != 0) {
		unlink(key);
		unlink(pub);
		rc = exec_cmd(kargv, 30000, &r, err, sizeof(err));
		exec_free(&r);
		if (rc != AGENT_EXIT_OK)
			return emit_error(rc, err);
	}
	if (read_line(pub, line, sizeof(line)) == -1) {
		snprintf(err, sizeof(err), "read %s: %s", pub, strerror(errno));
		return emit_error(AGENT_EXIT_COMMAND, err);
	}
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "keygen");
	emit_str(&e, "tag", opts[0].val);
	emit_str(&e, "key", key);
	emit_str(&e, "pubkey", line);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}

/* authorized_keys of the running user (LABRAT_AGENT_AUTHKEYS for tests). */
static int
authkeys_path(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("LABRAT_AGENT_AUTHKEYS");
	struct passwd *pw;
	char	 dir[400];

	if (env != NULL) {
		if (validate_value(VALIDATE_PATH, "LABRAT_AGENT_AUTHKEYS", env,
		    err, errlen) == -1)
			return -1;
		snprintf(buf, len, "%s", env);
		return 0;
	}
	if ((pw = getpwuid(getuid())) == NULL || pw->pw_dir == NULL ||
	    strlen(pw->pw_dir) > 300) {
		snprintf(err, errlen, "no home directory for uid %ld",
		    (long)getuid());
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/.ssh", pw->pw_dir);
	if (mkdir(dir, 0700) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "mkdir %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(buf, len, "%s/authorized_keys", dir);
	return 0;
}

/* Reads the whole authorized_keys ("" if missing); heap, caller frees. */
static char *
authkeys_read(const char *path, char *err, size_t errlen)
{
	FILE	*f;
	char	*buf;
	size_t	 n;

	if ((buf = malloc(AUTHKEYS_MAX + 1)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	buf[0] = '\0';
	if ((f = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return buf;
		snprintf(err, errlen, "open %s: %s", path, strerror(errno));
		free(buf);
		return NULL;
	}
	n = fread(buf, 1, AUTHKEYS_MAX, f);
	buf[n] = '\0';
	if (n == AUTHKEYS_MAX) {
		snprintf(err, errlen, "%s: larger than %d bytes", path,
		    AUTHKEYS_MAX);
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static void
emit_hostkeys(struct emit *e)
{
	struct dirent *de;
	DIR	*d;
	char	 path[600], line[8400];
	size_t	 n;

	emit_arr(e, "hostkeys");
	if ((d = opendir("/etc/ssh")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			n = strlen(de->d_name);
			if (strncmp(de->d_name, "ssh_host_", 9) != 0 ||
			    n < 13 || strcmp(de->d_name + n - 8, "_key.pub"))
				continue;
			snprintf(path, sizeof(path), "/etc/ssh/%s", de->d_name);
			if (read_line(path, line, sizeof(line)) == -1)
				continue;
			/* "TYPE BASE64" without the comment. */
			if (strchr(line, ' ') != NULL)
				line[strchr(line, ' ') - line + 1 +
				    strcspn(strchr(line, ' ') + 1, " ")] = '\0';
			emit_str(e, NULL, line);
		}
		closedir(d);
	}
	emit_end(e);
}

int
agent_cmd_authorize(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--tag", VALIDATE_TAG, 0, 0, NULL, { NULL } },
		{ "--pubkey", VALIDATE_PUBKEY, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct emit e;
	char	 err[1024], path[512], line[8400], *text;
	const char *k;
	size_t	 tl, bl;
	int	 fd, present, rc;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if (opts[0].val == NULL || opts[1].val == NULL)
		return emit_error(AGENT_EXIT_USAGE,
		    "authorize: --tag and --pubkey are required");
	if ((rc = agent_lease_gate("authorize", opts[2].val, NULL)) != 0)
		return rc;
	k = opts[1].val;
	tl = strcspn(k, " ");
	bl = strcspn(k + tl + 1, " ");
	snprintf(line, sizeof(line), "%.*s labrat-%s\n", (int)(tl + 1 + bl),
	    k, opts[0].val);
	if (authkeys_path(path, sizeof(path), err, sizeof(err)) == -1 ||
	    (text = authkeys_read(path, err, sizeof(err))) == NULL)
		return emit_error(AGENT_EXIT_INTERNAL, err);
	present = strncmp(text, line, strlen(line)) == 0;
	if (!present) {
		char	nl[8402];

		snprintf(nl, sizeof(nl), "\n%s", line);
		present = strstr(text, nl) != NULL;
	}
	if (!present) {
		if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600)) ==
		    -1 || (text[0] != '\0' && text[strlen(text) - 1] != '\n' &&
		    write(fd, "\n", 1) != 1) ||
		    write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
			snprintf(err, sizeof(err), "append %s: %s", path,
			    strerror(errno));
			if (fd != -1)
				close(fd);
			free(text);
			return emit_error(AGENT_EXIT_INTERNAL, err);
		}
		close(fd);
	}
	free(text);
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "authorize");
	emit_str(&e, "tag", opts[0].val);
	emit_bool(&e, "added", !present);
	emit_hostkeys(&e);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}

int
agent_cmd_deauthorize(int argc, char **argv)
{
	struct validate_opt opts[] = {
		{ "--tag", VALIDATE_TAG, 0, 0, NULL, { NULL } },
		{ "--owner", VALIDATE_TOKEN, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct emit e;
	char	 err[1024], path[512], key[512], suffix[48], *text, *out;
	char	*line, *next;
	size_t	 n, sl, olen = 0;
	int	 removed = 0, rc;

	if (validate_args(opts, argc, argv, err, sizeof(err)) == -1)
		return emit_error(AGENT_EXIT_USAGE, err);
	if (opts[0].val == NULL)
		return emit_error(AGENT_EXIT_USAGE,
		    "deauthorize: --tag is required");
	if ((rc = agent_lease_gate("deauthorize", opts[1].val, NULL)) != 0)
		return rc;
	snprintf(suffix, sizeof(suffix), " labrat-%s", opts[0].val);
	sl = strlen(suffix);
	if (authkeys_path(path, sizeof(path), err, sizeof(err)) == -1 ||
	    (text = authkeys_read(path, err, sizeof(err))) == NULL)
		return emit_error(AGENT_EXIT_INTERNAL, err);
	if ((out = malloc(strlen(text) + 2)) == NULL) {
		free(text);
		return emit_error(AGENT_EXIT_INTERNAL, "out of memory");
	}
	for (line = text; *line != '\0'; line = next) {
		n = strcspn(line, "\n");
		next = line + n + (line[n] == '\n');
		if (n >= sl && strncmp(line + n - sl, suffix, sl) == 0) {
			removed++;
			continue;
		}
		memcpy(out + olen, line, n);
		olen += n;
		out[olen++] = '\n';
	}
	if (removed > 0 && state_write_atomic(path, out, olen, 0600, err,
	    sizeof(err)) == -1) {
		free(text);
		free(out);
		return emit_error(AGENT_EXIT_INTERNAL, err);
	}
	free(text);
	free(out);
	if (state_path(key, sizeof(key), "keys", opts[0].val) == 0) {
		unlink(key);
		strcat(key, ".pub");
		unlink(key);
	}
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "deauthorize");
	emit_str(&e, "tag", opts[0].val);
	emit_int(&e, "removed", removed);
	emit_flush(&e);
	return AGENT_EXIT_OK;
}
