/*
 * report_verdict: a run's stored verdicts (schema 14, run_verdicts): the
 * report JSON with the default options written when the run finishes
 * (report_verdict_save(), called by the run module) and served by the API
 * (report_run_json()) instead of recomputing the bootstrap CIs of every
 * comparison per request.  See report.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_int.h"
#include "util.h"

/*
 * The JSON report_run(db, run_id, 0, NULL, REPORT_JSON, ...) writes, from
 * an open store: *json (heap) and *len, *baseline (0: none).  0 or -1.
 */
static int
verdict_json(struct store *st, int64_t run_id, char **json, size_t *len,
    int64_t *baseline, int *nreg, char *err, size_t errlen)
{
	struct detect_params	 p;
	struct detect_result	 res;
	FILE			*fp;
	int			 rc = -1;

	*json = NULL;
	*len = 0;
	memset(&res, 0, sizeof res);
	if ((fp = open_memstream(json, len)) == NULL) {
		util_seterr(err, errlen, "run %lld: stored verdicts: out of "
		    "memory", (long long)run_id);
		return -1;
	}
	if (report_params_run(st, run_id, NULL, &p, err, errlen) == 0 &&
	    detect_run(st, run_id, &p, &res, err, errlen) == 0 &&
	    detect_baseline(st, 0, &res, err, errlen) == 0 &&
	    report_write(st, &res, REPORT_JSON, fp, err, errlen) == 0)
		rc = 0;
	*baseline = res.baseline_run > 0 ? res.baseline_run : 0;
	*nreg = report_count_regressions(&res);
	detect_result_free(&res);
	if (fclose(fp) != 0 && rc == 0) {
		util_seterr(err, errlen, "run %lld: stored verdicts: out of "
		    "memory", (long long)run_id);
		rc = -1;
	}
	if (rc == -1) {
		free(*json);
		*json = NULL;
		*len = 0;
	}
	return rc;
}

int
report_verdict_save(struct store *st, int64_t run_id, char *err,
    size_t errlen)
{
	char	*json;
	size_t	 len;
	int64_t	 baseline;
	int	 rc, nreg;

	if (store_verdict_drop_from(st, run_id, NULL, err, errlen) == -1 ||
	    verdict_json(st, run_id, &json, &len, &baseline, &nreg, err,
	    errlen) == -1)
		return -1;
	rc = store_verdict_put(st, run_id, REPORT_VERDICT_FORMAT, baseline,
	    nreg, json, len, err, errlen);
	free(json);
	return rc;
}

int
report_run_json(struct store *st, const char *db_path, int64_t run_id,
    char **json, size_t *len, int *stored, int *regressions, char *err,
    size_t errlen)
{
	FILE	*fp;
	int64_t	 baseline;
	int	 format, r, rc;

	*stored = 0;
	r = store_verdict_get(st, run_id, json, len, &format, &baseline,
	    regressions, err, errlen);
	if (r == -1)
		return -1;
	if (r == 1 && format == REPORT_VERDICT_FORMAT) {
		*stored = 1;
		return 0;
	}
	free(*json);
	*json = NULL;
	*len = 0;
	if ((fp = open_memstream(json, len)) == NULL) {
		util_seterr(err, errlen, "report of run %lld: out of memory",
		    (long long)run_id);
		return -1;
	}
	rc = report_run(db_path, run_id, 0, NULL, REPORT_JSON, fp, regressions,
	    err, errlen);
	if (fclose(fp) != 0 && rc == 0) {
		util_seterr(err, errlen, "report of run %lld: out of memory",
		    (long long)run_id);
		rc = -1;
	}
	if (rc == -1) {
		free(*json);
		*json = NULL;
		*len = 0;
	}
	return rc;
}
