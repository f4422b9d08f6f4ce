/*
 * state.c: saved originals and locks (see state.h).  The saved state is a
 * flat JSON object read back with json.h.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "state.h"

const char *
state_dir(void)
{
	const char *s = getenv("LABRAT_AGENT_STATE");

	if (s != NULL && s[0] == '/' && strlen(s) < 200 &&
	    strstr(s, "..") == NULL)
		return s;
#if defined(__FreeBSD__)
	return "/var/db/labrat";
#else
	return "/var/lib/labrat";
#endif
}

int
state_path(char *buf, size_t len, const char *sub, const char *name)
{
	int	n;

	if (name != NULL)
		n = snprintf(buf, len, "%s/%s/%s", state_dir(), sub, name);
	else
		n = snprintf(buf, len, "%s/%s", state_dir(), sub);
	return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

int
state_mkdir(const char *sub, char *err, size_t errlen)
{
	char	 path[512], *p;

	if (state_path(path, sizeof(path), sub, NULL) == -1) {
		snprintf(err, errlen, "state dir path too long");
		return -1;
	}
	for (p = path + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		{
			char	c = *p;

			*p = '\0';
			if (mkdir(path, 0700) == -1 && errno != EEXIST) {
				snprintf(err, errlen, "mkdir %s: %s", path,
				    strerror(errno));
				return -1;
			}
			*p = c;
		}
		if (*p == '\0')
			break;
	}
	return 0;
}

int
state_write_atomic(const char *path, const char *data, size_t len, int mode,
    char *err, size_t errlen)
{
	char	 tmp[600];
	int	 fd;
	ssize_t	 n;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path,
	    (long)getpid()) >= sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, mode)) == -1) {
		snprintf(err, errlen, "open %s: %s", tmp, strerror(errno));
		return -1;
	}
	while (len > 0) {
		n = write(fd, data, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "write %s: %s", tmp,
			    strerror(errno));
			goto fail;
		}
		data += n;
		len -= (size_t)n;
	}
	if (fsync(fd) == -1) {
		snprintf(err, errlen, "fsync %s: %s", tmp, strerror(errno));
		goto fail;
	}
	close(fd);
	if (rename(tmp, path) == -1) {
		snprintf(err, errlen, "rename %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
fail:
	close(fd);
	unlink(tmp);
	return -1;
}

static const char *
knob_json(int v, char *buf, size_t len)
{
	if (v == OSDEP_UNSET)
		return "null";
	snprintf(buf, len, "%d", v);
	return buf;
}

int
state_save(const struct state_saved *s, char *err, size_t errlen)
{
	char	 path[512], text[1024], b[7][16];
	const char *nat = osdep_nat_name(s->knobs.nat);
	int	 n;

	if (state_mkdir("state", err, errlen) == -1)
		return -1;
	if (state_path(path, sizeof(path), "state", s->ifname) == -1 ||
	    strlen(path) + 6 > sizeof(path)) {
		snprintf(err, errlen, "state path too long");
		return -1;
	}
	strcat(path, ".json");
	n = snprintf(text, sizeof(text), "{\"if\":\"%s\",\"os\":\"%s\","
	    "\"saved_at\":%lld,\"tso\":%s,\"tcp_tso\":%s,\"mtu\":%s,"
	    "\"lro\":%s,\"rxcsum\":%s,\"txcsum\":%s,\"nat\":%s%s%s,"
	    "\"nat_if\":\"%s\",\"loaded\":%u}\n", s->ifname, s->os,
	    s->saved_at, knob_json(s->knobs.tso, b[0], 16),
	    knob_json(s->knobs.tcp_tso, b[1], 16),
	    knob_json(s->knobs.mtu, b[2], 16),
	    knob_json(s->knobs.lro, b[3], 16),
	    knob_json(s->knobs.rxcsum, b[4], 16),
	    knob_json(s->knobs.txcsum, b[5], 16),
	    nat ? "\"" : "", nat ? nat : "null", nat ? "\"" : "",
	    s->knobs.nat_if, s->loaded);
	if (n < 0 || (size_t)n >= sizeof(text)) {
		snprintf(err, errlen, "state too large");
		return -1;
	}
	return state_write_atomic(path, text, (size_t)n, 0600, err, errlen);
}

static int
get_knob(const struct json_value *root, const char *key, int *out)
{
	const struct json_value *v = json_get(root, key);
	double	 d;

	if (v == NULL)
		return -1;
	if (json_type(v) == JSON_NULL) {
		*out = OSDEP_UNSET;
		return 0;
	}
	if (json_number(v, &d) == -1 || d < 0 || d > 1e6)
		return -1;
	*out = (int)d;
	return 0;
}

static int
state_parse(const char *text, size_t len, const char *ifname,
    struct state_saved *s, char *err, size_t errlen)
{
	struct json_doc *doc;
	const struct json_value *root, *v;
	const char *str;
	double	 d;
	int	 bad = 0;

	if ((doc = json_doc_parse(text, len, err, errlen)) == NULL)
		return -1;
	root = json_doc_root(doc);
	memset(s, 0, sizeof(*s));
	osdep_knobs_unset(&s->knobs);
	snprintf(s->ifname, sizeof(s->ifname), "%s", ifname);
	bad |= get_knob(root, "tso", &s->knobs.tso);
	bad |= get_knob(root, "tcp_tso", &s->knobs.tcp_tso);
	bad |= get_knob(root, "mtu", &s->knobs.mtu);
	bad |= get_knob(root, "lro", &s->knobs.lro);
	bad |= get_knob(root, "rxcsum", &s->knobs.rxcsum);
	bad |= get_knob(root, "txcsum", &s->knobs.txcsum);
	v = json_get(root, "nat");
	if (v != NULL && json_type(v) == JSON_STRING)
		s->knobs.nat = osdep_nat_parse(json_string(v));
	str = json_string(json_get(root, "nat_if"));
	if (str != NULL && strlen(str) < sizeof(s->knobs.nat_if))
		strcpy(s->knobs.nat_if, str);
	str = json_string(json_get(root, "os"));
	if (str != NULL && strlen(str) < sizeof(s->os))
		strcpy(s->os, str);
	if (json_number(json_get(root, "saved_at"), &d) == 0)
		s->saved_at = (long long)d;
	if (json_number(json_get(root, "loaded"), &d) == 0 && d >= 0 &&
	    d < 256)
		s->loaded = (unsigned)d;
	json_doc_free(doc);
	if (bad) {
		snprintf(err, errlen, "corrupt state file for %s", ifname);
		return -1;
	}
	return 0;
}

int
state_load(const char *ifname, struct state_saved *s, int *found, char *err,
    size_t errlen)
{
	char	 path[512], text[4096];
	ssize_t	 n;
	int	 fd;

	*found = 0;
	if (state_path(path, sizeof(path), "state", ifname) == -1 ||
	    strlen(path) + 6 > sizeof(path)) {
		snprintf(err, errlen, "state path too long");
		return -1;
	}
	strcat(path, ".json");
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
	if (state_parse(text, (size_t)n, ifname, s, err, errlen) == -1)
		return -1;
	*found = 1;
	return 0;
}

int
state_remove(const char *ifname, char *err, size_t errlen)
{
	char	 path[512];

	if (state_path(path, sizeof(path), "state", ifname) == -1 ||
	    strlen(path) + 6 > sizeof(path)) {
		snprintf(err, errlen, "state path too long");
		return -1;
	}
	strcat(path, ".json");
	if (unlink(path) == -1 && errno != ENOENT) {
		snprintf(err, errlen, "unlink %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int
state_lock(const char *ifname, char *err, size_t errlen)
{
	struct flock fl;
	char	 path[512];
	int	 fd;

	if (state_mkdir("state", err, errlen) == -1)
		return -1;
	if (state_path(path, sizeof(path), "state", ifname) == -1 ||
	    strlen(path) + 6 > sizeof(path)) {
		snprintf(err, errlen, "state path too long");
		return -1;
	}
	strcat(path, ".lock");
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
state_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
