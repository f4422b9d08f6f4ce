-- labrat schema version 8: a failed job says whose failure it was.
-- 'infra': the lab could not measure (the preflight found a link down, a
-- path that drops large don't-fragment packets, NAT left over; SSH or the
-- agent failed through every retry) -- never evidence of a regression.
-- 'test': a real answer that no retry changes (a knob the driver refused,
-- a job the agent refused as asked).  NULL for jobs that did not fail, and
-- for failures recorded before this version.

ALTER TABLE jobs ADD COLUMN failure_class TEXT
	CHECK (failure_class IN ('infra', 'test'));
