-- labrat schema version 10: the daemon's queue, its heartbeat and the
-- leases it holds on links (store_queue.c).
--
-- queue_items: one row per piece of work for `labrat serve` (a run, a
-- bisect, a schedule's firing, a health check), claimed best first
-- (priority descending, then oldest).  payload is a kind-specific JSON
-- object; who enqueued it ("user@host pid N", "schedule NAME"); owner the
-- daemon running it, as text and as parts (host, pid, start time: see
-- 0007) that tell a live daemon from a dead one.  A firing is keyed by
-- (schedule_id, slot): the same slot is never queued twice.  schedule_id
-- is no foreign key: removing a schedule keeps its firings' history.
-- Times are ms since the epoch, NULL = not yet.
CREATE TABLE queue_items (
	id		INTEGER PRIMARY KEY,
	kind		TEXT NOT NULL
			CHECK (kind IN ('run', 'bisect', 'night', 'health')),
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
CREATE INDEX queue_claim ON queue_items (state, priority DESC, id);
CREATE UNIQUE INDEX queue_firing ON queue_items (schedule_id, slot)
    WHERE schedule_id IS NOT NULL;

-- daemon: at most one row, the daemon serving this database: its owner
-- (text and parts), when it started, its last heartbeat, whether it is
-- stopping, and whether it has stopped (the row stays, so `labrat queue`
-- can say when a daemon last served).
CREATE TABLE daemon (
	id		INTEGER PRIMARY KEY CHECK (id = 1),
	owner		TEXT NOT NULL,
	owner_host	TEXT,
	owner_pid	INTEGER,
	owner_start	INTEGER,
	started_at	INTEGER NOT NULL,
	beat_at		INTEGER NOT NULL,
	stopping	INTEGER NOT NULL DEFAULT 0,
	stopped		INTEGER NOT NULL DEFAULT 0
);

-- link_leases: a link (host pair) held by one owner until expires_at,
-- renewed while held; a crashed daemon's lease lapses.
CREATE TABLE link_leases (
	link		TEXT PRIMARY KEY,
	owner		TEXT NOT NULL,
	owner_host	TEXT,
	owner_pid	INTEGER,
	owner_start	INTEGER,
	taken_at	INTEGER NOT NULL,
	expires_at	INTEGER NOT NULL
);
