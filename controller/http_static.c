/*
 * http_static: the dashboard's files under /ui/ (http_int.h "static
 * files"): GET / and GET /ui redirect to /ui/, GET /ui/ is index.html,
 * GET /ui/PATH the file PATH of the set tools/webembed.c compiled in
 * (http_static_files, web/ at build time) or, with "http.static_dir", of
 * that directory.  Replies carry a Content-Type by extension, a strong
 * ETag (If-None-Match: 304), Cache-Control, the gzip encoding when the
 * set has one and Accept-Encoding allows it, and the CSP (http.c adds it
 * to every reply).  From a directory each component is opened with
 * openat(O_NOFOLLOW) under the directory's fd, so no symlink is followed
 * at all and only regular files are served; the parser (http_query.c)
 * already refused "..", ".", empty segments, NUL and encoded "/".  Names
 * with a segment starting with "." are refused as well.  Bodies are heap
 * copies the response owns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embed.h"
#include "http_int.h"
#include "util.h"

#define STATIC_FILE_MAX	(16 * 1024 * 1024)
#define STATIC_PATH_MAX	1024

extern const struct embed_web http_static_files[];

static const struct { const char *ext, *type; } static_types[] = {
	{ "html", "text/html; charset=utf-8" },
	{ "js", "text/javascript; charset=utf-8" },
	{ "mjs", "text/javascript; charset=utf-8" },
	{ "css", "text/css; charset=utf-8" },
	{ "json", "application/json" },
	{ "map", "application/json" },
	{ "svg", "image/svg+xml" },
	{ "png", "image/png" },
	{ "ico", "image/x-icon" },
	{ "webp", "image/webp" },
	{ "woff2", "font/woff2" },
	{ "txt", "text/plain; charset=utf-8" },
	{ NULL, NULL }
};

const char *
http_static_ctype(const char *name)
{
	const char	*slash = strrchr(name, '/'), *dot = strrchr(name, '.');
	size_t		 i;

	if (dot == NULL || (slash != NULL && dot < slash) || dot == name ||
	    dot[-1] == '/')
		return "application/octet-stream";
	for (i = 0; static_types[i].ext != NULL; i++)
		if (strcasecmp(dot + 1, static_types[i].ext) == 0)
			return static_types[i].type;
	return "application/octet-stream";
}

void
http_static_etag(const void *data, size_t len, int gz,
    char out[HTTP_ETAG_MAX])
{
	static const char	hex[] = "0123456789abcdef";
	uint8_t			h[32];
	size_t			i, o = 0;

	util_sha256(data, len, h);
	out[o++] = '"';
	for (i = 0; i < 16; i++) {
		out[o++] = hex[h[i] >> 4];
		out[o++] = hex[h[i] & 15];
	}
	if (gz) {
		memcpy(out + o, "-gz", 3);
		o += 3;
	}
	out[o++] = '"';
	out[o] = '\0';
}

int
http_static_etag_match(const char *inm, const char *etag)
{
	const char	*p = inm, *q;
	size_t		 n = strlen(etag);

	if (inm == NULL)
		return 0;
	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;	/* If-None-Match compares weakly */
		for (q = p; *q != '\0' && *q != ','; q++)
			;
		while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
		if ((size_t)(q - p) == n && memcmp(p, etag, n) == 0)
			return 1;
		while (*q != '\0' && *q != ',')
			q++;
		p = q;
	}
	return 0;
}

/* Does the coding at p (n bytes, "gzip;q=0.5") name want?  *q0: its q
 * is 0 (refused). */
static int
coding_is(const char *p, size_t n, const char *want, int *q0)
{
	size_t		 w = strlen(want);
	const char	*q;
	char		 tok[64];

	if (n >= sizeof tok)
		return 0;
	memcpy(tok, p, n);
	tok[n] = '\0';
	if (strncasecmp(tok, want, w) != 0 || (tok[w] != '\0' &&
	    tok[w] != ';' && tok[w] != ' ' && tok[w] != '\t'))
		return 0;
	*q0 = 0;
	if ((q = strstr(tok + w, "q=")) != NULL ||
	    (q = strstr(tok + w, "Q=")) != NULL)
		*q0 = strtod(q + 2, NULL) <= 0.0;
	return 1;
}

int
http_static_gzip_ok(const char *ae)
{
	const char	*p = ae, *e;
	int		 q0, gzip = -1, star = -1;

	if (ae == NULL)
		return 0;
	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		for (e = p; *e != '\0' && *e != ','; e++)
			;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (coding_is(p, (size_t)(e - p), "gzip", &q0) ||
		    coding_is(p, (size_t)(e - p), "x-gzip", &q0))
			gzip = !q0;
		else if (coding_is(p, (size_t)(e - p), "*", &q0))
			star = !q0;
		while (*e != '\0' && *e != ',')
			e++;
		p = e;
	}
	return gzip != -1 ? gzip : star == 1;
}

const char *
http_static_cache(const char *name)
{
	if (strncmp(name, "vendor/", 7) == 0)
		return "public, max-age=604800";
	return "no-cache";	/* revalidate: the ETag makes that cheap */
}

/* Reads PATH (segments joined by "/") under dirfd, no symlink followed:
 * the heap bytes, or NULL with *status 404 (absent, not a regular file,
 * a symlink, too big) or 500. */
static char *
static_read_dir(int dirfd, char *path, size_t *lenp, int *status)
{
	struct stat	 sb;
	char		*seg, *next, *buf = NULL;
	int		 fd = dirfd, nfd;
	size_t		 got = 0;
	ssize_t		 n;

	*status = 404;
	for (seg = path; seg != NULL; seg = next) {
		if ((next = strchr(seg, '/')) != NULL)
			*next++ = '\0';
		nfd = openat(fd, seg, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK | (next != NULL ? O_DIRECTORY : 0));
		if (fd != dirfd)
			close(fd);
		if (nfd == -1)
			return NULL;
		fd = nfd;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode) ||
	    sb.st_size > STATIC_FILE_MAX)
		goto out;
	buf = xmalloc((size_t)sb.st_size + 1);
	while (got < (size_t)sb.st_size) {
		n = read(fd, buf + got, (size_t)sb.st_size - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got != (size_t)sb.st_size) {
		*status = 500;
		free(buf);
		buf = NULL;
		goto out;
	}
	*lenp = got;
out:
	close(fd);
	return buf;
}

/* The reply for one file's bytes (plain, or gz when gzok and given). */
static int
static_reply(struct http_req *req, struct http_res *res, const char *name,
    const unsigned char *data, size_t len, const unsigned char *gz,
    size_t gzlen)
{
	const unsigned char	*b = data;
	char			 etag[HTTP_ETAG_MAX];
	int			 usegz;

	usegz = gz != NULL && http_static_gzip_ok(http_req_header(req,
	    "Accept-Encoding"));
	if (usegz) {
		b = gz;
		len = gzlen;
	}
	http_static_etag(b, len, usegz, etag);
	http_res_header(res, "ETag", "%s", etag);
	http_res_header(res, "Cache-Control", "%s", http_static_cache(name));
	if (gz != NULL)
		http_res_header(res, "Vary", "Accept-Encoding");
	res->ctype = http_static_ctype(name);
	if (http_static_etag_match(http_req_header(req, "If-None-Match"),
	    etag))
		return http_body_take(res, 304, NULL, 0);
	if (usegz)
		http_res_header(res, "Content-Encoding", "gzip");
	res->body = xmalloc(len + 1);
	memcpy(res->body, b, len);
	res->len = len;
	res->status = 200;
	return 0;
}

/* The name under /ui/ the request asks for, into buf: 0, or -1 (404). */
static int
static_name(const struct http_req *req, char *buf, size_t len)
{
	size_t	i, o = 0, n;

	if (req->uri.nseg == 1)
		return snprintf(buf, len, "index.html") < 0 ? -1 : 0;
	for (i = 1; i < req->uri.nseg; i++) {
		n = strlen(req->uri.seg[i]);
		if (req->uri.seg[i][0] == '.' || o + n + 2 > len)
			return -1;
		if (i > 1)
			buf[o++] = '/';
		memcpy(buf + o, req->uri.seg[i], n);
		o += n;
	}
	buf[o] = '\0';
	return 0;
}

static int
static_from_dir(struct http_req *req, struct http_res *res, int dirfd,
    const char *name)
{
	char	 path[STATIC_PATH_MAX + 32];
	char	*data;
	size_t	 len = 0;
	int	 status;

	/* uPlot where npm puts it, as the embedded set names it. */
	if (strcmp(name, "vendor/uPlot.iife.min.js") == 0 ||
	    strcmp(name, "vendor/uPlot.min.css") == 0)
		snprintf(path, sizeof path, "node_modules/uplot/dist/%s",
		    name + 7);
	else
		snprintf(path, sizeof path, "%s", name);
	if ((data = static_read_dir(dirfd, path, &len, &status)) == NULL)
		return http_problem(res, status, status == 404 ? "no such "
		    "file" : "the file could not be read");
	status = static_reply(req, res, name, (unsigned char *)data, len,
	    NULL, 0);
	free(data);
	return status;
}

int
http_res_ui(struct http_req *req, struct http_res *res)
{
	const struct embed_web	*f;
	char			 name[STATIC_PATH_MAX];
	int			 dirfd = http_static_dirfd(req->srv);

	if (req->uri.nseg == 1 && !req->dir) {
		http_res_header(res, "Location", "/ui/");
		return http_problem(res, 302, "the dashboard is at /ui/");
	}
	if (static_name(req, name, sizeof name) == -1)
		return http_problem(res, 404, "no such file");
	if (dirfd != -1)
		return static_from_dir(req, res, dirfd, name);
	for (f = http_static_files; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return static_reply(req, res, name, f->data, f->len,
			    f->gz, f->gzlen);
	return http_problem(res, 404, "no such file");
}

int
http_res_root(struct http_req *req, struct http_res *res)
{
	(void)req;
	http_res_header(res, "Location", "/ui/");
	return http_problem(res, 302, "the dashboard is at /ui/");
}
