-- labrat schema version 3: a facts row keeps what the inventory declares
-- for the interface beside what the host reported.  driver and chip stay
-- the host's evidence (a veth reports driver "veth" and no chip, whatever
-- the inventory calls it); declared_driver and declared_chip are the
-- inventory's claim, NULL where it makes none (and in rows recorded before
-- this version).

ALTER TABLE host_facts ADD COLUMN declared_driver TEXT;
ALTER TABLE host_facts ADD COLUMN declared_chip TEXT;
