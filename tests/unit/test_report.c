/*
 * test_report: the text, JSON, CSV and JUnit forms of a report and
 * `compare`, on a store holding an em-like interaction and a bce-like
 * collapse (run 2) and a baseline run without faults (run 1).
 */
#include <sys/wait.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "report.h"
#include "store_fixture.h"

static char	dbpath[256];

static void
series(struct store *st, struct stats_rng *rng, int64_t run, const char *link,
    struct knobs k, double base, int n, int64_t cf)
{
	struct store_job_spec	spec;
	struct store_job	job;
	struct store_job_result	r;
	struct store_sample	s = { "throughput_bps", 0, "bit/s", 0 };
	char			err[512];
	int			i;

	for (i = 0; i < n; i++) {
		memset(&spec, 0, sizeof spec);
		spec.link = link;
		spec.knobs = k;
		spec.tool = "iperf3";
		spec.params = "iperf3:len=128k,nodelay=on,time=2";
		spec.repetition = i;
		assert_int_equal(store_jobs_add(st, run, &spec, 1, err,
		    sizeof err), 0);
		assert_int_equal(store_job_claim(st, run, link, "t", &job, err,
		    sizeof err), 1);
		memset(&r, 0, sizeof r);
		s.value = base * (1 + 0.01 * stats_rng_normal(rng));
		r.state = STORE_JOB_DONE;
		r.samples = &s;
		r.nsamples = 1;
		r.client_facts_id = r.server_facts_id = cf;
		assert_int_equal(store_job_finish(st, job.id, &r, err,
		    sizeof err), 0);
	}
}

/* Run 1: all at 1 Gbit/s (r1); run 2 (r2): the two faults. */
static int
setup(void **state)
{
	struct store		*st = NULL;
	struct store_run_spec	 spec;
	struct store_host_facts	 f;
	struct stats_rng	 rng;
	char			 err[512];
	int64_t			 run, cf;
	int			 r, t, x, bad;

	(void)state;
	fx_db_path(dbpath, sizeof dbpath, "report");
	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		return -1;
	stats_rng_seed(&rng, 3);
	for (r = 1; r <= 2; r++) {
		memset(&spec, 0, sizeof spec);
		spec.kind = "nightly";
		assert_int_equal(store_run_create(st, &spec, &run, err,
		    sizeof err), 0);
		memset(&f, 0, sizeof f);
		f.host = "em-a";
		f.os = "freebsd";
		f.revision = r == 1 ? "r1" : "r2";
		assert_int_equal(store_host_facts_add(st, run, &f, &cf, err,
		    sizeof err), 0);
		for (t = 0; t <= 1; t++)
			for (x = 0; x <= 1; x++) {
				bad = r == 2 && t && x;
				series(st, &rng, run, "em", kn(t, x ? 9000 :
				    1500, NULL), bad ? 0.82e9 : 1e9, 10, cf);
				series(st, &rng, run, "bce", kn(t, 0, x ?
				    "kernel" : "off"), bad ? 0.01e9 : 1e9, 10,
				    cf);
			}
		assert_int_equal(store_run_finish(st, run, STORE_RUN_DONE,
		    NULL, err, sizeof err), 0);
	}
	store_close(st);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fx_db_remove(dbpath);
	return 0;
}

/* The report of the newest run (2) against its baseline, as a string. */
static char *
render(enum report_format f, int *nreg)
{
	char	*out = NULL, err[512];
	size_t	 len = 0;
	FILE	*fp = open_memstream(&out, &len);

	assert_non_null(fp);
	if (report_run(dbpath, 0, 0, NULL, f, fp, nreg, err, sizeof err) == -1)
		fail_msg("%s", err);
	fclose(fp);
	return out;
}

static void
test_text(void **state)
{
	char	*s;
	int	 nreg;

	(void)state;
	s = render(REPORT_TEXT, &nreg);
	/* Within the run: 4 regressions; run over run: em + bce. */
	assert_int_equal(nreg, 6);
	assert_non_null(strstr(s, "labrat report: run 2 (nightly, done"));
	assert_non_null(strstr(s, "em iperf3: TSO on with MTU 9000 is 1"));
	assert_non_null(strstr(s, "% slower than TSO off (p < 0.001, n = "
	    "10/10); TSO alone: no change; MTU 9000 alone: no change"));
	assert_non_null(strstr(s, "bce iperf3: TSO on with NAT kernel is ~"));
	assert_non_null(strstr(s, "x slower than TSO off (collapse: "));
	assert_non_null(strstr(s, "NAT kernel alone: no change"));
	assert_non_null(strstr(s, "Run over run: run 2 (r2) against run 1 "
	    "(r1)\n"));
	assert_non_null(strstr(s, "  em   mtu=9000,tso=on    iperf3  "
	    "regression  ratio 0.8"));
	assert_non_null(strstr(s, "TSO off -> on @ mtu=9000"));
	/* Triggers come first. */
	assert_true(strstr(s, "Findings") < strstr(s, "Link em"));
	free(s);
}

static void
test_json(void **state)
{
	struct json_object	*root, *a, *o, *v;
	char			*s;
	size_t			 i, nreg = 0;

	(void)state;
	s = render(REPORT_JSON, NULL);
	root = json_tokener_parse(s);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "run", &v));
	assert_int_equal(json_object_get_int64(v), 2);
	assert_true(json_object_object_get_ex(root, "triggers", &a));
	assert_int_equal(json_object_array_length(a), 2);
	assert_true(json_object_object_get_ex(root, "series", &a));
	assert_int_equal(json_object_array_length(a), 8);
	assert_true(json_object_object_get_ex(root, "comparisons", &a));
	assert_int_equal(json_object_array_length(a), 8);
	for (i = 0; i < json_object_array_length(a); i++) {
		o = json_object_array_get_idx(a, i);
		assert_true(json_object_object_get_ex(o, "verdict", &v));
		nreg += strcmp(json_object_get_string(v), "regression") == 0;
		assert_true(json_object_object_get_ex(o, "ratio_ci", &v));
		assert_int_equal(json_object_array_length(v), 2);
	}
	assert_int_equal(nreg, 4);
	assert_true(json_object_object_get_ex(root, "baseline", &o));
	assert_true(json_object_object_get_ex(o, "run", &v));
	assert_int_equal(json_object_get_int64(v), 1);
	json_object_put(root);
	free(s);
}

/* Splits one CSV record (RFC 4180 quoting); returns the field count. */
static size_t
csv_fields(const char **p, char fields[][256], size_t max)
{
	size_t	n = 0, k = 0;
	int	q = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c == '\0' || (!q && (c == ',' || c == '\n'))) {
			if (n < max)
				fields[n][k < 255 ? k : 255] = '\0';
			n++;
			k = 0;
			if (c != ',') {
				if (c == '\n')
					(*p)++;
				return n;
			}
		} else if (c == '"') {
			if (q && (*p)[1] == '"') {
				(*p)++;
				if (n < max && k < 255)
					fields[n][k++] = '"';
			} else
				q = !q;
		} else if (n < max && k < 255)
			fields[n][k++] = c;
	}
}

static void
test_csv(void **state)
{
	char		*s, f[32][256];
	const char	*p;
	size_t		 rows = 0, knob = 0, trig = 0, base = 0, n;

	(void)state;
	s = render(REPORT_CSV, NULL);
	p = s;
	assert_int_equal(csv_fields(&p, f, 32), 24);
	assert_string_equal(f[0], "section");
	assert_string_equal(f[21], "unit");
	assert_string_equal(f[22], "run_a");
	assert_string_equal(f[23], "run_b");
	while (*p != '\0') {
		n = csv_fields(&p, f, 32);
		assert_int_equal(n, 24);
		rows++;
		assert_string_equal(f[3], "iperf3:len=128k,nodelay=on,time=2");
		assert_string_equal(f[21], "bit/s");
		if (strcmp(f[0], "series") == 0) {
			assert_string_equal(f[22], "2");
			assert_string_equal(f[23], "");
		} else {
			assert_string_equal(f[22], strcmp(f[0], "baseline") ==
			    0 ? "1" : "2");
			assert_string_equal(f[23], "2");
		}
		knob += strcmp(f[0], "knob") == 0;
		base += strcmp(f[0], "baseline") == 0;
		if (strcmp(f[0], "trigger") == 0) {
			trig++;
			assert_string_equal(f[19], "regression");
			assert_true(strcmp(f[8], "mtu=9000,tso=on") == 0 ||
			    strcmp(f[8], "nat=kernel,tso=on") == 0);
		}
	}
	assert_int_equal(knob, 8);
	assert_int_equal(base, 8);
	assert_int_equal(trig, 2);
	assert_int_equal(rows, 8 + 8 + 8 + 2);
	free(s);
}

/*
 * A minimal XML walk: tags balanced and nested testsuites > testsuite >
 * testcase > failure|skipped|system-out; counts the elements.
 */
struct xml_counts {
	int	suites, cases, failures, skipped;
};

static void
xml_walk(const char *s, struct xml_counts *c)
{
	char		 stack[16][32], name[32];
	const char	*p = s, *e;
	size_t		 depth = 0, k;
	int		 close, empty;

	memset(c, 0, sizeof *c);
	assert_true(strncmp(p, "<?xml ", 6) == 0);
	p = strchr(p, '\n') + 1;
	while ((p = strchr(p, '<')) != NULL) {
		e = strchr(p, '>');
		assert_non_null(e);
		close = p[1] == '/';
		empty = e[-1] == '/';
		for (k = 0, p += 1 + close; *p != ' ' && *p != '>' &&
		    *p != '/' && k < sizeof name - 1; p++)
			name[k++] = *p;
		name[k] = '\0';
		if (close) {
			assert_true(depth > 0);
			assert_string_equal(stack[--depth], name);
		} else {
			static const char *const parent[][2] = {
				{ "testsuites", "" }, { "testsuite",
				"testsuites" }, { "testcase", "testsuite" },
				{ "failure", "testcase" }, { "skipped",
				"testcase" }, { "system-out", "testcase" },
			};
			int ok = 0;

			for (k = 0; k < 6; k++)
				if (strcmp(name, parent[k][0]) == 0 &&
				    strcmp(depth ? stack[depth - 1] : "",
				    parent[k][1]) == 0)
					ok = 1;
			assert_true(ok);
			c->suites += strcmp(name, "testsuite") == 0;
			c->cases += strcmp(name, "testcase") == 0;
			c->failures += strcmp(name, "failure") == 0;
			c->skipped += strcmp(name, "skipped") == 0;
			if (!empty) {
				assert_true(depth < 16);
				snprintf(stack[depth++], sizeof stack[0], "%s",
				    name);
			}
		}
		p = e + 1;
	}
	assert_int_equal(depth, 0);
}

static void
test_junit(void **state)
{
	struct xml_counts	c;
	char			*s;

	(void)state;
	s = render(REPORT_JUNIT, NULL);
	xml_walk(s, &c);
	assert_int_equal(c.suites, 2);
	assert_int_equal(c.cases, 16);
	assert_int_equal(c.failures, 6);
	assert_non_null(strstr(s, "<testsuites name=\"labrat run 2\" "
	    "tests=\"16\" failures=\"6\">"));
	assert_non_null(strstr(s, "name=\"TSO off -&gt; on @ mtu=9000\""));
	free(s);
}

static void
test_compare(void **state)
{
	struct report_compare_opts	 o;
	char				*out = NULL, err[512];
	size_t				 len = 0;
	FILE				*fp;
	int				 nreg;

	(void)state;
	memset(&o, 0, sizeof o);
	o.link = "em";
	fp = open_memstream(&out, &len);
	assert_int_equal(report_compare(dbpath, 1, 2, &o, fp, &nreg, err,
	    sizeof err), 0);
	fclose(fp);
	assert_int_equal(nreg, 1);
	assert_non_null(strstr(out, "x run 1 (r1)\n+ run 2 (r2)\n"));
	assert_non_null(strstr(out, "Difference at 95.0% confidence"));
	assert_non_null(strstr(out, "Summary: run 1 -> run 2, 4 series: 1 "
	    "regressions"));
	assert_null(strstr(out, "bce"));
	free(out);
	/* Unknown link: an error, not an empty success. */
	o.link = "ix";
	fp = open_memstream(&out, &len);
	assert_int_equal(report_compare(dbpath, 1, 2, &o, fp, &nreg, err,
	    sizeof err), -1);
	fclose(fp);
	free(out);
	assert_non_null(strstr(err, "no throughput_bps series in common"));
}

/* compare --format json: the text's series, counts and verdicts; the
 * comparisons as the run report's baseline.comparisons, with samples. */
static void
test_compare_json(void **state)
{
	struct report_compare_opts	 o;
	struct json_object		*root, *rep, *a, *b, *c, *v, *w;
	char				*out = NULL, *s, err[512];
	const char			*name;
	size_t				 len = 0, i, j, nreg = 0;
	FILE				*fp;
	int				 n;

	(void)state;
	memset(&o, 0, sizeof o);
	o.link = "em";
	o.format = REPORT_JSON;
	fp = open_memstream(&out, &len);
	assert_int_equal(report_compare(dbpath, 1, 2, &o, fp, &n, err,
	    sizeof err), 0);
	fclose(fp);
	assert_int_equal(n, 1);
	assert_non_null(root = json_tokener_parse(out));
	assert_true(json_object_object_get_ex(root, "run", &v));
	assert_int_equal(json_object_get_int64(v), 2);
	assert_true(json_object_object_get_ex(root, "baseline_run", &v));
	assert_int_equal(json_object_get_int64(v), 1);
	assert_true(json_object_object_get_ex(root, "metric", &v));
	assert_string_equal(json_object_get_string(v), "throughput_bps");
	assert_true(json_object_object_get_ex(root, "link", &v));
	assert_string_equal(json_object_get_string(v), "em");
	assert_true(json_object_object_get_ex(root, "knobs", &v));
	assert_null(v);
	assert_true(json_object_object_get_ex(root, "summary", &v));
	assert_true(json_object_object_get_ex(v, "series", &w));
	assert_int_equal(json_object_get_int64(w), 4);
	assert_true(json_object_object_get_ex(v, "regressions", &w));
	assert_int_equal(json_object_get_int64(w), 1);
	/* The same comparisons as `report --format json` makes of run 2. */
	s = render(REPORT_JSON, NULL);
	assert_non_null(rep = json_tokener_parse(s));
	assert_true(json_object_object_get_ex(rep, "baseline", &b));
	assert_true(json_object_object_get_ex(b, "comparisons", &b));
	assert_true(json_object_object_get_ex(root, "comparisons", &a));
	assert_int_equal(json_object_array_length(a), 4);
	for (i = 0; i < json_object_array_length(a); i++) {
		c = json_object_array_get_idx(a, i);
		assert_true(json_object_object_get_ex(c, "link", &v));
		assert_string_equal(json_object_get_string(v), "em");
		assert_true(json_object_object_get_ex(c, "verdict", &v));
		nreg += strcmp(json_object_get_string(v), "regression") == 0;
		assert_true(json_object_object_get_ex(c, "unit", &v));
		assert_string_equal(json_object_get_string(v), "bit/s");
		assert_true(json_object_object_get_ex(c, "values_baseline",
		    &v));
		assert_int_equal(json_object_array_length(v), 10);
		assert_true(json_object_get_double(json_object_array_get_idx(v,
		    0)) > 0.9e9);
		assert_true(json_object_object_get_ex(c, "values_candidate",
		    &v));
		assert_int_equal(json_object_array_length(v), 10);
		assert_true(json_object_object_get_ex(c, "name", &v));
		name = json_object_get_string(v);
		for (j = 0; j < json_object_array_length(b); j++) {
			w = json_object_array_get_idx(b, j);
			assert_true(json_object_object_get_ex(w, "name", &v));
			if (strcmp(json_object_get_string(v), name) != 0)
				continue;
			json_object_object_del(c, "unit");
			json_object_object_del(c, "values_baseline");
			json_object_object_del(c, "values_candidate");
			assert_true(json_object_equal(c, w));
			break;
		}
		assert_true(j < json_object_array_length(b));
	}
	assert_int_equal(nreg, 1);
	json_object_put(rep);
	json_object_put(root);
	free(s);
	free(out);
	/* Nothing in common: an error and no output (JSON or nothing). */
	o.link = "ix";
	out = NULL;
	fp = open_memstream(&out, &len);
	assert_int_equal(report_compare(dbpath, 1, 2, &o, fp, &n, err,
	    sizeof err), -1);
	fclose(fp);
	assert_int_equal(len, 0);
	free(out);
	assert_non_null(strstr(err, "no throughput_bps series in common "
	    "that match"));
	o.format = REPORT_CSV;
	assert_int_equal(report_compare(dbpath, 1, 2, &o, stdout, &n, err,
	    sizeof err), -1);
	assert_non_null(strstr(err, "the formats are text and json"));
}

/*
 * A second store for what a user meets after `labrat demo`: bisect steps
 * between the matrix runs, series of unequal n, a large effect, a small
 * inconclusive move.
 *   run 1 manual  r1: em tso off/on 1 Gbit/s n 10; ix tso off 1 Gbit/s n 10
 *   run 2 bisect  r2: em tso on n 5
 *   run 3 nightly r3: em tso off n 10, tso on -20 % n 6; ix tso off +20 %
 *                     n 2; bce tso off 50 Mbit/s, tso on 979 Mbit/s, n 5
 *   run 4 bisect  r4: em tso on n 5
 */
static char	db2[256];

static int64_t
run_with(struct store *st, const char *kind, const char *owner,
    const char *rev, int64_t *cf)
{
	struct store_run_spec	 spec;
	struct store_host_facts	 f;
	char			 err[512];
	int64_t			 run;

	memset(&spec, 0, sizeof spec);
	spec.kind = kind;
	spec.owner = owner;
	assert_int_equal(store_run_create(st, &spec, &run, err, sizeof err),
	    0);
	memset(&f, 0, sizeof f);
	f.host = "em-a";
	f.os = "freebsd";
	f.revision = rev;
	assert_int_equal(store_host_facts_add(st, run, &f, cf, err,
	    sizeof err), 0);
	return run;
}

static void
run_done(struct store *st, int64_t run)
{
	char	err[512];

	assert_int_equal(store_run_finish(st, run, STORE_RUN_DONE, NULL, err,
	    sizeof err), 0);
}

static int
setup2(void **state)
{
	struct store		*st = NULL;
	struct stats_rng	 rng;
	char			 err[512];
	int64_t			 run, cf;

	(void)state;
	fx_db_path(db2, sizeof db2, "report2");
	if (store_open(db2, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		return -1;
	stats_rng_seed(&rng, 5);
	run = run_with(st, "manual", NULL, "r1", &cf);
	series(st, &rng, run, "em", kn(0, 0, NULL), 1e9, 10, cf);
	series(st, &rng, run, "em", kn(1, 0, NULL), 1e9, 10, cf);
	series(st, &rng, run, "ix", kn(0, 0, NULL), 1e9, 10, cf);
	run_done(st, run);
	run = run_with(st, "bisect", NULL, "r2", &cf);
	series(st, &rng, run, "em", kn(1, 0, NULL), 1e9, 5, cf);
	run_done(st, run);
	run = run_with(st, "nightly", NULL, "r3", &cf);
	series(st, &rng, run, "em", kn(0, 0, NULL), 1e9, 10, cf);
	series(st, &rng, run, "em", kn(1, 0, NULL), 0.8e9, 6, cf);
	series(st, &rng, run, "ix", kn(0, 0, NULL), 1.2e9, 2, cf);
	series(st, &rng, run, "bce", kn(0, 0, NULL), 0.05e9, 5, cf);
	series(st, &rng, run, "bce", kn(1, 0, NULL), 0.979e9, 5, cf);
	run_done(st, run);
	run = run_with(st, "bisect", NULL, "r4", &cf);
	series(st, &rng, run, "em", kn(1, 0, NULL), 1e9, 5, cf);
	run_done(st, run);
	store_close(st);
	return 0;
}

static int
teardown2(void **state)
{
	(void)state;
	fx_db_remove(db2);
	return 0;
}

/* report_run() of db2 as a string; NULL with err when it fails. */
static char *
render2(int64_t run, int64_t base, enum report_format f, char *err,
    size_t errlen)
{
	char	*out = NULL;
	size_t	 len = 0;
	FILE	*fp = open_memstream(&out, &len);
	int	 rc;

	assert_non_null(fp);
	rc = report_run(db2, run, base, NULL, f, fp, NULL, err, errlen);
	fclose(fp);
	if (rc == -1) {
		free(out);
		return NULL;
	}
	return out;
}

static char *
render2_ok(int64_t run, int64_t base, enum report_format f)
{
	char	err[512], *s;

	if ((s = render2(run, base, f, err, sizeof err)) == NULL)
		fail_msg("%s", err);
	return s;
}

/* No RUN: the newest matrix run (3), not the bisect step after it (4);
 * its baseline is run 1, not the bisect step between them (2). */
static void
test_newest_not_bisect(void **state)
{
	struct json_object	*root, *o, *v;
	char			*s;

	(void)state;
	s = render2_ok(0, 0, REPORT_JSON);
	root = json_tokener_parse(s);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "run", &v));
	assert_int_equal(json_object_get_int64(v), 3);
	assert_true(json_object_object_get_ex(root, "baseline", &o));
	assert_true(json_object_object_get_ex(o, "run", &v));
	assert_int_equal(json_object_get_int64(v), 1);
	json_object_put(root);
	free(s);
	s = render2_ok(0, 0, REPORT_TEXT);
	assert_non_null(strstr(s, "labrat report: run 3 (nightly, done"));
	free(s);
	/* A bisect step named explicitly is still reported. */
	s = render2_ok(4, -1, REPORT_TEXT);
	assert_non_null(strstr(s, "labrat report: run 4 (bisect, done"));
	free(s);
}

/* n is a/b (baseline/candidate) in the findings as in the table. */
static void
test_n_order(void **state)
{
	char	*s;

	(void)state;
	s = render2_ok(3, 1, REPORT_TEXT);
	assert_non_null(strstr(s, "em iperf3: TSO on is 2"));
	assert_non_null(strstr(s, "% slower than TSO off (p < 0.001, n = "
	    "10/6)"));
	assert_null(strstr(s, "n = 6/10"));
	assert_non_null(strstr(s, " 10/6\n"));
	free(s);
}

/* The offset in line of the first s in it, or -1. */
static long
col_of(const char *line, const char *s)
{
	const char	*eol = strchr(line, '\n'), *p = strstr(line, s);

	return p == NULL || (eol != NULL && p > eol) ? -1 : p - line;
}

/* A +1853 % effect does not push the columns after it out of line. */
static void
test_columns(void **state)
{
	char		*s;
	const char	*hdr, *row;

	(void)state;
	s = render2_ok(3, 1, REPORT_TEXT);
	assert_non_null(hdr = strstr(s, "Link bce"));
	assert_non_null(hdr = strstr(hdr, "  comparison "));
	assert_non_null(row = strstr(hdr, "\n  TSO off -> on "));
	row++;
	assert_true(col_of(row, "improvement") > 0);
	assert_true(col_of(row, " %  [+") > 0);
	assert_int_equal(col_of(hdr, "CI of ratio"), col_of(row, "[+"));
	assert_int_equal(col_of(hdr, "verdict"), col_of(row, "improvement"));
	/* The effect column is right-aligned: its ends line up. */
	assert_int_equal(col_of(hdr, "effect") + 6, col_of(row, " %  [") + 2);
	free(s);
}

/*
 * Run over run names both runs' revisions and lists the series that
 * moved: the regression, and the +20 % on 2 samples that is inconclusive;
 * not the series that did not move.  --no-baseline says so.
 */
static void
test_run_over_run(void **state)
{
	char		*s;
	const char	*ror, *end;

	(void)state;
	s = render2_ok(3, 0, REPORT_TEXT);
	assert_non_null(ror = strstr(s, "Run over run: run 3 (r3) against "
	    "run 1 (r1)\n"));
	assert_non_null(end = strstr(ror, "\n\n"));
	assert_non_null(strstr(ror, "  em  tso=on   iperf3  regression    "
	    "ratio 0.8"));
	assert_non_null(strstr(ror, "% slower  (p < 0.001, n = 10/6)\n"));
	assert_non_null(strstr(ror, "  ix  tso=off  iperf3  inconclusive  "
	    "ratio 1.2"));
	assert_non_null(strstr(ror, "(p = 0.0"));
	assert_non_null(strstr(ror, "n = 10/2)\n"));
	assert_true(strstr(ror, "em  tso=off") == NULL ||
	    strstr(ror, "em  tso=off") > end);
	assert_non_null(strstr(ror, "3 series compared, 1 changed, 1 moved "
	    "3 % or more but inconclusive"));
	free(s);
	s = render2_ok(3, -1, REPORT_TEXT);
	assert_non_null(strstr(s, "Run over run: baseline off\n"));
	assert_null(strstr(s, "no earlier"));
	free(s);
}

/* A new run in db2 with n queued jobs on em and nothing measured. */
static int64_t
queued_run(const char *owner, int n)
{
	struct store		*st = NULL;
	struct store_job_spec	 spec;
	char			 err[512];
	int64_t			 run, cf;
	int			 i;

	assert_int_equal(store_open(db2, STORE_OPEN_MIGRATE, &st, err,
	    sizeof err), 0);
	run = run_with(st, "manual", owner, "r5", &cf);
	for (i = 0; i < n; i++) {
		memset(&spec, 0, sizeof spec);
		spec.link = "em";
		spec.knobs = kn(i % 2, 0, NULL);
		spec.tool = "iperf3";
		spec.params = "iperf3:len=128k,nodelay=on,time=2";
		spec.repetition = i / 2;
		assert_int_equal(store_jobs_add(st, run, &spec, 1, err,
		    sizeof err), 0);
	}
	store_close(st);
	return run;
}

/* A run with nothing measured says so instead of printing empty tables. */
static void
test_no_samples(void **state)
{
	char	*s;
	int64_t	 run;

	(void)state;
	run = queued_run(NULL, 6);
	s = render2_ok(run, 0, REPORT_TEXT);
	assert_non_null(strstr(s, "\nrun 5: no samples (0 of 6 jobs done)\n"));
	assert_null(strstr(s, "Findings"));
	assert_null(strstr(s, "Run over run"));
	assert_null(strstr(s, "Link "));
	free(s);
}

/* "hostname:pid" of a process that has exited. */
static void
dead_owner(char *owner, size_t len)
{
	char	host[64];
	pid_t	pid;

	assert_int_equal(gethostname(host, sizeof host), 0);
	host[sizeof host - 1] = '\0';
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	snprintf(owner, len, "%s:%ld", host, (long)pid);
}

/* A run left running by a controller that died is shown interrupted; a
 * live owner or one on another host leaves it running. */
static void
test_interrupted(void **state)
{
	char	 owner[128], host[64], *s;
	int64_t	 run;

	(void)state;
	dead_owner(owner, sizeof owner);
	assert_int_equal(report_owner_gone(owner), 1);
	run = queued_run(owner, 4);
	s = render2_ok(run, 0, REPORT_TEXT);
	assert_non_null(strstr(s, "(manual, interrupted, "));
	free(s);
	assert_int_equal(gethostname(host, sizeof host), 0);
	host[sizeof host - 1] = '\0';
	snprintf(owner, sizeof owner, "%s:%ld", host, (long)getpid());
	assert_int_equal(report_owner_gone(owner), 0);
	run = queued_run(owner, 4);
	s = render2_ok(run, 0, REPORT_TEXT);
	assert_non_null(strstr(s, "(manual, running, "));
	free(s);
	assert_int_equal(report_owner_gone("elsewhere.example:1"), 0);
	assert_int_equal(report_owner_gone("t"), 0);
	assert_int_equal(report_owner_gone(NULL), 0);
}

/* `labrat runs` over db2: the table, a note, the JSON page. */
static void
test_runs(void **state)
{
	struct json_object	*json, *root, *o, *v;
	struct store		*st = NULL;
	char			*out = NULL, err[512];
	size_t			 len = 0;
	FILE			*fp;

	(void)state;
	assert_int_equal(store_open(db2, 0, &st, err, sizeof err), 0);
	assert_int_equal(store_run_set_note(st, 3, "first night with r3",
	    err, sizeof err), 0);
	store_close(st);
	fp = open_memstream(&out, &len);
	assert_int_equal(report_runs(db2, 0, REPORT_TEXT, fp, err,
	    sizeof err), 0);
	fclose(fp);
	assert_true(strncmp(out, "id  kind     state        started (UTC)"
	    "     revision  links       jobs  plan\n", 73) == 0);
	assert_non_null(strstr(out, "\n 7  manual   running      "));
	assert_non_null(strstr(out, "\n 6  manual   interrupted  "));
	assert_non_null(strstr(out, "\n 4  bisect   done         "));
	assert_non_null(strstr(out, "  r3        "));
	assert_non_null(strstr(out, "  28/28  -\n"));
	assert_non_null(strstr(out, "\nnotes:\n  3: first night with r3\n"));
	free(out);
	out = render2_ok(3, 0, REPORT_TEXT);
	assert_non_null(strstr(out, ", metric throughput_bps: throughput of "
	    "the transfer, bit/s; higher is better\nnote: first night with "
	    "r3\nverdicts: "));
	free(out);
	out = NULL;
	fp = open_memstream(&out, &len);
	assert_int_equal(report_runs(db2, 5, REPORT_JSON, fp, err,
	    sizeof err), 0);
	fclose(fp);
	json = json_tokener_parse(out);
	assert_non_null(json);
	/* A full page: its last id is the next page's cursor. */
	assert_true(json_object_object_get_ex(json, "next_after", &v));
	assert_int_equal(json_object_get_int64(v), 3);
	assert_true(json_object_object_get_ex(json, "runs", &root));
	assert_int_equal(json_object_array_length(root), 5);
	o = json_object_array_get_idx(root, 1);
	assert_true(json_object_object_get_ex(o, "id", &v));
	assert_int_equal(json_object_get_int64(v), 6);
	assert_true(json_object_object_get_ex(o, "state", &v));
	assert_string_equal(json_object_get_string(v), "interrupted");
	assert_true(json_object_object_get_ex(o, "jobs", &v));
	assert_true(json_object_object_get_ex(v, "queued", &v));
	assert_int_equal(json_object_get_int64(v), 4);
	o = json_object_array_get_idx(root, 4);
	assert_true(json_object_object_get_ex(o, "note", &v));
	assert_string_equal(json_object_get_string(v), "first night with r3");
	assert_true(json_object_object_get_ex(o, "revisions", &v));
	assert_int_equal(json_object_array_length(v), 1);
	assert_true(json_object_object_get_ex(o, "links", &v));
	assert_int_equal(json_object_array_length(v), 3);
	assert_true(json_object_object_get_ex(o, "created_ms", &v));
	assert_true(json_object_get_int64(v) > 0);
	json_object_put(json);
	free(out);
	/* All of them: no next page. */
	out = NULL;
	fp = open_memstream(&out, &len);
	assert_int_equal(report_runs(db2, 0, REPORT_JSON, fp, err,
	    sizeof err), 0);
	fclose(fp);
	json = json_tokener_parse(out);
	assert_true(json_object_object_get_ex(json, "next_after", &v));
	assert_true(json_object_is_type(v, json_type_null));
	assert_true(json_object_object_get_ex(json, "runs", &root));
	assert_int_equal(json_object_array_length(root), 7);
	json_object_put(json);
	free(out);
	assert_int_equal(report_runs(db2, 0, REPORT_CSV, stdout, err,
	    sizeof err), -1);
}

static void
test_format_parse(void **state)
{
	enum report_format	f;

	(void)state;
	assert_int_equal(report_format_parse("junit", &f), 0);
	assert_int_equal(f, REPORT_JUNIT);
	assert_int_equal(report_format_parse("xml", &f), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_junit),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_compare_json),
		cmocka_unit_test(test_format_parse),
	};

	const struct CMUnitTest tests2[] = {
		cmocka_unit_test(test_newest_not_bisect),
		cmocka_unit_test(test_n_order),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_run_over_run),
		cmocka_unit_test(test_no_samples),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_runs),
	};
	int	rc;

	rc = cmocka_run_group_tests(tests, setup, teardown);
	return rc + cmocka_run_group_tests(tests2, setup2, teardown2);
}
