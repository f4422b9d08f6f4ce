-- labrat schema version 2: bisects and schedules, and the runs they start.

CREATE TABLE schedules (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	cron		TEXT NOT NULL,
	inventory_path	TEXT NOT NULL,
	plan_path	TEXT NOT NULL,
	enabled		INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
	created_at	INTEGER NOT NULL,
	last_run_at	INTEGER,
	last_run_id	INTEGER REFERENCES runs (id) ON DELETE SET NULL,
	next_run_at	INTEGER
);
CREATE INDEX schedules_next ON schedules (enabled, next_run_at);

CREATE TABLE bisects (
	id		INTEGER PRIMARY KEY,
	state		TEXT NOT NULL DEFAULT 'running'
			CHECK (state IN ('running', 'done', 'failed', 'reset')),
	created_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	link		TEXT NOT NULL,
	knobs		TEXT NOT NULL,
	tool		TEXT NOT NULL,
	params		TEXT NOT NULL DEFAULT '',
	metric		TEXT NOT NULL,
	good		TEXT NOT NULL,
	bad		TEXT NOT NULL,
	revisions	TEXT NOT NULL DEFAULT '',
	inventory_path	TEXT,
	plan_path	TEXT,
	culprit		TEXT,
	confidence	REAL,
	reason		TEXT
);
CREATE INDEX bisects_state ON bisects (state, created_at);

CREATE TABLE bisect_steps (
	id		INTEGER PRIMARY KEY,
	bisect_id	INTEGER NOT NULL REFERENCES bisects (id) ON DELETE CASCADE,
	seq		INTEGER NOT NULL,
	revision	TEXT NOT NULL,
	run_id		INTEGER REFERENCES runs (id) ON DELETE SET NULL,
	verdict		TEXT NOT NULL DEFAULT ''
			CHECK (verdict IN ('', 'good', 'bad', 'skip',
			    'inconclusive')),
	n		INTEGER,
	median		REAL,
	baseline_median	REAL,
	ratio		REAL,
	p		REAL,
	created_at	INTEGER NOT NULL,
	updated_at	INTEGER NOT NULL,
	UNIQUE (bisect_id, seq)
);
CREATE INDEX bisect_steps_revision ON bisect_steps (revision);

ALTER TABLE runs ADD COLUMN schedule_id INTEGER
	REFERENCES schedules (id) ON DELETE SET NULL;
ALTER TABLE runs ADD COLUMN bisect_id INTEGER
	REFERENCES bisects (id) ON DELETE SET NULL;
CREATE INDEX runs_schedule ON runs (schedule_id, created_at);
CREATE INDEX runs_bisect ON runs (bisect_id);
