/*
 * api_bench: the HTTP API over a store of a year of nightly runs (issue
 * 14's benchmark).  Figures, not assertions; never run by ctest.
 *
 * 1. Generates the store with the store module's own functions (a run's
 *    jobs in one transaction as a real run adds them, then all their
 *    results and samples in one more: store_run_bulk_finish()): RUNS
 *    nightly runs (default
 *    365) on LINKS host pairs (20), each with TSO x MTU (4 combinations)
 *    x REPS repetitions (10) of iperf3 jobs of 35 samples (the whole
 *    transfer, 30 per-second throughputs, sender/receiver CPU,
 *    retransmits, granted window): 365 x 20 x 4 x 10 x 35 = 10.2 million
 *    samples.  The newest VERDICTS runs (30) get their verdicts stored as
 *    the run module stores them at a run's end (report_verdict_save());
 *    one older run keeps none, to measure the report computed per
 *    request.  One bisect over 64 revisions (its steps as the bisect
 *    machine asks for them), each step with its own step run.
 * 2. Starts `labrat serve` on 127.0.0.1 (a free port, reads open, 128
 *    connections, 64 per address) over that store.
 * 3. A load client (plain sockets, one thread per client, one connection
 *    per request): p50/p95/p99 latency of GET /status (the reference),
 *    /runs, /runs/{newest}/report (stored), /bisects/{id}, /series
 *    (nic00's TSO on at MTU 9000: 50 runs' points) and the report
 *    computed (a run without stored verdicts), at 1 and 32 concurrent
 *    clients; then the daemon's peak RSS (VmHWM).
 *
 * usage: bench_api_bench [-d DB] [-k] [-L LABRAT] [-n REQUESTS]
 *        [-r RUNS] [-l LINKS] [-p REPS] [-v VERDICTS]
 *  -d: the store (default /dev/shm/labrat-api-bench-PID.db; an existing
 *      file with runs is reused, not generated again), -k: keep it,
 *  -L: labrat (default: ../labrat beside this program), -n: requests per
 *      client and endpoint at 1 client (default 200; 32 clients: n / 4
 *      each).
 */
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bisect.h"
#include "report.h"
#include "stats.h"
#include "store.h"

#define KNOBSETS	4
#define SPJ		35	/* samples per job */
#define MAXCLIENTS	32

struct opts {
	const char	*db;
	const char	*labrat;
	int		 keep, requests, runs, links, reps, verdicts;
};

static double
now_s(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
die(const char *what, const char *err)
{
	fprintf(stderr, "api_bench: %s: %s\n", what, err);
	exit(1);
}

/* ---- the store ------------------------------------------------------- */

static int64_t
facts(struct store *st, int64_t run, const char *host, int night)
{
	struct store_host_facts	f;
	char			rev[32], err[512];
	int64_t			id;

	memset(&f, 0, sizeof f);
	snprintf(rev, sizeof rev, "r%d", 300000 + night * 7);
	f.host = host;
	f.os = "freebsd";
	f.kernel_version = "FreeBSD 15.0-CURRENT";
	f.revision = rev;
	f.ifname = "em0";
	f.driver = "em";
	f.chip = "0x10968086";
	f.knobs = "";
	if (store_host_facts_add(st, run, &f, &id, err, sizeof err) == -1)
		die("host facts", err);
	return id;
}

/* The samples of one job: level is its median throughput (bit/s). */
static size_t
job_samples(struct stats_rng *rng, double level, struct store_sample *s)
{
	double	tp = level * (1 + 0.01 * stats_rng_normal(rng));
	size_t	n = 0;
	int	i;

	s[n++] = (struct store_sample){ "throughput_bps", tp, "bit/s", 0 };
	for (i = 1; i <= 30; i++)
		s[n++] = (struct store_sample){ "throughput_bps", tp *
		    (1 + 0.02 * stats_rng_normal(rng)), "bit/s", i };
	s[n++] = (struct store_sample){ "cpu_sender", 20 + stats_rng_normal(
	    rng), "%", 0 };
	s[n++] = (struct store_sample){ "cpu_receiver", 30 +
	    stats_rng_normal(rng), "%", 0 };
	s[n++] = (struct store_sample){ "retransmits", (double)
	    stats_rng_below(rng, 20), "", 0 };
	s[n++] = (struct store_sample){ "window_granted", 1048576, "B", 0 };
	return n;
}

/* One run: links x knobs x reps jobs on the links from link0; the em-like
 * interaction (TSO on with MTU 9000, -18 %) on link 0 from night 300. */
static int64_t
gen_run(struct store *st, struct stats_rng *rng, const char *kind,
    int64_t bisect, int night, int link0, int nlinks, int reps)
{
	struct store_run_spec	 rs;
	struct store_job_spec	*js;
	struct store_job_result	*res;
	struct store_sample	*smp;
	char			 err[512], (*names)[16], host[24];
	int64_t			 run, *cf, *sf;
	size_t			 nj = 0, i;
	int			 l, k, p, bad;

	memset(&rs, 0, sizeof rs);
	rs.kind = kind;
	rs.bisect_id = bisect;
	rs.plan_path = "/etc/labrat/plan-nightly.json";
	rs.inventory_path = "/etc/labrat/lab.json";
	if (store_run_create(st, &rs, &run, err, sizeof err) == -1)
		die("run", err);
	names = calloc((size_t)nlinks, sizeof *names);
	cf = calloc((size_t)nlinks, sizeof *cf);
	sf = calloc((size_t)nlinks, sizeof *sf);
	js = calloc((size_t)(nlinks * KNOBSETS * reps), sizeof *js);
	if (names == NULL || cf == NULL || sf == NULL || js == NULL)
		die("run", "out of memory");
	for (l = 0; l < nlinks; l++) {
		snprintf(names[l], sizeof names[l], "nic%02d", link0 + l);
		snprintf(host, sizeof host, "%s-a", names[l]);
		cf[l] = facts(st, run, host, night);
		snprintf(host, sizeof host, "%s-b", names[l]);
		sf[l] = facts(st, run, host, night);
		for (p = 0; p < reps; p++)
			for (k = 0; k < KNOBSETS; k++) {
				js[nj].link = names[l];
				knobs_clear(&js[nj].knobs);
				knobs_set(&js[nj].knobs, KNOB_TSO, k & 1);
				knobs_set(&js[nj].knobs, KNOB_MTU, k & 2 ?
				    9000 : 1500);
				js[nj].tool = "iperf3";
				js[nj].params = "iperf3:len=128k,time=30";
				js[nj].repetition = p;
				nj++;
			}
	}
	if (store_jobs_add(st, run, js, nj, err, sizeof err) == -1)
		die("jobs", err);
	res = calloc(nj, sizeof *res);
	smp = calloc(nj * SPJ, sizeof *smp);
	if (res == NULL || smp == NULL)
		die("run", "out of memory");
	for (i = 0; i < nj; i++) {
		l = (int)(i / (size_t)(KNOBSETS * reps));
		bad = link0 + l == 0 && night >= 300 && knobs_get(&js[i].knobs,
		    KNOB_TSO) == 1 && knobs_get(&js[i].knobs, KNOB_MTU) == 9000;
		res[i].state = STORE_JOB_DONE;
		res[i].client_facts_id = cf[l];
		res[i].server_facts_id = sf[l];
		res[i].samples = smp + i * SPJ;
		res[i].nsamples = job_samples(rng, bad ? 0.82 * 941e6 : 941e6,
		    smp + i * SPJ);
	}
	/* One transaction for the run's results (a claim and a finish per
	 * job would be 2 x 292,000 transactions: half an hour). */
	if (store_run_bulk_finish(st, run, res, nj, err, sizeof err) == -1)
		die("finish", err);
	free(res);
	free(smp);
	if (store_run_finish(st, run, STORE_RUN_DONE, NULL, err,
	    sizeof err) == -1)
		die("finish run", err);
	free(names);
	free(cf);
	free(sf);
	free(js);
	return run;
}

/* A bisect of nic00's TSO x MTU 9000 drop over 64 revisions, its steps
 * as the bisect machine asks for them (culprit r302098), each with its
 * own step run. */
static int64_t
gen_bisect(struct store *st, struct stats_rng *rng, int night)
{
	static char			 names[64][16], list[64 * 16];
	const char			*ids[64];
	struct store_bisect_spec	 b;
	struct store_bisect_step	 s;
	struct bisect			*m;
	struct bisect_request		 rq;
	struct bisect_result		 res;
	enum bisect_outcome		 o;
	char				 err[512];
	int64_t				 id, step;
	size_t				 i, culprit = 41, off = 0;

	for (i = 0; i < 64; i++) {
		snprintf(names[i], sizeof names[i], "r%zu", 302057 + i);
		ids[i] = names[i];
		off += (size_t)snprintf(list + off, sizeof list - off, "%s\n",
		    names[i]);
	}
	memset(&b, 0, sizeof b);
	b.link = "nic00";
	b.knobs = "mtu=9000,tso=on";
	b.tool = "iperf3";
	b.params = "iperf3:len=128k,time=30";
	b.metric = "throughput_bps";
	b.good = names[0];
	b.bad = names[63];
	b.revisions = list;
	b.inventory_path = "/etc/labrat/lab.json";
	b.plan_path = "/etc/labrat/bisect-em.json";
	if (store_bisect_create(st, &b, &id, err, sizeof err) == -1)
		die("bisect", err);
	if ((m = bisect_new(ids, 64, 0, 63, err, sizeof err)) == NULL)
		die("bisect", err);
	while (bisect_next(m, &rq)) {
		o = rq.rev >= culprit ? BISECT_BAD : BISECT_GOOD;
		memset(&s, 0, sizeof s);
		snprintf(s.revision, sizeof s.revision, "%s", ids[rq.rev]);
		if (store_bisect_step_add(st, id, &s, &step, err,
		    sizeof err) == -1)
			die("bisect step", err);
		s.id = step;
		s.bisect_id = id;
		s.run_id = gen_run(st, rng, "bisect", id, night, 0, 1, 5);
		snprintf(s.verdict, sizeof s.verdict, "%s",
		    bisect_outcome_name(o));
		s.n = 10;
		s.baseline_median = 941e6;
		s.median = o == BISECT_BAD ? 772e6 : 941e6;
		s.ratio = s.median / s.baseline_median;
		s.p = 0.0002;
		if (store_bisect_step_update(st, &s, err, sizeof err) == -1 ||
		    bisect_record(m, rq.rev, o, 1.0 - s.p / 2, err,
		    sizeof err) == -1)
			die("bisect step", err);
	}
	bisect_result(m, &res);
	if (store_bisect_update(st, id, "done", res.status == BISECT_FOUND ?
	    ids[res.culprit] : NULL, res.confidence, NULL, err,
	    sizeof err) == -1)
		die("bisect", err);
	bisect_free(m);
	return id;
}

struct ids {
	int64_t	newest, computed, bisect;
};

static void
generate(const struct opts *o, struct ids *ids)
{
	struct store		*st;
	struct stats_rng	 rng;
	struct store_run	*runs;
	struct store_bisect	 b;
	struct rusage		 ru;
	char			 err[1024];
	size_t			 nruns;
	double			 t0, t1, t2, tv = 0;
	int64_t			 run = 0;
	int			 night, nv = 0;

	if (store_open(o->db, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		die("store", err);
	if (store_run_list(st, 0, &runs, &nruns, err, sizeof err) == -1)
		die("store", err);
	if (nruns > 0) {
		/* Reused: the newest nightly run, the oldest one, bisect 1. */
		ids->newest = ids->computed = 0;
		for (size_t i = 0; i < nruns; i++)
			if (strcmp(runs[i].kind, "nightly") == 0) {
				if (ids->newest == 0)
					ids->newest = runs[i].id;
				ids->computed = runs[i].id;
			}
		ids->computed += 1;	/* the second: it has a baseline */
		store_runs_free(runs, nruns);
		if (store_bisect_get(st, 0, &b, err, sizeof err) != 1)
			die("bisect", "none in the reused store");
		ids->bisect = b.id;
		store_bisect_free(&b);
		printf("store: %s reused (%zu runs)\n", o->db, nruns);
		store_close(st);
		return;
	}
	stats_rng_seed(&rng, 14);
	t0 = now_s();
	for (night = 0; night < o->runs; night++) {
		run = gen_run(st, &rng, "nightly", 0, night, 0, o->links,
		    o->reps);
		if (night == 1)
			ids->computed = run;
		if (night == 304)
			ids->bisect = gen_bisect(st, &rng, night);
		if (night >= o->runs - o->verdicts) {
			t1 = now_s();
			if (report_verdict_save(st, run, err, sizeof err) == -1)
				die("verdicts", err);
			tv += now_s() - t1;
			nv++;
		}
		if (night % 50 == 49)
			fprintf(stderr, "api_bench: %d runs, %.0f s\n",
			    night + 1, now_s() - t0);
	}
	if (ids->bisect == 0)
		ids->bisect = gen_bisect(st, &rng, night);
	ids->newest = run;
	t2 = now_s();
	getrusage(RUSAGE_SELF, &ru);
	printf("store: %s: %d nightly runs x %d links x %d knob sets x %d "
	    "reps x %d samples = %.2f million samples (+ bisect %lld and "
	    "its step runs) in %.1f s (goal < 180 s; %.1f s of CPU), verdicts "
	    "stored for the newest %d runs (%.2f s per run, in that time)\n",
	    o->db, o->runs,
	    o->links, KNOBSETS, o->reps, SPJ, (double)o->runs * o->links *
	    KNOBSETS * o->reps * SPJ / 1e6, (long long)ids->bisect, t2 - t0,
	    ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	    ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6, nv,
	    nv > 0 ? tv / nv : 0.0);
	store_close(st);
}

/* ---- the daemon ------------------------------------------------------ */

static int
free_port(void)
{
	struct sockaddr_in	a;
	socklen_t		len = sizeof a;
	int			fd, port;

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    bind(fd, (struct sockaddr *)&a, sizeof a) == -1 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) == -1)
		die("free port", strerror(errno));
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static int	port;

/* One GET on a fresh connection: the status, or -1; *bytes the reply's. */
static int
get(const char *path, size_t *bytes)
{
	struct sockaddr_in	a;
	char			req[512], buf[65536];
	ssize_t			n;
	size_t			got = 0;
	int			fd, status = -1;

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof a) == -1) {
		close(fd);
		return -1;
	}
	n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n"
	    "Connection: close\r\n\r\n", path);
	if (write(fd, req, (size_t)n) != n) {
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		if (got == 0 && n >= 12 && memcmp(buf, "HTTP/1.", 7) == 0)
			status = atoi(buf + 9);
		got += (size_t)n;
	}
	close(fd);
	if (bytes != NULL)
		*bytes = got;
	return n < 0 ? -1 : status;
}

static pid_t
serve(const struct opts *o, const char *dir)
{
	char	cfg[PATH_MAX], log[PATH_MAX];
	FILE	*fp;
	pid_t	 pid;
	double	 t0;
	int	 i;

	port = free_port();
	snprintf(cfg, sizeof cfg, "%s/serve.json", dir);
	snprintf(log, sizeof log, "%s/serve.log", dir);
	if ((fp = fopen(cfg, "w")) == NULL)
		die(cfg, strerror(errno));
	/* No inventory that exists: no health checks add runs. */
	fprintf(fp, "{\"inventories\": [\"%s/no-inventory.json\"], \"http\": "
	    "{\"listen\": \"http://127.0.0.1:%d\", \"reads\": \"open\", "
	    "\"max_connections\": 128, \"per_address\": 64}}\n", dir, port);
	fclose(fp);
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1)
		die("fork", strerror(errno));
	if (pid == 0) {
		if (freopen(log, "w", stderr) == NULL ||
		    freopen("/dev/null", "w", stdout) == NULL)
			_exit(127);
		execl(o->labrat, o->labrat, "serve", "--db", o->db, "--config",
		    cfg, (char *)NULL);
		_exit(127);
	}
	t0 = now_s();
	for (i = 0; now_s() - t0 < 30; i++) {
		if (get("/api/v1/status", NULL) == 200) {
			printf("daemon: pid %ld on 127.0.0.1:%d, up in %.2f s "
			    "(log %s)\n", (long)pid, port, now_s() - t0, log);
			return pid;
		}
		if (waitpid(pid, NULL, WNOHANG) == pid)
			die("labrat serve exited", log);
		usleep(50000);
	}
	kill(pid, SIGTERM);
	die("labrat serve did not answer in 30 s", log);
	return -1;
}

/* VmHWM of pid in kB, or -1. */
static long
vmhwm_kb(pid_t pid)
{
	char	path[64], line[256];
	FILE	*fp;
	long	kb = -1;

	snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, fp) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0)
			kb = atol(line + 6);
	fclose(fp);
	return kb;
}

/* ---- the load -------------------------------------------------------- */

struct client {
	pthread_t	 th;
	const char	*path;
	int		 n;
	double		*lat;		/* seconds, n of them */
	int		 errors;
	size_t		 bytes;
};

static void *
client_main(void *arg)
{
	struct client	*c = arg;
	double		 t0;
	size_t		 b = 0;
	int		 i;

	for (i = 0; i < c->n; i++) {
		t0 = now_s();
		if (get(c->path, &b) != 200)
			c->errors++;
		c->lat[i] = now_s() - t0;
		c->bytes = b;
	}
	return NULL;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct figure {
	double	p50, p95, p99, rps;
	int	errors;
	size_t	bytes;
};

/* nc clients each GET path n times; latency percentiles in ms. */
static void
load(const char *path, int nc, int n, struct figure *f)
{
	struct client	 c[MAXCLIENTS];
	double		*all, t0, wall;
	int		 i, j, k = 0;

	all = calloc((size_t)(nc * n), sizeof *all);
	if (all == NULL)
		die("load", "out of memory");
	memset(f, 0, sizeof *f);
	t0 = now_s();
	for (i = 0; i < nc; i++) {
		c[i] = (struct client){ .path = path, .n = n, .lat = all +
		    i * n };
		if (pthread_create(&c[i].th, NULL, client_main, &c[i]) != 0)
			die("pthread_create", strerror(errno));
	}
	for (i = 0; i < nc; i++) {
		pthread_join(c[i].th, NULL);
		f->errors += c[i].errors;
		f->bytes = c[i].bytes;
	}
	wall = now_s() - t0;
	k = nc * n;
	qsort(all, (size_t)k, sizeof *all, cmp_double);
	j = k - 1;
	f->p50 = all[(k - 1) * 50 / 100] * 1e3;
	f->p95 = all[(k - 1) * 95 / 100] * 1e3;
	f->p99 = all[(k - 1) * 99 / 100 < j ? (k - 1) * 99 / 100 : j] * 1e3;
	f->rps = k / wall;
	free(all);
}

static void
row(const char *name, int nc, const struct figure *f, const struct figure *ref)
{
	printf("%-22s %3d %8.2f %8.2f %8.2f %8.0f %7.1f %8.2f %5s %8zu %4d\n",
	    name, nc, f->p50, f->p95, f->p99, f->rps, ref->p95 > 0 ?
	    f->p95 / ref->p95 : 0.0, f->p95 / 100.0, f->p95 <= 100.0 ? "ok" :
	    "MISS", f->bytes, f->errors);
	fflush(stdout);
}

static void
defaults(struct opts *o, const char *argv0, char *dbbuf, size_t dblen,
    char *lbuf, size_t llen)
{
	char	self[PATH_MAX];
	ssize_t	n;

	memset(o, 0, sizeof *o);
	snprintf(dbbuf, dblen, "/dev/shm/labrat-api-bench-%ld.db",
	    (long)getpid());
	o->db = dbbuf;
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		snprintf(lbuf, llen, "%s/../labrat", dirname(self));
	} else
		snprintf(lbuf, llen, "%s", argv0);
	o->labrat = lbuf;
	o->requests = 200;
	o->runs = 365;
	o->links = 20;
	o->reps = 10;
	o->verdicts = 30;
}

static void
parse(int argc, char **argv, struct opts *o)
{
	int	ch;

	while ((ch = getopt(argc, argv, "d:kL:n:r:l:p:v:")) != -1) {
		switch (ch) {
		case 'd': o->db = optarg; break;
		case 'k': o->keep = 1; break;
		case 'L': o->labrat = optarg; break;
		case 'n': o->requests = atoi(optarg); break;
		case 'r': o->runs = atoi(optarg); break;
		case 'l': o->links = atoi(optarg); break;
		case 'p': o->reps = atoi(optarg); break;
		case 'v': o->verdicts = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: bench_api_bench [-d DB] [-k] "
			    "[-L LABRAT] [-n REQUESTS] [-r RUNS] [-l LINKS] "
			    "[-p REPS] [-v VERDICTS]\n");
			exit(2);
		}
	}
	if (o->requests < 4 || o->runs < 2 || o->links < 1 || o->reps < 1 ||
	    o->verdicts < 0 || o->verdicts > o->runs - 2)
		die("options", "need -n >= 4, -r >= 2, -l >= 1, -p >= 1, "
		    "0 <= -v <= -r - 2");
}

static void
remove_db(const char *db)
{
	char	p[PATH_MAX];

	unlink(db);
	snprintf(p, sizeof p, "%s-wal", db);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", db);
	unlink(p);
}

int
main(int argc, char **argv)
{
	struct opts	 o;
	struct ids	 ids;
	struct figure	 ref, f;
	char		 dbbuf[PATH_MAX], lbuf[PATH_MAX], dir[] =
	    "/tmp/labrat-api-bench.XXXXXX", path[128], lavg[64] = "?";
	struct stat	 sb;
	FILE		*fp;
	pid_t		 pid;
	long		 kb;
	int		 existed, nc, ci;
	static const int conc[] = { 1, 32 };

	defaults(&o, argv[0], dbbuf, sizeof dbbuf, lbuf, sizeof lbuf);
	parse(argc, argv, &o);
	existed = stat(o.db, &sb) == 0;
	if (mkdtemp(dir) == NULL)
		die("mkdtemp", strerror(errno));
	memset(&ids, 0, sizeof ids);
	generate(&o, &ids);
	if (stat(o.db, &sb) == 0)
		printf("store: %.0f MB on disk\n", sb.st_size / 1048576.0);
	pid = serve(&o, dir);
	if ((fp = fopen("/proc/loadavg", "r")) != NULL) {
		if (fgets(lavg, sizeof lavg, fp) == NULL)
			snprintf(lavg, sizeof lavg, "?");
		lavg[strcspn(lavg, "\n")] = '\0';
		fclose(fp);
	}
	printf("load average before: %s, %ld CPUs\n", lavg,
	    sysconf(_SC_NPROCESSORS_ONLN));
	printf("%-22s %3s %8s %8s %8s %8s %7s %8s %5s %8s %4s\n", "GET /api/v1",
	    "cl", "p50 ms", "p95 ms", "p99 ms", "req/s", "p95/ref",
	    "p95/goal", "goal", "bytes", "err");
	for (ci = 0; ci < 2; ci++) {
		nc = conc[ci];
		/* 1 client: n requests; 32 clients: n / 4 each. */
#define N(nc)	((nc) == 1 ? o.requests : o.requests / 4)
		load("/api/v1/status", nc, N(nc), &ref);
		row("status (reference)", nc, &ref, &ref);
		load("/api/v1/runs", nc, N(nc), &f);
		row("runs", nc, &f, &ref);
		snprintf(path, sizeof path, "/api/v1/runs/%lld/report",
		    (long long)ids.newest);
		load(path, nc, N(nc), &f);
		row("runs/N/report stored", nc, &f, &ref);
		snprintf(path, sizeof path, "/api/v1/bisects/%lld",
		    (long long)ids.bisect);
		load(path, nc, N(nc), &f);
		row("bisects/N", nc, &f, &ref);
		/* nic00's TSO on at MTU 9000: the trend with the drop. */
		load("/api/v1/series?link=nic00&knobs=mtu%3D9000%2Ctso%3Don"
		    "&workload=iperf3%3Alen%3D128k%2Ctime%3D30"
		    "&metric=throughput_bps", nc, N(nc), &f);
		row("series (50 points)", nc, &f, &ref);
		/* Without stored verdicts: computed per request (before). */
		snprintf(path, sizeof path, "/api/v1/runs/%lld/report",
		    (long long)ids.computed);
		load(path, nc, nc == 1 ? 10 : 1, &f);
		row("runs/N/report computed", nc, &f, &ref);
	}
	kb = vmhwm_kb(pid);
	printf("daemon peak RSS (VmHWM): %.1f MB, goal < 100 MB: %.2f of it "
	    "(%s)\n", kb / 1024.0, kb / 1024.0 / 100.0, kb > 0 &&
	    kb < 100 * 1024 ? "ok" : "MISS");
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	snprintf(path, sizeof path, "%s/serve.json", dir);
	unlink(path);
	if (!o.keep && !existed)
		remove_db(o.db);
	else
		printf("store kept: %s\n", o.db);
	return 0;
}
