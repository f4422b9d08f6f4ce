-- labrat schema version 13:
-- the HTTP API's bearer tokens (issue 14; http_token.c).  A token is shown
-- once, as lrt_<id>_<secret>, and never stored: salt is 16 random bytes
-- (hex) of this token, hash is hex(HMAC-SHA256(key = salt, msg = the whole
-- secret)).  read_only tokens may read but not mutate.  A revoked token
-- keeps its row (revoked_ms set), so its name stays taken and `labrat token
-- list` shows when it was revoked.  Times are milliseconds since the epoch.

CREATE TABLE tokens (
	id		INTEGER PRIMARY KEY,
	name		TEXT NOT NULL UNIQUE,
	read_only	INTEGER NOT NULL DEFAULT 0 CHECK (read_only IN (0, 1)),
	salt		TEXT NOT NULL,
	hash		TEXT NOT NULL,
	created_ms	INTEGER NOT NULL,
	revoked_ms	INTEGER,
	last_used_ms	INTEGER
);
