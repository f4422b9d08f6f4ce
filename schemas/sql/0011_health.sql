-- labrat schema version 11: link (host pair) health, LAVA's device states.
-- link_health: one row per link name, created by its first check or state
-- change (a link without a row is 'unknown').  since: when it entered its
-- state; why: the words of the check or the operator that put it there;
-- warnings: the last check's warnings (a declared-versus-reported driver
-- mismatch), '' = none; checked_at / check_ok / run_id: the last check
-- that ran (NULL = never; run_id the run of kind 'health' it measured in);
-- good_figure / good_at / good_facts: the last PASSING check's throughput
-- (bit/s, the default knobs), its time, and the facts it saw, one line per
-- end "HOST IF os=OS driver=D chip=C" (the next check compares with them).
-- health_transitions: every state change, never updated or deleted: who
-- (a daemon's owner text, "user@host pid N" for the CLI), at (ms), why.

CREATE TABLE link_health (
	link		TEXT PRIMARY KEY,
	state		TEXT NOT NULL CHECK (state IN ('unknown', 'good', 'bad',
			    'maintenance', 'retired')),
	since		INTEGER NOT NULL,
	why		TEXT NOT NULL DEFAULT '',
	warnings	TEXT NOT NULL DEFAULT '',
	checked_at	INTEGER,
	check_ok	INTEGER,
	run_id		INTEGER REFERENCES runs (id) ON DELETE SET NULL,
	good_figure	REAL,
	good_at		INTEGER,
	good_facts	TEXT
);

CREATE TABLE health_transitions (
	id		INTEGER PRIMARY KEY,
	link		TEXT NOT NULL,
	from_state	TEXT NOT NULL,
	to_state	TEXT NOT NULL,
	who		TEXT NOT NULL,
	at		INTEGER NOT NULL,
	why		TEXT NOT NULL DEFAULT ''
);
CREATE INDEX health_transitions_link ON health_transitions (link, id);
