/*
 * test_http_series: GET /api/v1/series, series/keys, nights/{id} and
 * hosts/{link}/health (http_res_series.c over store_series.c) called as
 * the server calls them, on a store_fixture store with known samples:
 * the exact median, quartiles (type 7: 10 20 30 40 -> q1 17.5, q3 32.5),
 * extremes and samples of each point; only done jobs, interval 0, the
 * metric asked, the link, knobs and workload asked; newest run first,
 * paged by run id; the revision from host facts or the night; the
 * regression mark of a night; the night's verdict per pair and records;
 * a link's history; hostile parameters (SQL metacharacters, missing
 * ones, huge limit).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "http_int.h"
#include "store_fixture.h"
#include "util.h"

#define WL	"iperf3:len=128k,time=2"
#define WLQ	"iperf3%3Alen%3D128k%2Ctime%3D2"

static char	dbpath[256];
static char	err[512];
static int64_t	run1, run2, run3, night2, regr;

static int64_t
run_new(struct store *st)
{
	struct store_run_spec	spec;
	int64_t			id;

	memset(&spec, 0, sizeof spec);
	spec.kind = "manual";
	spec.inventory_path = "inv.json";
	spec.plan_path = "plan.json";
	assert_int_equal(store_run_create(st, &spec, &id, err, sizeof err), 0);
	return id;
}

static int64_t
facts(struct store *st, int64_t run, const char *rev)
{
	struct store_host_facts	f;
	int64_t			id;

	memset(&f, 0, sizeof f);
	f.host = "em-a";
	f.os = "linux";
	f.revision = rev;
	f.ifname = "em0";
	f.driver = "em";
	f.knobs = "";
	assert_int_equal(store_host_facts_add(st, run, &f, &id, err,
	    sizeof err), 0);
	return id;
}

/* One job on link with knobs k: done with throughput v (plus a per-second
 * value and another metric, which the series must ignore), or failed. */
static void
job(struct store *st, int64_t run, const char *link, struct knobs k,
    double v, int done, int64_t cf)
{
	struct store_job_spec	spec;
	struct store_job	j;
	struct store_job_result	r;
	struct store_sample	s[3] = {
		{ "throughput_bps", v, "bit/s", 0 },
		{ "throughput_bps", v * 7, "bit/s", 1 },
		{ "retransmits", 99, "", 0 },
	};

	memset(&spec, 0, sizeof spec);
	spec.link = link;
	spec.knobs = k;
	spec.tool = "iperf3";
	spec.params = WL;
	assert_int_equal(store_jobs_add(st, run, &spec, 1, err, sizeof err),
	    0);
	assert_int_equal(store_job_claim(st, run, link, "t", &j, err,
	    sizeof err), 1);
	memset(&r, 0, sizeof r);
	r.state = done ? STORE_JOB_DONE : STORE_JOB_FAILED;
	r.reason = done ? NULL : "broken";
	r.failure_class = done ? STORE_FAIL_NONE : STORE_FAIL_TEST;
	r.samples = s;
	r.nsamples = done ? 3 : 1;
	r.client_facts_id = cf;
	assert_int_equal(store_job_finish(st, j.id, &r, err, sizeof err), 0);
}

/* A night (schedule nightly) whose run is run with revision rev, its
 * verdicts a regression of em tso=on and no change on bce, and the
 * regression record it opened. */
static void
night_of(struct store *st, int64_t run, const char *rev)
{
	struct store_sched	s = fx_sched("nightly", "0 3 * * *");
	struct store_night	n;
	struct store_regr	k;
	int64_t			sid;
	int			opened;

	s.plan_text = "{}";
	assert_int_equal(store_sched_add(st, &s, &sid, NULL, err,
	    sizeof err), 0);
	assert_int_equal(store_night_begin(st, sid, 1000, "", &n, err,
	    sizeof err), 1);
	free(n.state);
	n.state = xstrdup("done");
	n.revision = xstrdup(rev);
	n.run_id = run;
	n.verdicts = xstrdup("[{\"link\":\"em\",\"knobs\":\"tso=on\","
	    "\"workload\":\"" WL "\",\"metric\":\"throughput_bps\","
	    "\"verdict\":\"regression\",\"change\":-0.9},"
	    "{\"link\":\"bce\",\"knobs\":\"tso=on\",\"workload\":\"" WL "\","
	    "\"metric\":\"throughput_bps\",\"verdict\":\"no change\","
	    "\"change\":0.01}]");
	assert_int_equal(store_night_update(st, &n, err, sizeof err), 0);
	night2 = n.id;
	store_night_free(&n);
	memset(&k, 0, sizeof k);
	k.link = "em";
	k.knobs = "tso=on";
	k.workload = WL;
	k.metric = "throughput_bps";
	k.direction = "down";
	k.good_rev = "r1";
	k.bad_rev = (char *)rev;
	k.change = -0.9;
	k.schedule_id = sid;
	assert_int_equal(store_regr_join(st, &k, night2, &regr, &opened, err,
	    sizeof err), 0);
}

static int
setup(void **state)
{
	struct store	*st;
	int64_t		 f;

	if (fx_store_open(state, dbpath, sizeof dbpath, "http-series") == -1)
		return -1;
	st = *state;
	run1 = run_new(st);
	f = facts(st, run1, "r1");
	job(st, run1, "em", kn(1, 0, NULL), 30, 1, f);
	job(st, run1, "em", kn(1, 0, NULL), 10, 1, f);
	job(st, run1, "em", kn(1, 0, NULL), 555, 0, f);	/* failed */
	job(st, run1, "em", kn(1, 0, NULL), 40, 1, f);
	job(st, run1, "em", kn(1, 0, NULL), 20, 1, f);
	job(st, run1, "em", kn(0, 0, NULL), 1000, 1, f);	/* tso=off */
	job(st, run1, "bce", kn(1, 0, NULL), 2000, 1, f);	/* bce */
	run2 = run_new(st);
	job(st, run2, "em", kn(1, 0, NULL), 5, 1, 0);	/* no facts */
	job(st, run2, "em", kn(1, 0, NULL), 1, 1, 0);
	job(st, run2, "em", kn(1, 0, NULL), 3, 1, 0);
	run3 = run_new(st);				/* nothing of em */
	job(st, run3, "bce", kn(1, 0, NULL), 7, 1, 0);
	night_of(st, run2, "r2");
	return 0;
}

static int
teardown(void **state)
{
	return fx_store_close(state, dbpath);
}

/* GET target through the route table; the reply's JSON (status in
 * *status) or NULL when it is not JSON. */
static struct json_object *
get(struct store *st, const char *target, int *status)
{
	struct http_req		*req = calloc(1, sizeof *req);
	struct http_res		 res;
	const struct http_route	*r;
	struct json_object	*o;

	memset(&res, 0, sizeof res);
	req->method = "GET";
	req->st = st;
	assert_int_equal(http_uri_parse(target, strlen(target), &req->uri,
	    err, sizeof err), 0);
	r = http_route_find(req, &res);
	if (r != NULL)
		r->fn(req, &res);
	*status = res.status;
	o = json_tokener_parse(res.body);
	free(res.body);
	free(req);
	return o;
}

static struct json_object *
at(struct json_object *o, const char *path)
{
	char		buf[128], *tok, *save;
	struct json_object *v = o;

	snprintf(buf, sizeof buf, "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok != NULL && v != NULL;
	    tok = strtok_r(NULL, ".", &save)) {
		if (tok[0] >= '0' && tok[0] <= '9')
			v = json_object_array_get_idx(v, (size_t)atoi(tok));
		else if (!json_object_object_get_ex(v, tok, &v))
			v = NULL;
	}
	return v;
}

static double
num(struct json_object *o, const char *path)
{
	struct json_object	*v = at(o, path);

	if (v == NULL)
		fail_msg("no %s", path);
	return json_object_get_double(v);
}

static const char *
str(struct json_object *o, const char *path)
{
	struct json_object	*v = at(o, path);

	return v != NULL ? json_object_get_string(v) : NULL;
}

static size_t
len(struct json_object *o, const char *path)
{
	struct json_object	*v = at(o, path);

	assert_non_null(v);
	return json_object_array_length(v);
}

static void
test_points(void **state)
{
	struct json_object	*o;
	int			 status;

	o = get(*state, "/api/v1/series?link=em&knobs=tso%3Don&workload="
	    WLQ "&samples=1", &status);
	assert_int_equal(status, 200);
	assert_string_equal(str(o, "unit"), "bit/s");
	assert_int_equal(len(o, "points"), 2);
	/* Newest first: run2 (1 3 5 as 5 1 3), then run1 (10 20 30 40). */
	assert_int_equal((int64_t)num(o, "points.0.run"), run2);
	assert_int_equal((int64_t)num(o, "points.0.n"), 3);
	assert_true(num(o, "points.0.median") == 3);
	assert_true(num(o, "points.0.q1") == 2);
	assert_true(num(o, "points.0.q3") == 4);
	assert_true(num(o, "points.0.min") == 1);
	assert_true(num(o, "points.0.max") == 5);
	assert_true(num(o, "points.0.samples.0") == 5);
	assert_true(num(o, "points.0.samples.1") == 1);
	assert_true(num(o, "points.0.samples.2") == 3);
	assert_int_equal(len(o, "points.0.jobs"), 3);
	/* No host facts: the night's revision; its night. */
	assert_string_equal(str(o, "points.0.revision"), "r2");
	assert_int_equal((int64_t)num(o, "points.0.night"), night2);
	assert_int_equal((int64_t)num(o, "points.1.run"), run1);
	assert_int_equal((int64_t)num(o, "points.1.n"), 4);
	assert_true(num(o, "points.1.median") == 25);
	assert_true(num(o, "points.1.q1") == 17.5);
	assert_true(num(o, "points.1.q3") == 32.5);
	assert_true(num(o, "points.1.min") == 10);
	assert_true(num(o, "points.1.max") == 40);
	assert_true(num(o, "points.1.samples.0") == 30);
	assert_true(num(o, "points.1.samples.3") == 20);
	assert_string_equal(str(o, "points.1.revision"), "r1");
	assert_null(str(o, "points.1.night"));
	assert_null(str(o, "next_after"));
	/* The night's regression on em tso=on, this very series. */
	assert_int_equal(len(o, "marks"), 1);
	assert_string_equal(str(o, "marks.0.kind"), "regression");
	assert_int_equal((int64_t)num(o, "marks.0.run"), run2);
	assert_int_equal((int64_t)num(o, "marks.0.night"), night2);
	assert_int_equal((int64_t)num(o, "marks.0.regression"), regr);
	assert_string_equal(str(o, "marks.0.revision"), "r2");
	assert_true(json_object_get_boolean(at(o, "marks.0.series")));
	json_object_put(o);

	/* Without samples=1 there are none. */
	o = get(*state, "/api/v1/series?link=em&knobs=tso%3Don&workload="
	    WLQ, &status);
	assert_int_equal(status, 200);
	assert_null(at(o, "points.0.samples"));
	json_object_put(o);
	/* tso=off is its own series; another metric too. */
	o = get(*state, "/api/v1/series?link=em&knobs=tso%3Doff&workload="
	    WLQ, &status);
	assert_int_equal(len(o, "points"), 1);
	assert_true(num(o, "points.0.median") == 1000);
	json_object_put(o);
	o = get(*state, "/api/v1/series?link=em&knobs=tso%3Don&workload="
	    WLQ "&metric=retransmits", &status);
	assert_int_equal(len(o, "points"), 2);
	assert_true(num(o, "points.0.median") == 99);
	json_object_put(o);
}

static void
test_pages(void **state)
{
	struct json_object	*o;
	char			 t[256];
	int			 status;

	o = get(*state, "/api/v1/series?link=em&knobs=tso%3Don&workload="
	    WLQ "&limit=1", &status);
	assert_int_equal(len(o, "points"), 1);
	assert_int_equal((int64_t)num(o, "points.0.run"), run2);
	assert_int_equal((int64_t)num(o, "next_after"), run2);
	assert_int_equal(len(o, "marks"), 1);	/* run2's night */
	json_object_put(o);
	snprintf(t, sizeof t, "/api/v1/series?link=em&knobs=tso%%3Don&"
	    "workload=%s&limit=1&after=%lld", WLQ, (long long)run2);
	o = get(*state, t, &status);
	assert_int_equal(len(o, "points"), 1);
	assert_int_equal((int64_t)num(o, "points.0.run"), run1);
	assert_int_equal((int64_t)num(o, "next_after"), run1);
	assert_int_equal(len(o, "marks"), 0);
	json_object_put(o);
	snprintf(t, sizeof t, "/api/v1/series?link=em&knobs=tso%%3Don&"
	    "workload=%s&limit=1&after=%lld", WLQ, (long long)run1);
	o = get(*state, t, &status);
	assert_int_equal(len(o, "points"), 0);
	assert_null(str(o, "next_after"));
	json_object_put(o);
}

static void
test_hostile(void **state)
{
	struct json_object	*o;
	int			 status;

	/* Metacharacters are plain text: nothing matches. */
	o = get(*state, "/api/v1/series?link=em%27%20OR%20%271%27%3D%271&"
	    "knobs=%27%3B%20DROP%20TABLE%20jobs%3B%20--&workload=%25&"
	    "limit=99999999999", &status);
	assert_int_equal(status, 200);
	assert_int_equal(len(o, "points"), 0);
	assert_int_equal(len(o, "marks"), 0);
	json_object_put(o);
	o = get(*state, "/api/v1/series?link=nosuch&knobs=&workload=x",
	    &status);
	assert_int_equal(status, 200);
	assert_int_equal(len(o, "points"), 0);
	json_object_put(o);
	o = get(*state, "/api/v1/series?link=em&workload=x", &status);
	assert_int_equal(status, 400);
	assert_non_null(strstr(str(o, "error"), "knobs"));
	json_object_put(o);
	o = get(*state, "/api/v1/series?link=em&knobs=&workload=x&samples=2",
	    &status);
	assert_int_equal(status, 400);
	json_object_put(o);
	o = get(*state, "/api/v1/series?link=em&knobs=&workload=x&after=-1",
	    &status);
	assert_int_equal(status, 400);
	json_object_put(o);
	o = get(*state, "/api/v1/series?link=em&knobs=&workload=x&sql=1",
	    &status);
	assert_int_equal(status, 400);
	json_object_put(o);
}

static void
test_keys(void **state)
{
	struct json_object	*o;
	int			 status;

	o = get(*state, "/api/v1/series/keys?link=em", &status);
	assert_int_equal(status, 200);
	/* em: tso=off and tso=on, each throughput and retransmits. */
	assert_int_equal(len(o, "keys"), 4);
	assert_string_equal(str(o, "keys.0.knobs"), "tso=off");
	assert_string_equal(str(o, "keys.0.metric"), "retransmits");
	assert_string_equal(str(o, "keys.3.knobs"), "tso=on");
	assert_string_equal(str(o, "keys.3.workload"), WL);
	assert_string_equal(str(o, "keys.3.metric"), "throughput_bps");
	assert_string_equal(str(o, "keys.3.unit"), "bit/s");
	assert_int_equal((int64_t)num(o, "keys.3.runs"), 2);
	assert_int_equal((int64_t)num(o, "keys.3.last_run"), run2);
	json_object_put(o);
	o = get(*state, "/api/v1/series/keys?limit=3", &status);
	assert_int_equal(len(o, "keys"), 3);
	assert_string_equal(str(o, "keys.0.link"), "bce");
	assert_int_equal((int64_t)num(o, "next_after"), 3);
	json_object_put(o);
	o = get(*state, "/api/v1/series/keys?limit=3&after=3", &status);
	assert_int_equal(len(o, "keys"), 3);	/* 2 bce + 4 em */
	assert_string_equal(str(o, "keys.0.link"), "em");
	assert_null(str(o, "next_after"));
	json_object_put(o);
	o = get(*state, "/api/v1/series/keys?link=x%27%20OR%201%3D1",
	    &status);
	assert_int_equal(len(o, "keys"), 0);
	json_object_put(o);
}

static void
test_night(void **state)
{
	struct json_object	*o;
	char			 t[64];
	int			 status;

	snprintf(t, sizeof t, "/api/v1/nights/%lld", (long long)night2);
	o = get(*state, t, &status);
	assert_int_equal(status, 200);
	assert_string_equal(str(o, "revision"), "r2");
	assert_int_equal(len(o, "pairs"), 2);
	assert_string_equal(str(o, "pairs.0.link"), "em");
	assert_string_equal(str(o, "pairs.0.verdict"), "regression");
	assert_string_equal(str(o, "pairs.1.verdict"), "no change");
	assert_int_equal(len(o, "regressions"), 1);
	assert_int_equal((int64_t)num(o, "regressions.0.id"), regr);
	assert_true(json_object_get_boolean(at(o, "regressions.0.new")));
	assert_int_equal(len(o, "bisects"), 0);
	json_object_put(o);
	o = get(*state, "/api/v1/nights/999", &status);
	assert_int_equal(status, 404);
	json_object_put(o);
	o = get(*state, "/api/v1/nights/x", &status);
	assert_int_equal(status, 400);
	json_object_put(o);
}

static void
test_health(void **state)
{
	struct store_health_rec	 r;
	struct json_object	*o;
	char			 from[32], t[80];
	int			 status;
	int64_t			 first;

	memset(&r, 0, sizeof r);
	r.link = "em";
	r.who = "test";
	r.state = "good";
	r.why = "check passed";
	assert_int_equal(store_health_record(*state, &r, from, sizeof from,
	    err, sizeof err), 1);
	r.state = "bad";
	r.why = "em-b: connect refused";
	assert_int_equal(store_health_record(*state, &r, from, sizeof from,
	    err, sizeof err), 1);
	o = get(*state, "/api/v1/hosts/em/health?limit=1", &status);
	assert_int_equal(status, 200);
	assert_string_equal(str(o, "state"), "bad");
	assert_int_equal(len(o, "history"), 1);
	assert_string_equal(str(o, "history.0.from"), "good");
	assert_string_equal(str(o, "history.0.state"), "bad");
	first = (int64_t)num(o, "next_after");
	json_object_put(o);
	snprintf(t, sizeof t, "/api/v1/hosts/em/health?after=%lld",
	    (long long)first);
	o = get(*state, t, &status);
	assert_int_equal(len(o, "history"), 1);
	assert_string_equal(str(o, "history.0.state"), "good");
	assert_null(str(o, "next_after"));
	json_object_put(o);
	/* bce: jobs but never checked; nosuch: never seen. */
	o = get(*state, "/api/v1/hosts/bce/health", &status);
	assert_int_equal(status, 200);
	assert_string_equal(str(o, "state"), "unknown");
	assert_int_equal(len(o, "history"), 0);
	json_object_put(o);
	o = get(*state, "/api/v1/hosts/nosuch/health", &status);
	assert_int_equal(status, 404);
	json_object_put(o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_night),
		cmocka_unit_test(test_health),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
