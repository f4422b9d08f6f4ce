-- labrat schema version 1: hosts, runs, jobs and what they measured.
--
-- Timestamps are milliseconds since the epoch.  A job's knob combination is
-- kept both as columns (NULL = left as the host has it) and as the canonical
-- key text "mtu=9000,nat=off,tso=on" that reports group by.

CREATE TABLE hosts (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	os		TEXT,
	address		TEXT,
	first_seen	INTEGER NOT NULL,
	last_seen	INTEGER NOT NULL
);

CREATE TABLE runs (
	id		INTEGER PRIMARY KEY,
	kind		TEXT NOT NULL DEFAULT 'manual',
	state		TEXT NOT NULL DEFAULT 'running'
			CHECK (state IN ('running', 'done', 'failed', 'cancelled')),
	created_at	INTEGER NOT NULL,
	finished_at	INTEGER,
	owner		TEXT,
	reason		TEXT,
	inventory_path	TEXT,
	inventory_text	TEXT,
	plan_path	TEXT,
	plan_text	TEXT
);
CREATE INDEX runs_created ON runs (created_at);
CREATE INDEX runs_state ON runs (state);

-- What a host ran under during a run: recorded at the start and whenever it
-- changes, so every result names its kernel, driver, chip and settings.
CREATE TABLE host_facts (
	id		INTEGER PRIMARY KEY,
	run_id		INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	host_id		INTEGER NOT NULL REFERENCES hosts (id),
	recorded_at	INTEGER NOT NULL,
	os		TEXT,
	kernel_version	TEXT,
	revision	TEXT,
	ifname		TEXT,
	driver		TEXT,
	chip		TEXT,
	knobs		TEXT,
	facts_json	TEXT
);
CREATE INDEX host_facts_run ON host_facts (run_id, host_id);
CREATE INDEX host_facts_revision ON host_facts (revision);
CREATE INDEX host_facts_driver ON host_facts (driver, chip);

CREATE TABLE jobs (
	id		INTEGER PRIMARY KEY,
	run_id		INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	seq		INTEGER NOT NULL,
	link		TEXT NOT NULL,
	tso		INTEGER CHECK (tso IN (0, 1)),
	lro		INTEGER CHECK (lro IN (0, 1)),
	rxcsum		INTEGER CHECK (rxcsum IN (0, 1)),
	txcsum		INTEGER CHECK (txcsum IN (0, 1)),
	mtu		INTEGER CHECK (mtu BETWEEN 576 AND 65535),
	nat		TEXT CHECK (nat IN ('off', 'divert', 'kernel')),
	knobs		TEXT NOT NULL,
	tool		TEXT NOT NULL CHECK (tool IN ('iperf2', 'iperf3', 'scp')),
	params		TEXT NOT NULL DEFAULT '',
	repetition	INTEGER NOT NULL DEFAULT 0,
	state		TEXT NOT NULL DEFAULT 'queued'
			CHECK (state IN ('queued', 'running', 'done', 'failed',
			    'cancelled')),
	attempt		INTEGER NOT NULL DEFAULT 0,
	reason		TEXT,
	owner		TEXT,
	knobs_in_force	TEXT,
	client_facts_id	INTEGER REFERENCES host_facts (id),
	server_facts_id	INTEGER REFERENCES host_facts (id),
	queued_at	INTEGER NOT NULL,
	started_at	INTEGER,
	finished_at	INTEGER,
	UNIQUE (run_id, seq)
);
CREATE INDEX jobs_claim ON jobs (run_id, state, link, seq);
CREATE INDEX jobs_queue ON jobs (run_id, state, seq);
CREATE INDEX jobs_combination ON jobs (link, knobs, tool, params);
CREATE INDEX jobs_finished ON jobs (finished_at);
CREATE INDEX jobs_client_facts ON jobs (client_facts_id);
CREATE INDEX jobs_server_facts ON jobs (server_facts_id);

-- The state machine, enforced below the C code as well.
CREATE TRIGGER jobs_state_machine BEFORE UPDATE OF state ON jobs
WHEN NEW.state <> OLD.state AND NOT (
	(OLD.state = 'queued' AND NEW.state IN ('running', 'cancelled')) OR
	(OLD.state = 'running' AND NEW.state IN ('queued', 'done', 'failed',
	    'cancelled')))
BEGIN
	SELECT RAISE(ABORT, 'illegal job state transition');
END;

-- One row per measured value; interval 0 is the whole transfer, n the n-th
-- second of it.
CREATE TABLE samples (
	id		INTEGER PRIMARY KEY,
	job_id		INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
	metric		TEXT NOT NULL,
	value		REAL NOT NULL,
	unit		TEXT NOT NULL DEFAULT '',
	interval	INTEGER NOT NULL DEFAULT 0 CHECK (interval >= 0)
);
CREATE INDEX samples_job ON samples (job_id, metric, interval);
CREATE INDEX samples_metric ON samples (metric, interval);

CREATE TABLE raw_outputs (
	id		INTEGER PRIMARY KEY,
	job_id		INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
	name		TEXT NOT NULL,
	data		BLOB NOT NULL,
	truncated	INTEGER NOT NULL DEFAULT 0,
	UNIQUE (job_id, name)
);
