/*
 * lease.c: the host lease file and its lock (see lease.h).  The file is a
 * flat JSON object read back with json.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "json.h"
#include "lease.h"
#include "state.h"

long long
lease_until(const struct lease *l)
{
	return l->hold_until > l->expires ? l->hold_until : l->expires;
}

int
lease_live(const struct lease *l, long long now)
{
	return now < lease_until(l);
}

static void
hhmm(long long t, char *buf, size_t len)
{
	struct tm tm;
	time_t	 tt = (time_t)t;

	if (localtime_r(&tt, &tm) == NULL)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%02d:%02d", tm.tm_hour, tm.tm_min);
}

void
lease_describe(const struct lease *l, char *buf, size_t len)
{
	char	 since[16], until[16];

	hhmm(l->since, since, sizeof(since));
	hhmm(lease_until(l), until, sizeof(until));
	snprintf(buf, len, "leased by %s pid %ld run %s since %s, expires %s",
	    l->host, l->pid, l->run, since, until);
}

static int
lease_file(char *buf, size_t len, const char *name, char *err, size_t errlen)
{
	if (state_mkdir("lease", err, errlen) == -1)
		return -1;
	if (state_path(buf, len, "lease", name) == -1) {
		snprintf(err, errlen, "lease path too long");
		return -1;
	}
	return 0;
}

int
lease_lock(char *err, size_t errlen)
{
	struct flock fl;
	char	 path[512];
	int	 fd;

	if (lease_file(path, sizeof(path), "lease.lock", err, errlen) == -1)
		return -1;
	if ((fd = open(path, O_RDWR | O_CREAT, 0600)) == -1) {
		snprintf(err, errlen, "open %s: %s", path, strerror(errno));
		return -1;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	while (fcntl(fd, F_SETLKW, &fl) == -1) {
		if (errno == EINTR)
			continue;
		snprintf(err, errlen, "lock %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

void
lease_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

int
lease_save(const struct lease *l, char *err, size_t errlen)
{
	char	 path[512], text[1024];
	int	 n;

	if (lease_file(path, sizeof(path), "lease.json", err, errlen) == -1)
		return -1;
	n = snprintf(text, sizeof(text), "{\"owner\":\"%s\",\"host\":\"%s\","
	    "\"pid\":%ld,\"run\":\"%s\",\"since\":%lld,\"renewed\":%lld,"
	    "\"ttl\":%d,\"expires\":%lld,\"hold_until\":%lld}\n", l->owner,
	    l->host, l->pid, l->run, l->since, l->renewed, l->ttl, l->expires,
	    l->hold_until);
	if (n < 0 || (size_t)n >= sizeof(text)) {
		snprintf(err, errlen, "lease too large");
		return -1;
	}
	return state_write_atomic(path, text, (size_t)n, 0600, err, errlen);
}

static int
get_str(const struct json_value *root, const char *key, char *out,
    size_t len)
{
	const char *s = json_string(json_get(root, key));

	if (s == NULL || s[0] == '\0' || strlen(s) >= len)
		return -1;
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

static int
get_num(const struct json_value *root, const char *key, long long *out)
{
	double	 d;

	if (json_number(json_get(root, key), &d) == -1 || d < 0 || d > 4e18)
		return -1;
	*out = (long long)d;
	return 0;
}

static int
lease_parse(const char *text, size_t len, struct lease *l, char *err,
    size_t errlen)
{
	struct json_doc *doc;
	const struct json_value *root;
	long long pid = 0, ttl = 0;
	int	 bad = 0;

	if ((doc = json_doc_parse(text, len, err, errlen)) == NULL)
		return -1;
	root = json_doc_root(doc);
	memset(l, 0, sizeof(*l));
	bad |= get_str(root, "owner", l->owner, sizeof(l->owner));
	bad |= get_str(root, "host", l->host, sizeof(l->host));
	bad |= get_str(root, "run", l->run, sizeof(l->run));
	bad |= get_num(root, "pid", &pid);
	bad |= get_num(root, "since", &l->since);
	bad |= get_num(root, "renewed", &l->renewed);
	bad |= get_num(root, "ttl", &ttl);
	bad |= get_num(root, "expires", &l->expires);
	bad |= get_num(root, "hold_until", &l->hold_until);
	json_doc_free(doc);
	if (bad || pid > 0x7fffffffLL || ttl > 86400) {
		snprintf(err, errlen, "corrupt lease file");
		return -1;
	}
	l->pid = (long)pid;
	l->ttl = (int)ttl;
	return 0;
}

int
lease_load(struct lease *l, int *found, char *err, size_t errlen)
{
	char	 path[512], text[2048];
	ssize_t	 n;
	int	 fd;

	*found = 0;
	memset(l, 0, sizeof(*l));
	if (lease_file(path, sizeof(path), "lease.json", err, errlen) == -1)
		return -1;
	if ((fd = open(path, O_RDONLY)) == -1) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "open %s: %s", path, strerror(errno));
		return -1;
	}
	n = read(fd, text, sizeof(text));
	close(fd);
	if (n < 0 || (size_t)n >= sizeof(text)) {
		snprintf(err, errlen, "read %s: %s", path,
		    n < 0 ? strerror(errno) : "too large");
		return -1;
	}
	if (lease_parse(text, (size_t)n, l, err, errlen) == -1)
		return -1;
	*found = 1;
	return 0;
}

int
lease_remove(char *err, size_t errlen)
{
	char	 path[512];

	if (lease_file(path, sizeof(path), "lease.json", err, errlen) == -1)
		return -1;
	if (unlink(path) == -1 && errno != ENOENT) {
		snprintf(err, errlen, "unlink %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int
lease_check_locked(const char *owner, long long now, struct lease *cur,
    int *found, char *err, size_t errlen)
{
	char	 what[256];

	if (lease_load(cur, found, err, errlen) == -1)
		return AGENT_EXIT_INTERNAL;
	if (*found && owner != NULL && strcmp(cur->owner, owner) == 0)
		return AGENT_EXIT_OK;
	if (*found && lease_live(cur, now)) {
		lease_describe(cur, err, errlen);
		return AGENT_EXIT_LEASED;
	}
	if (owner == NULL)
		return AGENT_EXIT_OK;
	if (*found) {
		lease_describe(cur, what, sizeof(what));
		snprintf(err, errlen, "owner %s does not hold the lease (%s, "
		    "expired): take it first", owner, what);
	} else
		snprintf(err, errlen, "owner %s does not hold the lease (no "
		    "lease): take it first", owner);
	return AGENT_EXIT_UNLEASED;
}

int
lease_guard(const char *owner, int *keep, struct lease *cur, int *found,
    char *err, size_t errlen)
{
	int	 fd, rc;

	if ((fd = lease_lock(err, errlen)) == -1)
		return AGENT_EXIT_INTERNAL;
	rc = lease_check_locked(owner, (long long)time(NULL), cur, found, err,
	    errlen);
	if (rc == AGENT_EXIT_OK && keep != NULL)
		*keep = fd;
	else
		lease_unlock(fd);
	return rc;
}

int
lease_hold_locked(const char *owner, long long until, char *err,
    size_t errlen)
{
	struct lease l;
	int	 found;

	if (owner == NULL)
		return AGENT_EXIT_OK;
	if (lease_load(&l, &found, err, errlen) == -1)
		return AGENT_EXIT_INTERNAL;
	if (!found || strcmp(l.owner, owner) != 0 || l.hold_until >= until)
		return AGENT_EXIT_OK;
	l.hold_until = until;
	if (lease_save(&l, err, errlen) == -1)
		return AGENT_EXIT_INTERNAL;
	return AGENT_EXIT_OK;
}

static int
take_locked(const struct lease *want, int ttl, long long now,
    struct lease *out, struct lease *prev, int *had_prev, int *renewed,
    struct lease_restored *restored, char *err, size_t errlen)
{
	char	 e[1024];
	int	 rc;

	if (lease_load(prev, had_prev, err, errlen) == -1)
		return AGENT_EXIT_INTERNAL;
	*out = *want;
	out->ttl = ttl;
	out->renewed = now;
	out->expires = now + ttl;
	out->hold_until = 0;
	out->since = now;
	if (*had_prev && strcmp(prev->owner, want->owner) == 0) {
		*renewed = 1;
		out->since = prev->since;
		out->hold_until = prev->hold_until;
		if (prev->expires > out->expires)
			out->expires = prev->expires;
	} else if (*had_prev && lease_live(prev, now)) {
		lease_describe(prev, err, errlen);
		return AGENT_EXIT_LEASED;
	} else if ((rc = agent_restore_pending(restored, e, sizeof(e))) !=
	    AGENT_EXIT_OK) {
		snprintf(err, errlen, "lease not taken: the pending restore "
		    "failed: %s", e);
		return rc;
	}
	if (lease_save(out, err, errlen) == -1)
		return AGENT_EXIT_INTERNAL;
	return AGENT_EXIT_OK;
}

int
lease_take(const struct lease *want, int ttl, long long now,
    struct lease *out, struct lease *prev, int *had_prev, int *renewed,
    struct lease_restored *restored, char *err, size_t errlen)
{
	int	 fd, rc;

	*had_prev = *renewed = 0;
	memset(restored, 0, sizeof(*restored));
	if ((fd = lease_lock(err, errlen)) == -1)
		return AGENT_EXIT_INTERNAL;
	rc = take_locked(want, ttl, now, out, prev, had_prev, renewed,
	    restored, err, errlen);
	lease_unlock(fd);
	return rc;
}

int
lease_renew(const char *owner, int ttl, int extend, long long now,
    struct lease *out, char *err, size_t errlen)
{
	int	 fd, found, rc;

	if ((fd = lease_lock(err, errlen)) == -1)
		return AGENT_EXIT_INTERNAL;
	rc = lease_check_locked(owner, now, out, &found, err, errlen);
	if (rc == AGENT_EXIT_OK) {
		if (ttl > 0)
			out->ttl = ttl;
		out->renewed = now;
		if (extend > 0) {
			if (now + extend > out->expires)
				out->expires = now + extend;
		} else
			out->expires = now + out->ttl;
		if (lease_save(out, err, errlen) == -1)
			rc = AGENT_EXIT_INTERNAL;
	}
	lease_unlock(fd);
	return rc;
}

int
lease_release(const char *owner, int force, long long now,
    struct lease *prev, int *had, char *err, size_t errlen)
{
	int	 fd, rc = AGENT_EXIT_OK;

	*had = 0;
	if ((fd = lease_lock(err, errlen)) == -1)
		return AGENT_EXIT_INTERNAL;
	if (lease_load(prev, had, err, errlen) == -1) {
		/* An operator's --force clears even a corrupt file. */
		rc = AGENT_EXIT_INTERNAL;
		if (force && lease_remove(err, errlen) == 0)
			rc = AGENT_EXIT_OK;
	} else if (*had && !force && (owner == NULL ||
	    strcmp(prev->owner, owner) != 0)) {
		if (lease_live(prev, now)) {
			lease_describe(prev, err, errlen);
			rc = AGENT_EXIT_LEASED;
		}
		*had = 0;
	} else if (*had && lease_remove(err, errlen) == -1)
		rc = AGENT_EXIT_INTERNAL;
	lease_unlock(fd);
	return rc;
}
