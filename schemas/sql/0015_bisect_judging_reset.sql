-- labrat schema version 15: how a bisect judges a step, stored with it,
-- and the queue kind 'reset' (store_bisect.c, store_queue.c).
--
-- bisects.threshold and lower_is_better: what hunt_test_judging() settles
-- from the bisect's stored test (test_text), so that GET /api/v1/bisects
-- lists a page of them without parsing every bisect's test again.  judged
-- says whether they were settled: 0 not yet (the list settles and stores
-- them when it first shows the bisect: a parse per bisect, once), 1 yes
-- (both NULL: it cannot be told, the test is not stored or no longer
-- parses).  A bisect without a stored test is settled here.

ALTER TABLE bisects ADD COLUMN judged INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bisects ADD COLUMN threshold REAL;
ALTER TABLE bisects ADD COLUMN lower_is_better INTEGER;
UPDATE bisects SET judged = 1 WHERE test_text IS NULL;

-- queue_items.kind 'reset': POST /api/v1/bisects/{id}/reset queues the
-- reset (payload {"bisect": ID}, bisect_id set) for the daemon's worker,
-- which puts the hosts back and marks the bisect reset.  SQLite changes a
-- CHECK by rebuilding the table (foreign keys are off around a migration;
-- no table references queue_items).
CREATE TABLE queue_items_new (
	id		INTEGER PRIMARY KEY,
	kind		TEXT NOT NULL
			CHECK (kind IN ('run', 'bisect', 'night', 'health',
			    'reset')),
	priority	INTEGER NOT NULL,
	state		TEXT NOT NULL DEFAULT 'queued'
			CHECK (state IN ('queued', 'running', 'done', 'failed',
			    'cancelled')),
	payload		TEXT NOT NULL,
	who		TEXT NOT NULL,
	owner		TEXT,
	owner_host	TEXT,
	owner_pid	INTEGER,
	owner_start	INTEGER,
	owner_since	INTEGER,
	result		TEXT,
	schedule_id	INTEGER,
	slot		INTEGER,
	run_id		INTEGER REFERENCES runs (id) ON DELETE SET NULL,
	bisect_id	INTEGER REFERENCES bisects (id) ON DELETE SET NULL,
	enqueued_at	INTEGER NOT NULL,
	started_at	INTEGER,
	finished_at	INTEGER,
	attempts	INTEGER NOT NULL DEFAULT 0
);
INSERT INTO queue_items_new (id, kind, priority, state, payload, who, owner,
    owner_host, owner_pid, owner_start, owner_since, result, schedule_id,
    slot, run_id, bisect_id, enqueued_at, started_at, finished_at, attempts)
    SELECT id, kind, priority, state, payload, who, owner, owner_host,
    owner_pid, owner_start, owner_since, result, schedule_id, slot, run_id,
    bisect_id, enqueued_at, started_at, finished_at, attempts
    FROM queue_items;
DROP TABLE queue_items;
ALTER TABLE queue_items_new RENAME TO queue_items;
CREATE INDEX queue_claim ON queue_items (state, priority DESC, id);
CREATE UNIQUE INDEX queue_firing ON queue_items (schedule_id, slot)
    WHERE schedule_id IS NOT NULL;
-- The reset items of a bisect (one queued or running at a time).
CREATE INDEX queue_bisect ON queue_items (bisect_id) WHERE bisect_id IS NOT NULL;
