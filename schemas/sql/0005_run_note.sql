-- labrat schema version 5: a run can carry a note (`labrat run --note
-- TEXT`), what was being tried, shown by `labrat runs` and the report.

ALTER TABLE runs ADD COLUMN note TEXT;
