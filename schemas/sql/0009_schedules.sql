-- labrat schema version 9: what a schedule needs to fire by itself.  The
-- schedules table of version 2 gains the time zone its cron expression is
-- read in (a zoneinfo name, default UTC), the plan's text as read when the
-- schedule was added (as runs keep theirs), the links it runs on
-- (comma-separated link names of the plan, '' = all of them), the
-- revision source (optional, as bisect's --revisions) and last_fired, the
-- latest firing slot (ms since the epoch; NULL = never), which only grows
-- (store_sched_fired) so a restarted daemon never fires a slot twice.
-- Names are checked by store_sched_add (^[A-Za-z0-9._-]{1,64}$).

ALTER TABLE schedules ADD COLUMN tz TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE schedules ADD COLUMN plan_text TEXT;
ALTER TABLE schedules ADD COLUMN links TEXT NOT NULL DEFAULT '';
ALTER TABLE schedules ADD COLUMN revisions TEXT;
ALTER TABLE schedules ADD COLUMN last_fired INTEGER;
