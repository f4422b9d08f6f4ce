/*
 * ssh: see ssh.h.  Call order and pitfalls of libssh2 1.10 follow
 * REFERENCE.md §8: non-blocking session, poll() as
 * libssh2_session_block_directions() says, the host-key method asked for is
 * the one known_hosts holds, exit status read only after the channel closed.
 * This file: connecting, host-key check, authentication, session upkeep;
 * commands and uploads are in ssh_exec.c.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libssh2.h>
#include <libssh2_sftp.h>

#include "log.h"
#include "ssh.h"
#include "ssh_int.h"
#include "util.h"

static const char rsa_help[] = "Debian 12's libssh2 1.10 cannot sign RSA "
    "with SHA-2 and OpenSSH >= 8.8 rejects ssh-rsa signatures: use an "
    "ed25519 (or ECDSA) key";

static int	ssh_connect(struct ssh_conn *, char *, size_t);

static _Atomic int64_t	stat_connects, stat_handshakes, stat_reconnects;
static _Atomic int64_t	stat_execs;

int
ssh_global_init(void)
{
	return libssh2_init(0) == 0 ? 0 : -1;
}

void
ssh_global_cleanup(void)
{
	libssh2_exit();
}

const char *
ssh_strstatus(int st)
{
	switch (st) {
	case SSH_OK:
		return "ok";
	case SSH_EFAIL:
		return "failed";
	case SSH_ECONNECT:
		return "cannot connect";
	case SSH_ETIMEOUT:
		return "timed out";
	case SSH_EDROPPED:
		return "connection dropped";
	case SSH_EOUTPUT:
		return "output too large";
	}
	return "unknown";
}

const char *
ssh_lasterr(LIBSSH2_SESSION *s)
{
	char	*msg = NULL;
	int	 len = 0;

	if (s == NULL)
		return "no session";
	libssh2_session_last_error(s, &msg, &len, 0);
	return msg != NULL && *msg != '\0' ? msg : "unknown libssh2 error";
}

/* Errors after which the session cannot carry another command. */
int
ssh_fatal_rc(int rc)
{
	switch (rc) {
	case LIBSSH2_ERROR_SOCKET_SEND:
	case LIBSSH2_ERROR_SOCKET_RECV:
	case LIBSSH2_ERROR_SOCKET_DISCONNECT:
	case LIBSSH2_ERROR_SOCKET_TIMEOUT:
	case LIBSSH2_ERROR_TIMEOUT:
	case LIBSSH2_ERROR_BAD_SOCKET:
	case LIBSSH2_ERROR_KEX_FAILURE:
	case LIBSSH2_ERROR_KEY_EXCHANGE_FAILURE:
	case LIBSSH2_ERROR_DECRYPT:
	case LIBSSH2_ERROR_INVALID_MAC:
	case LIBSSH2_ERROR_PROTO:
	case LIBSSH2_ERROR_BANNER_RECV:
	case LIBSSH2_ERROR_BANNER_SEND:
		return 1;
	}
	return 0;
}

void
ssh_mark_dead(struct ssh_conn *c, const char *why)
{
	if (!c->dead)
		snprintf(c->dead_why, sizeof c->dead_why, "%s", why);
	c->dead = 1;
}

/*
 * Waits until the socket is ready in the direction libssh2 is blocked on,
 * sending keepalives on the way.  0 when ready (or worth retrying), 1 when
 * the deadline passed, -1 (reason in c->wait_err) when the keepalive could
 * not be sent or the peer stayed silent through three keepalive intervals
 * while we waited for it: keepalives ask for a reply, so a live sshd always
 * sends something back.
 */
int
ssh_wait(struct ssh_conn *c, int64_t deadline)
{
	struct pollfd	pfd;
	int64_t		left, now = util_now_ms();
	int		dir, next = 0, ms, r;

	left = deadline - now;
	if (left <= 0)
		return 1;
	if (c->s != NULL && c->keepalive_s > 0 &&
	    libssh2_keepalive_send(c->s, &next) < 0) {
		snprintf(c->wait_err, sizeof c->wait_err, "keepalive: %s",
		    ssh_lasterr(c->s));
		return -1;
	}
	ms = left > 1000 ? 1000 : (int)left;
	if (next > 0 && next * 1000 < ms)
		ms = next * 1000;
	pfd.fd = c->sock;
	pfd.events = 0;
	pfd.revents = 0;
	dir = c->s != NULL ? libssh2_session_block_directions(c->s) : 0;
	if (dir & LIBSSH2_SESSION_BLOCK_INBOUND)
		pfd.events |= POLLIN;
	if (dir & LIBSSH2_SESSION_BLOCK_OUTBOUND)
		pfd.events |= POLLOUT;
	if (pfd.events == 0)
		pfd.events = POLLIN;
	if ((r = poll(&pfd, 1, ms)) < 0 && errno != EINTR) {
		snprintf(c->wait_err, sizeof c->wait_err, "poll: %s",
		    strerror(errno));
		return -1;
	}
	now = util_now_ms();
	if (r > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR)))
		c->last_rx = now;
	else if ((pfd.events & POLLIN) && c->keepalive_s > 0 &&
	    c->last_rx > 0 && now - c->last_rx > 3000LL * c->keepalive_s) {
		snprintf(c->wait_err, sizeof c->wait_err, "no answer to "
		    "keepalives for %lld s", (long long)(now - c->last_rx) /
		    1000);
		return -1;
	}
	return 0;
}

/* Starts an operation: silence is measured from here. */
void
ssh_begin(struct ssh_conn *c)
{
	c->last_rx = util_now_ms();
	c->wait_err[0] = '\0';
}

/* The cause of the last failure: ssh_wait's, else libssh2's. */
const char *
ssh_cause(struct ssh_conn *c)
{
	return c->wait_err[0] != '\0' ? c->wait_err : ssh_lasterr(c->s);
}

static void
b64_encode(const unsigned char *in, size_t n, char *out, size_t outlen)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t	 i, o = 0;
	uint32_t v;

	/* OpenSSH prints SHA256 fingerprints without '=' padding. */
	for (i = 0; i < n && o + 5 < outlen; i += 3) {
		v = (uint32_t)in[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		out[o++] = t[(v >> 18) & 63];
		out[o++] = t[(v >> 12) & 63];
		if (i + 1 < n)
			out[o++] = t[(v >> 6) & 63];
		if (i + 2 < n)
			out[o++] = t[v & 63];
	}
	out[o] = '\0';
}

/* Non-blocking connect() to every address of the host until the deadline. */
static int
ssh_tcp(struct ssh_conn *c, int64_t deadline, char *err, size_t errlen)
{
	struct addrinfo	 hints, *res = NULL, *ai;
	struct pollfd	 pfd;
	char		 portstr[16];
	int		 fd = -1, r, soerr;
	socklen_t	 sl;
	int64_t		 left;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(portstr, sizeof portstr, "%d", c->port);
	if ((r = getaddrinfo(c->address, portstr, &hints, &res)) != 0) {
		util_seterr(err, errlen, "%s: resolve %s: %s", c->name,
		    c->address, gai_strerror(r));
		return -1;
	}
	util_seterr(err, errlen, "%s: connect(%s:%d): no address", c->name,
	    c->address, c->port);
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (fd == -1)
			continue;
		r = connect(fd, ai->ai_addr, ai->ai_addrlen);
		if (r == -1 && errno == EINPROGRESS) {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			left = deadline - util_now_ms();
			r = left > 0 ? poll(&pfd, 1, (int)left) : 0;
			if (r == 0) {
				util_seterr(err, errlen, "%s: connect(%s:%d): "
				    "timed out after %d ms", c->name,
				    c->address, c->port, c->connect_ms);
				close(fd);
				fd = -1;
				break;
			}
			sl = sizeof soerr;
			soerr = 0;
			if (r > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR,
			    &soerr, &sl) == 0 && soerr == 0)
				r = 0;
			else {
				errno = r < 0 ? errno : soerr;
				r = -1;
			}
		}
		if (r == 0)
			break;
		util_seterr(err, errlen, "%s: connect(%s:%d): %s", c->name,
		    c->address, c->port, strerror(errno));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1)
		return -1;
	/* Small request/reply packets: Nagle + delayed ACK would add ~40 ms
	 * to every step of every command. */
	r = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &r, sizeof r);
	c->sock = fd;
	return 0;
}

/*
 * libssh2's reads, acknowledged at once.  sshd leaves Nagle on until a
 * session turns interactive, so a reply written while its previous packet
 * is unacknowledged waits for our ACK, and Linux delays that ACK by up to
 * 40 ms when we have nothing to send: that stall hit two steps of every
 * connect and the first command (an SSH connect and its first command took
 * ~110 ms, ~30 ms without).  TCP_QUICKACK sends the pending ACK now; it is
 * not sticky, hence after every read.
 */
static LIBSSH2_RECV_FUNC(ssh_recv)
{
	ssize_t	n;

	(void)abstract;
	n = recv(socket, buffer, length, flags);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
#ifdef TCP_QUICKACK
	if (n > 0) {
		int	one = 1;

		(void)setsockopt(socket, IPPROTO_TCP, TCP_QUICKACK, &one,
		    sizeof one);
	}
#endif
	return n;
}

/*
 * The host-key methods known_hosts holds for this host, in file order, as a
 * libssh2 method list.  Hashed entries cannot be matched without HMAC, so
 * their types count too.  Returns 0 (pref may be empty) or -1.
 */
static int
ssh_kh_methods(struct ssh_conn *c, char *pref, size_t preflen, char *err,
    size_t errlen)
{
	static const char *known[] = { "ssh-ed25519", "ecdsa-sha2-nistp256",
	    "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa",
	    "ssh-dss" };
	char	*text, *line, *save = NULL, *hosts, *type, *h, *hsave;
	char	 bracket[300];
	size_t	 i, len;
	int	 match;

	pref[0] = '\0';
	text = util_read_file(c->known_hosts, SSH_KH_MAX, &len, err, errlen);
	if (text == NULL)
		return -1;
	snprintf(bracket, sizeof bracket, "[%s]:%d", c->address, c->port);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (*line == '#' || *line == '@' || *line == '\0')
			continue;
		hosts = strtok_r(line, " \t", &hsave);
		type = strtok_r(NULL, " \t\r", &hsave);
		if (hosts == NULL || type == NULL)
			continue;
		match = hosts[0] == '|';
		for (h = strtok_r(hosts, ",", &hsave); h != NULL && !match;
		    h = strtok_r(NULL, ",", &hsave))
			match = strcmp(h, bracket) == 0 ||
			    (c->port == 22 && strcmp(h, c->address) == 0);
		if (!match || strstr(pref, type) != NULL)
			continue;
		for (i = 0; i < sizeof known / sizeof known[0]; i++)
			if (strcmp(type, known[i]) == 0)
				break;
		if (i == sizeof known / sizeof known[0] ||
		    strlen(pref) + strlen(type) + 2 > preflen)
			continue;
		if (pref[0] != '\0')
			strcat(pref, ",");
		strcat(pref, type);
	}
	free(text);
	/* Nothing known: still prefer ed25519, so an "unknown host" error
	 * shows the fingerprint `ssh-keyscan -t ed25519` would. */
	if (pref[0] == '\0')
		snprintf(pref, preflen, "ssh-ed25519,ecdsa-sha2-nistp256,"
		    "ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,ssh-rsa");
	return 0;
}

static int
ssh_kh_keybit(int type)
{
	switch (type) {
	case LIBSSH2_HOSTKEY_TYPE_RSA:
		return LIBSSH2_KNOWNHOST_KEY_SSHRSA;
	case LIBSSH2_HOSTKEY_TYPE_DSS:
		return LIBSSH2_KNOWNHOST_KEY_SSHDSS;
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_256:
		return LIBSSH2_KNOWNHOST_KEY_ECDSA_256;
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_384:
		return LIBSSH2_KNOWNHOST_KEY_ECDSA_384;
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_521:
		return LIBSSH2_KNOWNHOST_KEY_ECDSA_521;
	case LIBSSH2_HOSTKEY_TYPE_ED25519:
		return LIBSSH2_KNOWNHOST_KEY_ED25519;
	}
	return 0;
}

static const char *
ssh_keytype_name(int type)
{
	switch (type) {
	case LIBSSH2_HOSTKEY_TYPE_RSA:
		return "ssh-rsa";
	case LIBSSH2_HOSTKEY_TYPE_DSS:
		return "ssh-dss";
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_256:
		return "ecdsa-sha2-nistp256";
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_384:
		return "ecdsa-sha2-nistp384";
	case LIBSSH2_HOSTKEY_TYPE_ECDSA_521:
		return "ecdsa-sha2-nistp521";
	case LIBSSH2_HOSTKEY_TYPE_ED25519:
		return "ssh-ed25519";
	}
	return "unknown";
}

/* Strict check of the server's key against known_hosts. */
static int
ssh_verify_hostkey(struct ssh_conn *c, char *err, size_t errlen)
{
	LIBSSH2_KNOWNHOSTS		*kh;
	struct libssh2_knownhost	*entry = NULL;
	const char			*key, *hash;
	size_t				 keylen = 0;
	int				 type = 0, r;

	key = libssh2_session_hostkey(c->s, &keylen, &type);
	hash = libssh2_hostkey_hash(c->s, LIBSSH2_HOSTKEY_HASH_SHA256);
	if (key == NULL || hash == NULL) {
		util_seterr(err, errlen, "%s: no host key from %s:%d: %s",
		    c->name, c->address, c->port, ssh_lasterr(c->s));
		return -1;
	}
	memcpy(c->fp, "SHA256:", 7);
	b64_encode((const unsigned char *)hash, 32, c->fp + 7,
	    sizeof c->fp - 7);
	if ((kh = libssh2_knownhost_init(c->s)) == NULL) {
		util_seterr(err, errlen, "%s: knownhost_init: %s", c->name,
		    ssh_lasterr(c->s));
		return -1;
	}
	if (libssh2_knownhost_readfile(kh, c->known_hosts,
	    LIBSSH2_KNOWNHOST_FILE_OPENSSH) < 0) {
		util_seterr(err, errlen, "%s: cannot read known_hosts %s: %s",
		    c->name, c->known_hosts, ssh_lasterr(c->s));
		libssh2_knownhost_free(kh);
		return -1;
	}
	r = libssh2_knownhost_checkp(kh, c->address, c->port, key, keylen,
	    LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW |
	    ssh_kh_keybit(type), &entry);
	libssh2_knownhost_free(kh);
	switch (r) {
	case LIBSSH2_KNOWNHOST_CHECK_MATCH:
		return 0;
	case LIBSSH2_KNOWNHOST_CHECK_MISMATCH:
		util_seterr(err, errlen, "%s: HOST KEY MISMATCH for %s:%d: "
		    "the server's %s key %s differs from known_hosts %s "
		    "(refusing to connect)", c->name, c->address, c->port,
		    ssh_keytype_name(type), c->fp, c->known_hosts);
		return -1;
	case LIBSSH2_KNOWNHOST_CHECK_NOTFOUND:
		util_seterr(err, errlen, "%s: unknown host %s:%d: its %s key "
		    "%s is not in known_hosts %s (add it, e.g. with "
		    "ssh-keyscan -p %d -t ed25519 %s, after checking the "
		    "fingerprint)", c->name, c->address, c->port,
		    ssh_keytype_name(type), c->fp, c->known_hosts, c->port,
		    c->address);
		return -1;
	}
	util_seterr(err, errlen, "%s: host key check of %s:%d (%s) failed: "
	    "%s", c->name, c->address, c->port, c->fp, ssh_lasterr(c->s));
	return -1;
}

/* Best effort: is the private key an RSA key? (for a useful message) */
static int
ssh_key_is_rsa(const char *path)
{
	char	 pub[4096], line[64];
	FILE	*fp;
	int	 rsa = 0;

	snprintf(pub, sizeof pub, "%s.pub", path);
	if ((fp = fopen(pub, "r")) != NULL) {
		if (fgets(line, sizeof line, fp) != NULL)
			rsa = strncmp(line, "ssh-rsa ", 8) == 0;
		fclose(fp);
		return rsa;
	}
	if ((fp = fopen(path, "r")) != NULL) {
		if (fgets(line, sizeof line, fp) != NULL)
			rsa = strstr(line, "RSA PRIVATE KEY") != NULL;
		fclose(fp);
	}
	return rsa;
}

static int
ssh_auth(struct ssh_conn *c, int64_t deadline, char *err, size_t errlen)
{
	int	r, w;

	while ((r = libssh2_userauth_publickey_fromfile_ex(c->s, c->user,
	    (unsigned int)strlen(c->user), NULL, c->key, NULL)) ==
	    LIBSSH2_ERROR_EAGAIN) {
		if ((w = ssh_wait(c, deadline)) != 0) {
			util_seterr(err, errlen, "%s: public-key auth: %s",
			    c->name, w > 0 ? "timed out" : "socket error");
			return -1;
		}
	}
	if (r == 0)
		return 0;
	if (ssh_key_is_rsa(c->key))
		util_seterr(err, errlen, "%s: public-key auth as %s with %s "
		    "failed: it is an RSA key; %s", c->name, c->user, c->key,
		    rsa_help);
	else
		util_seterr(err, errlen, "%s: public-key auth as %s with %s "
		    "failed (%s): is its public key in the host's "
		    "authorized_keys? (RSA keys cannot work: %s)", c->name,
		    c->user, c->key, ssh_lasterr(c->s), rsa_help);
	return -1;
}

static int
ssh_connect(struct ssh_conn *c, char *err, size_t errlen)
{
	char	pref[256];
	int64_t	deadline;
	int	r, w;

	deadline = util_now_ms() + c->connect_ms;
	c->last_rx = 0;		/* the connect deadline covers silence here */
	atomic_fetch_add(&stat_connects, 1);
	if (ssh_kh_methods(c, pref, sizeof pref, err, errlen) == -1)
		return -1;
	if (ssh_tcp(c, deadline, err, errlen) == -1)
		return -1;
	if ((c->s = libssh2_session_init()) == NULL) {
		util_seterr(err, errlen, "%s: libssh2_session_init failed",
		    c->name);
		goto fail;
	}
	libssh2_session_set_blocking(c->s, 0);
	libssh2_session_callback_set(c->s, LIBSSH2_CALLBACK_RECV,
	    (void *)ssh_recv);
	if (libssh2_session_method_pref(c->s,
	    LIBSSH2_METHOD_HOSTKEY, pref) != 0) {
		util_seterr(err, errlen, "%s: host-key methods \"%s\" from %s: "
		    "%s", c->name, pref, c->known_hosts, ssh_lasterr(c->s));
		goto fail;
	}
	while ((r = libssh2_session_handshake(c->s, c->sock)) ==
	    LIBSSH2_ERROR_EAGAIN) {
		if ((w = ssh_wait(c, deadline)) != 0) {
			util_seterr(err, errlen, "%s: SSH handshake with %s:%d: "
			    "%s", c->name, c->address, c->port,
			    w > 0 ? "timed out" : "socket error");
			goto fail;
		}
	}
	if (r != 0) {
		util_seterr(err, errlen, "%s: SSH handshake with %s:%d "
		    "(host-key methods %s): %s%s", c->name, c->address, c->port,
		    pref, ssh_lasterr(c->s), strncmp(pref, "ssh-rsa", 7) == 0 ?
		    " (known_hosts holds only an RSA key for it; libssh2 1.10 "
		    "verifies RSA host keys only as ssh-rsa/SHA-1, which "
		    "OpenSSH 9 no longer offers: add its ed25519 key)" : "");
		goto fail;
	}
	if (ssh_verify_hostkey(c, err, errlen) == -1 ||
	    ssh_auth(c, deadline, err, errlen) == -1)
		goto fail;
	if (c->keepalive_s > 0)
		libssh2_keepalive_config(c->s, 1, (unsigned)c->keepalive_s);
	c->dead = 0;
	c->dead_why[0] = '\0';
	c->last_rx = util_now_ms();
	atomic_fetch_add(&stat_handshakes, 1);
	return 0;
fail:
	ssh_teardown(c, 0);
	return -1;
}

/*
 * Ends the session.  shutdown() first when not graceful, so libssh2's
 * own close attempts fail at once instead of returning EAGAIN forever;
 * the descriptor is closed last so no other thread can reuse its number
 * while libssh2 still holds it.
 */
void
ssh_teardown(struct ssh_conn *c, int graceful)
{
	int64_t	deadline = util_now_ms() + SSH_TEARDOWN_MS;

	if (c->s != NULL && graceful) {
		while (libssh2_session_disconnect(c->s, "labrat done") ==
		    LIBSSH2_ERROR_EAGAIN)
			if (ssh_wait(c, deadline) != 0)
				break;
	}
	if (c->sock != -1)
		shutdown(c->sock, SHUT_RDWR);
	c->kept = NULL;		/* freed with the session */
	if (c->s != NULL) {
		libssh2_session_set_blocking(c->s, 1);
		libssh2_session_set_timeout(c->s, SSH_TEARDOWN_MS);
		libssh2_session_free(c->s);
		c->s = NULL;
	}
	if (c->sock != -1)
		close(c->sock);
	c->sock = -1;
}

struct ssh_conn *
ssh_open(const struct ssh_target *t, char *err, size_t errlen)
{
	struct ssh_conn	*c;

	if (t->address == NULL || t->key == NULL || t->known_hosts == NULL) {
		util_seterr(err, errlen, "%s: ssh target needs address, key "
		    "and known_hosts", t->name != NULL ? t->name : "?");
		return NULL;
	}
	c = xcalloc(1, sizeof *c);
	c->name = xstrdup(t->name != NULL ? t->name : t->address);
	c->address = xstrdup(t->address);
	c->user = xstrdup(t->user != NULL ? t->user : "root");
	c->key = xstrdup(t->key);
	c->known_hosts = xstrdup(t->known_hosts);
	c->port = t->port > 0 ? t->port : 22;
	c->connect_ms = t->connect_timeout_ms > 0 ? t->connect_timeout_ms :
	    SSH_DEFAULT_CONNECT_MS;
	c->keepalive_s = t->keepalive_s == 0 ? SSH_DEFAULT_KEEPALIVE_S :
	    t->keepalive_s;
	c->no_reconnect = t->no_reconnect;
	c->sock = -1;
	if (ssh_connect(c, err, errlen) == -1) {
		ssh_close(c);
		return NULL;
	}
	return c;
}

void
ssh_close(struct ssh_conn *c)
{
	if (c == NULL)
		return;
	ssh_teardown(c, !c->dead);
	free(c->name);
	free(c->address);
	free(c->user);
	free(c->key);
	free(c->known_hosts);
	free(c);
}

const char *
ssh_name(const struct ssh_conn *c)
{
	return c->name;
}

int
ssh_reconnects(const struct ssh_conn *c)
{
	return c->reconnects;
}

void
ssh_stats_get(struct ssh_stats *st)
{
	st->connects = atomic_load(&stat_connects);
	st->handshakes = atomic_load(&stat_handshakes);
	st->reconnects = atomic_load(&stat_reconnects);
	st->execs = atomic_load(&stat_execs);
}

void
ssh_stat_exec(void)
{
	atomic_fetch_add(&stat_execs, 1);
}

const char *
ssh_fingerprint(const struct ssh_conn *c)
{
	return c->fp;
}

/* Re-establishes a dead session (once per call).  SSH_OK or SSH_ECONNECT. */
int
ssh_revive(struct ssh_conn *c, char *err, size_t errlen)
{
	char	why[256];

	if (!c->dead && c->s != NULL)
		return SSH_OK;
	snprintf(why, sizeof why, "%s", c->dead_why);
	ssh_teardown(c, 0);
	if (c->no_reconnect) {
		util_seterr(err, errlen, "%s: session lost earlier (%s)",
		    c->name, why);
		return SSH_ECONNECT;
	}
	if (ssh_connect(c, err, errlen) == -1) {
		c->dead = 1;
		snprintf(c->dead_why, sizeof c->dead_why, "%s", why);
		return SSH_ECONNECT;
	}
	c->reconnects++;
	atomic_fetch_add(&stat_reconnects, 1);
	log_warnx("%s: SSH session lost (%s); reconnected", c->name, why);
	return SSH_OK;
}
