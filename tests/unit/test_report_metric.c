/*
 * test_report_metric: a report of a lower-is-better metric.  Run 1 holds
 * the sender's CPU at 40 % everywhere; in run 2 TSO on at MTU 9000 takes
 * 55 % less CPU on em (an improvement) and TSO on with NAT costs 55 % more
 * on bce (the regression).  Throughput stays at 1 Gbit/s in both runs.
 * The findings, JUnit failures, JSON and compare must call the drop an
 * improvement and the rise the regression, and name the metric and its
 * direction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "report.h"
#include "store_fixture.h"

static char	dbpath[256];

/* n jobs of k, each with throughput 1 Gbit/s and cpu_sender = cpu. */
static void
jobs(struct store *st, struct stats_rng *rng, int64_t run, const char *link,
    struct knobs k, double cpu, int n)
{
	struct store_job_spec	spec;
	struct store_job	job;
	struct store_job_result	r;
	struct store_sample	s[2] = { { "throughput_bps", 0, "bit/s", 0 },
				    { "cpu_sender", 0, "%", 0 } };
	char			err[512];
	int			i;

	for (i = 0; i < n; i++) {
		memset(&spec, 0, sizeof spec);
		spec.link = link;
		spec.knobs = k;
		spec.tool = "iperf3";
		spec.params = "iperf3:time=2";
		spec.repetition = i;
		assert_int_equal(store_jobs_add(st, run, &spec, 1, err,
		    sizeof err), 0);
		assert_int_equal(store_job_claim(st, run, link, "t", &job, err,
		    sizeof err), 1);
		memset(&r, 0, sizeof r);
		s[0].value = 1e9 * (1 + 0.005 * stats_rng_normal(rng));
		s[1].value = cpu * (1 + 0.01 * stats_rng_normal(rng));
		r.state = STORE_JOB_DONE;
		r.samples = s;
		r.nsamples = 2;
		assert_int_equal(store_job_finish(st, job.id, &r, err,
		    sizeof err), 0);
	}
}

static int
setup(void **state)
{
	struct store		*st = NULL;
	struct store_run_spec	 spec;
	struct stats_rng	 rng;
	char			 err[512];
	int64_t			 run;
	int			 r, t, x;

	(void)state;
	fx_db_path(dbpath, sizeof dbpath, "report_metric");
	if (store_open(dbpath, STORE_OPEN_CREATE | STORE_OPEN_MIGRATE, &st,
	    err, sizeof err) == -1)
		return -1;
	stats_rng_seed(&rng, 9);
	for (r = 1; r <= 2; r++) {
		memset(&spec, 0, sizeof spec);
		spec.kind = "nightly";
		assert_int_equal(store_run_create(st, &spec, &run, err,
		    sizeof err), 0);
		for (t = 0; t <= 1; t++)
			for (x = 0; x <= 1; x++) {
				jobs(st, &rng, run, "em", kn(t, x ? 9000 :
				    1500, NULL), r == 2 && t && x ? 18 : 40, 10);
				jobs(st, &rng, run, "bce", kn(t, 0, x ?
				    "kernel" : "off"), r == 2 && t && x ? 62 :
				    40, 10);
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

static char *
render(const char *metric, enum report_format f, int *nreg)
{
	char	*out = NULL, err[512];
	size_t	 len = 0;
	FILE	*fp = open_memstream(&out, &len);

	assert_non_null(fp);
	if (report_run(dbpath, 2, 0, metric, f, fp, nreg, err,
	    sizeof err) == -1)
		fail_msg("%s", err);
	fclose(fp);
	return out;
}

/* The findings section alone (up to the blank line that ends it). */
static char *
findings(const char *s)
{
	const char	*a = strstr(s, "Findings\n"), *b;

	assert_non_null(a);
	b = strstr(a, "\n\n");
	assert_non_null(b);
	return strndup(a, (size_t)(b - a));
}

static void
test_text(void **state)
{
	char	*s, *f;
	int	 nreg;

	(void)state;
	s = render("cpu_sender", REPORT_TEXT, &nreg);
	/* bce's rise: two within the run (TSO at NAT kernel, NAT at TSO
	 * on) and run over run; em's drop is none. */
	assert_int_equal(nreg, 3);
	assert_non_null(strstr(s, ", metric cpu_sender: busy CPU (user + "
	    "system), %, measured on the sender; lower is better\n"));
	f = findings(s);
	assert_non_null(strstr(f, "bce iperf3: TSO on with NAT kernel has "));
	assert_non_null(strstr(f, " % higher cpu_sender than TSO off (p < "
	    "0.001, n = 10/10)"));
	assert_null(strstr(f, "em iperf3"));
	assert_null(strstr(f, "lower cpu_sender"));
	free(f);
	/* The drop is in the tables as what it is. */
	assert_non_null(strstr(s, "TSO off -> on @ mtu=9000    improvement  "
	    "-5"));
	assert_non_null(strstr(s, "TSO off -> on @ nat=kernel   regression  "
	    "+5"));
	assert_non_null(strstr(s, "improvement  ratio 0.4"));
	assert_non_null(strstr(s, " % lower cpu_sender   (p < 0.001"));
	free(s);
	/* The same runs judged by throughput: nothing changed. */
	s = render(NULL, REPORT_TEXT, &nreg);
	assert_int_equal(nreg, 0);
	assert_non_null(strstr(s, ", metric throughput_bps: throughput of "
	    "the transfer, bit/s; higher is better\n"));
	assert_non_null(strstr(s, "no regression between knob combinations"));
	free(s);
}

static void
test_junit(void **state)
{
	char	*s, *em;
	int	 nreg;

	(void)state;
	s = render("cpu_sender", REPORT_JUNIT, &nreg);
	assert_non_null(strstr(s, "failures=\"3\">"));
	assert_non_null(strstr(s, "<testsuite name=\"run 2: knob comparisons "
	    "of cpu_sender (lower is better)\" tests=\"8\" failures=\"2\""));
	assert_non_null(strstr(s, "<testsuite name=\"run 2 against run 1: "
	    "cpu_sender (lower is better)\" tests=\"8\" failures=\"1\""));
	/* em's TSO at MTU 9000: an improvement, no failure. */
	em = strstr(s, "classname=\"labrat.em.iperf3\" name=\"TSO off -&gt; "
	    "on @ mtu=9000\"");
	assert_non_null(em);
	em = strndup(em, (size_t)(strstr(em, "</testcase>") - em));
	assert_null(strstr(em, "<failure"));
	assert_non_null(strstr(em, "<system-out>improvement: 5"));
	assert_non_null(strstr(em, " % lower cpu_sender (p &lt; 0.001"));
	free(em);
	assert_non_null(strstr(s, "<failure type=\"regression\" message="
	    "\"regression: 5"));
	free(s);
}

static void
test_json(void **state)
{
	struct json_object	*o, *v;
	char			*s;
	int			 nreg;

	(void)state;
	s = render("cpu_sender", REPORT_JSON, &nreg);
	o = json_tokener_parse(s);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "metric", &v));
	assert_string_equal(json_object_get_string(v), "cpu_sender");
	assert_true(json_object_object_get_ex(o, "lower_is_better", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(o, "metric_host", &v));
	assert_string_equal(json_object_get_string(v), "sender");
	assert_true(json_object_object_get_ex(o, "triggers", &v));
	assert_int_equal(json_object_array_length(v), 1);
	v = json_object_array_get_idx(v, 0);
	assert_true(json_object_object_get_ex(v, "link", &v));
	assert_string_equal(json_object_get_string(v), "bce");
	json_object_put(o);
	free(s);
	s = render(NULL, REPORT_JSON, &nreg);
	o = json_tokener_parse(s);
	assert_true(json_object_object_get_ex(o, "lower_is_better", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(o, "metric_host", &v));
	assert_null(v);
	json_object_put(o);
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
	o.metric = "cpu_sender";
	fp = open_memstream(&out, &len);
	assert_int_equal(report_compare(dbpath, 1, 2, &o, fp, &nreg, err,
	    sizeof err), 0);
	fclose(fp);
	assert_int_equal(nreg, 1);
	assert_non_null(strstr(out, "metric cpu_sender: busy CPU (user + "
	    "system), %, measured on the sender; lower is better\n"));
	assert_non_null(strstr(out, "Summary: run 1 -> run 2, 8 series: 1 "
	    "regressions, 1 improvements, 6 no change"));
	free(out);
	/* A metric nobody knows: refused, naming what to declare. */
	o.metric = "latency_us";
	fp = open_memstream(&out, &len);
	assert_int_equal(report_compare(dbpath, 1, 2, &o, fp, &nreg, err,
	    sizeof err), -1);
	fclose(fp);
	free(out);
	assert_non_null(strstr(err, "metric latency_us: direction unknown"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_junit),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_compare),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
