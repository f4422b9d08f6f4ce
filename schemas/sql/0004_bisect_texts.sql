-- labrat schema version 4: a bisect keeps the texts of the inventory and
-- test files it was started with, so that a resume measures what was
-- validated at the start even if the files changed or are gone (a run
-- keeps its texts the same way, in runs.inventory_text / plan_text).
-- NULL for bisects started before (version 3 and older): those resume from their paths.

ALTER TABLE bisects ADD COLUMN inventory_text TEXT;
ALTER TABLE bisects ADD COLUMN test_text TEXT;
