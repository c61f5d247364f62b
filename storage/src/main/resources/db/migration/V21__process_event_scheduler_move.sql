-- A waiting calculation job's change of scheduler state is an event that leaves the process in its
-- state (waiting -> waiting): these say what changed, as the values of the node's scheduler_state
-- (scheduler_from null for the first state recorded). Both null for every other event.
ALTER TABLE process_event ADD COLUMN scheduler_from text, ADD COLUMN scheduler_to text;
