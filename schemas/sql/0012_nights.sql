-- labrat schema version 12:
-- the nightly loop (night module).  A night is
-- one firing of a schedule (schedule_id + slot, unique: a restarted daemon
-- continues the same night row), with the step it reached (state), the
-- revision it measured, the last good night it was compared with, its run
-- and its confirming re-run, whether it is itself good (no regression
-- against its baseline: the next nights compare with it) and its verdicts
-- (JSON).  A regression is one record per link + knobs + workload + metric
-- + direction while it is not fixed (the partial unique index): a later
-- night showing it joins the record, so it is bisected once.  notified is
-- the state whose notification was delivered (NULL: none yet), marked after
-- delivery so that an undelivered one is sent again on the next firing.

CREATE TABLE nights (
	id		INTEGER PRIMARY KEY,
	schedule_id	INTEGER NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
	slot		INTEGER NOT NULL,
	links		TEXT NOT NULL DEFAULT '',
	state		TEXT NOT NULL DEFAULT 'started'
			CHECK (state IN ('started', 'revision', 'installed',
			    'ran', 'detected', 'confirmed', 'bisecting',
			    'done', 'failed')),
	revision	TEXT,
	good_night	INTEGER REFERENCES nights (id),
	run_id		INTEGER REFERENCES runs (id),
	confirm_run_id	INTEGER REFERENCES runs (id),
	good		INTEGER NOT NULL DEFAULT 0 CHECK (good IN (0, 1)),
	verdicts	TEXT,
	reason		TEXT,
	created_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	UNIQUE (schedule_id, slot)
);
CREATE INDEX nights_good ON nights (links, good, id);

CREATE TABLE regressions (
	id		INTEGER PRIMARY KEY,
	link		TEXT NOT NULL,
	knobs		TEXT NOT NULL,
	workload	TEXT NOT NULL,
	metric		TEXT NOT NULL,
	direction	TEXT NOT NULL CHECK (direction IN ('down', 'up')),
	state		TEXT NOT NULL DEFAULT 'open'
			CHECK (state IN ('open', 'confirmed', 'bisecting',
			    'culprit', 'range', 'failed', 'fixed')),
	schedule_id	INTEGER REFERENCES schedules (id) ON DELETE SET NULL,
	first_night	INTEGER REFERENCES nights (id),
	last_night	INTEGER REFERENCES nights (id),
	good_revision	TEXT,
	bad_revision	TEXT,
	change		REAL,
	bisect_id	INTEGER REFERENCES bisects (id),
	culprit		TEXT,
	range_first	TEXT,
	range_last	TEXT,
	reason		TEXT,
	notified	TEXT,
	created_at	INTEGER NOT NULL,
	updated_at	INTEGER NOT NULL
);
CREATE UNIQUE INDEX regressions_active ON regressions
	(link, knobs, workload, metric, direction) WHERE state != 'fixed';
