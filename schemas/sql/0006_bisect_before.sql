-- labrat schema version 6: a bisect keeps the revision each host of its
-- link ran before it started, so that its end puts them back there even
-- when the bisect was resumed by another controller, or reset.  NULL when
-- the kernel provider could not tell (and for bisects started before).

ALTER TABLE bisects ADD COLUMN client_before TEXT;
ALTER TABLE bisects ADD COLUMN server_before TEXT;
