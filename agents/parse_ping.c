/*
 * parse_ping.c: the output of a don't-fragment ping (the preflight's path
 * check), Linux iputils (`ping -M do -s SIZE`) and FreeBSD (`ping -D -s
 * SIZE`, `ping6 -m -s SIZE`).  The statistics line is the authority on
 * what came back; echo replies, "frag needed" answers of a router and the
 * local "message too long" refusal are read to say why nothing did.
 *
 * Forms read (stdout, with stderr appended after it):
 *   Linux:   "PING A (A) 8972(9000) bytes of data."  /  "PING ::1(::1) 1352
 *            data bytes"; "8980 bytes from A: icmp_seq=1 ttl=64 time=0.06 ms";
 *            "From R icmp_seq=1 Frag needed and DF set (mtu = 1500)";
 *            "ping: local error: message too long, mtu=1500" (stderr;
 *            IPv6: "..., mtu: 65536");
 *            "1 packets transmitted, 0 received, +1 errors, 100% packet
 *            loss, time 0ms"; "rtt min/avg/max/mdev = a/b/c/d ms".
 *   FreeBSD: "PING A (A): 8972 data bytes"; "8980 bytes from A: icmp_seq=0
 *            ttl=64 time=0.123 ms"; "36 bytes from R: frag needed and DF
 *            set (MTU 1500)"; "ping: sendto: Message too long" (stderr);
 *            "1 packets transmitted, 0 packets received, 100.0% packet
 *            loss"; "round-trip min/avg/max/stddev = a/b/c/d ms".
 */
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "parse_util.h"

/* Case-insensitive search of needle in line[0..n). */
static const char *
ping_find(const char *line, size_t n, const char *needle)
{
	size_t	k = strlen(needle), i, j;

	for (i = 0; k <= n && i + k <= n; i++) {
		for (j = 0; j < k; j++) {
			char	a = line[i + j], b = needle[j];

			if (a >= 'A' && a <= 'Z')
				a = (char)(a - 'A' + 'a');
			if (a != b)
				break;
		}
		if (j == k)
			return line + i;
	}
	return NULL;
}

/* The decimal integer at p (within end), or -1. */
static long
ping_int(const char *p, const char *end)
{
	uint64_t v;
	size_t	 n = 0;

	while (p + n < end && p[n] >= '0' && p[n] <= '9')
		n++;
	if (n == 0 || n > 9 || parse_u64(p, n, &v) == -1)
		return -1;
	return (long)v;
}

/* The number after the first digit at or past p: "(mtu = 1500)". */
static long
ping_next_int(const char *p, const char *end)
{
	while (p < end && !(*p >= '0' && *p <= '9'))
		p++;
	return ping_int(p, end);
}

/* "N packets transmitted, M [packets ]received[, +E errors]". */
static int
ping_stats(const char *line, size_t n, struct parse_ping *out)
{
	struct parse_tok t[PARSE_MAX_TOKS];
	size_t	 k, i;
	uint64_t v;

	k = parse_split(line, n, t, PARSE_MAX_TOKS);
	if (k < 4 || k > PARSE_MAX_TOKS || !parse_tok_eq(&t[1], "packets") ||
	    !parse_tok_eq(&t[2], "transmitted,"))
		return 0;
	if (parse_u64(t[0].p, t[0].n, &v) == -1 || v > 1000000)
		return -1;
	out->transmitted = (int)v;
	if (parse_u64(t[3].p, t[3].n, &v) == -1 || v > 1000000)
		return -1;
	out->received = (int)v;
	out->errors = 0;
	for (i = 4; i + 1 < k; i++)
		if (t[i].n > 1 && t[i].p[0] == '+' &&
		    (parse_tok_eq(&t[i + 1], "errors,") ||
		    parse_tok_eq(&t[i + 1], "errors"))) {
			if (parse_u64(t[i].p + 1, t[i].n - 1, &v) == -1 ||
			    v > 1000000)
				return -1;
			out->errors = (int)v;
		}
	return 1;
}

/* "rtt min/avg/max/mdev = a/b/c/d ms" (Linux), "round-trip ..." (BSD). */
static int
ping_rtt(const char *line, size_t n, struct parse_ping *out)
{
	const char *eq, *end = line + n, *p;
	double	 v[3];
	int	 i;

	if (parse_prefix(line, n, "rtt ", 0) == NULL &&
	    parse_prefix(line, n, "round-trip ", 0) == NULL)
		return 0;
	if ((eq = memchr(line, '=', n)) == NULL)
		return -1;
	for (p = eq + 1; p < end && *p == ' '; p++)
		;
	for (i = 0; i < 3; i++) {
		const char *s = p;

		while (p < end && *p != '/' && *p != ' ')
			p++;
		if (p >= end || *p != '/' || parse_num(s, (size_t)(p - s),
		    &v[i]) == -1 || v[i] < 0)
			return -1;
		p++;
	}
	out->rtt_min_ms = v[0];
	out->rtt_avg_ms = v[1];
	out->rtt_max_ms = v[2];
	return 1;
}

/* "PING A (A) 8972(9000) bytes of data." / "PING A (A): 8972 data bytes". */
static void
ping_header(const char *line, size_t n, struct parse_ping *out)
{
	const char *end = line + n, *p;

	if ((p = ping_find(line, n, " bytes of data")) != NULL) {
		/* Back to the start of "8972(9000)". */
		while (p > line && p[-1] != ' ')
			p--;
		out->size = (int)ping_int(p, end);
	} else if ((p = ping_find(line, n, " data bytes")) != NULL) {
		while (p > line && p[-1] != ' ' && p[-1] != ')')
			p--;
		out->size = (int)ping_int(p, end);
	}
}

/* One line of output; -1 on a malformed statistics or rtt line. */
static int
ping_line(const char *line, size_t n, struct parse_ping *out)
{
	const char *end = line + n, *p;
	long	 b;
	int	 rc;

	if (parse_prefix(line, n, "PING ", 0) != NULL) {
		ping_header(line, n, out);
		return 0;
	}
	if ((rc = ping_stats(line, n, out)) != 0) {
		out->has_stats = rc == 1;
		return rc == 1 ? 0 : -1;
	}
	if ((rc = ping_rtt(line, n, out)) != 0)
		return rc == 1 ? 0 : -1;
	if ((p = ping_find(line, n, "frag needed and df set")) != NULL) {
		out->frag_needed = 1;
		out->frag_mtu = (int)ping_next_int(p, end);
		return 0;
	}
	if ((p = ping_find(line, n, "message too long")) != NULL) {
		out->local_too_long = 1;
		/* "mtu=1500" (IPv4), "mtu: 65536" (IPv6) */
		if ((p = ping_find(line, n, "mtu")) != NULL)
			out->local_mtu = (int)ping_next_int(p, end);
		if (out->message[0] == '\0')
			(void)parse_copy(out->message, sizeof(out->message),
			    line, n < sizeof(out->message) ? n :
			    sizeof(out->message) - 1);
		return 0;
	}
	/* An echo reply: "8980 bytes from A: icmp_seq=1 ttl=64 time=0.06 ms". */
	if ((p = ping_find(line, n, " bytes from ")) != NULL &&
	    ping_find(line, n, "icmp_seq=") != NULL &&
	    ping_find(line, n, "time=") != NULL) {
		b = ping_int(line, p);
		if (b >= 0 && (int)b > out->reply_bytes)
			out->reply_bytes = (int)b;
		out->replies++;
		return 0;
	}
	/* The first other diagnostic ("ping: connect: Network is
	 * unreachable", "From R icmp_seq=1 Destination Host Unreachable")
	 * is kept for the message. */
	if (out->message[0] == '\0' && (parse_prefix(line, n, "ping", 0) ||
	    parse_prefix(line, n, "From ", 0) || ping_find(line, n,
	    "unreachable") != NULL))
		(void)parse_copy(out->message, sizeof(out->message), line,
		    n < sizeof(out->message) ? n : sizeof(out->message) - 1);
	return 0;
}

int
parse_ping(const char *text, size_t len, struct parse_ping *out, char *err,
    size_t errlen)
{
	struct parse_lines l;
	const char *line;
	size_t	 n;

	memset(out, 0, sizeof(*out));
	out->size = out->frag_mtu = out->local_mtu = PARSE_UNKNOWN;
	out->transmitted = out->received = PARSE_UNKNOWN;
	out->rtt_min_ms = out->rtt_avg_ms = out->rtt_max_ms = -1.0;
	if (parse_check_input("ping", text, len, err, errlen) == -1)
		return -1;
	parse_lines_init(&l, text, len);
	while (parse_lines_next(&l, &line, &n)) {
		if (ping_line(line, n, out) == -1) {
			parse_seterr(err, errlen, "ping: line %zu: malformed "
			    "\"%.*s\"", l.lineno, (int)(n > 80 ? 80 : n), line);
			return -1;
		}
	}
	if (!out->has_stats) {
		parse_seterr(err, errlen, "ping: no \"packets transmitted\" "
		    "line (truncated output?)%s%s", out->message[0] ? ": " : "",
		    out->message);
		return -1;
	}
	if (out->received > out->transmitted) {
		parse_seterr(err, errlen, "ping: %d received of %d transmitted",
		    out->received, out->transmitted);
		return -1;
	}
	return 0;
}
