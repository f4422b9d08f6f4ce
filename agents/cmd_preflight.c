/*
 * cmd_preflight.c: `preflight --if IF ...` -- is this host fit to measure
 * right now?  Read-only checks, each timed: the link (up, carrier), its
 * speed and duplex, the MTU and offloads in force against what the job
 * asked (or the saved original for what it did not ask), NAT left over
 * (labrat's nft table, ipfw rule, a natd), a don't-fragment ping to the
 * peer at the MTU, and optionally a TCP connect to a server.  A failure is
 * the class `preflight`: the lab, not the system under test, is wrong, so
 * the controller fails the job as an infrastructure failure, never a
 * sample.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "emit.h"
#include "osdep.h"
#include "state.h"
#include "validate.h"

#define PF_MAXCHECKS	8
#define PF_DETAIL	320
#define PF_CONNECT_MS	1000
#define PF_LINK_WAIT_MS	3000	/* for the carrier of an interface that is up */

struct pf_check {
	const char	*name;
	int		 ok;
	double		 ms;
	char		 detail[PF_DETAIL];
};

struct pf_run {
	struct pf_check	 c[PF_MAXCHECKS];
	int		 n;
	double		 t0;
};

struct pf_req {
	const char	*ifname;
	const char	*peer;		/* NULL: no path check */
	int		 mtu;		/* OSDEP_UNSET: the interface's */
	int		 speed;		/* 0: undeclared */
	int		 port;		/* 0: no server check */
	struct osdep_knobs knobs;	/* what the job asked */
	/* In force as the caller just read it under the interface's lock
	 * (apply --preflight), NULL: the state check reads it. */
	const struct osdep_knobs *have;
	const struct osdep_probe *have_pr;
};

static double
pf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Starts a check; returns it for its detail. */
static struct pf_check *
pf_begin(struct pf_run *r, const char *name)
{
	struct pf_check *c = &r->c[r->n++];

	c->name = name;
	c->ok = 1;
	c->detail[0] = '\0';
	r->t0 = pf_now_ms();
	return c;
}

static void
pf_end(struct pf_run *r, struct pf_check *c)
{
	c->ms = pf_now_ms() - r->t0;
}

/* Appends "; what" to c's detail and marks it failed. */
static void
pf_fail(struct pf_check *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void
pf_fail(struct pf_check *c, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 off = strlen(c->detail);

	if (!c->ok && off + 2 < sizeof(c->detail)) {
		memcpy(c->detail + off, "; ", 3);
		off += 2;
	} else if (c->ok)
		off = 0;
	c->ok = 0;
	va_start(ap, fmt);
	vsnprintf(c->detail + off, sizeof(c->detail) - off, fmt, ap);
	va_end(ap);
}

int
agent_preflight_ping_judge(const struct parse_ping *p, int size,
    const char *addr, char *detail, size_t len)
{
	/* Only a reply of the full size proves the path at this MTU: one
	 * whose size cannot be read proves nothing. */
	if (p->received > 0 && p->replies > 0 && p->reply_bytes >= size + 8) {
		snprintf(detail, len, "%d-byte DF ping to %s answered "
		    "(rtt %.3f ms)", size, addr, p->rtt_avg_ms);
		return 1;
	}
	if (p->received > 0 && p->replies > 0 && p->reply_bytes == 0)
		snprintf(detail, len, "DF ping of %d bytes to %s: a reply "
		    "came back but its size could not be read", size, addr);
	else if (p->received > 0 && p->replies > 0)
		snprintf(detail, len, "DF ping of %d bytes to %s: the reply "
		    "has %d bytes, not %d", size, addr, p->reply_bytes,
		    size + 8);
	else if (p->local_too_long && p->local_mtu > 0)
		snprintf(detail, len, "DF ping of %d bytes to %s refused "
		    "here: message too long (route mtu %d)", size, addr,
		    p->local_mtu);
	else if (p->local_too_long)
		snprintf(detail, len, "DF ping of %d bytes to %s refused "
		    "here: message too long", size, addr);
	else if (p->frag_needed && p->frag_mtu > 0)
		snprintf(detail, len, "DF ping of %d bytes to %s: a hop needs "
		    "fragmentation (mtu %d)", size, addr, p->frag_mtu);
	else if (p->frag_needed)
		snprintf(detail, len, "DF ping of %d bytes to %s: a hop needs "
		    "fragmentation", size, addr);
	else
		snprintf(detail, len, "no reply to a DF ping of %d bytes to "
		    "%s (%d sent, %d received%s%s): the path drops packets of "
		    "this size or the peer is down", size, addr,
		    p->transmitted, p->received, p->message[0] ? "; " : "",
		    p->message);
	return 0;
}

int
agent_preflight_ping_size(int mtu, int v6)
{
	int	size = mtu - (v6 ? 48 : 28);	/* IP + ICMP headers */

	/* No echo is larger than an IPv4 total length (or an IPv6 payload
	 * length) of 65535 allows: loopback's MTU is 65536. */
	if (size > (v6 ? 65527 : 65507))
		size = v6 ? 65527 : 65507;
	return size > 0 ? size : -1;
}

/* Link up with carrier, speed and duplex as expected. */
static void
pf_link(struct pf_run *r, const struct osdep_dialect *d,
    const struct pf_req *q, struct osdep_link *lk)
{
	struct pf_check *c = pf_begin(r, "link");
	struct pf_check *s;
	char	 err[256];
	int	 rc;

	/* A real NIC renegotiates after an MTU change (em(4) takes a few
	 * seconds): an interface that is up waits for its carrier. */
	while ((rc = d->link(q->ifname, lk, err, sizeof(err))) ==
	    AGENT_EXIT_OK && lk->admin_up == 1 && lk->carrier == 0 &&
	    pf_now_ms() - r->t0 < PF_LINK_WAIT_MS) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (rc != AGENT_EXIT_OK)
		pf_fail(c, "%s", err);
	else if (lk->admin_up == 0)
		pf_fail(c, "%s is down (administratively)", q->ifname);
	else if (lk->carrier == 0)
		pf_fail(c, "%s has no carrier%s%s%s%s", q->ifname,
		    lk->state[0] ? " (" : "", lk->state, lk->state[0] ? ")" :
		    "", lk->admin_up == 1 ? " after waiting 3 s" : "");
	else
		snprintf(c->detail, sizeof(c->detail), "%s up%s%s%s", q->ifname,
		    lk->state[0] ? ", " : "", lk->state,
		    pf_now_ms() - r->t0 > 100 ? " (carrier came back)" : "");
	pf_end(r, c);
	if (!c->ok)
		return;
	s = pf_begin(r, "speed");
	s->ok = agent_preflight_speed_judge(lk, q->ifname, q->speed,
	    s->detail, sizeof(s->detail));
	pf_end(r, s);
}

int
agent_preflight_speed_judge(const struct osdep_link *lk, const char *ifname,
    int speed, char *detail, size_t len)
{
	int	n = 0;

	detail[0] = '\0';
	if (speed > 0 && lk->speed_mbps < 0)
		n = snprintf(detail, len, "%s reports no speed (expected >= "
		    "%d Mb/s)", ifname, speed);
	else if (speed > 0 && lk->speed_mbps < speed)
		n = snprintf(detail, len, "%s at %d Mb/s, expected >= %d "
		    "Mb/s", ifname, lk->speed_mbps, speed);
	if (n < 0 || (size_t)n >= len)
		n = (int)strlen(detail);
	if (lk->duplex == PARSE_DUPLEX_HALF)
		snprintf(detail + n, len - (size_t)n, "%s%s is half-duplex",
		    n > 0 ? "; " : "", ifname);
	if (detail[0] != '\0')
		return 0;
	snprintf(detail, len, "%s%d Mb/s %s-duplex",
	    lk->speed_mbps < 0 ? "speed unknown, " : "",
	    lk->speed_mbps < 0 ? 0 : lk->speed_mbps,
	    lk->duplex == PARSE_DUPLEX_FULL ? "full" : "unknown");
	return 1;
}

/* One knob in force against what is wanted (asked, else the original). */
static void
pf_knob(struct pf_check *c, const char *name, int cur, int asked, int orig)
{
	int	want = asked != OSDEP_UNSET ? asked : orig;

	if (want == OSDEP_UNSET || cur == OSDEP_UNSET || cur == want)
		return;
	if (strcmp(name, "mtu") == 0)
		pf_fail(c, "mtu %d in force, %s %d", cur, asked != OSDEP_UNSET ?
		    "the job asked" : "the original is", want);
	else
		pf_fail(c, "%s %s in force, %s %s", name, cur ? "on" : "off",
		    asked != OSDEP_UNSET ? "the job asked" : "the original is",
		    want ? "on" : "off");
}

/* NAT as wanted: none of labrat's left over when it is off. */
static void
pf_nat(struct pf_check *c, const struct osdep_dialect *d,
    const struct osdep_knobs *k, const struct osdep_probe *pr, int want)
{
	int	is_linux = strcmp(d->name, "linux") == 0;
	int	natd = !is_linux && d->proc_cpu("natd") >= 0.0;

	if (want == OSDEP_NAT_OFF) {
		if (is_linux && pr->nft_chains >= 0)
			pf_fail(c, "nft table ip labrat left over (%d "
			    "chain%s), NAT is off", pr->nft_chains,
			    pr->nft_chains == 1 ? "" : "s");
		else if (k->nat != OSDEP_NAT_OFF)
			pf_fail(c, "ipfw rule 50 (%s) left over, NAT is off",
			    osdep_nat_name(k->nat));
		if (natd)
			pf_fail(c, "natd is running, NAT is off");
		return;
	}
	if (k->nat != want)
		pf_fail(c, "nat %s in force on %s, the job asked %s",
		    osdep_nat_name(k->nat) ? osdep_nat_name(k->nat) : "?",
		    k->nat_if, osdep_nat_name(want));
	if (want == OSDEP_NAT_DIVERT && !natd)
		pf_fail(c, "no natd running for nat divert");
}

/* What is in force against what the job asked and the saved original. */
static void
pf_state(struct pf_run *r, const struct osdep_dialect *d,
    const struct pf_req *q)
{
	struct pf_check *c = pf_begin(r, "state");
	struct osdep_knobs k;
	struct osdep_probe pr;
	struct state_saved sv;
	const char *nat_if = q->knobs.nat_if[0] ? q->knobs.nat_if : q->ifname;
	char	 err[256];
	int	 rc, found = 0, nat;

	if (q->have != NULL) {
		k = *q->have;
		pr = *q->have_pr;
	} else if ((rc = d->read(q->ifname, nat_if, &k, &pr, err,
	    sizeof(err))) != AGENT_EXIT_OK) {
		pf_fail(c, "reading the state of %s: %s", q->ifname, err);
		pf_end(r, c);
		return;
	}
	if (state_load(q->ifname, &sv, &found, err, sizeof(err)) == -1) {
		pf_fail(c, "%s", err);
		found = 0;
	}
	if (!found)
		osdep_knobs_unset(&sv.knobs);
	pf_knob(c, "mtu", k.mtu, q->mtu, sv.knobs.mtu);
	pf_knob(c, "tso", k.tso, q->knobs.tso, sv.knobs.tso);
	pf_knob(c, "lro", k.lro, q->knobs.lro, sv.knobs.lro);
	pf_knob(c, "rxcsum", k.rxcsum, q->knobs.rxcsum, sv.knobs.rxcsum);
	pf_knob(c, "txcsum", k.txcsum, q->knobs.txcsum, sv.knobs.txcsum);
	nat = q->knobs.nat != OSDEP_UNSET ? q->knobs.nat : found &&
	    sv.knobs.nat != OSDEP_UNSET ? sv.knobs.nat : OSDEP_NAT_OFF;
	pf_nat(c, d, &k, &pr, nat);
	if (c->ok)
		snprintf(c->detail, sizeof(c->detail), "mtu %d tso %s nat %s "
		    "as expected", k.mtu, k.tso == 1 ? "on" : k.tso == 0 ?
		    "off" : "?", osdep_nat_name(k.nat) ? osdep_nat_name(k.nat) :
		    "?");
	pf_end(r, c);
}

/* A don't-fragment ping to the peer at the MTU. */
static void
pf_path(struct pf_run *r, const struct osdep_dialect *d,
    const struct pf_req *q, int mtu)
{
	struct pf_check *c = pf_begin(r, "path");
	struct parse_ping pp;
	struct exec_result x;
	struct plan	*p;
	char	*argv[PLAN_MAXARGS + 1], err[256], *both = NULL;
	int	 v6 = strchr(q->peer, ':') != NULL, size, j;

	size = agent_preflight_ping_size(mtu, v6);
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		pf_fail(c, "out of memory");
		pf_end(r, c);
		return;
	}
	plan_init(p);
	d->ping(q->peer, v6, size, p);
	for (j = 0; j < p->cmd[0].argc; j++)
		argv[j] = p->cmd[0].args[j];
	argv[j] = NULL;
	memset(&x, 0, sizeof(x));
	if (size < 0)
		pf_fail(c, "mtu %d is too small for a ping", mtu);
	else if (osdep_run(argv, 5000, &x, err, sizeof(err)) == -1)
		pf_fail(c, "%s", err);
	else if (x.timed_out)
		pf_fail(c, "%s: killed after 5 s", argv[0]);
	else if ((both = malloc(x.outlen + x.errlen + 2)) == NULL)
		pf_fail(c, "out of memory");
	else {
		snprintf(both, x.outlen + x.errlen + 2, "%s%s", x.out, x.err);
		if (parse_ping(both, strlen(both), &pp, err, sizeof(err)) == -1)
			pf_fail(c, "%s (exit %d)", err, x.status);
		else if (!agent_preflight_ping_judge(&pp, size, q->peer,
		    c->detail, sizeof(c->detail)))
			c->ok = 0;
	}
	free(both);
	exec_free(&x);
	free(p);
	pf_end(r, c);
}

/*
 * The ping mostly waits for the network while the state check mostly runs
 * commands: the path check runs in a child beside it, its check handed
 * back through a pipe.  -1 if the child could not be started (the caller
 * then runs the check itself).
 */
static int
pf_path_start(const struct osdep_dialect *d, const struct pf_req *q, int mtu,
    pid_t *pid, int *fd)
{
	struct pf_run	 cr;
	int		 p[2];
	size_t		 off = 0;
	ssize_t		 n;

	if (pipe(p) == -1)
		return -1;
	fflush(stdout);
	if ((*pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (*pid == 0) {
		close(p[0]);
		memset(&cr, 0, sizeof(cr));
		pf_path(&cr, d, q, mtu);
		while (off < sizeof(cr.c[0]) && ((n = write(p[1],
		    (char *)&cr.c[0] + off, sizeof(cr.c[0]) - off)) > 0 ||
		    (n == -1 && errno == EINTR)))
			off += n > 0 ? (size_t)n : 0;
		_exit(off == sizeof(cr.c[0]) ? 0 : 1);
	}
	close(p[1]);
	*fd = p[0];
	return 0;
}

/* Collects the child's path check into r. */
static void
pf_path_finish(struct pf_run *r, pid_t pid, int fd)
{
	struct pf_check	*c = &r->c[r->n];
	size_t		 off = 0;
	ssize_t		 n;
	int		 st;

	while (off < sizeof(*c) && ((n = read(fd, (char *)c + off,
	    sizeof(*c) - off)) > 0 || (n == -1 && errno == EINTR)))
		off += n > 0 ? (size_t)n : 0;
	close(fd);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	if (off != sizeof(*c)) {
		memset(c, 0, sizeof(*c));
		c->name = "path";
		snprintf(c->detail, sizeof(c->detail), "the ping helper "
		    "process died");
	}
	r->n++;
}

/* A TCP connect to peer:port within PF_CONNECT_MS. */
static void
pf_server(struct pf_run *r, const struct pf_req *q)
{
	struct pf_check *c = pf_begin(r, "server");
	struct addrinfo	 hints, *ai = NULL;
	struct pollfd	 pfd;
	char		 port[16];
	int		 fd = -1, e = 0, rc;
	socklen_t	 elen = sizeof(e);

	snprintf(port, sizeof(port), "%d", q->port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(q->peer, port, &hints, &ai)) != 0) {
		pf_fail(c, "%s: %s", q->peer, gai_strerror(rc));
		goto out;
	}
	if ((fd = socket(ai->ai_family, SOCK_STREAM, 0)) == -1 ||
	    fcntl(fd, F_SETFL, O_NONBLOCK) == -1) {
		pf_fail(c, "socket: %s", strerror(errno));
		goto out;
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) == -1) {
		if (errno != EINPROGRESS) {
			pf_fail(c, "connect(%s:%d): %s", q->peer, q->port,
			    strerror(errno));
			goto out;
		}
		pfd.fd = fd;
		pfd.events = POLLOUT;
		if ((rc = poll(&pfd, 1, PF_CONNECT_MS)) <= 0) {
			pf_fail(c, "connect(%s:%d): no answer within %d ms",
			    q->peer, q->port, PF_CONNECT_MS);
			goto out;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &elen) == -1 ||
		    e != 0) {
			pf_fail(c, "connect(%s:%d): %s", q->peer, q->port,
			    strerror(e != 0 ? e : errno));
			goto out;
		}
	}
	snprintf(c->detail, sizeof(c->detail), "%s:%d accepts connections",
	    q->peer, q->port);
out:
	if (fd != -1)
		close(fd);
	if (ai != NULL)
		freeaddrinfo(ai);
	pf_end(r, c);
}

static int
pf_onoff(const struct validate_opt *o)
{
	return o->seen ? strcmp(o->val, "on") == 0 : OSDEP_UNSET;
}

/* The options into q; AGENT_EXIT_OK or AGENT_EXIT_USAGE with err. */
static int
pf_args(int argc, char **argv, struct pf_req *q, char *err, size_t errlen)
{
	struct validate_opt opts[] = {
		{ "--if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ "--peer", VALIDATE_ADDR, 0, 0, NULL, { NULL } },
		{ "--mtu", VALIDATE_MTU, 0, 0, NULL, { NULL } },
		{ "--speed", VALIDATE_SPEED, 0, 0, NULL, { NULL } },
		{ "--port", VALIDATE_PORT, 0, 0, NULL, { NULL } },
		{ "--tso", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--lro", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--rxcsum", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--txcsum", VALIDATE_ONOFF, 0, 0, NULL, { NULL } },
		{ "--nat", VALIDATE_NAT, 0, 0, NULL, { NULL } },
		{ "--nat-if", VALIDATE_IFNAME, 0, 0, NULL, { NULL } },
		{ NULL, VALIDATE_FLAG, 0, 0, NULL, { NULL } }
	};
	struct validate_opt *o;

	if (validate_args(opts, argc, argv, err, errlen) == -1)
		return AGENT_EXIT_USAGE;
	memset(q, 0, sizeof(*q));
	osdep_knobs_unset(&q->knobs);
	if (!(o = validate_opt(opts, "--if"))->seen) {
		snprintf(err, errlen, "--if: required");
		return AGENT_EXIT_USAGE;
	}
	q->ifname = o->val;
	o = validate_opt(opts, "--peer");
	q->peer = o->seen ? o->val : NULL;
	o = validate_opt(opts, "--mtu");
	q->mtu = o->seen ? (int)validate_number(o->val) : OSDEP_UNSET;
	o = validate_opt(opts, "--speed");
	q->speed = o->seen ? (int)validate_number(o->val) : 0;
	o = validate_opt(opts, "--port");
	q->port = o->seen ? (int)validate_number(o->val) : 0;
	if (q->port != 0 && q->peer == NULL) {
		snprintf(err, errlen, "--port: needs --peer");
		return AGENT_EXIT_USAGE;
	}
	q->knobs.tso = pf_onoff(validate_opt(opts, "--tso"));
	q->knobs.lro = pf_onoff(validate_opt(opts, "--lro"));
	q->knobs.rxcsum = pf_onoff(validate_opt(opts, "--rxcsum"));
	q->knobs.txcsum = pf_onoff(validate_opt(opts, "--txcsum"));
	o = validate_opt(opts, "--nat");
	q->knobs.nat = o->seen ? osdep_nat_parse(o->val) : OSDEP_UNSET;
	o = validate_opt(opts, "--nat-if");
	if (o->seen)
		snprintf(q->knobs.nat_if, sizeof(q->knobs.nat_if), "%s",
		    o->val);
	return AGENT_EXIT_OK;
}

/* The checks of r as members of the open object of e (checks, failed, ok,
 * ms since t0); returns 1 when every check passed, else 0 with msg saying
 * which failed and why. */
static int
pf_emit(struct emit *e, const struct pf_run *r, const char *ifname,
    double t0, char *msg, size_t msglen)
{
	size_t	 off;
	int	 i, ok = 1;

	off = (size_t)snprintf(msg, msglen, "preflight failed on %s:", ifname);
	emit_arr(e, "checks");
	for (i = 0; i < r->n; i++) {
		emit_obj(e, NULL);
		emit_str(e, "name", r->c[i].name);
		emit_bool(e, "ok", r->c[i].ok);
		emit_num(e, "ms", r->c[i].ms);
		emit_str(e, "detail", r->c[i].detail);
		emit_end(e);
		if (!r->c[i].ok && off < msglen)
			off += (size_t)snprintf(msg + off, msglen - off,
			    "%s %s: %s", ok ? "" : ";", r->c[i].name,
			    r->c[i].detail);
		ok = ok && r->c[i].ok;
	}
	emit_end(e);
	emit_arr(e, "failed");
	for (i = 0; i < r->n; i++)
		if (!r->c[i].ok)
			emit_str(e, NULL, r->c[i].name);
	emit_end(e);
	emit_bool(e, "ok", ok);
	emit_num(e, "ms", pf_now_ms() - t0);
	return ok;
}

/* Every check of q into r: the link first (without it the path and the
 * server cannot answer: said once instead of waiting for their
 * timeouts), the state while the ping runs beside it. */
static void
pf_run_checks(const struct pf_req *q, struct pf_run *r)
{
	const struct osdep_dialect *d = osdep_host();
	struct osdep_link lk;
	pid_t		 pid = -1;
	int		 link_ok, mtu, fd = -1, bg = 0;

	memset(r, 0, sizeof(*r));
	pf_link(r, d, q, &lk);
	link_ok = r->c[0].ok;
	mtu = q->mtu != OSDEP_UNSET ? q->mtu : lk.mtu;
	if (link_ok && q->peer != NULL &&
	    pf_path_start(d, q, mtu, &pid, &fd) == 0)
		bg = 1;
	pf_state(r, d, q);
	if (bg)
		pf_path_finish(r, pid, fd);
	else if (link_ok && q->peer != NULL)
		pf_path(r, d, q, mtu);
	if (link_ok && q->port != 0)
		pf_server(r, q);
}

int
agent_preflight_embed(struct emit *e, const char *key, const char *ifname,
    const char *peer, int speed, int port, const struct osdep_knobs *asked,
    const struct osdep_knobs *have, const struct osdep_probe *have_pr,
    char *msg, size_t msglen)
{
	struct pf_run	 r;
	struct pf_req	 q;
	double		 t0 = pf_now_ms();
	int		 ok;

	memset(&q, 0, sizeof(q));
	q.ifname = ifname;
	q.peer = peer;
	q.speed = speed;
	q.port = port;
	q.knobs = *asked;
	q.mtu = asked->mtu;
	q.have = have;
	q.have_pr = have_pr;
	pf_run_checks(&q, &r);
	emit_obj(e, key);
	ok = pf_emit(e, &r, ifname, t0, msg, msglen);
	emit_end(e);
	return ok;
}

int
agent_cmd_preflight(int argc, char **argv)
{
	struct pf_run	 r;
	struct pf_req	 q;
	struct emit	 e;
	char		 err[1024];
	double		 t0 = pf_now_ms();
	int		 rc, ok;

	if ((rc = pf_args(argc, argv, &q, err, sizeof(err))) != AGENT_EXIT_OK)
		return emit_error(rc, err);
	pf_run_checks(&q, &r);
	emit_begin(&e, "result");
	emit_str(&e, "cmd", "preflight");
	emit_str(&e, "if", q.ifname);
	ok = pf_emit(&e, &r, q.ifname, t0, err, sizeof(err));
	emit_flush(&e);
	return ok ? AGENT_EXIT_OK : emit_error(AGENT_EXIT_PREFLIGHT, err);
}
