-- labrat schema version 14:
-- a run's stored verdicts (issue 14: the API serves them instead of
-- recomputing bootstrap CIs per request).  report is exactly what
-- `labrat report RUN --format json` printed with the default options
-- (default baseline, throughput_bps) when the run finished: the run module
-- writes it at every finish (a resumed run's finish rewrites it).  format
-- is the version of report_json()'s output it was written by (a labrat
-- whose JSON differs ignores the row and recomputes).  baseline_run is the
-- run it was judged against (NULL: none found); regressions how many it
-- found, within the run and run over run (what `labrat report
-- --fail-on-regression` exits on).  When a run is resumed or
-- finishes, the rows of later runs that share a link with it are deleted:
-- their default baseline (the newest earlier done run on the same pairs)
-- may have become, or stopped being, that run.  Times are milliseconds
-- since the epoch.

CREATE TABLE run_verdicts (
	run_id		INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
	format		INTEGER NOT NULL,
	baseline_run	INTEGER,
	regressions	INTEGER NOT NULL DEFAULT 0,
	stored_ms	INTEGER NOT NULL,
	report		TEXT NOT NULL
);

-- The job counts per state of a run (GET /api/v1/runs counts them for each
-- run it lists, `labrat runs` too) read from this index alone: jobs_claim
-- has no failure_class, so every job of every listed run was a table row
-- lookup (api_bench: 40,000 a page on the year-long store).
CREATE INDEX jobs_counts ON jobs (run_id, state, failure_class, link);
