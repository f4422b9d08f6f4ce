-- labrat schema version 7: "interrupted" is a state of runs and bisects
-- (a store error, e.g. a full disk or a database locked past its busy
-- budget, stopped the controller: nothing was lost, resume it), and both
-- keep their owner as parts that tell a live controller from a dead one:
-- the host name, the pid, the process's start time (Linux: starttime of
-- /proc/PID/stat in clock ticks since boot, so a reused pid is not taken
-- for the owner) and since when it owns the row (ms).  NULL for rows
-- owned before: their owner text "host:pid" is all there is.
--
-- A CHECK constraint cannot be altered in SQLite: both tables are rebuilt
-- (store_migrate() runs every migration with foreign keys off and checks
-- them before it commits, so the DROP below cascades nothing).

CREATE TABLE runs_new (
	id		INTEGER PRIMARY KEY,
	kind		TEXT NOT NULL DEFAULT 'manual',
	state		TEXT NOT NULL DEFAULT 'running'
			CHECK (state IN ('running', 'done', 'failed', 'cancelled',
			    'interrupted')),
	created_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	owner		TEXT,
	reason		TEXT,
	inventory_path	TEXT,
	inventory_text	TEXT,
	plan_path	TEXT,
	plan_text	TEXT,
	schedule_id	INTEGER REFERENCES schedules (id) ON DELETE SET NULL,
	bisect_id	INTEGER REFERENCES bisects (id) ON DELETE SET NULL,
	note		TEXT,
	owner_host	TEXT,
	owner_pid	INTEGER,
	owner_start	INTEGER,
	owner_since	INTEGER
);
INSERT INTO runs_new (id, kind, state, created_at, finished_at, owner,
    reason, inventory_path, inventory_text, plan_path, plan_text,
    schedule_id, bisect_id, note)
SELECT id, kind, state, created_at, finished_at, owner, reason,
    inventory_path, inventory_text, plan_path, plan_text, schedule_id,
    bisect_id, note FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
CREATE INDEX runs_created ON runs (created_at);
CREATE INDEX runs_state ON runs (state);
CREATE INDEX runs_schedule ON runs (schedule_id, created_at);
CREATE INDEX runs_bisect ON runs (bisect_id);

CREATE TABLE bisects_new (
	id		INTEGER PRIMARY KEY,
	state		TEXT NOT NULL DEFAULT 'running'
			CHECK (state IN ('running', 'done', 'failed', 'reset',
			    'interrupted')),
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
	reason		TEXT,
	inventory_text	TEXT,
	test_text	TEXT,
	client_before	TEXT,
	server_before	TEXT,
	owner_host	TEXT,
	owner_pid	INTEGER,
	owner_start	INTEGER,
	owner_since	INTEGER
);
INSERT INTO bisects_new (id, state, created_at, finished_at, link, knobs,
    tool, params, metric, good, bad, revisions, inventory_path, plan_path,
    culprit, confidence, reason, inventory_text, test_text, client_before,
    server_before)
SELECT id, state, created_at, finished_at, link, knobs, tool, params,
    metric, good, bad, revisions, inventory_path, plan_path, culprit,
    confidence, reason, inventory_text, test_text, client_before,
    server_before FROM bisects;
DROP TABLE bisects;
ALTER TABLE bisects_new RENAME TO bisects;
CREATE INDEX bisects_state ON bisects (state, created_at);
