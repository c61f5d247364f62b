-- A process is never stored as running: each step is one transaction holding the process row's
-- lock, so no one could read it (see the engine's ProcessState). The states are those the
-- engine writes.
ALTER TABLE process DROP CONSTRAINT process_state_check;
ALTER TABLE process ADD CONSTRAINT process_state_check
    CHECK (state IN ('created', 'waiting', 'finished', 'excepted', 'killed'));
